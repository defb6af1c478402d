package material

// Honesty is what every material edit answers besides its own fields.
type Honesty struct {
	Persisted bool   `json:"persisted" description:"true when saved: files written now, node edits saved by the next scene save"`
	Reason    string `json:"reason,omitempty" description:"why persisted is false"`
	Undoable  bool   `json:"undoable" description:"true when one godot_undo reverts exactly this call"`
	DryRun    bool   `json:"dry_run" description:"a preview: nothing was changed"`
}

// Mat is a material with its key parameters.
type Mat struct {
	Class  string         `json:"class" description:"StandardMaterial3D, ORMMaterial3D, CanvasItemMaterial, ShaderMaterial, ..."`
	Path   *string        `json:"path" description:"its res:// file; null when embedded in the scene"`
	Params map[string]any `json:"params" description:"key parameters (textures as res:// paths); a ShaderMaterial's shader and uniforms"`
}

// Target names a node's material slot.
type Target struct {
	Node    string `json:"node,omitempty" description:"node path relative to the scene root"`
	Slot    string `json:"slot,omitempty" jsonschema:"enum=surface|mesh|override|overlay|canvas" description:"surface: MeshInstance3D surface override (default for meshes); mesh: the embedded mesh's own surface material; override/overlay: GeometryInstance3D material_override/overlay (default for CSG etc.); canvas: CanvasItem.material"`
	Surface int    `json:"surface,omitempty" jsonschema:"minimum=0" description:"surface index for slot surface or mesh, default 0"`
}

// ---- create ----

// CreateIn describes the material to make.
type CreateIn struct {
	Type             string            `json:"type,omitempty" jsonschema:"enum=standard|orm|canvas_item,default=standard" description:"standard: StandardMaterial3D; orm: ORMMaterial3D (needs a packed _orm/_arm map); canvas_item: CanvasItemMaterial"`
	Textures         string            `json:"textures,omitempty" description:"res:// folder holding the PBR maps, found by name ending (godot://docs/material lists them)"`
	Set              string            `json:"set,omitempty" description:"the name before the map ending (wood of wood_albedo.png) when the folder holds several sets"`
	Maps             map[string]string `json:"maps,omitempty" description:"maps by role, added to or replacing those found: albedo normal roughness metallic ao emission height orm"`
	NormalConvention string            `json:"normal_convention,omitempty" jsonschema:"enum=opengl|directx,default=opengl" description:"directx flips the normal map's green channel on import (also when its name ends in dx)"`
	Compress         string            `json:"compress,omitempty" jsonschema:"enum=vram|lossless,default=vram" description:"the maps' import compression"`
	Params           map[string]any    `json:"params,omitempty" description:"parameters by name, e.g. {\"albedo_color\": \"#ff8000\", \"roughness\": 0.4, \"shading_mode\": \"Unshaded\"}"`
	SavePath         string            `json:"save_path,omitempty" description:"res:// .tres (or .res) to save it as; without it the material is embedded in the node's scene"`
	Overwrite        bool              `json:"overwrite,omitempty" description:"replace an existing save_path (needs confirm)"`
	Target
}

// TextureUse is one map the material uses.
type TextureUse struct {
	Role          string                  `json:"role" jsonschema:"enum=albedo|normal|roughness|metallic|ao|emission|height|orm"`
	Path          string                  `json:"path"`
	ImportChanges map[string]ImportChange `json:"import_changes" description:"ResourceImporterTexture options changed, by name"`
	Reimported    bool                    `json:"reimported"`
}

// ImportChange is one import option's old and new value (old null: unset).
type ImportChange struct {
	Old any `json:"old"`
	New any `json:"new"`
}

// Assigned says which slot got the material.
type Assigned struct {
	Node     string `json:"node"`
	Slot     string `json:"slot"`
	Surface  int    `json:"surface"`
	Previous *Mat   `json:"previous" description:"what the slot held before; null when empty"`
}

// CreateOut is the result.
type CreateOut struct {
	Material  *Mat         `json:"material"`
	Textures  []TextureUse `json:"textures"`
	Unmatched []string     `json:"unmatched" description:"images in the folder that matched no map name"`
	Saved     string       `json:"saved,omitempty" description:"the .tres written"`
	Assigned  *Assigned    `json:"assigned,omitempty"`
	Honesty
}

func (o *CreateOut) Normalize() {
	o.Textures, o.Unmatched = orEmpty(o.Textures), orEmpty(o.Unmatched)
	o.Material = nilIfEmpty(o.Material)
	if o.Assigned != nil {
		o.Assigned.Previous = nilIfEmpty(o.Assigned.Previous)
	}
	for i := range o.Textures {
		if o.Textures[i].ImportChanges == nil {
			o.Textures[i].ImportChanges = map[string]ImportChange{}
		}
	}
}

