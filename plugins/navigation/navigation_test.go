package navigation

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
	{Name: "cmd_navigation_get", Class: sdk.ReadOnly},
	{Name: "cmd_navigation_set_layers", Class: sdk.Mutating, DryRun: true},
	{Name: "cmd_navigation_configure", Class: sdk.Mutating, DryRun: true},
	{Name: "cmd_navigation_bake", Class: sdk.Mutating, DryRun: true},
	{Name: "cmd_navigation_path", Class: sdk.ReadOnly},
	{Name: "cmd_navigation_game_path", Class: sdk.Runtime},
	{Name: "cmd_navigation_debug", Class: sdk.Mutating, DryRun: true},
}

func start(t *testing.T) *sdktest.Harness {
	t.Helper()
	return sdktest.Start(t, Toolset())
}

// handlers.gd declares every command with the class the tools assume, and
// ships every script it preloads.
func TestEditorCodeDeclaresCommands(t *testing.T) {
	sdktest.CheckEditorCode(t, Toolset(), commands)
	files, _ := fs.Glob(Toolset().EditorCode, "*.gd")
	if len(files) != 5 {
		t.Errorf("editor code ships %v", files)
	}
	for _, f := range files {
		b, _ := fs.ReadFile(Toolset().EditorCode, f)
		if n := strings.Count(string(b), "\n"); n > 600 {
			t.Errorf("%s has %d lines; split it (limit 600)", f, n)
		}
	}
}

func TestGetNormalizes(t *testing.T) {
	h := start(t)
	h.Addon().HandleResult("cmd_navigation_get", map[string]any{"scene": "res://a.tscn",
		"regions": []any{map[string]any{"path": "Nav", "class": "NavigationRegion3D", "kind": "region", "dimension": "3d", "layer_bits": 1, "polygons": 4, "vertices": 8,
			"settings": map[string]any{"cell_size": 0.25}}}})
	var out GetOut
	if err := h.MustCall(t, "get", nil).Decode(&out); err != nil {
		t.Fatal(err)
	}
	if out.Names2D == nil || out.Names3D == nil || out.Agents == nil || out.Links == nil || out.Regions[0].Layers == nil || out.Regions[0].Polygons != 4 {
		t.Fatalf("get: %+v", out)
	}
}

func TestSetLayers(t *testing.T) {
	h := start(t)
	h.Addon().Handle("cmd_navigation_set_layers", func(_ context.Context, p json.RawMessage) (any, *sdk.Error) {
		var in struct {
			DryRun bool `json:"dry_run"`
		}
		json.Unmarshal(p, &in)
		return map[string]any{"names_3d": []any{map[string]any{"n": 2, "name": "water"}}, "renamed": 1, "changed": 1,
			"nodes":     []any{map[string]any{"path": "Nav", "class": "NavigationRegion3D", "kind": "region", "dimension": "3d", "layer_bits": 2}},
			"persisted": !in.DryRun, "undoable": !in.DryRun, "dry_run": in.DryRun}, nil
	})
	args := map[string]any{
		"names": []any{map[string]any{"dimension": "3d", "n": 2, "name": " water "}},
		"edits": []any{map[string]any{"nodes": []string{"Nav"}, "set": []any{"water"}, "add": []any{3}}},
	}
	var out SetLayersOut
	h.MustCall(t, "set_layers", args).Decode(&out)
	if !out.Undoable || out.DryRun || out.Changed != 1 || out.Names2D == nil || out.Nodes[0].Layers == nil {
		t.Fatalf("set_layers: %+v", out)
	}
	p := h.LastParams(t, "cmd_navigation_set_layers")
	e := p["edits"].([]any)[0].(map[string]any)
	if p["dry_run"] != false || p["names"].([]any)[0].(map[string]any)["name"] != "water" || e["set"].([]any)[0] != "water" || e["add"].([]any)[0] != 3.0 ||
		e["remove"] != nil || e["nodes"].([]any)[0] != "Nav" {
		t.Fatalf("params: %v", p)
	}
	h.MustCall(t, "set_layers", args, sdktest.DryRun()).Decode(&out)
	if !out.DryRun || out.Undoable || h.LastParams(t, "cmd_navigation_set_layers")["dry_run"] != true {
		t.Fatalf("dry run: %+v", out)
	}
	n := len(h.Commands())
	edit := func(e map[string]any) map[string]any {
		e["nodes"] = []string{"Nav"}
		return map[string]any{"edits": []any{e}}
	}
	h.MustFail(t, "set_layers", map[string]any{}, sdk.CodeValidationError, "nothing to do")
	h.MustFail(t, "set_layers", edit(map[string]any{"add": []any{33}}), sdk.CodeValidationError, "1..32")
	h.MustFail(t, "set_layers", edit(map[string]any{"add": []any{2.5}}), sdk.CodeValidationError, "1..32")
	h.MustFail(t, "set_layers", edit(map[string]any{"set": []any{" "}}), sdk.CodeValidationError, "empty name")
	h.MustFail(t, "set_layers", edit(map[string]any{"set": []any{true}}), sdk.CodeValidationError, "layer number")
	h.MustFail(t, "set_layers", edit(map[string]any{}), sdk.CodeValidationError, "set, add or remove")
	h.MustFail(t, "set_layers", map[string]any{"names": []any{map[string]any{"dimension": "2d", "n": 1, "name": "a"}, map[string]any{"dimension": "2d", "n": 1, "name": "b"}}},
		sdk.CodeValidationError, "both name 2d layer 1")
	h.MustFail(t, "set_layers", map[string]any{"names": []any{map[string]any{"dimension": "4d", "n": 1, "name": "a"}}}, sdk.CodeValidationError, "dimension")
	if len(h.Commands()) != n {
		t.Fatalf("a refused call reached the editor: %v", h.Commands())
	}
	// The editor's own refusal (an unknown name, with did-you-mean) reaches the agent as is.
	h.Addon().HandleError("cmd_navigation_set_layers", sdk.Validation("edits[0].set[0]: no 3D navigation layer is named 'watr'. Did you mean 'water'?"))
	h.MustFail(t, "set_layers", edit(map[string]any{"set": []any{"watr"}}), sdk.CodeValidationError, "Did you mean 'water'")
}

