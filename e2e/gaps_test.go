package e2e

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"
)

// headlessPrint runs a GDScript (extends SceneTree) in a fresh headless
// Godot on project and returns what it printed after marker on one line.
func headlessPrint(t *testing.T, project, source, marker string, args ...string) string {
	t.Helper()
	script := filepath.Join(t.TempDir(), "check.gd")
	if err := os.WriteFile(script, []byte(source), 0o644); err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, suite.godot, append([]string{"--headless", "--path", project, "--script", script, "--"}, args...)...)
	cmd.Env = append(godotEnv(), "GODOT_MCP_BRIDGE_URL=ws://127.0.0.1:1")
	cmd.SysProcAttr = procAttr()
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("headless check: %v\n%s", err, out)
	}
	checkEditorOutput(t, "headless check", string(out))
	for _, line := range strings.Split(string(out), "\n") {
		if rest, ok := strings.CutPrefix(strings.TrimSpace(line), marker+" "); ok {
			return rest
		}
	}
	t.Fatalf("the headless check printed no %s line:\n%s", marker, out)
	return ""
}

// The Player's script is detached (a dry run first changes nothing), the
// saved scene loads in a fresh Godot with no script on Player while the
// script file stays; detaching again answers detached:false.
func TestScriptsDetach(t *testing.T) {
	s := fileSession(t)
	editorStateWithScene(t, s)
	enableToolsets(t, s, "scripts", "scene")

	var dry struct {
		Detached       bool   `json:"detached"`
		DryRun         bool   `json:"dry_run"`
		PreviousScript string `json:"previous_script"`
	}
	s.host.mustCall(t, "godot_scripts_detach", map[string]any{"node": "Player", "dry_run": true}, &dry)
	if !dry.DryRun || dry.PreviousScript != "res://player.gd" {
		t.Fatalf("dry run: %+v", dry)
	}
	var d struct {
		Detached       bool   `json:"detached"`
		PreviousScript string `json:"previous_script"`
		Persisted      bool   `json:"persisted"`
		SceneDirty     bool   `json:"scene_dirty"`
	}
	s.host.mustCall(t, "godot_scripts_detach", map[string]any{"node": "Player"}, &d)
	// #28.9: persisted means what it means in the scene toolset: the next save keeps it.
	if !d.Detached || d.PreviousScript != "res://player.gd" || !d.Persisted || !d.SceneDirty {
		t.Fatalf("detach: %+v", d)
	}
	s.host.mustCall(t, "godot_scene_save", map[string]any{}, nil)
	got := loadScenesFresh(t, s.project, "res://main.tscn")
	if n := got["res://main.tscn"]["Player"]; n.Type != "Node2D" || n.Script != "" {
		t.Fatalf("saved scene, fresh Godot: Player = %+v", n)
	}
	if _, err := os.Stat(filepath.Join(s.project, "player.gd")); err != nil {
		t.Fatalf("the script file is gone: %v", err)
	}
	var again struct {
		Detached  bool   `json:"detached"`
		Persisted bool   `json:"persisted"`
		Reason    string `json:"reason"`
	}
	s.host.mustCall(t, "godot_scripts_detach", map[string]any{"node": "Player"}, &again)
	if again.Detached || again.Persisted || !strings.Contains(again.Reason, "no script") {
		t.Fatalf("a second detach: %+v", again)
	}
	if e := s.host.mustFail(t, "godot_scripts_detach", map[string]any{"node": "Playr"}); e.Error != "RESOURCE_NOT_FOUND" || !strings.Contains(e.Hint, "Player") {
		t.Fatalf("unknown node: %+v", e)
	}
}

const textureSizeCheck = `extends SceneTree

func _initialize() -> void:
	var tex: Texture2D = load(OS.get_cmdline_user_args()[0])
	print("TEXTURE_SIZE %d %d" % [tex.get_width(), tex.get_height()])
	quit()
`

var svgScaleRE = regexp.MustCompile(`(?m)^svg/scale=.*$`)

// The icon's import settings are changed on disk (SVG scale 1 -> 2) as a
// user would; reimport makes the imported texture 32x32, seen by a fresh
// Godot; a path that is not an imported asset is skipped with a reason.
func TestResourcesReimport(t *testing.T) {
	s := fileSession(t)
	editorStateWithScene(t, s)
	enableToolsets(t, s, "resources")

	if got := headlessPrint(t, s.project, textureSizeCheck, "TEXTURE_SIZE", "res://icon.svg"); got != "16 16" {
		t.Fatalf("before: the icon is %s, want 16 16", got)
	}
	imp := filepath.Join(s.project, "icon.svg.import")
	b, err := os.ReadFile(imp)
	if err != nil || !svgScaleRE.Match(b) {
		t.Fatalf("icon.svg.import has no svg/scale (%v):\n%s", err, b)
	}
	if err := os.WriteFile(imp, svgScaleRE.ReplaceAll(b, []byte("svg/scale=2.0")), 0o644); err != nil {
		t.Fatal(err)
	}
	var r struct {
		Reimported []string `json:"reimported"`
		Skipped    []struct{ Path, Reason string }
	}
	s.host.mustCall(t, "godot_resources_reimport", map[string]any{"paths": []string{"res://icon.svg", "res://shape.tres"}, "timeout_ms": 60000}, &r)
	if len(r.Reimported) != 1 || r.Reimported[0] != "res://icon.svg" || len(r.Skipped) != 1 || r.Skipped[0].Path != "res://shape.tres" || r.Skipped[0].Reason == "" {
		t.Fatalf("reimport: %+v", r)
	}
	if got := headlessPrint(t, s.project, textureSizeCheck, "TEXTURE_SIZE", "res://icon.svg"); got != "32 32" {
		t.Fatalf("after reimport at scale 2: the icon is %s, want 32 32", got)
	}
}
