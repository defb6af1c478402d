@tool
extends RefCounted
## File helpers for command handlers (the core's and extensions'): path checks against
## the real filesystem (symbolic links out of the project), the editor-filesystem sync,
## undoable file operations and the reference scan.
##
##     const Files := preload("res://addons/godot_mcp/lib/files.gd")
##     var bad: Dictionary = Files.check_path(params.get("path"), "path")
##     if not bad.is_empty():
##         return bad                      # VALIDATION_ERROR naming the argument
##     if not Files.exists(path):
##         return Files.not_found(path)    # RESOURCE_NOT_FOUND with a did-you-mean
##     var r: Dictionary = Files.commit("godot-mcp: write x", do_ops, undo_ops, true)
##
## Every file change is a list of operations (see file_ops.gd) applied as ONE action in
## the editor's global undo history (its inverse is computed by the caller before the
## change). After applying, EditorFileSystem.update_file() registers each file at once
## (type, class_name, UID); when the editor is scanning, that is repeated after the scan
## (cmd_filesystem_sync), so a caller can wait until the editor's view is true.

const PathGuard := preload("../path_guard.gd")
const Compat := preload("compat.gd")
## Where file_ops.gd is (loaded on first use: it preloads this script).
const FILE_OPS_PATH := "res://addons/godot_mcp/lib/file_ops.gd"

## Text files whose references to moved files are rewritten (quoted res:// paths).
const REF_TEXT_EXTENSIONS := ["tscn", "tres", "gd", "gdshader", "gdshaderinc"]
## Binary resource files: their references are read with ResourceLoader.get_dependencies().
const REF_BINARY_EXTENSIONS := ["scn", "res"]
## Files kept for undo: above this many bytes in one action, a change is not undoable.
const UNDO_LIMIT_BYTES := 16 * 1024 * 1024
## How long one slice of a long scan runs before the editor gets a frame.
const SLICE_MS := 30

## Paths written while the editor was scanning: update_file() is repeated for them
## after the scan (an update during a scan is ignored by EditorFileSystem).
static var _needs_update: Dictionary = {}
## The object undo history entries call apply() on (a file_ops.gd), made on first use.
static var _applier: RefCounted = null


## The object that applies file operations: undo entries call its apply(ops).
static func applier() -> RefCounted:
	if _applier == null:
		_applier = (load(FILE_OPS_PATH) as GDScript).new()
	return _applier


## Has the editor look at [param path] again after the scan under way (an update_file()
## during a scan is ignored).
static func update_after_scan(path: String) -> void:
	_needs_update[path] = true


static func efs() -> EditorFileSystem:
	return EditorInterface.get_resource_filesystem()


static func project_root() -> String:
	var root: String = ProjectSettings.globalize_path("res://").simplify_path()
	return root.trim_suffix("/")


## Why [param path] is not an acceptable project path, or "" when it is: res:// only, no
## "..", no hidden segment, and no symbolic link on the way that leads out of the project
## (each prefix resolved against the real filesystem: see path_guard.gd).
static func path_problem(path: String, allow_root: bool = false) -> String:
	return PathGuard.problem(path, allow_root)


## A failure answer for a bad path, or {} when the path is fine.
static func check_path(path: Variant, arg: String = "path", allow_root: bool = false) -> Dictionary:
	if typeof(path) != TYPE_STRING:
		return _fail("VALIDATION_ERROR", "%s must be a res:// path string." % arg)
	var why: String = path_problem(path as String, allow_root)
	if why != "":
		return _fail("VALIDATION_ERROR", "%s: %s." % [arg, why])
	return {}


static func is_dir(path: String) -> bool:
	return DirAccess.dir_exists_absolute(ProjectSettings.globalize_path(path))


static func exists(path: String) -> bool:
	return FileAccess.file_exists(path) or is_dir(path)


