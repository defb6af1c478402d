package scripts

import (
	"embed"
)

// The scripts toolset's editor code: editor/handlers.gd (the index the addon loads) and
// the command families it preloads. It is shipped the way a third-party toolset
// ships its own (sdk.Toolset.EditorCode): installed into the project as
// res://addons/godot_mcp_ext/scripts/ when the toolset is enabled.
//
//go:embed editor
var editorFiles embed.FS
