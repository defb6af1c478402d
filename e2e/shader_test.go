package e2e

import (
	"context"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"
)

// ---- shader toolset e2e: compile feedback, shader files and ShaderMaterial parameters in a real editor ----

const waveShader = `shader_type canvas_item;
render_mode unshaded;

uniform float speed : hint_range(0.0, 10.0) = 1.0;
uniform vec4 tint : source_color = vec4(1.0);
uniform sampler2D noise;

void fragment() {
	COLOR = tint * texture(noise, UV) * (0.5 + 0.5 * sin(TIME * speed));
}
`

type shaderUniform struct {
	Name       string `json:"name"`
	Type       string `json:"type"`
	Hint       string `json:"hint"`
	HintString string `json:"hint_string"`
	Default    string `json:"default"`
}

type shaderReport struct {
	Valid       bool     `json:"valid"`
	ShaderType  string   `json:"shader_type"`
	RenderModes []string `json:"render_modes"`
	Errors      []struct {
		Line    int    `json:"line"`
		Message string `json:"message"`
		File    string `json:"file"`
	} `json:"errors"`
	Uniforms    []shaderUniform `json:"uniforms"`
	CheckedWith []string        `json:"checked_with"`
}

type shaderWrite struct {
	shaderReport
	Created   bool `json:"created"`
	Undoable  bool `json:"undoable"`
	Materials int  `json:"materials"`
	LostIn    []struct {
		Node string   `json:"node"`
		Lost []string `json:"lost"`
	} `json:"lost_params"`
}

type shaderParams struct {
	Target   string `json:"target"`
	Material string `json:"material"`
	Shader   string `json:"shader"`
	Params   []struct {
		Name  string          `json:"name"`
		Type  string          `json:"type"`
		Value json.RawMessage `json:"value"`
	} `json:"params"`
	Changed   []string `json:"changed"`
	Created   bool     `json:"created"`
	Persisted bool     `json:"persisted"`
	Undoable  bool     `json:"undoable"`
}

func (p shaderParams) value(t *testing.T, name string) string {
	t.Helper()
	for _, e := range p.Params {
		if e.Name == name {
			return string(e.Value)
		}
	}
	t.Fatalf("no param %s in %+v", name, p)
	return ""
}

// shaderCheckScript loads a scene (or material) in a fresh headless Godot and
// prints the ShaderMaterial's shader and parameters.
const shaderCheckScript = `extends SceneTree

func _initialize() -> void:
	var args: PackedStringArray = OS.get_cmdline_user_args()
	var res: Resource = load(args[0])
	var mat: ShaderMaterial = null
	var root: Node = null
	if res is PackedScene:
		root = (res as PackedScene).instantiate()
		mat = root.get_node(args[1]).get("material") as ShaderMaterial
	else:
		mat = res as ShaderMaterial
	var out: Dictionary = {"shader": mat.shader.resource_path if mat != null and mat.shader != null else ""}
	if mat != null:
		var sp: Variant = mat.get_shader_parameter("speed")
		var c: Variant = mat.get_shader_parameter("tint")
		var tex: Variant = mat.get_shader_parameter("noise")
		out["speed"] = sp
		out["tint"] = c.to_html() if c is Color else null
		out["noise"] = (tex as Resource).resource_path if tex is Resource else ""
	if root != null:
		root.free()
	print("SHADER_CHECK " + JSON.stringify(out))
	quit()
`

type shaderCheck struct {
	Shader string   `json:"shader"`
	Speed  *float64 `json:"speed"`
	Tint   *string  `json:"tint"`
	Noise  string   `json:"noise"`
}

func loadShaderHeadless(t testing.TB, project string, args ...string) shaderCheck {
	t.Helper()
	script := filepath.Join(t.TempDir(), "shader_check.gd")
	if err := os.WriteFile(script, []byte(shaderCheckScript), 0o644); err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, suite.godot, append([]string{"--headless", "--path", project, "--script", script, "--"}, args...)...)
	cmd.Env = append(godotEnv(), "GODOT_MCP_BRIDGE_URL=ws://127.0.0.1:1")
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("headless load: %v\n%s", err, out)
	}
	checkEditorOutput(t, "headless shader check", string(out))
	for _, line := range strings.Split(string(out), "\n") {
		if rest, ok := strings.CutPrefix(strings.TrimSpace(line), "SHADER_CHECK "); ok {
			var got shaderCheck
			if err := json.Unmarshal([]byte(rest), &got); err != nil {
				t.Fatalf("bad JSON: %v\n%s", err, rest)
			}
			return got
		}
	}
	t.Fatalf("no SHADER_CHECK line:\n%s", out)
	return shaderCheck{}
}

