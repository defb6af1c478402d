@tool
extends RefCounted
## The hello toolset's editor side. godot-mcp installs this folder into the
## project as res://addons/godot_mcp_ext/hello/ when the toolset is enabled, and
## the addon loads it without a plugin toggle. Every command is cmd_hello_* and
## declares its class; the host lets the hello toolset send only these (and a
## small read-only set of core commands), within its tools' classes.

var _router: RefCounted = null


func setup(router: RefCounted) -> void:
	_router = router


func get_commands() -> Dictionary:
	return {
		"cmd_hello_wave": {"class": "read_only", "run": _wave},
	}


## {to?: String} -> {wave, scene}: a greeting made in the editor, naming the open scene.
func _wave(params: Dictionary) -> Dictionary:
	var to: Variant = params.get("to", "")
	if typeof(to) != TYPE_STRING:
		return _router.call("fail", "VALIDATION_ERROR", "to must be a string.")
	var root: Node = EditorInterface.get_edited_scene_root()
	var scene: String = root.scene_file_path if root != null else ""
	var who: String = str(to) if str(to) != "" else "editor"
	return _router.call("ok", {"wave": "Hello from the Godot editor, %s!" % who, "scene": scene})
