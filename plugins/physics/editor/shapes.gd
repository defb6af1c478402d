@tool
extends RefCounted
## add_shape: a CollisionShape2D/3D with a primitive (sizes given, Godot's defaults,
## or fitted around a source node), a convex or trimesh shape from a MeshInstance3D,
## or CollisionPolygon2D nodes from a Sprite2D's opaque pixels; one undo action.
## A fitted shape is placed over its source in the body's space; the source's
## rotation and scale are baked into the shape (never a scaled shape node).

const Common := preload("common.gd")
const Recorder := preload("res://addons/godot_mcp/lib/undo.gd")

const SHAPES_2D: PackedStringArray = ["rectangle", "circle", "capsule", "segment", "polygon"]
const SHAPES_3D: PackedStringArray = ["box", "sphere", "capsule", "cylinder", "convex", "trimesh"]

var c: Common = null


func _init(common: Common) -> void:
	c = common


## {body, shape, from?, size?, radius?, height?, a?, b?, position?, name?, epsilon?, dry_run}
## -> {body, created: [{path, class, shape, params, position}], warnings?, persisted, reason, undoable, dry_run}
func add_shape(params: Dictionary) -> Dictionary:
	var root: Node = EditorInterface.get_edited_scene_root()
	if root == null:
		return c.no_scene()
	var f: Dictionary = c.find(root, str(params.get("body", "")))
	if f.has("error"):
		return f["error"]
	var body: Node = f["node"]
	if not (body is CollisionObject2D or body is CollisionObject3D):
		var hint: String = "'%s' is a %s, not a body or area (a CollisionObject2D/3D: StaticBody, RigidBody, CharacterBody, AnimatableBody, Area)." % [Common.rel(root, body), body.get_class()]
		var up: Node = body.get_parent()
		if up is CollisionObject2D or up is CollisionObject3D:
			hint += " Did you mean its parent '%s'?" % Common.rel(root, up)
		else:
			hint += " Add a body first with godot_scene_create_node {type: \"StaticBody3D\"} (or 2D), then give it a shape."
		return c.fail("VALIDATION_ERROR", hint)
	var d: String = Common.dim(body)
	var shape: String = str(params.get("shape", ""))
	if shape == "auto":
		# Exact (concave) for static level geometry, convex for what moves; pixels in 2D.
		shape = "polygon" if d == "2d" else ("trimesh" if body is StaticBody3D else "convex")
	var allowed: PackedStringArray = SHAPES_3D if d == "3d" else SHAPES_2D
	if not allowed.has(shape):
		return c.fail("VALIDATION_ERROR", "'%s' is a %s body, which takes %s shapes: %s." % [Common.rel(root, body), d.to_upper(), d.to_upper(), ", ".join(allowed)])
	var src: Node = null
	var from: String = str(params.get("from", ""))
	if from != "":
		var g: Dictionary = c.find(root, from)
		if g.has("error"):
			return g["error"]
		src = g["node"]
		var bad: String = _bad_source(src, d, shape)
		if bad != "":
			return c.fail("VALIDATION_ERROR", "from '%s': %s" % [from, bad])
	if shape == "trimesh":
		var why: String = _trimesh_refusal(body)
		if why != "":
			return c.fail("VALIDATION_ERROR", why)
	var made: Dictionary = _build_3d(params, shape, body, src) if d == "3d" else _build_2d(params, shape, body, src)
	if made.has("error"):
		return made["error"]
	var nodes: Array = made["nodes"]
	var base_name: String = str(params.get("name", "")).strip_edges()
	var taken: Dictionary = {}
	for ch: Node in body.get_children():
		taken[str(ch.name)] = true
	var created: Array = []
	for n: Node in nodes:
		var nm: String = _free_name(base_name if base_name != "" else n.get_class(), taken)
		taken[nm] = true
		n.name = nm
		created.append({"path": Common.rel(root, body).path_join(nm) if body != root else nm, "class": n.get_class(),
			"shape": _shape_class(n), "params": _params_of(n), "position": Common.vec(n.get("position"))})
	var out: Dictionary = {"body": Common.rel(root, body), "created": created, "dry_run": bool(params.get("dry_run", false)),
		"undoable": false, "persisted": false, "reason": ""}
	var warnings: PackedStringArray = made.get("warnings", PackedStringArray())
	if not warnings.is_empty():
		out["warnings"] = warnings
	if out["dry_run"]:
		for n2: Node in nodes:
			n2.free()
		out["reason"] = "a dry run"
		return c.ok(out)
	var rec: Recorder = Recorder.new()
	rec.begin()
	for n3: Node in nodes:
		rec.created.append(n3)
		rec.do_refs.append(n3)
		rec.do_call(body, "add_child", [n3, true])
		rec.do_call(n3, "set_owner", [root])
		rec.undo_call(body, "remove_child", [n3])
	rec.commit("godot-mcp: add %s shape to %s" % [shape, Common.rel(root, body)], root)
	var pr: Dictionary = Common.persisted(root, body)
	out["undoable"] = true
	out["persisted"] = pr["persisted"]
	out["reason"] = pr["reason"]
	return c.ok(out)


