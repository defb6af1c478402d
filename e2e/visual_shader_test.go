package e2e

import (
	"context"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
	"syscall"
	"testing"
	"time"
)

// ---- visual_shader toolset e2e: graphs from a spec and back, edits and undo, Godot's compile verdict, global uniforms ----

type vsCompile struct {
	Checked bool `json:"checked"`
	Valid   bool `json:"valid"`
	Errors  []struct {
		Line    int    `json:"line"`
		Message string `json:"message"`
		Code    string `json:"code"`
	} `json:"errors"`
	Note string `json:"note"`
}

type vsGraph struct {
	Path        string          `json:"path"`
	Spec        json.RawMessage `json:"spec"`
	Nodes       int             `json:"nodes"`
	Connections int             `json:"connections"`
	Created     bool            `json:"created"`
	Applied     []string        `json:"applied"`
	Undoable    bool            `json:"undoable"`
	DryRun      bool            `json:"dry_run"`
	Compile     vsCompile       `json:"compile"`
}

// vsSpec is the graph the round trip writes, in the canonical form get
// answers (non-default values only, enum values by name, ports by name where
// Godot names them, else by index).
var vsSpec = map[string]any{
	"mode":  "spatial",
	"flags": []any{"unshaded"},
	"modes": map[string]any{"cull": "Disabled"},
	"functions": map[string]any{
		"fragment": map[string]any{
			"nodes": []any{
				map[string]any{"id": 2, "type": "ColorConstant", "position": []any{-400, 0}, "props": map[string]any{"constant": map[string]any{"r": 1, "g": 0.5, "b": 0, "a": 1}}},
				map[string]any{"id": 3, "type": "Input", "position": []any{-400, 200}, "props": map[string]any{"input_name": "uv"}},
				map[string]any{"id": 4, "type": "VectorOp", "position": []any{-200, 0}, "props": map[string]any{"operator": "Multiply"}, "defaults": map[string]any{"b": map[string]any{"x": 0.5, "y": 0.5, "z": 0.5}}},
				map[string]any{"id": 5, "type": "FloatConstant", "position": []any{-200, 300}, "props": map[string]any{"constant": 0.25}},
			},
			"connections": []any{
				map[string]any{"from": 4, "from_port": "op", "to": 0, "to_port": "albedo"},
				map[string]any{"from": 3, "from_port": "uv", "to": 0, "to_port": "emission"},
				map[string]any{"from": 5, "from_port": 0, "to": 0, "to_port": "roughness"},
				map[string]any{"from": 2, "from_port": 0, "to": 4, "to_port": "a"},
			},
		},
	},
}

// vsCheckScript loads a VisualShader .tres in a fresh headless Godot,
// generates its code (which compiles it) and prints what it found.
const vsCheckScript = `extends SceneTree

func _initialize() -> void:
	var args: PackedStringArray = OS.get_cmdline_user_args()
	var res: Resource = load(args[0])
	var out: Dictionary = {"class": res.get_class() if res != null else ""}
	if res is VisualShader:
		var vs: VisualShader = res
		out["mode"] = vs.get_mode()
		out["fragment_nodes"] = vs.get_node_list(VisualShader.TYPE_FRAGMENT).size()
		out["fragment_connections"] = vs.get_node_connections(VisualShader.TYPE_FRAGMENT).size()
		out["code"] = vs.get_code()
		var mat: ShaderMaterial = ShaderMaterial.new()
		mat.shader = vs
		out["params"] = vs.get_shader_uniform_list().size()
	print("VS_CHECK " + JSON.stringify(out))
	quit()
`

type vsCheck struct {
	Class       string `json:"class"`
	Mode        int    `json:"mode"`
	Nodes       int    `json:"fragment_nodes"`
	Connections int    `json:"fragment_connections"`
	Code        string `json:"code"`
	Output      string `json:"-"`
}

