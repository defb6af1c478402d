package playtest_test

import (
	"encoding/json"
	"reflect"
	"strings"
	"testing"

	pt "github.com/godot-mcp/godot-mcp/plugins/playtest"
	"github.com/godot-mcp/godot-mcp/sdk"
	"github.com/godot-mcp/godot-mcp/sdk/sdktest"
)

// The playtest tools run code (expressions can call any method): all four are
// declared runs_code, so GODOT_MCP_APPROVAL_SCOPE=code asks about them.
func TestPlaytestToolsRunCode(t *testing.T) {
	h := start(t)
	runs := map[string]bool{}
	for _, tool := range h.Tools() {
		runs[tool.Name] = tool.RunsCode
	}
	if len(runs) != 8 {
		t.Fatalf("%d tools, want 8: %v", len(runs), runs)
	}
	for _, name := range []string{"eval", "step", "wait_for", "watch", "record"} {
		if !runs[name] {
			t.Errorf("%s is not declared runs_code", name)
		}
	}
	// Listing controls and pointing at them run no agent code.
	for _, name := range []string{"controls", "interact", "digest"} {
		if runs[name] {
			t.Errorf("%s is declared runs_code", name)
		}
	}
}

// Each playtest tool sends one command with its defaults filled in and shapes
// the answer (never null lists or maps).
func TestPlaytestCommands(t *testing.T) {
	cases := []struct {
		tool, command, wantParams string
		args, answer              any
		check                     func(t *testing.T, r *sdktest.Result)
	}{
		{"eval", "cmd_playtest_eval", `{"code":"node.position.y","mode":"auto","timeout_ms":5000}`,
			map[string]any{"code": "node.position.y"},
			map[string]any{"value": 120.5, "type": "float", "mode": "expression", "node": "/root/Main", "duration_ms": 0, "frames": 0, "frozen": true},
			func(t *testing.T, r *sdktest.Result) {
				var out pt.EvalOut
				decode(t, r, &out)
				if out.Value != 120.5 || out.Mode != "expression" || !out.Frozen {
					t.Fatalf("%+v", out)
				}
			}},
		{"eval", "cmd_playtest_eval", `{"code":"await tree.process_frame\nreturn 1","node":"Player","mode":"snippet","timeout_ms":100}`,
			map[string]any{"code": "await tree.process_frame\nreturn 1", "node": "Player", "mode": "snippet", "timeout_ms": 100},
			map[string]any{"value": 1, "type": "int", "mode": "snippet", "node": "/root/Main/Player", "frames": 1}, nil},
		{"step", "cmd_playtest_step", `{"unit":"physics_ticks","count":10,"then":"freeze","timeout_ms":11000}`,
			map[string]any{"count": 10},
			map[string]any{"unit": "physics_ticks", "stepped": 10, "physics_ticks": 10, "process_frames": 10, "game_time_ms": 166.7, "wall_ms": 170, "frozen": true, "expired": "", "frame": 300, "physics_frame": 290},
			func(t *testing.T, r *sdktest.Result) {
				var out pt.StepOut
				decode(t, r, &out)
				if out.Stepped != 10 || !out.Frozen || out.Held != nil {
					t.Fatalf("%+v", out)
				}
				if !strings.Contains(string(r.Structured), `"values":{}`) || !strings.Contains(string(r.Structured), `"released_at_end":[]`) {
					t.Fatalf("values/released_at_end must be {} and []: %s", r.Structured)
				}
			}},
		// count 0 only freezes (or resumes); until defaults the bound to 600.
		{"step", "cmd_playtest_step", `{"unit":"physics_ticks","count":0,"then":"resume","timeout_ms":10000}`,
			map[string]any{"count": 0, "then": "resume"}, map[string]any{"frozen": false}, nil},
		{"step", "cmd_playtest_step",
			`{"unit":"process_frames","count":600,"then":"freeze","timeout_ms":70000,"until":{"expression":"position.y > 200"},"report":["position.y"],"node":"Body",` +
				`"inputs":[{"at":3,"type":"action","action":"right","state":"press"}]}`,
			map[string]any{"unit": "process_frames", "until": map[string]any{"expression": "position.y > 200"}, "report": []string{"position.y"}, "node": "Body",
				"inputs": []any{map[string]any{"at": 3, "type": "action", "action": "right", "state": "press"}}},
			map[string]any{"unit": "process_frames", "stepped": 42, "held": true, "until": "position.y > 200", "values": map[string]any{"position.y": 201.5}, "released_at_end": []string{"action right"}},
			func(t *testing.T, r *sdktest.Result) {
				var out pt.StepOut
				decode(t, r, &out)
				if out.Held == nil || !*out.Held || out.Stepped != 42 || out.Values["position.y"] != 201.5 || out.ReleasedAtEnd[0] != "action right" {
					t.Fatalf("%+v", out)
				}
			}},
		// play: the scene is sent on; the answer names the game started.
		{"step", "cmd_playtest_step", `{"unit":"process_frames","count":10,"then":"freeze","timeout_ms":11000,"play":"res://levels/one.tscn"}`,
			map[string]any{"unit": "process_frames", "count": 10, "play": "res://levels/one.tscn"},
			map[string]any{"unit": "process_frames", "stepped": 10, "process_frames": 10, "frozen": true, "started": map[string]any{"scene": "res://levels/one.tscn", "pid": 42, "output_cursor": 7}},
			func(t *testing.T, r *sdktest.Result) {
				var out pt.StepOut
				decode(t, r, &out)
				if out.Started == nil || out.Started.PID != 42 || out.Started.OutputCursor != 7 || out.Stepped != 10 {
					t.Fatalf("%+v", out)
				}
			}},
		{"controls", "cmd_playtest_controls", `{"text":"go","max":200}`,
			map[string]any{"text": "go"},
			map[string]any{"count": 1, "focus": "", "window": map[string]any{"x": 0, "y": 0, "w": 640, "h": 480},
				"controls": []any{map[string]any{"path": "/root/Main/Go", "class": "Button", "text": "Go", "rect": map[string]any{"x": 200, "y": 20, "w": 60, "h": 30}, "visible": true}}},
			func(t *testing.T, r *sdktest.Result) {
				var out pt.ControlsOut
				decode(t, r, &out)
				if len(out.Controls) != 1 || out.Controls[0].Rect.W != 60 || out.Controls[0].Text != "Go" {
					t.Fatalf("%+v", out)
				}
			}},
		{"interact", "cmd_playtest_interact", `{"action":"click","text":"Go","button":"left","frames":8,"amount":3}`,
			map[string]any{"action": "click", "text": "Go"},
			map[string]any{"action": "click", "target": map[string]any{"path": "/root/Main/Go", "class": "Button", "text": "Go", "point": map[string]any{"x": 230, "y": 35}}, "hovered": "/root/Main/Go", "frames": 2},
			func(t *testing.T, r *sdktest.Result) {
				var out pt.InteractOut
				decode(t, r, &out)
				if out.Target == nil || out.Target.Point.X != 230 || out.Frames != 2 || out.ReleasedAtEnd == nil {
					t.Fatalf("%+v", out)
				}
			}},
		{"interact", "cmd_playtest_interact", `{"action":"drag","node":"Slot1","to":{"text":"Bin"},"button":"left","frames":4,"amount":3}`,
			map[string]any{"action": "drag", "node": "Slot1", "to": map[string]any{"text": "Bin"}, "frames": 4},
			map[string]any{"action": "drag"}, nil},
		{"digest", "cmd_playtest_digest", `{"groups":["enemies"],"max_nodes":40}`,
			map[string]any{"groups": []string{"enemies"}},
			map[string]any{"scene": "res://main.tscn", "frame": 3, "nodes": []any{map[string]any{"path": "/root/Main/Body", "class": "RigidBody2D", "position": []float64{1, 2}, "velocity": []float64{0, 9.8}, "moving": true, "visible": true}}, "total": 1},
			func(t *testing.T, r *sdktest.Result) {
				var out pt.DigestOut
				decode(t, r, &out)
				if len(out.Nodes) != 1 || !out.Nodes[0].Moving || out.Nodes[0].Velocity[1] != 9.8 || out.Texts == nil {
					t.Fatalf("%+v", out)
				}
			}},
		{"wait_for", "cmd_playtest_wait_for", `{"until":{"group":"enemies","count_at_most":0},"max_frames":600,"timeout_ms":10000}`,
			map[string]any{"until": map[string]any{"group": "enemies", "count_at_most": 0}},
			map[string]any{"held": false, "until": "group enemies count <= 0", "expired": "frames", "frame": 900, "frames_waited": 600, "predicate_value": 2, "values": map[string]any{}},
			func(t *testing.T, r *sdktest.Result) {
				var out pt.WaitForOut
				decode(t, r, &out)
				if out.Held || out.Expired != "frames" || out.PredicateValue != float64(2) {
					t.Fatalf("%+v", out)
				}
			}},
		{"wait_for", "cmd_playtest_wait_for", `{"until":{"signal":"pressed"},"node":"Button","report":["text"],"max_frames":5,"timeout_ms":200}`,
			map[string]any{"until": map[string]any{"signal": "pressed"}, "node": "Button", "report": []string{"text"}, "max_frames": 5, "timeout_ms": 200},
			map[string]any{"held": true, "until": "signal pressed of /root/Main/Button", "frame": 12, "values": map[string]any{"text": "Go"}}, nil},
		{"watch", "cmd_playtest_watch", `{"expressions":["position.y"],"every":1,"frames":60,"max_samples":600,"max_bytes":262144,"timeout_ms":13000}`,
			map[string]any{"expressions": []string{"position.y"}},
			map[string]any{"expressions": []string{"position.y"}, "every": 1, "frames_watched": 2, "bytes": 100, "truncated": false, "truncated_by": "",
				"samples": []any{map[string]any{"frame": 0, "process_frame": 10, "game_time_ms": 0, "values": []any{1.0}}, map[string]any{"frame": 1, "process_frame": 11, "game_time_ms": 16.6, "values": []any{2.0}}}},
			func(t *testing.T, r *sdktest.Result) {
				var out pt.WatchOut
				decode(t, r, &out)
				if len(out.Samples) != 2 || out.Samples[1].Values[0] != 2.0 {
					t.Fatalf("%+v", out)
				}
			}},
	}
	for _, tc := range cases {
		t.Run(tc.tool, func(t *testing.T) {
			h := start(t)
			h.Addon().HandleResult(tc.command, tc.answer)
			res := h.MustCall(t, tc.tool, tc.args)
			jsonEq(t, []byte(mustJSON(t, h.LastParams(t, tc.command))), tc.wantParams)
			if tc.check != nil {
				tc.check(t, res)
			}
		})
	}
}

