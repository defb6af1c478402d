package main

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/godot-mcp/godot-mcp/internal/testing/hosttest"
	"github.com/godot-mcp/godot-mcp/sdk/contract"
	"github.com/godot-mcp/godot-mcp/sdk/sdktest/fakeaddon"
)

// A third-party toolset (built with the public SDK) that sends editor
// commands its tools' classes do not allow, through the real binary and a
// fake editor that declares the real addon's commands plus the toolset's
// own: every attempt is refused before it reaches the editor, the call
// fails naming the toolset, the tool and the command, and the server log
// says so.
func TestBinaryHoldsToolsetCommandsToTheirClass(t *testing.T) {
	dir := t.TempDir()
	if _, err := hosttest.BuildRogueToolset(dir); err != nil {
		t.Fatal(err)
	}
	p := startBinary(t, "GODOT_MCP_PLUGIN_DIR="+dir, "GODOT_MCP_DEFAULT_TOOLSETS=rogue")
	p.Initialize()
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	addon, err := fakeaddon.Dial(ctx, p.BridgeURL(), fakeaddon.WithCommands(hosttest.RogueCommands()))
	if err != nil {
		t.Fatal(err)
	}
	defer addon.Close()
	for c := range addon.Commands() {
		addon.HandleResult(c, map[string]any{"done": c})
	}

	refused := []struct {
		name, tool, command string
		args                map[string]any
		code                contract.ErrorCode
		required            string
	}{
		{"(a) read_only sends another toolset's delete", "peek", "cmd_scene_delete_node", nil, contract.ValidationError, ""},
		{"(a) read_only sends its own delete", "peek_own", "cmd_rogue_delete", nil, contract.PreconditionFailed, contract.RequireCommandClass},
		{"(b) a dry run sends a command without dry_run", "save", "cmd_rogue_save", map[string]any{"dry_run": true}, contract.PreconditionFailed, contract.RequireCommandClass},
		{"mutating sends destructive", "edit_delete", "cmd_rogue_delete", nil, contract.PreconditionFailed, contract.RequireCommandClass},
		{"(d) another toolset's mutating command", "cross", "cmd_scene_set_properties", nil, contract.ValidationError, ""},
		{"(d) the core's mutating command", "core", "cmd_undo", nil, contract.ValidationError, ""},
	}
	for _, tc := range refused {
		t.Run(tc.name, func(t *testing.T) {
			r := call(p, "godot_rogue_"+tc.tool, tc.args)
			e := errorOf(r)
			if !r.IsError || e.Code != tc.code || e.Required != tc.required {
				t.Fatalf("got %s, want %s/%q", r.StructuredContent, tc.code, tc.required)
			}
			for _, want := range []string{"'rogue'", "'" + tc.tool + "'", "'" + tc.command + "'"} {
				if !strings.Contains(e.Hint, want) {
					t.Errorf("hint %q does not name %s", e.Hint, want)
				}
			}
		})
	}
	if got := addon.Received(); len(got) != 0 {
		t.Fatalf("refused commands reached the editor: %+v", got)
	}

	// (b) A command that takes dry_run reaches the editor with dry_run: true,
	// whatever the toolset put there.
	if r := call(p, "godot_rogue_edit", map[string]any{"dry_run": true}); r.IsError {
		t.Fatalf("edit in a dry run: %s", r.StructuredContent)
	}
	got, err := addon.WaitCommand(ctxT(t), "cmd_rogue_edit")
	if err != nil || !strings.Contains(string(got.Params), `"dry_run":true`) || strings.Contains(string(got.Params), `"dry_run":false`) {
		t.Fatalf("cmd_rogue_edit in a dry run carried %s (%v)", got.Params, err)
	}

	// (c) A read_only tool returns, and sends a delete one second later
	// through the Host it kept: refused, the call is over.
	if r := call(p, "godot_rogue_later", nil); r.IsError {
		t.Fatalf("later: %s", r.StructuredContent)
	}
	deadline := time.Now().Add(10 * time.Second)
	for strings.Count(p.Stderr(), "ROGUE-LATE") < 2 && time.Now().Before(deadline) {
		time.Sleep(50 * time.Millisecond)
	}
	logs := p.Stderr()
	if !strings.Contains(logs, "ROGUE-LATE cmd_rogue_delete: VALIDATION_ERROR") || !strings.Contains(logs, "refused a toolset's editor command outside its call") {
		t.Fatalf("the late delete was not refused:\n%s", logs)
	}

	// The public core read works; nothing else reached the editor.
	if r := call(p, "godot_rogue_state", nil); r.IsError {
		t.Fatalf("state: %s", r.StructuredContent)
	}
	var names []string
	for _, c := range addon.Received() {
		names = append(names, c.Command)
	}
	if strings.Join(names, ",") != "cmd_rogue_edit,cmd_get_editor_state" {
		t.Fatalf("the editor received %v", names)
	}
	for _, tool := range []string{"peek", "save", "cross", "core"} {
		if !strings.Contains(logs, "refused a toolset's editor command") || !strings.Contains(logs, "tool="+tool) {
			t.Errorf("no log line for the refusal in %s", tool)
		}
	}
	p.AssertOnlyJSONRPC()
}

// The host learns a toolset's editor commands when the editor loads them: a
// command the editor has not declared is refused, and the same call
// reaches the editor once a cmd_editor_commands push declares it (as after
// an extension loads).
func TestBinaryLearnsCommandsWhenTheEditorLoadsThem(t *testing.T) {
	dir := t.TempDir()
	if _, err := hosttest.BuildRogueToolset(dir); err != nil {
		t.Fatal(err)
	}
	p := startBinary(t, "GODOT_MCP_PLUGIN_DIR="+dir, "GODOT_MCP_DEFAULT_TOOLSETS=rogue")
	p.Initialize()
	addon := dialAddon(t, p) // the real addon's commands only
	addon.HandleResult("cmd_rogue_edit", map[string]any{})
	r := call(p, "godot_rogue_edit", nil)
	if e := errorOf(r); !r.IsError || e.Code != contract.ValidationError || !strings.Contains(e.Hint, "does not declare") || !strings.Contains(e.Hint, "'cmd_rogue_edit'") {
		t.Fatalf("undeclared: %s", r.StructuredContent)
	}
	if n := len(addon.Received()); n != 0 {
		t.Fatalf("an undeclared command reached the editor (%d)", n)
	}
	if err := addon.Declare(ctxT(t), hosttest.RogueCommands()); err != nil {
		t.Fatal(err)
	}
	deadline := time.Now().Add(5 * time.Second)
	for {
		r = call(p, "godot_rogue_edit", nil)
		if !r.IsError || time.Now().After(deadline) {
			break
		}
		time.Sleep(20 * time.Millisecond)
	}
	if r.IsError {
		t.Fatalf("after the push: %s", r.StructuredContent)
	}
	if _, err := addon.WaitCommand(ctxT(t), "cmd_rogue_edit"); err != nil {
		t.Fatal(err)
	}
}
