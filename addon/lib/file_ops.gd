@tool
extends RefCounted
## Applies file operations: the do and undo sides of the actions lib/files.gd commits
## to the editor's undo history call apply() on the one instance files.gd keeps.

const Files := preload("files.gd")

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
	Files.notify_changed(wr, rm)
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
