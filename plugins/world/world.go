// Package world is the built-in world toolset: the 3D environment of the
// edited scene (WorldEnvironment with Environment, Sky and a sun in one call;
// fog, glow, tonemap, ambient light; the Forward+-only effects refused with
// the reason under other renderers), lights, cameras, primitive meshes, CSG
// shapes and their bake to a mesh, GI nodes and what can be baked here, and a
// read-back of the scene's 3D world in domain terms. Every edit is one undo
// action. Its editor side ships as GDScript in editor/ (installed into the
// project on enable). docs/world.md describes the behaviours and limits.
package world

import (
	"context"
	"embed"
	"fmt"
	"strings"
	"time"

	"github.com/godot-mcp/godot-mcp/plugins/internal/engines"
	"github.com/godot-mcp/godot-mcp/plugins/internal/suggest"
	"github.com/godot-mcp/godot-mcp/sdk"
)

//go:embed editor
var editorFiles embed.FS

var sceneNeeded = []string{sdk.RequireBridgeConnected, sdk.RequireActiveScene}

const (
	readTimeout = 30 * time.Second
	editTimeout = 60 * time.Second
	bakeTimeout = 5 * time.Minute
)

// Toolset is the world toolset.
func Toolset() sdk.Toolset {
	return sdk.Toolset{
		Name:    "world",
		Version: "0.1.0",
		Description: "The 3D world of a scene: WorldEnvironment with sky and sun in one call, fog, glow, tonemap, ambient; lights, cameras, " +
			"primitive meshes, CSG shapes and baking them to a mesh, ReflectionProbe/VoxelGI/LightmapGI; a read-back; all undoable.",
		Keywords: []string{"WorldEnvironment", "ProceduralSkyMaterial", "DirectionalLight3D", "OmniLight3D", "SpotLight3D", "Camera3D",
			"MeshInstance3D", "CSG", "fog", "glow", "VoxelGI", "sky"},
		MinGodot:       engines.MinGodot,
		MaxTestedGodot: engines.MaxTestedGodot,
		EditorCode:     sdk.Subdir(editorFiles, "editor"),
		Tools: []sdk.Tool{
			sdk.NewTool("set_environment", sdk.ToolOptions{
				Title: "Set the world environment",
				Description: "Sets up the scene's WorldEnvironment (made if missing) in ONE undo action: background, sky (procedural, physical, panorama), a sun, ambient, " +
					"tonemap, fog, glow; SSAO/SSR/SDFGI/SSIL/volumetric fog only under Forward+ (else refused with the reason). Colours are \"#rrggbb\".",
				Safety:        sdk.Mutating,
				Preconditions: sceneNeeded,
			}, setEnvironment),
			sdk.NewTool("set_light", sdk.ToolOptions{
				Title: "Add or edit a light",
				Description: "Adds a DirectionalLight3D, OmniLight3D or SpotLight3D (type), or edits one (node): colour, energy, shadows, range, spot angle, " +
					"placement or look_at. ONE undo action.",
				Safety:        sdk.Mutating,
				Preconditions: sceneNeeded,
			}, setLight),
			sdk.NewTool("set_camera", sdk.ToolOptions{
				Title:         "Add or edit a camera",
				Description:   "Adds a Camera3D, or edits one (node): current (others stop being current), fov, projection with size, near/far, placement or look_at. ONE undo action.",
				Safety:        sdk.Mutating,
				Preconditions: sceneNeeded,
			}, setCamera),
			sdk.NewTool("add_mesh", sdk.ToolOptions{
				Title:         "Add a primitive mesh",
				Description:   "Adds a MeshInstance3D with a primitive mesh (box, sphere, capsule, cylinder, plane, prism, torus), sizes and an albedo colour. ONE undo action.",
				Safety:        sdk.Mutating,
				Preconditions: sceneNeeded,
			}, addMesh),
			sdk.NewTool("add_csg", sdk.ToolOptions{
				Title: "Add a CSG shape",
				Description: "Adds a CSG shape (box, sphere, cylinder, torus, polygon, combiner) with sizes, colour and operation on its earlier siblings under a CSG parent. " +
					"godot_world_bake turns the tree into a mesh. ONE undo action.",
				Safety:        sdk.Mutating,
				Preconditions: sceneNeeded,
			}, addCSG),
			sdk.NewTool("add_gi", sdk.ToolOptions{
				Title:         "Add a GI node",
				Description:   "Adds a ReflectionProbe, VoxelGI or LightmapGI (size, position, probe update mode); warns when the renderer or engine cannot draw or bake it. ONE undo action.",
				Safety:        sdk.Mutating,
				Preconditions: sceneNeeded,
			}, addGI),
			sdk.NewTool("bake", sdk.ToolOptions{
				Title: "Bake CSG or GI",
				Description: "Bakes a CSG root shape into a MeshInstance3D beside it (replace: the CSG tree is removed), or a VoxelGI under Forward+. LightmapGI, and VoxelGI " +
					"elsewhere, are refused with PRECONDITION_FAILED and the reason. ONE undo action.",
				Safety:          sdk.Mutating,
				Preconditions:   sceneNeeded,
				DestructiveWhen: []string{"replace"},
			}, bake),
			sdk.NewTool("describe", sdk.ToolOptions{
				Title:         "Describe the 3D world",
				Description:   "The edited scene's 3D world: renderer, environment (background, sky, ambient, tonemap, fog, glow, effects), lights, cameras, meshes, CSG, GI nodes.",
				Safety:        sdk.ReadOnly,
				Preconditions: sceneNeeded,
			}, describe),
		},
	}
}

