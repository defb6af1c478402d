// Package project is the built-in project toolset: project settings, the
// input map and autoloads, all saved to project.godot and undoable in the
// editor.
//
// The Go side checks the shape of every argument before anything reaches the
// editor (keys, action names, event shapes, paths); the editor side (the
// toolset's own GDScript in editor/, installed into the project as
// res://addons/godot_mcp_ext/project/ like any toolset's editor code) types
// values through the value codec using each setting's own type, applies the
// change as one undo action, saves project.godot and reads the file back to
// report `persisted` honestly. docs/project.md documents the behaviour and the input event shape.
package project

import (
	"embed"
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/godot-mcp/godot-mcp/plugins/internal/engines"
	"github.com/godot-mcp/godot-mcp/sdk"
)

// Timeouts of the editor commands: reads are quick; edits save project.godot
// and read it back.
const (
	readTimeout = 10 * time.Second
	editTimeout = 20 * time.Second
)

// Toolset is the project toolset.
func Toolset() sdk.Toolset {
	bridge := []string{sdk.RequireBridgeConnected}
	return sdk.Toolset{
		Name:           "project",
		Version:        "0.2.0",
		Description:    "Project settings, the input map and autoloads, saved to project.godot.",
		Keywords:       []string{"project.godot", "ProjectSettings", "input map", "InputEvent", "autoload", "singleton"},
		MinGodot:       engines.MinGodot,
		MaxTestedGodot: engines.MaxTestedGodot,
		Tools: []sdk.Tool{
			sdk.NewTool("get_settings", sdk.ToolOptions{
				Title:         "Get project settings",
				Description:   "Project settings by exact key or by prefix (sorted, paginated with cursor), in the value codec's JSON shapes. Unknown keys come back in missing with did-you-mean. with_info adds type, hint_string, default and restart_required.",
				Safety:        sdk.ReadOnly,
				Preconditions: bridge,
			}, getSettings),
			sdk.NewTool("set_settings", sdk.ToolOptions{
				Title:         "Set project settings",
				Description:   "Sets several project settings as ONE undo action and saves project.godot. Values are typed by each setting's type (never coerced); unknown keys are refused with a did-you-mean unless create: true; reset restores defaults. Returns old and new values. Input actions and autoloads have their own tools.",
				Safety:        sdk.Mutating,
				Preconditions: bridge,
			}, setSettings),
			sdk.NewTool("list_actions", sdk.ToolOptions{
				Title: "List input actions",
				Description: "The input map: actions with deadzone and full events (keys, mouse buttons, joypad buttons and axes, in the shape of godot://docs/project). " +
					"Built-in ui_* actions only with include_builtin. Paginated with cursor.",
				Safety:        sdk.ReadOnly,
				Preconditions: bridge,
			}, listActions),
			sdk.NewTool("set_action", sdk.ToolOptions{
				Title:         "Create or change an input action",
				Description:   "Creates or changes an input action: events replaces its event list; add_events and remove_events edit it; deadzone. Events are keys (logical or physical keycode), mouse buttons, joypad buttons and axes (godot://docs/project). One undo action, saved to project.godot.",
				Safety:        sdk.Mutating,
				Preconditions: bridge,
			}, setAction),
			sdk.NewTool("remove_action", sdk.ToolOptions{
				Title:         "Remove an input action",
				Description:   "Removes an input action and its events from the input map (one undo action, saved to project.godot). Built-in ui_* actions cannot be removed; clear their events with set_action instead.",
				Safety:        sdk.Destructive,
				Preconditions: bridge,
			}, removeAction),
			sdk.NewTool("list_autoloads", sdk.ToolOptions{
				Title:         "List autoloads",
				Description:   "The project's autoloads in load order: name, res:// path, and whether the name is a global variable (singleton).",
				Safety:        sdk.ReadOnly,
				Preconditions: bridge,
			}, listAutoloads),
			sdk.NewTool("add_autoload", sdk.ToolOptions{
				Title:         "Add an autoload",
				Description:   "Registers a script (extending Node) or a scene as an autoload, last or at index, as a global variable unless singleton: false; usable in scripts at once. One undo action, saved to project.godot.",
				Safety:        sdk.Mutating,
				RunsCode:      true, // an autoload runs in every game, and in the editor when it is a @tool script
				Preconditions: bridge,
			}, addAutoload),
			sdk.NewTool("remove_autoload", sdk.ToolOptions{
				Title:         "Remove an autoload",
				Description:   "Unregisters an autoload (the script or scene file stays); the others keep their order. One undo action, saved to project.godot. Needs confirm: true.",
				Safety:        sdk.Destructive,
				Preconditions: bridge,
			}, removeAutoload),
		},
		EditorCode: sdk.Subdir(editorFiles, "editor"),
	}
}

// The editor side: editor/handlers.gd (the index the addon loads) and the
// command families it preloads.
//
//go:embed editor
var editorFiles embed.FS

// checkCursor accepts "" or a cursor returned by a previous call (an offset).
func checkCursor(c string) error {
	if c == "" {
		return nil
	}
	n, err := strconv.Atoi(c)
	if err != nil || n < 0 || strconv.Itoa(n) != c {
		return sdk.Validation(fmt.Sprintf("cursor %q is not one this tool returned; pass next_cursor from the previous page, or omit cursor to start at the beginning", c))
	}
	return nil
}

// badKeyChars are characters that never occur in a setting key and would
// corrupt project.godot.
const badKeyChars = "=[]\"\n\r;\\"

// checkSettingKey checks the syntax of a project setting key.
func checkSettingKey(where, key string) error {
	switch {
	case key == "":
		return sdk.Validation(where + ": a setting key cannot be empty (e.g. application/config/name)")
	case strings.TrimSpace(key) != key:
		return sdk.Validation(fmt.Sprintf("%s: setting key %q has leading or trailing spaces", where, key))
	case strings.ContainsAny(key, badKeyChars):
		return sdk.Validation(fmt.Sprintf("%s: setting key %q contains one of = [ ] \" ; \\ or a line break, which no setting key has", where, key))
	case !strings.Contains(key, "/") || strings.HasPrefix(key, "/") || strings.HasSuffix(key, "/") || strings.Contains(key, "//"):
		return sdk.Validation(fmt.Sprintf("%s: setting key %q must be section/name, e.g. application/config/name or display/window/size/viewport_width", where, key))
	}
	return nil
}

// ownedByOtherTool refuses keys that other tools of this toolset own.
func ownedByOtherTool(where, key string) error {
	switch {
	case strings.HasPrefix(key, "input/"):
		return sdk.Validation(fmt.Sprintf("%s: %q is an input action; use godot_project_set_action / godot_project_remove_action (events need their own shape)", where, key))
	case strings.HasPrefix(key, "autoload/"):
		return sdk.Validation(fmt.Sprintf("%s: %q is an autoload; use godot_project_add_autoload / godot_project_remove_autoload (they keep the load order and register it in the editor)", where, key))
	}
	return nil
}

// nonNil returns s, or an empty slice for nil, so results carry [] not null.
func nonNil[T any](s []T) []T {
	if s == nil {
		return []T{}
	}
	return s
}
