package playtest_test

import (
	"strings"
	"testing"

	pt "github.com/godot-mcp/godot-mcp/plugins/playtest"
	"github.com/godot-mcp/godot-mcp/sdk"
)

// record sends one command: start with its path (a bare name goes to
// res://playtests/NAME.json), unit and checkpoints; stop and discard alone.
// The answer never has a null checkpoints list.
func TestRecordCommands(t *testing.T) {
	cases := []struct {
		args       map[string]any
		wantParams string
		answer     map[string]any
	}{
		{map[string]any{"action": "start", "path": "jump"},
			`{"action":"start","path":"res://playtests/jump.json","unit":"physics_ticks","checkpoints":[],"overwrite":false}`,
			map[string]any{"action": "start", "path": "res://playtests/jump.json", "recording": true, "unit": "physics_ticks"}},
		{map[string]any{"action": "start", "path": "res://qa/run.json", "unit": "process_frames", "checkpoints": []any{map[string]any{"at": 60, "expr": "position", "node": "Player"}}},
			`{"action":"start","path":"res://qa/run.json","unit":"process_frames","checkpoints":[{"at":60,"expr":"position","node":"Player"}],"overwrite":false}`,
			map[string]any{"action": "start", "path": "res://qa/run.json", "recording": true, "unit": "process_frames"}},
		{map[string]any{"action": "stop"}, `{"action":"stop"}`,
			map[string]any{"action": "stop", "path": "res://playtests/jump.json", "saved": true, "unit": "physics_ticks", "frames": 120, "inputs": 4,
				"checkpoints": []any{map[string]any{"at": 60, "expr": "position", "value": map[string]any{"x": 10, "y": 20}}}, "ended": "stop"}},
		{map[string]any{"action": "discard"}, `{"action":"discard"}`, map[string]any{"action": "discard", "path": "res://playtests/jump.json"}},
	}
	for _, tc := range cases {
		t.Run(tc.args["action"].(string), func(t *testing.T) {
			h := start(t)
			h.Addon().HandleResult("cmd_playtest_record", tc.answer)
			res := h.MustCall(t, "record", tc.args)
			jsonEq(t, []byte(mustJSON(t, h.LastParams(t, "cmd_playtest_record"))), tc.wantParams)
			var out pt.RecordOut
			decode(t, res, &out)
			if out.Checkpoints == nil || out.Path != tc.answer["path"] {
				t.Fatalf("%+v", out)
			}
			if tc.args["action"] == "stop" && (out.Frames != 120 || out.Inputs != 4 || !out.Saved || out.Checkpoints[0].At != 60) {
				t.Fatalf("%+v", out)
			}
		})
	}
}

// Replacing a recording is destructive: overwrite needs confirm.
func TestRecordOverwriteNeedsConfirm(t *testing.T) {
	h := start(t)
	h.Addon().HandleResult("cmd_playtest_record", map[string]any{"action": "start"})
	res := h.MustCall(t, "record", map[string]any{"action": "start", "path": "jump", "overwrite": true})
	if res.Err == nil || !strings.Contains(strings.ToLower(res.Err.Hint), "confirm") {
		t.Fatalf("overwrite without confirm: %+v", res.Err)
	}
	if n := len(h.Addon().Received()); n != 0 {
		t.Fatalf("%d commands reached the editor", n)
	}
}

// A replay sends the recording's path and leaves count, unit and the time
// bound to the recording unless given; the answer's divergence is [] when
// every checkpoint matched, and lists the ones that differ.
func TestStepReplay(t *testing.T) {
	h := start(t)
	h.Addon().HandleResult("cmd_playtest_step", map[string]any{"unit": "physics_ticks", "stepped": 120, "frozen": true, "replay": "res://playtests/jump.json", "checkpoints_checked": 2})
	res := h.MustCall(t, "step", map[string]any{"replay": "jump", "play": "main"})
	jsonEq(t, []byte(mustJSON(t, h.LastParams(t, "cmd_playtest_step"))), `{"then":"freeze","replay":"res://playtests/jump.json","play":"main"}`)
	if !strings.Contains(string(res.Structured), `"divergence":[]`) || !strings.Contains(string(res.Structured), `"checkpoints_checked":2`) {
		t.Fatalf("a replay that matched must say divergence [] and how many were checked: %s", res.Structured)
	}

	h = start(t)
	h.Addon().HandleResult("cmd_playtest_step", map[string]any{"unit": "physics_ticks", "stepped": 30, "replay": "res://qa/run.json", "checkpoints_checked": 1,
		"divergence": []any{map[string]any{"at": 30, "expr": "position.x", "node": "Player", "recorded": 120.5, "replayed": 98.25}}})
	res = h.MustCall(t, "step", map[string]any{"replay": "res://qa/run.json", "count": 30, "unit": "physics_ticks"})
	jsonEq(t, []byte(mustJSON(t, h.LastParams(t, "cmd_playtest_step"))), `{"then":"freeze","replay":"res://qa/run.json","count":30,"unit":"physics_ticks","timeout_ms":13000}`)
	var out pt.StepOut
	decode(t, res, &out)
	if out.Divergence == nil || len(*out.Divergence) != 1 {
		t.Fatalf("%+v", out)
	}
	d := (*out.Divergence)[0]
	if d.At != 30 || d.Expr != "position.x" || d.Node != "Player" || d.Recorded != 120.5 || d.Replayed != 98.25 {
		t.Fatalf("%+v", d)
	}
}

