@tool
extends RefCounted
## add_gi: a ReflectionProbe, VoxelGI or LightmapGI node; bake: a CSG tree to a
## MeshInstance3D (CSGShape3D.bake_static_mesh), a VoxelGI where the renderer draws it,
## and an honest refusal for what cannot be baked here (LightmapGI without a
## lightmapper, VoxelGI outside Forward+). ONE undo action each.

const Common := preload("common.gd")
const Plan := preload("plan.gd")
const Recorder := preload("res://addons/godot_mcp/lib/undo.gd")

const GI := {"reflection_probe": "ReflectionProbe", "voxel_gi": "VoxelGI", "lightmap_gi": "LightmapGI"}
const UPDATE := {"once": ReflectionProbe.UPDATE_ONCE, "always": ReflectionProbe.UPDATE_ALWAYS}

var c: Common = null


func _init(common: Common) -> void:
	c = common


## {type, parent?, name?, size?, position?, update_mode?, interior?, properties?, dry_run}
func add_gi(p: Dictionary) -> Dictionary:
	var root: Node = EditorInterface.get_edited_scene_root()
	if root == null:
		return c.no_scene()
	var ch: Dictionary = c.choice("type", str(p.get("type", "")), PackedStringArray(GI.keys()))
	if ch.has("error"):
		return ch["error"]
	var type: String = ch["value"]
	var pf: Dictionary = c.parent_of(root, p)
	if pf.has("error"):
		return pf["error"]
	var parent: Node = pf["node"]
	var plan: Plan = Plan.new()
	var n: Node3D = ClassDB.instantiate(GI[type])
	var nm: String = str(p.get("name", "")).strip_edges()
	n.name = Common.free_name(parent, nm if nm != "" else GI[type])
	plan.add_node(parent, n)
	var pp: String = Common.rel(root, parent)
	var path: String = str(n.name) if pp == "." else pp.path_join(str(n.name))
	var r: Dictionary = {}
	if p.get("size") != null:
		if type == "lightmap_gi":
			r = {"error": c.invalid("A LightmapGI has no size: it bakes every static mesh under its parent.")}
		else:
			var v: Dictionary = c.vec3("size", p["size"])
			if v.has("error"):
				r = v
			elif (v["value"] as Vector3).x <= 0 or (v["value"] as Vector3).y <= 0 or (v["value"] as Vector3).z <= 0:
				r = {"error": c.invalid("size: every side must be > 0.")}
			else:
				plan.put(n, "size", v["value"], path)
	for k: String in ["update_mode", "interior"]:
		if r.is_empty() and p.get(k) != null and type != "reflection_probe":
			r = {"error": c.invalid("%s is for a reflection_probe." % k)}
	if r.is_empty() and p.get("update_mode") != null:
		var u: Dictionary = c.choice("update_mode", str(p["update_mode"]), PackedStringArray(UPDATE.keys()))
		if u.has("error"):
			r = u
		else:
			plan.put(n, "update_mode", UPDATE[u["value"]], path)
	if r.is_empty() and p.get("interior") != null:
		plan.put(n, "interior", bool(p["interior"]), path)
	if r.is_empty():
		r = c.place(plan, root, parent, n, p, path)
	if r.is_empty():
		var pe: Dictionary = c.set_props(plan, n, n.get_class(), p.get("properties"), root)
		if not pe.is_empty():
			r = {"error": pe}
	if r.has("error"):
		plan.discard()
		return r["error"]
	var why: String = ""
	if type == "voxel_gi":
		why = Common.forward_only_refusal("VoxelGI")
	elif type == "lightmap_gi":
		why = lightmap_refusal()
	if why != "":
		plan.warnings.append(why)
	var out: Dictionary = {"node": path, "class": n.get_class(), "created": [{"path": path, "class": n.get_class()}], "bakeable": why == "" and type != "reflection_probe",
		"warnings": plan.warnings, "dry_run": bool(p.get("dry_run", false)), "undoable": false, "persisted": false, "reason": ""}
	if out["dry_run"]:
		plan.discard()
		out["reason"] = "a dry run"
		return c.ok(out)
	plan.apply("godot-mcp: add %s '%s'" % [GI[type], path], root)
	var pr: Dictionary = Common.persisted(root, n)
	out["undoable"] = true
	out["persisted"] = pr["persisted"]
	out["reason"] = pr["reason"]
	return c.ok(out)


