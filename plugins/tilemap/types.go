package tilemap

import "encoding/json"

// Honesty is what every tilemap edit answers besides its own fields.
type Honesty struct {
	Persisted bool   `json:"persisted" description:"true when the change is saved by the next scene save (or was written to a file); false says why in reason"`
	Reason    string `json:"reason,omitempty" description:"why persisted is false"`
	Undoable  bool   `json:"undoable" description:"true when one godot_undo reverts exactly this call (false when nothing changed)"`
	DryRun    bool   `json:"dry_run" description:"a preview: nothing was changed"`
}

// Rect is a rectangle of cells.
type Rect struct {
	X int `json:"x"`
	Y int `json:"y"`
	W int `json:"w" jsonschema:"minimum=1"`
	H int `json:"h" jsonschema:"minimum=1"`
}

// UsedRect is the rectangle a layer's painted cells cover (TileMapLayer
// get_used_rect): all zero when no cell is painted, so unlike Rect (an
// argument) its size may be 0.
type UsedRect struct {
	X int `json:"x"`
	Y int `json:"y"`
	W int `json:"w" jsonschema:"minimum=0" description:"0 when no cell is painted"`
	H int `json:"h" jsonschema:"minimum=0"`
}

// Tile names one tile of the layer's TileSet.
type Tile struct {
	Source int    `json:"source" jsonschema:"minimum=0"`
	Atlas  [2]int `json:"atlas,omitzero" description:"atlas coords, default [0,0]"`
	Alt    int    `json:"alt,omitempty" jsonschema:"minimum=0" description:"alternative (scenes source: scene tile id)"`
}

// ---- reading ----

// ListLayersIn takes no arguments.
type ListLayersIn struct{}

// TileSetSummary is the short form of a layer's TileSet.
type TileSetSummary struct {
	Path      string `json:"path" description:"res:// path of the .tres, empty when embedded in the scene"`
	Embedded  bool   `json:"embedded"`
	TileShape string `json:"tile_shape"`
	TileSize  [2]int `json:"tile_size"`
	Sources   int    `json:"sources"`
}

// LayerInfo is one TileMapLayer.
type LayerInfo struct {
	Path      string          `json:"path" description:"node path relative to the scene root"`
	Enabled   bool            `json:"enabled"`
	Visible   bool            `json:"visible"`
	ZIndex    int             `json:"z_index"`
	TileSet   *TileSetSummary `json:"tile_set" description:"null when the layer has none"`
	UsedRect  UsedRect        `json:"used_rect"`
	Cells     int             `json:"cells" description:"painted cells"`
	Persisted bool            `json:"persisted" description:"false when edits to it are not saved (inside an instanced scene)"`
}

// LegacyTileMap is a TileMap node (Godot 4.2 and older), which these tools refuse to edit.
type LegacyTileMap struct {
	Path   string `json:"path"`
	Layers int    `json:"layers"`
	Hint   string `json:"hint" description:"how to convert it to TileMapLayer nodes"`
}

// GridMapInfo is one GridMap.
type GridMapInfo struct {
	Path        string     `json:"path"`
	MeshLibrary string     `json:"mesh_library"`
	Items       int        `json:"items"`
	Cells       int        `json:"cells"`
	CellSize    [3]float64 `json:"cell_size"`
}

// ListLayersOut lists the tile nodes of the edited scene.
type ListLayersOut struct {
	Scene    string          `json:"scene"`
	Layers   []LayerInfo     `json:"layers"`
	Legacy   []LegacyTileMap `json:"legacy" description:"TileMap nodes (deprecated): convert them before editing"`
	GridMaps []GridMapInfo   `json:"gridmaps"`
}

func (o *ListLayersOut) Normalize() {
	o.Layers, o.Legacy, o.GridMaps = orEmpty(o.Layers), orEmpty(o.Legacy), orEmpty(o.GridMaps)
}

// GetCellsIn selects cells of a layer.
type GetCellsIn struct {
	Layer  string `json:"layer" jsonschema:"minLength=1" description:"TileMapLayer node path"`
	Rect   *Rect  `json:"rect,omitempty" description:"only cells inside"`
	Limit  int    `json:"limit,omitempty" jsonschema:"default=1000,minimum=1,maximum=10000"`
	Cursor string `json:"cursor,omitempty" description:"next_cursor of the previous answer"`
}

