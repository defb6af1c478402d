package e2e

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/godot-mcp/godot-mcp/host/projectfiles"
)

type helloPing struct {
	Frame        int    `json:"frame"`
	PhysicsFrame int    `json:"physics_frame"`
	Scene        string `json:"scene"`
	EditorScene  string `json:"editor_scene"`
}

// The hello example's game code (game/game.gd, "hello:ping") in the real
// editor and a real game: enabling hello installs it next to its editor
// code under the same stamp; a game played with the runtime probe loads it,
// and both of hello's runtime tools get the game's own frame count (checked
// against the playtest toolset's eval of Engine.get_process_frames() in the
// same game) — one through sdk.GameMessage, one through hello's editor code.
// A game started before hello was enabled is refused with
// toolset_game_code until played again; disable removes the game code; a
// prefix clash planted in the project is refused in the game with the reason.
func TestHelloGameCode(t *testing.T) {
	plugins := t.TempDir()
	ctx, cancel := context.WithTimeout(context.Background(), buildTimeout)
	defer cancel()
	build := exec.CommandContext(ctx, "go", "build", "-o", filepath.Join(plugins, "hello"), ".")
	build.Dir = filepath.Join(suite.root, "examples", "toolset-hello")
	if b, err := build.CombinedOutput(); err != nil {
		t.Fatalf("building examples/toolset-hello: %v\n%s", err, b)
	}
	project := rtNewGame(t)
	t.Cleanup(func() { rtKillGames(t, project) })
	h := startHostT(t, "ws://127.0.0.1:0", "GODOT_MCP_PLUGIN_DIR="+plugins)
	e := rtStartEditor(t, project, h.url, false)
	waitEditor(t, h, e)
	s := &session{host: h, editor: e, project: project}

	for _, name := range []string{"runtime", "playtest", "hello"} {
		h.mustCall(t, "godot_enable_toolset", map[string]any{"name": name}, nil)
	}
	rtWaitStatus(t, s, "the probe autoload to be registered", func(st rtStatus) bool { return st.ProbeRegistered })
	dir := filepath.Join(project, "addons", "godot_mcp_ext", "hello")
	src, err := os.ReadFile(filepath.Join(dir, "game", "game.gd"))
	if err != nil || !strings.Contains(string(src), `"ping": _ping`) {
		t.Fatalf("hello's game code is not installed: %v", err)
	}
	st, err := projectfiles.ReadManifest(project, "hello")
	if err != nil || st == nil || st.Files["game/game.gd"] == "" || st.Files["handlers.gd"] == "" {
		t.Fatalf("the stamp does not cover the game code: %+v %v", st, err)
	}

	if e := h.mustFail(t, "godot_hello_ping", nil); e.Error != "PRECONDITION_FAILED" || e.Required != "runtime_probe" {
		t.Fatalf("ping without a game = %+v", e)
	}

	var run rtPlay
	h.mustCall(t, "godot_runtime_play", nil, &run)
	if !run.ProbeConnected {
		t.Fatalf("play: %+v", run)
	}
	ping := func(tool string) helloPing {
		t.Helper()
		var out helloPing
		h.mustCall(t, tool, nil, &out)
		return out
	}
	first := ping("godot_hello_ping")
	evalFrame := int(ptNum(t, s, "var f := Engine.get_process_frames()\nreturn f"))
	time.Sleep(250 * time.Millisecond) // the game runs on meanwhile
	second := ping("godot_hello_ping")
	if first.Scene != "res://main.tscn" || first.Frame <= 0 || first.PhysicsFrame < 0 {
		t.Fatalf("ping = %+v", first)
	}
	if !(first.Frame <= evalFrame && evalFrame <= second.Frame) || second.Frame <= first.Frame {
		t.Fatalf("the game's frame counts do not line up: ping %d, eval %d, ping %d", first.Frame, evalFrame, second.Frame)
	}
	via := ping("godot_hello_ping_via_editor")
	if via.Scene != "res://main.tscn" || via.Frame < second.Frame {
		t.Fatalf("ping_via_editor = %+v (after a ping at frame %d)", via, second.Frame)
	}

	// A game that started before the game code was installed does not have it.
	h.mustCall(t, "godot_runtime_stop", nil, nil)
	var dis struct {
		Notes []string `json:"notes"`
	}
	h.mustCall(t, "godot_disable_toolset", map[string]any{"name": "hello"}, &dis)
	if _, err := os.Stat(dir); !os.IsNotExist(err) || len(dis.Notes) != 0 {
		t.Fatalf("disable left hello's code: %v %v", err, dis.Notes)
	}
	h.mustCall(t, "godot_runtime_play", nil, &run)
	h.mustCall(t, "godot_enable_toolset", map[string]any{"name": "hello"}, nil)
	if e := h.mustFail(t, "godot_hello_ping", nil); e.Error != "PRECONDITION_FAILED" || e.Required != "toolset_game_code" || !strings.Contains(e.Hint, "Play the game again") {
		t.Fatalf("ping to a game without hello's game code = %+v", e)
	}
	// Prefix clashes, planted by hand: game code in a folder named as the
	// probe's own prefix is not loaded, and a toolset's key under another
	// toolset's prefix is refused; the game says why, and hello is unharmed.
	plant := func(folder, src string) {
		t.Helper()
		p := filepath.Join(project, "addons", "godot_mcp_ext", folder, "game", "game.gd")
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(src), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	const clashSrc = "extends RefCounted\n\nfunc get_messages() -> Dictionary:\n\treturn {\"hello:ping\": _x, \"fine\": _x}\n\nfunc _x(_p: Dictionary) -> Dictionary:\n\treturn {\"ok\": true, \"result\": {}}\n"
	plant("clash", clashSrc)
	plant("godot_mcp", clashSrc)
	h.mustCall(t, "godot_runtime_play", nil, &run)
	rtWaitLog(t, s, "godot_runtime_get_output", run.OutputCursor, "the refused key", rtTextHas("refused game message 'hello:ping' of toolset 'clash'", "under its own prefix only"))
	rtWaitLog(t, s, "godot_runtime_get_output", run.OutputCursor, "the refused prefix", rtTextHas("toolset 'godot_mcp''s game code not loaded", "the probe's own message prefix"))
	if got := ping("godot_hello_ping"); got.Frame <= 0 || got.Scene != "res://main.tscn" {
		t.Fatalf("ping after playing again = %+v", got)
	}
	h.mustCall(t, "godot_runtime_stop", nil, nil)
}

// rtTextHas matches an output entry whose text contains every part.
func rtTextHas(parts ...string) func(rtEntry) bool {
	return func(e rtEntry) bool {
		for _, p := range parts {
			if !strings.Contains(e.Text, p) {
				return false
			}
		}
		return true
	}
}
