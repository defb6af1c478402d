package e2e

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"
)

// ---- animation toolset e2e: the real editor, checked from outside ----

// animSession is an editor of its own with the scene and animation toolsets
// enabled, the main scene open and an AnimationPlayer "Anim" added under the root.
func animSession(t *testing.T) *session {
	t.Helper()
	s := newSession(t)
	s.host.mustCall(t, "godot_enable_toolset", map[string]any{"name": "scene"}, nil)
	s.host.mustCall(t, "godot_enable_toolset", map[string]any{"name": "animation"}, nil)
	editorStateWithScene(t, s)
	s.host.mustCall(t, "godot_scene_create_node", map[string]any{"type": "AnimationPlayer", "name": "Anim"}, nil)
	return s
}

type animTrack struct {
	Index         int               `json:"index"`
	Type          string            `json:"type"`
	Path          string            `json:"path"`
	Interpolation string            `json:"interpolation"`
	UpdateMode    string            `json:"update_mode"`
	KeyCount      int               `json:"key_count"`
	Keys          []json.RawMessage `json:"keys"`
	KeysTruncated bool              `json:"keys_truncated"`
	NextKeyOffset int               `json:"next_key_offset"`
}

type animGet struct {
	Animation  string      `json:"animation"`
	Length     float64     `json:"length"`
	LoopMode   string      `json:"loop_mode"`
	Step       float64     `json:"step"`
	TrackCount int         `json:"track_count"`
	KeyCount   int         `json:"key_count"`
	Tracks     []animTrack `json:"tracks"`
}

func animOf(t *testing.T, s *session, args map[string]any) animGet {
	t.Helper()
	var g animGet
	s.host.mustCall(t, "godot_animation_get", args, &g)
	return g
}

// animCheckScript loads a scene in a fresh headless Godot and prints each
// AnimationPlayer's animations: length, loop mode, tracks with their keys.
const animCheckScript = `extends SceneTree

func _initialize() -> void:
	var out: Dictionary = {}
	var packed: PackedScene = load(OS.get_cmdline_user_args()[0]) as PackedScene
	var root: Node = packed.instantiate()
	for p: Node in root.find_children("*", "AnimationPlayer", true, false):
		var anims: Dictionary = {}
		for n: StringName in (p as AnimationPlayer).get_animation_list():
			var a: Animation = (p as AnimationPlayer).get_animation(n)
			var tracks: Array = []
			for t: int in range(a.get_track_count()):
				var keys: Array = []
				for k: int in range(a.track_get_key_count(t)):
					keys.append([a.track_get_key_time(t, k), var_to_str(a.track_get_key_value(t, k))])
				tracks.append({"type": a.track_get_type(t), "path": str(a.track_get_path(t)), "interp": a.track_get_interpolation_type(t), "keys": keys})
			anims[str(n)] = {"length": a.length, "loop": a.loop_mode, "tracks": tracks}
		out[str(root.get_path_to(p))] = anims
	root.free()
	print("ANIM_CHECK " + JSON.stringify(out))
	quit()
`

type checkedAnim struct {
	Length float64 `json:"length"`
	Loop   int     `json:"loop"`
	Tracks []struct {
		Type   int     `json:"type"`
		Path   string  `json:"path"`
		Interp int     `json:"interp"`
		Keys   [][]any `json:"keys"`
	} `json:"tracks"`
}

// loadAnimsHeadless reads the AnimationPlayers of a saved scene back through
// a new `godot --headless` process.
func loadAnimsHeadless(t *testing.T, project, scene string) map[string]map[string]checkedAnim {
	t.Helper()
	script := filepath.Join(t.TempDir(), "anim_check.gd")
	if err := os.WriteFile(script, []byte(animCheckScript), 0o644); err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, suite.godot, "--headless", "--path", project, "--script", script, "--", scene)
	cmd.Env = append(godotEnv(), "GODOT_MCP_BRIDGE_URL=ws://127.0.0.1:1")
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("headless load: %v\n%s", err, out)
	}
	for _, line := range strings.Split(string(out), "\n") {
		if rest, ok := strings.CutPrefix(strings.TrimSpace(line), "ANIM_CHECK "); ok {
			var got map[string]map[string]checkedAnim
			if err := json.Unmarshal([]byte(rest), &got); err != nil {
				t.Fatalf("bad JSON: %v\n%s", err, rest)
			}
			return got
		}
	}
	t.Fatalf("no ANIM_CHECK line:\n%s", out)
	return nil
}

