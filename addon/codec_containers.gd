@tool
extends RefCounted
## The value codec's container and object decoders (value_codec.gd is the public face;
## see docs/values.md): packed arrays, typed and untyped arrays and dictionaries,
## resources (by path or inline) and node references.
##
## Each entry point takes [code]dec[/code], value_codec.gd's recursive decoder
## (a Callable with the signature of its _dec), for the elements, so this file never
## preloads value_codec.gd (no preload cycle). Uses no editor-only class, so the
## runtime probe can share it.

## The check that a referenced resource file really is inside the project.
const PathGuard := preload("path_guard.gd")
## Class naming (global script classes).
const Encoder := preload("codec_encode.gd")
## Shapes, element types, property lookup and the result helpers.
const Shapes := preload("codec_shapes.gd")


static func decode_packed(v: Variant, t: int, where: String, dec: Callable) -> Dictionary:
	if typeof(v) != TYPE_ARRAY:
		return Shapes._bad(where, Shapes.shape_of(t), v)
	var items: Array = v
	var elem_type: int = TYPE_NIL
	match t:
		TYPE_PACKED_BYTE_ARRAY, TYPE_PACKED_INT32_ARRAY, TYPE_PACKED_INT64_ARRAY:
			elem_type = TYPE_INT
		TYPE_PACKED_FLOAT32_ARRAY, TYPE_PACKED_FLOAT64_ARRAY:
			elem_type = TYPE_FLOAT
		TYPE_PACKED_STRING_ARRAY:
			elem_type = TYPE_STRING
		TYPE_PACKED_VECTOR2_ARRAY:
			elem_type = TYPE_VECTOR2
		TYPE_PACKED_VECTOR3_ARRAY:
			elem_type = TYPE_VECTOR3
		TYPE_PACKED_VECTOR4_ARRAY:
			elem_type = TYPE_VECTOR4
		TYPE_PACKED_COLOR_ARRAY:
			elem_type = TYPE_COLOR
	var out: Array = []
	for i: int in range(items.size()):
		var at: String = "%s[%d]" % [where, i]
		var e: Dictionary = dec.call(items[i], elem_type, PROPERTY_HINT_NONE, "", null, at, 1)
		if not e["ok"]:
			return e
		if t == TYPE_PACKED_BYTE_ARRAY and (int(e["value"]) < 0 or int(e["value"]) > 255):
			return Shapes._bad(at, "an integer 0..255", items[i])
		if t == TYPE_PACKED_INT32_ARRAY and (int(e["value"]) < -2147483648 or int(e["value"]) > 2147483647):
			return Shapes._bad(at, "a 32-bit integer", items[i])
		out.append(e["value"])
	match t:
		TYPE_PACKED_BYTE_ARRAY:
			return Shapes._ok(PackedByteArray(out))
		TYPE_PACKED_INT32_ARRAY:
			return Shapes._ok(PackedInt32Array(out))
		TYPE_PACKED_INT64_ARRAY:
			return Shapes._ok(PackedInt64Array(out))
		TYPE_PACKED_FLOAT32_ARRAY:
			return Shapes._ok(PackedFloat32Array(out))
		TYPE_PACKED_FLOAT64_ARRAY:
			return Shapes._ok(PackedFloat64Array(out))
		TYPE_PACKED_STRING_ARRAY:
			return Shapes._ok(PackedStringArray(out))
		TYPE_PACKED_VECTOR2_ARRAY:
			return Shapes._ok(PackedVector2Array(out))
		TYPE_PACKED_VECTOR3_ARRAY:
			return Shapes._ok(PackedVector3Array(out))
		TYPE_PACKED_VECTOR4_ARRAY:
			return Shapes._ok(PackedVector4Array(out))
	return Shapes._ok(PackedColorArray(out))


static func decode_array(v: Variant, hint: int, hs: String, ctx: Node, where: String, depth: int, dec: Callable) -> Dictionary:
	if typeof(v) != TYPE_ARRAY:
		return Shapes._bad(where, Shapes.shape_of(TYPE_ARRAY, hint, hs), v)
	var elem: Dictionary = Shapes._element_type(hint, hs)
	var et: int = int(elem.get("type", TYPE_NIL))
	var out: Array = []
	var items: Array = v
	for i: int in range(items.size()):
		var e: Dictionary = dec.call(items[i], et, int(elem.get("hint", 0)), str(elem.get("hint_string", "")), ctx, "%s[%d]" % [where, i], depth + 1)
		if not e["ok"]:
			return e
		out.append(e["value"])
	if et == TYPE_NIL:
		return Shapes._ok(out)
	var typed: Variant = _typed_array(out, et, str(elem.get("class_name", "")))
	if typed == null:
		return Shapes._ok(out)
	return Shapes._ok(typed)


