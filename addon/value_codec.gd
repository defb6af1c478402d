@tool
extends RefCounted
## JSON <-> Variant codec for godot-mcp (see docs/values.md for every shape).
##
## decode() turns a JSON value (as parsed by Godot's JSON, where every number is
## a float) into a Variant of the target type, or refuses it with a hint that
## shows the expected shape. It never coerces a value that does not fit to zero.
## encode() turns any Variant into a JSON-safe value.
##
## The codec uses no editor-only class by name, so the runtime probe can share it.

## The check that a referenced resource file really is inside the project.
const PathGuard := preload("path_guard.gd")
## Encoding (encode()) and class naming.
const Encoder := preload("codec_encode.gd")
const MAX_INLINE_DEPTH := Encoder.MAX_INLINE_DEPTH
const MAX_INT_FLOAT := 9007199254740992.0 # 2^53: the largest integer a JSON number carries exactly

static var _type_names: Dictionary = {}


# --- public API -------------------------------------------------------------


## Decodes a JSON value for a target of Variant type [param target_type] (a TYPE_* constant),
## with the property's [param hint] and [param hint_string]. [param context] is the node that
## relative node paths are resolved against, when the target is a Node reference.
## Returns {ok: true, value} or {ok: false, hint}.
static func decode(value: Variant, target_type: int, hint: int = PROPERTY_HINT_NONE, hint_string: String = "", context: Node = null) -> Dictionary:
	return _dec(value, target_type, hint, hint_string, context, "", 0)


## Decodes [param value] for the property [param property] of [param obj], using the
## property's own type and hint. Unknown properties are refused with a hint.
static func decode_property(obj: Object, property: String, value: Variant, context: Node = null) -> Dictionary:
	var info: Dictionary = property_info(obj, property)
	if info.is_empty():
		return {"ok": false, "hint": "%s has no property '%s'." % [_class_label(obj), property]}
	var t: int = info.get("type", TYPE_NIL)
	var h: int = info.get("hint", PROPERTY_HINT_NONE)
	var hs: String = str(info.get("hint_string", ""))
	return _dec(value, t, h, hs, context, property, 0)


## Returns the property-list entry of [param property] on [param obj], or {} when it has none.
static func property_info(obj: Object, property: String) -> Dictionary:
	if obj == null or not is_instance_valid(obj):
		return {}
	for p: Dictionary in obj.get_property_list():
		if str(p.get("name", "")) == property:
			return p
	return {}


## Encodes any Variant into a JSON-safe value (null, bool, number, string, array, object).
static func encode(v: Variant) -> Variant:
	return Encoder.encode(v)


## Returns the TYPE_* constant for a Variant type name ("Vector2", "int", "Variant", …),
## or -1 when the name is unknown. Case-insensitive.
static func type_from_name(type_name: String) -> int:
	if _type_names.is_empty():
		for t: int in range(TYPE_MAX):
			_type_names[type_string(t).to_lower()] = t
		_type_names["variant"] = TYPE_NIL
		_type_names["nil"] = TYPE_NIL
		_type_names["null"] = TYPE_NIL
	return int(_type_names.get(type_name.strip_edges().to_lower(), -1))


