package animation

import (
	"context"
	"encoding/json"
	"io/fs"
	"strings"
	"testing"

	"github.com/godot-mcp/godot-mcp/sdk"
	"github.com/godot-mcp/godot-mcp/sdk/sdktest"
)

// The commands the tools send, with the class handlers.gd must declare:
// reads read_only, edits mutating with dry_run, delete destructive with dry_run.
var commands = []sdktest.EditorCommand{
	{Name: "cmd_animation_list", Class: sdk.ReadOnly},
	{Name: "cmd_animation_get", Class: sdk.ReadOnly},
	{Name: "cmd_animation_seek", Class: sdk.ReadOnly},
	{Name: "cmd_animation_edit", Class: sdk.Mutating, DryRun: true},
	{Name: "cmd_animation_edit_tracks", Class: sdk.Mutating, DryRun: true},
	{Name: "cmd_animation_delete", Class: sdk.Destructive, DryRun: true},
	{Name: "cmd_animation_tree_get", Class: sdk.ReadOnly},
	{Name: "cmd_animation_tree_edit", Class: sdk.Mutating, DryRun: true},
}

func start(t *testing.T) *sdktest.Harness {
	t.Helper()
	return sdktest.StartWith(t, Toolset(), commands)
}

func call(t *testing.T, h *sdktest.Harness, tool string, args any, opts ...sdktest.CallOption) *sdktest.Result {
	t.Helper()
	r, err := h.Call(context.Background(), tool, args, opts...)
	if err != nil {
		t.Fatal(err)
	}
	return r
}

// params of the last command the fake editor received.
func lastParams(t *testing.T, h *sdktest.Harness) map[string]any {
	t.Helper()
	rec := h.Addon().Received()
	if len(rec) == 0 {
		t.Fatal("nothing sent")
	}
	var p map[string]any
	if err := json.Unmarshal(rec[len(rec)-1].Params, &p); err != nil {
		t.Fatal(err)
	}
	return p
}

// The shipped editor code declares exactly the commands the tools send, with
// the classes they rely on, and ships the files it preloads.
func TestEditorCodeDeclarations(t *testing.T) {
	shipped := []string{"util.gd", "keys.gd", "read.gd", "tracks.gd", "anims.gd", "tree.gd"}
	sdktest.CheckEditorCode(t, Toolset(), commands, shipped...)
	for _, f := range shipped {
		b, _ := fs.ReadFile(Toolset().EditorCode, f)
		if n := strings.Count(string(b), "\n"); n > 600 {
			t.Errorf("%s has %d lines (keep each file under 600)", f, n)
		}
	}
}

func TestToolSafety(t *testing.T) {
	h := start(t)
	want := map[string]sdk.Safety{"list": sdk.ReadOnly, "get": sdk.ReadOnly, "seek": sdk.ReadOnly, "edit": sdk.Mutating, "edit_tracks": sdk.Mutating, "delete": sdk.Destructive,
		"tree_get": sdk.ReadOnly, "tree_edit": sdk.Mutating}
	tools := h.Tools()
	if len(tools) != len(want) {
		t.Fatalf("%d tools", len(tools))
	}
	for _, ti := range tools {
		if want[ti.Name] != ti.Safety {
			t.Errorf("%s: %s", ti.Name, ti.Safety)
		}
	}
}

func TestList(t *testing.T) {
	h := start(t)
	h.Addon().HandleResult("cmd_animation_list", map[string]any{"scene": "res://main.tscn", "players": []any{
		map[string]any{"path": "Anim", "type": "AnimationPlayer", "root_node": "..", "active": true, "libraries": []any{
			map[string]any{"name": "", "animations": []any{map[string]any{"name": "walk", "length": 2, "loop_mode": "linear", "step": 0.1, "track_count": 1, "key_count": 3}}}}}}})
	var out ListOut
	if err := call(t, h, "list", nil).Decode(&out); err != nil {
		t.Fatal(err)
	}
	if len(out.Players) != 1 || out.Players[0].Libraries[0].Animations[0].Name != "walk" || out.Players[0].Libraries[0].Animations[0].KeyCount != 3 {
		t.Fatalf("%+v", out)
	}
	// Empty answers are lists, not null.
	h.Addon().HandleResult("cmd_animation_list", map[string]any{"scene": ""})
	r := call(t, h, "list", nil)
	if !strings.Contains(string(r.Structured), `"players":[]`) {
		t.Fatalf("%s", r.Structured)
	}
}

