@tool
extends RefCounted
## cmd_assets_import, cmd_assets_status, cmd_assets_finish: files the toolset read from a
## directory the user allows are written into a res:// folder and imported; the server
## polls their status while the editor imports, then keeps the change (one undo action)
## or rolls it back when an import failed, so a failed import leaves nothing behind.

const Common := preload("common.gd")
const Files := preload("res://addons/godot_mcp/lib/files.gd")
const Params := preload("res://addons/godot_mcp/lib/params.gd")

## Imports waiting for cmd_assets_finish: token -> {do_ops, undo_ops, paths, reimport}.
var _pending: Dictionary = {}
var _next: int = 1
var c: Common = null


func _init(common: Common) -> void:
	c = common


## Whether the editor lists files with [param path]'s extension (resources, imported
## assets, and the text/other file extensions of the editor settings).
static func _known_extension(path: String) -> bool:
	var ext: String = path.get_extension().to_lower()
	if ext in ResourceLoader.get_recognized_extensions_for_type(""):
		return true
	var es: EditorSettings = EditorInterface.get_editor_settings()
	for key: String in ["docks/filesystem/textfile_extensions", "docks/filesystem/other_file_extensions"]:
		if es.has_setting(key):
			for e: String in str(es.get_setting(key)).split(",", false):
				if e.strip_edges().to_lower() == ext:
					return true
	return false


## {folder, files: [{name, data (base64)}], overwrite, dry_run} ->
## {folder, created_folder, paths, overwrote, token, log_mark, ready, written, removed}
func import_files(params: Dictionary) -> Dictionary:
	var folder: Variant = params.get("folder")
	var bad: Dictionary = Files.check_path(folder, "to")
	if not bad.is_empty():
		return bad
	var dir: String = str(folder).trim_suffix("/")
	var overwrite: Variant = Params.boolean(params, "overwrite", false)
	var dry: Variant = Params.boolean(params, "dry_run", false)
	var files: Variant = params.get("files")
	if overwrite == null or dry == null or not (files is Array) or (files as Array).is_empty():
		return Params.invalid("Expected {folder: res://…, files: [{name, data}], overwrite: bool, dry_run: bool}.")
	if FileAccess.file_exists(dir):
		return c.fail("VALIDATION_ERROR", "to: '%s' is a file, not a folder." % dir)
	var folder_existed: bool = Files.is_dir(dir)
	var paths: PackedStringArray = []
	var overwrote: PackedStringArray = []
	var conflicts: PackedStringArray = []
	for f: Variant in files:
		if not (f is Dictionary) or typeof(f.get("name")) != TYPE_STRING or typeof(f.get("data")) != TYPE_STRING:
			return Params.invalid("files: each entry is {name, data}.")
		var name: String = f["name"]
		if not name.is_valid_filename() or name.begins_with("."):
			return c.fail("VALIDATION_ERROR", "'%s' is not a usable file name (no folders, no leading dot)." % name)
		if not _known_extension(name):
			return c.fail("VALIDATION_ERROR", "'%s': the editor neither imports nor loads .%s files, so it would not show up in the project." % [name, name.get_extension()])
		var p: String = dir.path_join(name)
		var why: String = Files.path_problem(p)
		if why != "":
			return c.fail("VALIDATION_ERROR", "%s." % why)
		if p in paths:
			return c.fail("VALIDATION_ERROR", "Two files are named '%s'." % name)
		if Files.is_dir(p):
			return c.fail("VALIDATION_ERROR", "'%s' is a folder." % p)
		if FileAccess.file_exists(p):
			overwrote.append(p)
			if not overwrite:
				conflicts.append(p)
		paths.append(p)
	if not conflicts.is_empty():
		return c.fail("VALIDATION_ERROR", "%s exist already; pass overwrite: true (with confirm: true) to replace them (their import options are kept), or import into another folder." % ", ".join(conflicts))
	var out: Dictionary = {"folder": dir, "created_folder": not folder_existed, "paths": paths, "overwrote": overwrote, "ready": true, "written": [], "removed": []}
	if dry:
		return c.ok(out)
	if not await c.await_no_scan():
		return c.fail("PRECONDITION_FAILED", "The editor is still scanning the filesystem; retry when it is done.")
	var do_ops: Array = []
	var undo_ops: Array = []
	var i: int = 0
	for f: Dictionary in files:
		var p: String = paths[i]
		i += 1
		var data: PackedByteArray = Marshalls.base64_to_raw(str(f["data"]))
		do_ops.append({"op": "write", "path": p, "data": data})
		var before: Variant = Files.file_bytes(p)
		if before == null:
			undo_ops.append({"op": "delete", "path": p})
			undo_ops.append({"op": "delete", "path": p + ".import"})
			undo_ops.append({"op": "delete", "path": p + ".uid"})
		else:
			undo_ops.append({"op": "write", "path": p, "data": before})
			var imp: Variant = Files.file_bytes(p + ".import")
			if imp != null:
				undo_ops.append({"op": "write", "path": p + ".import", "data": imp})
	if not folder_existed:
		undo_ops.append({"op": "rmdir", "path": dir})
	var mark: int = c.log_mark()
	var res: Dictionary = Files.commit("", do_ops, [], false)
	if not res.get("ok", false):
		Files.commit("", undo_ops, [], false)
		return c.fail("INTERNAL_ERROR", "Writing the files failed: %s. Nothing was kept." % res.get("error", ""))
	# Import now when the editor knows the folder (and so the files, which commit told
	# it about); a new folder is known only after a scan, which imports the files too.
	var fs: EditorFileSystem = Files.efs()
	if folder_existed and not fs.is_scanning():
		var todo: PackedStringArray = []
		for p: String in paths:
			var d: EditorFileSystemDirectory = fs.get_filesystem_path(p.get_base_dir())
			var idx: int = d.find_file_index(p.get_file()) if d != null else -1
			var stale: bool = p in overwrote and FileAccess.file_exists(p + ".import")
			if idx >= 0 and (stale or not d.get_file_import_is_valid(idx)):
				todo.append(p)
		if not todo.is_empty():
			fs.reimport_files(todo)
	elif not fs.is_scanning():
		fs.scan()
	var token: String = str(_next)
	_next += 1
	_pending[token] = {"do_ops": do_ops, "undo_ops": undo_ops, "paths": paths, "overwrote": overwrote, "folder": dir, "created_folder": not folder_existed}
	out["token"] = token
	out["log_mark"] = mark
	out["written"] = paths
	out["ready"] = false
	return c.ok(out)