## Describes the JSON shape the codec expects for a target type, for hints and docs.
static func shape_of(target_type: int, hint: int = PROPERTY_HINT_NONE, hint_string: String = "") -> String:
	match target_type:
		TYPE_NIL:
			return "any JSON value"
		TYPE_BOOL:
			return "true or false"
		TYPE_INT:
			if hint == PROPERTY_HINT_ENUM or hint == PROPERTY_HINT_FLAGS:
				var names: Array = _enum_map(hint, hint_string).keys()
				var listed: String = ", ".join(PackedStringArray(names.slice(0, 16)))
				if hint == PROPERTY_HINT_FLAGS:
					return "an integer bitmask, a flag name or an array of flag names (%s)" % listed
				return "an integer or one of the names %s" % listed
			return "an integer"
		TYPE_FLOAT:
			return "a number"
		TYPE_STRING:
			if hint == PROPERTY_HINT_ENUM:
				return "one of the strings %s" % ", ".join(hint_string.split(",", false))
			return "a string"
		TYPE_STRING_NAME:
			return "a string"
		TYPE_NODE_PATH:
			return "a node path string such as \"Player/Sprite2D\""
		TYPE_VECTOR2:
			return "{x: number, y: number}"
		TYPE_VECTOR2I:
			return "{x: int, y: int}"
		TYPE_VECTOR3:
			return "{x: number, y: number, z: number}"
		TYPE_VECTOR3I:
			return "{x: int, y: int, z: int}"
		TYPE_VECTOR4:
			return "{x: number, y: number, z: number, w: number}"
		TYPE_VECTOR4I:
			return "{x: int, y: int, z: int, w: int}"
		TYPE_COLOR:
			return "{r: number, g: number, b: number, a?: number} (0..1) or \"#rrggbb[aa]\""
		TYPE_RECT2:
			return "{position: {x: number, y: number}, size: {x: number, y: number}}"
		TYPE_RECT2I:
			return "{position: {x: int, y: int}, size: {x: int, y: int}}"
		TYPE_TRANSFORM2D:
			return "{x: {x, y}, y: {x, y}, origin: {x, y}} (numbers)"
		TYPE_TRANSFORM3D:
			return "{basis: {x: {x, y, z}, y: {x, y, z}, z: {x, y, z}}, origin: {x, y, z}} (numbers)"
		TYPE_BASIS:
			return "{x: {x, y, z}, y: {x, y, z}, z: {x, y, z}} (column vectors, numbers)"
		TYPE_QUATERNION:
			return "{x: number, y: number, z: number, w: number}"
		TYPE_AABB:
			return "{position: {x, y, z}, size: {x, y, z}} (numbers)"
		TYPE_PLANE:
			return "{normal: {x, y, z}, d: number}"
		TYPE_PROJECTION:
			return "{x: {x, y, z, w}, y: {…}, z: {…}, w: {…}} (column vectors, numbers)"
		TYPE_OBJECT:
			if hint == PROPERTY_HINT_NODE_TYPE:
				return "a node path string (relative to the edited node) to a %s, or null" % (hint_string if hint_string != "" else "Node")
			var of_type: String = hint_string if (hint == PROPERTY_HINT_RESOURCE_TYPE and hint_string != "") else "Resource"
			return "a \"res://…\" or \"uid://…\" path to a %s, an inline {type: \"<%s class>\", properties: {…}}, or null" % [of_type, of_type]
		TYPE_DICTIONARY:
			return "an object"
		TYPE_ARRAY:
			var elem: Dictionary = _element_type(hint, hint_string)
			if int(elem.get("type", TYPE_NIL)) != TYPE_NIL:
				return "an array of %s" % shape_of(int(elem["type"]), int(elem.get("hint", 0)), str(elem.get("hint_string", "")))
			return "an array"
		TYPE_PACKED_BYTE_ARRAY:
			return "an array of integers 0..255"
		TYPE_PACKED_INT32_ARRAY, TYPE_PACKED_INT64_ARRAY:
			return "an array of integers"
		TYPE_PACKED_FLOAT32_ARRAY, TYPE_PACKED_FLOAT64_ARRAY:
			return "an array of numbers"
		TYPE_PACKED_STRING_ARRAY:
			return "an array of strings"
		TYPE_PACKED_VECTOR2_ARRAY:
			return "an array of {x, y}"
		TYPE_PACKED_VECTOR3_ARRAY:
			return "an array of {x, y, z}"
		TYPE_PACKED_VECTOR4_ARRAY:
			return "an array of {x, y, z, w}"
		TYPE_PACKED_COLOR_ARRAY:
			return "an array of colors ({r, g, b, a?} or \"#rrggbb[aa]\")"
	return "a %s (not settable from JSON)" % type_string(target_type)


# --- decoding -----------------------------------------------------------------


static func _ok(v: Variant) -> Dictionary:
	return {"ok": true, "value": v}


static func _bad(where: String, expected: String, got: Variant) -> Dictionary:
	return {"ok": false, "hint": "%sexpected %s, got %s." % [_prefix(where), expected, _describe(got)]}


static func _bad_msg(where: String, msg: String) -> Dictionary:
	return {"ok": false, "hint": _prefix(where) + msg}


static func _prefix(where: String) -> String:
	return "" if where == "" else where + ": "


static func _join(where: String, key: String) -> String:
	return key if where == "" else where + "." + key


static func _describe(v: Variant) -> String:
	match typeof(v):
		TYPE_NIL:
			return "null"
		TYPE_BOOL:
			return "the boolean %s" % ("true" if v else "false")
		TYPE_INT, TYPE_FLOAT:
			return "the number %s" % str(v)
		TYPE_STRING, TYPE_STRING_NAME:
			var s: String = str(v)
			if s.length() > 40:
				s = s.substr(0, 40) + "…"
			return "the string \"%s\"" % s
		TYPE_ARRAY:
			return "an array of %d item(s)" % (v as Array).size()
		TYPE_DICTIONARY:
			var keys: PackedStringArray = []
			for k: Variant in (v as Dictionary).keys():
				keys.append(str(k))
			return "an object with keys {%s}" % ", ".join(keys)
	return "a value of type %s" % type_string(typeof(v))


