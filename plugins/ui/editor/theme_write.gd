@tool
extends RefCounted
## Writing themes: items, type variations and defaults of a Theme .tres (created
## when missing, saved, ONE undo action that also rewrites the file), and a
## Control's theme overrides (ONE undo action in the scene's history).

const Common := preload("common.gd")
const Read := preload("theme_read.gd")
const Nodes := preload("res://addons/godot_mcp/lib/nodes.gd")
const Recorder := preload("res://addons/godot_mcp/lib/undo.gd")
const Files := preload("res://addons/godot_mcp/lib/files.gd")

var c: Common = null


func _init(common: Common) -> void:
	c = common


## The whole state of [param t] (items, variations, defaults, empty types).
static func snapshot(t: Theme) -> Dictionary:
	var items: Array = []
	var variations: Dictionary = {}
	for ty: String in t.get_type_list():
		for dt: int in Common.DATA_TYPES.size():
			for nm: String in t.get_theme_item_list(dt, ty):
				items.append([dt, nm, ty, t.get_theme_item(dt, nm, ty)])
		var base: String = str(t.get_type_variation_base(ty))
		if base != "":
			variations[ty] = base
	return {"types": t.get_type_list(), "items": items, "variations": variations, "font": t.default_font,
		"font_size": t.default_font_size if t.has_default_font_size() else -1, "scale": t.default_base_scale}


static func restore(t: Theme, s: Dictionary) -> void:
	for ty: String in t.get_type_list():
		if str(t.get_type_variation_base(ty)) != "":
			t.clear_type_variation(ty)
	t.clear()
	for ty2: String in t.get_type_list():
		t.remove_type(ty2)
	for ty3: String in s["types"]:
		t.add_type(ty3)
	for it: Array in s["items"]:
		t.set_theme_item(int(it[0]), str(it[1]), str(it[2]), it[3])
	for v: Variant in (s["variations"] as Dictionary).keys():
		t.set_type_variation(str(v), str(s["variations"][v]))
	t.default_font = s["font"]
	t.default_font_size = int(s["font_size"])
	t.default_base_scale = float(s["scale"])
	t.emit_changed()


## Names the default theme gives [param type] (or its variation base) for data type [param dt].
static func known_names(t: Theme, type: String, dt: int) -> PackedStringArray:
	var base: String = type
	var guard: int = 0
	while guard < 8 and str(t.get_type_variation_base(base)) != "":
		base = str(t.get_type_variation_base(base))
		guard += 1
	var out: PackedStringArray = []
	var def: Theme = ThemeDB.get_default_theme()
	if not ClassDB.class_exists(base):
		return out
	var cls: String = base
	while cls != "" and cls != "Object":
		for nm: String in def.get_theme_item_list(dt, cls):
			if not out.has(nm):
				out.append(nm)
		cls = ClassDB.get_parent_class(cls)
	return out