// Authoring an animation through MCP: create it, add tracks of several kinds
// with their keys in one call, refusals with did-you-mean, read it back, seek
// and read the pose, undo and redo, save, and a fresh Godot loads what was written.
func TestAnimationAuthoring(t *testing.T) {
	s := animSession(t)
	h := s.host

	var list struct {
		Players []struct {
			Path      string `json:"path"`
			Type      string `json:"type"`
			Libraries []struct {
				Name       string `json:"name"`
				Animations []struct {
					Name string `json:"name"`
				} `json:"animations"`
			} `json:"libraries"`
		} `json:"players"`
	}
	h.mustCall(t, "godot_animation_list", nil, &list)
	if len(list.Players) != 1 || list.Players[0].Path != "Anim" || list.Players[0].Type != "AnimationPlayer" || len(list.Players[0].Libraries) != 0 {
		t.Fatalf("list = %+v", list)
	}

	// create (the default library is created with it); a dry run changes nothing.
	var ed struct {
		Animation      string `json:"animation"`
		CreatedLibrary bool   `json:"created_library"`
		DryRun         bool   `json:"dry_run"`
		Undoable       bool   `json:"undoable"`
	}
	create := map[string]any{"action": "create", "animation": "walk", "length": 2, "loop_mode": "linear"}
	h.mustCall(t, "godot_animation_edit", map[string]any{"action": "create", "animation": "walk", "length": 2, "dry_run": true}, &ed)
	if !ed.DryRun || !ed.CreatedLibrary {
		t.Errorf("dry create = %+v", ed)
	}
	sceneFail(t, s, "godot_animation_get", map[string]any{"animation": "walk"}, "RESOURCE_NOT_FOUND")
	h.mustCall(t, "godot_animation_edit", create, &ed)
	if ed.Animation != "walk" || !ed.CreatedLibrary || !ed.Undoable {
		t.Errorf("create = %+v", ed)
	}
	sceneFail(t, s, "godot_animation_edit", create, "VALIDATION_ERROR", "already has")
	sceneFail(t, s, "godot_animation_get", map[string]any{"animation": "wlak"}, "RESOURCE_NOT_FOUND", "Did you mean 'walk'?")
	sceneFail(t, s, "godot_animation_get", map[string]any{"player": "Anm", "animation": "walk"}, "RESOURCE_NOT_FOUND", "Did you mean 'Anim'?")
	sceneFail(t, s, "godot_animation_seek", map[string]any{"player": "Player", "animation": "walk", "time": 0}, "VALIDATION_ERROR", "not an AnimationPlayer")

	// Refusals: a node path, a property, a value of the wrong shape; nothing changes.
	sceneFail(t, s, "godot_animation_edit_tracks", map[string]any{"animation": "walk", "ops": []any{
		map[string]any{"op": "add_track", "type": "value", "path": "Playr:position"}}}, "RESOURCE_NOT_FOUND", "did you mean 'Player'?")
	sceneFail(t, s, "godot_animation_edit_tracks", map[string]any{"animation": "walk", "ops": []any{
		map[string]any{"op": "add_track", "type": "value", "path": "Player:positon"}}}, "VALIDATION_ERROR", "did you mean 'position'?")
	sceneFail(t, s, "godot_animation_edit_tracks", map[string]any{"animation": "walk", "ops": []any{
		map[string]any{"op": "add_track", "type": "value", "path": "Player:position"},
		map[string]any{"op": "insert_keys", "path": "Player:position", "keys": []any{map[string]any{"time": 0, "value": 5}}}}},
		"VALIDATION_ERROR", "ops[1]", "{x: number", "Nothing was changed")
	if g := animOf(t, s, map[string]any{"animation": "walk"}); g.TrackCount != 0 {
		t.Fatalf("a refused edit_tracks left %d tracks", g.TrackCount)
	}

	// One call: a value track with three keys, a bezier track, a method track.
	ops := map[string]any{"animation": "walk", "ops": []any{
		map[string]any{"op": "add_track", "type": "value", "path": "Player:position", "interpolation": "linear", "keys": []any{
			map[string]any{"time": 0, "value": map[string]any{"x": 0, "y": 0}},
			map[string]any{"time": 1, "value": map[string]any{"x": 100, "y": 40}},
			map[string]any{"time": 2, "value": map[string]any{"x": 200, "y": 0}},
		}},
		map[string]any{"op": "add_track", "type": "bezier", "path": "Player:rotation", "keys": []any{
			map[string]any{"time": 0, "value": 0, "out_handle": map[string]any{"x": 0.3, "y": 0}},
			map[string]any{"time": 2, "value": 1.5, "in_handle": map[string]any{"x": -0.3, "y": 0}},
		}},
		map[string]any{"op": "add_track", "type": "method", "path": "Player", "keys": []any{
			map[string]any{"time": 0.5, "value": map[string]any{"method": "set_process", "args": []any{true}}},
		}},
		map[string]any{"op": "add_track", "type": "value", "path": "Label:text", "keys": []any{
			map[string]any{"time": 0, "value": "A"}, map[string]any{"time": 1, "value": "B"}}},
	}}
	var et struct {
		Ops        []map[string]any `json:"ops"`
		TrackCount int              `json:"track_count"`
		DryRun     bool             `json:"dry_run"`
		Undoable   bool             `json:"undoable"`
		Persisted  bool             `json:"persisted"`
	}
	dry := map[string]any{"animation": "walk", "ops": ops["ops"], "dry_run": true}
	h.mustCall(t, "godot_animation_edit_tracks", dry, &et)
	if !et.DryRun || et.TrackCount != 4 {
		t.Errorf("dry edit_tracks = %+v", et)
	}
	if g := animOf(t, s, map[string]any{"animation": "walk"}); g.TrackCount != 0 {
		t.Fatalf("a dry run left %d tracks", g.TrackCount)
	}
	h.mustCall(t, "godot_animation_edit_tracks", ops, &et)
	if et.DryRun || et.TrackCount != 4 || !et.Undoable || !et.Persisted || len(et.Ops) != 4 {
		t.Fatalf("edit_tracks = %+v", et)
	}
	g := animOf(t, s, map[string]any{"animation": "walk"})
	if g.Length != 2 || g.LoopMode != "linear" || len(g.Tracks) != 4 || g.Tracks[0].Type != "value" || g.Tracks[0].Path != "Player:position" ||
		g.Tracks[0].KeyCount != 3 || g.Tracks[1].Type != "bezier" || g.Tracks[2].Type != "method" || g.Tracks[0].Interpolation != "linear" {
		t.Fatalf("get = %+v", g)
	}
	var k1 struct {
		Time  float64 `json:"time"`
		Value vec2    `json:"value"`
	}
	if err := json.Unmarshal(g.Tracks[0].Keys[1], &k1); err != nil || k1.Time != 1 || k1.Value != (vec2{100, 40}) {
		t.Errorf("key 1 = %s", g.Tracks[0].Keys[1])
	}
	var bz struct {
		Value     float64 `json:"value"`
		OutHandle vec2    `json:"out_handle"`
	}
	var mk struct {
		Value struct {
			Method string `json:"method"`
			Args   []any  `json:"args"`
		} `json:"value"`
	}
	json.Unmarshal(g.Tracks[1].Keys[1], &bz)
	json.Unmarshal(g.Tracks[2].Keys[0], &mk)
	if bz.Value != 1.5 || g.Tracks[1].KeyCount != 2 || mk.Value.Method != "set_process" || len(mk.Value.Args) != 1 || mk.Value.Args[0] != true {
		t.Errorf("bezier/method keys = %s %s", g.Tracks[1].Keys[1], g.Tracks[2].Keys[0])
	}
	json.Unmarshal(g.Tracks[1].Keys[0], &bz)
	if bz.OutHandle != (vec2{0.3, 0}) {
		t.Errorf("bezier key 0 = %s", g.Tracks[1].Keys[0])
	}
	// Paged keys.
	pg := animOf(t, s, map[string]any{"animation": "walk", "track": 0, "key_limit": 2})
	if len(pg.Tracks) != 1 || len(pg.Tracks[0].Keys) != 2 || !pg.Tracks[0].KeysTruncated || pg.Tracks[0].NextKeyOffset != 2 {
		t.Errorf("paged = %+v", pg)
	}

	// Seek: the pose at 0.5 s is read back from the nodes, then the scene is as it was.
	var sk struct {
		Values []struct {
			Path     string          `json:"path"`
			Value    json.RawMessage `json:"value"`
			Expected json.RawMessage `json:"expected"`
		} `json:"values"`
		Restored bool `json:"restored"`
	}
	h.mustCall(t, "godot_animation_seek", map[string]any{"animation": "walk", "time": 0.5}, &sk)
	var pos json.RawMessage
	for _, v := range sk.Values {
		if v.Path == "Player:position" {
			pos = v.Value
		}
	}
	if pos == nil || vec(t, pos) != (vec2{50, 20}) || !sk.Restored || len(sk.Values) != 3 {
		t.Errorf("seek = %+v", sk)
	}
	// What the nodes hold after the seek is what each track says for that time.
	for _, v := range sk.Values {
		var got, want any
		json.Unmarshal(v.Value, &got)
		json.Unmarshal(v.Expected, &want)
		if !nearlyEqual(got, want) {
			t.Errorf("seek %s: node has %s, the track says %s", v.Path, v.Value, v.Expected)
		}
	}
	if n := sceneNodeOf(t, s, "Player", "position"); vec(t, n.Properties["position"]) != (vec2{100, 50}) {
		t.Errorf("seek left Player at %s", n.Properties["position"])
	}

	// change_keys moves and changes a key; set_keys rewrites the whole track.
	h.mustCall(t, "godot_animation_edit_tracks", map[string]any{"animation": "walk", "ops": []any{
		map[string]any{"op": "change_keys", "track": 0, "keys": []any{map[string]any{"time": 1, "new_time": 1.5, "value": map[string]any{"x": 7, "y": 8}}}},
		map[string]any{"op": "set_keys", "path": "Label:text", "keys": []any{map[string]any{"time": 0.25, "value": "Z"}}},
		map[string]any{"op": "set_track", "track": 3, "update_mode": "discrete"},
	}}, nil)
	g = animOf(t, s, map[string]any{"animation": "walk"})
	json.Unmarshal(g.Tracks[0].Keys[1], &k1)
	if k1.Time != 1.5 || k1.Value != (vec2{7, 8}) || g.Tracks[3].KeyCount != 1 || g.Tracks[3].UpdateMode != "discrete" {
		t.Errorf("after change = %+v", g.Tracks)
	}
	// Undo the change: one undo action brings back the previous keys.
	sceneUndo(t, s)
	g = animOf(t, s, map[string]any{"animation": "walk"})
	json.Unmarshal(g.Tracks[0].Keys[1], &k1)
	if k1.Time != 1 || k1.Value != (vec2{100, 40}) || g.Tracks[3].KeyCount != 2 || g.Tracks[3].UpdateMode != "continuous" {
		t.Errorf("after undo = %+v", g.Tracks)
	}
	sceneRedo(t, s)

	// insert_keys replaces a key at the same time; remove_keys by time and all;
	// a key past the length is written with a warning. One undo action for all.
	var rk struct {
		Ops      []map[string]any `json:"ops"`
		Warnings []string         `json:"warnings"`
	}
	h.mustCall(t, "godot_animation_edit_tracks", map[string]any{"animation": "walk", "ops": []any{
		map[string]any{"op": "insert_keys", "track": 0, "keys": []any{map[string]any{"time": 0, "value": map[string]any{"x": -1, "y": -1}}, map[string]any{"time": 3, "value": map[string]any{"x": 0, "y": 0}}}},
		map[string]any{"op": "remove_keys", "track": 0, "keys": []any{map[string]any{"time": 2}}},
		map[string]any{"op": "remove_keys", "path": "Label:text", "all": true},
	}}, &rk)
	g = animOf(t, s, map[string]any{"animation": "walk"})
	json.Unmarshal(g.Tracks[0].Keys[0], &k1)
	if g.Tracks[0].KeyCount != 3 || k1.Value != (vec2{-1, -1}) || g.Tracks[3].KeyCount != 0 || len(rk.Warnings) != 1 || !strings.Contains(rk.Warnings[0], "after the animation's length") {
		t.Errorf("insert/remove = %+v %v", g.Tracks, rk.Warnings)
	}
	sceneUndo(t, s)
	g = animOf(t, s, map[string]any{"animation": "walk"})
	json.Unmarshal(g.Tracks[0].Keys[0], &k1)
	if g.Tracks[0].KeyCount != 3 || k1.Value != (vec2{0, 0}) || g.Tracks[3].KeyCount != 1 {
		t.Errorf("insert/remove undone = %+v", g.Tracks)
	}
	sceneFail(t, s, "godot_animation_edit_tracks", map[string]any{"animation": "walk", "ops": []any{
		map[string]any{"op": "remove_keys", "track": 0, "keys": []any{map[string]any{"time": 0.7}}}}}, "RESOURCE_NOT_FOUND", "no key at 0.7")

	// Retargeting a value track to a property of another type warns about its keys.
	var rt struct {
		Warnings []string `json:"warnings"`
	}
	h.mustCall(t, "godot_animation_edit_tracks", map[string]any{"animation": "walk", "dry_run": true, "ops": []any{
		map[string]any{"op": "set_track", "track": 0, "new_path": "Label:tooltip_text"}}}, &rt)
	if len(rt.Warnings) != 1 || !strings.Contains(rt.Warnings[0], "String") || !strings.Contains(rt.Warnings[0], "Vector2") {
		t.Errorf("retarget warnings = %v", rt.Warnings)
	}

	// Delete: a track needs confirm; undo brings it back.
	sceneFail(t, s, "godot_animation_delete", map[string]any{"animation": "walk", "tracks": []any{2}}, "PRECONDITION_FAILED")
	h.mustCall(t, "godot_animation_delete", map[string]any{"animation": "walk", "tracks": []any{"Player"}, "confirm": true}, nil)
	if g = animOf(t, s, map[string]any{"animation": "walk"}); g.TrackCount != 3 {
		t.Errorf("after delete track: %d tracks", g.TrackCount)
	}
	sceneUndo(t, s)
	if g = animOf(t, s, map[string]any{"animation": "walk"}); g.TrackCount != 4 {
		t.Errorf("after undoing delete track: %d tracks", g.TrackCount)
	}
	// duplicate + rename + delete an animation, undone.
	h.mustCall(t, "godot_animation_edit", map[string]any{"action": "duplicate", "animation": "walk", "new_name": "run"}, nil)
	h.mustCall(t, "godot_animation_edit", map[string]any{"action": "rename", "animation": "run", "new_name": "sprint"}, nil)
	h.mustCall(t, "godot_animation_delete", map[string]any{"animation": "sprint", "confirm": true}, nil)
	sceneFail(t, s, "godot_animation_get", map[string]any{"animation": "sprint"}, "RESOURCE_NOT_FOUND")
	sceneUndo(t, s)
	if g = animOf(t, s, map[string]any{"animation": "sprint"}); g.TrackCount != 4 {
		t.Errorf("sprint after undo: %+v", g)
	}

	// Saved, and read back by a fresh Godot.
	h.mustCall(t, "godot_scene_save", nil, nil)
	got := loadAnimsHeadless(t, s.project, "res://main.tscn")
	walk, ok := got["Anim"]["walk"]
	if !ok || walk.Length != 2 || walk.Loop != 1 || len(walk.Tracks) != 4 {
		t.Fatalf("saved = %+v", got)
	}
	if tr := walk.Tracks[0]; tr.Path != "Player:position" || len(tr.Keys) != 3 || tr.Keys[2][1] != "Vector2(200, 0)" || tr.Keys[1][0] != 1.5 {
		t.Errorf("saved track 0 = %+v", tr)
	}
	if _, ok := got["Anim"]["sprint"]; !ok {
		t.Errorf("sprint not saved: %+v", got["Anim"])
	}
}

