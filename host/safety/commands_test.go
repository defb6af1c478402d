package safety

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/godot-mcp/godot-mcp/host/envelope"
	"github.com/godot-mcp/godot-mcp/sdk/contract"
)

func TestCheckSend(t *testing.T) {
	own := func(class string, dry bool) envelope.CommandInfo {
		return envelope.CommandInfo{Class: class, DryRun: dry, Owner: "hello"}
	}
	core := envelope.CommandInfo{Class: "read_only", Owner: "core"}
	gameMsg := envelope.CommandInfo{Class: "runtime", Owner: "core"}
	call := func(c contract.Class, dry, confirm bool) SendCall {
		return SendCall{Toolset: "hello", Tool: "greet", Class: c, DryRun: dry, Confirm: confirm}
	}
	cases := []struct {
		name     string
		call     SendCall
		command  string
		info     envelope.CommandInfo
		declared bool
		code     contract.ErrorCode // "" = allowed
		required string
		params   string // the params sent, when allowed
	}{
		{"read_only sends read_only", call(contract.ReadOnly, false, false), "cmd_hello_peek", own("read_only", false), true, "", "", `{"a":1}`},
		{"read_only sends mutating", call(contract.ReadOnly, false, false), "cmd_hello_edit", own("mutating", true), true, contract.PreconditionFailed, contract.RequireCommandClass, ""},
		{"read_only sends destructive", call(contract.ReadOnly, false, false), "cmd_hello_delete", own("destructive", true), true, contract.PreconditionFailed, contract.RequireCommandClass, ""},
		{"read_only sends runtime", call(contract.ReadOnly, false, false), "cmd_hello_play", own("runtime", false), true, contract.PreconditionFailed, contract.RequireCommandClass, ""},
		{"mutating sends mutating", call(contract.Mutating, false, false), "cmd_hello_edit", own("mutating", false), true, "", "", `{"a":1}`},
		{"mutating sends destructive", call(contract.Mutating, false, true), "cmd_hello_delete", own("destructive", true), true, contract.PreconditionFailed, contract.RequireCommandClass, ""},
		{"mutating sends runtime", call(contract.Mutating, false, false), "cmd_hello_play", own("runtime", false), true, contract.PreconditionFailed, contract.RequireCommandClass, ""},
		{"runtime sends runtime", call(contract.Runtime, false, false), "cmd_hello_play", own("runtime", false), true, "", "", `{"a":1}`},
		{"runtime sends read_only", call(contract.Runtime, false, false), "cmd_hello_peek", own("read_only", false), true, "", "", `{"a":1}`},
		{"runtime sends mutating", call(contract.Runtime, false, false), "cmd_hello_edit", own("mutating", true), true, contract.PreconditionFailed, contract.RequireCommandClass, ""},
		{"confirmed destructive sends destructive", call(contract.Destructive, false, true), "cmd_hello_delete", own("destructive", false), true, "", "", `{"a":1}`},
		{"unconfirmed destructive sends destructive", call(contract.Destructive, false, false), "cmd_hello_delete", own("destructive", false), true, contract.PreconditionFailed, contract.RequireConfirm, ""},
		{"dry run: read_only passes untouched", call(contract.Mutating, true, false), "cmd_hello_peek", own("read_only", false), true, "", "", `{"a":1}`},
		{"dry run: dry_run forced", call(contract.Mutating, true, false), "cmd_hello_edit", own("mutating", true), true, "", "", `{"a":1,"dry_run":true}`},
		{"dry run: destructive preview forced", call(contract.Destructive, true, false), "cmd_hello_delete", own("destructive", true), true, "", "", `{"a":1,"dry_run":true}`},
		{"dry run: no dry_run support", call(contract.Mutating, true, false), "cmd_hello_save", own("mutating", false), true, contract.PreconditionFailed, contract.RequireCommandClass, ""},
		{"another toolset's command", call(contract.Destructive, false, true), "cmd_scene_delete_node", envelope.CommandInfo{Class: "destructive", Owner: "scene"}, true, contract.ValidationError, "", ""},
		{"a longer toolset's command", call(contract.ReadOnly, false, false), "cmd_hello_world_peek", envelope.CommandInfo{Class: "read_only", Owner: "hello_world"}, true, contract.ValidationError, "", ""},
		{"a core mutating command", call(contract.Mutating, false, false), "cmd_undo", envelope.CommandInfo{Class: "mutating", Owner: "core"}, true, contract.ValidationError, "", ""},
		{"a public core read", call(contract.ReadOnly, false, false), "cmd_get_editor_state", core, true, "", "", `{"a":1}`},
		{"a public core read in a dry run", call(contract.Mutating, true, false), "cmd_describe_class", core, true, "", "", `{"a":1}`},
		{"a public name the editor says is mutating", call(contract.Mutating, false, false), "cmd_get_editor_state", envelope.CommandInfo{Class: "mutating", Owner: "core"}, true, contract.ValidationError, "", ""},
		{"a public name owned by a toolset", call(contract.ReadOnly, false, false), "cmd_get_editor_state", envelope.CommandInfo{Class: "read_only", Owner: "scene"}, true, contract.ValidationError, "", ""},
		{"own command not declared", call(contract.Mutating, false, false), "cmd_hello_edit", envelope.CommandInfo{}, false, contract.ValidationError, "", ""},
		{"core command not declared", call(contract.ReadOnly, false, false), "cmd_get_editor_state", envelope.CommandInfo{}, false, contract.ValidationError, "", ""},
		{"the bare prefix", call(contract.ReadOnly, false, false), "cmd_hello_", own("read_only", false), true, contract.ValidationError, "", ""},
		// Game messages: only a runtime tool reaches the game, and only its own toolset's code.
		{"runtime sends a game message", call(contract.Runtime, false, false), GameMessageCommand, gameMsg, true, "", "", `{"a":1,"toolset":"hello"}`},
		{"read_only sends a game message", call(contract.ReadOnly, false, false), GameMessageCommand, gameMsg, true, contract.PreconditionFailed, contract.RequireCommandClass, ""},
		{"mutating sends a game message", call(contract.Mutating, false, false), GameMessageCommand, gameMsg, true, contract.PreconditionFailed, contract.RequireCommandClass, ""},
		{"confirmed destructive sends a game message", call(contract.Destructive, false, true), GameMessageCommand, gameMsg, true, contract.PreconditionFailed, contract.RequireCommandClass, ""},
		{"a runtime dry run sends a game message", call(contract.Runtime, true, false), GameMessageCommand, gameMsg, true, contract.PreconditionFailed, contract.RequireCommandClass, ""},
		{"game message not declared", call(contract.Runtime, false, false), GameMessageCommand, envelope.CommandInfo{}, false, contract.ValidationError, "", ""},
		{"game message declared read_only", call(contract.Runtime, false, false), GameMessageCommand, envelope.CommandInfo{Class: "read_only", Owner: "core"}, true, contract.ValidationError, "", ""},
		{"game message owned by a toolset", call(contract.Runtime, false, false), GameMessageCommand, envelope.CommandInfo{Class: "runtime", Owner: "scene"}, true, contract.ValidationError, "", ""},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			out, err := CheckSend(tc.call, tc.command, tc.info, tc.declared, json.RawMessage(`{"a":1}`))
			if tc.code == "" {
				if err != nil {
					t.Fatalf("refused: %s: %s", err.Code, err.Hint)
				}
				if string(out) != tc.params {
					t.Fatalf("params = %s, want %s", out, tc.params)
				}
				return
			}
			if err == nil || err.Code != tc.code || err.Required != tc.required {
				t.Fatalf("got %+v, want %s/%q", err, tc.code, tc.required)
			}
			for _, want := range []string{"'hello'", "'greet'", "'" + tc.command + "'"} {
				if !strings.Contains(err.Hint, want) {
					t.Errorf("hint %q does not name %s", err.Hint, want)
				}
			}
		})
	}
}

