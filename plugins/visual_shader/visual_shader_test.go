package visualshader

import (
	"context"
	"encoding/json"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/mark3labs/mcp-go/mcp"

	"github.com/godot-mcp/godot-mcp/plugins/internal/godotproc"
	"github.com/godot-mcp/godot-mcp/sdk"
	"github.com/godot-mcp/godot-mcp/sdk/sdktest"
)

// The commands the tools send, with the class handlers.gd must declare.
var commands = []sdktest.EditorCommand{
	{Name: "cmd_visual_shader_create", Class: sdk.Mutating, DryRun: true},
	{Name: "cmd_visual_shader_get", Class: sdk.ReadOnly},
	{Name: "cmd_visual_shader_edit", Class: sdk.Mutating, DryRun: true},
	{Name: "cmd_visual_shader_catalog", Class: sdk.ReadOnly},
	{Name: "cmd_visual_shader_globals_list", Class: sdk.ReadOnly},
	{Name: "cmd_visual_shader_globals_set", Class: sdk.Mutating, DryRun: true},
}

func start(t *testing.T) *sdktest.Harness {
	t.Helper()
	return sdktest.Start(t, Toolset())
}

// handlers.gd declares every command with the class the tools assume, and
// every script it preloads is shipped.
func TestEditorCodeDeclaresCommands(t *testing.T) {
	sdktest.CheckEditorCode(t, Toolset(), commands)
	err := fs.WalkDir(Toolset().EditorCode, ".", func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() || !strings.HasSuffix(p, ".gd") {
			return err
		}
		b, _ := fs.ReadFile(Toolset().EditorCode, p)
		if n := strings.Count(string(b), "\n"); n > 600 {
			t.Errorf("%s has %d lines; split it (limit 600)", p, n)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	// ports.json is Godot's own port names (testdata/gen_ports.py): the Output
	// node's ports per mode and function, and per node class.
	b, err := fs.ReadFile(Toolset().EditorCode, "ports.json")
	if err != nil {
		t.Fatal(err)
	}
	var ports struct {
		Nodes  map[string]map[string][][2]string `json:"nodes"`
		Output map[string][][2]string            `json:"output"`
	}
	if err := json.Unmarshal(b, &ports); err != nil {
		t.Fatal(err)
	}
	if got := ports.Output["spatial/fragment"]; len(got) < 10 || got[0] != [2]string{"albedo", "vec3"} || got[3] != [2]string{"roughness", "float"} {
		t.Errorf("spatial/fragment output ports: %v", got)
	}
	if got := ports.Nodes["Texture"]["o"]; len(got) != 1 || got[0][0] != "color" {
		t.Errorf("Texture output ports: %v", got)
	}
}

// Each toolset's share of tools/list stays within 16 KB.
func TestToolsListShare(t *testing.T) {
	h := start(t)
	res, err := h.Client().ListTools(context.Background(), mcp.ListToolsRequest{})
	if err != nil {
		t.Fatal(err)
	}
	size, n := 0, 0
	for _, tl := range res.Tools {
		if strings.HasPrefix(tl.Name, "godot_visual_shader_") {
			b, _ := json.Marshal(tl)
			size += len(b)
			n++
			if len(tl.Description) > 600 {
				t.Errorf("%s: description of %d characters", tl.Name, len(tl.Description))
			}
		}
	}
	if n != 7 || size > 16000 {
		t.Fatalf("%d tools, %d bytes", n, size)
	}
	t.Logf("visual_shader tools/list share: %d bytes", size)
}

// fakeGodot is a Godot stand-in for the compile process: it answers each
// job of the jobs file (the argument after "--") with the given output.
func fakeGodot(t *testing.T, perJob string) {
	t.Helper()
	dir := t.TempDir()
	os.WriteFile(filepath.Join(dir, "project.godot"), []byte("config_version=5\n[shader_globals]\n\ntint={\n\"type\": \"color\",\n\"value\": Color(1, 0, 0, 1)\n}\n"), 0o644)
	os.WriteFile(filepath.Join(dir, "fx.tres"), []byte("[gd_resource type=\"VisualShader\" format=3]\n"), 0o644)
	t.Setenv(godotproc.ProjectDirEnv, dir)
	bin := filepath.Join(t.TempDir(), "godot")
	script := "#!/bin/sh\n" +
		"for a in \"$@\"; do case \"$a\" in --path) ;; esac; done\n" +
		// the shadow project carries the project's global uniforms
		"while [ \"$1\" != \"--path\" ]; do shift; done; grep -q '^tint=' \"$2/project.godot\" || { echo 'no globals'; exit 4; }\n" +
		"echo '@@GODOT_MCP_VSHADER begin 0'\n" + perJob + "echo '@@GODOT_MCP_VSHADER done'\n"
	os.WriteFile(bin, []byte(script), 0o755)
	t.Setenv("GODOT_BIN", bin)
}

const genCode = "shader_type spatial;\n\nvoid fragment() {\n\tvec4 n_out2p0 = vec4(1.0, 0.0, 0.0, 1.0);\n\tALBEDO = vec3(n_out2p0.xyz) * nope;\n}\n"

var redSpec = map[string]any{"mode": "spatial", "functions": map[string]any{"fragment": map[string]any{
	"nodes":       []any{map[string]any{"id": 2, "type": "ColorConstant", "position": []any{-200, 100}, "props": map[string]any{"constant": map[string]any{"r": 1, "g": 0, "b": 0, "a": 1}}}},
	"connections": []any{map[string]any{"from": 2, "from_port": 0, "to": 0, "to_port": "albedo"}},
}}}

func TestCreateSendsTheSpecAndReportsGodotsErrors(t *testing.T) {
	fakeGodot(t, "echo '  SHADER ERROR: Unknown identifier in expression: '\"'\"'nope'\"'\"'.'\n"+
		"echo '          at: (:5)'\n"+
		"echo '@@GODOT_MCP_VSHADER end 0 {\"loaded\":true,\"class\":\"\",\"mode\":\"\",\"code\":\"\"}'\n")
	h := start(t)
	h.Addon().HandleResult("cmd_visual_shader_create", map[string]any{"path": "res://fx.tres", "created": true, "overwritten": false,
		"spec": redSpec, "code": genCode, "nodes": 1, "connections": 1, "undoable": true, "dry_run": false})
	var out CreateOut
	if err := h.MustCall(t, "create", map[string]any{"path": "res://fx.tres", "spec": redSpec}).Decode(&out); err != nil {
		t.Fatal(err)
	}
	p := h.LastParams(t, "cmd_visual_shader_create")
	sameJSON(t, p["spec"], redSpec)
	if p["path"] != "res://fx.tres" || p["dry_run"] != false || p["overwrite"] != false {
		t.Fatalf("params %v", p)
	}
	if !out.Created || !out.Undoable || out.Nodes != 1 || out.Spec.Functions["fragment"].Connections[0].ToPort != "albedo" {
		t.Fatalf("create: %+v", out)
	}
	c := out.Compile
	if !c.Checked || c.Valid || len(c.Errors) != 1 || c.Errors[0].Line != 5 || !strings.Contains(c.Errors[0].Message, "nope") || c.Errors[0].Code != "ALBEDO = vec3(n_out2p0.xyz) * nope;" {
		t.Fatalf("compile: %+v", c)
	}
}

func TestCreateChecksBeforeTheEditor(t *testing.T) {
	h := start(t)
	h.MustFail(t, "create", map[string]any{"path": "res://fx.gdshader", "spec": redSpec}, sdk.CodeValidationError, ".tres")
	h.MustFail(t, "create", map[string]any{"path": "res://../up.tres", "spec": redSpec}, sdk.CodeValidationError, "")
	h.MustFail(t, "create", map[string]any{"path": "res://fx.tres", "spec": map[string]any{"mode": "spatail", "functions": map[string]any{}}}, sdk.CodeValidationError, "spatial")
	bad := map[string]any{"mode": "spatial", "functions": map[string]any{"fragment": map[string]any{"nodes": []any{map[string]any{"type": "ColorConstant", "colour": 1}}, "connections": []any{}}}}
	h.MustFail(t, "create", map[string]any{"path": "res://fx.tres", "spec": bad}, sdk.CodeValidationError, "colour")
	// Replacing a file is destructive: it needs confirm.
	h.MustFail(t, "create", map[string]any{"path": "res://fx.tres", "spec": redSpec, "overwrite": true}, sdk.CodePreconditionFailed, "confirm")
	if got := h.Commands(); len(got) != 0 {
		t.Fatalf("the editor was sent %v", got)
	}
}

// The editor's refusals (unknown node type with did-you-mean, and so on)
// reach the agent unchanged.
func TestEditorRefusalsPassThrough(t *testing.T) {
	h := start(t)
	h.Addon().HandleError("cmd_visual_shader_edit", sdk.Validation("ops[0]: Unknown node type 'ColorConstan'. Did you mean 'ColorConstant'?"))
	h.MustFail(t, "edit", map[string]any{"path": "res://fx.tres", "ops": []any{map[string]any{"op": "add_node", "type": "ColorConstan"}}}, sdk.CodeValidationError, "Did you mean 'ColorConstant'?")
	h.MustFail(t, "edit", map[string]any{"path": "res://fx.tres", "ops": []any{map[string]any{"op": "link"}}}, sdk.CodeValidationError, "add_node")
	h.MustFail(t, "edit", map[string]any{"path": "res://fx.tres", "ops": []any{}}, sdk.CodeValidationError, "ops")
}

// A dry run reaches the editor as one (the server sets dry_run) and
// answers what would be; compiling still happens (on the generated code).
func TestEditDryRun(t *testing.T) {
	fakeGodot(t, "echo '@@GODOT_MCP_VSHADER end 0 {\"loaded\":true,\"class\":\"\",\"mode\":\"\",\"code\":\"\"}'\n")
	h := start(t)
	h.Addon().Handle("cmd_visual_shader_edit", func(_ context.Context, p json.RawMessage) (any, *sdk.Error) {
		var in struct {
			DryRun bool `json:"dry_run"`
			Ops    []map[string]any
		}
		json.Unmarshal(p, &in)
		return map[string]any{"path": "res://fx.tres", "spec": redSpec, "code": "shader_type spatial;\n", "applied": []string{"fragment: removed node 2"}, "undoable": !in.DryRun, "dry_run": in.DryRun, "nodes": 1, "connections": 1}, nil
	})
	var out EditOut
	ops := []any{map[string]any{"op": "remove_node", "id": 2}, map[string]any{"op": "connect", "from": 3, "from_port": "rgb", "to": 0, "to_port": 0}}
	if err := h.MustCall(t, "edit", map[string]any{"path": "res://fx.tres", "ops": ops}, sdktest.DryRun()).Decode(&out); err != nil {
		t.Fatal(err)
	}
	p := h.LastParams(t, "cmd_visual_shader_edit")
	if p["dry_run"] != true {
		t.Fatalf("params %v", p)
	}
	// Ports go as given: a name or an index.
	sameJSON(t, p["ops"], []any{map[string]any{"op": "remove_node", "id": 2}, map[string]any{"op": "connect", "from": 3, "from_port": "rgb", "to": 0, "to_port": 0}})
	if !out.DryRun || out.Undoable || !out.Compile.Checked || !out.Compile.Valid || len(out.Applied) != 1 {
		t.Fatalf("edit: %+v", out)
	}
}

// Without a Godot binary the graph is written all the same; compile says why
// it was not checked.
func TestCompileWithoutGodotIsANote(t *testing.T) {
	t.Setenv("GODOT_BIN", filepath.Join(t.TempDir(), "nope"))
	dir := t.TempDir()
	os.WriteFile(filepath.Join(dir, "project.godot"), []byte("config_version=5\n"), 0o644)
	t.Setenv(godotproc.ProjectDirEnv, dir)
	h := start(t)
	h.Addon().HandleResult("cmd_visual_shader_create", map[string]any{"path": "res://fx.tres", "created": true, "spec": redSpec, "code": genCode, "undoable": true})
	var out CreateOut
	if err := h.MustCall(t, "create", map[string]any{"path": "res://fx.tres", "spec": redSpec}).Decode(&out); err != nil {
		t.Fatal(err)
	}
	if out.Compile.Checked || out.Compile.Valid || !strings.Contains(out.Compile.Note, "GODOT_BIN") || !out.Created {
		t.Fatalf("%+v", out)
	}
}

func TestValidateLoadsTheFileInAFreshGodot(t *testing.T) {
	fakeGodot(t, "echo '@@GODOT_MCP_VSHADER end 0 {\"loaded\":true,\"class\":\"VisualShader\",\"mode\":\"canvas_item\",\"code\":\"shader_type canvas_item;\\\\n\"}'\n")
	h := start(t)
	var out ValidateOut
	if err := h.MustCall(t, "validate", map[string]any{"path": "res://fx.tres", "include_code": true}).Decode(&out); err != nil {
		t.Fatal(err)
	}
	if !out.Valid || !out.Checked || out.Mode != "canvas_item" || out.Code != "shader_type canvas_item;\n" {
		t.Fatalf("%+v", out)
	}
	if got := h.Commands(); len(got) != 0 {
		t.Fatalf("validate needs no editor; sent %v", got)
	}
}

func TestValidateRefusesWhatIsNoVisualShader(t *testing.T) {
	fakeGodot(t, "echo '@@GODOT_MCP_VSHADER end 0 {\"loaded\":false,\"class\":\"Shader\",\"mode\":\"\",\"code\":\"\"}'\n")
	h := start(t)
	h.MustFail(t, "validate", map[string]any{"path": "res://fx.tres"}, sdk.CodeValidationError, "is a Shader, not a VisualShader")
	fakeGodot(t, "echo '@@GODOT_MCP_VSHADER end 0 {\"loaded\":false,\"class\":\"\",\"mode\":\"\",\"code\":\"\"}'\n")
	h.MustFail(t, "validate", map[string]any{"path": "res://missing.tres"}, sdk.CodeResourceNotFound, "res://missing.tres")
}

func TestGlobalsSet(t *testing.T) {
	h := start(t)
	h.MustFail(t, "globals_set", map[string]any{"changes": []any{map[string]any{"action": "add", "name": "tint"}}}, sdk.CodeValidationError, "needs type")
	h.MustFail(t, "globals_set", map[string]any{"changes": []any{map[string]any{"action": "set", "name": "a", "value": 1}, map[string]any{"action": "remove", "name": "a"}}}, sdk.CodeValidationError, "twice")
	h.MustFail(t, "globals_set", map[string]any{"changes": []any{map[string]any{"action": "rename", "name": "a"}}}, sdk.CodeValidationError, "add")
	if got := h.Commands(); len(got) != 0 {
		t.Fatalf("the editor was sent %v", got)
	}
	h.Addon().HandleResult("cmd_visual_shader_globals_set", map[string]any{"changes": []any{map[string]any{"action": "add", "name": "tint", "type": "color", "old": nil, "new": map[string]any{"r": 1, "g": 0, "b": 0, "a": 1}}},
		"globals": []any{map[string]any{"name": "tint", "type": "color", "value": map[string]any{"r": 1, "g": 0, "b": 0, "a": 1}}}, "undoable": true, "dry_run": false})
	var out GlobalsSetOut
	if err := h.MustCall(t, "globals_set", map[string]any{"changes": []any{map[string]any{"action": "add", "name": "tint", "type": "color", "value": "#ff0000"}}}).Decode(&out); err != nil {
		t.Fatal(err)
	}
	p := h.LastParams(t, "cmd_visual_shader_globals_set")
	sameJSON(t, p["changes"], []any{map[string]any{"action": "add", "name": "tint", "type": "color", "value": "#ff0000"}})
	if len(out.Globals) != 1 || !out.Undoable || out.Changes[0].Name != "tint" {
		t.Fatalf("%+v", out)
	}
	h.Addon().HandleResult("cmd_visual_shader_globals_list", map[string]any{"globals": nil})
	var l GlobalsOut
	if err := h.MustCall(t, "globals_list", nil).Decode(&l); err != nil || l.Globals == nil {
		t.Fatalf("%+v %v", l, err)
	}
}

func TestGetAndCatalogPassThrough(t *testing.T) {
	h := start(t)
	h.Addon().HandleResult("cmd_visual_shader_get", map[string]any{"path": "res://fx.tres", "spec": map[string]any{"mode": "sky", "functions": map[string]any{"sky": map[string]any{"nodes": nil, "connections": nil}}}})
	var g GraphOut
	if err := h.MustCall(t, "get", map[string]any{"path": "res://fx.tres"}).Decode(&g); err != nil {
		t.Fatal(err)
	}
	if g.Spec.Mode != "sky" || g.Spec.Functions["sky"].Nodes == nil || g.Spec.Functions["sky"].Connections == nil {
		t.Fatalf("%+v", g)
	}
	h.Addon().HandleResult("cmd_visual_shader_catalog", map[string]any{"mode": "spatial", "function": "fragment",
		"output": []any{[]any{"albedo", "vec3"}}, "inputs": []any{[]any{"uv", "vec2"}},
		"nodes": []any{map[string]any{"type": "VectorOp", "in": []any{[]any{"a", "vec3"}, []any{"b", "vec3"}}, "out": []any{[]any{"op", "vec3"}}}}})
	var c CatalogOut
	if err := h.MustCall(t, "catalog", map[string]any{"filter": "vector"}).Decode(&c); err != nil {
		t.Fatal(err)
	}
	if len(c.Nodes) != 1 || c.Nodes[0].In[1] != (Port{"b", "vec3"}) || c.Output[0] != (Port{"albedo", "vec3"}) {
		t.Fatalf("%+v", c)
	}
	if p := h.LastParams(t, "cmd_visual_shader_catalog"); p["mode"] != "spatial" || p["filter"] != "vector" {
		t.Fatalf("params %v", p)
	}
	h.MustFail(t, "catalog", map[string]any{"mode": "2d"}, sdk.CodeValidationError, "canvas_item")
}

func sameJSON(t *testing.T, got, want any) {
	t.Helper()
	g, _ := json.Marshal(got)
	w, _ := json.Marshal(want)
	sdktest.AssertJSON(t, g, string(w))
}
