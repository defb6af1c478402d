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
	var allow_shared: Variant = Params.boolean(p, "allow_shared", false)
	if allow_shared == null:
		return _bad("allow_shared must be true or false.")
	var plain: Dictionary = {}
	var paths: Dictionary = {}
	for k: Variant in (props as Dictionary).keys():
		if SubPath.is_path(str(k)):
			paths[str(k)] = props[k]
		else:
			plain[k] = props[k]
	var dec: Dictionary = _decode_properties(root, node, plain)
	if not dec.get("ok", false):
		return dec["failure"]
	var values: Dictionary = dec["values"]
	var sub: Dictionary = _decode_paths(root, node, paths, values, allow_shared)
	if not sub.get("ok", false):
		return sub["failure"]
	var before: Dictionary = _stored_values(node, values)
	var changes: Array = []
	for k: String in values.keys():
		var old: Variant = node.get(k)
		rec.do_set(node, k, values[k])
		rec.undo_set(node, k, old)
		changes.append({"property": k, "old": old, "new": node.get(k)})
	_apply_paths(sub["items"], rec, changes)
	var names: PackedStringArray = PackedStringArray(values.keys())
	names.append_array(PackedStringArray(paths.keys()))
	var out: Dictionary = {
		"_label": "set %s on '%s'" % [", ".join(names), Nodes.rel(root, node)],
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


# --- sub-resource paths ("mesh:material:albedo_color") -----------------------------------


## Resolves and decodes {path: json} on [param node]: {ok, items: [{path, target, property,
## value, shared_with, saved_to, owner}]} or {ok: false, failure}. A resource used elsewhere
## (by other nodes of the scene, or saved in its own file) is refused unless
## [param allow_shared]; one embedded in another scene file always is.
func _decode_paths(root: Node, node: Node, paths: Dictionary, plain: Dictionary, allow_shared: bool) -> Dictionary:
	var items: Array = []
	if paths.is_empty():
		return {"ok": true, "items": items}
	var label: String = "%s '%s'" % [node.get_class(), Nodes.rel(root, node)]
	var all_chain: Array = []
	for path: String in paths.keys():
		var first: String = path.get_slice(":", 0)
		if plain.has(first) or RESERVED_PROPERTIES.has(first):
			return {"ok": false, "failure": _bad("'%s' and a path inside it ('%s') cannot be set in one call; set '%s' first, then the path." % [first, path, first])}
		var r: Dictionary = SubPath.resolve(node, path, label)
		if not r.get("ok", false):
			return {"ok": false, "failure": _bad(str(r["hint"]))}
		var info: Dictionary = r["info"]
		var d: Dictionary = Codec.decode(paths[path], int(info.get("type", TYPE_NIL)), int(info.get("hint", PROPERTY_HINT_NONE)), str(info.get("hint_string", "")), node)
		if not d.get("ok", false):
			return {"ok": false, "failure": _bad("%s (%s, %s): %s" % [path, label, (r["target"] as Object).get_class(), str(d.get("hint", "the value does not fit"))])}
		r["path"] = path
		r["value"] = d["value"]
		items.append(r)
		all_chain.append_array(r["chain"])
	var refs: Dictionary = SubPath.references(root, all_chain)
	var refusals: PackedStringArray = []
	for r: Dictionary in items:
		var sh: Dictionary = _sharing(root, node, r["chain"], r["prefixes"], refs)
		if sh["kind"] == "foreign":
			return {"ok": false, "failure": _bad("'%s' reaches a resource embedded in the scene file '%s', so a change here would not be saved. Open '%s' and change it there." % [r["path"], sh["file"], sh["file"]])}
		r["shared_with"] = sh["others"]
		r["saved_to"] = sh["file"]
		r["owner"] = sh["owner"]
		if sh["why"] != "":
			refusals.append("'%s' %s" % [r["path"], sh["why"]])
	if not refusals.is_empty() and not allow_shared:
		return {"ok": false, "failure": _router.fail("PRECONDITION_FAILED", "Nothing was changed: %s. Pass allow_shared: true to change it for every user, or give this node its own copy first (set the shared property to a new inline resource, e.g. {\"%s\": {\"type\": \"…\", \"properties\": {…}}})." % ["; ".join(refusals), (items[0]["prefixes"] as PackedStringArray)[0] if not (items[0]["prefixes"] as PackedStringArray).is_empty() else "…"])}
	return {"ok": true, "items": items}


## Applies resolved path items through [param rec] and appends their changes. Resources
## saved in their own file are saved to it in the same undo action (and again on undo).
func _apply_paths(items: Array, rec: Recorder, changes: Array) -> void:
	var files: Dictionary = {} # file -> owner resource
	for r: Dictionary in items:
		var target: Object = r["target"]
		var prop: String = r["property"]
		var old: Variant = target.get(prop)
		rec.do_set(target, prop, r["value"])
		rec.undo_set(target, prop, old)
		var ch: Dictionary = {"property": r["path"], "old": old, "new": target.get(prop)}
		if not (r["shared_with"] as PackedStringArray).is_empty():
			ch["shared_with"] = r["shared_with"]
		if str(r["saved_to"]) != "":
			ch["saved_to"] = r["saved_to"]
			files[r["saved_to"]] = r["owner"]
		changes.append(ch)
	if files.is_empty() or bool(_ctx.get("dry_run", false)):
		return
	var saver: Object = Engine.get_singleton("ResourceSaver")
	var efs: EditorFileSystem = EditorInterface.get_resource_filesystem()
	for f: String in files.keys():
		rec.do_call(saver, "save", [files[f], f])
		rec.undo_call(saver, "save", [files[f], f])
		rec.do_call(efs, "update_file", [f])
		rec.undo_call(efs, "update_file", [f])
