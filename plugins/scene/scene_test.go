package scene_test

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"reflect"
	"sort"
	"strings"
	"testing"

	"github.com/godot-mcp/godot-mcp/plugins/scene"
	"github.com/godot-mcp/godot-mcp/sdk"
	"github.com/godot-mcp/godot-mcp/sdk/sdktest"
)

// ---- helpers ----

func start(t *testing.T) *sdktest.Harness {
	t.Helper()
	return sdktest.Start(t, scene.Toolset())
}

func call(t *testing.T, h *sdktest.Harness, tool string, args any, opts ...sdktest.CallOption) *sdktest.Result {
	t.Helper()
	res, err := h.Call(context.Background(), tool, args, opts...)
	if err != nil {
		t.Fatal(err)
	}
	return res
}

// canon re-encodes JSON with sorted keys, for comparisons.
func canon(t *testing.T, raw []byte) string {
	t.Helper()
	var v any
	if err := json.Unmarshal(raw, &v); err != nil {
		t.Fatalf("not JSON: %s", raw)
	}
	b, _ := json.Marshal(v)
	return string(b)
}

// subset reports where want (a JSON object) is not contained in got.
func subset(want, got any, path string) []string {
	switch w := want.(type) {
	case map[string]any:
		g, ok := got.(map[string]any)
		if !ok {
			return []string{fmt.Sprintf("%s: got %v, want an object", path, got)}
		}
		var bad []string
		for k, wv := range w {
			gv, ok := g[k]
			if !ok {
				bad = append(bad, fmt.Sprintf("%s.%s: missing", path, k))
				continue
			}
			bad = append(bad, subset(wv, gv, path+"."+k)...)
		}
		return bad
	case []any:
		g, ok := got.([]any)
		if !ok || len(g) != len(w) {
			return []string{fmt.Sprintf("%s: got %v, want %d items", path, got, len(w))}
		}
		var bad []string
		for i := range w {
			bad = append(bad, subset(w[i], g[i], fmt.Sprintf("%s[%d]", path, i))...)
		}
		return bad
	default:
		if !reflect.DeepEqual(want, got) {
			return []string{fmt.Sprintf("%s: got %v, want %v", path, got, want)}
		}
	}
	return nil
}

func checkSubset(t *testing.T, got json.RawMessage, want string) {
	t.Helper()
	var w, g any
	if err := json.Unmarshal([]byte(want), &w); err != nil {
		t.Fatalf("bad want %s: %v", want, err)
	}
	if err := json.Unmarshal(got, &g); err != nil {
		t.Fatalf("result is not JSON: %s", got)
	}
	if bad := subset(w, g, "result"); len(bad) > 0 {
		t.Errorf("result %s\n%s", got, strings.Join(bad, "\n"))
	}
}

// only returns the single command the editor received.
func only(t *testing.T, h *sdktest.Harness) sdktest.Command {
	t.Helper()
	got := h.Addon().Received()
	if len(got) != 1 {
		var names []string
		for _, c := range got {
			names = append(names, c.Command)
		}
		t.Fatalf("the editor received %d commands %v, want exactly 1", len(got), names)
	}
	return got[0]
}

// ---- the surface ----

func TestToolsDeclared(t *testing.T) {
	h := start(t)
	want := map[string]sdk.Safety{
		"get_tree": sdk.ReadOnly, "get_node": sdk.ReadOnly, "find_nodes": sdk.ReadOnly, "list_open": sdk.ReadOnly,
		"open": sdk.Mutating, "create": sdk.Mutating, "save": sdk.Mutating,
		"close": sdk.Destructive, "reload": sdk.Destructive,
		"create_node": sdk.Mutating, "instantiate": sdk.Mutating, "delete_node": sdk.Destructive,
		"duplicate_node": sdk.Mutating, "rename_node": sdk.Mutating, "move_node": sdk.Mutating,
		"set_properties": sdk.Mutating, "connect_signal": sdk.Mutating, "disconnect_signal": sdk.Mutating,
		"set_groups": sdk.Mutating, "extract_branch": sdk.Mutating, "batch": sdk.Mutating,
		"set_editable_children": sdk.Mutating, "select": sdk.Mutating, "call_method": sdk.Mutating,
	}
	// Tools that act on the edited scene ask the host to check active_scene first;
	// the readers also read scene files, so they check it themselves.
	needScene := map[string]bool{
		"save": true, "close": true, "reload": true, "create_node": true, "instantiate": true,
		"delete_node": true, "duplicate_node": true, "rename_node": true, "move_node": true,
		"set_properties": true, "connect_signal": true, "disconnect_signal": true,
		"set_groups": true, "extract_branch": true, "batch": true,
		"set_editable_children": true, "select": true, "call_method": true,
	}
	tools := h.Tools()
	if len(tools) != 24 {
		t.Fatalf("%d tools, want 24", len(tools))
	}
	for _, tool := range tools {
		class, ok := want[tool.Name]
		if !ok {
			t.Errorf("unexpected tool %s", tool.Name)
			continue
		}
		if tool.Safety != class {
			t.Errorf("%s: safety %s, want %s", tool.Name, tool.Safety, class)
		}
		if tool.Title == "" || tool.Description == "" {
			t.Errorf("%s: no title or description", tool.Name)
		}
		hasScene := false
		for _, p := range tool.Preconditions {
			hasScene = hasScene || p == sdk.RequireActiveScene
		}
		if hasScene != needScene[tool.Name] {
			t.Errorf("%s: preconditions %v (active_scene wanted: %v)", tool.Name, tool.Preconditions, needScene[tool.Name])
		}
		if tool.Preconditions[0] != sdk.RequireBridgeConnected {
			t.Errorf("%s: preconditions %v, want bridge_connected first", tool.Name, tool.Preconditions)
		}
		var out struct {
			Properties map[string]any `json:"properties"`
		}
		json.Unmarshal(tool.OutputSchema, &out)
		if len(out.Properties) == 0 {
			t.Errorf("%s: the output schema has no properties: %s", tool.Name, tool.OutputSchema)
		}
		// Every edit answers the honesty fields.
		if class == sdk.Mutating || class == sdk.Destructive {
			for _, f := range []string{"dry_run"} {
				if _, ok := out.Properties[f]; !ok {
					t.Errorf("%s: output has no %s", tool.Name, f)
				}
			}
		}
	}
	for _, name := range []string{"create_node", "instantiate", "delete_node", "duplicate_node", "rename_node", "move_node",
		"set_properties", "connect_signal", "disconnect_signal", "set_groups", "extract_branch"} {
		for _, tool := range tools {
			if tool.Name != name {
				continue
			}
			for _, f := range []string{"persisted", "reason", "undoable", "dry_run"} {
				if !strings.Contains(string(tool.OutputSchema), `"`+f+`"`) {
					t.Errorf("%s: output schema lacks %s", name, f)
				}
			}
		}
	}
}

// ---- every tool: the exact command, params and typed answer ----

type commandCase struct {
	name       string
	tool       string
	args       any
	opts       []sdktest.CallOption
	command    string
	wantParams string
	answer     any
	wantResult string
}

var edit = map[string]any{"persisted": true, "reason": "", "undoable": true, "dry_run": false}

