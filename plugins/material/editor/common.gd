@tool
extends RefCounted
## Shared helpers of the material toolset's editor commands: answers, node and slot
## lookup (which material property of a node a call means), a material's key
## parameters, setting parameters by name (did-you-mean, range checks) and the one
## undo action every edit is recorded as.

const Names := preload("res://addons/godot_mcp/lib/names.gd")
const Nodes := preload("res://addons/godot_mcp/lib/nodes.gd")
const Codec := preload("res://addons/godot_mcp/lib/codec.gd")
const Files := preload("res://addons/godot_mcp/lib/files.gd")

const SLOTS: PackedStringArray = ["surface", "override", "overlay", "mesh", "canvas"]
## The parameters a read-back shows, when the material has them.
const KEY_PARAMS: PackedStringArray = ["albedo_color", "albedo_texture", "orm_texture", "metallic", "metallic_texture", "metallic_texture_channel",
	"roughness", "roughness_texture", "roughness_texture_channel", "normal_enabled", "normal_texture", "normal_scale", "ao_enabled", "ao_texture",
	"ao_texture_channel", "emission_enabled", "emission", "emission_energy_multiplier", "emission_texture", "heightmap_enabled", "heightmap_texture",
	"heightmap_scale", "transparency", "shading_mode", "cull_mode", "uv1_scale", "texture_filter", "blend_mode", "light_mode", "particles_animation"]

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


static func did_you_mean(want: String, have: PackedStringArray) -> String:
	return Names.did_you_mean(want, have)


static func is_file(res: Resource) -> bool:
	return res != null and res.resource_path != "" and not res.resource_path.contains("::")


static func res_path(res: Variant) -> Variant:
	if res is Resource and is_file(res as Resource):
		return (res as Resource).resource_path
	return null


## The node at params[key] of the edited scene: {node, root} or {error}.
func find_node(params: Dictionary, key: String = "node") -> Dictionary:
	var root: Node = EditorInterface.get_edited_scene_root()
	if root == null:
		return {"error": no_scene()}
	var r: Dictionary = Nodes.param(root, params, key)
	if not r["ok"]:
		return {"error": r["failure"]}
	return {"node": r["node"], "root": root}


## The slots [param n] has, in order of preference.
static func slots_of(n: Node) -> PackedStringArray:
	if n is MeshInstance3D:
		return PackedStringArray(["surface", "override", "overlay", "mesh"])
	if n is GeometryInstance3D:
		return PackedStringArray(["override", "overlay"])
	if n is CanvasItem:
		return PackedStringArray(["canvas"])
	return PackedStringArray()


