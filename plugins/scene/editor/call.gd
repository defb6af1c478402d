@tool
extends "common.gd"
## cmd_scene_call_method: call a method of a node of the edited scene, or of a resource
## inside it (sub_resource "mesh:material"), in the editor.
##
## Undo: the stored properties of the target (and of the resources it holds) and the
## scene's node structure are read before and after the call; what changed becomes ONE
## undo action (do = the new values, undo = the old ones; nodes the call added under
## scene nodes are removed on undo and added back on redo). When the call removed or
## moved nodes, nothing is registered and the answer says undoable: false with the
## reason. Effects elsewhere (other nodes' properties, files the method writes) are not
## seen: docs/scene.md says so.

## Methods refused, with where to go instead.
const REFUSED := {
	"free": "delete nodes with godot_scene_delete_node",
	"queue_free": "delete nodes with godot_scene_delete_node",
	"replace_by": "replace nodes with the scene tools (create_node, move_node, delete_node)",
	"set_script": "attach scripts with godot_scripts_attach",
	"call": "name the method itself", "callv": "name the method itself",
	"call_deferred": "name the method itself; deferred effects cannot be recorded",
	"set_deferred": "set properties with godot_scene_set_properties",
	"propagate_call": "call the method on each node",
	"notification": "notifications cannot be recorded",
	"propagate_notification": "notifications cannot be recorded",
	"add_child": "add nodes with godot_scene_create_node",
	"remove_child": "delete nodes with godot_scene_delete_node",
	"set_owner": "the owner is managed by the scene tools",
	"set_name": "rename nodes with godot_scene_rename_node",
	"take_over_path": "move files with godot_resources_move",
}
## How deep the snapshot follows resources held by the target.
const SNAPSHOT_DEPTH := 4


