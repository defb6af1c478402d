@tool
extends RefCounted
## Editor side of the resources toolset: files and resources under res://.
##
## Also the file helpers the scripts toolset shares (scripts_handlers.gd preloads this
## script): path checks against the real filesystem (symlinks out of the project), the
## editor-filesystem sync, undoable file operations and the reference scan.
##
## Every file change is a list of operations applied by apply() and recorded as
## ONE action in the editor's global undo history (its inverse is computed before the
## change). After applying, EditorFileSystem.update_file() registers each file at once
## (type, class_name, UID); when the editor is scanning, that is repeated after the scan
## (cmd_resources_fs_sync), so a caller can wait until the editor's view is true.

const ValueCodec := preload("../value_codec.gd")
const CommandRouter := preload("../command_router.gd")
const PathGuard := preload("../path_guard.gd")

## How long godot_resources_rescan lets a scan already under way end before its own.
const RESCAN_WAIT_MS: int = 5000

## Files kept for undo: above this many bytes in one action, the change is not undoable.
const UNDO_LIMIT_BYTES := 16 * 1024 * 1024
## Text files search looks into (by extension).
const SEARCH_EXTENSIONS := ["gd", "gdshader", "gdshaderinc", "tscn", "tres", "godot", "cfg", "json", "txt", "md", "csv", "xml", "yml", "yaml", "toml", "ini", "cs", "import", "gdextension", "html", "svg"]
## Text files whose references to moved files are rewritten (quoted res:// paths).
const REF_TEXT_EXTENSIONS := ["tscn", "tres", "gd", "gdshader", "gdshaderinc"]
## Binary resource files: their references are read with ResourceLoader.get_dependencies().
const REF_BINARY_EXTENSIONS := ["scn", "res"]
## Search skips text files larger than this.
const MAX_SEARCH_FILE_BYTES := 2 * 1024 * 1024
## A property value larger than this (as JSON) is left out of a read unless asked for.
const MAX_READ_VALUE_CHARS := 65536
## How long one slice of a long scan runs before the editor gets a frame.
const SLICE_MS := 30

var _router: CommandRouter = null

## Paths written while the editor was scanning: update_file() is repeated for them
## after the scan (an update during a scan is ignored by EditorFileSystem).
static var _needs_update: Dictionary = {}
## The resources handler instance, which applies undoable file operations (see apply()).
static var _applier: RefCounted = null


func setup(router: CommandRouter) -> void:
	_router = router
	_applier = self


func get_commands() -> Dictionary:
	return {
		"cmd_resources_list": {"class": "read_only", "run": list},
		"cmd_resources_search": {"class": "read_only", "run": search},
		"cmd_resources_read": {"class": "read_only", "run": read},
		"cmd_resources_create": {"class": "mutating", "dry_run": true, "run": create},
		"cmd_resources_set_properties": {"class": "mutating", "dry_run": true, "run": set_properties},
		"cmd_resources_move": {"class": "mutating", "dry_run": true, "run": move},
		"cmd_resources_delete": {"class": "destructive", "dry_run": true, "run": delete},
		"cmd_resources_get_dependencies": {"class": "read_only", "run": get_dependencies},
		"cmd_resources_resolve_uid": {"class": "read_only", "run": resolve_uid},
		"cmd_resources_rescan": {"class": "read_only", "run": rescan},
		"cmd_resources_reimport": {"class": "mutating", "dry_run": true, "run": reimport},
	}


# --- shared helpers (also used by scripts_handlers.gd) -----------------------------------


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
static func check_path(router: CommandRouter, path: Variant, arg: String = "path", allow_root: bool = false) -> Dictionary:
	if typeof(path) != TYPE_STRING:
		return router.fail("VALIDATION_ERROR", "%s must be a res:// path string." % arg)
	var why: String = path_problem(path as String, allow_root)
	if why != "":
		return router.fail("VALIDATION_ERROR", "%s: %s." % [arg, why])
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


static func not_found(router: CommandRouter, path: String, what: String = "file") -> Dictionary:
	var hint: String = "No %s at '%s'." % [what, path]
	var near: PackedStringArray = near_paths(path)
	if not near.is_empty():
		hint += " Did you mean %s?" % ", ".join(near)
	else:
		hint += " List the project's files with godot_resources_list."
	return router.fail("RESOURCE_NOT_FOUND", hint)


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
	return EditorInterface.get_open_scenes()


## Applies [param do_ops] as ONE action in the editor's global undo history (undone by
## [param undo_ops]), or directly when [param undoable] is false. Returns apply()'s result
## {ok, error, written, removed}.
static func commit(action: String, do_ops: Array, undo_ops: Array, undoable: bool) -> Dictionary:
	if not undoable:
		return _applier.call("apply", do_ops)
	var ur: EditorUndoRedoManager = EditorInterface.get_editor_undo_redo()
	ur.create_action(action, UndoRedo.MERGE_DISABLE, null)
	ur.add_do_method(_applier, "apply", do_ops)
	ur.add_undo_method(_applier, "apply", undo_ops)
	ur.commit_action(true)
	return _applier.get("last_result")


