@tool
extends RefCounted
## The particles toolset's editor side: particles nodes created from presets,
## edited and read by friendly parameter names, converted CPU<->GPU and restarted.
## godot-mcp installs this folder as res://addons/godot_mcp_ext/particles/ when the
## toolset is enabled. Every command is cmd_particles_* and declares its class;
## each edit is one undo action.

const Common := preload("common.gd")
const Edit := preload("edit.gd")
const Build := preload("build.gd")

var _edit: Edit = null
var _build: Build = null


func setup(router: RefCounted) -> void:
	var c: Common = Common.new(router)
	_edit = Edit.new(c)
	_build = Build.new(c)


func get_commands() -> Dictionary:
	return {
		"cmd_particles_create": {"class": "mutating", "dry_run": true, "run": _build.create},
		"cmd_particles_set": {"class": "mutating", "dry_run": true, "run": _edit.set_params},
		"cmd_particles_get": {"class": "read_only", "run": _edit.get_params},
		"cmd_particles_convert": {"class": "mutating", "dry_run": true, "run": _build.convert_node},
		"cmd_particles_restart": {"class": "mutating", "dry_run": true, "run": _edit.restart},
	}
