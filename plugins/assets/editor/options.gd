@tool
extends RefCounted
## cmd_assets_get_options, cmd_assets_set_options: an imported file's import options
## ([params] of its .import file) by name, with the importer's own option list: each
## option's type, valid values (enum, range, class) and default. Godot has no script API
## for an importer's option list; the editor's Import dock holds it (the importer's
## get_import_options()), so it is read from there: the dock shows the file (as
## selecting it in the FileSystem dock does), its inspector's object lists the options
## with their property hints, and its preset menu's first entry gives the importer's
## defaults; the dock is then shown the file's own values again. Nothing is written.
## When the dock cannot be read, the options and their types come from the .import
## file alone (metadata: "import_file") and defaults are unknown.

const Common := preload("common.gd")
const Files := preload("res://addons/godot_mcp/lib/files.gd")
const Params := preload("res://addons/godot_mcp/lib/params.gd")
const Names := preload("res://addons/godot_mcp/lib/names.gd")
const Codec := preload("res://addons/godot_mcp/lib/codec.gd")

## The Import dock's preset menu: ids from this one up are "Set as Default" and the like.
const PRESET_MENU_ACTIONS: int = 100
## The scene importer's per-node/mesh/material/animation settings option.
const SUBRESOURCES: String = "_subresources"

var c: Common = null


func _init(common: Common) -> void:
	c = common


func _find_dock() -> Node:
	var base: Control = EditorInterface.get_base_control()
	if base == null:
		return null
	var docks: Array[Node] = base.find_children("*", "ImportDock", true, false)
	if docks.is_empty():
		var root: Window = (Engine.get_main_loop() as SceneTree).root
		docks = root.find_children("*", "ImportDock", true, false)
	return docks[0] if not docks.is_empty() else null


static func _props(obj: Object, into: Dictionary) -> void:
	for pi: Dictionary in obj.get_property_list():
		var usage: int = pi.get("usage", 0)
		if usage & (PROPERTY_USAGE_CATEGORY | PROPERTY_USAGE_GROUP | PROPERTY_USAGE_SUBGROUP):
			continue
		var n: String = pi["name"]
		if n == "script" or n.is_empty():
			continue
		if not into.has(n):
			into[n] = {"type": pi["type"], "hint": pi["hint"], "hint_string": pi["hint_string"]}


## {ok, info: {name: {type, hint, hint_string}}, defaults: {name: value}, visible: {name}}
## from the Import dock, or {ok: false, why}. [param names] are the options the .import
## file holds: the dock lists only those its importer shows with the current values, so
## the options that decide what is shown (booleans and enums) are tried through their
## values, in the dock's memory only, until every name was listed once.
func _dock_options(path: String, names: PackedStringArray) -> Dictionary:
	var fsd: FileSystemDock = EditorInterface.get_file_system_dock()
	var dock: Node = _find_dock()
	if fsd == null or dock == null:
		return {"ok": false, "why": "the editor's Import dock was not found"}
	var insps: Array[Node] = dock.find_children("*", "EditorInspector", true, false)
	if insps.size() != 1:
		return {"ok": false, "why": "the Import dock's inspector was not found"}
	fsd.navigate_to_path(path)
	var obj: Object = (insps[0] as EditorInspector).get_edited_object()
	if obj == null:
		return {"ok": false, "why": "the Import dock shows no import options for the file"}
	var info: Dictionary = {}
	_props(obj, info)
	if info.is_empty():
		return {"ok": false, "why": "the Import dock lists no options for the file"}
	var visible: Dictionary = {}
	for n: String in info:
		visible[n] = true
	var tried: Dictionary = {}
	var rounds: int = 0
	while rounds < 3 and not _covers(info, names):
		rounds += 1
		for n: String in info.keys():
			if tried.has(n) or not names.has(n):
				continue
			tried[n] = true
			var inf: Dictionary = info[n]
			var cands: Array = []
			if int(inf["type"]) == TYPE_BOOL:
				cands = [true, false]
			elif int(inf["type"]) == TYPE_INT and int(inf["hint"]) == PROPERTY_HINT_ENUM:
				for it: Dictionary in _enum_items(str(inf["hint_string"])):
					cands.append(it["value"])
			if cands.is_empty():
				continue
			var was: Variant = obj.get(n)
			for v: Variant in cands:
				obj.set(n, v)
				_props(obj, info)
			obj.set(n, was)
			if _covers(info, names):
				break
	var defaults: Dictionary = {}
	var menus: Array[Node] = dock.find_children("*", "MenuButton", true, false)
	if menus.size() == 1:
		var popup: PopupMenu = (menus[0] as MenuButton).get_popup()
		if popup.item_count > 0 and popup.get_item_id(0) >= 0 and popup.get_item_id(0) < PRESET_MENU_ACTIONS:
			popup.index_pressed.emit(0)
			_props(obj, info)
			for n: String in names:
				var d: Variant = obj.get(n)
				if d != null:
					defaults[n] = d
	fsd.navigate_to_path(path) # the dock shows the file's own values again
	return {"ok": true, "info": info, "defaults": defaults, "visible": visible}


