@tool
extends RefCounted
## cmd_visual_shader_globals_list / _set: the project's global shader uniforms
## (project settings shader_globals/<name> = {type, value}), as the editor's Shader
## Globals tab edits them: the setting, saved to project.godot, and the renderer's live
## copy, ONE undo action per call.

const Common := preload("common.gd")
const Params := preload("res://addons/godot_mcp/lib/params.gd")
const Codec := preload("res://addons/godot_mcp/lib/codec.gd")
const Files := preload("res://addons/godot_mcp/lib/files.gd")

const PREFIX := "shader_globals/"
## RenderingServer.GlobalShaderParameterType order, as project.godot names them.
const TYPES := ["bool", "bvec2", "bvec3", "bvec4", "int", "ivec2", "ivec3", "ivec4", "rect2i", "uint", "uvec2", "uvec3", "uvec4",
	"float", "vec2", "vec3", "vec4", "color", "rect2", "mat2", "mat3", "mat4", "transform_2d", "transform",
	"sampler2D", "sampler2DArray", "sampler3D", "samplerCube", "samplerExternalOES"]
const VARIANT := {"bool": TYPE_BOOL, "bvec2": TYPE_INT, "bvec3": TYPE_INT, "bvec4": TYPE_INT, "int": TYPE_INT, "ivec2": TYPE_VECTOR2I,
	"ivec3": TYPE_VECTOR3I, "ivec4": TYPE_VECTOR4I, "rect2i": TYPE_RECT2I, "uint": TYPE_INT, "uvec2": TYPE_VECTOR2I, "uvec3": TYPE_VECTOR3I,
	"uvec4": TYPE_VECTOR4I, "float": TYPE_FLOAT, "vec2": TYPE_VECTOR2, "vec3": TYPE_VECTOR3, "vec4": TYPE_VECTOR4, "color": TYPE_COLOR,
	"rect2": TYPE_RECT2, "mat2": TYPE_PACKED_FLOAT32_ARRAY, "mat3": TYPE_BASIS, "mat4": TYPE_PROJECTION, "transform_2d": TYPE_TRANSFORM2D,
	"transform": TYPE_TRANSFORM3D}
const SAMPLER_CLASS := {"sampler2D": "Texture2D", "sampler2DArray": "Texture2DArray", "sampler3D": "Texture3D", "samplerCube": "Cubemap", "samplerExternalOES": "Texture2D"}
## Words of the shading language a global may not be named.
const RESERVED := ["void", "bool", "int", "uint", "float", "vec2", "vec3", "vec4", "bvec2", "bvec3", "bvec4", "ivec2", "ivec3", "ivec4",
	"uvec2", "uvec3", "uvec4", "mat2", "mat3", "mat4", "sampler2D", "sampler3D", "samplerCube", "sampler2DArray", "isampler2D", "usampler2D",
	"if", "else", "for", "while", "do", "switch", "case", "default", "break", "continue", "return", "discard", "uniform", "varying", "const",
	"struct", "in", "out", "inout", "true", "false", "lowp", "mediump", "highp", "instance", "global", "render_mode", "shader_type",
	"flat", "smooth", "group_uniforms", "stencil_mode", "script"]

var c: Common = null


func _init(common: Common) -> void:
	c = common


## {name: {type, value}} of the project's globals.
static func current() -> Dictionary:
	var out: Dictionary = {}
	for pr: Dictionary in ProjectSettings.get_property_list():
		var n: String = pr["name"]
		if n.begins_with(PREFIX):
			var v: Variant = ProjectSettings.get_setting(n)
			if v is Dictionary:
				out[n.trim_prefix(PREFIX)] = v
	return out


static func _listing(all: Dictionary) -> Array:
	var names: Array = all.keys()
	names.sort()
	var out: Array = []
	for n: String in names:
		out.append({"name": n, "type": str(all[n].get("type", "")), "value": Codec.encode(all[n].get("value"))})
	return out


## {} -> {globals: [{name, type, value}]}
func list(_params: Dictionary) -> Dictionary:
	return c.ok({"globals": _listing(current())})


