@tool
extends RefCounted
## Editor handlers of the e2e suite's own toolset ("e2e"), loaded by the godot_mcp
## addon from res://addons/godot_mcp_ext/e2e/handlers.gd (the extension point).
## cmd_e2e_move_node makes one undoable edit, so the suite can prove undo/redo
## on a real edit; cmd_e2e_get_node reads a node's position back;
## cmd_e2e_frame_sleep reads or sets the editor's low-processor sleep, the way
## the editor itself does when its window gains or loses focus (a headless
## editor never does), for the latency benchmark.

var _router: Object = null


func setup(router: Object) -> void:
	_router = router


func get_commands() -> Dictionary:
	return {
		"cmd_e2e_move_node": {"class": "mutating", "run": move_node},
		"cmd_e2e_get_node": {"class": "read_only", "run": get_node_info},
		"cmd_e2e_frame_sleep": {"class": "mutating", "run": frame_sleep},
	}


## {node: "Player", position: {x, y}} -> {node, old, new}; one undo action in the
## edited scene's history.
func move_node(params: Dictionary) -> Dictionary:
	var found: Dictionary = _find(params)
	if not found.get("ok", false):
		return found["failure"]
	var node: Node2D = found["node"]
	var root: Node = found["root"]
	var decoded: Dictionary = _router.codec.decode(params.get("position"), TYPE_VECTOR2)
	if not decoded.get("ok", false):
		return _router.fail("VALIDATION_ERROR", "position: %s" % decoded.get("hint", ""))
	var old: Vector2 = node.position
	var target: Vector2 = decoded["value"]
	var ur: EditorUndoRedoManager = EditorInterface.get_editor_undo_redo()
	ur.create_action("Move %s (e2e)" % node.name, UndoRedo.MERGE_DISABLE, root)
	ur.add_do_property(node, "position", target)
	ur.add_undo_property(node, "position", old)
	ur.commit_action()
	return _router.ok({"node": str(root.get_path_to(node)), "old": old, "new": node.position})


## {node: "Player"} -> {node, type, position}
func get_node_info(params: Dictionary) -> Dictionary:
	var found: Dictionary = _find(params)
	if not found.get("ok", false):
		return found["failure"]
	var node: Node2D = found["node"]
	return _router.ok({"node": str((found["root"] as Node).get_path_to(node)), "type": node.get_class(), "position": node.position})


func _find(params: Dictionary) -> Dictionary:
	var root: Node = EditorInterface.get_edited_scene_root()
	if root == null:
		return {"ok": false, "failure": _router.fail("PRECONDITION_FAILED", "No scene is open.", "active_scene")}
	var path: Variant = params.get("node", "")
	if typeof(path) != TYPE_STRING or (path as String) == "":
		return {"ok": false, "failure": _router.fail("VALIDATION_ERROR", "node is required: a path relative to the scene root, e.g. \"Player\".")}
	var n: Node = root.get_node_or_null(NodePath(path as String))
	if not (n is Node2D):
		return {"ok": false, "failure": _router.fail("RESOURCE_NOT_FOUND", "No Node2D at '%s' in the edited scene." % path)}
	return {"ok": true, "node": n, "root": root}


## {usec?: int} -> {previous, current}: OS.low_processor_usage_mode_sleep_usec.
func frame_sleep(params: Dictionary) -> Dictionary:
	var previous: int = OS.low_processor_usage_mode_sleep_usec
	if params.has("usec"):
		var v: Variant = params["usec"]
		if typeof(v) != TYPE_INT and typeof(v) != TYPE_FLOAT:
			return _router.fail("VALIDATION_ERROR", "usec must be a number of microseconds.")
		OS.low_processor_usage_mode_sleep_usec = int(v)
	return _router.ok({"previous": previous, "current": OS.low_processor_usage_mode_sleep_usec})
