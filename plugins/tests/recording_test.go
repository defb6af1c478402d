//go:build unix

package tests_test

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/godot-mcp/godot-mcp/plugins/tests"
	"github.com/godot-mcp/godot-mcp/sdk"
	"github.com/godot-mcp/godot-mcp/sdk/sdktest"
)

// A recording's inputs (godot_playtest_record's file, docs/playtest.md) are
// write_playtest's inputs as they are, joypad buttons and axes included.
const recording = `{
	"format": "godot-mcp-recording", "version": 1, "unit": "physics_ticks", "frames": 40,
	"scene": "res://walker.tscn", "started_frozen": true,
	"inputs": [
		{"at": 2, "type": "key", "key": "Right", "state": "press"},
		{"at": 5, "type": "mouse_button", "button": "left", "state": "press", "position": {"x": 10.5, "y": 20}},
		{"at": 6, "type": "mouse_motion", "position": {"x": 12, "y": 20}, "relative": {"x": 1.5, "y": 0}},
		{"at": 7, "type": "mouse_button", "button": "left", "state": "release", "position": {"x": 12, "y": 20}},
		{"at": 8, "type": "action", "action": "jump", "state": "press", "strength": 0.5},
		{"at": 9, "type": "joypad_button", "index": 0, "state": "press"},
		{"at": 10, "type": "joypad_motion", "index": 1, "value": -0.75, "device": 1},
		{"at": 30, "type": "key", "key": "Right", "state": "release"}
	],
	"checkpoints": [{"at": 40, "expr": "position.x", "value": 96.5}]
}`

func TestWritePlaytestTakesARecording(t *testing.T) {
	project(t, map[string]string{"addons/gut/plugin.cfg": gutCfg, "walker.tscn": "[gd_scene format=3]\n\n[node name=\"W\" type=\"Node2D\"]\n"})
	var doc struct {
		Frames int               `json:"frames"`
		Inputs []json.RawMessage `json:"inputs"`
	}
	if err := json.Unmarshal([]byte(recording), &doc); err != nil {
		t.Fatal(err)
	}
	inputs := make([]any, len(doc.Inputs))
	for i, raw := range doc.Inputs {
		inputs[i] = raw
	}
	args := map[string]any{
		"path": "res://test/test_replayed.gd", "scene": "res://walker.tscn", "count": doc.Frames, "inputs": inputs,
		"checks": []any{map[string]any{"at": 40, "expr": "position.x == 96.5"}}, "run": false,
	}
	h := sdktest.Start(t, tests.Toolset())
	var dry struct{ Source string }
	if err := call(t, h, "write_playtest", args, sdktest.DryRun()).Decode(&dry); err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{
		`{"at":9,"type":"joypad_button","state":"press","index":0}`,
		`{"at":10,"type":"joypad_motion","index":1,"value":-0.75,"device":1}`,
		`"joypad_button":`, `jm.axis_value = float(s["value"]) if pressed else 0.0`,
		`{"at":2,"type":"key","key":"Right","state":"press"}`,
	} {
		if !strings.Contains(dry.Source, want) {
			t.Errorf("the script lacks %q:\n%s", want, dry.Source)
		}
	}
	args["inputs"] = []any{map[string]any{"at": 1, "type": "joypad_motion", "index": 0}}
	res := call(t, h, "write_playtest", args, sdktest.DryRun())
	if res.Err == nil || res.Err.Code != sdk.CodeValidationError || !strings.Contains(res.Err.Hint, "needs value") {
		t.Fatalf("joypad_motion without value: %+v", res.Err)
	}
}

// recording names the file instead of inputs: its inputs and frames are used.
func TestWritePlaytestFromARecordingFile(t *testing.T) {
	future := strings.Replace(recording, `"version": 1`, `"version": 2`, 1)
	project(t, map[string]string{"addons/gut/plugin.cfg": gutCfg, "walker.tscn": "[gd_scene format=3]\n\n[node name=\"W\" type=\"Node2D\"]\n",
		"playtests/walk.json": recording, "playtests/future.json": future})
	h := sdktest.Start(t, tests.Toolset())
	args := map[string]any{"path": "res://test/test_walk.gd", "scene": "res://walker.tscn", "recording": "res://playtests/walk.json",
		"checks": []any{map[string]any{"at": 40, "expr": "position.x == 96.5"}}, "run": false}
	var dry struct{ Source string }
	if err := call(t, h, "write_playtest", args, sdktest.DryRun()).Decode(&dry); err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"const COUNT := 40", `{"at":10,"type":"joypad_motion","index":1,"value":-0.75,"device":1}`, `{"at":30,"type":"key","key":"Right","state":"release"}`} {
		if !strings.Contains(dry.Source, want) {
			t.Errorf("the script lacks %q:\n%s", want, dry.Source)
		}
	}
	for rec, want := range map[string]struct {
		code sdk.ErrorCode
		hint string
	}{
		"res://playtests/wlk.json":    {sdk.CodeResourceNotFound, "res://playtests/walk.json"},
		"res://playtests/future.json": {sdk.CodeValidationError, "version is 2"},
		"res://playtests/walk.txt":    {sdk.CodeValidationError, ".json"},
	} {
		args["recording"] = rec
		res := call(t, h, "write_playtest", args, sdktest.DryRun())
		if res.Err == nil || res.Err.Code != want.code || !strings.Contains(res.Err.Hint, want.hint) {
			t.Errorf("%s: want %s with %q, got %+v", rec, want.code, want.hint, res.Err)
		}
	}
	args["recording"], args["inputs"] = "res://playtests/walk.json", []any{map[string]any{"at": 1, "type": "action", "action": "x"}}
	if res := call(t, h, "write_playtest", args, sdktest.DryRun()); res.Err == nil || !strings.Contains(res.Err.Hint, "not both") {
		t.Fatalf("recording and inputs: %+v", res.Err)
	}
}