## The material slot a call means: {node, root, slot, surface, label} or {error}.
## [param mat] (may be null) must suit the slot.
func find_slot(params: Dictionary, mat: Material) -> Dictionary:
	var f: Dictionary = find_node(params)
	if f.has("error"):
		return f
	var root: Node = f["root"]
	var n: Node = f["node"]
	var have: PackedStringArray = slots_of(n)
	var rel: String = Nodes.rel(root, n)
	if have.is_empty():
		return {"error": invalid("'%s' is a %s, which holds no material. Materials go on a MeshInstance3D (surface, mesh), any GeometryInstance3D such as CSG or MultiMeshInstance3D (override, overlay) or a CanvasItem (canvas)." % [rel, n.get_class()])}
	var slot: String = str(params.get("slot", ""))
	if slot == "":
		slot = have[0]
	if not SLOTS.has(slot):
		return {"error": invalid("Unknown slot '%s'.%s Slots: %s." % [slot, did_you_mean(slot, SLOTS), ", ".join(SLOTS)])}
	if not have.has(slot):
		return {"error": invalid("'%s' is a %s: its material slots are %s, not %s." % [rel, n.get_class(), ", ".join(have), slot])}
	var surface: int = int(params.get("surface", 0)) if params.get("surface") != null else 0
	if surface != 0 and slot != "surface" and slot != "mesh":
		return {"error": invalid("surface is for slot surface or mesh; slot %s covers the whole node." % slot)}
	if slot == "surface" or slot == "mesh":
		var mesh: Mesh = (n as MeshInstance3D).mesh
		if mesh == null:
			return {"error": fail("PRECONDITION_FAILED", "'%s' has no mesh, so it has no surfaces; give it a mesh first (or use slot override)." % rel, "mesh")}
		var count: int = mesh.get_surface_count()
		if surface < 0 or surface >= count:
			return {"error": invalid("surface %d does not exist: the mesh of '%s' has %d surface(s): %s." % [surface, rel, count, ", ".join(PackedStringArray(range(count).map(func(i: int) -> String: return str(i))))])}
		if slot == "mesh" and is_file(mesh):
			return {"error": invalid("The mesh of '%s' is the file %s, shared by whatever uses it; set its material there, or use slot surface (this node only)." % [rel, mesh.resource_path])}
	if mat != null:
		if slot == "canvas" and not (mat is CanvasItemMaterial or mat is ShaderMaterial):
			return {"error": invalid("A %s does not work on a CanvasItem: use a CanvasItemMaterial or a ShaderMaterial (canvas_item shader)." % mat.get_class())}
		if slot != "canvas" and mat is CanvasItemMaterial:
			return {"error": invalid("A CanvasItemMaterial is for 2D CanvasItems, not the %s slot of a %s: use a StandardMaterial3D/ORMMaterial3D." % [slot, n.get_class()])}
	var label: String = "%s:%s" % [rel, slot] + ("[%d]" % surface if slot == "surface" or slot == "mesh" else "")
	return {"node": n, "root": root, "slot": slot, "surface": surface, "label": label}


## The material in a slot (see find_slot), or null.
static func slot_get(t: Dictionary) -> Material:
	var n: Node = t["node"]
	match str(t["slot"]):
		"surface":
			return (n as MeshInstance3D).get_surface_override_material(int(t["surface"]))
		"override":
			return (n as GeometryInstance3D).material_override
		"overlay":
			return (n as GeometryInstance3D).material_overlay
		"mesh":
			return (n as MeshInstance3D).mesh.surface_get_material(int(t["surface"]))
		"canvas":
			return (n as CanvasItem).material
	return null


## [obj, name, args, is_property] that puts [param mat] in the slot of [param t].
static func slot_op(t: Dictionary, mat: Material) -> Array:
	var n: Node = t["node"]
	var i: int = int(t["surface"])
	match str(t["slot"]):
		"surface":
			return [n, "surface_material_override/%d" % i, [mat], true]
		"override":
			return [n, "material_override", [mat], true]
		"overlay":
			return [n, "material_overlay", [mat], true]
		"mesh":
			var mesh: Mesh = (n as MeshInstance3D).mesh
			if mesh is PrimitiveMesh:
				return [mesh, "material", [mat], true]
			return [mesh, "surface_set_material", [i, mat], false]
	return [n, "material", [mat], true]


## Whether edits to [param n] are saved with the scene: {persisted, reason}.
static func persist_info(root: Node, n: Node) -> Dictionary:
	return Nodes.persist_info(root, n)


## The key parameters of [param mat]: {class, path, params}.
static func describe(mat: Material) -> Dictionary:
	if mat == null:
		return {}
	var params: Dictionary = {}
	var names: Dictionary = {}
	for p: Dictionary in mat.get_property_list():
		names[str(p["name"])] = true
	for k: String in KEY_PARAMS:
		if names.has(k):
			params[k] = value_out(mat.get(k))
	if mat is ShaderMaterial:
		var sm: ShaderMaterial = mat
		params["shader"] = res_path(sm.shader)
		for k2: String in names.keys():
			if k2.begins_with("shader_parameter/"):
				params[k2.trim_prefix("shader_parameter/")] = value_out(mat.get(k2))
	return {"class": mat.get_class(), "path": res_path(mat), "params": params}


