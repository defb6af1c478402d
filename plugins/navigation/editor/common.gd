@tool
extends RefCounted
## Shared helpers of the navigation toolset's editor commands: answers, node lookup,
## which nodes are navigation regions, agents and links, the project's navigation
## layer names (layer_names/2d_navigation/layer_N, layer_names/3d_navigation/layer_N),
## layer references (numbers or names, with did-you-mean) and region read-backs.

const Names := preload("res://addons/godot_mcp/lib/names.gd")
const Nodes := preload("res://addons/godot_mcp/lib/nodes.gd")
const LayerNames := preload("res://addons/godot_mcp/lib/layer_names.gd")

const GEOMETRY := ["mesh_instances", "static_colliders", "both"]
const SOURCE_MODES := ["root_node", "group_with_children", "group_explicit"]
const CLASSES := {
	"region": ["NavigationRegion2D", "NavigationRegion3D"],
	"agent": ["NavigationAgent2D", "NavigationAgent3D"],
	"link": ["NavigationLink2D", "NavigationLink3D"],
}

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
	return fail("PRECONDITION_FAILED", "No scene is open in the editor. Open one with godot_scene_open (or create one with godot_scene_create), then retry.", "active_scene")


static func rel(root: Node, n: Node) -> String:
	return Nodes.rel(root, n)


## The node at [param path] in the scene [param root]: {node} or {error} (with did-you-mean).
func find(root: Node, path: String) -> Dictionary:
	var n: Node = Nodes.resolve(root, path)
	if n == null:
		var nf: Dictionary = Nodes.not_found(root, path)
		var hint: String = str(nf["hint"])
		if not hint.contains("Did you mean"):
			var all: Array[Node] = []
			walk(root, all)
			var have: PackedStringArray = []
			for n2: Node in all:
				if n2 != root:
					have.append(rel(root, n2))
			hint += Names.did_you_mean(path, have)
		return {"error": fail(str(nf["error"]), hint)}
	return {"node": n}


## "region", "agent", "link" or "" for [param n].
static func kind_of(n: Node) -> String:
	for k: String in CLASSES:
		for cls: String in CLASSES[k]:
			if n.is_class(cls):
				return k
	return ""


static func dim(n: Node) -> String:
	return "2d" if n is Node2D or n is CanvasItem or n.is_class("NavigationAgent2D") else "3d"


## [param n] and its descendants in tree order.
static func walk(n: Node, out: Array[Node]) -> void:
	out.append(n)
	for ch: Node in n.get_children():
		walk(ch, out)


## The scene's nodes of kind [param k] ("" for any navigation node), as paths.
static func paths_of(root: Node, k: String) -> PackedStringArray:
	var all: Array[Node] = []
	walk(root, all)
	var out: PackedStringArray = []
	for n: Node in all:
		var nk: String = kind_of(n)
		if nk != "" and (k == "" or nk == k):
			out.append(rel(root, n))
	return out


## A refusal for [param n], which is not a [param k] node: the kinds it could be and the scene's nodes of that kind.
func wrong_kind(root: Node, n: Node, k: String) -> Dictionary:
	var have: PackedStringArray = paths_of(root, k)
	var hint: String = "'%s' is a %s, not a navigation %s (%s)." % [rel(root, n), n.get_class(), k, " or ".join(PackedStringArray(CLASSES[k]))]
	hint += (" %s nodes in the scene: %s." % [k.capitalize(), Nodes.short_list(have)]) if not have.is_empty() else " The scene has no %s node: create one by giving parent instead of node." % k
	return invalid(hint)


static func setting_key(d: String, i: int) -> String:
	return LayerNames.setting_key("navigation", d, i)


## The 32 layer names of dimension [param d] ("" for unnamed), index 0 is layer 1.
static func names(d: String) -> PackedStringArray:
	return LayerNames.names("navigation", d)


## [{n, name}] of the named layers in [param all].
static func named(all: PackedStringArray) -> Array:
	return LayerNames.named(all)


## [{n, name?}] of the bits set in [param bits].
static func layers_of(bits: int, all: PackedStringArray) -> Array:
	return LayerNames.layers_of(bits, all)


## The bit of a layer reference (a number 1..32 or a name of [param all]): {bit} or {error}.
func ref_bit(ref: Variant, all: PackedStringArray, d: String, where: String) -> Dictionary:
	if typeof(ref) == TYPE_INT or typeof(ref) == TYPE_FLOAT:
		var n: int = int(ref)
		if n < 1 or n > 32 or float(ref) != float(n):
			return {"error": invalid("%s: layer %s does not exist; navigation layers are 1..32." % [where, str(ref)])}
		return {"bit": 1 << (n - 1)}
	var want: String = str(ref).strip_edges()
	var idx: int = all.find(want)
	if idx < 0 and want != "":
		for i: int in all.size():
			if all[i] != "" and all[i].to_lower() == want.to_lower():
				idx = i
				break
	if idx >= 0 and want != "":
		return {"bit": 1 << idx}
	var have: PackedStringArray = []
	for s: String in all:
		if s != "":
			have.append(s)
	var hint: String = "%s: no %s navigation layer is named '%s'." % [where, d.to_upper(), want]
	hint += Names.did_you_mean(want, have)
	if have.is_empty():
		hint += " The project names no %s navigation layers: name one with godot_navigation_set_layers {names: [{dimension: \"%s\", n: 1, name: \"%s\"}]} or use layer numbers 1..32." % [d.to_upper(), d, want]
	else:
		hint += " Named %s navigation layers: %s (or use a layer number 1..32)." % [d.to_upper(), ", ".join(have)]
	return {"error": invalid(hint)}