// Track kinds beyond value and bezier (3D transform, audio, animation), a
// named library (create, rename, delete, each undone), set, and refusals that
// name the expected kind of node; saved and reloaded by a fresh Godot.
func TestAnimationTrackKindsAndLibraries(t *testing.T) {
	s := animSession(t)
	h := s.host
	h.mustCall(t, "godot_scene_create_node", map[string]any{"type": "Node3D", "name": "Cube"}, nil)
	h.mustCall(t, "godot_scene_create_node", map[string]any{"type": "AudioStreamPlayer", "name": "Sfx"}, nil)
	h.mustCall(t, "godot_animation_edit", map[string]any{"action": "create", "animation": "walk"}, nil)
	h.mustCall(t, "godot_animation_edit", map[string]any{"action": "create_library", "library": "fx"}, nil)
	h.mustCall(t, "godot_animation_edit", map[string]any{"action": "create", "animation": "fx/spin"}, nil)
	var set struct {
		Length   float64 `json:"length"`
		LoopMode string  `json:"loop_mode"`
		Step     float64 `json:"step"`
	}
	h.mustCall(t, "godot_animation_edit", map[string]any{"action": "set", "animation": "fx/spin", "length": 1, "loop_mode": "pingpong", "step": 0.05}, &set)
	if set.Length != 1 || set.LoopMode != "pingpong" || set.Step != 0.05 {
		t.Errorf("set = %+v", set)
	}
	add := func(typ, path string, keys ...any) map[string]any {
		return map[string]any{"op": "add_track", "type": typ, "path": path, "keys": keys}
	}
	key := func(time float64, v any) map[string]any { return map[string]any{"time": time, "value": v} }
	spin := func(ops ...any) map[string]any { return map[string]any{"animation": "fx/spin", "ops": ops} }

	sceneFail(t, s, "godot_animation_edit_tracks", spin(add("position_3d", "Player")), "VALIDATION_ERROR", "Node3D", "Node2D")
	sceneFail(t, s, "godot_animation_edit_tracks", spin(add("blend_shape", "Cube:smile")), "VALIDATION_ERROR", "MeshInstance3D")
	sceneFail(t, s, "godot_animation_edit_tracks", spin(add("audio", "Cube")), "VALIDATION_ERROR", "AudioStreamPlayer")
	sceneFail(t, s, "godot_animation_edit_tracks", spin(add("animation", "Anim", key(0, "wlak"))), "VALIDATION_ERROR", "did you mean 'walk'?")
	sceneFail(t, s, "godot_animation_edit_tracks", spin(add("rotation_3d", "Cube", key(0, map[string]any{"x": 0, "y": 0, "z": 0}))), "VALIDATION_ERROR", "keys[0].value")

	h.mustCall(t, "godot_animation_edit_tracks", spin(
		add("position_3d", "Cube", key(0, map[string]any{"x": 0, "y": 0, "z": 0}), key(1, map[string]any{"x": 0, "y": 2, "z": 0})),
		add("rotation_3d", "Cube", key(0, map[string]any{"x": 0, "y": 0, "z": 0, "w": 1})),
		add("scale_3d", "Cube", key(0, map[string]any{"x": 1, "y": 1, "z": 1}), key(1, map[string]any{"x": 3, "y": 3, "z": 3})),
		add("audio", "Sfx", key(0.25, map[string]any{"stream": map[string]any{"type": "AudioStreamGenerator", "properties": map[string]any{}}, "start_offset": 0.1})),
		add("animation", "Anim", key(0, "walk"), key(0.5, "[stop]")),
	), nil)
	g := animOf(t, s, map[string]any{"animation": "fx/spin"})
	var types []string
	for _, tr := range g.Tracks {
		types = append(types, tr.Type)
	}
	if strings.Join(types, ",") != "position_3d,rotation_3d,scale_3d,audio,animation" || g.Tracks[3].KeyCount != 1 || g.Tracks[4].KeyCount != 2 {
		t.Fatalf("tracks = %v %+v", types, g.Tracks)
	}
	if !strings.Contains(string(g.Tracks[3].Keys[0]), "AudioStreamGenerator") || !strings.Contains(string(g.Tracks[4].Keys[0]), `"walk"`) {
		t.Errorf("audio/animation keys = %s %s", g.Tracks[3].Keys[0], g.Tracks[4].Keys[0])
	}

	// The pose at 0.5 s: the 3D tracks set position and scale of the Node3D.
	var sk struct {
		Values []struct {
			Property string          `json:"property"`
			Value    json.RawMessage `json:"value"`
		} `json:"values"`
	}
	h.mustCall(t, "godot_animation_seek", map[string]any{"player": "Anim", "animation": "fx/spin", "time": 0.5}, &sk)
	type v3 struct{ X, Y, Z float64 }
	got := map[string]v3{}
	for _, v := range sk.Values {
		var x v3
		json.Unmarshal(v.Value, &x)
		got[v.Property] = x
	}
	if got["position"] != (v3{0, 1, 0}) || got["scale"] != (v3{2, 2, 2}) {
		t.Errorf("seek = %v", got)
	}
	var cube v3
	if n := sceneNodeOf(t, s, "Cube", "position"); json.Unmarshal(n.Properties["position"], &cube) != nil || cube != (v3{}) {
		t.Errorf("seek left Cube at %s", n.Properties["position"])
	}

	// retarget a track; rename the library; each undone in one step.
	h.mustCall(t, "godot_scene_create_node", map[string]any{"type": "Node3D", "name": "Ball"}, nil)
	h.mustCall(t, "godot_animation_edit_tracks", spin(map[string]any{"op": "set_track", "track": 0, "new_path": "Ball"}), nil)
	if g = animOf(t, s, map[string]any{"animation": "fx/spin", "track": 0}); g.Tracks[0].Path != "Ball" {
		t.Errorf("retarget: %+v", g.Tracks)
	}
	sceneUndo(t, s)
	if g = animOf(t, s, map[string]any{"animation": "fx/spin", "track": 0}); g.Tracks[0].Path != "Cube" {
		t.Errorf("retarget undone: %+v", g.Tracks)
	}
	h.mustCall(t, "godot_animation_edit", map[string]any{"action": "rename_library", "library": "fx", "new_name": "effects"}, nil)
	animOf(t, s, map[string]any{"animation": "effects/spin"})
	sceneUndo(t, s)
	animOf(t, s, map[string]any{"animation": "fx/spin"})
	var del struct {
		Deleted    string   `json:"deleted"`
		Animations []string `json:"animations"`
		DryRun     bool     `json:"dry_run"`
	}
	h.mustCall(t, "godot_animation_delete", map[string]any{"library": "fx", "dry_run": true}, &del)
	if del.Deleted != "library" || !del.DryRun || len(del.Animations) != 1 || del.Animations[0] != "spin" {
		t.Errorf("dry delete = %+v", del)
	}
	animOf(t, s, map[string]any{"animation": "fx/spin"})
	h.mustCall(t, "godot_animation_delete", map[string]any{"library": "fx", "confirm": true}, &del)
	sceneFail(t, s, "godot_animation_get", map[string]any{"animation": "fx/spin"}, "RESOURCE_NOT_FOUND")
	sceneUndo(t, s)

	h.mustCall(t, "godot_scene_save", nil, nil)
	saved := loadAnimsHeadless(t, s.project, "res://main.tscn")
	sp, ok := saved["Anim"]["fx/spin"]
	if !ok || sp.Loop != 2 || len(sp.Tracks) != 5 {
		t.Fatalf("saved = %+v", saved)
	}
	// A seek after the save leaves the scene saved and adds no undo entry.
	before := editorStateNow(t, s)
	h.mustCall(t, "godot_animation_seek", map[string]any{"player": "Anim", "animation": "fx/spin", "time": 0.75}, nil)
	if after := editorStateNow(t, s); after.ActiveScene.Dirty || after.Undo.UndoAction != before.Undo.UndoAction {
		t.Errorf("seek changed the editor state: %+v -> %+v", before.Undo, after.Undo)
	}
	var kinds []int
	for _, tr := range sp.Tracks {
		kinds = append(kinds, tr.Type)
	}
	if fmt.Sprint(kinds) != "[1 2 3 7 8]" || sp.Tracks[0].Path != "Cube" || len(sp.Tracks[0].Keys) != 2 {
		t.Errorf("saved tracks = %+v", sp.Tracks)
	}
}

