package navigation

import "encoding/json"

// Honesty is what every navigation edit answers besides its own fields.
type Honesty struct {
	Persisted bool   `json:"persisted" description:"true when saved (the next scene save writes node edits; project.godot and editor settings at once)"`
	Reason    string `json:"reason,omitempty" description:"why persisted is false"`
	Undoable  bool   `json:"undoable" description:"true when one godot_undo reverts exactly this call"`
	DryRun    bool   `json:"dry_run" description:"a preview: nothing was changed"`
}

// Layer is one navigation layer: its number and project name.
type Layer struct {
	N    int    `json:"n" description:"layer number, 1..32"`
	Name string `json:"name,omitempty"`
}

// LayersEdit changes navigation_layers: set replaces, add and remove change
// bits. Each entry is a layer number (1..32) or a layer name.
type LayersEdit struct {
	Set    []json.RawMessage `json:"set,omitempty" description:"replace with these layers (numbers or names; [] clears)"`
	Add    []json.RawMessage `json:"add,omitempty"`
	Remove []json.RawMessage `json:"remove,omitempty"`
}

// NavNode is one region, agent or link as read back.
type NavNode struct {
	Path         string          `json:"path"`
	Class        string          `json:"class"`
	Kind         string          `json:"kind" jsonschema:"enum=region|agent|link"`
	Dimension    string          `json:"dimension" jsonschema:"enum=2d|3d"`
	Layers       []Layer         `json:"layers" description:"navigation_layers bits set"`
	LayerBits    uint32          `json:"layer_bits"`
	Enabled      *bool           `json:"enabled,omitempty" description:"regions"`
	Resource     string          `json:"resource,omitempty" description:"regions: NavigationMesh or NavigationPolygon; empty when none"`
	ResourcePath string          `json:"resource_path,omitempty" description:"regions: the resource's file when it is not embedded"`
	Polygons     int             `json:"polygons" description:"regions: baked polygons (0 when unbaked; 0 for agents and links)"`
	Vertices     int             `json:"vertices" description:"regions: baked vertices"`
	Settings     json.RawMessage `json:"settings,omitempty" description:"regions: baking settings; agents: radius, height, distances, max_speed, avoidance_enabled; links: start, end, bidirectional, costs"`
}

// ---- get ----

// GetIn takes nothing.
type GetIn struct{}

// GetOut is the scene's navigation set-up.
type GetOut struct {
	Scene           string    `json:"scene" description:"empty when no scene is open"`
	Names2D         []Layer   `json:"names_2d" description:"named 2D navigation layers"`
	Names3D         []Layer   `json:"names_3d" description:"named 3D navigation layers"`
	Regions         []NavNode `json:"regions"`
	Agents          []NavNode `json:"agents"`
	Links           []NavNode `json:"links"`
	DebugNavigation bool      `json:"debug_navigation" description:"games run from the editor draw navigation (--debug-navigation)"`
}

func (o *GetOut) Normalize() {
	o.Names2D, o.Names3D = orEmpty(o.Names2D), orEmpty(o.Names3D)
	o.Regions, o.Agents, o.Links = nodes(o.Regions), nodes(o.Agents), nodes(o.Links)
}

func nodes(s []NavNode) []NavNode {
	s = orEmpty(s)
	for i := range s {
		s[i].Layers = orEmpty(s[i].Layers)
	}
	return s
}

// ---- set_layers ----

// LayerName names (or with an empty name, unnames) one layer.
type LayerName struct {
	Dimension string `json:"dimension" jsonschema:"enum=2d|3d"`
	N         int    `json:"n" jsonschema:"minimum=1,maximum=32"`
	Name      string `json:"name" description:"empty clears the name"`
}

// NodeLayers edits some nodes' navigation_layers.
type NodeLayers struct {
	Nodes []string `json:"nodes" jsonschema:"minItems=1" description:"regions, agents or links"`
	LayersEdit
}

// SetLayersIn names layers then edits nodes.
type SetLayersIn struct {
	Names []LayerName  `json:"names,omitempty" description:"applied first, so edits may use the new names"`
	Edits []NodeLayers `json:"edits,omitempty"`
}

