package shadercheck

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestCollectorSplitsErrorsByJob(t *testing.T) {
	c := NewCollector("@@M ", 2)
	for _, l := range []string{
		"Godot Engine v4.4.1",
		"SHADER ERROR: before any job",
		"@@M begin 0",
		"  SHADER ERROR: Unknown identifier 'x'.",
		"          at: (res://a.gdshader:7)",
		"@@M end 0 {\"a\":1}",
		"@@M begin 1",
		"SHADER ERROR: no line",
		"something else",
		"          at: (:3)",
		"@@M end 1 {}",
		"@@M done",
	} {
		c.Line(l)
	}
	rs, err := c.Results("", "exit code 0")
	if err != nil {
		t.Fatal(err)
	}
	if len(rs[0].Errors) != 1 || rs[0].Errors[0] != (Error{Line: 7, Message: "Unknown identifier 'x'.", File: "res://a.gdshader"}) || string(rs[0].Info) != `{"a":1}` {
		t.Fatalf("job 0: %+v", rs[0])
	}
	// an "at:" line that does not follow the error right away is not its place
	if len(rs[1].Errors) != 1 || rs[1].Errors[0].Line != 0 {
		t.Fatalf("job 1: %+v", rs[1])
	}
	c = NewCollector("@@M ", 2)
	c.Line("@@M begin 0")
	c.Line("@@M end 0 {}")
	c.Line("@@M done")
	if _, err := c.Results("crash", "exit code 3"); err == nil || !strings.Contains(err.Error(), "job 1") {
		t.Fatalf("a missing job: %v", err)
	}
	if _, err := NewCollector("@@M ", 1).Results("boom", "killed at its time limit"); err == nil || !strings.Contains(err.Error(), "killed") {
		t.Fatalf("no done mark: %v", err)
	}
}

func TestShadowProjectKeepsOnlyTheGlobals(t *testing.T) {
	dir := t.TempDir()
	settings := "config_version=5\n\n[application]\n\nrun/main_scene=\"res://m.tscn\"\n\n[autoload]\n\nBoom=\"*res://boom.gd\"\n\n" +
		"[shader_globals]\n\ntint={\n\"type\": \"color\",\n\"value\": Color(1, 0, 0, 1)\n}\n\n[rendering]\n\nx=1\n"
	os.WriteFile(filepath.Join(dir, "project.godot"), []byte(settings), 0o644)
	os.WriteFile(filepath.Join(dir, "a.gdshader"), []byte("shader_type spatial;"), 0o644)
	os.Mkdir(filepath.Join(dir, ".godot"), 0o755)
	proj, err := ShadowProject(dir, t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	b, _ := os.ReadFile(filepath.Join(proj, "project.godot"))
	got := string(b)
	if !strings.Contains(got, "[shader_globals]\n\ntint={\n\"type\": \"color\",\n\"value\": Color(1, 0, 0, 1)\n}\n") || strings.Contains(got, "autoload") || strings.Contains(got, "rendering") || !strings.HasPrefix(got, "config_version=5\n") {
		t.Fatalf("shadow project.godot:\n%s", got)
	}
	if _, err := os.Stat(filepath.Join(proj, "a.gdshader")); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Lstat(filepath.Join(proj, ".godot")); err == nil {
		t.Fatal(".godot is shared")
	}
}

// Godot checks global uniforms only in the editor; CheckGlobals does it for
// a headless compile, with Godot's messages.
func TestCheckGlobals(t *testing.T) {
	dir := t.TempDir()
	os.WriteFile(filepath.Join(dir, "project.godot"), []byte("config_version=5\n\n[shader_globals]\n\ntint={\n\"type\": \"color\",\n\"value\": Color(1, 0, 1, 1)\n}\nwind={\n\"type\": \"float\",\n\"value\": 0.5\n}\n"), 0o644)
	g := GlobalUniforms(dir)
	if len(g) != 2 || g["tint"] != "color" || g["wind"] != "float" {
		t.Fatalf("globals: %v", g)
	}
	code := "shader_type canvas_item;\nglobal uniform vec4 tint : source_color;\nglobal uniform vec2 wind;\nglobal uniform highp float gone;\nuniform float local;\n"
	errs := CheckGlobals(code, g)
	want := []Error{
		{Line: 3, Message: "Global uniform 'wind' must be of type 'float'."},
		{Line: 4, Message: "Global uniform 'gone' does not exist. Create it in Project Settings."},
	}
	if len(errs) != len(want) || errs[0] != want[0] || errs[1] != want[1] {
		t.Fatalf("got %+v", errs)
	}
	if got := GlobalUniforms(t.TempDir()); len(got) != 0 {
		t.Fatalf("no project.godot: %v", got)
	}
}
