package e2e

import (
	"context"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"
)

// ---- ui toolset e2e: Control layout and themes in a real editor ----

// uiSession is an editor of its own with the scene and ui toolsets enabled and
// a new scene res://menu.tscn open: a Control root "UI" holding a
// VBoxContainer "Menu" (Buttons "Play" and "Quit", a Label "Title") and a
// Panel "Panel".
func uiSession(t testing.TB) *session {
	t.Helper()
	s := newSession(t)
	for _, ts := range []string{"scene", "ui"} {
		s.host.mustCall(t, "godot_enable_toolset", map[string]any{"name": ts}, nil)
	}
	h := s.host
	h.mustCall(t, "godot_scene_create", map[string]any{"path": "res://menu.tscn", "root_type": "Control", "root_name": "UI"}, nil)
	h.mustCall(t, "godot_scene_create_node", map[string]any{"type": "VBoxContainer", "name": "Menu"}, nil)
	h.mustCall(t, "godot_scene_create_node", map[string]any{"type": "Button", "name": "Play", "parent": "Menu", "properties": map[string]any{"text": "Play"}}, nil)
	h.mustCall(t, "godot_scene_create_node", map[string]any{"type": "Button", "name": "Quit", "parent": "Menu", "properties": map[string]any{"text": "Quit"}}, nil)
	h.mustCall(t, "godot_scene_create_node", map[string]any{"type": "Label", "name": "Title", "parent": "Menu", "properties": map[string]any{"text": "My Game"}}, nil)
	h.mustCall(t, "godot_scene_create_node", map[string]any{"type": "Panel", "name": "Panel"}, nil)
	return s
}

type uiRect struct{ X, Y, W, H float64 }

type uiNode struct {
	Path           string     `json:"path"`
	Class          string     `json:"class"`
	Rect           uiRect     `json:"rect"`
	GlobalPosition [2]float64 `json:"global_position"`
	Anchors        [4]float64 `json:"anchors"`
	Offsets        [4]float64 `json:"offsets"`
	Grow           [2]string  `json:"grow"`
	LayoutMode     string     `json:"layout_mode"`
	SizeFlags      struct {
		H            []string `json:"h"`
		V            []string `json:"v"`
		StretchRatio float64  `json:"stretch_ratio"`
	} `json:"size_flags"`
	MinSize     [2]float64 `json:"minimum_size"`
	InContainer bool       `json:"in_container"`
	Visible     bool       `json:"visible"`
	Problems    []string   `json:"problems"`
}

type uiLayout struct {
	Viewport   [2]float64 `json:"viewport"`
	Total      int        `json:"total"`
	Returned   int        `json:"returned"`
	Nodes      []uiNode   `json:"nodes"`
	Truncated  bool       `json:"truncated"`
	NextCursor string     `json:"next_cursor"`
	sceneEdit
}

func (l uiLayout) node(t *testing.T, path string) uiNode {
	t.Helper()
	for _, n := range l.Nodes {
		if n.Path == path {
			return n
		}
	}
	t.Fatalf("no %s in %+v", path, l.Nodes)
	return uiNode{}
}

func (n uiNode) has(problem string) bool {
	for _, p := range n.Problems {
		if strings.HasPrefix(p, problem+":") {
			return true
		}
	}
	return false
}

func uiLayoutOf(t *testing.T, s *session, args map[string]any) uiLayout {
	t.Helper()
	var out uiLayout
	s.host.mustCall(t, "godot_ui_get_layout", args, &out)
	return out
}

// uiHeadless runs script in a fresh headless Godot (not the editor that
// wrote the files) and decodes the JSON it prints after marker.
func uiHeadless(t *testing.T, project, script, marker string, args ...string) map[string]any {
	t.Helper()
	file := filepath.Join(t.TempDir(), "ui_check.gd")
	if err := os.WriteFile(file, []byte(script), 0o644); err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, suite.godot, append([]string{"--headless", "--path", project, "--script", file, "--"}, args...)...)
	cmd.Env = append(godotEnv(), "GODOT_MCP_BRIDGE_URL=ws://127.0.0.1:1")
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("headless: %v\n%s", err, out)
	}
	checkEditorOutput(t, "headless ui check", string(out))
	_, rest, ok := strings.Cut(string(out), marker+" ")
	if !ok {
		t.Fatalf("no %s line:\n%s", marker, out)
	}
	var got map[string]any
	if err := json.Unmarshal([]byte(strings.SplitN(rest, "\n", 2)[0]), &got); err != nil {
		t.Fatalf("bad JSON: %v\n%s", err, rest)
	}
	return got
}

