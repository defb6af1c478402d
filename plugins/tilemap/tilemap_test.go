package tilemap

import (
	"context"
	"encoding/json"
	"fmt"
	"io/fs"
	"strings"
	"testing"

	"github.com/godot-mcp/godot-mcp/sdk"
	"github.com/godot-mcp/godot-mcp/sdk/sdktest"
)

// The commands the tools send, with the class handlers.gd must declare.
var commands = []sdktest.EditorCommand{
	{Name: "cmd_tilemap_list_layers", Class: sdk.ReadOnly},
	{Name: "cmd_tilemap_get_cells", Class: sdk.ReadOnly},
	{Name: "cmd_tilemap_get_tileset", Class: sdk.ReadOnly},
	{Name: "cmd_tilemap_paint", Class: sdk.Mutating, DryRun: true},
	{Name: "cmd_tilemap_create_tileset", Class: sdk.Mutating, DryRun: true},
	{Name: "cmd_tilemap_edit_tileset", Class: sdk.Mutating, DryRun: true},
	{Name: "cmd_tilemap_gridmap_build_library", Class: sdk.Mutating, DryRun: true},
	{Name: "cmd_tilemap_gridmap_get_cells", Class: sdk.ReadOnly},
	{Name: "cmd_tilemap_gridmap_set_cells", Class: sdk.Mutating, DryRun: true},
}

func start(t *testing.T) *sdktest.Harness {
	t.Helper()
	return sdktest.StartWith(t, Toolset(), commands)
}

// handlers.gd declares every command with the class the tools assume, and
// ships every script it preloads.
func TestEditorCodeDeclaresCommands(t *testing.T) {
	sdktest.CheckEditorCode(t, Toolset(), commands, "handlers.gd", "common.gd", "read.gd", "paint.gd", "tileset.gd", "gridmap.gd", "edit.gd")
	for _, f := range []string{"handlers.gd", "common.gd", "read.gd", "paint.gd", "tileset.gd", "gridmap.gd", "edit.gd"} {
		b, _ := fs.ReadFile(Toolset().EditorCode, f)
		if n := strings.Count(string(b), "\n"); n > 600 {
			t.Errorf("%s has %d lines; split it (limit 600)", f, n)
		}
	}
}

func TestListLayers(t *testing.T) {
	h := start(t)
	h.Addon().HandleResult("cmd_tilemap_list_layers", map[string]any{"scene": "res://level.tscn",
		"layers": []any{map[string]any{"path": "Ground", "enabled": true, "visible": true, "tile_set": nil, "used_rect": map[string]int{"x": 0, "y": 0, "w": 0, "h": 0}, "cells": 0, "persisted": true}},
		"legacy": []any{map[string]any{"path": "Old", "layers": 2, "hint": "convert it"}}})
	var out ListLayersOut
	if err := h.MustCall(t, "list_layers", nil).Decode(&out); err != nil {
		t.Fatal(err)
	}
	if len(out.Layers) != 1 || out.Layers[0].TileSet != nil || len(out.Legacy) != 1 || out.GridMaps == nil {
		t.Fatalf("list_layers: %+v", out)
	}
}

func TestGetCellsPages(t *testing.T) {
	h := start(t)
	h.Addon().Handle("cmd_tilemap_get_cells", func(_ context.Context, p json.RawMessage) (any, *sdk.Error) {
		var in struct{ Offset, Limit int }
		json.Unmarshal(p, &in)
		next := -1
		if in.Offset == 0 {
			next = 1
		}
		return map[string]any{"layer": "Ground", "used_rect": map[string]int{"x": 0, "y": 0, "w": 2, "h": 1}, "total": 2,
			"cells": []any{map[string]any{"x": in.Offset, "y": 0, "source": 0, "atlas": []int{1, 0}, "alt": 0}}, "next_offset": next}, nil
	})
	var out GetCellsOut
	h.MustCall(t, "get_cells", map[string]any{"layer": "Ground", "limit": 1, "rect": map[string]int{"x": 0, "y": 0, "w": 5, "h": 5}}).Decode(&out)
	if !out.Truncated || out.NextCursor != "1" || out.Returned != 1 || out.Total != 2 {
		t.Fatalf("page 1: %+v", out)
	}
	if p := h.LastParams(t, "cmd_tilemap_get_cells"); p["offset"] != 0.0 || p["limit"] != 1.0 || p["rect"] == nil {
		t.Fatalf("params: %v", p)
	}
	cursor := out.NextCursor
	out = GetCellsOut{}
	h.MustCall(t, "get_cells", map[string]any{"layer": "Ground", "limit": 1, "cursor": cursor}).Decode(&out)
	if out.Truncated || out.NextCursor != "" || out.Cells[0].X != 1 {
		t.Fatalf("page 2: %+v", out)
	}
	n := len(h.Commands())
	h.MustFail(t, "get_cells", map[string]any{"layer": "Ground", "cursor": "x"}, sdk.CodeValidationError, "cursor")
	h.MustFail(t, "get_cells", map[string]any{"layer": "Ground", "limit": 20000}, sdk.CodeValidationError, "limit")
	if len(h.Commands()) != n {
		t.Fatalf("a refused call reached the editor: %v", h.Commands())
	}
}