## Records an action whose effect already happened (do_ops describe it for redo).
static func record(action: String, do_ops: Array, undo_ops: Array) -> void:
	var ur: EditorUndoRedoManager = EditorInterface.get_editor_undo_redo()
	ur.create_action(action, UndoRedo.MERGE_DISABLE, null)
	ur.add_do_method(_applier, "apply", do_ops)
	ur.add_undo_method(_applier, "apply", undo_ops)
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


static func _int_param(params: Dictionary, key: String, default_value: int, lo: int, hi: int) -> Variant:
	if not params.has(key) or params[key] == null:
		return default_value
	var v: Variant = params[key]
	if typeof(v) == TYPE_FLOAT and is_finite(v as float) and (v as float) == floorf(v as float):
		v = int(v)
	if typeof(v) != TYPE_INT or int(v) < lo or int(v) > hi:
		return null
	return v


static func _bool_param(params: Dictionary, key: String, default_value: bool) -> Variant:
	var v: Variant = params.get(key, default_value)
	if v == null:
		return default_value
	if typeof(v) != TYPE_BOOL:
		return null
	return v


static func _str_array(v: Variant) -> Variant:
	if v == null:
		return PackedStringArray()
	if typeof(v) != TYPE_ARRAY:
		return null
	var out: PackedStringArray = []
	for x: Variant in v:
		if typeof(x) != TYPE_STRING:
			return null
		out.append(x)
	return out


# --- undoable file operations --------------------------------------------------------------


## The last apply()'s result: {ok, error, written, removed}.
var last_result: Dictionary = {}


## Applies file operations (the do or undo side of an action). An op is one of:
## {op: "write", path, data: PackedByteArray} · {op: "delete", path} ·
## {op: "move", from, to} · {op: "retarget", from, to} (a cached resource takes the new
## path) · {op: "setting", key, value} (project setting; null erases) ·
## {op: "rmdir", path} (removed when empty). Returns {ok, error, written, removed}.
func apply(ops: Array) -> Dictionary:
	var written: PackedStringArray = []
	var removed: PackedStringArray = []
	var errors: PackedStringArray = []
	var settings_changed: bool = false
	for op: Dictionary in ops:
		match str(op.get("op", "")):
			"write":
				var path: String = op["path"]
				DirAccess.make_dir_recursive_absolute(ProjectSettings.globalize_path(path.get_base_dir()))
				var f: FileAccess = FileAccess.open(path, FileAccess.WRITE)
				if f == null:
					errors.append("cannot write %s (%s)" % [path, error_string(FileAccess.get_open_error())])
					continue
				f.store_buffer(op["data"] as PackedByteArray)
				f.close()
				written.append(path)
			"delete":
				var path: String = op["path"]
				if FileAccess.file_exists(path):
					var err: Error = DirAccess.remove_absolute(ProjectSettings.globalize_path(path))
					if err != OK:
						errors.append("cannot delete %s (%s)" % [path, error_string(err)])
						continue
				removed.append(path)
			"move":
				var from: String = op["from"]
				var to: String = op["to"]
				DirAccess.make_dir_recursive_absolute(ProjectSettings.globalize_path(to.get_base_dir()))
				var err: Error = DirAccess.rename_absolute(ProjectSettings.globalize_path(from), ProjectSettings.globalize_path(to))
				if err != OK:
					errors.append("cannot move %s to %s (%s)" % [from, to, error_string(err)])
					continue
				removed.append(from)
				written.append(to)
			"retarget":
				var from: String = op["from"]
				if ResourceLoader.has_cached(from):
					var r: Resource = ResourceLoader.get_cached_ref(from)
					if r != null:
						r.take_over_path(str(op["to"]))
			"setting":
				ProjectSettings.set_setting(str(op["key"]), op.get("value"))
				settings_changed = true
			"rmdir":
				_remove_empty_dirs(ProjectSettings.globalize_path(str(op["path"])))
	if settings_changed:
		var err: Error = ProjectSettings.save()
		if err != OK:
			errors.append("cannot save project.godot (%s)" % error_string(err))
	var wr: PackedStringArray = []
	for p: String in written:
		if not removed.has(p) and not _is_sidecar(p) and not wr.has(p):
			wr.append(p)
	var rm: PackedStringArray = []
	for p: String in removed:
		if not written.has(p) and not _is_sidecar(p) and not rm.has(p):
			rm.append(p)
	notify_changed(wr, rm)
	last_result = {"ok": errors.is_empty(), "error": "; ".join(errors), "written": wr, "removed": rm}
	return last_result


static func _is_sidecar(path: String) -> bool:
	return path.ends_with(".import") or path.ends_with(".uid")