## Up to three existing project paths that look like [param path] (same folder first).
static func near_paths(path: String) -> PackedStringArray:
	var wanted: String = path.get_file().to_lower()
	var scored: Array = []
	var dir: EditorFileSystemDirectory = efs().get_filesystem_path(path.get_base_dir())
	var pool: Array[String] = []
	var walk: Dictionary = PathGuard.walk_new()
	if dir != null and PathGuard.walk_folder_inside(walk, dir.get_path()):
		for i: int in range(dir.get_file_count()):
			if PathGuard.walk_file_inside(walk, dir.get_file_path(i)):
				pool.append(dir.get_file_path(i))
		for i: int in range(dir.get_subdir_count()):
			if PathGuard.walk_folder_inside(walk, dir.get_subdir(i).get_path()):
				pool.append(dir.get_subdir(i).get_path().trim_suffix("/"))
	if pool.size() < 3:
		for f: Dictionary in files_under("res://", true, 5000):
			pool.append(str(f["path"]))
	for p: String in pool:
		var s: float = p.get_file().to_lower().similarity(wanted)
		if s >= 0.4:
			scored.append([s, p])
	scored.sort_custom(func(a: Array, b: Array) -> bool: return a[0] > b[0])
	var out: PackedStringArray = []
	for s: Array in scored.slice(0, 3):
		if not out.has(str(s[1])):
			out.append(str(s[1]))
	return out


static func not_found(path: String, what: String = "file") -> Dictionary:
	var hint: String = "No %s at '%s'." % [what, path]
	var near: PackedStringArray = near_paths(path)
	if not near.is_empty():
		hint += " Did you mean %s?" % ", ".join(near)
	else:
		hint += " List the project's files with godot_resources_list."
	return _fail("RESOURCE_NOT_FOUND", hint)


## The files the editor knows under [param dir_path], depth first in the editor's order:
## [{path, type, class_name, extends, import_valid}]. At most [param cap] entries. Folders
## and files behind a symbolic link that leads out of the project are skipped (the editor
## scans through links); pass a PathGuard.walk_new() as [param walk] to learn which.
static func files_under(dir_path: String, recursive: bool, cap: int = 1 << 30, walk: Dictionary = {}) -> Array[Dictionary]:
	var out: Array[Dictionary] = []
	var w: Dictionary = walk if not walk.is_empty() else PathGuard.walk_new()
	var start: EditorFileSystemDirectory = efs().get_filesystem_path(dir_path)
	if start == null:
		return out
	var stack: Array[EditorFileSystemDirectory] = [start]
	while not stack.is_empty() and out.size() < cap:
		var d: EditorFileSystemDirectory = stack.pop_back()
		if not PathGuard.walk_folder_inside(w, d.get_path()):
			continue
		for i: int in range(d.get_file_count()):
			if not PathGuard.walk_file_inside(w, d.get_file_path(i)):
				continue
			out.append({
				"path": d.get_file_path(i),
				"type": str(d.get_file_type(i)),
				"class_name": d.get_file_script_class_name(i),
				"extends": d.get_file_script_class_extends(i),
				"import_valid": d.get_file_import_is_valid(i),
			})
			if out.size() >= cap:
				break
		if recursive:
			for i: int in range(d.get_subdir_count() - 1, -1, -1):
				stack.append(d.get_subdir(i))
	return out


## The folders directly inside [param dir_path], as res:// paths without a trailing slash
## (links that lead out of the project skipped, and noted in [param walk] when given).
static func subdirs_of(dir_path: String, walk: Dictionary = {}) -> PackedStringArray:
	var out: PackedStringArray = []
	var w: Dictionary = walk if not walk.is_empty() else PathGuard.walk_new()
	var d: EditorFileSystemDirectory = efs().get_filesystem_path(dir_path)
	if d == null:
		return out
	for i: int in range(d.get_subdir_count()):
		var sub: String = d.get_subdir(i).get_path().trim_suffix("/")
		if PathGuard.walk_folder_inside(w, sub):
			out.append(sub)
	return out


static func uid_text(path: String) -> String:
	var id: int = ResourceLoader.get_resource_uid(path)
	if id == ResourceUID.INVALID_ID:
		return ""
	return ResourceUID.id_to_text(id)


## Glob match against the file name, or against the whole res:// path when the glob has '/'.
static func glob_match(path: String, glob: String) -> bool:
	if glob == "":
		return true
	if glob.contains("/"):
		return path.matchn(glob)
	return path.get_file().matchn(glob)


