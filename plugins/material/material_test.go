package material

import (
	"context"
	"encoding/json"
	"io/fs"
	"os"
	"regexp"
	"strings"
	"testing"

	"github.com/mark3labs/mcp-go/mcp"

	"github.com/godot-mcp/godot-mcp/sdk"
	"github.com/godot-mcp/godot-mcp/sdk/sdktest"
)

// The commands the tools send, with the class handlers.gd must declare.
var commands = []sdktest.EditorCommand{
	{Name: "cmd_material_create", Class: sdk.Mutating, DryRun: true},
	{Name: "cmd_material_set_params", Class: sdk.Mutating, DryRun: true},
	{Name: "cmd_material_assign", Class: sdk.Mutating, DryRun: true},
	{Name: "cmd_material_get", Class: sdk.ReadOnly},
}

func start(t *testing.T) *sdktest.Harness {
	t.Helper()
	return sdktest.StartWith(t, Toolset(), commands)
}

// handlers.gd declares every command with the class the tools assume, and
// every script ships what it preloads.
func TestEditorCodeDeclaresCommands(t *testing.T) {
	sdktest.CheckEditorCode(t, Toolset(), commands, "handlers.gd", "common.gd", "build.gd", "edit.gd")
}

// The naming conventions docs/material.md lists are the ones build.gd matches.
func TestDocsListTheSuffixes(t *testing.T) {
	b, err := fs.ReadFile(Toolset().EditorCode, "build.gd")
	if err != nil {
		t.Fatal(err)
	}
	doc := readDoc(t)
	lines := regexp.MustCompile(`(?m)^\t"([a-z]+)": \[(.*)\],$`).FindAllStringSubmatch(string(b), -1)
	if len(lines) != 8 {
		t.Fatalf("found %d map lines in build.gd's SUFFIXES, want 8", len(lines))
	}
	for _, line := range lines {
		for _, s := range regexp.MustCompile(`"([a-z_]+)"`).FindAllStringSubmatch(line[2], -1) {
			if !strings.Contains(doc, "`_"+s[1]+"`") {
				t.Errorf("docs/material.md does not list the %s ending `_%s`", line[1], s[1])
			}
		}
	}
}

func createAnswer(dry bool) map[string]any {
	return map[string]any{
		"material": map[string]any{"class": "StandardMaterial3D", "path": "res://m/wood.tres", "params": map[string]any{"albedo_texture": "res://t/wood_albedo.png"}},
		"textures": []any{map[string]any{"role": "normal", "path": "res://t/wood_n.png", "import_changes": map[string]any{"compress/normal_map": map[string]any{"old": 0, "new": 1}}, "reimported": !dry}},
		"saved":    "res://m/wood.tres", "assigned": map[string]any{"node": "Floor", "slot": "surface", "surface": 0, "previous": map[string]any{}},
		"persisted": !dry, "undoable": !dry, "dry_run": dry,
	}
}

