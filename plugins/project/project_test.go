package project_test

import (
	"context"
	"encoding/json"
	"strings"
	"testing"
	"time"

	"github.com/godot-mcp/godot-mcp/plugins/project"
	"github.com/godot-mcp/godot-mcp/sdk"
	"github.com/godot-mcp/godot-mcp/sdk/sdktest"
)

// call runs one tool against a fresh fake editor that answers command with
// answer, and returns the result and what the editor received.
func call(t *testing.T, tool string, args any, command string, answer any, opts ...sdktest.CallOption) (*sdktest.Result, []sdktest.Command) {
	t.Helper()
	h := sdktest.Start(t, project.Toolset())
	if command != "" {
		h.Addon().HandleResult(command, answer)
	}
	res, err := h.Call(context.Background(), tool, args, opts...)
	if err != nil {
		t.Fatal(err)
	}
	return res, h.Addon().Received()
}

// sameJSON compares two JSON texts by value.
func sameJSON(t *testing.T, got json.RawMessage, want string) {
	t.Helper()
	var g, w any
	if err := json.Unmarshal(got, &g); err != nil {
		t.Fatalf("bad JSON %s: %v", got, err)
	}
	if err := json.Unmarshal([]byte(want), &w); err != nil {
		t.Fatalf("bad want JSON %s: %v", want, err)
	}
	gj, _ := json.Marshal(g)
	wj, _ := json.Marshal(w)
	if string(gj) != string(wj) {
		t.Fatalf("got  %s\nwant %s", gj, wj)
	}
}

// onlyCommand checks that exactly one command with these params was sent.
func onlyCommand(t *testing.T, got []sdktest.Command, command, params string) {
	t.Helper()
	if len(got) != 1 || got[0].Command != command {
		t.Fatalf("editor received %+v, want one %s", got, command)
	}
	sameJSON(t, got[0].Params, params)
}

func TestToolSurface(t *testing.T) {
	h := sdktest.Start(t, project.Toolset())
	want := map[string]sdk.Safety{
		"get_settings": sdk.ReadOnly, "set_settings": sdk.Mutating,
		"list_actions": sdk.ReadOnly, "set_action": sdk.Mutating, "remove_action": sdk.Destructive,
		"list_autoloads": sdk.ReadOnly, "add_autoload": sdk.Mutating, "remove_autoload": sdk.Destructive,
	}
	tools := h.Tools()
	if len(tools) != len(want) {
		t.Fatalf("%d tools, want %d", len(tools), len(want))
	}
	for _, tool := range tools {
		s, ok := want[tool.Name]
		if !ok {
			t.Fatalf("unexpected tool %s", tool.Name)
		}
		if tool.Safety != s {
			t.Errorf("%s: safety %s, want %s", tool.Name, tool.Safety, s)
		}
		if tool.DryRun != (s != sdk.ReadOnly) || tool.Confirm != (s == sdk.Destructive) {
			t.Errorf("%s: dry_run=%v confirm=%v", tool.Name, tool.DryRun, tool.Confirm)
		}
		if len(tool.Preconditions) != 1 || tool.Preconditions[0] != sdk.RequireBridgeConnected {
			t.Errorf("%s: preconditions %v", tool.Name, tool.Preconditions)
		}
		if tool.Description == "" || tool.Title == "" || !json.Valid(tool.InputSchema) || !json.Valid(tool.OutputSchema) {
			t.Errorf("%s: incomplete metadata", tool.Name)
		}
	}
}

// ---- settings ----

