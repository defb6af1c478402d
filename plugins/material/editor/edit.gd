@tool
extends RefCounted
## set_params, assign and get: parameters of a material by name (a .tres, or the
## material in a node's slot), putting a material in a slot, and a node's effective
## materials per surface. Every edit is ONE undo action.

const Common := preload("common.gd")
const Files := preload("res://addons/godot_mcp/lib/files.gd")
const Nodes := preload("res://addons/godot_mcp/lib/nodes.gd")

var c: Common = null


func _init(common: Common) -> void:
	c = common


## A material file given by [param path]: {mat} or {error}.
func _load_file(path: String, arg: String) -> Dictionary:
	var bad: Dictionary = Files.check_path(path, arg)
	if not bad.is_empty():
		return {"error": bad}
	if not ResourceLoader.exists(path):
		return {"error": Files.not_found(path, "material")}
	var res: Resource = load(path)
	if not (res is Material):
		return {"error": c.invalid("'%s' is a %s, not a Material." % [path, res.get_class() if res != null else "file Godot cannot load"])}
	return {"mat": res}


## {path | node, slot?, surface?, set: {name: value}, reset: [names], dry_run}
## -> {target, material, changed: [{name, old, new}], persisted, reason, undoable, dry_run}
func set_params(params: Dictionary) -> Dictionary:
	var dry: bool = bool(params.get("dry_run", false))
	var set_v: Variant = params.get("set", {})
	var reset: Variant = params.get("reset", [])
	if set_v == null:
		set_v = {}
	if reset == null:
		reset = []
	if not (set_v is Dictionary) or not (reset is Array):
		return c.invalid("Expected set: {name: value} and reset: [names].")
	var mat: Material = null
	var t: Dictionary = {}
	var label: String = ""
	var path: String = str(params.get("path", ""))
	if path != "":
		var l: Dictionary = _load_file(path, "path")
		if l.has("error"):
			return l["error"]
		mat = l["mat"]
		label = path
	else:
		t = c.find_slot(params, null)
		if t.has("error"):
			return t["error"]
		mat = Common.slot_get(t)
		label = t["label"]
		if mat == null:
			return c.fail("PRECONDITION_FAILED", "%s holds no material. Make one with godot_material_create {node: \"%s\", slot: \"%s\"}, or read the node's materials with godot_material_get." % [label, Nodes.rel(t["root"], t["node"]), t["slot"]], "material")
	var d: Dictionary = c.decode_params(mat, set_v as Dictionary, reset as Array)
	if d.has("error"):
		return d["error"]
	var values: Dictionary = d["values"]
	var changed: Array = []
	var before: Dictionary = {}
	for prop: String in values.keys():
		var old: Variant = mat.get(prop)
		before[prop] = old
		if typeof(old) != typeof(values[prop]) or old != values[prop]:
			changed.append({"name": prop, "old": Common.value_out(old), "new": Common.value_out(values[prop])})
	var file: String = mat.resource_path if Common.is_file(mat) else ""
	var out: Dictionary = {"target": label, "changed": changed, "dry_run": dry, "undoable": false, "persisted": false, "reason": ""}
	if file != "":
		out["file"] = file
	var act: Common.Action = Common.Action.new()
	for prop2: String in values.keys():
		act.step([mat, prop2, [values[prop2]], true], [mat, prop2, [before[prop2]], true])
	out["material"] = Common.describe(mat)
	if dry:
		act.rollback()
		out["reason"] = "a dry run"
		return c.ok(out)
	if file != "":
		# A material file: saved now, and again by undo and redo.
		var err: Error = ResourceSaver.save(mat, file)
		if err != OK:
			act.rollback()
			return c.fail("INTERNAL_ERROR", "Saving '%s' failed (%s); nothing was changed." % [file, error_string(err)])
		act.last([self, "_save", [mat, file], false], [self, "_save", [mat, file], false])
		act.commit("godot-mcp: set material params of %s" % label, self)
		out["persisted"] = true
	else:
		act.commit("godot-mcp: set material params of %s" % label, t["root"])
		var pr: Dictionary = Common.persist_info(t["root"], t["node"])
		out["persisted"] = pr["persisted"]
		out["reason"] = pr["reason"]
	out["undoable"] = true
	return c.ok(out)


func _save(mat: Material, file: String) -> void:
	ResourceSaver.save(mat, file)