// vsLoadHeadless loads res in a fresh headless Godot of the project; the
// output must hold no shader error.
func vsLoadHeadless(t *testing.T, project, res string) vsCheck {
	t.Helper()
	script := filepath.Join(t.TempDir(), "vs_check.gd")
	if err := os.WriteFile(script, []byte(vsCheckScript), 0o644); err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, suite.godot, "--headless", "--path", project, "--script", script, "--", res)
	cmd.Env = append(godotEnv(), "GODOT_MCP_BRIDGE_URL=ws://127.0.0.1:1")
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("headless load: %v\n%s", err, out)
	}
	for _, line := range strings.Split(string(out), "\n") {
		if rest, ok := strings.CutPrefix(strings.TrimSpace(line), "VS_CHECK "); ok {
			var got vsCheck
			if err := json.Unmarshal([]byte(rest), &got); err != nil {
				t.Fatalf("bad JSON: %v\n%s", err, rest)
			}
			got.Output = string(out)
			return got
		}
	}
	t.Fatalf("no VS_CHECK line:\n%s", out)
	return vsCheck{}
}

// vsNoEngineErrors fails when the editor printed an error of Godot's
// VisualShader code (a graph reloaded in place, a bad connection...).
func vsNoEngineErrors(t *testing.T, s *session) {
	t.Helper()
	for _, l := range grepLines(s.editor.out.String(), "visual_shader.cpp") {
		t.Errorf("the editor printed: %s", l)
	}
}

var vsConnsRE = regexp.MustCompile(`(?m)^(nodes/\w+/connections = PackedInt32Array\()([^)]*)\)`)

// vsNormalize is a VisualShader .tres with each function's connections in
// a fixed order (undo may put a restored connection last; the graph is the
// same).
func vsNormalize(b []byte) string {
	return vsConnsRE.ReplaceAllStringFunc(string(b), func(m string) string {
		sub := vsConnsRE.FindStringSubmatch(m)
		nums := strings.Split(sub[2], ", ")
		var quads []string
		for i := 0; i+3 < len(nums); i += 4 {
			quads = append(quads, strings.Join(nums[i:i+4], ", "))
		}
		sort.Strings(quads)
		return sub[1] + strings.Join(quads, ", ") + ")"
	})
}

func vsSameJSON(t *testing.T, what string, got json.RawMessage, want any) {
	t.Helper()
	var g, w any
	b, _ := json.Marshal(want)
	json.Unmarshal(b, &w)
	if err := json.Unmarshal(got, &g); err != nil {
		t.Fatalf("%s: %v", what, err)
	}
	gb, _ := json.Marshal(g)
	wb, _ := json.Marshal(w)
	if string(gb) != string(wb) {
		t.Fatalf("%s differs:\n got %s\nwant %s", what, gb, wb)
	}
}