func TestGetSettings(t *testing.T) {
	answer := map[string]any{
		"settings":    map[string]any{"application/config/name": "Game", "display/window/size/viewport_width": 1280},
		"info":        map[string]any{"application/config/name": map[string]any{"type": "String", "hint": 0, "hint_string": "", "has_default": true, "default": "", "restart_required": false}},
		"missing":     []any{"application/config/nam"},
		"suggestions": map[string]any{"application/config/nam": []any{"application/config/name"}},
		"total":       412, "truncated": true, "next_cursor": "200",
	}
	res, got := call(t, "get_settings", map[string]any{
		"keys": []string{"application/config/name", "application/config/nam"}, "prefix": "display/", "cursor": "0", "with_info": true,
	}, "cmd_project_get_settings", answer)
	if res.Err != nil {
		t.Fatal(res.Err)
	}
	onlyCommand(t, got, "cmd_project_get_settings",
		`{"keys":["application/config/name","application/config/nam"],"prefix":"display/","limit":200,"cursor":"0","with_info":true}`)
	var out project.GetSettingsOut
	if err := res.Decode(&out); err != nil {
		t.Fatal(err)
	}
	if out.Settings["application/config/name"] != "Game" || out.Info["application/config/name"].Type != "String" ||
		out.Suggestions["application/config/nam"][0] != "application/config/name" || !out.Truncated || out.NextCursor != "200" || out.Total != 412 {
		t.Fatalf("%s", res.Structured)
	}
}

func TestGetSettingsEmptyAnswerHasArrays(t *testing.T) {
	res, _ := call(t, "get_settings", map[string]any{"prefix": "nothing/"}, "cmd_project_get_settings", map[string]any{})
	if res.Err != nil {
		t.Fatal(res.Err)
	}
	var raw map[string]json.RawMessage
	json.Unmarshal(res.Structured, &raw)
	if string(raw["settings"]) != "{}" || string(raw["missing"]) != "[]" {
		t.Fatalf("%s", res.Structured)
	}
}