static func _is_num(v: Variant) -> bool:
	return typeof(v) == TYPE_INT or typeof(v) == TYPE_FLOAT


## A float from a JSON number or from "inf", "-inf", "nan" (what encode() writes for
## non-finite floats); null when [param v] is neither.
static func _to_float(v: Variant) -> Variant:
	if _is_num(v):
		return float(v)
	if typeof(v) == TYPE_STRING:
		match (v as String).to_lower():
			"inf", "+inf", "infinity":
				return INF
			"-inf", "-infinity":
				return -INF
			"nan":
				return NAN
	return null


## An int from an integral JSON number; null otherwise.
static func _to_int(v: Variant) -> Variant:
	if typeof(v) == TYPE_INT:
		return v
	if typeof(v) == TYPE_FLOAT:
		var f: float = v
		if is_finite(f) and f == floorf(f) and absf(f) <= MAX_INT_FLOAT:
			return int(f)
	return null


## Reads exactly [param keys] from a JSON object as numbers (ints when [param integral]);
## returns the Array of values, or null when the value does not have that shape.
static func _components(v: Variant, keys: Array, integral: bool) -> Variant:
	if typeof(v) != TYPE_DICTIONARY:
		return null
	var d: Dictionary = v
	if d.size() != keys.size():
		return null
	var out: Array = []
	for k: Variant in keys:
		if not d.has(k):
			return null
		var c: Variant = _to_int(d[k]) if integral else _to_float(d[k])
		if c == null:
			return null
		out.append(c)
	return out


## The refusal for a shape read by _components(): names the bad component when the
## keys are right, else shows the whole expected shape.
static func _component_failure(v: Variant, keys: Array, integral: bool, where: String, shape: String) -> Dictionary:
	if _has_keys(v, keys):
		for k: Variant in keys:
			var c: Variant = v[k]
			if (_to_int(c) if integral else _to_float(c)) == null:
				return _bad(_join(where, str(k)), "an integer" if integral else "a number", c)
	return _bad(where, shape, v)


## True when [param v] is an object with all of [param keys] and no keys other than
## those and [param optional].
static func _has_keys(v: Variant, keys: Array, optional: Array = []) -> bool:
	if typeof(v) != TYPE_DICTIONARY:
		return false
	var d: Dictionary = v
	for k: Variant in keys:
		if not d.has(k):
			return false
	for k: Variant in d.keys():
		if not keys.has(k) and not optional.has(k):
			return false
	return true