static func _remove_empty_dirs(abs_path: String) -> bool:
	var d: DirAccess = DirAccess.open(abs_path)
	if d == null:
		return false
	d.include_hidden = true
	for sub: String in d.get_directories():
		_remove_empty_dirs(abs_path.path_join(sub))
	if d.get_files().is_empty() and d.get_directories().is_empty():
		return DirAccess.remove_absolute(abs_path) == OK
	return false


# --- cmd_resources_list --------------------------------------------------------------------


## {path, recursive, types, glob, offset, limit} -> {entries: [{path, kind, type, uid,
## class_name}], next_offset (0 when done), scanning}
func list(params: Dictionary) -> Dictionary:
	var path: Variant = params.get("path", "res://")
	var bad: Dictionary = check_path(_router, path, "path", true)
	if not bad.is_empty():
		return bad
	var recursive: Variant = _bool_param(params, "recursive", true)
	var types: Variant = _str_array(params.get("types"))
	var glob: Variant = params.get("glob", "")
	var offset: Variant = _int_param(params, "offset", 0, 0, 1 << 30)
	var limit: Variant = _int_param(params, "limit", 500, 1, 5000)
	if recursive == null or types == null or typeof(glob) != TYPE_STRING or offset == null or limit == null:
		return _router.fail("VALIDATION_ERROR", "Expected {path, recursive: bool, types: [class names], glob: string, offset: int >= 0, limit: 1..5000}.")
	var dir: String = (path as String).trim_suffix("/") if path != "res://" else "res://"
	if not is_dir(dir):
		if FileAccess.file_exists(dir):
			return _router.fail("VALIDATION_ERROR", "'%s' is a file; list its folder '%s' or read it." % [dir, dir.get_base_dir()])
		return not_found(_router, dir, "folder")
	var matched: Array = []
	var walk: Dictionary = PathGuard.walk_new()
	if not recursive:
		for sub: String in subdirs_of(dir, walk):
			if glob_match(sub, glob as String):
				matched.append({"path": sub, "kind": "folder"})
	for f: Dictionary in files_under(dir, recursive as bool, 1 << 30, walk):
		var p: String = f["path"]
		if not glob_match(p, glob as String):
			continue
		if not (types as PackedStringArray).is_empty() and not _type_matches(str(f["type"]), types as PackedStringArray):
			continue
		var e: Dictionary = {"path": p, "kind": "file", "type": f["type"]}
		if str(f["class_name"]) != "":
			e["class_name"] = f["class_name"]
		matched.append(e)
	var page: Array = matched.slice(int(offset), int(offset) + int(limit))
	for e: Dictionary in page:
		if e["kind"] == "file":
			var u: String = uid_text(e["path"])
			if u != "":
				e["uid"] = u
	var next: int = int(offset) + page.size()
	var out: Dictionary = {"entries": page, "next_offset": next if next < matched.size() else 0, "scanning": efs().is_scanning()}
	out.merge(PathGuard.walk_report(walk))
	return _router.ok(out)


static func _type_matches(file_type: String, types: PackedStringArray) -> bool:
	for t: String in types:
		if file_type == t or (ClassDB.class_exists(file_type) and ClassDB.class_exists(t) and ClassDB.is_parent_class(file_type, t)):
			return true
	return false


# --- cmd_resources_search ------------------------------------------------------------------


