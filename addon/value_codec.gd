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

## The shared layer (shapes, type names, property lookup, result helpers) and the
## container/object decoders live in sibling files; this file holds the public API,
## the recursive decoder and the scalar decoders. Preloads form no cycle:
## value_codec -> codec_containers -> codec_shapes -> codec_encode.

## Encoding (encode()) and class naming.
const Encoder := preload("codec_encode.gd")
## Shapes, type names, property lookup and the result helpers.
const Shapes := preload("codec_shapes.gd")
## Packed arrays, arrays, dictionaries, resources and node references.
const Containers := preload("codec_containers.gd")
const MAX_INLINE_DEPTH := Encoder.MAX_INLINE_DEPTH
const MAX_INT_FLOAT := 9007199254740992.0 # 2^53: the largest integer a JSON number carries exactly


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
		return {"ok": false, "hint": "%s has no property '%s'." % [Encoder._class_label(obj), property]}
	var t: int = info.get("type", TYPE_NIL)
	var h: int = info.get("hint", PROPERTY_HINT_NONE)
	var hs: String = str(info.get("hint_string", ""))
	return _dec(value, t, h, hs, context, property, 0)


## Returns the property-list entry of [param property] on [param obj], or {} when it has none.
static func property_info(obj: Object, property: String) -> Dictionary:
	return Shapes.property_info(obj, property)


## Encodes any Variant into a JSON-safe value (null, bool, number, string, array, object).
static func encode(v: Variant) -> Variant:
	return Encoder.encode(v)


## Returns the TYPE_* constant for a Variant type name ("Vector2", "int", "Variant", …),
## or -1 when the name is unknown. Case-insensitive.
static func type_from_name(type_name: String) -> int:
	return Shapes.type_from_name(type_name)


## Describes the JSON shape the codec expects for a target type, for hints and docs.
static func shape_of(target_type: int, hint: int = PROPERTY_HINT_NONE, hint_string: String = "") -> String:
	return Shapes.shape_of(target_type, hint, hint_string)


## The Script of a global class_name, or null (also used by lib/codec.gd and core handlers).
static func _global_script(cls: String) -> Script:
	return Encoder._global_script(cls)