func TestCreate(t *testing.T) {
	h := start(t)
	h.Addon().Handle("cmd_material_create", func(_ context.Context, p json.RawMessage) (any, *sdk.Error) {
		var in struct {
			DryRun bool `json:"dry_run"`
		}
		json.Unmarshal(p, &in)
		return createAnswer(in.DryRun), nil
	})
	args := map[string]any{"textures": "res://t", "set": "wood", "save_path": "res://m/wood.tres", "node": "Floor", "params": map[string]any{"roughness": 0.5}}
	var out CreateOut
	if err := h.MustCall(t, "create", args).Decode(&out); err != nil {
		t.Fatal(err)
	}
	if out.Material == nil || out.Material.Class != "StandardMaterial3D" || !out.Undoable || out.Unmatched == nil || out.Assigned == nil || out.Assigned.Previous != nil ||
		out.Textures[0].ImportChanges["compress/normal_map"].New != 1.0 {
		t.Fatalf("create: %+v", out)
	}
	p := h.LastParams(t, "cmd_material_create")
	if p["type"] != "standard" || p["compress"] != "vram" || p["normal_convention"] != "opengl" || p["textures"] != "res://t" || p["set"] != "wood" ||
		p["node"] != "Floor" || p["surface"] != 0.0 || p["slot"] != nil || p["dry_run"] != false || p["params"].(map[string]any)["roughness"] != 0.5 || p["maps"] == nil {
		t.Fatalf("params: %v", p)
	}
	h.MustCall(t, "create", args, sdktest.DryRun()).Decode(&out)
	if !out.DryRun || out.Undoable || h.LastParams(t, "cmd_material_create")["dry_run"] != true {
		t.Fatalf("dry run: %+v", out)
	}
	n := len(h.Commands())
	for _, c := range []struct {
		args map[string]any
		hint string
	}{
		{map[string]any{"textures": "res://t"}, "save_path"},
		{map[string]any{"save_path": "res://a.tres", "slot": "override"}, "give node too"},
		{map[string]any{"save_path": "res://a.png"}, ".tres"},
		{map[string]any{"save_path": "/tmp/a.tres"}, "res://"},
		{map[string]any{"node": "A", "textures": "t"}, "res://"},
		{map[string]any{"node": "A", "set": "wood"}, "textures too"},
		{map[string]any{"node": "A", "maps": map[string]any{"albdo": "res://a.png"}}, `did you mean "albedo"`},
		{map[string]any{"node": "A", "maps": map[string]any{"normal": "a.png"}}, "res://"},
		{map[string]any{"node": "A", "type": "canvas_item", "textures": "res://t"}, "CanvasItemMaterial"},
		{map[string]any{"node": "A", "type": "pbr"}, "type"},
		{map[string]any{"node": "A", "slot": "surfaces"}, "slot"},
		{map[string]any{"node": "A", "surface": -1}, "surface"},
	} {
		h.MustFail(t, "create", c.args, sdk.CodeValidationError, c.hint)
	}
	if res, err := h.Call(context.Background(), "create", map[string]any{"node": "A", "overwrite": true}, sdktest.Confirm()); err != nil || res.Err == nil || !strings.Contains(res.Err.Hint, "overwrite is for save_path") {
		t.Fatalf("overwrite without save_path: %v %+v", err, res)
	}
	// overwrite destroys a file: it needs confirm.
	h.MustFail(t, "create", map[string]any{"save_path": "res://a.tres", "overwrite": true}, sdk.CodePreconditionFailed, "confirm")
	if len(h.Commands()) != n {
		t.Fatalf("a refused call reached the editor: %v", h.Commands())
	}
	h.MustCall(t, "create", map[string]any{"save_path": "res://a.tres", "overwrite": true}, sdktest.Confirm())
	if h.LastParams(t, "cmd_material_create")["overwrite"] != true {
		t.Fatal("overwrite not sent")
	}
	// The editor's refusals are the tool's answers.
	h.Addon().HandleError("cmd_material_create", &sdk.Error{Code: "RESOURCE_NOT_FOUND", Hint: "No texture set 'wod' in res://t. Did you mean 'wood'? Sets: metal, wood."})
	h.MustFail(t, "create", map[string]any{"textures": "res://t", "set": "wod", "node": "A"}, sdk.CodeResourceNotFound, "Did you mean 'wood'")
}

