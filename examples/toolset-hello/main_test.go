package main

import (
	"io/fs"
	"regexp"
	"testing"

	"github.com/godot-mcp/godot-mcp/sdk"
	"github.com/godot-mcp/godot-mcp/sdk/sdktest"
)

// wave sends the toolset's own editor command and returns its answer.
func TestWave(t *testing.T) {
	h := sdktest.Start(t, toolset(), sdktest.Declare("cmd_hello_wave", sdk.ReadOnly, false))
	h.Addon().HandleResult("cmd_hello_wave", map[string]any{"wave": "Hello from the Godot editor, you!", "scene": "res://main.tscn"})
	var out WaveOut
	if err := h.MustCall(t, "wave", map[string]any{"to": "you"}).Decode(&out); err != nil {
		t.Fatal(err)
	}
	if out.Wave != "Hello from the Godot editor, you!" || out.Scene != "res://main.tscn" {
		t.Fatalf("wave = %+v", out)
	}
	if got := h.Commands(); len(got) != 1 || got[0] != "cmd_hello_wave" {
		t.Fatalf("sent %v", got)
	}
}

// The shipped GDScript declares cmd_hello_wave read_only, as the test above
// (and the tool's class) assume.
func TestEditorCodeDeclaresWave(t *testing.T) {
	src, err := fs.ReadFile(editorCode(), "handlers.gd")
	if err != nil {
		t.Fatal(err)
	}
	if !regexp.MustCompile(`"cmd_hello_wave": \{"class": "read_only", "run": _wave\}`).Match(src) {
		t.Fatalf("handlers.gd does not declare cmd_hello_wave read_only:\n%s", src)
	}
}