## {path, set?, remove?, variations?, default_font?, default_font_size?, default_base_scale?, dry_run}
## -> {path, created, types, items, warnings, undoable, persisted, dry_run}
func theme_edit(params: Dictionary) -> Dictionary:
	var path: String = str(params.get("path", ""))
	var dry: bool = bool(params.get("dry_run", false))
	# res:// only, and no symbolic link leading out of the project.
	var bad: Dictionary = Files.check_path(path)
	if not bad.is_empty():
		return bad
	var created: bool = not ResourceLoader.exists(path)
	var theme: Theme = null
	if created:
		if FileAccess.file_exists(path):
			return c.fail("VALIDATION_ERROR", "'%s' exists but is not a resource; pick another path." % path)
		if not DirAccess.dir_exists_absolute(path.get_base_dir()):
			return c.fail("RESOURCE_NOT_FOUND", "The folder '%s' does not exist; create it first (godot_resources_create_folder) or pick another path." % path.get_base_dir())
		theme = Theme.new()
	else:
		theme = load(path) as Theme
		if theme == null:
			return c.fail("VALIDATION_ERROR", "'%s' is a %s, not a Theme; give a Theme .tres (or a new path to create one)." % [path, load(path).get_class() if load(path) != null else "file that does not load"])
	var warnings: Array = []
	# Decode and check everything before changing anything.
	var sets: Array = []
	for i: int in (params.get("set", []) as Array).size():
		var it: Dictionary = params["set"][i]
		var dt: int = Common.data_type(str(it.get("data_type", "")))
		var d: Dictionary = Common.decode_item(dt, it.get("value"))
		if not d["ok"]:
			return c.fail("RESOURCE_NOT_FOUND" if d.get("not_found", false) else "VALIDATION_ERROR", "set[%d] (%s %s/%s): %s." % [i, it["data_type"], it["type"], it["name"], d["hint"]])
		var known: PackedStringArray = known_names(theme, str(it["type"]), dt)
		if not known.is_empty() and not known.has(str(it["name"])):
			warnings.append("set[%d]: %s has no %s item '%s' in the default theme, so no built-in Control reads it.%s" % [i, it["type"], it["data_type"], it["name"], Common.did_you_mean(str(it["name"]), known)])
		sets.append([dt, str(it["name"]), str(it["type"]), d["value"]])
	var removes: Array = []
	for j: int in (params.get("remove", []) as Array).size():
		var r: Dictionary = params["remove"][j]
		var dt2: int = Common.data_type(str(r.get("data_type", "")))
		if not theme.has_theme_item(dt2, str(r["name"]), str(r["type"])):
			var have: PackedStringArray = theme.get_theme_item_list(dt2, str(r["type"]))
			return c.fail("RESOURCE_NOT_FOUND", "remove[%d]: the theme has no %s '%s' in type '%s'.%s It has: %s." % [j, r["data_type"], r["name"], r["type"],
				Common.did_you_mean(str(r["name"]), have), Nodes.short_list(have)])
		removes.append([dt2, str(r["name"]), str(r["type"])])
	var font: Variant = null
	if params.has("default_font") and str(params["default_font"]) != "":
		var fd: Dictionary = Common.decode_item(Theme.DATA_TYPE_FONT, params["default_font"])
		if not fd["ok"]:
			return c.fail("RESOURCE_NOT_FOUND" if fd.get("not_found", false) else "VALIDATION_ERROR", "default_font: %s." % fd["hint"])
		font = fd["value"]
	var before: Dictionary = snapshot(theme)
	for s: Array in sets:
		theme.set_theme_item(int(s[0]), s[1], s[2], s[3])
	for r2: Array in removes:
		theme.clear_theme_item(int(r2[0]), r2[1], r2[2])
	for v: Dictionary in params.get("variations", []):
		if str(v.get("base", "")) == "":
			theme.clear_type_variation(str(v["type"]))
		else:
			theme.set_type_variation(str(v["type"]), str(v["base"]))
	if params.has("default_font"):
		theme.default_font = font
	if params.has("default_font_size"):
		theme.default_font_size = int(params["default_font_size"])
	if params.has("default_base_scale"):
		theme.default_base_scale = float(params["default_base_scale"])
	var after: Dictionary = snapshot(theme)
	var result: Dictionary = {"path": path, "created": created, "types": Array(theme.get_type_list()), "items": (after["items"] as Array).size(),
		"warnings": warnings, "dry_run": dry, "undoable": false, "persisted": false, "reason": ""}
	(result["types"] as Array).sort()
	if dry:
		restore(theme, before)
		result["reason"] = "dry run"
		return c.ok(result)
	var err: String = _write(theme, after, path, false)
	if err != "":
		restore(theme, before)
		return c.fail("INTERNAL_ERROR", "Saving '%s' failed: %s; nothing was changed." % [path, err])
	var mgr: EditorUndoRedoManager = EditorInterface.get_editor_undo_redo()
	mgr.create_action("godot-mcp: edit Theme %s" % path, UndoRedo.MERGE_DISABLE, theme)
	mgr.add_do_method(self, "_write", theme, after, path, false)
	mgr.add_undo_method(self, "_write", theme, before, path, created)
	mgr.commit_action(false)
	result["undoable"] = true
	result["persisted"] = true
	return c.ok(result)


## Puts [param t] in state [param s] and saves it to [param path]; with [param remove],
## deletes the file instead (undoing the call that created it). "" or an error.
func _write(t: Theme, s: Dictionary, path: String, remove: bool) -> String:
	restore(t, s)
	var fs: EditorFileSystem = EditorInterface.get_resource_filesystem()
	if remove:
		var derr: Error = DirAccess.remove_absolute(ProjectSettings.globalize_path(path))
		fs.update_file(path)
		return "" if derr == OK else error_string(derr)
	var serr: Error = ResourceSaver.save(t, path)
	if serr != OK:
		return error_string(serr)
	if t.resource_path != path:
		t.take_over_path(path)
	fs.update_file(path)
	return ""


