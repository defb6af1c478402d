// Package shader is the built-in shader toolset: compile feedback for Godot
// shaders (errors with lines, shader type, render modes, uniforms), writing
// .gdshader/.gdshaderinc files, and typed access to ShaderMaterial
// parameters, each edit one undo action. Shaders are compiled in a separate
// headless Godot (its dummy renderer runs the real ShaderCompiler). Its
// editor side ships as GDScript in editor/. docs/shader.md describes the
// behaviours and limits.
package shader

import (
	"embed"

	"github.com/godot-mcp/godot-mcp/plugins/internal/engines"
	"github.com/godot-mcp/godot-mcp/sdk"
)

//go:embed editor
var editorFiles embed.FS

var connected = []string{sdk.RequireBridgeConnected}

// Toolset is the shader toolset.
func Toolset() sdk.Toolset {
	return sdk.Toolset{
		Name:           "shader",
		Version:        "0.1.0",
		Description:    "Shaders and ShaderMaterials: compile errors with lines, uniforms, write shader files, read and set material parameters (undoable).",
		Keywords:       []string{"Shader", ".gdshader", "ShaderMaterial", "uniforms", "shader compile errors", "visual effects"},
		MinGodot:       engines.MinGodot,
		MaxTestedGodot: engines.MaxTestedGodot,
		EditorCode:     sdk.Subdir(editorFiles, "editor"),
		Tools: []sdk.Tool{
			sdk.NewTool("validate", sdk.ToolOptions{
				Title: "Check a shader",
				Description: "Compiles shader code (inline, or a res:// .gdshader/.gdshaderinc file on disk) with Godot's shader compiler in a separate headless Godot: " +
					"valid, errors with line (and include file), shader_type, render_modes, uniforms with type, hint and default. A .gdshaderinc is checked through the shaders that include it.",
				Safety:        sdk.ReadOnly,
				Preconditions: []string{sdk.RequireGodotBinary},
			}, validate),
			sdk.NewTool("write", sdk.ToolOptions{
				Title: "Write a shader file",
				Description: "Creates or overwrites a .gdshader/.gdshaderinc (written even when it does not compile), updates the editor's copy, and answers the validate report " +
					"plus the ShaderMaterials of the edited scene that lost parameter values. One undo action.",
				Safety:        sdk.Mutating,
				Preconditions: connected,
			}, write),
			sdk.NewTool("get_params", sdk.ToolOptions{
				Title:         "Get material parameters",
				Description:   "A ShaderMaterial (a .tres, or node + property of the edited scene): its shader and each uniform with type, hint and current value (null: the shader's default).",
				Safety:        sdk.ReadOnly,
				Preconditions: connected,
			}, getParams),
			sdk.NewTool("set_params", sdk.ToolOptions{
				Title: "Set material parameters",
				Description: "Sets and resets uniform values of a ShaderMaterial, decoded per uniform type (names checked, hint_range enforced); create_with_shader first puts a new ShaderMaterial " +
					"on node.property. ONE undo action, all or nothing. A .tres is saved; a node's material is saved with the scene.",
				Safety:        sdk.Mutating,
				Preconditions: connected,
			}, setParams),
		},
	}
}