// A toolset that puts dry_run: false (or junk) in its params still sends
// dry_run: true during a dry run; params that are not an object are refused.
func TestCheckSendForcesDryRun(t *testing.T) {
	call := SendCall{Toolset: "hello", Tool: "edit", Class: contract.Mutating, DryRun: true}
	info := envelope.CommandInfo{Class: "mutating", DryRun: true, Owner: "hello"}
	for in, want := range map[string]string{`{"dry_run":false}`: `{"dry_run":true}`, `{"dry_run":"no","x":[1]}`: `{"dry_run":true,"x":[1]}`, `{}`: `{"dry_run":true}`, `null`: `{"dry_run":true}`} {
		out, err := CheckSend(call, "cmd_hello_edit", info, true, json.RawMessage(in))
		if err != nil || string(out) != want {
			t.Errorf("%s -> %s %v, want %s", in, out, err, want)
		}
	}
	if _, err := CheckSend(call, "cmd_hello_edit", info, true, json.RawMessage(`[1]`)); err == nil || err.Code != contract.ValidationError {
		t.Errorf("an array was sent: %v", err)
	}
}

// A toolset cannot reach another toolset's game messages: the host sets
// the toolset param to the caller's, whatever it sent.
func TestGameMessageToolsetIsTheCallers(t *testing.T) {
	call := SendCall{Toolset: "hello", Tool: "ping", Class: contract.Runtime}
	out, err := CheckSend(call, GameMessageCommand, envelope.CommandInfo{Class: "runtime", Owner: "core"}, true,
		json.RawMessage(`{"toolset":"playtest","message":"eval","params":{"code":"1"}}`))
	if err != nil {
		t.Fatal(err)
	}
	var got map[string]any
	if err := json.Unmarshal(out, &got); err != nil || got["toolset"] != "hello" || got["message"] != "eval" {
		t.Fatalf("sent %s (%v)", out, err)
	}
	e := func() *contract.Error {
		_, e := CheckSend(SendCall{Toolset: "hello", Tool: "peek", Class: contract.ReadOnly}, GameMessageCommand, envelope.CommandInfo{Class: "runtime", Owner: "core"}, true, nil)
		return e
	}()
	if e == nil || !strings.Contains(e.Hint, "only a tool of class runtime reaches the running game") || !strings.Contains(e.Hint, "'peek'") {
		t.Fatalf("refusal = %+v", e)
	}
}