// animTreeCheckScript prints what a fresh Godot loads of the scene's
// AnimationTree: the root's class, a state, a transition, a blend space and
// a blend-tree connection.
const animTreeCheckScript = `extends SceneTree

func _initialize() -> void:
	var root: Node = (load(OS.get_cmdline_user_args()[0]) as PackedScene).instantiate()
	var tree: AnimationTree = root.get_node("Tree")
	var sm: AnimationNodeStateMachine = tree.tree_root as AnimationNodeStateMachine
	var out: Dictionary = {"root": tree.tree_root.get_class(), "anim_player": str(tree.anim_player)}
	out["idle"] = (sm.get_node("idle") as AnimationNodeAnimation).animation
	out["move_points"] = (sm.get_node("Move") as AnimationNodeBlendSpace1D).get_blend_point_count()
	for i: int in range(sm.get_transition_count()):
		if str(sm.get_transition_from(i)) == "idle" and str(sm.get_transition_to(i)) == "Move":
			var t: AnimationNodeStateMachineTransition = sm.get_transition(i)
			out["idle_move"] = [str(t.advance_condition), t.xfade_time, t.switch_mode]
	out["attack_conns"] = (sm.get_node("Attack") as AnimationNodeBlendTree).get("node_connections")
	root.free()
	print("TREE_CHECK " + JSON.stringify(out))
	quit()
`