func TestGetSendsTrackAndPaging(t *testing.T) {
	h := start(t)
	h.Addon().HandleResult("cmd_animation_get", map[string]any{"player": "Anim", "animation": "walk", "library": "", "length": 1, "loop_mode": "none",
		"step": 0.1, "track_count": 1, "key_count": 1, "keys_truncated": false, "tracks": []any{map[string]any{"index": 0, "type": "value", "path": "A:position",
			"enabled": true, "key_count": 1, "keys": []any{map[string]any{"time": 0, "value": map[string]any{"x": 1, "y": 2}, "transition": 1}}}}})
	var out GetOut
	if err := call(t, h, "get", map[string]any{"animation": "walk", "track": 0, "key_limit": 10}).Decode(&out); err != nil {
		t.Fatal(err)
	}
	p := lastParams(t, h)
	if p["track"] != 0.0 || p["key_limit"] != 10.0 || p["animation"] != "walk" {
		t.Fatalf("params %v", p)
	}
	if len(out.Tracks) != 1 || !strings.Contains(string(out.Tracks[0].Keys[0]), `"x":1`) {
		t.Fatalf("%+v", out)
	}
	call(t, h, "get", map[string]any{"animation": "walk", "track_path": "A:position"})
	if p := lastParams(t, h); p["track"] != "A:position" || p["key_limit"] != 500.0 {
		t.Fatalf("params %v", p)
	}
	if r := call(t, h, "get", map[string]any{"animation": "walk", "track": 0, "track_path": "A"}); r.Err == nil || r.Err.Code != sdk.CodeValidationError {
		t.Fatalf("both track and track_path: %+v", r.Err)
	}
	if r := call(t, h, "get", map[string]any{}); r.Err == nil || r.Err.Code != sdk.CodeValidationError {
		t.Fatalf("no animation: %+v", r.Err)
	}
}

// An edit passes dry_run through, and the editor's refusal (with its hint)
// reaches the agent as is.
func TestEditTracksDryRunAndRefusal(t *testing.T) {
	h := start(t)
	h.Addon().HandleResult("cmd_animation_edit_tracks", map[string]any{"player": "Anim", "animation": "walk", "ops": []any{map[string]any{"op": "add_track", "track": 0}},
		"track_count": 1, "length": 1, "persisted": true, "undoable": false, "dry_run": true})
	keys := make([]map[string]any, 200)
	for i := range keys {
		keys[i] = map[string]any{"time": float64(i) / 100, "value": map[string]any{"x": i, "y": 0}}
	}
	args := map[string]any{"animation": "walk", "ops": []any{map[string]any{"op": "add_track", "type": "value", "path": "A:position", "keys": keys}}}
	var out EditTracksOut
	if err := call(t, h, "edit_tracks", args, sdktest.DryRun()).Decode(&out); err != nil {
		t.Fatal(err)
	}
	p := lastParams(t, h)
	if p["dry_run"] != true {
		t.Fatalf("dry_run not sent: %v", p)
	}
	op := p["ops"].([]any)[0].(map[string]any)
	if len(op["keys"].([]any)) != 200 || op["type"] != "value" {
		t.Fatalf("ops sent: %v", op["type"])
	}
	if k := op["keys"].([]any)[1].(map[string]any); len(k) != 2 || k["time"] != 0.01 {
		t.Fatalf("key sent as %v (unset fields must be left out)", k)
	}
	h.Addon().HandleError("cmd_animation_edit_tracks", &sdk.Error{Code: "RESOURCE_NOT_FOUND", Hint: "ops[0].path: no node 'Playr' (did you mean 'Player'?)"})
	r := call(t, h, "edit_tracks", args)
	if r.Err == nil || r.Err.Code != "RESOURCE_NOT_FOUND" || !strings.Contains(r.Err.Hint, "did you mean 'Player'?") {
		t.Fatalf("%+v", r.Err)
	}
	if p := lastParams(t, h); p["dry_run"] != nil {
		t.Fatalf("dry_run sent on a real call: %v", p)
	}
	// The schema refuses an unknown op and a track type before the editor.
	n := len(h.Commands())
	for _, bad := range []map[string]any{
		{"animation": "walk", "ops": []any{map[string]any{"op": "explode"}}},
		{"animation": "walk", "ops": []any{map[string]any{"op": "add_track", "type": "sound"}}},
		{"animation": "walk", "ops": []any{}},
	} {
		if r := call(t, h, "edit_tracks", bad); r.Err == nil || r.Err.Code != sdk.CodeValidationError {
			t.Errorf("%v: %+v", bad, r.Err)
		}
	}
	if len(h.Commands()) != n {
		t.Fatal("a refused call reached the editor")
	}
}

func TestEditChecksArguments(t *testing.T) {
	h := start(t)
	h.Addon().HandleResult("cmd_animation_edit", map[string]any{"player": "Anim", "animation": "walk", "persisted": true, "undoable": true, "dry_run": false})
	for _, bad := range []map[string]any{
		{"action": "create"},
		{"action": "duplicate", "animation": "walk"},
		{"action": "rename_library", "new_name": "x"},
		{"action": "fly", "animation": "walk"},
	} {
		if r := call(t, h, "edit", bad); r.Err == nil || r.Err.Code != sdk.CodeValidationError {
			t.Errorf("%v: %+v", bad, r.Err)
		}
	}
	if len(h.Commands()) != 0 {
		t.Fatalf("sent %v", h.Commands())
	}
	call(t, h, "edit", map[string]any{"action": "create_library", "library": ""})
	if p := lastParams(t, h); p["library"] != "" || p["action"] != "create_library" {
		t.Fatalf("params %v", p)
	}
	call(t, h, "edit", map[string]any{"action": "create", "animation": "walk", "length": 2, "loop_mode": "pingpong"})
	if p := lastParams(t, h); p["length"] != 2.0 || p["loop_mode"] != "pingpong" {
		t.Fatalf("params %v", p)
	}
}