## Why a LightmapGI cannot be baked from here (always a reason: the bake has no script API).
static func lightmap_refusal() -> String:
	if not ClassDB.class_exists("LightmapperRD"):
		return "LightmapGI cannot be baked with this Godot build: it was compiled without a lightmapper (the lightmapper_rd module), so the editor has nothing to bake with. Use an official Godot build (Forward+ or Mobile renderer) and its Bake Lightmaps button, or light the scene with real-time lights."
	var r: Dictionary = Common.renderer()
	if r["editor"] == "gl_compatibility":
		return "LightmapGI cannot be baked while the editor runs the Compatibility renderer: the lightmapper needs a RenderingDevice (Forward+ or Mobile). Open the project with Forward+ or Mobile to bake; Compatibility can still display baked lightmaps."
	return "LightmapGI's bake is the 3D editor's Bake Lightmaps button (select the LightmapGI node); Godot exposes no script method for it, so godot-mcp cannot press it reliably."


## {node, replace?, name?, dry_run} -> {node, kind, created?, removed?, surfaces?, vertices?, ...}
func bake(p: Dictionary) -> Dictionary:
	var root: Node = EditorInterface.get_edited_scene_root()
	if root == null:
		return c.no_scene()
	var f: Dictionary = c.find(root, str(p.get("node", "")))
	if f.has("error"):
		return f["error"]
	var n: Node = f["node"]
	var path: String = Common.rel(root, n)
	var dry: bool = bool(p.get("dry_run", false))
	var replace: bool = bool(p.get("replace", false))
	if replace and not (n is CSGShape3D):
		return c.invalid("replace is for baking a CSG tree (it removes the CSG nodes and leaves the mesh); '%s' is a %s." % [path, n.get_class()])
	if n is CSGShape3D:
		return await _bake_csg(root, n as CSGShape3D, p, dry, replace)
	if n is VoxelGI:
		var why: String = Common.forward_only_refusal("Baking a VoxelGI")
		if why != "":
			return c.fail("PRECONDITION_FAILED", why, "renderer")
		var out: Dictionary = {"node": path, "kind": "voxel_gi", "dry_run": dry, "undoable": false, "persisted": false, "reason": "", "warnings": []}
		if dry:
			out["reason"] = "a dry run"
			return c.ok(out)
		var vg: VoxelGI = n
		var old: Variant = vg.data
		vg.bake()
		var rec: Recorder = Recorder.new()
		rec.begin()
		rec.do_set(vg, "data", vg.data)
		rec.undo_set(vg, "data", old)
		rec.commit("godot-mcp: bake VoxelGI '%s'" % path, root)
		out["baked"] = vg.data != null
		out["undoable"] = true
		var pr: Dictionary = Common.persisted(root, vg)
		out["persisted"] = pr["persisted"]
		out["reason"] = pr["reason"]
		return c.ok(out)
	if n is LightmapGI:
		return c.fail("PRECONDITION_FAILED", lightmap_refusal(), "lightmapper")
	if n is ReflectionProbe:
		return c.invalid("A ReflectionProbe is not baked: it captures its surroundings itself (update_mode once when the scene loads, or always). Set update_mode with godot_world_add_gi's properties or godot_scene_set_properties.")
	return c.invalid("'%s' is a %s; bake takes a CSG root shape (CSGCombiner3D, CSGBox3D, ...), a VoxelGI or a LightmapGI." % [path, n.get_class()])


