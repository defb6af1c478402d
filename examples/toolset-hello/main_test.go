package main

import (
	"io/fs"
	"regexp"
	"testing"

	"github.com/godot-mcp/godot-mcp/sdk"
	"github.com/godot-mcp/godot-mcp/sdk/sdktest"
)

// The editor commands the tools send, with the class handlers.gd must
// declare: the command that asks the game is runtime (a read_only one could
// not reach the game).
var commands = []sdktest.EditorCommand{
	{Name: "cmd_hello_wave", Class: sdk.ReadOnly},
	{Name: "cmd_hello_ping_via_editor", Class: sdk.Runtime},
}

// wave sends the toolset's own editor command and returns its answer.
func TestWave(t *testing.T) {
	h := sdktest.StartWith(t, toolset(), commands)
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

// The shipped GDScript declares exactly those commands, with those classes,
// as the tests (and the tools' classes) assume.
func TestEditorCodeDeclaresCommands(t *testing.T) {
	sdktest.CheckEditorCode(t, toolset(), commands)
}

// ping sends the game message "hello:ping" (cmd_game_message, the toolset
// set by the host) and returns the game's answer; ping_via_editor sends
// the toolset's own runtime editor command.
func TestPing(t *testing.T) {
	h := sdktest.Start(t, toolset())
	h.Addon().HandleResult(sdk.GameMessageCommand, map[string]any{"frame": 120, "physics_frame": 118, "scene": "res://main.tscn"})
	var out PingOut
	if err := h.MustCall(t, "ping", nil).Decode(&out); err != nil {
		t.Fatal(err)
	}
	if out.Frame != 120 || out.PhysicsFrame != 118 || out.Scene != "res://main.tscn" {
		t.Fatalf("ping = %+v", out)
	}
	if p := h.LastParams(t, sdk.GameMessageCommand); p["toolset"] != "hello" || p["message"] != "ping" {
		t.Fatalf("sent %v", p)
	}
	h.Addon().HandleResult("cmd_hello_ping_via_editor", map[string]any{"frame": 3, "scene": "res://main.tscn", "editor_scene": "res://level.tscn"})
	if err := h.MustCall(t, "ping_via_editor", nil).Decode(&out); err != nil || out.Frame != 3 || out.EditorScene != "res://level.tscn" {
		t.Fatalf("ping_via_editor = %+v %v", out, err)
	}
}

// The shipped game code registers "ping" (TestEditorCodeDeclaresCommands
// checks that the editor command that asks the game is declared runtime).
func TestGameCodeDeclaresPing(t *testing.T) {
	src, err := fs.ReadFile(toolset().GameCode, "game.gd")
	if err != nil {
		t.Fatal(err)
	}
	if !regexp.MustCompile(`return \{"ping": _ping\}`).Match(src) {
		t.Fatalf("game.gd does not register ping:\n%s", src)
	}
}