## A value for an answer: resources as their res:// path (or their class when embedded).
static func value_out(v: Variant) -> Variant:
	if v is Resource:
		var r: Resource = v
		return r.resource_path if is_file(r) else "(embedded %s)" % r.get_class()
	return v


## The settable parameters of [param mat]: name -> property info.
static func settable(mat: Material) -> Dictionary:
	var out: Dictionary = {}
	for p: Dictionary in mat.get_property_list():
		var usage: int = int(p["usage"])
		if usage & PROPERTY_USAGE_EDITOR == 0 or usage & (PROPERTY_USAGE_GROUP | PROPERTY_USAGE_SUBGROUP | PROPERTY_USAGE_CATEGORY) != 0:
			continue
		var name: String = str(p["name"])
		if name.begins_with("resource_") or name == "script":
			continue
		out[name] = p
	return out


## Why [param v] is outside the range hint of [param info], or "".
static func out_of_range(name: String, info: Dictionary, v: Variant) -> String:
	if int(info["hint"]) != PROPERTY_HINT_RANGE or not (typeof(v) == TYPE_FLOAT or typeof(v) == TYPE_INT):
		return ""
	var parts: PackedStringArray = str(info["hint_string"]).split(",")
	if parts.size() < 2:
		return ""
	var lo: float = float(parts[0])
	var hi: float = float(parts[1])
	var x: float = float(v)
	if x < lo and not parts.has("or_less"):
		return "%s = %s is below its range [%s, %s]%s." % [name, str(v), parts[0], parts[1], " (or greater)" if parts.has("or_greater") else ""]
	if x > hi and not parts.has("or_greater"):
		return "%s = %s is above its range [%s, %s]%s." % [name, str(v), parts[0], parts[1], " (or less)" if parts.has("or_less") else ""]
	return ""


## Decodes {name: value} for [param mat]: {values: {property: Variant}} (in the order to
## set, feature flags such as normal_enabled switched on for a texture given without
## them) or {error}. ShaderMaterial uniforms are named with or without shader_parameter/.
func decode_params(mat: Material, set_v: Dictionary, reset: Array) -> Dictionary:
	var props: Dictionary = settable(mat)
	var names: PackedStringArray = []
	for k0: String in props.keys():
		names.append(k0.trim_prefix("shader_parameter/"))
	var values: Dictionary = {}
	var wanted: Array = set_v.keys()
	wanted.append_array(reset)
	var resolved: Dictionary = {}
	for k: Variant in wanted:
		var name: String = str(k)
		var prop: String = name
		if not props.has(prop) and props.has("shader_parameter/" + name):
			prop = "shader_parameter/" + name
		if not props.has(prop):
			var hint: String = "A %s has no parameter '%s'.%s" % [mat.get_class(), name, did_you_mean(name, names)]
			hint += " Its parameters: %s." % ", ".join(names)
			return {"error": invalid(hint)}
		resolved[name] = prop
	for k: Variant in set_v.keys():
		var prop: String = resolved[str(k)]
		var info: Dictionary = props[prop]
		var d: Dictionary = Codec.decode(set_v[k], int(info["type"]), int(info["hint"]), str(info["hint_string"]), null)
		if not d["ok"]:
			return {"error": invalid("%s (%s): %s" % [k, type_string(int(info["type"])), d["hint"]])}
		var why: String = out_of_range(str(k), info, d["value"])
		if why != "":
			return {"error": invalid(why)}
		values[prop] = d["value"]
	for k: Variant in reset:
		var prop: String = resolved[str(k)]
		values[prop] = ClassDB.class_get_property_default_value(mat.get_class(), prop) if ClassDB.class_exists(mat.get_class()) and not prop.begins_with("shader_parameter/") else null
	# A texture given without its feature on would do nothing: switch the feature on.
	for prop: String in values.keys():
		if prop.ends_with("_texture") and values[prop] != null:
			var flag: String = prop.trim_suffix("_texture") + "_enabled"
			if props.has(flag) and not values.has(flag) and not bool(mat.get(flag)):
				values[flag] = true
	return {"values": values}