func with(m map[string]any, extra map[string]any) map[string]any {
	out := map[string]any{}
	for k, v := range m {
		out[k] = v
	}
	for k, v := range extra {
		out[k] = v
	}
	return out
}

func commandCases() []commandCase {
	treeAnswer := map[string]any{
		"scene": "res://main.tscn", "source": "editor", "root": ".",
		"nodes": []any{
			map[string]any{"path": ".", "name": "Main", "type": "Node2D", "depth": 0, "children": 2},
			map[string]any{"path": "Player", "name": "Player", "type": "Node2D", "depth": 1, "children": 1, "script": "res://player.gd", "script_class": "E2EPlayer"},
			map[string]any{"path": "Enemy", "name": "Enemy", "type": "CharacterBody2D", "depth": 1, "children": 3, "instance": "res://enemy.tscn"},
		},
		"total": 3, "returned": 3, "truncated": false, "next_cursor": "",
	}
	return []commandCase{
		{"get_tree defaults", "get_tree", nil, nil, "cmd_scene_get_tree",
			`{"scene":"","root":".","max_depth":-1,"type":"","name":"","expand_instances":false,"limit":1000,"cursor":""}`,
			treeAnswer, `{"scene":"res://main.tscn","source":"editor","total":3,"truncated":false,"nodes":[{"path":".","name":"Main","type":"Node2D","depth":0,"children":2},{"path":"Player","name":"Player","type":"Node2D","depth":1,"children":1,"script":"res://player.gd","script_class":"E2EPlayer"},{"path":"Enemy","name":"Enemy","type":"CharacterBody2D","depth":1,"children":3,"instance":"res://enemy.tscn"}]}`},
		{"get_tree of a file, filtered, a page", "get_tree",
			map[string]any{"scene": "res://levels//one.tscn", "root": "World", "max_depth": 2, "type": "Sprite2D", "name": "tree*", "expand_instances": true, "limit": 50, "cursor": "50:e1.2"},
			nil, "cmd_scene_get_tree",
			`{"scene":"res://levels/one.tscn","root":"World","max_depth":2,"type":"Sprite2D","name":"tree*","expand_instances":true,"limit":50,"cursor":"50:e1.2"}`,
			map[string]any{"scene": "res://levels/one.tscn", "source": "file", "root": "World", "nodes": []any{}, "total": 120, "returned": 50, "truncated": true, "next_cursor": "100:e1.2", "unsaved_changes_ignored": true},
			`{"source":"file","nodes":[],"total":120,"truncated":true,"next_cursor":"100:e1.2","unsaved_changes_ignored":true}`},
		{"get_node", "get_node", map[string]any{"node": "Player", "properties": []string{"position", "speed"}}, nil, "cmd_scene_get_node",
			`{"node":"Player","scene":"","properties":["position","speed"]}`,
			map[string]any{"scene": "res://main.tscn", "source": "editor", "path": "Player", "name": "Player", "type": "Node2D",
				"script": "res://player.gd", "script_class": "E2EPlayer", "parent": ".", "owner": ".", "foreign": false, "reason": "",
				"instance": nil, "groups": []any{"players"}, "children": []any{"Sprite2D"},
				"connections":          []any{map[string]any{"source": "Player", "signal": "hit", "target": ".", "method": "_on_hit", "flags": 2}},
				"incoming_connections": []any{},
				"properties":           map[string]any{"position": map[string]any{"x": 100, "y": 50}, "speed": 120.0}, "omitted_properties": []any{}},
			`{"path":"Player","owner":".","foreign":false,"instance":null,"groups":["players"],"connections":[{"source":"Player","signal":"hit","target":".","method":"_on_hit","flags":2}],"incoming_connections":[],"properties":{"position":{"x":100,"y":50},"speed":120},"omitted_properties":[]}`},
		{"get_node: every property", "get_node", map[string]any{"node": "."}, nil, "cmd_scene_get_node",
			`{"node":".","scene":"","properties":[]}`,
			map[string]any{"path": ".", "name": "Main", "type": "Node2D", "groups": nil, "children": nil, "connections": nil, "incoming_connections": nil, "properties": nil},
			`{"groups":[],"children":[],"connections":[],"incoming_connections":[],"properties":{},"omitted_properties":[]}`},
		{"find_nodes", "find_nodes", map[string]any{"type": "CollisionObject2D", "group": "enemies", "name": "E*", "script": "res://enemy.gd"}, nil, "cmd_scene_find_nodes",
			`{"scene":"","root":".","max_depth":-1,"name":"E*","type":"CollisionObject2D","group":"enemies","script":"res://enemy.gd","expand_instances":false,"limit":200,"cursor":""}`,
			map[string]any{"scene": "res://main.tscn", "source": "editor", "root": ".", "nodes": nil, "total": 0, "returned": 0, "truncated": false},
			`{"nodes":[],"total":0}`},
		{"list_open", "list_open", nil, nil, "cmd_scene_list_open", `{}`,
			map[string]any{"scenes": []any{map[string]any{"path": "res://main.tscn", "dirty": true, "active": true}, map[string]any{"path": "res://b.tscn", "dirty": false, "active": false}}, "active": "res://main.tscn"},
			`{"scenes":[{"path":"res://main.tscn","dirty":true,"active":true},{"path":"res://b.tscn","dirty":false,"active":false}],"active":"res://main.tscn"}`},
		{"open", "open", map[string]any{"path": "res://b.tscn"}, nil, "cmd_scene_open", `{"path":"res://b.tscn","dry_run":false}`,
			map[string]any{"path": "res://b.tscn", "already_open": false, "active": true, "root_name": "B", "root_type": "Node3D", "dry_run": false},
			`{"path":"res://b.tscn","already_open":false,"active":true,"root_name":"B","root_type":"Node3D"}`},
		{"open: dry run", "open", map[string]any{"path": "res://b.tscn"}, []sdktest.CallOption{sdktest.DryRun()}, "cmd_scene_open", `{"path":"res://b.tscn","dry_run":true}`,
			map[string]any{"path": "res://b.tscn", "already_open": true, "active": true, "root_name": "", "root_type": "", "dry_run": true},
			`{"already_open":true,"dry_run":true}`},
		{"create", "create", map[string]any{"path": "res://levels/level_1.tscn", "root_type": "Node2D"}, nil, "cmd_scene_create",
			`{"path":"res://levels/level_1.tscn","root_type":"Node2D","root_name":"","open":true,"dry_run":false}`,
			map[string]any{"path": "res://levels/level_1.tscn", "root_name": "Level1", "root_type": "Node2D", "opened": true, "persisted": true, "undoable": false, "dry_run": false},
			`{"path":"res://levels/level_1.tscn","root_name":"Level1","opened":true,"persisted":true,"undoable":false}`},
		{"create: defaults off", "create", map[string]any{"path": "res://ui.tscn", "root_name": "HUD", "open": false}, []sdktest.CallOption{sdktest.DryRun()}, "cmd_scene_create",
			`{"path":"res://ui.tscn","root_type":"Node","root_name":"HUD","open":false,"dry_run":true}`,
			map[string]any{"path": "res://ui.tscn", "root_name": "HUD", "root_type": "Node", "opened": false, "persisted": false, "undoable": false, "dry_run": true},
			`{"persisted":false,"dry_run":true}`},
		{"save", "save", nil, nil, "cmd_scene_save", `{"scene":"","path":"","overwrite":false,"dry_run":false}`,
			map[string]any{"path": "res://main.tscn", "saved": true, "was_dirty": true, "persisted": true, "undoable": false, "dry_run": false},
			`{"path":"res://main.tscn","saved":true,"was_dirty":true,"persisted":true,"undoable":false}`},
		{"save as, overwrite", "save", map[string]any{"scene": "res://b.tscn", "path": "res://c.tscn", "overwrite": true}, []sdktest.CallOption{sdktest.Confirm()}, "cmd_scene_save",
			`{"scene":"res://b.tscn","path":"res://c.tscn","overwrite":true,"dry_run":false}`,
			map[string]any{"path": "res://c.tscn", "previous_path": "res://b.tscn", "saved": true, "was_dirty": false, "overwrote_newer": false, "persisted": true, "undoable": false, "dry_run": false},
			`{"path":"res://c.tscn","previous_path":"res://b.tscn"}`},
		{"save all", "save", map[string]any{"all": true}, nil, "cmd_scene_save", `{"scene":"","path":"","overwrite":false,"all":true,"dry_run":false}`,
			map[string]any{"path": "", "saved": true, "was_dirty": true, "persisted": true, "undoable": false, "dry_run": false, "scenes": []any{map[string]any{"path": "res://a.tscn", "saved": true, "was_dirty": true, "overwrote_newer": false}}},
			`{"saved":true,"scenes":[{"path":"res://a.tscn","saved":true,"was_dirty":true}]}`},
		{"set_editable_children", "set_editable_children", map[string]any{"node": "Enemy"}, nil, "cmd_scene_set_editable_children",
			`{"node":"Enemy","enabled":true,"dry_run":false}`,
			with(edit, map[string]any{"path": "Enemy", "scene": "res://enemy.tscn", "editable_children": true, "changed": true}),
			`{"path":"Enemy","scene":"res://enemy.tscn","editable_children":true,"changed":true}`},
		{"editable children off", "set_editable_children", map[string]any{"node": "Enemy", "enabled": false}, nil, "cmd_scene_set_editable_children",
			`{"node":"Enemy","enabled":false,"dry_run":false}`,
			with(edit, map[string]any{"path": "Enemy", "scene": "res://enemy.tscn", "editable_children": false, "changed": true}),
			`{"editable_children":false}`},
		{"select", "select", map[string]any{"nodes": []string{"Player", "."}}, nil, "cmd_scene_select",
			`{"nodes":["Player","."],"add":false,"dry_run":false}`,
			map[string]any{"selection": []any{"Player", "."}, "dry_run": false},
			`{"selection":["Player","."]}`},
		{"close", "close", nil, []sdktest.CallOption{sdktest.Confirm()}, "cmd_scene_close", `{"scene":"","dry_run":false}`,
			map[string]any{"path": "res://main.tscn", "closed": true, "discarded_changes": true, "active": "", "undoable": false, "dry_run": false},
			`{"closed":true,"discarded_changes":true,"active":"","undoable":false}`},
		{"close: dry run needs no confirm", "close", map[string]any{"scene": "res://b.tscn"}, []sdktest.CallOption{sdktest.DryRun()}, "cmd_scene_close", `{"scene":"res://b.tscn","dry_run":true}`,
			map[string]any{"path": "res://b.tscn", "closed": false, "discarded_changes": false, "active": "res://main.tscn", "undoable": false, "dry_run": true},
			`{"closed":false,"dry_run":true}`},
		{"reload", "reload", nil, []sdktest.CallOption{sdktest.Confirm()}, "cmd_scene_reload", `{"scene":"","dry_run":false}`,
			map[string]any{"path": "res://main.tscn", "reloaded": true, "discarded_changes": true, "undoable": false, "dry_run": false},
			`{"reloaded":true,"discarded_changes":true}`},
		{"create_node", "create_node",
			map[string]any{"type": "Sprite2D", "name": "Gun", "parent": "Player", "properties": map[string]any{"position": map[string]any{"x": 4, "y": 0}, "modulate": "#ff0000"}, "script": "res://gun.gd", "index": 0},
			nil, "cmd_scene_create_node",
			`{"type":"Sprite2D","name":"Gun","parent":"Player","properties":{"position":{"x":4,"y":0},"modulate":"#ff0000"},"script":"res://gun.gd","index":0,"dry_run":false}`,
			with(edit, map[string]any{"path": "Player/Gun", "name": "Gun", "type": "Sprite2D", "script": "res://gun.gd", "parent": "Player", "index": 0,
				"properties": map[string]any{"position": map[string]any{"x": 4, "y": 0}, "modulate": map[string]any{"r": 1, "g": 0, "b": 0, "a": 1}}}),
			`{"path":"Player/Gun","parent":"Player","index":0,"persisted":true,"undoable":true,"dry_run":false,"properties":{"modulate":{"r":1,"g":0,"b":0,"a":1}}}`},
		{"create_node: defaults, dry run", "create_node", map[string]any{"type": "Node2D"}, []sdktest.CallOption{sdktest.DryRun()}, "cmd_scene_create_node",
			`{"type":"Node2D","name":"","parent":".","properties":{},"script":"","index":-1,"dry_run":true}`,
			with(edit, map[string]any{"path": "Node2D", "name": "Node2D", "type": "Node2D", "parent": ".", "index": 3, "properties": nil, "dry_run": true}),
			`{"path":"Node2D","dry_run":true,"undoable":true,"properties":{}}`},
		{"create_node: not persisted", "create_node", map[string]any{"type": "Node", "parent": "Enemy/Body"}, nil, "cmd_scene_create_node",
			`{"type":"Node","name":"","parent":"Enemy/Body","properties":{},"script":"","index":-1,"dry_run":false}`,
			with(edit, map[string]any{"path": "Enemy/Body/Node", "name": "Node", "type": "Node", "parent": "Enemy/Body", "index": 1, "properties": map[string]any{},
				"persisted": false, "reason": "'Enemy/Body' belongs to the instanced scene 'res://enemy.tscn' (the instance 'Enemy'), which does not have Editable Children"}),
			`{"persisted":false,"reason":"'Enemy/Body' belongs to the instanced scene 'res://enemy.tscn' (the instance 'Enemy'), which does not have Editable Children"}`},
		{"instantiate", "instantiate", map[string]any{"scene": "res://enemy.tscn", "parent": "Enemies", "name": "E1", "index": 2, "properties": map[string]any{"position": map[string]any{"x": 1, "y": 2}}, "editable_children": true},
			nil, "cmd_scene_instantiate",
			`{"scene":"res://enemy.tscn","parent":"Enemies","name":"E1","index":2,"properties":{"position":{"x":1,"y":2}},"editable_children":true,"dry_run":false}`,
			with(edit, map[string]any{"path": "Enemies/E1", "name": "E1", "scene": "res://enemy.tscn", "type": "CharacterBody2D", "parent": "Enemies", "index": 2, "editable_children": true, "properties": map[string]any{}}),
			`{"path":"Enemies/E1","scene":"res://enemy.tscn","editable_children":true,"persisted":true,"undoable":true}`},
		{"delete_node", "delete_node", map[string]any{"node": "Enemy"}, []sdktest.CallOption{sdktest.Confirm()}, "cmd_scene_delete_node",
			`{"node":"Enemy","dry_run":false}`,
			with(edit, map[string]any{"path": "Enemy", "type": "CharacterBody2D", "deleted": true, "descendants": 3}),
			`{"path":"Enemy","deleted":true,"descendants":3,"undoable":true,"persisted":true}`},
		{"delete_node: dry run", "delete_node", map[string]any{"node": "Enemy"}, []sdktest.CallOption{sdktest.DryRun()}, "cmd_scene_delete_node",
			`{"node":"Enemy","dry_run":true}`,
			with(edit, map[string]any{"path": "Enemy", "type": "CharacterBody2D", "deleted": true, "descendants": 3, "dry_run": true}),
			`{"deleted":true,"dry_run":true}`},
		{"duplicate_node", "duplicate_node", map[string]any{"node": "Enemy", "name": "Enemy2", "parent": "Enemies"}, nil, "cmd_scene_duplicate_node",
			`{"node":"Enemy","name":"Enemy2","parent":"Enemies","dry_run":false}`,
			with(edit, map[string]any{"source": "Enemy", "path": "Enemies/Enemy2", "name": "Enemy2", "parent": "Enemies", "descendants": 3}),
			`{"source":"Enemy","path":"Enemies/Enemy2","descendants":3}`},
		{"rename_node", "rename_node", map[string]any{"node": "Player/Sprite2D", "name": "Body"}, nil, "cmd_scene_rename_node",
			`{"node":"Player/Sprite2D","name":"Body","dry_run":false}`,
			with(edit, map[string]any{"old_path": "Player/Sprite2D", "path": "Player/Body", "old_name": "Sprite2D", "name": "Body"}),
			`{"old_path":"Player/Sprite2D","path":"Player/Body","old_name":"Sprite2D","name":"Body"}`},
		{"move_node", "move_node", map[string]any{"node": "Camera2D", "new_parent": "Player", "index": 0, "keep_global_transform": false}, nil, "cmd_scene_move_node",
			`{"node":"Camera2D","new_parent":"Player","index":0,"keep_global_transform":false,"dry_run":false}`,
			with(edit, map[string]any{"old_path": "Camera2D", "path": "Player/Camera2D", "old_parent": ".", "parent": "Player", "old_index": 1, "index": 0, "global_transform_kept": false}),
			`{"path":"Player/Camera2D","old_parent":".","parent":"Player","index":0,"global_transform_kept":false}`},
		{"move_node: defaults (reorder, keep)", "move_node", map[string]any{"node": "Camera2D"}, nil, "cmd_scene_move_node",
			`{"node":"Camera2D","new_parent":"","index":-1,"keep_global_transform":true,"dry_run":false}`,
			with(edit, map[string]any{"old_path": "Camera2D", "path": "Camera2D", "old_parent": ".", "parent": ".", "old_index": 1, "index": 2, "global_transform_kept": true}),
			`{"old_index":1,"index":2}`},
		{"set_properties", "set_properties", map[string]any{"node": "Label", "properties": map[string]any{"text": "Score: 0", "visible": false}}, nil, "cmd_scene_set_properties",
			`{"node":"Label","properties":{"text":"Score: 0","visible":false},"dry_run":false}`,
			with(edit, map[string]any{"path": "Label", "changes": []any{
				map[string]any{"property": "text", "old": "Hello", "new": "Score: 0"},
				map[string]any{"property": "visible", "old": true, "new": false}}}),
			`{"path":"Label","changes":[{"property":"text","old":"Hello","new":"Score: 0"},{"property":"visible","old":true,"new":false}],"undoable":true}`},
		{"set_properties: a sub-resource path, shared", "set_properties",
			map[string]any{"node": "Ball", "properties": map[string]any{"mesh:material:albedo_color": "#ff0000"}, "allow_shared": true}, nil, "cmd_scene_set_properties",
			`{"node":"Ball","properties":{"mesh:material:albedo_color":"#ff0000"},"allow_shared":true,"dry_run":false}`,
			with(edit, map[string]any{"path": "Ball", "changes": []any{
				map[string]any{"property": "mesh:material:albedo_color", "old": map[string]any{"r": 1, "g": 1, "b": 1, "a": 1}, "new": map[string]any{"r": 1, "g": 0, "b": 0, "a": 1},
					"shared_with": []any{"Ball2:mesh"}, "saved_to": "res://ball.tres"}}}),
			`{"changes":[{"property":"mesh:material:albedo_color","shared_with":["Ball2:mesh"],"saved_to":"res://ball.tres"}]}`},
		{"call_method", "call_method",
			map[string]any{"node": "Cam", "method": "look_at", "args": []any{map[string]any{"x": 0, "y": 0, "z": 0}}}, nil, "cmd_scene_call_method",
			`{"node":"Cam","method":"look_at","args":[{"x":0,"y":0,"z":0}],"sub_resource":"","allow_shared":false,"dry_run":false}`,
			with(edit, map[string]any{"path": "Cam", "target_type": "Camera3D", "method": "look_at", "signature": "look_at(target: Vector3, up: Vector3 = Vector3(0, 1, 0), use_model_front: bool = false) -> void",
				"return": nil, "changes": []any{map[string]any{"object": ".", "property": "transform", "old": 1, "new": 2}}, "added_nodes": nil, "action": "godot-mcp: call look_at on 'Cam'"}),
			`{"target_type":"Camera3D","return":null,"added_nodes":[],"changes":[{"object":".","property":"transform"}],"undoable":true,"action":"godot-mcp: call look_at on 'Cam'"}`},
		{"call_method: on a sub-resource, dry run", "call_method",
			map[string]any{"node": "Path", "method": "add_point", "args": []any{map[string]any{"x": 1, "y": 2}}, "sub_resource": "curve", "allow_shared": true}, []sdktest.CallOption{sdktest.DryRun()}, "cmd_scene_call_method",
			`{"node":"Path","method":"add_point","args":[{"x":1,"y":2}],"sub_resource":"curve","allow_shared":true,"dry_run":true}`,
			with(edit, map[string]any{"path": "Path", "sub_resource": "curve", "target_type": "Curve2D", "method": "add_point", "signature": "add_point(...)",
				"return": nil, "changes": []any{}, "added_nodes": []any{}, "action": "", "undoable": false, "dry_run": true}),
			`{"sub_resource":"curve","dry_run":true,"undoable":false,"action":""}`},
		{"connect_signal", "connect_signal", map[string]any{"source": "Player", "signal": "hit", "target": ".", "method": "_on_player_hit", "binds": []any{1, "a"}, "deferred": true, "one_shot": true},
			nil, "cmd_scene_connect_signal",
			`{"source":"Player","signal":"hit","target":".","method":"_on_player_hit","binds":[1,"a"],"deferred":true,"one_shot":true,"dry_run":false}`,
			with(edit, map[string]any{"source": "Player", "signal": "hit", "target": ".", "method": "_on_player_hit", "flags": 7, "binds": []any{1, "a"}, "method_exists": false}),
			`{"flags":7,"binds":[1,"a"],"method_exists":false,"persisted":true}`},
		{"disconnect_signal", "disconnect_signal", map[string]any{"source": "Player", "signal": "hit", "target": ".", "method": "_on_player_hit"}, nil, "cmd_scene_disconnect_signal",
			`{"source":"Player","signal":"hit","target":".","method":"_on_player_hit","dry_run":false}`,
			with(edit, map[string]any{"source": "Player", "signal": "hit", "target": ".", "method": "_on_player_hit", "flags": 2}),
			`{"signal":"hit","flags":2,"undoable":true}`},
		{"set_groups", "set_groups", map[string]any{"node": "Player", "add": []string{"players", "savable"}, "remove": []string{"old"}}, nil, "cmd_scene_set_groups",
			`{"node":"Player","add":["players","savable"],"remove":["old"],"dry_run":false}`,
			with(edit, map[string]any{"path": "Player", "groups": []any{"players", "savable"}, "added": []any{"players"}, "removed": []any{"old"}, "unchanged": []any{"savable"}}),
			`{"groups":["players","savable"],"added":["players"],"removed":["old"],"unchanged":["savable"]}`},
		{"extract_branch", "extract_branch", map[string]any{"node": "Player", "path": "res://player.tscn"}, nil, "cmd_scene_extract_branch",
			`{"node":"Player","path":"res://player.tscn","replace":true,"dry_run":false}`,
			with(edit, map[string]any{"path": "res://player.tscn", "node": "Player", "replaced": true, "instance": "Player", "node_count": 2, "file_written": true,
				"dropped_connections": []any{map[string]any{"source": "Player", "signal": "hit", "target": ".", "method": "_on_hit"}}}),
			`{"path":"res://player.tscn","replaced":true,"instance":"Player","node_count":2,"file_written":true,"dropped_connections":[{"source":"Player","signal":"hit","target":".","method":"_on_hit"}]}`},
		{"extract_branch: keep the branch", "extract_branch", map[string]any{"node": "Player", "path": "res://player.tscn", "replace": false}, []sdktest.CallOption{sdktest.DryRun()}, "cmd_scene_extract_branch",
			`{"node":"Player","path":"res://player.tscn","replace":false,"dry_run":true}`,
			with(edit, map[string]any{"path": "res://player.tscn", "node": "Player", "replaced": false, "instance": "", "node_count": 2, "file_written": false, "undoable": false, "dry_run": true, "dropped_connections": nil}),
			`{"replaced":false,"file_written":false,"dropped_connections":[],"dry_run":true}`},
	}
}

