package physics

import (
	"context"
	"encoding/json"
	"io/fs"
	"strings"
	"testing"

	"github.com/godot-mcp/godot-mcp/sdk"
	"github.com/godot-mcp/godot-mcp/sdk/sdktest"
)

// The commands the tools send, with the class handlers.gd must declare.
var commands = []sdktest.EditorCommand{
	{Name: "cmd_physics_get_layers", Class: sdk.ReadOnly},
	{Name: "cmd_physics_set_layers", Class: sdk.Mutating, DryRun: true},
	{Name: "cmd_physics_add_shape", Class: sdk.Mutating, DryRun: true},
	{Name: "cmd_physics_check", Class: sdk.ReadOnly},
}

func start(t *testing.T) *sdktest.Harness {
	t.Helper()
	return sdktest.StartWith(t, Toolset(), commands)
}

// handlers.gd declares every command with the class the tools assume, and
// ships every script it preloads.
func TestEditorCodeDeclaresCommands(t *testing.T) {
	sdktest.CheckEditorCode(t, Toolset(), commands, "handlers.gd", "common.gd", "layers.gd", "shapes.gd", "check.gd")
	for _, f := range []string{"handlers.gd", "common.gd", "layers.gd", "shapes.gd", "check.gd"} {
		b, _ := fs.ReadFile(Toolset().EditorCode, f)
		if n := strings.Count(string(b), "\n"); n > 600 {
			t.Errorf("%s has %d lines; split it (limit 600)", f, n)
		}
	}
}

func TestGetLayersPages(t *testing.T) {
	h := start(t)
	h.Addon().Handle("cmd_physics_get_layers", func(_ context.Context, p json.RawMessage) (any, *sdk.Error) {
		var in struct{ Offset, Limit int }
		json.Unmarshal(p, &in)
		next := -1
		if in.Offset == 0 {
			next = 1
		}
		return map[string]any{"scene": "res://a.tscn", "names_3d": []any{map[string]any{"n": 1, "name": "world"}}, "total": 2,
			"nodes": []any{map[string]any{"path": "Ball", "class": "RigidBody3D", "dimension": "3d", "has_layer": true, "layer": []any{map[string]any{"n": 1, "name": "world"}},
				"layer_bits": 1, "mask_bits": 0}}, "next_offset": next}, nil
	})
	var out GetLayersOut
	if err := h.MustCall(t, "get_layers", map[string]any{"limit": 1}).Decode(&out); err != nil {
		t.Fatal(err)
	}
	if !out.Truncated || out.NextCursor != "1" || out.Returned != 1 || out.Total != 2 || out.Names2D == nil || out.Nodes[0].Mask == nil || out.Nodes[0].Layer[0].Name != "world" {
		t.Fatalf("page 1: %+v", out)
	}
	if p := h.LastParams(t, "cmd_physics_get_layers"); p["offset"] != 0.0 || p["limit"] != 1.0 || p["nodes"] == nil {
		t.Fatalf("params: %v", p)
	}
	out = GetLayersOut{}
	h.MustCall(t, "get_layers", map[string]any{"cursor": "1"}).Decode(&out)
	if out.Truncated || out.NextCursor != "" || h.LastParams(t, "cmd_physics_get_layers")["limit"] != 200.0 {
		t.Fatalf("page 2: %+v", out)
	}
	n := len(h.Commands())
	h.MustFail(t, "get_layers", map[string]any{"cursor": "x"}, sdk.CodeValidationError, "cursor")
	h.MustFail(t, "get_layers", map[string]any{"nodes": []string{" "}}, sdk.CodeValidationError, "nodes[0]")
	h.MustFail(t, "get_layers", map[string]any{"limit": 5000}, sdk.CodeValidationError, "limit")
	if len(h.Commands()) != n {
		t.Fatalf("a refused call reached the editor: %v", h.Commands())
	}
}

func setAnswer(dry bool) map[string]any {
	return map[string]any{"names_2d": []any{}, "names_3d": []any{map[string]any{"n": 2, "name": "props"}}, "renamed": 1, "changed": 1,
		"nodes":     []any{map[string]any{"path": "Ball", "class": "RigidBody3D", "dimension": "3d", "has_layer": true, "layer_bits": 2, "mask_bits": 3}},
		"persisted": !dry, "undoable": !dry, "dry_run": dry}
}