static func _covers(info: Dictionary, names: PackedStringArray) -> bool:
	for n: String in names:
		if not info.has(n):
			return false
	return true


## The file's import state and option table, or a failure:
## {ok, cf, importer, names, info, defaults, visible, metadata, why}
func _load(path: Variant) -> Dictionary:
	var bad: Dictionary = Files.check_path(path)
	if not bad.is_empty():
		return {"ok": false, "failure": bad}
	var p: String = path
	if not FileAccess.file_exists(p):
		return {"ok": false, "failure": Files.not_found(p)}
	var cf: ConfigFile = ConfigFile.new()
	if not FileAccess.file_exists(p + ".import") or cf.load(p + ".import") != OK:
		return {"ok": false, "failure": c.fail("RESOURCE_NOT_FOUND", "'%s' is not an imported file (no readable %s.import); only imported assets (images, audio, 3D scenes, fonts, CSV translations, …) have import options." % [p, p.get_file()])}
	var importer: String = str(cf.get_value("remap", "importer", ""))
	if importer in ["keep", "skip", ""]:
		return {"ok": false, "failure": c.fail("VALIDATION_ERROR", "'%s' is not imported (importer '%s': the file is %s), so it has no import options." % [p, importer, "kept as is" if importer == "keep" else "skipped"])}
	var st: Dictionary = {"ok": true, "cf": cf, "importer": importer, "path": p}
	var from_file: PackedStringArray = cf.get_section_keys("params") if cf.has_section("params") else PackedStringArray()
	var dock: Dictionary = _dock_options(p, from_file)
	var info: Dictionary = {}
	if dock["ok"]:
		info = dock["info"]
		st["defaults"] = dock["defaults"]
		st["visible"] = dock["visible"]
		st["metadata"] = "import_dock"
	else:
		st["defaults"] = {}
		st["visible"] = {}
		st["metadata"] = "import_file"
		st["why"] = dock["why"]
	var names: PackedStringArray = []
	if cf.has_section("params"):
		for k: String in cf.get_section_keys("params"):
			names.append(k)
			if not info.has(k):
				var v: Variant = cf.get_value("params", k)
				info[k] = {"type": typeof(v), "hint": PROPERTY_HINT_NONE, "hint_string": ""}
	for k: String in info:
		if not names.has(k):
			names.append(k)
	st["names"] = names
	st["info"] = info
	return st


## [{name, value}] of a PROPERTY_HINT_ENUM hint string ("A,B:5,C").
static func _enum_items(hint_string: String) -> Array:
	var out: Array = []
	var next: int = 0
	for part: String in hint_string.split(","):
		var name: String = part
		var v: int = next
		var colon: int = part.rfind(":")
		if colon > 0 and part.substr(colon + 1).is_valid_int():
			name = part.substr(0, colon)
			v = part.substr(colon + 1).to_int()
		out.append({"value": v, "name": name.strip_edges()})
		next = v + 1
	return out