// An AnimationTree built through MCP: a state machine with an animation
// state, a 1D blend space with points and a blend tree with a connection,
// transitions with a condition, an expression and a cross-fade; refusals
// with did-you-mean; one undo action; saved and reloaded by a fresh Godot.
func TestAnimationTree(t *testing.T) {
	s := animSession(t)
	h := s.host
	for _, a := range []string{"idle", "walk", "run"} {
		h.mustCall(t, "godot_animation_edit", map[string]any{"action": "create", "animation": a}, nil)
	}
	h.mustCall(t, "godot_scene_create_node", map[string]any{"type": "AnimationTree", "name": "Tree", "properties": map[string]any{"anim_player": "../Anim"}}, nil)
	var g struct {
		Tree       string          `json:"tree"`
		AnimPlayer string          `json:"anim_player"`
		Root       json.RawMessage `json:"root"`
	}
	h.mustCall(t, "godot_animation_tree_get", map[string]any{"tree": "Tree"}, &g)
	if string(g.Root) != "null" || g.AnimPlayer != "../Anim" {
		t.Fatalf("tree_get = %+v", g)
	}
	sceneFail(t, s, "godot_animation_tree_edit", map[string]any{"tree": "Tree", "ops": []any{map[string]any{"op": "add_node", "name": "x"}}}, "PRECONDITION_FAILED", "set_root")
	sceneFail(t, s, "godot_animation_tree_edit", map[string]any{"tree": "Anim", "ops": []any{map[string]any{"op": "set_root", "type": "state_machine"}}}, "VALIDATION_ERROR", "not an AnimationTree")

	build := []any{
		map[string]any{"op": "set_root", "type": "state_machine"},
		map[string]any{"op": "add_node", "name": "idle", "animation": "idle"},
		map[string]any{"op": "add_node", "name": "Move", "type": "blend_space_1d"},
		map[string]any{"op": "add_point", "graph": "Move", "animation": "walk", "position": 0},
		map[string]any{"op": "add_point", "graph": "Move", "animation": "run", "position": 1},
		map[string]any{"op": "set_blend_space", "graph": "Move", "min_space": 0, "max_space": 1},
		map[string]any{"op": "add_node", "name": "Attack", "type": "blend_tree"},
		map[string]any{"op": "add_node", "graph": "Attack", "name": "a", "animation": "run"},
		map[string]any{"op": "connect", "graph": "Attack", "to": "output", "input": 0, "from": "a"},
		map[string]any{"op": "add_transition", "from": "Start", "to": "idle", "advance_mode": "auto"},
		map[string]any{"op": "add_transition", "from": "idle", "to": "Move", "advance_mode": "auto", "advance_condition": "moving", "xfade_time": 0.2},
		map[string]any{"op": "add_transition", "from": "Move", "to": "idle", "advance_mode": "auto", "advance_expression": "get_parent() != null", "switch_mode": "at_end"},
	}
	with := func(extra ...any) []any { return append(append([]any{}, build...), extra...) }
	sceneFail(t, s, "godot_animation_tree_edit", map[string]any{"tree": "Tree", "ops": with(map[string]any{"op": "add_transition", "from": "idle", "to": "Mvoe"})},
		"RESOURCE_NOT_FOUND", "ops[12]", "did you mean 'Move'?", "Nothing was changed")
	sceneFail(t, s, "godot_animation_tree_edit", map[string]any{"tree": "Tree", "ops": with(map[string]any{"op": "add_node", "name": "r", "animation": "rnu"})},
		"RESOURCE_NOT_FOUND", "did you mean 'run'?")
	sceneFail(t, s, "godot_animation_tree_edit", map[string]any{"tree": "Tree", "ops": with(map[string]any{"op": "set_transition", "from": "idle", "to": "Move", "advance_expression": "((("})},
		"VALIDATION_ERROR", "does not parse")
	var ed struct {
		RootType string `json:"root_type"`
		DryRun   bool   `json:"dry_run"`
		Undoable bool   `json:"undoable"`
	}
	h.mustCall(t, "godot_animation_tree_edit", map[string]any{"tree": "Tree", "ops": build, "dry_run": true}, &ed)
	if ed.RootType != "state_machine" || !ed.DryRun {
		t.Errorf("dry = %+v", ed)
	}
	if h.mustCall(t, "godot_animation_tree_get", map[string]any{"tree": "Tree"}, &g); string(g.Root) != "null" {
		t.Fatalf("a dry run left a root: %s", g.Root)
	}
	h.mustCall(t, "godot_animation_tree_edit", map[string]any{"tree": "Tree", "ops": build}, &ed)
	if ed.RootType != "state_machine" || ed.DryRun || !ed.Undoable {
		t.Errorf("edit = %+v", ed)
	}
	type node struct {
		Name        string `json:"name"`
		Type        string `json:"type"`
		Animation   string `json:"animation"`
		Points      []node `json:"points"`
		Nodes       []node `json:"nodes"`
		Connections []struct {
			To    string `json:"to"`
			Input int    `json:"input"`
			From  string `json:"from"`
		} `json:"connections"`
		Transitions []struct {
			From, To, SwitchMode, AdvanceCondition, AdvanceExpression string
			XfadeTime                                                 float64 `json:"xfade_time"`
		} `json:"transitions"`
	}
	h.mustCall(t, "godot_animation_tree_get", map[string]any{"tree": "Tree"}, &g)
	var root node
	if err := json.Unmarshal(g.Root, &root); err != nil {
		t.Fatal(err)
	}
	byName := map[string]node{}
	for _, n := range root.Nodes {
		byName[n.Name] = n
	}
	if root.Type != "state_machine" || byName["idle"].Animation != "idle" || len(byName["Move"].Points) != 2 || byName["Move"].Points[1].Animation != "run" ||
		len(byName["Attack"].Connections) != 1 || byName["Attack"].Connections[0].From != "a" || len(root.Transitions) != 3 {
		t.Fatalf("tree = %s", g.Root)
	}
	sceneUndo(t, s)
	if h.mustCall(t, "godot_animation_tree_get", map[string]any{"tree": "Tree"}, &g); string(g.Root) != "null" {
		t.Fatalf("undo left a root: %s", g.Root)
	}
	sceneRedo(t, s)

	h.mustCall(t, "godot_scene_save", nil, nil)
	script := filepath.Join(t.TempDir(), "tree_check.gd")
	if err := os.WriteFile(script, []byte(animTreeCheckScript), 0o644); err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, suite.godot, "--headless", "--path", s.project, "--script", script, "--", "res://main.tscn")
	cmd.Env = append(godotEnv(), "GODOT_MCP_BRIDGE_URL=ws://127.0.0.1:1")
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("headless: %v\n%s", err, out)
	}
	var line string
	for _, l := range strings.Split(string(out), "\n") {
		if rest, ok := strings.CutPrefix(strings.TrimSpace(l), "TREE_CHECK "); ok {
			line = rest
		}
	}
	var chk struct {
		Root        string `json:"root"`
		AnimPlayer  string `json:"anim_player"`
		Idle        string `json:"idle"`
		MovePoints  int    `json:"move_points"`
		IdleMove    []any  `json:"idle_move"`
		AttackConns []any  `json:"attack_conns"`
	}
	if err := json.Unmarshal([]byte(line), &chk); err != nil {
		t.Fatalf("no TREE_CHECK: %v\n%s", err, out)
	}
	if chk.Root != "AnimationNodeStateMachine" || chk.AnimPlayer != "../Anim" || chk.Idle != "idle" || chk.MovePoints != 2 ||
		len(chk.IdleMove) != 3 || chk.IdleMove[0] != "moving" || fmt.Sprintf("%.3f", chk.IdleMove[1]) != "0.200" || chk.IdleMove[2] != 0.0 || fmt.Sprint(chk.AttackConns) != "[output 0 a]" {
		t.Errorf("saved tree = %+v", chk)
	}
}