func TestSetLayers(t *testing.T) {
	h := start(t)
	h.Addon().Handle("cmd_physics_set_layers", func(_ context.Context, p json.RawMessage) (any, *sdk.Error) {
		var in struct {
			DryRun bool `json:"dry_run"`
		}
		json.Unmarshal(p, &in)
		return setAnswer(in.DryRun), nil
	})
	args := map[string]any{
		"names": []any{map[string]any{"dimension": "3d", "n": 2, "name": " props "}},
		"edits": []any{map[string]any{"nodes": []string{"Ball"}, "layer": map[string]any{"set": []any{"props"}}, "mask": map[string]any{"add": []any{1, "props"}, "remove": []any{}}}},
	}
	var out SetLayersOut
	h.MustCall(t, "set_layers", args).Decode(&out)
	if !out.Undoable || out.DryRun || out.Changed != 1 || out.Nodes[0].Layer == nil || out.Names2D == nil {
		t.Fatalf("set_layers: %+v", out)
	}
	p := h.LastParams(t, "cmd_physics_set_layers")
	e := p["edits"].([]any)[0].(map[string]any)
	mask := e["mask"].(map[string]any)
	if p["dry_run"] != false || p["names"].([]any)[0].(map[string]any)["name"] != "props" || e["layer"].(map[string]any)["set"].([]any)[0] != "props" ||
		mask["add"].([]any)[0] != 1.0 || mask["set"] != nil || len(mask["remove"].([]any)) != 0 {
		t.Fatalf("params: %v", p)
	}
	h.MustCall(t, "set_layers", args, sdktest.DryRun()).Decode(&out)
	if !out.DryRun || out.Undoable || h.LastParams(t, "cmd_physics_set_layers")["dry_run"] != true {
		t.Fatalf("dry run: %+v", out)
	}
	n := len(h.Commands())
	edit := func(bits map[string]any) map[string]any {
		return map[string]any{"edits": []any{map[string]any{"nodes": []string{"Ball"}, "mask": bits}}}
	}
	h.MustFail(t, "set_layers", map[string]any{}, sdk.CodeValidationError, "nothing to do")
	h.MustFail(t, "set_layers", edit(map[string]any{"add": []any{33}}), sdk.CodeValidationError, "1..32")
	h.MustFail(t, "set_layers", edit(map[string]any{"add": []any{0}}), sdk.CodeValidationError, "1..32")
	h.MustFail(t, "set_layers", edit(map[string]any{"add": []any{1.5}}), sdk.CodeValidationError, "1..32")
	h.MustFail(t, "set_layers", edit(map[string]any{"add": []any{""}}), sdk.CodeValidationError, "empty name")
	h.MustFail(t, "set_layers", edit(map[string]any{"add": []any{true}}), sdk.CodeValidationError, "layer number")
	h.MustFail(t, "set_layers", edit(map[string]any{}), sdk.CodeValidationError, "give set, add or remove")
	h.MustFail(t, "set_layers", map[string]any{"edits": []any{map[string]any{"nodes": []string{"Ball"}}}}, sdk.CodeValidationError, "layer and/or mask")
	h.MustFail(t, "set_layers", map[string]any{"edits": []any{map[string]any{"nodes": []string{}, "mask": map[string]any{"add": []any{1}}}}}, sdk.CodeValidationError, "nodes")
	h.MustFail(t, "set_layers", map[string]any{"names": []any{map[string]any{"dimension": "3d", "n": 33, "name": "x"}}}, sdk.CodeValidationError, "n")
	h.MustFail(t, "set_layers", map[string]any{"names": []any{map[string]any{"dimension": "4d", "n": 1, "name": "x"}}}, sdk.CodeValidationError, "dimension")
	h.MustFail(t, "set_layers", map[string]any{"names": []any{map[string]any{"dimension": "2d", "n": 1, "name": "7"}}}, sdk.CodeValidationError, "not be a number")
	h.MustFail(t, "set_layers", map[string]any{"names": []any{map[string]any{"dimension": "2d", "n": 1, "name": "a"}, map[string]any{"dimension": "2d", "n": 1, "name": "b"}}},
		sdk.CodeValidationError, "both name")
	if len(h.Commands()) != n {
		t.Fatalf("a refused call reached the editor: %v", h.Commands())
	}
	// The editor's refusal (an unknown layer name, say) is the tool's answer.
	h.Addon().HandleError("cmd_physics_set_layers", &sdk.Error{Code: "VALIDATION_ERROR", Hint: "no 3D physics layer is named 'wrld'. Did you mean 'world'?"})
	h.MustFail(t, "set_layers", edit(map[string]any{"add": []any{"wrld"}}), sdk.CodeValidationError, "Did you mean 'world'")
}

