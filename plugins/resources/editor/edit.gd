@tool
extends "common.gd"
## Writing resources: cmd_resources_create, cmd_resources_set_properties.


## {path, type, properties, overwrite, dry_run} -> {path, type, uid, created, properties,
## persisted, undoable, undo_history, ready, written, removed}
func create(params: Dictionary) -> Dictionary:
	var path: Variant = params.get("path")
	var bad: Dictionary = Files.check_path(path)
	if not bad.is_empty():
		return bad
	var p: String = path
	var type_name: Variant = params.get("type")
	var props: Variant = params.get("properties", {})
	var overwrite: Variant = Params.boolean(params, "overwrite", false)
	var dry_run: Variant = Params.boolean(params, "dry_run", false)
	if typeof(type_name) != TYPE_STRING or (type_name as String) == "" or typeof(props) != TYPE_DICTIONARY or overwrite == null or dry_run == null:
		return _router.fail("VALIDATION_ERROR", "Expected {path, type: class name, properties: {name: value}, overwrite: bool, dry_run: bool}.")
	var made: Dictionary = _instantiate_resource(type_name as String)
	if not made.get("ok", false):
		return made["failure"]
	var res: Resource = made["resource"]
	var ext: String = p.get_extension().to_lower()
	if not ResourceSaver.get_recognized_extensions(res).has(ext):
		return _router.fail("VALIDATION_ERROR", "A %s cannot be saved as .%s; use .tres or .res." % [type_name, ext])
	if Files.is_dir(p):
		return _router.fail("VALIDATION_ERROR", "'%s' is a folder." % p)
	var existed: bool = FileAccess.file_exists(p)
	if existed and not overwrite:
		return _router.fail("VALIDATION_ERROR", "'%s' exists already; pass overwrite: true to replace it, or pick another path (godot_resources_set_properties changes an existing resource)." % p)
	if existed and p in Files.open_scene_paths():
		return _router.fail("PRECONDITION_FAILED", "'%s' is open in the editor as a scene; close it before replacing the file." % p)
	var set_result: Dictionary = _decode_all(res, props as Dictionary)
	if not set_result.get("ok", false):
		return set_result["failure"]
	var values: Dictionary = set_result["values"]
	for k: Variant in values.keys():
		res.set(str(k), values[k])
	var shown: Dictionary = {}
	for k: Variant in values.keys():
		shown[k] = Codec.encode(res.get(str(k)))
	var out: Dictionary = {"path": p, "type": type_name, "created": not existed, "properties": shown, "ready": true, "written": [p], "removed": []}
	if dry_run:
		out["persisted"] = false
		out["undoable"] = false
		return _router.ok(out)
	var before: Variant = Files.file_bytes(p)
	DirAccess.make_dir_recursive_absolute(ProjectSettings.globalize_path(p.get_base_dir()))
	var err: Error = ResourceSaver.save(res, p)
	if err != OK:
		return _router.fail("INTERNAL_ERROR", "Saving %s failed: %s. Check the folder is writable." % [p, error_string(err)])
	var after: PackedByteArray = FileAccess.get_file_as_bytes(p)
	var do_ops: Array = [{"op": "write", "path": p, "data": after}]
	var undo_ops: Array = [{"op": "delete", "path": p}] if before == null else [{"op": "write", "path": p, "data": before}]
	var undoable: bool = Files.ops_bytes(do_ops) + Files.ops_bytes(undo_ops) <= Files.UNDO_LIMIT_BYTES
	Files.notify_changed(PackedStringArray([p]), PackedStringArray())
	if undoable:
		Files.record("godot-mcp: create %s" % p, do_ops, undo_ops)
	var st: Dictionary = Files.sync_files(PackedStringArray([p]), PackedStringArray())
	out["uid"] = Files.uid_text(p)
	out["persisted"] = true
	out["undoable"] = undoable
	out["undo_history"] = "global"
	out["ready"] = st["ready"]
	return _router.ok(out)