// The graph spec round-trips (create -> get equal), the saved .tres loads in
// a fresh Godot and compiles; edits are checked, all or nothing, one undo
// action each; a dry run changes nothing.
func TestVisualShaderRoundTripEditUndo(t *testing.T) {
	s := newSession(t)
	h := s.host
	h.mustCall(t, "godot_enable_toolset", map[string]any{"name": "visual_shader"}, nil)

	// ---- the catalog ----
	var cat struct {
		Output [][2]string `json:"output"`
		Inputs [][2]string `json:"inputs"`
		Nodes  []struct {
			Type string      `json:"type"`
			In   [][2]string `json:"in"`
			Out  [][2]string `json:"out"`
		} `json:"nodes"`
	}
	h.mustCall(t, "godot_visual_shader_catalog", map[string]any{"mode": "spatial", "function": "fragment"}, &cat)
	has := func(ps [][2]string, p [2]string) bool {
		for _, x := range ps {
			if x == p {
				return true
			}
		}
		return false
	}
	if !has(cat.Output, [2]string{"albedo", "vec3"}) || !has(cat.Output, [2]string{"roughness", "float"}) || !has(cat.Inputs, [2]string{"uv", "vec2"}) {
		t.Fatalf("catalog output/inputs: %+v %+v", cat.Output, cat.Inputs)
	}
	found := 0
	for _, n := range cat.Nodes {
		switch n.Type {
		case "VectorOp":
			found++
			if len(n.In) != 2 || n.In[0] != [2]string{"a", "vec3"} || n.In[1] != [2]string{"b", "vec3"} || len(n.Out) != 1 || n.Out[0] != [2]string{"op", "vec3"} {
				t.Errorf("VectorOp ports: %+v", n)
			}
		case "Texture":
			found++
			if len(n.Out) < 1 || n.Out[0][1] != "vec4" || len(n.In) < 3 || n.In[0] != [2]string{"uv", "vec2"} || n.In[2][1] != "sampler" {
				t.Errorf("Texture ports: %+v", n)
			}
		case "ParticleAccelerator", "SDFRaymarch":
			t.Errorf("%s is listed for a spatial shader", n.Type)
		}
	}
	if found != 2 || len(cat.Nodes) < 60 {
		t.Fatalf("catalog has %d nodes; VectorOp/Texture found %d", len(cat.Nodes), found)
	}
	var one struct {
		Node struct {
			Type  string `json:"type"`
			Props []struct {
				Name    string   `json:"name"`
				Options []string `json:"options"`
			} `json:"props"`
		} `json:"node"`
	}
	h.mustCall(t, "godot_visual_shader_catalog", map[string]any{"mode": "spatial", "type": "VectorOp"}, &one)
	opOK := false
	for _, p := range one.Node.Props {
		opOK = opOK || p.Name == "operator" && strings.Contains(strings.Join(p.Options, ","), "Multiply")
	}
	if one.Node.Type != "VectorOp" || !opOK {
		t.Fatalf("VectorOp detail: %+v", one)
	}
	sceneFail(t, s, "godot_visual_shader_catalog", map[string]any{"type": "ColorConstan"}, "VALIDATION_ERROR", "Did you mean 'ColorConstant'?")

	// ---- create, read back equal, compiled ----
	var c vsGraph
	h.mustCall(t, "godot_visual_shader_create", map[string]any{"path": "res://fx/orange.tres", "spec": vsSpec, "dry_run": true}, &c)
	if !c.DryRun || c.Undoable || !c.Compile.Valid {
		t.Fatalf("create dry run: %+v", c)
	}
	vsSameJSON(t, "create dry run", c.Spec, vsSpec)
	if _, err := os.Stat(filepath.Join(s.project, "fx", "orange.tres")); err == nil {
		t.Fatal("a dry run wrote fx/orange.tres")
	}
	h.mustCall(t, "godot_visual_shader_create", map[string]any{"path": "res://fx/orange.tres", "spec": vsSpec}, &c)
	if !c.Created || !c.Undoable || c.Nodes != 4 || c.Connections != 4 {
		t.Fatalf("create: %+v", c)
	}
	if !c.Compile.Checked || !c.Compile.Valid {
		t.Fatalf("create compile: %+v", c.Compile)
	}
	vsSameJSON(t, "create's read back", c.Spec, vsSpec)
	var g vsGraph
	h.mustCall(t, "godot_visual_shader_get", map[string]any{"path": "res://fx/orange.tres"}, &g)
	vsSameJSON(t, "get", g.Spec, vsSpec)

	got := vsLoadHeadless(t, s.project, "res://fx/orange.tres")
	if got.Class != "VisualShader" || got.Mode != 0 || got.Nodes != 5 || got.Connections != 4 || !strings.Contains(got.Code, "ALBEDO") || !strings.Contains(got.Code, "unshaded") {
		t.Fatalf("fresh Godot read: %+v", got)
	}
	if strings.Contains(got.Output, "SHADER ERROR") {
		t.Fatalf("the saved shader does not compile in a fresh Godot:\n%s", got.Output)
	}
	var v struct {
		vsCompile
		Mode string `json:"mode"`
		Code string `json:"code"`
	}
	h.mustCall(t, "godot_visual_shader_validate", map[string]any{"path": "res://fx/orange.tres", "include_code": true}, &v)
	if !v.Checked || !v.Valid || v.Mode != "spatial" || !strings.Contains(v.Code, "ALBEDO") {
		t.Fatalf("validate: %+v", v)
	}

	// ---- bad input: refused with the valid set, nothing written ----
	bad := func(nodes []any, conns []any) map[string]any {
		return map[string]any{"path": "res://fx/bad.tres", "spec": map[string]any{"mode": "spatial", "functions": map[string]any{"fragment": map[string]any{"nodes": nodes, "connections": conns}}}}
	}
	col := map[string]any{"id": 2, "type": "ColorConstant"}
	sceneFail(t, s, "godot_visual_shader_create", bad([]any{map[string]any{"type": "ColourConstant"}}, []any{}), "VALIDATION_ERROR", "Did you mean 'ColorConstant'?", "VectorOp")
	sceneFail(t, s, "godot_visual_shader_create", bad([]any{map[string]any{"type": "ColorConstant", "props": map[string]any{"constnt": "#ff0000"}}}, []any{}), "VALIDATION_ERROR", "Did you mean 'constant'?")
	sceneFail(t, s, "godot_visual_shader_create", bad([]any{col}, []any{map[string]any{"from": 2, "from_port": 0, "to": 0, "to_port": "albdo"}}), "VALIDATION_ERROR", "Did you mean 'albedo'?", "roughness")
	sceneFail(t, s, "godot_visual_shader_create", bad([]any{map[string]any{"id": 2, "type": "TransformConstant"}}, []any{map[string]any{"from": 2, "from_port": 0, "to": 0, "to_port": "albedo"}}), "VALIDATION_ERROR", "incompatible", "transform")
	sceneFail(t, s, "godot_visual_shader_create", bad([]any{col}, []any{map[string]any{"from": 7, "from_port": 0, "to": 0, "to_port": "albedo"}}), "RESOURCE_NOT_FOUND", "no node 7")
	sceneFail(t, s, "godot_visual_shader_create", bad([]any{map[string]any{"type": "Input", "props": map[string]any{"input_name": "uvv"}}}, []any{}), "VALIDATION_ERROR", "Did you mean 'uv'?")
	sceneFail(t, s, "godot_visual_shader_create", map[string]any{"path": "res://fx/orange.tres", "spec": vsSpec}, "PRECONDITION_FAILED", "exists")
	if _, err := os.Stat(filepath.Join(s.project, "fx", "bad.tres")); err == nil {
		t.Fatal("a refused create wrote fx/bad.tres")
	}

	// ---- edit: one undo action; all or nothing; dry run ----
	before, _ := os.ReadFile(filepath.Join(s.project, "fx", "orange.tres"))
	var e vsGraph
	h.mustCall(t, "godot_visual_shader_edit", map[string]any{"path": "res://fx/orange.tres", "ops": []any{
		map[string]any{"op": "add_node", "id": 6, "type": "Float", "position": []any{-200, 400}, "props": map[string]any{"constant": 0.8}},
		map[string]any{"op": "connect", "from": 6, "from_port": 0, "to": 0, "to_port": "metallic"},
		map[string]any{"op": "set", "id": 5, "props": map[string]any{"constant": 0.75}},
		map[string]any{"op": "connect", "from": 6, "from_port": 0, "to": 0, "to_port": "roughness"},
	}}, &e)
	if !e.Undoable || e.Nodes != 5 || e.Connections != 5 || len(e.Applied) != 4 || !strings.Contains(e.Applied[3], "replacing") || !e.Compile.Valid {
		t.Fatalf("edit: %+v", e)
	}
	after, _ := os.ReadFile(filepath.Join(s.project, "fx", "orange.tres"))
	if string(after) == string(before) || !strings.Contains(string(after), "0.8") {
		t.Fatalf("the edit is not on disk:\n%s", after)
	}
	got = vsLoadHeadless(t, s.project, "res://fx/orange.tres")
	if got.Nodes != 6 || got.Connections != 5 || !strings.Contains(got.Code, "METALLIC") || strings.Contains(got.Output, "SHADER ERROR") {
		t.Fatalf("edited file in a fresh Godot: %+v", got)
	}
	var u struct {
		undoAnswer
		History string `json:"history"`
	}
	h.mustCall(t, "godot_undo", map[string]any{"history": "global"}, &u)
	if u.Performed != 1 || !strings.Contains(strings.Join(u.Actions, ""), "orange.tres") {
		t.Fatalf("undo: %+v", u)
	}
	h.mustCall(t, "godot_visual_shader_get", map[string]any{"path": "res://fx/orange.tres"}, &g)
	vsSameJSON(t, "get after undo", g.Spec, vsSpec)
	if undone, _ := os.ReadFile(filepath.Join(s.project, "fx", "orange.tres")); vsNormalize(undone) != vsNormalize(before) {
		t.Fatalf("undo left the file changed:\n%s", undone)
	}

	// A bad op after good ones changes nothing.
	sceneFail(t, s, "godot_visual_shader_edit", map[string]any{"path": "res://fx/orange.tres", "ops": []any{
		map[string]any{"op": "remove_node", "id": 5},
		map[string]any{"op": "connect", "from": 2, "from_port": "rgb", "to": 0, "to_port": "albedo"},
	}}, "VALIDATION_ERROR", "ops[1]", "no output port 'rgb'")
	sceneFail(t, s, "godot_visual_shader_edit", map[string]any{"path": "res://fx/orange.tres", "ops": []any{
		map[string]any{"op": "set", "id": 4, "props": map[string]any{"operator": "Multiplyy"}},
	}}, "VALIDATION_ERROR", "Multiply")
	// A property change that takes away a fed port: refused, with the ops before it.
	sceneFail(t, s, "godot_visual_shader_edit", map[string]any{"path": "res://fx/orange.tres", "ops": []any{
		map[string]any{"op": "add_node", "id": 7, "type": "VectorCompose"},
		map[string]any{"op": "connect", "from": 5, "from_port": 0, "to": 7, "to_port": "z"},
		map[string]any{"op": "set", "id": 7, "props": map[string]any{"op_type": "Vector2"}},
	}}, "VALIDATION_ERROR", "no longer fit", "no longer exists")
	h.mustCall(t, "godot_visual_shader_edit", map[string]any{"path": "res://fx/orange.tres", "dry_run": true, "ops": []any{
		map[string]any{"op": "remove_node", "id": 4},
	}}, &e)
	if !e.DryRun || e.Undoable || e.Connections != 2 {
		t.Fatalf("dry run: %+v", e)
	}
	h.mustCall(t, "godot_visual_shader_get", map[string]any{"path": "res://fx/orange.tres"}, &g)
	vsSameJSON(t, "get after refusals and a dry run", g.Spec, vsSpec)

	// Removing a node takes its connections; undo brings both back.
	h.mustCall(t, "godot_visual_shader_edit", map[string]any{"path": "res://fx/orange.tres", "ops": []any{map[string]any{"op": "remove_node", "id": 4}}}, &e)
	if e.Nodes != 3 || e.Connections != 2 {
		t.Fatalf("remove: %+v", e)
	}
	h.mustCall(t, "godot_undo", map[string]any{"history": "global"}, &u)
	h.mustCall(t, "godot_visual_shader_get", map[string]any{"path": "res://fx/orange.tres"}, &g)
	vsSameJSON(t, "get after undoing the removal", g.Spec, vsSpec)
	// Redo, then undo again: the file follows the editor's copy both ways.
	var r undoAnswer
	h.mustCall(t, "godot_redo", map[string]any{"history": "global"}, &r)
	h.mustCall(t, "godot_visual_shader_get", map[string]any{"path": "res://fx/orange.tres"}, &e)
	if r.Performed != 1 || e.Nodes != 3 || e.Connections != 2 {
		t.Fatalf("redo of the removal: %+v %+v", r, e)
	}
	if got := vsLoadHeadless(t, s.project, "res://fx/orange.tres"); got.Nodes != 4 || got.Connections != 2 {
		t.Fatalf("the redone removal on disk: %+v", got)
	}
	h.mustCall(t, "godot_undo", map[string]any{"history": "global"}, &u)
	if undone, _ := os.ReadFile(filepath.Join(s.project, "fx", "orange.tres")); vsNormalize(undone) != vsNormalize(before) {
		t.Fatalf("undo left the file changed:\n%s", undone)
	}
	vsNoEngineErrors(t, s)
}