// uiSceneCheck prints, for the saved scene, each named node's anchors, size
// flags, custom minimum size and theme overrides.
const uiSceneCheck = `extends SceneTree

func _initialize() -> void:
	var args: PackedStringArray = OS.get_cmdline_user_args()
	var root: Node = (load(args[0]) as PackedScene).instantiate()
	var out: Dictionary = {}
	for i: int in range(1, args.size()):
		var c: Control = root.get_node(args[i]) as Control
		var ov: Dictionary = {}
		if c.has_theme_color_override("font_color"):
			ov["font_color"] = c.get_theme_color("font_color").to_html(false)
		if c.has_theme_constant_override("separation"):
			ov["separation"] = c.get_theme_constant("separation")
		if c.has_theme_font_size_override("font_size"):
			ov["font_size"] = c.get_theme_font_size("font_size")
		out[args[i]] = {"anchors": [c.anchor_left, c.anchor_top, c.anchor_right, c.anchor_bottom],
			"offsets": [c.offset_left, c.offset_top, c.offset_right, c.offset_bottom],
			"h": c.size_flags_horizontal, "v": c.size_flags_vertical, "ratio": c.size_flags_stretch_ratio,
			"min": [c.custom_minimum_size.x, c.custom_minimum_size.y], "overrides": ov,
			"theme": c.theme.resource_path if c.theme != null else ""}
	root.free()
	print("UI_CHECK " + JSON.stringify(out))
	quit()
`

