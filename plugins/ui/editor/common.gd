@tool
extends RefCounted
## Shared helpers of the ui toolset's editor commands: answers, the edited scene,
## Control lookup, theme data types, value decoding per data type, did-you-mean.

const Names := preload("res://addons/godot_mcp/lib/names.gd")
const Nodes := preload("res://addons/godot_mcp/lib/nodes.gd")
const Codec := preload("res://addons/godot_mcp/lib/codec.gd")

## Theme.DataType order.
const DATA_TYPES: PackedStringArray = ["color", "constant", "font", "font_size", "icon", "stylebox"]
## The Control property prefix of each data type's overrides.
const OVERRIDE_PREFIX: PackedStringArray = ["theme_override_colors/", "theme_override_constants/", "theme_override_fonts/",
	"theme_override_font_sizes/", "theme_override_icons/", "theme_override_styles/"]

var router: RefCounted = null


func _init(r: RefCounted) -> void:
	router = r


func ok(result: Dictionary) -> Dictionary:
	return router.call("ok", result)


func fail(code: String, hint: String, required: String = "") -> Dictionary:
	return router.call("fail", code, hint, required)


func no_scene() -> Dictionary:
	return fail("PRECONDITION_FAILED", "No scene is open in the editor. Open one with godot_scene_open (or create one with godot_scene_create), then retry.", "active_scene")


## {root, node} of the Control at [param path] in the edited scene, or {error}.
## With [param any_node], a non-Control node is accepted too.
func find_control(path: String, any_node: bool = false) -> Dictionary:
	var root: Node = EditorInterface.get_edited_scene_root()
	if root == null:
		return {"error": no_scene()}
	var n: Node = Nodes.resolve(root, path)
	if n == null:
		return {"error": Nodes.not_found(root, path, "node")}
	if not any_node and not (n is Control):
		var names: PackedStringArray = []
		_controls(root, root, names)
		return {"error": fail("VALIDATION_ERROR", "'%s' is a %s, not a Control. Controls in the scene: %s." % [path, n.get_class(), Nodes.short_list(names)])}
	return {"root": root, "node": n}


static func _controls(root: Node, n: Node, out: PackedStringArray) -> void:
	if n is Control:
		out.append(Nodes.rel(root, n))
	for c: Node in n.get_children():
		_controls(root, c, out)


## The index of a data type name, -1 when unknown.
static func data_type(name: String) -> int:
	return DATA_TYPES.find(name)


## Decodes [param value] for a theme item of data type [param dt]: {ok, value} or {ok: false, hint}.
## Colors and numbers go through the codec; fonts and icons are res:// paths; styleboxes are
## {class, properties} (or a res:// StyleBox).
static func decode_item(dt: int, value: Variant) -> Dictionary:
	match dt:
		Theme.DATA_TYPE_COLOR:
			return Codec.decode(value, TYPE_COLOR)
		Theme.DATA_TYPE_CONSTANT, Theme.DATA_TYPE_FONT_SIZE:
			var d: Dictionary = Codec.decode(value, TYPE_INT)
			if d["ok"] and dt == Theme.DATA_TYPE_FONT_SIZE and int(d["value"]) <= 0:
				return {"ok": false, "hint": "a font size must be a positive integer (pixels)"}
			return d
		Theme.DATA_TYPE_FONT:
			return _load_path(value, "Font", "a res:// font (.ttf, .otf, .woff2, .fnt or a Font .tres)")
		Theme.DATA_TYPE_ICON:
			return _load_path(value, "Texture2D", "a res:// image (.png, .svg, ...) or Texture2D")
		Theme.DATA_TYPE_STYLEBOX:
			if typeof(value) == TYPE_STRING:
				return _load_path(value, "StyleBox", "a res:// StyleBox .tres, or {class: \"StyleBoxFlat\", properties: {...}}")
			return stylebox(value)
	return {"ok": false, "hint": "unknown data type"}


