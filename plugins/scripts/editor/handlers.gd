@tool
extends RefCounted
## Editor side of the scripts toolset (plugins/scripts), shipped with it: godot-mcp
## installs this folder as res://addons/godot_mcp_ext/scripts/ when the toolset is
## enabled, and the addon loads it as it loads any toolset's editor code.
##
## GDScript files: read and write them (one undo action each, through the core addon's
## lib/files.gd), check them with Godot's own parser in a throw-away headless Godot
## (checker.gd), attach and detach them on nodes of the edited scene.
##
## This index wires the command families (one file each, all extending common.gd):
## source.gd (list, read, write), checker.gd (the checker; validate, get_symbols),
## attach.gd (attach, detach).

const Source := preload("source.gd")
const Checker := preload("checker.gd")
const Attach := preload("attach.gd")

var _source: Source = Source.new()
var _checker: Checker = Checker.new()
var _attach: Attach = Attach.new()


func setup(router: RefCounted) -> void:
	for family: RefCounted in [_source, _checker, _attach]:
		family.call("init_family", router, _checker)


func get_commands() -> Dictionary:
	return {
		"cmd_scripts_list": {"class": "read_only", "run": _source.list},
		"cmd_scripts_read": {"class": "read_only", "run": _source.read},
		"cmd_scripts_write": {"class": "mutating", "dry_run": true, "run": _source.write},
		"cmd_scripts_validate": {"class": "read_only", "run": _checker.validate},
		"cmd_scripts_attach": {"class": "mutating", "dry_run": true, "run": _attach.attach},
		"cmd_scripts_detach": {"class": "mutating", "dry_run": true, "run": _attach.detach},
		"cmd_scripts_get_symbols": {"class": "read_only", "run": _checker.get_symbols},
	}