// Cell is one painted cell.
type Cell struct {
	X      int    `json:"x"`
	Y      int    `json:"y"`
	Source int    `json:"source"`
	Atlas  [2]int `json:"atlas"`
	Alt    int    `json:"alt"`
}

// GetCellsOut is a page of painted cells, row by row.
type GetCellsOut struct {
	Layer      string   `json:"layer"`
	UsedRect   UsedRect `json:"used_rect" description:"the rect of all painted cells"`
	Total      int      `json:"total" description:"painted cells in the rect"`
	Returned   int      `json:"returned"`
	Cells      []Cell   `json:"cells"`
	Truncated  bool     `json:"truncated"`
	NextCursor string   `json:"next_cursor,omitempty"`
}

// GetTileSetIn names a TileSet: a layer's, or a file.
type GetTileSetIn struct {
	Layer      string `json:"layer,omitempty" description:"TileMapLayer"`
	Path       string `json:"path,omitempty" description:"or a TileSet .tres"`
	TilesLimit int    `json:"tiles_limit,omitempty" jsonschema:"default=500,minimum=0,maximum=5000"`
}

// TileInfo is one tile of an atlas source.
type TileInfo struct {
	Atlas             [2]int                     `json:"atlas"`
	Size              [2]int                     `json:"size" description:"size in atlas cells"`
	Alternatives      []int                      `json:"alternatives" description:"alternative tile ids (0 is the tile itself)"`
	TerrainSet        int                        `json:"terrain_set" description:"-1: none"`
	Terrain           int                        `json:"terrain"`
	Peering           map[string]int             `json:"peering,omitempty" description:"terrain peering bits set (neighbour -> terrain)"`
	CollisionPolygons []int                      `json:"collision_polygons,omitempty" description:"polygons per physics layer"`
	CustomData        map[string]json.RawMessage `json:"custom_data,omitempty"`
}

// SceneTile is one tile of a scenes-collection source.
type SceneTile struct {
	ID    int    `json:"id"`
	Scene string `json:"scene"`
}

// SourceInfo is one source of a TileSet.
type SourceInfo struct {
	ID                int         `json:"id"`
	Type              string      `json:"type" jsonschema:"enum=atlas|scenes"`
	Texture           string      `json:"texture,omitempty"`
	TextureRegionSize [2]int      `json:"texture_region_size,omitzero"`
	Margins           [2]int      `json:"margins,omitzero"`
	Separation        [2]int      `json:"separation,omitzero"`
	GridSize          [2]int      `json:"grid_size,omitzero" description:"atlas columns and rows"`
	TilesCount        int         `json:"tiles_count"`
	Tiles             []TileInfo  `json:"tiles"`
	Scenes            []SceneTile `json:"scenes"`
}

// Terrain is one terrain of a terrain set.
type Terrain struct {
	Index int    `json:"index"`
	Name  string `json:"name"`
	Color string `json:"color"`
}

// TerrainSet is one terrain set.
type TerrainSet struct {
	Index    int       `json:"index"`
	Mode     string    `json:"mode" jsonschema:"enum=corners_and_sides|corners|sides"`
	Terrains []Terrain `json:"terrains"`
}

// PhysicsLayer is one physics layer of a TileSet.
type PhysicsLayer struct {
	Index          int    `json:"index"`
	CollisionLayer uint32 `json:"collision_layer"`
	CollisionMask  uint32 `json:"collision_mask"`
}

// NavigationLayer is one navigation layer of a TileSet.
type NavigationLayer struct {
	Index  int    `json:"index"`
	Layers uint32 `json:"layers"`
}

// CustomDataLayer is one custom-data layer of a TileSet.
type CustomDataLayer struct {
	Index int    `json:"index"`
	Name  string `json:"name"`
	Type  string `json:"type" description:"Variant type name"`
}

// TileSetOut is a TileSet in full.
type TileSetOut struct {
	Path             string            `json:"path" description:"empty when embedded"`
	Embedded         bool              `json:"embedded"`
	TileShape        string            `json:"tile_shape"`
	TileSize         [2]int            `json:"tile_size"`
	Sources          []SourceInfo      `json:"sources"`
	TerrainSets      []TerrainSet      `json:"terrain_sets"`
	PhysicsLayers    []PhysicsLayer    `json:"physics_layers"`
	NavigationLayers []NavigationLayer `json:"navigation_layers"`
	CustomDataLayers []CustomDataLayer `json:"custom_data_layers"`
	Patterns         int               `json:"patterns"`
	TilesTruncated   bool              `json:"tiles_truncated" description:"more tiles than tiles_limit: raise it"`
}

