@tool
extends "common.gd"
## Step operations on nodes: create, instantiate, delete, duplicate, rename, move.
## Each is (root, params, recorder) -> ok({..., _label}) or fail(...).


func _op_create_node(root: Node, p: Dictionary, rec: Recorder) -> Dictionary:
	var tv: Variant = Params.string(p, "type")
	if tv == null:
		return _bad("type must be a string, e.g. \"Node2D\".")
	var tinfo: Dictionary = _node_type(tv as String)
	if not tinfo.get("ok", false):
		return tinfo["failure"]
	var pr: Dictionary = Nodes.param(root, p, "parent", ".", false)
	if not pr.get("ok", false):
		return pr["failure"]
	var parent: Node = pr["node"]
	var scr: Variant = tinfo["script"]
	var sv: Variant = Params.string(p, "script")
	if sv == null:
		return _bad("script must be a res:// path string.")
	if (sv as String) != "":
		var loaded: Dictionary = _load_script(sv as String, tinfo["type"] as String)
		if not loaded.get("ok", false):
			return loaded["failure"]
		scr = loaded["script"]
	var default_name: String = (tv as String).strip_edges()
	var nv: Variant = Params.string(p, "name")
	if nv == null:
		return _bad("name must be a string.")
	var name: String = nv
	if name == "":
		name = _free_name(parent, default_name.validate_node_name())
	else:
		var problem: String = _name_problem(name)
		if problem != "":
			return _bad("name: %s." % problem)
		if _has_child_named(parent, name):
			return _bad("'%s' already has a child named '%s'. Choose another name (for example '%s'), or omit name to get a free one." % [Nodes.rel(root, parent), name, _free_name(parent, name)])
	var idx: Variant = Params.integer(p, "index", -1)
	if idx == null or int(idx) < -1 or int(idx) > parent.get_child_count():
		return _bad("index must be an integer from 0 to %d (the position among the parent's children), or -1 for the end." % parent.get_child_count())
	var node: Node = ClassDB.instantiate(tinfo["type"]) as Node
	if node == null:
		return _router.fail("INTERNAL_ERROR", "The editor could not create a %s." % tinfo["type"])
	node.name = name
	if scr != null:
		node.set_script(scr)
	# Decode against the new node before it joins the scene, so a bad value changes nothing.
	var props: Dictionary = _decode_properties(root, node, p.get("properties"))
	if not props.get("ok", false):
		node.free()
		return props["failure"]
	rec.created.append(node)
	rec.do_refs.append(node)
	rec.do_call(parent, "add_child", [node, true])
	rec.do_call(node, "set_owner", [root])
	if int(idx) >= 0:
		rec.do_call(parent, "move_child", [node, int(idx)])
	rec.undo_call(parent, "remove_child", [node])
	var applied: Dictionary = {}
	var values: Dictionary = props["values"]
	for k: String in values.keys():
		# A new node keeps its properties while undone (out of the tree), so setting
		# them needs no undo operation of its own.
		node.set(k, values[k])
		applied[k] = node.get(k)
	var persist: Dictionary = _persist_info(root, parent)
	var si: Dictionary = _script_info(node)
	return _router.ok({
		"_label": "create %s '%s'" % [tinfo["type"], name],
		"path": Nodes.rel(root, node), "name": str(node.name), "type": node.get_class(),
		"script": si["script"], "script_class": si["script_class"],
		"parent": Nodes.rel(root, parent), "index": node.get_index(), "properties": applied,
		"persisted": persist["persisted"], "reason": persist["reason"],
	})


func _load_script(path: String, node_type: String) -> Dictionary:
	if not path.begins_with("res://"):
		return {"ok": false, "failure": _bad("script must be a res:// path, e.g. \"res://player.gd\".")}
	var out: Dictionary = _outside("script", path)
	if not out.is_empty():
		return {"ok": false, "failure": out}
	if not ResourceLoader.exists(path):
		return {"ok": false, "failure": _router.fail("RESOURCE_NOT_FOUND", "No script at '%s'. Create it with godot_scripts_write first, or check the path with godot_resources_list." % path)}
	var s: Script = load(path) as Script
	if s == null:
		return {"ok": false, "failure": _bad("'%s' is not a script." % path)}
	var base: String = str(s.get_instance_base_type())
	if base == "":
		return {"ok": false, "failure": _bad("The script '%s' has errors; fix it first (godot_scripts_validate)." % path)}
	if not ClassDB.is_parent_class(node_type, base):
		return {"ok": false, "failure": _bad("The script '%s' extends %s, which a %s is not; use a node type that is a %s." % [path, base, node_type, base])}
	return {"ok": true, "script": s}


