// Package ui is the built-in ui toolset: Control layout and themes. It reads
// the rectangles of the edited scene's Controls as the editor laid them out
// (with anchors, offsets, size flags, minimum sizes and the problems an agent
// cannot see: zero sizes, children outside their parent, anchors under a
// Container), sets layout presets, anchors, offsets and size flags on many
// Controls in one undo action, reads and edits Theme resources and a
// Control's theme overrides. Its editor side ships as GDScript in editor/.
// docs/ui.md describes the behaviours and limits.
package ui

import (
	"embed"

	"github.com/godot-mcp/godot-mcp/plugins/internal/engines"
	"github.com/godot-mcp/godot-mcp/sdk"
)

//go:embed editor
var editorFiles embed.FS

var (
	connected   = []string{sdk.RequireBridgeConnected}
	sceneNeeded = []string{sdk.RequireBridgeConnected, sdk.RequireActiveScene}
)

// Toolset is the ui toolset.
func Toolset() sdk.Toolset {
	return sdk.Toolset{
		Name:           "ui",
		Version:        "0.1.0",
		Description:    "Control layout and themes: the laid-out rects and their problems, presets, anchors, size flags, Theme resources and theme overrides, all undoable.",
		Keywords:       []string{"Control", "Container", "anchors", "layout presets", "Theme", "theme overrides", "HUD", "menu"},
		MinGodot:       engines.MinGodot,
		MaxTestedGodot: engines.MaxTestedGodot,
		EditorCode:     sdk.Subdir(editorFiles, "editor"),
		Tools: []sdk.Tool{
			sdk.NewTool("get_layout", sdk.ToolOptions{
				Title: "Get Control layout",
				Description: "A Control of the edited scene and its Control descendants to depth, as the editor laid them out: rect, global position, anchors, offsets, grow, " +
					"layout mode, size flags, minimum sizes, whether a Container owns the layout; problems per node (zero size, outside parent, clipped, anchors under a Container). Paged.",
				Safety:        sdk.ReadOnly,
				Preconditions: sceneNeeded,
			}, getLayout),
			sdk.NewTool("set_layout", sdk.ToolOptions{
				Title: "Set Control layout",
				Description: "Sets the layout of several Controls in ONE undo action: a preset (as the editor's Layout menu), or anchors/offsets, grow, size flags, stretch ratio, " +
					"custom minimum size. Under a Container, anchors and presets are refused (use size flags). Answers the rects after layout. All or nothing.",
				Safety:        sdk.Mutating,
				Preconditions: sceneNeeded,
			}, setLayout),
			sdk.NewTool("theme_get", sdk.ToolOptions{
				Title: "Get a Theme",
				Description: "A Theme (a .tres, a Control's theme, or the project's gui/theme/custom): defaults, type variations, items per type by data type (styleboxes as {class, properties}). " +
					"With node: also its overrides and the effective values of its type's items.",
				Safety:        sdk.ReadOnly,
				Preconditions: connected,
			}, themeGet),
			sdk.NewTool("theme_edit", sdk.ToolOptions{
				Title: "Edit a Theme file",
				Description: "Sets and removes items of a Theme .tres (created when missing), type variations and defaults, all or nothing, saved; ONE undo action in the global history. " +
					"Values: colors/numbers as the codec, fonts/icons res:// paths, styleboxes {class, properties}.",
				Safety:        sdk.Mutating,
				Preconditions: connected,
			}, themeEdit),
			sdk.NewTool("set_theme_overrides", sdk.ToolOptions{
				Title:         "Set theme overrides",
				Description:   "Adds and removes a Control's theme overrides in ONE undo action; names are checked against the items its theme type has (did-you-mean), values typed per data type.",
				Safety:        sdk.Mutating,
				Preconditions: sceneNeeded,
			}, setOverrides),
		},
	}
}