// Layout in a real editor: the headless editor lays Controls out (containers'
// children get real sizes); presets and size flags on several Controls are one
// undo action, read back laid out; anchors under a Container are refused; the
// saved .tscn has them (fresh Godot); undo reverts.
func TestUILayout(t *testing.T) {
	s := uiSession(t)
	h := s.host

	l := uiLayoutOf(t, s, map[string]any{})
	t.Logf("layout: %+v", l)
	if l.Total != 6 || l.Returned != 6 {
		t.Fatalf("want 6 Controls, got %+v", l)
	}
	play := l.node(t, "Menu/Play")
	if !play.InContainer || play.LayoutMode != "container" || play.Rect.W <= 0 || play.Rect.H <= 0 {
		t.Fatalf("a Button in a VBoxContainer has no laid-out size: %+v", play)
	}
	if panel := l.node(t, "Panel"); !panel.has("zero_size") {
		t.Fatalf("an empty Panel without a minimum size is not reported zero_size: %+v", panel)
	}

	// Paging.
	p1 := uiLayoutOf(t, s, map[string]any{"limit": 4})
	if !p1.Truncated || p1.Returned != 4 || p1.NextCursor == "" {
		t.Fatalf("page 1: %+v", p1)
	}
	p2 := uiLayoutOf(t, s, map[string]any{"limit": 4, "cursor": p1.NextCursor})
	if p2.Truncated || p2.Returned != 2 {
		t.Fatalf("page 2: %+v", p2)
	}

	// Refusals: anchors under a Container, an unknown node; nothing changes.
	sceneFail(t, s, "godot_ui_set_layout", map[string]any{"items": []any{
		map[string]any{"node": ".", "preset": "full_rect"},
		map[string]any{"node": "Menu/Quit", "preset": "center"}}}, "VALIDATION_ERROR", "size_flags_h")
	sceneFail(t, s, "godot_ui_set_layout", map[string]any{"items": []any{map[string]any{"node": "Menuu", "preset": "center"}}}, "RESOURCE_NOT_FOUND", "Menu")
	if root := uiLayoutOf(t, s, map[string]any{"depth": 0}).node(t, "."); root.Anchors != [4]float64{} {
		t.Fatalf("a refused call changed the root: %+v", root)
	}

	// A dry run answers the layout and changes nothing.
	var dry struct {
		Nodes []uiNode `json:"nodes"`
		sceneEdit
	}
	h.mustCall(t, "godot_ui_set_layout", map[string]any{"dry_run": true, "items": []any{map[string]any{"node": ".", "preset": "full_rect"}}}, &dry)
	if !dry.DryRun || len(dry.Nodes) != 1 || dry.Nodes[0].Anchors != [4]float64{0, 0, 1, 1} {
		t.Fatalf("dry run: %+v", dry)
	}
	if root := uiLayoutOf(t, s, map[string]any{"depth": 0}).node(t, "."); root.Anchors != [4]float64{} {
		t.Fatalf("the dry run changed the root: %+v", root)
	}

	// One call, one undo action: the root full_rect, the menu centred, size flags on the buttons.
	var set struct {
		Nodes []uiNode `json:"nodes"`
		sceneEdit
	}
	h.mustCall(t, "godot_ui_set_layout", map[string]any{"items": []any{
		map[string]any{"node": ".", "preset": "full_rect"},
		map[string]any{"node": "Menu", "preset": "center", "custom_minimum_size": []float64{200, 0}},
		map[string]any{"node": "Menu/Play", "size_flags_h": []string{"expand_fill"}, "size_flags_v": []string{"expand", "fill"}, "stretch_ratio": 2},
		map[string]any{"node": "Panel", "anchors": []float64{0, 0.5, 1, 1}, "offsets": []float64{10, 0, -10, -10}},
	}}, &set)
	t.Logf("set: %+v", set)
	if !set.Undoable || !set.Persisted || len(set.Nodes) != 4 {
		t.Fatalf("set_layout: %+v", set)
	}
	root, menu, playAfter, panel := set.Nodes[0], set.Nodes[1], set.Nodes[2], set.Nodes[3]
	if root.Anchors != [4]float64{0, 0, 1, 1} || root.Rect.W != l.Viewport[0] || root.Rect.H != l.Viewport[1] {
		t.Fatalf("full_rect root: %+v (viewport %v)", root, l.Viewport)
	}
	if menu.Anchors != [4]float64{0.5, 0.5, 0.5, 0.5} || menu.Rect.W != 200 || menu.Grow != [2]string{"both", "both"} ||
		absf(menu.Rect.X+menu.Rect.W/2-root.Rect.W/2) > 1 || absf(menu.Rect.Y+menu.Rect.H/2-root.Rect.H/2) > 1 {
		t.Fatalf("centred menu: %+v in %+v", menu, root.Rect)
	}
	if strings.Join(playAfter.SizeFlags.H, ",") != "fill,expand" || playAfter.SizeFlags.StretchRatio != 2 || playAfter.Rect.W != 200 {
		t.Fatalf("play's size flags: %+v", playAfter)
	}
	if panel.Anchors != [4]float64{0, 0.5, 1, 1} || panel.Rect.W != root.Rect.W-20 || panel.Rect.H != root.Rect.H/2-10 || panel.has("zero_size") {
		t.Fatalf("panel anchors: %+v in %+v", panel, root.Rect)
	}

	// The saved scene, loaded by a fresh Godot, has them.
	h.mustCall(t, "godot_scene_save", nil, nil)
	got := uiHeadless(t, s.project, uiSceneCheck, "UI_CHECK", "res://menu.tscn", ".", "Menu", "Menu/Play", "Panel")
	t.Logf("saved: %v", got)
	want := map[string]string{
		".":         `"anchors":[0,0,1,1]`,
		"Menu":      `"anchors":[0.5,0.5,0.5,0.5]`,
		"Menu/Play": `"h":3`,
		"Panel":     `"anchors":[0,0.5,1,1]`,
	}
	for k, w := range want {
		b, _ := json.Marshal(got[k])
		if !strings.Contains(string(b), w) {
			t.Errorf("saved %s: %s lacks %s", k, b, w)
		}
	}
	if b, _ := json.Marshal(got["Menu"]); !strings.Contains(string(b), `"min":[200,0]`) {
		t.Errorf("saved Menu min size: %s", b)
	}
	if b, _ := json.Marshal(got["Menu/Play"]); !strings.Contains(string(b), `"v":3`) || !strings.Contains(string(b), `"ratio":2`) {
		t.Errorf("saved Play flags: %s", b)
	}

	// Undo takes the whole call back.
	u := sceneUndo(t, s)
	if len(u.Actions) != 1 || !strings.Contains(u.Actions[0], "set layout") {
		t.Fatalf("undo: %+v", u)
	}
	back := uiLayoutOf(t, s, map[string]any{})
	if r := back.node(t, "."); r.Anchors != [4]float64{} {
		t.Fatalf("undo left the root at %+v", r)
	}
	if p := back.node(t, "Menu/Play"); strings.Join(p.SizeFlags.H, ",") != "fill" || p.SizeFlags.StretchRatio != 1 {
		t.Fatalf("undo left Play at %+v", p)
	}
	if m := back.node(t, "Menu"); m.Anchors != [4]float64{} || m.Rect.X != 0 {
		t.Fatalf("undo left Menu at %+v", m)
	}
	if p := back.node(t, "Panel"); !p.has("zero_size") {
		t.Fatalf("undo left Panel at %+v", p)
	}
	sceneRedo(t, s)
	if r := uiLayoutOf(t, s, map[string]any{"depth": 0}).node(t, "."); r.Anchors != [4]float64{0, 0, 1, 1} {
		t.Fatalf("redo: root at %+v", r)
	}

	// Problems an agent cannot see: clipped text, a Control off its parent,
	// anchors under a Container.
	h.mustCall(t, "godot_scene_create_node", map[string]any{"type": "Label", "name": "Long", "properties": map[string]any{"text": "A very long title that cannot fit", "clip_text": true}}, nil)
	h.mustCall(t, "godot_ui_set_layout", map[string]any{"items": []any{
		map[string]any{"node": "Long", "offsets": []float64{0, 0, 40, 30}},
		map[string]any{"node": "Panel", "anchors": []float64{0, 0, 0, 0}, "offsets": []float64{2000, 0, 2100, 50}}}}, nil)
	h.mustCall(t, "godot_scene_set_properties", map[string]any{"node": "Menu/Quit", "properties": map[string]any{"anchor_right": 1}}, nil)
	pl := uiLayoutOf(t, s, map[string]any{})
	if n := pl.node(t, "Long"); !n.has("text_clipped") {
		t.Errorf("a 40 px clip_text Label with a long text: %+v", n)
	}
	if n := pl.node(t, "Panel"); !n.has("outside_parent") || n.Rect.X != 2000 {
		t.Errorf("a Panel at x=2000 in a 1152 px parent: %+v", n)
	}
	if n := pl.node(t, "Menu/Quit"); !n.has("anchors_under_container") {
		t.Errorf("a Button with anchor_right 1 in a VBoxContainer: %+v", n)
	}
	if n := pl.node(t, "Menu/Play"); len(n.Problems) != 0 {
		t.Errorf("a Button laid out by its container has problems: %+v", n)
	}

	// Only the edited scene is laid out: naming another open scene is refused.
	if got := uiLayoutOf(t, s, map[string]any{"scene": "res://menu.tscn", "depth": 0}); got.Total != 1 {
		t.Fatalf("scene: the edited one: %+v", got)
	}
	h.mustCall(t, "godot_scene_save", nil, nil)
	h.mustCall(t, "godot_scene_create", map[string]any{"path": "res://other.tscn", "root_type": "Control", "root_name": "Other"}, nil)
	sceneFail(t, s, "godot_ui_get_layout", map[string]any{"scene": "res://menu.tscn"}, "PRECONDITION_FAILED", "godot_scene_open")
	sceneFail(t, s, "godot_ui_get_layout", map[string]any{"scene": "res://nope.tscn"}, "RESOURCE_NOT_FOUND", "not open")
}

