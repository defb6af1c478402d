extends SceneTree
## godot-mcp diagnostics_check_project: loads every script, scene and resource of the
## project and lists each one's dependencies, marking the output with
## @@GODOT_MCP_CHECK lines on stderr (where Godot prints its errors too).

const MARK := "@@GODOT_MCP_CHECK "
const EXTS: PackedStringArray = ["gd", "tscn", "scn", "tres", "res"]


func _initialize() -> void:
	var include_addons: bool = "--include-addons" in OS.get_cmdline_user_args()
	var files: PackedStringArray = []
	_walk("res://", include_addons, files)
	for path: String in files:
		printerr(MARK + "begin " + path)
		var res: Resource = ResourceLoader.load(path, "", ResourceLoader.CACHE_MODE_IGNORE)
		var loaded: bool = res != null
		for dep: String in ResourceLoader.get_dependencies(path):
			var uid: String = ""
			var dep_path: String = dep
			var parts: PackedStringArray = dep.split("::")
			if parts.size() >= 3:
				uid = parts[0]
				dep_path = parts[parts.size() - 1]
			elif dep.begins_with("uid://"):
				uid = dep
				dep_path = ""
			var uid_known: bool = true
			if uid != "":
				var id: int = ResourceUID.text_to_id(uid)
				uid_known = id != ResourceUID.INVALID_ID and ResourceUID.has_id(id)
				if dep_path == "" and uid_known:
					dep_path = ResourceUID.get_id_path(id)
			var exists: bool = dep_path != "" and (ResourceLoader.exists(dep_path) or FileAccess.file_exists(dep_path))
			printerr(MARK + "dep " + JSON.stringify({"path": dep_path, "uid": uid, "uid_known": uid_known, "exists": exists}))
		printerr(MARK + "end " + JSON.stringify({"path": path, "loaded": loaded}))
	printerr(MARK + "done")
	quit()


func _walk(dir: String, include_addons: bool, out: PackedStringArray) -> void:
	var d: DirAccess = DirAccess.open(dir)
	if d == null:
		return
	if dir != "res://" and FileAccess.file_exists(dir.path_join(".gdignore")):
		return
	d.include_hidden = false
	for f: String in d.get_files():
		if f.get_extension() in EXTS:
			out.append(dir.path_join(f))
	for sub: String in d.get_directories():
		if sub.begins_with("."):
			continue
		if dir == "res://" and sub == "addons" and not include_addons:
			continue
		_walk(dir.path_join(sub), include_addons, out)