## {node, method, args, sub_resource, allow_shared, dry_run} -> {path, sub_resource, target_type,
## method, signature, return, changes, added_nodes, undoable, reason, persisted, dry_run, action}
func cmd_call_method(p: Dictionary) -> Dictionary:
	var root: Node = EditorInterface.get_edited_scene_root()
	if root == null:
		return _no_scene()
	var dry: Variant = Params.boolean(p, "dry_run", false)
	var allow_shared: Variant = Params.boolean(p, "allow_shared", false)
	if dry == null or allow_shared == null:
		return _bad("dry_run and allow_shared must be true or false.")
	var nr: Dictionary = Nodes.param(root, p, "node")
	if not nr.get("ok", false):
		return nr["failure"]
	var node: Node = nr["node"]
	var label: String = "%s '%s'" % [node.get_class(), Nodes.rel(root, node)]
	var method: String = str(p.get("method", "")).strip_edges()
	if method == "":
		return _bad("method is required: the name of a method of the node (or of sub_resource), e.g. \"look_at\".")
	var args: Variant = p.get("args", [])
	if args == null:
		args = []
	if typeof(args) != TYPE_ARRAY:
		return _bad("args must be an array of the method's arguments in order, in the shapes of godot://docs/values.")
	var sub: String = str(p.get("sub_resource", "")).strip_edges()
	var target: Object = node
	var chain: Array = []
	var share: Dictionary = {"others": PackedStringArray(), "file": "", "owner": null, "why": ""}
	if sub != "":
		var rr: Dictionary = SubPath.resolve_resource(node, sub, label)
		if not rr.get("ok", false):
			return _bad(str(rr["hint"]))
		target = rr["resource"]
		chain = rr["chain"]
		share = _sharing(root, node, chain, rr["prefixes"], SubPath.references(root, chain))
		if share["kind"] == "foreign":
			return _bad("'%s' is a resource embedded in the scene file '%s'; a change here would not be saved. Open '%s' and call it there." % [sub, share["file"], share["file"]])
		if share["why"] != "" and not allow_shared:
			return _router.fail("PRECONDITION_FAILED", "Nothing was called: '%s' %s. Pass allow_shared: true to change it for every user, or give this node its own copy first (godot_scene_set_properties with a new inline resource)." % [sub, share["why"]])
	var tlabel: String = "%s ('%s' of %s)" % [target.get_class(), sub, label] if sub != "" else label
	if REFUSED.has(method):
		return _bad("%s cannot be called through this tool: %s." % [method, REFUSED[method]])
	var info: Dictionary = _method_info(target, method)
	if info.is_empty():
		return _bad(_unknown_method_hint(target, method, tlabel))
	var sig: String = _signature(info)
	var dec: Dictionary = _decode_args(info, args as Array, node, sig)
	if not dec.get("ok", false):
		return dec["failure"]
	var values: Array = dec["values"]
	var persist: Dictionary = _persist_info(root, node)
	var out: Dictionary = {
		"path": Nodes.rel(root, node), "sub_resource": sub, "target_type": target.get_class(),
		"method": method, "signature": sig, "return": null, "changes": [], "added_nodes": [],
		"persisted": persist["persisted"], "reason": persist["reason"], "undoable": false, "dry_run": dry, "action": "",
	}
	if not (share["others"] as PackedStringArray).is_empty():
		out["shared_with"] = share["others"]
	if share["file"] != "":
		out["saved_to"] = share["file"]
	if dry:
		out["reason"] = "dry run: the method and arguments were checked; nothing was called." if persist["reason"] == "" else persist["reason"]
		return _router.ok(out)
	var mgr: EditorUndoRedoManager = EditorInterface.get_editor_undo_redo()
	if mgr.is_committing_action():
		return _router.fail("PRECONDITION_FAILED", "The editor is in the middle of an undo action; retry in a moment.")
	var before_props: Array = _snapshot(target)
	var before_tree: Dictionary = _structure(root)
	var ret: Variant = target.callv(method, values)
	var after_tree: Dictionary = _structure(root)
	var changes: Array = []
	var ops: Array = [] # [object, property, old, new]
	for e: Array in before_props:
		var obj: Object = e[0]
		if not is_instance_valid(obj):
			continue
		var now: Variant = obj.get(str(e[1]))
		if typeof(now) != typeof(e[2]) or now != e[2]:
			ops.append([obj, str(e[1]), e[2], now])
			changes.append({"object": _object_label(obj, target, sub), "property": str(e[1]), "old": e[2], "new": now})
	# Node structure: nodes added under scene nodes can be recorded; removed or moved ones cannot.
	var added: Array = [] # every new node
	var tops: Array = [] # new nodes whose parent was there before
	var lost: PackedStringArray = []
	for id: Variant in after_tree.keys():
		if typeof(id) != TYPE_INT or before_tree.has(id):
			continue
		var n: Node = instance_from_id(id) as Node
		if n == null:
			continue
		added.append(n)
		if before_tree.has(n.get_parent().get_instance_id()):
			tops.append(n)
	for pid: Variant in (before_tree.get("order", {}) as Dictionary).keys():
		var kept: Array = []
		for cid: int in (after_tree["order"] as Dictionary).get(pid, []):
			if before_tree.has(cid):
				kept.append(cid)
		var was_order: Array = []
		for cid2: int in before_tree["order"][pid]:
			if after_tree.has(cid2) and after_tree[cid2][0] == pid:
				was_order.append(cid2)
		if kept != was_order:
			lost.append("the children of '%s' were reordered" % (before_tree[pid] as Array)[1])
	for id: Variant in before_tree.keys():
		if typeof(id) != TYPE_INT:
			continue
		var was: Array = before_tree[id]
		if not after_tree.has(id):
			lost.append("'%s' was removed" % was[1])
		elif after_tree[id][0] != was[0] or after_tree[id][1] != was[1]:
			lost.append("'%s' was moved or renamed" % was[1])
	var added_paths: PackedStringArray = []
	for n: Node in added:
		added_paths.append(Nodes.rel(root, n))
		if n.owner != root:
			lost.append("'%s' was added without the scene as its owner, so a save would not keep it" % Nodes.rel(root, n))
	out["changes"] = changes
	out["added_nodes"] = added_paths
	out["return"] = _returned(ret, root)
	if not lost.is_empty():
		out["undoable"] = false
		out["reason"] = "The call changed the scene in ways that cannot be recorded (%s); it stays as it is and has no undo entry. Save or reload the scene deliberately (godot_scene_reload discards it)." % "; ".join(lost)
		EditorInterface.mark_scene_as_unsaved()
		return _router.ok(out)
	if ops.is_empty() and added.is_empty():
		out["reason"] = "The call changed no stored property of the %s and added no node; nothing to undo." % ("resource" if sub != "" else "node") if persist["reason"] == "" else persist["reason"]
		return _router.ok(out)
	var action: String = ACTION_PREFIX + "call %s on '%s'%s" % [method, Nodes.rel(root, node), ":" + sub if sub != "" else ""]
	mgr.create_action(action, UndoRedo.MERGE_DISABLE, root)
	mgr.force_fixed_history()
	for n: Node in tops:
		mgr.add_do_method(n.get_parent(), &"add_child", n, true)
		mgr.add_do_reference(n)
		mgr.add_undo_method(n.get_parent(), &"remove_child", n)
	for n: Node in added:
		mgr.add_do_method(n, &"set_owner", root)
	for op: Array in ops:
		mgr.add_do_property(op[0], op[1], op[3])
		mgr.add_undo_property(op[0], op[1], op[2])
	if share["file"] != "":
		var saver: Object = Engine.get_singleton("ResourceSaver")
		var efs: EditorFileSystem = EditorInterface.get_resource_filesystem()
		saver.call("save", share["owner"], share["file"])
		efs.update_file(share["file"])
		mgr.add_do_method(saver, &"save", share["owner"], share["file"])
		mgr.add_do_method(efs, &"update_file", share["file"])
		mgr.add_undo_method(saver, &"save", share["owner"], share["file"])
		mgr.add_undo_method(efs, &"update_file", share["file"])
	mgr.commit_action(false)
	EditorInterface.mark_scene_as_unsaved()
	out["undoable"] = true
	out["action"] = action
	return _router.ok(out)