func _op_instantiate(root: Node, p: Dictionary, rec: Recorder) -> Dictionary:
	var sv: Variant = Params.string(p, "scene")
	if sv == null or (sv as String) == "":
		return _bad("scene is required: the res:// path of a scene file, e.g. \"res://enemy.tscn\".")
	var path: String = sv
	var outside: Dictionary = _outside("scene", path)
	if not outside.is_empty():
		return outside
	if not ResourceLoader.exists(path):
		return _scene_file_not_found(path)
	if path == root.scene_file_path or _depends_on(path, root.scene_file_path):
		return _bad("'%s' cannot be instanced into '%s': it would contain itself." % [path, Nodes.scene_label(root)])
	var packed: PackedScene = load(path) as PackedScene
	if packed == null:
		return _bad("'%s' is not a scene (PackedScene)." % path)
	var pr: Dictionary = Nodes.param(root, p, "parent", ".", false)
	if not pr.get("ok", false):
		return pr["failure"]
	var parent: Node = pr["node"]
	var nv: Variant = Params.string(p, "name")
	if nv == null:
		return _bad("name must be a string.")
	var name: String = nv
	if name != "":
		var problem: String = _name_problem(name)
		if problem != "":
			return _bad("name: %s." % problem)
		if _has_child_named(parent, name):
			return _bad("'%s' already has a child named '%s'. Choose another name (for example '%s'), or omit name to get a free one." % [Nodes.rel(root, parent), name, _free_name(parent, name)])
	var idx: Variant = Params.integer(p, "index", -1)
	if idx == null or int(idx) < -1 or int(idx) > parent.get_child_count():
		return _bad("index must be an integer from 0 to %d (the position among the parent's children), or -1 for the end." % parent.get_child_count())
	var editable: Variant = Params.boolean(p, "editable_children", false)
	if editable == null:
		return _bad("editable_children must be true or false.")
	var inst: Node = packed.instantiate(PackedScene.GEN_EDIT_STATE_INSTANCE)
	if inst == null:
		return _router.fail("INTERNAL_ERROR", "The scene '%s' could not be instantiated (is it broken? open it to see the error)." % path)
	inst.scene_file_path = path
	if name == "":
		name = _free_name(parent, str(inst.name))
	inst.name = name
	var props: Dictionary = _decode_properties(root, inst, p.get("properties"))
	if not props.get("ok", false):
		inst.free()
		return props["failure"]
	rec.created.append(inst)
	rec.do_refs.append(inst)
	rec.do_call(parent, "add_child", [inst, true])
	rec.do_call(inst, "set_owner", [root])
	if int(idx) >= 0:
		rec.do_call(parent, "move_child", [inst, int(idx)])
	if editable:
		rec.do_call(root, "set_editable_instance", [inst, true])
		rec.undo_call(root, "set_editable_instance", [inst, false])
	rec.undo_call(parent, "remove_child", [inst])
	var applied: Dictionary = {}
	var values: Dictionary = props["values"]
	for k: String in values.keys():
		# A new node keeps its properties while undone (out of the tree), so setting
		# them needs no undo operation of its own.
		inst.set(k, values[k])
		applied[k] = inst.get(k)
	var persist: Dictionary = _persist_info(root, parent)
	return _router.ok({
		"_label": "instantiate '%s' as '%s'" % [path.get_file(), name],
		"path": Nodes.rel(root, inst), "name": str(inst.name), "scene": path, "type": inst.get_class(),
		"parent": Nodes.rel(root, parent), "index": inst.get_index(), "editable_children": editable,
		"properties": applied, "persisted": persist["persisted"], "reason": persist["reason"],
	})