// Arguments that cannot be right are refused before the editor sees them.
func TestRefusedBeforeTheEditor(t *testing.T) {
	ev := func(fields map[string]any) map[string]any { return fields }
	cases := []struct {
		name, tool string
		args       any
		hint       string
		opts       []sdktest.CallOption
	}{
		{"get nothing", "get_settings", map[string]any{}, "keys, a prefix", nil},
		{"get empty key", "get_settings", map[string]any{"keys": []string{""}}, "keys[0]", nil},
		{"get bad cursor", "get_settings", map[string]any{"prefix": "a/", "cursor": "abc"}, "cursor", nil},
		{"get negative cursor", "get_settings", map[string]any{"prefix": "a/", "cursor": "-1"}, "cursor", nil},
		{"get cursor without prefix", "get_settings", map[string]any{"keys": []string{"a/b"}, "cursor": "10"}, "same prefix", nil},
		{"get limit too big", "get_settings", map[string]any{"prefix": "a/", "limit": 5000}, "limit", nil},
		{"set nothing", "set_settings", map[string]any{}, "settings (key -> value)", nil},
		{"set input key", "set_settings", map[string]any{"settings": map[string]any{"input/jump": 1}}, "godot_project_set_action", nil},
		{"set autoload key", "set_settings", map[string]any{"settings": map[string]any{"autoload/Game": "*res://g.gd"}}, "godot_project_add_autoload", nil},
		{"reset input key", "set_settings", map[string]any{"reset": []string{"input/ui_accept"}}, "godot_project_set_action", nil},
		{"set key without section", "set_settings", map[string]any{"settings": map[string]any{"name": "x"}}, "section/name", nil},
		{"set key with =", "set_settings", map[string]any{"settings": map[string]any{"a/b=c": 1}}, "contains", nil},
		{"set key with spaces", "set_settings", map[string]any{"settings": map[string]any{" a/b": 1}}, "spaces", nil},
		{"set null", "set_settings", map[string]any{"settings": map[string]any{"application/config/name": nil}}, "reset", nil},
		{"set and reset", "set_settings", map[string]any{"settings": map[string]any{"a/b": 1}, "reset": []string{"a/b"}}, "both set and reset", nil},
		{"reset twice", "set_settings", map[string]any{"reset": []string{"a/b", "a/b"}}, "twice", nil},
		{"types without create", "set_settings", map[string]any{"settings": map[string]any{"game/level": 1}, "types": map[string]string{"game/level": "int"}}, "create: true", nil},
		{"types without value", "set_settings", map[string]any{"settings": map[string]any{"game/level": 1}, "create": true, "types": map[string]string{"game/other": "int"}}, "no value", nil},
		{"list actions bad cursor", "list_actions", map[string]any{"cursor": "x"}, "cursor", nil},
		{"action without name", "set_action", map[string]any{"name": ""}, "name", nil},
		{"action name with slash", "set_action", map[string]any{"name": "a/b"}, "not a valid action name", nil},
		{"action name with colon", "set_action", map[string]any{"name": "a:b"}, "not a valid action name", nil},
		{"action events and add", "set_action", map[string]any{"name": "jump", "events": []any{}, "add_events": []any{ev(map[string]any{"type": "key", "keycode": "Space"})}}, "do not combine", nil},
		{"deadzone above 1", "set_action", map[string]any{"name": "jump", "deadzone": 1.5}, "deadzone", nil},
		{"remove action bad name", "remove_action", map[string]any{"name": "a=b"}, "not a valid action name", []sdktest.CallOption{sdktest.Confirm()}},
		{"autoload bad name", "add_autoload", map[string]any{"name": "2Game", "path": "res://g.gd"}, "identifier", nil},
		{"autoload keyword", "add_autoload", map[string]any{"name": "func", "path": "res://g.gd"}, "keyword", nil},
		{"autoload path escapes", "add_autoload", map[string]any{"name": "Game", "path": "res://../g.gd"}, "leaves the project", nil},
		{"autoload absolute path", "add_autoload", map[string]any{"name": "Game", "path": "/etc/passwd"}, "res://", nil},
		{"autoload root path", "add_autoload", map[string]any{"name": "Game", "path": "res://"}, "script or scene file", nil},
		{"autoload negative index", "add_autoload", map[string]any{"name": "Game", "path": "res://g.gd", "index": -1}, "index", nil},
		{"remove autoload empty", "remove_autoload", map[string]any{"name": " "}, "name", []sdktest.CallOption{sdktest.Confirm()}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			res, got := call(t, tc.tool, tc.args, "", nil, tc.opts...)
			if res.Err == nil || res.Err.Code != sdk.CodeValidationError {
				t.Fatalf("got %+v / %s, want VALIDATION_ERROR", res.Err, res.Structured)
			}
			if !strings.Contains(res.Err.Hint, tc.hint) {
				t.Fatalf("hint %q does not mention %q", res.Err.Hint, tc.hint)
			}
			if len(got) != 0 {
				t.Fatalf("the editor received %+v", got)
			}
		})
	}
}

func TestSetSettingsParamsAndResult(t *testing.T) {
	answer := map[string]any{
		"changes": []any{
			map[string]any{"key": "application/config/name", "type": "String", "old": "Old", "new": "New", "changed": true, "is_default": false},
			map[string]any{"key": "display/window/size/viewport_width", "type": "int", "old": 1280, "new": 1152, "changed": true, "is_default": true, "restart_required": true},
		},
		"dry_run": false, "persisted": true, "undoable": true, "undo_action": "godot-mcp: set project settings (application/config/name, display/window/size/viewport_width)",
	}
	res, got := call(t, "set_settings", map[string]any{
		"settings": map[string]any{"application/config/name": "New"},
		"reset":    []string{"display/window/size/viewport_width"},
	}, "cmd_project_set_settings", answer)
	if res.Err != nil {
		t.Fatal(res.Err)
	}
	onlyCommand(t, got, "cmd_project_set_settings",
		`{"settings":{"application/config/name":"New"},"reset":["display/window/size/viewport_width"],"create":false,"types":{},"dry_run":false}`)
	var out project.SetSettingsOut
	res.Decode(&out)
	if len(out.Changes) != 2 || out.Changes[0].Old != "Old" || out.Changes[0].New != "New" || !out.Persisted || !out.Undoable || !out.Changes[1].RestartRequired {
		t.Fatalf("%s", res.Structured)
	}
}

