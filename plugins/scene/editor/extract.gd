@tool
extends "common.gd"
## cmd_scene_extract_branch: saves a branch as its own scene and instances it back.


## {node, path, replace?, dry_run?} -> {path, node, replaced, instance, node_count,
## dropped_connections, file_written, persisted, reason, undoable, dry_run}
func cmd_extract_branch(params: Dictionary) -> Dictionary:
	var root: Node = EditorInterface.get_edited_scene_root()
	if root == null:
		return _no_scene()
	var dry: Variant = Params.boolean(params, "dry_run", false)
	var replace: Variant = Params.boolean(params, "replace", true)
	if dry == null or replace == null:
		return _bad("dry_run and replace must be true or false.")
	var nr: Dictionary = Nodes.param(root, params, "node")
	if not nr.get("ok", false):
		return nr["failure"]
	var node: Node = nr["node"]
	if node == root:
		return _bad("The root is the whole scene; save it under another name with godot_scene_save {path} instead of extracting it.")
	var refusal: Dictionary = _foreign_refusal(root, node, "extracted")
	if not refusal.is_empty():
		return refusal
	var pv: Variant = Params.string(params, "path")
	if pv == null or not _is_scene_path(pv as String):
		return _bad("path is required: the res:// path of the new scene file, ending in .tscn or .scn (e.g. \"res://enemy.tscn\").")
	var path: String = pv
	var outside: Dictionary = _outside("path", path)
	if not outside.is_empty():
		return outside
	if FileAccess.file_exists(path) or ResourceLoader.exists(path):
		return _bad("'%s' already exists; extract_branch never overwrites a file. Choose another path." % path)
	# The branch: nodes the scene owns, and connections that cross its border (lost).
	var members: Dictionary = {}
	var stack: Array[Node] = [node]
	while not stack.is_empty():
		var x: Node = stack.pop_back()
		members[x] = true
		for c: Node in x.get_children():
			stack.append(c)
	var owned: int = 0
	var dropped: Array = []
	for x: Variant in members.keys():
		var xn: Node = x
		if xn.owner == root or xn == node:
			owned += 1
		for s: Dictionary in xn.get_signal_list():
			for c: Dictionary in xn.get_signal_connection_list(str(s["name"])):
				if int(c["flags"]) & CONNECT_PERSIST == 0:
					continue
				var t: Object = (c["callable"] as Callable).get_object()
				if t is Node and not members.has(t) and (t == root or root.is_ancestor_of(t as Node)):
					dropped.append({"source": Nodes.rel(root, xn), "signal": str(s["name"]), "target": Nodes.rel(root, t as Node), "method": str((c["callable"] as Callable).get_method())})
		for c2: Dictionary in xn.get_incoming_connections():
			if int(c2["flags"]) & CONNECT_PERSIST == 0:
				continue
			var sg: Signal = c2["signal"]
			var src: Object = sg.get_object()
			if src is Node and not members.has(src) and (src == root or root.is_ancestor_of(src as Node)):
				dropped.append({"source": Nodes.rel(root, src as Node), "signal": str(sg.get_name()), "target": Nodes.rel(root, xn), "method": str((c2["callable"] as Callable).get_method())})
	var node_path: String = Nodes.rel(root, node)
	var result: Dictionary = {
		"path": path, "node": node_path, "replaced": bool(replace), "instance": node_path if replace else "",
		"node_count": owned, "dropped_connections": dropped, "file_written": not dry,
		"persisted": true, "reason": "", "undoable": bool(replace), "dry_run": dry,
	}
	if dry:
		return _router.ok(result)
	var dir: String = path.get_base_dir()
	if not DirAccess.dir_exists_absolute(dir):
		var derr: Error = DirAccess.make_dir_recursive_absolute(dir)
		if derr != OK:
			return _router.fail("INTERNAL_ERROR", "Could not create the folder '%s' (%s)." % [dir, error_string(derr)])
	var copy: Node = node.duplicate(DUPLICATE_FLAGS)
	var ostack: Array[Node] = [node]
	while not ostack.is_empty():
		var o: Node = ostack.pop_back()
		if o != node and o.owner == root:
			var d: Node = copy.get_node_or_null(node.get_path_to(o))
			if d != null:
				d.owner = copy
				if root.is_editable_instance(o):
					copy.set_editable_instance(d, true)
		for c3: Node in o.get_children():
			ostack.append(c3)
	var packed: PackedScene = PackedScene.new()
	var perr: Error = packed.pack(copy)
	copy.free()
	if perr != OK:
		return _router.fail("INTERNAL_ERROR", "The branch '%s' could not be packed into a scene (%s)." % [node_path, error_string(perr)])
	var serr: Error = ResourceSaver.save(packed, path)
	if serr != OK:
		return _router.fail("INTERNAL_ERROR", "Could not write '%s' (%s)." % [path, error_string(serr)])
	EditorInterface.get_resource_filesystem().update_file(path)
	if not replace:
		result["undoable"] = false
		return _router.ok(result)
	var loaded: PackedScene = ResourceLoader.load(path, "PackedScene", ResourceLoader.CACHE_MODE_REPLACE) as PackedScene
	var inst: Node = loaded.instantiate(PackedScene.GEN_EDIT_STATE_INSTANCE) if loaded != null else null
	if inst == null:
		result["replaced"] = false
		result["instance"] = ""
		result["undoable"] = false
		result["reason"] = "The file was written but could not be instanced back, so the branch was left in place."
		return _router.ok(result)
	inst.scene_file_path = path
	inst.name = node.name
	inst.unique_name_in_owner = node.unique_name_in_owner
	var parent: Node = node.get_parent()
	var idx: int = node.get_index()
	var owners: Array = _owners_to_restore(node)
	var rec: Recorder = Recorder.new()
	rec.begin()
	rec.do_refs.append(inst)
	rec.undo_refs.append(node)
	rec.do_call(parent, "remove_child", [node])
	rec.do_call(parent, "add_child", [inst, true])
	rec.do_call(parent, "move_child", [inst, idx])
	rec.do_call(inst, "set_owner", [root])
	rec.undo_call(parent, "remove_child", [inst])
	rec.undo_call(parent, "add_child", [node])
	rec.undo_call(parent, "move_child", [node, idx])
	for pair: Array in owners:
		rec.undo_call(pair[0], "set_owner", [pair[1]])
	rec.commit(ACTION_PREFIX + "extract '%s' to %s" % [node_path, path.get_file()], root)
	result["instance"] = Nodes.rel(root, inst)
	return _router.ok(result)
