//go:build unix

package diagnostics_test

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/godot-mcp/godot-mcp/plugins/diagnostics"
	"github.com/godot-mcp/godot-mcp/sdk"
	"github.com/godot-mcp/godot-mcp/sdk/sdktest"
)

// The command the tools send, with the class handlers.gd must declare.
var commands = []sdktest.EditorCommand{{Name: "cmd_diagnostics_editor_log", Class: sdk.ReadOnly}}

func start(t *testing.T) *sdktest.Harness {
	return sdktest.StartWith(t, diagnostics.Toolset(), commands)
}

// The editor code declares what the Go side sends, read_only.
func TestEditorCodeDeclaresTheLogCommand(t *testing.T) {
	sdktest.CheckEditorCode(t, diagnostics.Toolset(), commands)
}

func TestEditorLogPassesTheCursor(t *testing.T) {
	h := start(t)
	h.Addon().HandleResult("cmd_diagnostics_editor_log", map[string]any{
		"entries":     []any{map[string]any{"seq": 7, "severity": "error", "message": "Parse Error: x", "file": "res://a.gd", "line": 3, "text": " ERROR: res://a.gd:3 - Parse Error: x"}},
		"next_cursor": 7, "has_more": false, "dropped": 0, "available": 7, "scanning": false,
	})
	res, err := h.Call(context.Background(), "editor_log", map[string]any{"since": 6, "severity": "error"})
	if err != nil || res.Err != nil {
		t.Fatal(err, res.Err)
	}
	var out struct {
		Entries []struct {
			File string
			Line int
		}
		NextCursor int `json:"next_cursor"`
	}
	res.Decode(&out)
	if len(out.Entries) != 1 || out.Entries[0].File != "res://a.gd" || out.Entries[0].Line != 3 || out.NextCursor != 7 {
		t.Fatalf("%s", res.Structured)
	}
	if strings.Contains(string(res.Structured), "scanning") {
		t.Fatalf("the editor's scanning flag leaked into the result: %s", res.Structured)
	}
	got := h.Addon().Received()
	if p := string(got[len(got)-1].Params); p != `{"limit":200,"severity":"error","since":6}` {
		t.Fatalf("params %s", p)
	}
}

// rescan starts the editor's scan, waits until it ends, then reads.
func TestEditorLogRescanWaitsForTheScan(t *testing.T) {
	h := start(t)
	var calls atomic.Int32
	h.Addon().Handle("cmd_diagnostics_editor_log", func(_ context.Context, params json.RawMessage) (any, *sdk.Error) {
		n := calls.Add(1)
		return map[string]any{"entries": []any{}, "next_cursor": 0, "has_more": false, "dropped": 0, "available": 0, "scanning": n < 3}, nil
	})
	res, err := h.Call(context.Background(), "editor_log", map[string]any{"rescan": true})
	if err != nil || res.Err != nil {
		t.Fatal(err, res.Err)
	}
	rec := h.Addon().Received()
	if calls.Load() != 4 || !strings.Contains(string(rec[0].Params), `"rescan":true`) || strings.Contains(string(rec[3].Params), "rescan") {
		t.Fatalf("%d calls: %+v", calls.Load(), rec)
	}
}

// fakeGodot is a GODOT_BIN that prints out on stderr (like the check script
// would) and exits.
func fakeGodot(t *testing.T, out string) {
	t.Helper()
	dir := t.TempDir()
	os.WriteFile(filepath.Join(dir, "out.txt"), []byte(out), 0o644)
	bin := filepath.Join(dir, "godot")
	os.WriteFile(bin, []byte("#!/bin/sh\ncat "+filepath.Join(dir, "out.txt")+" >&2\n"), 0o755)
	t.Setenv("GODOT_BIN", bin)
}

const checkOutput = `Godot Engine v4.4.1.stable
@@GODOT_MCP_CHECK begin res://broken.gd
SCRIPT ERROR: Parse Error: Expected closing ")" after call arguments.
          at: GDScript::reload (res://broken.gd:5)
ERROR: Failed to load script "res://broken.gd" with error "Parse error".
   at: load (modules/gdscript/gdscript.cpp:3022)
@@GODOT_MCP_CHECK end {"path":"res://broken.gd","loaded":true}
@@GODOT_MCP_CHECK begin res://good.gd
@@GODOT_MCP_CHECK end {"path":"res://good.gd","loaded":true}
@@GODOT_MCP_CHECK begin res://main.tscn
ERROR: Resource file not found: res://missing.png (expected type: Texture2D)
   at: _load (core/io/resource_loader.cpp:352)
WARNING: res://main.tscn:4 - ext_resource, invalid UID: uid://bogus - using text path instead: res://good.gd
     at: load (scene/resources/resource_format_text.cpp:447)
ERROR: res://main.tscn:10 - Parse Error: [ext_resource] referenced non-existent resource at: res://missing.png.
   at: _printerr (scene/resources/resource_format_text.cpp:39)
ERROR: something else went wrong
   at: f (core/x.cpp:1)
@@GODOT_MCP_CHECK dep {"path":"res://missing.png","uid":"","uid_known":true,"exists":false}
@@GODOT_MCP_CHECK dep {"path":"res://good.gd","uid":"uid://bogus","uid_known":false,"exists":true}
@@GODOT_MCP_CHECK end {"path":"res://main.tscn","loaded":true}
@@GODOT_MCP_CHECK begin res://theme.tres
`