func TestSetSettingsCreateWithTypes(t *testing.T) {
	res, got := call(t, "set_settings", map[string]any{
		"settings": map[string]any{"game/spawn": map[string]any{"x": 1, "y": 2}},
		"create":   true, "types": map[string]string{"game/spawn": "Vector2"},
	}, "cmd_project_set_settings", map[string]any{"changes": []any{}, "dry_run": false, "persisted": true, "undoable": true})
	if res.Err != nil {
		t.Fatal(res.Err)
	}
	onlyCommand(t, got, "cmd_project_set_settings",
		`{"settings":{"game/spawn":{"x":1,"y":2}},"reset":[],"create":true,"types":{"game/spawn":"Vector2"},"dry_run":false}`)
}

// Every mutating tool sends dry_run: true on a preview, and the preview's
// answer reaches the agent.
func TestDryRunReachesTheEditor(t *testing.T) {
	cases := []struct {
		tool, command string
		args          map[string]any
		opts          []sdktest.CallOption
	}{
		{"set_settings", "cmd_project_set_settings", map[string]any{"settings": map[string]any{"application/config/name": "X"}}, nil},
		{"set_action", "cmd_project_set_action", map[string]any{"name": "jump"}, nil},
		{"remove_action", "cmd_project_remove_action", map[string]any{"name": "jump"}, nil},
		{"add_autoload", "cmd_project_add_autoload", map[string]any{"name": "Game", "path": "res://game.gd"}, nil},
		{"remove_autoload", "cmd_project_remove_autoload", map[string]any{"name": "Game"}, nil},
	}
	for _, tc := range cases {
		t.Run(tc.tool, func(t *testing.T) {
			res, got := call(t, tc.tool, tc.args, tc.command, map[string]any{"dry_run": true, "persisted": false, "undoable": false}, sdktest.DryRun())
			if res.Err != nil {
				t.Fatal(res.Err)
			}
			if len(got) != 1 || got[0].Command != tc.command {
				t.Fatalf("received %+v", got)
			}
			var p struct {
				DryRun *bool `json:"dry_run"`
			}
			json.Unmarshal(got[0].Params, &p)
			if p.DryRun == nil || !*p.DryRun {
				t.Fatalf("params %s lack dry_run: true", got[0].Params)
			}
			var out struct {
				DryRun    bool `json:"dry_run"`
				Persisted bool `json:"persisted"`
			}
			res.Decode(&out)
			if !out.DryRun || out.Persisted {
				t.Fatalf("%s", res.Structured)
			}
		})
	}
}

// ---- input actions ----

func TestListActions(t *testing.T) {
	answer := map[string]any{
		"actions": []any{map[string]any{"name": "jump", "deadzone": 0.2, "builtin": false, "events": []any{
			map[string]any{"type": "key", "physical_keycode": "Space", "device": -1, "text": "Space (Physical)"},
			map[string]any{"type": "joypad_button", "button": "a", "device": -1, "text": "Joypad Button 0"},
		}}, map[string]any{"name": "idle", "deadzone": 0.5, "builtin": false, "events": nil}},
		"total": 3, "truncated": true, "next_cursor": "2",
	}
	res, got := call(t, "list_actions", map[string]any{"filter": "j", "limit": 2}, "cmd_project_list_actions", answer)
	if res.Err != nil {
		t.Fatal(res.Err)
	}
	onlyCommand(t, got, "cmd_project_list_actions", `{"filter":"j","include_builtin":false,"limit":2,"cursor":""}`)
	var out project.ListActionsOut
	res.Decode(&out)
	if len(out.Actions) != 2 || out.Actions[0].Events[0].PhysicalKeycode != "Space" || out.Actions[0].Events[1].Button != "a" ||
		out.Actions[1].Events == nil || !out.Truncated || out.NextCursor != "2" {
		t.Fatalf("%s", res.Structured)
	}
	if !strings.Contains(string(res.Structured), `"events":[]`) {
		t.Fatalf("an action without events must list events: [] (%s)", res.Structured)
	}
}