## {path, png_base64, overwrite, dry_run} -> {path, width, height, created, uid, persisted,
## undoable, undo_history, ready, written, removed}: a PNG the toolset drew (make_image),
## written and imported as a texture; one undo action in the global history.
func write_image(params: Dictionary) -> Dictionary:
	var path: Variant = params.get("path")
	var bad: Dictionary = Files.check_path(path)
	if not bad.is_empty():
		return bad
	var p: String = path
	var overwrite: Variant = Params.boolean(params, "overwrite", false)
	var dry_run: Variant = Params.boolean(params, "dry_run", false)
	if typeof(params.get("png_base64")) != TYPE_STRING or overwrite == null or dry_run == null or p.get_extension().to_lower() != "png":
		return _router.fail("VALIDATION_ERROR", "Expected {path: res://….png, png_base64, overwrite: bool, dry_run: bool}.")
	var data: PackedByteArray = Marshalls.base64_to_raw(str(params["png_base64"]))
	var img: Image = Image.new()
	if data.is_empty() or img.load_png_from_buffer(data) != OK:
		return _router.fail("INTERNAL_ERROR", "The image data is not a PNG.")
	if Files.is_dir(p):
		return _router.fail("VALIDATION_ERROR", "'%s' is a folder." % p)
	var existed: bool = FileAccess.file_exists(p)
	if existed and not overwrite:
		return _router.fail("VALIDATION_ERROR", "'%s' exists already; pass overwrite: true to replace it, or pick another path." % p)
	var out: Dictionary = {"path": p, "width": img.get_width(), "height": img.get_height(), "created": not existed, "ready": true, "written": [p], "removed": []}
	if dry_run:
		out["persisted"] = false
		out["undoable"] = false
		return _router.ok(out)
	var before: Variant = Files.file_bytes(p)
	var do_ops: Array = [{"op": "write", "path": p, "data": data}]
	var undo_ops: Array = [{"op": "delete", "path": p}] if before == null else [{"op": "write", "path": p, "data": before}]
	var res: Dictionary = Files.commit("", do_ops, [], false)
	if not res.get("ok", false):
		return _router.fail("INTERNAL_ERROR", "Writing %s failed: %s." % [p, res.get("error", "")])
	var undoable: bool = Files.ops_bytes(do_ops) + Files.ops_bytes(undo_ops) <= Files.UNDO_LIMIT_BYTES
	Files.notify_changed(PackedStringArray([p]), PackedStringArray())
	if undoable:
		Files.record("godot-mcp: image %s" % p, do_ops, undo_ops)
	# A new PNG becomes a texture only when imported, which a scan does (the toolset
	# waits for it: ready false).
	if Files.efs().is_scanning():
		pass # the running scan imports it
	elif existed and FileAccess.file_exists(p + ".import"):
		Files.efs().reimport_files(PackedStringArray([p]))
	else:
		Files.efs().scan()
	out["uid"] = Files.uid_text(p)
	out["persisted"] = true
	out["undoable"] = undoable
	out["undo_history"] = "global"
	out["ready"] = false
	return _router.ok(out)


## {ok, resource} or {ok: false, failure} for an engine or script resource class.
func _instantiate_resource(type_name: String) -> Dictionary:
	if ClassDB.class_exists(type_name):
		if not ClassDB.is_parent_class(type_name, "Resource"):
			return {"ok": false, "failure": _router.fail("VALIDATION_ERROR", "'%s' is not a Resource class (it is a %s); resource files hold Resource types such as StyleBoxFlat, Gradient or a script class extending Resource." % [type_name, ClassDB.get_parent_class(type_name)])}
		if not ClassDB.can_instantiate(type_name):
			return {"ok": false, "failure": _router.fail("VALIDATION_ERROR", "'%s' is abstract; pick a concrete subclass (godot_describe_class lists its family)." % type_name)}
		return {"ok": true, "resource": ClassDB.instantiate(type_name) as Resource}
	var scr: Script = Codec.global_script(type_name)
	if scr == null:
		var hint: String = "Unknown resource class '%s'." % type_name
		var near: PackedStringArray = _similar_resource_classes(type_name)
		if not near.is_empty():
			hint += " Did you mean %s?" % ", ".join(near)
		return {"ok": false, "failure": _router.fail("VALIDATION_ERROR", hint)}
	var native: String = str(scr.get_instance_base_type())
	if native == "" or not ClassDB.is_parent_class(native, "Resource"):
		return {"ok": false, "failure": _router.fail("VALIDATION_ERROR", "Script class '%s' extends %s, not Resource (or it does not compile; check it with godot_scripts_validate)." % [type_name, native if native != "" else "nothing"])}
	# The editor's own way: the engine base with the script set (a placeholder instance for
	# a non-@tool script, which keeps the exported values and saves them).
	var res: Resource = ClassDB.instantiate(native) as Resource
	res.set_script(scr)
	return {"ok": true, "resource": res}


static func _similar_resource_classes(wanted: String) -> PackedStringArray:
	var lower: String = wanted.to_lower()
	var names: Array = Array(ClassDB.get_inheriters_from_class("Resource"))
	for entry: Dictionary in ProjectSettings.get_global_class_list():
		names.append(str(entry.get("class", "")))
	var scored: Array = []
	for n: Variant in names:
		var s: float = str(n).to_lower().similarity(lower)
		if s >= 0.5:
			scored.append([s, str(n)])
	scored.sort_custom(func(a: Array, b: Array) -> bool: return a[0] > b[0])
	var out: PackedStringArray = []
	for s: Array in scored.slice(0, 3):
		out.append(str(s[1]))
	return out


