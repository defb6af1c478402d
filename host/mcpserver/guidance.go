package mcpserver

import (
	"context"
	"encoding/json"
	"fmt"
	"io/fs"
	"strings"
	"time"

	"github.com/godot-mcp/godot-mcp/docs"
	"github.com/godot-mcp/godot-mcp/sdk/contract"
)

// This file is the core's guidance: MCP resources an agent reads instead of
// learning value shapes from failures (the pages of docs/, embedded, so the
// repository's guides are the one source), the live editor state, the class
// reference of any class, and prompts for common workflows. They are always
// served, like the core tools; toolsets' own resources go beside them
// (content.go).

// Resource URIs served by the core.
const (
	// ValuesURI is docs/values.md: the JSON shapes of Godot values.
	ValuesURI = "godot://docs/values"
	// EditorStateURI is godot_get_editor_state's answer, read live.
	EditorStateURI = "godot://editor/state"
	// ClassURITemplate is godot_describe_class's answer for one class.
	ClassURITemplate = "godot://class/{name}"
	// ToolURITemplate is the full contract of one served tool: its schemas
	// with every field described (tools/list serves output schemas without
	// descriptions, budget.go).
	ToolURITemplate = "godot://tool/{name}"
	// DocsURIPrefix + a toolset name is that toolset's guide.
	DocsURIPrefix = "godot://docs/"
)

// guide is one docs/ page served as a resource.
type guide struct {
	file, name, title, description string
}

var guides = []guide{
	{"values.md", "values", "Godot values in JSON",
		"The JSON shape of every Godot type (vectors, colors, transforms, enums and flags, node paths, resources, arrays, dictionaries) that tools read and write: node and resource properties, project settings, method arguments."},
	{"scene.md", "scene", "Scene toolset guide", "How the scene tools behave: node paths, batches, undo, instancing, signals and their limits."},
	{"scripts.md", "scripts", "Scripts toolset guide", "How the script tools behave: writing and patching, waiting for the editor, parse errors, symbols."},
	{"resources.md", "resources", "Resources toolset guide", "How the resource tools behave: res:// paths, .tres files, moves with references, UIDs, rescans and imports."},
	{"project.md", "project", "Project toolset guide", "How the project tools behave: settings, the input map and the input event shape, autoloads."},
	{"runtime.md", "runtime", "Runtime toolset guide", "How the runtime tools behave: playing, output and error cursors, inspecting and driving the running game, headless runs."},
	{"tests.md", "tests", "Tests toolset guide", "How the tests tools behave: detecting GUT or gdUnit4, discovery, headless runs, per-test results and statuses."},
	{"diagnostics.md", "diagnostics", "Diagnostics toolset guide", "How the diagnostics tools behave: the editor's Output panel from a cursor and its limits, the whole-project check."},
	{"animation.md", "animation", "Animation toolset guide", "How the animation tools behave: naming players, animations and tracks, key shapes per track type, one-undo edits, seek, deletes."},
	{"tilemap.md", "tilemap", "Tilemap toolset guide", "How the tilemap tools behave: TileMapLayer cells, painting and terrains, TileSet authoring, GridMap and MeshLibrary, legacy TileMap nodes."},
	{"debugger.md", "debugger", "Debugger toolset guide", "How the debugger tools behave: breakpoints (code lines only, kept across plays), why and where the game stopped, stack, variables and their paging, evaluate, step into/over/out and continue."},
	{"shader.md", "shader", "Shader toolset guide", "How the shader tools behave: compile errors and lines from a separate headless Godot, uniforms, writing shader files, ShaderMaterial parameters and their undo."},
	{"audio.md", "audio", "Audio toolset guide", "How the audio tools behave: the bus layout and its file, bus and effect operations, sends, audio import options and reimport."},
	{"material.md", "material", "Material toolset guide", "How the material tools behave: PBR texture sets found by name (the naming conventions), import settings per map, parameters by name, material slots, effective materials read back."},
	{"physics.md", "physics", "Physics toolset guide", "How the physics tools behave: named collision layers, layer and mask edits by name or number, collision shapes (primitives, fitted to meshes and sprites), the scene check."},
	{"ui.md", "ui", "UI toolset guide", "How the ui tools behave: Control rects as laid out in the editor and their problems, presets, anchors and size flags, Theme resources and theme overrides."},
	{"playtest.md", "playtest", "Playtest toolset guide", "How the playtest tools behave: eval in the live game and its errors and time limit, freezing and exact steps with an input timeline, step until, wait_for, watch, record and replay (the recording file format), and what game code sees."},
	{"export.md", "export", "Export toolset guide", "How the export tools behave: export_presets.cfg as the editor writes it, options by name, export templates and where Godot looks, headless export and where it may write, the smoke run."},
	{"particles.md", "particles", "Particles toolset guide", "How the particles tools behave: the presets and their parameters, the parameter names and value forms, CPU/GPU conversion and what it drops, restart in the editor."},
	{"assets.md", "assets", "Assets toolset guide", "How the assets tools behave: import roots and links, the import wait and rollback, import options by name with the importer's defaults and valid values, _subresources, reimport and undo."},
	{"navigation.md", "navigation", "Navigation toolset guide", "How the navigation tools behave: regions and their baking settings, baking in the editor and why a bake is empty, navigation layers by name, agents and links, path queries in the editor and the running game, debug drawing."},
	{"analysis.md", "analysis", "Analysis toolset guide", "How the analysis tools behave: what counts as used, cycles and their edges, signal connection statuses and what cannot be checked offline, scene integrity checks, paging."},
	{"world.md", "world", "World toolset guide", "How the world tools behave: WorldEnvironment, sky and sun in one call, effects per renderer, lights, cameras and look_at, primitive meshes, CSG and its bake, GI nodes and what can be baked."},
	{"visual_shader.md", "visual_shader", "Visual shader toolset guide", "How the visual_shader tools behave: the graph spec, node types and ports, edits and their undo, compile errors from a separate headless Godot, global shader uniforms."},
	{"security.md", "security", "Security model", "What the server defends and how: approval and its scope, names, secrets, child processes, the listeners' limits, and what each toolset may send to the editor."},
}

