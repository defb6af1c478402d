package e2e

import (
	"image/png"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"
)

// #28.9: runtime_input cut off by a debugger stop says which steps ran and
// that the inputs it held were released; the sequence does not go on when
// the game runs again, and the next sequence is not refused as "still running".
func TestRuntimeInputCutOffByDebuggerStop(t *testing.T) {
	s := dbgSession(t)
	dbgPlay(t, s, "res://main.tscn", nil)
	rtWaitStatus(t, s, "the probe", func(st rtStatus) bool { return st.ProbeConnected })

	done := make(chan toolResult, 1)
	go func() {
		r, err := s.host.call(ctxFor(t, callTimeout), "godot_runtime_input", map[string]any{"steps": []any{
			map[string]any{"type": "action", "action": "jump", "state": "press"},
			map[string]any{"type": "wait", "ms": 20000},
			map[string]any{"type": "action", "action": "jump", "state": "release"},
		}})
		if err != nil {
			t.Error(err)
		}
		done <- r
	}()
	time.Sleep(1500 * time.Millisecond)
	var brk dbgState
	s.host.mustCall(t, "godot_debugger_break", nil, &brk)
	if !brk.Stopped {
		t.Fatalf("break: %+v", brk)
	}
	var r toolResult
	select {
	case r = <-done:
	case <-time.After(20 * time.Second):
		t.Fatal("runtime_input did not answer after the debugger stop")
	}
	e := r.failure()
	if !r.IsError || e.Error != "PRECONDITION_FAILED" || e.Required != "game_not_breaked" ||
		!strings.Contains(e.Hint, "cut off by a debugger stop after 2 of 3 steps") ||
		!strings.Contains(e.Hint, "Held inputs released: action jump") {
		// (What follows is the stop's own hint, whose wording depends on where
		// the pause request lands: TestDebuggerBreakpointStepContinue.)
		t.Fatalf("input cut off: %s", r.Text)
	}
	s.host.mustCall(t, "godot_debugger_continue", map[string]any{"wait_ms": 0}, nil)
	// The release reaches the game on its next frames: poll briefly.
	var pressed struct {
		Result any `json:"result"`
	}
	for deadline := time.Now().Add(3 * time.Second); ; time.Sleep(100 * time.Millisecond) {
		s.host.mustCall(t, "godot_runtime_call_method", map[string]any{"path": ".", "method": "is_jump_pressed"}, &pressed)
		if pressed.Result == false {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("jump still pressed after the cut-off sequence: %+v", pressed)
		}
	}
	var in struct {
		Applied int `json:"applied"`
	}
	s.host.mustCall(t, "godot_runtime_input", map[string]any{"steps": []any{map[string]any{"type": "action", "action": "jump"}}}, &in)
	if in.Applied != 1 {
		t.Fatalf("the next sequence: %+v", in)
	}
	s.host.mustCall(t, "godot_runtime_stop", nil, nil)
}

