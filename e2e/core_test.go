package e2e

import (
	"encoding/json"
	"math"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/godot-mcp/godot-mcp/host/buildinfo"
)

// sameDir reports whether two paths name the same directory (the editor
// reports the resolved path, which may differ from ours by symlinks).
func sameDir(a, b string) bool {
	ra, err1 := filepath.EvalSymlinks(a)
	rb, err2 := filepath.EvalSymlinks(b)
	if err1 != nil || err2 != nil {
		return filepath.Clean(a) == filepath.Clean(b)
	}
	return ra == rb
}

// The addon loads without a single script error, connects, and the host
// shows the editor in godot_get_server_info.
func TestAddonLoadsAndConnects(t *testing.T) {
	checkEditorOutput(t, "godot --import", suite.importLog)
	s := sharedSession(t)
	var info serverInfo
	s.host.mustCall(t, "godot_get_server_info", nil, &info)
	if !info.Bridge.Connected || info.Bridge.Peer == nil {
		t.Fatalf("bridge not connected: %s", describeBridge(info))
	}
	p := info.Bridge.Peer
	if !strings.HasPrefix(p.GodotVersion, "4.") {
		t.Errorf("peer godot_version = %q, want 4.x", p.GodotVersion)
	}
	if want := strings.SplitN(suite.godotVersion, ".", 3); !strings.HasPrefix(p.GodotVersion, want[0]+"."+want[1]) {
		t.Errorf("peer godot_version = %q, but the binary says %q", p.GodotVersion, suite.godotVersion)
	}
	if p.AddonVersion != buildinfo.Version {
		t.Errorf("peer addon_version = %q, want the server's %q", p.AddonVersion, buildinfo.Version)
	}
	if !sameDir(p.ProjectDir, s.project) {
		t.Errorf("peer project_dir = %q, want %q", p.ProjectDir, s.project)
	}
	if !sameDir(info.ProjectDir, s.project) {
		t.Errorf("server project_dir = %q, want the editor's %q", info.ProjectDir, s.project)
	}
	if info.Version != buildinfo.Version {
		t.Errorf("server version = %q, want %q", info.Version, buildinfo.Version)
	}
	if info.VersionNotice != "" {
		t.Errorf("version_notice = %q, want none (addon and server are the same build)", info.VersionNotice)
	}
	if p.ConnectedAt.IsZero() || time.Since(p.ConnectedAt) < 0 {
		t.Errorf("peer connected_at = %v", p.ConnectedAt)
	}
	// What the user sees in the Output panel.
	if lines := grepLines(s.editor.out.String(), "godot_mcp: connected to the godot-mcp server at "+s.host.url); len(lines) == 0 {
		t.Errorf("the editor never said it connected to %s:\n%s", s.host.url, s.editor.out.String())
	}
}

// editorState is godot_get_editor_state's result.
type editorState struct {
	ProjectDir   string `json:"project_dir"`
	ProjectName  string `json:"project_name"`
	GodotVersion string `json:"godot_version"`
	AddonVersion string `json:"addon_version"`
	OpenScenes   []struct {
		Path   string `json:"path"`
		Dirty  bool   `json:"dirty"`
		Active bool   `json:"active"`
	} `json:"open_scenes"`
	ActiveScene *struct {
		Path     string `json:"path"`
		RootName string `json:"root_name"`
		RootType string `json:"root_type"`
		Dirty    bool   `json:"dirty"`
	} `json:"active_scene"`
	Selection    []string `json:"selection"`
	Playing      bool     `json:"playing"`
	PlayingScene string   `json:"playing_scene"`
	Scanning     bool     `json:"scanning"`
	Undo         struct {
		HasUndo    bool   `json:"has_undo"`
		HasRedo    bool   `json:"has_redo"`
		UndoAction string `json:"undo_action"`
		RedoAction string `json:"redo_action"`
	} `json:"undo"`
}

// editorStateWithScene polls godot_get_editor_state until the editor has
// opened the main scene (it does so after its first filesystem scan).
func editorStateWithScene(t *testing.T, s *session) (editorState, json.RawMessage) {
	t.Helper()
	deadline := time.Now().Add(60 * time.Second)
	for {
		var st editorState
		r := s.host.mustCall(t, "godot_get_editor_state", nil, &st)
		if st.ActiveScene != nil && !st.Scanning {
			return st, r.Raw
		}
		if time.Now().After(deadline) {
			t.Fatalf("the editor never opened a scene: %s", r.Raw)
		}
		time.Sleep(200 * time.Millisecond)
	}
}