func sameJSON(t *testing.T, got any, want string) {
	t.Helper()
	b, err := json.Marshal(got)
	if err != nil {
		t.Fatal(err)
	}
	sdktest.AssertJSON(t, b, want)
}

func configureAnswer(p json.RawMessage) (any, *sdk.Error) {
	var in struct {
		Kind   string `json:"kind"`
		DryRun bool   `json:"dry_run"`
	}
	json.Unmarshal(p, &in)
	return map[string]any{"node": map[string]any{"path": "Nav", "class": "NavigationRegion3D", "kind": in.Kind, "dimension": "3d", "layer_bits": 1},
		"created": true, "dry_run": in.DryRun, "undoable": !in.DryRun, "persisted": !in.DryRun}, nil
}

func TestRegionAgentLink(t *testing.T) {
	h := start(t)
	h.Addon().Handle("cmd_navigation_configure", func(_ context.Context, p json.RawMessage) (any, *sdk.Error) { return configureAnswer(p) })
	var out ConfigureOut
	h.MustCall(t, "region", map[string]any{"parent": ".", "name": "Nav", "geometry": "static_colliders", "source_mode": "group_with_children",
		"source_group": " walls ", "agent_radius": 0.4, "cell_size": 0.1, "enabled": false, "collision_mask": 5, "layers": map[string]any{"set": []any{"ground"}}}).Decode(&out)
	if !out.Created || !out.Undoable || out.Changes == nil || out.Node.Layers == nil {
		t.Fatalf("region: %+v", out)
	}
	p := h.LastParams(t, "cmd_navigation_configure")
	v := p["values"].(map[string]any)
	sameJSON(t, v, `{"geometry": "static_colliders", "source_mode": "group_with_children", "source_group": "walls", "agent_radius": 0.4,
		"cell_size": 0.1, "enabled": false, "collision_mask": 5}`)
	if p["kind"] != "region" || p["parent"] != "." || p["name"] != "Nav" || p["node"] != "" || p["layers"].(map[string]any)["set"].([]any)[0] != "ground" || p["outline"] != nil {
		t.Fatalf("region params: %v", p)
	}
	h.MustCall(t, "region", map[string]any{"node": "Flat/Nav", "outline": [][]float64{{0, 0}, {100, 0}, {100, 100}}}, sdktest.DryRun()).Decode(&out)
	p = h.LastParams(t, "cmd_navigation_configure")
	if !out.DryRun || p["dry_run"] != true || len(p["outline"].([]any)) != 3 || len(p["values"].(map[string]any)) != 0 {
		t.Fatalf("region dry run: %+v %v", out, p)
	}
	h.MustCall(t, "agent", map[string]any{"parent": "Player", "radius": 0.5, "height": 1.8, "path_desired_distance": 0.6, "target_desired_distance": 0.3,
		"avoidance": true, "layers": map[string]any{"add": []any{1, "water"}}})
	p = h.LastParams(t, "cmd_navigation_configure")
	sameJSON(t, p["values"], `{"radius": 0.5, "height": 1.8, "path_desired_distance": 0.6, "target_desired_distance": 0.3, "avoidance": true}`)
	if p["kind"] != "agent" {
		t.Fatalf("agent params: %v", p)
	}
	h.MustCall(t, "link", map[string]any{"parent": ".", "start": []float64{0, 0, 0}, "end": []float64{0, 2, 4}, "bidirectional": false, "travel_cost": 2})
	p = h.LastParams(t, "cmd_navigation_configure")
	sameJSON(t, p["values"], `{"start": [0, 0, 0], "end": [0, 2, 4], "bidirectional": false, "travel_cost": 2}`)

	n := len(h.Commands())
	h.MustFail(t, "region", map[string]any{"geometry": "both"}, sdk.CodeValidationError, "give node")
	h.MustFail(t, "region", map[string]any{"node": "Nav", "parent": "."}, sdk.CodeValidationError, "not both")
	h.MustFail(t, "region", map[string]any{"node": "Nav", "name": "X"}, sdk.CodeValidationError, "for a new node")
	h.MustFail(t, "region", map[string]any{"node": "Nav"}, sdk.CodeValidationError, "nothing to change")
	h.MustFail(t, "region", map[string]any{"node": "Nav", "geometry": "meshes"}, sdk.CodeValidationError, "mesh_instances")
	h.MustFail(t, "region", map[string]any{"node": "Nav", "cell_size": 0}, sdk.CodeValidationError, "positive")
	h.MustFail(t, "region", map[string]any{"node": "Nav", "agent_max_slope": 120}, sdk.CodeValidationError, "agent_max_slope")
	h.MustFail(t, "region", map[string]any{"node": "Nav", "outline": [][]float64{{0, 0}, {1, 0}}}, sdk.CodeValidationError, "at least 3")
	h.MustFail(t, "region", map[string]any{"node": "Nav", "outline": [][]float64{{0, 0}, {1, 0}, {1, 1, 1}}}, sdk.CodeValidationError, "outline[2]")
	h.MustFail(t, "region", map[string]any{"node": "Nav", "layers": map[string]any{"set": []any{0}}}, sdk.CodeValidationError, "1..32")
	h.MustFail(t, "agent", map[string]any{"node": "A", "radius": -1}, sdk.CodeValidationError, "radius")
	h.MustFail(t, "agent", map[string]any{"node": "A", "speed": 3}, sdk.CodeValidationError, "speed")
	h.MustFail(t, "link", map[string]any{"parent": ".", "start": []float64{1}}, sdk.CodeValidationError, "start has 1")
	h.MustFail(t, "link", map[string]any{"parent": ".", "start": []float64{1, 2}, "end": []float64{1, 2, 3}}, sdk.CodeValidationError, "or both 3D")
	if len(h.Commands()) != n {
		t.Fatalf("a refused call reached the editor: %v", h.Commands()[n:])
	}
	// The editor's refusals pass through unchanged.
	h.Addon().HandleError("cmd_navigation_configure", sdk.NotFound("No node 'Nv'. Did you mean 'Nav'?"))
	h.MustFail(t, "region", map[string]any{"node": "Nv", "cell_size": 0.2}, sdk.CodeResourceNotFound, "Did you mean 'Nav'")
}

