@tool
extends RefCounted
## check: problems of the edited scene's physics setup, each with the node path and
## a fix: bodies without shapes, empty, disabled or orphan shape nodes, non-uniform
## scale, concave shapes on moving bodies, layer or mask 0, areas not monitoring,
## bits on unnamed layers (when the project names some).

const Common := preload("common.gd")

var c: Common = null


func _init(common: Common) -> void:
	c = common


static func _is_shape_node(n: Node) -> bool:
	return n is CollisionShape2D or n is CollisionShape3D or n is CollisionPolygon2D or n is CollisionPolygon3D


static func _moving(body: Node) -> bool:
	if body is CharacterBody2D or body is CharacterBody3D:
		return true
	if body is RigidBody2D:
		return not ((body as RigidBody2D).freeze and (body as RigidBody2D).freeze_mode == RigidBody2D.FREEZE_MODE_STATIC)
	if body is RigidBody3D:
		return not ((body as RigidBody3D).freeze and (body as RigidBody3D).freeze_mode == RigidBody3D.FREEZE_MODE_STATIC)
	return false


static func _non_uniform(n: Node) -> bool:
	if n is Node3D:
		var s: Vector3 = (n as Node3D).scale.abs()
		return not (is_equal_approx(s.x, s.y) and is_equal_approx(s.y, s.z))
	if n is Node2D:
		var s2: Vector2 = (n as Node2D).scale.abs()
		return not is_equal_approx(s2.x, s2.y)
	return false


## {offset, limit} -> {scene, bodies, shapes, total, problems[], next_offset}
func check(params: Dictionary) -> Dictionary:
	var root: Node = EditorInterface.get_edited_scene_root()
	if root == null:
		return c.no_scene()
	var offset: int = int(params.get("offset", 0))
	var limit: int = int(params.get("limit", 200))
	var all: Array[Node] = []
	Common.walk(root, all)
	var names: Dictionary = {"2d": Common.names("2d"), "3d": Common.names("3d")}
	var problems: Array = []
	var bodies: int = 0
	var shapes: int = 0
	for n: Node in all:
		var path: String = Common.rel(root, n)
		if n is CollisionObject2D or n is CollisionObject3D:
			bodies += 1
			_check_body(n, path, names[Common.dim(n)], problems)
		elif _is_shape_node(n):
			shapes += 1
			_check_shape(n, path, problems)
	var page: Array = problems.slice(offset, offset + limit)
	return c.ok({"scene": root.scene_file_path, "bodies": bodies, "shapes": shapes, "total": problems.size(), "problems": page,
		"next_offset": offset + limit if offset + limit < problems.size() else -1})


static func _add(out: Array, code: String, severity: String, path: String, message: String, fix: String) -> void:
	out.append({"code": code, "severity": severity, "path": path, "message": message, "fix": fix})