func TestSetActionSendsEventsAsGiven(t *testing.T) {
	events := []any{
		map[string]any{"type": "key", "physical_keycode": "W"},
		map[string]any{"type": "key", "keycode": "S", "ctrl": true, "shift": true},
		map[string]any{"type": "key", "keycode": "Shift", "location": "left"},
		map[string]any{"type": "mouse_button", "button": "left", "double_click": true},
		map[string]any{"type": "mouse_button", "button": 4},
		map[string]any{"type": "joypad_button", "button": "a", "device": 0},
		map[string]any{"type": "joypad_motion", "axis": "left_x", "direction": "negative"},
		map[string]any{"type": "joypad_motion", "axis": 5, "axis_value": 1},
	}
	answer := map[string]any{"name": "move", "created": true, "builtin": false, "old": nil,
		"new": map[string]any{"deadzone": 0.3, "events": events}, "changed": true, "dry_run": false, "persisted": true, "undoable": true}
	res, got := call(t, "set_action", map[string]any{"name": "move", "events": events, "deadzone": 0.3}, "cmd_project_set_action", answer)
	if res.Err != nil {
		t.Fatal(res.Err)
	}
	want, _ := json.Marshal(map[string]any{"name": "move", "events": events, "deadzone": 0.3, "add_events": []any{}, "remove_events": []any{}, "dry_run": false})
	onlyCommand(t, got, "cmd_project_set_action", string(want))
	var out project.SetActionOut
	res.Decode(&out)
	if !out.Created || out.Old != nil || len(out.New.Events) != len(events) || !out.Persisted {
		t.Fatalf("%s", res.Structured)
	}
}

// events: [] clears an action: the empty list must reach the editor, not
// vanish as "no events given".
func TestSetActionEmptyEventsClear(t *testing.T) {
	res, got := call(t, "set_action", map[string]any{"name": "ui_accept", "events": []any{}}, "cmd_project_set_action",
		map[string]any{"name": "ui_accept", "created": false, "builtin": true, "old": map[string]any{"deadzone": 0.5, "events": []any{}}, "new": map[string]any{"deadzone": 0.5}, "changed": true})
	if res.Err != nil {
		t.Fatal(res.Err)
	}
	onlyCommand(t, got, "cmd_project_set_action", `{"name":"ui_accept","events":[],"add_events":[],"remove_events":[],"dry_run":false}`)
	var out project.SetActionOut
	res.Decode(&out)
	if out.New.Events == nil || out.Old == nil || out.Old.Events == nil {
		t.Fatalf("%s", res.Structured)
	}
}

func TestSetActionAddRemove(t *testing.T) {
	add := []any{map[string]any{"type": "joypad_button", "button": "a"}}
	remove := []any{map[string]any{"type": "key", "keycode": "Space"}}
	res, got := call(t, "set_action", map[string]any{"name": "jump", "add_events": add, "remove_events": remove}, "cmd_project_set_action",
		map[string]any{"name": "jump", "new": map[string]any{"deadzone": 0.2, "events": add}})
	if res.Err != nil {
		t.Fatal(res.Err)
	}
	want, _ := json.Marshal(map[string]any{"name": "jump", "add_events": add, "remove_events": remove, "dry_run": false})
	onlyCommand(t, got, "cmd_project_set_action", string(want))
}