func TestEveryToolSendsOneCommand(t *testing.T) {
	for _, tc := range commandCases() {
		t.Run(tc.name, func(t *testing.T) {
			h := start(t)
			h.Addon().HandleResult(tc.command, tc.answer)
			res := call(t, h, tc.tool, tc.args, tc.opts...)
			if res.Err != nil {
				t.Fatalf("%s failed: %v", tc.tool, res.Err)
			}
			got := only(t, h)
			if got.Command != tc.command {
				t.Fatalf("sent %s, want %s", got.Command, tc.command)
			}
			if g, w := canon(t, got.Params), canon(t, []byte(tc.wantParams)); g != w {
				t.Errorf("params\n got %s\nwant %s", g, w)
			}
			checkSubset(t, res.Structured, tc.wantResult)
		})
	}
}

// Every one of the 21 tools is covered by the table above.
func TestCommandCasesCoverEveryTool(t *testing.T) {
	covered := map[string]bool{"batch": true} // TestBatch*
	for _, tc := range commandCases() {
		covered[tc.tool] = true
	}
	h := start(t)
	for _, tool := range h.Tools() {
		if !covered[tool.Name] {
			t.Errorf("no command case for %s", tool.Name)
		}
	}
}

// ---- errors from the editor reach the agent unchanged ----