static func file_bytes(path: String) -> Variant:
	if not FileAccess.file_exists(path):
		return null
	return FileAccess.get_file_as_bytes(path)


## Whether the editor's filesystem lacks the folder of [param path].
static func _dir_unknown(path: String) -> bool:
	return efs().get_filesystem_path(path.get_base_dir()) == null


## Where the editor stands on [param written] and [param removed] files. When it is not
## scanning, files it has not caught up with are updated now (update_file). Returns
## {scanning, progress, ready, pending}.
static func sync_files(written: PackedStringArray, removed: PackedStringArray) -> Dictionary:
	var fs: EditorFileSystem = efs()
	var pending: PackedStringArray = []
	if fs.is_scanning():
		pending.append_array(removed)
		pending.append_array(written)
		return {"scanning": true, "progress": fs.get_scanning_progress(), "ready": false, "pending": pending}
	var later: Array = _needs_update.keys()
	_needs_update.clear()
	for p: Variant in later:
		fs.update_file(str(p))
	for p: String in removed:
		if _knows_removed(p):
			continue
		fs.update_file(p)
		if not _knows_removed(p):
			pending.append(p)
	var rescan: bool = false
	for p: String in written:
		if _knows_written(p):
			continue
		if _dir_unknown(p):
			rescan = true # see notify_changed()
		else:
			fs.update_file(p)
		if not _knows_written(p):
			pending.append(p)
	if rescan:
		fs.scan()
	var scanning: bool = fs.is_scanning()
	return {
		"scanning": scanning,
		"progress": fs.get_scanning_progress() if scanning else 1.0,
		"ready": pending.is_empty() and not scanning,
		"pending": pending,
	}


static var _tracked_exts: Dictionary = {}


## Whether the editor's filesystem lists files like [param path]: resources, imported
## assets, and the text/other extensions of the editor settings.
static func _tracked(path: String) -> bool:
	if _tracked_exts.is_empty():
		for e: String in ResourceLoader.get_recognized_extensions_for_type(""):
			_tracked_exts[e.to_lower()] = true
		var es: EditorSettings = EditorInterface.get_editor_settings()
		for key: String in ["docks/filesystem/textfile_extensions", "docks/filesystem/other_file_extensions"]:
			if es.has_setting(key):
				for e: String in str(es.get_setting(key)).split(",", false):
					_tracked_exts[e.strip_edges().to_lower()] = true
	return _tracked_exts.has(path.get_extension().to_lower())


## The editor's view of a file it should no longer have.
static func _knows_removed(path: String) -> bool:
	if FileAccess.file_exists(path):
		return true # it came back; nothing to wait for
	if efs().get_file_type(path) != "":
		return false
	for entry: Dictionary in ProjectSettings.get_global_class_list():
		if str(entry.get("path", "")) == path:
			return false
	return true


## The editor's view of a written file: known with a type, its class_name registered at
## this path, its UID mapped to it, its import up to date.
static func _knows_written(path: String) -> bool:
	if not FileAccess.file_exists(path):
		return true # removed again meanwhile
	if not _tracked(path):
		return true # the editor does not list files of this kind
	var dir: EditorFileSystemDirectory = efs().get_filesystem_path(path.get_base_dir())
	if dir == null:
		return false
	var idx: int = dir.find_file_index(path.get_file())
	if idx < 0 or str(dir.get_file_type(idx)) == "":
		return false
	if not dir.get_file_import_is_valid(idx):
		return false
	var cls: String = dir.get_file_script_class_name(idx)
	if cls != "":
		var found: bool = false
		for entry: Dictionary in ProjectSettings.get_global_class_list():
			if str(entry.get("class", "")) == cls:
				found = true # registered, here or (a duplicate name) elsewhere
				break
		if not found:
			return false
	var id: int = ResourceLoader.get_resource_uid(path)
	if id != ResourceUID.INVALID_ID and (not ResourceUID.has_id(id) or ResourceUID.get_id_path(id) != path):
		return false
	return true