## The method-list entry of [param method] on [param obj] (scripts' methods included), {} when none.
static func _method_info(obj: Object, method: String) -> Dictionary:
	if not obj.has_method(method):
		return {}
	for m: Dictionary in obj.get_method_list():
		if str(m.get("name", "")) == method:
			return m
	return {}


static func _unknown_method_hint(obj: Object, method: String, where: String) -> String:
	var names: PackedStringArray = []
	for m: Dictionary in obj.get_method_list():
		var n: String = str(m.get("name", ""))
		if not n.begins_with("_") and not names.has(n):
			names.append(n)
	var hint: String = "%s has no method '%s'.%s" % [where, method, Names.did_you_mean(method, names)]
	return hint + " godot_describe_class {class_name: \"%s\"} lists its methods." % obj.get_class()


## "look_at(target: Vector3, up: Vector3 = (0, 1, 0), use_model_front: bool = false) -> void"
static func _signature(info: Dictionary) -> String:
	var args: Array = info.get("args", [])
	var defaults: Array = info.get("default_args", [])
	var first_default: int = args.size() - defaults.size()
	var parts: PackedStringArray = []
	for i: int in range(args.size()):
		var a: Dictionary = args[i]
		var t: String = _type_label(a)
		var s: String = "%s: %s" % [str(a.get("name", "arg%d" % i)), t]
		if i >= first_default:
			s += " = %s" % var_to_str(defaults[i - first_default])
		parts.append(s)
	if int(info.get("flags", 0)) & METHOD_FLAG_VARARG:
		parts.append("...")
	var rt: Dictionary = info.get("return", {})
	var ret: String = _type_label(rt) if not rt.is_empty() else "void"
	return "%s(%s) -> %s" % [str(info.get("name", "")), ", ".join(parts), ret]


static func _type_label(a: Dictionary) -> String:
	var t: int = int(a.get("type", TYPE_NIL))
	if t == TYPE_OBJECT:
		return str(a.get("class_name", "Object")) if str(a.get("class_name", "")) != "" else "Object"
	if t == TYPE_NIL:
		return "Variant" if int(a.get("usage", 0)) & PROPERTY_USAGE_NIL_IS_VARIANT else "void"
	return type_string(t)