func TestAddShape(t *testing.T) {
	h := start(t)
	h.Addon().Handle("cmd_physics_add_shape", func(_ context.Context, p json.RawMessage) (any, *sdk.Error) {
		var in struct {
			DryRun bool `json:"dry_run"`
		}
		json.Unmarshal(p, &in)
		return map[string]any{"body": "Floor", "created": []any{map[string]any{"path": "Floor/CollisionShape3D", "class": "CollisionShape3D", "shape": "BoxShape3D",
			"params": map[string]any{"size": []float64{10, 1, 10}}, "position": []float64{0, 0, 0}}}, "persisted": !in.DryRun, "undoable": !in.DryRun, "dry_run": in.DryRun}, nil
	})
	var out AddShapeOut
	h.MustCall(t, "add_shape", map[string]any{"body": "Floor", "shape": "box", "size": []float64{10, 1, 10}}).Decode(&out)
	if len(out.Created) != 1 || out.Created[0].Shape != "BoxShape3D" || !out.Undoable {
		t.Fatalf("add_shape: %+v", out)
	}
	p := h.LastParams(t, "cmd_physics_add_shape")
	if p["body"] != "Floor" || p["shape"] != "box" || len(p["size"].([]any)) != 3 || p["radius"] != nil || p["from"] != nil || p["dry_run"] != false {
		t.Fatalf("params: %v", p)
	}
	h.MustCall(t, "add_shape", map[string]any{"body": "Ball", "shape": "convex", "from": "Ball/Mesh"}, sdktest.DryRun()).Decode(&out)
	if !out.DryRun || h.LastParams(t, "cmd_physics_add_shape")["dry_run"] != true || h.LastParams(t, "cmd_physics_add_shape")["from"] != "Ball/Mesh" {
		t.Fatalf("dry run: %+v", out)
	}
	n := len(h.Commands())
	for _, c := range []struct {
		args map[string]any
		hint string
	}{
		{map[string]any{"body": "B", "shape": "convex"}, "give from"},
		{map[string]any{"body": "B", "shape": "polygon"}, "Sprite2D"},
		{map[string]any{"body": "B", "shape": "auto"}, "MeshInstance3D or Sprite2D"},
		{map[string]any{"body": "B", "shape": "hexagon"}, "shape"},
		{map[string]any{"body": "B", "shape": "box", "size": []float64{1, 2}}, "3 numbers"},
		{map[string]any{"body": "B", "shape": "rectangle", "size": []float64{1, 0}}, "positive"},
		{map[string]any{"body": "B", "shape": "circle", "size": []float64{1, 1}}, "radius"},
		{map[string]any{"body": "B", "shape": "box", "radius": 2}, "radius and height are for"},
		{map[string]any{"body": "B", "shape": "sphere", "height": 2}, "not a height"},
		{map[string]any{"body": "B", "shape": "circle", "a": []float64{0, 0}, "b": []float64{1, 1}}, "segment"},
		{map[string]any{"body": "B", "shape": "segment", "a": []float64{0, 0}}, "both a and b"},
		{map[string]any{"body": "B", "shape": "box", "position": []float64{1}}, "position"},
		{map[string]any{"body": "B", "shape": "box", "epsilon": 1}, "epsilon"},
		{map[string]any{"body": "", "shape": "box"}, "body"},
	} {
		h.MustFail(t, "add_shape", c.args, sdk.CodeValidationError, c.hint)
	}
	if len(h.Commands()) != n {
		t.Fatalf("a refused call reached the editor: %v", h.Commands())
	}
	h.Addon().HandleError("cmd_physics_add_shape", &sdk.Error{Code: "VALIDATION_ERROR", Hint: "A trimesh (ConcavePolygonShape3D) collides only as static level geometry"})
	h.MustFail(t, "add_shape", map[string]any{"body": "Ball", "shape": "trimesh", "from": "Ball/Mesh"}, sdk.CodeValidationError, "trimesh")
}

func TestCheckPages(t *testing.T) {
	h := start(t)
	h.Addon().Handle("cmd_physics_check", func(_ context.Context, p json.RawMessage) (any, *sdk.Error) {
		var in struct{ Offset int }
		json.Unmarshal(p, &in)
		next := -1
		if in.Offset == 0 {
			next = 1
		}
		return map[string]any{"scene": "res://a.tscn", "bodies": 2, "shapes": 0, "total": 2, "next_offset": next,
			"problems": []any{map[string]any{"code": "no_shape", "severity": "error", "path": "Floor", "message": "no shape", "fix": "godot_physics_add_shape"}}}, nil
	})
	var out CheckOut
	h.MustCall(t, "check", map[string]any{"limit": 1}).Decode(&out)
	if !out.Truncated || out.NextCursor != "1" || out.Returned != 1 || out.Problems[0].Code != "no_shape" {
		t.Fatalf("check: %+v", out)
	}
	h.MustCall(t, "check", map[string]any{"cursor": out.NextCursor}).Decode(&out)
	if out.Truncated || h.LastParams(t, "cmd_physics_check")["offset"] != 1.0 {
		t.Fatalf("check page 2: %+v", out)
	}
	h.MustFail(t, "check", map[string]any{"cursor": "-3"}, sdk.CodeValidationError, "cursor")
	h.Addon().HandleError("cmd_physics_check", &sdk.Error{Code: "PRECONDITION_FAILED", Hint: "No scene is open", Required: "active_scene"})
	h.MustFail(t, "check", nil, sdk.CodePreconditionFailed, "No scene")
}