// servedGuide is a docs page as an agent reads it: links to the other
// guides and to tool-contracts.md point to the resources that serve them.
func servedGuide(text string) string {
	for _, g := range guides {
		text = strings.ReplaceAll(text, "]("+g.file, "]("+DocsURIPrefix+g.name)
	}
	return strings.ReplaceAll(text, "](tool-contracts.md", "]("+ToolURITemplate)
}

// coreResources are the resources and templates the host serves itself.
func (s *Server) coreResources() []Resource {
	out := skillResources()
	for _, g := range guides {
		file := g.file
		out = append(out, Resource{
			URI: DocsURIPrefix + g.name, Name: g.name, Title: g.title, Description: g.description,
			MimeType: "text/markdown", Toolset: CoreToolset,
			Read: func(context.Context, string, map[string]string) ([]ResourceContents, *contract.Error) {
				text, err := fs.ReadFile(docs.Guides, file)
				if err != nil {
					return nil, contract.Errorf(contract.InternalError, "The guide %s is missing from this build: %v.", file, err)
				}
				return []ResourceContents{{MimeType: "text/markdown", Text: servedGuide(string(text))}}, nil
			},
		})
	}
	out = append(out,
		Resource{
			URI: EditorStateURI, Name: "editor_state", Title: "Editor state",
			Description: "The connected editor now: project, Godot version, open scenes and the active one, selection, playing, scanning, undo/redo (what godot_get_editor_state answers). Fails with BRIDGE_DISCONNECTED when no editor is connected.",
			MimeType:    "application/json", Toolset: CoreToolset,
			Read: func(ctx context.Context, _ string, _ map[string]string) ([]ResourceContents, *contract.Error) {
				return s.editorJSON(ctx, "cmd_get_editor_state", NoArgs{}, editorStateTimeout)
			},
		},
		Resource{
			URI: ClassURITemplate, Template: true, Name: "class", Title: "Class reference",
			Description: "ClassDB reference of a Godot class (or a script class_name), e.g. godot://class/CharacterBody2D: inheritance, properties with type, hint and default, methods, signals, constants, enums (what godot_describe_class answers). Needs a connected editor.",
			MimeType:    "application/json", Toolset: CoreToolset,
			Read: func(ctx context.Context, _ string, params map[string]string) ([]ResourceContents, *contract.Error) {
				name := strings.TrimSpace(params["name"])
				if name == "" {
					return nil, contract.Errorf(contract.ValidationError, "Name a class in the URI, e.g. godot://class/Node2D.")
				}
				return s.editorJSON(ctx, "cmd_describe_class", DescribeClassArgs{ClassName: name}, describeClassTimeout)
			},
		},
		Resource{
			URI: ToolURITemplate, Template: true, Name: "tool", Title: "Tool contract",
			Description: "The full contract of a served tool, e.g. godot://tool/godot_scene_get_tree: description, safety class, preconditions, and input and output schemas with every field described (tools/list serves output schemas as a summary: top-level fields and types).",
			MimeType:    "application/json", Toolset: CoreToolset,
			Read: func(_ context.Context, _ string, params map[string]string) ([]ResourceContents, *contract.Error) {
				name := params["name"]
				s.mu.RLock()
				reg, ok := s.tools[name]
				s.mu.RUnlock()
				if !ok {
					return nil, contract.Errorf(contract.ResourceNotFound, "No tool %q is served. tools/list lists the tools; a toolset's tools appear once godot_enable_toolset enabled it.", name)
				}
				text, err := json.Marshal(reg.def)
				if err != nil {
					return nil, contract.Errorf(contract.InternalError, "The contract of %s could not be encoded: %v.", name, err)
				}
				return []ResourceContents{{MimeType: "application/json", Text: string(text)}}, nil
			},
		},
	)
	return out
}