// Event shapes that cannot be right are refused with the field named.
func TestEventShapeRefusals(t *testing.T) {
	cases := []struct {
		name  string
		event map[string]any
		hint  string
	}{
		{"no type", map[string]any{"keycode": "A"}, "type"},
		{"unknown type", map[string]any{"type": "touch"}, "type"},
		{"other type", map[string]any{"type": "other"}, "is not one of"},
		{"output-only text", map[string]any{"type": "key", "keycode": "A", "text": "A"}, "text"},
		{"key without key", map[string]any{"type": "key", "ctrl": true}, "keycode"},
		{"key with button", map[string]any{"type": "key", "keycode": "A", "button": "left"}, "button does not apply"},
		{"mouse without button", map[string]any{"type": "mouse_button"}, "button is required"},
		{"mouse with keycode", map[string]any{"type": "mouse_button", "button": "left", "keycode": "A"}, "keycode does not apply"},
		{"mouse fractional index", map[string]any{"type": "mouse_button", "button": 1.5}, "integer"},
		{"mouse index 0", map[string]any{"type": "mouse_button", "button": 0}, "from 1"},
		{"mouse button bool", map[string]any{"type": "mouse_button", "button": true}, "name"},
		{"joypad button modifiers", map[string]any{"type": "joypad_button", "button": "a", "ctrl": true}, "does not apply"},
		{"joypad button index too big", map[string]any{"type": "joypad_button", "button": 128}, "from 0 to 127"},
		{"motion without direction", map[string]any{"type": "joypad_motion", "axis": "left_x"}, "direction"},
		{"motion without axis", map[string]any{"type": "joypad_motion", "direction": "positive"}, "axis is required"},
		{"motion zero value", map[string]any{"type": "joypad_motion", "axis": "left_x", "axis_value": 0}, "non-zero"},
		{"motion value out of range", map[string]any{"type": "joypad_motion", "axis": "left_x", "axis_value": 2}, "-1..1"},
		{"motion contradiction", map[string]any{"type": "joypad_motion", "axis": "left_x", "axis_value": -1, "direction": "positive"}, "contradicts"},
		{"motion axis too big", map[string]any{"type": "joypad_motion", "axis": 10, "direction": "positive"}, "from 0 to 9"},
		{"bad direction", map[string]any{"type": "joypad_motion", "axis": "left_x", "direction": "up"}, "direction"},
		{"cmd with ctrl", map[string]any{"type": "key", "keycode": "S", "command_or_control": true, "ctrl": true}, "command_or_control"},
		{"bad device", map[string]any{"type": "joypad_button", "button": "a", "device": -2}, "device"},
		{"bad location", map[string]any{"type": "key", "keycode": "Shift", "location": "middle"}, "location"},
		{"unknown field", map[string]any{"type": "key", "keycode": "A", "scancode": 3}, "scancode"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			res, got := call(t, "set_action", map[string]any{"name": "jump", "add_events": []any{map[string]any{"type": "key", "keycode": "A"}, tc.event}}, "", nil)
			if res.Err == nil || res.Err.Code != sdk.CodeValidationError {
				t.Fatalf("got %+v", res.Err)
			}
			if !strings.Contains(res.Err.Hint, tc.hint) {
				t.Fatalf("hint %q does not mention %q", res.Err.Hint, tc.hint)
			}
			if !strings.Contains(res.Err.Hint, "add_events[1]") && !strings.Contains(res.Err.Hint, "arguments.add_events[1]") {
				t.Fatalf("hint %q does not name the event", res.Err.Hint)
			}
			if len(got) != 0 {
				t.Fatalf("the editor received %+v", got)
			}
		})
	}
}

func TestRemoveActionNeedsConfirm(t *testing.T) {
	res, got := call(t, "remove_action", map[string]any{"name": "jump"}, "cmd_project_remove_action", map[string]any{})
	if res.Err == nil || res.Err.Code != sdk.CodePreconditionFailed || res.Err.Required != sdk.RequireConfirm {
		t.Fatalf("got %+v", res.Err)
	}
	if len(got) != 0 {
		t.Fatalf("the editor received %+v", got)
	}
	answer := map[string]any{"name": "jump", "removed": map[string]any{"deadzone": 0.2, "events": []any{map[string]any{"type": "key", "keycode": "Space", "device": -1}}},
		"dry_run": false, "persisted": true, "undoable": true, "undo_action": "godot-mcp: remove input action 'jump'"}
	res, got = call(t, "remove_action", map[string]any{"name": "jump"}, "cmd_project_remove_action", answer, sdktest.Confirm())
	if res.Err != nil {
		t.Fatal(res.Err)
	}
	onlyCommand(t, got, "cmd_project_remove_action", `{"name":"jump","dry_run":false}`)
	var out project.RemoveActionOut
	res.Decode(&out)
	if out.Removed.Events[0].Keycode != "Space" || !out.Undoable || !out.Persisted {
		t.Fatalf("%s", res.Structured)
	}
}