// #28.8: an edit under an instanced child answers persisted: false naming
// godot_scene_set_editable_children; that tool turns Editable Children on
// (one undo action), after which the same edit is persisted; select sets
// the editor's selection; save {all: true} saves every unsaved open scene,
// and the files on disk have the changes.
func TestSceneEditableChildrenSelectSaveAll(t *testing.T) {
	s := fileSession(t)
	editorStateWithScene(t, s)
	enableToolsets(t, s, "scene")

	s.host.mustCall(t, "godot_scene_create", map[string]any{"path": "res://coin.tscn", "root_type": "Node2D", "root_name": "Coin"}, nil)
	s.host.mustCall(t, "godot_scene_create_node", map[string]any{"type": "Sprite2D", "name": "Sprite2D"}, nil)
	s.host.mustCall(t, "godot_scene_save", nil, nil)
	s.host.mustCall(t, "godot_scene_open", map[string]any{"path": "res://main.tscn"}, nil)
	s.host.mustCall(t, "godot_scene_instantiate", map[string]any{"scene": "res://coin.tscn", "name": "Coin"}, nil)

	type honesty struct {
		Persisted bool   `json:"persisted"`
		Reason    string `json:"reason"`
		Undoable  bool   `json:"undoable"`
	}
	var set honesty
	s.host.mustCall(t, "godot_scene_set_properties", map[string]any{"node": "Coin/Sprite2D", "properties": map[string]any{"position": map[string]any{"x": 7, "y": 9}}}, &set)
	if set.Persisted || !strings.Contains(set.Reason, `godot_scene_set_editable_children {node: "Coin"}`) {
		t.Fatalf("an edit under an instanced child: %+v", set)
	}

	var ec struct {
		Path             string `json:"path"`
		Scene            string `json:"scene"`
		EditableChildren bool   `json:"editable_children"`
		Changed          bool   `json:"changed"`
		honesty
	}
	// A dry run answers what the real call would (changed, undoable) and
	// changes nothing: the real call after it still changes the flag.
	s.host.mustCall(t, "godot_scene_set_editable_children", map[string]any{"node": "Coin", "dry_run": true}, &ec)
	if !ec.Changed || !ec.Undoable {
		t.Fatalf("dry run: %+v", ec)
	}
	s.host.mustCall(t, "godot_scene_set_editable_children", map[string]any{"node": "Coin"}, &ec)
	if ec.Path != "Coin" || ec.Scene != "res://coin.tscn" || !ec.EditableChildren || !ec.Changed || !ec.Persisted || !ec.Undoable {
		t.Fatalf("set_editable_children: %+v", ec)
	}
	s.host.mustCall(t, "godot_scene_set_editable_children", map[string]any{"node": "Coin"}, &ec)
	if ec.Changed || ec.Undoable {
		t.Fatalf("a second time: %+v", ec)
	}
	if e := s.host.mustFail(t, "godot_scene_set_editable_children", map[string]any{"node": "Player"}); e.Error != "VALIDATION_ERROR" || !strings.Contains(e.Hint, "not an instanced scene") {
		t.Fatalf("a node of the scene itself: %+v", e)
	}
	set = honesty{}
	s.host.mustCall(t, "godot_scene_set_properties", map[string]any{"node": "Coin/Sprite2D", "properties": map[string]any{"position": map[string]any{"x": 8, "y": 9}}}, &set)
	if !set.Persisted || set.Reason != "" {
		t.Fatalf("the edit with Editable Children: %+v", set)
	}

	var sel struct {
		Selection []string `json:"selection"`
	}
	s.host.mustCall(t, "godot_scene_select", map[string]any{"nodes": []string{"Coin/Sprite2D"}}, &sel)
	s.host.mustCall(t, "godot_scene_select", map[string]any{"nodes": []string{"Player"}, "add": true}, &sel)
	if len(sel.Selection) != 2 || sel.Selection[0] != "Coin/Sprite2D" || sel.Selection[1] != "Player" {
		t.Fatalf("select: %+v", sel)
	}
	st, raw := editorStateWithScene(t, s)
	if len(st.Selection) != 2 || !slices.Contains(st.Selection, "Coin/Sprite2D") || !slices.Contains(st.Selection, "Player") {
		t.Fatalf("the editor's selection: %s", raw)
	}
	if e := s.host.mustFail(t, "godot_scene_select", map[string]any{"nodes": []string{"Nope"}}); e.Error != "RESOURCE_NOT_FOUND" {
		t.Fatalf("select a missing node: %+v", e)
	}

	// Both scenes unsaved: coin.tscn gets a change of its own.
	s.host.mustCall(t, "godot_scene_open", map[string]any{"path": "res://coin.tscn"}, nil)
	s.host.mustCall(t, "godot_scene_set_properties", map[string]any{"node": ".", "properties": map[string]any{"rotation": 0.5}}, nil)
	s.host.mustCall(t, "godot_scene_open", map[string]any{"path": "res://main.tscn"}, nil)
	var all struct {
		Saved  bool `json:"saved"`
		Scenes []struct {
			Path  string `json:"path"`
			Saved bool   `json:"saved"`
		} `json:"scenes"`
	}
	s.host.mustCall(t, "godot_scene_save", map[string]any{"all": true, "dry_run": true}, &all)
	if all.Saved || len(all.Scenes) != 2 {
		t.Fatalf("save all, dry run: %+v", all)
	}
	s.host.mustCall(t, "godot_scene_save", map[string]any{"all": true}, &all)
	if !all.Saved || len(all.Scenes) != 2 || !all.Scenes[0].Saved || !all.Scenes[1].Saved {
		t.Fatalf("save all: %+v", all)
	}
	main, _ := os.ReadFile(filepath.Join(s.project, "main.tscn"))
	if !strings.Contains(string(main), `[editable path="Coin"]`) || !strings.Contains(string(main), "position = Vector2(8, 9)") {
		t.Fatalf("main.tscn after save all:\n%s", main)
	}
	coin, _ := os.ReadFile(filepath.Join(s.project, "coin.tscn"))
	if !strings.Contains(string(coin), "rotation = 0.5") {
		t.Fatalf("coin.tscn after save all:\n%s", coin)
	}
	// (Saving coin.tscn makes the editor refresh its instance in main.tscn, which
	// Godot may flag as changed again: the files on disk are what save all owes.)
}