## Decodes every property value for [param obj] through the value codec, all or nothing:
## {ok, values} or {ok: false, failure} naming every bad property.
func _decode_all(obj: Object, props: Dictionary) -> Dictionary:
	var values: Dictionary = {}
	var problems: PackedStringArray = []
	for k: Variant in props.keys():
		var name: String = str(k)
		var info: Dictionary = Codec.property_info(obj, name)
		var usage: int = int(info.get("usage", 0))
		if info.is_empty() or (usage & PROPERTY_USAGE_STORAGE) == 0:
			var near: PackedStringArray = []
			for pi: Dictionary in obj.get_property_list():
				var pn: String = str(pi["name"])
				if (int(pi.get("usage", 0)) & PROPERTY_USAGE_STORAGE) != 0 and pn.similarity(name) > 0.5:
					near.append(pn)
			var msg: String = "%s has no stored property '%s'" % [obj.get_class(), name]
			if not near.is_empty():
				msg += " (did you mean %s?)" % ", ".join(near)
			problems.append(msg)
			continue
		var d: Dictionary = Codec.decode_property(obj, name, props[k])
		if not d.get("ok", false):
			problems.append("%s: %s" % [name, d.get("hint", "does not fit")])
			continue
		values[name] = d["value"]
	if not problems.is_empty():
		return {"ok": false, "failure": _router.fail("VALIDATION_ERROR", "Nothing was changed. " + "; ".join(problems) + ". Value shapes: the resource godot://docs/values; property names: godot_describe_class.")}
	return {"ok": true, "values": values}


# --- cmd_resources_set_properties -------------------------------------------------------------


## {path, properties, dry_run} -> {path, type, changes: [{property, old, new}], persisted,
## undoable, undo_history, ready, written, removed}
func set_properties(params: Dictionary) -> Dictionary:
	var path: Variant = params.get("path")
	var bad: Dictionary = Files.check_path(path)
	if not bad.is_empty():
		return bad
	var p: String = path
	var props: Variant = params.get("properties")
	var dry_run: Variant = Params.boolean(params, "dry_run", false)
	if typeof(props) != TYPE_DICTIONARY or (props as Dictionary).is_empty() or dry_run == null:
		return _router.fail("VALIDATION_ERROR", "properties must be a non-empty object {name: value}.")
	if not FileAccess.file_exists(p):
		return Files.not_found(p)
	if FileAccess.file_exists(p + ".import"):
		return _router.fail("VALIDATION_ERROR", "'%s' is an imported asset; its data comes from the source file and its .import settings, not from properties. Change the source and reimport." % p)
	var res: Resource = ResourceLoader.load(p)
	if res == null:
		return _router.fail("VALIDATION_ERROR", "'%s' is not a resource Godot can load." % p)
	if res is Script or res is PackedScene:
		return _router.fail("VALIDATION_ERROR", "'%s' is a %s; use the scripts or scene tools for it." % [p, res.get_class()])
	var plain: Dictionary = {}
	var paths: Dictionary = {}
	for k: Variant in (props as Dictionary).keys():
		if SubPath.is_path(str(k)):
			paths[str(k)] = props[k]
		else:
			plain[k] = props[k]
	var decoded: Dictionary = _decode_all(res, plain)
	if not decoded.get("ok", false):
		return decoded["failure"]
	var values: Dictionary = decoded["values"]
	# [[object, property, new, old, name]]: plain properties of the file's resource, then paths
	# into its embedded sub-resources.
	var sets: Array = []
	for k: Variant in values.keys():
		sets.append([res, str(k), values[k], res.get(str(k)), str(k)])
	var sub: Dictionary = _decode_paths(res, p, paths, values)
	if not sub.get("ok", false):
		return sub["failure"]
	sets.append_array(sub["sets"])
	var changes: Array = []
	var out: Dictionary = {"path": p, "type": res.get_class(), "ready": true, "written": [p], "removed": []}
	var users: Dictionary = await Files.find_referrers(PackedStringArray([p]), PackedStringArray(), {p: true}, USERS_BUDGET_MS)
	var used_by: PackedStringArray = []
	for r: Dictionary in users["referrers"]:
		used_by.append(str(r["path"]))
	out["used_by"] = used_by
	out["used_by_complete"] = users["complete"]
	if dry_run:
		for e: Array in sets:
			changes.append({"property": e[4], "old": Codec.encode(e[3]), "new": Codec.encode(e[2])})
		out["changes"] = changes
		out["persisted"] = false
		out["undoable"] = false
		return _router.ok(out)
	var do_sets: Array = []
	var undo_sets: Array = []
	for e: Array in sets:
		do_sets.append([e[0], e[1], e[2]])
	for i: int in range(sets.size() - 1, -1, -1):
		undo_sets.append([sets[i][0], sets[i][1], sets[i][3]])
	var ur: EditorUndoRedoManager = EditorInterface.get_editor_undo_redo()
	ur.create_action("godot-mcp: set properties of %s" % p, UndoRedo.MERGE_DISABLE, null)
	ur.add_do_method(self, "_apply_properties", res, p, do_sets)
	ur.add_undo_method(self, "_apply_properties", res, p, undo_sets)
	ur.commit_action(true)
	if _last_save_error != OK:
		return _router.fail("INTERNAL_ERROR", "The properties were set in the editor but saving %s failed (%s); godot_undo (history \"global\") reverts them." % [p, error_string(_last_save_error)])
	for e: Array in sets:
		changes.append({"property": e[4], "old": Codec.encode(e[3]), "new": Codec.encode((e[0] as Object).get(str(e[1])))})
	var st: Dictionary = Files.sync_files(PackedStringArray([p]), PackedStringArray())
	out["changes"] = changes
	out["persisted"] = true
	out["undoable"] = true
	out["undo_history"] = "global"
	out["ready"] = st["ready"]
	return _router.ok(out)