// Global shader uniforms: added, set and removed in project.godot with type
// checks, one undo action; a visual shader reading one compiles only while
// it exists.
func TestVisualShaderGlobals(t *testing.T) {
	s := newSession(t)
	h := s.host
	h.mustCall(t, "godot_enable_toolset", map[string]any{"name": "visual_shader"}, nil)
	var l struct {
		Globals []struct {
			Name  string          `json:"name"`
			Type  string          `json:"type"`
			Value json.RawMessage `json:"value"`
		} `json:"globals"`
	}
	h.mustCall(t, "godot_visual_shader_globals_list", nil, &l)
	if len(l.Globals) != 0 {
		t.Fatalf("fresh project: %+v", l)
	}
	sceneFail(t, s, "godot_visual_shader_globals_set", map[string]any{"changes": []any{map[string]any{"action": "add", "name": "wind", "type": "flaot"}}}, "VALIDATION_ERROR", "Did you mean 'float'?")
	sceneFail(t, s, "godot_visual_shader_globals_set", map[string]any{"changes": []any{map[string]any{"action": "add", "name": "wind", "type": "float", "value": "strong"}}}, "VALIDATION_ERROR", "float")
	sceneFail(t, s, "godot_visual_shader_globals_set", map[string]any{"changes": []any{map[string]any{"action": "add", "name": "uniform", "type": "float"}}}, "VALIDATION_ERROR", "reserved")
	var set struct {
		Undoable bool `json:"undoable"`
		DryRun   bool `json:"dry_run"`
	}
	h.mustCall(t, "godot_visual_shader_globals_set", map[string]any{"changes": []any{
		map[string]any{"action": "add", "name": "vs_tint", "type": "color", "value": "#ff00ff"},
		map[string]any{"action": "add", "name": "wind", "type": "float", "value": 0.5},
	}}, &set)
	pg, _ := os.ReadFile(filepath.Join(s.project, "project.godot"))
	if !set.Undoable || !strings.Contains(string(pg), "[shader_globals]") || !strings.Contains(string(pg), "vs_tint={") || !strings.Contains(string(pg), "Color(1, 0, 1, 1)") {
		t.Fatalf("project.godot after add:\n%s", pg)
	}
	sceneFail(t, s, "godot_visual_shader_globals_set", map[string]any{"changes": []any{map[string]any{"action": "remove", "name": "wnd"}}}, "RESOURCE_NOT_FOUND", "Did you mean 'wind'?")
	sceneFail(t, s, "godot_visual_shader_globals_set", map[string]any{"changes": []any{map[string]any{"action": "set", "name": "wind", "type": "vec2", "value": 1}}}, "VALIDATION_ERROR", "remove it")
	h.mustCall(t, "godot_visual_shader_globals_set", map[string]any{"changes": []any{map[string]any{"action": "set", "name": "wind", "value": 2.5}}, "dry_run": true}, &set)
	h.mustCall(t, "godot_visual_shader_globals_list", nil, &l)
	if len(l.Globals) != 2 || l.Globals[1].Name != "wind" || string(l.Globals[1].Value) != "0.5" {
		t.Fatalf("after a dry run: %+v", l)
	}

	// A shader reading the global compiles.
	spec := map[string]any{"mode": "canvas_item", "functions": map[string]any{"fragment": map[string]any{
		"nodes":       []any{map[string]any{"id": 2, "type": "ColorParameter", "props": map[string]any{"parameter_name": "vs_tint", "qualifier": "Global"}}},
		"connections": []any{map[string]any{"from": 2, "from_port": 0, "to": 0, "to_port": "color"}},
	}}}
	var c vsGraph
	h.mustCall(t, "godot_visual_shader_create", map[string]any{"path": "res://tinted.tres", "spec": spec}, &c)
	if !c.Compile.Checked || !c.Compile.Valid {
		t.Fatalf("a shader reading an existing global: %+v", c.Compile)
	}
	// Removed, and the same shader no longer compiles: Godot says why.
	h.mustCall(t, "godot_visual_shader_globals_set", map[string]any{"changes": []any{map[string]any{"action": "remove", "name": "vs_tint"}}}, &set)
	var v vsCompile
	h.mustCall(t, "godot_visual_shader_validate", map[string]any{"path": "res://tinted.tres"}, &v)
	if v.Valid || len(v.Errors) == 0 || !strings.Contains(v.Errors[0].Message, "vs_tint") {
		t.Fatalf("validate without the global: %+v", v)
	}
	// Undo brings it back, in project.godot too.
	h.mustCall(t, "godot_undo", map[string]any{"history": "global"}, nil)
	pg, _ = os.ReadFile(filepath.Join(s.project, "project.godot"))
	if !strings.Contains(string(pg), "vs_tint={") {
		t.Fatalf("undo did not restore the global:\n%s", pg)
	}
	h.mustCall(t, "godot_visual_shader_validate", map[string]any{"path": "res://tinted.tres"}, &v)
	if !v.Valid {
		t.Fatalf("validate after undo: %+v", v)
	}
	vsNoEngineErrors(t, s)
}

