package fakeaddon_test

import (
	"context"
	"os"
	"path/filepath"
	"testing"
	"testing/fstest"
	"time"

	"github.com/godot-mcp/godot-mcp/host/envelope"
	"github.com/godot-mcp/godot-mcp/sdk/sdktest/fakeaddon"
)

const sampleHandlers = `@tool
extends RefCounted
func get_commands() -> Dictionary:
	return {
		"cmd_demo_read": {"class": "read_only", "run": _read},
		"cmd_demo_edit": {"class": "mutating", "dry_run": true, "run": _edit},
		"cmd_other_x": {"class": "read_only", "run": _read},
		# #25.6: declarations over several lines, keys in any order, as the
		# addon reads them (a dictionary).
		"cmd_demo_multi": {
			"run": _edit,  # the handler {"class": "read_only"} in a comment
			"dry_run": true,
			"class": "mutating",
		},
		"cmd_demo_wrapped": {"class":
			"destructive", "run": func(p): return {"ok": "}"}},
	}
`

// ParseCommands reads every .gd file of a toolset's editor code, as the
// addon registers it.
func TestParseCommands(t *testing.T) {
	fsys := fstest.MapFS{
		"handlers.gd":   {Data: []byte(sampleHandlers)},
		"sub/family.gd": {Data: []byte("\t\t\"cmd_demo_del\": {\"class\": \"destructive\", \"run\": f},\n")},
		"notes.md":      {Data: []byte("\t\t\"cmd_demo_no\": {\"class\": \"read_only\", \"run\": f},\n")},
	}
	got, err := fakeaddon.ParseCommands(fsys, "demo")
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]envelope.CommandInfo{
		"cmd_demo_read":    {Class: "read_only", Owner: "demo"},
		"cmd_demo_edit":    {Class: "mutating", DryRun: true, Owner: "demo"},
		"cmd_other_x":      {Class: "read_only", Owner: "demo"},
		"cmd_demo_del":     {Class: "destructive", Owner: "demo"},
		"cmd_demo_multi":   {Class: "mutating", DryRun: true, Owner: "demo"},
		"cmd_demo_wrapped": {Class: "destructive", Owner: "demo"},
	}
	if len(got) != len(want) {
		t.Fatalf("got %v", got)
	}
	for k, v := range want {
		if got[k] != v {
			t.Errorf("%s: got %+v, want %+v", k, got[k], v)
		}
	}
	fsys["dup.gd"] = &fstest.MapFile{Data: []byte("\t\t\"cmd_demo_read\": {\"class\": \"read_only\", \"run\": f},\n")}
	if _, err := fakeaddon.ParseCommands(fsys, "demo"); err == nil {
		t.Error("a command declared twice was accepted")
	}
}

// cmd_ext_load registers the commands the installed folder declares (its
// own prefix only, as the real router does) and pushes them to the server;
// cmd_ext_unload drops them. The default hello's project is a real, private
// Godot project, removed on Close.
func TestExtLoadRegistersTheFolderCommands(t *testing.T) {
	b := newBridge(t)
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	a, err := fakeaddon.Dial(ctx, b.URL())
	if err != nil {
		t.Fatal(err)
	}
	proj := a.ProjectDir()
	if proj == fakeaddon.DefaultProjectDir {
		t.Fatal("the default hello's project is shared")
	}
	if _, err := os.Stat(filepath.Join(proj, "project.godot")); err != nil {
		t.Fatal(err)
	}
	dir := filepath.Join(proj, "addons", "godot_mcp_ext", "demo")
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "handlers.gd"), []byte(sampleHandlers), 0o644); err != nil {
		t.Fatal(err)
	}
	if r := b.Send(ctx, "cmd_ext_load", map[string]string{"prefix": "demo"}, time.Second); !r.OK {
		t.Fatalf("load: %+v", r)
	}
	has := func(c string) bool { _, ok := a.Commands()[c]; return ok }
	if !has("cmd_demo_read") || !has("cmd_demo_edit") || has("cmd_other_x") {
		t.Fatalf("after load: %v", a.Commands())
	}
	for deadline := time.Now().Add(2 * time.Second); ; time.Sleep(10 * time.Millisecond) {
		if _, ok := b.Commands()["cmd_demo_edit"]; ok {
			break
		}
		if time.Now().After(deadline) {
			t.Fatal("the server never got the loaded commands")
		}
	}
	if r := b.Send(ctx, "cmd_ext_unload", map[string]string{"prefix": "demo"}, time.Second); !r.OK {
		t.Fatalf("unload: %+v", r)
	}
	if has("cmd_demo_read") || !has("cmd_ping") {
		t.Fatalf("after unload: %v", a.Commands())
	}
	_ = a.Close()
	if _, err := os.Stat(proj); !os.IsNotExist(err) {
		t.Errorf("the default hello's project %s was left behind", proj)
	}
}
