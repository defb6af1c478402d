package main

import (
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/godot-mcp/godot-mcp/sdk/sdktest/fakeaddon"
)

// The example third-party toolset (its own module, importing only sdk/)
// works from a plugin dir: listed with its path, enabled through MCP, and
// its tool reaches the editor.
func TestThirdPartyToolsetFromPluginDir(t *testing.T) {
	dir := t.TempDir()
	exe := filepath.Join(dir, "hello")
	build := exec.Command("go", "build", "-o", exe, ".")
	build.Dir = filepath.Join("..", "..", "examples", "toolset-hello")
	if out, err := build.CombinedOutput(); err != nil {
		t.Fatalf("building the example toolset: %v\n%s", err, out)
	}
	p := startBinary(t, "GODOT_MCP_PLUGIN_DIR="+dir)
	p.Initialize()
	project := t.TempDir()
	if err := os.WriteFile(filepath.Join(project, "project.godot"), nil, 0o644); err != nil {
		t.Fatal(err)
	}
	hello := fakeaddon.DefaultHello()
	hello.ProjectDir = project
	addon, err := fakeaddon.Dial(ctxT(t), p.BridgeURL(), fakeaddon.WithHello(hello))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { addon.Close() })
	addon.HandleResult("cmd_get_editor_state", map[string]any{"project_name": "Tiny Game", "godot_version": "4.4.1.stable"})

	var list struct {
		Toolsets []struct {
			Name, Path, State string
			BuiltIn           bool `json:"builtin"`
			ToolCount         int  `json:"tool_count"`
		} `json:"toolsets"`
	}
	// A description still being read is listed as "describing": list again.
	for deadline := time.Now().Add(20 * time.Second); ; time.Sleep(100 * time.Millisecond) {
		json.Unmarshal(call(p, "godot_list_toolsets", nil).StructuredContent, &list)
		describing := false
		for _, ts := range list.Toolsets {
			describing = describing || ts.State == "describing"
		}
		if !describing || time.Now().After(deadline) {
			break
		}
	}
	found := false
	for _, ts := range list.Toolsets {
		if ts.Name == "hello" {
			found = true
			if ts.BuiltIn || ts.Path != exe || ts.ToolCount != 4 {
				t.Fatalf("hello listed as %+v", ts)
			}
		}
	}
	if !found {
		t.Fatalf("hello not listed: %+v", list)
	}
	if r := call(p, "godot_enable_toolset", map[string]any{"name": "hello"}); r.IsError {
		t.Fatalf("enable: %s", r.StructuredContent)
	}
	r := call(p, "godot_hello_greet", nil)
	if r.IsError || !strings.Contains(string(r.StructuredContent), "Hello, Tiny Game!") {
		t.Fatalf("greet: %s", r.StructuredContent)
	}
	if _, err := addon.WaitCommand(ctxT(t), "cmd_get_editor_state"); err != nil {
		t.Fatal("the fake editor never received the toolset's command")
	}
	// Its editor code and game code were installed into the editor's project and loaded.
	if _, err := os.Stat(filepath.Join(project, "addons", "godot_mcp_ext", "hello", "handlers.gd")); err != nil {
		t.Fatalf("hello's editor code is not installed: %v", err)
	}
	if _, err := os.Stat(filepath.Join(project, "addons", "godot_mcp_ext", "hello", "game", "game.gd")); err != nil {
		t.Fatalf("hello's game code is not installed: %v", err)
	}
	if v := addon.Extensions()["hello"]; v == "" {
		t.Fatalf("the editor was not asked to load hello's editor code: %v", addon.Extensions())
	}
	p.AssertOnlyJSONRPC()
}
