// Package runtime is the built-in runtime toolset: the running game.
package runtime

import (
	"context"
	"time"

	"github.com/godot-mcp/godot-mcp/sdk"
)

// StatusIn takes no arguments.
type StatusIn struct{}

// StatusOut describes the game session, if any.
type StatusOut struct {
	Playing        bool   `json:"playing"`
	Scene          string `json:"scene" description:"res:// path of the played scene, empty when not playing"`
	ProbeConnected bool   `json:"probe_connected" description:"the game-side probe reported in"`
	Paused         bool   `json:"paused"`
}

func status(ctx context.Context, call *sdk.Call, _ StatusIn) (StatusOut, error) {
	return sdk.Send[StatusOut](ctx, call.Host, "cmd_runtime_get_status", nil, 5*time.Second)
}

// Toolset is the runtime toolset.
func Toolset() sdk.Toolset {
	return sdk.Toolset{
		Name:        "runtime",
		Version:     "0.1.0",
		Description: "The running game: play and stop, output and errors, live tree and properties, input, screenshots, performance.",
		MinGodot:    "4.4",
		Tools: []sdk.Tool{
			sdk.NewTool("get_status", sdk.ToolOptions{
				Title:         "Game status",
				Description:   "Whether a game is playing (and which scene), whether its probe is connected, whether it is paused.",
				Safety:        sdk.ReadOnly,
				Preconditions: []string{"bridge_connected"},
			}, status),
		},
	}
}