// ---- autoloads ----

func TestListAutoloads(t *testing.T) {
	answer := map[string]any{"autoloads": []any{
		map[string]any{"name": "Game", "path": "res://game.gd", "singleton": true, "index": 0},
		map[string]any{"name": "Music", "path": "res://music.tscn", "singleton": false, "index": 1},
	}}
	res, got := call(t, "list_autoloads", nil, "cmd_project_list_autoloads", answer)
	if res.Err != nil {
		t.Fatal(res.Err)
	}
	onlyCommand(t, got, "cmd_project_list_autoloads", `{}`)
	var out project.ListAutoloadsOut
	res.Decode(&out)
	if len(out.Autoloads) != 2 || out.Autoloads[1].Singleton || out.Autoloads[1].Index != 1 {
		t.Fatalf("%s", res.Structured)
	}
	res, _ = call(t, "list_autoloads", nil, "cmd_project_list_autoloads", map[string]any{})
	if !strings.Contains(string(res.Structured), `"autoloads":[]`) {
		t.Fatalf("%s", res.Structured)
	}
}

func TestAddAutoload(t *testing.T) {
	answer := map[string]any{
		"autoload":  map[string]any{"name": "Game", "path": "res://game.gd", "singleton": true, "index": 0},
		"autoloads": []any{map[string]any{"name": "Game", "path": "res://game.gd", "singleton": true, "index": 0}},
		"dry_run":   false, "persisted": true, "undoable": true, "editor_refreshed": true,
	}
	cases := []struct {
		name   string
		args   map[string]any
		params string
	}{
		{"defaults", map[string]any{"name": "Game", "path": "res://game.gd"}, `{"name":"Game","path":"res://game.gd","singleton":true,"index":-1,"dry_run":false}`},
		{"not singleton at 0", map[string]any{"name": "Game", "path": "res://./game.gd", "singleton": false, "index": 0}, `{"name":"Game","path":"res://game.gd","singleton":false,"index":0,"dry_run":false}`},
		{"unicode name", map[string]any{"name": "Spiel_2", "path": "res://a/b.tscn"}, `{"name":"Spiel_2","path":"res://a/b.tscn","singleton":true,"index":-1,"dry_run":false}`},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			res, got := call(t, "add_autoload", tc.args, "cmd_project_add_autoload", answer)
			if res.Err != nil {
				t.Fatal(res.Err)
			}
			onlyCommand(t, got, "cmd_project_add_autoload", tc.params)
			var out project.AutoloadChangeOut
			res.Decode(&out)
			if out.Autoload.Name != "Game" || !out.Persisted || !out.EditorRefreshed || len(out.Autoloads) != 1 {
				t.Fatalf("%s", res.Structured)
			}
		})
	}
}

func TestRemoveAutoload(t *testing.T) {
	answer := map[string]any{"autoload": map[string]any{"name": "Game", "path": "res://game.gd", "singleton": true, "index": 0},
		"dry_run": false, "persisted": true, "undoable": true, "editor_refreshed": true}
	res, got := call(t, "remove_autoload", map[string]any{"name": "Game"}, "cmd_project_remove_autoload", answer, sdktest.Confirm())
	if res.Err != nil {
		t.Fatal(res.Err)
	}
	onlyCommand(t, got, "cmd_project_remove_autoload", `{"name":"Game","dry_run":false}`)
	if !strings.Contains(string(res.Structured), `"autoloads":[]`) {
		t.Fatalf("%s", res.Structured)
	}
}

// ---- errors from the editor ----