func TestEditorErrorsPassThrough(t *testing.T) {
	noScene := sdk.PreconditionFailed(sdk.RequireActiveScene, "No scene is open in the editor. Open one with godot_scene_open {path} or create one with godot_scene_create {path, root_type}.")
	cases := []struct {
		name    string
		tool    string
		args    any
		opts    []sdktest.CallOption
		command string
		err     *sdk.Error
	}{
		{"unknown node path names the nearest", "get_node", map[string]any{"node": "Player/Sprit2D"}, nil, "cmd_scene_get_node",
			&sdk.Error{Code: sdk.CodeResourceNotFound, Hint: "No node at 'Player/Sprit2D' in the scene 'res://main.tscn'. Did you mean 'Player/Sprite2D'?"}},
		{"unknown parent", "create_node", map[string]any{"type": "Node2D", "parent": "Nope"}, nil, "cmd_scene_create_node",
			&sdk.Error{Code: sdk.CodeResourceNotFound, Hint: "No node at 'Nope' in the scene 'res://main.tscn'. The root's children: Player, Camera2D, Label."}},
		{"unknown node type", "create_node", map[string]any{"type": "Sprite"}, nil, "cmd_scene_create_node",
			&sdk.Error{Code: sdk.CodeValidationError, Hint: "Unknown node type 'Sprite'. Did you mean Sprite2D, Sprite3D?"}},
		{"unknown property", "set_properties", map[string]any{"node": "Player", "properties": map[string]any{"postion": map[string]any{"x": 1, "y": 2}}}, nil, "cmd_scene_set_properties",
			&sdk.Error{Code: sdk.CodeValidationError, Hint: "Node2D has no property 'postion'. Did you mean position?"}},
		{"value of the wrong shape", "set_properties", map[string]any{"node": "Player", "properties": map[string]any{"position": 5}}, nil, "cmd_scene_set_properties",
			&sdk.Error{Code: sdk.CodeValidationError, Hint: "position ('Player', Node2D): expected {\"x\": number, \"y\": number}, got 5"}},
		{"no scene open", "create_node", map[string]any{"type": "Node2D"}, nil, "cmd_scene_create_node", noScene},
		{"no scene open: get_tree", "get_tree", nil, nil, "cmd_scene_get_tree", noScene},
		{"no scene open: batch", "batch", map[string]any{"steps": []any{map[string]any{"tool": "create_node", "args": map[string]any{"type": "Node"}}}}, nil, "cmd_scene_batch", noScene},
		{"root deletion refused", "delete_node", map[string]any{"node": "."}, []sdktest.CallOption{sdktest.Confirm()}, "cmd_scene_delete_node",
			&sdk.Error{Code: sdk.CodeValidationError, Hint: "The scene root 'Main' cannot be deleted. Delete its children instead, or make another scene with godot_scene_create."}},
		{"move into own descendant refused", "move_node", map[string]any{"node": "Player", "new_parent": "Player/Sprite2D"}, nil, "cmd_scene_move_node",
			&sdk.Error{Code: sdk.CodeValidationError, Hint: "'Player' cannot be moved into itself or its own descendant 'Player/Sprite2D'."}},
		{"name collision refused", "rename_node", map[string]any{"node": "Label", "name": "Player"}, nil, "cmd_scene_rename_node",
			&sdk.Error{Code: sdk.CodeValidationError, Hint: "'.' already has a child named 'Player'. Choose another name (for example 'Player2')."}},
		{"save over a newer file refused", "save", nil, nil, "cmd_scene_save",
			&sdk.Error{Code: sdk.CodePreconditionFailed, Hint: "'res://main.tscn' changed on disk (modified 2026-01-01T10:00:05) after the editor loaded or last saved it; … save again with overwrite: true"}},
		{"open a missing file", "open", map[string]any{"path": "res://mian.tscn"}, nil, "cmd_scene_open",
			&sdk.Error{Code: sdk.CodeResourceNotFound, Hint: "No scene file at 'res://mian.tscn'. Did you mean 'res://main.tscn'?"}},
		{"create over an existing file refused", "create", map[string]any{"path": "res://main.tscn"}, nil, "cmd_scene_create",
			&sdk.Error{Code: sdk.CodeValidationError, Hint: "'res://main.tscn' already exists; godot_scene_create never overwrites a file."}},
		{"disconnect what is not connected", "disconnect_signal", map[string]any{"source": "Player", "signal": "hit", "target": ".", "method": "x"}, nil, "cmd_scene_disconnect_signal",
			&sdk.Error{Code: sdk.CodeResourceNotFound, Hint: "'Player'.hit is not connected to '.'.x()."}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			h := start(t)
			h.Addon().HandleError(tc.command, tc.err)
			res := call(t, h, tc.tool, tc.args, tc.opts...)
			if res.Err == nil {
				t.Fatalf("succeeded: %s", res.Structured)
			}
			if string(res.Err.Code) != string(tc.err.Code) || res.Err.Hint != tc.err.Hint || res.Err.Required != tc.err.Required {
				t.Errorf("got %+v, want %+v", res.Err, tc.err)
			}
			if got := only(t, h); got.Command != tc.command {
				t.Errorf("sent %s, want %s", got.Command, tc.command)
			}
		})
	}
}