## {query, regex, case_sensitive, path, glob, max_results, offset, skip, budget_ms} ->
## {matches: [{path, line, column, text}], files_searched, files_skipped, next_offset,
## next_skip, reason ("" when the search ended)}
func search(params: Dictionary) -> Dictionary:
	var query: Variant = params.get("query")
	if typeof(query) != TYPE_STRING or (query as String) == "":
		return _router.fail("VALIDATION_ERROR", "query is required: the text to find.")
	var path: Variant = params.get("path", "res://")
	var bad: Dictionary = check_path(_router, path, "path", true)
	if not bad.is_empty():
		return bad
	var use_regex: Variant = _bool_param(params, "regex", false)
	var case_sensitive: Variant = _bool_param(params, "case_sensitive", false)
	var glob: Variant = params.get("glob", "")
	var max_results: Variant = _int_param(params, "max_results", 100, 1, 1000)
	var offset: Variant = _int_param(params, "offset", 0, 0, 1 << 30)
	var skip: Variant = _int_param(params, "skip", 0, 0, 1 << 30)
	var budget: Variant = _int_param(params, "budget_ms", 3000, 100, 60000)
	if use_regex == null or case_sensitive == null or typeof(glob) != TYPE_STRING or max_results == null or offset == null or skip == null or budget == null:
		return _router.fail("VALIDATION_ERROR", "Expected {query, regex: bool, case_sensitive: bool, path, glob, max_results: 1..1000, offset, skip, budget_ms}.")
	var dir: String = (path as String).trim_suffix("/") if path != "res://" else "res://"
	if not is_dir(dir):
		return not_found(_router, dir, "folder")
	var re: RegEx = null
	var needle: String = query
	if use_regex:
		re = RegEx.new()
		var pattern: String = needle if case_sensitive else "(?i)" + needle
		if re.compile(pattern) != OK:
			return _router.fail("VALIDATION_ERROR", "query is not a valid regular expression (PCRE2 syntax, as Godot's RegEx): %s" % needle)
	elif not case_sensitive:
		needle = needle.to_lower()
	var files: PackedStringArray = []
	if dir == "res://" and glob_match("res://project.godot", glob as String):
		files.append("res://project.godot")
	var walk: Dictionary = PathGuard.walk_new()
	for f: Dictionary in files_under(dir, true, 1 << 30, walk):
		var p: String = f["path"]
		if p.get_extension().to_lower() in SEARCH_EXTENSIONS and glob_match(p, glob as String):
			files.append(p)
	var matches: Array = []
	var searched: int = 0
	var skipped: int = 0
	var started: int = Time.get_ticks_msec()
	var slice_start: int = started
	var i: int = int(offset)
	var to_skip: int = int(skip)
	var reason: String = ""
	var next_skip: int = 0
	while i < files.size():
		var p: String = files[i]
		var f: FileAccess = FileAccess.open(p, FileAccess.READ)
		if f == null or f.get_length() > MAX_SEARCH_FILE_BYTES:
			skipped += 1
			i += 1
			continue
		var text: String = f.get_as_text()
		f.close()
		searched += 1
		var found_here: int = 0
		var lines: PackedStringArray = text.split("\n")
		var stop: bool = false
		for ln: int in range(lines.size()):
			var line: String = lines[ln].trim_suffix("\r")
			var cols: Array[int] = []
			if re != null:
				for m: RegExMatch in re.search_all(line):
					cols.append(m.get_start())
			else:
				var hay: String = line if case_sensitive else line.to_lower()
				var at: int = hay.find(needle)
				while at >= 0:
					cols.append(at)
					at = hay.find(needle, at + maxi(1, needle.length()))
			for c: int in cols:
				found_here += 1
				if found_here <= to_skip:
					continue
				if matches.size() >= int(max_results):
					stop = true
					break
				matches.append({"path": p, "line": ln + 1, "column": c + 1, "text": line.substr(0, 300)})
			if stop:
				break
		if stop:
			reason = "max_results"
			next_skip = found_here - 1
			break
		to_skip = 0
		i += 1
		var now: int = Time.get_ticks_msec()
		if now - started > int(budget) and i < files.size():
			reason = "time_budget"
			break
		if now - slice_start > SLICE_MS:
			await (Engine.get_main_loop() as SceneTree).process_frame
			slice_start = Time.get_ticks_msec()
	var out: Dictionary = {
		"matches": matches, "files_searched": searched, "files_skipped": skipped,
		"next_offset": i if reason != "" else -1, "next_skip": next_skip, "reason": reason,
	}
	out.merge(PathGuard.walk_report(walk))
	return _router.ok(out)


# --- cmd_resources_read ---------------------------------------------------------------------


## {path, properties: [names]} -> {path, type, uid, script_class, properties, sub_resources,
## omitted}
func read(params: Dictionary) -> Dictionary:
	var path: Variant = params.get("path")
	var bad: Dictionary = check_path(_router, path)
	if not bad.is_empty():
		return bad
	var wanted: Variant = _str_array(params.get("properties"))
	if wanted == null:
		return _router.fail("VALIDATION_ERROR", "properties must be an array of property names.")
	var p: String = path
	if not FileAccess.file_exists(p):
		if is_dir(p):
			return _router.fail("VALIDATION_ERROR", "'%s' is a folder; list it with godot_resources_list." % p)
		return not_found(_router, p)
	if not ResourceLoader.exists(p):
		return _router.fail("VALIDATION_ERROR", "'%s' is not a resource Godot can load (the editor sees it as '%s'); search or read it as text." % [p, efs().get_file_type(p)])
	var res: Resource = ResourceLoader.load(p)
	if res == null:
		return _router.fail("VALIDATION_ERROR", "'%s' failed to load; fix or reimport it first (see the editor's Output)." % p)
	var props: Dictionary = {}
	var omitted: PackedStringArray = []
	var names: PackedStringArray = []
	for info: Dictionary in res.get_property_list():
		var n: String = str(info["name"])
		if (int(info.get("usage", 0)) & PROPERTY_USAGE_STORAGE) == 0 or n == "resource_path":
			continue
		names.append(n)
	for n: String in (wanted as PackedStringArray):
		if not names.has(n):
			var hint: String = "%s has no stored property '%s'." % [res.get_class(), n]
			var near: PackedStringArray = []
			for m: String in names:
				if m.similarity(n) > 0.5:
					near.append(m)
			if not near.is_empty():
				hint += " Did you mean %s?" % ", ".join(near)
			return _router.fail("VALIDATION_ERROR", hint)
	for n: String in names:
		if not (wanted as PackedStringArray).is_empty() and not (wanted as PackedStringArray).has(n):
			continue
		var v: Variant = ValueCodec.encode(res.get(n))
		if (wanted as PackedStringArray).is_empty() and JSON.stringify(v).length() > MAX_READ_VALUE_CHARS:
			omitted.append(n)
			continue
		props[n] = v
	var subs: Array = []
	for n: String in names:
		_collect_subresources(res.get(n), n, subs, 0)
	var out: Dictionary = {"path": p, "type": res.get_class(), "uid": uid_text(p), "properties": props, "sub_resources": subs, "omitted": omitted}
	var scr: Variant = res.get_script()
	if scr is Script and (scr as Script).get_global_name() != &"":
		out["script_class"] = str((scr as Script).get_global_name())
	return _router.ok(out)


