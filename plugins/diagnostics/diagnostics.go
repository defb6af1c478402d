// Package diagnostics is the built-in diagnostics toolset: the editor's own
// Output panel (what the human sees: script parse errors at boot and after a
// change, @tool script errors, resource loading and import errors) read from
// a cursor, and a project-wide check run in a separate headless Godot that
// loads every script, scene and resource and lists what is broken.
package diagnostics

import (
	"context"
	"embed"
	"fmt"
	"time"

	"github.com/godot-mcp/godot-mcp/plugins/internal/engines"
	"github.com/godot-mcp/godot-mcp/sdk"
)

//go:embed editor
var editorFiles embed.FS

// LogIn pages the editor's output.
type LogIn struct {
	Since    int    `json:"since,omitempty" jsonschema:"minimum=0" description:"next_cursor of the previous answer; 0: from the oldest entry kept"`
	Limit    int    `json:"limit,omitempty" jsonschema:"minimum=1,maximum=1000,default=200" description:"most entries per answer"`
	Severity string `json:"severity,omitempty" jsonschema:"enum=all|error|warning|errors_and_warnings,default=all"`
	Rescan   bool   `json:"rescan,omitempty" description:"first have the editor scan the file system, so scripts changed on disk are re-parsed and their errors shown"`
}

// Referrer is a file that names a missing dependency.
type Referrer struct {
	File string `json:"file"`
	Line int    `json:"line"`
}

// LogEntry is one line of the Output panel.
type LogEntry struct {
	Seq      int    `json:"seq"`
	Severity string `json:"severity" jsonschema:"enum=error|warning|info"`
	Message  string `json:"message" description:"the text without the ERROR:/WARNING: prefix and the file:line"`
	File     string `json:"file,omitempty"`
	Line     int    `json:"line,omitempty"`
	Text     string `json:"text" description:"the line as the panel shows it"`
	// A message about a file that does not exist names it as the dependency,
	// and the scene or resource that refers to it as file:line.
	Dependency   string     `json:"dependency,omitempty" description:"the missing file the message is about"`
	ReferencedBy []Referrer `json:"referenced_by,omitempty" description:"text scenes and resources naming the missing file (at most 10)"`
	Source       string     `json:"source,omitempty" description:"the engine's own source location, when the message had one instead of a res:// one"`
}

// LogOut is a page of entries.
type LogOut struct {
	Entries    []LogEntry `json:"entries"`
	NextCursor int        `json:"next_cursor" description:"pass as since to get only newer entries"`
	HasMore    bool       `json:"has_more" description:"more entries match after this page"`
	Dropped    int        `json:"dropped" description:"entries after since that were no longer kept (the newest 5000 are)"`
	Available  int        `json:"available"`
}

// logAnswer is the editor's answer: a page, and whether its file system
// scan is under way.
type logAnswer struct {
	LogOut
	Scanning bool `json:"scanning"`
}

const (
	logTimeout = 15 * time.Second
	rescanWait = 30 * time.Second
	afterScan  = 500 * time.Millisecond
)

func editorLog(ctx context.Context, call *sdk.Call, in LogIn) (LogOut, error) {
	if in.Limit == 0 {
		in.Limit = 200
	}
	if in.Severity == "" {
		in.Severity = "all"
	}
	params := map[string]any{"since": in.Since, "limit": in.Limit, "severity": in.Severity}
	if in.Rescan {
		// The editor starts the scan and answers; the scan (and the script
		// reloads it causes) runs on in the editor: wait for it to end.
		deadline := time.Now().Add(rescanWait)
		st, err := sdk.Send[logAnswer](ctx, call.Host, "cmd_diagnostics_editor_log", map[string]any{"since": in.Since, "limit": 1, "severity": in.Severity, "rescan": true}, logTimeout)
		for err == nil && st.Scanning && time.Now().Before(deadline) {
			select {
			case <-ctx.Done():
				return LogOut{}, ctx.Err()
			case <-time.After(200 * time.Millisecond):
			}
			st, err = sdk.Send[logAnswer](ctx, call.Host, "cmd_diagnostics_editor_log", map[string]any{"since": in.Since, "limit": 1, "severity": in.Severity}, logTimeout)
		}
		if err != nil {
			return LogOut{}, err
		}
		if st.Scanning {
			return LogOut{}, sdk.Timeout(fmt.Sprintf("the editor's file system scan did not end within %s; call again without rescan to read what is there", rescanWait))
		}
		time.Sleep(afterScan) // the editor reloads the changed scripts right after the scan
	}
	// The page comes with the scan flag, used above and not part of the result.
	a, err := sdk.Send[logAnswer](ctx, call.Host, "cmd_diagnostics_editor_log", params, logTimeout)
	if err != nil {
		return LogOut{}, err
	}
	out := a.LogOut
	if out.Entries == nil {
		out.Entries = []LogEntry{}
	}
	return out, nil
}

// Toolset is the diagnostics toolset.
func Toolset() sdk.Toolset {
	return sdk.Toolset{
		Name:           "diagnostics",
		Version:        "0.1.0",
		Description:    "What is broken: the editor's Output panel errors and warnings from a cursor, and a whole-project check (scripts parse, scenes and resources load, dependencies and UIDs resolve).",
		Keywords:       []string{"Output panel", "errors", "warnings", "@tool errors", "broken dependencies", "project check"},
		MinGodot:       engines.MinGodot,
		MaxTestedGodot: engines.MaxTestedGodot,
		EditorCode:     sdk.Subdir(editorFiles, "editor"),
		Tools: []sdk.Tool{
			sdk.NewTool("editor_log", sdk.ToolOptions{
				Title: "Editor output and errors",
				Description: "The editor's Output panel from a cursor, oldest first: script parse errors (at boot and after a change), @tool script errors, resource loading errors (missing dependencies, bad UIDs), import errors and prints, " +
					"each with severity and file:line when the message names one. Pass next_cursor as since for only what is new. The panel's filters and Clear apply; game errors are in godot_runtime_get_errors.",
				Safety:        sdk.ReadOnly,
				Preconditions: []string{sdk.RequireBridgeConnected},
			}, editorLog),
			sdk.NewTool("check_project", sdk.ToolOptions{
				Title: "Check the whole project",
				Description: "Loads every script, scene and resource (res://addons only with include_addons) in a separate headless Godot and lists the issues: parse errors, load errors, missing dependencies and unknown UIDs, each with file:line, " +
					"plus broken_files. Works without an editor; sees the files on disk (save first). Godot: GODOT_BIN, else the editor's executable, else PATH.",
				Safety:        sdk.ReadOnly,
				RunsCode:      true, // loading scripts runs their static initializers
				Preconditions: []string{sdk.RequireGodotBinary},
			}, checkProject),
		},
	}
}
