@tool
extends RefCounted
## The hello toolset's editor side. godot-mcp installs this folder into the
## project as res://addons/godot_mcp_ext/hello/ when the toolset is enabled, and
## the addon loads it without a plugin toggle. Every command is cmd_hello_* and
## declares its class; the host lets the hello toolset send only these (and a
## small read-only set of core commands), within its tools' classes.

## How editor code reaches the toolset's game code (game/game.gd) in the running game.
const GameMessages := preload("res://addons/godot_mcp/lib/game_messages.gd")

var _router: RefCounted = null


func setup(router: RefCounted) -> void:
	_router = router


func get_commands() -> Dictionary:
	return {
		"cmd_hello_wave": {"class": "read_only", "run": _wave},
		# Reaches the running game: only a runtime command may (and only a runtime tool sends it).
		"cmd_hello_ping_via_editor": {"class": "runtime", "run": _ping_via_editor},
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


## {} -> {frame, physics_frame, scene, editor_scene}: the game's "hello:ping" answer,
## asked from the editor, with the scene open in the editor beside it.
func _ping_via_editor(_params: Dictionary) -> Dictionary:
	var r: Dictionary = await GameMessages.ask_from(_router, "cmd_hello_ping_via_editor", "ping", {}, 5000)
	if not bool(r.get("ok", false)):
		return r
	var out: Dictionary = r["result"]
	var root: Node = EditorInterface.get_edited_scene_root()
	out["editor_scene"] = root.scene_file_path if root != null else ""
	return _router.call("ok", out)