func _check_body(n: Node, path: String, all: PackedStringArray, out: Array) -> void:
	var d: String = Common.dim(n)
	var shape_cls: String = "CollisionShape3D" if d == "3d" else "CollisionShape2D"
	var has: int = 0
	var enabled: int = 0
	for ch: Node in n.get_children():
		if _is_shape_node(ch):
			has += 1
			if not bool(ch.get("disabled")):
				enabled += 1
	if has == 0:
		_add(out, "no_shape", "error", path, "The %s has no collision shape, so it collides with nothing." % n.get_class(),
			"godot_physics_add_shape {body: \"%s\", shape: \"%s\"} (or fitted with from: a %s)." % [path, "box" if d == "3d" else "rectangle", "MeshInstance3D" if d == "3d" else "Sprite2D"])
	elif enabled == 0:
		_add(out, "disabled_shape", "warning", path, "Every collision shape of the %s is disabled, so it collides with nothing." % n.get_class(), "Set disabled = false on one of its %s children." % shape_cls)
	if _non_uniform(n):
		_add(out, "non_uniform_scale", "warning" if d == "3d" else "info", path, "The body has a non-uniform scale %s; physics bodies expect a uniform one." % str(n.get("scale")),
			"Reset its scale to 1 and change the size of its shapes instead.")
	var layer: int = int(n.get("collision_layer"))
	var mask: int = int(n.get("collision_mask"))
	var area: bool = n is Area2D or n is Area3D
	if area:
		if not bool(n.get("monitoring")):
			_add(out, "not_monitoring", "info", path, "The area's monitoring is off: it reports no body or area entering it.", "Set monitoring = true if its body_entered/area_entered signals should fire.")
		elif mask == 0:
			_add(out, "mask_zero", "warning", path, "The area monitors but its collision_mask is 0, so it detects nothing.",
				"godot_physics_set_layers {edits: [{nodes: [\"%s\"], mask: {add: [1]}}]} with the layers it should detect." % path)
	elif layer == 0:
		_add(out, "layer_zero", "warning", path, "Its collision_layer is 0: no other body or area detects it.",
			"godot_physics_set_layers {edits: [{nodes: [\"%s\"], layer: {set: [1]}}]} with the layers it is on." % path)
	if not area and _moving(n) and mask == 0:
		_add(out, "mask_zero", "warning", path, "The %s moves but its collision_mask is 0, so it collides with nothing (it falls or passes through everything)." % n.get_class(),
			"godot_physics_set_layers {edits: [{nodes: [\"%s\"], mask: {add: [1]}}]} with the layers it should hit." % path)
	if not Common.named(all).is_empty():
		var unnamed: PackedStringArray = []
		for i: int in 32:
			if (layer | mask) & (1 << i) and all[i] == "":
				unnamed.append(str(i + 1))
		if not unnamed.is_empty():
			_add(out, "unnamed_layer", "info", path, "Its layer/mask uses %s layer(s) %s, which the project does not name." % [d.to_upper(), ", ".join(unnamed)],
				"Name them with godot_physics_set_layers {names: [...]} or move the node onto named layers.")


func _check_shape(n: Node, path: String, out: Array) -> void:
	var parent: Node = n.get_parent()
	var is_3d: bool = n is Node3D
	if not (parent is CollisionObject2D or parent is CollisionObject3D):
		_add(out, "orphan_shape", "error", path, "The %s is not a child of a body or area, so it does nothing." % n.get_class(),
			"Move it under a %s (StaticBody, RigidBody, CharacterBody, Area) with godot_scene_move_node." % ("CollisionObject3D" if is_3d else "CollisionObject2D"))
	if n is CollisionShape2D or n is CollisionShape3D:
		var s: Resource = n.get("shape")
		if s == null:
			_add(out, "empty_shape", "error", path, "The %s has no shape resource." % n.get_class(), "Set its shape, or remove it and use godot_physics_add_shape on the body.")
		elif _moving(parent) and (s is ConcavePolygonShape3D or s is ConcavePolygonShape2D):
			_add(out, "concave_on_moving", "error", path, "A concave (trimesh) %s on the moving %s '%s' does not collide reliably." % [s.get_class(), parent.get_class(), parent.name],
				"Replace it with a convex shape (godot_physics_add_shape shape: \"convex\") or primitives; concave shapes belong on static bodies.")
	else:
		var pts: int = (n.get("polygon") as PackedVector2Array).size()
		if pts < 3:
			_add(out, "empty_shape", "error", path, "The %s has %d points; a polygon needs at least 3." % [n.get_class(), pts], "Set its polygon, or remove it and use godot_physics_add_shape on the body.")
		elif n is CollisionPolygon2D and (n as CollisionPolygon2D).build_mode == CollisionPolygon2D.BUILD_SEGMENTS and _moving(parent):
			_add(out, "concave_on_moving", "warning", path, "A CollisionPolygon2D in segments mode is concave; on the moving %s it does not collide reliably." % parent.get_class(), "Set its build_mode to solids.")
	if bool(n.get("disabled")) and (parent is CollisionObject2D or parent is CollisionObject3D):
		_add(out, "disabled_shape", "info", path, "The shape is disabled.", "Set disabled = false if it should collide.")
	if _non_uniform(n):
		_add(out, "non_uniform_scale", "warning" if is_3d else "info", path, "The shape node has a non-uniform scale %s." % str(n.get("scale")),
			"Reset its scale to 1 and set the shape's size instead.")
