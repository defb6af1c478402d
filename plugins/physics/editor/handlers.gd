@tool
extends RefCounted
## The physics toolset's editor side: named collision layers, nodes' layers and
## masks, collision shapes and the scene's physics check. godot-mcp installs this
## folder as res://addons/godot_mcp_ext/physics/ when the toolset is enabled. Every
## command is cmd_physics_* and declares its class; each edit is one undo action.

const Common := preload("common.gd")
const Layers := preload("layers.gd")
const Shapes := preload("shapes.gd")
const Check := preload("check.gd")

var _layers: Layers = null
var _shapes: Shapes = null
var _check: Check = null


func setup(router: RefCounted) -> void:
	var c: Common = Common.new(router)
	_layers = Layers.new(c)
	_shapes = Shapes.new(c)
	_check = Check.new(c)


func get_commands() -> Dictionary:
	return {
		"cmd_physics_get_layers": {"class": "read_only", "run": _layers.get_layers},
		"cmd_physics_set_layers": {"class": "mutating", "dry_run": true, "run": _layers.set_layers},
		"cmd_physics_add_shape": {"class": "mutating", "dry_run": true, "run": _shapes.add_shape},
		"cmd_physics_check": {"class": "read_only", "run": _check.check},
	}