static func _bad_source(src: Node, d: String, shape: String) -> String:
	if d == "3d":
		if not (src is MeshInstance3D):
			return "is a %s; a 3D shape is fitted to a MeshInstance3D." % src.get_class()
		if (src as MeshInstance3D).mesh == null:
			return "the MeshInstance3D has no mesh."
		return ""
	if not (src is Sprite2D):
		return "is a %s; a 2D shape is fitted to a Sprite2D." % src.get_class()
	if (src as Sprite2D).texture == null:
		return "the Sprite2D has no texture."
	if shape == "segment":
		return "a segment is not fitted to a sprite; give a and b instead of from."
	return ""


## Why a trimesh (concave) shape does not suit [param body], or "".
static func _trimesh_refusal(body: Node) -> String:
	var why: String = "A trimesh (ConcavePolygonShape3D) collides only as static level geometry: Godot's physics does not resolve it on a moving %s (it tunnels and sticks, and the editor warns). Use shape \"convex\" (a ConvexPolygonShape3D around the mesh), primitives, or put the trimesh on a StaticBody3D."
	if body is CharacterBody3D:
		return why % "CharacterBody3D"
	if body is RigidBody3D:
		var rb: RigidBody3D = body
		if rb.freeze and rb.freeze_mode == RigidBody3D.FREEZE_MODE_STATIC:
			return ""
		return (why % body.get_class()) + " (A RigidBody3D with freeze on and freeze_mode static may use one.)"
	return ""


func _build_3d(p: Dictionary, shape: String, body: Node3D, src: Node) -> Dictionary:
	var xf: Transform3D = Transform3D.IDENTITY
	var aabb: AABB = AABB()
	var mesh: Mesh = null
	if src != null:
		xf = body.global_transform.affine_inverse() * (src as Node3D).global_transform
		mesh = (src as MeshInstance3D).mesh
		aabb = xf * mesh.get_aabb()
	var cs: CollisionShape3D = CollisionShape3D.new()
	var pos: Vector3 = aabb.get_center() if src != null else Vector3.ZERO
	var size: Variant = p.get("size")
	var radius: float = float(p.get("radius", 0.0))
	var height: float = float(p.get("height", 0.0))
	match shape:
		"box":
			var s: BoxShape3D = BoxShape3D.new()
			if size is Array:
				s.size = Vector3(float(size[0]), float(size[1]), float(size[2]))
			elif src != null:
				s.size = aabb.size
			cs.shape = s
		"sphere":
			var s2: SphereShape3D = SphereShape3D.new()
			s2.radius = radius if radius > 0 else (maxf(aabb.size.x, maxf(aabb.size.y, aabb.size.z)) / 2.0 if src != null else s2.radius)
			cs.shape = s2
		"capsule", "cylinder":
			var r: float = radius if radius > 0 else (maxf(aabb.size.x, aabb.size.z) / 2.0 if src != null else 0.5)
			var h: float = height if height > 0 else (aabb.size.y if src != null else 2.0)
			if shape == "capsule":
				var s3: CapsuleShape3D = CapsuleShape3D.new()
				if h < 2.0 * r:
					cs.free()
					return {"error": c.fail("VALIDATION_ERROR", "A capsule's height %.3f is less than its diameter %.3f (height includes both caps); give a larger height or a smaller radius, or use a sphere." % [h, 2.0 * r])}
				s3.radius = r
				s3.height = h
				cs.shape = s3
			else:
				var s4: CylinderShape3D = CylinderShape3D.new()
				s4.radius = r
				s4.height = h
				cs.shape = s4
		"convex":
			var cv: ConvexPolygonShape3D = mesh.create_convex_shape(true, false)
			if cv == null or cv.points.is_empty():
				cs.free()
				return {"error": c.fail("VALIDATION_ERROR", "The mesh of '%s' gave no convex hull (it has no faces)." % src.name)}
			var pts: PackedVector3Array = []
			for v: Vector3 in cv.points:
				pts.append(xf.basis * v)
			cv.points = pts
			cs.shape = cv
			pos = xf.origin
		"trimesh":
			var tm: ConcavePolygonShape3D = mesh.create_trimesh_shape()
			if tm == null or tm.get_faces().is_empty():
				cs.free()
				return {"error": c.fail("VALIDATION_ERROR", "The mesh of '%s' has no faces for a trimesh." % src.name)}
			var faces: PackedVector3Array = []
			for v2: Vector3 in tm.get_faces():
				faces.append(xf.basis * v2)
			tm.set_faces(faces)
			cs.shape = tm
			pos = xf.origin
	var given: Variant = p.get("position")
	if given is Array:
		if (given as Array).size() != 3:
			cs.free()
			return {"error": c.fail("VALIDATION_ERROR", "position of a 3D shape is [x,y,z].")}
		pos = Vector3(float(given[0]), float(given[1]), float(given[2]))
	cs.position = pos
	var warnings: PackedStringArray = []
	if src != null and shape != "convex" and shape != "trimesh" and not xf.basis.is_equal_approx(Basis.IDENTITY) and not xf.basis.orthonormalized().is_equal_approx(Basis.IDENTITY):
		warnings.append("The source is rotated in the body: the %s fits its axis-aligned bounds; use convex for a tight fit." % shape)
	return {"nodes": [cs], "warnings": warnings}


