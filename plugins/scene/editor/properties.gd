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
	var before: Dictionary = _stored_values(node, values)
	var changes: Array = []
	for k: String in values.keys():
		var old: Variant = node.get(k)
		rec.do_set(node, k, values[k])
		rec.undo_set(node, k, old)
		changes.append({"property": k, "old": old, "new": node.get(k)})
	var out: Dictionary = {
		"_label": "set %s on '%s'" % [", ".join(PackedStringArray(values.keys())), Nodes.rel(root, node)],
		"path": Nodes.rel(root, node), "changes": changes,
	}
	# What the setters changed besides (a Control's size moves its offsets, a
	# Sprite2D's region, a shape's extents): the same stored properties read again.
	var also: Array = []
	for k: String in before.keys():
		var now: Variant = node.get(k)
		if typeof(now) != typeof(before[k]) or now != before[k]:
			also.append({"property": k, "old": before[k], "new": now})
	if not also.is_empty():
		out["also_changed"] = also
	var persist: Dictionary = _persist_info(root, node)
	out["persisted"] = persist["persisted"]
	out["reason"] = persist["reason"]
	return _router.ok(out)


## The stored (saved) properties of [param node] other than those in [param skip], with
## their values: what a save would write, to compare after setting. Objects are compared
## by identity, so a setter that only edits a sub-resource is not seen.
func _stored_values(node: Node, skip: Dictionary) -> Dictionary:
	var scr: Script = node.get_script() as Script
	var key: String = node.get_class() + "|" + (scr.resource_path if scr != null else "")
	if _prop_lists.get(key) == null:
		_property_info(node, "")
	var out: Dictionary = {}
	for name: Variant in (_prop_lists.get(key, {}) as Dictionary).keys():
		var info: Dictionary = _prop_lists[key][name]
		if skip.has(name) or (int(info.get("usage", 0)) & PROPERTY_USAGE_STORAGE) == 0 or str(name) == "script":
			continue
		out[name] = node.get(str(name))
	return out



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