// ---- refused before the editor is asked ----

func TestRefusedBeforeTheEditor(t *testing.T) {
	cases := []struct {
		name     string
		tool     string
		args     any
		opts     []sdktest.CallOption
		code     sdk.ErrorCode
		required string
		hint     string
	}{
		{"path outside the project", "open", map[string]any{"path": "/etc/passwd"}, nil, sdk.CodeValidationError, "", "res://"},
		{"path escaping with ..", "create", map[string]any{"path": "res://../x.tscn"}, nil, sdk.CodeValidationError, "", "leaves the project"},
		{"not a scene file", "open", map[string]any{"path": "res://player.gd"}, nil, sdk.CodeValidationError, "", ".tscn"},
		{"save as a non-scene", "save", map[string]any{"path": "res://x.txt"}, nil, sdk.CodeValidationError, "", ".tscn"},
		{"save all with a scene", "save", map[string]any{"all": true, "scene": "res://a.tscn"}, nil, sdk.CodeValidationError, "", "leave scene and path out"},
		{"select an empty path", "select", map[string]any{"nodes": []string{""}}, nil, sdk.CodeValidationError, "", "empty path"},
		{"reading a scene outside the project", "get_tree", map[string]any{"scene": "user://x.tscn"}, nil, sdk.CodeValidationError, "", "res://"},
		{"instancing a non-scene", "instantiate", map[string]any{"scene": "res://icon.svg"}, nil, sdk.CodeValidationError, "", ".tscn"},
		{"script outside the project", "create_node", map[string]any{"type": "Node", "script": "/tmp/x.gd"}, nil, sdk.CodeValidationError, "", "res://"},
		{"node is required", "get_node", map[string]any{}, nil, sdk.CodeValidationError, "", "node"},
		{"empty node", "rename_node", map[string]any{"node": "", "name": "X"}, nil, sdk.CodeValidationError, "", "node"},
		{"type is required", "create_node", map[string]any{"name": "X"}, nil, sdk.CodeValidationError, "", "type"},
		{"no properties", "set_properties", map[string]any{"node": "Player", "properties": map[string]any{}}, nil, sdk.CodeValidationError, "", "at least one property"},
		{"nothing to do with groups", "set_groups", map[string]any{"node": "Player"}, nil, sdk.CodeValidationError, "", "add and/or remove"},
		{"wrong argument type", "move_node", map[string]any{"node": "Player", "index": "first"}, nil, sdk.CodeValidationError, "", "index"},
		{"negative index", "create_node", map[string]any{"type": "Node", "index": -2}, nil, sdk.CodeValidationError, "", "index"},
		{"unknown argument", "create_node", map[string]any{"type": "Node", "colour": "red"}, nil, sdk.CodeValidationError, "", "colour"},
		{"limit too large", "get_tree", map[string]any{"limit": 100000}, nil, sdk.CodeValidationError, "", "limit"},
		{"delete needs confirm", "delete_node", map[string]any{"node": "Player"}, nil, sdk.CodePreconditionFailed, sdk.RequireConfirm, "confirm"},
		{"close needs confirm", "close", nil, nil, sdk.CodePreconditionFailed, sdk.RequireConfirm, "confirm"},
		{"reload needs confirm", "reload", nil, nil, sdk.CodePreconditionFailed, sdk.RequireConfirm, "confirm"},
		{"read-only tools have no dry run", "get_tree", nil, []sdktest.CallOption{sdktest.DryRun()}, sdk.CodeValidationError, "", "dry_run"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			h := start(t)
			res := call(t, h, tc.tool, tc.args, tc.opts...)
			if res.Err == nil {
				t.Fatalf("succeeded: %s", res.Structured)
			}
			if res.Err.Code != tc.code || res.Err.Required != tc.required || !strings.Contains(res.Err.Hint, tc.hint) {
				t.Errorf("got %+v, want %s/%q with %q", res.Err, tc.code, tc.required, tc.hint)
			}
			if n := len(h.Addon().Received()); n != 0 {
				t.Errorf("the editor received %d commands", n)
			}
		})
	}
}