func (o *TileSetOut) Normalize() {
	o.Sources, o.TerrainSets, o.PhysicsLayers = orEmpty(o.Sources), orEmpty(o.TerrainSets), orEmpty(o.PhysicsLayers)
	o.NavigationLayers, o.CustomDataLayers = orEmpty(o.NavigationLayers), orEmpty(o.CustomDataLayers)
	for i := range o.Sources {
		o.Sources[i].Tiles, o.Sources[i].Scenes = orEmpty(o.Sources[i].Tiles), orEmpty(o.Sources[i].Scenes)
		for j := range o.Sources[i].Tiles {
			o.Sources[i].Tiles[j].Alternatives = orEmpty(o.Sources[i].Tiles[j].Alternatives)
		}
	}
	for i := range o.TerrainSets {
		o.TerrainSets[i].Terrains = orEmpty(o.TerrainSets[i].Terrains)
	}
}

// ---- painting ----

// SetCells paints one tile on many cells.
type SetCells struct {
	Tile  Tile     `json:"tile"`
	Cells [][2]int `json:"cells" jsonschema:"minItems=1"`
}

// Fill paints (or erases) every cell of a rect.
type Fill struct {
	Rect Rect  `json:"rect"`
	Tile *Tile `json:"tile,omitempty" description:"omit to erase the rect"`
}

// PatternPlace places a pattern with its top-left at a cell.
type PatternPlace struct {
	At    [2]int `json:"at"`
	Index *int   `json:"index,omitempty" jsonschema:"minimum=0" description:"TileSet pattern"`
	Copy  *Rect  `json:"copy,omitempty" description:"or copy this rect of the layer (empty cells erase)"`
}

// TerrainPaint paints a terrain as the editor's terrain tools do.
type TerrainPaint struct {
	Mode                string   `json:"mode,omitempty" jsonschema:"enum=connect|path,default=connect" description:"the editor's Connect or Path tool; path: cells are a chain of neighbours"`
	TerrainSet          int      `json:"terrain_set" jsonschema:"minimum=0"`
	Terrain             int      `json:"terrain" jsonschema:"minimum=-1" description:"-1 paints empty terrain"`
	Cells               [][2]int `json:"cells" jsonschema:"minItems=1"`
	IgnoreEmptyTerrains *bool    `json:"ignore_empty_terrains,omitempty" description:"default true"`
}

// PaintIn is one paint call on one layer.
type PaintIn struct {
	Layer    string         `json:"layer" jsonschema:"minLength=1" description:"TileMapLayer node path"`
	Fill     []Fill         `json:"fill,omitempty"`
	Patterns []PatternPlace `json:"patterns,omitempty"`
	Set      []SetCells     `json:"set,omitempty"`
	Erase    [][2]int       `json:"erase,omitempty"`
	Terrain  []TerrainPaint `json:"terrain,omitempty"`
}

// PaintOut is what a paint call did.
type PaintOut struct {
	Layer     string   `json:"layer"`
	Written   int      `json:"written" description:"cell writes made (fills, pattern cells, set, erase, terrain cells)"`
	Changed   bool     `json:"changed" description:"the layer's cells differ from before"`
	UsedCells int      `json:"used_cells" description:"painted cells after the call"`
	UsedRect  UsedRect `json:"used_rect"`
	Honesty
}

// ---- TileSet authoring ----

// PhysicsLayerIn adds a physics layer.
type PhysicsLayerIn struct {
	CollisionLayer *uint32 `json:"collision_layer,omitempty" description:"default 1"`
	CollisionMask  *uint32 `json:"collision_mask,omitempty" description:"default 1"`
}

// NavigationLayerIn adds a navigation layer.
type NavigationLayerIn struct {
	Layers *uint32 `json:"layers,omitempty" description:"default 1"`
}

// CustomDataLayerIn adds a custom-data layer.
type CustomDataLayerIn struct {
	Name string `json:"name" jsonschema:"minLength=1"`
	Type string `json:"type" jsonschema:"minLength=1" description:"int, float, bool, String, Color, ..."`
}