func TestSetParams(t *testing.T) {
	h := start(t)
	h.Addon().Handle("cmd_material_set_params", func(_ context.Context, p json.RawMessage) (any, *sdk.Error) {
		var in struct {
			DryRun bool `json:"dry_run"`
		}
		json.Unmarshal(p, &in)
		return map[string]any{"target": "Floor:surface[0]", "material": map[string]any{"class": "StandardMaterial3D", "path": nil, "params": map[string]any{"metallic": 1}},
			"changed": []any{map[string]any{"name": "metallic", "old": 0, "new": 1}}, "persisted": !in.DryRun, "undoable": !in.DryRun, "dry_run": in.DryRun}, nil
	})
	var out SetParamsOut
	h.MustCall(t, "set_params", map[string]any{"node": "Floor", "set": map[string]any{"metallic": 1}, "reset": []string{"roughness"}}).Decode(&out)
	if len(out.Changed) != 1 || out.Material.Path != nil || !out.Undoable {
		t.Fatalf("set_params: %+v", out)
	}
	p := h.LastParams(t, "cmd_material_set_params")
	if p["node"] != "Floor" || p["path"] != "" || p["set"].(map[string]any)["metallic"] != 1.0 || p["reset"].([]any)[0] != "roughness" || p["dry_run"] != false {
		t.Fatalf("params: %v", p)
	}
	h.MustCall(t, "set_params", map[string]any{"path": "res://m.tres", "set": map[string]any{"roughness": 0.2}}, sdktest.DryRun()).Decode(&out)
	if !out.DryRun || h.LastParams(t, "cmd_material_set_params")["dry_run"] != true {
		t.Fatalf("dry run: %+v", out)
	}
	n := len(h.Commands())
	for _, c := range []struct {
		args map[string]any
		hint string
	}{
		{map[string]any{"set": map[string]any{"a": 1}}, "either path"},
		{map[string]any{"path": "res://m.tres", "node": "A", "set": map[string]any{"a": 1}}, "either path"},
		{map[string]any{"path": "m.tres", "set": map[string]any{"a": 1}}, "res://"},
		{map[string]any{"path": "res://m.tres", "slot": "override", "set": map[string]any{"a": 1}}, "not path"},
		{map[string]any{"node": "A"}, "nothing to do"},
		{map[string]any{"node": "A", "set": map[string]any{"a": 1}, "reset": []string{"a"}}, "both set and reset"},
	} {
		h.MustFail(t, "set_params", c.args, sdk.CodeValidationError, c.hint)
	}
	if len(h.Commands()) != n {
		t.Fatalf("a refused call reached the editor: %v", h.Commands())
	}
	h.Addon().HandleError("cmd_material_set_params", &sdk.Error{Code: "VALIDATION_ERROR", Hint: "A StandardMaterial3D has no parameter 'albedo'. Did you mean 'albedo_color'?"})
	h.MustFail(t, "set_params", map[string]any{"node": "A", "set": map[string]any{"albedo": "#fff"}}, sdk.CodeValidationError, "albedo_color")
}

func TestAssign(t *testing.T) {
	h := start(t)
	h.Addon().Handle("cmd_material_assign", func(_ context.Context, p json.RawMessage) (any, *sdk.Error) {
		var in struct {
			DryRun   bool   `json:"dry_run"`
			Material string `json:"material"`
		}
		json.Unmarshal(p, &in)
		var m any
		if in.Material != "" {
			m = map[string]any{"class": "StandardMaterial3D", "path": in.Material, "params": map[string]any{}}
		}
		return map[string]any{"node": "Box", "slot": "override", "surface": 0, "previous": map[string]any{}, "material": m, "persisted": !in.DryRun, "undoable": !in.DryRun, "dry_run": in.DryRun}, nil
	})
	var out AssignOut
	h.MustCall(t, "assign", map[string]any{"node": "Box", "slot": "override", "material": "res://m.tres"}).Decode(&out)
	if out.Material == nil || *out.Material.Path != "res://m.tres" || out.Previous != nil || !out.Undoable {
		t.Fatalf("assign: %+v", out)
	}
	if p := h.LastParams(t, "cmd_material_assign"); p["slot"] != "override" || p["material"] != "res://m.tres" || p["dry_run"] != false {
		t.Fatalf("params: %v", p)
	}
	h.MustCall(t, "assign", map[string]any{"node": "Box", "material": ""}, sdktest.DryRun()).Decode(&out)
	if out.Material != nil || !out.DryRun || h.LastParams(t, "cmd_material_assign")["slot"] != nil {
		t.Fatalf("clear: %+v", out)
	}
	n := len(h.Commands())
	h.MustFail(t, "assign", map[string]any{"node": " ", "material": ""}, sdk.CodeValidationError, "node")
	h.MustFail(t, "assign", map[string]any{"node": "Box", "material": "m.tres"}, sdk.CodeValidationError, "res://")
	h.MustFail(t, "assign", map[string]any{"node": "Box"}, sdk.CodeValidationError, "material")
	h.MustFail(t, "assign", map[string]any{"node": "Box", "material": "", "slot": "material"}, sdk.CodeValidationError, "slot")
	if len(h.Commands()) != n {
		t.Fatalf("a refused call reached the editor: %v", h.Commands())
	}
	h.Addon().HandleError("cmd_material_assign", &sdk.Error{Code: "VALIDATION_ERROR", Hint: "surface 2 does not exist: the mesh of 'Box' has 1 surface(s): 0."})
	h.MustFail(t, "assign", map[string]any{"node": "Box", "surface": 2, "material": ""}, sdk.CodeValidationError, "surface(s): 0")
}