func _bake_csg(root: Node, csg: CSGShape3D, p: Dictionary, dry: bool, replace: bool) -> Dictionary:
	var path: String = Common.rel(root, csg)
	if not csg.is_root_shape():
		var up: Node = csg.get_parent()
		while up.get_parent() is CSGShape3D:
			up = up.get_parent()
		return c.invalid("'%s' is part of the CSG tree rooted at '%s'; bake the root (the shapes combine there)." % [path, Common.rel(root, up)])
	var mesh: ArrayMesh = csg.bake_static_mesh()
	var tries: int = 0
	while (mesh == null or mesh.get_surface_count() == 0) and tries < 5:
		# The CSG result is built on the next frame after a change.
		await (Engine.get_main_loop() as SceneTree).process_frame
		if not is_instance_valid(csg):
			return c.fail("INTERNAL_ERROR", "The CSG node was removed while it was being baked.")
		mesh = csg.bake_static_mesh()
		tries += 1
	if mesh == null or mesh.get_surface_count() == 0:
		return c.fail("PRECONDITION_FAILED", "The CSG tree '%s' produces no geometry (an empty result: a subtraction that removes everything, an intersection of shapes that do not overlap, or shapes with zero size). Check the child shapes' operations and positions." % path)
	mesh = mesh.duplicate(true)
	var parent: Node = csg.get_parent() if csg != root else null
	if parent == null:
		return c.invalid("'%s' is the scene root; bake a CSG shape below the root (the mesh is added beside it)." % path)
	var vertices: int = 0
	for s: int in mesh.get_surface_count():
		vertices += (mesh.surface_get_arrays(s)[Mesh.ARRAY_VERTEX] as PackedVector3Array).size()
	var mi: MeshInstance3D = MeshInstance3D.new()
	mi.mesh = mesh
	mi.transform = csg.transform
	var nm: String = str(p.get("name", "")).strip_edges()
	var want: String = nm if nm != "" else str(csg.name) + "Mesh"
	mi.name = want if replace and want == str(csg.name) else Common.free_name(parent, want)
	var pp: String = Common.rel(root, parent)
	var mpath: String = str(mi.name) if pp == "." else pp.path_join(str(mi.name))
	var out: Dictionary = {"node": path, "kind": "csg", "created": [{"path": mpath, "class": "MeshInstance3D"}], "surfaces": mesh.get_surface_count(),
		"vertices": vertices, "aabb": {"position": Common.arr3(mesh.get_aabb().position), "size": Common.arr3(mesh.get_aabb().size)},
		"removed": [path] if replace else [], "dry_run": dry, "undoable": false, "persisted": false, "reason": "", "warnings": []}
	if dry:
		mi.free()
		out["reason"] = "a dry run"
		return c.ok(out)
	var rec: Recorder = Recorder.new()
	rec.begin()
	var idx: int = csg.get_index()
	if replace:
		# Removing a subtree clears its nodes' owner: undo re-adds it and sets the
		# owner of every node that had the scene root as owner (read before removal).
		var owned: Array[Node] = []
		_owned(csg, root, owned)
		rec.undo_refs.append(csg)
		rec.do_call(parent, "remove_child", [csg])
		rec.undo_call(parent, "add_child", [csg, true])
		rec.undo_call(parent, "move_child", [csg, idx])
		for o: Node in owned:
			rec.undo_call(o, "set_owner", [root])
	rec.created.append(mi)
	rec.do_refs.append(mi)
	rec.do_call(parent, "add_child", [mi, true])
	rec.do_call(parent, "move_child", [mi, idx + (0 if replace else 1)])
	rec.do_call(mi, "set_owner", [root])
	rec.undo_call(parent, "remove_child", [mi])
	rec.commit("godot-mcp: bake CSG '%s' to a mesh" % path, root)
	out["created"][0]["path"] = Common.rel(root, mi)
	var pr: Dictionary = Common.persisted(root, mi)
	out["undoable"] = true
	out["persisted"] = pr["persisted"]
	out["reason"] = pr["reason"]
	return c.ok(out)


## [param n] and its descendants whose owner is [param root], parents first.
static func _owned(n: Node, root: Node, out: Array[Node]) -> void:
	if n.owner == root:
		out.append(n)
	for ch: Node in n.get_children():
		_owned(ch, root, out)