# --- decoding -----------------------------------------------------------------


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
				return Shapes._bad(Shapes._join(where, str(k)), "an integer" if integral else "a number", c)
	return Shapes._bad(where, shape, v)


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
		return Shapes._bad_msg(where, "the value is nested too deeply.")
	match t:
		TYPE_NIL:
			return Shapes._ok(_dec_variant(v))
		TYPE_BOOL:
			if typeof(v) == TYPE_BOOL:
				return Shapes._ok(v)
			return Shapes._bad(where, Shapes.shape_of(t), v)
		TYPE_INT:
			return _dec_int(v, hint, hs, where)
		TYPE_FLOAT:
			var f: Variant = _to_float(v)
			if f == null:
				return Shapes._bad(where, "a number", v)
			return Shapes._ok(f)
		TYPE_STRING:
			if typeof(v) != TYPE_STRING:
				return Shapes._bad(where, Shapes.shape_of(t, hint, hs), v)
			if hint == PROPERTY_HINT_ENUM and hs != "" and not hs.split(",").has(v):
				return Shapes._bad(where, Shapes.shape_of(t, hint, hs), v)
			return Shapes._ok(v)
		TYPE_STRING_NAME:
			if typeof(v) != TYPE_STRING:
				return Shapes._bad(where, "a string", v)
			return Shapes._ok(StringName(v as String))
		TYPE_NODE_PATH:
			if typeof(v) != TYPE_STRING:
				return Shapes._bad(where, Shapes.shape_of(t), v)
			return Shapes._ok(NodePath(v as String))
		TYPE_VECTOR2, TYPE_VECTOR2I, TYPE_VECTOR3, TYPE_VECTOR3I, TYPE_VECTOR4, TYPE_VECTOR4I:
			return _dec_vector(v, t, where)
		TYPE_COLOR:
			return _dec_color(v, where)
		TYPE_RECT2, TYPE_RECT2I:
			var vt: int = TYPE_VECTOR2 if t == TYPE_RECT2 else TYPE_VECTOR2I
			if not _has_keys(v, ["position", "size"]):
				return Shapes._bad(where, Shapes.shape_of(t), v)
			var pos: Dictionary = _dec_vector(v["position"], vt, Shapes._join(where, "position"))
			if not pos["ok"]:
				return pos
			var size: Dictionary = _dec_vector(v["size"], vt, Shapes._join(where, "size"))
			if not size["ok"]:
				return size
			if t == TYPE_RECT2:
				return Shapes._ok(Rect2(pos["value"] as Vector2, size["value"] as Vector2))
			return Shapes._ok(Rect2i(pos["value"] as Vector2i, size["value"] as Vector2i))
		TYPE_TRANSFORM2D:
			if not _has_keys(v, ["x", "y", "origin"]):
				return Shapes._bad(where, Shapes.shape_of(t), v)
			var cols: Array = []
			for k: String in ["x", "y", "origin"]:
				var c: Dictionary = _dec_vector(v[k], TYPE_VECTOR2, Shapes._join(where, k))
				if not c["ok"]:
					return c
				cols.append(c["value"])
			return Shapes._ok(Transform2D(cols[0] as Vector2, cols[1] as Vector2, cols[2] as Vector2))
		TYPE_BASIS:
			return _dec_basis(v, where)
		TYPE_TRANSFORM3D:
			if not _has_keys(v, ["basis", "origin"]):
				return Shapes._bad(where, Shapes.shape_of(t), v)
			var b: Dictionary = _dec_basis(v["basis"], Shapes._join(where, "basis"))
			if not b["ok"]:
				return b
			var o: Dictionary = _dec_vector(v["origin"], TYPE_VECTOR3, Shapes._join(where, "origin"))
			if not o["ok"]:
				return o
			return Shapes._ok(Transform3D(b["value"] as Basis, o["value"] as Vector3))
		TYPE_QUATERNION:
			var q: Variant = _components(v, ["x", "y", "z", "w"], false)
			if q == null:
				return _component_failure(v, ["x", "y", "z", "w"], false, where, Shapes.shape_of(t))
			return Shapes._ok(Quaternion(q[0], q[1], q[2], q[3]))
		TYPE_AABB:
			if not _has_keys(v, ["position", "size"]):
				return Shapes._bad(where, Shapes.shape_of(t), v)
			var ap: Dictionary = _dec_vector(v["position"], TYPE_VECTOR3, Shapes._join(where, "position"))
			if not ap["ok"]:
				return ap
			var asz: Dictionary = _dec_vector(v["size"], TYPE_VECTOR3, Shapes._join(where, "size"))
			if not asz["ok"]:
				return asz
			return Shapes._ok(AABB(ap["value"] as Vector3, asz["value"] as Vector3))
		TYPE_PLANE:
			if not _has_keys(v, ["normal", "d"]):
				return Shapes._bad(where, Shapes.shape_of(t), v)
			var n: Dictionary = _dec_vector(v["normal"], TYPE_VECTOR3, Shapes._join(where, "normal"))
			if not n["ok"]:
				return n
			var d: Variant = _to_float(v["d"])
			if d == null:
				return Shapes._bad(Shapes._join(where, "d"), "a number", v["d"])
			return Shapes._ok(Plane(n["value"] as Vector3, d as float))
		TYPE_PROJECTION:
			if not _has_keys(v, ["x", "y", "z", "w"]):
				return Shapes._bad(where, Shapes.shape_of(t), v)
			var pc: Array = []
			for k: String in ["x", "y", "z", "w"]:
				var c4: Dictionary = _dec_vector(v[k], TYPE_VECTOR4, Shapes._join(where, k))
				if not c4["ok"]:
					return c4
				pc.append(c4["value"])
			return Shapes._ok(Projection(pc[0] as Vector4, pc[1] as Vector4, pc[2] as Vector4, pc[3] as Vector4))
		TYPE_OBJECT:
			return Containers.decode_object(v, hint, hs, ctx, where, depth, _dec)
		TYPE_DICTIONARY:
			return Containers.decode_dictionary(v, hint, hs, ctx, where, depth, _dec)
		TYPE_ARRAY:
			return Containers.decode_array(v, hint, hs, ctx, where, depth, _dec)
	if Encoder._is_packed(t):
		return Containers.decode_packed(v, t, where, _dec)
	return Shapes._bad_msg(where, "values of type %s cannot be set from JSON." % type_string(t))


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
		return Shapes._ok(i)
	if hint == PROPERTY_HINT_ENUM or hint == PROPERTY_HINT_FLAGS:
		var names: Dictionary = Shapes._enum_map(hint, hs)
		if typeof(v) == TYPE_STRING:
			var parts: PackedStringArray = [v as String]
			if hint == PROPERTY_HINT_FLAGS and (v as String).contains("|"):
				parts = (v as String).split("|", false)
			var total: int = 0
			for p: String in parts:
				var found: Variant = _enum_lookup(names, p.strip_edges())
				if found == null:
					return Shapes._bad(where, Shapes.shape_of(TYPE_INT, hint, hs), v)
				total |= int(found)
			return Shapes._ok(total)
		if typeof(v) == TYPE_ARRAY and hint == PROPERTY_HINT_FLAGS:
			var bits: int = 0
			for e: Variant in v:
				var n: Variant = _to_int(e)
				if n == null and typeof(e) == TYPE_STRING:
					n = _enum_lookup(names, e as String)
				if n == null:
					return Shapes._bad(where, Shapes.shape_of(TYPE_INT, hint, hs), e)
				bits |= int(n)
			return Shapes._ok(bits)
	return Shapes._bad(where, Shapes.shape_of(TYPE_INT, hint, hs), v)


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
		return _component_failure(v, keys, integral, where, Shapes.shape_of(t))
	match t:
		TYPE_VECTOR2:
			return Shapes._ok(Vector2(c[0], c[1]))
		TYPE_VECTOR2I:
			return Shapes._ok(Vector2i(c[0], c[1]))
		TYPE_VECTOR3:
			return Shapes._ok(Vector3(c[0], c[1], c[2]))
		TYPE_VECTOR3I:
			return Shapes._ok(Vector3i(c[0], c[1], c[2]))
		TYPE_VECTOR4:
			return Shapes._ok(Vector4(c[0], c[1], c[2], c[3]))
	return Shapes._ok(Vector4i(c[0], c[1], c[2], c[3]))