func TestGet(t *testing.T) {
	h := start(t)
	h.Addon().HandleResult("cmd_material_get", map[string]any{"node": "Box", "class": "MeshInstance3D", "mesh": "(embedded BoxMesh)", "override": map[string]any{}, "overlay": map[string]any{},
		"surfaces": []any{map[string]any{"surface": 0, "source": "surface_override", "material": map[string]any{"class": "StandardMaterial3D", "path": "res://m.tres", "params": map[string]any{}},
			"surface_override": map[string]any{"class": "StandardMaterial3D", "path": "res://m.tres", "params": nil}, "mesh_material": map[string]any{}}}})
	var out GetOut
	h.MustCall(t, "get", map[string]any{"node": "Box"}).Decode(&out)
	if len(out.Surfaces) != 1 || out.Override != nil || out.Surfaces[0].MeshMaterial != nil || out.Surfaces[0].SurfaceOverride.Params == nil || out.Surfaces[0].Source != "surface_override" {
		t.Fatalf("get: %+v", out)
	}
	if p := h.LastParams(t, "cmd_material_get"); p["node"] != "Box" || p["path"] != "" {
		t.Fatalf("params: %v", p)
	}
	h.MustFail(t, "get", map[string]any{}, sdk.CodeValidationError, "either node")
	h.MustFail(t, "get", map[string]any{"path": "x.tres"}, sdk.CodeValidationError, "res://")
	h.Addon().HandleError("cmd_material_get", &sdk.Error{Code: "RESOURCE_NOT_FOUND", Hint: "No node at 'Bx'. Did you mean 'Box'?"})
	h.MustFail(t, "get", map[string]any{"node": "Bx"}, sdk.CodeResourceNotFound, "Box")
}

// The toolset's share of tools/list (as served) stays within its 16 KB budget.
func TestToolsListBudget(t *testing.T) {
	h := start(t)
	res, err := h.Client().ListTools(context.Background(), mcp.ListToolsRequest{})
	if err != nil {
		t.Fatal(err)
	}
	total := 0
	for _, tl := range res.Tools {
		if !strings.HasPrefix(tl.Name, "godot_material_") {
			continue
		}
		b, _ := json.Marshal(tl)
		total += len(b)
		if len(tl.Description) > 600 {
			t.Errorf("%s: description of %d chars (max 600)", tl.Name, len(tl.Description))
		}
	}
	if total == 0 || total > 16*1024 {
		t.Errorf("the material tools take %d bytes of tools/list (budget 16 KB)", total)
	}
	t.Logf("tools/list share: %d bytes", total)
}

func readDoc(t *testing.T) string {
	t.Helper()
	b, err := os.ReadFile("../../docs/material.md")
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}