// ---- batch ----

func TestBatchSendsOneCommand(t *testing.T) {
	h := start(t)
	answer := map[string]any{
		"applied": true, "aborted_at": nil, "error": nil,
		"steps": []any{
			map[string]any{"index": 0, "tool": "create_node", "result": with(edit, map[string]any{"path": "Enemies", "name": "Enemies", "type": "Node2D", "parent": ".", "index": 3, "properties": map[string]any{}})},
			map[string]any{"index": 1, "tool": "instantiate", "result": with(edit, map[string]any{"path": "Enemies/E", "scene": "res://enemy.tscn"})},
			map[string]any{"index": 2, "tool": "set_properties", "result": with(edit, map[string]any{"path": "Enemies/E", "changes": []any{}})},
		},
		"persisted": true, "reasons": []any{}, "undoable": true, "dry_run": false, "action": "godot-mcp: batch of 3 steps",
	}
	h.Addon().HandleResult("cmd_scene_batch", answer)
	res := call(t, h, "batch", map[string]any{"steps": []any{
		map[string]any{"tool": "create_node", "args": map[string]any{"type": "Node2D", "name": "Enemies"}},
		map[string]any{"tool": "instantiate", "args": map[string]any{"scene": "res://enemy.tscn", "parent": "Enemies", "name": "E"}},
		map[string]any{"tool": "set_properties", "args": map[string]any{"node": "Enemies/E", "properties": map[string]any{"position": map[string]any{"x": 1, "y": 2}}}},
	}})
	if res.Err != nil {
		t.Fatal(res.Err)
	}
	got := only(t, h)
	want := `{"dry_run":false,"steps":[` +
		`{"params":{"index":-1,"name":"Enemies","parent":".","properties":{},"script":"","type":"Node2D"},"tool":"create_node"},` +
		`{"params":{"editable_children":false,"index":-1,"name":"E","parent":"Enemies","properties":{},"scene":"res://enemy.tscn"},"tool":"instantiate"},` +
		`{"params":{"node":"Enemies/E","properties":{"position":{"x":1,"y":2}}},"tool":"set_properties"}]}`
	if got.Command != "cmd_scene_batch" || canon(t, got.Params) != want {
		t.Errorf("sent %s %s\nwant %s", got.Command, canon(t, got.Params), want)
	}
	checkSubset(t, res.Structured, `{"applied":true,"aborted_at":null,"error":null,"undoable":true,"persisted":true,"action":"godot-mcp: batch of 3 steps","steps":[{"index":0,"tool":"create_node","result":{"path":"Enemies"}},{"index":1},{"index":2}]}`)
}

