// Package scene is the built-in scene toolset: the edited scenes and their nodes.
package scene

import (
	"context"
	"time"

	"github.com/godot-mcp/godot-mcp/sdk"
)

// OpenScene is one open scene tab.
type OpenScene struct {
	Path   string `json:"path" description:"res:// path of the scene file (empty for a never-saved scene)"`
	Dirty  bool   `json:"dirty" description:"has unsaved changes"`
	Active bool   `json:"active" description:"is the edited scene"`
}

// ListOpenIn takes no arguments.
type ListOpenIn struct{}

// ListOpenOut lists the open scene tabs.
type ListOpenOut struct {
	Scenes []OpenScene `json:"scenes"`
	Active string      `json:"active" description:"path of the edited scene, empty when none"`
}

func listOpen(ctx context.Context, call *sdk.Call, _ ListOpenIn) (ListOpenOut, error) {
	out, err := sdk.Send[ListOpenOut](ctx, call.Host, "cmd_scene_list_open", nil, 5*time.Second)
	if out.Scenes == nil {
		out.Scenes = []OpenScene{}
	}
	return out, err
}

// Toolset is the scene toolset.
func Toolset() sdk.Toolset {
	return sdk.Toolset{
		Name:        "scene",
		Version:     "0.1.0",
		Description: "Scenes and nodes: read the tree, create, edit, move and delete nodes, save scenes, all undoable.",
		MinGodot:    "4.4",
		Tools: []sdk.Tool{
			sdk.NewTool("list_open", sdk.ToolOptions{
				Title:         "List open scenes",
				Description:   "The editor's open scene tabs with their unsaved-changes flags, and which one is being edited.",
				Safety:        sdk.ReadOnly,
				Preconditions: []string{"bridge_connected"},
			}, listOpen),
		},
	}
}