func absf(f float64) float64 {
	if f < 0 {
		return -f
	}
	return f
}

// uiThemeCheck prints what a fresh Godot loads from a Theme .tres.
const uiThemeCheck = `extends SceneTree

func _initialize() -> void:
	var path: String = OS.get_cmdline_user_args()[0]
	if not ResourceLoader.exists(path):
		print("THEME_CHECK " + JSON.stringify({"exists": false}))
		quit()
		return
	var t: Theme = load(path) as Theme
	var out: Dictionary = {"exists": true, "default_font_size": t.default_font_size, "types": Array(t.get_type_list()),
		"variation": str(t.get_type_variation_base("TitleLabel"))}
	if t.has_color("font_color", "Button"):
		out["font_color"] = t.get_color("font_color", "Button").to_html(false)
	if t.has_font_size("font_size", "Label"):
		out["label_font_size"] = t.get_font_size("font_size", "Label")
	if t.has_stylebox("normal", "Button"):
		var sb: StyleBox = t.get_stylebox("normal", "Button")
		out["stylebox"] = sb.get_class()
		if sb is StyleBoxFlat:
			out["bg_color"] = (sb as StyleBoxFlat).bg_color.to_html(false)
			out["radius"] = (sb as StyleBoxFlat).corner_radius_top_left
	print("THEME_CHECK " + JSON.stringify(out))
	quit()
`

