extends RefCounted
## The navigation toolset's game side (sdk.Toolset.GameCode): installed with its editor
## code as res://addons/godot_mcp_ext/navigation/game/ and loaded by the runtime probe
## when a game starts. "navigation:path" asks the running game's own navigation map
## (the root viewport's World2D/World3D) for a path; the editor side
## (editor/query.gd, cmd_navigation_game_path) checks the request and shapes the answer.

var _api: RefCounted = null


func setup(api: RefCounted) -> void:
	_api = api


func get_messages() -> Dictionary:
	return {"path": _path}


## {from, to: Vector2 | Vector3, layers: int, optimize: bool} ->
## {points: [[x, y(, z)]], iteration, regions, debug_navigation}
func _path(params: Dictionary) -> Dictionary:
	var from: Variant = params.get("from")
	var to: Variant = params.get("to")
	var three: bool = from is Vector3 and to is Vector3
	if not three and not (from is Vector2 and to is Vector2):
		return _api.call("fail", "VALIDATION_ERROR", "from and to must both be Vector2 or both Vector3.")
	var bits: int = int(params.get("layers", 0xFFFFFFFF))
	var optimize: bool = bool(params.get("optimize", true))
	var tree: SceneTree = Engine.get_main_loop() as SceneTree
	var pts: Array = []
	var iteration: int = 0
	var regions: int = 0
	if three:
		var map3: RID = tree.root.get_world_3d().navigation_map
		for p: Vector3 in NavigationServer3D.map_get_path(map3, from, to, optimize, bits):
			pts.append([p.x, p.y, p.z])
		iteration = NavigationServer3D.map_get_iteration_id(map3)
		regions = NavigationServer3D.map_get_regions(map3).size()
	else:
		var map2: RID = tree.root.get_world_2d().navigation_map
		for p: Vector2 in NavigationServer2D.map_get_path(map2, from, to, optimize, bits):
			pts.append([p.x, p.y])
		iteration = NavigationServer2D.map_get_iteration_id(map2)
		regions = NavigationServer2D.map_get_regions(map2).size()
	return _api.call("ok", {"points": pts, "iteration": iteration, "regions": regions, "debug_navigation": tree.debug_navigation_hint})