static func _load_path(value: Variant, cls: String, what: String) -> Dictionary:
	if typeof(value) != TYPE_STRING or not str(value).begins_with("res://"):
		return {"ok": false, "hint": "expected %s" % what}
	var p: String = str(value)
	if not ResourceLoader.exists(p):
		return {"ok": false, "hint": "no resource at '%s' (expected %s); godot_resources_list finds files" % [p, what], "not_found": true}
	var r: Resource = load(p)
	if r == null or not r.is_class(cls):
		return {"ok": false, "hint": "'%s' is a %s, not a %s" % [p, r.get_class() if r != null else "unloadable file", cls]}
	return {"ok": true, "value": r}


## A new StyleBox from {class, properties}: {ok, value} or {ok: false, hint}.
static func stylebox(spec: Variant) -> Dictionary:
	if typeof(spec) != TYPE_DICTIONARY or not (spec as Dictionary).has("class"):
		return {"ok": false, "hint": "a stylebox is {class: \"StyleBoxFlat\", properties: {bg_color: \"#223344\", corner_radius_top_left: 6, ...}}, or a res:// StyleBox"}
	var cls: String = str(spec["class"])
	var kinds: PackedStringArray = ["StyleBoxFlat", "StyleBoxTexture", "StyleBoxLine", "StyleBoxEmpty"]
	if not ClassDB.class_exists(cls) or not ClassDB.is_parent_class(cls, "StyleBox") or not ClassDB.can_instantiate(cls):
		return {"ok": false, "hint": "class '%s' is not a StyleBox class: one of %s.%s" % [cls, ", ".join(kinds), did_you_mean(cls, kinds)]}
	var sb: StyleBox = ClassDB.instantiate(cls) as StyleBox
	var props: Variant = (spec as Dictionary).get("properties", {})
	if typeof(props) != TYPE_DICTIONARY:
		return {"ok": false, "hint": "stylebox properties must be an object of property -> value"}
	var known: PackedStringArray = stored_names(sb)
	for k: Variant in (props as Dictionary).keys():
		var name: String = str(k)
		if not known.has(name):
			return {"ok": false, "hint": "%s has no property '%s'.%s" % [cls, name, did_you_mean(name, known)]}
		var d: Dictionary = Codec.decode_property(sb, name, props[k], null)
		if not d["ok"]:
			return {"ok": false, "hint": "%s.%s: %s" % [cls, name, d["hint"]]}
		sb.set(name, d["value"])
	return {"ok": true, "value": sb}


## The stored (saved) property names of [param obj], resource_* and script left out.
static func stored_names(obj: Object) -> PackedStringArray:
	var out: PackedStringArray = []
	for p: Dictionary in obj.get_property_list():
		var name: String = str(p["name"])
		if int(p["usage"]) & PROPERTY_USAGE_STORAGE == 0 or name.begins_with("resource_") or name == "script":
			continue
		out.append(name)
	return out


## A theme item's value as an answer shows it: resources by path, styleboxes as
## {class, properties} (properties that differ from a new one of the class).
static func encode_item(v: Variant) -> Variant:
	if v is StyleBox:
		var sb: StyleBox = v
		var out: Dictionary = {"class": sb.get_class(), "properties": {}}
		if sb.resource_path != "" and not sb.resource_path.contains("::"):
			out["path"] = sb.resource_path
		var fresh: Object = ClassDB.instantiate(sb.get_class())
		for name: String in stored_names(sb):
			var val: Variant = sb.get(name)
			if fresh == null or val != fresh.get(name):
				out["properties"][name] = val
		return out
	if v is Resource:
		var r: Resource = v
		if r.resource_path != "" and not r.resource_path.contains("::"):
			return r.resource_path
		return {"class": r.get_class(), "embedded": true}
	return v


## The nearest of [param have] to [param want] as " Did you mean 'x'?", or "" (lib/names.gd).
static func did_you_mean(want: String, have: PackedStringArray, at_least: float = 0.5) -> String:
	return Names.did_you_mean(want, have, at_least)
