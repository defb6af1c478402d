package world

// Edit is what every world edit answers besides its own fields.
type Edit struct {
	Warnings  []string `json:"warnings" description:"what will not look or behave as asked, and why"`
	Persisted bool     `json:"persisted" description:"true when the next scene save writes it"`
	Reason    string   `json:"reason,omitempty" description:"why persisted is false"`
	Undoable  bool     `json:"undoable" description:"true when one godot_undo reverts exactly this call"`
	DryRun    bool     `json:"dry_run" description:"a preview: nothing was changed"`
}

// Created is a node a call added.
type Created struct {
	Path  string `json:"path"`
	Class string `json:"class"`
}

// Change is one property of an existing node or resource a call changed.
type Change struct {
	Target   string `json:"target" description:"node path, or node:property for its resource"`
	Property string `json:"property"`
	Old      any    `json:"old"`
	New      any    `json:"new"`
}

// Place positions and turns a node.
type Place struct {
	Position        []float64 `json:"position,omitempty" jsonschema:"minItems=3,maxItems=3" description:"[x,y,z]"`
	RotationDegrees []float64 `json:"rotation_degrees,omitempty" jsonschema:"minItems=3,maxItems=3"`
	LookAt          []float64 `json:"look_at,omitempty" jsonschema:"minItems=3,maxItems=3" description:"face this point"`
	LookAtNode      string    `json:"look_at_node,omitempty" description:"face this node"`
}

// Renderer is the project's rendering method and the running editor's.
type Renderer struct {
	Project            string `json:"project" description:"rendering/renderer/rendering_method: forward_plus, mobile or gl_compatibility"`
	Editor             string `json:"editor" description:"what this editor runs"`
	ForwardPlusEffects bool   `json:"forward_plus_effects,omitempty" description:"SSAO, SSR, SDFGI, SSIL, volumetric fog and VoxelGI are drawn"`
}

// ---- set_environment ----

// SkyIn is the sky of the environment.
type SkyIn struct {
	Type         string         `json:"type,omitempty" description:"procedural (default), physical or panorama"`
	TopColor     string         `json:"top_color,omitempty"`
	HorizonColor string         `json:"horizon_color,omitempty"`
	GroundColor  string         `json:"ground_color,omitempty"`
	Turbidity    *float64       `json:"turbidity,omitempty" jsonschema:"minimum=0"`
	Texture      string         `json:"texture,omitempty" description:"panorama: res:// image"`
	Energy       *float64       `json:"energy,omitempty" jsonschema:"minimum=0"`
	Properties   map[string]any `json:"properties,omitempty"`
}

// SunIn is the sun: the scene's first DirectionalLight3D, or a new one.
type SunIn struct {
	Color           string    `json:"color,omitempty"`
	Energy          *float64  `json:"energy,omitempty" jsonschema:"minimum=0"`
	Shadows         *bool     `json:"shadows,omitempty"`
	RotationDegrees []float64 `json:"rotation_degrees,omitempty" jsonschema:"minItems=3,maxItems=3"`
}

// AmbientIn is the ambient light.
type AmbientIn struct {
	Source string   `json:"source,omitempty" jsonschema:"enum=background|disabled|color|sky"`
	Color  string   `json:"color,omitempty"`
	Energy *float64 `json:"energy,omitempty" jsonschema:"minimum=0"`
}

// TonemapIn is the tonemapper.
type TonemapIn struct {
	Mode     string   `json:"mode,omitempty" jsonschema:"enum=linear|reinhard|filmic|aces|agx"`
	Exposure *float64 `json:"exposure,omitempty" jsonschema:"minimum=0"`
	White    *float64 `json:"white,omitempty" jsonschema:"minimum=0"`
}

// FogIn is depth fog.
type FogIn struct {
	Enabled *bool    `json:"enabled,omitempty"`
	Color   string   `json:"color,omitempty"`
	Density *float64 `json:"density,omitempty" jsonschema:"minimum=0"`
}

// GlowIn is glow (bloom).
type GlowIn struct {
	Enabled   *bool    `json:"enabled,omitempty"`
	Intensity *float64 `json:"intensity,omitempty" jsonschema:"minimum=0"`
	Strength  *float64 `json:"strength,omitempty" jsonschema:"minimum=0"`
	Bloom     *float64 `json:"bloom,omitempty" jsonschema:"minimum=0"`
}

// EffectsIn switches the Forward+-only effects.
type EffectsIn struct {
	SSAO          *bool `json:"ssao,omitempty"`
	SSR           *bool `json:"ssr,omitempty"`
	SDFGI         *bool `json:"sdfgi,omitempty"`
	SSIL          *bool `json:"ssil,omitempty"`
	VolumetricFog *bool `json:"volumetric_fog,omitempty"`
}