// #28.9: a batch answer summarises the inline resources its steps set (a
// whole Environment would otherwise be echoed property by property);
// full_values: true echoes them.
func TestSceneBatchSummarisesInlineResources(t *testing.T) {
	s := fileSession(t)
	editorStateWithScene(t, s)
	enableToolsets(t, s, "scene")
	steps := func(name string) []any {
		return []any{
			map[string]any{"tool": "create_node", "args": map[string]any{"type": "WorldEnvironment", "name": name}},
			map[string]any{"tool": "set_properties", "args": map[string]any{"node": name, "properties": map[string]any{
				"environment": map[string]any{"type": "Environment", "properties": map[string]any{"background_mode": 1, "ambient_light_energy": 0.5}},
			}}},
		}
	}
	r := s.host.mustCall(t, "godot_scene_batch", map[string]any{"steps": steps("Env")}, nil)
	if !strings.Contains(string(r.Raw), `"summary":"inline resource with `) || strings.Contains(string(r.Raw), "ambient_light_energy") {
		t.Fatalf("the default answer echoes the Environment: %s", r.Raw)
	}
	r = s.host.mustCall(t, "godot_scene_batch", map[string]any{"steps": steps("Env2"), "full_values": true}, nil)
	if strings.Contains(string(r.Raw), `"summary"`) || !strings.Contains(string(r.Raw), "ambient_light_energy") {
		t.Fatalf("full_values: %s", r.Raw)
	}
}

// #28.9: make_image writes a PNG into the project and the editor imports it
// as a texture on the next call (a tile atlas, a sprite): the file on disk is
// the image asked for, and resources_list types it as a texture.
func TestResourcesMakeImage(t *testing.T) {
	s := fileSession(t)
	editorStateWithScene(t, s)
	enableToolsets(t, s, "resources")
	var out struct {
		Path          string `json:"path"`
		Width         int    `json:"width"`
		Height        int    `json:"height"`
		Created       bool   `json:"created"`
		Persisted     bool   `json:"persisted"`
		RescanPending bool   `json:"rescan_pending"`
	}
	s.host.mustCall(t, "godot_resources_make_image", map[string]any{"path": "res://art/floor.png", "kind": "checker", "width": 32, "height": 16, "cell": 8, "colors": []string{"#336633", "#224422"}}, &out)
	if out.Path != "res://art/floor.png" || out.Width != 32 || out.Height != 16 || !out.Created || !out.Persisted || out.RescanPending {
		t.Fatalf("make_image: %+v", out)
	}
	f, err := os.Open(filepath.Join(s.project, "art", "floor.png"))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	img, err := png.Decode(f)
	if err != nil || img.Bounds().Dx() != 32 || img.Bounds().Dy() != 16 {
		t.Fatalf("the file: %v", err)
	}
	if r, g, _, _ := img.At(9, 1).RGBA(); r>>8 != 0x22 || g>>8 != 0x44 {
		t.Fatalf("pixel 9,1 = %v, want the second color", img.At(9, 1))
	}
	if _, err := os.Stat(filepath.Join(s.project, "art", "floor.png.import")); err != nil {
		t.Fatalf("not imported: %v", err)
	}
	var list struct {
		Entries []struct {
			Path string `json:"path"`
			Type string `json:"type"`
		} `json:"entries"`
	}
	s.host.mustCall(t, "godot_resources_list", map[string]any{"path": "res://art"}, &list)
	found := false
	for _, e := range list.Entries {
		found = found || (e.Path == "res://art/floor.png" && strings.Contains(e.Type, "Texture2D"))
	}
	if !found {
		t.Fatalf("resources_list: %+v", list)
	}
	if e := s.host.mustFail(t, "godot_resources_make_image", map[string]any{"path": "res://art/floor.png", "kind": "solid"}); e.Error != "VALIDATION_ERROR" || !strings.Contains(e.Hint, "exists already") {
		t.Fatalf("a second time without overwrite: %+v", e)
	}
}

