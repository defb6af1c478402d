@tool
extends "common.gd"
## Moving and deleting files and folders (references updated, one undo action each):
## cmd_resources_move, cmd_resources_delete.


## {from, to, dry_run} -> {from, to, moved: [{from, to}], updated_refs, unchanged_refs,
## project_settings, uid, persisted, undoable, undo_history, ready, written, removed}
func move(params: Dictionary) -> Dictionary:
	var from_v: Variant = params.get("from")
	var to_v: Variant = params.get("to")
	var bad: Dictionary = Files.check_path(from_v, "from")
	if bad.is_empty():
		bad = Files.check_path(to_v, "to")
	if not bad.is_empty():
		return bad
	var dry_run: Variant = Params.boolean(params, "dry_run", false)
	if dry_run == null:
		return _router.fail("VALIDATION_ERROR", "dry_run must be true or false.")
	var from: String = from_v
	var to: String = to_v
	var folder: bool = Files.is_dir(from)
	if not folder and not FileAccess.file_exists(from):
		return Files.not_found(from, "file or folder")
	if Files.exists(to):
		return _router.fail("VALIDATION_ERROR", "'%s' exists already; moves never overwrite. Pick a free path, or delete it first." % to)
	if folder and (to + "/").begins_with(from + "/"):
		return _router.fail("VALIDATION_ERROR", "Cannot move the folder '%s' into itself." % from)
	if folder:
		var links: PackedStringArray = PathGuard.links_under(from)
		if not links.is_empty():
			return _router.fail("VALIDATION_ERROR", _links_inside_hint(from, links, "moved"))
	if not folder and from.get_extension().to_lower() != to.get_extension().to_lower():
		return _router.fail("VALIDATION_ERROR", "'%s' and '%s' have different extensions; the extension decides how Godot loads a file, so a move keeps it (create a new resource to change format)." % [from, to])
	if from == "res://addons/godot_mcp" or from.begins_with("res://addons/godot_mcp/"):
		return _router.fail("VALIDATION_ERROR", "'%s' is part of the godot-mcp addon; moving it would cut this connection." % from)
	# What moves: the file and its sidecars, or everything in the folder.
	var moved: Array = [] # [{from, to}]
	var renames: Dictionary = {} # primary files only: old -> new
	var prefix_renames: Dictionary = {}
	if folder:
		prefix_renames[from + "/"] = to + "/"
		for f: String in Files.disk_files_under(from):
			var nt: String = to + f.substr(from.length())
			moved.append({"from": f, "to": nt})
			if not f.ends_with(".import") and not f.ends_with(".uid"):
				renames[f] = nt
	else:
		moved.append({"from": from, "to": to})
		renames[from] = to
		for side: String in [".import", ".uid"]:
			if FileAccess.file_exists(from + side):
				moved.append({"from": from + side, "to": to + side})
	for old: Variant in renames.keys():
		if str(old) in Files.open_scene_paths():
			return _router.fail("PRECONDITION_FAILED", "'%s' is open in the editor as a scene; save and close it (godot_scene_close) before moving it." % old)
		if str(old).get_extension() == "gd" and bool(Files.script_editor_state(str(old))["unsaved"]):
			return _router.fail("PRECONDITION_FAILED", "'%s' has unsaved changes in the script editor; save or discard them before moving it." % old)
	var exclude: Dictionary = {}
	var scan: Dictionary = await Files.find_referrers(PackedStringArray(renames.keys()), PackedStringArray(prefix_renames.keys()), exclude, 20000)
	if not scan["complete"]:
		return _router.fail("TIMEOUT", "Finding the files that refer to '%s' took too long (over 20 s); nothing was moved. Retry, or move smaller folders." % from)
	var do_ops: Array = []
	var undo_ops: Array = []
	for m: Dictionary in moved:
		do_ops.append({"op": "move", "from": m["from"], "to": m["to"]})
	var updated: Array = []
	var unchanged: Array = []
	var rewrites_do: Array = []
	var rewrites_undo: Array = []
	for r: Dictionary in scan["referrers"]:
		var rp: String = r["path"]
		if bool(r["binary"]):
			unchanged.append({"path": rp, "count": r["count"]})
			continue
		var old_text: String = FileAccess.get_file_as_string(rp)
		var new_text: String = Files.rewrite_refs(old_text, renames, prefix_renames)
		if new_text == old_text:
			continue
		var at: String = renames.get(rp, rp) # a referrer inside the moved folder is rewritten at its new place
		rewrites_do.append({"op": "write", "path": at, "data": new_text.to_utf8_buffer()})
		rewrites_undo.append({"op": "write", "path": at, "data": old_text.to_utf8_buffer()})
		updated.append({"path": at, "count": r["count"]})
	do_ops.append_array(rewrites_do)
	# Project settings that name a moved file: main scene, autoloads, icons, …
	var settings: PackedStringArray = []
	for info: Dictionary in ProjectSettings.get_property_list():
		var key: String = str(info["name"])
		if not ProjectSettings.has_setting(key):
			continue
		var v: Variant = ProjectSettings.get_setting(key)
		if typeof(v) != TYPE_STRING:
			continue
		var s: String = v
		var star: String = "*" if s.begins_with("*") else ""
		var bare: String = s.substr(star.length())
		var nv: String = ""
		if renames.has(bare):
			nv = star + str(renames[bare])
		else:
			for pre: Variant in prefix_renames.keys():
				if bare.begins_with(str(pre)):
					nv = star + str(prefix_renames[pre]) + bare.substr(str(pre).length())
		if nv != "":
			do_ops.append({"op": "setting", "key": key, "value": nv})
			rewrites_undo.append({"op": "setting", "key": key, "value": s})
			settings.append(key)
	for old: Variant in renames.keys():
		do_ops.append({"op": "retarget", "from": old, "to": renames[old]})
	if folder:
		do_ops.append({"op": "rmdir", "path": from})
	# Undo: restore texts (at the new places), move back, retarget back.
	undo_ops.append_array(rewrites_undo)
	for i: int in range(moved.size() - 1, -1, -1):
		undo_ops.append({"op": "move", "from": moved[i]["to"], "to": moved[i]["from"]})
	for old: Variant in renames.keys():
		undo_ops.append({"op": "retarget", "from": renames[old], "to": old})
	if folder:
		undo_ops.append({"op": "rmdir", "path": to})
	var out: Dictionary = {
		"from": from, "to": to, "moved": moved, "updated_refs": updated, "unchanged_refs": unchanged,
		"project_settings": settings, "uid": "" if folder else Files.uid_text(from),
	}
	if dry_run:
		out["persisted"] = false
		out["undoable"] = false
		out["ready"] = true
		out["written"] = []
		out["removed"] = []
		return _router.ok(out)
	var undoable: bool = Files.ops_bytes(do_ops) + Files.ops_bytes(undo_ops) <= Files.UNDO_LIMIT_BYTES
	var res: Dictionary = Files.commit("godot-mcp: move %s to %s" % [from, to], do_ops, undo_ops, undoable)
	if not res.get("ok", false):
		return _router.fail("INTERNAL_ERROR", "The move was only partly done: %s. Undo it with godot_undo (history \"global\") or fix the files by hand." % res.get("error", ""))
	# A folder or imported asset changes more than update_file() covers: scan.
	var needs_scan: bool = folder
	for m: Dictionary in moved:
		if str(m["from"]).ends_with(".import"):
			needs_scan = true
	if needs_scan:
		Files.efs().scan()
	var st: Dictionary = Files.sync_files(res["written"], res["removed"])
	out["persisted"] = true
	out["undoable"] = undoable
	out["undo_history"] = "global"
	out["ready"] = st["ready"]
	out["written"] = res["written"]
	out["removed"] = res["removed"]
	return _router.ok(out)