## One option's description for an answer.
func _describe(st: Dictionary, n: String) -> Dictionary:
	var inf: Dictionary = st["info"][n]
	var cf: ConfigFile = st["cf"]
	var d: Dictionary = {"name": n, "type": type_string(int(inf["type"]))}
	d["value"] = cf.get_value("params", n) if cf.has_section_key("params", n) else null
	if (st["defaults"] as Dictionary).has(n):
		d["default"] = st["defaults"][n]
	var hint: int = inf["hint"]
	var hs: String = inf["hint_string"]
	if hint == PROPERTY_HINT_ENUM and hs != "":
		if int(inf["type"]) == TYPE_INT:
			d["enum"] = _enum_items(hs)
		else:
			d["enum"] = Array(hs.split(","))
	elif hint == PROPERTY_HINT_RANGE and hs != "":
		var r: PackedStringArray = hs.split(",")
		d["range"] = [r[0].to_float(), r[1].to_float() if r.size() > 1 else null]
		if hs.contains("or_greater"):
			d["range"][1] = null
		if hs.contains("or_less"):
			d["range"][0] = null
	elif hint == PROPERTY_HINT_TYPE_STRING and hs != "":
		d["class_of"] = hs
	elif (hint == PROPERTY_HINT_FILE or hint == PROPERTY_HINT_SAVE_FILE) and hs != "":
		d["file"] = hs
	if st["metadata"] == "import_dock":
		d["visible"] = (st["visible"] as Dictionary).has(n)
	return d


## {path, prefix} -> {path, importer, type, uid, status, message, import_path, options,
## metadata, defaults_source, project_defaults}
func get_options(params: Dictionary) -> Dictionary:
	var prefix: Variant = Params.string(params, "prefix", "")
	if prefix == null:
		return Params.invalid("prefix must be a string.")
	var st: Dictionary = _load(params.get("path"))
	if not st["ok"]:
		return st["failure"]
	var opts: Array = []
	for n: String in st["names"]:
		if str(prefix) == "" or n.begins_with(str(prefix)):
			opts.append(_describe(st, n))
	var out: Dictionary = c.file_status(st["path"])
	out.erase("message")
	out["options"] = opts
	out["metadata"] = st["metadata"]
	if st["metadata"] == "import_dock":
		out["defaults_source"] = "the importer's own defaults (its first preset), read from the editor's Import dock"
	else:
		out["defaults_source"] = "unknown: %s; values and types come from the .import file" % st.get("why", "")
	var key: String = "importer_defaults/" + str(st["importer"])
	if ProjectSettings.has_setting(key):
		out["project_defaults"] = ProjectSettings.get_setting(key)
	return c.ok(out)