## {node, enabled?: true} -> {path, scene, editable_children, changed, persisted, reason}:
## Editable Children of an instanced scene (the Scene dock's checkbox), so that edits
## of the nodes inside it are saved with this scene. Turning it off drops those edits
## at the next save, as in the editor.
func _op_set_editable_children(root: Node, p: Dictionary, rec: Recorder) -> Dictionary:
	var nr: Dictionary = Nodes.param(root, p, "node")
	if not nr.get("ok", false):
		return nr["failure"]
	var n: Node = nr["node"]
	var enabled: Variant = Params.boolean(p, "enabled", true)
	if enabled == null:
		return _bad("enabled must be true or false.")
	if n == root or n.scene_file_path == "":
		return _bad("'%s' is not an instanced scene: Editable Children belongs to a node instanced from a scene file (godot_scene_instantiate). Nodes of this scene are saved with it already." % Nodes.rel(root, n))
	var outer: Dictionary = _persist_info(root, n)
	if not outer["persisted"]:
		return _bad("'%s' cannot be made editable here: %s" % [Nodes.rel(root, n), outer["reason"]])
	var was: bool = root.is_editable_instance(n)
	if was != enabled:
		rec.do_call(root, "set_editable_instance", [n, enabled])
		rec.undo_call(root, "set_editable_instance", [n, was])
		# The Scene dock lists an instance's nodes by this flag: refresh it.
		rec.do_call(root.get_tree(), "emit_signal", [&"tree_changed"])
		rec.undo_call(root.get_tree(), "emit_signal", [&"tree_changed"])
	return _router.ok({
		"_label": "%s Editable Children of '%s'" % ["enable" if enabled else "disable", Nodes.rel(root, n)],
		"path": Nodes.rel(root, n), "scene": n.scene_file_path, "editable_children": enabled, "changed": was != enabled,
		"persisted": true, "reason": "",
	})


## True when the scene at [param path] depends (directly or not) on [param target].
func _depends_on(path: String, target: String) -> bool:
	if target == "":
		return false
	var seen: Dictionary = {}
	var todo: PackedStringArray = [path]
	while not todo.is_empty():
		var cur: String = todo[todo.size() - 1]
		todo.remove_at(todo.size() - 1)
		if seen.has(cur):
			continue
		seen[cur] = true
		for dep: String in ResourceLoader.get_dependencies(cur):
			var d: String = dep.get_slice("::", dep.get_slice_count("::") - 1) if dep.contains("::") else dep
			if d.begins_with("uid://"):
				var id: int = ResourceUID.text_to_id(d)
				if ResourceUID.has_id(id):
					d = ResourceUID.get_id_path(id)
			if d == target:
				return true
			if d.get_extension() in ["tscn", "scn"]:
				todo.append(d)
	return false


func _op_delete_node(root: Node, p: Dictionary, rec: Recorder) -> Dictionary:
	var nr: Dictionary = Nodes.param(root, p, "node")
	if not nr.get("ok", false):
		return nr["failure"]
	var node: Node = nr["node"]
	if node == root:
		return _bad("The scene root '%s' cannot be deleted. Delete its children instead, or make another scene with godot_scene_create." % root.name)
	var refusal: Dictionary = _foreign_refusal(root, node, "deleted")
	if not refusal.is_empty():
		return refusal
	var parent: Node = node.get_parent()
	var path: String = Nodes.rel(root, node)
	var idx: int = node.get_index()
	var owners: Array = _owners_to_restore(node)
	var count: int = _count_descendants(node)
	var persist: Dictionary = _persist_info(root, node)
	rec.undo_refs.append(node)
	rec.do_call(parent, "remove_child", [node])
	rec.undo_call(parent, "add_child", [node])
	rec.undo_call(parent, "move_child", [node, idx])
	for pair: Array in owners:
		rec.undo_call(pair[0], "set_owner", [pair[1]])
	return _router.ok({
		"_label": "delete '%s'" % path,
		"path": path, "type": node.get_class(), "deleted": true, "descendants": count,
		"persisted": persist["persisted"], "reason": persist["reason"],
	})