## {node, set?: [{data_type, name, value}], remove?: [{data_type, name}], dry_run}
## -> {node, theme_type, overrides, undoable, persisted, dry_run}
func set_overrides(params: Dictionary) -> Dictionary:
	var found: Dictionary = c.find_control(str(params.get("node", "")))
	if found.has("error"):
		return found["error"]
	var root: Node = found["root"]
	var n: Control = found["node"]
	var dry: bool = bool(params.get("dry_run", false))
	var ty: String = Read.theme_type(n)
	var ops: Array = [] # [property, value or null]
	var seen: Dictionary = {}
	var sets: Array = params.get("set", [])
	for i: int in sets.size():
		var it: Dictionary = sets[i]
		var dt: int = Common.data_type(str(it.get("data_type", "")))
		var name: String = str(it.get("name", ""))
		var names: PackedStringArray = Read.item_names(n, dt)
		if not names.has(name):
			return c.fail("VALIDATION_ERROR", "set[%d]: a %s (theme type %s) has no %s item '%s'.%s Its %s items: %s." % [i, n.get_class(), ty, it["data_type"], name,
				_anywhere(n, name, Common.did_you_mean(name, names)), it["data_type"], Nodes.short_list(names, 40)])
		var d: Dictionary = Common.decode_item(dt, it.get("value"))
		if not d["ok"]:
			return c.fail("RESOURCE_NOT_FOUND" if d.get("not_found", false) else "VALIDATION_ERROR", "set[%d] (%s %s): %s." % [i, it["data_type"], name, d["hint"]])
		var prop: String = Common.OVERRIDE_PREFIX[dt] + name
		if seen.has(prop):
			return c.fail("VALIDATION_ERROR", "set[%d]: %s '%s' is given twice." % [i, it["data_type"], name])
		seen[prop] = true
		ops.append([prop, d["value"]])
	var removes: Array = params.get("remove", [])
	for j: int in removes.size():
		var r: Dictionary = removes[j]
		var dt2: int = Common.data_type(str(r.get("data_type", "")))
		var nm: String = str(r.get("name", ""))
		if not Read.has_override(n, dt2, nm):
			var cur: Dictionary = Read.overrides(n).get(str(r["data_type"]), {})
			return c.fail("RESOURCE_NOT_FOUND", "remove[%d]: '%s' has no %s override '%s'.%s Its %s overrides: %s." % [j, Nodes.rel(root, n), r["data_type"], nm,
				Common.did_you_mean(nm, PackedStringArray(cur.keys())), r["data_type"], Nodes.short_list(PackedStringArray(cur.keys()))])
		var prop2: String = Common.OVERRIDE_PREFIX[dt2] + nm
		if seen.has(prop2):
			return c.fail("VALIDATION_ERROR", "remove[%d]: %s '%s' is also in set." % [j, r["data_type"], nm])
		seen[prop2] = true
		ops.append([prop2, null])
	var rec: Recorder = Recorder.new()
	rec.begin()
	for op: Array in ops:
		rec.undo_set(n, op[0], n.get(op[0]))
		rec.do_set(n, op[0], op[1])
	var result: Dictionary = {"node": Nodes.rel(root, n), "theme_type": ty, "overrides": Read.overrides(n), "dry_run": dry, "undoable": false, "persisted": false, "reason": ""}
	if dry:
		rec.rollback()
		result["reason"] = "dry run"
		return c.ok(result)
	rec.commit("godot-mcp: theme overrides of %s" % Nodes.rel(root, n), root)
	result["undoable"] = true
	result["persisted"] = n == root or n.owner == root or (n.owner != null and root.is_editable_instance(n.owner))
	if not result["persisted"]:
		result["reason"] = "the node belongs to an instanced scene without Editable Children; edit that scene instead"
	return c.ok(result)


## The did-you-mean for [param name], or where the name exists under another data type.
static func _anywhere(n: Control, name: String, dym: String) -> String:
	for dt: int in Common.DATA_TYPES.size():
		if Read.item_names(n, dt).has(name):
			return " '%s' is a %s item: use data_type \"%s\"." % [name, Common.DATA_TYPES[dt], Common.DATA_TYPES[dt]]
	return dym
