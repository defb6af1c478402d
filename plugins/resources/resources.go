// Package resources is the built-in resources toolset: files and resources under res://.
package resources

import (
	"context"
	"fmt"
	"strings"
	"time"

	"github.com/godot-mcp/godot-mcp/plugins/internal/respath"
	"github.com/godot-mcp/godot-mcp/sdk"
)

// ResolveUIDIn is a uid:// or res:// reference.
type ResolveUIDIn struct {
	Ref string `json:"ref" description:"a uid://… or res://… reference"`
}

// ResolveUIDOut pairs the UID with its path.
type ResolveUIDOut struct {
	UID    string `json:"uid" description:"uid://… (empty when the file has none)"`
	Path   string `json:"path" description:"res://…"`
	Exists bool   `json:"exists" description:"the file exists in the project"`
}

func resolveUID(ctx context.Context, call *sdk.Call, in ResolveUIDIn) (ResolveUIDOut, error) {
	ref := strings.TrimSpace(in.Ref)
	switch {
	case strings.HasPrefix(ref, "uid://"):
	case strings.HasPrefix(ref, "res://"):
		p, err := respath.Clean(ref)
		if err != nil {
			return ResolveUIDOut{}, err
		}
		ref = p
	default:
		return ResolveUIDOut{}, sdk.Validation(fmt.Sprintf("ref %q must start with uid:// or res://", in.Ref))
	}
	return sdk.Send[ResolveUIDOut](ctx, call.Host, "cmd_resources_resolve_uid", map[string]any{"ref": ref}, 5*time.Second)
}

// Toolset is the resources toolset.
func Toolset() sdk.Toolset {
	return sdk.Toolset{
		Name:        "resources",
		Version:     "0.1.0",
		Description: "Files and resources under res://: list, search, read, create, move and delete, with references and UIDs kept intact.",
		MinGodot:    "4.4",
		Tools: []sdk.Tool{
			sdk.NewTool("resolve_uid", sdk.ToolOptions{
				Title:         "Resolve a UID",
				Description:   "Translate uid:// to res:// or back, and say whether the file exists.",
				Safety:        sdk.ReadOnly,
				Preconditions: []string{"bridge_connected"},
			}, resolveUID),
		},
	}
}
