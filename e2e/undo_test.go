package e2e

import (
	"strings"
	"testing"
)

type vec2 struct {
	X float64 `json:"x"`
	Y float64 `json:"y"`
}

type nodeInfo struct {
	Node     string `json:"node"`
	Type     string `json:"type"`
	Position vec2   `json:"position"`
}

type undoResult struct {
	Requested int      `json:"requested"`
	Performed int      `json:"performed"`
	Actions   []string `json:"actions"`
	DryRun    bool     `json:"dry_run"`
	HasUndo   bool     `json:"has_undo"`
	HasRedo   bool     `json:"has_redo"`
	History   string   `json:"history"`
}

// enableE2EToolset turns on the suite's own toolset (its editor handlers
// come from the sample project's res://addons/godot_mcp_ext/e2e/).
func enableE2EToolset(t *testing.T, s *session) {
	t.Helper()
	var out struct {
		Tools []string `json:"tools"`
	}
	s.host.mustCall(t, "godot_enable_toolset", map[string]any{"name": "e2e"}, &out)
}

func playerPosition(t *testing.T, s *session) vec2 {
	t.Helper()
	var n nodeInfo
	s.host.mustCall(t, "godot_e2e_get_node", map[string]any{"node": "Player"}, &n)
	return n.Position
}

// godot_undo / godot_redo on a real edit of the open scene: a third-party
// toolset moves a node as one undo action (through the addon's extension
// point); undo puts it back, redo moves it again; dry_run changes nothing;
// with nothing to undo the documented PRECONDITION_FAILED comes back.
func TestUndoRedo(t *testing.T) {
	s := sharedSession(t)
	editorStateWithScene(t, s)
	enableE2EToolset(t, s)

	// Start from an empty undo history (other runs may have edited).
	for range 10 {
		var st editorState
		s.host.mustCall(t, "godot_get_editor_state", nil, &st)
		if !st.Undo.HasUndo {
			break
		}
		s.host.mustCall(t, "godot_undo", map[string]any{"count": 100, "confirm": true}, nil)
	}

	t.Run("nothing to undo", func(t *testing.T) {
		e := s.host.mustFail(t, "godot_undo", nil)
		if e.Error != "PRECONDITION_FAILED" || !strings.Contains(e.Hint, "Nothing to undo") {
			t.Errorf("undo with an empty history: %+v, want PRECONDITION_FAILED \"Nothing to undo…\"", e)
		}
	})

	start := playerPosition(t, s)
	if start != (vec2{100, 50}) {
		t.Fatalf("Player starts at %+v, want the scene's {100 50}", start)
	}

	var moved struct {
		Old vec2 `json:"old"`
		New vec2 `json:"new"`
	}
	s.host.mustCall(t, "godot_e2e_move_node", map[string]any{"node": "Player", "position": map[string]any{"x": 300, "y": -20.5}}, &moved)
	if moved.Old != start || moved.New != (vec2{300, -20.5}) {
		t.Fatalf("move answered %+v", moved)
	}
	var st editorState
	s.host.mustCall(t, "godot_get_editor_state", nil, &st)
	if !st.Undo.HasUndo || st.Undo.UndoAction != "Move Player (e2e)" {
		t.Errorf("after the edit, undo = %+v; want has_undo with action \"Move Player (e2e)\"", st.Undo)
	}
	if st.ActiveScene == nil || !st.ActiveScene.Dirty {
		t.Errorf("after the edit the active scene is not marked dirty: %+v", st.ActiveScene)
	}

	t.Run("dry run", func(t *testing.T) {
		var r undoResult
		s.host.mustCall(t, "godot_undo", map[string]any{"dry_run": true}, &r)
		if !r.DryRun || r.Performed != 0 || len(r.Actions) != 1 || r.Actions[0] != "Move Player (e2e)" {
			t.Errorf("dry-run undo = %+v, want the move listed and nothing performed", r)
		}
		if p := playerPosition(t, s); p != moved.New {
			t.Errorf("dry-run undo moved the player to %+v", p)
		}
	})

	var r undoResult
	s.host.mustCall(t, "godot_undo", nil, &r)
	if r.Performed != 1 || len(r.Actions) != 1 || r.Actions[0] != "Move Player (e2e)" || !r.HasRedo {
		t.Errorf("undo = %+v, want the move undone and a redo available", r)
	}
	if p := playerPosition(t, s); p != start {
		t.Errorf("after undo the player is at %+v, want %+v", p, start)
	}

	r = undoResult{}
	s.host.mustCall(t, "godot_redo", nil, &r)
	if r.Performed != 1 || len(r.Actions) != 1 || r.Actions[0] != "Move Player (e2e)" {
		t.Errorf("redo = %+v, want the move redone", r)
	}
	if p := playerPosition(t, s); p != moved.New {
		t.Errorf("after redo the player is at %+v, want %+v", p, moved.New)
	}

	t.Run("nothing to redo", func(t *testing.T) {
		e := s.host.mustFail(t, "godot_redo", nil)
		if e.Error != "PRECONDITION_FAILED" || !strings.Contains(e.Hint, "Nothing to redo") {
			t.Errorf("redo with nothing undone: %+v, want PRECONDITION_FAILED \"Nothing to redo…\"", e)
		}
	})

	t.Run("count", func(t *testing.T) {
		s.host.mustCall(t, "godot_e2e_move_node", map[string]any{"node": "Player", "position": map[string]any{"x": 1, "y": 2}}, nil)
		var r undoResult
		s.host.mustCall(t, "godot_undo", map[string]any{"count": 2, "confirm": true}, &r)
		if r.Requested != 2 || r.Performed != 2 || len(r.Actions) != 2 {
			t.Errorf("undo count 2 = %+v, want two actions undone", r)
		}
		if p := playerPosition(t, s); p != start {
			t.Errorf("after undoing both moves the player is at %+v, want %+v", p, start)
		}
		e := s.host.mustFail(t, "godot_undo", nil)
		if e.Error != "PRECONDITION_FAILED" {
			t.Errorf("undo past the start: %+v, want PRECONDITION_FAILED", e)
		}
	})

	t.Run("bad count", func(t *testing.T) {
		e := s.host.mustFail(t, "godot_undo", map[string]any{"count": 0.5})
		if e.Error != "VALIDATION_ERROR" {
			t.Errorf("undo count 0.5: %+v, want VALIDATION_ERROR", e)
		}
	})
}