static func _dec(v: Variant, t: int, hint: int, hs: String, ctx: Node, where: String, depth: int) -> Dictionary:
	if depth > 64:
		return _bad_msg(where, "the value is nested too deeply.")
	match t:
		TYPE_NIL:
			return _ok(_dec_variant(v))
		TYPE_BOOL:
			if typeof(v) == TYPE_BOOL:
				return _ok(v)
			return _bad(where, shape_of(t), v)
		TYPE_INT:
			return _dec_int(v, hint, hs, where)
		TYPE_FLOAT:
			var f: Variant = _to_float(v)
			if f == null:
				return _bad(where, "a number", v)
			return _ok(f)
		TYPE_STRING:
			if typeof(v) != TYPE_STRING:
				return _bad(where, shape_of(t, hint, hs), v)
			if hint == PROPERTY_HINT_ENUM and hs != "" and not hs.split(",").has(v):
				return _bad(where, shape_of(t, hint, hs), v)
			return _ok(v)
		TYPE_STRING_NAME:
			if typeof(v) != TYPE_STRING:
				return _bad(where, "a string", v)
			return _ok(StringName(v as String))
		TYPE_NODE_PATH:
			if typeof(v) != TYPE_STRING:
				return _bad(where, shape_of(t), v)
			return _ok(NodePath(v as String))
		TYPE_VECTOR2, TYPE_VECTOR2I, TYPE_VECTOR3, TYPE_VECTOR3I, TYPE_VECTOR4, TYPE_VECTOR4I:
			return _dec_vector(v, t, where)
		TYPE_COLOR:
			return _dec_color(v, where)
		TYPE_RECT2, TYPE_RECT2I:
			var vt: int = TYPE_VECTOR2 if t == TYPE_RECT2 else TYPE_VECTOR2I
			if not _has_keys(v, ["position", "size"]):
				return _bad(where, shape_of(t), v)
			var pos: Dictionary = _dec_vector(v["position"], vt, _join(where, "position"))
			if not pos["ok"]:
				return pos
			var size: Dictionary = _dec_vector(v["size"], vt, _join(where, "size"))
			if not size["ok"]:
				return size
			if t == TYPE_RECT2:
				return _ok(Rect2(pos["value"] as Vector2, size["value"] as Vector2))
			return _ok(Rect2i(pos["value"] as Vector2i, size["value"] as Vector2i))
		TYPE_TRANSFORM2D:
			if not _has_keys(v, ["x", "y", "origin"]):
				return _bad(where, shape_of(t), v)
			var cols: Array = []
			for k: String in ["x", "y", "origin"]:
				var c: Dictionary = _dec_vector(v[k], TYPE_VECTOR2, _join(where, k))
				if not c["ok"]:
					return c
				cols.append(c["value"])
			return _ok(Transform2D(cols[0] as Vector2, cols[1] as Vector2, cols[2] as Vector2))
		TYPE_BASIS:
			return _dec_basis(v, where)
		TYPE_TRANSFORM3D:
			if not _has_keys(v, ["basis", "origin"]):
				return _bad(where, shape_of(t), v)
			var b: Dictionary = _dec_basis(v["basis"], _join(where, "basis"))
			if not b["ok"]:
				return b
			var o: Dictionary = _dec_vector(v["origin"], TYPE_VECTOR3, _join(where, "origin"))
			if not o["ok"]:
				return o
			return _ok(Transform3D(b["value"] as Basis, o["value"] as Vector3))
		TYPE_QUATERNION:
			var q: Variant = _components(v, ["x", "y", "z", "w"], false)
			if q == null:
				return _component_failure(v, ["x", "y", "z", "w"], false, where, shape_of(t))
			return _ok(Quaternion(q[0], q[1], q[2], q[3]))
		TYPE_AABB:
			if not _has_keys(v, ["position", "size"]):
				return _bad(where, shape_of(t), v)
			var ap: Dictionary = _dec_vector(v["position"], TYPE_VECTOR3, _join(where, "position"))
			if not ap["ok"]:
				return ap
			var asz: Dictionary = _dec_vector(v["size"], TYPE_VECTOR3, _join(where, "size"))
			if not asz["ok"]:
				return asz
			return _ok(AABB(ap["value"] as Vector3, asz["value"] as Vector3))
		TYPE_PLANE:
			if not _has_keys(v, ["normal", "d"]):
				return _bad(where, shape_of(t), v)
			var n: Dictionary = _dec_vector(v["normal"], TYPE_VECTOR3, _join(where, "normal"))
			if not n["ok"]:
				return n
			var d: Variant = _to_float(v["d"])
			if d == null:
				return _bad(_join(where, "d"), "a number", v["d"])
			return _ok(Plane(n["value"] as Vector3, d as float))
		TYPE_PROJECTION:
			if not _has_keys(v, ["x", "y", "z", "w"]):
				return _bad(where, shape_of(t), v)
			var pc: Array = []
			for k: String in ["x", "y", "z", "w"]:
				var c4: Dictionary = _dec_vector(v[k], TYPE_VECTOR4, _join(where, k))
				if not c4["ok"]:
					return c4
				pc.append(c4["value"])
			return _ok(Projection(pc[0] as Vector4, pc[1] as Vector4, pc[2] as Vector4, pc[3] as Vector4))
		TYPE_OBJECT:
			return _dec_object(v, hint, hs, ctx, where, depth)
		TYPE_DICTIONARY:
			return _dec_dictionary(v, hint, hs, ctx, where, depth)
		TYPE_ARRAY:
			return _dec_array(v, hint, hs, ctx, where, depth)
	if Encoder._is_packed(t):
		return _dec_packed(v, t, where)
	return _bad_msg(where, "values of type %s cannot be set from JSON." % type_string(t))


## Untyped (Variant) targets: JSON values as they are, except that integral numbers
## become ints (JSON does not tell 1 from 1.0; an int is what a person means by 1).
static func _dec_variant(v: Variant) -> Variant:
	match typeof(v):
		TYPE_FLOAT:
			var i: Variant = _to_int(v)
			return i if i != null else v
		TYPE_ARRAY:
			var out: Array = []
			for e: Variant in v:
				out.append(_dec_variant(e))
			return out
		TYPE_DICTIONARY:
			var d: Dictionary = {}
			for k: Variant in (v as Dictionary).keys():
				d[k] = _dec_variant(v[k])
			return d
	return v