func TestGetTileSet(t *testing.T) {
	h := start(t)
	h.Addon().HandleResult("cmd_tilemap_get_tileset", map[string]any{"path": "res://tiles.tres", "embedded": false, "tile_shape": "square", "tile_size": []int{16, 16},
		"sources":      []any{map[string]any{"id": 0, "type": "atlas", "texture": "res://t.png", "tiles_count": 1, "tiles": []any{map[string]any{"atlas": []int{0, 0}, "size": []int{1, 1}, "alternatives": []int{0}, "terrain_set": -1, "terrain": -1}}, "scenes": []any{}}},
		"terrain_sets": []any{}, "physics_layers": []any{}, "navigation_layers": []any{}, "custom_data_layers": []any{}, "patterns": 0, "tiles_truncated": false})
	var out TileSetOut
	h.MustCall(t, "get_tileset", map[string]any{"path": "res://./tiles.tres"}).Decode(&out)
	if len(out.Sources) != 1 || out.Sources[0].Tiles[0].TerrainSet != -1 || out.TileSize != [2]int{16, 16} {
		t.Fatalf("get_tileset: %+v", out)
	}
	if p := h.LastParams(t, "cmd_tilemap_get_tileset"); p["path"] != "res://tiles.tres" || p["tiles_limit"] != 500.0 {
		t.Fatalf("params: %v", p)
	}
	h.MustFail(t, "get_tileset", map[string]any{}, sdk.CodeValidationError, "exactly one of layer")
	h.MustFail(t, "get_tileset", map[string]any{"layer": "G", "path": "res://t.tres"}, sdk.CodeValidationError, "exactly one of layer")
	h.MustFail(t, "get_tileset", map[string]any{"path": "res://../t.tres"}, sdk.CodeValidationError, "leaves the project")
}

func paintAnswer(dry bool) map[string]any {
	return map[string]any{"layer": "Ground", "written": 3, "changed": true, "used_cells": 3, "used_rect": map[string]int{"x": 0, "y": 0, "w": 3, "h": 1},
		"persisted": true, "undoable": !dry, "dry_run": dry}
}

