package world

import (
	"context"
	"encoding/json"
	"io/fs"
	"strings"
	"testing"

	"github.com/mark3labs/mcp-go/mcp"

	"github.com/godot-mcp/godot-mcp/sdk"
	"github.com/godot-mcp/godot-mcp/sdk/sdktest"
)

// The commands the tools send, with the class handlers.gd must declare.
var commands = []sdktest.EditorCommand{
	{Name: "cmd_world_set_environment", Class: sdk.Mutating, DryRun: true},
	{Name: "cmd_world_set_light", Class: sdk.Mutating, DryRun: true},
	{Name: "cmd_world_set_camera", Class: sdk.Mutating, DryRun: true},
	{Name: "cmd_world_add_mesh", Class: sdk.Mutating, DryRun: true},
	{Name: "cmd_world_add_csg", Class: sdk.Mutating, DryRun: true},
	{Name: "cmd_world_add_gi", Class: sdk.Mutating, DryRun: true},
	{Name: "cmd_world_bake", Class: sdk.Mutating, DryRun: true},
	{Name: "cmd_world_describe", Class: sdk.ReadOnly},
}

func start(t *testing.T) *sdktest.Harness {
	t.Helper()
	return sdktest.StartWith(t, Toolset(), commands)
}

// handlers.gd declares every command with the class the tools assume, and
// every script it preloads is shipped.
func TestEditorCodeDeclaresCommands(t *testing.T) {
	sdktest.CheckEditorCode(t, Toolset(), commands)
	files, _ := fs.Glob(Toolset().EditorCode, "*.gd")
	if len(files) < 6 {
		t.Fatalf("editor code ships %v", files)
	}
	for _, f := range files {
		b, _ := fs.ReadFile(Toolset().EditorCode, f)
		if n := strings.Count(string(b), "\n"); n > 600 {
			t.Errorf("%s has %d lines; split it (limit 600)", f, n)
		}
	}
}

// The toolset's share of tools/list stays within the per-toolset budget.
func TestToolsListShare(t *testing.T) {
	h := start(t)
	res, err := h.Client().ListTools(context.Background(), mcp.ListToolsRequest{})
	if err != nil {
		t.Fatal(err)
	}
	size, n := 0, 0
	for _, tool := range res.Tools {
		if !strings.HasPrefix(tool.Name, "godot_world_") {
			continue
		}
		n++
		b, _ := json.Marshal(tool)
		size += len(b)
		if len(tool.Description) > 600 {
			t.Errorf("%s: description of %d chars (max 600)", tool.Name, len(tool.Description))
		}
	}
	if n != 8 {
		t.Fatalf("%d world tools served", n)
	}
	t.Logf("world tools: %d bytes of tools/list", size)
	if size > 16000 {
		t.Errorf("the world tools take %d bytes of tools/list, over 16000", size)
	}
}

func editAnswer(extra map[string]any, dry bool) map[string]any {
	m := map[string]any{"persisted": !dry, "undoable": !dry, "dry_run": dry}
	for k, v := range extra {
		m[k] = v
	}
	return m
}