## The value [param v] for a global of type [param ty]: {value (for the setting), rs
## (for the renderer)} or {error}.
func _decode(ty: String, v: Variant, where: String) -> Dictionary:
	if SAMPLER_CLASS.has(ty):
		if v == null or str(v) == "":
			return {"value": "", "rs": null}
		if typeof(v) != TYPE_STRING:
			return {"error": c.invalid("%s: a %s global takes a res:// path of a %s (or \"\")." % [where, ty, SAMPLER_CLASS[ty]])}
		var bad: Dictionary = Files.check_path(v, where)
		if not bad.is_empty():
			return {"error": bad}
		if not ResourceLoader.exists(v):
			return {"error": Files.not_found(v, SAMPLER_CLASS[ty])}
		var res: Resource = ResourceLoader.load(v)
		if res == null or not res.is_class(SAMPLER_CLASS[ty]):
			return {"error": c.invalid("%s: '%s' is a %s; a %s global takes a %s." % [where, v, res.get_class() if res != null else "resource Godot cannot load", ty, SAMPLER_CLASS[ty]])}
		return {"value": v, "rs": res}
	var vt: int = VARIANT[ty]
	if v == null:
		var def: Variant = type_convert(null, vt)
		if ty == "mat2":
			def = PackedFloat32Array([1, 0, 0, 1])
		elif ty == "mat3":
			def = Basis()
		elif ty == "mat4":
			def = Projection.IDENTITY
		elif ty == "transform":
			def = Transform3D()
		elif ty == "transform_2d":
			def = Transform2D()
		return {"value": def, "rs": def}
	var d: Dictionary = Codec.decode(v, vt)
	if not d.get("ok", false):
		return {"error": c.invalid("%s: a %s global: %s" % [where, ty, str(d.get("hint", "bad value"))])}
	var val: Variant = d["value"]
	var limit: int = {"bvec2": 3, "bvec3": 7, "bvec4": 15}.get(ty, -1)
	if limit >= 0 and (int(val) < 0 or int(val) > limit):
		return {"error": c.invalid("%s: a %s global is a bit mask 0..%d (bit 0 = x)." % [where, ty, limit])}
	if ty == "uint" and int(val) < 0:
		return {"error": c.invalid("%s: a uint global cannot be negative." % where)}
	if ty in ["uvec2", "uvec3", "uvec4"]:
		for i: int in int(ty.right(1)):
			if val[i] < 0:
				return {"error": c.invalid("%s: a %s global cannot have negative components." % [where, ty])}
	if ty == "mat2" and (val as PackedFloat32Array).size() != 4:
		return {"error": c.invalid("%s: a mat2 global is 4 numbers [a, b, c, d]." % where)}
	return {"value": val, "rs": val}


