@tool
extends RefCounted
## cmd_project_list_autoloads / add_autoload / remove_autoload: the autoloads in load
## order, added and removed as one undo action each (order kept on undo), saved to
## project.godot and checked on disk, and the editor's Autoload tab refreshed.

const ValueCodec := preload("res://addons/godot_mcp/value_codec.gd")
const CommandRouter := preload("res://addons/godot_mcp/command_router.gd")
const PathGuard := preload("res://addons/godot_mcp/path_guard.gd")
const Common := preload("common.gd")
const ProjectFile := preload("project_file.gd")

## The autoload the runtime toolset manages itself (plugins/runtime/editor).
const RUNTIME_PROBE := "GodotMcpProbe"
## GDScript keywords and built-in constants (autoload names cannot be these).
const RESERVED := [
	"if", "elif", "else", "for", "while", "match", "when", "break", "continue", "pass", "return",
	"class", "class_name", "extends", "is", "in", "as", "self", "super", "signal", "func", "static",
	"const", "enum", "var", "breakpoint", "preload", "await", "yield", "assert", "void", "and", "or",
	"not", "true", "false", "null", "PI", "TAU", "INF", "NAN", "tool", "trait", "namespace",
]

var _router: CommandRouter = null
var _pf: ProjectFile = null


func setup(router: CommandRouter, pf: ProjectFile) -> void:
	_router = router
	_pf = pf


func get_commands() -> Dictionary:
	return {
		"cmd_project_list_autoloads": {"class": "read_only", "run": list_autoloads},
		"cmd_project_add_autoload": {"class": "mutating", "dry_run": true, "run": add_autoload},
		"cmd_project_remove_autoload": {"class": "mutating", "dry_run": true, "run": remove_autoload},
	}


## {} -> {autoloads: [{name, path, singleton, index}]}
func list_autoloads(_params: Dictionary) -> Dictionary:
	return _router.ok({"autoloads": _autoloads()})


## {name, path, singleton, index (-1: last), dry_run} ->
## {autoload, autoloads, dry_run, persisted, undoable, undo_action?, editor_refreshed}
func add_autoload(params: Dictionary) -> Dictionary:
	var name_v: Variant = params.get("name")
	if typeof(name_v) != TYPE_STRING or (name_v as String) == "":
		return _router.fail("VALIDATION_ERROR", "name is required: the autoload's name, e.g. GameState.")
	var name: String = name_v
	var problem: String = _autoload_name_problem(name)
	if problem != "":
		return _router.fail("VALIDATION_ERROR", problem)
	var current: Array = _autoloads()
	for a: Dictionary in current:
		if str(a["name"]) == name:
			return _router.fail("VALIDATION_ERROR", "There already is an autoload '%s' (%s, position %d). Remove it first (godot_project_remove_autoload) or pick another name." % [name, a["path"], a["index"]])
	var path_v: Variant = params.get("path")
	if typeof(path_v) != TYPE_STRING or not (path_v as String).begins_with("res://"):
		return _router.fail("VALIDATION_ERROR", "path must be a res:// path of a script or scene, e.g. res://autoload/game_state.gd.")
	var path: String = path_v
	var outside: String = PathGuard.problem(path)
	if outside != "":
		return _router.fail("VALIDATION_ERROR", "path: %s." % outside)
	var file_problem: Dictionary = _autoload_file_problem(path)
	if not file_problem.is_empty():
		return _router.fail(str(file_problem["code"]), str(file_problem["hint"]))
	var singleton_v: Variant = params.get("singleton", true)
	if singleton_v != null and typeof(singleton_v) != TYPE_BOOL:
		return _router.fail("VALIDATION_ERROR", "singleton must be true (the name is a global variable) or false.")
	var singleton: bool = singleton_v != false if typeof(singleton_v) == TYPE_BOOL else true
	var index: Variant = Common.int_param(params, "index", -1)
	if index == null or int(index) < -1 or int(index) > current.size():
		return _router.fail("VALIDATION_ERROR", "index must be a position from 0 to %d (the number of autoloads), or omitted for the end." % current.size())
	var at: int = current.size() if int(index) == -1 else int(index)
	var names: PackedStringArray = []
	for a: Dictionary in current:
		names.append(str(a["name"]))
	names.insert(at, name)
	var entry: Dictionary = {"name": name, "path": path, "singleton": singleton, "index": at}
	var preview: Array = current.duplicate(true)
	preview.insert(at, entry)
	for i: int in range(preview.size()):
		preview[i]["index"] = i
	var out: Dictionary = {"autoload": entry, "autoloads": preview, "dry_run": Common.flag(params, "dry_run"), "undoable": false, "editor_refreshed": false}
	if Common.flag(params, "dry_run"):
		out["persisted"] = false
		return _router.ok(out)
	var key: String = "autoload/" + name
	var action_name: String = "godot-mcp: add autoload '%s'" % name
	var ur: EditorUndoRedoManager = EditorInterface.get_editor_undo_redo()
	ur.create_action(action_name, UndoRedo.MERGE_DISABLE, ProjectSettings)
	ur.add_do_method(ProjectSettings, "set_setting", key, ("*" if singleton else "") + path)
	ur.add_do_method(self, "_order_autoloads", names)
	ur.add_undo_method(ProjectSettings, "set_setting", key, null)
	for a: Dictionary in current:
		var other: String = "autoload/" + str(a["name"])
		ur.add_undo_method(ProjectSettings, "set_order", other, ProjectSettings.get_order(other))
	ur.add_do_method(_pf, "after_change", "autoload")
	ur.add_undo_method(_pf, "after_change", "autoload")
	_pf.last_save_error = OK
	ur.commit_action()
	return _router.ok(_autoload_result(out, name, action_name, _pf.last_save_error))