// full_values reaches the editor only when asked for (the default answer
// summarises inline resources).
func TestBatchFullValues(t *testing.T) {
	h := start(t)
	h.Addon().HandleResult("cmd_scene_batch", map[string]any{"applied": true, "steps": []any{}, "persisted": true, "reasons": []any{}, "undoable": false, "dry_run": false, "action": ""})
	if res := call(t, h, "batch", map[string]any{"full_values": true, "steps": []any{map[string]any{"tool": "rename_node", "args": map[string]any{"node": "A", "name": "B"}}}}); res.Err != nil {
		t.Fatal(res.Err)
	}
	if got := only(t, h); !strings.Contains(string(got.Params), `"full_values":true`) {
		t.Errorf("sent %s", got.Params)
	}
}

// A step the editor refuses: the answer names it (aborted_at) and says
// nothing was changed; it is a result, not a tool error, so the verdicts of
// the steps before it are kept.
func TestBatchAbortedInTheEditor(t *testing.T) {
	h := start(t)
	h.Addon().HandleResult("cmd_scene_batch", map[string]any{
		"applied": false, "aborted_at": 1,
		"error":     map[string]any{"error": "RESOURCE_NOT_FOUND", "hint": "Step 1 (rename_node) failed: No node at 'Nope'. Nothing was changed."},
		"steps":     []any{map[string]any{"index": 0, "tool": "create_node", "result": map[string]any{"path": "A"}}},
		"persisted": false, "reasons": []any{}, "undoable": false, "dry_run": false, "action": "",
	})
	res := call(t, h, "batch", map[string]any{"steps": []any{
		map[string]any{"tool": "create_node", "args": map[string]any{"type": "Node", "name": "A"}},
		map[string]any{"tool": "rename_node", "args": map[string]any{"node": "Nope", "name": "B"}},
	}})
	if res.Err != nil {
		t.Fatal(res.Err)
	}
	checkSubset(t, res.Structured, `{"applied":false,"aborted_at":1,"error":{"error":"RESOURCE_NOT_FOUND"},"undoable":false}`)
}

// A step whose arguments are wrong never reaches the editor; aborted_at names it.
func TestBatchStepValidation(t *testing.T) {
	cases := []struct {
		name  string
		steps []any
		at    int
		hint  string
	}{
		{"missing required", []any{
			map[string]any{"tool": "create_node", "args": map[string]any{"type": "Node"}},
			map[string]any{"tool": "rename_node", "args": map[string]any{"node": "Node"}},
		}, 1, "arguments.name: required field is missing"},
		{"unknown argument", []any{map[string]any{"tool": "set_groups", "args": map[string]any{"node": "A", "add": []string{"g"}, "colour": 1}}}, 0, "arguments.colour: unknown field"},
		{"wrong type", []any{map[string]any{"tool": "move_node", "args": map[string]any{"node": "A", "index": "x"}}}, 0, "index"},
		{"flags belong to the batch", []any{map[string]any{"tool": "create_node", "args": map[string]any{"type": "Node", "dry_run": true}}}, 0, "dry_run belongs to the batch"},
		{"bad path", []any{map[string]any{"tool": "instantiate", "args": map[string]any{"scene": "/etc/x.tscn"}}}, 0, "res://"},
		{"args not an object", []any{map[string]any{"tool": "delete_node", "args": []int{1}}}, 0, "args must be an object"},
		{"missing args", []any{map[string]any{"tool": "delete_node"}}, 0, "arguments.node: required field is missing"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			h := start(t)
			res := call(t, h, "batch", map[string]any{"steps": tc.steps, "confirm": true})
			if res.Err != nil {
				t.Fatalf("tool error %v; want a result with aborted_at", res.Err)
			}
			var out scene.BatchOut
			if err := res.Decode(&out); err != nil {
				t.Fatal(err)
			}
			if out.Applied || out.AbortedAt == nil || *out.AbortedAt != tc.at || out.Error == nil ||
				out.Error.Error != "VALIDATION_ERROR" || !strings.Contains(out.Error.Hint, tc.hint) || !strings.Contains(out.Error.Hint, "Nothing was changed") {
				t.Errorf("got %s", res.Structured)
			}
			if n := len(h.Addon().Received()); n != 0 {
				t.Errorf("the editor received %d commands", n)
			}
		})
	}
}

// A step is held to its tool's input schema as a single call is: what
// encoding/json alone accepts but the schema refuses (a minimum, a
// minLength) is refused with the single call's words, naming the field.
func TestBatchStepsMeetTheToolsSchema(t *testing.T) {
	cases := []struct {
		tool  string
		args  map[string]any
		field string
		in    any
	}{
		{"create_node", map[string]any{"type": "Node", "index": -1}, "arguments.index", &scene.CreateNodeIn{}},
		{"move_node", map[string]any{"node": "A", "index": -2}, "arguments.index", &scene.MoveNodeIn{}},
		{"create_node", map[string]any{"type": ""}, "arguments.type", &scene.CreateNodeIn{}},
		{"connect_signal", map[string]any{"source": "A", "signal": "", "target": "B", "method": "m"}, "arguments.signal", &scene.ConnectSignalIn{}},
	}
	h := start(t)
	for _, tc := range cases {
		raw, _ := json.Marshal(tc.args)
		dec := json.NewDecoder(bytes.NewReader(raw))
		dec.DisallowUnknownFields()
		if err := dec.Decode(tc.in); err != nil {
			t.Fatalf("%s %s: encoding/json refuses it already (%v): not a schema check", tc.tool, raw, err)
		}
		single := call(t, h, tc.tool, tc.args)
		if single.Err == nil || single.Err.Code != sdk.CodeValidationError || !strings.HasPrefix(single.Err.Hint, tc.field+": ") {
			t.Fatalf("single %s %s: %v; want VALIDATION_ERROR naming %s", tc.tool, raw, single.Err, tc.field)
		}
		res := call(t, h, "batch", map[string]any{"steps": []any{
			map[string]any{"tool": "rename_node", "args": map[string]any{"node": "A", "name": "B"}},
			map[string]any{"tool": tc.tool, "args": tc.args},
		}})
		if res.Err != nil {
			t.Fatalf("batch with %s %s: tool error %v; want a result with aborted_at", tc.tool, raw, res.Err)
		}
		var out scene.BatchOut
		if err := res.Decode(&out); err != nil {
			t.Fatal(err)
		}
		want := "Step 1 failed: args: " + strings.TrimSuffix(single.Err.Hint, ".") + ". Nothing was changed."
		if out.Applied || out.AbortedAt == nil || *out.AbortedAt != 1 || out.Error == nil || out.Error.Error != "VALIDATION_ERROR" || out.Error.Hint != want {
			t.Errorf("batch with %s %s: %s\nwant aborted_at 1, VALIDATION_ERROR %q", tc.tool, raw, res.Structured, want)
		}
	}
	if n := len(h.Addon().Received()); n != 0 {
		t.Errorf("the editor received %d commands", n)
	}
}