// An animation in a library saved as its own .tres: the listing names the
// file, and the scene's save writes the edit into that file too.
func TestAnimationExternalLibrary(t *testing.T) {
	s := newSession(t)
	lib := `[gd_resource type="AnimationLibrary" load_steps=2 format=3]

[sub_resource type="Animation" id="Animation_ext"]
resource_name = "ext"
length = 1.0

[resource]
_data = {
&"ext": SubResource("Animation_ext")
}
`
	scene := `[gd_scene load_steps=2 format=3]

[ext_resource type="AnimationLibrary" path="res://moves.tres" id="1_lib"]

[node name="Root" type="Node2D"]

[node name="Player" type="Node2D" parent="."]

[node name="Anim" type="AnimationPlayer" parent="."]
libraries = {
&"moves": ExtResource("1_lib")
}
`
	if err := os.WriteFile(filepath.Join(s.project, "moves.tres"), []byte(lib), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(s.project, "ext.tscn"), []byte(scene), 0o644); err != nil {
		t.Fatal(err)
	}
	h := s.host
	h.mustCall(t, "godot_enable_toolset", map[string]any{"name": "scene"}, nil)
	h.mustCall(t, "godot_enable_toolset", map[string]any{"name": "animation"}, nil)
	editorStateWithScene(t, s)
	h.mustCall(t, "godot_enable_toolset", map[string]any{"name": "resources"}, nil)
	h.mustCall(t, "godot_resources_rescan", nil, nil)
	h.mustCall(t, "godot_scene_open", map[string]any{"path": "res://ext.tscn"}, nil)
	var list struct {
		Players []struct {
			Libraries []struct {
				Name string `json:"name"`
				File string `json:"file"`
			} `json:"libraries"`
		} `json:"players"`
	}
	h.mustCall(t, "godot_animation_list", nil, &list)
	if len(list.Players) != 1 || len(list.Players[0].Libraries) != 1 || list.Players[0].Libraries[0].File != "res://moves.tres" {
		t.Fatalf("list = %+v", list)
	}
	var et struct {
		Persisted bool   `json:"persisted"`
		Reason    string `json:"reason"`
	}
	h.mustCall(t, "godot_animation_edit_tracks", map[string]any{"animation": "moves/ext", "ops": []any{
		map[string]any{"op": "add_track", "type": "value", "path": "Player:position", "keys": []any{map[string]any{"time": 0.5, "value": map[string]any{"x": 9, "y": 9}}}}}}, &et)
	if !et.Persisted {
		t.Errorf("edit of an external library: %+v", et)
	}
	h.mustCall(t, "godot_scene_save", nil, nil)
	b, _ := os.ReadFile(filepath.Join(s.project, "moves.tres"))
	if !strings.Contains(string(b), `NodePath("Player:position")`) || !strings.Contains(string(b), "Vector2(9, 9)") {
		t.Errorf("the scene's save did not write the library file:\n%s", b)
	}
}