## {name, dry_run} -> {autoload, autoloads, dry_run, persisted, undoable, undo_action?, editor_refreshed}
func remove_autoload(params: Dictionary) -> Dictionary:
	var name_v: Variant = params.get("name")
	if typeof(name_v) != TYPE_STRING or (name_v as String) == "":
		return _router.fail("VALIDATION_ERROR", "name is required: the autoload's name.")
	var name: String = name_v
	var current: Array = _autoloads()
	var entry: Dictionary = {}
	var names: Array = []
	for a: Dictionary in current:
		names.append(str(a["name"]))
		if str(a["name"]) == name:
			entry = a
	if entry.is_empty():
		var hint: String = "No autoload named '%s'." % name
		var near: PackedStringArray = Common.suggest(name, names)
		if not near.is_empty():
			hint += " Did you mean %s?" % Common.quoted(near)
		elif names.is_empty():
			hint += " The project has no autoloads."
		else:
			hint += " The autoloads are: %s." % ", ".join(PackedStringArray(names))
		return _router.fail("RESOURCE_NOT_FOUND", hint)
	if name == RUNTIME_PROBE:
		return _router.fail("VALIDATION_ERROR", "'%s' is the runtime toolset's probe: it is added while the runtime toolset is enabled and removed when it is disabled. Use godot_disable_toolset {name: \"runtime\"} instead." % name)
	var preview: Array = []
	for a: Dictionary in current:
		if str(a["name"]) != name:
			var copy: Dictionary = a.duplicate()
			copy["index"] = preview.size()
			preview.append(copy)
	var out: Dictionary = {"autoload": entry, "autoloads": preview, "dry_run": Common.flag(params, "dry_run"), "undoable": false, "editor_refreshed": false}
	if Common.flag(params, "dry_run"):
		out["persisted"] = false
		return _router.ok(out)
	var key: String = "autoload/" + name
	var old_value: Variant = ProjectSettings.get_setting(key)
	var order: int = ProjectSettings.get_order(key)
	var action_name: String = "godot-mcp: remove autoload '%s'" % name
	var ur: EditorUndoRedoManager = EditorInterface.get_editor_undo_redo()
	ur.create_action(action_name, UndoRedo.MERGE_DISABLE, ProjectSettings)
	ur.add_do_method(ProjectSettings, "set_setting", key, null)
	ur.add_undo_method(ProjectSettings, "set_setting", key, old_value)
	ur.add_undo_method(ProjectSettings, "set_order", key, order)
	ur.add_do_method(_pf, "after_change", "autoload")
	ur.add_undo_method(_pf, "after_change", "autoload")
	_pf.last_save_error = OK
	ur.commit_action()
	return _router.ok(_autoload_result(out, name, action_name, _pf.last_save_error))


## Fills in what happened after an autoload action was committed.
func _autoload_result(out: Dictionary, name: String, action_name: String, save_error: int) -> Dictionary:
	out["autoloads"] = _autoloads()
	out["undoable"] = true
	out["undo_action"] = action_name
	out["editor_refreshed"] = _pf.editor_node("EditorAutoloadSettings") != null
	var keys: PackedStringArray = ["autoload/" + name]
	for a: Dictionary in out["autoloads"]:
		keys.append("autoload/" + str(a["name"]))
	var check: Dictionary = _pf.disk_check(keys, save_error)
	if check["ok"]:
		var order_problem: String = _disk_autoload_order(out["autoloads"])
		if order_problem != "":
			check = {"ok": false, "problems": [order_problem]}
	out["persisted"] = check["ok"]
	if not check["ok"]:
		out["warnings"] = check["problems"]
	return out


