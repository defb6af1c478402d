package main

import (
	"context"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/godot-mcp/godot-mcp/sdk/contract"
	"github.com/godot-mcp/godot-mcp/sdk/sdktest/fakeaddon"
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
		if u.Required != contract.RequireGodotBinary || !strings.Contains(u.Hint, "GODOT_BIN=/nonexistent/godot is not an executable") {
			t.Errorf("%+v", u)
		}
	}
	want := map[string]string{"godot_runtime_run_headless": "runtime", "godot_tests_run": "tests", "godot_tests_write_playtest": "tests", "godot_diagnostics_check_project": "diagnostics", "godot_shader_validate": "shader", "godot_visual_shader_validate": "visual_shader",
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
	if e := errorOf(r); !r.IsError || e.Code != contract.PreconditionFailed || e.Required != contract.RequireGodotBinary || !strings.Contains(e.Hint, "GODOT_BIN") {
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

// #28.9: without GODOT_BIN and without godot on PATH, the tools that start
// a separate Godot run the connected editor's own executable (its hello and
// editor state report it): godot_get_server_info lists none of them as
// unavailable, and diagnostics_check_project runs that executable. A
// reported program not named like Godot is not run, and the refusal says why.
func TestHeadlessToolsFallBackToTheEditorsExecutable(t *testing.T) {
	project := t.TempDir()
	if err := os.WriteFile(filepath.Join(project, "project.godot"), nil, 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Mkdir(filepath.Join(project, ".godot"), 0o755); err != nil {
		t.Fatal(err)
	}
	bin := t.TempDir()
	ran := filepath.Join(bin, "ran.txt")
	godot := filepath.Join(bin, "Godot_v4.4.1-stable_linux.x86_64")
	script := "#!/bin/sh\necho \"$@\" >> " + ran + "\necho '@@GODOT_MCP_CHECK done'\n"
	if err := os.WriteFile(godot, []byte(script), 0o755); err != nil {
		t.Fatal(err)
	}
	noGodot := t.TempDir() // PATH without godot
	p := startBinary(t, "GODOT_BIN=", "PATH="+noGodot, "GODOT_MCP_PROJECT_DIR="+project)
	p.Initialize()
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()

	// No editor: every headless tool is unavailable, and the hint names the fallback.
	var info struct {
		Unavailable []struct{ Tool, Hint string } `json:"unavailable"`
	}
	json.Unmarshal(call(p, "godot_get_server_info", nil).StructuredContent, &info)
	headless := map[string]bool{}
	for _, u := range info.Unavailable {
		headless[u.Tool] = true
		if !strings.Contains(u.Hint, "no editor is connected (its executable is the fallback)") {
			t.Fatalf("without an editor, %s: %s", u.Tool, u.Hint)
		}
	}
	for _, tool := range []string{"godot_runtime_run_headless", "godot_tests_run", "godot_diagnostics_check_project", "godot_shader_validate", "godot_export_export"} {
		if !headless[tool] {
			t.Fatalf("without an editor, %s is not listed unavailable: %+v", tool, info.Unavailable)
		}
	}

	hello := fakeaddon.DefaultHello()
	hello.ProjectDir = project
	hello.GodotExecutable = godot
	addon, err := fakeaddon.Dial(ctx, p.BridgeURL(), fakeaddon.WithHello(hello))
	if err != nil {
		t.Fatal(err)
	}
	defer addon.Close()
	addon.HandleResult("cmd_get_editor_state", map[string]any{"project_dir": project, "godot_executable": godot})
	info.Unavailable = nil
	json.Unmarshal(call(p, "godot_get_server_info", nil).StructuredContent, &info)
	if len(info.Unavailable) != 0 {
		t.Fatalf("with an editor reporting its executable: %+v", info.Unavailable)
	}
	if r := call(p, "godot_enable_toolset", map[string]any{"name": "diagnostics"}); r.IsError {
		t.Fatalf("enable: %s", r.Content)
	}
	r := call(p, "godot_diagnostics_check_project", map[string]any{})
	if r.IsError {
		t.Fatalf("check_project with the editor's executable: %+v", r)
	}
	args, err := os.ReadFile(ran)
	if err != nil || !strings.Contains(string(args), "--headless --path "+project) {
		t.Fatalf("the editor's executable was not run with the project: %q, %v", args, err)
	}

	// A program not named like Godot is not run.
	sh := filepath.Join(bin, "sh")
	if err := os.WriteFile(sh, []byte(script), 0o755); err != nil {
		t.Fatal(err)
	}
	addon.HandleResult("cmd_get_editor_state", map[string]any{"project_dir": project, "godot_executable": sh})
	os.Remove(ran)
	r = call(p, "godot_diagnostics_check_project", map[string]any{})
	if e := errorOf(r); !r.IsError || e.Required != contract.RequireGodotBinary || !strings.Contains(e.Hint, "is not named like Godot") {
		t.Fatalf("check_project with a program not named like Godot: %+v", r)
	}
	if _, err := os.Stat(ran); err == nil {
		t.Fatal("the program was run")
	}
	p.AssertOnlyJSONRPC()
}
