package e2e

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"
)

// The scene of TestErrorsReachTheAgent's game: push_error on its first frame.
var errsGameFiles = map[string]string{
	"errs_game.gd":   "extends Node\n\n\nfunc _ready() -> void:\n\tpush_error(\"errfeed: game boom\")\n",
	"errs_game.tscn": "[gd_scene load_steps=2 format=3]\n\n[ext_resource type=\"Script\" path=\"res://errs_game.gd\" id=\"1_e\"]\n\n[node name=\"ErrsGame\" type=\"Node\"]\nscript = ExtResource(\"1_e\")\n",
}

// errorsOf calls an unrelated core tool (the editor's state) and returns the
// errors note attached to its result ("" without one).
func errorsOf(t *testing.T, s *session) string {
	t.Helper()
	return s.host.mustCall(t, "godot_get_editor_state", nil, nil).Errors
}

// Errors a person would see, and the agent did not cause through a tool,
// reach the agent in the next result of an unrelated call: a parse error
// planted on disk behind the editor's back (a headless editor does not even
// reload the script), each once, and a game's push_error.
func TestErrorsReachTheAgent(t *testing.T) {
	project := rtNewGame(t)
	writeFiles(t, project, errsGameFiles)
	t.Cleanup(func() { rtKillGames(t, project) })
	h := startHostT(t, "ws://127.0.0.1:0")
	e := rtStartEditor(t, project, h.url, false)
	info := waitEditor(t, h, e)
	s := &session{host: h, editor: e, project: project}

	// Whatever the editor printed while starting is delivered now, once. (The
	// feed parses changed scripts only while the editor is not scanning.)
	deadline := time.Now().Add(60 * time.Second)
	for {
		var st struct {
			Scanning bool `json:"scanning"`
		}
		s.host.mustCall(t, "godot_get_editor_state", nil, &st)
		if !st.Scanning {
			break
		}
		if time.Now().After(deadline) {
			t.Fatal("the editor is still scanning after 60 s")
		}
		time.Sleep(200 * time.Millisecond)
	}
	if note := errorsOf(t, s); note != "" {
		t.Logf("the editor printed more while settling:\n%s", note)
	}

	t.Run("parse error planted on disk", func(t *testing.T) {
		if strings.HasPrefix(info.Bridge.Peer.GodotVersion, "4.4") {
			t.Skip("Godot 4.4 has no Logger: the feed reports only what the editor prints, and a headless 4.4 editor does not parse a script changed behind its back (docs/envelope.md)")
		}
		planted := filepath.Join(project, "planted.gd")
		if err := os.WriteFile(planted, []byte("extends Node\n\nfunc _ready() -> void:\n\tprint(\"a\"\n"), 0o644); err != nil {
			t.Fatal(err)
		}
		note := errorsOf(t, s)
		if !regexp.MustCompile(`- error \[editor\] res://planted\.gd:\d+: Parse Error`).MatchString(note) ||
			!strings.Contains(note, "godot_diagnostics_editor_log") {
			t.Fatalf("the next result does not carry the planted parse error:\n%q\n--- editor output ---\n%s", note, e.out.String())
		}
		if note := errorsOf(t, s); strings.Contains(note, "planted.gd") {
			t.Fatalf("the parse error was delivered twice:\n%s", note)
		}

		// Another error in the same file (a later modification time) is new.
		time.Sleep(1100 * time.Millisecond)
		if err := os.WriteFile(planted, []byte("extends Node\n\nvar x: int = \"text\"\n"), 0o644); err != nil {
			t.Fatal(err)
		}
		if note := errorsOf(t, s); !regexp.MustCompile(`res://planted\.gd:3: .*`).MatchString(note) {
			t.Fatalf("a second error in the file is not reported:\n%q", note)
		}

		// Fixed: nothing more.
		time.Sleep(1100 * time.Millisecond)
		if err := os.WriteFile(planted, []byte("extends Node\n"), 0o644); err != nil {
			t.Fatal(err)
		}
		if note := errorsOf(t, s); strings.Contains(note, "planted.gd") {
			t.Fatalf("a fixed script is reported:\n%s", note)
		}
	})

	t.Run("game error", func(t *testing.T) {
		s.host.mustCall(t, "godot_enable_toolset", map[string]any{"name": "runtime"}, nil)
		rtWaitStatus(t, s, "the probe autoload to be registered", func(st rtStatus) bool { return st.ProbeRegistered })
		r := s.host.mustCall(t, "godot_runtime_play", map[string]any{"scene": "res://errs_game.tscn"}, nil)
		notes := []string{r.Errors}
		want := regexp.MustCompile(`- error \[game\] res://errs_game\.gd:5: errfeed: game boom`)
		deadline := time.Now().Add(20 * time.Second)
		for !want.MatchString(strings.Join(notes, "\n")) {
			if time.Now().After(deadline) {
				t.Fatalf("no result carried the game's error; notes:\n%s", strings.Join(notes, "\n---\n"))
			}
			time.Sleep(200 * time.Millisecond)
			notes = append(notes, errorsOf(t, s))
		}
		if !strings.Contains(strings.Join(notes, "\n"), "godot_runtime_get_errors") {
			t.Errorf("the note does not say where to read more:\n%s", strings.Join(notes, "\n"))
		}
		if note := errorsOf(t, s); want.MatchString(note) {
			t.Errorf("the game error was delivered twice:\n%s", note)
		}
		s.host.mustCall(t, "godot_runtime_stop", nil, nil)
	})
}
