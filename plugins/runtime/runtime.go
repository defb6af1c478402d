// Package runtime is the built-in runtime toolset: the running game.
//
// The game side is a probe autoload (addon/runtime/probe.gd, in the core
// addon) that this toolset's editor code (editor/, installed into the project
// as res://addons/godot_mcp_ext/runtime/ like any toolset's) registers while
// the toolset is enabled; it talks to the editor over the editor's debugger
// channel (addon/runtime/debugger_plugin.gd), so no extra port is opened. Every tool that needs
// the game sends one bridge command; the editor answers PRECONDITION_FAILED
// itself (required runtime_probe or game_not_breaked) when the game cannot
// take the request, so those preconditions are not declared to the host.
// run_headless needs no editor at all: it runs Godot from this plugin.
package runtime

import (
	"embed"
	"time"

	"github.com/godot-mcp/godot-mcp/plugins/internal/engines"
	"github.com/godot-mcp/godot-mcp/sdk"
)

// Bridge timeouts. The editor bounds its own waits below these, so an agent
// gets the editor's specific hint rather than a bare bridge TIMEOUT.
const (
	quickTimeout = 5 * time.Second  // editor-only reads (status, output, errors)
	gameTimeout  = 20 * time.Second // a request relayed to the game (editor waits 10 s)
	stopTimeout  = 15 * time.Second // the editor waits up to 5 s for the game to end
	// editorSlack is added to a timeout the editor itself enforces (timeout_ms).
	editorSlack = 10 * time.Second
)

var bridgeOnly = []string{sdk.RequireBridgeConnected}