static func _dec_basis(v: Variant, where: String) -> Dictionary:
	if not _has_keys(v, ["x", "y", "z"]):
		return Shapes._bad(where, Shapes.shape_of(TYPE_BASIS), v)
	var cols: Array = []
	for k: String in ["x", "y", "z"]:
		var c: Dictionary = _dec_vector(v[k], TYPE_VECTOR3, Shapes._join(where, k))
		if not c["ok"]:
			return c
		cols.append(c["value"])
	return Shapes._ok(Basis(cols[0] as Vector3, cols[1] as Vector3, cols[2] as Vector3))


static func _dec_color(v: Variant, where: String) -> Dictionary:
	if typeof(v) == TYPE_STRING:
		var s: String = (v as String).strip_edges()
		if s.begins_with("#") and Color.html_is_valid(s):
			return Shapes._ok(Color.html(s))
		return Shapes._bad(where, Shapes.shape_of(TYPE_COLOR), v)
	var c: Variant = _components(v, ["r", "g", "b", "a"], false)
	if c == null:
		c = _components(v, ["r", "g", "b"], false)
		if c != null:
			(c as Array).append(1.0)
	if c == null:
		var keys: Array = ["r", "g", "b", "a"] if (typeof(v) == TYPE_DICTIONARY and (v as Dictionary).has("a")) else ["r", "g", "b"]
		return _component_failure(v, keys, false, where, Shapes.shape_of(TYPE_COLOR))
	return Shapes._ok(Color(c[0], c[1], c[2], c[3]))