## Tells the editor about changed files now (or after its scan), then refreshes what
## the editor holds in memory: the script editor's open scripts, cached resources.
static func notify_changed(written: PackedStringArray, removed: PackedStringArray) -> void:
	var fs: EditorFileSystem = efs()
	var scanning: bool = fs.is_scanning()
	var rescan: bool = false
	for p: String in removed:
		if scanning:
			_needs_update[p] = true
		else:
			fs.update_file(p)
	for p: String in written:
		if scanning:
			_needs_update[p] = true
		elif _dir_unknown(p):
			# update_file() cannot add a file in a folder the editor does not know yet
			# (Godot 4.4 looks for the new folder with a filesystem DirAccess on a res://
			# path and never finds it): only a scan adds the folder.
			rescan = true
		else:
			fs.update_file(p)
	if rescan:
		fs.scan()
	var touches_scripts: bool = false
	for p: String in written:
		if p.get_extension() == "gd" or p.get_extension() == "gdshader":
			touches_scripts = true
		elif ResourceLoader.has_cached(p) and p.get_extension() in ["tres", "res"]:
			# Scenes using the resource see the file's new values.
			ResourceLoader.load(p, "", ResourceLoader.CACHE_MODE_REPLACE)
	if touches_scripts:
		# The script editor reloads open scripts whose file changed on disk (or asks, when
		# the user turned auto-reload off or has unsaved edits there).
		var se: ScriptEditor = EditorInterface.get_script_editor()
		if se != null:
			se.notification(Node.NOTIFICATION_APPLICATION_FOCUS_IN)


## Whether [param path] is open in the script editor and has unsaved edits there:
## {open, unsaved}.
static func script_editor_state(path: String) -> Dictionary:
	var se: ScriptEditor = EditorInterface.get_script_editor()
	if se == null:
		return {"open": false, "unsaved": false}
	var scripts: Array[Script] = se.get_open_scripts()
	var editors: Array = []
	for e: ScriptEditorBase in se.get_open_script_editors():
		if e.get_class() == "ScriptTextEditor":
			editors.append(e)
	for i: int in range(scripts.size()):
		if scripts[i] == null or scripts[i].resource_path != path:
			continue
		var unsaved: bool = false
		if i < editors.size() and scripts.size() == editors.size():
			var ce: Control = (editors[i] as ScriptEditorBase).get_base_editor()
			if ce is TextEdit:
				var te: TextEdit = ce as TextEdit
				unsaved = te.get_version() != te.get_saved_version()
		else:
			# Editors and scripts do not line up: compare the text with the file instead.
			unsaved = scripts[i].source_code != FileAccess.get_file_as_string(path)
		return {"open": true, "unsaved": unsaved}
	return {"open": false, "unsaved": false}


## The open scene tabs' paths.
static func open_scene_paths() -> PackedStringArray:
	return Compat.open_scenes()


## Applies [param do_ops] as ONE action in the editor's global undo history (undone by
## [param undo_ops]), or directly when [param undoable] is false. Returns apply()'s result
## {ok, error, written, removed}.
static func commit(action: String, do_ops: Array, undo_ops: Array, undoable: bool) -> Dictionary:
	if not undoable:
		return applier().call("apply", do_ops)
	var ur: EditorUndoRedoManager = EditorInterface.get_editor_undo_redo()
	ur.create_action(action, UndoRedo.MERGE_DISABLE, null)
	ur.add_do_method(applier(), "apply", do_ops)
	ur.add_undo_method(applier(), "apply", undo_ops)
	ur.commit_action(true)
	return applier().get("last_result")


## Records an action whose effect already happened (do_ops describe it for redo).
static func record(action: String, do_ops: Array, undo_ops: Array) -> void:
	var ur: EditorUndoRedoManager = EditorInterface.get_editor_undo_redo()
	ur.create_action(action, UndoRedo.MERGE_DISABLE, null)
	ur.add_do_method(applier(), "apply", do_ops)
	ur.add_undo_method(applier(), "apply", undo_ops)
	ur.commit_action(false)


## Bytes an ops list keeps in memory (for the undo limit).
static func ops_bytes(ops: Array) -> int:
	var n: int = 0
	for op: Dictionary in ops:
		if op.get("data") is PackedByteArray:
			n += (op["data"] as PackedByteArray).size()
	return n


