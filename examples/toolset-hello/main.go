// Command hello is an example third-party godot-mcp toolset. It imports
// only the public SDK. Build it, name the executable "hello", and drop it
// into GODOT_MCP_PLUGIN_DIR; then `godot_enable_toolset {"name": "hello"}`.
package main

import (
	"context"
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

func main() {
	sdk.Serve(sdk.Toolset{
		Name:        "hello",
		Version:     "0.1.0",
		Description: "An example third-party toolset: greets the open project.",
		Tools: []sdk.Tool{
			sdk.NewTool("greet", sdk.ToolOptions{
				Title:         "Greet",
				Description:   "Greets someone (by default the open project) and reports the editor's Godot version.",
				Safety:        sdk.ReadOnly,
				Preconditions: []string{"bridge_connected"},
			}, greet),
		},
	})
}
