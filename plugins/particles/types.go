package particles

import "encoding/json"

// Honesty is what every particles edit answers besides its own fields.
type Honesty struct {
	Persisted bool   `json:"persisted" description:"true when the next scene save writes the change"`
	Reason    string `json:"reason,omitempty" description:"why persisted or undoable is false"`
	Undoable  bool   `json:"undoable" description:"true when one godot_undo reverts exactly this call"`
	DryRun    bool   `json:"dry_run" description:"a preview: nothing was changed"`
}

// Params are particle parameters by friendly name (see the presets tool's
// parameters, and docs/particles.md).
type Params = map[string]json.RawMessage

// ---- create ----

// CreateIn says what to create.
type CreateIn struct {
	Type     string    `json:"type" description:"gpu_3d, gpu_2d, cpu_3d or cpu_2d (or the class: GPUParticles3D...)"`
	Preset   string    `json:"preset" description:"fire, smoke, sparks, explosion, rain, snow, magic or dust"`
	Parent   string    `json:"parent,omitempty" jsonschema:"default=." description:"parent node path (\".\" is the scene root)"`
	Name     string    `json:"name,omitempty" description:"node name (default: the preset's, e.g. Fire)"`
	Position []float64 `json:"position,omitempty" description:"[x,y] in 2D, [x,y,z] in 3D"`
	Params   Params    `json:"params,omitempty" description:"parameters applied over the preset (as particles_set takes them)"`
}

// CreateOut is the created node, read back.
type CreateOut struct {
	Path   string         `json:"path"`
	Class  string         `json:"class"`
	Preset string         `json:"preset"`
	Look   look           `json:"look" description:"the sprite or quad the preset draws with"`
	Params map[string]any `json:"params" description:"every parameter, read back from the node"`
	Honesty
}

// ---- set ----

// SetIn edits one node.
type SetIn struct {
	Node   string `json:"node" jsonschema:"minLength=1" description:"a CPUParticles2D/3D or GPUParticles2D/3D node path"`
	Params Params `json:"params" description:"name: value; e.g. {\"amount\": 64, \"scale\": [0.5, 1], \"emission_shape\": \"box\", \"emission_box_extents\": [1, 0.2, 1], \"color_ramp\": [\"#fff\", \"#f800\"]}"`
}

// Change is one parameter's value before and after.
type Change struct {
	Name string `json:"name"`
	Old  any    `json:"old"`
	New  any    `json:"new"`
}

// SetOut is the node after the edit.
type SetOut struct {
	Path    string         `json:"path"`
	Class   string         `json:"class"`
	Changes []Change       `json:"changes" description:"the parameters whose value changed (or would)"`
	Params  map[string]any `json:"params" description:"every parameter after"`
	Honesty
}

func (o *SetOut) Normalize() { o.Changes = orEmpty(o.Changes) }

// ---- get ----

// GetIn selects the node.
type GetIn struct {
	Node string `json:"node,omitempty" description:"a particles node; omit to list every particles node of the edited scene"`
}

// Summary is one particles node of the scene.
type Summary struct {
	Path     string  `json:"path"`
	Class    string  `json:"class"`
	Emitting bool    `json:"emitting"`
	Amount   int     `json:"amount"`
	Lifetime float64 `json:"lifetime"`
	OneShot  bool    `json:"one_shot"`
}

// GetOut is one node's parameters, or the scene's particles nodes.
type GetOut struct {
	Scene  string         `json:"scene"`
	Nodes  []Summary      `json:"nodes,omitempty" description:"without node: every particles node"`
	Path   string         `json:"path,omitempty"`
	Class  string         `json:"class,omitempty"`
	Params map[string]any `json:"params,omitempty" description:"with node: every parameter by friendly name; unset curves and ramps are null"`
}

// ---- convert ----

// ConvertIn names the node to convert.
type ConvertIn struct {
	Node string `json:"node" jsonschema:"minLength=1" description:"a CPUParticles2D/3D (becomes GPUParticles) or GPUParticles2D/3D (becomes CPUParticles)"`
}

// ConvertOut is the replacement node.
type ConvertOut struct {
	Path    string         `json:"path"`
	From    string         `json:"from"`
	To      string         `json:"to"`
	Params  map[string]any `json:"params" description:"the new node's parameters"`
	Dropped []string       `json:"dropped" description:"settings of the old node the new class has no place for (e.g. GPU turbulence, collisions, trails, sub-emitters)"`
	Honesty
}

func (o *ConvertOut) Normalize() { o.Dropped = orEmpty(o.Dropped) }

// ---- restart ----

// RestartIn says what to do.
type RestartIn struct {
	Node     string `json:"node" jsonschema:"minLength=1"`
	Emitting *bool  `json:"emitting,omitempty" description:"true (default): emitting on and restart from zero; false: stop emitting"`
}

// RestartOut is the node's state after.
type RestartOut struct {
	Path      string `json:"path"`
	Class     string `json:"class"`
	Emitting  bool   `json:"emitting"`
	Restarted bool   `json:"restarted" description:"the emission cycle was restarted (particles cleared, a new cycle)"`
	Changed   bool   `json:"changed" description:"the saved emitting property changed (undoable)"`
	Honesty
}

// ---- presets ----

// PresetsIn selects the units.
type PresetsIn struct {
	Dimension string `json:"dimension,omitempty" jsonschema:"enum=2d|3d,default=3d" description:"3d: metres; 2d: pixels, y down"`
}

// PresetInfo is one preset.
type PresetInfo struct {
	Name   string         `json:"name"`
	Looks  string         `json:"looks"`
	Params map[string]any `json:"params"`
	Look   look           `json:"look"`
}

// ParamInfo is one parameter name and what it takes.
type ParamInfo struct {
	Name  string `json:"name"`
	Takes string `json:"takes"`
}

// PresetsOut lists the presets and the parameter vocabulary.
type PresetsOut struct {
	Presets    []PresetInfo `json:"presets"`
	Parameters []ParamInfo  `json:"parameters"`
}

func orEmpty[T any](s []T) []T {
	if s == nil {
		return []T{}
	}
	return s
}