// params turns an input into the editor command's parameters.
func params(in any, call *sdk.Call) (map[string]any, error) {
	p, err := sdk.Params(in)
	if err != nil {
		return nil, err
	}
	p["dry_run"] = call.DryRun
	return p, nil
}

// oneOf refuses a name outside valid with the valid set and a did-you-mean.
func oneOf(field, got string, valid []string) error {
	for _, v := range valid {
		if strings.EqualFold(v, got) {
			return nil
		}
	}
	hint := ""
	if s, ok := suggest.Closest(got, valid); ok {
		hint = suggest.Hint(s)
	}
	return sdk.Validation(fmt.Sprintf("%s %q is not one of %s%s", field, got, strings.Join(valid, ", "), hint))
}

func checkPlace(p Place) error {
	if p.LookAt != nil && p.LookAtNode != "" {
		return sdk.Validation("give look_at (a point) or look_at_node (a node), not both")
	}
	if (p.LookAt != nil || p.LookAtNode != "") && p.RotationDegrees != nil {
		return sdk.Validation("look_at sets the rotation: give rotation_degrees or look_at/look_at_node, not both")
	}
	return nil
}

func edit[Out any](ctx context.Context, call *sdk.Call, command string, in any, timeout time.Duration, fix func(*Out)) (Out, error) {
	var zero Out
	p, err := params(in, call)
	if err != nil {
		return zero, err
	}
	out, err := sdk.Send[Out](ctx, call.Host, command, p, timeout)
	if err != nil {
		return zero, err
	}
	fix(&out)
	return out, nil
}

func orEmpty[T any](s []T) []T {
	if s == nil {
		return []T{}
	}
	return s
}

func (e *Edit) normalize() { e.Warnings = orEmpty(e.Warnings) }

var (
	skyTypes    = []string{"procedural", "physical", "panorama"}
	backgrounds = []string{"sky", "color", "clear_color", "canvas", "keep"}
	lightTypes  = []string{"directional", "omni", "spot"}
	meshShapes  = []string{"box", "sphere", "capsule", "cylinder", "plane", "prism", "torus"}
	csgShapes   = []string{"box", "sphere", "cylinder", "torus", "polygon", "combiner"}
	operations  = []string{"union", "intersection", "subtraction"}
	giTypes     = []string{"reflection_probe", "voxel_gi", "lightmap_gi"}
)

func setEnvironment(ctx context.Context, call *sdk.Call, in SetEnvironmentIn) (SetEnvironmentOut, error) {
	if in.Background != "" {
		if err := oneOf("background", in.Background, backgrounds); err != nil {
			return SetEnvironmentOut{}, err
		}
	}
	if in.Sky != nil && in.Sky.Type != "" {
		if err := oneOf("sky.type", in.Sky.Type, skyTypes); err != nil {
			return SetEnvironmentOut{}, err
		}
	}
	if in.Sky != nil && in.Background != "" && !strings.EqualFold(in.Background, "sky") {
		return SetEnvironmentOut{}, sdk.Validation(fmt.Sprintf("sky is drawn only with background \"sky\", not %q: drop background or sky", in.Background))
	}
	if in.Sky == nil && in.Background == "" && in.BackgroundColor == "" && in.Sun == nil && in.Ambient == nil && in.Tonemap == nil &&
		in.Fog == nil && in.Glow == nil && in.Effects == nil && len(in.Properties) == 0 && in.Node != "" {
		return SetEnvironmentOut{}, sdk.Validation("nothing to set: give sky, sun, background, ambient, tonemap, fog, glow, effects or properties")
	}
	return edit(ctx, call, "cmd_world_set_environment", in, editTimeout, func(o *SetEnvironmentOut) {
		o.Created, o.Changes = orEmpty(o.Created), orEmpty(o.Changes)
		o.normalize()
	})
}