// ---- set_params ----

// SetParamsIn names the material and the values.
type SetParamsIn struct {
	Path  string         `json:"path,omitempty" description:"a material file (.tres); or give node (and slot, surface)"`
	Set   map[string]any `json:"set,omitempty" description:"parameter name -> value, e.g. {\"albedo_color\": {\"r\": 1, \"g\": 0, \"b\": 0}, \"metallic\": 1, \"normal_texture\": \"res://t/x_n.png\"}"`
	Reset []string       `json:"reset,omitempty" description:"parameters back to their defaults"`
	Target
}

// Change is one parameter's old and new value.
type Change struct {
	Name string `json:"name"`
	Old  any    `json:"old"`
	New  any    `json:"new"`
}

// SetParamsOut is the result.
type SetParamsOut struct {
	Target   string   `json:"target" description:"the file, or node:slot[surface]"`
	File     string   `json:"file,omitempty" description:"the material file saved (also when set through a node)"`
	Material *Mat     `json:"material" description:"after"`
	Changed  []Change `json:"changed"`
	Honesty
}

func (o *SetParamsOut) Normalize() {
	o.Changed = orEmpty(o.Changed)
	o.Material = nilIfEmpty(o.Material)
}

// ---- assign ----

// AssignIn puts a material in a slot.
type AssignIn struct {
	Node     string `json:"node" jsonschema:"minLength=1" description:"node path relative to the scene root"`
	Slot     string `json:"slot,omitempty" jsonschema:"enum=surface|mesh|override|overlay|canvas" description:"default: surface for a MeshInstance3D, override for other GeometryInstance3D, canvas for a CanvasItem"`
	Surface  int    `json:"surface,omitempty" jsonschema:"minimum=0"`
	Material string `json:"material" description:"res:// material file; empty clears the slot"`
}

// AssignOut is the result.
type AssignOut struct {
	Node     string `json:"node"`
	Slot     string `json:"slot"`
	Surface  int    `json:"surface"`
	Previous *Mat   `json:"previous"`
	Material *Mat   `json:"material" description:"null when cleared"`
	Honesty
}

func (o *AssignOut) Normalize() {
	o.Previous, o.Material = nilIfEmpty(o.Previous), nilIfEmpty(o.Material)
}

// ---- get ----

// GetIn names a node or a material file.
type GetIn struct {
	Node string `json:"node,omitempty" description:"node path relative to the scene root"`
	Path string `json:"path,omitempty" description:"or a material file"`
}

// Surface is one surface's effective material.
type Surface struct {
	Surface         int    `json:"surface"`
	Source          string `json:"source" description:"where the effective material comes from: override, surface_override, mesh, material (CSG), canvas, parent:<path>, none"`
	Material        *Mat   `json:"material" description:"the effective material; null when none"`
	SurfaceOverride *Mat   `json:"surface_override"`
	MeshMaterial    *Mat   `json:"mesh_material"`
}

// GetOut is the result.
type GetOut struct {
	Node              string    `json:"node,omitempty"`
	Path              string    `json:"path,omitempty"`
	Class             string    `json:"class" description:"the node's class, or the material's"`
	Mesh              string    `json:"mesh,omitempty"`
	Surfaces          []Surface `json:"surfaces"`
	Override          *Mat      `json:"override,omitempty"`
	Overlay           *Mat      `json:"overlay,omitempty"`
	Canvas            *Mat      `json:"canvas,omitempty"`
	UseParentMaterial bool      `json:"use_parent_material,omitempty"`
	Material          *Mat      `json:"material,omitempty" description:"the file's material (with path)"`
}

func (o *GetOut) Normalize() {
	o.Surfaces = orEmpty(o.Surfaces)
	o.Override, o.Overlay, o.Canvas, o.Material = nilIfEmpty(o.Override), nilIfEmpty(o.Overlay), nilIfEmpty(o.Canvas), nilIfEmpty(o.Material)
	for i := range o.Surfaces {
		s := &o.Surfaces[i]
		s.Material, s.SurfaceOverride, s.MeshMaterial = nilIfEmpty(s.Material), nilIfEmpty(s.SurfaceOverride), nilIfEmpty(s.MeshMaterial)
	}
}

func nilIfEmpty(m *Mat) *Mat {
	if m == nil || m.Class == "" {
		return nil
	}
	if m.Params == nil {
		m.Params = map[string]any{}
	}
	return m
}

func orEmpty[T any](s []T) []T {
	if s == nil {
		return []T{}
	}
	return s
}
