package e2e

import (
	"context"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"syscall"
	"testing"
	"time"
)

// projectFiles are written into the project before the editor opens it:
// autoload candidates (two scripts, one scene) and a script that is no Node.
var projectFiles = map[string]string{
	"autoloads/alpha.gd":    "extends Node\n\nvar hits: int = 0\n",
	"autoloads/beta.gd":     "extends Node\n",
	"autoloads/gamma.tscn":  "[gd_scene format=3]\n\n[node name=\"Gamma\" type=\"Node\"]\n",
	"autoloads/not_node.gd": "extends Resource\n",
}

// projectCheckScript runs in a fresh headless Godot (not the editor) and
// prints what that process loaded from project.godot as one JSON line.
const projectCheckScript = `extends SceneTree

func _event(ev: InputEvent) -> Dictionary:
	var d := {"class": ev.get_class(), "device": ev.device}
	if ev is InputEventKey:
		d["keycode"] = ev.keycode
		d["physical_keycode"] = ev.physical_keycode
		d["ctrl"] = ev.ctrl_pressed
		d["shift"] = ev.shift_pressed
		d["alt"] = ev.alt_pressed
	elif ev is InputEventMouseButton or ev is InputEventJoypadButton:
		d["button_index"] = ev.button_index
	elif ev is InputEventJoypadMotion:
		d["axis"] = ev.axis
		d["axis_value"] = ev.axis_value
	return d

func _initialize() -> void:
	var out := {"settings": {}, "actions": {}, "autoload_settings": {}, "root_children": []}
	for key in ["application/config/name", "display/window/size/viewport_width", "display/window/size/viewport_height",
			"display/window/stretch/mode", "rendering/environment/defaults/default_clear_color",
			"game/difficulty", "game/spawn", "game/tags"]:
		var v = ProjectSettings.get_setting(key)
		out["settings"][key] = {"type": type_string(typeof(v)), "value": var_to_str(v)}
	for a in ["jump", "move_left", "save", "ui_cancel", "crouch"]:
		if not InputMap.has_action(a):
			continue
		var evs := []
		for ev in InputMap.action_get_events(a):
			evs.append(_event(ev))
		out["actions"][a] = {"deadzone": InputMap.action_get_deadzone(a), "events": evs}
	for p in ProjectSettings.get_property_list():
		if str(p["name"]).begins_with("autoload/"):
			out["autoload_settings"][p["name"]] = ProjectSettings.get_setting(p["name"])
	for n in root.get_children():
		out["root_children"].append(str(n.name))
	print("PROJECT_CHECK " + JSON.stringify(out))
	quit()
`

// projectCheck is what projectCheckScript prints.
type projectCheck struct {
	Settings map[string]struct {
		Type  string `json:"type"`
		Value string `json:"value"`
	} `json:"settings"`
	Actions map[string]struct {
		Deadzone float64          `json:"deadzone"`
		Events   []map[string]any `json:"events"`
	} `json:"actions"`
	AutoloadSettings map[string]string `json:"autoload_settings"`
	RootChildren     []string          `json:"root_children"`
}

// runProjectCheck loads the project in a new headless Godot process and
// returns what it saw.
func runProjectCheck(t *testing.T, project string) projectCheck {
	t.Helper()
	script := filepath.Join(t.TempDir(), "check_project.gd")
	if err := os.WriteFile(script, []byte(projectCheckScript), 0o644); err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, suite.godot, "--headless", "--path", project, "--script", script)
	cmd.Env = append(godotEnv(), "GODOT_MCP_BRIDGE_URL=ws://127.0.0.1:1")
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("headless check: %v\n%s", err, out)
	}
	checkEditorOutput(t, "headless check", string(out))
	for _, line := range strings.Split(string(out), "\n") {
		if rest, ok := strings.CutPrefix(strings.TrimSpace(line), "PROJECT_CHECK "); ok {
			var c projectCheck
			if err := json.Unmarshal([]byte(rest), &c); err != nil {
				t.Fatalf("headless check printed bad JSON: %v\n%s", err, rest)
			}
			return c
		}
	}
	t.Fatalf("headless check printed no PROJECT_CHECK line:\n%s", out)
	return projectCheck{}
}

