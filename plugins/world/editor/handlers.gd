@tool
extends RefCounted
## The world toolset's editor side: the 3D environment (WorldEnvironment, Sky, sun),
## lights, cameras, primitive meshes, CSG shapes, GI nodes and bakes, and a read-back
## of the scene's 3D world. godot-mcp installs this folder as
## res://addons/godot_mcp_ext/world/ when the toolset is enabled. Every command is
## cmd_world_* and declares its class; each edit is one undo action.

const Common := preload("common.gd")
const Env := preload("environment.gd")
const Nodes3D := preload("nodes3d.gd")
const Geometry := preload("geometry.gd")
const GI := preload("gi.gd")
const Describe := preload("describe.gd")

var _env: Env = null
var _nodes: Nodes3D = null
var _geo: Geometry = null
var _gi: GI = null
var _describe: Describe = null


func setup(router: RefCounted) -> void:
	var c: Common = Common.new(router)
	_env = Env.new(c)
	_nodes = Nodes3D.new(c)
	_geo = Geometry.new(c)
	_gi = GI.new(c)
	_describe = Describe.new(c)


func get_commands() -> Dictionary:
	return {
		"cmd_world_set_environment": {"class": "mutating", "dry_run": true, "run": _env.set_environment},
		"cmd_world_set_light": {"class": "mutating", "dry_run": true, "run": _nodes.set_light},
		"cmd_world_set_camera": {"class": "mutating", "dry_run": true, "run": _nodes.set_camera},
		"cmd_world_add_mesh": {"class": "mutating", "dry_run": true, "run": _geo.add_mesh},
		"cmd_world_add_csg": {"class": "mutating", "dry_run": true, "run": _geo.add_csg},
		"cmd_world_add_gi": {"class": "mutating", "dry_run": true, "run": _gi.add_gi},
		"cmd_world_bake": {"class": "mutating", "dry_run": true, "run": _gi.bake},
		"cmd_world_describe": {"class": "read_only", "run": _describe.describe},
	}