// SetEnvironmentIn sets up the WorldEnvironment.
type SetEnvironmentIn struct {
	Node            string         `json:"node,omitempty" description:"default: the scene's first WorldEnvironment, else a new one"`
	Parent          string         `json:"parent,omitempty"`
	Name            string         `json:"name,omitempty"`
	Background      string         `json:"background,omitempty" description:"sky, color, clear_color, canvas, keep"`
	BackgroundColor string         `json:"background_color,omitempty"`
	Sky             *SkyIn         `json:"sky,omitempty" description:"procedural: top/horizon/ground colours; physical: ground_color, turbidity; panorama: texture"`
	Sun             *SunIn         `json:"sun,omitempty" description:"the scene's DirectionalLight3D, else a new one; {} = defaults"`
	Ambient         *AmbientIn     `json:"ambient,omitempty"`
	Tonemap         *TonemapIn     `json:"tonemap,omitempty"`
	Fog             *FogIn         `json:"fog,omitempty"`
	Glow            *GlowIn        `json:"glow,omitempty"`
	Effects         *EffectsIn     `json:"effects,omitempty" description:"Forward+ only"`
	Properties      map[string]any `json:"properties,omitempty" description:"more Environment properties by name"`
}

// SetEnvironmentOut is the result.
type SetEnvironmentOut struct {
	Node     string    `json:"node" description:"the WorldEnvironment"`
	Created  []Created `json:"created"`
	Changes  []Change  `json:"changes" description:"edits of existing nodes and resources (new ones are in created)"`
	Renderer Renderer  `json:"renderer"`
	Edit
}

// ---- set_light ----

// SetLightIn adds or edits a light.
type SetLightIn struct {
	Node    string   `json:"node,omitempty" description:"a Light3D to edit; omit to add one"`
	Type    string   `json:"type,omitempty" description:"directional, omni or spot; required to add"`
	Parent  string   `json:"parent,omitempty"`
	Name    string   `json:"name,omitempty"`
	Color   string   `json:"color,omitempty" description:"\"#rrggbb\""`
	Energy  *float64 `json:"energy,omitempty" jsonschema:"minimum=0"`
	Shadows *bool    `json:"shadows,omitempty"`
	Range   *float64 `json:"range,omitempty" description:"omni, spot: metres"`
	Angle   *float64 `json:"angle,omitempty" description:"spot: cone half angle, degrees"`
	Place
	Properties map[string]any `json:"properties,omitempty"`
}

// SetLightOut is the result.
type SetLightOut struct {
	Node    string    `json:"node"`
	Type    string    `json:"type"`
	Class   string    `json:"class"`
	Created []Created `json:"created"`
	Changes []Change  `json:"changes"`
	Edit
}

// ---- set_camera ----

// SetCameraIn adds or edits a Camera3D.
type SetCameraIn struct {
	Node       string   `json:"node,omitempty" description:"a Camera3D to edit; omit to add one"`
	Parent     string   `json:"parent,omitempty"`
	Name       string   `json:"name,omitempty"`
	Current    *bool    `json:"current,omitempty"`
	Fov        *float64 `json:"fov,omitempty" jsonschema:"minimum=1,maximum=179"`
	Projection string   `json:"projection,omitempty" jsonschema:"enum=perspective|orthogonal"`
	Size       *float64 `json:"size,omitempty" description:"orthogonal height"`
	Near       *float64 `json:"near,omitempty"`
	Far        *float64 `json:"far,omitempty"`
	Place
	Properties map[string]any `json:"properties,omitempty"`
}

// SetCameraOut is the result.
type SetCameraOut struct {
	Node    string    `json:"node"`
	Created []Created `json:"created"`
	Changes []Change  `json:"changes"`
	Edit
}

// ---- add_mesh, add_csg ----

// Sizes are a shape's dimensions.
type Sizes struct {
	Size        []float64 `json:"size,omitempty" description:"box, prism [x,y,z]; plane [w,d]"`
	Radius      *float64  `json:"radius,omitempty"`
	Height      *float64  `json:"height,omitempty"`
	InnerRadius *float64  `json:"inner_radius,omitempty"`
	OuterRadius *float64  `json:"outer_radius,omitempty"`
}

// AddMeshIn adds a MeshInstance3D with a primitive mesh.
type AddMeshIn struct {
	Shape  string `json:"shape" description:"box, sphere, capsule, cylinder, plane, prism, torus"`
	Parent string `json:"parent,omitempty"`
	Name   string `json:"name,omitempty"`
	Sizes
	Color string `json:"color,omitempty" description:"albedo"`
	Place
	Properties map[string]any `json:"properties,omitempty" description:"more mesh properties"`
}