func _build_2d(p: Dictionary, shape: String, body: Node2D, src: Node) -> Dictionary:
	var xf: Transform2D = Transform2D.IDENTITY
	var rect: Rect2 = Rect2()
	var sprite: Sprite2D = src as Sprite2D
	if sprite != null:
		xf = body.global_transform.affine_inverse() * sprite.global_transform
		rect = sprite.get_rect()
	var scale: Vector2 = xf.get_scale().abs()
	var size: Variant = p.get("size")
	var radius: float = float(p.get("radius", 0.0))
	var height: float = float(p.get("height", 0.0))
	var fitted: Vector2 = rect.size * scale
	var node: Node2D = null
	var nodes: Array = []
	match shape:
		"rectangle":
			var s: RectangleShape2D = RectangleShape2D.new()
			if size is Array:
				s.size = Vector2(float(size[0]), float(size[1]))
			elif sprite != null:
				s.size = fitted
			node = _shape_node(s)
		"circle":
			var s2: CircleShape2D = CircleShape2D.new()
			s2.radius = radius if radius > 0 else (maxf(fitted.x, fitted.y) / 2.0 if sprite != null else s2.radius)
			node = _shape_node(s2)
		"capsule":
			var s3: CapsuleShape2D = CapsuleShape2D.new()
			var r: float = radius if radius > 0 else (fitted.x / 2.0 if sprite != null else 10.0)
			var h: float = height if height > 0 else (fitted.y if sprite != null else 30.0)
			if h < 2.0 * r:
				return {"error": c.fail("VALIDATION_ERROR", "A capsule's height %.2f is less than its diameter %.2f (height includes both caps); give a larger height or a smaller radius, or use a circle." % [h, 2.0 * r])}
			s3.radius = r
			s3.height = h
			node = _shape_node(s3)
		"segment":
			var s4: SegmentShape2D = SegmentShape2D.new()
			var a: Variant = p.get("a")
			var b: Variant = p.get("b")
			if a is Array and b is Array:
				s4.a = Vector2(float(a[0]), float(a[1]))
				s4.b = Vector2(float(b[0]), float(b[1]))
			node = _shape_node(s4)
		"polygon":
			var polys: Dictionary = _opaque_polygons(sprite, float(p.get("epsilon", 2.0)) if float(p.get("epsilon", 0.0)) > 0 else 2.0)
			if polys.has("error"):
				return polys
			for poly: PackedVector2Array in polys["polygons"]:
				var pts: PackedVector2Array = []
				for v: Vector2 in poly:
					pts.append(xf.basis_xform(v))
				var cp: CollisionPolygon2D = CollisionPolygon2D.new()
				cp.polygon = pts
				cp.position = xf.origin
				nodes.append(cp)
	if node != null:
		if sprite != null:
			node.position = xf * rect.get_center()
			node.rotation = xf.get_rotation()
		nodes.append(node)
	var given: Variant = p.get("position")
	if given is Array:
		if (given as Array).size() != 2:
			for n: Node in nodes:
				n.free()
			return {"error": c.fail("VALIDATION_ERROR", "position of a 2D shape is [x,y].")}
		for n2: Node2D in nodes:
			n2.position = Vector2(float(given[0]), float(given[1]))
	return {"nodes": nodes, "warnings": PackedStringArray()}