// A toolset tool that declares the active_scene precondition runs when a
// scene is open: the editor command checks it itself (no extra round trip).
func TestToolsetPreconditionActiveScene(t *testing.T) {
	s := sharedSession(t)
	editorStateWithScene(t, s)
	enableE2EToolset(t, s)
	var n nodeInfo
	s.host.mustCall(t, "godot_e2e_get_node_in_scene", map[string]any{"node": "Player"}, &n)
	if n.Type != "Node2D" {
		t.Errorf("get_node_in_scene = %+v", n)
	}
}

// godot_undo then godot_redo on the global history while a scene with its
// own undo entries is open: the undo cannot go through the editor's Undo menu
// (Ctrl+Z would pick the scene's history), so it steps the global history
// itself; the redo must still find that step (the editor's Redo menu does not
// know of it) and put the change back.
func TestGlobalRedoAfterUndoWithASceneOpen(t *testing.T) {
	s := sharedSession(t)
	editorStateWithScene(t, s)
	enableE2EToolset(t, s)
	s.host.mustCall(t, "godot_enable_toolset", map[string]any{"name": "project"}, nil)
	const key = "application/config/description"
	description := func() any {
		var got struct {
			Settings map[string]any `json:"settings"`
		}
		s.host.mustCall(t, "godot_project_get_settings", map[string]any{"keys": []string{key}}, &got)
		return got.Settings[key]
	}
	before := description()
	t.Cleanup(func() {
		s.host.mustCall(t, "godot_project_set_settings", map[string]any{"reset": []string{key}}, nil)
		if before != nil && before != "" {
			s.host.mustCall(t, "godot_project_set_settings", map[string]any{"settings": map[string]any{key: before}}, nil)
		}
	})
	// The scene gets an undo entry of its own.
	s.host.mustCall(t, "godot_e2e_move_node", map[string]any{"node": "Player", "position": map[string]any{"x": 7, "y": 7}}, nil)
	s.host.mustCall(t, "godot_project_set_settings", map[string]any{"settings": map[string]any{key: "global redo check"}}, nil)

	var u undoResult
	s.host.mustCall(t, "godot_undo", map[string]any{"history": "global"}, &u)
	if u.Performed != 1 || u.History != "global" || !u.HasRedo {
		t.Fatalf("global undo = %+v, want one action undone and a redo available", u)
	}
	if got := description(); got == "global redo check" {
		t.Fatalf("after the global undo the description is still %q", got)
	}
	var r undoResult
	s.host.mustCall(t, "godot_redo", map[string]any{"history": "global"}, &r)
	if r.Performed != 1 || r.History != "global" || len(r.Actions) != 1 || !strings.Contains(r.Actions[0], "set project settings") {
		t.Fatalf("global redo = %+v, want the settings change redone", r)
	}
	if got := description(); got != "global redo check" {
		t.Fatalf("after the global redo the description is %v, want %q", got, "global redo check")
	}
	// The scene's own entry is untouched by both.
	var st editorState
	s.host.mustCall(t, "godot_get_editor_state", nil, &st)
	if !st.Undo.HasUndo || st.Undo.UndoAction != "Move Player (e2e)" {
		t.Errorf("the scene's history after the global undo and redo: %+v, want its move still there", st.Undo)
	}
	s.host.mustCall(t, "godot_undo", nil, nil) // the move
}
