@tool
extends RefCounted
## The visual_shader toolset's editor side: VisualShader graphs from and to a compact
## spec, the node catalog with ports, and the project's global shader uniforms.
## godot-mcp installs this folder as res://addons/godot_mcp_ext/visual_shader/ when the
## toolset is enabled. Compiling for validation happens in a separate headless Godot
## (the Go side).

const Common := preload("common.gd")
const Graph := preload("graph.gd")
const Catalog := preload("catalog.gd")
const Globals := preload("globals.gd")

var _graph: Graph = null
var _catalog: Catalog = null
var _globals: Globals = null


func setup(router: RefCounted) -> void:
	var c: Common = Common.new(router)
	_graph = Graph.new(c)
	_catalog = Catalog.new(c)
	_globals = Globals.new(c)


func get_commands() -> Dictionary:
	return {
		"cmd_visual_shader_create": {"class": "mutating", "dry_run": true, "run": _graph.create},
		"cmd_visual_shader_get": {"class": "read_only", "run": _graph.get_graph},
		"cmd_visual_shader_edit": {"class": "mutating", "dry_run": true, "run": _graph.edit},
		"cmd_visual_shader_catalog": {"class": "read_only", "run": _catalog.catalog},
		"cmd_visual_shader_globals_list": {"class": "read_only", "run": _globals.list},
		"cmd_visual_shader_globals_set": {"class": "mutating", "dry_run": true, "run": _globals.set_globals},
	}
