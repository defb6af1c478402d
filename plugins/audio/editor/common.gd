@tool
extends RefCounted
## Shared helpers of the audio toolset's editor commands: answers, did-you-mean and
## the stored properties of a resource.

const Names := preload("res://addons/godot_mcp/lib/names.gd")
const Codec := preload("res://addons/godot_mcp/lib/codec.gd")

var router: RefCounted = null


func _init(r: RefCounted) -> void:
	router = r


func ok(result: Dictionary) -> Dictionary:
	return router.call("ok", result)


func fail(code: String, hint: String, required: String = "") -> Dictionary:
	return router.call("fail", code, hint, required)


## Decodes [param value] for [param obj].[param prop] with the core value codec:
## {ok, value} or {ok: false, hint}.
static func decode(obj: Object, prop: String, value: Variant) -> Dictionary:
	return Codec.decode_property(obj, prop, value, null)


static func encode(v: Variant) -> Variant:
	return Codec.encode(v)


## The nearest of [param have] to [param want] as " Did you mean 'x'?", or "" (lib/names.gd).
static func did_you_mean(want: String, have: PackedStringArray, at_least: float = 0.4) -> String:
	return Names.did_you_mean(want, have, at_least)


## The names of the stored (saved) properties of [param obj], resource_* and script left out.
static func stored_names(obj: Object) -> PackedStringArray:
	var out: PackedStringArray = []
	for p: Dictionary in obj.get_property_list():
		var name: String = str(p["name"])
		if int(p["usage"]) & PROPERTY_USAGE_STORAGE == 0 or name.begins_with("resource_") or name == "script":
			continue
		out.append(name)
	return out


## {name: value} of the stored properties of [param obj].
static func stored(obj: Object) -> Dictionary:
	var out: Dictionary = {}
	for name: String in stored_names(obj):
		var v: Variant = obj.get(name)
		if v is Array or v is Dictionary:
			v = v.duplicate(true)
		out[name] = v
	return out