func TestSetEnvironmentSendsOneCommand(t *testing.T) {
	h := start(t)
	h.Addon().Handle("cmd_world_set_environment", func(_ context.Context, p json.RawMessage) (any, *sdk.Error) {
		var in struct {
			DryRun bool `json:"dry_run"`
		}
		json.Unmarshal(p, &in)
		return editAnswer(map[string]any{"node": "WorldEnvironment", "renderer": map[string]any{"project": "gl_compatibility", "editor": "gl_compatibility"},
			"created": []any{map[string]any{"path": "WorldEnvironment", "class": "WorldEnvironment"}, map[string]any{"path": "Sun", "class": "DirectionalLight3D"}}}, in.DryRun), nil
	})
	args := map[string]any{"sky": map[string]any{"type": "procedural", "top_color": "#ff5000"}, "sun": map[string]any{}, "fog": map[string]any{"density": 0.02},
		"tonemap": map[string]any{"mode": "filmic"}}
	var out SetEnvironmentOut
	if err := h.MustCall(t, "set_environment", args).Decode(&out); err != nil {
		t.Fatal(err)
	}
	if out.Node != "WorldEnvironment" || len(out.Created) != 2 || out.Changes == nil || out.Warnings == nil || !out.Undoable || out.Renderer.Project != "gl_compatibility" {
		t.Fatalf("out: %+v", out)
	}
	p := h.LastParams(t, "cmd_world_set_environment")
	sky, _ := p["sky"].(map[string]any)
	if sky["top_color"] != "#ff5000" || p["sun"] == nil || p["dry_run"] != false || p["ambient"] != nil {
		t.Fatalf("params: %v", p)
	}
	if _, has := sky["texture"]; has {
		t.Fatalf("empty fields were sent: %v", sky)
	}
	// A dry run reaches the editor as one (the handler changes nothing).
	out = SetEnvironmentOut{}
	h.MustCall(t, "set_environment", args, sdktest.DryRun()).Decode(&out)
	if !out.DryRun || out.Undoable || h.LastParams(t, "cmd_world_set_environment")["dry_run"] != true {
		t.Fatalf("dry run: %+v", out)
	}
}

func TestBadInputNeverReachesTheEditor(t *testing.T) {
	h := start(t)
	for _, c := range []struct {
		tool string
		args map[string]any
		hint string
	}{
		{"set_environment", map[string]any{"sky": map[string]any{"type": "procedurl"}}, `did you mean "procedural"`},
		{"set_environment", map[string]any{"background": "skye"}, "sky, color, clear_color"},
		{"set_environment", map[string]any{"background": "color", "sky": map[string]any{}}, "only with background"},
		{"set_environment", map[string]any{"tonemap": map[string]any{"mode": "acs"}}, "tonemap.mode"},
		{"set_environment", map[string]any{"node": "WorldEnvironment"}, "nothing to set"},
		{"set_light", map[string]any{}, "give type"},
		{"set_light", map[string]any{"type": "omi"}, `did you mean "omni"`},
		{"set_light", map[string]any{"type": "spot", "look_at": []float64{0, 0, 0}, "look_at_node": "Box"}, "not both"},
		{"set_light", map[string]any{"node": "Sun", "name": "Other"}, "for a new light"},
		{"set_camera", map[string]any{"fov": 200}, "fov"},
		{"set_camera", map[string]any{"near": 10, "far": 1}, "greater than near"},
		{"set_camera", map[string]any{"projection": "ortho"}, "projection"},
		{"set_camera", map[string]any{"look_at": []float64{0, 1}}, "look_at"},
		{"add_mesh", map[string]any{"shape": "sphre"}, `did you mean "sphere"`},
		{"add_mesh", map[string]any{"shape": "cube"}, "box, sphere, capsule, cylinder, plane, prism, torus"},
		{"add_csg", map[string]any{"shape": "box", "operation": "subtract"}, `did you mean "subtraction"`},
		{"add_csg", map[string]any{"shape": "polygon", "polygon": [][]float64{{0, 0}, {1}}}, "polygon[1]"},
		{"add_csg", map[string]any{"shape": "capsule"}, "box, sphere, cylinder, torus, polygon, combiner"},
		{"add_gi", map[string]any{"type": "voxelgi"}, `did you mean "voxel_gi"`},
		{"bake", map[string]any{"node": " "}, "node is required"},
		{"describe", map[string]any{"limit": 0}, "limit"},
	} {
		h.MustFail(t, c.tool, c.args, sdk.CodeValidationError, c.hint)
	}
	if got := h.Commands(); len(got) != 0 {
		t.Fatalf("refused calls reached the editor: %v", got)
	}
}

