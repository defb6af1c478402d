// Package tilemap is the built-in tilemap toolset: read and paint the
// TileMapLayer nodes of the edited scene (cells, fills, patterns, terrains)
// and author TileSets (atlas sources, tiles, terrains, physics and
// custom-data layers); build GridMap MeshLibraries and set GridMap cells. Every edit is one undo action. Its editor side ships
// as GDScript in editor/ (installed into the project on enable). Legacy
// TileMap nodes are reported and refused with how to convert them.
// docs/tilemap.md describes the behaviours and limits.
package tilemap

import (
	"embed"

	"github.com/godot-mcp/godot-mcp/plugins/internal/engines"
	"github.com/godot-mcp/godot-mcp/sdk"
)

//go:embed editor
var editorFiles embed.FS

var (
	connected   = []string{sdk.RequireBridgeConnected}
	sceneNeeded = []string{sdk.RequireBridgeConnected, sdk.RequireActiveScene}
)

// Toolset is the tilemap toolset.
func Toolset() sdk.Toolset {
	return sdk.Toolset{
		Name:           "tilemap",
		Version:        "0.1.0",
		Description:    "TileMapLayer, TileSet and GridMap: read and paint cells and terrains, create TileSets and MeshLibraries, all undoable.",
		Keywords:       []string{"TileMapLayer", "TileSet", "tiles", "terrain", "autotile", "GridMap", "MeshLibrary", "atlas"},
		MinGodot:       engines.MinGodot,
		MaxTestedGodot: engines.MaxTestedGodot,
		EditorCode:     sdk.Subdir(editorFiles, "editor"),
		Tools: []sdk.Tool{
			sdk.NewTool("list_layers", sdk.ToolOptions{
				Title: "List tile layers",
				Description: "The TileMapLayer nodes of the edited scene with their TileSet (file or embedded, tile size, sources), used rect and cell count; " +
					"legacy TileMap nodes (Godot ≤4.2, not editable here) with how to convert them; GridMaps.",
				Safety:        sdk.ReadOnly,
				Preconditions: sceneNeeded,
			}, listLayers),
			sdk.NewTool("get_cells", sdk.ToolOptions{
				Title:         "Get painted cells",
				Description:   "The painted cells of a TileMapLayer (all, or inside rect), row by row: x, y, source id, atlas coords, alternative. Paged with cursor.",
				Safety:        sdk.ReadOnly,
				Preconditions: sceneNeeded,
			}, getCells),
			sdk.NewTool("get_tileset", sdk.ToolOptions{
				Title: "Get a TileSet",
				Description: "A TileSet (a layer's, or a .tres): shape, tile size, sources (atlas texture, region, margins, separation; tiles with terrain, peering, " +
					"collision, custom data), terrain sets, physics, navigation, custom-data layers.",
				Safety:        sdk.ReadOnly,
				Preconditions: connected,
			}, getTileSet),
			sdk.NewTool("paint", sdk.ToolOptions{
				Title: "Paint cells",
				Description: "Paints one TileMapLayer in one call and ONE undo action: fill rects (or erase them), place patterns, set many cells per tile, erase cells, and paint terrains " +
					"(connect or path, the editor's terrain tools' algorithm), in that order. Tiles are checked against the TileSet first; all or nothing.",
				Safety:        sdk.Mutating,
				Preconditions: sceneNeeded,
			}, paint),
			sdk.NewTool("build_tileset", sdk.ToolOptions{
				Title: "Create or extend a TileSet",
				Description: "With new: creates a TileSet, written to a new .tres and/or assigned to layer (embedded without path). Without: adds to the TileSet of layer or path " +
					"(one undo action). Adds atlases cut from textures, tiles with terrain, peering bits, collision and custom data, terrain sets and physics, navigation, " +
					"custom-data layers. All or nothing.",
				Safety:        sdk.Mutating,
				Preconditions: connected,
			}, buildTileSet),
			sdk.NewTool("gridmap_build_library", sdk.ToolOptions{
				Title: "Build a MeshLibrary",
				Description: "Builds a MeshLibrary from a scene of meshes as the editor's export does (each MeshInstance3D an item, with its StaticBody3D shapes " +
					"and navigation mesh), written to a new .tres and/or assigned to a GridMap (embedded without path; one undo action).",
				Safety:        sdk.Mutating,
				Preconditions: connected,
			}, buildLibrary),
			sdk.NewTool("gridmap_get_cells", sdk.ToolOptions{
				Title:         "Get GridMap cells",
				Description:   "The used cells of a GridMap (all, or inside box): x, y, z, item id and name, orientation. Paged with cursor.",
				Safety:        sdk.ReadOnly,
				Preconditions: sceneNeeded,
			}, gridGetCells),
			sdk.NewTool("gridmap_set_cells", sdk.ToolOptions{
				Title:         "Set GridMap cells",
				Description:   "Places MeshLibrary items (by id or name, with an orientation) on many cells and clears cells, in one call and ONE undo action; items are checked first, all or nothing.",
				Safety:        sdk.Mutating,
				Preconditions: sceneNeeded,
			}, gridSetCells),
		},
	}
}
