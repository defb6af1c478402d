// Package addon embeds the Godot editor addon (the GDScript files under this
// directory) so that `godot-mcp addon install` always installs the addon that
// matches the binary. The files land in a project as res://addons/godot_mcp/.
package addon

import "embed"

// FS holds the addon's files, rooted at the addon directory: "plugin.cfg",
// "plugin.gd", "handlers/core_handlers.gd", … Only addon files are embedded
// (no Go sources, tests or tooling).
//
//go:embed plugin.cfg *.gd handlers/*.gd runtime/*.gd lib/*.gd
var FS embed.FS

// Version is the addon's version; it mirrors `version=` in plugin.cfg (a test
// keeps them equal) and follows the server's CalVer build version.
const Version = "2026.11.29"

// InstallDir is where the addon lives inside a Godot project, relative to the
// project directory (res://addons/godot_mcp/).
const InstallDir = "addons/godot_mcp"

// PluginCfgResPath is the res:// path Godot lists in [editor_plugins] enabled.
const PluginCfgResPath = "res://addons/godot_mcp/plugin.cfg"
