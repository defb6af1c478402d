@tool
extends "common.gd"
## Reading: get_tree, find_nodes, get_node (from the edited scene or a scene file).


## The scene to read: the edited one, or params.scene (read from its file unless it is the
## edited scene). {ok, root, scene, source, temp, unsaved_changes_ignored} or {ok: false, failure}.
## A temp root must be freed by the caller.
func _read_root(params: Dictionary) -> Dictionary:
	var sv: Variant = Params.string(params, "scene")
	if sv == null:
		return {"ok": false, "failure": _bad("scene must be a res:// path string.")}
	var edited: Node = EditorInterface.get_edited_scene_root()
	var scene: String = sv
	if scene == "" or (edited != null and scene == edited.scene_file_path):
		if edited == null:
			return {"ok": false, "failure": _no_scene()}
		return {"ok": true, "root": edited, "scene": edited.scene_file_path, "source": "editor", "temp": false, "unsaved_changes_ignored": false}
	var outside: Dictionary = _outside("scene", scene)
	if not outside.is_empty():
		return {"ok": false, "failure": outside}
	if not ResourceLoader.exists(scene):
		return {"ok": false, "failure": _scene_file_not_found(scene)}
	var packed: PackedScene = load(scene) as PackedScene
	if packed == null:
		return {"ok": false, "failure": _bad("'%s' is not a scene (PackedScene)." % scene)}
	var root: Node = packed.instantiate(PackedScene.GEN_EDIT_STATE_INSTANCE)
	if root == null:
		return {"ok": false, "failure": _router.fail("INTERNAL_ERROR", "The scene '%s' could not be instantiated (is it broken? open it to see the error)." % scene)}
	var dirty: bool = Compat.open_scenes().has(scene) and _is_dirty(scene)
	return {"ok": true, "root": root, "scene": scene, "source": "file", "temp": true, "unsaved_changes_ignored": dirty}


func _release(ctx: Dictionary) -> void:
	if ctx.get("temp", false):
		var r: Node = ctx["root"]
		if is_instance_valid(r):
			r.free()


## A cursor tag that changes whenever the scene does.
func _tag(ctx: Dictionary) -> String:
	var root: Node = ctx["root"]
	if ctx["source"] == "file":
		return "f%d" % FileAccess.get_modified_time(str(ctx["scene"]))
	var mgr: EditorUndoRedoManager = EditorInterface.get_editor_undo_redo()
	var ur: UndoRedo = mgr.get_history_undo_redo(mgr.get_object_history_id(root))
	return "e%d.%d" % [root.get_instance_id(), ur.get_version() if ur != null else 0]


## Walks the tree under params.root in pre-order and lists the nodes that pass the filters,
## a page at a time. {ok, result} or a failure.
func _walk(params: Dictionary, default_limit: int, extra_filters: bool) -> Dictionary:
	var ctx: Dictionary = _read_root(params)
	if not ctx.get("ok", false):
		return ctx["failure"]
	var out: Dictionary = _walk_in(ctx, params, default_limit, extra_filters)
	_release(ctx)
	return out