// Toolset is the runtime toolset.
func Toolset() sdk.Toolset {
	return sdk.Toolset{
		Name:           "runtime",
		Version:        "0.2.0",
		Description:    "The running game: play and stop, output and errors, live tree and properties, input, pause and frame steps, screenshots, performance, and headless runs.",
		Keywords:       []string{"play", "running game", "game output", "live node", "input events", "screenshot", "FPS", "pause", "headless run"},
		MinGodot:       engines.MinGodot,
		MaxTestedGodot: engines.MaxTestedGodot,
		Tools: []sdk.Tool{
			sdk.NewTool("play", sdk.ToolOptions{
				Title:         "Play the game",
				Description:   "Plays the game in the editor to inspect and drive it live (for a one-off run that only collects output, run_headless). Runs the game (scene: main, current or a path) and waits until its probe reports in; pass output_cursor/errors_cursor as since to get_output/get_errors. A game that exits while starting fails with its errors; a script error answers required game_not_breaked; a breakpoint or pause answers ok with breaked and break_stack. Restarts a running game.",
				Safety:        sdk.Runtime,
				RunsCode:      true, // the game runs the project's scripts
				Preconditions: bridgeOnly,
			}, play),
			sdk.NewTool("stop", sdk.ToolOptions{
				Title:         "Stop the game",
				Description:   "Stops the game the editor runs and waits until it has ended. Succeeds (was_playing: false) when nothing runs.",
				Safety:        sdk.Runtime,
				Preconditions: bridgeOnly,
			}, stop),
			sdk.NewTool("get_status", sdk.ToolOptions{
				Title:         "Game status",
				Description:   "Whether a game is playing (scene, pid), its probe connected, paused (time scale) or stopped in the debugger (reason, stack), and the output/errors cursors.",
				Safety:        sdk.ReadOnly,
				Preconditions: bridgeOnly,
			}, status),
			sdk.NewTool("get_output", sdk.ToolOptions{
				Title:         "Game output",
				Description:   "The game's prints, warnings and errors (with file, line, function, stack), oldest first: pass the previous next_cursor as since to get only what is new (the newest 4000 are kept; dropped counts those lost). Works after the game stopped; kind session marks each start and stop.",
				Safety:        sdk.ReadOnly,
				Preconditions: bridgeOnly,
			}, getOutput),
			sdk.NewTool("get_errors", sdk.ToolOptions{
				Title:         "Game errors",
				Description:   "The errors and warnings games sent the editor's debugger (push_error/push_warning, engine and script errors), each with file:line, function and stack, from a cursor like get_output (the newest 1000 kept).",
				Safety:        sdk.ReadOnly,
				Preconditions: bridgeOnly,
			}, getErrors),
			sdk.NewTool("get_tree", sdk.ToolOptions{
				Title:         "Live scene tree",
				Description:   "The LIVE game's scene tree (the edited scene's is godot_scene_get_tree) under a node (default /root, autoloads included): name, class, path, script, instanced scene and child count per node, to a depth (the root is level 1).",
				Safety:        sdk.ReadOnly,
				Preconditions: bridgeOnly,
			}, getTree),
			sdk.NewTool("get_node", sdk.ToolOptions{
				Title:         "Live node",
				Description:   "A node of the LIVE game (the edited scene's: godot_scene_get_node): its class, script, groups, children and properties (all inspector-visible and script properties, or the named ones) in the JSON value shapes of godot://docs/values.",
				Safety:        sdk.ReadOnly,
				Preconditions: bridgeOnly,
			}, getNode),
			sdk.NewTool("set_properties", sdk.ToolOptions{
				Title:         "Set live properties",
				Description:   "Sets properties of a node in the LIVE game, not saved (to change the scene file, godot_scene_set_properties): values decoded by the property's type, all or nothing; returns old and new values (persisted: false).",
				Safety:        sdk.Runtime,
				Preconditions: bridgeOnly,
			}, setProperties),
			sdk.NewTool("call_method", sdk.ToolOptions{
				Title:         "Call a live method",
				Description:   "Calls one method on a node of the running game (for an expression or statements, godot_playtest_eval) with JSON arguments decoded by the method's argument types, waits for it (also when it awaits) and returns its result. Nothing is persisted.",
				Safety:        sdk.Runtime,
				Preconditions: bridgeOnly,
			}, callMethod),
			sdk.NewTool("input", sdk.ToolOptions{
				Title:         "Send input to the game",
				Description:   "Timed input in the running game's real-time frame loop (frame-exact input in a frozen game: godot_playtest_step; a click on a Control by its text: godot_playtest_interact): actions, keys, mouse motion and buttons, waits in frames or ms. A tap presses, holds (default 2 frames) and releases, so _process and _physics_process see is_action_just_pressed. Steps are all checked first; what is still pressed at the end is released.",
				Safety:        sdk.Runtime,
				Preconditions: bridgeOnly,
			}, sendInput),
			sdk.NewTool("screenshot", sdk.ToolOptions{
				Title:         "Screenshot",
				Description:   "Captures the running game's viewport, or the editor (window, 2D or 3D viewport), as a PNG. Where nothing renders (headless) it fails with PRECONDITION_FAILED saying how to get a display; never a blank image.",
				Safety:        sdk.ReadOnly,
				Preconditions: bridgeOnly,
			}, screenshot),
			sdk.NewTool("get_performance", sdk.ToolOptions{
				Title:         "Game performance",
				Description:   "The running game's Performance monitors: fps, frame times, memory, object/node/orphan counts, draw calls, primitives, video memory, physics bodies, frame counters, custom monitors.",
				Safety:        sdk.ReadOnly,
				Preconditions: bridgeOnly,
			}, getPerformance),
			sdk.NewTool("pause", sdk.ToolOptions{
				Title:         "Pause, time scale, step",
				Description:   "Pauses or resumes the game as a person would see it (to advance exactly N frames or ticks with input inside, godot_playtest_step): SceneTree.paused, Engine.time_scale, and/or advances a paused game by step_frames frames, then leaves it paused. Answers after the steps ran.",
				Safety:        sdk.Runtime,
				Preconditions: bridgeOnly,
			}, pause),
			sdk.NewTool("run_headless", sdk.ToolOptions{
				Title: "Run headless",
				Description: "A one-off run that collects output and exit code, no editor needed (to inspect or drive a game live, play). Runs a scene, a script (SceneTree/MainLoop, --script) or the main scene in a separate `godot --headless` with a time limit; " +
					"returns exit code, output and errors (file:line). Works without an editor. Godot: GODOT_BIN, else the connected editor's executable, else PATH; " +
					"the project: project_dir, GODOT_MCP_PROJECT_DIR, or the editor's.",
				Safety:        sdk.Runtime,
				RunsCode:      true,
				Preconditions: []string{sdk.RequireGodotBinary},
			}, runHeadless),
		},
		EditorCode: sdk.Subdir(editorFiles, "editor"),
	}
}

// The editor side: editor/handlers.gd (the index the addon loads) and the
// command families it preloads.
//
//go:embed editor
var editorFiles embed.FS