func _collect_subresources(v: Variant, where: String, out: Array, depth: int) -> void:
	if depth > 4 or out.size() > 1000:
		return
	if v is Resource:
		var r: Resource = v
		if r.resource_path == "" or r.resource_path.contains("::"):
			out.append({"id": r.resource_scene_unique_id, "type": r.get_class(), "property": where})
			for info: Dictionary in r.get_property_list():
				if (int(info.get("usage", 0)) & PROPERTY_USAGE_STORAGE) != 0 and int(info.get("type", 0)) in [TYPE_OBJECT, TYPE_ARRAY, TYPE_DICTIONARY]:
					_collect_subresources(r.get(str(info["name"])), where + "/" + str(info["name"]), out, depth + 1)
	elif typeof(v) == TYPE_ARRAY:
		var a: Array = v
		for i: int in range(mini(a.size(), 256)):
			_collect_subresources(a[i], "%s/%d" % [where, i], out, depth + 1)
	elif typeof(v) == TYPE_DICTIONARY:
		var d: Dictionary = v
		for k: Variant in d.keys().slice(0, 256):
			_collect_subresources(d[k], "%s/%s" % [where, str(k)], out, depth + 1)


# --- cmd_resources_create --------------------------------------------------------------------


## {path, type, properties, overwrite, dry_run} -> {path, type, uid, created, properties,
## persisted, undoable, undo_history, ready, written, removed}
func create(params: Dictionary) -> Dictionary:
	var path: Variant = params.get("path")
	var bad: Dictionary = check_path(_router, path)
	if not bad.is_empty():
		return bad
	var p: String = path
	var type_name: Variant = params.get("type")
	var props: Variant = params.get("properties", {})
	var overwrite: Variant = _bool_param(params, "overwrite", false)
	var dry_run: Variant = _bool_param(params, "dry_run", false)
	if typeof(type_name) != TYPE_STRING or (type_name as String) == "" or typeof(props) != TYPE_DICTIONARY or overwrite == null or dry_run == null:
		return _router.fail("VALIDATION_ERROR", "Expected {path, type: class name, properties: {name: value}, overwrite: bool, dry_run: bool}.")
	var made: Dictionary = _instantiate_resource(type_name as String)
	if not made.get("ok", false):
		return made["failure"]
	var res: Resource = made["resource"]
	var ext: String = p.get_extension().to_lower()
	if not ResourceSaver.get_recognized_extensions(res).has(ext):
		return _router.fail("VALIDATION_ERROR", "A %s cannot be saved as .%s; use .tres or .res." % [type_name, ext])
	if is_dir(p):
		return _router.fail("VALIDATION_ERROR", "'%s' is a folder." % p)
	var existed: bool = FileAccess.file_exists(p)
	if existed and not overwrite:
		return _router.fail("VALIDATION_ERROR", "'%s' exists already; pass overwrite: true to replace it, or pick another path (godot_resources_set_properties changes an existing resource)." % p)
	if existed and p in open_scene_paths():
		return _router.fail("PRECONDITION_FAILED", "'%s' is open in the editor as a scene; close it before replacing the file." % p)
	var set_result: Dictionary = _decode_all(res, props as Dictionary)
	if not set_result.get("ok", false):
		return set_result["failure"]
	var values: Dictionary = set_result["values"]
	for k: Variant in values.keys():
		res.set(str(k), values[k])
	var shown: Dictionary = {}
	for k: Variant in values.keys():
		shown[k] = ValueCodec.encode(res.get(str(k)))
	var out: Dictionary = {"path": p, "type": type_name, "created": not existed, "properties": shown, "ready": true, "written": [p], "removed": []}
	if dry_run:
		out["persisted"] = false
		out["undoable"] = false
		return _router.ok(out)
	var before: Variant = file_bytes(p)
	DirAccess.make_dir_recursive_absolute(ProjectSettings.globalize_path(p.get_base_dir()))
	var err: Error = ResourceSaver.save(res, p)
	if err != OK:
		return _router.fail("INTERNAL_ERROR", "Saving %s failed: %s. Check the folder is writable." % [p, error_string(err)])
	var after: PackedByteArray = FileAccess.get_file_as_bytes(p)
	var do_ops: Array = [{"op": "write", "path": p, "data": after}]
	var undo_ops: Array = [{"op": "delete", "path": p}] if before == null else [{"op": "write", "path": p, "data": before}]
	var undoable: bool = ops_bytes(do_ops) + ops_bytes(undo_ops) <= UNDO_LIMIT_BYTES
	notify_changed(PackedStringArray([p]), PackedStringArray())
	if undoable:
		record("godot-mcp: create %s" % p, do_ops, undo_ops)
	var st: Dictionary = sync_files(PackedStringArray([p]), PackedStringArray())
	out["uid"] = uid_text(p)
	out["persisted"] = true
	out["undoable"] = undoable
	out["undo_history"] = "global"
	out["ready"] = st["ready"]
	return _router.ok(out)


