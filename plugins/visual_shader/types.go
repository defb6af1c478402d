package visualshader

// Node is one node of a graph spec.
type Node struct {
	ID       *int           `json:"id,omitempty" description:"node id, >= 2 and unique in its function (0 is the Output node); default: the next free id"`
	Type     string         `json:"type" description:"VisualShaderNode class, short (ColorConstant, Texture, VectorOp, Input) or full; aliases: Texture2D, Color, Float, Vec3..."`
	Position *[2]float64    `json:"position,omitempty" description:"[x, y] in the graph"`
	Props    map[string]any `json:"props,omitempty" description:"node properties (codec JSON; enums by name): {\"constant\": \"#ff0000\"}, {\"input_name\": \"uv\"}, {\"operator\": \"Multiply\"}"`
	Defaults map[string]any `json:"defaults,omitempty" description:"values of unconnected input ports, by port name or index: {\"b\": {\"x\":1,\"y\":1,\"z\":1}}"`
}

// Conn is one connection, port to port.
type Conn struct {
	From     int `json:"from" description:"source node id"`
	FromPort any `json:"from_port" description:"output port name or index"`
	To       int `json:"to" description:"target node id; 0 is the Output node"`
	ToPort   any `json:"to_port" description:"input port name or index; the Output node's by name: albedo, roughness, alpha, emission, color..."`
}

// Graph is one shader function's nodes and connections.
type Graph struct {
	Nodes       []Node `json:"nodes"`
	Connections []Conn `json:"connections"`
}

// Spec is a whole VisualShader.
type Spec struct {
	Mode      string           `json:"mode" jsonschema:"enum=spatial|canvas_item|particles|sky|fog"`
	Flags     []string         `json:"flags,omitempty" description:"render mode flags on, e.g. [\"unshaded\"]"`
	Modes     map[string]any   `json:"modes,omitempty" description:"render mode choices by name, e.g. {\"cull\": \"Disabled\"}"`
	Functions map[string]Graph `json:"functions" description:"per function: vertex, fragment, light (spatial, canvas_item); start, process, collide, start_custom, process_custom (particles); sky; fog"`
}

// CompileError is one error of the generated shader code.
type CompileError struct {
	Line    int    `json:"line" description:"line in the generated code; 0 when Godot gave none"`
	Message string `json:"message"`
	Code    string `json:"code,omitempty" description:"that line of the generated code"`
}

// Compile is Godot's verdict on the generated shader code.
type Compile struct {
	Checked bool           `json:"checked" description:"a headless Godot compiled it; false: see note"`
	Valid   bool           `json:"valid"`
	Errors  []CompileError `json:"errors"`
	Note    string         `json:"note,omitempty"`
}

// CreateIn is a new VisualShader.
type CreateIn struct {
	Path      string `json:"path" jsonschema:"minLength=1" description:"res:// .tres to write"`
	Spec      Spec   `json:"spec"`
	Overwrite bool   `json:"overwrite,omitempty" description:"replace an existing file (needs confirm)"`
}

// GraphOut is a graph as written or read.
type GraphOut struct {
	Path        string `json:"path"`
	Spec        Spec   `json:"spec" description:"the graph read back, in the spec form create takes (non-default values only)"`
	Nodes       int    `json:"nodes" description:"nodes in all functions, Output nodes not counted"`
	Connections int    `json:"connections"`
}

// CreateOut is what create did.
type CreateOut struct {
	GraphOut
	Created     bool    `json:"created"`
	Overwritten bool    `json:"overwritten"`
	Undoable    bool    `json:"undoable"`
	DryRun      bool    `json:"dry_run"`
	Compile     Compile `json:"compile"`
}

// GetIn names a VisualShader file.
type GetIn struct {
	Path string `json:"path" jsonschema:"minLength=1" description:"res:// VisualShader .tres"`
}

// Op is one edit.
type Op struct {
	Op       string         `json:"op" jsonschema:"enum=add_node|remove_node|connect|disconnect|set"`
	Function string         `json:"function,omitempty" description:"default: fragment (spatial, canvas_item), process (particles), sky, fog"`
	ID       *int           `json:"id,omitempty" description:"add_node: the new id (optional); remove_node, set: the node"`
	Type     string         `json:"type,omitempty" description:"add_node: node type"`
	Position *[2]float64    `json:"position,omitempty" description:"add_node, set"`
	Props    map[string]any `json:"props,omitempty" description:"add_node, set"`
	Defaults map[string]any `json:"defaults,omitempty" description:"add_node, set: input port values"`
	From     *int           `json:"from,omitempty" description:"connect, disconnect"`
	FromPort any            `json:"from_port,omitempty"`
	To       *int           `json:"to,omitempty"`
	ToPort   any            `json:"to_port,omitempty"`
}