// TerrainIn is one terrain.
type TerrainIn struct {
	Name  string `json:"name" jsonschema:"minLength=1"`
	Color string `json:"color,omitempty" description:"#rrggbb"`
}

// TerrainSetIn is one terrain set.
type TerrainSetIn struct {
	Mode     string      `json:"mode,omitempty" jsonschema:"enum=corners_and_sides|corners|sides,default=corners_and_sides"`
	Terrains []TerrainIn `json:"terrains" jsonschema:"minItems=1"`
}

// AtlasIn is an atlas source cut from a texture.
type AtlasIn struct {
	Texture     string  `json:"texture" jsonschema:"minLength=1" description:"res:// image"`
	ID          *int    `json:"id,omitempty" jsonschema:"minimum=0" description:"source id"`
	TileSize    *[2]int `json:"tile_size,omitempty" description:"pixels per tile, default the TileSet's"`
	Margins     [2]int  `json:"margins,omitzero"`
	Separation  [2]int  `json:"separation,omitzero"`
	CreateTiles string  `json:"create_tiles,omitempty" jsonschema:"enum=all|opaque|none,default=all" description:"tiles at every grid cell, at non-transparent ones, or none"`
}

// CollisionIn is one collision polygon of a tile.
type CollisionIn struct {
	PhysicsLayer int          `json:"physics_layer,omitempty" jsonschema:"minimum=0"`
	Points       [][2]float64 `json:"points,omitempty" description:"pixels from the tile centre; omit: the whole tile"`
	OneWay       bool         `json:"one_way,omitempty"`
}

// TileIn creates (or sets up) one tile.
type TileIn struct {
	AtlasIndex  int                        `json:"atlas_index,omitempty" jsonschema:"minimum=0" description:"into atlases"`
	Source      *int                       `json:"source,omitempty" jsonschema:"minimum=0" description:"or an existing atlas source id"`
	Atlas       [2]int                     `json:"atlas"`
	Size        *[2]int                    `json:"size,omitempty" description:"in atlas cells"`
	TerrainSet  *int                       `json:"terrain_set,omitempty" jsonschema:"minimum=0"`
	Terrain     *int                       `json:"terrain,omitempty" jsonschema:"minimum=-1"`
	Peering     map[string]int             `json:"peering,omitempty" description:"neighbour (right_side, top_left_corner, ...) -> terrain"`
	Collision   []CollisionIn              `json:"collision,omitempty"`
	CustomData  map[string]json.RawMessage `json:"custom_data,omitempty" description:"layer name -> value"`
	Probability *float64                   `json:"probability,omitempty" jsonschema:"minimum=0"`
}

// NewTileSet is the shape of a TileSet to create.
type NewTileSet struct {
	TileShape string `json:"tile_shape,omitempty" jsonschema:"enum=square|isometric|half_offset_square|hexagon,default=square"`
	TileSize  [2]int `json:"tile_size" description:"pixels, e.g. [16,16]"`
}

// BuildTileSetIn creates a TileSet or adds to an existing one.
type BuildTileSetIn struct {
	New              *NewTileSet         `json:"new,omitempty" description:"create one; omit to add to the TileSet of layer or path"`
	Path             string              `json:"path,omitempty" description:".tres to write (new) or edit"`
	Layer            string              `json:"layer,omitempty" description:"TileMapLayer to assign it to (new) or whose TileSet to edit"`
	Atlases          []AtlasIn           `json:"atlases,omitempty"`
	Tiles            []TileIn            `json:"tiles,omitempty"`
	TerrainSets      []TerrainSetIn      `json:"terrain_sets,omitempty"`
	PhysicsLayers    []PhysicsLayerIn    `json:"physics_layers,omitempty"`
	NavigationLayers []NavigationLayerIn `json:"navigation_layers,omitempty"`
	CustomDataLayers []CustomDataLayerIn `json:"custom_data_layers,omitempty"`
}

// CreatedSource is one source of a created TileSet.
type CreatedSource struct {
	ID       int    `json:"id"`
	Tiles    int    `json:"tiles"`
	GridSize [2]int `json:"grid_size"`
}

