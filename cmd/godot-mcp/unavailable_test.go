package main

import (
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/godot-mcp/godot-mcp/host/envelope"
)

// Without a Godot binary, godot_get_server_info names the tools that start
// a separate Godot, before any of them is enabled, with the fix; a call of
// one is refused the same way. With one, none is listed.
func TestServerInfoSaysWhichToolsCannotWork(t *testing.T) {
	project := t.TempDir()
	if err := os.WriteFile(filepath.Join(project, "project.godot"), nil, 0o644); err != nil {
		t.Fatal(err)
	}
	p := startBinary(t, "GODOT_BIN=/nonexistent/godot", "GODOT_MCP_PROJECT_DIR="+project)
	p.Initialize()
	var info struct {
		Unavailable []struct {
			Tool, Toolset, Required, Hint string
		} `json:"unavailable"`
	}
	r := call(p, "godot_get_server_info", nil)
	if r.IsError || json.Unmarshal(r.StructuredContent, &info) != nil {
		t.Fatalf("server info: %s", r.StructuredContent)
	}
	got := map[string]string{}
	for _, u := range info.Unavailable {
		got[u.Tool] = u.Toolset
		if u.Required != envelope.RequireGodotBinary || !strings.Contains(u.Hint, "GODOT_BIN=/nonexistent/godot is not an executable") {
			t.Errorf("%+v", u)
		}
	}
	want := map[string]string{"godot_runtime_run_headless": "runtime", "godot_tests_run": "tests", "godot_diagnostics_check_project": "diagnostics", "godot_shader_validate": "shader",
		"godot_export_check_templates": "export", "godot_export_export": "export", "godot_export_smoke_run": "export"}
	if len(got) != len(want) {
		t.Errorf("unavailable: %v, want %v", got, want)
	}
	for tool, ts := range want {
		if got[tool] != ts {
			t.Errorf("%s: listed for %q, want %q", tool, got[tool], ts)
		}
	}

	if r := call(p, "godot_enable_toolset", map[string]any{"name": "diagnostics"}); r.IsError {
		t.Fatalf("enable: %s", r.StructuredContent)
	}
	r = call(p, "godot_diagnostics_check_project", map[string]any{})
	if e := errorOf(r); !r.IsError || e.Code != envelope.PreconditionFailed || e.Required != envelope.RequireGodotBinary || !strings.Contains(e.Hint, "GODOT_BIN") {
		t.Fatalf("check_project without Godot: %s", r.StructuredContent)
	}
	p.AssertOnlyJSONRPC()

	exe, err := exec.LookPath("true")
	if err != nil {
		t.Skip("no executable to stand for Godot")
	}
	q := startBinary(t, "GODOT_BIN="+exe)
	q.Initialize()
	r = call(q, "godot_get_server_info", nil)
	if r.IsError || json.Unmarshal(r.StructuredContent, &info) != nil || len(info.Unavailable) != 0 {
		t.Fatalf("with a Godot binary: %s", r.StructuredContent)
	}
}
