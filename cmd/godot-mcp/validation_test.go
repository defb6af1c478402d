package main

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/godot-mcp/godot-mcp/host/envelope"
	"github.com/godot-mcp/godot-mcp/plugins/scene"
	"github.com/godot-mcp/godot-mcp/sdk"
	"github.com/godot-mcp/godot-mcp/sdk/contract"
	"github.com/godot-mcp/godot-mcp/sdk/sdktest"
)

// A toolset tool called with several bad fields through the real host (the
// binary, the scene plugin process) is refused once, before anything runs:
// the refusal names every bad field with what it expected, in the SDK's
// wording, and the editor receives nothing.
func TestBinaryToolsetRefusalNamesEveryBadField(t *testing.T) {
	p := startBinary(t, "GODOT_MCP_DEFAULT_TOOLSETS=scene")
	p.Initialize()
	addon := dialAddon(t, p)
	r := call(p, "godot_scene_get_tree", map[string]any{"max_depth": "deep", "type": 5, "limit": 0, "colour": "red"})
	e := errorOf(r)
	if !r.IsError || e.Code != contract.ValidationError {
		t.Fatalf("bad call answered %s, want VALIDATION_ERROR", r.StructuredContent)
	}
	for _, want := range []string{
		`arguments.max_depth: expected integer, got string "deep"`,
		"arguments.type: expected string, got integer 5",
		"arguments.limit: 0 is below the minimum 1",
		"arguments.colour: unknown field (known fields: ",
	} {
		if !strings.Contains(e.Hint, want) {
			t.Errorf("hint %q does not say %q", e.Hint, want)
		}
	}
	if strings.Contains(e.Hint, "validating") || strings.Contains(e.Hint, "/properties/") {
		t.Errorf("hint %q is a schema library's wording, not the SDK's", e.Hint)
	}
	if got := commandNames(addon.Received()); len(got) != 0 {
		t.Errorf("the editor received %v for a refused call", got)
	}
	p.AssertOnlyJSONRPC()
}

// A scene edit that declares active_scene costs one editor round trip: the
// command itself checks for an open scene (no cmd_check_preconditions
// first), and its PRECONDITION_FAILED with required reaches the agent.
func TestBinarySceneEditSendsOneCommand(t *testing.T) {
	p := startBinary(t, "GODOT_MCP_DEFAULT_TOOLSETS=scene")
	p.Initialize()
	addon := dialAddon(t, p)
	addon.HandleResult("cmd_scene_create_node", map[string]any{
		"path": "Sprite2D", "name": "Sprite2D", "type": "Sprite2D", "properties": map[string]any{}, "undoable": true, "persisted": false, "dry_run": false,
	})
	r := call(p, "godot_scene_create_node", map[string]any{"type": "Sprite2D"})
	if r.IsError {
		t.Fatalf("create_node: %s", r.StructuredContent)
	}
	if got := commandNames(addon.Received()); len(got) != 1 || got[0] != "cmd_scene_create_node" {
		t.Fatalf("one scene edit sent %v, want exactly [cmd_scene_create_node]", got)
	}

	noScene := contract.Precondition(contract.RequireActiveScene, "No scene is open in the editor. Open one with godot_scene_open {path}.")
	addon.HandleError("cmd_scene_create_node", noScene)
	r = call(p, "godot_scene_create_node", map[string]any{"type": "Sprite2D"})
	if e := errorOf(r); !r.IsError || e.Code != contract.PreconditionFailed || e.Required != contract.RequireActiveScene || e.Hint != noScene.Hint {
		t.Fatalf("create_node without a scene: %s, want the editor's PRECONDITION_FAILED required active_scene", r.StructuredContent)
	}
	if got := commandNames(addon.Received()); len(got) != 2 || got[1] != "cmd_scene_create_node" {
		t.Fatalf("the two scene edits sent %v, want one command each", got)
	}
}

// commandNames lists the commands the editor got for tool calls: the
// cmd_ext_load that installs the scene toolset's editor code belongs to
// enabling it (GODOT_MCP_DEFAULT_TOOLSETS, finished in the background once
// the editor is there), not to a call, and is left out.
func commandNames(cmds []envelope.Command) []string {
	var out []string
	for _, c := range cmds {
		if c.Command != "cmd_ext_load" {
			out = append(out, c.Command)
		}
	}
	return out
}

// sdktest is production: the same call gets the same answer through
// sdktest (in-process) and through the real host (the binary and the
// toolset's plugin process): bad input, the host-owned dry_run and confirm,
// and an editor-side precondition.
func TestSDKTestAnswersAsTheRealHost(t *testing.T) {
	p := startBinary(t, "GODOT_MCP_DEFAULT_TOOLSETS=scene")
	p.Initialize()
	addon := dialAddon(t, p)
	h := sdktest.Start(t, scene.Toolset())
	noScene := contract.Precondition(contract.RequireActiveScene, "No scene is open in the editor. Open one with godot_scene_open {path}.")
	addon.HandleError("cmd_scene_delete_node", noScene)
	h.Addon().HandleError("cmd_scene_delete_node", sdk.PreconditionFailed(noScene.Required, noScene.Hint))

	cases := []struct {
		name, tool string
		args       map[string]any
	}{
		{"several bad fields", "get_tree", map[string]any{"max_depth": -1, "root": 3, "cursor": []int{1}, "extra": true}},
		{"missing required field", "create_node", map[string]any{"name": "A"}},
		{"dry_run on a read-only tool", "get_tree", map[string]any{"dry_run": true}},
		{"confirm on a tool that takes none", "create_node", map[string]any{"type": "Node2D", "confirm": true}},
		{"dry_run not a boolean", "delete_node", map[string]any{"node": "A", "dry_run": "yes"}},
		{"destructive without confirm", "delete_node", map[string]any{"node": "A"}},
		{"editor-side precondition", "delete_node", map[string]any{"node": "A", "confirm": true}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			r := call(p, "godot_scene_"+tc.tool, tc.args)
			want := errorOf(r)
			if !r.IsError {
				t.Fatalf("the host accepted %v: %s", tc.args, r.StructuredContent)
			}
			ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
			defer cancel()
			res, err := h.Call(ctx, tc.tool, tc.args)
			if err != nil {
				t.Fatal(err)
			}
			if res.Err == nil {
				t.Fatalf("sdktest accepted %v: %s; the host answered %+v", tc.args, res.Structured, want)
			}
			got := contract.Error{Code: contract.ErrorCode(res.Err.Code), Hint: res.Err.Hint, Required: res.Err.Required}
			if got != want {
				t.Errorf("sdktest answered %+v\nthe host answered %+v", got, want)
			}
		})
	}
}
