@tool
extends "common.gd"
## Step operations: set_properties, set_groups.


func _op_set_properties(root: Node, p: Dictionary, rec: Recorder) -> Dictionary:
	var nr: Dictionary = Nodes.param(root, p, "node")
	if not nr.get("ok", false):
		return nr["failure"]
	var node: Node = nr["node"]
	var props: Variant = p.get("properties")
	if typeof(props) != TYPE_DICTIONARY or (props as Dictionary).is_empty():
		return _bad("properties is required: an object {property: value} with at least one property, e.g. {\"position\": {\"x\": 10, \"y\": 20}}.")
	var dec: Dictionary = _decode_properties(root, node, props)
	if not dec.get("ok", false):
		return dec["failure"]
	var values: Dictionary = dec["values"]
	var changes: Array = []
	for k: String in values.keys():
		var old: Variant = node.get(k)
		rec.do_set(node, k, values[k])
		rec.undo_set(node, k, old)
		changes.append({"property": k, "old": old, "new": node.get(k)})
	var persist: Dictionary = _persist_info(root, node)
	return _router.ok({
		"_label": "set %s on '%s'" % [", ".join(PackedStringArray(values.keys())), Nodes.rel(root, node)],
		"path": Nodes.rel(root, node), "changes": changes,
		"persisted": persist["persisted"], "reason": persist["reason"],
	})



func _op_set_groups(root: Node, p: Dictionary, rec: Recorder) -> Dictionary:
	var nr: Dictionary = Nodes.param(root, p, "node")
	if not nr.get("ok", false):
		return nr["failure"]
	var node: Node = nr["node"]
	var add: Variant = Params.string_list(p, "add")
	var remove: Variant = Params.string_list(p, "remove")
	if add == null or remove == null:
		return _bad("add and remove must be arrays of group names.")
	if (add as PackedStringArray).is_empty() and (remove as PackedStringArray).is_empty():
		return _bad("Give add and/or remove: arrays of group names, e.g. {\"add\": [\"enemies\"]}.")
	for g: String in add:
		if g.strip_edges() == "" or g != g.strip_edges():
			return _bad("group names cannot be empty or start/end with spaces (got '%s')." % g)
		if (remove as PackedStringArray).has(g):
			return _bad("'%s' is in both add and remove." % g)
	var added: PackedStringArray = []
	var removed: PackedStringArray = []
	var unchanged: PackedStringArray = []
	for g: String in add:
		if node.is_in_group(g):
			unchanged.append(g)
			continue
		rec.do_call(node, "add_to_group", [g, true])
		rec.undo_call(node, "remove_from_group", [g])
		added.append(g)
	for g: String in remove:
		if not node.is_in_group(g):
			unchanged.append(g)
			continue
		rec.do_call(node, "remove_from_group", [g])
		rec.undo_call(node, "add_to_group", [g, true])
		removed.append(g)
	var persist: Dictionary = _persist_info(root, node)
	return _router.ok({
		"_label": "set groups of '%s'" % Nodes.rel(root, node),
		"path": Nodes.rel(root, node), "groups": _groups(node), "added": added, "removed": removed,
		"unchanged": unchanged, "persisted": persist["persisted"], "reason": persist["reason"],
	})