static func _shape_node(s: Shape2D) -> CollisionShape2D:
	var cs: CollisionShape2D = CollisionShape2D.new()
	cs.shape = s
	return cs


## The opaque islands of the sprite's shown frame as polygons in the sprite's space.
func _opaque_polygons(sprite: Sprite2D, epsilon: float) -> Dictionary:
	var img: Image = sprite.texture.get_image()
	if img == null or img.is_empty():
		return {"error": c.fail("VALIDATION_ERROR", "The texture of '%s' has no readable image (%s)." % [sprite.name, sprite.texture.get_class()])}
	img = img.duplicate() as Image
	if img.is_compressed():
		img.decompress()
	var region: Rect2i = Rect2i(Vector2i.ZERO, img.get_size())
	if sprite.region_enabled:
		region = Rect2i(sprite.region_rect)
	var frame: Vector2i = region.size / Vector2i(maxi(1, sprite.hframes), maxi(1, sprite.vframes))
	region = Rect2i(region.position + frame * sprite.frame_coords, frame)
	region = region.intersection(Rect2i(Vector2i.ZERO, img.get_size()))
	if region.size.x <= 0 or region.size.y <= 0:
		return {"error": c.fail("VALIDATION_ERROR", "The shown region of '%s' is outside its texture." % sprite.name)}
	var part: Image = img.get_region(region)
	var bm: BitMap = BitMap.new()
	bm.create_from_image_alpha(part, 0.1)
	var polys: Array[PackedVector2Array] = bm.opaque_to_polygons(Rect2i(Vector2i.ZERO, part.get_size()), epsilon)
	if polys.is_empty():
		return {"error": c.fail("VALIDATION_ERROR", "The texture of '%s' has no opaque pixels (alpha above 0.1) in its shown frame, so there is no polygon to fit; use a rectangle." % sprite.name)}
	var origin: Vector2 = sprite.get_rect().position
	var out: Array = []
	for poly: PackedVector2Array in polys:
		var pts: PackedVector2Array = []
		for v: Vector2 in poly:
			var q: Vector2 = v
			if sprite.flip_h:
				q.x = part.get_width() - q.x
			if sprite.flip_v:
				q.y = part.get_height() - q.y
			pts.append(q + origin)
		out.append(pts)
	return {"polygons": out}


static func _free_name(base: String, taken: Dictionary) -> String:
	if not taken.has(base):
		return base
	var i: int = 2
	while taken.has("%s%d" % [base, i]):
		i += 1
	return "%s%d" % [base, i]


static func _shape_class(n: Node) -> String:
	if n is CollisionPolygon2D:
		return "CollisionPolygon2D"
	var s: Resource = n.get("shape")
	return s.get_class() if s != null else ""


## The shape's parameters as JSON.
static func _params_of(n: Node) -> Dictionary:
	if n is CollisionPolygon2D:
		return {"points": (n as CollisionPolygon2D).polygon.size()}
	var s: Resource = n.get("shape")
	if s is RectangleShape2D or s is BoxShape3D:
		return {"size": Common.vec(s.get("size"))}
	if s is CircleShape2D or s is SphereShape3D:
		return {"radius": float(s.get("radius"))}
	if s is CapsuleShape2D or s is CapsuleShape3D or s is CylinderShape3D:
		return {"radius": float(s.get("radius")), "height": float(s.get("height"))}
	if s is SegmentShape2D:
		return {"a": Common.vec((s as SegmentShape2D).a), "b": Common.vec((s as SegmentShape2D).b)}
	if s is ConvexPolygonShape3D:
		return {"points": (s as ConvexPolygonShape3D).points.size()}
	if s is ConcavePolygonShape3D:
		return {"faces": (s as ConcavePolygonShape3D).get_faces().size() / 3}
	return {}