// The editor's refusals (unknown keys with a did-you-mean, values that do
// not fit, missing actions and autoloads) reach the agent unchanged.
func TestEditorErrorsPassThrough(t *testing.T) {
	cases := []struct {
		tool, command string
		args          map[string]any
		err           sdk.Error
		opts          []sdktest.CallOption
	}{
		{"set_settings", "cmd_project_set_settings", map[string]any{"settings": map[string]any{"application/config/nam": "X"}},
			sdk.Error{Code: sdk.CodeValidationError, Hint: "Unknown setting 'application/config/nam'. Did you mean 'application/config/name'?"}, nil},
		{"set_settings", "cmd_project_set_settings", map[string]any{"settings": map[string]any{"display/window/size/viewport_width": "wide"}},
			sdk.Error{Code: sdk.CodeValidationError, Hint: "settings[display/window/size/viewport_width]: the value does not fit this int setting: expected an integer"}, nil},
		{"get_settings", "cmd_project_get_settings", map[string]any{"prefix": "a/"},
			sdk.Error{Code: sdk.CodeInternalError, Hint: "boom"}, nil},
		{"list_actions", "cmd_project_list_actions", nil, sdk.Error{Code: sdk.CodeInternalError, Hint: "boom"}, nil},
		{"set_action", "cmd_project_set_action", map[string]any{"name": "jump", "add_events": []any{map[string]any{"type": "key", "keycode": "Spcae"}}},
			sdk.Error{Code: sdk.CodeValidationError, Hint: "add_events[0].keycode: unknown key 'Spcae' (did you mean 'Space'?)"}, nil},
		{"remove_action", "cmd_project_remove_action", map[string]any{"name": "jmup"},
			sdk.Error{Code: sdk.CodeResourceNotFound, Hint: "No input action 'jmup'. Did you mean 'jump'?"}, []sdktest.CallOption{sdktest.Confirm()}},
		{"list_autoloads", "cmd_project_list_autoloads", nil, sdk.Error{Code: sdk.CodeInternalError, Hint: "boom"}, nil},
		{"add_autoload", "cmd_project_add_autoload", map[string]any{"name": "Node", "path": "res://g.gd"},
			sdk.Error{Code: sdk.CodeValidationError, Hint: "'Node' is an engine class"}, nil},
		{"add_autoload", "cmd_project_add_autoload", map[string]any{"name": "Game", "path": "res://nope.gd"},
			sdk.Error{Code: sdk.CodeResourceNotFound, Hint: "No file res://nope.gd."}, nil},
		{"remove_autoload", "cmd_project_remove_autoload", map[string]any{"name": "Gmae"},
			sdk.Error{Code: sdk.CodeResourceNotFound, Hint: "No autoload named 'Gmae'. Did you mean 'Game'?"}, []sdktest.CallOption{sdktest.Confirm()}},
	}
	for _, tc := range cases {
		t.Run(tc.tool+"/"+string(tc.err.Code), func(t *testing.T) {
			h := sdktest.Start(t, project.Toolset())
			e := tc.err
			h.Addon().HandleError(tc.command, &e)
			res, err := h.Call(context.Background(), tc.tool, tc.args, tc.opts...)
			if err != nil {
				t.Fatal(err)
			}
			if res.Err == nil || string(res.Err.Code) != string(tc.err.Code) || res.Err.Hint != tc.err.Hint {
				t.Fatalf("got %+v, want %+v", res.Err, tc.err)
			}
		})
	}
}

func TestEditorTooSlowIsTimeout(t *testing.T) {
	h := sdktest.Start(t, project.Toolset())
	h.Addon().Silence("cmd_project_list_autoloads")
	ctx, cancel := context.WithTimeout(context.Background(), 300*time.Millisecond)
	defer cancel()
	res, err := h.Call(ctx, "list_autoloads", nil)
	if err != nil {
		t.Fatal(err)
	}
	if res.Err == nil || res.Err.Code != sdk.CodeTimeout {
		t.Fatalf("got %+v", res.Err)
	}
}
