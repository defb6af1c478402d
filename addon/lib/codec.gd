@tool
extends RefCounted
## The value codec, for command handlers (the core's and extensions'): JSON <-> Variant
## in the shapes of docs/values.md. Answers are encoded by the router already; decode
## what an agent sends before setting it.
##
##     const Codec := preload("res://addons/godot_mcp/lib/codec.gd")
##     var d: Dictionary = Codec.decode_property(node, "position", params["value"], node)
##     if not d["ok"]:
##         return Params.invalid("value: %s" % d["hint"])
##     node.position = d["value"]

const ValueCodec := preload("../value_codec.gd")


## Decodes a JSON value for a target of Variant type [param target_type] (TYPE_*), with
## the property's [param hint] and [param hint_string]; [param context] resolves relative
## node paths. {ok: true, value} or {ok: false, hint}.
static func decode(value: Variant, target_type: int, hint: int = PROPERTY_HINT_NONE, hint_string: String = "", context: Node = null) -> Dictionary:
	return ValueCodec.decode(value, target_type, hint, hint_string, context)


## Decodes [param value] for [param property] of [param obj], with the property's own
## type and hint; an unknown property is refused with a hint.
static func decode_property(obj: Object, property: String, value: Variant, context: Node = null) -> Dictionary:
	return ValueCodec.decode_property(obj, property, value, context)


## Any Variant as a JSON-safe value.
static func encode(v: Variant) -> Variant:
	return ValueCodec.encode(v)


## The property-list entry of [param property] on [param obj], {} when it has none.
static func property_info(obj: Object, property: String) -> Dictionary:
	return ValueCodec.property_info(obj, property)


## The TYPE_* constant of a Variant type name ("Vector2", "int", …), -1 when unknown.
static func type_from_name(type_name: String) -> int:
	return ValueCodec.type_from_name(type_name)


## The Script of a global class_name, or null.
static func global_script(class_name_: String) -> Script:
	return ValueCodec._global_script(class_name_)