func TestCheckProjectListsIssuesWithLines(t *testing.T) {
	dir := t.TempDir()
	os.MkdirAll(filepath.Join(dir, ".godot"), 0o755)
	os.WriteFile(filepath.Join(dir, "project.godot"), []byte("config_version=5\n"), 0o644)
	os.WriteFile(filepath.Join(dir, "main.tscn"), []byte("[gd_scene format=3]\n\n[ext_resource type=\"Texture2D\" path=\"res://missing.png\" id=\"1\"]\n[ext_resource type=\"Script\" uid=\"uid://bogus\" path=\"res://good.gd\" id=\"2\"]\n"), 0o644)
	t.Setenv("GODOT_MCP_PROJECT_DIR", dir)
	fakeGodot(t, checkOutput)
	h := start(t)
	res, err := h.Call(context.Background(), "check_project", nil)
	if err != nil || res.Err != nil {
		t.Fatal(err, res.Err)
	}
	var out struct {
		OK      bool           `json:"ok_project"`
		Checked map[string]int `json:"checked"`
		Issues  []struct {
			File, Severity, Kind, Message, Dependency string
			Line                                      int
		}
		Total       int      `json:"issues_total"`
		BrokenFiles []string `json:"broken_files"`
		Unchecked   []string `json:"unchecked"`
		NextOffset  int      `json:"next_offset"`
	}
	res.Decode(&out)
	var got []string
	for _, is := range out.Issues {
		got = append(got, is.File+":"+itoa(is.Line)+" "+is.Severity+" "+is.Kind+" "+is.Dependency)
	}
	want := []string{
		"res://broken.gd:5 error parse_error ",
		"res://main.tscn:0 error load_error ",
		"res://main.tscn:3 error missing_dependency res://missing.png",
		"res://main.tscn:4 warning invalid_uid uid://bogus",
	}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Fatalf("issues\n%s\nwant\n%s\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"), res.Structured)
	}
	if out.OK || out.Checked["scripts"] != 2 || out.Checked["scenes"] != 1 || out.Checked["resources"] != 1 ||
		strings.Join(out.BrokenFiles, ",") != "res://broken.gd,res://main.tscn" || strings.Join(out.Unchecked, ",") != "res://theme.tres" {
		t.Fatalf("%s", res.Structured)
	}
	// Paged.
	res, _ = h.Call(context.Background(), "check_project", map[string]any{"limit": 3})
	res.Decode(&out)
	if len(out.Issues) != 3 || out.NextOffset != 3 || out.Total != 4 {
		t.Fatalf("%s", res.Structured)
	}
	res, _ = h.Call(context.Background(), "check_project", map[string]any{"limit": 3, "offset": 3})
	out.NextOffset = 0
	res.Decode(&out)
	if len(out.Issues) != 1 || out.NextOffset != 0 || out.Issues[0].Kind != "invalid_uid" {
		t.Fatalf("%s", res.Structured)
	}
}

func TestCheckProjectWithoutProject(t *testing.T) {
	t.Setenv("GODOT_MCP_PROJECT_DIR", "")
	h := start(t)
	res, _ := h.Call(context.Background(), "check_project", nil)
	if res.Err == nil || res.Err.Code != sdk.CodePreconditionFailed || res.Err.Required != sdk.RequireProjectDir {
		t.Fatalf("%+v", res.Err)
	}
}

func itoa(n int) string {
	b, _ := json.Marshal(n)
	return string(b)
}

// #24.12: a check that did not run says how Godot ended, not a Go pointer.
func TestCheckProjectThatDidNotRunSaysTheExitCode(t *testing.T) {
	dir := t.TempDir()
	os.WriteFile(filepath.Join(dir, "project.godot"), []byte("config_version=5\n"), 0o644)
	t.Setenv("GODOT_MCP_PROJECT_DIR", dir)
	bin := filepath.Join(t.TempDir(), "godot")
	os.WriteFile(bin, []byte("#!/bin/sh\necho 'cannot open display' >&2\nexit 3\n"), 0o755)
	t.Setenv("GODOT_BIN", bin)
	h := start(t)
	res, _ := h.Call(context.Background(), "check_project", nil)
	if res.Err == nil || !strings.Contains(res.Err.Hint, "exit code 3") || strings.Contains(res.Err.Hint, "0x") {
		t.Fatalf("%+v", res.Err)
	}
}