func _walk_in(ctx: Dictionary, params: Dictionary, default_limit: int, extra_filters: bool) -> Dictionary:
	var root: Node = ctx["root"]
	var start_v: Variant = Params.string(params, "root", ".")
	if start_v == null:
		return _bad("root must be a string: the node to start from, relative to the scene root.")
	var start: Node = Nodes.resolve(root, start_v as String)
	if start == null:
		return Nodes.not_found(root, start_v as String)
	var max_depth: Variant = Params.integer(params, "max_depth", -1)
	var limit: Variant = Params.integer(params, "limit", default_limit)
	if max_depth == null or int(max_depth) < -1:
		return _bad("max_depth must be an integer >= 0 (omit it for the whole tree).")
	if limit == null or int(limit) < 1 or int(limit) > TREE_MAX_LIMIT:
		return _bad("limit must be an integer from 1 to %d." % TREE_MAX_LIMIT)
	var type_f: Variant = Params.string(params, "type")
	var name_f: Variant = Params.string(params, "name")
	var group_f: Variant = Params.string(params, "group")
	var script_f: Variant = Params.string(params, "script")
	var expand: Variant = Params.boolean(params, "expand_instances", false)
	if type_f == null or name_f == null or group_f == null or script_f == null or expand == null:
		return _bad("type, name, group and script must be strings; expand_instances true or false.")
	if (type_f as String) != "" and not _type_known(type_f as String):
		var near: PackedStringArray = _similar_node_classes(type_f as String)
		return _bad("Unknown type '%s'%s. Give an engine class (\"Node2D\") or a script class_name." % [type_f, (" (did you mean %s?)" % ", ".join(near)) if not near.is_empty() else ""])
	var tag: String = _tag(ctx)
	var offset: int = 0
	var cv: Variant = Params.string(params, "cursor")
	if cv == null:
		return _bad("cursor must be the next_cursor string of the previous answer.")
	if (cv as String) != "":
		var parts: PackedStringArray = (cv as String).split(":")
		if parts.size() != 2 or not parts[0].is_valid_int() or int(parts[0]) < 0:
			return _bad("cursor '%s' is not a cursor this tool gave; pass next_cursor exactly, or omit it to start over." % cv)
		if parts[1] != tag:
			return _bad("The scene changed since that cursor was given, so the pages would not line up. Call again without cursor to start over.")
		offset = int(parts[0])
	var nodes: Array = []
	var total: int = 0
	var bytes: int = 0
	var truncated: bool = false
	var full: bool = false
	# Explicit stack of [node, path, depth] so 10,000-node scenes cost one pass, no recursion.
	var start_path: String = Nodes.rel(root, start)
	var stack: Array = [[start, start_path, 0]]
	while not stack.is_empty():
		var item: Array = stack.pop_back()
		var n: Node = item[0]
		var path: String = item[1]
		var depth: int = item[2]
		var children: Array[Node] = n.get_children()
		var descend: bool = (int(max_depth) < 0 or depth < int(max_depth))
		if descend and n != root and n.scene_file_path != "" and not expand and not root.is_editable_instance(n):
			descend = false
		if descend:
			for i: int in range(children.size() - 1, -1, -1):
				var c: Node = children[i]
				var cp: String = str(c.name) if path == "." else path + "/" + str(c.name)
				stack.append([c, cp, depth + 1])
		if (type_f as String) != "" and not _is_type(n, type_f as String):
			continue
		if (name_f as String) != "" and not str(n.name).matchn(name_f as String):
			continue
		if extra_filters:
			if (group_f as String) != "" and not n.is_in_group(group_f as String):
				continue
			if (script_f as String) != "":
				var s: Script = n.get_script() as Script
				if s == null or s.resource_path != script_f:
					continue
		total += 1
		if total <= offset or full:
			if full:
				truncated = true
			continue
		var entry: Dictionary = _tree_entry(root, n, path, depth, children.size())
		nodes.append(entry)
		bytes += path.length() + str(n.name).length() + str(entry.get("script", "")).length() + str(entry.get("instance", "")).length() + 96
		if nodes.size() >= int(limit) or bytes >= TREE_MAX_BYTES:
			full = true
	var result: Dictionary = {
		"scene": ctx["scene"], "source": ctx["source"], "root": start_path,
		"nodes": nodes, "total": total, "returned": nodes.size(), "truncated": truncated,
		"next_cursor": ("%d:%s" % [offset + nodes.size(), tag]) if truncated else "",
		"unsaved_changes_ignored": ctx["unsaved_changes_ignored"],
	}
	return _router.ok(result)


func _tree_entry(root: Node, n: Node, path: String, depth: int, child_count: int) -> Dictionary:
	var e: Dictionary = {"path": path, "name": str(n.name), "type": n.get_class(), "depth": depth, "children": child_count}
	var s: Script = n.get_script() as Script
	if s != null:
		e["script"] = s.resource_path
		if s.get_global_name() != &"":
			e["script_class"] = str(s.get_global_name())
	if n != root and n.scene_file_path != "":
		e["instance"] = n.scene_file_path
		if root.is_editable_instance(n):
			e["editable_children"] = true
	if n != root and n.owner != root and not _persist_info(root, n)["persisted"]:
		e["foreign"] = true
	return e


## {scene?, root?, max_depth?, type?, name?, expand_instances?, limit?, cursor?} ->
## {scene, source, root, nodes: [{path, name, type, depth, children, script?, script_class?,
## instance?, editable_children?, foreign?}], total, returned, truncated, next_cursor,
## unsaved_changes_ignored}
func cmd_get_tree(params: Dictionary) -> Dictionary:
	return _walk(params, 1000, false)


## Same answer as get_tree; also filters by group and script, default limit 200.
func cmd_find_nodes(params: Dictionary) -> Dictionary:
	return _walk(params, 200, true)