## {changes: [{action: add|set|remove, name, type?, value?}], dry_run} ->
## {changes: [{action, name, type, old, new}], globals, undoable, dry_run}
func set_globals(params: Dictionary) -> Dictionary:
	var dry: Variant = Params.boolean(params, "dry_run", false)
	if dry == null:
		return c.invalid("dry_run must be true or false.")
	var changes: Variant = params.get("changes")
	if not (changes is Array) or (changes as Array).is_empty():
		return c.invalid("changes must be a non-empty array of {action: add|set|remove, name, type, value}.")
	var all: Dictionary = current()
	var after: Dictionary = all.duplicate(true)
	var seen: Dictionary = {}
	var plan: Array = []
	var re: RegEx = RegEx.create_from_string("^[A-Za-z_][A-Za-z0-9_]*$")
	for i: int in (changes as Array).size():
		var e: Variant = changes[i]
		var where: String = "changes[%d]" % i
		if not (e is Dictionary):
			return c.invalid("%s must be {action, name, type?, value?}." % where)
		var action: String = str(e.get("action", ""))
		var name: String = str(e.get("name", ""))
		if not ["add", "set", "remove"].has(action):
			return c.invalid("%s: action must be add, set or remove, not '%s'.%s" % [where, action, Common.Names.did_you_mean(action, PackedStringArray(["add", "set", "remove"]))])
		if seen.has(name):
			return c.invalid("%s: '%s' is changed twice in one call; give it once." % [where, name])
		seen[name] = true
		var names: PackedStringArray = PackedStringArray(all.keys())
		if action == "add":
			if re.search(name) == null:
				return c.invalid("%s: '%s' is not a valid name (letters, digits and _, not starting with a digit)." % [where, name])
			if RESERVED.has(name):
				return c.invalid("%s: '%s' is a reserved word of the shading language." % [where, name])
			if all.has(name):
				return c.invalid("%s: a global '%s' exists (%s); use action set to change its value, or remove it first." % [where, name, all[name].get("type", "")])
			var ty: String = str(e.get("type", ""))
			if not TYPES.has(ty):
				return c.invalid("%s: unknown type '%s'.%s Valid: %s." % [where, ty, Common.Names.did_you_mean(ty, PackedStringArray(TYPES)), ", ".join(PackedStringArray(TYPES))])
			var d: Dictionary = _decode(ty, e.get("value"), where)
			if d.has("error"):
				return d["error"]
			plan.append({"action": "add", "name": name, "type": ty, "old": null, "new": {"type": ty, "value": d["value"]}, "rs": d["rs"]})
			after[name] = {"type": ty, "value": d["value"]}
			continue
		if not all.has(name):
			return c.fail("RESOURCE_NOT_FOUND", "%s: no global shader uniform '%s'.%s Globals: %s." % [where, name, Common.Names.did_you_mean(name, names), ", ".join(names) if not names.is_empty() else "none (add one with action add)"])
		var ty: String = str(all[name].get("type", ""))
		if action == "remove":
			plan.append({"action": "remove", "name": name, "type": ty, "old": all[name], "new": null, "rs_old": _rs_value(ty, all[name].get("value"))})
			after.erase(name)
			continue
		if e.has("type") and e["type"] != null and str(e["type"]) != ty:
			return c.invalid("%s: '%s' is a %s global; its type does not change with set (remove it and add it again)." % [where, name, ty])
		if not e.has("value"):
			return c.invalid("%s: set needs value." % where)
		var d: Dictionary = _decode(ty, e["value"], where)
		if d.has("error"):
			return d["error"]
		plan.append({"action": "set", "name": name, "type": ty, "old": all[name], "new": {"type": ty, "value": d["value"]}, "rs": d["rs"], "rs_old": _rs_value(ty, all[name].get("value"))})
		after[name] = {"type": ty, "value": d["value"]}
	var report: Array = []
	for s: Dictionary in plan:
		report.append({"action": s["action"], "name": s["name"], "type": s["type"],
			"old": Codec.encode((s["old"] as Dictionary).get("value")) if s["old"] != null else null,
			"new": Codec.encode((s["new"] as Dictionary).get("value")) if s["new"] != null else null})
	var out: Dictionary = {"changes": report, "globals": _listing(after), "undoable": not dry, "dry_run": dry}
	if dry:
		return c.ok(out)
	var mgr: EditorUndoRedoManager = EditorInterface.get_editor_undo_redo()
	var ps: Object = Engine.get_singleton("ProjectSettings")
	var rs: Object = Engine.get_singleton("RenderingServer")
	mgr.create_action("godot-mcp: shader globals", UndoRedo.MERGE_DISABLE, null)
	for s: Dictionary in plan:
		var key: String = PREFIX + str(s["name"])
		var ty_i: int = TYPES.find(str(s["type"]))
		mgr.add_do_property(ps, key, s["new"])
		mgr.add_undo_property(ps, key, s["old"])
		match str(s["action"]):
			"add":
				mgr.add_do_method(rs, "global_shader_parameter_add", StringName(s["name"]), ty_i, s["rs"])
				mgr.add_undo_method(rs, "global_shader_parameter_remove", StringName(s["name"]))
			"set":
				mgr.add_do_method(rs, "global_shader_parameter_set", StringName(s["name"]), s["rs"])
				mgr.add_undo_method(rs, "global_shader_parameter_set", StringName(s["name"]), s["rs_old"])
			"remove":
				mgr.add_do_method(rs, "global_shader_parameter_remove", StringName(s["name"]))
				mgr.add_undo_method(rs, "global_shader_parameter_add", StringName(s["name"]), ty_i, s["rs_old"])
	mgr.add_do_method(ps, "save")
	mgr.add_undo_method(ps, "save")
	mgr.commit_action(true)
	return c.ok(out)


static func _rs_value(ty: String, v: Variant) -> Variant:
	if SAMPLER_CLASS.has(ty):
		return ResourceLoader.load(str(v)) if str(v) != "" and ResourceLoader.exists(str(v)) else null
	return v
