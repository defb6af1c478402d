// Package material is the built-in material toolset: StandardMaterial3D and
// ORMMaterial3D built from a set of PBR textures found by name in a folder
// (with the import settings each map needs, reimported), CanvasItemMaterial,
// parameters set by name with did-you-mean and range checks, materials put
// in a node's slot (surface override, mesh surface, material_override or
// overlay, a CanvasItem's material) and a node's effective materials per
// surface read back. Every edit is one undo action. Its editor side ships as
// GDScript in editor/. docs/material.md describes the behaviours and limits.
package material

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

// Toolset is the material toolset.
func Toolset() sdk.Toolset {
	return sdk.Toolset{
		Name:           "material",
		Version:        "0.1.0",
		Description:    "Materials: StandardMaterial3D/ORMMaterial3D from PBR texture sets (import settings fixed), CanvasItemMaterial, parameters by name, assignment to mesh surfaces, overrides and CanvasItems, effective materials read back; all undoable.",
		Keywords:       []string{"StandardMaterial3D", "ORMMaterial3D", "CanvasItemMaterial", "PBR textures", "albedo", "normal map", "roughness", "metallic", "material_override", "surface material"},
		MinGodot:       engines.MinGodot,
		MaxTestedGodot: engines.MaxTestedGodot,
		EditorCode:     sdk.Subdir(editorFiles, "editor"),
		Tools: []sdk.Tool{
			sdk.NewTool("create", sdk.ToolOptions{
				Title: "Create a material",
				Description: "Builds a StandardMaterial3D/ORMMaterial3D from the PBR maps found by name in a res:// folder (_albedo/_basecolor/_col, _normal/_n, _rough, _metal, _ao, _emission, _height, _orm; " +
					"sets each map's import settings: normal map, channel pack, roughness channel; reimports), or a CanvasItemMaterial; sets params by name; saves a .tres and/or puts it in a node's slot. ONE undo action.",
				Safety:          sdk.Mutating,
				DestructiveWhen: []string{"overwrite"},
				Preconditions:   connected,
			}, create),
			sdk.NewTool("set_params", sdk.ToolOptions{
				Title: "Set material parameters",
				Description: "Sets or resets parameters by name on a material: a .tres (saved) or the one in a node's slot. StandardMaterial3D, ORMMaterial3D, CanvasItemMaterial, ShaderMaterial uniforms; " +
					"values in the value codec's shapes (colors, enum names, res:// textures), ranges checked, a texture switches its feature on. Unknown names get a did-you-mean. ONE undo action.",
				Safety:        sdk.Mutating,
				Preconditions: connected,
			}, setParams),
			sdk.NewTool("assign", sdk.ToolOptions{
				Title:         "Assign a material",
				Description:   "Puts a material file (or nothing, to clear) in a node's slot: surface (MeshInstance3D surface override), mesh (the embedded mesh's surface), override / overlay (GeometryInstance3D), canvas (CanvasItem). ONE undo action.",
				Safety:        sdk.Mutating,
				Preconditions: sceneNeeded,
			}, assign),
			sdk.NewTool("get", sdk.ToolOptions{
				Title:         "Get materials",
				Description:   "A node's effective material per surface (material_override > surface override > mesh material) with key parameters, its override, overlay or CanvasItem material; or a material file's.",
				Safety:        sdk.ReadOnly,
				Preconditions: connected,
			}, get),
		},
	}
}
