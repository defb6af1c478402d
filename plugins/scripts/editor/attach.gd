@tool
extends "common.gd"
## cmd_scripts_attach, cmd_scripts_detach: a script on a node of the edited scene, one
## undo action (with the file it creates, when it creates one).


## {node, script, source?, dry_run} -> {node, node_type, script, class_name, previous_script,
## created, scene, scene_dirty, persisted, reason, undoable, undo_history, errors, ready, written,
## removed}. persisted: the scene's next save keeps the change (Nodes.persist_info); reason
## says why not when false.
func attach(params: Dictionary) -> Dictionary:
	var sr: Dictionary = _scene_root()
	if not sr["ok"]:
		return sr["failure"]
	var root: Node = sr["root"]
	var nr: Dictionary = _node(root, params.get("node"))
	if not nr["ok"]:
		return nr["failure"]
	var node: Node = nr["node"]
	var ref: Variant = params.get("script")
	var dry_run: Variant = Params.boolean(params, "dry_run", false)
	var source: Variant = params.get("source")
	if typeof(ref) != TYPE_STRING or dry_run == null or (source != null and typeof(source) != TYPE_STRING):
		return _router.fail("VALIDATION_ERROR", "Expected {node, script: res:// path or class_name, source?: string, dry_run: bool}.")
	var sp: Dictionary = _script_path((ref as String).strip_edges())
	if not sp["ok"]:
		return sp["failure"]
	var p: String = sp["path"]
	var create: bool = not FileAccess.file_exists(p)
	if create and source == null:
		return Files.not_found(p, "script")
	if create and _in_addon(p):
		return _router.fail("VALIDATION_ERROR", "'%s' is inside the godot-mcp addon." % p)
	if create and (source as String) == "":
		source = "extends %s\n\n\nfunc _ready() -> void:\n\tpass\n" % node.get_class()
	var item: Dictionary = {"path": p}
	if create:
		item["source"] = source
	var chk: Dictionary = await _checker.check([item], true, DEFAULT_CHECK_MS)
	if not chk["ok"]:
		return chk["failure"]
	var r: Dictionary = chk["results"][0]
	if not r["valid"]:
		var lines: PackedStringArray = []
		for e: Dictionary in (r["errors"] as Array).slice(0, 5):
			lines.append("%s:%d: %s" % [e["path"], e["line"], e["message"]])
		return _router.fail("VALIDATION_ERROR", "'%s' does not compile, so it was not attached: %s. Fix it first (godot_scripts_patch), then attach." % [p, "; ".join(lines)])
	var base: String = str((r.get("symbols", {}) as Dictionary).get("extends", ""))
	if base != "" and not node.is_class(base):
		return _router.fail("VALIDATION_ERROR", "'%s' extends %s, but '%s' is a %s; attach it to a %s (or a node inheriting it), or change the script's extends." % [p, base, nr["path"], node.get_class(), base])
	var old: Variant = node.get_script()
	var old_path: String = (old as Script).resource_path if old is Script else ""
	var out: Dictionary = {
		"node": nr["path"], "node_type": node.get_class(), "script": p, "class_name": r["class_name"],
		"previous_script": old_path, "created": create, "scene": root.scene_file_path, "errors": [],
		"ready": true, "written": [], "removed": [],
	}
	if dry_run:
		out["scene_dirty"] = false
		out["persisted"] = false
		out["reason"] = "dry run: nothing changed"
		out["undoable"] = false
		return _router.ok(out)
	var file_do: Array = []
	var file_undo: Array = []
	if create:
		var data: PackedByteArray = (source as String).to_utf8_buffer()
		var res: Dictionary = Files.commit("", [{"op": "write", "path": p, "data": data}], [], false)
		if not res.get("ok", false):
			return _router.fail("INTERNAL_ERROR", "Writing %s failed: %s." % [p, res.get("error", "")])
		file_do.append({"op": "write", "path": p, "data": data})
		file_undo.append({"op": "delete", "path": p})
		if FileAccess.file_exists(p + ".uid"):
			file_do.append({"op": "write", "path": p + ".uid", "data": FileAccess.get_file_as_bytes(p + ".uid")})
			file_undo.append({"op": "delete", "path": p + ".uid"})
		out["written"] = [p]
	var scr: Script = ResourceLoader.load(p, "Script") as Script
	if scr == null:
		return _router.fail("INTERNAL_ERROR", "'%s' did not load as a script in the editor." % p)
	var ur: EditorUndoRedoManager = EditorInterface.get_editor_undo_redo()
	ur.create_action("godot-mcp: attach %s to %s" % [p.get_file(), nr["path"]], UndoRedo.MERGE_DISABLE, root)
	if not file_do.is_empty():
		ur.add_do_method(Files.applier(), "apply", file_do)
	ur.add_do_property(node, "script", scr)
	ur.add_undo_property(node, "script", old)
	if not file_undo.is_empty():
		ur.add_undo_method(Files.applier(), "apply", file_undo)
	ur.commit_action(true)
	if create:
		out["ready"] = await _wait_ready(PackedStringArray([p]), PackedStringArray(), EDITOR_WAIT_MS)
		out["class_name"] = _class_name_of(p) if _class_name_of(p) != "" else r["class_name"]
	out["scene_dirty"] = true
	out.merge(Nodes.persist_info(root, node), true)
	out["undoable"] = true
	out["undo_history"] = "scene"
	return _router.ok(out)


## {node, dry_run} -> {node, node_type, detached, previous_script, scene, scene_dirty,
## persisted, undoable, undo_history}
func detach(params: Dictionary) -> Dictionary:
	var sr: Dictionary = _scene_root()
	if not sr["ok"]:
		return sr["failure"]
	var root: Node = sr["root"]
	var nr: Dictionary = _node(root, params.get("node"))
	if not nr["ok"]:
		return nr["failure"]
	var dry_run: Variant = Params.boolean(params, "dry_run", false)
	if dry_run == null:
		return _router.fail("VALIDATION_ERROR", "dry_run must be true or false.")
	var node: Node = nr["node"]
	var old: Variant = node.get_script()
	var out: Dictionary = {"node": nr["path"], "node_type": node.get_class(), "scene": root.scene_file_path, "detached": false, "previous_script": "", "scene_dirty": false, "persisted": false, "reason": "the node has no script: nothing changed", "undoable": false}
	if old == null:
		return _router.ok(out)
	out["previous_script"] = (old as Script).resource_path
	out["detached"] = not dry_run
	if dry_run:
		out["reason"] = "dry run: nothing changed"
		return _router.ok(out)
	# Keep the script's variable values so that undo restores them with the script.
	var saved: Dictionary = {}
	for info: Dictionary in node.get_property_list():
		var usage: int = int(info.get("usage", 0))
		if (usage & PROPERTY_USAGE_SCRIPT_VARIABLE) != 0 and (usage & PROPERTY_USAGE_STORAGE) != 0:
			saved[str(info["name"])] = node.get(str(info["name"]))
	var ur: EditorUndoRedoManager = EditorInterface.get_editor_undo_redo()
	ur.create_action("godot-mcp: detach the script of %s" % nr["path"], UndoRedo.MERGE_DISABLE, root)
	ur.add_do_property(node, "script", null)
	ur.add_undo_property(node, "script", old)
	for k: Variant in saved.keys():
		ur.add_undo_property(node, str(k), saved[k])
	ur.commit_action(true)
	out["scene_dirty"] = true
	out.merge(Nodes.persist_info(root, node), true)
	out["undoable"] = true
	out["undo_history"] = "scene"
	return _router.ok(out)