// A material using a visual shader renders: the sample game's green Panel,
// given a ShaderMaterial whose canvas_item visual shader outputs magenta,
// shows magenta in the running game's screenshot (Xvfb, Compatibility).
func TestVisualShaderRendersUnderXvfb(t *testing.T) {
	if why := rtDisplayAvailable(); why != "" {
		t.Skip("visual shader pixels: skipped: " + why)
	}
	s := rtSession(t, true)
	h := s.host
	for _, ts := range []string{"scene", "runtime", "visual_shader"} {
		h.mustCall(t, "godot_enable_toolset", map[string]any{"name": ts}, nil)
	}
	rtWaitStatus(t, s, "the probe autoload to be registered", func(st rtStatus) bool { return st.ProbeRegistered })
	spec := map[string]any{"mode": "canvas_item", "functions": map[string]any{"fragment": map[string]any{
		"nodes":       []any{map[string]any{"id": 2, "type": "Color", "props": map[string]any{"constant": "#ff00ff"}}},
		"connections": []any{map[string]any{"from": 2, "from_port": 0, "to": 0, "to_port": "color"}},
	}}}
	var c vsGraph
	h.mustCall(t, "godot_visual_shader_create", map[string]any{"path": "res://magenta.tres", "spec": spec}, &c)
	if !c.Compile.Valid {
		t.Fatalf("create: %+v", c)
	}
	h.mustCall(t, "godot_scene_set_properties", map[string]any{"node": "Panel", "properties": map[string]any{
		"material": map[string]any{"type": "ShaderMaterial", "properties": map[string]any{"shader": "res://magenta.tres"}}}}, nil)
	h.mustCall(t, "godot_scene_save", nil, nil)
	var run rtPlay
	h.mustCall(t, "godot_runtime_play", map[string]any{"timeout_ms": 60000}, &run)
	t.Cleanup(func() { h.call(context.Background(), "godot_runtime_stop", nil) })
	img, _ := rtScreenshot(t, h, nil)
	if px := img.At(240, 180); !rtNear(px, 255, 0, 255) {
		t.Fatalf("the Panel's pixel (240,180) is %v, want the shader's magenta (saved as %s)", px, rtSavePNG(t, img, "visual-shader"))
	}
	if px := img.At(80, 80); !rtNear(px, 0, 0, 255) {
		t.Errorf("outside the Panel (80,80) is %v, want the blue clear colour", px)
	}
}
