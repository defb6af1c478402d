extends SceneTree
## Runs the value codec against a real Godot (no editor needed):
##   godot --headless --path PROJECT -s res://codec_test.gd
## PROJECT must contain the addon at res://addons/godot_mcp/ (tools/godot-check.sh
## sets that up). Prints one line per failure and "N passed, N failed"; exits 1 on failure.

const Codec := preload("res://addons/godot_mcp/value_codec.gd")

var _passed: int = 0
var _failed: int = 0


func _init() -> void:
	_roundtrips()
	_refusals()
	_enums()
	print("%d passed, %d failed" % [_passed, _failed])
	quit(1 if _failed > 0 else 0)


func _check(label: String, ok: bool, detail: String = "") -> void:
	if ok:
		_passed += 1
	else:
		_failed += 1
		printerr("FAIL %s %s" % [label, detail])


## JSON text in, canonical JSON text out (after decode + encode).
func _rt(type_name: String, json_in: String, json_out: String = "") -> void:
	var want: String = json_out if json_out != "" else json_in
	var t: int = Codec.type_from_name(type_name)
	var d: Dictionary = Codec.decode(JSON.parse_string(json_in), t)
	if not d["ok"]:
		_check("%s %s" % [type_name, json_in], false, "refused: " + str(d["hint"]))
		return
	_check("%s type" % type_name, typeof(d["value"]) == t, "got %s" % type_string(typeof(d["value"])))
	# Compare as parsed JSON (every number a float), so 3 and 3.0 are equal.
	var got: String = JSON.stringify(Codec.encode(d["value"]))
	_check("%s %s" % [type_name, json_in], JSON.parse_string(got) == JSON.parse_string(want), "encoded %s, want %s" % [got, want])


func _roundtrips() -> void:
	_rt("bool", "true")
	_rt("int", "42")
	_rt("int", "-7.0", "-7")
	_rt("float", "0.5")
	_rt("float", "\"inf\"")
	_rt("String", "\"héllo\"")
	_rt("StringName", "\"jump\"")
	_rt("NodePath", "\"Player/Sprite2D:position\"")
	_rt("Vector2", "{\"x\": 0.1, \"y\": -3}")
	_rt("Vector2i", "{\"x\": 1, \"y\": 2}")
	_rt("Vector3", "{\"x\": 1, \"y\": 2.5, \"z\": 3}")
	_rt("Vector3i", "{\"x\": 1, \"y\": 2, \"z\": 3}")
	_rt("Vector4", "{\"x\": 1, \"y\": 2, \"z\": 3, \"w\": 4}")
	_rt("Vector4i", "{\"x\": 1, \"y\": 2, \"z\": 3, \"w\": 4}")
	_rt("Color", "{\"r\": 1, \"g\": 0.5, \"b\": 0, \"a\": 1}")
	_rt("Color", "{\"r\": 1, \"g\": 0, \"b\": 0}", "{\"r\": 1, \"g\": 0, \"b\": 0, \"a\": 1}")
	_rt("Color", "\"#ff0000\"", "{\"r\": 1, \"g\": 0, \"b\": 0, \"a\": 1}")
	_rt("Rect2", "{\"position\": {\"x\": 1, \"y\": 2}, \"size\": {\"x\": 3, \"y\": 4}}")
	_rt("Rect2i", "{\"position\": {\"x\": 1, \"y\": 2}, \"size\": {\"x\": 3, \"y\": 4}}")
	_rt("Transform2D", "{\"x\": {\"x\": 1, \"y\": 0}, \"y\": {\"x\": 0, \"y\": 1}, \"origin\": {\"x\": 5, \"y\": 6}}")
	_rt("Basis", "{\"x\": {\"x\": 1, \"y\": 0, \"z\": 0}, \"y\": {\"x\": 0, \"y\": 1, \"z\": 0}, \"z\": {\"x\": 0, \"y\": 0, \"z\": 1}}")
	_rt("Transform3D", "{\"basis\": {\"x\": {\"x\": 1, \"y\": 0, \"z\": 0}, \"y\": {\"x\": 0, \"y\": 1, \"z\": 0}, \"z\": {\"x\": 0, \"y\": 0, \"z\": 1}}, \"origin\": {\"x\": 0, \"y\": 2, \"z\": -5}}")
	_rt("Quaternion", "{\"x\": 0, \"y\": 0, \"z\": 0, \"w\": 1}")
	_rt("AABB", "{\"position\": {\"x\": -1, \"y\": -1, \"z\": -1}, \"size\": {\"x\": 2, \"y\": 2, \"z\": 2}}")
	_rt("Plane", "{\"normal\": {\"x\": 0, \"y\": 1, \"z\": 0}, \"d\": 2}")
	_rt("Array", "[1, \"a\", [true, null]]")
	_rt("Dictionary", "{\"a\": 1, \"b\": {\"c\": [1, 2]}}")
	_rt("PackedByteArray", "[0, 127, 255]")
	_rt("PackedInt32Array", "[1, -2, 3]")
	_rt("PackedInt64Array", "[1, -2, 3]")
	_rt("PackedFloat32Array", "[0.1, 2.5]")
	_rt("PackedFloat64Array", "[0.1, 2.5]")
	_rt("PackedStringArray", "[\"a\", \"b\"]")
	_rt("PackedVector2Array", "[{\"x\": 1, \"y\": 2}]")
	_rt("PackedVector3Array", "[{\"x\": 1, \"y\": 2, \"z\": 3}]")
	_rt("PackedVector4Array", "[{\"x\": 1, \"y\": 2, \"z\": 3, \"w\": 4}]")
	_rt("PackedColorArray", "[\"#00ff00\"]", "[{\"r\": 0, \"g\": 1, \"b\": 0, \"a\": 1}]")
	# An inline resource, decoded for a resource-typed target.
	var inline: Dictionary = Codec.decode(JSON.parse_string("{\"type\": \"RectangleShape2D\", \"properties\": {\"size\": {\"x\": 32, \"y\": 16}}}"), TYPE_OBJECT, PROPERTY_HINT_RESOURCE_TYPE, "Shape2D")
	_check("inline resource", inline["ok"] and inline["value"] is RectangleShape2D and (inline["value"] as RectangleShape2D).size == Vector2(32, 16), str(inline))
	var enc: Variant = Codec.encode(inline["value"]) if inline["ok"] else null
	_check("inline resource encodes inline", typeof(enc) == TYPE_DICTIONARY and enc.get("type") == "RectangleShape2D" and (enc.get("properties", {}) as Dictionary).has("size"), str(enc))
	# Typed arrays come back typed.
	var typed: Dictionary = Codec.decode([1, 2], TYPE_ARRAY, PROPERTY_HINT_ARRAY_TYPE, "int")
	_check("typed array", typed["ok"] and (typed["value"] as Array).is_typed() and (typed["value"] as Array).get_typed_builtin() == TYPE_INT, str(typed))