static func _dec_int(v: Variant, hint: int, hs: String, where: String) -> Dictionary:
	var i: Variant = _to_int(v)
	if i != null:
		return _ok(i)
	if hint == PROPERTY_HINT_ENUM or hint == PROPERTY_HINT_FLAGS:
		var names: Dictionary = _enum_map(hint, hs)
		if typeof(v) == TYPE_STRING:
			var parts: PackedStringArray = [v as String]
			if hint == PROPERTY_HINT_FLAGS and (v as String).contains("|"):
				parts = (v as String).split("|", false)
			var total: int = 0
			for p: String in parts:
				var found: Variant = _enum_lookup(names, p.strip_edges())
				if found == null:
					return _bad(where, shape_of(TYPE_INT, hint, hs), v)
				total |= int(found)
			return _ok(total)
		if typeof(v) == TYPE_ARRAY and hint == PROPERTY_HINT_FLAGS:
			var bits: int = 0
			for e: Variant in v:
				var n: Variant = _to_int(e)
				if n == null and typeof(e) == TYPE_STRING:
					n = _enum_lookup(names, e as String)
				if n == null:
					return _bad(where, shape_of(TYPE_INT, hint, hs), e)
				bits |= int(n)
			return _ok(bits)
	return _bad(where, shape_of(TYPE_INT, hint, hs), v)


## Name -> value map from an enum or flags hint string ("A,B:5,C" / "A:4,B:8").
static func _enum_map(hint: int, hs: String) -> Dictionary:
	var out: Dictionary = {}
	var next: int = 0
	var index: int = 0
	for item: String in hs.split(","):
		if item == "":
			index += 1
			continue
		var item_name: String = item
		var value: int = next if hint == PROPERTY_HINT_ENUM else (1 << index)
		var colon: int = item.rfind(":")
		if colon > 0 and item.substr(colon + 1).is_valid_int():
			item_name = item.substr(0, colon)
			value = item.substr(colon + 1).to_int()
		out[item_name] = value
		next = value + 1
		index += 1
	return out


## Finds an enum value by name: exact, then ignoring case, spaces and underscores,
## then as a constant name ending in the hint's name (PROCESS_MODE_ALWAYS -> "Always").
static func _enum_lookup(names: Dictionary, wanted: String) -> Variant:
	if names.has(wanted):
		return names[wanted]
	var norm: String = _norm(wanted)
	for k: Variant in names.keys():
		if _norm(str(k)) == norm:
			return names[k]
	var best: Variant = null
	var best_len: int = 0
	var upper: String = wanted.to_upper()
	for k: Variant in names.keys():
		var suffix: String = "_" + str(k).to_upper().replace(" ", "_")
		if upper.ends_with(suffix) and suffix.length() > best_len:
			best = names[k]
			best_len = suffix.length()
	return best


static func _norm(s: String) -> String:
	return s.to_lower().replace(" ", "").replace("_", "").replace("-", "")


static func _dec_vector(v: Variant, t: int, where: String) -> Dictionary:
	var keys: Array = ["x", "y"]
	if t == TYPE_VECTOR3 or t == TYPE_VECTOR3I:
		keys = ["x", "y", "z"]
	elif t == TYPE_VECTOR4 or t == TYPE_VECTOR4I:
		keys = ["x", "y", "z", "w"]
	var integral: bool = t == TYPE_VECTOR2I or t == TYPE_VECTOR3I or t == TYPE_VECTOR4I
	var c: Variant = _components(v, keys, integral)
	if c == null:
		return _component_failure(v, keys, integral, where, shape_of(t))
	match t:
		TYPE_VECTOR2:
			return _ok(Vector2(c[0], c[1]))
		TYPE_VECTOR2I:
			return _ok(Vector2i(c[0], c[1]))
		TYPE_VECTOR3:
			return _ok(Vector3(c[0], c[1], c[2]))
		TYPE_VECTOR3I:
			return _ok(Vector3i(c[0], c[1], c[2]))
		TYPE_VECTOR4:
			return _ok(Vector4(c[0], c[1], c[2], c[3]))
	return _ok(Vector4i(c[0], c[1], c[2], c[3]))


static func _dec_basis(v: Variant, where: String) -> Dictionary:
	if not _has_keys(v, ["x", "y", "z"]):
		return _bad(where, shape_of(TYPE_BASIS), v)
	var cols: Array = []
	for k: String in ["x", "y", "z"]:
		var c: Dictionary = _dec_vector(v[k], TYPE_VECTOR3, _join(where, k))
		if not c["ok"]:
			return c
		cols.append(c["value"])
	return _ok(Basis(cols[0] as Vector3, cols[1] as Vector3, cols[2] as Vector3))