func TestBatchDestructiveStepsNeedConfirm(t *testing.T) {
	steps := []any{
		map[string]any{"tool": "create_node", "args": map[string]any{"type": "Node"}},
		map[string]any{"tool": "delete_node", "args": map[string]any{"node": "Player"}},
	}
	ok := map[string]any{"applied": true, "aborted_at": nil, "error": nil, "steps": []any{}, "persisted": true, "reasons": []any{}, "undoable": true, "dry_run": false, "action": "x"}

	h := start(t)
	res := call(t, h, "batch", map[string]any{"steps": steps})
	if res.Err == nil || res.Err.Code != sdk.CodePreconditionFailed || res.Err.Required != sdk.RequireConfirm || !strings.Contains(res.Err.Hint, "step 1 (delete_node)") {
		t.Fatalf("without confirm: %+v %s", res.Err, res.Structured)
	}
	if n := len(h.Addon().Received()); n != 0 {
		t.Fatalf("the editor received %d commands", n)
	}
	for _, tc := range []struct {
		name    string
		args    map[string]any
		opts    []sdktest.CallOption
		wantDry bool
	}{
		{"confirm in the arguments", map[string]any{"steps": steps, "confirm": true}, nil, false},
		{"confirm flag", map[string]any{"steps": steps}, []sdktest.CallOption{sdktest.Confirm()}, false},
		{"dry run", map[string]any{"steps": steps}, []sdktest.CallOption{sdktest.DryRun()}, true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			h := start(t)
			h.Addon().HandleResult("cmd_scene_batch", ok)
			res := call(t, h, "batch", tc.args, tc.opts...)
			if res.Err != nil {
				t.Fatal(res.Err)
			}
			var p struct {
				DryRun bool `json:"dry_run"`
			}
			json.Unmarshal(only(t, h).Params, &p)
			if p.DryRun != tc.wantDry {
				t.Errorf("dry_run sent %v, want %v", p.DryRun, tc.wantDry)
			}
		})
	}
}

func TestBatchRefusesUnknownSteps(t *testing.T) {
	h := start(t)
	res := call(t, h, "batch", map[string]any{"steps": []any{map[string]any{"tool": "save", "args": map[string]any{}}}})
	if res.Err == nil || res.Err.Code != sdk.CodeValidationError || !strings.Contains(res.Err.Hint, "create_node") {
		t.Fatalf("got %+v %s", res.Err, res.Structured)
	}
	res = call(t, h, "batch", map[string]any{"steps": []any{}})
	if res.Err == nil || res.Err.Code != sdk.CodeValidationError {
		t.Fatalf("empty batch: %+v", res.Err)
	}
}

// ---- large scenes: one round trip per page, bounded, never a silent cut ----

// fakeTree answers cmd_scene_get_tree for a scene of n nodes the way the
// addon pages: limit per answer, total always, truncated + next_cursor.
func fakeTree(n int) func(ctx context.Context, params json.RawMessage) (any, *sdk.Error) {
	return func(_ context.Context, params json.RawMessage) (any, *sdk.Error) {
		var p struct {
			Limit  int    `json:"limit"`
			Cursor string `json:"cursor"`
		}
		json.Unmarshal(params, &p)
		offset := 0
		if p.Cursor != "" {
			fmt.Sscanf(p.Cursor, "%d:", &offset)
		}
		nodes := []any{}
		for i := offset; i < n && len(nodes) < p.Limit; i++ {
			path := "."
			if i > 0 {
				path = fmt.Sprintf("Node%d", i)
			}
			nodes = append(nodes, map[string]any{"path": path, "name": path, "type": "Node2D", "depth": min(i, 1), "children": 0})
		}
		next := offset + len(nodes)
		out := map[string]any{"scene": "res://big.tscn", "source": "editor", "root": ".", "nodes": nodes, "total": n, "returned": len(nodes), "truncated": next < n}
		if next < n {
			out["next_cursor"] = fmt.Sprintf("%d:e1.1", next)
		}
		return out, nil
	}
}

func TestGetTreeOfTenThousandNodesPages(t *testing.T) {
	h := start(t)
	h.Addon().Handle("cmd_scene_get_tree", fakeTree(10000))
	seen := map[string]bool{}
	cursor := ""
	pages := 0
	for {
		args := map[string]any{}
		if cursor != "" {
			args["cursor"] = cursor
		}
		res := call(t, h, "get_tree", args)
		if res.Err != nil {
			t.Fatal(res.Err)
		}
		pages++
		if len(h.Addon().Received()) != pages {
			t.Fatalf("page %d took %d commands", pages, len(h.Addon().Received())-pages+1)
		}
		if len(res.Structured) > 256<<10 {
			t.Errorf("page %d is %d bytes", pages, len(res.Structured))
		}
		var out scene.TreeOut
		res.Decode(&out)
		if out.Total != 10000 || out.Returned != len(out.Nodes) {
			t.Fatalf("page %d: total %d returned %d nodes %d", pages, out.Total, out.Returned, len(out.Nodes))
		}
		for _, n := range out.Nodes {
			if seen[n.Path] {
				t.Fatalf("%s listed twice", n.Path)
			}
			seen[n.Path] = true
		}
		if !out.Truncated {
			if out.NextCursor != "" {
				t.Errorf("last page has a cursor %q", out.NextCursor)
			}
			break
		}
		if out.NextCursor == "" {
			t.Fatal("truncated without a cursor")
		}
		cursor = out.NextCursor
	}
	if len(seen) != 10000 || pages != 10 {
		t.Errorf("%d nodes in %d pages, want 10000 in 10", len(seen), pages)
	}
	var limits []int
	for _, c := range h.Addon().Received() {
		var p struct{ Limit int }
		json.Unmarshal(c.Params, &p)
		limits = append(limits, p.Limit)
	}
	sort.Ints(limits)
	if limits[0] != 1000 || limits[len(limits)-1] != 1000 {
		t.Errorf("limits sent %v, want the default 1000", limits)
	}
}
