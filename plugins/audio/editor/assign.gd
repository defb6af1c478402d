@tool
extends RefCounted
## Assigning an audio bus to AudioStreamPlayer / AudioStreamPlayer2D / AudioStreamPlayer3D
## nodes of the edited scene: the bus is checked against the layout in effect; all
## nodes change in ONE undo action of the scene's history.

const Common := preload("common.gd")
const Nodes := preload("res://addons/godot_mcp/lib/nodes.gd")
const MAX_NODES: int = 500

var c: Common = null


func _init(common: Common) -> void:
	c = common


static func is_player(n: Node) -> bool:
	return n is AudioStreamPlayer or n is AudioStreamPlayer2D or n is AudioStreamPlayer3D


static func _players(root: Node, n: Node, out: PackedStringArray) -> void:
	if is_player(n):
		out.append(Nodes.rel(root, n))
	for ch: Node in n.get_children():
		_players(root, ch, out)


## {nodes: [path...], bus, dry_run} -> {bus, nodes: [{node, class, previous}], changed, persisted, reason, undoable, dry_run}
func assign(params: Dictionary) -> Dictionary:
	var root: Node = EditorInterface.get_edited_scene_root()
	if root == null:
		return c.fail("PRECONDITION_FAILED", "No scene is open in the editor. Open one with godot_scene_open, then retry.", "active_scene")
	var bus: String = str(params.get("bus", ""))
	if AudioServer.get_bus_index(bus) < 0:
		var names: PackedStringArray = []
		for i: int in AudioServer.bus_count:
			names.append(str(AudioServer.get_bus_name(i)))
		return c.fail("RESOURCE_NOT_FOUND", "No audio bus named '%s'.%s Buses: %s. Add one with godot_audio_edit_buses {ops: [{op: \"add_bus\", name: \"%s\"}]}." % [bus, Common.did_you_mean(bus, names), ", ".join(names), bus])
	var paths_v: Variant = params.get("nodes", [])
	if typeof(paths_v) != TYPE_ARRAY or (paths_v as Array).is_empty() or (paths_v as Array).size() > MAX_NODES:
		return c.fail("VALIDATION_ERROR", "nodes must list 1..%d node paths (relative to the scene root)." % MAX_NODES)
	var targets: Array[Node] = []
	var rows: Array = []
	var reasons: PackedStringArray = []
	for p: Variant in paths_v:
		var path: String = str(p)
		var n: Node = Nodes.resolve(root, path)
		if n == null:
			var nf: Dictionary = Nodes.not_found(root, path)
			return c.fail(str(nf["error"]), str(nf["hint"]))
		if not is_player(n):
			var players: PackedStringArray = []
			_players(root, root, players)
			return c.fail("VALIDATION_ERROR", "'%s' is a %s, not an AudioStreamPlayer, AudioStreamPlayer2D or AudioStreamPlayer3D. Players in the scene: %s." % [path, n.get_class(), Nodes.short_list(players)])
		if targets.has(n):
			continue
		if not (n == root or n.owner == root or (n.owner != null and root.is_editable_instance(n.owner))):
			reasons.append("'%s' belongs to an instanced scene without Editable Children (edit that scene instead)" % Nodes.rel(root, n))
		targets.append(n)
		rows.append({"node": Nodes.rel(root, n), "class": n.get_class(), "previous": str(n.get("bus"))})
	var changed: int = 0
	for n2: Node in targets:
		if str(n2.get("bus")) != bus:
			changed += 1
	var dry: bool = bool(params.get("dry_run", false))
	var result: Dictionary = {"bus": bus, "nodes": rows, "changed": changed, "dry_run": dry, "undoable": false,
		"persisted": false, "reason": "; ".join(reasons)}
	if dry:
		if result["reason"] == "":
			result["reason"] = "dry run: nothing was changed"
		return c.ok(result)
	if changed == 0:
		result["persisted"] = reasons.is_empty()
		return c.ok(result)
	var mgr: EditorUndoRedoManager = EditorInterface.get_editor_undo_redo()
	mgr.create_action("godot-mcp: assign audio bus %s" % bus, UndoRedo.MERGE_DISABLE, root)
	for n3: Node in targets:
		mgr.add_do_property(n3, "bus", StringName(bus))
		mgr.add_undo_property(n3, "bus", n3.get("bus"))
	mgr.commit_action()
	result["undoable"] = true
	result["persisted"] = reasons.is_empty()
	return c.ok(result)