static func _dec_color(v: Variant, where: String) -> Dictionary:
	if typeof(v) == TYPE_STRING:
		var s: String = (v as String).strip_edges()
		if s.begins_with("#") and Color.html_is_valid(s):
			return _ok(Color.html(s))
		return _bad(where, shape_of(TYPE_COLOR), v)
	var c: Variant = _components(v, ["r", "g", "b", "a"], false)
	if c == null:
		c = _components(v, ["r", "g", "b"], false)
		if c != null:
			(c as Array).append(1.0)
	if c == null:
		var keys: Array = ["r", "g", "b", "a"] if (typeof(v) == TYPE_DICTIONARY and (v as Dictionary).has("a")) else ["r", "g", "b"]
		return _component_failure(v, keys, false, where, shape_of(TYPE_COLOR))
	return _ok(Color(c[0], c[1], c[2], c[3]))


static func _dec_packed(v: Variant, t: int, where: String) -> Dictionary:
	if typeof(v) != TYPE_ARRAY:
		return _bad(where, shape_of(t), v)
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
		var e: Dictionary = _dec(items[i], elem_type, PROPERTY_HINT_NONE, "", null, at, 1)
		if not e["ok"]:
			return e
		if t == TYPE_PACKED_BYTE_ARRAY and (int(e["value"]) < 0 or int(e["value"]) > 255):
			return _bad(at, "an integer 0..255", items[i])
		if t == TYPE_PACKED_INT32_ARRAY and (int(e["value"]) < -2147483648 or int(e["value"]) > 2147483647):
			return _bad(at, "a 32-bit integer", items[i])
		out.append(e["value"])
	match t:
		TYPE_PACKED_BYTE_ARRAY:
			return _ok(PackedByteArray(out))
		TYPE_PACKED_INT32_ARRAY:
			return _ok(PackedInt32Array(out))
		TYPE_PACKED_INT64_ARRAY:
			return _ok(PackedInt64Array(out))
		TYPE_PACKED_FLOAT32_ARRAY:
			return _ok(PackedFloat32Array(out))
		TYPE_PACKED_FLOAT64_ARRAY:
			return _ok(PackedFloat64Array(out))
		TYPE_PACKED_STRING_ARRAY:
			return _ok(PackedStringArray(out))
		TYPE_PACKED_VECTOR2_ARRAY:
			return _ok(PackedVector2Array(out))
		TYPE_PACKED_VECTOR3_ARRAY:
			return _ok(PackedVector3Array(out))
		TYPE_PACKED_VECTOR4_ARRAY:
			return _ok(PackedVector4Array(out))
	return _ok(PackedColorArray(out))


## Element type of a typed Array property: {type, hint, hint_string, class_name}.
## Understands PROPERTY_HINT_ARRAY_TYPE ("int", "Texture2D") and
## PROPERTY_HINT_TYPE_STRING ("24/17:Texture2D", "2:").
static func _element_type(hint: int, hs: String) -> Dictionary:
	if hs == "" or (hint != PROPERTY_HINT_ARRAY_TYPE and hint != PROPERTY_HINT_TYPE_STRING):
		return {"type": TYPE_NIL}
	return _parse_type_spec(hs)


static func _parse_type_spec(spec: String) -> Dictionary:
	var colon: int = spec.find(":")
	var head: String = spec if colon < 0 else spec.substr(0, colon)
	var tail: String = "" if colon < 0 else spec.substr(colon + 1)
	if colon >= 0:
		var parts: PackedStringArray = head.split("/")
		if parts.size() >= 1 and parts[0].is_valid_int():
			var et: int = parts[0].to_int()
			var eh: int = parts[1].to_int() if parts.size() > 1 and parts[1].is_valid_int() else PROPERTY_HINT_NONE
			var out: Dictionary = {"type": et, "hint": eh, "hint_string": tail, "class_name": ""}
			if et == TYPE_OBJECT and (eh == PROPERTY_HINT_RESOURCE_TYPE or eh == PROPERTY_HINT_NODE_TYPE):
				out["class_name"] = tail
			return out
	var name: String = spec.strip_edges()
	var builtin: int = type_from_name(name)
	if builtin >= 0 and name.to_lower() != "object":
		return {"type": builtin, "hint": PROPERTY_HINT_NONE, "hint_string": "", "class_name": ""}
	if _is_resource_class(name):
		return {"type": TYPE_OBJECT, "hint": PROPERTY_HINT_RESOURCE_TYPE, "hint_string": name, "class_name": name}
	return {"type": TYPE_OBJECT, "hint": PROPERTY_HINT_NODE_TYPE if _is_node_class(name) else PROPERTY_HINT_NONE, "hint_string": name, "class_name": name}


