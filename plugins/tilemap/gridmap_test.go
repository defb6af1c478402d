package tilemap

import (
	"context"
	"encoding/json"
	"testing"

	"github.com/godot-mcp/godot-mcp/sdk"
	"github.com/godot-mcp/godot-mcp/sdk/sdktest"
)

func TestGridMapBuildLibrary(t *testing.T) {
	h := start(t)
	h.Addon().Handle("cmd_tilemap_gridmap_build_library", func(_ context.Context, p json.RawMessage) (any, *sdk.Error) {
		var in struct {
			DryRun bool   `json:"dry_run"`
			Path   string `json:"path"`
		}
		json.Unmarshal(p, &in)
		return map[string]any{"path": in.Path, "embedded": in.Path == "", "gridmap": "Grid", "items": []any{map[string]any{"id": 0, "name": "Box", "shapes": 1, "navigation": false}},
			"persisted": !in.DryRun, "undoable": !in.DryRun, "dry_run": in.DryRun}, nil
	})
	var out BuildLibraryOut
	h.MustCall(t, "gridmap_build_library", map[string]any{"scene": "res://./meshes.tscn", "path": "res://lib.tres", "gridmap": "Grid"}).Decode(&out)
	if out.Path != "res://lib.tres" || len(out.Items) != 1 || out.Items[0].Shapes != 1 || !out.Undoable {
		t.Fatalf("build_library: %+v", out)
	}
	if p := h.LastParams(t, "cmd_tilemap_gridmap_build_library"); p["scene"] != "res://meshes.tscn" || p["dry_run"] != false || p["apply_transforms"] != nil {
		t.Fatalf("params: %v", p)
	}
	h.MustCall(t, "gridmap_build_library", map[string]any{"scene": "res://meshes.tscn", "gridmap": "Grid"}, sdktest.DryRun()).Decode(&out)
	if !out.DryRun || h.LastParams(t, "cmd_tilemap_gridmap_build_library")["dry_run"] != true {
		t.Fatalf("dry run: %+v", out)
	}
	n := len(h.Commands())
	h.MustFail(t, "gridmap_build_library", map[string]any{"scene": "res://meshes.tscn"}, sdk.CodeValidationError, "give path")
	h.MustFail(t, "gridmap_build_library", map[string]any{"scene": "/tmp/x.tscn", "gridmap": "Grid"}, sdk.CodeValidationError, "res://")
	h.MustFail(t, "gridmap_build_library", map[string]any{"scene": "res://m.tscn", "path": "res://lib.png"}, sdk.CodeValidationError, ".tres")
	if len(h.Commands()) != n {
		t.Fatalf("a refused call reached the editor: %v", h.Commands())
	}
}

func TestGridMapCells(t *testing.T) {
	h := start(t)
	h.Addon().HandleResult("cmd_tilemap_gridmap_get_cells", map[string]any{"gridmap": "Grid", "total": 3,
		"cells": []any{map[string]any{"x": 0, "y": 0, "z": 0, "item": 1, "name": "Ball", "orientation": 10}}, "next_offset": 1})
	var cells GridCellsOut
	h.MustCall(t, "gridmap_get_cells", map[string]any{"gridmap": "Grid", "limit": 1, "box": map[string]int{"x": 0, "y": 0, "z": 0, "w": 2, "h": 2, "d": 2}}).Decode(&cells)
	if !cells.Truncated || cells.NextCursor != "1" || cells.Cells[0].Name != "Ball" || cells.Cells[0].Orientation != 10 {
		t.Fatalf("get_cells: %+v", cells)
	}
	if p := h.LastParams(t, "cmd_tilemap_gridmap_get_cells"); p["box"] == nil || p["offset"] != 0.0 {
		t.Fatalf("params: %v", p)
	}
	h.Addon().Handle("cmd_tilemap_gridmap_set_cells", func(_ context.Context, p json.RawMessage) (any, *sdk.Error) {
		var in struct {
			DryRun bool `json:"dry_run"`
		}
		json.Unmarshal(p, &in)
		return map[string]any{"gridmap": "Grid", "written": 3, "changed": true, "used_cells": 2, "persisted": true, "undoable": !in.DryRun, "dry_run": in.DryRun}, nil
	})
	var out GridSetCellsOut
	h.MustCall(t, "gridmap_set_cells", map[string]any{"gridmap": "Grid", "set": []any{map[string]any{"name": "Box", "cells": [][3]int{{0, 0, 0}, {1, 0, 0}}}}, "erase": [][3]int{{5, 5, 5}}}).Decode(&out)
	if out.Written != 3 || !out.Undoable {
		t.Fatalf("set_cells: %+v", out)
	}
	p := h.LastParams(t, "cmd_tilemap_gridmap_set_cells")
	if set := p["set"].([]any)[0].(map[string]any); set["item"] != nil || set["name"] != "Box" || p["dry_run"] != false {
		t.Fatalf("params: %v", p)
	}
	n := len(h.Commands())
	h.MustFail(t, "gridmap_set_cells", map[string]any{"gridmap": "Grid"}, sdk.CodeValidationError, "nothing to do")
	h.MustFail(t, "gridmap_set_cells", map[string]any{"gridmap": "Grid", "set": []any{map[string]any{"item": 0, "name": "Box", "cells": [][3]int{{0, 0, 0}}}}}, sdk.CodeValidationError, "exactly one of item")
	h.MustFail(t, "gridmap_set_cells", map[string]any{"gridmap": "Grid", "set": []any{map[string]any{"item": 0, "orientation": 24, "cells": [][3]int{{0, 0, 0}}}}}, sdk.CodeValidationError, "orientation")
	h.MustFail(t, "gridmap_get_cells", map[string]any{"gridmap": "Grid", "cursor": "-3"}, sdk.CodeValidationError, "cursor")
	if len(h.Commands()) != n {
		t.Fatalf("a refused call reached the editor: %v", h.Commands())
	}
}