## {ok, resource} or {ok: false, failure} for an engine or script resource class.
func _instantiate_resource(type_name: String) -> Dictionary:
	if ClassDB.class_exists(type_name):
		if not ClassDB.is_parent_class(type_name, "Resource"):
			return {"ok": false, "failure": _router.fail("VALIDATION_ERROR", "'%s' is not a Resource class (it is a %s); resource files hold Resource types such as StyleBoxFlat, Gradient or a script class extending Resource." % [type_name, ClassDB.get_parent_class(type_name)])}
		if not ClassDB.can_instantiate(type_name):
			return {"ok": false, "failure": _router.fail("VALIDATION_ERROR", "'%s' is abstract; pick a concrete subclass (godot_describe_class lists its family)." % type_name)}
		return {"ok": true, "resource": ClassDB.instantiate(type_name) as Resource}
	var scr: Script = ValueCodec._global_script(type_name)
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
		var info: Dictionary = ValueCodec.property_info(obj, name)
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
		var d: Dictionary = ValueCodec.decode_property(obj, name, props[k])
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
	var bad: Dictionary = check_path(_router, path)
	if not bad.is_empty():
		return bad
	var p: String = path
	var props: Variant = params.get("properties")
	var dry_run: Variant = _bool_param(params, "dry_run", false)
	if typeof(props) != TYPE_DICTIONARY or (props as Dictionary).is_empty() or dry_run == null:
		return _router.fail("VALIDATION_ERROR", "properties must be a non-empty object {name: value}.")
	if not FileAccess.file_exists(p):
		return not_found(_router, p)
	if FileAccess.file_exists(p + ".import"):
		return _router.fail("VALIDATION_ERROR", "'%s' is an imported asset; its data comes from the source file and its .import settings, not from properties. Change the source and reimport." % p)
	var res: Resource = ResourceLoader.load(p)
	if res == null:
		return _router.fail("VALIDATION_ERROR", "'%s' is not a resource Godot can load." % p)
	if res is Script or res is PackedScene:
		return _router.fail("VALIDATION_ERROR", "'%s' is a %s; use the scripts or scene tools for it." % [p, res.get_class()])
	var decoded: Dictionary = _decode_all(res, props as Dictionary)
	if not decoded.get("ok", false):
		return decoded["failure"]
	var values: Dictionary = decoded["values"]
	var old_values: Dictionary = {}
	var changes: Array = []
	for k: Variant in values.keys():
		old_values[k] = res.get(str(k))
	var out: Dictionary = {"path": p, "type": res.get_class(), "ready": true, "written": [p], "removed": []}
	if dry_run:
		for k: Variant in values.keys():
			changes.append({"property": k, "old": ValueCodec.encode(old_values[k]), "new": ValueCodec.encode(values[k])})
		out["changes"] = changes
		out["persisted"] = false
		out["undoable"] = false
		return _router.ok(out)
	var ur: EditorUndoRedoManager = EditorInterface.get_editor_undo_redo()
	ur.create_action("godot-mcp: set properties of %s" % p, UndoRedo.MERGE_DISABLE, null)
	ur.add_do_method(self, "_apply_properties", res, p, values)
	ur.add_undo_method(self, "_apply_properties", res, p, old_values)
	ur.commit_action(true)
	if _last_save_error != OK:
		return _router.fail("INTERNAL_ERROR", "The properties were set in the editor but saving %s failed (%s); godot_undo (history \"global\") reverts them." % [p, error_string(_last_save_error)])
	for k: Variant in values.keys():
		changes.append({"property": k, "old": ValueCodec.encode(old_values[k]), "new": ValueCodec.encode(res.get(str(k)))})
	var st: Dictionary = sync_files(PackedStringArray([p]), PackedStringArray())
	out["changes"] = changes
	out["persisted"] = true
	out["undoable"] = true
	out["undo_history"] = "global"
	out["ready"] = st["ready"]
	return _router.ok(out)


var _last_save_error: Error = OK