// editorJSON asks the editor and returns its answer as one JSON content.
func (s *Server) editorJSON(ctx context.Context, command string, params any, timeout time.Duration) ([]ResourceContents, *contract.Error) {
	if s.bridge == nil {
		return nil, &contract.Error{Code: contract.BridgeDisconnected, Required: contract.RequireBridgeConnected, Hint: "No editor bridge is running."}
	}
	if !s.bridge.Status().Connected {
		return nil, &contract.Error{Code: contract.BridgeDisconnected, Required: contract.RequireBridgeConnected, Hint: bridgeHint(s.bridge.Status())}
	}
	resp := s.bridge.Send(ctx, command, params, timeout)
	if e := resp.Err(); e != nil {
		return nil, e
	}
	text, err := cleanStructured(resp.Result)
	if err != nil {
		return nil, err
	}
	return []ResourceContents{{MimeType: "application/json", Text: string(text)}}, nil
}

// corePrompts are the workflow prompts the host serves itself.
func corePrompts() []Prompt {
	return []Prompt{
		{
			Name: "godot_start_2d_scene", Title: "Start a 2D scene", Toolset: CoreToolset,
			Description: "Create, populate, save and play a new 2D scene in the connected editor.",
			Arguments: []PromptArgument{
				{Name: "path", Description: "res:// path of the new .tscn (default res://main.tscn)"},
				{Name: "idea", Description: "what the scene should hold, e.g. \"a player that moves with the arrow keys\""},
			},
			Get: func(_ context.Context, args map[string]string) PromptResult {
				path := strings.TrimSpace(args["path"])
				if path == "" {
					path = "res://main.tscn"
				}
				if !strings.HasPrefix(path, "res://") || !strings.HasSuffix(path, ".tscn") {
					return PromptResult{Err: contract.Errorf(contract.ValidationError, "path must be a res:// path ending in .tscn, got %q.", path)}
				}
				idea := strings.TrimSpace(args["idea"])
				if idea == "" {
					idea = "a player character (CharacterBody2D with a Sprite2D and a CollisionShape2D) and a Camera2D"
				}
				return PromptResult{
					Description: "Start a 2D scene at " + path,
					Messages:    []PromptMessage{{Role: "user", Content: Content{Type: "text", Text: fmt.Sprintf(start2DScene, path, idea)}}},
				}
			},
		},
		{
			Name: "godot_debug_crash", Title: "Debug a crash", Toolset: CoreToolset,
			Description: "Find why the game crashes or errors from its own output, fix the script, and run it again.",
			Arguments: []PromptArgument{
				{Name: "scene", Description: "res:// path of the scene to run (default: the project's main scene)"},
				{Name: "symptom", Description: "what goes wrong, if known"},
			},
			Get: func(_ context.Context, args map[string]string) PromptResult {
				scene := strings.TrimSpace(args["scene"])
				play := "godot_runtime_play with {}"
				if scene != "" {
					sceneArg, _ := json.Marshal(map[string]string{"scene": scene})
					play = "godot_runtime_play with " + string(sceneArg)
				}
				symptom := strings.TrimSpace(args["symptom"])
				if symptom == "" {
					symptom = "not described yet: find it in the game's output"
				}
				return PromptResult{
					Description: "Debug a crash from the game's output",
					Messages:    []PromptMessage{{Role: "user", Content: Content{Type: "text", Text: fmt.Sprintf(debugCrash, symptom, play)}}},
				}
			},
		},
	}
}

const start2DScene = `Build a new 2D scene in the connected Godot editor at %[1]s holding: %[2]s.

1. Call godot_get_editor_state to check that an editor is connected, then godot_enable_toolset with {"names": ["scene", "scripts"]}.
2. Create the scene: godot_scene_create with {"path": "%[1]s", "root_type": "Node2D"}.
3. Add the nodes with godot_scene_create_node (parent "." is the root), or several at once with godot_scene_batch (one undo action). Property values use the JSON shapes of the resource godot://docs/values, e.g. {"position": {"x": 100, "y": 50}}; godot://class/{name} (or godot_describe_class) lists a class's properties.
4. Behaviour goes in a script: godot_scripts_write a .gd file, check that its answer says valid, then godot_scripts_attach it to the node.
5. Save with godot_scene_save. To try it, enable the runtime toolset and call godot_runtime_play with {"scene": "%[1]s"}, then godot_runtime_get_errors; godot_runtime_stop ends the run.

Mutating tools take dry_run to preview; every edit is one undo action (godot_undo).`

const debugCrash = `The game crashes or reports errors. Symptom: %[1]s.

1. Call godot_enable_toolset with {"names": ["runtime", "scripts"]}.
2. Run it: %[2]s. A game that dies while starting fails with its output; otherwise the answer has output_cursor and errors_cursor.
3. Read what happened: godot_runtime_get_errors (errors with file, line, function and script stack) and godot_runtime_get_output (prints and errors in order), passing the cursors as since. Both work after the game stopped.
4. Open the failing script with godot_scripts_read around the reported line; godot_runtime_get_node and godot_runtime_get_tree inspect the live game while it runs.
5. Fix it with godot_scripts_patch (anchored edits) and check that the answer says valid, then godot_runtime_stop and play again until get_errors stays empty.

The guide godot://docs/runtime explains cursors, sessions and headless runs.`
