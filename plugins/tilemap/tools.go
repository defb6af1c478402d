package tilemap

import (
	"context"
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/godot-mcp/godot-mcp/plugins/internal/respath"
	"github.com/godot-mcp/godot-mcp/sdk"
)

const (
	readTimeout  = 30 * time.Second
	paintTimeout = 120 * time.Second
	fileTimeout  = 60 * time.Second
)

// Bounds of one paint call: what the editor does in well under its timeout.
const (
	maxCellWrites = 1 << 20 // cells written by one call (fills count their area)
	maxFillArea   = 1 << 20
)

// ---- reading ----

func listLayers(ctx context.Context, call *sdk.Call, _ ListLayersIn) (ListLayersOut, error) {
	return sdk.Send[ListLayersOut](ctx, call.Host, "cmd_tilemap_list_layers", map[string]any{}, readTimeout)
}

func getCells(ctx context.Context, call *sdk.Call, in GetCellsIn) (GetCellsOut, error) {
	offset := 0
	if in.Cursor != "" {
		n, err := strconv.Atoi(in.Cursor)
		if err != nil || n < 0 {
			return GetCellsOut{}, sdk.Validation(fmt.Sprintf("cursor %q is not a next_cursor this tool gave; omit it to start from the first cell", in.Cursor))
		}
		offset = n
	}
	p := map[string]any{"layer": in.Layer, "offset": offset, "limit": in.Limit}
	if in.Rect != nil {
		p["rect"] = in.Rect
	}
	type answer struct {
		GetCellsOut
		NextOffset int `json:"next_offset"`
	}
	a, err := sdk.Send[answer](ctx, call.Host, "cmd_tilemap_get_cells", p, readTimeout)
	if err != nil {
		return GetCellsOut{}, err
	}
	out := a.GetCellsOut
	out.Cells = orEmpty(out.Cells)
	out.Returned = len(out.Cells)
	if a.NextOffset > 0 {
		out.Truncated, out.NextCursor = true, strconv.Itoa(a.NextOffset)
	}
	return out, nil
}

func getTileSet(ctx context.Context, call *sdk.Call, in GetTileSetIn) (TileSetOut, error) {
	if (in.Layer == "") == (in.Path == "") {
		return TileSetOut{}, sdk.Validation("give exactly one of layer (a TileMapLayer node path) or path (a res:// TileSet file)")
	}
	p := map[string]any{"layer": in.Layer, "tiles_limit": in.TilesLimit}
	if in.Path != "" {
		clean, err := respath.Clean(in.Path)
		if err != nil {
			return TileSetOut{}, err
		}
		p["path"] = clean
	}
	return sdk.Send[TileSetOut](ctx, call.Host, "cmd_tilemap_get_tileset", p, readTimeout)
}

// ---- painting ----

func (in PaintIn) writes() (int, error) {
	n := 0
	for i, f := range in.Fill {
		area := f.Rect.W * f.Rect.H
		if area > maxFillArea {
			return 0, sdk.Validation(fmt.Sprintf("fill[%d].rect is %dx%d = %d cells; at most %d per rect", i, f.Rect.W, f.Rect.H, area, maxFillArea))
		}
		n += area
	}
	for i, p := range in.Patterns {
		if (p.Index == nil) == (p.Copy == nil) {
			return 0, sdk.Validation(fmt.Sprintf("patterns[%d]: give exactly one of index (a TileSet pattern) or copy (a rect of the layer)", i))
		}
		if p.Copy != nil {
			n += p.Copy.W * p.Copy.H
		}
	}
	for _, s := range in.Set {
		n += len(s.Cells)
	}
	n += len(in.Erase)
	for _, t := range in.Terrain {
		n += len(t.Cells)
	}
	if n == 0 && len(in.Patterns) == 0 {
		return 0, sdk.Validation("nothing to paint: give fill, patterns, set, erase or terrain")
	}
	if n > maxCellWrites {
		return 0, sdk.Validation(fmt.Sprintf("%d cell writes in one call; at most %d: split it into several calls", n, maxCellWrites))
	}
	return n, nil
}

func paint(ctx context.Context, call *sdk.Call, in PaintIn) (PaintOut, error) {
	if _, err := in.writes(); err != nil {
		return PaintOut{}, err
	}
	for i := range in.Terrain {
		if in.Terrain[i].Mode == "" {
			in.Terrain[i].Mode = "connect"
		}
	}
	p, err := sdk.Params(in)
	if err != nil {
		return PaintOut{}, err
	}
	p["dry_run"] = call.DryRun
	return sdk.Send[PaintOut](ctx, call.Host, "cmd_tilemap_paint", p, paintTimeout)
}

// ---- TileSet authoring ----

