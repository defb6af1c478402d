@tool
extends RefCounted
## Editor side of the scene toolset (plugins/scene), shipped with it: godot-mcp installs
## this folder as res://addons/godot_mcp_ext/scene/ when the toolset is enabled, and the
## addon loads it as it loads any toolset's editor code.
##
## Node paths are always relative to the scene root ("." is the root). Every edit is
## applied at once while its do/undo operations are recorded, then registered as ONE
## EditorUndoRedoManager action (commit_action(false)), so godot_undo reverts exactly
## one call. A failing step rolls back what earlier steps did; a dry run applies and
## rolls back in the same frame, so its verdicts are those of the real run and nothing
## is left changed (no node, no undo entry, no unsaved flag).
## See docs/scene.md for the behaviours and limits.
##
## This index wires the command families (one file each, all extending common.gd):
## tree.gd (reading), batch.gd (running edits), nodes.gd, properties.gd, signals.gd
## (the step operations), extract.gd, scenes.gd (scene files and tabs), call.gd
## (editor-side method calls).

const Reading := preload("tree.gd")
const Batch := preload("batch.gd")
const NodeOps := preload("nodes.gd")
const PropertyOps := preload("properties.gd")
const SignalOps := preload("signals.gd")
const Extract := preload("extract.gd")
const Scenes := preload("scenes.gd")
const Call := preload("call.gd")

var _tree: Reading = Reading.new()
var _batch: Batch = Batch.new()
var _nodes: NodeOps = NodeOps.new()
var _props: PropertyOps = PropertyOps.new()
var _signals: SignalOps = SignalOps.new()
var _extract: Extract = Extract.new()
var _scenes: Scenes = Scenes.new()
var _call: Call = Call.new()


func setup(router: RefCounted) -> void:
	var shared: Dictionary = {"prop_lists": {}, "type_cache": {}, "ctx": {}}
	for family: RefCounted in [_tree, _batch, _nodes, _props, _signals, _extract, _scenes, _call]:
		family.call("init_family", router, shared)
	_batch.step_ops = {
		"create_node": _nodes._op_create_node,
		"instantiate": _nodes._op_instantiate,
		"delete_node": _nodes._op_delete_node,
		"duplicate_node": _nodes._op_duplicate_node,
		"rename_node": _nodes._op_rename_node,
		"move_node": _nodes._op_move_node,
		"set_properties": _props._op_set_properties,
		"connect_signal": _signals._op_connect_signal,
		"disconnect_signal": _signals._op_disconnect_signal,
		"set_groups": _props._op_set_groups,
		"set_editable_children": _nodes._op_set_editable_children,
	}
	_scenes.start(router.get("plugin") as EditorPlugin)


func teardown() -> void:
	_scenes.teardown()


func get_commands() -> Dictionary:
	return {
		"cmd_scene_get_tree": {"class": "read_only", "run": _tree.cmd_get_tree},
		"cmd_scene_get_node": {"class": "read_only", "run": _tree.cmd_get_node},
		"cmd_scene_find_nodes": {"class": "read_only", "run": _tree.cmd_find_nodes},
		"cmd_scene_list_open": {"class": "read_only", "run": _scenes.cmd_list_open},
		"cmd_scene_open": {"class": "mutating", "dry_run": true, "run": _scenes.cmd_open},
		"cmd_scene_create": {"class": "mutating", "dry_run": true, "run": _scenes.cmd_create},
		"cmd_scene_save": {"class": "mutating", "dry_run": true, "run": _scenes.cmd_save},
		"cmd_scene_close": {"class": "destructive", "dry_run": true, "run": _scenes.cmd_close},
		"cmd_scene_reload": {"class": "destructive", "dry_run": true, "run": _scenes.cmd_reload},
		"cmd_scene_create_node": {"class": "mutating", "dry_run": true, "run": _step("create_node")},
		"cmd_scene_instantiate": {"class": "mutating", "dry_run": true, "run": _step("instantiate")},
		"cmd_scene_delete_node": {"class": "destructive", "dry_run": true, "run": _step("delete_node")},
		"cmd_scene_duplicate_node": {"class": "mutating", "dry_run": true, "run": _step("duplicate_node")},
		"cmd_scene_rename_node": {"class": "mutating", "dry_run": true, "run": _step("rename_node")},
		"cmd_scene_move_node": {"class": "mutating", "dry_run": true, "run": _step("move_node")},
		"cmd_scene_set_properties": {"class": "mutating", "dry_run": true, "run": _step("set_properties")},
		"cmd_scene_connect_signal": {"class": "mutating", "dry_run": true, "run": _step("connect_signal")},
		"cmd_scene_disconnect_signal": {"class": "mutating", "dry_run": true, "run": _step("disconnect_signal")},
		"cmd_scene_set_groups": {"class": "mutating", "dry_run": true, "run": _step("set_groups")},
		"cmd_scene_set_editable_children": {"class": "mutating", "dry_run": true, "run": _step("set_editable_children")},
		"cmd_scene_select": {"class": "mutating", "dry_run": true, "run": _scenes.cmd_select},
		"cmd_scene_extract_branch": {"class": "mutating", "dry_run": true, "run": _extract.cmd_extract_branch},
		"cmd_scene_batch": {"class": "mutating", "dry_run": true, "run": _batch.cmd_batch},
		"cmd_scene_call_method": {"class": "mutating", "dry_run": true, "run": _call.cmd_call_method},
	}


## One edit tool = a batch of one step.
func _step(tool: String) -> Callable:
	return func(p: Dictionary) -> Dictionary: return _batch._single(tool, p)
