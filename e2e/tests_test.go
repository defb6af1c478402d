package e2e

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/godot-mcp/godot-mcp/internal/testing/godotengines"
)

// The test frameworks are not part of this repository: these tests run
// against a copy on the machine, the addons/<framework> folder named by an
// environment variable, else the framework cache
// (~/.cache/godot-mcp/frameworks/<name>/addons/<name>, docs/godot-versions.md),
// and skip with one line when there is none.
const (
	gutDirEnv     = "GODOT_MCP_TEST_GUT_DIR"
	gdunit4DirEnv = "GODOT_MCP_TEST_GDUNIT4_DIR"
)

// frameworkCopy returns the framework folder named by env or in the cache,
// or skips.
func frameworkCopy(t *testing.T, env, cfg string) string {
	t.Helper()
	dir := godotengines.FrameworkDir(env, cfg)
	if _, err := os.Stat(dir); err != nil && os.Getenv(env) == "" {
		t.Skipf("no copy of addons/%s: set %s or put one at %s (docs/godot-versions.md)", cfg, env, dir)
	}
	if _, err := os.Stat(filepath.Join(dir, "plugin.cfg")); err != nil {
		t.Fatalf("%s has no plugin.cfg: %v", dir, err)
	}
	return dir
}

// testsProject is a copy of the sample project with the framework at
// addons/<name> and the given test scripts.
func testsProject(t *testing.T, fwDir, name string, files map[string]string) string {
	t.Helper()
	project := newProject(t)
	if err := copyTree(fwDir, filepath.Join(project, "addons", name)); err != nil {
		t.Fatal(err)
	}
	for p, body := range files {
		full := filepath.Join(project, filepath.FromSlash(p))
		os.MkdirAll(filepath.Dir(full), 0o755)
		if err := os.WriteFile(full, []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return project
}

type testsRun struct {
	Framework string         `json:"framework"`
	Passed    bool           `json:"passed"`
	TimedOut  bool           `json:"timed_out"`
	Totals    map[string]int `json:"totals"`
	Results   []struct {
		Suite, Test, Status, Message, File, Output string
		Line                                       int
	} `json:"results"`
	Output string `json:"output"`
}

func (r testsRun) String() string {
	var b strings.Builder
	fmt.Fprintf(&b, "%s passed=%v timed_out=%v totals=%v\n", r.Framework, r.Passed, r.TimedOut, r.Totals)
	for _, x := range r.Results {
		fmt.Fprintf(&b, "  %s > %s: %s %s:%d %q out=%q\n", x.Suite, x.Test, x.Status, x.File, x.Line, x.Message, x.Output)
	}
	return b.String() + r.Output
}

// checkOnePassOneFail checks a run of a suite with test_passes (prints
// "hello from the test") and test_fails (fails at failLine).
func checkOnePassOneFail(t *testing.T, r testsRun, suite string, failLine int) {
	t.Helper()
	if r.Passed || r.TimedOut || r.Totals["tests"] != 2 || r.Totals["passed"] != 1 || r.Totals["failed"] != 1 || len(r.Results) != 2 {
		t.Fatalf("want exactly one passed and one failed test:\n%s", r)
	}
	for _, x := range r.Results {
		if x.Suite != suite {
			t.Fatalf("suite %q, want %q:\n%s", x.Suite, suite, r)
		}
		switch x.Test {
		case "test_passes":
			if x.Status != "passed" || !strings.Contains(x.Output, "hello from the test") {
				t.Fatalf("test_passes:\n%s", r)
			}
		case "test_fails":
			if x.Status != "failed" || x.File != suite || x.Line != failLine || x.Message == "" {
				t.Fatalf("test_fails should fail at %s:%d:\n%s", suite, failLine, r)
			}
		default:
			t.Fatalf("unexpected test %q:\n%s", x.Test, r)
		}
	}
}

func TestTestsGUT(t *testing.T) {
	gut := frameworkCopy(t, gutDirEnv, "gut")
	project := testsProject(t, gut, "gut", map[string]string{
		"test/unit/test_sample.gd": "extends GutTest\n\nfunc test_passes() -> void:\n\tprint(\"hello from the test\")\n\tassert_eq(1 + 1, 2)\n\nfunc test_fails() -> void:\n\tvar got: int = 1 + 1\n\tassert_eq(got, 3, \"one and one\")\n",
	})
	h := startHostT(t, "ws://127.0.0.1:0", "GODOT_MCP_PROJECT_DIR="+project)
	h.mustCall(t, "godot_enable_toolset", map[string]any{"name": "tests"}, nil)

	var det struct {
		Frameworks []struct{ Name, Version string } `json:"frameworks"`
	}
	h.mustCall(t, "godot_tests_detect", nil, &det)
	if len(det.Frameworks) != 1 || det.Frameworks[0].Name != "gut" || det.Frameworks[0].Version == "" {
		t.Fatalf("detect: %+v", det)
	}
	var list struct {
		Tests  int `json:"tests"`
		Suites []struct {
			Suite string
			Tests []struct {
				Name string
				Line int
			}
		} `json:"suites"`
	}
	h.mustCall(t, "godot_tests_list", nil, &list)
	if list.Tests != 2 || len(list.Suites) != 1 || list.Suites[0].Suite != "res://test/unit/test_sample.gd" || list.Suites[0].Tests[1].Line != 7 {
		t.Fatalf("list: %+v", list)
	}

	var r testsRun
	h.mustCall(t, "godot_tests_run", map[string]any{"timeout_ms": 180000}, &r)
	checkOnePassOneFail(t, r, "res://test/unit/test_sample.gd", 9)

	h.mustCall(t, "godot_tests_run", map[string]any{"path": "res://test/unit/test_sample.gd", "test": "test_passes", "timeout_ms": 120000}, &r)
	if !r.Passed || len(r.Results) != 1 || r.Results[0].Test != "test_passes" {
		t.Fatalf("one test:\n%s", r)
	}
}

func TestTestsGdUnit4(t *testing.T) {
	if engineAtLeast(4, 8) && os.Getenv(gdunit4DirEnv) == "" {
		t.Skip("gdUnit4 (5.1.1 to its master of 2026-11) does not compile on Godot 4.8-dev: FileAccess.get_as_text() lost its argument; set " +
			gdunit4DirEnv + " to a gdUnit4 that does (docs/godot-versions.md)")
	}
	gdunit := frameworkCopy(t, gdunit4DirEnv, "gdUnit4")
	project := testsProject(t, gdunit, "gdUnit4", map[string]string{
		"test/sample_test.gd": "extends GdUnitTestSuite\n\nfunc test_passes() -> void:\n\tprint(\"hello from the test\")\n\tassert_int(1 + 1).is_equal(2)\n\nfunc test_fails() -> void:\n\tvar got: int = 1 + 1\n\tassert_int(got).is_equal(3)\n",
	})
	h := startHostT(t, "ws://127.0.0.1:0", "GODOT_MCP_PROJECT_DIR="+project)
	h.mustCall(t, "godot_enable_toolset", map[string]any{"name": "tests"}, nil)
	var r testsRun
	h.mustCall(t, "godot_tests_run", map[string]any{"timeout_ms": 180000}, &r)
	checkOnePassOneFail(t, r, "res://test/sample_test.gd", 9)

	h.mustCall(t, "godot_tests_run", map[string]any{"path": "res://test/sample_test.gd", "test": "test_fails", "timeout_ms": 120000}, &r)
	if r.Passed || len(r.Results) != 1 || r.Results[0].Test != "test_fails" || r.Results[0].Line != 9 {
		t.Fatalf("one test:\n%s", r)
	}
}

// Without a framework, run says what to install.
func TestTestsWithoutFramework(t *testing.T) {
	project := newProject(t)
	h := startHostT(t, "ws://127.0.0.1:0", "GODOT_MCP_PROJECT_DIR="+project)
	h.mustCall(t, "godot_enable_toolset", map[string]any{"name": "tests"}, nil)
	e := h.mustFail(t, "godot_tests_run", nil)
	if e.Error != "PRECONDITION_FAILED" || !strings.Contains(e.Hint, "addons/gut") || !strings.Contains(e.Hint, "addons/gdUnit4") {
		t.Fatalf("%+v", e)
	}
}

// walkerFiles: a node that walks right while ui_right is held, 120 px/s in
// physics ticks (2 px a tick at 60 ticks/s).
var walkerFiles = map[string]string{
	"walker.gd":   "extends Node2D\n\nvar speed: float = 120.0\n\nfunc _physics_process(delta: float) -> void:\n\tif Input.is_action_pressed(\"ui_right\"):\n\t\tposition.x += speed * delta\n",
	"walker.tscn": "[gd_scene load_steps=2 format=3]\n\n[ext_resource type=\"Script\" path=\"res://walker.gd\" id=\"1\"]\n\n[node name=\"Walker\" type=\"Node2D\"]\nscript = ExtResource(\"1\")\n",
}

// playtestAsTest writes a playtest as a test of fw with
// godot_tests_write_playtest: held from tick 10 to tick 40, the walker moves
// exactly 30 ticks' worth (60 px) and no more; the written test passes
// headless, and fails once the game is changed so it no longer walks.
func playtestAsTest(t *testing.T, fw, fwName, fwDir string) {
	project := testsProject(t, fwDir, fwName, walkerFiles)
	h := startHostT(t, "ws://127.0.0.1:0", "GODOT_MCP_PROJECT_DIR="+project)
	h.mustCall(t, "godot_enable_toolset", map[string]any{"name": "tests"}, nil)
	args := map[string]any{
		"path":  "res://test/test_walk_right.gd",
		"scene": "res://walker.tscn",
		"count": 60,
		"inputs": []any{
			map[string]any{"at": 10, "type": "action", "action": "ui_right", "state": "press"},
			map[string]any{"at": 40, "type": "action", "action": "ui_right", "state": "release"},
		},
		"checks": []any{
			map[string]any{"at": 10, "expr": "position.x == 0.0", "message": "nothing moves before the press"},
			map[string]any{"at": 40, "expr": "abs(position.x - 60.0) < 0.01", "message": "30 ticks held: 60 px"},
			map[string]any{"at": 60, "expr": "abs(position.x - 60.0) < 0.01", "message": "stops on release"},
		},
		"timeout_ms": 180000,
	}
	var out struct {
		Path, Framework, Test string
		Written               bool
		Run                   *testsRun
	}
	h.mustCall(t, "godot_tests_write_playtest", args, &out)
	if !out.Written || out.Framework != fw || out.Run == nil {
		t.Fatalf("write_playtest: %+v", out)
	}
	if !out.Run.Passed || out.Run.Totals["passed"] != 1 || len(out.Run.Results) != 1 || out.Run.Results[0].Test != "test_walk_right" {
		t.Fatalf("the written test should pass:\n%s", out.Run)
	}
	src, err := os.ReadFile(filepath.Join(project, "test", "test_walk_right.gd"))
	if err != nil || !strings.Contains(string(src), "const SCENE := \"res://walker.tscn\"") {
		t.Fatalf("the test script on disk: %v\n%s", err, src)
	}

	// The same path again without overwrite is refused, the file kept.
	if e := h.mustFail(t, "godot_tests_write_playtest", args); e.Error != "PRECONDITION_FAILED" || !strings.Contains(e.Hint, "overwrite") {
		t.Fatalf("writing over the test without overwrite: %+v", e)
	}

	// Break the game: the walker no longer walks. The kept test says so.
	writeFiles(t, project, map[string]string{"walker.gd": strings.Replace(walkerFiles["walker.gd"], "120.0", "0.0", 1)})
	var r testsRun
	h.mustCall(t, "godot_tests_run", map[string]any{"path": "res://test/test_walk_right.gd", "timeout_ms": 180000}, &r)
	if r.Passed || len(r.Results) != 1 || r.Results[0].Status != "failed" || !strings.Contains(r.String(), "30 ticks held") {
		t.Fatalf("the kept test should fail once the walker stops walking, naming the check:\n%s", r)
	}
}

func TestTestsWritePlaytestGUT(t *testing.T) {
	playtestAsTest(t, "gut", "gut", frameworkCopy(t, gutDirEnv, "gut"))
}

func TestTestsWritePlaytestGdUnit4(t *testing.T) {
	if engineAtLeast(4, 8) && os.Getenv(gdunit4DirEnv) == "" {
		t.Skip("gdUnit4 does not compile on Godot 4.8-dev (see TestTestsGdUnit4)")
	}
	playtestAsTest(t, "gdunit4", "gdUnit4", frameworkCopy(t, gdunit4DirEnv, "gdUnit4"))
}