func TestPaint(t *testing.T) {
	h := start(t)
	h.Addon().Handle("cmd_tilemap_paint", func(_ context.Context, p json.RawMessage) (any, *sdk.Error) {
		var in struct {
			DryRun bool `json:"dry_run"`
		}
		json.Unmarshal(p, &in)
		return paintAnswer(in.DryRun), nil
	})
	args := map[string]any{"layer": "Ground",
		"set":     []any{map[string]any{"tile": map[string]any{"source": 0, "atlas": []int{1, 0}}, "cells": [][2]int{{0, 0}, {1, 0}}}},
		"terrain": []any{map[string]any{"terrain_set": 0, "terrain": 0, "cells": [][2]int{{2, 0}}}},
	}
	var out PaintOut
	h.MustCall(t, "paint", args).Decode(&out)
	if !out.Undoable || out.DryRun || out.Written != 3 {
		t.Fatalf("paint: %+v", out)
	}
	p := h.LastParams(t, "cmd_tilemap_paint")
	terr := p["terrain"].([]any)[0].(map[string]any)
	set := p["set"].([]any)[0].(map[string]any)
	if p["dry_run"] != false || terr["mode"] != "connect" || terr["ignore_empty_terrains"] != nil || set["tile"].(map[string]any)["alt"] != nil || len(set["cells"].([]any)) != 2 {
		t.Fatalf("params: %v", p)
	}
	h.MustCall(t, "paint", args, sdktest.DryRun()).Decode(&out)
	if !out.DryRun || out.Undoable {
		t.Fatalf("dry run: %+v", out)
	}
	if p := h.LastParams(t, "cmd_tilemap_paint"); p["dry_run"] != true {
		t.Fatalf("dry run params: %v", p)
	}
	n := len(h.Commands())
	h.MustFail(t, "paint", map[string]any{"layer": "Ground"}, sdk.CodeValidationError, "nothing to paint")
	h.MustFail(t, "paint", map[string]any{"layer": "Ground", "patterns": []any{map[string]any{"at": []int{0, 0}}}}, sdk.CodeValidationError, "exactly one of index")
	h.MustFail(t, "paint", map[string]any{"layer": "Ground", "fill": []any{map[string]any{"rect": map[string]int{"x": 0, "y": 0, "w": 2000, "h": 2000}}}}, sdk.CodeValidationError, "at most")
	h.MustFail(t, "paint", map[string]any{"layer": "Ground", "terrain": []any{map[string]any{"mode": "line", "terrain_set": 0, "terrain": 0, "cells": [][2]int{{0, 0}}}}}, sdk.CodeValidationError, "mode")
	h.MustFail(t, "paint", map[string]any{"layer": "Ground", "erase": [][]int{{0}}}, sdk.CodeValidationError, "erase")
	if len(h.Commands()) != n {
		t.Fatalf("a refused call reached the editor: %v", h.Commands())
	}
	// The editor's refusal (a legacy TileMap, say) is the tool's answer.
	h.Addon().HandleError("cmd_tilemap_paint", &sdk.Error{Code: "PRECONDITION_FAILED", Hint: "'Old' is a TileMap node", Required: "tile_map_layer"})
	h.MustFail(t, "paint", map[string]any{"layer": "Old", "erase": [][2]int{{0, 0}}}, sdk.CodePreconditionFailed, "TileMap node")
}

// build_tileset with new sends cmd_tilemap_create_tileset.
func TestBuildNewTileSet(t *testing.T) {
	h := start(t)
	h.Addon().Handle("cmd_tilemap_create_tileset", func(_ context.Context, p json.RawMessage) (any, *sdk.Error) {
		var in struct {
			DryRun bool   `json:"dry_run"`
			Path   string `json:"path"`
		}
		json.Unmarshal(p, &in)
		return map[string]any{"path": in.Path, "embedded": in.Path == "", "layer": "Ground", "sources": []any{map[string]any{"id": 0, "tiles": 4, "grid_size": []int{2, 2}}},
			"tiles": 4, "terrain_sets": 0, "physics_layers": 1, "custom_data_layers": 0, "persisted": !in.DryRun, "undoable": !in.DryRun, "dry_run": in.DryRun}, nil
	})
	args := map[string]any{"path": "res://art/../tiles.tres", "layer": "Ground", "new": map[string]any{"tile_size": []int{8, 8}},
		"atlases":        []any{map[string]any{"texture": "res://./icon.svg", "separation": []int{1, 1}}},
		"physics_layers": []any{map[string]any{}},
		"tiles":          []any{map[string]any{"atlas": []int{0, 0}, "collision": []any{map[string]any{}}, "custom_data": map[string]any{"damage": 3}}},
	}
	h.MustFail(t, "build_tileset", args, sdk.CodeValidationError, "leaves the project")
	args["path"] = "res://tiles.tres"
	var out BuildTileSetOut
	h.MustCall(t, "build_tileset", args).Decode(&out)
	if out.Path != "res://tiles.tres" || out.Tiles != 4 || !out.Undoable {
		t.Fatalf("build_tileset new: %+v", out)
	}
	p := h.LastParams(t, "cmd_tilemap_create_tileset")
	atlas := p["atlases"].([]any)[0].(map[string]any)
	if atlas["texture"] != "res://icon.svg" || atlas["margins"] != nil || atlas["create_tiles"] != "all" || p["tile_shape"] != "square" || p["new"] != nil || fmt.Sprint(p["tile_size"]) != "[8 8]" || p["dry_run"] != false {
		t.Fatalf("params: %v", p)
	}
	h.MustCall(t, "build_tileset", args, sdktest.DryRun()).Decode(&out)
	if !out.DryRun || h.LastParams(t, "cmd_tilemap_create_tileset")["dry_run"] != true {
		t.Fatalf("dry run: %+v", out)
	}
	n := len(h.Commands())
	h.MustFail(t, "build_tileset", map[string]any{"new": map[string]any{"tile_size": []int{8, 8}}}, sdk.CodeValidationError, "give path")
	h.MustFail(t, "build_tileset", map[string]any{"path": "res://t.png", "new": map[string]any{"tile_size": []int{8, 8}}}, sdk.CodeValidationError, ".tres")
	h.MustFail(t, "build_tileset", map[string]any{"layer": "G", "new": map[string]any{"tile_size": []int{0, 8}}}, sdk.CodeValidationError, "positive")
	h.MustFail(t, "build_tileset", map[string]any{"layer": "G", "new": map[string]any{"tile_size": []int{8, 8}}, "tiles": []any{map[string]any{"atlas": []int{0, 0}}}}, sdk.CodeValidationError, "need an atlas")
	h.MustFail(t, "build_tileset", map[string]any{"layer": "G", "new": map[string]any{"tile_size": []int{8, 8}}, "atlases": []any{map[string]any{"texture": "res://i.svg"}},
		"tiles": []any{map[string]any{"atlas": []int{0, 0}, "collision": []any{map[string]any{"points": [][2]float64{{0, 0}, {1, 1}}}}}}}, sdk.CodeValidationError, "at least 3 points")
	if len(h.Commands()) != n {
		t.Fatalf("a refused call reached the editor: %v", h.Commands())
	}
}