func _refuse(type_name: String, json_in: String, hint_part: String) -> void:
	var d: Dictionary = Codec.decode(JSON.parse_string(json_in), Codec.type_from_name(type_name))
	_check("refuse %s %s" % [type_name, json_in], not d["ok"] and str(d.get("hint", "")).contains(hint_part), str(d))


func _refusals() -> void:
	_refuse("int", "2.5", "expected an integer")
	_refuse("int", "\"3\"", "expected an integer")
	_refuse("bool", "1", "true or false")
	_refuse("Vector2", "{\"x\": 1}", "{x: number, y: number}")
	_refuse("Vector2", "{\"x\": 1, \"y\": 2, \"z\": 3}", "{x: number, y: number}")
	_refuse("Vector2i", "{\"x\": 1.5, \"y\": 2}", "x: expected an integer")
	_refuse("Color", "\"orange\"", "#rrggbb")
	_refuse("Rect2", "{\"position\": {\"x\": 0, \"y\": 0}, \"size\": 3}", "size: expected")
	_refuse("PackedByteArray", "[256]", "0..255")
	_refuse("String", "5", "a string")
	_refuse("Object", "\"res://does/not/exist.tres\"", "no resource at")
	_refuse("RID", "1", "cannot be set from JSON")


func _enums() -> void:
	var hs: String = "Inherit,Pausable,When Paused,Always,Disabled"
	for pair: Array in [[3, 3], ["Always", 3], ["When Paused", 2], ["whenpaused", 2], ["PROCESS_MODE_WHEN_PAUSED", 2], ["PROCESS_MODE_ALWAYS", 3]]:
		var d: Dictionary = Codec.decode(pair[0], TYPE_INT, PROPERTY_HINT_ENUM, hs)
		_check("enum %s" % str(pair[0]), d["ok"] and d["value"] == pair[1], str(d))
	var bad: Dictionary = Codec.decode("Sometimes", TYPE_INT, PROPERTY_HINT_ENUM, hs)
	_check("enum refusal lists names", not bad["ok"] and str(bad["hint"]).contains("When Paused"), str(bad))
	var flags: Dictionary = Codec.decode(["A", "C"], TYPE_INT, PROPERTY_HINT_FLAGS, "A,B,C")
	_check("flags array", flags["ok"] and flags["value"] == 5, str(flags))
	var explicit: Dictionary = Codec.decode("Four", TYPE_INT, PROPERTY_HINT_ENUM, "Zero,One,Three:3,Four")
	_check("explicit enum values", explicit["ok"] and explicit["value"] == 4, str(explicit))