func buildTileSet(ctx context.Context, call *sdk.Call, in BuildTileSetIn) (BuildTileSetOut, error) {
	if in.New == nil {
		return editTileSet(ctx, call, in)
	}
	if in.Path == "" && in.Layer == "" {
		return BuildTileSetOut{}, sdk.Validation("with new, give path (a new res:// .tres) and/or layer (a TileMapLayer to assign it to; without path it is embedded in the scene)")
	}
	if in.Path != "" {
		clean, err := respath.Clean(in.Path)
		if err != nil {
			return BuildTileSetOut{}, err
		}
		if !strings.HasSuffix(clean, ".tres") && !strings.HasSuffix(clean, ".res") {
			return BuildTileSetOut{}, sdk.Validation(fmt.Sprintf("path %q must end in .tres (or .res)", in.Path))
		}
		in.Path = clean
	}
	if in.New.TileSize[0] <= 0 || in.New.TileSize[1] <= 0 {
		return BuildTileSetOut{}, sdk.Validation(fmt.Sprintf("new.tile_size %v must be positive, e.g. [16,16]", in.New.TileSize))
	}
	for i, t := range in.Tiles {
		if t.Source != nil {
			return BuildTileSetOut{}, sdk.Validation(fmt.Sprintf("tiles[%d].source: a new TileSet has no sources yet; use atlas_index (an index into atlases)", i))
		}
	}
	if err := checkAdditions(in.Atlases, in.Tiles, false); err != nil {
		return BuildTileSetOut{}, err
	}
	p, err := sdk.Params(in)
	if err != nil {
		return BuildTileSetOut{}, err
	}
	delete(p, "new")
	p["tile_shape"], p["tile_size"] = in.New.TileShape, in.New.TileSize
	p["dry_run"] = call.DryRun
	return sdk.Send[BuildTileSetOut](ctx, call.Host, "cmd_tilemap_create_tileset", p, fileTimeout)
}

// checkAdditions checks atlases and tiles of build_tileset
// (cleaning texture paths in place); existing: the TileSet may have sources.
func checkAdditions(atlases []AtlasIn, tiles []TileIn, existing bool) error {
	for i := range atlases {
		a := &atlases[i]
		clean, err := respath.Clean(a.Texture)
		if err != nil {
			return sdk.Validation(fmt.Sprintf("atlases[%d].texture: %s", i, sdk.AsError(err).Hint))
		}
		a.Texture = clean
		if a.TileSize != nil && (a.TileSize[0] <= 0 || a.TileSize[1] <= 0) {
			return sdk.Validation(fmt.Sprintf("atlases[%d].tile_size %v must be positive", i, *a.TileSize))
		}
		if a.Margins[0] < 0 || a.Margins[1] < 0 || a.Separation[0] < 0 || a.Separation[1] < 0 {
			return sdk.Validation(fmt.Sprintf("atlases[%d]: margins and separation must not be negative", i))
		}
	}
	for i, t := range tiles {
		if t.Source == nil {
			if len(atlases) == 0 {
				if existing {
					return sdk.Validation(fmt.Sprintf("tiles[%d]: name an existing atlas source with source, or add atlases", i))
				}
				return sdk.Validation("tiles need an atlas: add atlases [{texture: \"res://...png\"}]")
			}
			if t.AtlasIndex >= len(atlases) {
				return sdk.Validation(fmt.Sprintf("tiles[%d].atlas_index %d: there are %d atlases", i, t.AtlasIndex, len(atlases)))
			}
		}
		if t.Size != nil && (t.Size[0] < 1 || t.Size[1] < 1) {
			return sdk.Validation(fmt.Sprintf("tiles[%d].size %v must be at least [1,1]", i, *t.Size))
		}
		for k, c := range t.Collision {
			if len(c.Points) > 0 && len(c.Points) < 3 {
				return sdk.Validation(fmt.Sprintf("tiles[%d].collision[%d].points: a polygon needs at least 3 points", i, k))
			}
		}
	}
	return nil
}

func editTileSet(ctx context.Context, call *sdk.Call, in BuildTileSetIn) (BuildTileSetOut, error) {
	if (in.Layer == "") == (in.Path == "") {
		return BuildTileSetOut{}, sdk.Validation("without new, give exactly one of layer (a TileMapLayer whose TileSet to edit) or path (a res:// TileSet file)")
	}
	if in.Path != "" {
		clean, err := respath.Clean(in.Path)
		if err != nil {
			return BuildTileSetOut{}, err
		}
		in.Path = clean
	}
	if len(in.Atlases)+len(in.Tiles)+len(in.TerrainSets)+len(in.PhysicsLayers)+len(in.NavigationLayers)+len(in.CustomDataLayers) == 0 {
		return BuildTileSetOut{}, sdk.Validation("nothing to add: give atlases, tiles, terrain_sets, physics_layers, navigation_layers or custom_data_layers")
	}
	if err := checkAdditions(in.Atlases, in.Tiles, true); err != nil {
		return BuildTileSetOut{}, err
	}
	p, err := sdk.Params(in)
	if err != nil {
		return BuildTileSetOut{}, err
	}
	p["dry_run"] = call.DryRun
	return sdk.Send[BuildTileSetOut](ctx, call.Host, "cmd_tilemap_edit_tileset", p, fileTimeout)
}