## Resolves and decodes {"a:b": json} inside [param res] (the file [param file]): {ok, sets:
## [[object, property, new, old, path]]} or {ok: false, failure}. A path through a resource
## saved in another file is refused (saving this file would not save it).
func _decode_paths(res: Resource, file: String, paths: Dictionary, plain: Dictionary) -> Dictionary:
	var sets: Array = []
	var problems: PackedStringArray = []
	for path: String in paths.keys():
		var first: String = path.get_slice(":", 0)
		if plain.has(first):
			problems.append("'%s' and a path inside it ('%s') cannot be set in one call; set '%s' first, then the path" % [first, path, first])
			continue
		var r: Dictionary = SubPath.resolve(res, path, "%s '%s'" % [res.get_class(), file])
		if not r.get("ok", false):
			problems.append(str(r["hint"]).trim_suffix("."))
			continue
		var chain: Array = r["chain"]
		var prefixes: PackedStringArray = r["prefixes"]
		var foreign: String = ""
		for i: int in range(chain.size()):
			var rp: String = (chain[i] as Resource).resource_path
			if rp != "" and rp.get_slice("::", 0) != file:
				foreign = "'%s' is the resource file '%s', not part of '%s': change it there (godot_resources_set_properties {path: \"%s\", properties: {\"%s\": …}})" % [prefixes[i], rp.get_slice("::", 0), file, rp.get_slice("::", 0), path.substr(prefixes[i].length() + 1)]
				break
		if foreign != "":
			problems.append(foreign)
			continue
		var target: Object = r["target"]
		var info: Dictionary = r["info"]
		if int(info.get("usage", 0)) & PROPERTY_USAGE_STORAGE == 0:
			problems.append("'%s' is not a stored property of %s (it would not be saved)" % [path, target.get_class()])
			continue
		var d: Dictionary = Codec.decode(paths[path], int(info.get("type", TYPE_NIL)), int(info.get("hint", PROPERTY_HINT_NONE)), str(info.get("hint_string", "")))
		if not d.get("ok", false):
			problems.append("%s: %s" % [path, d.get("hint", "does not fit")])
			continue
		sets.append([target, str(r["property"]), d["value"], target.get(str(r["property"])), path])
	if not problems.is_empty():
		return {"ok": false, "failure": _router.fail("VALIDATION_ERROR", "Nothing was changed. " + "; ".join(problems) + ".")}
	return {"ok": true, "sets": sets}


var _last_save_error: Error = OK


## Sets [[object, property, value], …] (the file's resource and its embedded
## sub-resources), saves [param res] to [param path] and tells the editor.
func _apply_properties(res: Resource, path: String, sets: Array) -> void:
	for e: Array in sets:
		(e[0] as Object).set(str(e[1]), e[2])
	_last_save_error = ResourceSaver.save(res, path)
	for e: Array in sets:
		if e[0] is Resource:
			(e[0] as Resource).emit_changed()
	res.emit_changed()
	if not Files.efs().is_scanning():
		Files.efs().update_file(path)
	else:
		Files.update_after_scan(path)