func TestBake(t *testing.T) {
	h := start(t)
	h.Addon().Handle("cmd_navigation_bake", func(_ context.Context, p json.RawMessage) (any, *sdk.Error) {
		var in struct {
			Region string `json:"region"`
			DryRun bool   `json:"dry_run"`
		}
		json.Unmarshal(p, &in)
		if in.Region == "Empty" {
			return nil, sdk.PreconditionFailed("", "Baking 'Empty' produced no navigation polygon; nothing was changed. no source geometry under the region 'Empty' (no_source_geometry): put the floor under it")
		}
		return map[string]any{"region": in.Region, "dimension": "3d", "polygons": 12, "vertices": 20, "before": map[string]any{"polygons": 0, "vertices": 0},
			"dry_run": in.DryRun, "undoable": !in.DryRun, "persisted": !in.DryRun}, nil
	})
	var out BakeOut
	h.MustCall(t, "bake", map[string]any{"region": " Nav "}).Decode(&out)
	if out.Polygons != 12 || out.Vertices != 20 || !out.Undoable || out.Source == nil || out.Settings == nil || h.LastParams(t, "cmd_navigation_bake")["region"] != "Nav" {
		t.Fatalf("bake: %+v", out)
	}
	h.MustCall(t, "bake", map[string]any{"region": "Nav"}, sdktest.DryRun()).Decode(&out)
	if !out.DryRun || out.Undoable || h.LastParams(t, "cmd_navigation_bake")["dry_run"] != true {
		t.Fatalf("bake dry run: %+v", out)
	}
	h.MustFail(t, "bake", map[string]any{"region": "Empty"}, sdk.CodePreconditionFailed, "no_source_geometry")
	n := len(h.Commands())
	h.MustFail(t, "bake", map[string]any{"region": ""}, sdk.CodeValidationError, "region")
	h.MustFail(t, "bake", map[string]any{}, sdk.CodeValidationError, "region")
	if len(h.Commands()) != n {
		t.Fatal("a refused bake reached the editor")
	}
}

