@tool
extends RefCounted
## set_light and set_camera: add or edit a DirectionalLight3D / OmniLight3D / SpotLight3D
## (colour, energy, shadows, range, cone angle) or a Camera3D (current, fov, projection,
## size, near/far), placed by position, rotation or look_at a node or point; ONE undo
## action per call.

const Common := preload("common.gd")
const Plan := preload("plan.gd")

const LIGHTS := {"directional": "DirectionalLight3D", "omni": "OmniLight3D", "spot": "SpotLight3D"}
const LIGHT_KEYS: PackedStringArray = ["node", "type", "parent", "name", "color", "energy", "shadows", "range", "angle", "position", "rotation_degrees", "look_at", "look_at_node", "properties", "dry_run"]
const CAMERA_KEYS: PackedStringArray = ["node", "parent", "name", "current", "fov", "projection", "size", "near", "far", "position", "rotation_degrees", "look_at", "look_at_node", "properties", "dry_run"]

var c: Common = null


func _init(common: Common) -> void:
	c = common


func _light_type(n: Node) -> String:
	for k: String in LIGHTS:
		if n.get_class() == LIGHTS[k]:
			return k
	return ""


## Resolves the target node (params.node, of class [param cls]) or makes a new one:
## {node, parent, created?} or {error}.
func _target(root: Node, p: Dictionary, cls: String, make: Callable, plan: Plan, want: String) -> Dictionary:
	var path: String = str(p.get("node", "")).strip_edges()
	if path != "":
		var f: Dictionary = c.find(root, path)
		if f.has("error"):
			return f
		var n: Node = f["node"]
		if not n.is_class(cls):
			return {"error": c.invalid("node '%s' is a %s, not a %s; omit node to add a new one." % [path, n.get_class(), want])}
		return {"node": n, "parent": n.get_parent() if n != root else root}
	var pf: Dictionary = c.parent_of(root, p)
	if pf.has("error"):
		return pf
	var made: Node = make.call()
	var nm: String = str(p.get("name", "")).strip_edges()
	made.name = Common.free_name(pf["node"], nm if nm != "" else made.get_class())
	plan.add_node(pf["node"], made)
	var pp: String = Common.rel(root, pf["node"])
	return {"node": made, "parent": pf["node"], "created": {"path": str(made.name) if pp == "." else pp.path_join(str(made.name)), "class": made.get_class()}}


func _finish(p: Dictionary, root: Node, plan: Plan, n: Node, path: String, created: Array, action: String, extra: Dictionary) -> Dictionary:
	var out: Dictionary = {"node": path, "created": created, "changes": plan.changes(), "warnings": plan.warnings,
		"dry_run": bool(p.get("dry_run", false)), "undoable": false, "persisted": false, "reason": ""}
	out.merge(extra)
	if out["dry_run"]:
		plan.discard()
		out["reason"] = "a dry run"
		return c.ok(out)
	plan.apply(action, root)
	var pr: Dictionary = Common.persisted(root, n)
	out["undoable"] = true
	out["persisted"] = pr["persisted"]
	out["reason"] = pr["reason"]
	return c.ok(out)


func _unknown_keys(p: Dictionary, have: PackedStringArray, tool: String) -> String:
	for k: Variant in p:
		if not have.has(str(k)):
			return "%s has no argument '%s'.%s" % [tool, k, Common.Names.did_you_mean(str(k), have)]
	return ""


## {node? | type, parent?, name?, color?, energy?, shadows?, range?, angle?, position?,
## rotation_degrees?, look_at?, look_at_node?, properties?, dry_run}
func set_light(p: Dictionary) -> Dictionary:
	var root: Node = EditorInterface.get_edited_scene_root()
	if root == null:
		return c.no_scene()
	var bad: String = _unknown_keys(p, LIGHT_KEYS, "set_light")
	if bad != "":
		return c.invalid(bad)
	var plan: Plan = Plan.new()
	var type: String = str(p.get("type", ""))
	if type != "":
		var ch: Dictionary = c.choice("type", type, PackedStringArray(LIGHTS.keys()))
		if ch.has("error"):
			return ch["error"]
		type = ch["value"]
	elif str(p.get("node", "")).strip_edges() == "":
		return c.invalid("Give type (directional, omni or spot) to add a light, or node to edit one.")
	var t: Dictionary = _target(root, p, "Light3D", func() -> Node: return ClassDB.instantiate(LIGHTS[type]), plan, "Light3D (DirectionalLight3D, OmniLight3D, SpotLight3D)")
	if t.has("error"):
		return t["error"]
	var light: Light3D = t["node"]
	var have: String = _light_type(light)
	if type != "" and not t.has("created") and have != type:
		return c.invalid("node '%s' is a %s light, not %s; changing the kind of a light is not done here (add a new one)." % [p["node"], have, type])
	type = have
	var created: Array = [t["created"]] if t.has("created") else []
	var label: String = created[0]["path"] if not created.is_empty() else Common.rel(root, light)
	var r: Dictionary = _light_props(p, light, type, plan, label)
	if r.is_empty():
		r = c.place(plan, root, t["parent"], light, p, label)
	if r.is_empty():
		var pe: Dictionary = c.set_props(plan, light, light.get_class(), p.get("properties"), root)
		if not pe.is_empty():
			r = {"error": pe}
	if r.has("error"):
		plan.discard()
		return r["error"]
	return _finish(p, root, plan, light, label, created, "godot-mcp: set light '%s'" % label, {"type": type, "class": light.get_class()})


