package shader

import "encoding/json"

// ShaderError is one compile error.
type ShaderError struct {
	Line    int    `json:"line" description:"1-based line; 0 when Godot gave none"`
	Message string `json:"message"`
	File    string `json:"file,omitempty" description:"the .gdshaderinc the error is in; absent: the shader itself"`
}

// Uniform is one uniform of a shader.
type Uniform struct {
	Name       string `json:"name"`
	Type       string `json:"type" description:"shader type as declared (float, vec4, sampler2D...); the Variant type when not found in the code"`
	Hint       string `json:"hint" description:"none, range, color_no_alpha, resource_type, enum..."`
	HintString string `json:"hint_string"`
	Default    string `json:"default,omitempty" description:"the initializer as written in the code"`
	Group      string `json:"group,omitempty"`
}

// Report is what validate and write answer about a shader.
type Report struct {
	Valid       bool          `json:"valid"`
	ShaderType  string        `json:"shader_type" description:"canvas_item, spatial, particles, sky, fog; empty when missing"`
	RenderModes []string      `json:"render_modes,omitempty"`
	Errors      []ShaderError `json:"errors"`
	Uniforms    []Uniform     `json:"uniforms"`
	CheckedWith []string      `json:"checked_with,omitempty" description:"for a .gdshaderinc: the shaders that include it, compiled to check it"`
}

// ValidateIn names the shader to check.
type ValidateIn struct {
	Code string `json:"code,omitempty" description:"shader source to check"`
	Path string `json:"path,omitempty" description:"a res:// .gdshader/.gdshaderinc; with code: check code as if saved there (relative #include)"`
}

// WriteIn is a shader file to write.
type WriteIn struct {
	Path string `json:"path" jsonschema:"minLength=1" description:"res:// .gdshader or .gdshaderinc"`
	Code string `json:"code"`
}

// MaterialLoss is a ShaderMaterial of the edited scene whose set parameters the new code dropped.
type MaterialLoss struct {
	Node     string   `json:"node" description:"node path; empty for a material file"`
	Property string   `json:"property,omitempty"`
	Material string   `json:"material,omitempty" description:"res:// of the material file, if it is one"`
	Lost     []string `json:"lost" description:"parameters that had values and are no uniform any more"`
}

// WriteOut is the write's answer.
type WriteOut struct {
	Report
	Path      string         `json:"path"`
	Created   bool           `json:"created"`
	Bytes     int            `json:"bytes"`
	Undoable  bool           `json:"undoable" description:"godot_undo restores the previous file"`
	Materials int            `json:"materials" description:"ShaderMaterials of the edited scene using this shader"`
	LostIn    []MaterialLoss `json:"lost_params" description:"materials that lost parameter values"`
	DryRun    bool           `json:"dry_run" description:"a preview: nothing was written"`
}

// Target names a ShaderMaterial: a file, or a node's material property.
type Target struct {
	Path     string `json:"path,omitempty" description:"a ShaderMaterial .tres"`
	Node     string `json:"node,omitempty" description:"or a node of the edited scene"`
	Property string `json:"property,omitempty" description:"its material property: material (default), material_override, surface_material_override/0, process_material..."`
}

// GetParamsIn names the material.
type GetParamsIn struct {
	Target
}

// Param is one uniform with its value.
type Param struct {
	Name       string          `json:"name"`
	Type       string          `json:"type"`
	Hint       string          `json:"hint"`
	HintString string          `json:"hint_string"`
	Default    string          `json:"default,omitempty"`
	Value      json.RawMessage `json:"value" description:"codec-encoded; null: the shader's default"`
}

// ParamsOut is a ShaderMaterial's parameters.
type ParamsOut struct {
	Target   string  `json:"target" description:"path, or node:property"`
	Material string  `json:"material" description:"res:// of the material file; empty when embedded in the scene"`
	Shader   string  `json:"shader" description:"res:// of the shader; empty when embedded or none"`
	Params   []Param `json:"params"`
}

// SetParamsIn sets and resets uniform values.
type SetParamsIn struct {
	Target
	Set    map[string]any `json:"set,omitempty" description:"uniform name -> value (codec form: 0.5, {x,y,z}, \"#rrggbb\", \"res://tex.png\")"`
	Reset  []string       `json:"reset,omitempty" description:"uniforms back to the shader's default"`
	Create string         `json:"create_with_shader,omitempty" description:"res:// .gdshader: first put a new ShaderMaterial with it on node.property (replaces what is there)"`
}

// SetParamsOut is what changed.
type SetParamsOut struct {
	ParamsOut
	Changed   []string `json:"changed"`
	Created   bool     `json:"created" description:"a new ShaderMaterial was put on the node"`
	Persisted bool     `json:"persisted" description:"a file target was saved; a node target is saved by the next scene save"`
	Reason    string   `json:"reason,omitempty" description:"why persisted is false"`
	Undoable  bool     `json:"undoable"`
	DryRun    bool     `json:"dry_run"`
}

func orEmpty[T any](s []T) []T {
	if s == nil {
		return []T{}
	}
	return s
}

func (r *Report) normalize() {
	r.Errors, r.Uniforms = orEmpty(r.Errors), orEmpty(r.Uniforms)
}