// build_tileset without new sends cmd_tilemap_edit_tileset.
func TestBuildOntoTileSet(t *testing.T) {
	h := start(t)
	h.Addon().Handle("cmd_tilemap_edit_tileset", func(_ context.Context, p json.RawMessage) (any, *sdk.Error) {
		var in struct {
			DryRun bool `json:"dry_run"`
		}
		json.Unmarshal(p, &in)
		return map[string]any{"path": "res://tiles.tres", "embedded": false, "layer": "", "sources": []any{map[string]any{"id": 0, "tiles": 4, "grid_size": []int{2, 2}}},
			"tiles": 4, "terrain_sets": 2, "physics_layers": 1, "custom_data_layers": 2, "persisted": !in.DryRun, "undoable": !in.DryRun, "dry_run": in.DryRun}, nil
	})
	args := map[string]any{"path": "res://tiles.tres", "custom_data_layers": []any{map[string]any{"name": "kind", "type": "String"}},
		"tiles": []any{map[string]any{"source": 0, "atlas": []int{1, 0}, "collision": []any{map[string]any{"points": [][2]float64{{0, -4}, {4, 4}, {-4, 4}}}}}}}
	var out BuildTileSetOut
	h.MustCall(t, "build_tileset", args).Decode(&out)
	if out.CustomDataLayers != 2 || !out.Undoable {
		t.Fatalf("build_tileset onto: %+v", out)
	}
	p := h.LastParams(t, "cmd_tilemap_edit_tileset")
	if tile := p["tiles"].([]any)[0].(map[string]any); tile["source"] != 0.0 || tile["atlas_index"] != nil || p["dry_run"] != false {
		t.Fatalf("params: %v", p)
	}
	h.MustCall(t, "build_tileset", args, sdktest.DryRun()).Decode(&out)
	if !out.DryRun || h.LastParams(t, "cmd_tilemap_edit_tileset")["dry_run"] != true {
		t.Fatalf("dry run: %+v", out)
	}
	n := len(h.Commands())
	h.MustFail(t, "build_tileset", map[string]any{"path": "res://tiles.tres"}, sdk.CodeValidationError, "nothing to add")
	h.MustFail(t, "build_tileset", map[string]any{"layer": "G", "path": "res://tiles.tres", "physics_layers": []any{map[string]any{}}}, sdk.CodeValidationError, "exactly one of layer")
	h.MustFail(t, "build_tileset", map[string]any{"layer": "G", "tiles": []any{map[string]any{"atlas": []int{0, 0}}}}, sdk.CodeValidationError, "existing atlas source")
	h.MustFail(t, "build_tileset", map[string]any{"layer": "G", "new": map[string]any{"tile_size": []int{8, 8}}, "atlases": []any{map[string]any{"texture": "res://i.svg"}},
		"tiles": []any{map[string]any{"source": 0, "atlas": []int{0, 0}}}}, sdk.CodeValidationError, "no sources yet")
	if len(h.Commands()) != n {
		t.Fatalf("a refused call reached the editor: %v", h.Commands())
	}
}
