package fakeaddon_test

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/godot-mcp/godot-mcp/host/bridge"
	"github.com/godot-mcp/godot-mcp/host/envelope"
	"github.com/godot-mcp/godot-mcp/sdk/sdktest/fakeaddon"
)

func newBridge(t testing.TB) *bridge.Bridge {
	b, err := bridge.New(bridge.Options{URL: "ws://127.0.0.1:0", ServerVersion: "test"})
	if err != nil {
		t.Fatal(err)
	}
	if err := b.Start(context.Background()); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = b.Close() })
	return b
}

func TestWaitCommandCursor(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	b := newBridge(t)
	a, err := fakeaddon.Dial(ctx, b.URL())
	if err != nil {
		t.Fatal(err)
	}
	defer a.Close()
	a.HandleResult("cmd_a", nil)
	for i := range 3 {
		if r := b.Send(ctx, "cmd_a", map[string]int{"i": i}, time.Second); !r.OK {
			t.Fatalf("Send: %+v", r)
		}
	}
	for i := range 3 {
		c, err := a.WaitCommand(ctx, "cmd_a")
		if err != nil {
			t.Fatal(err)
		}
		if want := fmt.Sprintf(`{"i":%d}`, i); string(c.Params) != want {
			t.Errorf("WaitCommand #%d = %s, want %s", i, c.Params, want)
		}
	}
	short, cancel2 := context.WithTimeout(ctx, 10*time.Millisecond)
	defer cancel2()
	if _, err := a.WaitCommand(short, "cmd_a"); !errors.Is(err, context.DeadlineExceeded) {
		t.Errorf("fourth WaitCommand: %v", err)
	}
	// ServerHello does not consume the push for WaitPush.
	if _, err := a.ServerHello(ctx); err != nil {
		t.Fatal(err)
	}
	if _, err := a.WaitPush(ctx, envelope.CmdServerHello); err != nil {
		t.Fatal(err)
	}
}

func TestWaitAfterClose(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	b := newBridge(t)
	a, err := fakeaddon.Dial(ctx, b.URL())
	if err != nil {
		t.Fatal(err)
	}
	_ = b.Close()
	if _, err := a.WaitCommand(ctx, "cmd_never"); err == nil || errors.Is(err, context.DeadlineExceeded) {
		t.Errorf("WaitCommand on a closed link should fail at once: %v", err)
	}
	if err := a.Ping(ctx); err == nil {
		t.Error("Ping on a closed link succeeded")
	}
	_ = a.Close()
	_ = a.Close() // idempotent
}

func TestDialRefusedHTTP(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	b := newBridge(t)
	_, err := fakeaddon.Dial(ctx, b.URL(), fakeaddon.WithHeader("Origin", "https://example.com"))
	var de *fakeaddon.DialError
	if !errors.As(err, &de) || de.StatusCode != 403 {
		t.Fatalf("err = %v", err)
	}
}

// Example shows a test driving the bridge against the fake addon.
func Example() {
	ctx := context.Background()
	b, _ := bridge.New(bridge.Options{URL: "ws://127.0.0.1:0"})
	_ = b.Start(ctx)
	defer b.Close()

	a, err := fakeaddon.Dial(ctx, b.URL(), fakeaddon.WithHello(envelope.EditorHello{ProjectDir: "/game"}))
	if err != nil {
		panic(err)
	}
	defer a.Close()
	a.HandleResult("cmd_get_scene", map[string]string{"root": "Main"})
	a.Silence("cmd_hang")

	r := b.Send(ctx, "cmd_get_scene", nil, time.Second)
	fmt.Println(r.OK, string(r.Result))
	r = b.Send(ctx, "cmd_nope", nil, time.Second)
	fmt.Println(r.Error)
	r = b.Send(ctx, "cmd_hang", nil, 10*time.Millisecond)
	fmt.Println(r.Error)
	// The bridge may give up before the fake editor has read the command.
	for deadline := time.Now().Add(5 * time.Second); len(a.Received()) < 3 && time.Now().Before(deadline); {
		time.Sleep(5 * time.Millisecond)
	}
	fmt.Println(b.Status().Peer.ProjectDir, len(a.Received()))
	// Output:
	// true {"root":"Main"}
	// INTERNAL_ERROR
	// TIMEOUT
	// /game 3
}