func TestGate(t *testing.T) {
	g := NewGate("hello", nil)
	table := map[string]envelope.CommandInfo{
		"cmd_hello_peek":   {Class: "read_only", Owner: "hello"},
		"cmd_hello_delete": {Class: "destructive", DryRun: true, Owner: "hello"},
	}
	lookup := func(c string) (envelope.CommandInfo, bool, *contract.Error) {
		info, ok := table[c]
		return info, ok, nil
	}

	id, end := g.Begin("p1", SendCall{Tool: "greet", Class: contract.ReadOnly})
	if id != "p1" {
		t.Fatalf("id = %q", id)
	}
	if _, err := g.Check(id, "cmd_hello_peek", nil, lookup); err != nil {
		t.Fatal(err)
	}
	if _, err := g.Check(id, "cmd_hello_delete", nil, lookup); err == nil {
		t.Fatal("a read_only call sent a destructive command")
	}
	if _, err := g.Check(id, "cmd_hello_peek", nil, lookup); err != nil {
		t.Fatal("a refusal must not block the call's next allowed command:", err)
	}
	refusal := end()
	if refusal == nil || refusal.Required != contract.RequireCommandClass || !strings.Contains(refusal.Hint, "cmd_hello_delete") {
		t.Fatalf("end = %+v, want the refusal", refusal)
	}
	if _, err := g.Check(id, "cmd_hello_peek", nil, lookup); err == nil || !strings.Contains(err.Hint, "has ended") {
		t.Fatalf("a send after the call ended: %+v", err)
	}
	if _, err := g.Check("nope", "cmd_hello_peek", nil, lookup); err == nil {
		t.Fatal("a send for a call that never existed was allowed")
	}
	if _, err := g.Check("", "cmd_hello_peek", nil, lookup); err == nil || !strings.Contains(err.Hint, "no call id") {
		t.Fatalf("a send without a call id: %+v", err)
	}

	// Ids: a fresh one when none is given or it is taken.
	a, endA := g.Begin("", SendCall{Tool: "x", Class: contract.ReadOnly})
	b, endB := g.Begin(a, SendCall{Tool: "y", Class: contract.ReadOnly})
	if a == "" || a == b || !GateMade(a) || !GateMade(b) || GateMade("p1") {
		t.Fatalf("ids %q %q", a, b)
	}
	if endA() != nil || endB() != nil {
		t.Fatal("refusals on calls that sent nothing")
	}

	// No editor: the lookup's failure, not a refusal, and the call is not failed by it.
	id, end = g.Begin("p2", SendCall{Tool: "greet", Class: contract.ReadOnly})
	gone := &contract.Error{Code: contract.BridgeDisconnected, Hint: "no editor"}
	if _, err := g.Check(id, "cmd_hello_peek", nil, func(string) (envelope.CommandInfo, bool, *contract.Error) { return envelope.CommandInfo{}, false, gone }); err != gone {
		t.Fatalf("without an editor: %+v", err)
	}
	if end() != nil {
		t.Fatal("a disconnected editor counted as a refusal")
	}
}