func _light_props(p: Dictionary, light: Light3D, type: String, plan: Plan, label: String) -> Dictionary:
	if p.get("color") != null:
		var cl: Dictionary = c.color("color", p["color"])
		if cl.has("error"):
			return cl
		plan.put(light, "light_color", cl["value"], label)
	if p.get("energy") != null:
		var e: float = float(p["energy"])
		if e < 0:
			return {"error": c.invalid("energy must be >= 0 (1 is Godot's default).")}
		plan.put(light, "light_energy", e, label)
	if p.get("shadows") != null:
		plan.put(light, "shadow_enabled", bool(p["shadows"]), label)
	if p.get("range") != null:
		if type == "directional":
			return {"error": c.invalid("range is for omni and spot lights; a directional light lights everything in its direction.")}
		var rg: float = float(p["range"])
		if rg <= 0:
			return {"error": c.invalid("range must be > 0 (metres).")}
		plan.put(light, "omni_range" if type == "omni" else "spot_range", rg, label)
	if p.get("angle") != null:
		if type != "spot":
			return {"error": c.invalid("angle (the cone's half angle in degrees) is for spot lights; this light is %s." % type)}
		var a: float = float(p["angle"])
		if a <= 0 or a > 180:
			return {"error": c.invalid("angle must be in (0, 180] degrees (the cone's half angle; 45 is Godot's default).")}
		plan.put(light, "spot_angle", a, label)
	return {}


## {node? , parent?, name?, current?, fov?, projection?, size?, near?, far?, position?,
## rotation_degrees?, look_at?, look_at_node?, properties?, dry_run}
func set_camera(p: Dictionary) -> Dictionary:
	var root: Node = EditorInterface.get_edited_scene_root()
	if root == null:
		return c.no_scene()
	var bad: String = _unknown_keys(p, CAMERA_KEYS, "set_camera")
	if bad != "":
		return c.invalid(bad)
	var plan: Plan = Plan.new()
	var t: Dictionary = _target(root, p, "Camera3D", func() -> Node: return Camera3D.new(), plan, "Camera3D")
	if t.has("error"):
		return t["error"]
	var cam: Camera3D = t["node"]
	var created: Array = [t["created"]] if t.has("created") else []
	var label: String = created[0]["path"] if not created.is_empty() else Common.rel(root, cam)
	var r: Dictionary = _camera_props(p, root, cam, plan, label)
	if r.is_empty():
		r = c.place(plan, root, t["parent"], cam, p, label)
	if r.is_empty():
		var pe: Dictionary = c.set_props(plan, cam, "Camera3D", p.get("properties"), root)
		if not pe.is_empty():
			r = {"error": pe}
	if r.has("error"):
		plan.discard()
		return r["error"]
	var near: float = cam.near
	var far: float = cam.far
	for s: Array in plan.sets:
		if s[0] == cam and s[1] == "near":
			near = s[2]
		if s[0] == cam and s[1] == "far":
			far = s[2]
	if far <= near:
		plan.discard()
		return c.invalid("far (%s) must be greater than near (%s)." % [far, near])
	return _finish(p, root, plan, cam, label, created, "godot-mcp: set camera '%s'" % label, {})


func _camera_props(p: Dictionary, root: Node, cam: Camera3D, plan: Plan, label: String) -> Dictionary:
	if p.get("projection") != null:
		var ch: Dictionary = c.choice("projection", str(p["projection"]), PackedStringArray(["perspective", "orthogonal"]))
		if ch.has("error"):
			return ch
		plan.put(cam, "projection", Camera3D.PROJECTION_PERSPECTIVE if ch["value"] == "perspective" else Camera3D.PROJECTION_ORTHOGONAL, label)
	if p.get("fov") != null:
		var f: float = float(p["fov"])
		if f < 1 or f > 179:
			return {"error": c.invalid("fov must be 1..179 degrees (75 is Godot's default).")}
		plan.put(cam, "fov", f, label)
	if p.get("size") != null:
		var s: float = float(p["size"])
		if s <= 0:
			return {"error": c.invalid("size (the orthogonal view's height in metres) must be > 0.")}
		plan.put(cam, "size", s, label)
	for k: String in ["near", "far"]:
		if p.get(k) != null:
			var v: float = float(p[k])
			if v <= 0:
				return {"error": c.invalid("%s must be > 0 metres." % k)}
			plan.put(cam, k, v, label)
	if p.get("current") != null:
		var cur: bool = bool(p["current"])
		plan.put(cam, "current", cur, label)
		if cur:
			# One current camera: the others of the scene stop being current.
			var all: Array[Node] = root.find_children("*", "Camera3D", true, false)
			if root is Camera3D:
				all.append(root)
			for o: Node in all:
				if o != cam and (o as Camera3D).current:
					plan.put(o, "current", false, Common.rel(root, o))
	return {}