// The editor's refusals reach the agent unchanged: a Forward+-only effect under
// Compatibility, a LightmapGI bake without a lightmapper, an unknown node.
func TestEditorRefusalsPassThrough(t *testing.T) {
	h := start(t)
	h.Addon().HandleError("cmd_world_set_environment", &sdk.Error{Code: sdk.CodePreconditionFailed, Hint: "SSAO needs the Forward+ renderer; this project's rendering/renderer/rendering_method is 'gl_compatibility'", Required: "renderer"})
	r := h.MustFail(t, "set_environment", map[string]any{"effects": map[string]any{"ssao": true}}, sdk.CodePreconditionFailed, "gl_compatibility")
	if r.Err.Required != "renderer" {
		t.Fatalf("required: %+v", r.Err)
	}
	if p := h.LastParams(t, "cmd_world_set_environment"); p["effects"].(map[string]any)["ssao"] != true {
		t.Fatalf("params %v", p)
	}
	h.Addon().HandleError("cmd_world_bake", &sdk.Error{Code: sdk.CodePreconditionFailed, Hint: "LightmapGI cannot be baked with this Godot build: it was compiled without a lightmapper", Required: "lightmapper"})
	h.MustFail(t, "bake", map[string]any{"node": "LightmapGI"}, sdk.CodePreconditionFailed, "without a lightmapper")
	h.Addon().HandleError("cmd_world_set_light", sdk.NotFound("No node at 'Sunn'. Did you mean 'Sun'?"))
	h.MustFail(t, "set_light", map[string]any{"node": "Sunn", "energy": 2}, sdk.CodeResourceNotFound, "Did you mean 'Sun'")
}

func TestLightCameraMeshCSGGI(t *testing.T) {
	h := start(t)
	h.Addon().HandleResult("cmd_world_set_light", editAnswer(map[string]any{"node": "Key", "type": "omni", "class": "OmniLight3D",
		"created": []any{map[string]any{"path": "Key", "class": "OmniLight3D"}}}, false))
	var lo SetLightOut
	h.MustCall(t, "set_light", map[string]any{"type": "omni", "name": "Key", "range": 8, "energy": 2, "position": []float64{0, 3, 0}}).Decode(&lo)
	if lo.Type != "omni" || len(lo.Created) != 1 || lo.Changes == nil {
		t.Fatalf("%+v", lo)
	}
	p := h.LastParams(t, "cmd_world_set_light")
	if p["range"] != 8.0 || p["energy"] != 2.0 || p["position"] == nil || p["shadows"] != nil || p["rotation_degrees"] != nil {
		t.Fatalf("light params %v", p)
	}

	h.Addon().HandleResult("cmd_world_set_camera", editAnswer(map[string]any{"node": "Cam", "created": []any{},
		"changes": []any{map[string]any{"target": "Cam", "property": "fov", "old": 75, "new": 60}}}, false))
	var co SetCameraOut
	h.MustCall(t, "set_camera", map[string]any{"node": "Cam", "fov": 60, "current": true, "look_at_node": "Box"}).Decode(&co)
	if len(co.Changes) != 1 || co.Changes[0].Property != "fov" {
		t.Fatalf("%+v", co)
	}
	if p := h.LastParams(t, "cmd_world_set_camera"); p["look_at_node"] != "Box" || p["current"] != true {
		t.Fatalf("camera params %v", p)
	}

	h.Addon().HandleResult("cmd_world_add_mesh", editAnswer(map[string]any{"node": "Box", "class": "MeshInstance3D", "mesh": "BoxMesh",
		"created": []any{map[string]any{"path": "Box", "class": "MeshInstance3D"}}, "dims": map[string]any{"size": []any{2, 1, 1}}}, false))
	var mo AddShapeOut
	h.MustCall(t, "add_mesh", map[string]any{"shape": "box", "size": []float64{2, 1, 1}, "color": "#ffffff"}).Decode(&mo)
	if mo.Mesh != "BoxMesh" || mo.Dims["size"] == nil {
		t.Fatalf("%+v", mo)
	}

	h.Addon().HandleResult("cmd_world_add_csg", editAnswer(map[string]any{"node": "Room/Door", "class": "CSGBox3D", "created": []any{}}, true))
	var cso AddShapeOut
	h.MustCall(t, "add_csg", map[string]any{"shape": "box", "parent": "Room", "operation": "subtraction"}, sdktest.DryRun()).Decode(&cso)
	if !cso.DryRun || cso.Dims == nil || cso.Created == nil {
		t.Fatalf("%+v", cso)
	}

	h.Addon().HandleResult("cmd_world_add_gi", editAnswer(map[string]any{"node": "VoxelGI", "class": "VoxelGI", "bakeable": false,
		"warnings": []any{"VoxelGI needs the Forward+ renderer"}}, false))
	var gi AddGIOut
	h.MustCall(t, "add_gi", map[string]any{"type": "voxel_gi", "size": []float64{10, 10, 10}}).Decode(&gi)
	if gi.Bakeable || len(gi.Warnings) != 1 || gi.Created == nil {
		t.Fatalf("%+v", gi)
	}
}