// Every shader tool against a real editor: a shader is written and its
// uniforms reported, a broken one is written with its error line; a
// ShaderMaterial is put on a ColorRect and its parameters set (names and
// ranges refused first), one undo action; the saved scene and a material
// .tres are read back by a fresh headless Godot; rewriting the shader
// reports the parameter it drops.
func TestShaderWriteValidateParams(t *testing.T) {
	s := newSession(t)
	h := s.host
	for _, ts := range []string{"scene", "shader"} {
		h.mustCall(t, "godot_enable_toolset", map[string]any{"name": ts}, nil)
	}
	h.mustCall(t, "godot_scene_create", map[string]any{"path": "res://fx.tscn", "root_type": "Node2D", "root_name": "FX"}, nil)
	h.mustCall(t, "godot_scene_create_node", map[string]any{"type": "ColorRect", "name": "Rect"}, nil)

	// ---- write and validate ----
	var w shaderWrite
	h.mustCall(t, "godot_shader_write", map[string]any{"path": "res://wave.gdshader", "code": waveShader}, &w)
	if !w.Valid || !w.Created || !w.Undoable || w.ShaderType != "canvas_item" || len(w.Uniforms) != 3 || strings.Join(w.RenderModes, ",") != "unshaded" {
		t.Fatalf("write wave: %+v", w)
	}
	if b, err := os.ReadFile(filepath.Join(s.project, "wave.gdshader")); err != nil || string(b) != waveShader {
		t.Fatalf("wave.gdshader on disk: %v %q", err, b)
	}
	var v shaderReport
	h.mustCall(t, "godot_shader_validate", map[string]any{"path": "res://wave.gdshader"}, &v)
	want := []shaderUniform{
		{Name: "speed", Type: "float", Hint: "range", HintString: "0.0,10.0,0.001", Default: "1.0"},
		{Name: "tint", Type: "vec4", Hint: "none", Default: "vec4(1.0)"},
		{Name: "noise", Type: "sampler2D", Hint: "resource_type", HintString: "Texture2D"},
	}
	if !v.Valid || len(v.Uniforms) != 3 {
		t.Fatalf("validate wave: %+v", v)
	}
	for i, u := range want {
		if v.Uniforms[i] != u {
			t.Errorf("uniform %d: %+v, want %+v", i, v.Uniforms[i], u)
		}
	}
	broken := strings.Replace(waveShader, "TIME * speed", "TIME * sped", 1)
	h.mustCall(t, "godot_shader_write", map[string]any{"path": "res://broken.gdshader", "code": broken}, &w)
	if w.Valid || len(w.Errors) != 1 || w.Errors[0].Line != 9 || !strings.Contains(w.Errors[0].Message, "sped") {
		t.Fatalf("write broken: %+v", w)
	}
	if _, err := os.Stat(filepath.Join(s.project, "broken.gdshader")); err != nil {
		t.Fatalf("an invalid shader is written all the same: %v", err)
	}

	// ---- a ShaderMaterial on the ColorRect ----
	var p shaderParams
	h.mustCall(t, "godot_shader_set_params", map[string]any{"node": "Rect", "create_with_shader": "res://wave.gdshader",
		"set": map[string]any{"speed": 3.5, "tint": "#ff8040", "noise": "res://icon.svg"}}, &p)
	if !p.Created || !p.Undoable || p.Shader != "res://wave.gdshader" || strings.Join(p.Changed, ",") != "noise,speed,tint" || p.value(t, "speed") != "3.5" {
		t.Fatalf("set_params create: %+v", p)
	}
	sceneFail(t, s, "godot_shader_set_params", map[string]any{"node": "Rect", "set": map[string]any{"sped": 1}}, "VALIDATION_ERROR", "Did you mean 'speed'?")
	sceneFail(t, s, "godot_shader_set_params", map[string]any{"node": "Rect", "set": map[string]any{"speed": 20, "tint": "#000000"}}, "VALIDATION_ERROR", "hint_range")
	sceneFail(t, s, "godot_shader_set_params", map[string]any{"node": "Rect", "property": "materal", "set": map[string]any{"speed": 1}}, "VALIDATION_ERROR", "Did you mean 'material'?")
	h.mustCall(t, "godot_shader_get_params", map[string]any{"node": "Rect"}, &p)
	if p.value(t, "speed") != "3.5" || !strings.Contains(p.value(t, "noise"), "res://icon.svg") {
		t.Fatalf("refusals changed something: %+v", p)
	}

	// A dry run answers what would be and changes nothing.
	h.mustCall(t, "godot_shader_set_params", map[string]any{"node": "Rect", "set": map[string]any{"speed": 9}, "dry_run": true}, &p)
	if p.value(t, "speed") != "9" && p.value(t, "speed") != "9.0" || p.Undoable {
		t.Fatalf("dry run: %+v", p)
	}
	h.mustCall(t, "godot_shader_get_params", map[string]any{"node": "Rect"}, &p)
	if p.value(t, "speed") != "3.5" {
		t.Fatalf("a dry run changed the material: %+v", p)
	}

	// One call, one undo action.
	h.mustCall(t, "godot_shader_set_params", map[string]any{"node": "Rect", "set": map[string]any{"speed": 7}, "reset": []string{"tint"}}, &p)
	if p.value(t, "speed") != "7" && p.value(t, "speed") != "7.0" || p.value(t, "tint") != "null" {
		t.Fatalf("set then reset: %+v", p)
	}
	sceneUndo(t, s)
	h.mustCall(t, "godot_shader_get_params", map[string]any{"node": "Rect"}, &p)
	if p.value(t, "speed") != "3.5" || p.value(t, "tint") == "null" {
		t.Fatalf("after undo: %+v", p)
	}

	// ---- saved, and read back by a fresh Godot ----
	h.mustCall(t, "godot_scene_save", nil, nil)
	got := loadShaderHeadless(t, s.project, "res://fx.tscn", "Rect")
	if got.Shader != "res://wave.gdshader" || got.Speed == nil || *got.Speed != 3.5 || got.Tint == nil || *got.Tint != "ff8040ff" || got.Noise != "res://icon.svg" {
		t.Fatalf("saved scene read back: %+v", got)
	}

	// ---- a material file: saved at once, undo saves it back ----
	tres := "[gd_resource type=\"ShaderMaterial\" load_steps=2 format=3]\n\n[ext_resource type=\"Shader\" path=\"res://wave.gdshader\" id=\"1_s\"]\n\n[resource]\nshader = ExtResource(\"1_s\")\nshader_parameter/speed = 1.5\n"
	if err := os.WriteFile(filepath.Join(s.project, "wave_mat.tres"), []byte(tres), 0o644); err != nil {
		t.Fatal(err)
	}
	h.mustCall(t, "godot_shader_set_params", map[string]any{"path": "res://wave_mat.tres", "set": map[string]any{"speed": 2.25}}, &p)
	if !p.Persisted || p.Material != "res://wave_mat.tres" {
		t.Fatalf("set_params on a .tres: %+v", p)
	}
	if got := loadShaderHeadless(t, s.project, "res://wave_mat.tres"); got.Speed == nil || *got.Speed != 2.25 {
		t.Fatalf("wave_mat.tres read back: %+v", got)
	}
	var u struct {
		undoAnswer
		History string `json:"history"`
	}
	h.mustCall(t, "godot_undo", map[string]any{"history": "global"}, &u)
	if u.Performed != 1 || u.History != "global" || !strings.Contains(strings.Join(u.Actions, ""), "wave_mat.tres") {
		t.Fatalf("undo of the .tres edit: %+v", u)
	}
	if got := loadShaderHeadless(t, s.project, "res://wave_mat.tres"); got.Speed == nil || *got.Speed != 1.5 {
		t.Fatalf("wave_mat.tres after undo: %+v", got)
	}

	// ---- rewriting the shader reports the parameter it drops ----
	renamed := strings.ReplaceAll(waveShader, "speed", "rate")
	h.mustCall(t, "godot_shader_write", map[string]any{"path": "res://wave.gdshader", "code": renamed, "dry_run": true}, &w)
	if !w.Valid || len(w.LostIn) != 1 || w.Uniforms[0].Name != "rate" {
		t.Fatalf("rewrite dry run: %+v", w)
	}
	if b, _ := os.ReadFile(filepath.Join(s.project, "wave.gdshader")); string(b) != waveShader {
		t.Fatalf("a dry run wrote the file")
	}
	h.mustCall(t, "godot_shader_write", map[string]any{"path": "res://wave.gdshader", "code": renamed}, &w)
	if !w.Valid || w.Created || w.Materials != 1 || len(w.LostIn) != 1 || w.LostIn[0].Node != "Rect" || strings.Join(w.LostIn[0].Lost, ",") != "speed" {
		t.Fatalf("rewrite: %+v", w)
	}
	h.mustCall(t, "godot_shader_get_params", map[string]any{"node": "Rect"}, &p)
	if p.value(t, "rate") != "null" {
		t.Fatalf("the editor's copy has the new uniforms: %+v", p)
	}
	sceneFail(t, s, "godot_shader_get_params", map[string]any{"node": "."}, "PRECONDITION_FAILED", "create_with_shader")

	// The write is one action in the global history: undo puts the file and the
	// editor's copy back.
	var wu struct {
		undoAnswer
		History string `json:"history"`
	}
	h.mustCall(t, "godot_undo", map[string]any{"history": "global"}, &wu)
	if wu.Performed != 1 || !strings.Contains(strings.Join(wu.Actions, ""), "write res://wave.gdshader") {
		t.Fatalf("undo of the write: %+v", wu)
	}
	if b, _ := os.ReadFile(filepath.Join(s.project, "wave.gdshader")); string(b) != waveShader {
		t.Fatalf("undo did not restore wave.gdshader: %q", b)
	}
	h.mustCall(t, "godot_shader_get_params", map[string]any{"node": "Rect"}, &p)
	if p.value(t, "speed") != "3.5" {
		t.Fatalf("after undoing the write the material has speed again: %+v", p)
	}

	// A rewrite that does not compile drops every value the material has set.
	w = shaderWrite{}
	h.mustCall(t, "godot_shader_write", map[string]any{"path": "res://wave.gdshader", "code": broken, "dry_run": true}, &w)
	if w.Valid || len(w.LostIn) != 1 || strings.Join(w.LostIn[0].Lost, ",") != "noise,speed,tint" {
		t.Fatalf("a broken rewrite (dry run): %+v", w)
	}

	// ---- includes, in a folder the write creates ----
	w = shaderWrite{}
	h.mustCall(t, "godot_shader_write", map[string]any{"path": "res://fx/common.gdshaderinc", "code": "float pulse(float t) { return 0.5 + 0.5 * sin(t); }\n"}, &w)
	if !w.Valid || !w.Created {
		t.Fatalf("write include: %+v", w)
	}
	use := "shader_type canvas_item;\n#include \"common.gdshaderinc\"\nuniform float gain = 1.0;\nvoid fragment() { COLOR.a *= pulse(TIME) * gain; }\n"
	h.mustCall(t, "godot_shader_write", map[string]any{"path": "res://fx/use.gdshader", "code": use}, &w)
	if !w.Valid || len(w.Uniforms) != 1 || w.Uniforms[0].Name != "gain" {
		t.Fatalf("write a shader using the include: %+v", w)
	}
	h.mustCall(t, "godot_shader_write", map[string]any{"path": "res://fx/common.gdshaderinc", "code": "float pulse(float t) {\n\treturn 0.5 + 0.5 * sin(t) }\n"}, &w)
	if w.Valid || len(w.Errors) != 1 || w.Errors[0].Line != 2 || w.Errors[0].File != "" || strings.Join(w.CheckedWith, ",") != "res://fx/use.gdshader" {
		t.Fatalf("a broken include: %+v", w)
	}

	// Undoing the write of a new shader removes it (and the .uid the editor made).
	h.mustCall(t, "godot_shader_write", map[string]any{"path": "res://fx/tmp.gdshader", "code": waveShader}, &w)
	hadUID := false
	if _, err := os.Stat(filepath.Join(s.project, "fx", "tmp.gdshader.uid")); err == nil {
		hadUID = true
	}
	h.mustCall(t, "godot_undo", map[string]any{"history": "global"}, &wu)
	for _, f := range []string{"tmp.gdshader", "tmp.gdshader.uid"} {
		if _, err := os.Stat(filepath.Join(s.project, "fx", f)); err == nil {
			t.Errorf("undo left %s (the editor made a .uid: %v)", f, hadUID)
		}
	}
	t.Logf("the editor made a .uid for the new shader: %v", hadUID)
}