// Joypad buttons and axes are timeline inputs like the others.
func TestStepJoypadInputs(t *testing.T) {
	h := start(t)
	h.Addon().HandleResult("cmd_playtest_step", map[string]any{"unit": "physics_ticks", "stepped": 10})
	h.MustCall(t, "step", map[string]any{"count": 10, "inputs": []any{
		map[string]any{"at": 0, "type": "joypad_button", "index": 0, "state": "press"},
		map[string]any{"at": 2, "type": "joypad_motion", "index": 0, "value": -0.5, "device": 1},
	}})
	jsonEq(t, []byte(mustJSON(t, h.LastParams(t, "cmd_playtest_step")["inputs"])),
		`[{"at":0,"type":"joypad_button","index":0,"state":"press"},{"at":2,"type":"joypad_motion","index":0,"value":-0.5,"device":1}]`)
	h.MustFail(t, "step", map[string]any{"count": 10, "inputs": []any{map[string]any{"at": 0, "type": "joypad_motion", "index": 0, "value": 2}}}, sdk.CodeValidationError, "value")
}

// Bad record and replay arguments are refused before the editor.
func TestRecordRefusedBeforeTheEditor(t *testing.T) {
	cases := []struct {
		tool string
		args any
		hint string
	}{
		{"record", map[string]any{"action": "pause"}, "action"},
		{"record", map[string]any{}, "action"},
		{"record", map[string]any{"action": "start"}, "path"},
		{"record", map[string]any{"action": "start", "path": "res://playtests/jump.txt"}, "must end in .json"},
		{"record", map[string]any{"action": "start", "path": "res://../jump.json"}, "path"},
		{"record", map[string]any{"action": "start", "path": "jump", "checkpoints": []any{map[string]any{"at": 3, "expr": " "}}}, "checkpoints[0].expr is empty"},
		{"record", map[string]any{"action": "start", "path": "jump", "unit": "seconds"}, "unit"},
		{"step", map[string]any{"replay": "jump", "inputs": []any{map[string]any{"at": 0, "type": "action", "action": "jump"}}}, "not both"},
		{"step", map[string]any{"replay": "res://playtests/jump.tscn"}, "must end in .json"},
	}
	for _, tc := range cases {
		t.Run(tc.tool, func(t *testing.T) {
			h := start(t)
			h.MustFail(t, tc.tool, tc.args, sdk.CodeValidationError, tc.hint)
			if n := len(h.Addon().Received()); n != 0 {
				t.Fatalf("%d commands reached the editor", n)
			}
		})
	}
}

// The editor's refusals reach the agent unchanged: no game, already
// recording, an unknown recording (with the ones that exist), a recording
// that is malformed or too new (naming the field).
func TestRecordRefusalsPassThrough(t *testing.T) {
	cases := []struct {
		tool, command string
		args          any
		err           *sdk.Error
	}{
		{"record", "cmd_playtest_record", map[string]any{"action": "start", "path": "jump"}, &sdk.Error{Code: sdk.CodePreconditionFailed, Hint: "No game is running. Start one with godot_runtime_play.", Required: sdk.RequireRuntimeProbe}},
		{"record", "cmd_playtest_record", map[string]any{"action": "start", "path": "jump"}, &sdk.Error{Code: sdk.CodePreconditionFailed, Hint: "Already recording to res://playtests/walk.json"}},
		{"record", "cmd_playtest_record", map[string]any{"action": "stop"}, &sdk.Error{Code: sdk.CodePreconditionFailed, Hint: "Nothing is being recorded."}},
		{"step", "cmd_playtest_step", map[string]any{"replay": "jmp"}, &sdk.Error{Code: sdk.CodeResourceNotFound, Hint: "No recording at res://playtests/jmp.json. Did you mean res://playtests/jump.json? Recordings: res://playtests/jump.json."}},
		{"step", "cmd_playtest_step", map[string]any{"replay": "future"}, &sdk.Error{Code: sdk.CodeValidationError, Hint: "The recording res://playtests/future.json is not one godot-mcp can replay: version is 2, newer than this godot-mcp reads (up to 1)"}},
	}
	for _, tc := range cases {
		t.Run(tc.tool+"/"+string(tc.err.Code), func(t *testing.T) {
			h := start(t)
			h.Addon().HandleError(tc.command, tc.err)
			res := h.MustFail(t, tc.tool, tc.args, tc.err.Code, tc.err.Hint)
			if res.Err.Required != tc.err.Required {
				t.Fatalf("required %q, want %q", res.Err.Required, tc.err.Required)
			}
		})
	}
}