static func _dec_array(v: Variant, hint: int, hs: String, ctx: Node, where: String, depth: int) -> Dictionary:
	if typeof(v) != TYPE_ARRAY:
		return _bad(where, shape_of(TYPE_ARRAY, hint, hs), v)
	var elem: Dictionary = _element_type(hint, hs)
	var et: int = int(elem.get("type", TYPE_NIL))
	var out: Array = []
	var items: Array = v
	for i: int in range(items.size()):
		var e: Dictionary = _dec(items[i], et, int(elem.get("hint", 0)), str(elem.get("hint_string", "")), ctx, "%s[%d]" % [where, i], depth + 1)
		if not e["ok"]:
			return e
		out.append(e["value"])
	if et == TYPE_NIL:
		return _ok(out)
	var typed: Variant = _typed_array(out, et, str(elem.get("class_name", "")))
	if typed == null:
		return _ok(out)
	return _ok(typed)


static func _typed_array(items: Array, et: int, cls: String) -> Variant:
	if et != TYPE_OBJECT:
		return Array(items, et, &"", null)
	if cls == "" or ClassDB.class_exists(cls):
		return Array(items, TYPE_OBJECT, StringName(cls if cls != "" else "Object"), null)
	var scr: Script = _global_script(cls)
	if scr == null:
		return null
	return Array(items, TYPE_OBJECT, scr.get_instance_base_type(), scr)


static func _dec_dictionary(v: Variant, hint: int, hs: String, ctx: Node, where: String, depth: int) -> Dictionary:
	if typeof(v) != TYPE_DICTIONARY:
		return _bad(where, "an object", v)
	var src: Dictionary = v
	if hint != PROPERTY_HINT_DICTIONARY_TYPE or not hs.contains(";"):
		var plain: Dictionary = {}
		for k: Variant in src.keys():
			var pv: Dictionary = _dec(src[k], TYPE_NIL, PROPERTY_HINT_NONE, "", ctx, _join(where, str(k)), depth + 1)
			plain[k] = pv["value"]
		return _ok(plain)
	var halves: PackedStringArray = hs.split(";", true, 1)
	var kt: Dictionary = _parse_type_spec(halves[0])
	var vt: Dictionary = _parse_type_spec(halves[1])
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
					return _bad_msg(_join(where, str(k)), "this dictionary has int keys; \"%s\" is not an integer." % str(k))
				key = (key as String).to_int()
			_:
				return _bad_msg(where, "a dictionary keyed by %s cannot be written in JSON." % type_string(key_type))
		var dv: Dictionary = _dec(src[k], int(vt["type"]), int(vt.get("hint", 0)), str(vt.get("hint_string", "")), ctx, _join(where, str(k)), depth + 1)
		if not dv["ok"]:
			return dv
		out[key] = dv["value"]
	return _ok(_typed_dictionary(out, kt, vt))


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
			var scr: Script = _global_script(cls)
			if scr == null:
				return d
			args.append_array([t, scr.get_instance_base_type(), scr])
	return Dictionary(d, args[0], args[1], args[2], args[3], args[4], args[5])


static func _dec_object(v: Variant, hint: int, hs: String, ctx: Node, where: String, depth: int) -> Dictionary:
	if v == null:
		return _ok(null)
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
		return _inline_resource(v, bases, ctx, where, depth)
	return _bad(where, shape_of(TYPE_OBJECT, hint, hs), v)


static func _dec_node_ref(v: Variant, hs: String, ctx: Node, where: String) -> Dictionary:
	var path: String = ""
	if typeof(v) == TYPE_STRING:
		path = v
	elif typeof(v) == TYPE_DICTIONARY and (v as Dictionary).has("path"):
		path = str(v["path"])
	else:
		return _bad(where, shape_of(TYPE_OBJECT, PROPERTY_HINT_NODE_TYPE, hs), v)
	if ctx == null or not is_instance_valid(ctx):
		return _bad_msg(where, "a node reference needs a node to resolve '%s' against; set it through a scene tool." % path)
	var node: Node = ctx.get_node_or_null(NodePath(path))
	if node == null:
		return _bad_msg(where, "no node at '%s' (relative to '%s')." % [path, ctx.name])
	if hs != "" and not _is_a(node, hs.split(",", false)):
		return _bad_msg(where, "'%s' is a %s, expected a %s." % [path, node.get_class(), hs])
	return _ok(node)


