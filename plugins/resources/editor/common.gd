@tool
extends RefCounted
## What the resources toolset's command families share (each extends this script): the
## router and the limits. File helpers come from the core addon's lib/files.gd, as any
## extension's would.

const CommandRouter := preload("res://addons/godot_mcp/command_router.gd")
const PathGuard := preload("res://addons/godot_mcp/path_guard.gd")
const Params := preload("res://addons/godot_mcp/lib/params.gd")
const Files := preload("res://addons/godot_mcp/lib/files.gd")
const Codec := preload("res://addons/godot_mcp/lib/codec.gd")
const SubPath := preload("res://addons/godot_mcp/lib/subpath.gd")

## How long godot_resources_rescan lets a scan already under way end before its own.
const RESCAN_WAIT_MS: int = 5000

## How long set_properties looks for the files that use the one it changes (used_by).
const USERS_BUDGET_MS: int = 2000
## Text files search looks into (by extension).
const SEARCH_EXTENSIONS := ["gd", "gdshader", "gdshaderinc", "tscn", "tres", "godot", "cfg", "json", "txt", "md", "csv", "xml", "yml", "yaml", "toml", "ini", "cs", "import", "gdextension", "html", "svg"]
## Search skips text files larger than this.
const MAX_SEARCH_FILE_BYTES := 2 * 1024 * 1024
## A property value larger than this (as JSON) is left out of a read unless asked for.
const MAX_READ_VALUE_CHARS := 65536

var _router: CommandRouter = null


## Wires this family to the router (called by handlers.gd).
func init_family(router: CommandRouter) -> void:
	_router = router