## The bits of a list of layer references: {bits} or {error}.
func refs_bits(list: Variant, all: PackedStringArray, d: String, where: String) -> Dictionary:
	if not (list is Array):
		return {"error": invalid("%s must be a list of layer numbers or names." % where)}
	var acc: int = 0
	for j: int in (list as Array).size():
		var r: Dictionary = ref_bit(list[j], all, d, "%s[%d]" % [where, j])
		if r.has("error"):
			return r
		acc |= int(r["bit"])
	return {"bits": acc}


## The navigation resource of a region (NavigationMesh or NavigationPolygon), or null.
static func nav_resource(region: Node) -> Resource:
	if region.is_class("NavigationRegion3D"):
		return region.get("navigation_mesh")
	return region.get("navigation_polygon")


## {polygons, vertices} of a NavigationMesh / NavigationPolygon (0 for null).
static func counts(res: Resource) -> Dictionary:
	if res == null:
		return {"polygons": 0, "vertices": 0}
	var verts: Variant = res.call("get_vertices")
	return {"polygons": int(res.call("get_polygon_count")), "vertices": verts.size()}


## The baking settings of a region's resource, in this toolset's terms.
static func settings_of(res: Resource) -> Dictionary:
	if res == null:
		return {}
	var out: Dictionary = {}
	if res is NavigationMesh:
		var nm: NavigationMesh = res as NavigationMesh
		out = {"geometry": GEOMETRY[nm.geometry_parsed_geometry_type], "source_mode": SOURCE_MODES[nm.geometry_source_geometry_mode],
			"source_group": str(nm.geometry_source_group_name), "collision_mask": nm.geometry_collision_mask,
			"agent_radius": nm.agent_radius, "agent_height": nm.agent_height, "agent_max_climb": nm.agent_max_climb,
			"agent_max_slope": nm.agent_max_slope, "cell_size": nm.cell_size, "cell_height": nm.cell_height, "border_size": nm.border_size}
	elif res is NavigationPolygon:
		var np: NavigationPolygon = res as NavigationPolygon
		out = {"geometry": GEOMETRY[np.parsed_geometry_type], "source_mode": SOURCE_MODES[np.source_geometry_mode],
			"source_group": str(np.source_geometry_group_name), "collision_mask": np.parsed_collision_mask,
			"agent_radius": np.agent_radius, "cell_size": np.cell_size, "border_size": np.border_size, "outlines": np.get_outline_count()}
	return out


## What one navigation node reports (region, agent or link).
static func report(root: Node, n: Node) -> Dictionary:
	var k: String = kind_of(n)
	var d: String = dim(n)
	var bits: int = int(n.get("navigation_layers"))
	var out: Dictionary = {"path": rel(root, n), "class": n.get_class(), "kind": k, "dimension": d,
		"layers": layers_of(bits, names(d)), "layer_bits": bits}
	match k:
		"region":
			var res: Resource = nav_resource(n)
			out["enabled"] = bool(n.get("enabled"))
			out["resource"] = res.get_class() if res != null else ""
			out["resource_path"] = res.resource_path if res != null and not res.resource_path.contains("::") else ""
			out["settings"] = settings_of(res)
			out.merge(counts(res))
		"agent":
			var props: Dictionary = {}
			for p: String in ["radius", "height", "path_desired_distance", "target_desired_distance", "max_speed", "avoidance_enabled"]:
				if p in n:
					props[p] = n.get(p)
			out["settings"] = props
		"link":
			out["settings"] = {"start": vec(n.get("start_position")), "end": vec(n.get("end_position")), "bidirectional": bool(n.get("bidirectional")),
				"enabled": bool(n.get("enabled")), "enter_cost": float(n.get("enter_cost")), "travel_cost": float(n.get("travel_cost"))}
	return out


## Whether edits to [param n] are saved with the scene, and why not.
static func persisted(root: Node, n: Node) -> Dictionary:
	return Nodes.persist_info(root, n)


static func vec(v: Variant) -> Array:
	if v is Vector2:
		return [snappedf((v as Vector2).x, 0.0001), snappedf((v as Vector2).y, 0.0001)]
	if v is Vector3:
		return [snappedf((v as Vector3).x, 0.0001), snappedf((v as Vector3).y, 0.0001), snappedf((v as Vector3).z, 0.0001)]
	return []


## A point [x,y] (2D) or [x,y,z] (3D) from params: the vector or null.
static func to_vec(v: Variant, d: String) -> Variant:
	if not (v is Array):
		return null
	var a: Array = v
	for x: Variant in a:
		if typeof(x) != TYPE_INT and typeof(x) != TYPE_FLOAT:
			return null
	if d == "2d" and a.size() == 2:
		return Vector2(float(a[0]), float(a[1]))
	if d == "3d" and a.size() == 3:
		return Vector3(float(a[0]), float(a[1]), float(a[2]))
	return null
