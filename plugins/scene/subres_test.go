package scene_test

import (
	"strings"
	"testing"

	"github.com/godot-mcp/godot-mcp/sdk"
)

// call_method can make code run (any method of any node): the approval
// policy's code scope asks about it.
func TestCallMethodRunsCode(t *testing.T) {
	h := start(t)
	for _, tool := range h.Tools() {
		if tool.RunsCode != (tool.Name == "call_method") {
			t.Errorf("%s: runs_code %v", tool.Name, tool.RunsCode)
		}
		if tool.Name == "call_method" && (tool.Safety != sdk.Mutating || !tool.DryRun) {
			t.Errorf("call_method: safety %s, dry_run %v", tool.Safety, tool.DryRun)
		}
	}
}

// Malformed paths and missing names are refused before the editor is asked.
func TestSubResourcePathValidation(t *testing.T) {
	cases := []struct {
		name, tool string
		args       map[string]any
		hint       string
	}{
		{"empty segment", "set_properties", map[string]any{"node": "Ball", "properties": map[string]any{"mesh::albedo_color": 1}}, "empty segment"},
		{"trailing colon", "set_properties", map[string]any{"node": "Ball", "properties": map[string]any{"mesh:": 1}}, "empty segment"},
		{"no method", "call_method", map[string]any{"node": "Ball", "method": " "}, "method is required"},
		{"no node", "call_method", map[string]any{"node": "", "method": "look_at"}, "node"},
		{"bad sub_resource", "call_method", map[string]any{"node": "Ball", "method": "x", "sub_resource": ":mesh"}, "empty segment"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			h := start(t)
			res := call(t, h, tc.tool, tc.args)
			if res.Err == nil || res.Err.Code != sdk.CodeValidationError || !strings.Contains(res.Err.Hint, tc.hint) {
				t.Fatalf("got %+v %s", res.Err, res.Structured)
			}
			if n := len(h.Addon().Received()); n != 0 {
				t.Errorf("the editor received %d commands", n)
			}
		})
	}
}

// The editor's refusals (a shared resource, an unknown method) reach the
// agent as they are, with the hint.
func TestSubResourceRefusalsPassThrough(t *testing.T) {
	h := start(t)
	h.Addon().HandleError("cmd_scene_set_properties", &sdk.Error{Code: sdk.CodePreconditionFailed,
		Hint: "Nothing was changed: 'mesh:material:albedo_color' is also used by Ball2:mesh. Pass allow_shared: true"})
	res := call(t, h, "set_properties", map[string]any{"node": "Ball", "properties": map[string]any{"mesh:material:albedo_color": "#f00"}})
	if res.Err == nil || res.Err.Code != sdk.CodePreconditionFailed || !strings.Contains(res.Err.Hint, "Ball2:mesh") {
		t.Fatalf("got %+v", res.Err)
	}
	h = start(t)
	h.Addon().HandleError("cmd_scene_call_method", &sdk.Error{Code: sdk.CodeValidationError, Hint: "Camera3D 'Cam' has no method 'lok_at'. Did you mean 'look_at'?"})
	res = call(t, h, "call_method", map[string]any{"node": "Cam", "method": "lok_at"})
	if res.Err == nil || res.Err.Code != sdk.CodeValidationError || !strings.Contains(res.Err.Hint, "look_at") {
		t.Fatalf("got %+v", res.Err)
	}
}