## The text files and binary resources that refer to [param targets] (exact paths) or to
## anything under [param prefixes] (folders, ending in "/"), skipping [param exclude].
## Runs in slices so the editor keeps drawing; stops at [param budget_ms]. Returns
## {referrers: [{path, count, binary}], complete}. Text files count quoted paths
## ("res://…" or 'res://…') and, in scripts and shaders, quoted uid:// texts of the targets.
static func find_referrers(targets: PackedStringArray, prefixes: PackedStringArray, exclude: Dictionary, budget_ms: int) -> Dictionary:
	var uids: PackedStringArray = []
	for t: String in targets:
		var u: String = uid_text(t)
		if u != "":
			uids.append(u)
	var started: int = Time.get_ticks_msec()
	var slice_start: int = started
	var referrers: Array = []
	var complete: bool = true
	var files: Array[Dictionary] = files_under("res://", true)
	for f: Dictionary in files:
		var p: String = f["path"]
		if exclude.has(p):
			continue
		var ext: String = p.get_extension().to_lower()
		var count: int = 0
		var binary: bool = false
		if ext in REF_TEXT_EXTENSIONS:
			var text: String = FileAccess.get_file_as_string(p)
			count = count_refs(text, targets, prefixes)
			if ext != "tscn" and ext != "tres":
				for u: String in uids:
					count += text.count("\"%s\"" % u) + text.count("'%s'" % u)
		elif ext in REF_BINARY_EXTENSIONS:
			binary = true
			for dep: String in ResourceLoader.get_dependencies(p):
				var dp: String = dependency_path(dep)
				if targets.has(dp):
					count += 1
				else:
					for pre: String in prefixes:
						if dp.begins_with(pre):
							count += 1
							break
		if count > 0:
			referrers.append({"path": p, "count": count, "binary": binary})
		var now: int = Time.get_ticks_msec()
		if now - started > budget_ms:
			complete = false
			break
		if now - slice_start > SLICE_MS:
			await (Engine.get_main_loop() as SceneTree).process_frame
			slice_start = Time.get_ticks_msec()
	return {"referrers": referrers, "complete": complete}


## Quoted occurrences of targets (exact) and of prefixes (folders) in [param text].
static func count_refs(text: String, targets: PackedStringArray, prefixes: PackedStringArray) -> int:
	var n: int = 0
	for t: String in targets:
		n += text.count("\"%s\"" % t) + text.count("'%s'" % t)
	for pre: String in prefixes:
		n += text.count("\"%s" % pre) + text.count("'%s" % pre)
	return n


## [param text] with quoted references renamed per [param renames] {old: new}
## (exact paths) and [param prefix_renames] {old_dir/: new_dir/}.
static func rewrite_refs(text: String, renames: Dictionary, prefix_renames: Dictionary) -> String:
	for old: Variant in renames.keys():
		text = text.replace("\"%s\"" % old, "\"%s\"" % renames[old]).replace("'%s'" % old, "'%s'" % renames[old])
	for old: Variant in prefix_renames.keys():
		text = text.replace("\"%s" % old, "\"%s" % prefix_renames[old]).replace("'%s" % old, "'%s" % prefix_renames[old])
	return text


## The current res:// path of one ResourceLoader.get_dependencies() entry
## ("uid://…::Type::res://fallback" or "res://path::Type").
static func dependency_path(dep: String) -> String:
	var parts: PackedStringArray = dep.split("::")
	var first: String = parts[0]
	if first.begins_with("uid://"):
		var id: int = ResourceUID.text_to_id(first)
		if id != ResourceUID.INVALID_ID and ResourceUID.has_id(id):
			return ResourceUID.get_id_path(id)
		return parts[2] if parts.size() > 2 else first
	return first


## Every file on disk under the folder [param dir] (res:// paths), hidden ones included.
static func disk_files_under(dir: String) -> PackedStringArray:
	var out: PackedStringArray = []
	var d: DirAccess = DirAccess.open(dir)
	if d == null:
		return out
	d.include_hidden = true
	for f: String in d.get_files():
		out.append(dir.path_join(f))
	for sub: String in d.get_directories():
		out.append_array(disk_files_under(dir.path_join(sub)))
	return out


static func _fail(code: String, hint: String) -> Dictionary:
	return {"ok": false, "error": code, "hint": hint}
