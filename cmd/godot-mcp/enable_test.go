package main

import (
	"strings"
	"testing"

	"github.com/godot-mcp/godot-mcp/sdk/contract"
)

// With the real built-in toolsets: a tool of a toolset that is not enabled
// names the toolset to enable; one godot_enable_toolset call turns on
// several (one notifications/tools/list_changed), and "all" every one.
func TestBinaryDisabledToolsetToolAndEnableSeveral(t *testing.T) {
	p := startBinary(t)
	p.Initialize()

	r := call(p, "godot_scene_get_tree", nil)
	e := errorOf(r)
	if !r.IsError || e.Code != contract.PreconditionFailed || e.Required != contract.RequireToolsetEnabled ||
		!strings.Contains(e.Hint, `toolset "scene"`) || !strings.Contains(e.Hint, "godot_enable_toolset") {
		t.Fatalf("a tool of a disabled toolset: %+v %s", r, r.StructuredContent)
	}

	r, notes := p.CallTool("godot_enable_toolset", map[string]any{"names": []string{"scene", "scripts"}})
	if r.IsError || !strings.Contains(string(r.StructuredContent), `"godot_scripts_`) || !strings.Contains(string(r.StructuredContent), `"godot_scene_get_tree"`) {
		t.Fatalf("enable scene, scripts: %s", r.StructuredContent)
	}
	_, more := p.CallTool("godot_list_toolsets", nil) // a notification may trail the answer
	n := 0
	for _, m := range append(notes, more...) {
		if m == "notifications/tools/list_changed" {
			n++
		}
	}
	if n != 1 {
		t.Errorf("%d notifications/tools/list_changed for one enable of two toolsets, want 1", n)
	}
	names := p.ToolNames()
	if !names["godot_scene_get_tree"] || !names["godot_scripts_read"] {
		t.Errorf("tools not listed after enable: %v", names)
	}

	r = call(p, "godot_enable_toolset", map[string]any{"name": "all"})
	if r.IsError || !strings.Contains(string(r.StructuredContent), `"name":"runtime"`) {
		t.Fatalf("enable all: %s", r.StructuredContent)
	}
	if !p.ToolNames()["godot_project_get_settings"] {
		t.Error("project tools not listed after enabling all")
	}
	p.AssertOnlyJSONRPC()
}
