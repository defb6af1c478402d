// Package visualshader is the built-in visual_shader toolset: VisualShader
// graphs (.tres) created from and read back as a compact spec (nodes by type
// with properties and positions, connections port to port per shader
// function), edited node by node as one undo action per call, the node
// catalog of a shader mode with each node's ports, Godot's own compile errors
// for the generated code (in a separate headless Godot, as the shader
// toolset checks text shaders), and the project's global shader uniforms.
// Its editor side ships as GDScript in editor/. docs/visual_shader.md
// describes the behaviours and limits.
package visualshader

import (
	"embed"

	"github.com/godot-mcp/godot-mcp/plugins/internal/engines"
	"github.com/godot-mcp/godot-mcp/sdk"
)

//go:embed editor
var editorFiles embed.FS

var connected = []string{sdk.RequireBridgeConnected}

// Toolset is the visual_shader toolset.
func Toolset() sdk.Toolset {
	return sdk.Toolset{
		Name:           "visual_shader",
		Version:        "0.1.0",
		Description:    "VisualShader graphs from a compact node/connection spec and back, node catalog with ports, graph edits (undoable), Godot's compile errors, global shader uniforms.",
		Keywords:       []string{"VisualShader", "visual shader graph", "VisualShaderNode", "shader nodes", "shader_globals", "global uniforms"},
		MinGodot:       engines.MinGodot,
		MaxTestedGodot: engines.MaxTestedGodot,
		EditorCode:     sdk.Subdir(editorFiles, "editor"),
		Tools: []sdk.Tool{
			sdk.NewTool("create", sdk.ToolOptions{
				Title: "Create a visual shader",
				Description: "Writes a VisualShader .tres from a spec: mode, functions {fragment: {nodes: [{id, type, position, props, defaults}], connections: [{from, from_port, to, to_port}]}}; " +
					"node 0 is the Output (ports by name: albedo, roughness, alpha...). Answers the graph read back and Godot's compile verdict. All or nothing, one undo action.",
				Safety:          sdk.Mutating,
				DestructiveWhen: []string{"overwrite"},
				Preconditions:   connected,
			}, create),
			sdk.NewTool("get", sdk.ToolOptions{
				Title:         "Read a visual shader",
				Description:   "A VisualShader .tres as the spec create takes (non-default properties, ports by name where unique), so create -> get round-trips.",
				Safety:        sdk.ReadOnly,
				Preconditions: connected,
			}, get),
			sdk.NewTool("edit", sdk.ToolOptions{
				Title: "Edit a visual shader",
				Description: "Applies ops in order: add_node, remove_node, connect (re-feeds a fed input), disconnect, set (props, defaults, position). Unknown types, ports or properties and incompatible " +
					"port types are refused with the valid set; all or nothing, ONE undo action (the file and the editor's copy). Answers the graph and compile verdict.",
				Safety:        sdk.Mutating,
				Preconditions: connected,
			}, edit),
			sdk.NewTool("catalog", sdk.ToolOptions{
				Title: "List visual shader nodes",
				Description: "Node types usable in a shader mode/function with input and output ports [name, type], the Output node's ports and the Input node's input_name values; " +
					"with type: one node's ports and properties (enum options, defaults).",
				Safety:        sdk.ReadOnly,
				Preconditions: connected,
			}, catalog),
			sdk.NewTool("validate", sdk.ToolOptions{
				Title:         "Check a visual shader",
				Description:   "Loads a VisualShader .tres from disk in a fresh headless Godot and compiles its generated code: valid, Godot's errors with line and that line of code.",
				Safety:        sdk.ReadOnly,
				Preconditions: []string{sdk.RequireGodotBinary},
			}, validate),
			sdk.NewTool("globals_list", sdk.ToolOptions{
				Title:         "List global shader uniforms",
				Description:   "The project's global shader uniforms (project settings shader_globals/*): name, type, value.",
				Safety:        sdk.ReadOnly,
				Preconditions: connected,
			}, globalsList),
			sdk.NewTool("globals_set", sdk.ToolOptions{
				Title: "Change global shader uniforms",
				Description: "Adds, sets or removes global shader uniforms (type checked, value decoded per type; samplers take a res:// texture), saved to project.godot and live in the editor; " +
					"all or nothing, ONE undo action.",
				Safety:        sdk.Mutating,
				Preconditions: connected,
			}, globalsSet),
		},
	}
}