## Sets [param values] on [param res], saves it to [param path] and tells the editor.
func _apply_properties(res: Resource, path: String, values: Dictionary) -> void:
	for k: Variant in values.keys():
		res.set(str(k), values[k])
	_last_save_error = ResourceSaver.save(res, path)
	res.emit_changed()
	if not efs().is_scanning():
		efs().update_file(path)
	else:
		_needs_update[path] = true


# --- cmd_resources_move ------------------------------------------------------------------------


## {from, to, dry_run} -> {from, to, moved: [{from, to}], updated_refs, unchanged_refs,
## project_settings, uid, persisted, undoable, undo_history, ready, written, removed}
func move(params: Dictionary) -> Dictionary:
	var from_v: Variant = params.get("from")
	var to_v: Variant = params.get("to")
	var bad: Dictionary = check_path(_router, from_v, "from")
	if bad.is_empty():
		bad = check_path(_router, to_v, "to")
	if not bad.is_empty():
		return bad
	var dry_run: Variant = _bool_param(params, "dry_run", false)
	if dry_run == null:
		return _router.fail("VALIDATION_ERROR", "dry_run must be true or false.")
	var from: String = from_v
	var to: String = to_v
	var folder: bool = is_dir(from)
	if not folder and not FileAccess.file_exists(from):
		return not_found(_router, from, "file or folder")
	if exists(to):
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
		for f: String in disk_files_under(from):
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
		if str(old) in open_scene_paths():
			return _router.fail("PRECONDITION_FAILED", "'%s' is open in the editor as a scene; save and close it (godot_scene_close) before moving it." % old)
		if str(old).get_extension() == "gd" and bool(script_editor_state(str(old))["unsaved"]):
			return _router.fail("PRECONDITION_FAILED", "'%s' has unsaved changes in the script editor; save or discard them before moving it." % old)
	var exclude: Dictionary = {}
	var scan: Dictionary = await find_referrers(PackedStringArray(renames.keys()), PackedStringArray(prefix_renames.keys()), exclude, 20000)
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
		var new_text: String = rewrite_refs(old_text, renames, prefix_renames)
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
		"project_settings": settings, "uid": "" if folder else uid_text(from),
	}
	if dry_run:
		out["persisted"] = false
		out["undoable"] = false
		out["ready"] = true
		out["written"] = []
		out["removed"] = []
		return _router.ok(out)
	var undoable: bool = ops_bytes(do_ops) + ops_bytes(undo_ops) <= UNDO_LIMIT_BYTES
	var res: Dictionary = commit("godot-mcp: move %s to %s" % [from, to], do_ops, undo_ops, undoable)
	if not res.get("ok", false):
		return _router.fail("INTERNAL_ERROR", "The move was only partly done: %s. Undo it with godot_undo (history \"global\") or fix the files by hand." % res.get("error", ""))
	# A folder or imported asset changes more than update_file() covers: scan.
	var needs_scan: bool = folder
	for m: Dictionary in moved:
		if str(m["from"]).ends_with(".import"):
			needs_scan = true
	if needs_scan:
		efs().scan()
	var st: Dictionary = sync_files(res["written"], res["removed"])
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
	var bad: Dictionary = check_path(_router, path)
	if not bad.is_empty():
		return bad
	var force: Variant = _bool_param(params, "force", false)
	var recursive: Variant = _bool_param(params, "recursive", false)
	var dry_run: Variant = _bool_param(params, "dry_run", false)
	if force == null or recursive == null or dry_run == null:
		return _router.fail("VALIDATION_ERROR", "force, recursive and dry_run must be true or false.")
	var p: String = path
	var folder: bool = is_dir(p)
	if not folder and not FileAccess.file_exists(p):
		return not_found(_router, p, "file or folder")
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
		files = disk_files_under(p)
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
		if f in open_scene_paths():
			return _router.fail("PRECONDITION_FAILED", "'%s' is open in the editor as a scene; close it (godot_scene_close) before deleting it." % f)
	var exclude: Dictionary = {}
	for f: String in files:
		exclude[f] = true
	var prefixes: PackedStringArray = [p + "/"] if folder else []
	var scan: Dictionary = await find_referrers(primary, prefixes, exclude, 20000)
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
	var undoable: bool = ops_bytes(undo_ops) <= UNDO_LIMIT_BYTES
	var res: Dictionary = commit("godot-mcp: delete %s" % p, do_ops, undo_ops, undoable)
	if not res.get("ok", false):
		return _router.fail("INTERNAL_ERROR", "The delete was only partly done: %s." % res.get("error", ""))
	if folder:
		efs().scan()
	var st: Dictionary = sync_files(res["written"], res["removed"])
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


# --- cmd_resources_get_dependencies ---------------------------------------------------------