static func _typed_array(items: Array, et: int, cls: String) -> Variant:
	if et != TYPE_OBJECT:
		return Array(items, et, &"", null)
	if cls == "" or ClassDB.class_exists(cls):
		return Array(items, TYPE_OBJECT, StringName(cls if cls != "" else "Object"), null)
	var scr: Script = Encoder._global_script(cls)
	if scr == null:
		return null
	return Array(items, TYPE_OBJECT, scr.get_instance_base_type(), scr)


static func decode_dictionary(v: Variant, hint: int, hs: String, ctx: Node, where: String, depth: int, dec: Callable) -> Dictionary:
	if typeof(v) != TYPE_DICTIONARY:
		return Shapes._bad(where, "an object", v)
	var src: Dictionary = v
	if hint != PROPERTY_HINT_DICTIONARY_TYPE or not hs.contains(";"):
		var plain: Dictionary = {}
		for k: Variant in src.keys():
			var pv: Dictionary = dec.call(src[k], TYPE_NIL, PROPERTY_HINT_NONE, "", ctx, Shapes._join(where, str(k)), depth + 1)
			plain[k] = pv["value"]
		return Shapes._ok(plain)
	var halves: PackedStringArray = hs.split(";", true, 1)
	var kt: Dictionary = Shapes._parse_type_spec(halves[0])
	var vt: Dictionary = Shapes._parse_type_spec(halves[1])
	var key_type: int = int(kt["type"])
	var out: Dictionary = {}
	for k: Variant in src.keys():
		var key: Variant = str(k)
		match key_type:
			TYPE_NIL, TYPE_STRING:
				pass
			TYPE_STRING_NAME:
				key = StringName(key as String)
			TYPE_INT:
				if not (key as String).is_valid_int():
					return Shapes._bad_msg(Shapes._join(where, str(k)), "this dictionary has int keys; \"%s\" is not an integer." % str(k))
				key = (key as String).to_int()
			_:
				return Shapes._bad_msg(where, "a dictionary keyed by %s cannot be written in JSON." % type_string(key_type))
		var dv: Dictionary = dec.call(src[k], int(vt["type"]), int(vt.get("hint", 0)), str(vt.get("hint_string", "")), ctx, Shapes._join(where, str(k)), depth + 1)
		if not dv["ok"]:
			return dv
		out[key] = dv["value"]
	return Shapes._ok(_typed_dictionary(out, kt, vt))


static func _typed_dictionary(d: Dictionary, kt: Dictionary, vt: Dictionary) -> Dictionary:
	var args: Array = []
	for spec: Dictionary in [kt, vt]:
		var t: int = int(spec["type"])
		var cls: String = str(spec.get("class_name", ""))
		if t != TYPE_OBJECT:
			args.append_array([t, &"", null])
		elif cls == "" or ClassDB.class_exists(cls):
			args.append_array([t, StringName(cls if cls != "" else "Object"), null])
		else:
			var scr: Script = Encoder._global_script(cls)
			if scr == null:
				return d
			args.append_array([t, scr.get_instance_base_type(), scr])
	return Dictionary(d, args[0], args[1], args[2], args[3], args[4], args[5])


static func decode_object(v: Variant, hint: int, hs: String, ctx: Node, where: String, depth: int, dec: Callable) -> Dictionary:
	if v == null:
		return Shapes._ok(null)
	if hint == PROPERTY_HINT_NODE_TYPE:
		return _dec_node_ref(v, hs, ctx, where)
	var bases: PackedStringArray = []
	if hint == PROPERTY_HINT_RESOURCE_TYPE and hs != "":
		bases = hs.split(",", false)
	var path: String = ""
	if typeof(v) == TYPE_STRING:
		path = v
	elif typeof(v) == TYPE_DICTIONARY and (v as Dictionary).has("path") and not (v as Dictionary).has("properties"):
		path = str(v["path"])
	if path != "":
		return _load_resource(path, bases, where)
	if typeof(v) == TYPE_DICTIONARY and (v as Dictionary).has("type"):
		return _inline_resource(v, bases, ctx, where, depth, dec)
	return Shapes._bad(where, Shapes.shape_of(TYPE_OBJECT, hint, hs), v)


static func _dec_node_ref(v: Variant, hs: String, ctx: Node, where: String) -> Dictionary:
	var path: String = ""
	if typeof(v) == TYPE_STRING:
		path = v
	elif typeof(v) == TYPE_DICTIONARY and (v as Dictionary).has("path"):
		path = str(v["path"])
	else:
		return Shapes._bad(where, Shapes.shape_of(TYPE_OBJECT, PROPERTY_HINT_NODE_TYPE, hs), v)
	if ctx == null or not is_instance_valid(ctx):
		return Shapes._bad_msg(where, "a node reference needs a node to resolve '%s' against; set it through a scene tool." % path)
	var node: Node = ctx.get_node_or_null(NodePath(path))
	if node == null:
		return Shapes._bad_msg(where, "no node at '%s' (relative to '%s')." % [path, ctx.name])
	if hs != "" and not _is_a(node, hs.split(",", false)):
		return Shapes._bad_msg(where, "'%s' is a %s, expected a %s." % [path, node.get_class(), hs])
	return Shapes._ok(node)


