@tool
extends RefCounted
## The material toolset's editor side: materials built from PBR texture sets,
## parameters by name, material slots of nodes and their read-back. godot-mcp
## installs this folder as res://addons/godot_mcp_ext/material/ when the toolset
## is enabled. Every command is cmd_material_* and declares its class; each edit
## is one undo action.

const Common := preload("common.gd")
const Build := preload("build.gd")
const Edit := preload("edit.gd")

var _build: Build = null
var _edit: Edit = null


func setup(router: RefCounted) -> void:
	var c: Common = Common.new(router)
	_build = Build.new(c)
	_edit = Edit.new(c)


func get_commands() -> Dictionary:
	return {
		"cmd_material_create": {"class": "mutating", "dry_run": true, "run": _build.create},
		"cmd_material_set_params": {"class": "mutating", "dry_run": true, "run": _edit.set_params},
		"cmd_material_assign": {"class": "mutating", "dry_run": true, "run": _edit.assign},
		"cmd_material_get": {"class": "read_only", "run": _edit.get_materials},
	}