// delete is destructive: refused without confirm (nothing sent), previewed
// with dry_run, run with confirm.
func TestDeleteNeedsConfirm(t *testing.T) {
	h := start(t)
	h.Addon().HandleResult("cmd_animation_delete", map[string]any{"player": "Anim", "deleted": "animation", "animation": "walk", "track_count": 2,
		"persisted": true, "undoable": true, "dry_run": false})
	if r := call(t, h, "delete", map[string]any{"animation": "walk"}); r.Err == nil || r.Err.Code != sdk.CodePreconditionFailed {
		t.Fatalf("without confirm: %+v", r.Err)
	}
	if len(h.Commands()) != 0 {
		t.Fatalf("sent %v", h.Commands())
	}
	call(t, h, "delete", map[string]any{"animation": "walk"}, sdktest.DryRun())
	if p := lastParams(t, h); p["dry_run"] != true {
		t.Fatalf("params %v", p)
	}
	var out DeleteOut
	if err := call(t, h, "delete", map[string]any{"animation": "walk", "tracks": []any{0, "A:position"}}, sdktest.Confirm()).Decode(&out); err != nil {
		t.Fatal(err)
	}
	if p := lastParams(t, h); len(p["tracks"].([]any)) != 2 {
		t.Fatalf("params %v", p)
	}
	for _, bad := range []map[string]any{{}, {"tracks": []any{0}}, {"animation": "walk", "library": ""}} {
		if r := call(t, h, "delete", bad, sdktest.Confirm()); r.Err == nil || r.Err.Code != sdk.CodeValidationError {
			t.Errorf("%v: %+v", bad, r.Err)
		}
	}
}

func TestSeek(t *testing.T) {
	h := start(t)
	h.Addon().HandleResult("cmd_animation_seek", map[string]any{"player": "Anim", "animation": "walk", "time": 0.5, "restored": true,
		"values": []any{map[string]any{"track": 0, "type": "value", "path": "A:position", "node": "A", "property": "position",
			"value": map[string]any{"x": 5, "y": 0}, "expected": map[string]any{"x": 5, "y": 0}}}})
	var out SeekOut
	if err := call(t, h, "seek", map[string]any{"animation": "walk", "time": 0.5}).Decode(&out); err != nil {
		t.Fatal(err)
	}
	if len(out.Values) != 1 || string(out.Values[0].Value) != `{"x":5,"y":0}` || !out.Restored {
		t.Fatalf("%+v", out)
	}
	if r := call(t, h, "seek", map[string]any{"animation": "walk", "time": -1}); r.Err == nil {
		t.Fatal("negative time accepted")
	}
}

func TestTree(t *testing.T) {
	h := start(t)
	h.Addon().HandleResult("cmd_animation_tree_get", map[string]any{"tree": "Tree", "anim_player": "../Anim", "active": true})
	var g TreeGetOut
	if err := call(t, h, "tree_get", map[string]any{"tree": "Tree"}).Decode(&g); err != nil {
		t.Fatal(err)
	}
	if string(g.Root) != "null" || g.AnimPlayer != "../Anim" {
		t.Fatalf("%+v", g)
	}
	h.Addon().HandleResult("cmd_animation_tree_edit", map[string]any{"tree": "Tree", "ops": []any{map[string]any{"op": "set_root"}}, "root_type": "state_machine",
		"persisted": true, "undoable": false, "dry_run": true})
	args := map[string]any{"tree": "Tree", "ops": []any{
		map[string]any{"op": "set_root", "type": "state_machine"},
		map[string]any{"op": "add_transition", "from": "Start", "to": "idle", "advance_mode": "auto", "xfade_time": 0.2, "advance_condition": ""},
	}}
	var out TreeEditOut
	if err := call(t, h, "tree_edit", args, sdktest.DryRun()).Decode(&out); err != nil {
		t.Fatal(err)
	}
	p := lastParams(t, h)
	tr := p["ops"].([]any)[1].(map[string]any)
	if p["dry_run"] != true || tr["xfade_time"] != 0.2 || tr["advance_condition"] != "" || tr["advance_mode"] != "auto" {
		t.Fatalf("params %v", p)
	}
	if r := call(t, h, "tree_edit", map[string]any{"ops": []any{map[string]any{"op": "add_transition", "switch_mode": "later"}}}); r.Err == nil || r.Err.Code != sdk.CodeValidationError {
		t.Fatalf("bad switch_mode: %+v", r.Err)
	}
}
