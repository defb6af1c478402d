@tool
extends RefCounted
## The one-undo-action recorder: applies a call's edits at once while recording their
## do/undo operations, then registers them as ONE EditorUndoRedoManager action (so
## godot_undo reverts exactly one call), or rolls everything back.
##
##     const Recorder := preload("res://addons/godot_mcp/lib/undo.gd")
##     var rec: Recorder = Recorder.new()
##     rec.begin()                                   # one step
##     rec.do_set(node, "visible", false)            # applied now
##     rec.undo_set(node, "visible", true)
##     if failed:
##         rec.rollback()                            # undoes everything, frees created nodes
##     else:
##         rec.commit("godot-mcp: hide it", root)    # one entry in the scene's history
##
## Nodes the action creates go in [member created] (freed on rollback) and
## [member do_refs]; nodes it removes go in [member undo_refs] (kept alive for undo).

var steps: Array = [] # [{do: [[obj, name, args, is_property]], undo: [...]}]
var do_refs: Array = [] # objects the do side keeps alive (created nodes)
var undo_refs: Array = [] # objects the undo side keeps alive (removed nodes)
var created: Array = [] # nodes made by this call: freed when it rolls back
var _do: Array = []
var _undo: Array = []


func begin() -> void:
	_do = []
	_undo = []
	steps.append({"do": _do, "undo": _undo})


## Calls obj.method(args) now and records it as a do operation.
func do_call(obj: Object, method: String, args: Array = []) -> void:
	obj.callv(method, args)
	_do.append([obj, method, args, false])


## Sets obj.property = value now and records it as a do operation.
func do_set(obj: Object, property: String, value: Variant) -> void:
	obj.set(property, value)
	_do.append([obj, property, [value], true])


## Records an undo operation (run in the order recorded, last step first).
func undo_call(obj: Object, method: String, args: Array = []) -> void:
	_undo.append([obj, method, args, false])


func undo_set(obj: Object, property: String, value: Variant) -> void:
	_undo.append([obj, property, [value], true])


func has_ops() -> bool:
	for s: Dictionary in steps:
		if not (s["do"] as Array).is_empty():
			return true
	return false


## Undoes everything done so far (last step first) and frees created nodes.
func rollback() -> void:
	for i: int in range(steps.size() - 1, -1, -1):
		for op: Array in steps[i]["undo"]:
			_run(op)
	for n: Variant in created:
		if is_instance_valid(n) and (n as Node).get_parent() == null:
			(n as Node).free()
	steps.clear()
	created.clear()


static func _run(op: Array) -> void:
	var obj: Object = op[0]
	if not is_instance_valid(obj):
		return
	if op[3]:
		obj.set(op[1], (op[2] as Array)[0])
	else:
		obj.callv(op[1], op[2])


## Registers what was done as one action in the scene's history, without
## running it again.
func commit(action_name: String, context: Node) -> void:
	var mgr: EditorUndoRedoManager = EditorInterface.get_editor_undo_redo()
	mgr.create_action(action_name, UndoRedo.MERGE_DISABLE, context)
	mgr.force_fixed_history()
	for s: Dictionary in steps:
		for op: Array in s["do"]:
			_add(mgr, true, op)
	for i: int in range(steps.size() - 1, -1, -1):
		for op: Array in steps[i]["undo"]:
			_add(mgr, false, op)
	for o: Object in do_refs:
		if is_instance_valid(o):
			mgr.add_do_reference(o)
	for o: Object in undo_refs:
		if is_instance_valid(o):
			mgr.add_undo_reference(o)
	mgr.commit_action(false)
	# The editor refreshes the scene tab's unsaved mark "(*)" on its next frame, and
	# a command handled before that would see the scene as saved; marking it now
	# updates the tab at once. (Undoing back to the saved state then still shows the
	# scene as unsaved, which errs on the safe side.)
	EditorInterface.mark_scene_as_unsaved()


static func _add(mgr: EditorUndoRedoManager, doing: bool, op: Array) -> void:
	var obj: Object = op[0]
	if not is_instance_valid(obj):
		return
	if op[3]:
		if doing:
			mgr.add_do_property(obj, op[1], (op[2] as Array)[0])
		else:
			mgr.add_undo_property(obj, op[1], (op[2] as Array)[0])
		return
	var args: Array = [obj, StringName(op[1])]
	args.append_array(op[2])
	mgr.callv("add_do_method" if doing else "add_undo_method", args)
