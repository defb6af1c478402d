package shader

import (
	"context"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/godot-mcp/godot-mcp/plugins/internal/godotproc"
	"github.com/godot-mcp/godot-mcp/sdk"
	"github.com/godot-mcp/godot-mcp/sdk/sdktest"
)

var commands = []sdktest.EditorCommand{
	{Name: "cmd_shader_write", Class: sdk.Mutating, DryRun: true},
	{Name: "cmd_shader_get_params", Class: sdk.ReadOnly},
	{Name: "cmd_shader_set_params", Class: sdk.Mutating, DryRun: true},
}

func start(t *testing.T) *sdktest.Harness {
	t.Helper()
	return sdktest.StartWith(t, Toolset(), commands)
}

func TestEditorCodeDeclaresCommands(t *testing.T) {
	sdktest.CheckEditorCode(t, Toolset(), commands)
	files, _ := fs.Glob(Toolset().EditorCode, "*.gd")
	for _, f := range files {
		b, _ := fs.ReadFile(Toolset().EditorCode, f)
		if n := strings.Count(string(b), "\n"); n > 600 {
			t.Errorf("%s has %d lines; split it (limit 600)", f, n)
		}
	}
}

func autoloadMark(dir string) string {
	return filepath.Join(filepath.Dir(dir), filepath.Base(dir)+".autoload-ran")
}