## {paths, log_mark} -> {scanning, progress, done, files: [file_status + message]}
## A file the editor has not picked up once it stopped scanning gets a scan (which
## imports it).
func status(params: Dictionary) -> Dictionary:
	var paths: Variant = Params.strings(params.get("paths"))
	var mark: Variant = Params.integer(params, "log_mark", 0)
	if paths == null or mark == null:
		return Params.invalid("Expected {paths: [res://…], log_mark: int}.")
	var fs: EditorFileSystem = Files.efs()
	var scanning: bool = fs.is_scanning()
	var done: bool = not scanning
	var rescan: bool = false
	var out: Array = []
	for p: String in paths:
		var why: String = Files.path_problem(p)
		if why != "":
			return c.fail("VALIDATION_ERROR", "%s." % why)
		var st: Dictionary = c.file_status(p)
		if st["status"] == "pending":
			done = false
			rescan = not scanning
		elif st["status"] == "failed":
			st["message"] = c.failure_message(int(mark), p)
		out.append(st)
	if rescan:
		fs.scan()
	return c.ok({"scanning": fs.is_scanning(), "progress": fs.get_scanning_progress() if fs.is_scanning() else 1.0, "done": done, "files": out})


## {token, keep, action} -> {kept, rolled_back, undoable}. keep: the import becomes ONE
## action in the editor's global undo history (undo removes the files); else it is
## rolled back: new files (and their .import) removed, replaced ones restored and
## reimported, a folder it made removed.
func finish(params: Dictionary) -> Dictionary:
	var token: Variant = Params.string(params, "token")
	var keep: Variant = Params.boolean(params, "keep", true)
	var dry: Variant = Params.boolean(params, "dry_run", false)
	if token == null or keep == null or dry == null:
		return Params.invalid("Expected {token, keep: bool}.")
	if not _pending.has(token):
		return c.fail("RESOURCE_NOT_FOUND", "No import %s is waiting to be finished (the editor restarted, or it was finished already)." % token)
	if dry:
		return c.ok({"kept": false, "rolled_back": false, "undoable": false})
	var t: Dictionary = _pending[token]
	_pending.erase(token)
	if keep:
		var undoable: bool = Files.ops_bytes(t["do_ops"]) + Files.ops_bytes(t["undo_ops"]) <= Files.UNDO_LIMIT_BYTES
		if undoable:
			Files.record(str(params.get("action", "godot-mcp: import assets")), t["do_ops"], t["undo_ops"])
		return c.ok({"kept": true, "rolled_back": false, "undoable": undoable})
	await c.await_no_scan()
	var res: Dictionary = Files.commit("", t["undo_ops"], [], false)
	var restored: PackedStringArray = t["overwrote"]
	if not restored.is_empty() and not Files.efs().is_scanning():
		Files.efs().reimport_files(restored)
	if t["created_folder"] and not Files.efs().is_scanning():
		Files.efs().scan() # the editor forgets the folder it removed
	if not res.get("ok", false):
		return c.fail("INTERNAL_ERROR", "Rolling the import back failed: %s." % res.get("error", ""))
	return c.ok({"kept": false, "rolled_back": true, "undoable": false})
