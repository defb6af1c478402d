package debugger

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/godot-mcp/godot-mcp/sdk"
	"github.com/godot-mcp/godot-mcp/sdk/sdktest"
)

// The commands the tools send, with the class handlers.gd must declare.
var commands = []sdktest.EditorCommand{
	{Name: "cmd_debugger_breakpoints", Class: sdk.ReadOnly},
	{Name: "cmd_debugger_set_breakpoints", Class: sdk.Mutating, DryRun: true},
	{Name: "cmd_debugger_state", Class: sdk.ReadOnly},
	{Name: "cmd_debugger_break", Class: sdk.Runtime},
	{Name: "cmd_debugger_step", Class: sdk.Runtime},
	{Name: "cmd_debugger_continue", Class: sdk.Runtime},
	{Name: "cmd_debugger_variables", Class: sdk.ReadOnly},
	{Name: "cmd_debugger_evaluate", Class: sdk.Runtime},
}

// start runs the toolset against a fake editor that declares the commands
// as the tools expect them (TestShippedDeclarations holds the shipped
// GDScript to the same), so the host's gate holds each tool to them.
func start(t *testing.T) *sdktest.Harness {
	t.Helper()
	return sdktest.StartWith(t, Toolset(), commands)
}

func received(t *testing.T, h *sdktest.Harness, command string) map[string]any {
	t.Helper()
	for _, c := range h.Addon().Received() {
		if c.Command == command {
			var p map[string]any
			if err := json.Unmarshal(c.Params, &p); err != nil {
				t.Fatal(err)
			}
			return p
		}
	}
	t.Fatalf("%s was never sent (sent %v)", command, h.Commands())
	return nil
}

// failure calls a tool that must fail and returns its error.
func failure(t *testing.T, h *sdktest.Harness, tool string, args map[string]any) *sdk.Error {
	t.Helper()
	r, err := h.Call(t.Context(), tool, args)
	if err != nil {
		t.Fatal(err)
	}
	if r.Err == nil {
		t.Fatalf("%s succeeded: %s", tool, r.Structured)
	}
	return r.Err
}

// Every tool sends its one command, with the classes the shipped GDScript
// declares (the gate would refuse otherwise), and its answer comes back typed.
func TestToolsSendTheirCommand(t *testing.T) {
	stopped := map[string]any{
		"playing": true, "session_id": 0, "stopped": true, "reason": "breakpoint", "message": "", "can_continue": true,
		"location": map[string]any{"frame": 0, "file": "res://dbg.gd", "line": 11, "function": "_process"},
		"stack":    []any{map[string]any{"frame": 0, "file": "res://dbg.gd", "line": 11, "function": "_process"}},
	}
	moved := map[string]any{}
	for k, v := range stopped {
		moved[k] = v
	}
	moved["from"] = stopped["location"]
	moved["steps"] = 1
	moved["ran_on"] = false
	cases := []struct {
		tool, command string
		args          map[string]any
		answer        any
		wantParam     string // a key the editor must receive
		check         func(t *testing.T, raw json.RawMessage)
	}{
		{"list_breakpoints", "cmd_debugger_breakpoints", nil,
			map[string]any{"breakpoints": []any{map[string]any{"path": "res://dbg.gd", "line": 11, "code": "var total := add_up(ticks)"}}, "count": 1}, "",
			func(t *testing.T, raw json.RawMessage) {
				var out ListBreakpointsOut
				json.Unmarshal(raw, &out)
				if out.Count != 1 || out.Breakpoints[0].Line != 11 {
					t.Fatalf("%s", raw)
				}
			}},
		{"set_breakpoints", "cmd_debugger_set_breakpoints", map[string]any{"add": []any{map[string]any{"path": "res://dbg.gd", "line": 11}}},
			map[string]any{"added": []any{map[string]any{"path": "res://dbg.gd", "line": 11}}, "removed": []any{}, "unchanged": []any{},
				"breakpoints": []any{map[string]any{"path": "res://dbg.gd", "line": 11}}, "dry_run": false}, "add",
			func(t *testing.T, raw json.RawMessage) {
				var out SetBreakpointsOut
				json.Unmarshal(raw, &out)
				if len(out.Added) != 1 || len(out.Breakpoints) != 1 {
					t.Fatalf("%s", raw)
				}
			}},
		{"get_state", "cmd_debugger_state", nil, stopped, "",
			func(t *testing.T, raw json.RawMessage) {
				var out State
				json.Unmarshal(raw, &out)
				if !out.Stopped || out.Location == nil || out.Location.Line != 11 || out.Reason != "breakpoint" {
					t.Fatalf("%s", raw)
				}
			}},
		{"break", "cmd_debugger_break", nil, map[string]any{"already_stopped": false, "stopped": true, "reason": "break_request", "stack": []any{}, "location": nil}, "",
			func(t *testing.T, raw json.RawMessage) {
				var out BreakOut
				json.Unmarshal(raw, &out)
				if !out.Stopped || out.Reason != "break_request" {
					t.Fatalf("%s", raw)
				}
			}},
		{"step", "cmd_debugger_step", map[string]any{"mode": "over"}, moved, "mode",
			func(t *testing.T, raw json.RawMessage) {
				var out MoveOut
				json.Unmarshal(raw, &out)
				if out.From == nil || out.Steps != 1 || out.RanOn {
					t.Fatalf("%s", raw)
				}
			}},
		{"continue", "cmd_debugger_continue", nil, map[string]any{"stopped": false, "ran_on": true, "stack": []any{}, "location": nil}, "",
			func(t *testing.T, raw json.RawMessage) {
				var out MoveOut
				json.Unmarshal(raw, &out)
				if !out.RanOn || out.Stopped {
					t.Fatalf("%s", raw)
				}
			}},
		{"get_variables", "cmd_debugger_variables", map[string]any{"frame": 1, "scope": "local"},
			map[string]any{"frame": 1, "location": stopped["location"], "variables": []any{map[string]any{"name": "n", "scope": "local", "type": "int", "value": 3}},
				"total": 1, "offset": 0, "next_offset": -1, "truncated": false}, "scope",
			func(t *testing.T, raw json.RawMessage) {
				var out VariablesOut
				json.Unmarshal(raw, &out)
				if len(out.Variables) != 1 || out.Variables[0].Value != float64(3) {
					t.Fatalf("%s", raw)
				}
			}},
		{"evaluate", "cmd_debugger_evaluate", map[string]any{"expression": "n * 2"},
			map[string]any{"expression": "n * 2", "frame": 0, "location": stopped["location"], "type": "int", "value": 6, "errors": []any{}}, "expression",
			func(t *testing.T, raw json.RawMessage) {
				var out EvaluateOut
				json.Unmarshal(raw, &out)
				if out.Value != float64(6) || out.Type != "int" {
					t.Fatalf("%s", raw)
				}
			}},
	}
	h := start(t)
	for _, c := range cases {
		t.Run(c.tool, func(t *testing.T) {
			h.Addon().HandleResult(c.command, c.answer)
			r := h.MustCall(t, c.tool, c.args)
			if c.wantParam != "" {
				if _, ok := received(t, h, c.command)[c.wantParam]; !ok {
					t.Fatalf("%s params lack %s", c.command, c.wantParam)
				}
			}
			c.check(t, r.Structured)
		})
	}
}

