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