static func _load_resource(path: String, bases: PackedStringArray, where: String) -> Dictionary:
	var real: String = path
	if path.begins_with("uid://"):
		var id: int = ResourceUID.text_to_id(path)
		if id == ResourceUID.INVALID_ID or not ResourceUID.has_id(id):
			return Shapes._bad_msg(where, "no resource has the UID '%s'. Rescan the filesystem or use a res:// path." % path)
		real = ResourceUID.get_id_path(id)
	elif not path.begins_with("res://"):
		return Shapes._bad(where, "a \"res://…\" or \"uid://…\" path", path)
	var outside: String = PathGuard.problem(real)
	if outside != "":
		return Shapes._bad_msg(where, outside + ".")
	if not ResourceLoader.exists(real):
		return Shapes._bad_msg(where, "no resource at '%s'. List files with the resources tools, or check the spelling." % path)
	var res: Resource = load(real)
	if res == null:
		return Shapes._bad_msg(where, "'%s' exists but failed to load; fix or reimport it first." % path)
	if not bases.is_empty() and not _is_a(res, bases):
		return Shapes._bad_msg(where, "'%s' is a %s, expected a %s." % [path, Encoder._class_label(res), " or ".join(bases)])
	return Shapes._ok(res)


static func _inline_resource(v: Dictionary, bases: PackedStringArray, ctx: Node, where: String, depth: int, dec: Callable) -> Dictionary:
	for k: Variant in v.keys():
		if k != "type" and k != "properties":
			return Shapes._bad(where, "an inline resource {type: \"<Class>\", properties?: {…}}", v)
	if typeof(v["type"]) != TYPE_STRING:
		return Shapes._bad(Shapes._join(where, "type"), "a class name", v["type"])
	var cls: String = v["type"]
	var res: Resource = null
	if ClassDB.class_exists(cls):
		if not ClassDB.is_parent_class(cls, "Resource"):
			return Shapes._bad_msg(where, "'%s' is not a Resource class; inline values must be resources." % cls)
		if not ClassDB.can_instantiate(cls):
			return Shapes._bad_msg(where, "'%s' is abstract; pick a concrete subclass (describe the class to see them)." % cls)
		res = ClassDB.instantiate(cls) as Resource
	else:
		var scr: Script = Encoder._global_script(cls)
		if scr == null:
			return Shapes._bad_msg(where, "unknown resource class '%s'." % cls)
		var base: String = str(scr.get_instance_base_type())
		if base == "":
			return Shapes._bad_msg(where, "script class '%s' (%s) has errors; fix it first (godot_scripts_validate)." % [cls, scr.resource_path])
		if not ClassDB.is_parent_class(base, "Resource") or not ClassDB.can_instantiate(base):
			return Shapes._bad_msg(where, "script class '%s' is not an instantiable Resource." % cls)
		if scr.can_instantiate():
			res = scr.call("new") as Resource
		else:
			# In the editor only @tool scripts can be instantiated; like the
			# inspector, build the base class and attach the script (its
			# exported properties are kept and saved).
			res = ClassDB.instantiate(base) as Resource
			if res != null:
				res.set_script(scr)
	if res == null:
		return Shapes._bad_msg(where, "could not create a '%s'." % cls)
	if not bases.is_empty() and not _is_a(res, bases):
		return Shapes._bad_msg(where, "a %s does not fit here; expected a %s." % [cls, " or ".join(bases)])
	var props: Variant = v.get("properties", {})
	if typeof(props) != TYPE_DICTIONARY:
		return Shapes._bad(Shapes._join(where, "properties"), "an object of property values", props)
	for k: Variant in (props as Dictionary).keys():
		var pname: String = str(k)
		var info: Dictionary = Shapes.property_info(res, pname)
		var usage: int = int(info.get("usage", 0))
		if info.is_empty() or ((usage & PROPERTY_USAGE_STORAGE) == 0 and (usage & PROPERTY_USAGE_EDITOR) == 0):
			return Shapes._bad_msg(Shapes._join(where, "properties." + pname), "%s has no property '%s'." % [cls, pname])
		var pv: Dictionary = dec.call(props[k], int(info.get("type", TYPE_NIL)), int(info.get("hint", 0)), str(info.get("hint_string", "")), ctx, Shapes._join(where, "properties." + pname), depth + 1)
		if not pv["ok"]:
			return pv
		res.set(pname, pv["value"])
	return Shapes._ok(res)


## True when [param obj] is one of [param bases] (engine classes or script class names).
static func _is_a(obj: Object, bases: PackedStringArray) -> bool:
	for b: String in bases:
		var base: String = b.strip_edges()
		if ClassDB.class_exists(base):
			if obj.is_class(base):
				return true
			continue
		var scr: Variant = obj.get_script()
		while scr is Script:
			if (scr as Script).get_global_name() == StringName(base):
				return true
			scr = (scr as Script).get_base_script()
	return false