## Decodes the JSON args for the method: {ok, values} or {ok: false, failure} with the signature.
func _decode_args(info: Dictionary, args: Array, ctx: Node, sig: String) -> Dictionary:
	var params: Array = info.get("args", [])
	var defaults: Array = info.get("default_args", [])
	var vararg: bool = int(info.get("flags", 0)) & METHOD_FLAG_VARARG != 0
	var least: int = params.size() - defaults.size()
	if args.size() < least or (args.size() > params.size() and not vararg):
		var want: String = str(least) if defaults.is_empty() else "%d to %d" % [least, params.size()]
		return {"ok": false, "failure": _bad("%s takes %s argument%s, got %d. Signature: %s." % [str(info.get("name", "")), want, "" if want == "1" else "s", args.size(), sig])}
	var values: Array = []
	for i: int in range(args.size()):
		if i >= params.size():
			values.append(args[i])
			continue
		var a: Dictionary = params[i]
		var t: int = int(a.get("type", TYPE_NIL))
		var hint: int = int(a.get("hint", PROPERTY_HINT_NONE))
		var hs: String = str(a.get("hint_string", ""))
		var cls: String = str(a.get("class_name", ""))
		if t == TYPE_OBJECT and cls != "" and hint == PROPERTY_HINT_NONE:
			if ClassDB.class_exists(cls) and ClassDB.is_parent_class(cls, "Node"):
				hint = PROPERTY_HINT_NODE_TYPE
			else:
				hint = PROPERTY_HINT_RESOURCE_TYPE
			hs = cls
		var d: Dictionary = Codec.decode(args[i], t, hint, hs, ctx)
		if not d.get("ok", false):
			return {"ok": false, "failure": _bad("args[%d] (%s): %s Signature: %s." % [i, str(a.get("name", "")), str(d.get("hint", "does not fit")), sig])}
		values.append(d["value"])
	return {"ok": true, "values": values}


## [[object, property, value], …]: the stored properties of [param target] and of the
## resources it holds (embedded ones, followed [constant SNAPSHOT_DEPTH] deep).
static func _snapshot(target: Object) -> Array:
	var out: Array = []
	var seen: Dictionary = {}
	var todo: Array = [[target, 0]]
	while not todo.is_empty():
		var e: Array = todo.pop_back()
		var obj: Object = e[0]
		if seen.has(obj.get_instance_id()):
			continue
		seen[obj.get_instance_id()] = true
		for pi: Dictionary in obj.get_property_list():
			var name: String = str(pi.get("name", ""))
			if int(pi.get("usage", 0)) & PROPERTY_USAGE_STORAGE == 0 or name == "script" or name == "resource_path":
				continue
			var v: Variant = obj.get(name)
			out.append([obj, name, _copy(v)])
			if v is Resource and int(e[1]) < SNAPSHOT_DEPTH:
				todo.append([v, int(e[1]) + 1])
	return out


## A copy of arrays and dictionaries (a method that edits one in place would otherwise
## change the snapshot too).
static func _copy(v: Variant) -> Variant:
	if typeof(v) == TYPE_ARRAY:
		return (v as Array).duplicate(true)
	if typeof(v) == TYPE_DICTIONARY:
		return (v as Dictionary).duplicate(true)
	return v


## {node instance id: [parent id, path], "order": {node id: [child ids in order]}} for
## every node of the scene.
static func _structure(root: Node) -> Dictionary:
	var out: Dictionary = {}
	var order: Dictionary = {}
	var stack: Array[Node] = [root]
	while not stack.is_empty():
		var n: Node = stack.pop_back()
		var par: Node = n.get_parent()
		out[n.get_instance_id()] = [par.get_instance_id() if par != null and n != root else 0, str(root.get_path_to(n))]
		var ids: Array = []
		for c: Node in n.get_children():
			stack.append(c)
			ids.append(c.get_instance_id())
		order[n.get_instance_id()] = ids
	out["order"] = order
	return out


func _object_label(obj: Object, target: Object, sub: String) -> String:
	if obj == target:
		return sub if sub != "" else "."
	return obj.get_class()


## The value the method returned, encodable: a new node outside the scene is freed
## (it would leak) and reported by class.
static func _returned(ret: Variant, root: Node) -> Variant:
	if typeof(ret) == TYPE_OBJECT and is_instance_valid(ret) and ret is Node:
		var n: Node = ret
		if not n.is_inside_tree() and n.get_parent() == null and n != root:
			var cls: String = n.get_class()
			n.free()
			return {"type": cls, "note": "a new node outside the scene; it was freed (use a scene tool to add nodes)"}
	return ret