// EditIn edits a graph.
type EditIn struct {
	Path string `json:"path" jsonschema:"minLength=1" description:"res:// VisualShader .tres"`
	Ops  []Op   `json:"ops" jsonschema:"minItems=1" description:"applied in order, all or nothing"`
}

// EditOut is what edit did.
type EditOut struct {
	GraphOut
	Applied  []string `json:"applied"`
	Undoable bool     `json:"undoable"`
	DryRun   bool     `json:"dry_run"`
	Compile  Compile  `json:"compile"`
}

// CatalogIn selects the catalog.
type CatalogIn struct {
	Mode     string `json:"mode,omitempty" jsonschema:"enum=spatial|canvas_item|particles|sky|fog,default=spatial"`
	Function string `json:"function,omitempty" description:"default: fragment, process (particles), sky, fog"`
	Type     string `json:"type,omitempty" description:"one node type: its ports and properties (with enum options and defaults)"`
	Filter   string `json:"filter,omitempty" description:"only node types containing this text"`
}

// Port is [name, type]; name "" when Godot names none.
type Port = [2]string

// CatalogNode is one node type with its ports.
type CatalogNode struct {
	Type string `json:"type"`
	In   []Port `json:"in" description:"input ports [name, type] by index"`
	Out  []Port `json:"out"`
}

// CatalogProp is a node property.
type CatalogProp struct {
	Name         string   `json:"name"`
	Type         string   `json:"type"`
	Default      any      `json:"default"`
	Options      []string `json:"options,omitempty"`
	ResourceType string   `json:"resource_type,omitempty"`
}

// CatalogDetail is one node type in detail.
type CatalogDetail struct {
	CatalogNode
	Class    string        `json:"class"`
	FitsMode bool          `json:"fits_mode"`
	Props    []CatalogProp `json:"props"`
}

// CatalogOut is the catalog.
type CatalogOut struct {
	Mode     string         `json:"mode"`
	Function string         `json:"function"`
	Output   []Port         `json:"output,omitempty" description:"the Output node's (id 0) input ports"`
	Inputs   []Port         `json:"inputs,omitempty" description:"input_name values of the Input node, with their type"`
	Nodes    []CatalogNode  `json:"nodes,omitempty"`
	Node     *CatalogDetail `json:"node,omitempty"`
}

// ValidateIn names the file to check.
type ValidateIn struct {
	Path        string `json:"path" jsonschema:"minLength=1" description:"res:// VisualShader .tres on disk"`
	IncludeCode bool   `json:"include_code,omitempty" description:"also answer the generated shader code"`
}

// ValidateOut is the check.
type ValidateOut struct {
	Compile
	Path string `json:"path"`
	Mode string `json:"mode"`
	Code string `json:"code,omitempty"`
}

// Global is one global shader uniform.
type Global struct {
	Name  string `json:"name"`
	Type  string `json:"type"`
	Value any    `json:"value"`
}

// GlobalsListIn takes nothing.
type GlobalsListIn struct{}

// GlobalsOut lists the globals.
type GlobalsOut struct {
	Globals []Global `json:"globals"`
}

// GlobalChange is one change.
type GlobalChange struct {
	Action string `json:"action" jsonschema:"enum=add|set|remove"`
	Name   string `json:"name" jsonschema:"minLength=1"`
	Type   string `json:"type,omitempty" description:"add: bool, int, uint, float, vec2..vec4, ivec*, uvec*, bvec*, color, rect2, rect2i, mat2..mat4, transform_2d, transform, sampler2D, sampler2DArray, sampler3D, samplerCube"`
	Value  any    `json:"value,omitempty" description:"codec JSON for the type; samplers: a res:// texture path; add: default zero"`
}

// GlobalsSetIn changes globals.
type GlobalsSetIn struct {
	Changes []GlobalChange `json:"changes" jsonschema:"minItems=1"`
}

// GlobalChanged is one applied change.
type GlobalChanged struct {
	Action string `json:"action"`
	Name   string `json:"name"`
	Type   string `json:"type"`
	Old    any    `json:"old"`
	New    any    `json:"new"`
}

// GlobalsSetOut is what changed.
type GlobalsSetOut struct {
	Changes  []GlobalChanged `json:"changes"`
	Globals  []Global        `json:"globals"`
	Undoable bool            `json:"undoable"`
	DryRun   bool            `json:"dry_run"`
}

func orEmpty[T any](s []T) []T {
	if s == nil {
		return []T{}
	}
	return s
}
