@tool
extends RefCounted
## The navigation toolset's editor side: navigation regions, agents and links, named
## navigation layers, baking navigation meshes and polygons, path queries on the baked
## data (in the editor, and in the running game through the runtime toolset's probe)
## and the navigation debug drawing of games run from the editor. godot-mcp installs
## this folder as res://addons/godot_mcp_ext/navigation/ when the toolset is enabled.
## Every command is cmd_navigation_* and declares its class; each edit is one undo action.

const Common := preload("common.gd")
const Setup := preload("setup.gd")
const Bake := preload("bake.gd")
const Query := preload("query.gd")

var _setup: Setup = null
var _bake: Bake = null
var _query: Query = null


func setup(router: RefCounted) -> void:
	var c: Common = Common.new(router)
	_setup = Setup.new(c)
	_bake = Bake.new(c)
	_query = Query.new(c)


func get_commands() -> Dictionary:
	return {
		"cmd_navigation_get": {"class": "read_only", "run": _setup.get_setup},
		"cmd_navigation_set_layers": {"class": "mutating", "dry_run": true, "run": _setup.set_layers},
		"cmd_navigation_configure": {"class": "mutating", "dry_run": true, "run": _setup.configure},
		"cmd_navigation_bake": {"class": "mutating", "dry_run": true, "run": _bake.bake},
		"cmd_navigation_path": {"class": "read_only", "run": _query.editor_path},
		"cmd_navigation_game_path": {"class": "runtime", "run": _query.game_path},
		"cmd_navigation_debug": {"class": "mutating", "dry_run": true, "run": _query.set_debug},
	}
