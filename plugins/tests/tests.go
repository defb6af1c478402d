// Package tests is the built-in tests toolset: it finds and runs a project's
// GUT and gdUnit4 suites in a separate headless Godot process (no editor
// needed) and answers per-test results read from the frameworks' JUnit XML
// reports, with each test's output and script errors read from the console.
package tests

import (
	"github.com/godot-mcp/godot-mcp/plugins/internal/engines"
	"github.com/godot-mcp/godot-mcp/sdk"
)

// Toolset is the tests toolset.
func Toolset() sdk.Toolset {
	return sdk.Toolset{
		Name:           "tests",
		Version:        "0.1.0",
		Description:    "Unit tests: detect GUT or gdUnit4, list suites and tests, run them headless with per-test results, keep a playtest as a test.",
		Keywords:       []string{"GUT", "gdUnit4", "unit tests", "test suites", "test results", "playtest to test"},
		MinGodot:       engines.MinGodot,
		MaxTestedGodot: engines.MaxTestedGodot,
		Tools: []sdk.Tool{
			sdk.NewTool("detect", sdk.ToolOptions{
				Title:       "Detect test frameworks",
				Description: "Which test frameworks the project has (GUT in res://addons/gut, gdUnit4 in res://addons/gdUnit4) with versions; when neither, install says what to install. Needs no editor.",
				Safety:      sdk.ReadOnly,
			}, detectTool),
			sdk.NewTool("list", sdk.ToolOptions{
				Title:       "List tests",
				Description: "Discovers test suites without running them: scripts extending GutTest or GdUnitTestSuite (also through project base classes; GUT inner Test* classes), each with its test_* functions and their lines.",
				Safety:      sdk.ReadOnly,
			}, list),
			sdk.NewTool("run", sdk.ToolOptions{
				Title: "Run tests",
				Description: "Runs GUT or gdUnit4 tests headless (all, a folder, a script, or one test) in a separate Godot process with a time limit, reporting progress per test. " +
					"Answers per-test results (suite, test, status passed/failed/error/skipped/pending, duration, failure message with file:line, captured output) and totals; " +
					"passed says whether all passed. A script error inside a test is status error even where the framework counts it passed. Godot: GODOT_BIN, else the editor's executable, else PATH.",
				Safety:        sdk.Runtime,
				RunsCode:      true,
				Preconditions: []string{sdk.RequireGodotBinary},
			}, run),
			sdk.NewTool("write_playtest", sdk.ToolOptions{
				Title: "Keep a playtest as a test",
				Description: "Writes a GUT or gdUnit4 test script that plays a scene for a number of physics ticks (or frames), sends an input timeline (as godot_playtest_step takes it, or a godot_playtest_record recording) and asserts expressions at given ticks, then runs it headless and answers the result. " +
					"The script needs only the framework, so the proof stays in the project.",
				Safety:          sdk.Mutating,
				RunsCode:        true,
				DestructiveWhen: []string{"overwrite"},
				Preconditions:   []string{sdk.RequireGodotBinary},
			}, writePlaytest),
		},
	}
}