## The value [param v] (from JSON) made into the option's type, checked against its
## valid values: {ok, value} or {ok: false, hint}.
func _coerce(st: Dictionary, n: String, v: Variant) -> Dictionary:
	var inf: Dictionary = st["info"][n]
	var t: int = inf["type"]
	var hint: int = inf["hint"]
	var hs: String = inf["hint_string"]
	var cf: ConfigFile = st["cf"]
	if n == SUBRESOURCES:
		if not (v is Dictionary):
			return {"ok": false, "hint": "%s: expected an object {nodes|meshes|materials|animations: {name: {option: value}}}" % n}
		var cur: Variant = cf.get_value("params", n, {})
		var merged: Dictionary = (cur as Dictionary).duplicate(true) if cur is Dictionary else {}
		for cat: Variant in v:
			if not (str(cat) in ["nodes", "meshes", "materials", "animations"]):
				return {"ok": false, "hint": "%s: unknown category '%s'; use nodes, meshes, materials or animations%s" % [n, cat, Names.did_you_mean(str(cat), PackedStringArray(["nodes", "meshes", "materials", "animations"]))]}
			var items: Variant = v[cat]
			if items == null:
				merged.erase(cat)
				continue
			if not (items is Dictionary):
				return {"ok": false, "hint": "%s.%s: expected an object {name: {option: value}}" % [n, cat]}
			var into: Dictionary = merged.get(cat, {})
			for item: Variant in items:
				if items[item] == null:
					into.erase(item)
				elif items[item] is Dictionary:
					var one: Dictionary = into.get(item, {})
					for k: Variant in items[item]:
						if items[item][k] == null:
							one.erase(k)
						else:
							one[str(k)] = items[item][k]
					into[item] = one
				else:
					return {"ok": false, "hint": "%s.%s.%s: expected an object of options" % [n, cat, item]}
			merged[cat] = into
		return {"ok": true, "value": merged}
	if hint == PROPERTY_HINT_ENUM and hs != "":
		if t == TYPE_INT:
			var items: Array = _enum_items(hs)
			var names: PackedStringArray = []
			for it: Dictionary in items:
				names.append("%s (%d)" % [it["name"], it["value"]])
				if typeof(v) == TYPE_STRING and str(it["name"]).to_lower() == str(v).to_lower():
					return {"ok": true, "value": it["value"]}
				if (typeof(v) == TYPE_FLOAT or typeof(v) == TYPE_INT) and float(v) == float(it["value"]):
					return {"ok": true, "value": int(it["value"])}
			return {"ok": false, "hint": "%s: %s is not one of %s" % [n, JSON.stringify(v), ", ".join(names)]}
		if t == TYPE_STRING:
			var allowed: PackedStringArray = hs.split(",")
			if typeof(v) == TYPE_STRING and allowed.has(v):
				return {"ok": true, "value": v}
			return {"ok": false, "hint": "%s: %s is not one of %s" % [n, JSON.stringify(v), ", ".join(allowed)]}
	match t:
		TYPE_BOOL:
			if typeof(v) != TYPE_BOOL:
				return {"ok": false, "hint": "%s: expected true or false, got %s" % [n, JSON.stringify(v)]}
			return {"ok": true, "value": v}
		TYPE_INT, TYPE_FLOAT:
			if typeof(v) != TYPE_FLOAT and typeof(v) != TYPE_INT:
				return {"ok": false, "hint": "%s: expected a number, got %s" % [n, JSON.stringify(v)]}
			var f: float = float(v)
			if t == TYPE_INT and f != floorf(f):
				return {"ok": false, "hint": "%s: expected an integer, got %s" % [n, JSON.stringify(v)]}
			if hint == PROPERTY_HINT_RANGE and hs != "":
				var r: PackedStringArray = hs.split(",")
				var lo: float = r[0].to_float()
				var hi: float = r[1].to_float() if r.size() > 1 else INF
				if (f < lo and not hs.contains("or_less")) or (f > hi and not hs.contains("or_greater")):
					return {"ok": false, "hint": "%s: %s is outside %s..%s" % [n, JSON.stringify(v), r[0], r[1] if r.size() > 1 else ""]}
			return {"ok": true, "value": int(f) if t == TYPE_INT else f}
		TYPE_STRING, TYPE_STRING_NAME:
			if typeof(v) != TYPE_STRING:
				return {"ok": false, "hint": "%s: expected a string, got %s" % [n, JSON.stringify(v)]}
			if hint == PROPERTY_HINT_TYPE_STRING and hs != "" and v != "":
				var base: String = hs.split(",")[0]
				if not ClassDB.class_exists(v) or not (v == base or ClassDB.is_parent_class(v, base)):
					var cands: PackedStringArray = ClassDB.get_inheriters_from_class(base)
					return {"ok": false, "hint": "%s: '%s' is not a %s class%s" % [n, v, base, Names.did_you_mean(str(v), cands)]}
				if not ClassDB.can_instantiate(v):
					return {"ok": false, "hint": "%s: %s is abstract and cannot be instantiated; pick a concrete %s class" % [n, v, base]}
			if (hint == PROPERTY_HINT_FILE or hint == PROPERTY_HINT_SAVE_FILE) and v != "":
				var why: String = Files.path_problem(str(v))
				if why != "":
					return {"ok": false, "hint": "%s: %s" % [n, why]}
			return {"ok": true, "value": v}
	var r2: Dictionary = Codec.decode(v, t, hint, hs, null)
	if not r2.get("ok", false):
		return {"ok": false, "hint": "%s: %s" % [n, r2.get("hint", "expected a %s" % type_string(t))]}
	return {"ok": true, "value": r2["value"]}


