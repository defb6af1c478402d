@tool
extends RefCounted
## The assets toolset's editor side (plugins/assets): files copied in from outside the
## project and imported, and the import options of imported files (.import [params])
## read and set by name. godot-mcp installs this folder as
## res://addons/godot_mcp_ext/assets/ when the toolset is enabled. Every command is
## cmd_assets_* and declares its class.

const Common := preload("common.gd")
const Importing := preload("importing.gd")
const Options := preload("options.gd")

var _importing: Importing = null
var _options: Options = null


func setup(router: RefCounted) -> void:
	var c: Common = Common.new(router)
	_importing = Importing.new(c)
	_options = Options.new(c)


func get_commands() -> Dictionary:
	return {
		"cmd_assets_import": {"class": "mutating", "dry_run": true, "run": _importing.import_files},
		"cmd_assets_status": {"class": "read_only", "run": _importing.status},
		"cmd_assets_finish": {"class": "mutating", "dry_run": true, "run": _importing.finish},
		"cmd_assets_get_options": {"class": "read_only", "run": _options.get_options},
		"cmd_assets_set_options": {"class": "mutating", "dry_run": true, "run": _options.set_options},
	}
