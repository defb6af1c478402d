@tool
extends RefCounted
## project.godot after every edit of the project toolset: the do/undo callback that
## saves it (and refreshes the editor's own views), and the read-back that reports
## persisted honestly. One instance, shared by the command families (handlers.gd).

const ValueCodec := preload("res://addons/godot_mcp/value_codec.gd")
const Common := preload("common.gd")

## The result of the last save made by after_change (read right after commit_action).
var last_save_error: int = OK
var _editor_nodes: Dictionary = {} # class name -> Node (cached lookups in the editor GUI)


## Runs at the end of every do and undo of this toolset's actions: saves project.godot
## and refreshes the editor's own views of what changed.
func after_change(kind: String) -> void:
	if kind == "autoload":
		var autoloads: Node = editor_node("EditorAutoloadSettings")
		if autoloads != null and autoloads.has_method("update_autoload"):
			autoloads.call("update_autoload")
	elif kind == "input":
		var pse: Node = editor_node("ProjectSettingsEditor")
		if pse != null and pse.has_method("_update_action_map_editor"):
			pse.call("_update_action_map_editor")
	last_save_error = ProjectSettings.save()


## A node of the editor's GUI by class (cached), or null.
func editor_node(cls: String) -> Node:
	var cached: Variant = _editor_nodes.get(cls)
	if cached is Node and is_instance_valid(cached):
		return cached
	var found: Array[Node] = EditorInterface.get_base_control().find_children("*", cls, true, false)
	if found.is_empty():
		return null
	_editor_nodes[cls] = found[0]
	return found[0]


## For a call that changed nothing: checks the file, and when it is behind the editor
## (an earlier save failed), saves it and checks again.
func repair_check(keys: PackedStringArray) -> Dictionary:
	var check: Dictionary = disk_check(keys, OK)
	if check["ok"]:
		return check
	return disk_check(keys, ProjectSettings.save())


## Reads project.godot back and checks that each key is stored as the editor holds it
## (absent when removed or equal to its default). {ok, problems}.
func disk_check(keys: PackedStringArray, save_error: int) -> Dictionary:
	if save_error != OK:
		return {"ok": false, "problems": ["Saving project.godot failed (%s); the change is in the editor but not on disk. Check that the file is writable, then retry." % error_string(save_error)]}
	var cf: ConfigFile = ConfigFile.new()
	var err: int = cf.load(Common.PROJECT_FILE)
	if err != OK:
		return {"ok": false, "problems": ["project.godot could not be read back (%s)." % error_string(err)]}
	var problems: Array = []
	for key: String in keys:
		var slash: int = key.find("/")
		var section: String = key.substr(0, slash) if slash >= 0 else ""
		var name: String = key.substr(slash + 1) if slash >= 0 else key
		var on_disk: bool = cf.has_section_key(section, name)
		var expect_present: bool = ProjectSettings.has_setting(key) and not Common.equals_default(key, ProjectSettings.get_setting(key))
		if expect_present and not on_disk:
			problems.append("%s is not in project.godot although the editor has it." % key)
		elif not expect_present and on_disk:
			problems.append("%s is still in project.godot although the editor removed it or holds its default." % key)
		elif expect_present and not Common.same_json(ValueCodec.encode(cf.get_value(section, name)), ValueCodec.encode(ProjectSettings.get_setting(key)), true):
			problems.append("%s is stored in project.godot as %s, the editor holds %s." % [key, JSON.stringify(ValueCodec.encode(cf.get_value(section, name))), JSON.stringify(ValueCodec.encode(ProjectSettings.get_setting(key)))])
	return {"ok": problems.is_empty(), "problems": problems}