# --- cmd_resources_delete -------------------------------------------------------------------


## {path, force, recursive, dry_run} -> {path, deleted, referenced_by, persisted, undoable,
## undo_history, ready, written, removed}
func delete(params: Dictionary) -> Dictionary:
	var path: Variant = params.get("path")
	var bad: Dictionary = Files.check_path(path)
	if not bad.is_empty():
		return bad
	var force: Variant = Params.boolean(params, "force", false)
	var recursive: Variant = Params.boolean(params, "recursive", false)
	var dry_run: Variant = Params.boolean(params, "dry_run", false)
	if force == null or recursive == null or dry_run == null:
		return _router.fail("VALIDATION_ERROR", "force, recursive and dry_run must be true or false.")
	var p: String = path
	var folder: bool = Files.is_dir(p)
	if not folder and not FileAccess.file_exists(p):
		return Files.not_found(p, "file or folder")
	if folder and not recursive:
		return _router.fail("VALIDATION_ERROR", "'%s' is a folder; pass recursive: true to delete it and everything in it." % p)
	if folder:
		var links: PackedStringArray = PathGuard.links_under(p)
		if not links.is_empty():
			return _router.fail("VALIDATION_ERROR", _links_inside_hint(p, links, "deleted"))
	if p == "res://project.godot" or p == "res://addons/godot_mcp" or p.begins_with("res://addons/godot_mcp/"):
		return _router.fail("VALIDATION_ERROR", "'%s' cannot be deleted through godot-mcp." % p)
	var files: PackedStringArray = []
	var primary: PackedStringArray = []
	if folder:
		files = Files.disk_files_under(p)
		for f: String in files:
			if not f.ends_with(".import") and not f.ends_with(".uid"):
				primary.append(f)
	else:
		files.append(p)
		primary.append(p)
		for side: String in [".import", ".uid"]:
			if FileAccess.file_exists(p + side):
				files.append(p + side)
	for f: String in primary:
		if f in Files.open_scene_paths():
			return _router.fail("PRECONDITION_FAILED", "'%s' is open in the editor as a scene; close it (godot_scene_close) before deleting it." % f)
	var exclude: Dictionary = {}
	for f: String in files:
		exclude[f] = true
	var prefixes: PackedStringArray = [p + "/"] if folder else []
	var scan: Dictionary = await Files.find_referrers(primary, prefixes, exclude, 20000)
	var refs: Array = []
	for r: Dictionary in scan["referrers"]:
		refs.append({"path": r["path"], "count": r["count"]})
	if not force and (not refs.is_empty() or not scan["complete"]):
		if refs.is_empty():
			return _router.fail("TIMEOUT", "Checking which files refer to '%s' took too long; nothing was deleted. Retry, or pass force: true to delete without the check." % p)
		var names: PackedStringArray = []
		for r: Dictionary in refs.slice(0, 10):
			names.append(str(r["path"]))
		return _router.fail("PRECONDITION_FAILED", "'%s' is still used by %d file(s): %s%s. Nothing was deleted. Change those first (godot_resources_search finds the references), or pass force: true to delete anyway (they will fail to load it)." % [p, refs.size(), ", ".join(names), ", …" if refs.size() > 10 else ""])
	var do_ops: Array = []
	var undo_ops: Array = []
	for f: String in files:
		do_ops.append({"op": "delete", "path": f})
		undo_ops.append({"op": "write", "path": f, "data": FileAccess.get_file_as_bytes(f)})
	if folder:
		do_ops.append({"op": "rmdir", "path": p})
	var out: Dictionary = {"path": p, "deleted": files, "referenced_by": refs}
	if dry_run:
		out["persisted"] = false
		out["undoable"] = false
		out["ready"] = true
		out["written"] = []
		out["removed"] = []
		return _router.ok(out)
	var undoable: bool = Files.ops_bytes(undo_ops) <= Files.UNDO_LIMIT_BYTES
	var res: Dictionary = Files.commit("godot-mcp: delete %s" % p, do_ops, undo_ops, undoable)
	if not res.get("ok", false):
		return _router.fail("INTERNAL_ERROR", "The delete was only partly done: %s." % res.get("error", ""))
	if folder:
		Files.efs().scan()
	var st: Dictionary = Files.sync_files(res["written"], res["removed"])
	out["persisted"] = true
	out["undoable"] = undoable
	out["undo_history"] = "global"
	out["ready"] = st["ready"]
	out["written"] = res["written"]
	out["removed"] = res["removed"]
	return _router.ok(out)


## Why a folder holding symbolic links is not moved or deleted.
static func _links_inside_hint(folder: String, links: PackedStringArray, verb: String) -> String:
	return "'%s' holds symbolic links (%s); a folder with links is not %s through godot-mcp (its files could be outside the project, or elsewhere in it). Remove or replace the links first, or work on the files one by one." % [folder, ", ".join(links), verb]
