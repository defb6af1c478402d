@tool
extends RefCounted
## cmd_shader_get_params and cmd_shader_set_params: a ShaderMaterial's uniforms and
## values, and setting them (decoded per uniform type, names and ranges checked) as
## ONE undo action, optionally putting a new ShaderMaterial on a node first.

const Params := preload("res://addons/godot_mcp/lib/params.gd")
const Nodes := preload("res://addons/godot_mcp/lib/nodes.gd")
const Files := preload("res://addons/godot_mcp/lib/files.gd")
const Codec := preload("res://addons/godot_mcp/lib/codec.gd")
const Recorder := preload("res://addons/godot_mcp/lib/undo.gd")
const Util := preload("util.gd")

var _router: RefCounted = null


func _init(router: RefCounted) -> void:
	_router = router


func _fail(code: String, hint: String, required: String = "") -> Dictionary:
	return _router.call("fail", code, hint, required)


## The target of [param params]: {label, root, node, property, mat, path} or {error}.
## With [param creating], the property may hold no ShaderMaterial yet.
func _target(params: Dictionary, creating: bool) -> Dictionary:
	var path: String = str(params.get("path", ""))
	if path != "":
		var bad: Dictionary = Files.check_path(path)
		if not bad.is_empty():
			return {"error": bad}
		if not ResourceLoader.exists(path):
			return {"error": Files.not_found(path, "material")}
		var res: Resource = load(path)
		if not (res is ShaderMaterial):
			return {"error": Params.invalid("'%s' is a %s, not a ShaderMaterial." % [path, res.get_class() if res != null else "file Godot cannot load"])}
		return {"label": path, "root": null, "node": null, "property": "", "mat": res, "path": path}
	var root: Node = EditorInterface.get_edited_scene_root()
	if root == null:
		return {"error": _fail("PRECONDITION_FAILED", "No scene is open in the editor. Open one with godot_scene_open, then retry.", "active_scene")}
	var r: Dictionary = Nodes.param(root, params, "node")
	if not r["ok"]:
		return {"error": r["failure"]}
	var node: Node = r["node"]
	var prop: String = str(params.get("property", "material"))
	var props: PackedStringArray = Util.material_properties(node)
	if not props.has(prop):
		var hint: String = "'%s' (%s) has no material property '%s'." % [Util.rel(root, node), node.get_class(), prop]
		hint += Util.did_you_mean(prop, props)
		hint += (" Its material properties: %s." % ", ".join(props)) if not props.is_empty() else " It has no material property: pick a CanvasItem, a GeometryInstance3D or a particles node."
		return {"error": Params.invalid(hint)}
	var label: String = "%s:%s" % [Util.rel(root, node), prop]
	var v: Variant = node.get(prop)
	if not creating:
		if v == null:
			return {"error": _fail("PRECONDITION_FAILED", "%s holds no material. Put one there with godot_shader_set_params {node: \"%s\", property: \"%s\", create_with_shader: \"res://....gdshader\"}." % [label, Util.rel(root, node), prop], "shader_material")}
		if not (v is ShaderMaterial):
			return {"error": Params.invalid("%s holds a %s, not a ShaderMaterial; replace it with create_with_shader." % [label, (v as Object).get_class()])}
	var mat: ShaderMaterial = v as ShaderMaterial
	return {"label": label, "root": root, "node": node, "property": prop, "mat": mat, "path": mat.resource_path if Util.is_file(mat) else ""}


## {target, material, shader, params: [...]} of [param mat].
static func describe(label: String, mat: ShaderMaterial) -> Dictionary:
	var list: Array = []
	for u: Dictionary in Util.uniforms(mat.shader):
		var e: Dictionary = u.duplicate()
		e.erase("variant_type")
		e.erase("hint_id")
		e.erase("group")
		e["value"] = mat.get_shader_parameter(str(u["name"]))
		list.append(e)
	var sh: String = mat.shader.resource_path if mat.shader != null and Util.is_file(mat.shader) else ""
	return {"target": label, "material": mat.resource_path if Util.is_file(mat) else "", "shader": sh, "params": list}


## {path | node, property} -> {target, material, shader, params}
func get_params(params: Dictionary) -> Dictionary:
	var t: Dictionary = _target(params, false)
	if t.has("error"):
		return t["error"]
	return _router.call("ok", describe(t["label"], t["mat"]))


## Why [param v] is outside the hint_range of [param u], or "".
static func _out_of_range(u: Dictionary, v: Variant) -> String:
	if int(u["hint_id"]) != PROPERTY_HINT_RANGE or not (typeof(v) == TYPE_FLOAT or typeof(v) == TYPE_INT):
		return ""
	var parts: PackedStringArray = str(u["hint_string"]).split(",")
	if parts.size() < 2 or parts.has("or_greater") or parts.has("or_less"):
		return ""
	var lo: float = float(parts[0])
	var hi: float = float(parts[1])
	if float(v) < lo or float(v) > hi:
		return "%s = %s is outside its hint_range(%s, %s); give a value in [%s, %s]." % [u["name"], str(v), parts[0], parts[1], parts[0], parts[1]]
	return ""


