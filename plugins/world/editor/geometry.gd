@tool
extends RefCounted
## add_mesh and add_csg: a MeshInstance3D with a primitive mesh, or a CSG shape with
## its operation, both with sizes and an optional albedo colour; ONE undo action.

const Common := preload("common.gd")
const Plan := preload("plan.gd")

const MESHES := {"box": "BoxMesh", "sphere": "SphereMesh", "capsule": "CapsuleMesh", "cylinder": "CylinderMesh", "plane": "PlaneMesh", "prism": "PrismMesh", "torus": "TorusMesh"}
const CSGS := {"box": "CSGBox3D", "sphere": "CSGSphere3D", "cylinder": "CSGCylinder3D", "torus": "CSGTorus3D", "polygon": "CSGPolygon3D", "combiner": "CSGCombiner3D"}
const OPERATIONS := {"union": 0, "intersection": 1, "subtraction": 2}
## Which size arguments each shape takes.
const DIMS := {"box": ["size"], "prism": ["size"], "plane": ["size"], "sphere": ["radius", "height"], "capsule": ["radius", "height"],
	"cylinder": ["radius", "height"], "torus": ["inner_radius", "outer_radius"], "polygon": ["polygon", "depth"], "combiner": []}

var c: Common = null


func _init(common: Common) -> void:
	c = common


## {shape, parent?, name?, size?, radius?, height?, inner_radius?, outer_radius?, color?,
## position?, rotation_degrees?, look_at?, look_at_node?, properties?, dry_run}
func add_mesh(p: Dictionary) -> Dictionary:
	return _add(p, false)


## {shape, operation?, parent?, name?, sizes..., polygon?, depth?, color?, use_collision?,
## position?, rotation_degrees?, properties?, dry_run}
func add_csg(p: Dictionary) -> Dictionary:
	return _add(p, true)


func _add(p: Dictionary, csg: bool) -> Dictionary:
	var root: Node = EditorInterface.get_edited_scene_root()
	if root == null:
		return c.no_scene()
	var table: Dictionary = CSGS if csg else MESHES
	var ch: Dictionary = c.choice("shape", str(p.get("shape", "")), PackedStringArray(table.keys()))
	if ch.has("error"):
		return ch["error"]
	var shape: String = ch["value"]
	var pf: Dictionary = c.parent_of(root, p)
	if pf.has("error"):
		return pf["error"]
	var parent: Node = pf["node"]
	var plan: Plan = Plan.new()
	var n: Node3D = null
	var target: Object = null # what the sizes go on
	if csg:
		n = ClassDB.instantiate(CSGS[shape])
		target = n
	else:
		var mi: MeshInstance3D = MeshInstance3D.new()
		mi.mesh = ClassDB.instantiate(MESHES[shape])
		plan.made(mi.mesh)
		plan.made(mi)
		n = mi
		target = mi.mesh
	var nm: String = str(p.get("name", "")).strip_edges()
	var base: String = str(CSGS[shape]).trim_suffix("3D").trim_prefix("CSG") if csg else str(MESHES[shape]).trim_suffix("Mesh")
	n.name = Common.free_name(parent, nm if nm != "" else base)
	plan.add_node(parent, n)
	var pp: String = Common.rel(root, parent)
	var path: String = str(n.name) if pp == "." else pp.path_join(str(n.name))
	var r: Dictionary = _dims(p, shape, target, plan, path)
	if r.is_empty() and csg:
		r = _csg_props(p, n as CSGShape3D, parent, plan, path)
	if r.is_empty() and p.get("color") != null:
		var cl: Dictionary = c.color("color", p["color"])
		if cl.has("error"):
			r = cl
		elif shape == "combiner":
			r = {"error": c.invalid("A CSGCombiner3D has no material; colour its child shapes.")}
		else:
			var m: StandardMaterial3D = StandardMaterial3D.new()
			m.albedo_color = cl["value"]
			plan.put(target, "material", m, path)
	if r.is_empty():
		r = c.place(plan, root, parent, n, p, path)
	if r.is_empty():
		var pe: Dictionary = c.set_props(plan, target, target.get_class(), p.get("properties"), root)
		if not pe.is_empty():
			r = {"error": pe}
	if r.has("error"):
		plan.discard()
		return r["error"]
	var out: Dictionary = {"node": path, "class": n.get_class(), "created": [{"path": path, "class": n.get_class()}], "dims": _dims_of(target),
		"warnings": plan.warnings, "dry_run": bool(p.get("dry_run", false)), "undoable": false, "persisted": false, "reason": ""}
	if not csg:
		out["mesh"] = MESHES[shape]
	if out["dry_run"]:
		plan.discard()
		out["reason"] = "a dry run"
		return c.ok(out)
	plan.apply("godot-mcp: add %s %s '%s'" % [shape, "CSG" if csg else "mesh", path], root)
	var pr: Dictionary = Common.persisted(root, n)
	out["undoable"] = true
	out["persisted"] = pr["persisted"]
	out["reason"] = pr["reason"]
	return c.ok(out)


func _num(p: Dictionary, k: String, positive: bool = true) -> Variant:
	var v: Variant = p.get(k)
	if typeof(v) != TYPE_FLOAT and typeof(v) != TYPE_INT:
		return null
	if positive and float(v) <= 0:
		return null
	return float(v)