func _op_duplicate_node(root: Node, p: Dictionary, rec: Recorder) -> Dictionary:
	var nr: Dictionary = Nodes.param(root, p, "node")
	if not nr.get("ok", false):
		return nr["failure"]
	var node: Node = nr["node"]
	if node == root:
		return _bad("The scene root cannot be duplicated; duplicate its children, or save the scene under another name with godot_scene_save {path}.")
	var refusal: Dictionary = _foreign_refusal(root, node, "duplicated")
	if not refusal.is_empty():
		return refusal
	var parent: Node = node.get_parent()
	var pv: Variant = Params.string(p, "parent")
	if pv == null:
		return _bad("parent must be a string: a node path relative to the scene root.")
	if (pv as String) != "":
		var pr: Dictionary = Nodes.param(root, p, "parent")
		if not pr.get("ok", false):
			return pr["failure"]
		parent = pr["node"]
		if parent == node or node.is_ancestor_of(parent):
			return _bad("'%s' cannot be duplicated into itself or its own descendant '%s'." % [Nodes.rel(root, node), Nodes.rel(root, parent)])
	var nv: Variant = Params.string(p, "name")
	if nv == null:
		return _bad("name must be a string.")
	var name: String = nv
	if name == "":
		name = _free_name(parent, str(node.name))
	else:
		var problem: String = _name_problem(name)
		if problem != "":
			return _bad("name: %s." % problem)
		if _has_child_named(parent, name):
			return _bad("'%s' already has a child named '%s'. Choose another name (for example '%s'), or omit name to get a free one." % [Nodes.rel(root, parent), name, _free_name(parent, name)])
	var dup: Node = node.duplicate(DUPLICATE_FLAGS)
	if dup == null:
		return _router.fail("INTERNAL_ERROR", "The editor could not duplicate '%s'." % Nodes.rel(root, node))
	dup.name = name
	# Pair each node of the copy with its original, to give the copy the same owners.
	var pairs: Array = []
	var stack: Array[Node] = [node]
	while not stack.is_empty():
		var o: Node = stack.pop_back()
		var d: Node = dup if o == node else dup.get_node_or_null(node.get_path_to(o))
		if d != null and o.owner == root:
			pairs.append([d, o])
		for c: Node in o.get_children():
			stack.append(c)
	rec.created.append(dup)
	rec.do_refs.append(dup)
	rec.do_call(parent, "add_child", [dup, true])
	for pair: Array in pairs:
		var d2: Node = pair[0]
		var o2: Node = pair[1]
		if d2.unique_name_in_owner:
			rec.do_set(d2, "unique_name_in_owner", false) # two %Names in one scene would clash
		rec.do_call(d2, "set_owner", [root])
		if root.is_editable_instance(o2):
			rec.do_call(root, "set_editable_instance", [d2, true])
			rec.undo_call(root, "set_editable_instance", [d2, false])
	if parent == node.get_parent():
		rec.do_call(parent, "move_child", [dup, node.get_index() + 1])
	rec.undo_call(parent, "remove_child", [dup])
	var persist: Dictionary = _persist_info(root, parent)
	return _router.ok({
		"_label": "duplicate '%s'" % Nodes.rel(root, node),
		"source": Nodes.rel(root, node), "path": Nodes.rel(root, dup), "name": str(dup.name),
		"parent": Nodes.rel(root, parent), "descendants": _count_descendants(dup),
		"persisted": persist["persisted"], "reason": persist["reason"],
	})


func _op_rename_node(root: Node, p: Dictionary, rec: Recorder) -> Dictionary:
	var nr: Dictionary = Nodes.param(root, p, "node")
	if not nr.get("ok", false):
		return nr["failure"]
	var node: Node = nr["node"]
	var nv: Variant = Params.string(p, "name")
	if nv == null or (nv as String) == "":
		return _bad("name is required: the new node name.")
	var name: String = nv
	var problem: String = _name_problem(name)
	if problem != "":
		return _bad("name: %s." % problem)
	var refusal: Dictionary = _foreign_refusal(root, node, "renamed")
	if not refusal.is_empty():
		return refusal
	var old_path: String = Nodes.rel(root, node)
	var old_name: String = str(node.name)
	var parent: Node = node.get_parent()
	if node != root and name != old_name and _has_child_named(parent, name, node):
		return _bad("'%s' already has a child named '%s'. Choose another name (for example '%s')." % [Nodes.rel(root, parent), name, _free_name(parent, name, node)])
	if name != old_name:
		rec.do_call(node, "set_name", [name])
		rec.undo_call(node, "set_name", [old_name])
	var persist: Dictionary = _persist_info(root, node)
	return _router.ok({
		"_label": "rename '%s' to '%s'" % [old_path, name],
		"old_path": old_path, "path": Nodes.rel(root, node), "old_name": old_name, "name": str(node.name),
		"persisted": persist["persisted"], "reason": persist["reason"],
	})


