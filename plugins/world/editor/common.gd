@tool
extends RefCounted
## Shared helpers of the world toolset's editor commands: answers, node lookup,
## parameter readers (colours, vectors, enums with did-you-mean), the project's
## renderer and what it can draw, and the edit plan every command builds first and
## then applies as ONE undo action (or only reports, in a dry run).

const Names := preload("res://addons/godot_mcp/lib/names.gd")
const Nodes := preload("res://addons/godot_mcp/lib/nodes.gd")
const Codec := preload("res://addons/godot_mcp/lib/codec.gd")
const Plan := preload("plan.gd")
const Files := preload("res://addons/godot_mcp/lib/files.gd")

## Environment effects only the Forward+ renderer draws: effect -> Environment property.
const FORWARD_ONLY := {"ssao": "ssao_enabled", "ssr": "ssr_enabled", "sdfgi": "sdfgi_enabled",
	"ssil": "ssil_enabled", "volumetric_fog": "volumetric_fog_enabled"}

var router: RefCounted = null


func _init(r: RefCounted) -> void:
	router = r


func ok(result: Dictionary) -> Dictionary:
	return router.call("ok", result)


func fail(code: String, hint: String, required: String = "") -> Dictionary:
	return router.call("fail", code, hint, required)


func invalid(hint: String) -> Dictionary:
	return fail("VALIDATION_ERROR", hint)


func no_scene() -> Dictionary:
	return fail("PRECONDITION_FAILED", "No scene is open in the editor. Open one with godot_scene_open (or create one with godot_scene_create {root_type: \"Node3D\"}), then retry.", "active_scene")


static func rel(root: Node, n: Node) -> String:
	return Nodes.rel(root, n)


## The node at [param path]: {node} or {error} (RESOURCE_NOT_FOUND with did-you-mean).
func find(root: Node, path: String) -> Dictionary:
	var n: Node = Nodes.resolve(root, path)
	if n == null:
		var nf: Dictionary = Nodes.not_found(root, path)
		return {"error": fail(str(nf["error"]), str(nf["hint"]))}
	return {"node": n}


## The parent for a new node: params.parent (default the root), which must be a Node3D
## (or the root): {node} or {error}.
func parent_of(root: Node, p: Dictionary) -> Dictionary:
	var path: String = str(p.get("parent", "")).strip_edges()
	if path == "":
		return {"node": root}
	var f: Dictionary = find(root, path)
	if f.has("error"):
		return f
	var n: Node = f["node"]
	if not (n is Node3D) and n != root:
		return {"error": invalid("parent '%s' is a %s; 3D nodes go under a Node3D (or the scene root)." % [path, n.get_class()])}
	return f


## A node name not taken among [param parent]'s children, from [param want].
static func free_name(parent: Node, want: String) -> String:
	if parent.get_node_or_null(NodePath(want)) == null:
		return want
	var i: int = 2
	while parent.get_node_or_null(NodePath("%s%d" % [want, i])) != null:
		i += 1
	return "%s%d" % [want, i]


## One of [param allowed] (case ignored): {value} or {error} naming the valid set with a did-you-mean.
func choice(where: String, want: String, allowed: PackedStringArray) -> Dictionary:
	for a: String in allowed:
		if a.to_lower() == want.to_lower():
			return {"value": a}
	return {"error": invalid("%s '%s' is not one of: %s.%s" % [where, want, ", ".join(allowed), Names.did_you_mean(want, allowed)])}


## A colour from "#rrggbb", "#rrggbbaa" or {r,g,b,a}: {value} or {error}.
func color(where: String, v: Variant) -> Dictionary:
	var d: Dictionary = Codec.decode(v, TYPE_COLOR)
	if not d.get("ok", false):
		return {"error": invalid("%s: %s (a colour is \"#rrggbb\" or {r,g,b,a} with 0..1 parts)" % [where, str(d.get("hint", "not a colour"))])}
	return {"value": d["value"]}


## A Vector3 from [x, y, z]: {value} or {error}.
func vec3(where: String, v: Variant) -> Dictionary:
	if v is Array and (v as Array).size() == 3:
		var ok_: bool = true
		for x: Variant in v:
			ok_ = ok_ and (typeof(x) == TYPE_FLOAT or typeof(x) == TYPE_INT)
		if ok_:
			return {"value": Vector3(float(v[0]), float(v[1]), float(v[2]))}
	return {"error": invalid("%s must be [x, y, z] numbers, got %s." % [where, JSON.stringify(v)])}


static func arr3(v: Vector3) -> Array:
	return [snappedf(v.x, 0.0001), snappedf(v.y, 0.0001), snappedf(v.z, 0.0001)]


static func hex(c: Color) -> String:
	return "#" + c.to_html(c.a < 1.0)


## The project's rendering method (project setting) and the running editor's.
static func renderer() -> Dictionary:
	var project: String = str(ProjectSettings.get_setting("rendering/renderer/rendering_method", "forward_plus"))
	return {"project": project, "editor": RenderingServer.get_current_rendering_method()}


## Why [param feature] cannot be used with the project's renderer, or "" when it can.
static func forward_only_refusal(feature: String) -> String:
	var r: Dictionary = renderer()
	if r["project"] == "forward_plus" and r["editor"] == "forward_plus":
		return ""
	var why: String = "%s needs the Forward+ renderer; this project's rendering/renderer/rendering_method is '%s'" % [feature, r["project"]]
	if r["project"] == "forward_plus":
		why = "%s needs the Forward+ renderer; the project asks for forward_plus but this editor runs '%s' (no Vulkan/D3D12/Metal device in this build or machine)" % [feature, r["editor"]]
	return why + ", which does not draw it. Switch the project to Forward+ (project setting rendering/renderer/rendering_method = \"forward_plus\", then restart the editor) on a machine that supports it, or leave it off."