func _dims(p: Dictionary, shape: String, t: Object, plan: Plan, label: String) -> Dictionary:
	var takes: Array = DIMS[shape]
	for k: String in ["size", "radius", "height", "inner_radius", "outer_radius", "polygon", "depth"]:
		if p.get(k) != null and not takes.has(k):
			var what: String = ", ".join(PackedStringArray(takes)) if not takes.is_empty() else "no sizes"
			return {"error": c.invalid("%s does not apply to a %s; it takes %s." % [k, shape, what])}
		if p.get(k) != null and k != "size" and k != "polygon" and _num(p, k) == null:
			return {"error": c.invalid("%s must be a number > 0." % k)}
	if p.get("size") != null:
		var s: Variant = p["size"]
		var want: int = 2 if shape == "plane" else 3
		if not (s is Array) or (s as Array).size() != want:
			return {"error": c.invalid("size of a %s is %s." % [shape, "[width, depth]" if want == 2 else "[x, y, z]"])}
		for x: Variant in s:
			if (typeof(x) != TYPE_FLOAT and typeof(x) != TYPE_INT) or float(x) <= 0:
				return {"error": c.invalid("size %s: every side must be a number > 0." % JSON.stringify(s))}
		if want == 2:
			plan.put(t, "size", Vector2(float(s[0]), float(s[1])), label)
		else:
			plan.put(t, "size", Vector3(float(s[0]), float(s[1]), float(s[2])), label)
	var r: Variant = _num(p, "radius")
	var h: Variant = _num(p, "height")
	match shape:
		"sphere":
			if r != null:
				plan.put(t, "radius", r, label)
				if h == null and t is SphereMesh:
					plan.put(t, "height", 2.0 * r, label)
			if h != null:
				plan.put(t, "height", h, label)
		"capsule":
			var rr: float = r if r != null else float(t.get("radius"))
			var hh: float = h if h != null else maxf(float(t.get("height")), 2.0 * rr)
			if hh < 2.0 * rr:
				return {"error": c.invalid("A capsule's height %s is less than its diameter %s (height includes both caps)." % [hh, 2.0 * rr])}
			plan.put(t, "radius", rr, label)
			plan.put(t, "height", hh, label)
		"cylinder":
			if r != null:
				if t is CylinderMesh:
					plan.put(t, "top_radius", r, label)
					plan.put(t, "bottom_radius", r, label)
				else:
					plan.put(t, "radius", r, label)
			if h != null:
				plan.put(t, "height", h, label)
		"torus":
			var ir: float = _num(p, "inner_radius") if _num(p, "inner_radius") != null else float(t.get("inner_radius"))
			var orr: float = _num(p, "outer_radius") if _num(p, "outer_radius") != null else float(t.get("outer_radius"))
			if ir >= orr:
				return {"error": c.invalid("inner_radius %s must be less than outer_radius %s." % [ir, orr])}
			plan.put(t, "inner_radius", ir, label)
			plan.put(t, "outer_radius", orr, label)
		"polygon":
			if p.get("polygon") != null:
				var pts: PackedVector2Array = []
				var raw: Variant = p["polygon"]
				if raw is Array:
					for q: Variant in raw:
						if q is Array and (q as Array).size() == 2:
							pts.append(Vector2(float(q[0]), float(q[1])))
				if not (raw is Array) or pts.size() != (raw as Array).size() or pts.size() < 3:
					return {"error": c.invalid("polygon is at least 3 points [[x, y], ...] (the outline extruded by depth).")}
				plan.put(t, "polygon", pts, label)
			if p.get("depth") != null:
				plan.put(t, "depth", float(p["depth"]), label)
	return {}


func _csg_props(p: Dictionary, n: CSGShape3D, parent: Node, plan: Plan, label: String) -> Dictionary:
	if p.get("operation") != null:
		var ch: Dictionary = c.choice("operation", str(p["operation"]), PackedStringArray(OPERATIONS.keys()))
		if ch.has("error"):
			return ch
		plan.put(n, "operation", OPERATIONS[ch["value"]], label)
		if not (parent is CSGShape3D) and ch["value"] != "union":
			plan.warnings.append("'%s' is a CSG root (its parent is no CSG shape), so its %s has nothing to act on: add it under the CSG shape it should cut or intersect (parent)." % [label, ch["value"]])
	if p.get("use_collision") != null:
		if parent is CSGShape3D:
			return {"error": c.invalid("use_collision is set on the CSG root (here '%s''s root), not on a child shape." % label)}
		plan.put(n, "use_collision", bool(p["use_collision"]), label)
	return {}


static func _dims_of(t: Object) -> Dictionary:
	var out: Dictionary = {}
	for k: String in ["size", "radius", "height", "top_radius", "bottom_radius", "inner_radius", "outer_radius", "depth"]:
		if k in t:
			var v: Variant = t.get(k)
			out[k] = Common.arr3(v) if v is Vector3 else ([v.x, v.y] if v is Vector2 else v)
	if t is CSGShape3D:
		out["operation"] = (OPERATIONS.keys()[(t as CSGShape3D).operation])
	if t is CSGPolygon3D:
		out["points"] = (t as CSGPolygon3D).polygon.size()
	return out