// SetLayersOut is the result.
type SetLayersOut struct {
	Names2D []Layer   `json:"names_2d"`
	Names3D []Layer   `json:"names_3d"`
	Renamed int       `json:"renamed" description:"layer names changed"`
	Nodes   []NavNode `json:"nodes" description:"the edited nodes, after"`
	Changed int       `json:"changed" description:"nodes whose layers changed"`
	Honesty
}

func (o *SetLayersOut) Normalize() {
	o.Names2D, o.Names3D, o.Nodes = orEmpty(o.Names2D), orEmpty(o.Names3D), nodes(o.Nodes)
}

// ---- region, agent, link ----

// Target is which node a configure tool edits or where it creates one.
type Target struct {
	Node      string `json:"node,omitempty" description:"an existing node to update"`
	Parent    string `json:"parent,omitempty" description:"or: create a new one under this node (\".\" is the root)"`
	Name      string `json:"name,omitempty" description:"the new node's name"`
	Dimension string `json:"dimension,omitempty" jsonschema:"enum=2d|3d" description:"for a new node under a parent that is neither 2D nor 3D"`
}

// RegionIn configures a NavigationRegion2D/3D and its NavigationPolygon/NavigationMesh.
type RegionIn struct {
	Target
	Geometry      string      `json:"geometry,omitempty" jsonschema:"enum=mesh_instances|static_colliders|both" description:"what the bake parses"`
	SourceMode    string      `json:"source_mode,omitempty" jsonschema:"enum=root_node|group_with_children|group_explicit" description:"root_node: the region's children; group_*: nodes in source_group"`
	SourceGroup   string      `json:"source_group,omitempty"`
	CollisionMask *uint32     `json:"collision_mask,omitempty" description:"static_colliders: physics layers parsed"`
	AgentRadius   *float64    `json:"agent_radius,omitempty" jsonschema:"minimum=0"`
	AgentHeight   *float64    `json:"agent_height,omitempty" jsonschema:"minimum=0" description:"3D"`
	AgentMaxClimb *float64    `json:"agent_max_climb,omitempty" jsonschema:"minimum=0" description:"3D"`
	AgentMaxSlope *float64    `json:"agent_max_slope,omitempty" jsonschema:"minimum=0,maximum=90" description:"3D, degrees"`
	CellSize      *float64    `json:"cell_size,omitempty" jsonschema:"minimum=0"`
	CellHeight    *float64    `json:"cell_height,omitempty" jsonschema:"minimum=0" description:"3D"`
	BorderSize    *float64    `json:"border_size,omitempty" jsonschema:"minimum=0"`
	Enabled       *bool       `json:"enabled,omitempty"`
	Outline       [][]float64 `json:"outline,omitempty" description:"2D: the walkable area [[x,y],...]; obstacles cut holes in it"`
	Layers        *LayersEdit `json:"layers,omitempty" description:"navigation_layers by name or number"`
}

// AgentIn configures a NavigationAgent2D/3D.
type AgentIn struct {
	Target
	Radius                *float64    `json:"radius,omitempty" jsonschema:"minimum=0"`
	Height                *float64    `json:"height,omitempty" jsonschema:"minimum=0" description:"3D"`
	PathDesiredDistance   *float64    `json:"path_desired_distance,omitempty" jsonschema:"minimum=0"`
	TargetDesiredDistance *float64    `json:"target_desired_distance,omitempty" jsonschema:"minimum=0"`
	MaxSpeed              *float64    `json:"max_speed,omitempty" jsonschema:"minimum=0"`
	Avoidance             *bool       `json:"avoidance,omitempty" description:"avoidance_enabled"`
	Layers                *LayersEdit `json:"layers,omitempty" description:"navigation_layers by name or number"`
}

// LinkIn configures a NavigationLink2D/3D.
type LinkIn struct {
	Target
	Start         []float64   `json:"start,omitempty" description:"start_position, local: [x,y] or [x,y,z]"`
	End           []float64   `json:"end,omitempty" description:"end_position, local"`
	Bidirectional *bool       `json:"bidirectional,omitempty"`
	EnterCost     *float64    `json:"enter_cost,omitempty" jsonschema:"minimum=0"`
	TravelCost    *float64    `json:"travel_cost,omitempty" jsonschema:"minimum=0"`
	Enabled       *bool       `json:"enabled,omitempty"`
	Layers        *LayersEdit `json:"layers,omitempty" description:"navigation_layers by name or number"`
}