// projectSession starts a host and an editor on a fresh copy of the sample
// project with the autoload candidates added and no main scene (so that no
// scene opens and godot_undo acts on the global history, where project
// edits live).
func projectSession(t *testing.T) *session {
	t.Helper()
	project := newProject(t)
	for name, text := range projectFiles {
		p := filepath.Join(project, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	pg := filepath.Join(project, "project.godot")
	b, err := os.ReadFile(pg)
	if err != nil {
		t.Fatal(err)
	}
	var kept []string
	for _, l := range strings.Split(string(b), "\n") {
		if !strings.HasPrefix(l, "run/main_scene=") {
			kept = append(kept, l)
		}
	}
	if err := os.WriteFile(pg, []byte(strings.Join(kept, "\n")), 0o644); err != nil {
		t.Fatal(err)
	}
	h := startHostT(t, "ws://127.0.0.1:0")
	e := startEditorT(t, project, h.url)
	waitEditor(t, h, e)
	s := &session{host: h, editor: e, project: project}
	s.host.mustCall(t, "godot_enable_toolset", map[string]any{"name": "project"}, nil)
	return s
}

func readProjectGodot(t *testing.T, s *session) string {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(s.project, "project.godot"))
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// autoloadSection returns the keys of project.godot's [autoload] section in
// file order.
func autoloadSection(text string) []string {
	var keys []string
	in := false
	for _, l := range strings.Split(text, "\n") {
		l = strings.TrimSpace(l)
		if strings.HasPrefix(l, "[") {
			in = l == "[autoload]"
			continue
		}
		if in && l != "" && !strings.HasPrefix(l, ";") {
			k, _, _ := strings.Cut(l, "=")
			keys = append(keys, k)
		}
	}
	return keys
}

type settingChange struct {
	Key       string          `json:"key"`
	Type      string          `json:"type"`
	Old       json.RawMessage `json:"old"`
	New       json.RawMessage `json:"new"`
	Changed   bool            `json:"changed"`
	Created   bool            `json:"created"`
	IsDefault bool            `json:"is_default"`
}

type setSettingsResult struct {
	Changes    []settingChange `json:"changes"`
	DryRun     bool            `json:"dry_run"`
	Persisted  bool            `json:"persisted"`
	Undoable   bool            `json:"undoable"`
	UndoAction string          `json:"undo_action"`
	Warnings   []string        `json:"warnings"`
}

type inputEvent map[string]any

type actionResult struct {
	Name      string `json:"name"`
	Created   bool   `json:"created"`
	Builtin   bool   `json:"builtin"`
	Changed   bool   `json:"changed"`
	Persisted bool   `json:"persisted"`
	Undoable  bool   `json:"undoable"`
	New       struct {
		Deadzone float64      `json:"deadzone"`
		Events   []inputEvent `json:"events"`
	} `json:"new"`
	Removed struct {
		Events []inputEvent `json:"events"`
	} `json:"removed"`
	Warnings []string `json:"warnings"`
}

type autoloadEntry struct {
	Name      string `json:"name"`
	Path      string `json:"path"`
	Singleton bool   `json:"singleton"`
	Index     int    `json:"index"`
}

type autoloadResult struct {
	Autoload        autoloadEntry   `json:"autoload"`
	Autoloads       []autoloadEntry `json:"autoloads"`
	DryRun          bool            `json:"dry_run"`
	Persisted       bool            `json:"persisted"`
	Undoable        bool            `json:"undoable"`
	EditorRefreshed bool            `json:"editor_refreshed"`
	Warnings        []string        `json:"warnings"`
}

func autoloadNames(list []autoloadEntry) []string {
	var out []string
	for _, a := range list {
		out = append(out, a.Name)
	}
	return out
}

func wantFailure(t *testing.T, s *session, tool string, args map[string]any, code string, hintHas ...string) {
	t.Helper()
	e := s.host.mustFail(t, tool, args)
	if e.Error != code {
		t.Fatalf("%s %v: error %s (%s), want %s", tool, args, e.Error, e.Hint, code)
	}
	for _, h := range hintHas {
		if !strings.Contains(e.Hint, h) {
			t.Fatalf("%s %v: hint %q does not mention %q", tool, args, e.Hint, h)
		}
	}
}

// Settings, input actions and autoloads edited through MCP in a real editor
// end up in project.godot: a fresh headless Godot loads them back, typed,
// with full events and the autoload order kept. Bad input is refused with
// a did-you-mean and changes nothing; dry runs change nothing; one undo
// reverts one call, in the editor and in the file.
func TestProjectToolset(t *testing.T) {
	s := projectSession(t)
	const ps = "godot_project_"

	t.Run("get settings", func(t *testing.T) {
		var out struct {
			Settings    map[string]any      `json:"settings"`
			Missing     []string            `json:"missing"`
			Suggestions map[string][]string `json:"suggestions"`
			Info        map[string]struct {
				Type       string `json:"type"`
				HasDefault bool   `json:"has_default"`
			} `json:"info"`
		}
		s.host.mustCall(t, ps+"get_settings", map[string]any{
			"keys": []string{"application/config/name", "application/config/nam", "display/window/size/viewport_width"}, "with_info": true,
		}, &out)
		if out.Settings["application/config/name"] != "E2E Sample" || out.Settings["display/window/size/viewport_width"] != 1152.0 {
			t.Fatalf("settings %v", out.Settings)
		}
		if !slices.Equal(out.Missing, []string{"application/config/nam"}) || !slices.Contains(out.Suggestions["application/config/nam"], "application/config/name") {
			t.Fatalf("missing %v suggestions %v", out.Missing, out.Suggestions)
		}
		if out.Info["display/window/size/viewport_width"].Type != "int" || !out.Info["display/window/size/viewport_width"].HasDefault {
			t.Fatalf("info %+v", out.Info)
		}
	})

	t.Run("prefix pages", func(t *testing.T) {
		type page struct {
			Settings   map[string]any `json:"settings"`
			Total      int            `json:"total"`
			Truncated  bool           `json:"truncated"`
			NextCursor string         `json:"next_cursor"`
		}
		var p1, p2 page
		s.host.mustCall(t, ps+"get_settings", map[string]any{"prefix": "display/window/", "limit": 5}, &p1)
		if len(p1.Settings) != 5 || !p1.Truncated || p1.NextCursor != "5" || p1.Total <= 5 {
			t.Fatalf("page 1: %+v", p1)
		}
		s.host.mustCall(t, ps+"get_settings", map[string]any{"prefix": "display/window/", "limit": 5, "cursor": p1.NextCursor}, &p2)
		for k := range p2.Settings {
			if _, dup := p1.Settings[k]; dup || !strings.HasPrefix(k, "display/window/") {
				t.Fatalf("page 2 repeats or strays: %s", k)
			}
		}
	})

	before := readProjectGodot(t, s)

	t.Run("refusals change nothing", func(t *testing.T) {
		wantFailure(t, s, ps+"set_settings", map[string]any{"settings": map[string]any{"application/config/nam": "X"}},
			"VALIDATION_ERROR", "Did you mean", "'application/config/name'", "create: true")
		wantFailure(t, s, ps+"set_settings", map[string]any{"settings": map[string]any{"display/window/size/viewport_width": "wide"}},
			"VALIDATION_ERROR", "int", "expected an integer")
		wantFailure(t, s, ps+"set_settings", map[string]any{"settings": map[string]any{"display/window/size/viewport_width": 1280.5}},
			"VALIDATION_ERROR", "integer")
		wantFailure(t, s, ps+"set_settings", map[string]any{"settings": map[string]any{"display/window/stretch/mode": "stretchy"}},
			"VALIDATION_ERROR", "canvas_items")
		wantFailure(t, s, ps+"set_settings", map[string]any{"settings": map[string]any{"display/window/size/viewport_width": 0}},
			"VALIDATION_ERROR", "below the minimum")
		wantFailure(t, s, ps+"set_settings", map[string]any{"settings": map[string]any{"application/config/name": "X"}, "create": true, "types": map[string]string{"application/config/name": "int"}},
			"VALIDATION_ERROR", "keeps its type")
		// One bad key refuses the whole call: the good one is not applied either.
		wantFailure(t, s, ps+"set_settings", map[string]any{"settings": map[string]any{"application/config/name": "Half", "application/config/descriptoin": "x"}},
			"VALIDATION_ERROR", "application/config/description")
		wantFailure(t, s, ps+"set_settings", map[string]any{"settings": map[string]any{"game/spawn": "here"}, "create": true, "types": map[string]string{"game/spawn": "Vector2"}},
			"VALIDATION_ERROR", "{x: number, y: number}")
		var out struct {
			Settings map[string]any `json:"settings"`
			Missing  []string       `json:"missing"`
			Total    int            `json:"total"`
		}
		s.host.mustCall(t, ps+"get_settings", map[string]any{"keys": []string{"application/config/name", "application/run/main_scene", "game/nothing_here"}}, &out)
		if out.Settings["application/config/name"] != "E2E Sample" {
			t.Fatalf("a refused call changed the name: %v", out.Settings)
		}
		// total counts the keys found (it said 0 for keys alone).
		if out.Total != 2 || len(out.Missing) != 1 {
			t.Fatalf("keys: total %d, missing %v; want 2 and one missing", out.Total, out.Missing)
		}
	})

	t.Run("dry run changes nothing", func(t *testing.T) {
		var out setSettingsResult
		s.host.mustCall(t, ps+"set_settings", map[string]any{"settings": map[string]any{"application/config/name": "Dry"}, "dry_run": true}, &out)
		if !out.DryRun || out.Persisted || out.Undoable || len(out.Changes) != 1 ||
			string(out.Changes[0].Old) != `"E2E Sample"` || string(out.Changes[0].New) != `"Dry"` || !out.Changes[0].Changed {
			t.Fatalf("%+v", out)
		}
		var a actionResult
		s.host.mustCall(t, ps+"set_action", map[string]any{"name": "dry", "events": []any{map[string]any{"type": "key", "keycode": "D"}}, "dry_run": true}, &a)
		if !a.Created || a.Persisted || len(a.New.Events) != 1 {
			t.Fatalf("%+v", a)
		}
		var al autoloadResult
		s.host.mustCall(t, ps+"add_autoload", map[string]any{"name": "Alpha", "path": "res://autoloads/alpha.gd", "dry_run": true}, &al)
		if !al.DryRun || al.Persisted || !slices.Equal(autoloadNames(al.Autoloads), []string{"Alpha"}) {
			t.Fatalf("%+v", al)
		}
		if after := readProjectGodot(t, s); after != before {
			t.Fatalf("a dry run or refusal changed project.godot:\n%s", after)
		}
	})

	t.Run("set settings", func(t *testing.T) {
		var out setSettingsResult
		s.host.mustCall(t, ps+"set_settings", map[string]any{
			"settings": map[string]any{
				"application/config/name":                            "Renamed",
				"display/window/size/viewport_width":                 1280,
				"display/window/size/viewport_height":                720,
				"display/window/stretch/mode":                        "canvas_items",
				"rendering/environment/defaults/default_clear_color": "#336699",
				"game/difficulty":                                    3,
				"game/spawn":                                         map[string]any{"x": 1.5, "y": -2},
				"game/tags":                                          []string{"a", "b"},
			},
			"create": true,
			"types":  map[string]string{"game/spawn": "Vector2", "game/tags": "PackedStringArray"},
		}, &out)
		if !out.Persisted || !out.Undoable || out.UndoAction == "" || len(out.Changes) != 8 {
			t.Fatalf("%+v", out)
		}
		types := map[string]string{}
		for _, c := range out.Changes {
			types[c.Key] = c.Type
		}
		if types["game/spawn"] != "Vector2" || types["game/difficulty"] != "int" || types["game/tags"] != "PackedStringArray" || types["rendering/environment/defaults/default_clear_color"] != "Color" {
			t.Fatalf("types %v", types)
		}
		text := readProjectGodot(t, s)
		for _, want := range []string{`config/name="Renamed"`, "window/size/viewport_width=1280", "difficulty=3", "spawn=Vector2(1.5, -2)"} {
			if !strings.Contains(text, want) {
				t.Fatalf("project.godot lacks %s:\n%s", want, text)
			}
		}
	})

	t.Run("reset and undo", func(t *testing.T) {
		var out setSettingsResult
		s.host.mustCall(t, ps+"set_settings", map[string]any{"reset": []string{"display/window/size/viewport_width"}}, &out)
		if !out.Persisted || len(out.Changes) != 1 || !out.Changes[0].IsDefault || string(out.Changes[0].New) != "1152" {
			t.Fatalf("%+v", out)
		}
		if strings.Contains(readProjectGodot(t, s), "viewport_width") {
			t.Fatal("a setting reset to its default is still in project.godot")
		}
		s.host.mustCall(t, ps+"set_settings", map[string]any{"settings": map[string]any{"application/config/name": "Undo Me"}}, nil)
		var u struct {
			Performed int      `json:"performed"`
			Actions   []string `json:"actions"`
			History   string   `json:"history"`
		}
		s.host.mustCall(t, "godot_undo", nil, &u)
		if u.Performed != 1 || u.History != "global" || !strings.Contains(u.Actions[0], "godot-mcp: set project settings") {
			t.Fatalf("undo %+v", u)
		}
		var got struct {
			Settings map[string]any `json:"settings"`
		}
		s.host.mustCall(t, ps+"get_settings", map[string]any{"keys": []string{"application/config/name"}}, &got)
		if got.Settings["application/config/name"] != "Renamed" || !strings.Contains(readProjectGodot(t, s), `config/name="Renamed"`) {
			t.Fatalf("undo did not restore the name in the editor and the file: %v", got.Settings)
		}
	})

	t.Run("input actions", func(t *testing.T) {
		var a actionResult
		s.host.mustCall(t, ps+"set_action", map[string]any{"name": "jump", "events": []any{
			map[string]any{"type": "key", "physical_keycode": "Space"},
			map[string]any{"type": "joypad_button", "button": "a"},
			map[string]any{"type": "mouse_button", "button": "left"},
		}}, &a)
		if !a.Created || !a.Persisted || !a.Undoable || len(a.New.Events) != 3 || a.New.Deadzone != 0.2 {
			t.Fatalf("%+v", a)
		}
		if a.New.Events[0]["physical_keycode"] != "Space" || a.New.Events[1]["button"] != "a" || a.New.Events[2]["button"] != "left" {
			t.Fatalf("events %v", a.New.Events)
		}
		s.host.mustCall(t, ps+"set_action", map[string]any{"name": "move_left", "deadzone": 0.25, "events": []any{
			map[string]any{"type": "key", "keycode": "A"},
			map[string]any{"type": "key", "keycode": "Left", "shift": true},
			map[string]any{"type": "joypad_motion", "axis": "left_x", "direction": "negative"},
		}}, &a)
		if !a.Persisted || a.New.Events[2]["axis_value"] != -1.0 || a.New.Events[2]["direction"] != "negative" {
			t.Fatalf("%+v", a)
		}
		s.host.mustCall(t, ps+"set_action", map[string]any{"name": "save", "events": []any{map[string]any{"type": "key", "keycode": "Ctrl+S"}}}, &a)
		if a.New.Events[0]["keycode"] != "S" || a.New.Events[0]["ctrl"] != true {
			t.Fatalf("Ctrl+S became %v", a.New.Events[0])
		}
		s.host.mustCall(t, ps+"set_action", map[string]any{"name": "crouch", "events": []any{map[string]any{"type": "key", "keycode": "C"}}}, nil)
		// Change one: a joypad button in, the mouse button out.
		s.host.mustCall(t, ps+"set_action", map[string]any{"name": "jump",
			"add_events":    []any{map[string]any{"type": "joypad_button", "button": "b"}},
			"remove_events": []any{map[string]any{"type": "mouse_button", "button": "left"}}}, &a)
		if a.Created || len(a.New.Events) != 3 || a.New.Events[2]["button"] != "b" {
			t.Fatalf("%+v", a)
		}
		// A built-in action loses its events; the change is saved.
		s.host.mustCall(t, ps+"set_action", map[string]any{"name": "ui_cancel", "events": []any{}}, &a)
		if !a.Builtin || !a.Persisted || len(a.New.Events) != 0 {
			t.Fatalf("%+v", a)
		}

		// The accepted spellings come back in the documented shape (a dry run: nothing changes).
		var shapes actionResult
		s.host.mustCall(t, ps+"set_action", map[string]any{"name": "shapes", "dry_run": true, "events": []any{
			map[string]any{"type": "key", "keycode": "kp_enter"},
			map[string]any{"type": "key", "keycode": "KEY_ESCAPE"},
			map[string]any{"type": "key", "keycode": "Ctrl++"},
			map[string]any{"type": "key", "keycode": "-"},
			map[string]any{"type": "key", "physical_keycode": "a", "command_or_control": true},
			map[string]any{"type": "key", "keycode": "Shift", "location": "right"},
			map[string]any{"type": "mouse_button", "button": "wheel_up", "alt": true},
			map[string]any{"type": "mouse_button", "button": 8},
			map[string]any{"type": "joypad_button", "button": "lb"},
			map[string]any{"type": "joypad_button", "button": 25},
			map[string]any{"type": "joypad_motion", "axis": "rt", "axis_value": 0.5},
		}}, &shapes)
		want := []inputEvent{
			{"type": "key", "keycode": "Kp Enter", "device": -1.0},
			{"type": "key", "keycode": "Escape", "device": -1.0},
			{"type": "key", "keycode": "Plus", "ctrl": true, "device": -1.0},
			{"type": "key", "keycode": "Minus", "device": -1.0},
			{"type": "key", "physical_keycode": "A", "command_or_control": true, "device": -1.0},
			{"type": "key", "keycode": "Shift", "location": "right", "device": -1.0},
			{"type": "mouse_button", "button": "wheel_up", "alt": true, "device": -1.0},
			{"type": "mouse_button", "button": "xbutton1", "device": -1.0},
			{"type": "joypad_button", "button": "left_shoulder", "device": -1.0},
			{"type": "joypad_button", "button": 25.0, "device": -1.0},
			{"type": "joypad_motion", "axis": "trigger_right", "axis_value": 0.5, "direction": "positive", "device": -1.0},
		}
		if len(shapes.New.Events) != len(want) {
			t.Fatalf("%+v", shapes)
		}
		for i, w := range want {
			got := shapes.New.Events[i]
			if text, _ := got["text"].(string); text == "" {
				t.Errorf("event %d has no text: %v", i, got)
			}
			delete(got, "text")
			gj, _ := json.Marshal(got)
			wj, _ := json.Marshal(w)
			if string(gj) != string(wj) {
				t.Errorf("event %d = %s, want %s", i, gj, wj)
			}
		}

		wantFailure(t, s, ps+"set_action", map[string]any{"name": "jump", "add_events": []any{map[string]any{"type": "key", "keycode": "Spcae"}}},
			"VALIDATION_ERROR", "add_events[0]", "Space")
		wantFailure(t, s, ps+"set_action", map[string]any{"name": "jump", "add_events": []any{map[string]any{"type": "joypad_button", "button": "a"}}},
			"VALIDATION_ERROR", "once")
		wantFailure(t, s, ps+"set_action", map[string]any{"name": "jump", "remove_events": []any{map[string]any{"type": "key", "keycode": "Q"}}},
			"VALIDATION_ERROR", "not an event of 'jump'", "Space")
		wantFailure(t, s, ps+"set_action", map[string]any{"name": "jump", "add_events": []any{map[string]any{"type": "joypad_button", "button": "triangle"}}},
			"VALIDATION_ERROR", "unknown button")

		var list struct {
			Actions []struct {
				Name    string       `json:"name"`
				Builtin bool         `json:"builtin"`
				Events  []inputEvent `json:"events"`
			} `json:"actions"`
			Total int `json:"total"`
		}
		s.host.mustCall(t, ps+"list_actions", nil, &list)
		var names []string
		for _, x := range list.Actions {
			names = append(names, x.Name)
		}
		if !slices.Equal(names, []string{"jump", "move_left", "save", "crouch"}) {
			t.Fatalf("actions %v", names)
		}
		s.host.mustCall(t, ps+"list_actions", map[string]any{"include_builtin": true, "filter": "ui_ca"}, &list)
		if len(list.Actions) != 1 || list.Actions[0].Name != "ui_cancel" || !list.Actions[0].Builtin {
			t.Fatalf("%+v", list)
		}

		wantFailure(t, s, ps+"remove_action", map[string]any{"name": "ui_accept", "confirm": true}, "VALIDATION_ERROR", "built-in")
		wantFailure(t, s, ps+"remove_action", map[string]any{"name": "jmup", "confirm": true}, "RESOURCE_NOT_FOUND", "'jump'")
		wantFailure(t, s, ps+"remove_action", map[string]any{"name": "crouch"}, "PRECONDITION_FAILED")
		s.host.mustCall(t, ps+"remove_action", map[string]any{"name": "crouch", "confirm": true}, &a)
		if !a.Persisted || len(a.Removed.Events) != 1 || strings.Contains(readProjectGodot(t, s), "crouch=") {
			t.Fatalf("%+v", a)
		}
		// Undo brings crouch back in its place (editor and file); redo removes it again.
		s.host.mustCall(t, "godot_undo", nil, nil)
		s.host.mustCall(t, ps+"list_actions", nil, &list)
		names = names[:0]
		for _, x := range list.Actions {
			names = append(names, x.Name)
		}
		if !slices.Equal(names, []string{"jump", "move_left", "save", "crouch"}) || !strings.Contains(readProjectGodot(t, s), "crouch=") {
			t.Fatalf("after undo: %v", names)
		}
		s.host.mustCall(t, "godot_redo", nil, nil)
		if strings.Contains(readProjectGodot(t, s), "crouch=") {
			t.Fatal("redo did not remove crouch from project.godot")
		}
	})

	t.Run("autoloads", func(t *testing.T) {
		var al autoloadResult
		s.host.mustCall(t, ps+"add_autoload", map[string]any{"name": "Alpha", "path": "res://autoloads/alpha.gd"}, &al)
		if !al.Persisted || !al.Undoable || !al.EditorRefreshed || al.Autoload.Index != 0 {
			t.Fatalf("%+v", al)
		}
		s.host.mustCall(t, ps+"add_autoload", map[string]any{"name": "Beta", "path": "res://autoloads/beta.gd", "singleton": false}, &al)
		s.host.mustCall(t, ps+"add_autoload", map[string]any{"name": "Gamma", "path": "res://autoloads/gamma.tscn", "index": 0}, &al)
		if !al.Persisted || !slices.Equal(autoloadNames(al.Autoloads), []string{"Gamma", "Alpha", "Beta"}) {
			t.Fatalf("%+v", al)
		}
		if got := autoloadSection(readProjectGodot(t, s)); !slices.Equal(got, []string{"Gamma", "Alpha", "Beta"}) {
			t.Fatalf("[autoload] on disk: %v", got)
		}

		wantFailure(t, s, ps+"add_autoload", map[string]any{"name": "Node", "path": "res://autoloads/beta.gd"}, "VALIDATION_ERROR", "engine class")
		wantFailure(t, s, ps+"add_autoload", map[string]any{"name": "E2EPlayer", "path": "res://autoloads/beta.gd"}, "VALIDATION_ERROR", "class_name")
		wantFailure(t, s, ps+"add_autoload", map[string]any{"name": "Alpha", "path": "res://autoloads/beta.gd"}, "VALIDATION_ERROR", "already")
		wantFailure(t, s, ps+"add_autoload", map[string]any{"name": "NotNode", "path": "res://autoloads/not_node.gd"}, "VALIDATION_ERROR", "extend Node")
		wantFailure(t, s, ps+"add_autoload", map[string]any{"name": "Missing", "path": "res://autoloads/alpah.gd"}, "RESOURCE_NOT_FOUND", "res://autoloads/alpha.gd")
		wantFailure(t, s, ps+"add_autoload", map[string]any{"name": "Far", "path": "res://autoloads/beta.gd", "index": 7}, "VALIDATION_ERROR", "index")
		wantFailure(t, s, ps+"remove_autoload", map[string]any{"name": "Aplha", "confirm": true}, "RESOURCE_NOT_FOUND", "'Alpha'")

		s.host.mustCall(t, ps+"remove_autoload", map[string]any{"name": "Alpha", "dry_run": true}, &al)
		if !al.DryRun || !slices.Equal(autoloadNames(al.Autoloads), []string{"Gamma", "Beta"}) {
			t.Fatalf("%+v", al)
		}
		s.host.mustCall(t, ps+"remove_autoload", map[string]any{"name": "Alpha", "confirm": true}, &al)
		if !al.Persisted || !slices.Equal(autoloadNames(al.Autoloads), []string{"Gamma", "Beta"}) {
			t.Fatalf("%+v", al)
		}
		// Undo puts Alpha back in its place, in the editor and in the file; redo removes it again.
		s.host.mustCall(t, "godot_undo", nil, nil)
		var list struct {
			Autoloads []autoloadEntry `json:"autoloads"`
		}
		s.host.mustCall(t, ps+"list_autoloads", nil, &list)
		if !slices.Equal(autoloadNames(list.Autoloads), []string{"Gamma", "Alpha", "Beta"}) {
			t.Fatalf("after undo: %+v", list)
		}
		if got := autoloadSection(readProjectGodot(t, s)); !slices.Equal(got, []string{"Gamma", "Alpha", "Beta"}) {
			t.Fatalf("[autoload] on disk after undo: %v", got)
		}
		s.host.mustCall(t, "godot_redo", nil, nil)
		s.host.mustCall(t, ps+"list_autoloads", nil, &list)
		if !slices.Equal(autoloadNames(list.Autoloads), []string{"Gamma", "Beta"}) {
			t.Fatalf("after redo: %+v", list)
		}
		s.host.mustCall(t, ps+"add_autoload", map[string]any{"name": "Alpha", "path": "res://autoloads/alpha.gd", "index": 1}, &al)
		if !al.Persisted || !slices.Equal(autoloadNames(al.Autoloads), []string{"Gamma", "Alpha", "Beta"}) || al.Autoloads[2].Singleton {
			t.Fatalf("%+v", al)
		}
	})

	// A save that fails is reported (persisted: false, with the reason), and
	// the same call once the file is writable again saves it.
	t.Run("failed save is reported", func(t *testing.T) {
		pg := filepath.Join(s.project, "project.godot")
		if err := os.Rename(pg, pg+".bak"); err != nil {
			t.Fatal(err)
		}
		restore := func() {
			if fi, err := os.Stat(pg); err == nil && fi.IsDir() {
				os.Remove(pg)
				os.Rename(pg+".bak", pg)
			}
		}
		t.Cleanup(restore)
		// A directory where the file was: no user, root included, can write it.
		if err := os.Mkdir(pg, 0o755); err != nil {
			t.Fatal(err)
		}
		args := map[string]any{"settings": map[string]any{"application/config/description": "Saved later"}}
		var out setSettingsResult
		s.host.mustCall(t, ps+"set_settings", args, &out)
		restore()
		if out.Persisted || !out.Undoable || len(out.Warnings) == 0 || !strings.Contains(out.Warnings[0], "Saving project.godot failed") {
			t.Fatalf("%+v", out)
		}
		s.host.mustCall(t, ps+"set_settings", args, &out)
		if !out.Persisted || out.Changes[0].Changed || out.Undoable {
			t.Fatalf("retry: %+v", out)
		}
		if !strings.Contains(readProjectGodot(t, s), `config/description="Saved later"`) {
			t.Fatal("the retry did not save project.godot")
		}
	})

	t.Run("fresh headless load", func(t *testing.T) {
		c := runProjectCheck(t, s.project)
		wantSettings := map[string][2]string{
			"application/config/name":                            {"String", `"Renamed"`},
			"display/window/size/viewport_width":                 {"int", "1152"},
			"display/window/size/viewport_height":                {"int", "720"},
			"display/window/stretch/mode":                        {"String", `"canvas_items"`},
			"rendering/environment/defaults/default_clear_color": {"Color", "Color(0.2, 0.4, 0.6, 1)"},
			"game/difficulty":                                    {"int", "3"},
			"game/spawn":                                         {"Vector2", "Vector2(1.5, -2)"},
			"game/tags":                                          {"PackedStringArray", `PackedStringArray("a", "b")`},
		}
		for k, want := range wantSettings {
			got := c.Settings[k]
			if got.Type != want[0] || got.Value != want[1] {
				t.Errorf("%s = %s %s, want %s %s", k, got.Type, got.Value, want[0], want[1])
			}
		}
		const (
			keySpace = 32
			keyA     = 65
			keyS     = 83
			keyLeft  = 4194319
		)
		jump := c.Actions["jump"]
		if len(jump.Events) != 3 || jump.Events[0]["class"] != "InputEventKey" || jump.Events[0]["physical_keycode"] != float64(keySpace) ||
			jump.Events[0]["keycode"] != 0.0 || jump.Events[1]["class"] != "InputEventJoypadButton" || jump.Events[1]["button_index"] != 0.0 ||
			jump.Events[2]["button_index"] != 1.0 || jump.Events[0]["device"] != -1.0 {
			t.Errorf("jump: %+v", jump)
		}
		ml := c.Actions["move_left"]
		if ml.Deadzone < 0.2499 || ml.Deadzone > 0.2501 || len(ml.Events) != 3 || ml.Events[0]["keycode"] != float64(keyA) ||
			ml.Events[1]["keycode"] != float64(keyLeft) || ml.Events[1]["shift"] != true ||
			ml.Events[2]["class"] != "InputEventJoypadMotion" || ml.Events[2]["axis"] != 0.0 || ml.Events[2]["axis_value"] != -1.0 {
			t.Errorf("move_left: %+v", ml)
		}
		save := c.Actions["save"]
		if len(save.Events) != 1 || save.Events[0]["keycode"] != float64(keyS) || save.Events[0]["ctrl"] != true {
			t.Errorf("save: %+v", save)
		}
		if ui, ok := c.Actions["ui_cancel"]; !ok || len(ui.Events) != 0 {
			t.Errorf("ui_cancel: %+v", ui)
		}
		if _, ok := c.Actions["crouch"]; ok {
			t.Error("the removed action crouch is still loaded")
		}
		want := map[string]string{
			"autoload/Gamma": "*res://autoloads/gamma.tscn",
			"autoload/Alpha": "*res://autoloads/alpha.gd",
			"autoload/Beta":  "res://autoloads/beta.gd",
		}
		for k, v := range want {
			if c.AutoloadSettings[k] != v {
				t.Errorf("%s = %q, want %q", k, c.AutoloadSettings[k], v)
			}
		}
		if len(c.AutoloadSettings) != 3 {
			t.Errorf("autoloads %v", c.AutoloadSettings)
		}
		if len(c.RootChildren) < 3 || !slices.Equal(c.RootChildren[:3], []string{"Gamma", "Alpha", "Beta"}) {
			t.Errorf("the game instantiated the autoloads as %v, want Gamma, Alpha, Beta first", c.RootChildren)
		}
	})
}

// A toolset enabled at start (GODOT_MCP_DEFAULT_TOOLSETS), before any editor
// is connected, ships its editor code on its first call once the editor is:
// the call works and the code is installed in the editor's project.
func TestProjectEnabledBeforeTheEditorConnects(t *testing.T) {
	project := newProject(t)
	h := startHostT(t, "ws://127.0.0.1:0", "GODOT_MCP_DEFAULT_TOOLSETS=project")
	type toolset struct {
		Name    string `json:"name"`
		Enabled bool   `json:"enabled"`
	}
	var list struct {
		Toolsets []toolset `json:"toolsets"`
	}
	for deadline := time.Now().Add(connectTimeout); ; time.Sleep(100 * time.Millisecond) {
		h.mustCall(t, "godot_list_toolsets", nil, &list)
		i := slices.IndexFunc(list.Toolsets, func(ts toolset) bool { return ts.Name == "project" })
		if i >= 0 && list.Toolsets[i].Enabled {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("project was never enabled: %+v", list)
		}
	}
	handlers := filepath.Join(project, "addons", "godot_mcp_ext", "project", "handlers.gd")
	if _, err := os.Stat(handlers); !os.IsNotExist(err) {
		t.Fatalf("editor code installed before any editor or project was known: %v", err)
	}
	e := startEditorT(t, project, h.url)
	waitEditor(t, h, e)
	var out struct {
		Settings map[string]any `json:"settings"`
	}
	h.mustCall(t, "godot_project_get_settings", map[string]any{"keys": []string{"application/config/name"}}, &out)
	if out.Settings["application/config/name"] != "E2E Sample" {
		t.Fatalf("first call: %+v", out)
	}
	if _, err := os.Stat(handlers); err != nil {
		t.Fatalf("the project toolset's editor code is not installed in the editor's project: %v", err)
	}
}
