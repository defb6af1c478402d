@tool
extends RefCounted
## The value codec's shared layer (value_codec.gd is the public face; see docs/values.md):
## Variant type names, the JSON shape each target type expects (for hints), the
## element types of typed arrays and dictionaries, property lookup, and the
## {ok, value} / {ok: false, hint} results every decoder returns.
##
## It preloads only codec_encode.gd; value_codec.gd and codec_containers.gd preload it
## (no cycle). Uses no editor-only class, so the runtime probe can share it.

## Class naming (global script classes).
const Encoder := preload("codec_encode.gd")

static var _type_names: Dictionary = {}


# --- types and shapes -----------------------------------------------------------


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


## Returns the property-list entry of [param property] on [param obj], or {} when it has none.
static func property_info(obj: Object, property: String) -> Dictionary:
	if obj == null or not is_instance_valid(obj):
		return {}
	for p: Dictionary in obj.get_property_list():
		if str(p.get("name", "")) == property:
			return p
	return {}


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
	var scr: Script = Encoder._global_script(cls)
	return "" if scr == null else str(scr.get_instance_base_type())


# --- results and hints ----------------------------------------------------------


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
