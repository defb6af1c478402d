@tool
extends RefCounted
## Editor side of the resources toolset (plugins/resources), shipped with it: godot-mcp
## installs this folder as res://addons/godot_mcp_ext/resources/ when the toolset is
## enabled, and the addon loads it as it loads any toolset's editor code.
##
## Files and resources under res://. Every file change is a list of operations applied
## as ONE action in the editor's global undo history, through the core addon's
## lib/files.gd (shared with the scripts toolset and any extension).
##
## This index wires the command families (one file each, all extending common.gd):
## browse.gd (list, search, read), edit.gd (create, set_properties), move.gd (move,
## delete), deps.gd (dependencies, UIDs, rescan, reimport).

const Browse := preload("browse.gd")
const Edit := preload("edit.gd")
const Move := preload("move.gd")
const Deps := preload("deps.gd")

var _browse: Browse = Browse.new()
var _edit: Edit = Edit.new()
var _move: Move = Move.new()
var _deps: Deps = Deps.new()


func setup(router: RefCounted) -> void:
	for family: RefCounted in [_browse, _edit, _move, _deps]:
		family.call("init_family", router)


func get_commands() -> Dictionary:
	return {
		"cmd_resources_list": {"class": "read_only", "run": _browse.list},
		"cmd_resources_search": {"class": "read_only", "run": _browse.search},
		"cmd_resources_read": {"class": "read_only", "run": _browse.read},
		"cmd_resources_create": {"class": "mutating", "dry_run": true, "run": _edit.create},
		"cmd_resources_write_image": {"class": "mutating", "dry_run": true, "run": _edit.write_image},
		"cmd_resources_set_properties": {"class": "mutating", "dry_run": true, "run": _edit.set_properties},
		"cmd_resources_move": {"class": "mutating", "dry_run": true, "run": _move.move},
		"cmd_resources_delete": {"class": "destructive", "dry_run": true, "run": _move.delete},
		"cmd_resources_get_dependencies": {"class": "read_only", "run": _deps.get_dependencies},
		"cmd_resources_resolve_uid": {"class": "read_only", "run": _deps.resolve_uid},
		"cmd_resources_rescan": {"class": "read_only", "run": _deps.rescan},
		"cmd_resources_reimport": {"class": "mutating", "dry_run": true, "run": _deps.reimport},
	}