## {path | node, property, create_with_shader?, set: {name: value}, reset: [names], dry_run}
## -> {target, material, shader, params, changed, created, persisted, undoable, dry_run}
func set_params(params: Dictionary) -> Dictionary:
	var dry: Variant = Params.boolean(params, "dry_run", false)
	var set_v: Variant = params.get("set", {})
	var reset: Variant = Params.string_list(params, "reset")
	var create: String = str(params.get("create_with_shader", ""))
	if dry == null or not (set_v is Dictionary) or reset == null:
		return Params.invalid("Expected {set: {name: value}, reset: [names], create_with_shader: string, dry_run: bool}.")
	var t: Dictionary = _target(params, create != "")
	if t.has("error"):
		return t["error"]
	var mat: ShaderMaterial = t["mat"]
	var node: Node = t["node"]
	var root: Node = t["root"]
	var created: bool = false
	if create != "":
		if not ResourceLoader.exists(create):
			return Files.not_found(create, "shader")
		var sh: Shader = load(create) as Shader
		if sh == null:
			return Params.invalid("'%s' is not a Shader." % create)
		mat = ShaderMaterial.new()
		mat.shader = sh
		created = true
	if mat.shader == null:
		return _fail("PRECONDITION_FAILED", "The ShaderMaterial %s has no shader. Give create_with_shader (on a node) or assign one in the editor." % t["label"], "shader")
	var by_name: Dictionary = {}
	for u: Dictionary in Util.uniforms(mat.shader):
		by_name[str(u["name"])] = u
	var names: PackedStringArray = PackedStringArray(by_name.keys())
	var decoded: Dictionary = {}
	var wanted: Array = (set_v as Dictionary).keys()
	wanted.append_array(reset as Array)
	for k: Variant in wanted:
		var name: String = str(k)
		if not by_name.has(name):
			var hint: String = "The shader %s has no uniform '%s'." % [mat.shader.resource_path, name]
			hint += Util.did_you_mean(name, names)
			hint += (" Its uniforms: %s." % ", ".join(names)) if not names.is_empty() else " It declares no uniform (or does not compile: check it with godot_shader_validate)."
			return Params.invalid(hint)
	for k: Variant in (set_v as Dictionary).keys():
		var u: Dictionary = by_name[str(k)]
		var d: Dictionary = Codec.decode((set_v as Dictionary)[k], int(u["variant_type"]), int(u["hint_id"]), str(u["hint_string"]), node)
		if not d["ok"]:
			return Params.invalid("set.%s (%s %s): %s" % [k, u["type"], k, d["hint"]])
		var why: String = _out_of_range(u, d["value"])
		if why != "":
			return Params.invalid(why)
		decoded[str(k)] = d["value"]
	for k: Variant in reset:
		decoded[str(k)] = null
	var file: String = t["path"]
	var changed: Array = []
	for name: String in decoded.keys():
		var cur: Variant = mat.get_shader_parameter(name)
		if created or typeof(cur) != typeof(decoded[name]) or cur != decoded[name]:
			changed.append(name)
	changed.sort()
	var out: Dictionary = describe(t["label"], mat)
	if file != "" and not created:
		return _commit_file(t["label"], mat, file, decoded, dry, changed, out)
	var rec: Recorder = Recorder.new()
	rec.begin()
	if created:
		var was: Variant = node.get(t["property"])
		rec.do_set(node, t["property"], mat)
		rec.undo_set(node, t["property"], was)
	for name: String in decoded.keys():
		var old: Variant = mat.get_shader_parameter(name)
		rec.do_call(mat, "set_shader_parameter", [name, decoded[name]])
		rec.undo_call(mat, "set_shader_parameter", [name, old])
	out = describe(t["label"], mat)
	out.merge({"changed": changed, "created": created, "dry_run": dry, "undoable": false, "persisted": false})
	if dry:
		rec.rollback()
		return _router.call("ok", out)
	rec.commit("godot-mcp: set shader params of %s" % t["label"], root)
	out["undoable"] = true
	out["persisted"] = true
	if node != root and node.owner != root and not (created and node.owner != null and root.is_editable_instance(node.owner)):
		out["persisted"] = false
		out["reason"] = "'%s' belongs to an instanced scene: its material is saved with that scene, not this one; open and edit that scene instead" % Util.rel(root, node)
	return _router.call("ok", out)


## A material file's edit: one action in the editor's global history whose do and undo
## both set the values and save the file.
func _commit_file(label: String, mat: ShaderMaterial, file: String, decoded: Dictionary, dry: bool, changed: Array, out: Dictionary) -> Dictionary:
	var before: Dictionary = {}
	for name: String in decoded.keys():
		before[name] = mat.get_shader_parameter(name)
		mat.set_shader_parameter(name, decoded[name])
	out = describe(label, mat)
	out.merge({"changed": changed, "created": false, "dry_run": dry, "undoable": false, "persisted": false})
	var err: Error = OK if dry else ResourceSaver.save(mat, file)
	if dry or err != OK:
		for name: String in before.keys():
			mat.set_shader_parameter(name, before[name])
		if err != OK:
			return _fail("INTERNAL_ERROR", "Saving '%s' failed (%s); nothing was changed." % [file, error_string(err)])
		return _router.call("ok", out)
	var ur: EditorUndoRedoManager = EditorInterface.get_editor_undo_redo()
	ur.create_action("godot-mcp: set shader params of %s" % label, UndoRedo.MERGE_DISABLE, mat)
	for name: String in decoded.keys():
		ur.add_do_method(mat, "set_shader_parameter", name, decoded[name])
		ur.add_undo_method(mat, "set_shader_parameter", name, before[name])
	ur.add_do_method(self, "_save", mat, file)
	ur.add_undo_method(self, "_save", mat, file)
	ur.commit_action(false)
	out["undoable"] = true
	out["persisted"] = true
	return _router.call("ok", out)


func _save(mat: ShaderMaterial, file: String) -> void:
	ResourceSaver.save(mat, file)
