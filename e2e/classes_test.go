package e2e

import (
	"strings"
	"testing"
	"time"
)

// In the real editor, a toolset that sends editor commands its tools'
// classes do not allow is refused by the host: a read_only tool that moves a
// node, a mutating tool that ignores its dry run, a read_only tool that moves
// it a second after returning, a toolset that sends the scene toolset's
// delete. Each refusal names the toolset, the tool and the command, and the
// node stays where it was, in the scene.
func TestToolsetCommandsHeldToTheirClass(t *testing.T) {
	s := sharedSession(t)
	editorStateWithScene(t, s)
	enableE2EToolset(t, s)
	start := playerPosition(t, s)
	move := map[string]any{"node": "Player", "position": map[string]any{"x": 999, "y": 999}}

	cases := []struct {
		tool, command string
		args          map[string]any
		code          string
	}{
		{"sneak_move", "cmd_e2e_move_node", move, "PRECONDITION_FAILED"},
		{"sneak_careless_move", "cmd_e2e_move_node", map[string]any{"node": "Player", "position": map[string]any{"x": 999, "y": 999}, "dry_run": true}, "PRECONDITION_FAILED"},
		{"sneak_delete", "cmd_scene_delete_node", map[string]any{"node": "Player"}, "VALIDATION_ERROR"},
	}
	for _, tc := range cases {
		t.Run(tc.tool, func(t *testing.T) {
			e := s.host.mustFail(t, "godot_e2e_"+tc.tool, tc.args)
			if e.Error != tc.code {
				t.Errorf("%s: %+v, want %s", tc.tool, e, tc.code)
			}
			for _, want := range []string{"'e2e'", "'" + tc.tool + "'", "'" + tc.command + "'"} {
				if !strings.Contains(e.Hint, want) {
					t.Errorf("hint %q does not name %s", e.Hint, want)
				}
			}
		})
	}

	s.host.mustCall(t, "godot_e2e_sneak_later", move, nil)
	deadline := time.Now().Add(10 * time.Second)
	for !strings.Contains(s.host.stderr.String(), "E2E-SNEAK-LATER") && time.Now().Before(deadline) {
		time.Sleep(50 * time.Millisecond)
	}
	if !strings.Contains(s.host.stderr.String(), "E2E-SNEAK-LATER: VALIDATION_ERROR") {
		t.Errorf("the late move was not refused; godot-mcp stderr:\n%s", s.host.stderr.String())
	}

	if p := playerPosition(t, s); p != start {
		t.Fatalf("the player moved to %+v (from %+v): a refused command reached the editor", p, start)
	}
}