static func _load_resource(path: String, bases: PackedStringArray, where: String) -> Dictionary:
	var real: String = path
	if path.begins_with("uid://"):
		var id: int = ResourceUID.text_to_id(path)
		if id == ResourceUID.INVALID_ID or not ResourceUID.has_id(id):
			return _bad_msg(where, "no resource has the UID '%s'. Rescan the filesystem or use a res:// path." % path)
		real = ResourceUID.get_id_path(id)
	elif not path.begins_with("res://"):
		return _bad(where, "a \"res://…\" or \"uid://…\" path", path)
	var outside: String = PathGuard.problem(real)
	if outside != "":
		return _bad_msg(where, outside + ".")
	if not ResourceLoader.exists(real):
		return _bad_msg(where, "no resource at '%s'. List files with the resources tools, or check the spelling." % path)
	var res: Resource = load(real)
	if res == null:
		return _bad_msg(where, "'%s' exists but failed to load; fix or reimport it first." % path)
	if not bases.is_empty() and not _is_a(res, bases):
		return _bad_msg(where, "'%s' is a %s, expected a %s." % [path, _class_label(res), " or ".join(bases)])
	return _ok(res)


static func _inline_resource(v: Dictionary, bases: PackedStringArray, ctx: Node, where: String, depth: int) -> Dictionary:
	for k: Variant in v.keys():
		if k != "type" and k != "properties":
			return _bad(where, "an inline resource {type: \"<Class>\", properties?: {…}}", v)
	if typeof(v["type"]) != TYPE_STRING:
		return _bad(_join(where, "type"), "a class name", v["type"])
	var cls: String = v["type"]
	var res: Resource = null
	if ClassDB.class_exists(cls):
		if not ClassDB.is_parent_class(cls, "Resource"):
			return _bad_msg(where, "'%s' is not a Resource class; inline values must be resources." % cls)
		if not ClassDB.can_instantiate(cls):
			return _bad_msg(where, "'%s' is abstract; pick a concrete subclass (describe the class to see them)." % cls)
		res = ClassDB.instantiate(cls) as Resource
	else:
		var scr: Script = _global_script(cls)
		if scr == null:
			return _bad_msg(where, "unknown resource class '%s'." % cls)
		var base: String = str(scr.get_instance_base_type())
		if base == "":
			return _bad_msg(where, "script class '%s' (%s) has errors; fix it first (godot_scripts_validate)." % [cls, scr.resource_path])
		if not ClassDB.is_parent_class(base, "Resource") or not ClassDB.can_instantiate(base):
			return _bad_msg(where, "script class '%s' is not an instantiable Resource." % cls)
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
		return _bad_msg(where, "could not create a '%s'." % cls)
	if not bases.is_empty() and not _is_a(res, bases):
		return _bad_msg(where, "a %s does not fit here; expected a %s." % [cls, " or ".join(bases)])
	var props: Variant = v.get("properties", {})
	if typeof(props) != TYPE_DICTIONARY:
		return _bad(_join(where, "properties"), "an object of property values", props)
	for k: Variant in (props as Dictionary).keys():
		var pname: String = str(k)
		var info: Dictionary = property_info(res, pname)
		var usage: int = int(info.get("usage", 0))
		if info.is_empty() or ((usage & PROPERTY_USAGE_STORAGE) == 0 and (usage & PROPERTY_USAGE_EDITOR) == 0):
			return _bad_msg(_join(where, "properties." + pname), "%s has no property '%s'." % [cls, pname])
		var pv: Dictionary = _dec(props[k], int(info.get("type", TYPE_NIL)), int(info.get("hint", 0)), str(info.get("hint_string", "")), ctx, _join(where, "properties." + pname), depth + 1)
		if not pv["ok"]:
			return pv
		res.set(pname, pv["value"])
	return _ok(res)


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


static func _is_resource_class(cls: String) -> bool:
	if ClassDB.class_exists(cls):
		return ClassDB.is_parent_class(cls, "Resource")
	var base: String = _global_native_base(cls)
	return base != "" and ClassDB.is_parent_class(base, "Resource")


static func _is_node_class(cls: String) -> bool:
	if ClassDB.class_exists(cls):
		return ClassDB.is_parent_class(cls, "Node")
	var base: String = _global_native_base(cls)
	return base != "" and ClassDB.is_parent_class(base, "Node")


static func _global_native_base(cls: String) -> String:
	var scr: Script = _global_script(cls)
	return "" if scr == null else str(scr.get_instance_base_type())


## The Script of a global class_name, or null.
static func _global_script(cls: String) -> Script:
	return Encoder._global_script(cls)


static func _class_label(obj: Object) -> String:
	return Encoder._class_label(obj)