// Bad input is refused before the editor, saying what is wrong.
func TestPlaytestRefusedBeforeTheEditor(t *testing.T) {
	cases := []struct {
		tool string
		args any
		hint string
	}{
		{"eval", map[string]any{"code": "  "}, "code is empty"},
		{"eval", map[string]any{"code": "1", "mode": "lua"}, "mode"},
		{"eval", map[string]any{"code": "1", "timeout_ms": 120000}, "timeout_ms"},
		{"eval", map[string]any{"code": "1", "node": "a\x00b"}, "NUL"},
		{"step", map[string]any{"count": 40000}, "count"},
		{"step", map[string]any{"unit": "seconds"}, "unit"},
		{"step", map[string]any{"then": "pause"}, "then"},
		{"step", map[string]any{"until": map[string]any{}}, "exactly one of"},
		{"step", map[string]any{"until": map[string]any{"expression": "x", "signal": "y"}}, "got 2"},
		{"step", map[string]any{"count": 5, "inputs": []any{map[string]any{"at": 9, "type": "action", "action": "jump"}}}, "beyond the window of 5"},
		{"step", map[string]any{"count": 5, "inputs": []any{map[string]any{"at": 1}}}, "type"},
		{"step", map[string]any{"count": 5, "report": []string{""}}, "report[0] is empty"},
		{"wait_for", map[string]any{}, "until"},
		{"wait_for", map[string]any{"until": map[string]any{}}, "exactly one of"},
		{"wait_for", map[string]any{"until": map[string]any{"group": "enemies"}}, "count_at_least"},
		{"wait_for", map[string]any{"until": map[string]any{"expression": "x", "count_at_most": 1}}, "belong to a group"},
		{"wait_for", map[string]any{"until": map[string]any{"expression": "x"}, "max_frames": 100000}, "max_frames"},
		{"wait_for", map[string]any{"until": map[string]any{"expression": "x"}, "report": make([]string, 17)}, "report"},
		{"watch", map[string]any{}, "expressions"},
		{"watch", map[string]any{"expressions": []string{"x"}, "every": 0, "frames": 100000}, "frames"},
		{"watch", map[string]any{"expressions": []string{"x"}, "max_bytes": 10}, "max_bytes"},
		{"step", map[string]any{"play": "res://../outside.tscn"}, "play"},
		{"step", map[string]any{"play": "res://player.gd"}, "not a scene file"},
		{"controls", map[string]any{"max": 5000}, "max"},
		{"interact", map[string]any{"action": "poke", "text": "Go"}, "is not one of"},
		{"interact", map[string]any{"action": "click"}, "needs a target"},
		{"interact", map[string]any{"action": "click", "node": "Go", "text": "Go"}, "not both"},
		{"interact", map[string]any{"action": "type_text"}, "needs value"},
		{"interact", map[string]any{"action": "drag", "text": "Go"}, "drag needs to"},
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

// The game's refusals reach the agent unchanged.
func TestPlaytestRefusalsPassThrough(t *testing.T) {
	cases := []struct {
		tool, command string
		args          any
		err           *sdk.Error
	}{
		{"eval", "cmd_playtest_eval", map[string]any{"code": "1"}, &sdk.Error{Code: sdk.CodePreconditionFailed, Hint: "No game is running. Start one with godot_runtime_play.", Required: sdk.RequireRuntimeProbe}},
		{"eval", "cmd_playtest_eval", map[string]any{"code": "var x = \n"}, &sdk.Error{Code: sdk.CodeValidationError, Hint: "The code does not compile: line 1: Expected expression."}},
		{"eval", "cmd_playtest_eval", map[string]any{"code": "while true: pass"}, &sdk.Error{Code: sdk.CodeTimeout, Hint: "The snippet ran longer than its time limit (5000 ms) and was cut in the loop at line 1."}},
		{"eval", "cmd_playtest_eval", map[string]any{"code": "1", "node": "Playr"}, &sdk.Error{Code: sdk.CodeResourceNotFound, Hint: "No node at 'Playr' in the running game. Nearest: /root/Main/Player."}},
		{"step", "cmd_playtest_step", map[string]any{"count": 1, "until": map[string]any{"signal": "presed"}}, &sdk.Error{Code: sdk.CodeValidationError, Hint: "Button '/root/Main/Button' has no signal 'presed'. Did you mean pressed?"}},
		{"wait_for", "cmd_playtest_wait_for", map[string]any{"until": map[string]any{"expression": "x >"}}, &sdk.Error{Code: sdk.CodeValidationError, Hint: "until.expression 'x >' does not parse: Expected expression."}},
		{"watch", "cmd_playtest_watch", map[string]any{"expressions": []string{"y"}}, &sdk.Error{Code: sdk.CodePreconditionFailed, Hint: "The game is frozen (godot_playtest_step)."}},
		{"interact", "cmd_playtest_interact", map[string]any{"action": "click", "text": "Secret"}, &sdk.Error{Code: sdk.CodePreconditionFailed, Hint: "click: Button /root/Main/Secret is hidden (not visible in the tree); nothing was sent. Visible controls: \"Go\" (Button /root/Main/Go)."}},
		{"interact", "cmd_playtest_interact", map[string]any{"action": "click", "text": "Og"}, &sdk.Error{Code: sdk.CodeResourceNotFound, Hint: "No control shows the text \"Og\"; nothing was sent."}},
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

func start(t *testing.T) *sdktest.Harness {
	t.Helper()
	return sdktest.Start(t, pt.Toolset())
}

func decode(t *testing.T, r *sdktest.Result, v any) {
	t.Helper()
	if err := r.Decode(v); err != nil {
		t.Fatal(err)
	}
}

func jsonEq(t *testing.T, got []byte, want string) {
	t.Helper()
	var g, w any
	if err := json.Unmarshal(got, &g); err != nil {
		t.Fatalf("bad JSON %s: %v", got, err)
	}
	if err := json.Unmarshal([]byte(want), &w); err != nil {
		t.Fatalf("bad wanted JSON %s: %v", want, err)
	}
	if !reflect.DeepEqual(g, w) {
		t.Fatalf("got  %s\nwant %s", got, want)
	}
}

func mustJSON(t *testing.T, v any) string {
	t.Helper()
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}
