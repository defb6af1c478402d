@tool
extends RefCounted
## Parameter readers for command handlers (the core's and extensions').
##
##     const Params := preload("res://addons/godot_mcp/lib/params.gd")
##     var name: Variant = Params.string(params, "name")
##     if name == null:
##         return Params.invalid("name must be a string.")
##
## Each getter returns the value, the default when the key is absent or null, or null
## when the value has the wrong type: the handler then answers invalid(hint) naming
## what it expected. JSON numbers arrive as floats; integer getters accept integral ones.


## A VALIDATION_ERROR answer carrying [param hint] (what was expected, with an example).
static func invalid(hint: String) -> Dictionary:
	return {"ok": false, "error": "VALIDATION_ERROR", "hint": hint}


## A string parameter: the value, [param def] when absent or null, or null when it is
## not a string.
static func string(p: Dictionary, key: String, def: String = "") -> Variant:
	var v: Variant = p.get(key)
	if v == null:
		return def
	if typeof(v) != TYPE_STRING and typeof(v) != TYPE_STRING_NAME:
		return null
	return str(v)


## An integer parameter: the value, [param def] when absent or null, or null when it is
## not an integral number.
static func integer(p: Dictionary, key: String, def: int) -> Variant:
	var v: Variant = p.get(key)
	if v == null:
		return def
	if typeof(v) == TYPE_INT:
		return v
	if typeof(v) == TYPE_FLOAT and is_finite(v) and float(v) == floorf(v) and absf(v) < 9007199254740992.0:
		return int(v)
	return null


## An integer parameter from [param lo] to [param hi]: the value, [param def] when
## absent or null, or null when it is not an integral number in range.
static func int_in(p: Dictionary, key: String, def: int, lo: int, hi: int) -> Variant:
	if not p.has(key) or p[key] == null:
		return def
	var v: Variant = p[key]
	if typeof(v) == TYPE_FLOAT and is_finite(v as float) and (v as float) == floorf(v as float):
		v = int(v)
	if typeof(v) != TYPE_INT or int(v) < lo or int(v) > hi:
		return null
	return v


## A boolean parameter: the value, [param def] when absent or null, or null when it is
## not true or false.
static func boolean(p: Dictionary, key: String, def: bool) -> Variant:
	var v: Variant = p.get(key)
	if v == null:
		return def
	if typeof(v) != TYPE_BOOL:
		return null
	return v


## An array-of-strings parameter: the strings (empty when absent or null), or null when
## it is not an array of strings.
static func string_list(p: Dictionary, key: String) -> Variant:
	return strings(p.get(key))


## [param v] as strings: empty for null, null when it is not an array of strings.
static func strings(v: Variant) -> Variant:
	var out: PackedStringArray = []
	if v == null:
		return out
	if typeof(v) != TYPE_ARRAY and typeof(v) != TYPE_PACKED_STRING_ARRAY:
		return null
	for e: Variant in v:
		if typeof(e) != TYPE_STRING:
			return null
		out.append(str(e))
	return out
