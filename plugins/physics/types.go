package physics

import "encoding/json"

// Honesty is what every physics edit answers besides its own fields.
type Honesty struct {
	Persisted bool   `json:"persisted" description:"true when saved: project.godot written, node edits saved by the next scene save"`
	Reason    string `json:"reason,omitempty" description:"why persisted is false"`
	Undoable  bool   `json:"undoable" description:"true when one godot_undo reverts exactly this call"`
	DryRun    bool   `json:"dry_run" description:"a preview: nothing was changed"`
}

// Layer is one physics layer: its number and project name.
type Layer struct {
	N    int    `json:"n" description:"layer number, 1..32"`
	Name string `json:"name,omitempty" description:"its name in the project settings; absent when unnamed"`
}

// ---- get_layers ----

// GetLayersIn selects the nodes to report.
type GetLayersIn struct {
	Nodes  []string `json:"nodes,omitempty" description:"node paths; default every collision object of the edited scene"`
	Limit  int      `json:"limit,omitempty" jsonschema:"default=200,minimum=1,maximum=2000"`
	Cursor string   `json:"cursor,omitempty" description:"next_cursor of the previous answer"`
}

// NodeLayers is one node's collision layer and mask.
type NodeLayers struct {
	Path      string  `json:"path"`
	Class     string  `json:"class"`
	Dimension string  `json:"dimension" jsonschema:"enum=2d|3d"`
	Layer     []Layer `json:"layer" description:"collision_layer bits set (what it is); empty for a mask-only node"`
	Mask      []Layer `json:"mask" description:"collision_mask bits set (what it detects)"`
	LayerBits uint32  `json:"layer_bits"`
	MaskBits  uint32  `json:"mask_bits"`
	HasLayer  bool    `json:"has_layer" description:"false for mask-only nodes (RayCast, ShapeCast)"`
}

// GetLayersOut lists the named layers and a page of nodes.
type GetLayersOut struct {
	Scene      string       `json:"scene" description:"empty when no scene is open (nodes then empty)"`
	Names2D    []Layer      `json:"names_2d" description:"named 2D physics layers"`
	Names3D    []Layer      `json:"names_3d" description:"named 3D physics layers"`
	Nodes      []NodeLayers `json:"nodes"`
	Total      int          `json:"total"`
	Returned   int          `json:"returned"`
	Truncated  bool         `json:"truncated"`
	NextCursor string       `json:"next_cursor,omitempty"`
}

func (o *GetLayersOut) Normalize() {
	o.Names2D, o.Names3D, o.Nodes = orEmpty(o.Names2D), orEmpty(o.Names3D), orEmpty(o.Nodes)
	for i := range o.Nodes {
		o.Nodes[i].Layer, o.Nodes[i].Mask = orEmpty(o.Nodes[i].Layer), orEmpty(o.Nodes[i].Mask)
	}
}

// ---- set_layers ----

// LayerName names (or with an empty name, unnames) one layer.
type LayerName struct {
	Dimension string `json:"dimension" jsonschema:"enum=2d|3d"`
	N         int    `json:"n" jsonschema:"minimum=1,maximum=32"`
	Name      string `json:"name" description:"empty clears the name"`
}

// BitsEdit changes a layer or mask: set replaces it, add and remove then
// change bits. Each entry is a layer number (1..32) or a layer name.
type BitsEdit struct {
	Set    []json.RawMessage `json:"set,omitempty" description:"replace with these layers (numbers or names; [] clears)"`
	Add    []json.RawMessage `json:"add,omitempty"`
	Remove []json.RawMessage `json:"remove,omitempty"`
}

// NodeEdit sets the layer and/or mask of some nodes.
type NodeEdit struct {
	Nodes []string  `json:"nodes" jsonschema:"minItems=1" description:"node paths (CollisionObject2D/3D, GridMap; mask only: RayCast, ShapeCast)"`
	Layer *BitsEdit `json:"layer,omitempty" description:"collision_layer: what the nodes are"`
	Mask  *BitsEdit `json:"mask,omitempty" description:"collision_mask: what they detect"`
}

// SetLayersIn names layers then edits nodes.
type SetLayersIn struct {
	Names []LayerName `json:"names,omitempty" description:"applied first, so edits may use the new names"`
	Edits []NodeEdit  `json:"edits,omitempty"`
}

// SetLayersOut is the result.
type SetLayersOut struct {
	Names2D []Layer      `json:"names_2d"`
	Names3D []Layer      `json:"names_3d"`
	Renamed int          `json:"renamed" description:"layer names changed"`
	Nodes   []NodeLayers `json:"nodes" description:"the edited nodes, after"`
	Changed int          `json:"changed" description:"nodes whose layer or mask changed"`
	Honesty
}