func _op_move_node(root: Node, p: Dictionary, rec: Recorder) -> Dictionary:
	var nr: Dictionary = Nodes.param(root, p, "node")
	if not nr.get("ok", false):
		return nr["failure"]
	var node: Node = nr["node"]
	if node == root:
		return _bad("The scene root cannot be moved. To make another node the root, create a new scene (godot_scene_create) or extract a branch (godot_scene_extract_branch).")
	var refusal: Dictionary = _foreign_refusal(root, node, "moved")
	if not refusal.is_empty():
		return refusal
	var old_parent: Node = node.get_parent()
	var new_parent: Node = old_parent
	var pv: Variant = Params.string(p, "new_parent")
	if pv == null:
		return _bad("new_parent must be a string: a node path relative to the scene root.")
	if (pv as String) != "":
		var pr: Dictionary = Nodes.param(root, p, "new_parent")
		if not pr.get("ok", false):
			return pr["failure"]
		new_parent = pr["node"]
	if new_parent == node or node.is_ancestor_of(new_parent):
		return _bad("'%s' cannot be moved into itself or its own descendant '%s'. Pick a new_parent outside its branch." % [Nodes.rel(root, node), Nodes.rel(root, new_parent)])
	var np_persist: Dictionary = _persist_info(root, new_parent)
	if new_parent != old_parent and not np_persist["persisted"]:
		return _bad("'%s' cannot take new children that would be saved: %s" % [Nodes.rel(root, new_parent), np_persist["reason"]])
	var reparenting: bool = new_parent != old_parent
	if reparenting and _has_child_named(new_parent, str(node.name)):
		return _bad("'%s' already has a child named '%s'. Rename one of them first (godot_scene_rename_node), e.g. to '%s'." % [Nodes.rel(root, new_parent), node.name, _free_name(new_parent, str(node.name))])
	var max_idx: int = new_parent.get_child_count() - (0 if reparenting else 1)
	var idx: Variant = Params.integer(p, "index", -1)
	if idx == null or int(idx) < -1 or int(idx) > max_idx:
		return _bad("index must be an integer from 0 to %d (the position among the new parent's children), or -1 for the end." % max_idx)
	var keep: Variant = Params.boolean(p, "keep_global_transform", true)
	if keep == null:
		return _bad("keep_global_transform must be true or false.")
	var old_path: String = Nodes.rel(root, node)
	var old_idx: int = node.get_index()
	var xform_prop: String = ""
	if node is Node2D or node is Node3D:
		xform_prop = "transform"
	elif node is Control:
		xform_prop = "position"
	var old_xform: Variant = node.get(xform_prop) if xform_prop != "" else null
	if reparenting:
		rec.do_call(node, "reparent", [new_parent, keep])
		if int(idx) >= 0:
			rec.do_call(new_parent, "move_child", [node, int(idx)])
		rec.undo_call(node, "reparent", [old_parent, false])
		rec.undo_call(old_parent, "move_child", [node, old_idx])
		if xform_prop != "":
			rec.undo_set(node, xform_prop, old_xform)
	elif int(idx) >= 0 and int(idx) != old_idx:
		rec.do_call(new_parent, "move_child", [node, int(idx)])
		rec.undo_call(old_parent, "move_child", [node, old_idx])
	elif int(idx) < 0 and old_idx != old_parent.get_child_count() - 1:
		rec.do_call(new_parent, "move_child", [node, -1])
		rec.undo_call(old_parent, "move_child", [node, old_idx])
	var persist: Dictionary = _persist_info(root, node)
	return _router.ok({
		"_label": "move '%s' to '%s'" % [old_path, Nodes.rel(root, new_parent)],
		"old_path": old_path, "path": Nodes.rel(root, node),
		"old_parent": Nodes.rel(root, old_parent), "parent": Nodes.rel(root, new_parent),
		"old_index": old_idx, "index": node.get_index(),
		# A reorder under the same parent leaves the global transform as it was.
		"global_transform_kept": xform_prop != "" and (not reparenting or bool(keep)),
		"persisted": persist["persisted"], "reason": persist["reason"],
	})