func TestPaths(t *testing.T) {
	h := start(t)
	h.Addon().HandleResult("cmd_navigation_path", map[string]any{"dimension": "3d", "points": []any{[]float64{0, 0, 0}, []float64{2, 0, 2}, []float64{4, 0, 0}},
		"length": 5.66, "straight": 4, "reached": true, "end_gap": 0, "from_on_mesh": []float64{0, 0, 0}, "to_on_mesh": []float64{4, 0, 0}, "regions": []string{"Nav"}, "links": 0, "layers": 4294967295})
	var out EditorPathOut
	h.MustCall(t, "path", map[string]any{"from": []float64{0, 0, 0}, "to": []float64{4, 0, 0}}).Decode(&out)
	if out.Length <= out.Straight || len(out.Points) != 3 || !out.Reached || out.Regions[0] != "Nav" {
		t.Fatalf("path: %+v", out)
	}
	p := h.LastParams(t, "cmd_navigation_path")
	if p["optimize"] != true || p["layers"] != nil || p["regions"] != nil {
		t.Fatalf("path params: %v", p)
	}
	h.MustCall(t, "path", map[string]any{"from": []float64{0, 0}, "to": []float64{4, 0}, "optimize": false, "layers": []any{"ground", 2}, "regions": []string{"Flat/Nav"}})
	p = h.LastParams(t, "cmd_navigation_path")
	if p["optimize"] != false || p["layers"].([]any)[0] != "ground" || p["regions"].([]any)[0] != "Flat/Nav" {
		t.Fatalf("path params: %v", p)
	}
	h.Addon().HandleResult("cmd_navigation_game_path", map[string]any{"dimension": "3d", "points": nil, "length": 0, "straight": 4, "reached": false, "end_gap": -1, "regions": 1})
	var g GamePathOut
	h.MustCall(t, "game_path", map[string]any{"from": []float64{0, 0, 0}, "to": []float64{4, 0, 0}}).Decode(&g)
	if g.Points == nil || g.Reached || g.Regions != 1 {
		t.Fatalf("game_path: %+v", g)
	}
	n := len(h.Commands())
	for _, tool := range []string{"path", "game_path"} {
		h.MustFail(t, tool, map[string]any{"from": []float64{0, 0}, "to": []float64{1, 1, 1}}, sdk.CodeValidationError, "both")
		h.MustFail(t, tool, map[string]any{"from": []float64{0}, "to": []float64{1}}, sdk.CodeValidationError, "from")
		h.MustFail(t, tool, map[string]any{"from": []float64{0, 0}, "to": []float64{1, 1}, "layers": []any{40}}, sdk.CodeValidationError, "1..32")
	}
	h.MustFail(t, "game_path", map[string]any{"from": []float64{0, 0}, "to": []float64{1, 1}}, sdk.CodeValidationError, "dry_run", sdktest.DryRun())
	if len(h.Commands()) != n {
		t.Fatal("a refused query reached the editor")
	}
	h.Addon().HandleError("cmd_navigation_game_path", sdk.PreconditionFailed(sdk.RequireRuntimeProbe, "No game is running. Start one with godot_runtime_play."))
	h.MustFail(t, "game_path", map[string]any{"from": []float64{0, 0}, "to": []float64{1, 1}}, sdk.CodePreconditionFailed, "godot_runtime_play")
}

func TestDebug(t *testing.T) {
	h := start(t)
	h.Addon().Handle("cmd_navigation_debug", func(_ context.Context, p json.RawMessage) (any, *sdk.Error) {
		var in struct {
			Enabled bool `json:"enabled"`
			DryRun  bool `json:"dry_run"`
		}
		json.Unmarshal(p, &in)
		return map[string]any{"enabled": in.Enabled, "was": false, "changed": in.Enabled, "note": "n", "dry_run": in.DryRun, "undoable": !in.DryRun, "persisted": !in.DryRun}, nil
	})
	var out DebugOut
	h.MustCall(t, "debug", map[string]any{"enabled": true}).Decode(&out)
	if !out.Enabled || !out.Changed || !out.Undoable {
		t.Fatalf("debug: %+v", out)
	}
	h.MustCall(t, "debug", map[string]any{"enabled": true}, sdktest.DryRun()).Decode(&out)
	if !out.DryRun || h.LastParams(t, "cmd_navigation_debug")["dry_run"] != true {
		t.Fatalf("debug dry run: %+v", out)
	}
	h.MustFail(t, "debug", map[string]any{}, sdk.CodeValidationError, "enabled")
}