func (o *SetLayersOut) Normalize() {
	o.Names2D, o.Names3D, o.Nodes = orEmpty(o.Names2D), orEmpty(o.Names3D), orEmpty(o.Nodes)
	for i := range o.Nodes {
		o.Nodes[i].Layer, o.Nodes[i].Mask = orEmpty(o.Nodes[i].Layer), orEmpty(o.Nodes[i].Mask)
	}
}

// ---- add_shape ----

// AddShapeIn describes the shape to add.
type AddShapeIn struct {
	Body  string `json:"body" jsonschema:"minLength=1" description:"the CollisionObject2D/3D (body or area) to give a shape"`
	Shape string `json:"shape" jsonschema:"enum=rectangle|circle|capsule|segment|box|sphere|cylinder|convex|trimesh|polygon|auto" description:"2D: rectangle circle capsule segment polygon; 3D: box sphere capsule cylinder convex trimesh; auto (with from): trimesh on a StaticBody3D, else convex; polygon in 2D"`
	From  string `json:"from,omitempty" description:"fit to this node: a MeshInstance3D (3D) or Sprite2D (2D); required for convex, trimesh, polygon, auto"`
	// Sizes of a primitive (defaults: Godot's, or fitted to from).
	Size     []float64 `json:"size,omitempty" description:"rectangle [w,h], box [x,y,z]"`
	Radius   float64   `json:"radius,omitempty" jsonschema:"minimum=0"`
	Height   float64   `json:"height,omitempty" jsonschema:"minimum=0" description:"capsule, cylinder: full height"`
	A        []float64 `json:"a,omitempty" description:"segment start [x,y]"`
	B        []float64 `json:"b,omitempty" description:"segment end [x,y]"`
	Position []float64 `json:"position,omitempty" description:"the shape node's position in the body; default fitted to from, else 0"`
	Name     string    `json:"name,omitempty" description:"the new node's name (default CollisionShape2D/3D, CollisionPolygon2D)"`
	Epsilon  float64   `json:"epsilon,omitempty" jsonschema:"minimum=0" description:"polygon: simplification in pixels, default 2"`
}

// ShapeNode is one node add_shape created.
type ShapeNode struct {
	Path     string          `json:"path"`
	Class    string          `json:"class" description:"CollisionShape2D/3D or CollisionPolygon2D"`
	Shape    string          `json:"shape" description:"the Shape resource class, or CollisionPolygon2D"`
	Params   json.RawMessage `json:"params" description:"the shape's parameters: size, radius, height, a, b, points (count), faces"`
	Position []float64       `json:"position"`
}

// AddShapeOut is the result.
type AddShapeOut struct {
	Body     string      `json:"body"`
	Created  []ShapeNode `json:"created" description:"one node; polygon: one per opaque island"`
	Warnings []string    `json:"warnings,omitempty"`
	Honesty
}

func (o *AddShapeOut) Normalize() { o.Created = orEmpty(o.Created) }

// ---- check ----

// CheckIn pages the problems.
type CheckIn struct {
	Limit  int    `json:"limit,omitempty" jsonschema:"default=200,minimum=1,maximum=2000"`
	Cursor string `json:"cursor,omitempty" description:"next_cursor of the previous answer"`
}

// Problem is one finding of check.
type Problem struct {
	Code     string `json:"code" jsonschema:"enum=no_shape|empty_shape|disabled_shape|orphan_shape|non_uniform_scale|concave_on_moving|mask_zero|layer_zero|not_monitoring|unnamed_layer"`
	Severity string `json:"severity" jsonschema:"enum=error|warning|info"`
	Path     string `json:"path"`
	Message  string `json:"message"`
	Fix      string `json:"fix"`
}

// CheckOut is a page of problems.
type CheckOut struct {
	Scene      string    `json:"scene"`
	Bodies     int       `json:"bodies" description:"collision objects checked"`
	Shapes     int       `json:"shapes" description:"shape nodes checked"`
	Total      int       `json:"total" description:"problems found"`
	Returned   int       `json:"returned"`
	Problems   []Problem `json:"problems"`
	Truncated  bool      `json:"truncated"`
	NextCursor string    `json:"next_cursor,omitempty"`
}

func (o *CheckOut) Normalize() { o.Problems = orEmpty(o.Problems) }

func orEmpty[T any](s []T) []T {
	if s == nil {
		return []T{}
	}
	return s
}