## {path, dependents: bool} -> {path, uid, dependencies: [{path, uid, type, exists}],
## dependents: [{path, count}], dependents_complete}
func get_dependencies(params: Dictionary) -> Dictionary:
	var path: Variant = params.get("path")
	var bad: Dictionary = check_path(_router, path)
	if not bad.is_empty():
		return bad
	var with_dependents: Variant = _bool_param(params, "dependents", true)
	if with_dependents == null:
		return _router.fail("VALIDATION_ERROR", "dependents must be true or false.")
	var p: String = path
	if not FileAccess.file_exists(p):
		return not_found(_router, p)
	var deps: Array = []
	for dep: String in ResourceLoader.get_dependencies(p):
		var parts: PackedStringArray = dep.split("::")
		var uid: String = parts[0] if parts[0].begins_with("uid://") else ""
		var dp: String = dependency_path(dep)
		var type_name: String = parts[1] if parts.size() > 1 else ""
		deps.append({"path": dp, "uid": uid, "type": type_name, "exists": FileAccess.file_exists(dp)})
	var out: Dictionary = {"path": p, "uid": uid_text(p), "dependencies": deps, "dependents": [], "dependents_complete": false}
	if with_dependents:
		var exclude: Dictionary = {p: true}
		var scan: Dictionary = await find_referrers(PackedStringArray([p]), PackedStringArray(), exclude, 20000)
		var refs: Array = []
		for r: Dictionary in scan["referrers"]:
			refs.append({"path": r["path"], "count": r["count"]})
		out["dependents"] = refs
		out["dependents_complete"] = scan["complete"]
	return _router.ok(out)


# --- cmd_resources_resolve_uid ---------------------------------------------------------------


## {ref: "uid://…" | "res://…"} -> {uid, path, exists}
func resolve_uid(params: Dictionary) -> Dictionary:
	var ref: Variant = params.get("ref")
	if typeof(ref) != TYPE_STRING:
		return _router.fail("VALIDATION_ERROR", "ref must be a uid://… or res://… string.")
	var r: String = ref
	if r.begins_with("uid://"):
		var id: int = ResourceUID.text_to_id(r)
		if id == ResourceUID.INVALID_ID:
			return _router.fail("VALIDATION_ERROR", "'%s' is not a valid uid:// text." % r)
		if not ResourceUID.has_id(id):
			return _router.fail("RESOURCE_NOT_FOUND", "No file has the UID '%s' in this project. If the file was just added, rescan (godot_resources_rescan)." % r)
		var p: String = ResourceUID.get_id_path(id)
		return _router.ok({"uid": r, "path": p, "exists": FileAccess.file_exists(p)})
	var bad: Dictionary = check_path(_router, r, "ref")
	if not bad.is_empty():
		return bad
	if not FileAccess.file_exists(r):
		return not_found(_router, r)
	return _router.ok({"uid": uid_text(r), "path": r, "exists": true})


# --- cmd_resources_rescan / cmd_resources_reimport -------------------------------------------


## {} -> {started, scanning}
func rescan(_params: Dictionary) -> Dictionary:
	var fs: EditorFileSystem = efs()
	# A scan already under way may have listed the folders before the files
	# the caller just wrote: let it end (bounded), then scan again.
	var t0: int = Time.get_ticks_msec()
	while fs.is_scanning() and Time.get_ticks_msec() - t0 < RESCAN_WAIT_MS:
		await (Engine.get_main_loop() as SceneTree).process_frame
	var started: bool = not fs.is_scanning()
	if started:
		fs.scan()
	return _router.ok({"started": started, "scanning": fs.is_scanning()})


## {paths, dry_run} -> {reimported, skipped: [{path, reason}], ready, written, removed}
func reimport(params: Dictionary) -> Dictionary:
	var paths: Variant = _str_array(params.get("paths"))
	var dry_run: Variant = _bool_param(params, "dry_run", false)
	if paths == null or (paths as PackedStringArray).is_empty() or dry_run == null:
		return _router.fail("VALIDATION_ERROR", "paths must be a non-empty array of res:// paths of imported assets.")
	var todo: PackedStringArray = []
	var skipped: Array = []
	for p: String in paths:
		var why: String = path_problem(p)
		if why != "":
			return _router.fail("VALIDATION_ERROR", "%s." % why)
		if not FileAccess.file_exists(p):
			skipped.append({"path": p, "reason": "no such file"})
		elif not FileAccess.file_exists(p + ".import"):
			skipped.append({"path": p, "reason": "not an imported asset (no .import file)"})
		else:
			todo.append(p)
	var out: Dictionary = {"reimported": todo, "skipped": skipped, "ready": true, "written": todo, "removed": []}
	if dry_run or todo.is_empty():
		return _router.ok(out)
	if efs().is_scanning():
		return _router.fail("PRECONDITION_FAILED", "The editor is scanning the filesystem; retry when it is done (godot_resources_rescan waits for it).")
	efs().reimport_files(todo)
	out["ready"] = sync_files(todo, PackedStringArray())["ready"]
	return _router.ok(out)