## Writes the .import text [param text] for [param path] and reimports it (the undo
## history's do and undo entries call this).
func apply_import_text(path: String, text: String) -> void:
	var f: FileAccess = FileAccess.open(path + ".import", FileAccess.WRITE)
	if f == null:
		push_error("godot-mcp: cannot write %s.import (%s)" % [path, error_string(FileAccess.get_open_error())])
		return
	f.store_string(text)
	f.close()
	Files.efs().reimport_files(PackedStringArray([path]))


## {path, options: {name: value}, dry_run} -> {path, importer, changes: [{name, from, to,
## now}], type, uid, status, import_path, undoable}
func set_options(params: Dictionary) -> Dictionary:
	var dry: Variant = Params.boolean(params, "dry_run", false)
	var opts: Variant = params.get("options")
	if dry == null or not (opts is Dictionary) or (opts as Dictionary).is_empty():
		return Params.invalid("Expected {path, options: {name: value, …}, dry_run: bool}.")
	var st: Dictionary = _load(params.get("path"))
	if not st["ok"]:
		return st["failure"]
	var p: String = st["path"]
	var cf: ConfigFile = st["cf"]
	var names: PackedStringArray = st["names"]
	var problems: PackedStringArray = []
	var changes: Array = []
	for k: Variant in opts:
		var n: String = str(k)
		if not names.has(n):
			problems.append("'%s' is not an option of the %s importer.%s" % [n, st["importer"], Names.did_you_mean(n, names)])
			continue
		var r: Dictionary = _coerce(st, n, opts[k])
		if not r["ok"]:
			problems.append(r["hint"])
			continue
		changes.append({"name": n, "from": cf.get_value("params", n, null), "to": r["value"]})
	if not problems.is_empty():
		var valid: String = ", ".join(names)
		return c.fail("VALIDATION_ERROR", "%s Nothing was changed. The %s importer's options: %s (godot_assets_get_import_options lists them with types and valid values)." % [" ".join(problems), st["importer"], valid])
	var base: Dictionary = c.file_status(p)
	var out: Dictionary = {"path": p, "importer": st["importer"], "changes": changes, "type": base["type"], "uid": base["uid"], "status": base["status"], "import_path": p + ".import", "undoable": false}
	if dry:
		return c.ok(out)
	if not await c.await_no_scan():
		return c.fail("PRECONDITION_FAILED", "The editor is still scanning the filesystem; retry when it is done.")
	var old_text: String = FileAccess.get_file_as_string(p + ".import")
	for ch: Dictionary in changes:
		cf.set_value("params", ch["name"], ch["to"])
	var new_text: String = cf.encode_to_text()
	var mark: int = c.log_mark()
	apply_import_text(p, new_text)
	var now: Dictionary = c.file_status(p)
	if now["status"] != "imported":
		# Importers that run on worker threads have their messages reach the Output
		# panel a frame later.
		for i: int in 3:
			await (Engine.get_main_loop() as SceneTree).process_frame
		var msg: String = c.failure_message(mark, p)
		apply_import_text(p, old_text)
		return c.fail("VALIDATION_ERROR", "The %s importer failed on '%s' with these options: %s. The previous .import was restored and reimported; nothing changed." % [st["importer"], p, msg.replace("\n", " | ")])
	var back: ConfigFile = ConfigFile.new()
	back.load(p + ".import")
	for ch: Dictionary in changes:
		ch["now"] = back.get_value("params", ch["name"], null)
	var ur: EditorUndoRedoManager = EditorInterface.get_editor_undo_redo()
	ur.create_action("godot-mcp: import options of %s" % p.get_file(), UndoRedo.MERGE_DISABLE, null)
	ur.add_do_method(self, "apply_import_text", p, FileAccess.get_file_as_string(p + ".import"))
	ur.add_undo_method(self, "apply_import_text", p, old_text)
	ur.commit_action(false)
	out["type"] = now["type"]
	out["uid"] = now["uid"]
	out["status"] = now["status"]
	out["undoable"] = true
	out["undo_history"] = "global"
	return c.ok(out)