// project is a bare Godot project for the compile process, set as the
// server's project; skips without a Godot binary.
func project(t *testing.T, files map[string]string) string {
	t.Helper()
	if _, err := godotproc.FindGodot(context.Background(), nil); err != nil {
		if _, err := exec.LookPath("godot"); err != nil {
			t.Skip("no Godot binary (GODOT_BIN or godot on PATH)")
		}
	}
	dir := t.TempDir()
	files["project.godot"] = "config_version=5\n[autoload]\nBoom=\"*res://boom.gd\"\n"
	// An autoload that leaves a mark beside the project if anything runs the project's code.
	files["boom.gd"] = "extends Node\nfunc _init() -> void:\n\tFileAccess.open(\"" + filepath.ToSlash(autoloadMark(dir)) + "\", FileAccess.WRITE).store_string(\"ran\")\n"
	for name, body := range files {
		p := filepath.Join(dir, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	t.Setenv(godotproc.ProjectDirEnv, dir)
	return dir
}

const goodShader = `shader_type canvas_item;
render_mode unshaded, blend_add;
// a comment: uniform float fake = 1.0;
uniform float speed : hint_range(0.0, 10.0, 0.5) = 2.0;
uniform vec4 tint : source_color = vec4(1.0, 0.5, 0.25, 1.0);
uniform sampler2D noise : filter_nearest;
group_uniforms extra;
uniform int count = 3;

void fragment() {
	COLOR = tint * speed * texture(noise, UV) * float(count);
}
`

func TestValidateGoodShader(t *testing.T) {
	project(t, map[string]string{})
	h := start(t)
	var out Report
	if err := h.MustCall(t, "validate", map[string]any{"code": goodShader}).Decode(&out); err != nil {
		t.Fatal(err)
	}
	if !out.Valid || out.ShaderType != "canvas_item" || len(out.Errors) != 0 || strings.Join(out.RenderModes, ",") != "unshaded,blend_add" {
		t.Fatalf("validate: %+v", out)
	}
	want := []Uniform{
		{Name: "speed", Type: "float", Hint: "range", HintString: "0.0,10.0,0.5", Default: "2.0"},
		{Name: "tint", Type: "vec4", Hint: "none", Default: "vec4(1.0, 0.5, 0.25, 1.0)"},
		{Name: "noise", Type: "sampler2D", Hint: "resource_type", HintString: "Texture2D"},
		{Name: "count", Type: "int", Hint: "range", HintString: "-2147483648,2147483647", Default: "3", Group: "extra"},
	}
	if len(out.Uniforms) != len(want) {
		t.Fatalf("uniforms: %+v", out.Uniforms)
	}
	for i, u := range want {
		if out.Uniforms[i] != u {
			t.Errorf("uniform %d: got %+v, want %+v", i, out.Uniforms[i], u)
		}
	}
}

func TestValidateReportsErrorLine(t *testing.T) {
	project(t, map[string]string{})
	h := start(t)
	bad := strings.Replace(goodShader, "tint * speed", "tint * speeed", 1)
	var out Report
	if err := h.MustCall(t, "validate", map[string]any{"code": bad}).Decode(&out); err != nil {
		t.Fatal(err)
	}
	if out.Valid || len(out.Errors) != 1 || out.Errors[0].Line != 11 || !strings.Contains(out.Errors[0].Message, "speeed") || len(out.Uniforms) != 0 {
		t.Fatalf("validate bad: %+v", out)
	}
	if err := h.MustCall(t, "validate", map[string]any{"code": "void fragment() {}\n"}).Decode(&out); err != nil {
		t.Fatal(err)
	}
	if out.Valid || len(out.Errors) == 0 || !strings.Contains(out.Errors[0].Message, "shader_type") {
		t.Fatalf("no shader_type: %+v", out)
	}
	if err := h.MustCall(t, "validate", map[string]any{"code": "// a shader\nshader_type canvas_items;\nvoid fragment() {}\n"}).Decode(&out); err != nil {
		t.Fatal(err)
	}
	if out.Valid || len(out.Errors) != 1 || out.Errors[0].Line != 2 || !strings.Contains(out.Errors[0].Message, "canvas_item, spatial") {
		t.Fatalf("unknown shader_type: %+v", out)
	}
}

func TestValidateFilesAndIncludes(t *testing.T) {
	dir := project(t, map[string]string{
		"fx/lib.gdshaderinc":  "float twice(float x) { return 2.0 * x; }\n",
		"fx/main.gdshader":    "shader_type spatial;\n#include \"lib.gdshaderinc\"\nuniform float k = 1.0;\nvoid fragment() { ALBEDO = vec3(twice(k)); }\n",
		"fx/missing.gdshader": "shader_type spatial;\n\n#include \"res://nope.gdshaderinc\"\nvoid fragment() {}\n",
	})
	h := start(t)
	var out Report
	if err := h.MustCall(t, "validate", map[string]any{"path": "res://fx/main.gdshader"}).Decode(&out); err != nil {
		t.Fatal(err)
	}
	if !out.Valid || len(out.Uniforms) != 1 || out.Uniforms[0].Name != "k" {
		t.Fatalf("main: %+v", out)
	}
	// An include checked with new code, through the shader that includes it.
	if err := h.MustCall(t, "validate", map[string]any{"path": "res://fx/lib.gdshaderinc", "code": "float twice(float x) { return 2.0 * x }\n"}).Decode(&out); err != nil {
		t.Fatal(err)
	}
	if out.Valid || len(out.Errors) != 1 || out.Errors[0].Line != 1 || out.Errors[0].File != "" || strings.Join(out.CheckedWith, ",") != "res://fx/main.gdshader" {
		t.Fatalf("include: %+v", out)
	}
	if err := h.MustCall(t, "validate", map[string]any{"path": "res://fx/missing.gdshader"}).Decode(&out); err != nil {
		t.Fatal(err)
	}
	if out.Valid || len(out.Errors) != 1 || out.Errors[0].Line != 3 || !strings.Contains(out.Errors[0].Message, "res://nope.gdshaderinc") {
		t.Fatalf("missing include: %+v", out)
	}
	h.MustFail(t, "validate", map[string]any{"path": "res://fx/nope.gdshader"}, sdk.CodeResourceNotFound, "no file res://fx/nope.gdshader")
	h.MustFail(t, "validate", map[string]any{"path": "res://fx/main.gd"}, sdk.CodeValidationError, ".gdshader")
	h.MustFail(t, "validate", map[string]any{}, sdk.CodeValidationError, "give code")
	if _, err := os.Stat(filepath.Join(dir, ".godot")); err == nil {
		t.Error("the compile process wrote the project's .godot")
	}
	if _, err := os.Stat(autoloadMark(dir)); err == nil {
		t.Error("the compile process ran the project's autoload")
	}
	// The mark does show when Godot runs a script in the project itself.
	godot, _ := godotproc.FindGodot(context.Background(), nil)
	quit := filepath.Join(t.TempDir(), "quit.gd")
	os.WriteFile(quit, []byte("extends SceneTree\nfunc _init() -> void:\n\tquit()\n"), 0o644)
	if out, err := exec.Command(godot, "--headless", "--path", dir, "--script", quit).CombinedOutput(); err != nil {
		t.Fatalf("%v\n%s", err, out)
	}
	if _, err := os.Stat(autoloadMark(dir)); err != nil {
		t.Errorf("the autoload check cannot fail: a script run in the project left no mark (%v)", err)
	}
}

func TestWriteSendsAndValidates(t *testing.T) {
	project(t, map[string]string{"a.gdshader": goodShader})
	h := start(t)
	h.Addon().HandleResult("cmd_shader_write", map[string]any{"path": "res://a.gdshader", "created": false, "bytes": 10, "undoable": true, "materials": 1,
		"lost_params": []any{map[string]any{"node": "Sprite", "property": "material", "lost": []string{"old"}}}, "dry_run": false})
	var out WriteOut
	if err := h.MustCall(t, "write", map[string]any{"path": "res://a.gdshader", "code": goodShader}).Decode(&out); err != nil {
		t.Fatal(err)
	}
	if !out.Valid || len(out.Uniforms) != 4 || len(out.LostIn) != 1 || out.LostIn[0].Lost[0] != "old" {
		t.Fatalf("write: %+v", out)
	}
	if p := h.LastParams(t, "cmd_shader_write"); p["code"] != goodShader || p["dry_run"] != false {
		t.Fatalf("sent %v", p)
	}
	h.MustFail(t, "write", map[string]any{"path": "res://a.txt", "code": "x"}, sdk.CodeValidationError, ".gdshaderinc")
}

func TestSetParamsChecksArguments(t *testing.T) {
	h := start(t)
	h.Addon().HandleResult("cmd_shader_set_params", map[string]any{"target": "S:material", "material": "", "shader": "res://a.gdshader", "params": []any{},
		"changed": []string{"speed"}, "created": true, "persisted": true, "undoable": true, "dry_run": false})
	h.MustCall(t, "set_params", map[string]any{"node": "S", "create_with_shader": "res://a.gdshader", "set": map[string]any{"speed": 3}})
	p := h.LastParams(t, "cmd_shader_set_params")
	if p["property"] != "material" || p["create_with_shader"] != "res://a.gdshader" || p["dry_run"] != false {
		t.Fatalf("sent %v", p)
	}
	h.MustFail(t, "set_params", map[string]any{"node": "S"}, sdk.CodeValidationError, "nothing to do")
	h.MustFail(t, "set_params", map[string]any{"node": "S", "path": "res://m.tres", "reset": []string{"a"}}, sdk.CodeValidationError, "exactly one")
	h.MustFail(t, "set_params", map[string]any{"path": "res://m.tres", "create_with_shader": "res://a.gdshader"}, sdk.CodeValidationError, "needs node")
	h.MustFail(t, "set_params", map[string]any{"node": "S", "set": map[string]any{"a": 1}, "reset": []string{"a"}}, sdk.CodeValidationError, "both")
	h.MustCall(t, "set_params", map[string]any{"path": "res://m.tres", "reset": []string{"a"}}, sdktest.DryRun())
	if p := h.LastParams(t, "cmd_shader_set_params"); p["dry_run"] != true || p["path"] != "res://m.tres" {
		t.Fatalf("dry run sent %v", p)
	}
}

// A dry-run write checks the code given, not the file on disk (nothing was written).
func TestWriteDryRunChecksTheGivenCode(t *testing.T) {
	project(t, map[string]string{"a.gdshader": goodShader})
	h := start(t)
	h.Addon().HandleResult("cmd_shader_write", map[string]any{"path": "res://a.gdshader", "created": false, "bytes": 10, "undoable": false, "materials": 0, "lost_params": nil, "dry_run": true})
	var out WriteOut
	bad := strings.Replace(goodShader, "tint * speed", "tint * speeed", 1)
	if err := h.MustCall(t, "write", map[string]any{"path": "res://a.gdshader", "code": bad}, sdktest.DryRun()).Decode(&out); err != nil {
		t.Fatal(err)
	}
	if out.Valid || len(out.Errors) != 1 || out.Errors[0].Line != 11 || out.LostIn == nil || !out.DryRun {
		t.Fatalf("dry-run write: %+v", out)
	}
	if p := h.LastParams(t, "cmd_shader_write"); p["dry_run"] != true {
		t.Fatalf("sent %v", p)
	}
}

func TestGetParamsTargets(t *testing.T) {
	h := start(t)
	h.Addon().HandleResult("cmd_shader_get_params", map[string]any{"target": "Rect:material", "material": "", "shader": "res://a.gdshader", "params": nil})
	var out ParamsOut
	if err := h.MustCall(t, "get_params", map[string]any{"node": "Rect"}).Decode(&out); err != nil {
		t.Fatal(err)
	}
	if out.Params == nil {
		t.Fatalf("params must be a list: %+v", out)
	}
	if p := h.LastParams(t, "cmd_shader_get_params"); p["node"] != "Rect" || p["property"] != "material" {
		t.Fatalf("sent %v", p)
	}
	h.MustFail(t, "get_params", map[string]any{"path": "res://m.tres", "property": "material"}, sdk.CodeValidationError, "property goes with node")
	h.MustFail(t, "get_params", map[string]any{"path": "/etc/passwd"}, sdk.CodeValidationError, "res://")
	h.MustFail(t, "get_params", map[string]any{}, sdk.CodeValidationError, "exactly one")
}

// #24.12: a compile process that did not finish says how Godot ended, not
// a Go pointer.
func TestValidateThatDidNotRunSaysTheExitCode(t *testing.T) {
	dir := t.TempDir()
	os.WriteFile(filepath.Join(dir, "project.godot"), []byte("config_version=5\n"), 0o644)
	t.Setenv(godotproc.ProjectDirEnv, dir)
	bin := filepath.Join(t.TempDir(), "godot")
	os.WriteFile(bin, []byte("#!/bin/sh\necho 'cannot open display' >&2\nexit 3\n"), 0o755)
	t.Setenv("GODOT_BIN", bin)
	h := start(t)
	res, _ := h.Call(context.Background(), "validate", map[string]any{"code": goodShader})
	if res.Err == nil || !strings.Contains(res.Err.Hint, "exit code 3") || strings.Contains(res.Err.Hint, "0x") {
		t.Fatalf("%+v", res.Err)
	}
}