// #28.9: set_properties says what the setters changed besides the
// properties set: a Label's size moves its stored offsets.
func TestSceneSetPropertiesSaysWhatSettersChanged(t *testing.T) {
	s := fileSession(t)
	editorStateWithScene(t, s)
	enableToolsets(t, s, "scene")
	var out struct {
		Changes []struct {
			Property string `json:"property"`
		} `json:"changes"`
		AlsoChanged []struct {
			Property string `json:"property"`
			Old      any    `json:"old"`
			New      any    `json:"new"`
		} `json:"also_changed"`
	}
	s.host.mustCall(t, "godot_scene_set_properties", map[string]any{"node": "Label", "properties": map[string]any{"size": map[string]any{"x": 200, "y": 40}}}, &out)
	got := map[string]any{}
	for _, c := range out.AlsoChanged {
		got[c.Property] = c.New
	}
	if len(out.Changes) != 1 || out.Changes[0].Property != "size" || got["offset_right"] != float64(200) || got["offset_bottom"] != float64(40) {
		t.Fatalf("set_properties size: %+v", out)
	}
	if _, ok := got["size"]; ok {
		t.Fatalf("the property set is listed as changed besides: %+v", out.AlsoChanged)
	}
	// A property without side effects answers no also_changed.
	out.AlsoChanged = nil
	s.host.mustCall(t, "godot_scene_set_properties", map[string]any{"node": "Label", "properties": map[string]any{"text": "Hi"}}, &out)
	if len(out.AlsoChanged) != 0 {
		t.Fatalf("text: also_changed %+v", out.AlsoChanged)
	}
}

// #28.9: without GODOT_BIN and without godot on PATH, check_project runs
// the connected editor's own Godot, and server info lists no tool as
// unavailable.
func TestHeadlessToolsUseTheEditorsGodot(t *testing.T) {
	project := newProject(t)
	h := startHostT(t, "ws://127.0.0.1:0", "GODOT_BIN=", "PATH="+t.TempDir())
	e := startEditorT(t, project, h.url)
	waitEditor(t, h, e)
	var info struct {
		Unavailable []struct{ Tool, Hint string } `json:"unavailable"`
	}
	h.mustCall(t, "godot_get_server_info", nil, &info)
	if len(info.Unavailable) != 0 {
		t.Fatalf("unavailable with an editor connected: %+v", info.Unavailable)
	}
	h.mustCall(t, "godot_enable_toolset", map[string]any{"name": "diagnostics"}, nil)
	var out struct {
		Checked struct{ Scripts, Scenes int } `json:"checked"`
	}
	h.mustCall(t, "godot_diagnostics_check_project", nil, &out)
	if out.Checked.Scripts == 0 || out.Checked.Scenes == 0 {
		t.Fatalf("check_project with the editor's Godot: %+v", out)
	}
}