// A set_breakpoints dry run reaches the editor as one (dry_run: true); a call
// with nothing to do is refused without asking it.
func TestSetBreakpointsDryRunAndEmpty(t *testing.T) {
	h := start(t)
	h.Addon().HandleResult("cmd_debugger_set_breakpoints", map[string]any{"added": []any{}, "removed": []any{}, "unchanged": []any{}, "breakpoints": []any{}, "dry_run": true})
	h.MustCall(t, "set_breakpoints", map[string]any{"clear": true}, sdktest.DryRun())
	if p := received(t, h, "cmd_debugger_set_breakpoints"); p["dry_run"] != true || p["clear"] != true {
		t.Fatalf("params %v", p)
	}
	before := len(h.Commands())
	e := failure(t, h, "set_breakpoints", map[string]any{})
	if e.Code != sdk.CodeValidationError || !strings.Contains(e.Hint, "nothing to do") {
		t.Fatalf("empty call: %+v", e)
	}
	if len(h.Commands()) != before {
		t.Fatal("an empty set_breakpoints reached the editor")
	}
}

// The editor's refusals reach the agent unchanged (code, hint).
func TestEditorRefusalsPassThrough(t *testing.T) {
	h := start(t)
	h.Addon().HandleError("cmd_debugger_step", &sdk.Error{Code: sdk.CodePreconditionFailed, Hint: "The game is running, not stopped in the debugger."})
	e := failure(t, h, "step", map[string]any{"mode": "into"})
	if e.Code != sdk.CodePreconditionFailed || !strings.Contains(e.Hint, "not stopped") {
		t.Fatalf("%+v", e)
	}
	h.Addon().HandleError("cmd_debugger_set_breakpoints", &sdk.Error{Code: sdk.CodeValidationError, Hint: "add[0]: line 7 of res://dbg.gd has no code a breakpoint can stop at (a blank line). The nearest lines with code: 9: ticks += 1"})
	e = failure(t, h, "set_breakpoints", map[string]any{"add": []any{map[string]any{"path": "res://dbg.gd", "line": 7}}})
	if e.Code != sdk.CodeValidationError || !strings.Contains(e.Hint, "nearest lines with code: 9") {
		t.Fatalf("%+v", e)
	}
}

// A mode outside into/over/out is refused by the schema, before the editor.
func TestStepModeValidated(t *testing.T) {
	h := start(t)
	e := failure(t, h, "step", map[string]any{"mode": "sideways"})
	if e.Code != sdk.CodeValidationError {
		t.Fatalf("%+v", e)
	}
	if len(h.Commands()) != 0 {
		t.Fatalf("sent %v", h.Commands())
	}
}

// Each tool's class fits the commands it sends, as the shipped editor code declares them.
func TestShippedDeclarations(t *testing.T) {
	sdktest.CheckEditorCode(t, Toolset(), commands)
}
