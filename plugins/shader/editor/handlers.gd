@tool
extends RefCounted
## The shader toolset's editor side: writing shader files and reading and setting
## ShaderMaterial parameters. godot-mcp installs this folder as
## res://addons/godot_mcp_ext/shader/ when the toolset is enabled. Compiling for
## validation happens in a separate headless Godot (the Go side), not here.

const Write := preload("write.gd")
const Params := preload("params.gd")

var _write: Write = null
var _params: Params = null


func setup(router: RefCounted) -> void:
	_write = Write.new(router)
	_params = Params.new(router)


func get_commands() -> Dictionary:
	return {
		"cmd_shader_write": {"class": "mutating", "dry_run": true, "run": _write.write},
		"cmd_shader_get_params": {"class": "read_only", "run": _params.get_params},
		"cmd_shader_set_params": {"class": "mutating", "dry_run": true, "run": _params.set_params},
	}
