extends RefCounted
## The hello toolset's game side. godot-mcp installs this folder into the project as
## res://addons/godot_mcp_ext/hello/game/ with the editor code when the toolset is
## enabled. When a game starts from the editor with the runtime toolset's probe in it,
## the probe loads this file and registers its messages as "hello:<name>"; a runtime
## tool reaches them with sdk.GameMessage (main.go), and the toolset's editor code with
## the addon's lib/game_messages.gd (../handlers.gd). Not @tool: it runs in the game.

var _api: RefCounted = null


## [param api] is the probe's game-code loader: api.ok(result), api.fail(code, hint),
## api.probe (the probe Node), api.codec (the value codec).
func setup(api: RefCounted) -> void:
	_api = api


func get_messages() -> Dictionary:
	return {"ping": _ping}


## {} -> {frame, physics_frame, scene}: the game's frame counts and its current scene.
func _ping(_params: Dictionary) -> Dictionary:
	var tree: SceneTree = Engine.get_main_loop() as SceneTree
	var scene: Node = tree.current_scene
	return _api.call("ok", {
		"frame": Engine.get_process_frames(),
		"physics_frame": Engine.get_physics_frames(),
		"scene": scene.scene_file_path if scene != null else "",
	})