// godot_get_editor_state describes the project, the open main scene and the
// undo state.
func TestEditorState(t *testing.T) {
	s := sharedSession(t)
	st, raw := editorStateWithScene(t, s)
	if !sameDir(st.ProjectDir, s.project) {
		t.Errorf("project_dir = %q, want %q", st.ProjectDir, s.project)
	}
	if st.ProjectName != "E2E Sample" {
		t.Errorf("project_name = %q, want E2E Sample", st.ProjectName)
	}
	if !strings.HasPrefix(st.GodotVersion, "4.") || st.AddonVersion != buildinfo.Version {
		t.Errorf("godot_version %q, addon_version %q", st.GodotVersion, st.AddonVersion)
	}
	a := st.ActiveScene
	if a.Path != "res://main.tscn" || a.RootName != "Main" || a.RootType != "Node2D" {
		t.Errorf("active_scene = %+v, want res://main.tscn with a Node2D root named Main", *a)
	}
	var found bool
	for _, o := range st.OpenScenes {
		if o.Path == "res://main.tscn" {
			found = true
			if !o.Active {
				t.Errorf("res://main.tscn is open but not marked active: %s", raw)
			}
		}
	}
	if !found {
		t.Errorf("open_scenes lacks res://main.tscn: %s", raw)
	}
	if st.Playing || st.PlayingScene != "" {
		t.Errorf("playing = %v (%q), want no game running", st.Playing, st.PlayingScene)
	}
	// Every documented field is present, the undo ones included.
	var fields map[string]json.RawMessage
	json.Unmarshal(raw, &fields)
	for _, k := range []string{"project_dir", "project_name", "godot_version", "addon_version", "open_scenes", "active_scene",
		"selection", "playing", "playing_scene", "scanning", "scan_progress", "undo"} {
		if _, ok := fields[k]; !ok {
			t.Errorf("editor state lacks %q: %s", k, raw)
		}
	}
	// #28.9: the project's viewport size, and the editor's executable (the
	// headless tools' fallback for GODOT_BIN) is the Godot running the editor.
	var extra struct {
		Viewport struct{ Width, Height int } `json:"viewport_size"`
		Exe      string                      `json:"godot_executable"`
	}
	json.Unmarshal(raw, &extra)
	if extra.Viewport.Width != 1152 || extra.Viewport.Height != 648 { // the sample project keeps Godot's default
		t.Errorf("viewport_size: %s, want 1152x648", fields["viewport_size"])
	}
	if exe, err := filepath.EvalSymlinks(extra.Exe); err != nil || filepath.Base(exe) == "" || !strings.Contains(strings.ToLower(filepath.Base(exe)), "godot") {
		t.Errorf("godot_executable %q (%v)", extra.Exe, err)
	}
	var undo map[string]json.RawMessage
	json.Unmarshal(fields["undo"], &undo)
	for _, k := range []string{"has_undo", "has_redo", "undo_action", "redo_action"} {
		if _, ok := undo[k]; !ok {
			t.Errorf("undo lacks %q: %s", k, fields["undo"])
		}
	}
}

// classDescription is godot_describe_class's result.
type classDescription struct {
	ClassName     string   `json:"class_name"`
	Inherits      []string `json:"inherits"`
	Instantiable  bool     `json:"instantiable"`
	IsScriptClass bool     `json:"is_script_class"`
	Properties    []struct {
		Name    string          `json:"name"`
		Type    string          `json:"type"`
		Default json.RawMessage `json:"default"`
	} `json:"properties"`
	Methods []struct {
		Name string `json:"name"`
	} `json:"methods"`
	Signals []struct {
		Name string `json:"name"`
	} `json:"signals"`
	Constants []struct {
		Name string `json:"name"`
	} `json:"constants"`
	Enums []struct {
		Name   string         `json:"name"`
		Values map[string]int `json:"values"`
	} `json:"enums"`
}

func (c classDescription) property(name string) (typ string, def json.RawMessage, ok bool) {
	for _, p := range c.Properties {
		if p.Name == name {
			return p.Type, p.Default, true
		}
	}
	return "", nil, false
}

func (c classDescription) names() []string {
	var out []string
	for _, p := range c.Properties {
		out = append(out, p.Name)
	}
	for _, m := range c.Methods {
		out = append(out, m.Name)
	}
	for _, s := range c.Signals {
		out = append(out, s.Name)
	}
	for _, k := range c.Constants {
		out = append(out, k.Name)
	}
	return out
}

