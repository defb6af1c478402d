@tool
extends RefCounted
## Shared helpers of the physics toolset's editor commands: answers, node lookup,
## which nodes carry a collision layer and mask, the project's layer names and
## layer references (numbers or names, with did-you-mean).

const Names := preload("res://addons/godot_mcp/lib/names.gd")
const Nodes := preload("res://addons/godot_mcp/lib/nodes.gd")
const LayerNames := preload("res://addons/godot_mcp/lib/layer_names.gd")

var router: RefCounted = null


func _init(r: RefCounted) -> void:
	router = r


func ok(result: Dictionary) -> Dictionary:
	return router.call("ok", result)


func fail(code: String, hint: String, required: String = "") -> Dictionary:
	return router.call("fail", code, hint, required)


func no_scene() -> Dictionary:
	return fail("PRECONDITION_FAILED", "No scene is open in the editor. Open one with godot_scene_open (or create one with godot_scene_create), then retry.", "active_scene")


static func rel(root: Node, n: Node) -> String:
	return Nodes.rel(root, n)


## The node at [param path] in the scene [param root]: {node} or {error} (with did-you-mean).
func find(root: Node, path: String) -> Dictionary:
	var n: Node = Nodes.resolve(root, path)
	if n == null:
		var nf: Dictionary = Nodes.not_found(root, path)
		return {"error": fail(str(nf["error"]), str(nf["hint"]))}
	return {"node": n}


## 2: a collision layer and mask (CollisionObject2D/3D, GridMap, CSG, SoftBody3D);
## 1: a mask only (RayCast, ShapeCast); 0: neither.
static func kind(n: Node) -> int:
	if not ("collision_mask" in n):
		return 0
	return 2 if "collision_layer" in n else 1


static func dim(n: Node) -> String:
	return "3d" if n is Node3D else "2d"


static func setting_key(d: String, i: int) -> String:
	return LayerNames.setting_key("physics", d, i)


## The 32 layer names of dimension [param d] ("" for unnamed), index 0 is layer 1.
static func names(d: String) -> PackedStringArray:
	return LayerNames.names("physics", d)


## [{n, name}] of the named layers in [param all].
static func named(all: PackedStringArray) -> Array:
	return LayerNames.named(all)


## [{n, name?}] of the bits set in [param bits].
static func layers_of(bits: int, all: PackedStringArray) -> Array:
	return LayerNames.layers_of(bits, all)


## The report of one node's layer and mask.
static func node_layers(root: Node, n: Node) -> Dictionary:
	var d: String = dim(n)
	var all: PackedStringArray = names(d)
	var has_layer: bool = kind(n) == 2
	var layer: int = int(n.get("collision_layer")) if has_layer else 0
	var mask: int = int(n.get("collision_mask"))
	return {"path": rel(root, n), "class": n.get_class(), "dimension": d, "has_layer": has_layer,
		"layer": layers_of(layer, all), "mask": layers_of(mask, all), "layer_bits": layer, "mask_bits": mask}


## The bit of a layer reference (a number 1..32 or a name of [param all]): {bit} or {error}.
func ref_bit(ref: Variant, all: PackedStringArray, d: String, where: String) -> Dictionary:
	if typeof(ref) == TYPE_INT or typeof(ref) == TYPE_FLOAT:
		var n: int = int(ref)
		if n < 1 or n > 32:
			return {"error": fail("VALIDATION_ERROR", "%s: layer %d does not exist; layers are 1..32." % [where, n])}
		return {"bit": 1 << (n - 1)}
	var want: String = str(ref)
	var idx: int = all.find(want)
	if idx < 0:
		var folded: Array = []
		for i: int in all.size():
			if all[i] != "" and all[i].to_lower() == want.to_lower():
				folded.append(i)
		if folded.size() == 1:
			idx = int(folded[0])
	if idx >= 0:
		return {"bit": 1 << idx}
	var have: PackedStringArray = []
	for s: String in all:
		if s != "":
			have.append(s)
	var hint: String = "%s: no %s physics layer is named '%s'." % [where, d.to_upper(), want]
	hint += did_you_mean(want, have)
	if have.is_empty():
		hint += " The project names no %s physics layers: name them with godot_physics_set_layers {names: [{dimension: \"%s\", n: 1, name: \"%s\"}]} or use layer numbers." % [d.to_upper(), d, want]
	else:
		hint += " Named %s layers: %s (or use a layer number 1..32)." % [d.to_upper(), ", ".join(have)]
	return {"error": fail("VALIDATION_ERROR", hint)}


## The nearest of [param have] to [param want] as " Did you mean 'x'?", or "" (lib/names.gd).
static func did_you_mean(want: String, have: PackedStringArray, at_least: float = 0.4) -> String:
	return Names.did_you_mean(want, have, at_least)


## Whether edits to [param n] are saved with the scene, and why not.
static func persisted(root: Node, n: Node) -> Dictionary:
	if n == root or n.owner == root:
		return {"persisted": true, "reason": ""}
	if n.owner != null and root.is_editable_instance(n.owner):
		return {"persisted": true, "reason": ""}
	return {"persisted": false, "reason": "'%s' belongs to an instanced scene without Editable Children; edit that scene instead" % rel(root, n)}


## [param n] and its descendants in tree order.
static func walk(n: Node, out: Array[Node]) -> void:
	out.append(n)
	for c: Node in n.get_children():
		walk(c, out)


static func vec(v: Variant) -> Array:
	if v is Vector2:
		return [(v as Vector2).x, (v as Vector2).y]
	if v is Vector3:
		return [(v as Vector3).x, (v as Vector3).y, (v as Vector3).z]
	return []
