package bridge_test

import (
	"strings"
	"testing"

	"github.com/godot-mcp/godot-mcp/host/bridge"
	"github.com/godot-mcp/godot-mcp/host/envelope"
	"github.com/godot-mcp/godot-mcp/sdk/contract"
	"github.com/godot-mcp/godot-mcp/sdk/sdktest/fakeaddon"
)

// The host learns the editor's command table from the editor: the hello's,
// then each cmd_editor_commands push's, entries without a valid class or
// owner dropped. Without an editor a lookup answers BRIDGE_DISCONNECTED.
func TestCommandTableFromTheEditor(t *testing.T) {
	logs := &logBuffer{}
	b := start(t, func(o *bridge.Options) { o.Logger = logs.logger() })
	if _, _, err := b.Command("cmd_get_editor_state"); err == nil || err.Code != contract.BridgeDisconnected {
		t.Fatalf("without an editor: %+v", err)
	}
	a := connect(t, b, fakeaddon.WithCommands(map[string]envelope.CommandInfo{
		"cmd_hello_greet": fakeaddon.Command("read_only", "hello", false),
		"cmd_hello_bad":   fakeaddon.Command("sneaky", "hello", false),
		"cmd_hello_orph":  fakeaddon.Command("read_only", "", false),
	}))
	if err := b.WaitConnected(testCtx(t)); err != nil {
		t.Fatal(err)
	}
	info, ok, err := b.Command("cmd_undo")
	if err != nil || !ok || info != (envelope.CommandInfo{Class: "mutating", DryRun: true, Owner: "core"}) {
		t.Fatalf("the real addon's cmd_undo = %+v %v %v", info, ok, err)
	}
	if info, ok, _ := b.Command("cmd_hello_greet"); !ok || info.Class != "read_only" || info.Owner != "hello" {
		t.Fatalf("cmd_hello_greet = %+v %v", info, ok)
	}
	for _, c := range []string{"cmd_hello_bad", "cmd_hello_orph", "cmd_nothing"} {
		if _, ok, _ := b.Command(c); ok {
			t.Errorf("%s is declared", c)
		}
	}
	if !strings.Contains(logs.String(), "cmd_hello_bad") || !strings.Contains(logs.String(), "cmd_hello_orph") {
		t.Errorf("the dropped entries are not logged:\n%s", logs.String())
	}
	if n := len(b.Commands()); n != len(fakeaddon.DefaultHello().Commands)+1 {
		t.Errorf("Commands() has %d entries", n)
	}

	// An extension loads: the editor pushes the whole table again.
	if err := a.Declare(testCtx(t), map[string]envelope.CommandInfo{"cmd_hello_wave": fakeaddon.Command("mutating", "hello", true)}); err != nil {
		t.Fatal(err)
	}
	eventually(t, "the pushed table", func() bool { _, ok, _ := b.Command("cmd_hello_wave"); return ok })
	if _, ok, _ := b.Command("cmd_hello_greet"); !ok {
		t.Error("the push lost an entry it repeated")
	}

	// A malformed push changes nothing.
	if err := a.SendRaw(testCtx(t), []byte(`{"command":"cmd_editor_commands","params":{"commands":7}}`)); err != nil {
		t.Fatal(err)
	}
	eventually(t, "the malformed push's log line", func() bool { return strings.Contains(logs.String(), "malformed cmd_editor_commands") })
	if _, ok, _ := b.Command("cmd_hello_wave"); !ok {
		t.Error("a malformed push dropped the table")
	}
}

// An editor whose addon declares no table (older than the server) gets an
// empty one: nothing is declared.
func TestCommandTableAbsent(t *testing.T) {
	b := start(t)
	hello := fakeaddon.DefaultHello()
	hello.Commands = nil
	connect(t, b, fakeaddon.WithHello(hello))
	if err := b.WaitConnected(testCtx(t)); err != nil {
		t.Fatal(err)
	}
	if _, ok, err := b.Command("cmd_get_editor_state"); ok || err != nil {
		t.Fatalf("declared=%v err=%v", ok, err)
	}
}

// The real core addon's table, as its handler files declare it: every
// class valid, the public core commands read_only and owned by core. (The
// toolsets' own commands come with their editor code: plugins/commands_test.go.)
func TestAddonCommandTable(t *testing.T) {
	table := fakeaddon.AddonCommands()
	if len(table) < 8 {
		t.Fatalf("only %d commands parsed from the addon", len(table))
	}
	for name, info := range table {
		switch info.Class {
		case "read_only", "mutating", "destructive", "runtime":
		default:
			t.Errorf("%s: class %q", name, info.Class)
		}
		if info.Owner != "core" && !strings.HasPrefix(name, "cmd_"+info.Owner+"_") {
			t.Errorf("%s is owned by %q but is not under its prefix", name, info.Owner)
		}
	}
	for _, c := range []string{"cmd_ping", "cmd_get_editor_state", "cmd_describe_class", "cmd_filesystem_sync", "cmd_check_preconditions"} {
		if info := table[c]; info.Class != "read_only" || info.Owner != "core" {
			t.Errorf("public core command %s = %+v", c, info)
		}
	}
}

// The editor reports its loaded toolset extensions and their versions in
// the hello, and again in each cmd_editor_commands push.
func TestExtensionsFromTheEditor(t *testing.T) {
	b := start(t)
	if _, _, ok := b.Extensions(); ok {
		t.Fatal("extensions without an editor")
	}
	hello := fakeaddon.DefaultHello()
	hello.Extensions = map[string]string{"hello": "v1"}
	a := connect(t, b, fakeaddon.WithHello(hello))
	if err := b.WaitConnected(testCtx(t)); err != nil {
		t.Fatal(err)
	}
	exts, dir, ok := b.Extensions()
	if !ok || exts["hello"] != "v1" || len(exts) != 1 || dir != a.ProjectDir() {
		t.Fatalf("extensions = %v %q %v", exts, dir, ok)
	}
	if err := a.SendRaw(testCtx(t), []byte(`{"command":"cmd_editor_commands","params":{"commands":{},"extensions":{"hello":"v2","other":""}}}`)); err != nil {
		t.Fatal(err)
	}
	eventually(t, "the pushed extensions", func() bool { e, _, _ := b.Extensions(); return e["hello"] == "v2" && len(e) == 2 })
}