func setLight(ctx context.Context, call *sdk.Call, in SetLightIn) (SetLightOut, error) {
	if in.Type == "" && in.Node == "" {
		return SetLightOut{}, sdk.Validation("give type (directional, omni or spot) to add a light, or node to edit one")
	}
	if in.Type != "" {
		if err := oneOf("type", in.Type, lightTypes); err != nil {
			return SetLightOut{}, err
		}
	}
	if err := checkPlace(in.Place); err != nil {
		return SetLightOut{}, err
	}
	if in.Node != "" && (in.Parent != "" || in.Name != "") {
		return SetLightOut{}, sdk.Validation("parent and name are for a new light; to edit one give node only (rename or move it with the scene tools)")
	}
	return edit(ctx, call, "cmd_world_set_light", in, editTimeout, func(o *SetLightOut) {
		o.Created, o.Changes = orEmpty(o.Created), orEmpty(o.Changes)
		o.normalize()
	})
}

func setCamera(ctx context.Context, call *sdk.Call, in SetCameraIn) (SetCameraOut, error) {
	if err := checkPlace(in.Place); err != nil {
		return SetCameraOut{}, err
	}
	if in.Node != "" && (in.Parent != "" || in.Name != "") {
		return SetCameraOut{}, sdk.Validation("parent and name are for a new camera; to edit one give node only")
	}
	if in.Size != nil && *in.Size <= 0 {
		return SetCameraOut{}, sdk.Validation("size (the orthogonal view's height) must be > 0")
	}
	if in.Near != nil && in.Far != nil && *in.Far <= *in.Near {
		return SetCameraOut{}, sdk.Validation(fmt.Sprintf("far (%v) must be greater than near (%v)", *in.Far, *in.Near))
	}
	return edit(ctx, call, "cmd_world_set_camera", in, editTimeout, func(o *SetCameraOut) {
		o.Created, o.Changes = orEmpty(o.Created), orEmpty(o.Changes)
		o.normalize()
	})
}

func fixShape(o *AddShapeOut) {
	o.Created = orEmpty(o.Created)
	if o.Dims == nil {
		o.Dims = map[string]any{}
	}
	o.normalize()
}

func addMesh(ctx context.Context, call *sdk.Call, in AddMeshIn) (AddShapeOut, error) {
	if err := oneOf("shape", in.Shape, meshShapes); err != nil {
		return AddShapeOut{}, err
	}
	if err := checkPlace(in.Place); err != nil {
		return AddShapeOut{}, err
	}
	return edit(ctx, call, "cmd_world_add_mesh", in, editTimeout, fixShape)
}

func addCSG(ctx context.Context, call *sdk.Call, in AddCSGIn) (AddShapeOut, error) {
	if err := oneOf("shape", in.Shape, csgShapes); err != nil {
		return AddShapeOut{}, err
	}
	if in.Operation != "" {
		if err := oneOf("operation", in.Operation, operations); err != nil {
			return AddShapeOut{}, err
		}
	}
	if err := checkPlace(in.Place); err != nil {
		return AddShapeOut{}, err
	}
	for i, pt := range in.Polygon {
		if len(pt) != 2 {
			return AddShapeOut{}, sdk.Validation(fmt.Sprintf("polygon[%d] has %d numbers; a point is [x, y]", i, len(pt)))
		}
	}
	return edit(ctx, call, "cmd_world_add_csg", in, editTimeout, fixShape)
}

func addGI(ctx context.Context, call *sdk.Call, in AddGIIn) (AddGIOut, error) {
	if err := oneOf("type", in.Type, giTypes); err != nil {
		return AddGIOut{}, err
	}
	if err := checkPlace(in.Place); err != nil {
		return AddGIOut{}, err
	}
	return edit(ctx, call, "cmd_world_add_gi", in, editTimeout, func(o *AddGIOut) {
		o.Created = orEmpty(o.Created)
		o.normalize()
	})
}

func bake(ctx context.Context, call *sdk.Call, in BakeIn) (BakeOut, error) {
	if strings.TrimSpace(in.Node) == "" {
		return BakeOut{}, sdk.Validation("node is required: the CSG root shape, VoxelGI or LightmapGI to bake")
	}
	return edit(ctx, call, "cmd_world_bake", in, bakeTimeout, func(o *BakeOut) {
		o.Created, o.Removed = orEmpty(o.Created), orEmpty(o.Removed)
		o.normalize()
	})
}

func describe(ctx context.Context, call *sdk.Call, in DescribeIn) (DescribeOut, error) {
	out, err := sdk.Send[DescribeOut](ctx, call.Host, "cmd_world_describe", map[string]any{"limit": in.Limit}, readTimeout)
	if err != nil {
		return DescribeOut{}, err
	}
	out.Lights, out.Cameras, out.Meshes, out.CSG, out.GI = orEmpty(out.Lights), orEmpty(out.Cameras), orEmpty(out.Meshes), orEmpty(out.CSG), orEmpty(out.GI)
	if out.Totals == nil {
		out.Totals = map[string]int{}
	}
	return out, nil
}
