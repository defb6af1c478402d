package sdktest_test

import (
	"context"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"testing/fstest"
	"time"

	"github.com/godot-mcp/godot-mcp/host/bridge"
	"github.com/godot-mcp/godot-mcp/host/projectfiles"
	"github.com/godot-mcp/godot-mcp/sdk"
	"github.com/godot-mcp/godot-mcp/sdk/contract"
	"github.com/godot-mcp/godot-mcp/sdk/internal/sdkhook"
	"github.com/godot-mcp/godot-mcp/sdk/sdktest"
	"github.com/godot-mcp/godot-mcp/sdk/sdktest/fakeaddon"
)

type pingOut struct {
	Frame int `json:"frame"`
}

// gamey is a toolset with game code: a runtime tool that pings the game and
// a read_only one that tries to.
func gamey(withEditor bool) sdk.Toolset {
	send := func(ctx context.Context, call *sdk.Call, _ struct{}) (pingOut, error) {
		return sdk.GameMessage[pingOut](ctx, call.Host, "ping", map[string]any{"n": 1}, 2*time.Second)
	}
	ts := sdk.Toolset{
		Name: "gamey", Version: "0.1.0", Description: "A toolset with game code.",
		Tools: []sdk.Tool{
			sdk.NewTool("ping", sdk.ToolOptions{Safety: sdk.Runtime}, send),
			sdk.NewTool("peek", sdk.ToolOptions{Safety: sdk.ReadOnly}, send),
			sdk.NewTool("edit", sdk.ToolOptions{Safety: sdk.Mutating}, send),
		},
		GameCode: fstest.MapFS{"game.gd": {Data: []byte("extends RefCounted\n\nfunc get_messages() -> Dictionary:\n\treturn {}\n")}},
	}
	if withEditor {
		ts.EditorCode = fstest.MapFS{"handlers.gd": {Data: []byte("@tool\nextends RefCounted\n\nfunc get_commands() -> Dictionary:\n\treturn {}\n")}}
	}
	return ts
}

// A runtime tool's game message reaches the editor as cmd_game_message
// with the toolset set by the host; a read_only or mutating tool's attempt
// is refused with PRECONDITION_FAILED (required command_class) and nothing
// reaches the editor.
func TestGameMessageHeldToRuntimeTools(t *testing.T) {
	h := sdktest.Start(t, gamey(false))
	h.Addon().HandleResult(sdk.GameMessageCommand, map[string]any{"frame": 42})
	var out pingOut
	if err := h.MustCall(t, "ping", nil).Decode(&out); err != nil || out.Frame != 42 {
		t.Fatalf("ping = %+v %v", out, err)
	}
	p := h.LastParams(t, sdk.GameMessageCommand)
	if p["toolset"] != "gamey" || p["message"] != "ping" || p["timeout_ms"] != float64(2000) {
		t.Fatalf("cmd_game_message params = %v", p)
	}
	if body, _ := p["params"].(map[string]any); body["n"] != float64(1) {
		t.Fatalf("the message's params = %v", p["params"])
	}
	for _, tool := range []string{"peek", "edit"} {
		n := len(h.Commands())
		res := h.MustFail(t, tool, nil, sdk.CodePreconditionFailed, "only a tool of class runtime reaches the running game")
		if res.Err.Required != contract.RequireCommandClass {
			t.Fatalf("%s: required = %q", tool, res.Err.Required)
		}
		if got := h.Commands(); len(got) != n {
			t.Fatalf("%s: the refused game message reached the editor: %v", tool, got[n:])
		}
	}
}

// Game code is installed next to the editor code (under game/), listed in
// the one version stamp with its hash, loaded by the editor (a toolset with
// game code only loads with no commands), and removed on disable.
func TestGameCodeInstalledStampedRemoved(t *testing.T) {
	for _, withEditor := range []bool{true, false} {
		reg, err := sdkhook.NewToolset(gamey(withEditor))
		if err != nil {
			t.Fatal(err)
		}
		info, err := reg.Describe(context.Background())
		if err != nil {
			t.Fatal(err)
		}
		b, err := bridge.New(bridge.Options{URL: "ws://127.0.0.1:0", ServerVersion: "test", HelloTimeout: 2 * time.Second})
		if err != nil {
			t.Fatal(err)
		}
		ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
		if err := b.Start(ctx); err != nil {
			t.Fatal(err)
		}
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
		if err := b.WaitConnected(ctx); err != nil {
			t.Fatal(err)
		}
		in := &projectfiles.Installer{Bridge: b}
		if e := in.Ensure(ctx, info); e != nil {
			t.Fatalf("editor code %v: %v", withEditor, e)
		}
		dir := filepath.Join(proj, "addons", "godot_mcp_ext", "gamey")
		if src, err := os.ReadFile(filepath.Join(dir, "game", "game.gd")); err != nil || !strings.Contains(string(src), "get_messages") {
			t.Fatalf("game.gd not installed: %v", err)
		}
		st, err := projectfiles.ReadManifest(proj, "gamey")
		if err != nil || st == nil || st.Version != info.EditorVersion || len(st.Files["game/game.gd"]) != 64 {
			t.Fatalf("stamp = %+v %v", st, err)
		}
		if _, hasHandlers := st.Files["handlers.gd"]; hasHandlers != withEditor {
			t.Fatalf("stamp files = %v", st.Files)
		}
		if got := a.Extensions()["gamey"]; got != info.EditorVersion {
			t.Fatalf("the editor loaded version %q, want %q", got, info.EditorVersion)
		}
		n := len(a.Received())
		if e := in.Ensure(ctx, info); e != nil || len(a.Received()) != n {
			t.Fatalf("a current version was loaded again: %v", e)
		}
		if note := in.Remove(ctx, info); note != "" {
			t.Fatal(note)
		}
		if _, err := os.Stat(dir); !os.IsNotExist(err) {
			left, _ := os.ReadDir(dir)
			t.Fatalf("files left after remove: %v", left)
		}
		if _, loaded := a.Extensions()["gamey"]; loaded {
			t.Fatal("not unloaded")
		}
		if !slices.Contains(func() []string {
			var out []string
			for _, c := range a.Received() {
				out = append(out, c.Command)
			}
			return out
		}(), projectfiles.CmdUnload) {
			t.Fatal("no cmd_ext_unload sent")
		}
		_ = a.Close()
		_ = b.Close()
		cancel()
	}
}
