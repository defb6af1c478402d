@tool
extends "common.gd"
## Script files: cmd_scripts_list, cmd_scripts_read, cmd_scripts_write.


## {path, recursive, glob, class_name, extends, only_classes, offset, limit} ->
## {scripts: [{path, class_name, extends, language}], next_offset (0 when done), scanning}
func list(params: Dictionary) -> Dictionary:
	var path: Variant = params.get("path", "res://")
	var bad: Dictionary = Files.check_path(path, "path", true)
	if not bad.is_empty():
		return bad
	var recursive: Variant = Params.boolean(params, "recursive", true)
	var only_classes: Variant = Params.boolean(params, "only_classes", false)
	var offset: Variant = Params.int_in(params, "offset", 0, 0, 1 << 30)
	var limit: Variant = Params.int_in(params, "limit", 500, 1, 5000)
	var glob: Variant = params.get("glob", "")
	var cls_glob: Variant = params.get("class_name", "")
	var extends_v: Variant = params.get("extends", "")
	if recursive == null or only_classes == null or offset == null or limit == null or typeof(glob) != TYPE_STRING or typeof(cls_glob) != TYPE_STRING or typeof(extends_v) != TYPE_STRING:
		return _router.fail("VALIDATION_ERROR", "Expected {path, recursive: bool, glob, class_name (glob), extends (class), only_classes: bool, offset, limit: 1..5000}.")
	var dir: String = (path as String).trim_suffix("/") if path != "res://" else "res://"
	if not Files.is_dir(dir):
		return Files.not_found(dir, "folder")
	var matched: Array = []
	var walk: Dictionary = PathGuard.walk_new()
	for f: Dictionary in Files.files_under(dir, recursive as bool, 1 << 30, walk):
		var t: String = f["type"]
		if not ClassDB.class_exists(t) or not ClassDB.is_parent_class(t, "Script"):
			continue
		var p: String = f["path"]
		var cls: String = f["class_name"]
		var ext: String = f["extends"]
		if not Files.glob_match(p, glob as String):
			continue
		if only_classes and cls == "":
			continue
		if cls_glob != "" and not cls.matchn(cls_glob as String):
			continue
		if extends_v != "" and not _extends_matches(ext, extends_v as String):
			continue
		var e: Dictionary = {"path": p, "language": t}
		if cls != "":
			e["class_name"] = cls
		if ext != "":
			e["extends"] = ext
		matched.append(e)
	var page: Array = matched.slice(int(offset), int(offset) + int(limit))
	var next: int = int(offset) + page.size()
	var out: Dictionary = {"scripts": page, "next_offset": next if next < matched.size() else 0, "scanning": Files.efs().is_scanning()}
	out.merge(PathGuard.walk_report(walk))
	return _router.ok(out)


## Whether a script extending [param base] extends [param wanted], through engine
## inheritance and script class_names.
static func _extends_matches(base: String, wanted: String) -> bool:
	var cur: String = base
	var hops: int = 0
	while cur != "" and hops < 32:
		hops += 1
		if cur == wanted:
			return true
		if ClassDB.class_exists(cur):
			return ClassDB.class_exists(wanted) and ClassDB.is_parent_class(cur, wanted)
		var next: String = ""
		for entry: Dictionary in ProjectSettings.get_global_class_list():
			if str(entry.get("class", "")) == cur:
				next = str(entry.get("base", ""))
				break
		cur = next
	return false


# --- cmd_scripts_read ------------------------------------------------------------------------


## {path, start_line, end_line} -> {path, source, start_line, end_line, line_count, sha256}
func read(params: Dictionary) -> Dictionary:
	var path: Variant = params.get("path")
	var bad: Dictionary = Files.check_path(path)
	if not bad.is_empty():
		return bad
	var start: Variant = Params.int_in(params, "start_line", 0, 0, 1 << 30)
	var end: Variant = Params.int_in(params, "end_line", 0, 0, 1 << 30)
	if start == null or end == null:
		return _router.fail("VALIDATION_ERROR", "start_line and end_line must be line numbers (1-based).")
	var p: String = path
	if not FileAccess.file_exists(p):
		if Files.is_dir(p):
			return _router.fail("VALIDATION_ERROR", "'%s' is a folder; list its scripts with godot_scripts_list." % p)
		return Files.not_found(p, "script")
	var text: String = FileAccess.get_file_as_string(p)
	var lines: PackedStringArray = text.split("\n")
	var count: int = lines.size()
	if count > 0 and lines[count - 1] == "":
		count -= 1 # the text ends with a line break
	var first: int = maxi(1, int(start))
	var last: int = count if int(end) == 0 else mini(int(end), count)
	if count == 0:
		first = 1
		last = 0
	elif first > count:
		return _router.fail("VALIDATION_ERROR", "start_line %d is past the end: '%s' has %d lines." % [first, p, count])
	var source: String = text
	if first != 1 or last != count:
		source = "\n".join(lines.slice(first - 1, last))
		if last < lines.size():
			source += "\n" # that line ends with a line break in the file
	return _router.ok({"path": p, "source": source, "start_line": first, "end_line": last, "line_count": count, "sha256": FileAccess.get_sha256(p)})