// Baking with replace removes nodes: it needs confirm, like any destructive call.
func TestBakeReplaceNeedsConfirm(t *testing.T) {
	h := start(t)
	h.Addon().HandleResult("cmd_world_bake", editAnswer(map[string]any{"node": "Room", "kind": "csg", "surfaces": 1, "vertices": 36,
		"created": []any{map[string]any{"path": "RoomMesh", "class": "MeshInstance3D"}}, "removed": []any{"Room"}}, false))
	h.MustFail(t, "bake", map[string]any{"node": "Room", "replace": true}, sdk.CodePreconditionFailed, "confirm")
	if len(h.Commands()) != 0 {
		t.Fatal("an unconfirmed replace reached the editor")
	}
	var out BakeOut
	h.MustCall(t, "bake", map[string]any{"node": "Room", "replace": true}, sdktest.Confirm()).Decode(&out)
	if out.Kind != "csg" || out.Vertices != 36 || len(out.Removed) != 1 || out.Created[0].Path != "RoomMesh" {
		t.Fatalf("%+v", out)
	}
	var plain BakeOut
	h.MustCall(t, "bake", map[string]any{"node": "Room"}).Decode(&plain)
	if p := h.LastParams(t, "cmd_world_bake"); p["node"] != "Room" || p["replace"] != nil {
		t.Fatalf("params %v", p)
	}
}

func TestDescribe(t *testing.T) {
	h := start(t)
	h.Addon().HandleResult("cmd_world_describe", map[string]any{"scene": "res://w.tscn", "renderer": map[string]any{"project": "gl_compatibility", "editor": "gl_compatibility"},
		"environment": map[string]any{"path": "WorldEnvironment", "sky": map[string]any{"type": "procedural", "top_color": "#ff5000"}},
		"lights":      []any{map[string]any{"path": "Sun", "type": "directional"}}, "totals": map[string]any{"lights": 1}})
	var out DescribeOut
	h.MustCall(t, "describe", nil).Decode(&out)
	if out.Environment["sky"] == nil || len(out.Lights) != 1 || out.Cameras == nil || out.Meshes == nil || out.CSG == nil || out.GI == nil || out.Totals["lights"] != 1 {
		t.Fatalf("%+v", out)
	}
	if p := h.LastParams(t, "cmd_world_describe"); p["limit"] != 100.0 {
		t.Fatalf("params %v", p)
	}
	h.Addon().HandleError("cmd_world_describe", sdk.PreconditionFailed(sdk.RequireActiveScene, "No scene is open"))
	h.MustFail(t, "describe", nil, sdk.CodePreconditionFailed, "No scene")
}