type uiThemeEdit struct {
	Path     string   `json:"path"`
	Created  bool     `json:"created"`
	Types    []string `json:"types"`
	Items    int      `json:"items"`
	Warnings []string `json:"warnings"`
	sceneEdit
}

// Themes in a real editor: a Theme .tres is created with a StyleBoxFlat, a
// color, a font size, a type variation and a default font size (a dry run
// writes nothing), read back, loaded by a fresh Godot; bad names are refused
// with did-you-mean and change nothing; an edit is one undo action that also
// rewrites the file; a Control's overrides are checked against its type's
// items, saved with the scene and undone.
func TestUITheme(t *testing.T) {
	s := uiSession(t)
	h := s.host
	edit := map[string]any{
		"path": "res://ui_theme.tres",
		"set": []any{
			map[string]any{"type": "Button", "data_type": "stylebox", "name": "normal",
				"value": map[string]any{"class": "StyleBoxFlat", "properties": map[string]any{"bg_color": "#336699", "corner_radius_top_left": 6}}},
			map[string]any{"type": "Button", "data_type": "color", "name": "font_color", "value": "#ff0000"},
			map[string]any{"type": "Label", "data_type": "font_size", "name": "font_size", "value": 20},
			map[string]any{"type": "Button", "data_type": "color", "name": "font_colour", "value": "#ff0000"},
		},
		"variations":        []any{map[string]any{"type": "TitleLabel", "base": "Label"}},
		"default_font_size": 18,
	}
	var out uiThemeEdit
	h.mustCall(t, "godot_ui_theme_edit", withArgs(edit, "dry_run", true), &out)
	if !out.DryRun || !out.Created || out.Items != 4 {
		t.Fatalf("dry run: %+v", out)
	}
	if _, err := os.Stat(filepath.Join(s.project, "ui_theme.tres")); !os.IsNotExist(err) {
		t.Fatalf("the dry run wrote the theme: %v", err)
	}
	// Refusals name the right thing and write nothing.
	bad := withArgs(edit, "set", []any{map[string]any{"type": "Button", "data_type": "stylebox", "name": "normal",
		"value": map[string]any{"class": "StyleBoxFlat", "properties": map[string]any{"bg_colour": "#000000"}}}})
	sceneFail(t, s, "godot_ui_theme_edit", bad, "VALIDATION_ERROR", "Did you mean 'bg_color'")
	sceneFail(t, s, "godot_ui_theme_edit", withArgs(edit, "set", []any{map[string]any{"type": "Button", "data_type": "stylebox", "name": "normal",
		"value": map[string]any{"class": "StyleBoxFlatt"}}}), "VALIDATION_ERROR", "Did you mean 'StyleBoxFlat'")
	sceneFail(t, s, "godot_ui_theme_edit", withArgs(edit, "set", []any{map[string]any{"type": "Button", "data_type": "font", "name": "font", "value": "res://nope.ttf"}}),
		"RESOURCE_NOT_FOUND", "nope.ttf")
	if _, err := os.Stat(filepath.Join(s.project, "ui_theme.tres")); !os.IsNotExist(err) {
		t.Fatalf("a refused edit wrote the theme: %v", err)
	}

	out = uiThemeEdit{}
	h.mustCall(t, "godot_ui_theme_edit", edit, &out)
	if !out.Created || !out.Undoable || !out.Persisted || out.Items != 4 || len(out.Warnings) != 1 || !strings.Contains(out.Warnings[0], "Did you mean 'font_color'") {
		t.Fatalf("theme_edit: %+v", out)
	}
	got := uiHeadless(t, s.project, uiThemeCheck, "THEME_CHECK", "res://ui_theme.tres")
	t.Logf("fresh theme: %v", got)
	if got["font_color"] != "ff0000" || got["stylebox"] != "StyleBoxFlat" || got["bg_color"] != "336699" || got["radius"] != 6.0 ||
		got["label_font_size"] != 20.0 || got["default_font_size"] != 18.0 || got["variation"] != "Label" {
		t.Fatalf("the saved theme: %v", got)
	}

	// theme_get reads it back, whole and filtered.
	var tg struct {
		Path            string `json:"path"`
		HasTheme        bool   `json:"has_theme"`
		DefaultFontSize int    `json:"default_font_size"`
		Types           []struct {
			Name        string                                `json:"name"`
			VariationOf string                                `json:"variation_of"`
			Items       map[string]map[string]json.RawMessage `json:"items"`
		} `json:"types"`
		Node *struct {
			ThemeType string                                `json:"theme_type"`
			ThemeFrom string                                `json:"theme_from"`
			Overrides map[string]map[string]json.RawMessage `json:"overrides"`
			Effective map[string]map[string]json.RawMessage `json:"effective"`
		} `json:"node"`
	}
	h.mustCall(t, "godot_ui_theme_get", map[string]any{"path": "res://ui_theme.tres"}, &tg)
	t.Logf("theme_get: %+v", tg)
	if tg.Path != "res://ui_theme.tres" || !tg.HasTheme || tg.DefaultFontSize != 18 || len(tg.Types) != 3 {
		t.Fatalf("theme_get: %+v", tg)
	}
	var button map[string]map[string]json.RawMessage
	for _, ty := range tg.Types {
		if ty.Name == "Button" {
			button = ty.Items
		}
		if ty.Name == "TitleLabel" && ty.VariationOf != "Label" {
			t.Fatalf("variation: %+v", ty)
		}
	}
	if sb := string(button["stylebox"]["normal"]); !strings.Contains(sb, `"class":"StyleBoxFlat"`) || !strings.Contains(sb, "corner_radius_top_left") {
		t.Fatalf("stylebox as read: %s", sb)
	}
	h.mustCall(t, "godot_ui_theme_get", map[string]any{"path": "res://ui_theme.tres", "type": "Label"}, &tg)
	if len(tg.Types) != 1 || tg.Types[0].Name != "Label" {
		t.Fatalf("filtered: %+v", tg)
	}
	sceneFail(t, s, "godot_ui_theme_get", map[string]any{"path": "res://ui_theme.tres", "type": "Buton"}, "RESOURCE_NOT_FOUND", "Did you mean 'Button'")

	// A second edit is one undo action that rewrites the file.
	h.mustCall(t, "godot_ui_theme_edit", map[string]any{"path": "res://ui_theme.tres", "set": []any{map[string]any{"type": "Button", "data_type": "color", "name": "font_color", "value": "#00ff00"}}}, &out)
	if out.Created || got2(t, s)["font_color"] != "00ff00" {
		t.Fatalf("second edit: %+v", out)
	}
	sceneFail(t, s, "godot_ui_theme_edit", map[string]any{"path": "res://ui_theme.tres", "remove": []any{map[string]any{"type": "Button", "data_type": "color", "name": "font_colr"}}},
		"RESOURCE_NOT_FOUND", "Did you mean 'font_color'")
	// A Theme file's edits are in the editor's global history (a file, not the scene).
	var u undoAnswer
	h.mustCall(t, "godot_undo", map[string]any{"history": "global"}, &u)
	if u.Performed != 1 || len(u.Actions) != 1 || !strings.Contains(u.Actions[0], "edit Theme") {
		t.Fatalf("undo: %+v", u)
	}
	if c := got2(t, s)["font_color"]; c != "ff0000" {
		t.Fatalf("after undo the file has font_color %v", c)
	}
	// (No redo here: with a scene open, godot_undo {history: global} steps the global
	// UndoRedo directly, which the editor's redo menu then does not see; a core matter.)

	// The theme on the root: a Control's effective items come from it.
	h.mustCall(t, "godot_scene_set_properties", map[string]any{"node": ".", "properties": map[string]any{"theme": "res://ui_theme.tres"}}, nil)
	h.mustCall(t, "godot_ui_theme_get", map[string]any{"node": "Menu/Play"}, &tg)
	if tg.Node == nil || tg.Node.ThemeType != "Button" || string(tg.Node.Effective["font_size"]["font_size"]) != "18" || !tg.HasTheme ||
		tg.Node.ThemeFrom != "." || tg.Path != "res://ui_theme.tres" {
		t.Fatalf("node theme: %+v", tg.Node)
	}
	if c := string(tg.Node.Effective["color"]["font_color"]); !strings.Contains(strings.ToLower(c), "ff0000") && !strings.Contains(c, `"r":1`) {
		t.Fatalf("effective font_color %s", c)
	}

	// Overrides: names checked against the Button's items, all or nothing.
	sceneFail(t, s, "godot_ui_set_theme_overrides", map[string]any{"node": "Menu/Play", "set": []any{
		map[string]any{"data_type": "font_size", "name": "font_size", "value": 24},
		map[string]any{"data_type": "color", "name": "font_colour", "value": "#00ff00"}}}, "VALIDATION_ERROR", "Did you mean 'font_color'")
	sceneFail(t, s, "godot_ui_set_theme_overrides", map[string]any{"node": "Menu/Play", "set": []any{
		map[string]any{"data_type": "constant", "name": "font_color", "value": 1}}}, "VALIDATION_ERROR", `use data_type "color"`)
	sceneFail(t, s, "godot_ui_set_theme_overrides", map[string]any{"node": "Menu/Play", "remove": []any{
		map[string]any{"data_type": "color", "name": "font_color"}}}, "RESOURCE_NOT_FOUND", "no color override")
	h.mustCall(t, "godot_ui_theme_get", map[string]any{"node": "Menu/Play"}, &tg)
	if len(tg.Node.Overrides) != 0 {
		t.Fatalf("a refused call left overrides: %+v", tg.Node.Overrides)
	}
	var ov struct {
		ThemeType string                                `json:"theme_type"`
		Overrides map[string]map[string]json.RawMessage `json:"overrides"`
		sceneEdit
	}
	h.mustCall(t, "godot_ui_set_theme_overrides", map[string]any{"node": "Menu/Play", "set": []any{
		map[string]any{"data_type": "font_size", "name": "font_size", "value": 24},
		map[string]any{"data_type": "color", "name": "font_color", "value": "#00ff00"},
		map[string]any{"data_type": "stylebox", "name": "hover", "value": map[string]any{"class": "StyleBoxFlat", "properties": map[string]any{"bg_color": "#112233"}}}}}, &ov)
	if !ov.Undoable || !ov.Persisted || string(ov.Overrides["font_size"]["font_size"]) != "24" || ov.Overrides["stylebox"]["hover"] == nil {
		t.Fatalf("overrides: %+v", ov)
	}
	h.mustCall(t, "godot_ui_set_theme_overrides", map[string]any{"node": "Menu", "set": []any{map[string]any{"data_type": "constant", "name": "separation", "value": 12}}}, &ov)
	h.mustCall(t, "godot_scene_save", nil, nil)
	saved := uiHeadless(t, s.project, uiSceneCheck, "UI_CHECK", "res://menu.tscn", ".", "Menu", "Menu/Play")
	t.Logf("saved: %v", saved)
	b, _ := json.Marshal(saved)
	for _, w := range []string{`"font_color":"00ff00"`, `"font_size":24`, `"separation":12`, `"theme":"res://ui_theme.tres"`} {
		if !strings.Contains(string(b), w) {
			t.Errorf("saved scene %s lacks %s", b, w)
		}
	}
	// Undo the separation, then the Button's three overrides in one step.
	sceneUndo(t, s)
	u = sceneUndo(t, s)
	if len(u.Actions) != 1 || !strings.Contains(u.Actions[0], "theme overrides") {
		t.Fatalf("undo: %+v", u)
	}
	h.mustCall(t, "godot_ui_theme_get", map[string]any{"node": "Menu/Play"}, &tg)
	if len(tg.Node.Overrides) != 0 {
		t.Fatalf("undo left overrides: %+v", tg.Node.Overrides)
	}
	var pt struct {
		Source   string `json:"source"`
		HasTheme bool   `json:"has_theme"`
	}
	h.mustCall(t, "godot_ui_theme_get", map[string]any{"project": true}, &pt)
	if pt.Source != "project" || pt.HasTheme {
		t.Fatalf("project theme: %+v", pt)
	}
}

func got2(t *testing.T, s *session) map[string]any {
	t.Helper()
	return uiHeadless(t, s.project, uiThemeCheck, "THEME_CHECK", "res://ui_theme.tres")
}