## One undo action of ops [obj, name, args, is_property], applied now; [param context]
## picks the history (a scene root: that scene's; null: the global one).
class Action:
	extends RefCounted
	var do_ops: Array = []
	var undo_ops: Array = []
	var refs: Array = []

	static func run(op: Array) -> void:
		var obj: Object = op[0]
		if not is_instance_valid(obj):
			return
		if op[3]:
			obj.set(op[1], (op[2] as Array)[0])
		else:
			obj.callv(op[1], op[2])

	## Applies [param op] now and records [param undo] as its inverse.
	func step(op: Array, undo: Array) -> void:
		run(op)
		do_ops.append(op)
		undo_ops.push_front(undo)

	## Records [param op] (already done) with its inverse.
	func record(op: Array, undo: Array) -> void:
		do_ops.append(op)
		undo_ops.push_front(undo)

	## Records [param op] (already done) to run last on both sides: after the other
	## do operations, and after the other undo operations (a save of what they set).
	func last(op: Array, undo: Array) -> void:
		do_ops.append(op)
		undo_ops.append(undo)

	func rollback() -> void:
		for op: Array in undo_ops:
			run(op)
		do_ops.clear()
		undo_ops.clear()

	func commit(action_name: String, context: Object) -> void:
		var mgr: EditorUndoRedoManager = EditorInterface.get_editor_undo_redo()
		mgr.create_action(action_name, UndoRedo.MERGE_DISABLE, context)
		mgr.force_fixed_history()
		for op: Array in do_ops:
			_add(mgr, true, op)
		for op: Array in undo_ops:
			_add(mgr, false, op)
		for r: Object in refs:
			mgr.add_do_reference(r)
		mgr.commit_action(false)
		if context is Node:
			EditorInterface.mark_scene_as_unsaved()

	static func _add(mgr: EditorUndoRedoManager, doing: bool, op: Array) -> void:
		var obj: Object = op[0]
		if op[3]:
			if doing:
				mgr.add_do_property(obj, op[1], (op[2] as Array)[0])
			else:
				mgr.add_undo_property(obj, op[1], (op[2] as Array)[0])
			return
		var args: Array = [obj, StringName(op[1])]
		args.append_array(op[2])
		mgr.callv("add_do_method" if doing else "add_undo_method", args)


## The file operations applier (lib/file_ops.gd) and a write/delete pair for saving
## [param mat] at [param path]: saves now, {ok, do, undo} or {ok: false, error}.
func save_material(mat: Material, path: String) -> Dictionary:
	var old: Variant = null
	if FileAccess.file_exists(path):
		old = FileAccess.get_file_as_bytes(path)
	# The highest folder this save creates: undo removes it again (when empty).
	var top: String = ""
	var dir: String = path.get_base_dir()
	while dir != "res://" and dir != "" and not DirAccess.dir_exists_absolute(ProjectSettings.globalize_path(dir)):
		top = dir
		dir = dir.get_base_dir()
	if top != "":
		DirAccess.make_dir_recursive_absolute(ProjectSettings.globalize_path(path.get_base_dir()))
	mat.take_over_path(path)
	var err: Error = ResourceSaver.save(mat, path)
	if err != OK:
		if top != "":
			Files.applier().call("apply", [{"op": "rmdir", "path": top}])
		return {"ok": false, "error": fail("INTERNAL_ERROR", "Saving '%s' failed (%s); nothing was changed." % [path, error_string(err)])}
	var data: PackedByteArray = FileAccess.get_file_as_bytes(path)
	var do_ops: Array = [{"op": "write", "path": path, "data": data}]
	var undo_ops: Array = [{"op": "delete", "path": path}] if old == null else [{"op": "write", "path": path, "data": old}]
	if top != "":
		undo_ops.append({"op": "rmdir", "path": top})
	Files.notify_changed(PackedStringArray([path]), PackedStringArray())
	return {"ok": true, "do": [Files.applier(), "apply", [do_ops], false], "undo": [Files.applier(), "apply", [undo_ops], false]}
