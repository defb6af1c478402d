extends RefCounted
## The playtest digest: the live scene at a glance for an agent, without a
## screenshot. Owned by playtest.gd (godot_playtest_digest); it keeps the positions
## of the last digest to tell which nodes moved since.

const PlaytestUI := preload("playtest_ui.gd")



## Global positions seen by the last digest: instance id -> position, for "moving".
var _last_positions: Dictionary = {}


static func _velocity(n: Node) -> Variant:
	if n is CharacterBody2D:
		return (n as CharacterBody2D).velocity
	if n is RigidBody2D:
		return (n as RigidBody2D).linear_velocity
	if n is CharacterBody3D:
		return (n as CharacterBody3D).velocity
	if n is RigidBody3D:
		return (n as RigidBody3D).linear_velocity
	return null


static func _vec_list(v: Variant) -> Array:
	if v is Vector2:
		return [snappedf((v as Vector2).x, 0.01), snappedf((v as Vector2).y, 0.01)]
	if v is Vector3:
		return [snappedf((v as Vector3).x, 0.01), snappedf((v as Vector3).y, 0.01), snappedf((v as Vector3).z, 0.01)]
	return []


## {groups?, max_nodes?} -> the scene at a glance: the nodes of interest (visible
## Node2D/Node3D that are bodies, in the given groups, scripted, or moved since the last
## digest) with position and velocity, and the visible UI texts.
func build(tree: SceneTree, probe: Node, ui: PlaytestUI, params: Dictionary) -> Dictionary:
	var groups: Array = params.get("groups", []) if typeof(params.get("groups")) == TYPE_ARRAY else []
	var most: int = clampi(int(params.get("max_nodes", 40)), 1, 500)
	var scene: Node = tree.current_scene
	var from: Node = scene if scene != null else tree.root
	var seen: Dictionary = {}
	var picked: Array = []
	var stack: Array[Node] = [from]
	var visited: int = 0
	while not stack.is_empty() and visited < 20000:
		var n: Node = stack.pop_back()
		visited += 1
		var kids: Array[Node] = n.get_children()
		for i: int in range(kids.size() - 1, -1, -1):
			stack.append(kids[i])
		if not (n is Node2D or n is Node3D) or n == probe:
			continue
		var visible: bool = false
		var pos: Variant = null
		if n is Node2D:
			visible = (n as Node2D).is_visible_in_tree()
			pos = (n as Node2D).global_position
		else:
			visible = (n as Node3D).is_visible_in_tree()
			pos = (n as Node3D).global_position
		var key: int = n.get_instance_id()
		seen[key] = pos
		var in_groups: PackedStringArray = []
		for g: Variant in groups:
			if n.is_in_group(StringName(str(g))):
				in_groups.append(str(g))
		var vel: Variant = _velocity(n)
		var speed: float = 0.0
		if vel is Vector2:
			speed = (vel as Vector2).length()
		elif vel is Vector3:
			speed = (vel as Vector3).length()
		var moving: bool = (_last_positions.has(key) and _last_positions[key] != pos) or speed > 0.0
		var body: bool = n is PhysicsBody2D or n is PhysicsBody3D
		if not in_groups.is_empty() or ((visible) and (body or moving or n.get_script() != null)):
			var rank: int = 0 if not in_groups.is_empty() else (1 if moving else (2 if body else 3))
			var e: Dictionary = {"path": str(n.get_path()), "class": n.get_class(), "position": _vec_list(pos), "moving": moving, "visible": visible}
			if vel != null:
				e["velocity"] = _vec_list(vel)
			if not in_groups.is_empty():
				e["groups"] = in_groups
			picked.append([rank, picked.size(), e])
	_last_positions = seen
	picked.sort_custom(func(a: Array, b: Array) -> bool: return a[0] < b[0] or (a[0] == b[0] and a[1] < b[1]))
	var nodes: Array = []
	for p: Array in picked.slice(0, most):
		nodes.append(p[2])
	var texts: Array = []
	for c: Control in ui.all_controls(tree.root):
		if texts.size() >= 50:
			break
		if c.is_visible_in_tree():
			var t: String = PlaytestUI.text_of(c).strip_edges()
			if t != "":
				texts.append({"path": str(c.get_path()), "text": t.substr(0, 80)})
	return {
		"scene": scene.scene_file_path if scene != null else "",
		"frame": Engine.get_process_frames(),
		"frozen": bool(probe.get("frozen")),
		"nodes": nodes,
		"total": picked.size(),
		"truncated": picked.size() > nodes.size(),
		"texts": texts,
	}