// An animation authored through MCP plays in the running game through the
// runtime toolset (no tool of the animation toolset reaches the game): the
// live AnimationPlayer's play() is called and the animated property changes.
func TestAnimationPlaysInGame(t *testing.T) {
	s := rtSession(t, false)
	h := s.host
	for _, ts := range []string{"scene", "animation", "runtime"} {
		h.mustCall(t, "godot_enable_toolset", map[string]any{"name": ts}, nil)
	}
	editorStateWithScene(t, s)
	rtWaitStatus(t, s, "the probe autoload to be registered", func(st rtStatus) bool { return st.ProbeRegistered })
	h.mustCall(t, "godot_scene_create_node", map[string]any{"type": "AnimationPlayer", "name": "Anim"}, nil)
	h.mustCall(t, "godot_animation_edit", map[string]any{"action": "create", "animation": "flash", "length": 0.3}, nil)
	h.mustCall(t, "godot_animation_edit_tracks", map[string]any{"animation": "flash", "ops": []any{
		map[string]any{"op": "add_track", "type": "value", "path": "Panel:color", "keys": []any{
			map[string]any{"time": 0, "value": "#ff0000"}, map[string]any{"time": 0.3, "value": "#0000ff"}}}}}, nil)
	h.mustCall(t, "godot_scene_save", nil, nil)
	var run rtPlay
	h.mustCall(t, "godot_runtime_play", nil, &run)
	if !run.Playing || !run.ProbeConnected {
		t.Fatalf("play: %+v", run)
	}
	defer h.mustCall(t, "godot_runtime_stop", nil, nil)
	h.mustCall(t, "godot_runtime_call_method", map[string]any{"path": "Anim", "method": "play", "args": []any{"flash"}}, nil)
	deadline := time.Now().Add(20 * time.Second)
	for {
		n := rtLiveNode(t, s, "Panel", "color")
		c, _ := n.Properties["color"].(map[string]any)
		if c != nil && rtNum(t, c["b"]) == 1 && rtNum(t, c["r"]) == 0 && rtNum(t, c["g"]) == 0 {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("the Panel never turned blue in the game: %v", n.Properties)
		}
		time.Sleep(200 * time.Millisecond)
	}
}

// nearlyEqual compares decoded JSON values, numbers within 1e-4.
func nearlyEqual(a, b any) bool {
	switch x := a.(type) {
	case float64:
		y, ok := b.(float64)
		return ok && x-y < 1e-4 && y-x < 1e-4
	case map[string]any:
		y, ok := b.(map[string]any)
		if !ok || len(x) != len(y) {
			return false
		}
		for k := range x {
			if !nearlyEqual(x[k], y[k]) {
				return false
			}
		}
		return true
	}
	return fmt.Sprint(a) == fmt.Sprint(b)
}