## {node, scene?, properties?} -> {scene, source, path, name, type, script, script_class,
## parent, owner, foreign, reason, instance, groups, children, connections,
## incoming_connections, properties, omitted_properties}
func cmd_get_node(params: Dictionary) -> Dictionary:
	var ctx: Dictionary = _read_root(params)
	if not ctx.get("ok", false):
		return ctx["failure"]
	var out: Dictionary = _get_node_in(ctx, params)
	_release(ctx)
	return out


func _get_node_in(ctx: Dictionary, params: Dictionary) -> Dictionary:
	var root: Node = ctx["root"]
	var nr: Dictionary = Nodes.param(root, params, "node")
	if not nr.get("ok", false):
		return nr["failure"]
	var n: Node = nr["node"]
	var wanted: Variant = Params.string_list(params, "properties")
	if wanted == null:
		return _bad("properties must be an array of property names.")
	var props: Dictionary = {}
	var omitted: PackedStringArray = []
	if (wanted as PackedStringArray).is_empty():
		for info: Dictionary in n.get_property_list():
			var usage: int = int(info.get("usage", 0))
			if usage & PROPERTY_USAGE_EDITOR == 0 or usage & (PROPERTY_USAGE_CATEGORY | PROPERTY_USAGE_GROUP | PROPERTY_USAGE_SUBGROUP) != 0:
				continue
			var pname: String = str(info["name"])
			if pname == "script":
				continue
			_put_property(props, omitted, pname, n.get(pname))
	else:
		for pname: String in wanted:
			if SubPath.is_path(pname):
				var r: Dictionary = SubPath.resolve(n, pname, "%s '%s'" % [n.get_class(), Nodes.rel(root, n)])
				if not r.get("ok", false):
					return _bad(str(r["hint"]))
				_put_property(props, omitted, pname, (r["target"] as Object).get(str(r["property"])))
				continue
			if Codec.property_info(n, pname).is_empty():
				return _bad(_unknown_property_hint(n, pname))
			_put_property(props, omitted, pname, n.get(pname))
	var outgoing: Array = []
	for s: Dictionary in n.get_signal_list():
		for c: Dictionary in n.get_signal_connection_list(str(s["name"])):
			if int(c["flags"]) & CONNECT_PERSIST == 0:
				continue
			var cb: Callable = c["callable"]
			var t: Object = cb.get_object()
			if t is Node and (t == root or root.is_ancestor_of(t as Node)):
				outgoing.append({"source": Nodes.rel(root, n), "signal": str(s["name"]), "target": Nodes.rel(root, t as Node), "method": str(cb.get_method()), "flags": int(c["flags"])})
	var incoming: Array = []
	for c2: Dictionary in n.get_incoming_connections():
		if int(c2["flags"]) & CONNECT_PERSIST == 0:
			continue
		var sg: Signal = c2["signal"]
		var src: Object = sg.get_object()
		if src is Node and (src == root or root.is_ancestor_of(src as Node)):
			incoming.append({"source": Nodes.rel(root, src as Node), "signal": str(sg.get_name()), "target": Nodes.rel(root, n), "method": str((c2["callable"] as Callable).get_method()), "flags": int(c2["flags"])})
	var children: PackedStringArray = []
	for c3: Node in n.get_children():
		children.append(str(c3.name))
	var instance: Variant = null
	if n != root and n.scene_file_path != "":
		instance = {"scene": n.scene_file_path, "editable_children": root.is_editable_instance(n)}
	var persist: Dictionary = _persist_info(root, n)
	var si: Dictionary = _script_info(n)
	return _router.ok({
		"scene": ctx["scene"], "source": ctx["source"],
		"path": Nodes.rel(root, n), "name": str(n.name), "type": n.get_class(),
		"script": si["script"], "script_class": si["script_class"],
		"parent": Nodes.rel(root, n.get_parent()) if n != root else "",
		"owner": (Nodes.rel(root, n.owner) if n.owner != null else "") if n != root else "",
		"foreign": not persist["persisted"], "reason": persist["reason"],
		"instance": instance, "groups": _groups(n), "children": children,
		"connections": outgoing, "incoming_connections": incoming,
		"properties": props, "omitted_properties": omitted,
		"unsaved_changes_ignored": ctx["unsaved_changes_ignored"],
	})


func _put_property(props: Dictionary, omitted: PackedStringArray, name: String, value: Variant) -> void:
	var enc: Variant = Codec.encode(value)
	if typeof(enc) == TYPE_ARRAY or typeof(enc) == TYPE_DICTIONARY or typeof(enc) == TYPE_STRING:
		if JSON.stringify(enc).length() > PROPERTY_MAX_CHARS:
			omitted.append(name)
			return
	props[name] = enc
