package runtime_test

import (
	"bytes"
	"context"
	"encoding/base64"
	"encoding/json"
	"image"
	"image/color"
	"image/png"
	"reflect"
	"strings"
	"testing"

	rt "github.com/godot-mcp/godot-mcp/plugins/runtime"
	"github.com/godot-mcp/godot-mcp/sdk"
	"github.com/godot-mcp/godot-mcp/sdk/sdktest"
)

func start(t *testing.T) *sdktest.Harness {
	t.Helper()
	return sdktest.Start(t, rt.Toolset())
}

// jsonEq compares two JSON texts semantically.
func jsonEq(t *testing.T, got json.RawMessage, want string) {
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

func TestToolSurface(t *testing.T) {
	h := start(t)
	want := map[string]sdk.Safety{
		"play": sdk.Runtime, "stop": sdk.Runtime, "get_status": sdk.ReadOnly, "get_output": sdk.ReadOnly,
		"get_errors": sdk.ReadOnly, "get_tree": sdk.ReadOnly, "get_node": sdk.ReadOnly,
		"set_properties": sdk.Runtime, "call_method": sdk.Runtime, "input": sdk.Runtime,
		"screenshot": sdk.ReadOnly, "get_performance": sdk.ReadOnly, "pause": sdk.Runtime,
		"run_headless": sdk.Runtime,
	}
	tools := h.Tools()
	if len(tools) != len(want) {
		t.Fatalf("%d tools, want %d", len(tools), len(want))
	}
	for _, tool := range tools {
		safety, ok := want[tool.Name]
		if !ok {
			t.Errorf("unexpected tool %s", tool.Name)
			continue
		}
		if tool.Safety != safety {
			t.Errorf("%s: safety %s, want %s", tool.Name, tool.Safety, safety)
		}
		if tool.DryRun || tool.Confirm {
			t.Errorf("%s: runtime tools take neither dry_run nor confirm", tool.Name)
		}
		// The editor answers runtime_probe/game_not_breaked itself; run_headless
		// works without an editor, so it declares nothing at all.
		wantPre := []string{sdk.RequireBridgeConnected}
		if tool.Name == "run_headless" {
			wantPre = nil
		}
		if !reflect.DeepEqual(tool.Preconditions, wantPre) && !(len(tool.Preconditions) == 0 && len(wantPre) == 0) {
			t.Errorf("%s: preconditions %v, want %v", tool.Name, tool.Preconditions, wantPre)
		}
		if tool.Description == "" || tool.Title == "" {
			t.Errorf("%s: missing title or description", tool.Name)
		}
	}
}

// Each tool sends exactly one command with exactly these params and shapes the
// editor's answer.
func TestCommandsAndResults(t *testing.T) {
	pngData := testPNG(t, 4, 3)
	cases := []struct {
		tool       string
		args       any
		command    string
		wantParams string
		answer     any
		check      func(t *testing.T, r *sdktest.Result)
	}{
		{"play", nil, "cmd_runtime_play", `{"scene":"main","display":"auto","timeout_ms":20000}`,
			map[string]any{"playing": true, "scene": "res://main.tscn", "pid": 42, "session_id": 0, "probe_connected": true, "paused": false,
				"headless": true, "restarted": false, "output_cursor": 7, "errors_cursor": 2, "startup_ms": 900},
			func(t *testing.T, r *sdktest.Result) {
				var out rt.PlayOut
				decode(t, r, &out)
				if !out.Playing || out.PID != 42 || out.OutputCursor != 7 || out.ErrorsCursor != 2 || !out.Headless || out.Breaked {
					t.Fatalf("%+v", out)
				}
				// An answer without the break fields still has them, break_stack [] not null.
				if !strings.Contains(string(r.Structured), `"break_stack":[]`) || !strings.Contains(string(r.Structured), `"break_reason":""`) {
					t.Fatalf("break fields missing: %s", r.Structured)
				}
			}},
		// Stopped at a breakpoint before the probe reported in: ok, with where and why.
		{"play", map[string]any{"scene": "res://main.tscn"}, "cmd_runtime_play", `{"scene":"res://main.tscn","display":"auto","timeout_ms":20000}`,
			map[string]any{"playing": true, "scene": "res://main.tscn", "pid": 42, "session_id": 0, "probe_connected": false, "paused": false,
				"headless": true, "restarted": false, "output_cursor": 7, "errors_cursor": 2, "startup_ms": 900,
				"breaked": true, "break_reason": "breakpoint", "break_message": "",
				"break_stack": []any{map[string]any{"file": "res://main.gd", "line": 28, "function": "_ready"}},
				"note":        "The game started and is stopped in the debugger before its probe reported in. The game is stopped at a breakpoint at res://main.gd:28 in _ready()."},
			func(t *testing.T, r *sdktest.Result) {
				var out rt.PlayOut
				decode(t, r, &out)
				if !out.Playing || out.ProbeConnected || !out.Breaked || out.BreakReason != "breakpoint" || len(out.BreakStack) != 1 ||
					out.BreakStack[0].Line != 28 || !strings.Contains(out.Note, "res://main.gd:28") {
					t.Fatalf("%+v", out)
				}
			}},
		{"play", map[string]any{"scene": "res://levels/./one.tscn", "display": "window", "timeout_ms": 5000}, "cmd_runtime_play",
			`{"scene":"res://levels/one.tscn","display":"window","timeout_ms":5000}`, map[string]any{"playing": true}, nil},
		{"play", map[string]any{"scene": "current"}, "cmd_runtime_play", `{"scene":"current","display":"auto","timeout_ms":20000}`, map[string]any{"playing": true}, nil},
		{"stop", nil, "cmd_runtime_stop", `{}`, map[string]any{"was_playing": true, "stopped": true, "scene": "res://main.tscn", "output_cursor": 12},
			func(t *testing.T, r *sdktest.Result) {
				var out rt.StopOut
				decode(t, r, &out)
				if !out.WasPlaying || !out.Stopped || out.OutputCursor != 12 {
					t.Fatalf("%+v", out)
				}
			}},
		{"get_status", nil, "cmd_runtime_get_status", `{}`,
			map[string]any{"playing": true, "scene": "res://main.tscn", "session_id": 0, "pid": 9, "probe_connected": true, "probe_registered": true,
				"paused": true, "time_scale": 0.5, "breaked": false, "break_reason": "", "break_message": "", "break_stack": []any{}, "headless": true,
				"output_cursor": 3, "errors_cursor": 1, "probe_responding": true, "process_frames": 120, "fps": 60},
			func(t *testing.T, r *sdktest.Result) {
				var out rt.StatusOut
				decode(t, r, &out)
				if !out.Paused || out.TimeScale != 0.5 || out.ProbeResponding == nil || !*out.ProbeResponding || out.ProcessFrames == nil || *out.ProcessFrames != 120 {
					t.Fatalf("%+v", out)
				}
			}},
		{"get_status", nil, "cmd_runtime_get_status", `{}`, map[string]any{"playing": false, "session_id": -1},
			func(t *testing.T, r *sdktest.Result) {
				if !strings.Contains(string(r.Structured), `"break_stack":[]`) {
					t.Fatalf("break_stack must be [] not null: %s", r.Structured)
				}
			}},
		{"get_status", nil, "cmd_runtime_get_status", `{}`,
			map[string]any{"playing": true, "session_id": 0, "breaked": true, "break_reason": "script_error", "break_message": "Invalid access to property or key 'x'",
				"break_stack": []any{map[string]any{"file": "res://main.gd", "line": 12, "function": "explode"}}},
			func(t *testing.T, r *sdktest.Result) {
				var out rt.StatusOut
				decode(t, r, &out)
				if !out.Breaked || out.BreakReason != "script_error" || !strings.Contains(out.BreakMessage, "'x'") || out.BreakStack[0].Function != "explode" {
					t.Fatalf("%+v", out)
				}
			}},
		{"get_output", nil, "cmd_runtime_get_output", `{"limit":200}`,
			map[string]any{"entries": []any{
				map[string]any{"seq": 5, "kind": "log", "text": "hello", "session": 0, "time_ms": 100},
				map[string]any{"seq": 6, "kind": "error", "text": "boom", "file": "res://main.gd", "line": 12, "function": "explode",
					"stack": []any{map[string]any{"file": "res://main.gd", "line": 12, "function": "explode"}}, "session": 0, "time_ms": 101},
			}, "next_cursor": 7, "truncated": false, "dropped": 0, "oldest_cursor": 1, "cursor_reset": false, "playing": true},
			func(t *testing.T, r *sdktest.Result) {
				var out rt.ReadOut
				decode(t, r, &out)
				if len(out.Entries) != 2 || out.NextCursor != 7 || out.Entries[1].Stack[0].Line != 12 || out.Entries[1].File != "res://main.gd" {
					t.Fatalf("%+v", out)
				}
			}},
		{"get_output", map[string]any{"since": 7, "limit": 10}, "cmd_runtime_get_output", `{"since":7,"limit":10}`,
			map[string]any{"next_cursor": 7},
			func(t *testing.T, r *sdktest.Result) {
				if !strings.Contains(string(r.Structured), `"entries":[]`) {
					t.Fatalf("entries must be [] not null: %s", r.Structured)
				}
			}},
		{"get_errors", map[string]any{"since": 3}, "cmd_runtime_get_errors", `{"since":3,"limit":200}`,
			map[string]any{"entries": []any{map[string]any{"seq": 3, "kind": "error", "text": "boom", "message": "boom", "break": true}}, "next_cursor": 4, "dropped": 0},
			func(t *testing.T, r *sdktest.Result) {
				var out rt.ReadOut
				decode(t, r, &out)
				if len(out.Entries) != 1 || !out.Entries[0].Break || out.NextCursor != 4 {
					t.Fatalf("%+v", out)
				}
			}},
		{"get_tree", nil, "cmd_runtime_get_tree", `{"root":"/root","depth":6,"max_nodes":500}`,
			map[string]any{"root": map[string]any{"name": "root", "type": "Window", "path": "/root", "child_count": 1,
				"children": []any{map[string]any{"name": "Main", "type": "Node2D", "path": "/root/Main", "script": "res://main.gd", "child_count": 0}}},
				"node_count": 2, "truncated": false, "current_scene": "/root/Main"},
			func(t *testing.T, r *sdktest.Result) {
				var out rt.GetTreeOut
				decode(t, r, &out)
				if out.Root.Children[0].Script != "res://main.gd" || out.Root.Children[0].Children == nil || out.CurrentScene != "/root/Main" {
					t.Fatalf("%+v", out)
				}
			}},
		{"get_tree", map[string]any{"root": "Player", "depth": 2, "max_nodes": 10}, "cmd_runtime_get_tree", `{"root":"Player","depth":2,"max_nodes":10}`,
			map[string]any{"root": map[string]any{"name": "Player"}}, nil},
		{"get_node", map[string]any{"path": "/root/Main/Player", "properties": []string{"position", "nope"}}, "cmd_runtime_get_node",
			`{"path":"/root/Main/Player","properties":["position","nope"]}`,
			map[string]any{"path": "/root/Main/Player", "name": "Player", "type": "Node2D", "script": "", "properties": map[string]any{"position": map[string]any{"x": 1, "y": 2}},
				"missing": []any{"nope"}, "groups": []any{}, "children": []any{}},
			func(t *testing.T, r *sdktest.Result) {
				var out rt.GetNodeOut
				decode(t, r, &out)
				if out.Missing[0] != "nope" || out.Properties["position"] == nil {
					t.Fatalf("%+v", out)
				}
			}},
		{"set_properties", map[string]any{"path": "Player", "properties": map[string]any{"speed": 300}}, "cmd_runtime_set_properties",
			`{"path":"Player","properties":{"speed":300}}`,
			map[string]any{"path": "/root/Main/Player", "changed": []any{map[string]any{"property": "speed", "old": 100, "new": 300}}, "persisted": false},
			func(t *testing.T, r *sdktest.Result) {
				var out rt.SetPropertiesOut
				decode(t, r, &out)
				if len(out.Changed) != 1 || out.Changed[0].New.(float64) != 300 || out.Persisted {
					t.Fatalf("%+v", out)
				}
			}},
		{"call_method", map[string]any{"path": "Player", "method": "add", "args": []any{1, "x"}}, "cmd_runtime_call_method",
			`{"path":"Player","method":"add","args":[1,"x"],"timeout_ms":10000}`,
			map[string]any{"path": "/root/Main/Player", "method": "add", "result": 3, "persisted": false},
			func(t *testing.T, r *sdktest.Result) {
				var out rt.CallMethodOut
				decode(t, r, &out)
				if out.Result.(float64) != 3 {
					t.Fatalf("%+v", out)
				}
			}},
		{"call_method", map[string]any{"path": ".", "method": "reset"}, "cmd_runtime_call_method",
			`{"path":".","method":"reset","args":[],"timeout_ms":10000}`, map[string]any{"result": nil}, nil},
		{"input", map[string]any{"steps": []any{
			map[string]any{"type": "action", "action": "jump"},
			map[string]any{"type": "wait", "frames": 3},
			map[string]any{"type": "key", "key": "A", "state": "press", "modifiers": []string{"shift"}},
			map[string]any{"type": "mouse_button", "button": "left", "position": map[string]any{"x": 10, "y": 20}},
			map[string]any{"type": "mouse_motion", "relative": map[string]any{"x": 5, "y": 0}},
			map[string]any{"type": "action", "action": "move_right", "strength": 0.5, "hold_ms": 100},
		}}, "cmd_runtime_input",
			`{"steps":[{"type":"action","action":"jump"},{"type":"wait","frames":3},{"type":"key","key":"A","state":"press","modifiers":["shift"]},` +
				`{"type":"mouse_button","button":"left","position":{"x":10,"y":20}},{"type":"mouse_motion","relative":{"x":5,"y":0}},` +
				`{"type":"action","action":"move_right","strength":0.5,"hold_ms":100}],"timeout_ms":10550}`,
			map[string]any{"applied": 6, "total": 6, "frames": 12, "duration_ms": 250, "released_at_end": []any{"key A"}},
			func(t *testing.T, r *sdktest.Result) {
				var out rt.InputOut
				decode(t, r, &out)
				if out.Applied != 6 || len(out.ReleasedAtEnd) != 1 {
					t.Fatalf("%+v", out)
				}
			}},
		{"screenshot", nil, "cmd_runtime_screenshot", `{"target":"game"}`,
			map[string]any{"target": "game", "width": 4, "height": 3, "original_width": 8, "original_height": 6, "png_base64": base64.StdEncoding.EncodeToString(pngData)},
			func(t *testing.T, r *sdktest.Result) {
				var out rt.ScreenshotOut
				decode(t, r, &out)
				if out.Width != 4 || out.Height != 3 || out.OriginalWidth != 8 || out.MimeType != "image/png" || out.Bytes != len(pngData) {
					t.Fatalf("%+v", out)
				}
				if len(r.Content) != 1 || r.Content[0].Type != "image" || r.Content[0].MimeType != "image/png" || !bytes.Equal(r.Content[0].Data, pngData) {
					t.Fatalf("image content %+v", r.Content)
				}
				if strings.Contains(string(r.Structured), "png_base64") {
					t.Fatal("the PNG must travel as image content, not in the structured result")
				}
			}},
		{"screenshot", map[string]any{"target": "editor", "max_size": 256}, "cmd_runtime_screenshot", `{"target":"editor","max_size":256}`,
			map[string]any{"target": "editor", "width": 4, "height": 3, "png_base64": base64.StdEncoding.EncodeToString(pngData)}, nil},
		{"get_performance", nil, "cmd_runtime_get_performance", `{}`,
			map[string]any{"fps": 60, "process_time_ms": 1.5, "objects": 300, "nodes": 12, "draw_calls": 4, "process_frames": 99},
			func(t *testing.T, r *sdktest.Result) {
				var out rt.PerformanceOut
				decode(t, r, &out)
				if out.FPS != 60 || out.Nodes != 12 || out.Custom == nil {
					t.Fatalf("%+v", out)
				}
			}},
		{"pause", map[string]any{"paused": true}, "cmd_runtime_pause", `{"paused":true,"step_frames":0,"timeout_ms":10000}`,
			map[string]any{"paused": true, "time_scale": 1, "stepped_frames": 0, "process_frames": 100, "physics_frames": 90},
			func(t *testing.T, r *sdktest.Result) {
				var out rt.PauseOut
				decode(t, r, &out)
				if !out.Paused || out.ProcessFrames != 100 {
					t.Fatalf("%+v", out)
				}
			}},
		{"pause", map[string]any{"step_frames": 5, "time_scale": 0.25}, "cmd_runtime_pause", `{"time_scale":0.25,"step_frames":5,"timeout_ms":10500}`,
			map[string]any{"paused": true, "time_scale": 0.25, "stepped_frames": 5}, nil},
	}
	for _, tc := range cases {
		t.Run(tc.tool, func(t *testing.T) {
			h := start(t)
			h.Addon().HandleResult(tc.command, tc.answer)
			res, err := h.Call(context.Background(), tc.tool, tc.args)
			if err != nil {
				t.Fatal(err)
			}
			if res.Err != nil {
				t.Fatalf("tool failed: %v", res.Err)
			}
			got := h.Addon().Received()
			if len(got) != 1 || got[0].Command != tc.command {
				t.Fatalf("editor received %+v, want one %s", got, tc.command)
			}
			jsonEq(t, got[0].Params, tc.wantParams)
			if tc.check != nil {
				tc.check(t, res)
			}
		})
	}
}

func decode(t *testing.T, r *sdktest.Result, v any) {
	t.Helper()
	if err := r.Decode(v); err != nil {
		t.Fatal(err)
	}
}

func testPNG(t *testing.T, w, h int) []byte {
	t.Helper()
	img := image.NewRGBA(image.Rect(0, 0, w, h))
	img.Set(1, 1, color.RGBA{R: 255, A: 255})
	var buf bytes.Buffer
	if err := png.Encode(&buf, img); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

// The editor's refusals reach the agent unchanged: no game, a game stopped in
// the debugger, a node that is not there, a headless screenshot.
func TestEditorRefusalsPassThrough(t *testing.T) {
	noGame := &sdk.Error{Code: sdk.CodePreconditionFailed, Hint: "No game is running. Start one with godot_runtime_play.", Required: sdk.RequireRuntimeProbe}
	breaked := &sdk.Error{Code: sdk.CodePreconditionFailed, Hint: "The game is stopped in the debugger at res://main.gd:3 in _ready(): boom.", Required: sdk.RequireGameNotBreaked}
	notFound := &sdk.Error{Code: sdk.CodeResourceNotFound, Hint: "No node at 'Playr' in the running game. Nearest: /root/Main/Player."}
	headless := &sdk.Error{Code: sdk.CodePreconditionFailed, Hint: "The game runs headless (display server 'headless', no renderer), so it draws nothing to capture."}
	crashed := &sdk.Error{Code: sdk.CodeInternalError, Hint: "The game exited while starting (res://main.tscn), before its probe reported in. The game reported: error: boom (res://main.gd:3)."}
	timeout := &sdk.Error{Code: sdk.CodeTimeout, Hint: "The game's probe did not report in within 1000 ms."}
	cases := []struct {
		tool    string
		args    any
		command string
		err     *sdk.Error
	}{
		{"get_tree", nil, "cmd_runtime_get_tree", noGame},
		{"get_node", map[string]any{"path": "Player"}, "cmd_runtime_get_node", breaked},
		{"get_node", map[string]any{"path": "Playr"}, "cmd_runtime_get_node", notFound},
		{"set_properties", map[string]any{"path": "Player", "properties": map[string]any{"x": 1}}, "cmd_runtime_set_properties", noGame},
		{"set_properties", map[string]any{"path": "Player", "properties": map[string]any{"speeed": 1}}, "cmd_runtime_set_properties",
			&sdk.Error{Code: sdk.CodeValidationError, Hint: "Node2D '/root/Main/Player' has no property 'speeed'. Did you mean speed? Nothing was changed."}},
		{"call_method", map[string]any{"path": "Player", "method": "x"}, "cmd_runtime_call_method", breaked},
		{"input", map[string]any{"steps": []any{map[string]any{"type": "action", "action": "jmp"}}}, "cmd_runtime_input",
			&sdk.Error{Code: sdk.CodeValidationError, Hint: "steps[0]: the game has no input action 'jmp'. Did you mean jump? Nothing was sent."}},
		{"input", map[string]any{"steps": []any{map[string]any{"type": "key", "key": "A"}}}, "cmd_runtime_input", noGame},
		{"screenshot", nil, "cmd_runtime_screenshot", headless},
		{"screenshot", map[string]any{"target": "editor"}, "cmd_runtime_screenshot", &sdk.Error{Code: sdk.CodePreconditionFailed, Hint: "The editor runs headless."}},
		{"get_performance", nil, "cmd_runtime_get_performance", noGame},
		{"pause", map[string]any{"paused": false}, "cmd_runtime_pause", breaked},
		{"play", nil, "cmd_runtime_play", crashed},
		{"play", map[string]any{"timeout_ms": 1000}, "cmd_runtime_play", timeout},
		{"play", map[string]any{"scene": "res://nope.tscn"}, "cmd_runtime_play", &sdk.Error{Code: sdk.CodeResourceNotFound, Hint: "No scene at 'res://nope.tscn'. Scenes nearby: res://main.tscn."}},
		{"play", nil, "cmd_runtime_play", &sdk.Error{Code: sdk.CodePreconditionFailed, Hint: "The game started but stopped in the debugger before its probe reported in.", Required: sdk.RequireGameNotBreaked}},
		{"stop", nil, "cmd_runtime_stop", &sdk.Error{Code: sdk.CodeTimeout, Hint: "The editor was told to stop the game but it still runs after 5 s."}},
		{"get_status", nil, "cmd_runtime_get_status", &sdk.Error{Code: sdk.CodeInternalError, Hint: "The addon has no handler for 'cmd_runtime_get_status'."}},
		{"get_output", nil, "cmd_runtime_get_output", &sdk.Error{Code: sdk.CodeValidationError, Hint: "since must be an integer >= 0"}},
		{"get_errors", nil, "cmd_runtime_get_errors", &sdk.Error{Code: sdk.CodeValidationError, Hint: "limit must be an integer from 1 to 1000."}},
	}
	for _, tc := range cases {
		t.Run(tc.tool+"/"+string(tc.err.Code), func(t *testing.T) {
			h := start(t)
			h.Addon().HandleError(tc.command, tc.err)
			res, err := h.Call(context.Background(), tc.tool, tc.args)
			if err != nil {
				t.Fatal(err)
			}
			if res.Err == nil {
				t.Fatalf("succeeded: %s", res.Structured)
			}
			if string(res.Err.Code) != string(tc.err.Code) || res.Err.Hint != tc.err.Hint || res.Err.Required != tc.err.Required {
				t.Fatalf("got %+v, want %+v", res.Err, tc.err)
			}
			if n := len(h.Addon().Received()); n != 1 {
				t.Fatalf("%d commands sent, want 1", n)
			}
		})
	}
}

// Arguments that cannot be right are refused before anything reaches the editor.
func TestRefusedBeforeTheEditor(t *testing.T) {
	cases := []struct {
		tool string
		args any
		hint string
	}{
		{"play", map[string]any{"scene": "/etc/passwd"}, "res://"},
		{"play", map[string]any{"scene": "res://../x.tscn"}, "leaves the project"},
		{"play", map[string]any{"scene": "res://main.gd"}, "not a scene file"},
		{"play", map[string]any{"display": "vr"}, "display"},
		{"play", map[string]any{"timeout_ms": 10}, "timeout_ms"},
		{"get_output", map[string]any{"since": -1}, "since"},
		{"get_output", map[string]any{"limit": 5000}, "limit"},
		{"get_errors", map[string]any{"limit": 0}, "limit"},
		{"get_tree", map[string]any{"depth": 0}, "depth"},
		{"get_tree", map[string]any{"max_nodes": 100000}, "max_nodes"},
		{"get_node", map[string]any{}, "path"},
		{"get_node", map[string]any{"path": ""}, "path is required"},
		{"set_properties", map[string]any{"path": "Player"}, "properties"},
		{"set_properties", map[string]any{"path": "Player", "properties": map[string]any{}}, "properties is empty"},
		{"set_properties", map[string]any{"path": "", "properties": map[string]any{"x": 1}}, "path is required"},
		{"call_method", map[string]any{"path": "Player"}, "method"},
		{"call_method", map[string]any{"path": "Player", "method": ""}, "method"},
		{"input", map[string]any{"steps": []any{}}, "steps"},
		{"input", map[string]any{"steps": []any{map[string]any{"type": "jump"}}}, "type"},
		{"input", map[string]any{"steps": []any{map[string]any{"type": "action"}}}, "needs action"},
		{"input", map[string]any{"steps": []any{map[string]any{"type": "key"}}}, "needs key"},
		{"input", map[string]any{"steps": []any{map[string]any{"type": "wait"}}}, "needs frames or ms"},
		{"input", map[string]any{"steps": []any{map[string]any{"type": "mouse_motion"}}}, "needs position"},
		{"input", map[string]any{"steps": []any{map[string]any{"type": "key", "key": "A", "modifiers": []string{"hyper"}}}}, "hyper"},
		{"input", map[string]any{"steps": []any{map[string]any{"type": "action", "action": "jump", "strength": 2}}}, "strength"},
		{"input", map[string]any{"steps": []any{map[string]any{"type": "key", "key": "A", "strength": 0.5}}}, "action steps"},
		{"input", map[string]any{"steps": []any{map[string]any{"type": "wait", "frames": 1, "state": "press"}}}, "state"},
		{"input", map[string]any{"steps": []any{map[string]any{"type": "action", "action": "jump", "frames": 3}}}, "hold_frames"},
		{"input", map[string]any{"steps": []any{map[string]any{"type": "action", "action": "jump", "state": "press", "hold_ms": 10}}}, "taps"},
		{"input", map[string]any{"steps": []any{map[string]any{"type": "wait", "ms": 60000}, map[string]any{"type": "wait", "ms": 60000}, map[string]any{"type": "wait", "ms": 1}}}, "split"},
		{"screenshot", map[string]any{"target": "desktop"}, "target"},
		{"pause", map[string]any{}, "give paused"},
		{"pause", map[string]any{"paused": false, "step_frames": 2}, "step_frames"},
		{"pause", map[string]any{"time_scale": -1}, "time_scale"},
		{"run_headless", map[string]any{"scene": "res://a.tscn", "script": "res://b.gd"}, "not both"},
		{"run_headless", map[string]any{"scene": "/tmp/a.tscn"}, "res://"},
		{"run_headless", map[string]any{"script": "res://a.tscn"}, "not a GDScript"},
		{"run_headless", map[string]any{"scene": "res://a.gd"}, "not a scene"},
		{"run_headless", map[string]any{"timeout_ms": 10}, "timeout_ms"},
	}
	for _, tc := range cases {
		t.Run(tc.tool, func(t *testing.T) {
			h := start(t)
			res, err := h.Call(context.Background(), tc.tool, tc.args)
			if err != nil {
				t.Fatal(err)
			}
			if res.Err == nil || res.Err.Code != sdk.CodeValidationError || !strings.Contains(res.Err.Hint, tc.hint) {
				t.Fatalf("got %+v, want VALIDATION_ERROR mentioning %q", res.Err, tc.hint)
			}
			if n := len(h.Addon().Received()); n != 0 {
				t.Fatalf("%d commands reached the editor", n)
			}
		})
	}
}

func TestScreenshotRefusesBadImages(t *testing.T) {
	good := testPNG(t, 4, 3)
	cases := []struct {
		name   string
		answer map[string]any
		hint   string
	}{
		{"not base64", map[string]any{"width": 4, "height": 3, "png_base64": "%%%"}, "base64"},
		{"empty", map[string]any{"width": 0, "height": 0, "png_base64": ""}, "base64"},
		{"not png", map[string]any{"width": 4, "height": 3, "png_base64": base64.StdEncoding.EncodeToString([]byte("GIF89a"))}, "not a PNG"},
		{"size mismatch", map[string]any{"width": 40, "height": 30, "png_base64": base64.StdEncoding.EncodeToString(good)}, "40x30"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			h := start(t)
			h.Addon().HandleResult("cmd_runtime_screenshot", tc.answer)
			res, err := h.Call(context.Background(), "screenshot", nil)
			if err != nil {
				t.Fatal(err)
			}
			if res.Err == nil || res.Err.Code != sdk.CodeInternalError || !strings.Contains(res.Err.Hint, tc.hint) {
				t.Fatalf("got %+v", res.Err)
			}
			if len(res.Content) != 0 {
				t.Fatal("no image may be returned with a failure")
			}
		})
	}
}

// ---- run_headless ----
