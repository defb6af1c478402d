package main

import (
	"encoding/json"
	"strings"
	"testing"
)

// #28.9: an argument named as another toolset names it is read as the
// tool's own: `folder` for a list tool's folder `path`, `path` for an
// editor tool's `node`, `node` for a runtime tool's node `path`. The editor
// receives the tool's own name. A call that gives both is refused as before.
func TestBinaryArgumentAliases(t *testing.T) {
	p := startBinary(t)
	p.Initialize()
	addon := dialAddon(t, p)
	addon.HandleResult("cmd_scripts_list", map[string]any{"scripts": []any{}, "total": 0})
	addon.HandleResult("cmd_scene_get_node", map[string]any{"path": "Player", "name": "Player", "type": "Node2D"})
	addon.HandleResult("cmd_runtime_get_node", map[string]any{"path": "/root/Main/Player", "type": "Node2D"})
	if r := call(p, "godot_enable_toolset", map[string]any{"names": []string{"scene", "scripts", "runtime"}}); r.IsError {
		t.Fatalf("enable: %s", r.Content)
	}
	for _, c := range []struct {
		tool    string
		args    map[string]any
		command string
		key     string
		want    string
	}{
		{"godot_scripts_list", map[string]any{"folder": "res://src"}, "cmd_scripts_list", "path", "res://src"},
		{"godot_scene_get_node", map[string]any{"path": "Player"}, "cmd_scene_get_node", "node", "Player"},
		{"godot_runtime_get_node", map[string]any{"node": "Main/Player"}, "cmd_runtime_get_node", "path", "Main/Player"},
	} {
		call(p, c.tool, c.args)
		cmd, err := addon.WaitCommand(ctxT(t), c.command)
		if err != nil {
			t.Fatalf("%s %v: the editor got no %s (%v)", c.tool, c.args, c.command, err)
		}
		var params map[string]any
		json.Unmarshal(cmd.Params, &params)
		if params[c.key] != c.want {
			t.Errorf("%s %v: the editor got %s, want %s = %q", c.tool, c.args, cmd.Params, c.key, c.want)
		}
	}
	r := call(p, "godot_scene_get_node", map[string]any{"node": "Player", "path": "Other"})
	if e := errorOf(r); !r.IsError || e.Code != "VALIDATION_ERROR" || !strings.Contains(e.Hint, "path") {
		t.Fatalf("node and path both: %+v", r)
	}
	p.AssertOnlyJSONRPC()
}
