package tilemap

import (
	"context"
	"fmt"
	"strconv"
	"strings"

	"github.com/godot-mcp/godot-mcp/plugins/internal/respath"
	"github.com/godot-mcp/godot-mcp/sdk"
)

func buildLibrary(ctx context.Context, call *sdk.Call, in BuildLibraryIn) (BuildLibraryOut, error) {
	if in.Path == "" && in.GridMap == "" {
		return BuildLibraryOut{}, sdk.Validation("give path (a new res:// .tres) and/or gridmap (a GridMap to assign it to; without path it is embedded in the scene)")
	}
	scene, err := respath.Clean(in.Scene)
	if err != nil {
		return BuildLibraryOut{}, err
	}
	in.Scene = scene
	if in.Path != "" {
		clean, err := respath.Clean(in.Path)
		if err != nil {
			return BuildLibraryOut{}, err
		}
		if !strings.HasSuffix(clean, ".tres") && !strings.HasSuffix(clean, ".res") {
			return BuildLibraryOut{}, sdk.Validation(fmt.Sprintf("path %q must end in .tres (or .res)", in.Path))
		}
		in.Path = clean
	}
	p, err := sdk.Params(in)
	if err != nil {
		return BuildLibraryOut{}, err
	}
	p["dry_run"] = call.DryRun
	return sdk.Send[BuildLibraryOut](ctx, call.Host, "cmd_tilemap_gridmap_build_library", p, fileTimeout)
}

func gridGetCells(ctx context.Context, call *sdk.Call, in GridCellsIn) (GridCellsOut, error) {
	offset := 0
	if in.Cursor != "" {
		n, err := strconv.Atoi(in.Cursor)
		if err != nil || n < 0 {
			return GridCellsOut{}, sdk.Validation(fmt.Sprintf("cursor %q is not a next_cursor this tool gave; omit it to start from the first cell", in.Cursor))
		}
		offset = n
	}
	p := map[string]any{"gridmap": in.GridMap, "offset": offset, "limit": in.Limit}
	if in.Box != nil {
		p["box"] = in.Box
	}
	type answer struct {
		GridCellsOut
		NextOffset int `json:"next_offset"`
	}
	a, err := sdk.Send[answer](ctx, call.Host, "cmd_tilemap_gridmap_get_cells", p, readTimeout)
	if err != nil {
		return GridCellsOut{}, err
	}
	out := a.GridCellsOut
	out.Cells = orEmpty(out.Cells)
	out.Returned = len(out.Cells)
	if a.NextOffset > 0 {
		out.Truncated, out.NextCursor = true, strconv.Itoa(a.NextOffset)
	}
	return out, nil
}

func gridSetCells(ctx context.Context, call *sdk.Call, in GridSetCellsIn) (GridSetCellsOut, error) {
	n := len(in.Erase)
	for i, s := range in.Set {
		if (s.Item == nil) == (s.Name == "") {
			return GridSetCellsOut{}, sdk.Validation(fmt.Sprintf("set[%d]: give exactly one of item (an id) or name", i))
		}
		n += len(s.Cells)
	}
	if n == 0 {
		return GridSetCellsOut{}, sdk.Validation("nothing to do: give set or erase")
	}
	if n > maxCellWrites {
		return GridSetCellsOut{}, sdk.Validation(fmt.Sprintf("%d cell writes in one call; at most %d: split it into several calls", n, maxCellWrites))
	}
	p, err := sdk.Params(in)
	if err != nil {
		return GridSetCellsOut{}, err
	}
	p["dry_run"] = call.DryRun
	return sdk.Send[GridSetCellsOut](ctx, call.Host, "cmd_tilemap_gridmap_set_cells", p, paintTimeout)
}