## {node, slot?, surface?, material: res:// path | "" (clears), dry_run}
## -> {node, slot, surface, previous, material, persisted, reason, undoable, dry_run}
func assign(params: Dictionary) -> Dictionary:
	var dry: bool = bool(params.get("dry_run", false))
	var mpath: String = str(params.get("material", ""))
	var mat: Material = null
	if mpath != "":
		var l: Dictionary = _load_file(mpath, "material")
		if l.has("error"):
			return l["error"]
		mat = l["mat"]
	var t: Dictionary = c.find_slot(params, mat)
	if t.has("error"):
		return t["error"]
	var prev: Material = Common.slot_get(t)
	var out: Dictionary = {"node": Nodes.rel(t["root"], t["node"]), "slot": t["slot"], "surface": t["surface"], "previous": Common.describe(prev),
		"material": Common.describe(mat), "dry_run": dry, "undoable": false, "persisted": false, "reason": ""}
	if dry:
		out["reason"] = "a dry run"
		return c.ok(out)
	var act: Common.Action = Common.Action.new()
	act.step(Common.slot_op(t, mat), Common.slot_op(t, prev))
	act.commit("godot-mcp: %s material of %s" % ["set" if mat != null else "clear", t["label"]], t["root"])
	var pr: Dictionary = Common.persist_info(t["root"], t["node"])
	out["persisted"] = pr["persisted"]
	out["reason"] = pr["reason"]
	out["undoable"] = true
	return c.ok(out)


## {node | path} -> {node?, class, surfaces: [{surface, source, material, surface_override, mesh_material}],
## override?, overlay?, canvas?, material?}
func get_materials(params: Dictionary) -> Dictionary:
	var path: String = str(params.get("path", ""))
	if path != "":
		var l: Dictionary = _load_file(path, "path")
		if l.has("error"):
			return l["error"]
		return c.ok({"path": path, "class": (l["mat"] as Material).get_class(), "material": Common.describe(l["mat"]), "surfaces": []})
	var f: Dictionary = c.find_node(params)
	if f.has("error"):
		return f["error"]
	var n: Node = f["node"]
	var root: Node = f["root"]
	var out: Dictionary = {"node": Nodes.rel(root, n), "class": n.get_class(), "surfaces": []}
	if Common.slots_of(n).is_empty():
		return c.invalid("'%s' is a %s, which holds no material. Materials go on a MeshInstance3D, any GeometryInstance3D (CSG, MultiMeshInstance3D, …) or a CanvasItem." % [Nodes.rel(root, n), n.get_class()])
	if n is GeometryInstance3D:
		var gi: GeometryInstance3D = n
		out["override"] = Common.describe(gi.material_override)
		out["overlay"] = Common.describe(gi.material_overlay)
		if n is MeshInstance3D and (n as MeshInstance3D).mesh != null:
			var mi: MeshInstance3D = n
			var list: Array = []
			for i: int in mi.mesh.get_surface_count():
				var so: Material = mi.get_surface_override_material(i)
				var mm: Material = mi.mesh.surface_get_material(i)
				var src: String = "none"
				var eff: Material = null
				if gi.material_override != null:
					src = "override"
					eff = gi.material_override
				elif so != null:
					src = "surface_override"
					eff = so
				elif mm != null:
					src = "mesh"
					eff = mm
				list.append({"surface": i, "source": src, "material": Common.describe(eff),
					"surface_override": Common.describe(so), "mesh_material": Common.describe(mm)})
			out["surfaces"] = list
			out["mesh"] = Common.res_path(mi.mesh) if Common.is_file(mi.mesh) else "(embedded %s)" % mi.mesh.get_class()
		elif "material" in n and n.get("material") is Material:
			# CSG primitives carry a material of their own.
			var own: Material = n.get("material")
			var src2: String = "override" if gi.material_override != null else "material"
			out["surfaces"] = [{"surface": 0, "source": src2, "material": Common.describe(gi.material_override if gi.material_override != null else own),
				"surface_override": {}, "mesh_material": Common.describe(own)}]
	elif n is CanvasItem:
		var ci: CanvasItem = n
		var eff2: CanvasItem = ci
		while eff2 != null and eff2.use_parent_material and eff2.get_parent() is CanvasItem:
			eff2 = eff2.get_parent() as CanvasItem
		out["canvas"] = Common.describe(ci.material)
		out["use_parent_material"] = ci.use_parent_material
		out["surfaces"] = [{"surface": 0, "source": "canvas" if eff2 == ci else "parent:" + Nodes.rel(root, eff2), "material": Common.describe(eff2.material),
			"surface_override": {}, "mesh_material": {}}]
	return c.ok(out)
