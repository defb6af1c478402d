// Command hello is an example third-party godot-mcp toolset. It imports
// only the public SDK and ships its own editor command (editor/handlers.gd). Build it, name the executable "hello", and drop it
// into GODOT_MCP_PLUGIN_DIR; then `godot_enable_toolset {"name": "hello"}`.
package main

import (
	"context"
	"embed"
	"fmt"
	"io/fs"
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

// The editor code: editor/ holds handlers.gd (and anything it preloads).
//
//go:embed editor
var editorFiles embed.FS

func editorCode() fs.FS {
	sub, err := fs.Sub(editorFiles, "editor")
	if err != nil {
		panic(err)
	}
	return sub
}

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
		},
		EditorCode: editorCode(),
	}
}