## The autoloads in load order: [{name, path, singleton, index}].
func _autoloads() -> Array:
	var found: Array = []
	for p: Dictionary in ProjectSettings.get_property_list():
		var key: String = str(p.get("name", ""))
		if not key.begins_with("autoload/") or not ProjectSettings.has_setting(key):
			continue
		var value: String = str(ProjectSettings.get_setting(key))
		var singleton: bool = value.begins_with("*")
		var path: String = value.substr(1) if singleton else value
		if path.begins_with("uid://"):
			var id: int = ResourceUID.text_to_id(path)
			if id != ResourceUID.INVALID_ID and ResourceUID.has_id(id):
				path = ResourceUID.get_id_path(id)
		found.append({"name": key.substr("autoload/".length()), "path": path, "singleton": singleton, "order": ProjectSettings.get_order(key)})
	found.sort_custom(func(a: Dictionary, b: Dictionary) -> bool: return int(a["order"]) < int(b["order"]))
	var out: Array = []
	for a: Dictionary in found:
		out.append({"name": a["name"], "path": a["path"], "singleton": a["singleton"], "index": out.size()})
	return out


## Gives the autoloads [param names] ascending orders in that sequence, reusing the
## orders they already have (what the editor's drag and drop does).
func _order_autoloads(names: PackedStringArray) -> void:
	var orders: Array[int] = []
	for n: String in names:
		if ProjectSettings.has_setting("autoload/" + n):
			orders.append(ProjectSettings.get_order("autoload/" + n))
	orders.sort()
	var i: int = 0
	for n: String in names:
		if ProjectSettings.has_setting("autoload/" + n):
			ProjectSettings.set_order("autoload/" + n, orders[i])
			i += 1


## The editor's own rules for autoload names (EditorAutoloadSettings), "" when fine.
func _autoload_name_problem(name: String) -> String:
	if not name.is_valid_unicode_identifier():
		return "'%s' is not a valid autoload name: use an identifier (letters, digits, _; not starting with a digit), e.g. GameState." % name
	if ClassDB.class_exists(name):
		return "'%s' is an engine class; an autoload name must not collide with one. Try %sManager or My%s." % [name, name, name]
	for c: Dictionary in ProjectSettings.get_global_class_list():
		if str(c.get("class", "")) == name:
			return "'%s' is the class_name of %s; an autoload name must not collide with a global script class." % [name, c.get("path", "a script")]
	var as_type: int = ValueCodec.type_from_name(name)
	if name == "Variant" or (as_type >= 0 and type_string(as_type) == name):
		return "'%s' is a built-in type name; pick another name." % name
	if RESERVED.has(name):
		return "'%s' is a GDScript keyword or constant; pick another name." % name
	if Engine.has_singleton(name):
		return "'%s' is an engine singleton; pick another name." % name
	return ""


## {} when [param path] can be an autoload, else {code, hint}.
func _autoload_file_problem(path: String) -> Dictionary:
	if not FileAccess.file_exists(path) and not ResourceLoader.exists(path):
		var hint: String = "No file %s." % path
		var near: PackedStringArray = _nearby_files(path)
		if not near.is_empty():
			hint += " Did you mean %s?" % Common.quoted(near)
		return {"code": "RESOURCE_NOT_FOUND", "hint": hint + " An autoload is a script extending Node or a scene."}
	var res: Resource = ResourceLoader.load(path)
	if res is PackedScene:
		return {}
	if res is Script:
		var scr: Script = res
		# can_instantiate() is false for every non-@tool script in the editor; a script
		# that does not compile has no instance base type.
		var base: String = str(scr.get_instance_base_type())
		if base == "":
			return {"code": "VALIDATION_ERROR", "hint": "%s does not compile; fix it first (godot_scripts_validate shows the errors)." % path}
		if not ClassDB.is_parent_class(base, "Node"):
			return {"code": "VALIDATION_ERROR", "hint": "%s extends %s; an autoload script must extend Node (or a Node class)." % [path, base]}
		return {}
	var what: String = res.get_class() if res != null else "not loadable"
	return {"code": "VALIDATION_ERROR", "hint": "%s is %s; an autoload must be a script extending Node (.gd) or a scene (.tscn/.scn)." % [path, what]}


## Up to three files in the same folder with names like [param path]'s.
func _nearby_files(path: String) -> PackedStringArray:
	var dir: String = path.get_base_dir()
	if not DirAccess.dir_exists_absolute(dir):
		return PackedStringArray()
	var files: Array = []
	for f: String in DirAccess.get_files_at(dir):
		if f.ends_with(".gd") or f.ends_with(".tscn") or f.ends_with(".scn") or f.ends_with(".cs"):
			files.append(dir.path_join(f))
	return Common.suggest(path, files)


## Checks the order of the [autoload] section of project.godot; "" when it matches.
func _disk_autoload_order(expected: Array) -> String:
	var cf: ConfigFile = ConfigFile.new()
	if cf.load(Common.PROJECT_FILE) != OK:
		return "project.godot could not be read back."
	var on_disk: PackedStringArray = cf.get_section_keys("autoload") if cf.has_section("autoload") else PackedStringArray()
	var want: PackedStringArray = []
	for a: Dictionary in expected:
		want.append(str(a["name"]))
	if on_disk != want:
		return "project.godot lists the autoloads as [%s], the editor as [%s]." % [", ".join(on_disk), ", ".join(want)]
	return ""