// BuildTileSetOut is the TileSet after the call.
type BuildTileSetOut struct {
	Path             string          `json:"path" description:"the .tres, empty when embedded"`
	Embedded         bool            `json:"embedded"`
	Layer            string          `json:"layer"`
	Sources          []CreatedSource `json:"sources"`
	Tiles            int             `json:"tiles"`
	TerrainSets      int             `json:"terrain_sets"`
	PhysicsLayers    int             `json:"physics_layers"`
	CustomDataLayers int             `json:"custom_data_layers"`
	Honesty
}

func (o *BuildTileSetOut) Normalize() { o.Sources = orEmpty(o.Sources) }

func orEmpty[T any](s []T) []T {
	if s == nil {
		return []T{}
	}
	return s
}

// ---- GridMap ----

// BuildLibraryIn builds a MeshLibrary from a scene of meshes.
type BuildLibraryIn struct {
	Scene           string `json:"scene" jsonschema:"minLength=1" description:"res:// scene of MeshInstance3D nodes"`
	Path            string `json:"path,omitempty" description:"new .tres; omit to embed in gridmap"`
	GridMap         string `json:"gridmap,omitempty" description:"GridMap to assign it to"`
	ApplyTransforms bool   `json:"apply_transforms,omitempty" description:"keep each mesh's transform"`
}

// LibraryItem is one item of a MeshLibrary.
type LibraryItem struct {
	ID         int    `json:"id"`
	Name       string `json:"name"`
	Shapes     int    `json:"shapes" description:"collision shapes"`
	Navigation bool   `json:"navigation" description:"has a navigation mesh"`
}

// BuildLibraryOut is the MeshLibrary built.
type BuildLibraryOut struct {
	Path     string        `json:"path" description:"empty when embedded"`
	Embedded bool          `json:"embedded"`
	GridMap  string        `json:"gridmap" description:"the GridMap it was assigned to, empty when none"`
	Items    []LibraryItem `json:"items"`
	Honesty
}

func (o *BuildLibraryOut) Normalize() { o.Items = orEmpty(o.Items) }

// Box is a box of GridMap cells.
type Box struct {
	X int `json:"x"`
	Y int `json:"y"`
	Z int `json:"z"`
	W int `json:"w" jsonschema:"minimum=1"`
	H int `json:"h" jsonschema:"minimum=1"`
	D int `json:"d" jsonschema:"minimum=1"`
}

// GridCellsIn selects cells of a GridMap.
type GridCellsIn struct {
	GridMap string `json:"gridmap" jsonschema:"minLength=1" description:"GridMap node path"`
	Box     *Box   `json:"box,omitempty" description:"only cells inside"`
	Limit   int    `json:"limit,omitempty" jsonschema:"default=1000,minimum=1,maximum=10000"`
	Cursor  string `json:"cursor,omitempty" description:"next_cursor of the previous answer"`
}

// GridCell is one used GridMap cell.
type GridCell struct {
	X           int    `json:"x"`
	Y           int    `json:"y"`
	Z           int    `json:"z"`
	Item        int    `json:"item"`
	Name        string `json:"name" description:"the item's name in the MeshLibrary"`
	Orientation int    `json:"orientation" description:"orthogonal index 0..23"`
}

// GridCellsOut is a page of used cells (by y, then z, then x).
type GridCellsOut struct {
	GridMap    string     `json:"gridmap"`
	Total      int        `json:"total"`
	Returned   int        `json:"returned"`
	Cells      []GridCell `json:"cells"`
	Truncated  bool       `json:"truncated"`
	NextCursor string     `json:"next_cursor,omitempty"`
}

// GridSet places one item on many cells.
type GridSet struct {
	Item        *int     `json:"item,omitempty" jsonschema:"minimum=0"`
	Name        string   `json:"name,omitempty" description:"or item name"`
	Orientation int      `json:"orientation,omitempty" jsonschema:"minimum=0,maximum=23"`
	Cells       [][3]int `json:"cells" jsonschema:"minItems=1"`
}

// GridSetCellsIn sets and erases GridMap cells.
type GridSetCellsIn struct {
	GridMap string    `json:"gridmap" jsonschema:"minLength=1"`
	Set     []GridSet `json:"set,omitempty"`
	Erase   [][3]int  `json:"erase,omitempty"`
}

// GridSetCellsOut is what a set_cells call did.
type GridSetCellsOut struct {
	GridMap   string `json:"gridmap"`
	Written   int    `json:"written"`
	Changed   bool   `json:"changed"`
	UsedCells int    `json:"used_cells"`
	Honesty
}
