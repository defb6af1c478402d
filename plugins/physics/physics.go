// Package physics is the built-in physics toolset: the project's named
// collision layers (2D and 3D), the collision layer and mask of the edited
// scene's collision objects by layer name or number, collision shapes added
// to bodies (primitives, or fitted to a MeshInstance3D or a Sprite2D's opaque
// pixels) and a check of the scene's physics setup. Every edit is one undo
// action. Its editor side ships as GDScript in editor/ (installed into the
// project on enable). docs/physics.md describes the behaviours and limits.
package physics

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

// Toolset is the physics toolset.
func Toolset() sdk.Toolset {
	return sdk.Toolset{
		Name:           "physics",
		Version:        "0.1.0",
		Description:    "Collision layers by name, collision layer and mask edits, collision shapes fitted to meshes and sprites, and a physics check of the scene; all undoable.",
		Keywords:       []string{"CollisionShape2D", "CollisionShape3D", "collision layers", "collision mask", "RigidBody", "Area2D", "hitbox"},
		MinGodot:       engines.MinGodot,
		MaxTestedGodot: engines.MaxTestedGodot,
		EditorCode:     sdk.Subdir(editorFiles, "editor"),
		Tools: []sdk.Tool{
			sdk.NewTool("get_layers", sdk.ToolOptions{
				Title: "Get collision layers",
				Description: "The project's named physics layers (2D and 3D, 1..32) and, for nodes (or every collision object of the edited scene, paged), " +
					"collision_layer and collision_mask as layer numbers with their names.",
				Safety:        sdk.ReadOnly,
				Preconditions: connected,
			}, getLayers),
			sdk.NewTool("set_layers", sdk.ToolOptions{
				Title: "Name layers, set layers and masks",
				Description: "Names or renames physics layers (saved to project.godot), then sets nodes' collision_layer and/or collision_mask by layer names or numbers " +
					"(set, add or remove), many nodes in ONE undo action. Unknown names are refused with a did-you-mean; all or nothing.",
				Safety:        sdk.Mutating,
				Preconditions: connected,
			}, setLayers),
			sdk.NewTool("add_shape", sdk.ToolOptions{
				Title: "Add a collision shape",
				Description: "Gives a body or area a CollisionShape2D/3D in ONE undo action: a primitive with sizes, or fitted to a source node (a MeshInstance3D: box/sphere/... " +
					"around its AABB, or convex/trimesh from the mesh; a Sprite2D: rectangle/circle/capsule around it, or polygon = CollisionPolygon2D of its opaque pixels), placed over the source.",
				Safety:        sdk.Mutating,
				Preconditions: sceneNeeded,
			}, addShape),
			sdk.NewTool("check", sdk.ToolOptions{
				Title: "Check physics setup",
				Description: "Problems of the edited scene's physics: bodies without shapes, shape nodes without a shape or disabled, non-uniform scale, concave shapes on moving bodies, " +
					"layer or mask 0, areas not monitoring, bits on unnamed layers; each with the node path and a fix.",
				Safety:        sdk.ReadOnly,
				Preconditions: sceneNeeded,
			}, check),
		},
	}
}
