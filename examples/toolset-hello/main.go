// Command hello is an example third-party godot-mcp toolset. It imports
// only the public SDK, ships its own editor command (editor/handlers.gd)
// and its own game message (game/game.gd, "hello:ping", answered by the
// running game). Build it, name the executable "hello", and drop it into
// GODOT_MCP_PLUGIN_DIR; then `godot_enable_toolset {"name": "hello"}`.
package main

import (
	"context"
	"embed"
	"fmt"
	"time"

	"github.com/godot-mcp/godot-mcp/sdk"
)

// GreetIn names who to greet.
type GreetIn struct {
	Name string `json:"name,omitempty" description:"who to greet (default: the project)"`
}

// GreetOut is the greeting.
type GreetOut struct {
	Greeting     string `json:"greeting"`
	GodotVersion string `json:"godot_version" description:"the connected editor's Godot version"`
}

// editorState is the part of cmd_get_editor_state this toolset reads.
type editorState struct {
	ProjectName  string `json:"project_name"`
	GodotVersion string `json:"godot_version"`
}

func greet(ctx context.Context, call *sdk.Call, in GreetIn) (GreetOut, error) {
	st, err := sdk.Send[editorState](ctx, call.Host, "cmd_get_editor_state", nil, 5*time.Second)
	if err != nil {
		return GreetOut{}, err
	}
	who := in.Name
	if who == "" {
		who = st.ProjectName
	}
	call.Host.Logger().Info("greeting", "who", who)
	return GreetOut{Greeting: fmt.Sprintf("Hello, %s!", who), GodotVersion: st.GodotVersion}, nil
}

// WaveIn names who the editor waves to.
type WaveIn struct {
	To string `json:"to,omitempty" description:"who the editor waves to (default: editor)"`
}

// WaveOut is what the toolset's own editor command answered.
type WaveOut struct {
	Wave  string `json:"wave"`
	Scene string `json:"scene" description:"res:// path of the open scene, empty when none"`
}

// wave runs the toolset's own editor command, cmd_hello_wave, shipped in
// editor/handlers.gd.
func wave(ctx context.Context, call *sdk.Call, in WaveIn) (WaveOut, error) {
	return sdk.Send[WaveOut](ctx, call.Host, "cmd_hello_wave", map[string]any{"to": in.To}, 5*time.Second)
}

// PingOut is the running game's answer to "hello:ping" (game/game.gd).
type PingOut struct {
	Frame        int    `json:"frame" description:"the game's process frame count"`
	PhysicsFrame int    `json:"physics_frame" description:"the game's physics frame count"`
	Scene        string `json:"scene" description:"res:// path of the game's current scene"`
	EditorScene  string `json:"editor_scene,omitempty" description:"res:// path of the scene open in the editor (ping_via_editor only)"`
}

// ping sends the toolset's game message "hello:ping" to the running game:
// the probe loaded game/game.gd when the game started. A runtime tool.
func ping(ctx context.Context, call *sdk.Call, _ struct{}) (PingOut, error) {
	return sdk.GameMessage[PingOut](ctx, call.Host, "ping", nil, 5*time.Second)
}

// pingViaEditor asks the same through the toolset's editor code
// (cmd_hello_ping_via_editor, a runtime command), which adds the scene
// open in the editor.
func pingViaEditor(ctx context.Context, call *sdk.Call, _ struct{}) (PingOut, error) {
	return sdk.Send[PingOut](ctx, call.Host, "cmd_hello_ping_via_editor", nil, 10*time.Second)
}

// The game code: game/ holds game.gd (and anything it preloads).
//
//go:embed game
var gameFiles embed.FS

// The editor code: editor/ holds handlers.gd (and anything it preloads).
//
//go:embed editor
var editorFiles embed.FS

func main() { sdk.Serve(toolset()) }

// toolset is the hello toolset (a function, so tests can start it).
func toolset() sdk.Toolset {
	return sdk.Toolset{
		Name:        "hello",
		Version:     "0.1.0",
		Description: "An example third-party toolset: greets the open project.",
		Keywords:    []string{"greeting", "example toolset"},
		Tools: []sdk.Tool{
			sdk.NewTool("greet", sdk.ToolOptions{
				Title:         "Greet",
				Description:   "Greets someone (by default the open project) and reports the editor's Godot version.",
				Safety:        sdk.ReadOnly,
				Preconditions: []string{"bridge_connected"},
			}, greet),
			sdk.NewTool("wave", sdk.ToolOptions{
				Title:         "Wave",
				Description:   "Has the editor wave (through this toolset's own editor command) and name the open scene.",
				Safety:        sdk.ReadOnly,
				Preconditions: []string{"bridge_connected"},
			}, wave),
			sdk.NewTool("ping", sdk.ToolOptions{
				Title:         "Ping the game",
				Description:   "Asks the running game (through this toolset's game code) for its frame counts and current scene. Needs the runtime toolset enabled and a game played with godot_runtime_play.",
				Safety:        sdk.Runtime,
				Preconditions: []string{"bridge_connected", sdk.RequireRuntimeProbe},
			}, ping),
			sdk.NewTool("ping_via_editor", sdk.ToolOptions{
				Title:         "Ping the game from the editor",
				Description:   "As ping, asked by this toolset's editor code, and names the scene open in the editor too.",
				Safety:        sdk.Runtime,
				Preconditions: []string{"bridge_connected", sdk.RequireRuntimeProbe},
			}, pingViaEditor),
		},
		EditorCode: sdk.Subdir(editorFiles, "editor"),
		GameCode:   sdk.Subdir(gameFiles, "game"),
	}
}
