@tool
extends RefCounted
## Reading themes: a Theme resource's defaults, type variations and items per data
## type; a Control's overrides and the effective values of the items its type uses.

const Common := preload("common.gd")
const Nodes := preload("res://addons/godot_mcp/lib/nodes.gd")

var c: Common = null


func _init(common: Common) -> void:
	c = common


## The theme type [param n]'s items are looked up under.
static func theme_type(n: Control) -> String:
	return str(n.theme_type_variation) if str(n.theme_type_variation) != "" else n.get_class()


## {type: {data type: {name: value}}} of [param theme] (only [param only] when given).
static func types_of(theme: Theme, only: String) -> Array:
	var out: Array = []
	var names: PackedStringArray = theme.get_type_list()
	names.sort()
	for t: String in names:
		if only != "" and t != only:
			continue
		var items: Dictionary = {}
		for dt: int in Common.DATA_TYPES.size():
			var list: PackedStringArray = theme.get_theme_item_list(dt, t)
			if list.is_empty():
				continue
			var by_name: Dictionary = {}
			for nm: String in list:
				by_name[nm] = Common.encode_item(theme.get_theme_item(dt, nm, t))
			items[Common.DATA_TYPES[dt]] = by_name
		var entry: Dictionary = {"name": t, "items": items}
		if theme.is_type_variation(t, theme.get_type_variation_base(t)) and str(theme.get_type_variation_base(t)) != "":
			entry["variation_of"] = str(theme.get_type_variation_base(t))
		out.append(entry)
	return out


## The item names of data type [param dt] that [param n]'s type uses (its override properties).
static func item_names(n: Control, dt: int) -> PackedStringArray:
	var out: PackedStringArray = []
	var prefix: String = Common.OVERRIDE_PREFIX[dt]
	for p: Dictionary in n.get_property_list():
		var name: String = str(p["name"])
		if name.begins_with(prefix):
			out.append(name.substr(prefix.length()))
	return out


static func has_override(n: Control, dt: int, name: String) -> bool:
	match dt:
		Theme.DATA_TYPE_COLOR:
			return n.has_theme_color_override(name)
		Theme.DATA_TYPE_CONSTANT:
			return n.has_theme_constant_override(name)
		Theme.DATA_TYPE_FONT:
			return n.has_theme_font_override(name)
		Theme.DATA_TYPE_FONT_SIZE:
			return n.has_theme_font_size_override(name)
		Theme.DATA_TYPE_ICON:
			return n.has_theme_icon_override(name)
	return n.has_theme_stylebox_override(name)


static func effective(n: Control, dt: int, name: String) -> Variant:
	match dt:
		Theme.DATA_TYPE_COLOR:
			return n.get_theme_color(name)
		Theme.DATA_TYPE_CONSTANT:
			return n.get_theme_constant(name)
		Theme.DATA_TYPE_FONT:
			return Common.encode_item(n.get_theme_font(name))
		Theme.DATA_TYPE_FONT_SIZE:
			return n.get_theme_font_size(name)
		Theme.DATA_TYPE_ICON:
			return Common.encode_item(n.get_theme_icon(name))
	return Common.encode_item(n.get_theme_stylebox(name))


## {data type: {name: value}} of [param n]'s overrides.
static func overrides(n: Control) -> Dictionary:
	var out: Dictionary = {}
	for dt: int in Common.DATA_TYPES.size():
		var by_name: Dictionary = {}
		for nm: String in item_names(n, dt):
			if has_override(n, dt, nm):
				by_name[nm] = Common.encode_item(n.get(Common.OVERRIDE_PREFIX[dt] + nm))
		if not by_name.is_empty():
			out[Common.DATA_TYPES[dt]] = by_name
	return out


## {path? | node? | project?, type?} -> {source, path, has_theme, default_*, types, node?}
func theme_get(params: Dictionary) -> Dictionary:
	var path: String = str(params.get("path", ""))
	var node_path: String = str(params.get("node", ""))
	var only: String = str(params.get("type", ""))
	var theme: Theme = null
	var source: String = "file"
	var node_info: Variant = null
	if path != "":
		if not ResourceLoader.exists(path):
			return c.fail("RESOURCE_NOT_FOUND", "No resource at '%s'. Create a Theme with godot_ui_theme_edit {path: \"%s\", set: [...]}, or list them with godot_resources_list {type: \"Theme\"}." % [path, path])
		theme = load(path) as Theme
		if theme == null:
			return c.fail("VALIDATION_ERROR", "'%s' is not a Theme." % path)
	elif node_path != "":
		source = "node"
		var found: Dictionary = c.find_control(node_path)
		if found.has("error"):
			return found["error"]
		var n: Control = found["node"]
		var root: Node = found["root"]
		# The theme in effect: the nearest of the node and its ancestors that sets one,
		# else the project's, else the default theme.
		var from: String = "default"
		var p: Node = n
		while p != null and theme == null:
			var own: Variant = p.get("theme") if (p is Control or p is Window) else null
			if own is Theme:
				theme = own
				from = Nodes.rel(root, p) if (p == root or root.is_ancestor_of(p)) else str(p.get_path())
			p = p.get_parent() if p != root else null
		if theme == null and str(ProjectSettings.get_setting("gui/theme/custom", "")) != "":
			theme = load(str(ProjectSettings.get_setting("gui/theme/custom"))) as Theme
			from = "project" if theme != null else "default"
		var eff: Dictionary = {}
		for dt: int in Common.DATA_TYPES.size():
			var by_name: Dictionary = {}
			for nm: String in item_names(n, dt):
				by_name[nm] = effective(n, dt, nm)
			if not by_name.is_empty():
				eff[Common.DATA_TYPES[dt]] = by_name
		node_info = {"node": Nodes.rel(root, n), "theme_type": theme_type(n), "theme_from": from, "overrides": overrides(n), "effective": eff}
	else:
		source = "project"
		var custom: String = str(ProjectSettings.get_setting("gui/theme/custom", ""))
		if custom != "":
			theme = load(custom) as Theme
			if theme == null:
				return c.fail("RESOURCE_NOT_FOUND", "gui/theme/custom is '%s', which does not load as a Theme; fix it with godot_project_set_settings." % custom)
	var result: Dictionary = {"source": source, "path": "", "has_theme": theme != null, "default_font": "", "default_font_size": -1,
		"default_base_scale": 0.0, "types": []}
	if theme != null:
		result["path"] = theme.resource_path if not theme.resource_path.contains("::") else ""
		result["default_font"] = Common.encode_item(theme.default_font) if theme.default_font != null else ""
		if typeof(result["default_font"]) != TYPE_STRING:
			result["default_font"] = "(embedded %s)" % theme.default_font.get_class()
		result["default_font_size"] = theme.default_font_size if theme.has_default_font_size() else -1
		result["default_base_scale"] = theme.default_base_scale
		result["types"] = types_of(theme, only)
		if only != "" and (result["types"] as Array).is_empty():
			return c.fail("RESOURCE_NOT_FOUND", "The theme has no type '%s'.%s Types: %s." % [only, Common.did_you_mean(only, theme.get_type_list()), Nodes.short_list(theme.get_type_list())])
	if node_info != null:
		result["node"] = node_info
	return c.ok(result)