// With DefaultHello the fake editor has a project of its own, as a real one
// would: cmd_ext_load of a folder installed there declares the commands its
// .gd files declare (its own namespace only) and reports the stamped
// version; cmd_ext_unload drops them; Close removes the project.
func TestExtensionLoadDeclaresItsCommands(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	b := newBridge(t)
	a, err := fakeaddon.Dial(ctx, b.URL())
	if err != nil {
		t.Fatal(err)
	}
	defer a.Close()
	proj := a.ProjectDir()
	if proj == fakeaddon.DefaultProjectDir {
		t.Fatal("the default project dir is a placeholder")
	}
	if _, err := os.Stat(filepath.Join(proj, "project.godot")); err != nil {
		t.Fatal(err)
	}
	if _, dir, _ := b.Extensions(); dir != proj {
		t.Fatalf("the hello named %q, want %q", dir, proj)
	}
	dir := filepath.Join(proj, "addons", "godot_mcp_ext", "tiles")
	write := func(name, content string) {
		if err := os.MkdirAll(dir, 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dir, name), []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write("handlers.gd", "func get_commands() -> Dictionary:\n\treturn {\n\t\t\"cmd_tiles_fill\": {\"class\": \"mutating\", \"dry_run\": true, \"run\": _fill.fill},\n\t\t\"cmd_scene_sneak\": {\"class\": \"read_only\", \"run\": x},\n\t}\n")
	write("read.gd", "\t\t\"cmd_tiles_read\": {\"class\": \"read_only\", \"run\": read},\n")
	write(".godot_mcp_stamp.json", `{"toolset":"tiles","version":"v7","files":{}}`)

	r := b.Send(ctx, "cmd_ext_load", map[string]string{"prefix": "tiles"}, time.Second)
	if !r.OK || !strings.Contains(string(r.Result), `"version":"v7"`) || !strings.Contains(string(r.Result), `"commands":["cmd_tiles_fill","cmd_tiles_read"]`) {
		t.Fatalf("cmd_ext_load: %+v %s", r, r.Result)
	}
	want := envelope.CommandInfo{Class: "mutating", DryRun: true, Owner: "tiles"}
	if got := a.Commands()["cmd_tiles_fill"]; got != want {
		t.Fatalf("cmd_tiles_fill = %+v", got)
	}
	if _, ok := a.Commands()["cmd_scene_sneak"]; ok {
		t.Fatal("a command outside the folder's namespace was declared")
	}
	waitFor(t, func() bool { info, ok, _ := b.Command("cmd_tiles_read"); return ok && info.Owner == "tiles" })
	if exts, _, _ := b.Extensions(); exts["tiles"] != "v7" {
		t.Fatalf("extensions %v", exts)
	}
	if r := b.Send(ctx, "cmd_ext_unload", map[string]string{"prefix": "tiles"}, time.Second); !r.OK {
		t.Fatalf("cmd_ext_unload: %+v", r)
	}
	if _, ok := a.Commands()["cmd_tiles_fill"]; ok {
		t.Fatal("cmd_tiles_fill is still declared after the unload")
	}
	waitFor(t, func() bool { _, ok, _ := b.Command("cmd_tiles_fill"); return !ok })
	a.Close()
	if _, err := os.Stat(proj); !os.IsNotExist(err) {
		t.Fatalf("Close left the project: %v", err)
	}
}

func waitFor(t *testing.T, cond func() bool) {
	t.Helper()
	deadline := time.Now().Add(5 * time.Second)
	for !cond() {
		if time.Now().After(deadline) {
			t.Fatal("condition not met within 5s")
		}
		time.Sleep(5 * time.Millisecond)
	}
}