# --- cmd_scripts_write -----------------------------------------------------------------------


## {path, source, overwrite, if_sha256, dry_run} -> {path, created, bytes, valid, errors,
## validated, class_name, uid, persisted, undoable, undo_history, ready, written, removed}
func write(params: Dictionary) -> Dictionary:
	var gp: Dictionary = _gd_path(params)
	if not gp["ok"]:
		return gp["failure"]
	var p: String = gp["path"]
	var source: Variant = params.get("source")
	var overwrite: Variant = Params.boolean(params, "overwrite", false)
	var dry_run: Variant = Params.boolean(params, "dry_run", false)
	var if_sha: Variant = params.get("if_sha256", "")
	if typeof(source) != TYPE_STRING or overwrite == null or dry_run == null or typeof(if_sha) != TYPE_STRING:
		return _router.fail("VALIDATION_ERROR", "Expected {path, source: string, overwrite: bool, if_sha256: string, dry_run: bool}.")
	if _in_addon(p):
		return _router.fail("VALIDATION_ERROR", "'%s' is part of the godot-mcp addon; it is installed by `godot-mcp addon install`, not edited through tools." % p)
	if Files.is_dir(p):
		return _router.fail("VALIDATION_ERROR", "'%s' is a folder." % p)
	var existed: bool = FileAccess.file_exists(p)
	if if_sha != "":
		if not existed:
			return Files.not_found(p, "script")
		if FileAccess.get_sha256(p) != if_sha:
			return _router.fail("PRECONDITION_FAILED", "'%s' changed on disk since it was read; nothing was written. Read it again (godot_scripts_read) and redo the edit." % p)
	var st: Dictionary = Files.script_editor_state(p)
	if bool(st["unsaved"]) and not overwrite:
		return _router.fail("PRECONDITION_FAILED", "'%s' is open in the script editor with unsaved changes; nothing was written. Ask the user to save them (or read them with godot_scripts_read after saving), or pass overwrite: true to replace them." % p)
	var data: PackedByteArray = (source as String).to_utf8_buffer()
	var out: Dictionary = {"path": p, "created": not existed, "bytes": data.size(), "ready": true, "written": [], "removed": []}
	if dry_run:
		var chk: Dictionary = await _checker.check([{"path": p, "source": source}], false, DEFAULT_CHECK_MS)
		if not chk["ok"]:
			return chk["failure"]
		var r: Dictionary = chk["results"][0]
		out["valid"] = r["valid"]
		out["errors"] = r["errors"]
		out["class_name"] = r["class_name"]
		out["validated"] = true
		out["persisted"] = false
		out["undoable"] = false
		return _router.ok(out)
	var before: Variant = Files.file_bytes(p)
	var had_uid_file: bool = FileAccess.file_exists(p + ".uid")
	var res: Dictionary = Files.commit("godot-mcp: write %s" % p, [{"op": "write", "path": p, "data": data}], [], false)
	if not res.get("ok", false):
		return _router.fail("INTERNAL_ERROR", "Writing %s failed: %s." % [p, res.get("error", "")])
	# Record the undo now that the editor has made the .uid file of a new script, so that
	# redo brings back the same UID.
	var do_ops: Array = [{"op": "write", "path": p, "data": data}]
	var undo_ops: Array = []
	if before == null:
		undo_ops.append({"op": "delete", "path": p})
		if not had_uid_file and FileAccess.file_exists(p + ".uid"):
			do_ops.append({"op": "write", "path": p + ".uid", "data": FileAccess.get_file_as_bytes(p + ".uid")})
			undo_ops.append({"op": "delete", "path": p + ".uid"})
	else:
		undo_ops.append({"op": "write", "path": p, "data": before})
	var undoable: bool = Files.ops_bytes(do_ops) + Files.ops_bytes(undo_ops) <= Files.UNDO_LIMIT_BYTES
	if undoable:
		Files.record("godot-mcp: write %s" % p, do_ops, undo_ops)
	var ready: bool = await _wait_ready(PackedStringArray([p]), PackedStringArray(), EDITOR_WAIT_MS)
	out["persisted"] = true
	out["undoable"] = undoable
	out["undo_history"] = "global"
	out["ready"] = ready
	out["written"] = [p]
	out["uid"] = Files.uid_text(p)
	out["class_name"] = _class_name_of(p)
	out["validated"] = false
	if ready:
		var chk: Dictionary = await _checker.check([{"path": p}], false, DEFAULT_CHECK_MS)
		if chk["ok"]:
			var r: Dictionary = chk["results"][0]
			out["valid"] = r["valid"]
			out["errors"] = r["errors"]
			out["validated"] = true
			if out["class_name"] == "":
				out["class_name"] = r["class_name"]
	return _router.ok(out)