// godot_describe_class reads ClassDB: inheritance, typed properties, a
// working filter, script classes, and a did-you-mean for unknown names.
func TestDescribeClass(t *testing.T) {
	s := sharedSession(t)

	t.Run("Node2D", func(t *testing.T) {
		var c classDescription
		s.host.mustCall(t, "godot_describe_class", map[string]any{"class_name": "Node2D"}, &c)
		if want := []string{"CanvasItem", "Node", "Object"}; !slices.Equal(c.Inherits, want) {
			t.Errorf("Node2D inherits %v, want %v", c.Inherits, want)
		}
		if !c.Instantiable {
			t.Error("Node2D is not instantiable")
		}
		typ, def, ok := c.property("position")
		if !ok || typ != "Vector2" {
			t.Fatalf("Node2D position: type %q (found %v), want Vector2", typ, ok)
		}
		if !jsonEqual(def, json.RawMessage(`{"x":0,"y":0}`)) {
			t.Errorf("position default = %s, want {x: 0, y: 0}", def)
		}
		if _, _, ok := c.property("visible"); ok {
			t.Error("CanvasItem's visible is listed without include_inherited")
		}
	})

	t.Run("inherited", func(t *testing.T) {
		var c classDescription
		s.host.mustCall(t, "godot_describe_class", map[string]any{"class_name": "Node2D", "include_inherited": true, "filter": "visib"}, &c)
		if typ, _, ok := c.property("visible"); !ok || typ != "bool" {
			t.Errorf("include_inherited: visible (CanvasItem) = %q, %v; want bool", typ, ok)
		}
	})

	t.Run("filter", func(t *testing.T) {
		var c classDescription
		s.host.mustCall(t, "godot_describe_class", map[string]any{"class_name": "Node2D", "filter": "POSITION"}, &c)
		names := c.names()
		if len(names) == 0 {
			t.Fatal("filter POSITION matched nothing on Node2D")
		}
		for _, n := range names {
			if !strings.Contains(strings.ToLower(n), "position") {
				t.Errorf("filter POSITION let %q through", n)
			}
		}
		for _, want := range []string{"position", "global_position", "set_position"} {
			if !slices.Contains(names, want) {
				t.Errorf("filter POSITION lost %q (got %v)", want, names)
			}
		}
	})

	t.Run("script class", func(t *testing.T) {
		var c classDescription
		s.host.mustCall(t, "godot_describe_class", map[string]any{"class_name": "E2EPlayer"}, &c)
		if !c.IsScriptClass || !slices.Contains(c.Inherits, "Node2D") {
			t.Errorf("E2EPlayer: is_script_class %v, inherits %v; want a script class extending Node2D", c.IsScriptClass, c.Inherits)
		}
		if typ, _, ok := c.property("speed"); !ok || typ != "float" {
			t.Errorf("E2EPlayer.speed = %q, %v; want float", typ, ok)
		}
		names := c.names()
		for _, want := range []string{"hit", "take_hit", "MAX_SPEED"} {
			if !slices.Contains(names, want) {
				t.Errorf("E2EPlayer lacks %q (got %v)", want, names)
			}
		}
	})

	t.Run("unknown class", func(t *testing.T) {
		e := s.host.mustFail(t, "godot_describe_class", map[string]any{"class_name": "Nod2D"})
		if e.Error != "RESOURCE_NOT_FOUND" {
			t.Errorf("unknown class: error %q, want RESOURCE_NOT_FOUND", e.Error)
		}
		if !strings.Contains(e.Hint, "Did you mean") || !strings.Contains(e.Hint, "Node2D") {
			t.Errorf("unknown class hint %q should suggest Node2D", e.Hint)
		}
	})

	t.Run("missing class_name", func(t *testing.T) {
		e := s.host.mustFail(t, "godot_describe_class", map[string]any{})
		if e.Error != "VALIDATION_ERROR" {
			t.Errorf("no class_name: error %q, want VALIDATION_ERROR", e.Error)
		}
	})
}

// jsonEqual compares two JSON texts as values (1 and 1.0 are equal).
func jsonEqual(a, b json.RawMessage) bool {
	var x, y any
	if json.Unmarshal(a, &x) != nil || json.Unmarshal(b, &y) != nil {
		return false
	}
	return jsonValueEqual(x, y)
}

// jsonApprox is jsonEqual with numbers compared to within 1e-6.
func jsonApprox(a, b json.RawMessage) bool {
	var x, y any
	if json.Unmarshal(a, &x) != nil || json.Unmarshal(b, &y) != nil {
		return false
	}
	return jsonValueCompare(x, y, 1e-6)
}

func jsonValueEqual(x, y any) bool { return jsonValueCompare(x, y, 0) }

func jsonValueCompare(x, y any, tol float64) bool {
	switch xv := x.(type) {
	case map[string]any:
		yv, ok := y.(map[string]any)
		if !ok || len(xv) != len(yv) {
			return false
		}
		for k, v := range xv {
			w, ok := yv[k]
			if !ok || !jsonValueCompare(v, w, tol) {
				return false
			}
		}
		return true
	case []any:
		yv, ok := y.([]any)
		if !ok || len(xv) != len(yv) {
			return false
		}
		for i := range xv {
			if !jsonValueCompare(xv[i], yv[i], tol) {
				return false
			}
		}
		return true
	case float64:
		yv, ok := y.(float64)
		return ok && math.Abs(xv-yv) <= tol
	default:
		return x == y
	}
}