// Change is one property a configure call changed (or would).
type Change struct {
	Property string `json:"property" description:"(node) for a created node; resource properties as navigation_mesh:cell_size"`
	Old      any    `json:"old"`
	New      any    `json:"new"`
}

// ConfigureOut is what region, agent and link answer.
type ConfigureOut struct {
	Node     NavNode  `json:"node" description:"the node after the call"`
	Created  bool     `json:"created"`
	Changes  []Change `json:"changes"`
	Warnings []string `json:"warnings,omitempty"`
	Honesty
}

func (o *ConfigureOut) Normalize() {
	o.Changes = orEmpty(o.Changes)
	o.Node.Layers = orEmpty(o.Node.Layers)
}

// ---- bake ----

// BakeIn names the region to bake.
type BakeIn struct {
	Region string `json:"region" jsonschema:"minLength=1" description:"a NavigationRegion2D/3D"`
}

// Counts are a navigation resource's baked polygons and vertices.
type Counts struct {
	Polygons int `json:"polygons"`
	Vertices int `json:"vertices"`
}

// BakeOut is the result of a bake.
type BakeOut struct {
	Region    string         `json:"region"`
	Dimension string         `json:"dimension"`
	Polygons  int            `json:"polygons" description:"baked polygons (never 0: an empty bake is refused with the reason)"`
	Vertices  int            `json:"vertices"`
	Before    Counts         `json:"before"`
	Source    map[string]any `json:"source" description:"3D: triangles parsed; 2D: outlines, traversable and obstruction outlines"`
	Settings  map[string]any `json:"settings"`
	Warnings  []string       `json:"warnings,omitempty"`
	Honesty
}

// ---- path, game_path ----

// PathIn asks for a path between two points.
type PathIn struct {
	From     []float64         `json:"from" jsonschema:"minItems=2,maxItems=3" description:"global [x,y] (2D) or [x,y,z] (3D)"`
	To       []float64         `json:"to" jsonschema:"minItems=2,maxItems=3"`
	Layers   []json.RawMessage `json:"layers,omitempty" description:"navigation layers (names or numbers) the path may use; default all"`
	Optimize *bool             `json:"optimize,omitempty" description:"string-pull the path (default true)"`
}

// EditorPathIn adds the regions to an editor query.
type EditorPathIn struct {
	PathIn
	Regions []string `json:"regions,omitempty" description:"regions to use; default every enabled baked region of that dimension"`
}

// PathOut is a path and its length.
type PathOut struct {
	Dimension string      `json:"dimension"`
	Points    [][]float64 `json:"points" description:"the path, global; empty when no path"`
	Length    float64     `json:"length" description:"sum of the segments"`
	Straight  float64     `json:"straight" description:"straight-line distance from to to"`
	Reached   bool        `json:"reached" description:"the path ends at to (else at the nearest reachable point)"`
	EndGap    float64     `json:"end_gap" description:"distance from the last point to to; -1 without a path"`
	Layers    uint32      `json:"layers" description:"layer bits used"`
}

// EditorPathOut is the editor query's answer.
type EditorPathOut struct {
	PathOut
	FromOnMesh []float64 `json:"from_on_mesh" description:"closest navmesh point to from"`
	ToOnMesh   []float64 `json:"to_on_mesh"`
	Regions    []string  `json:"regions" description:"the baked regions used"`
	Links      int       `json:"links" description:"navigation links used"`
}

// GamePathOut is the running game's answer.
type GamePathOut struct {
	PathOut
	Regions         int  `json:"regions" description:"regions on the game's map"`
	DebugNavigation bool `json:"debug_navigation" description:"the game draws navigation (--debug-navigation)"`
}

func (o *PathOut) Normalize() { o.Points = orEmpty(o.Points) }

// ---- debug ----

// DebugIn switches the drawing.
type DebugIn struct {
	Enabled bool `json:"enabled" description:"draw navigation meshes, links and agent paths in games run from the editor"`
}

// DebugOut is the result.
type DebugOut struct {
	Enabled bool   `json:"enabled"`
	Was     bool   `json:"was"`
	Changed bool   `json:"changed"`
	Note    string `json:"note"`
	Honesty
}

func orEmpty[T any](s []T) []T {
	if s == nil {
		return []T{}
	}
	return s
}
