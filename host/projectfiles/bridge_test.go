package projectfiles_test

import (
	"context"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/godot-mcp/godot-mcp/host/bridge"
	"github.com/godot-mcp/godot-mcp/host/pluginhost"
	"github.com/godot-mcp/godot-mcp/host/projectfiles"
	"github.com/godot-mcp/godot-mcp/sdk/sdktest/fakeaddon"
)

// Through the real bridge and the fake addon: Ensure installs the files
// into the editor's project, the editor loads the folder and reports the
// stamp's version (the next Ensure sends nothing), Remove unloads and
// deletes.
func TestInstallerThroughTheBridge(t *testing.T) {
	b, err := bridge.New(bridge.Options{URL: "ws://127.0.0.1:0", ServerVersion: "test", HelloTimeout: 2 * time.Second})
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	if err := b.Start(ctx); err != nil {
		t.Fatal(err)
	}
	defer func() { _ = b.Close() }()
	proj := t.TempDir()
	if err := os.WriteFile(filepath.Join(proj, "project.godot"), nil, 0o644); err != nil {
		t.Fatal(err)
	}
	hello := fakeaddon.DefaultHello()
	hello.ProjectDir = proj
	a, err := fakeaddon.Dial(ctx, b.URL(), fakeaddon.WithHello(hello))
	if err != nil {
		t.Fatal(err)
	}
	defer func() { _ = a.Close() }()
	if err := b.WaitConnected(ctx); err != nil {
		t.Fatal(err)
	}
	in := &projectfiles.Installer{Bridge: b}
	info := pluginhost.ToolsetInfo{Name: "hello", EditorVersion: "abc", EditorFiles: []pluginhost.EditorFile{{Path: "handlers.gd", Content: []byte("@tool\n")}}}
	if e := in.Ensure(ctx, info); e != nil {
		t.Fatal(e)
	}
	if _, err := os.Stat(filepath.Join(proj, "addons", "godot_mcp_ext", "hello", "handlers.gd")); err != nil {
		t.Fatal(err)
	}
	if got := a.Extensions()["hello"]; got != "abc" {
		t.Fatalf("the editor loaded version %q", got)
	}
	if exts, _, _ := b.Extensions(); exts["hello"] != "abc" {
		t.Fatalf("the bridge has %v", exts)
	}
	n := len(a.Received())
	if e := in.Ensure(ctx, info); e != nil || len(a.Received()) != n {
		t.Fatalf("a current version was loaded again: %v", e)
	}
	if note := in.Remove(ctx, info); note != "" {
		t.Fatal(note)
	}
	if _, ok := a.Extensions()["hello"]; ok {
		t.Fatal("not unloaded")
	}
	if _, err := os.Stat(filepath.Join(proj, "addons", "godot_mcp_ext", "hello")); !os.IsNotExist(err) {
		t.Fatal("files left")
	}
}