// AddCSGIn adds a CSG shape.
type AddCSGIn struct {
	Shape     string `json:"shape" description:"box, sphere, cylinder, torus, polygon, combiner"`
	Operation string `json:"operation,omitempty" description:"union, intersection, subtraction"`
	Parent    string `json:"parent,omitempty" description:"a CSG shape to combine with, or a Node3D"`
	Name      string `json:"name,omitempty"`
	Sizes
	Polygon      [][]float64 `json:"polygon,omitempty" description:"[[x,y],...]"`
	Depth        *float64    `json:"depth,omitempty"`
	Color        string      `json:"color,omitempty"`
	UseCollision *bool       `json:"use_collision,omitempty" description:"CSG root only"`
	Place
	Properties map[string]any `json:"properties,omitempty"`
}

// AddShapeOut is the result of add_mesh and add_csg.
type AddShapeOut struct {
	Node    string         `json:"node"`
	Class   string         `json:"class"`
	Mesh    string         `json:"mesh,omitempty" description:"the primitive mesh class"`
	Created []Created      `json:"created"`
	Dims    map[string]any `json:"dims" description:"the shape's sizes after"`
	Edit
}

// ---- add_gi, bake ----

// AddGIIn adds a ReflectionProbe, VoxelGI or LightmapGI.
type AddGIIn struct {
	Type       string    `json:"type" description:"reflection_probe, voxel_gi, lightmap_gi"`
	Parent     string    `json:"parent,omitempty"`
	Name       string    `json:"name,omitempty"`
	Size       []float64 `json:"size,omitempty" jsonschema:"minItems=3,maxItems=3"`
	UpdateMode string    `json:"update_mode,omitempty" jsonschema:"enum=once|always"`
	Interior   *bool     `json:"interior,omitempty"`
	Place
	Properties map[string]any `json:"properties,omitempty"`
}

// AddGIOut is the result.
type AddGIOut struct {
	Node     string    `json:"node"`
	Class    string    `json:"class"`
	Created  []Created `json:"created"`
	Bakeable bool      `json:"bakeable" description:"godot_world_bake can bake it here"`
	Edit
}

// BakeIn names what to bake.
type BakeIn struct {
	Node    string `json:"node" jsonschema:"minLength=1" description:"a CSG root shape, a VoxelGI or a LightmapGI"`
	Replace bool   `json:"replace,omitempty" description:"CSG: remove the CSG tree, leaving the mesh in its place"`
	Name    string `json:"name,omitempty" description:"CSG: the mesh node's name"`
}

// BakeOut is the result.
type BakeOut struct {
	Node     string    `json:"node"`
	Kind     string    `json:"kind" description:"csg or voxel_gi"`
	Created  []Created `json:"created"`
	Removed  []string  `json:"removed" description:"CSG nodes removed (replace)"`
	Surfaces int       `json:"surfaces,omitempty"`
	Vertices int       `json:"vertices,omitempty"`
	AABB     *struct {
		Position []float64 `json:"position"`
		Size     []float64 `json:"size"`
	} `json:"aabb,omitempty" description:"the baked mesh's bounds"`
	Baked bool `json:"baked,omitempty" description:"voxel_gi: data was produced"`
	Edit
}

// ---- describe ----

// DescribeIn bounds the lists.
type DescribeIn struct {
	Limit int `json:"limit,omitempty" jsonschema:"minimum=1,maximum=1000,default=100" description:"most entries per list"`
}

// DescribeOut is the scene's 3D world.
type DescribeOut struct {
	Scene       string           `json:"scene"`
	Renderer    Renderer         `json:"renderer"`
	Environment map[string]any   `json:"environment" description:"the first WorldEnvironment: background, sky, ambient, tonemap, fog, glow, effects; null when none"`
	Lights      []map[string]any `json:"lights" description:"path, type, color, energy, shadows, range, angle, position, direction"`
	Cameras     []map[string]any `json:"cameras" description:"path, current, projection, fov, size, near, far, position, forward"`
	Meshes      []map[string]any `json:"meshes" description:"path, mesh class, dims, surfaces, aabb_size, albedo"`
	CSG         []map[string]any `json:"csg" description:"path, class, root, dims (with operation)"`
	GI          []map[string]any `json:"gi" description:"ReflectionProbe, VoxelGI, LightmapGI: path, size, baked"`
	Totals      map[string]int   `json:"totals" description:"how many of each the scene has"`
	Truncated   bool             `json:"truncated" description:"a list was cut at limit"`
}