## Sets the properties of [param props] ({name: JSON value}) on [param obj] through the
## value codec, into [param plan]: {} or the failure (unknown name with did-you-mean).
func set_props(plan: Plan, obj: Object, label: String, props: Variant, root: Node) -> Dictionary:
	if props == null:
		return {}
	if not (props is Dictionary):
		return invalid("%s properties must be an object {property: value}." % label)
	# Stored or shown properties: Environment hides fog_density and the like from the
	# inspector while their feature is off, but they are still set and saved.
	var have: PackedStringArray = []
	for pi: Dictionary in obj.get_property_list():
		var usage: int = int(pi["usage"])
		var nm: String = str(pi["name"])
		if usage & (PROPERTY_USAGE_GROUP | PROPERTY_USAGE_SUBGROUP | PROPERTY_USAGE_CATEGORY | PROPERTY_USAGE_INTERNAL):
			continue
		if usage & (PROPERTY_USAGE_EDITOR | PROPERTY_USAGE_STORAGE) and nm != "script" and not nm.begins_with("resource_"):
			have.append(nm)
	for k: Variant in props:
		var key: String = str(k)
		if not have.has(key):
			return invalid("%s has no property '%s'.%s Its properties include: %s." % [label, key, Names.did_you_mean(key, have), Nodes.short_list(have, 25)])
		for eff: String in FORWARD_ONLY:
			if key == FORWARD_ONLY[eff] and typeof(props[k]) == TYPE_BOOL and props[k]:
				var why: String = forward_only_refusal(eff.to_upper())
				if why != "":
					return fail("PRECONDITION_FAILED", why, "renderer")
		var d: Dictionary = Codec.decode_property(obj, key, props[k], root)
		if not d.get("ok", false):
			return invalid("%s.%s: %s" % [label, key, str(d.get("hint", "bad value"))])
		plan.put(obj, key, d["value"], label)
	return {}


## Where a node looks: params.look_at_node (a node path) or params.look_at ([x,y,z],
## scene space). {target: Vector3 global} / {} when neither / {error}.
func look_target(root: Node, p: Dictionary) -> Dictionary:
	var ln: String = str(p.get("look_at_node", "")).strip_edges()
	if ln != "":
		var f: Dictionary = find(root, ln)
		if f.has("error"):
			return f
		if not (f["node"] is Node3D):
			return {"error": invalid("look_at_node '%s' is a %s, not a Node3D." % [ln, (f["node"] as Node).get_class()])}
		return {"target": (f["node"] as Node3D).global_position}
	if p.get("look_at") != null:
		var v: Dictionary = vec3("look_at", p["look_at"])
		if v.has("error"):
			return v
		return {"target": v["value"]}
	return {}


## Places [param n] (a child of [param parent]): position, rotation_degrees, then
## look_at (computed, so it works before the node is in the tree). {} or {error}.
func place(plan: Plan, root: Node, parent: Node, n: Node3D, p: Dictionary, label: String) -> Dictionary:
	var pos: Vector3 = n.position
	if p.get("position") != null:
		var v: Dictionary = vec3("position", p["position"])
		if v.has("error"):
			return v
		pos = v["value"]
		plan.put(n, "position", pos, label)
	if p.get("rotation_degrees") != null:
		var r: Dictionary = vec3("rotation_degrees", p["rotation_degrees"])
		if r.has("error"):
			return r
		plan.put(n, "rotation_degrees", r["value"], label)
	var t: Dictionary = look_target(root, p)
	if t.has("error"):
		return t
	if t.has("target"):
		var pg: Transform3D = (parent as Node3D).global_transform if parent is Node3D else Transform3D.IDENTITY
		var from: Vector3 = pg * pos
		var dir: Vector3 = (t["target"] as Vector3) - from
		if dir.length() < 0.0001:
			return {"error": invalid("look_at: the target is at the node's own position %s; give another point or node." % str(arr3(from)))}
		var up: Vector3 = Vector3.UP
		if absf(dir.normalized().dot(up)) > 0.999:
			up = Vector3.FORWARD
		var gb: Basis = Basis.looking_at(dir, up)
		var lb: Basis = pg.basis.orthonormalized().inverse() * gb
		plan.put(n, "rotation_degrees", lb.get_euler() * (180.0 / PI), label)
	return {}


## A res:// resource of class [param cls]: {value} or {error}.
func load_res(where: String, path: String, cls: String) -> Dictionary:
	var bad: Dictionary = Files.check_path(path, where)
	if not bad.is_empty():
		return {"error": bad}
	if not ResourceLoader.exists(path):
		var nf: Dictionary = Files.not_found(path, "resource")
		return {"error": nf}
	var r: Resource = load(path)
	if r == null or not r.is_class(cls):
		return {"error": invalid("%s '%s' is a %s, not a %s." % [where, path, r.get_class() if r != null else "unreadable file", cls])}
	return {"value": r}


## Whether [param n]'s edits are saved with the scene.
static func persisted(root: Node, n: Node) -> Dictionary:
	return Nodes.persist_info(root, n)
