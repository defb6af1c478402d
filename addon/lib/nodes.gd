@tool
extends RefCounted
## Node resolution for command handlers: paths relative to the scene root, with a
## did-you-mean when a node is missing.
##
##     const Nodes := preload("res://addons/godot_mcp/lib/nodes.gd")
##     var root: Node = EditorInterface.get_edited_scene_root()
##     var r: Dictionary = Nodes.param(root, params, "node")
##     if not r["ok"]:
##         return r["failure"]  # VALIDATION_ERROR or RESOURCE_NOT_FOUND, with a hint
##     var node: Node = r["node"]

const Params := preload("params.gd")


## Path of [param n] relative to [param root] ("." for the root itself).
static func rel(root: Node, n: Node) -> String:
	if n == root:
		return "."
	return str(root.get_path_to(n))


## Finds a node by a path relative to the scene root. Also accepts "./X", "/root/<Root>/X"
## and "%Unique". Returns null when there is none inside the scene.
static func resolve(root: Node, path: String) -> Node:
	var p: String = path.strip_edges()
	if p == "" or p == "." or p == "./":
		return root
	if p.begins_with("./"):
		p = p.substr(2)
	if p.begins_with("/"):
		var abs_root: String = "/root/" + str(root.name)
		if p == abs_root:
			return root
		if not p.begins_with(abs_root + "/"):
			return null
		p = p.substr(abs_root.length() + 1)
	if p.ends_with("/"):
		p = p.substr(0, p.length() - 1)
	var n: Node = root.get_node_or_null(NodePath(p))
	if n == null or not (n == root or root.is_ancestor_of(n)):
		return null
	return n


## RESOURCE_NOT_FOUND for a node path, naming the nearest existing node and a likely match.
static func not_found(root: Node, path: String, what: String = "node") -> Dictionary:
	var p: String = path.strip_edges().trim_prefix("./")
	var segs: PackedStringArray = p.split("/", false)
	var cur: Node = root
	var missing: String = p
	for seg: String in segs:
		var next: Node = null
		if seg != ".." and seg != ".":
			next = cur.get_node_or_null(NodePath(seg))
		if next == null:
			missing = seg
			break
		cur = next
	var hint: String = "No %s at '%s' in the scene '%s' (paths are relative to the scene root, \".\" is the root '%s')." % [what, path, scene_label(root), root.name]
	var best: String = ""
	var best_score: float = 0.0
	var names: PackedStringArray = []
	for c: Node in cur.get_children():
		names.append(str(c.name))
		var score: float = missing.to_lower().similarity(str(c.name).to_lower())
		if score > best_score:
			best_score = score
			best = rel(root, c)
	if best_score >= 0.4:
		hint += " Did you mean '%s'?" % best
	else:
		var elsewhere: Node = root.find_child(missing, true, false)
		if elsewhere != null:
			hint += " A node named '%s' exists at '%s'." % [missing, rel(root, elsewhere)]
	if cur == root:
		hint += " The root's children: %s." % short_list(names)
	else:
		hint += " The nearest existing node is '%s'; its children: %s." % [rel(root, cur), short_list(names)]
	hint += " godot_scene_get_tree lists every node."
	return {"ok": false, "error": "RESOURCE_NOT_FOUND", "hint": hint}


static func short_list(names: PackedStringArray, most: int = 12) -> String:
	if names.is_empty():
		return "none"
	var shown: PackedStringArray = names.slice(0, most)
	var s: String = ", ".join(shown)
	if names.size() > most:
		s += " (and %d more)" % (names.size() - most)
	return s


static func scene_label(root: Node) -> String:
	return root.scene_file_path if root.scene_file_path != "" else "(unsaved) " + str(root.name)


## Resolves params[key] to a node of the edited scene: {ok, node} or {ok: false, failure}.
static func param(root: Node, p: Dictionary, key: String, def: String = "", required: bool = true) -> Dictionary:
	var v: Variant = Params.string(p, key, def)
	if v == null:
		return {"ok": false, "failure": Params.invalid("%s must be a string: a node path relative to the scene root, e.g. \"Player/Sprite2D\" (\".\" is the root)." % key)}
	if required and (v as String).strip_edges() == "":
		return {"ok": false, "failure": Params.invalid("%s is required: a node path relative to the scene root, e.g. \"Player/Sprite2D\" (\".\" is the root)." % key)}
	var n: Node = resolve(root, v as String)
	if n == null:
		return {"ok": false, "failure": not_found(root, v as String)}
	return {"ok": true, "node": n}


## Whether changes to [param n] are saved with the scene (what persisted means across
## the toolsets: the next save of the scene writes it): every node from the root down to
## it must belong to the scene, or to an instance with Editable Children (that is what
## PackedScene.pack() keeps). {persisted, reason}
static func persist_info(root: Node, n: Node) -> Dictionary:
	var x: Node = n
	while x != null and x != root:
		var o: Node = x.owner
		if o == null:
			return {"persisted": false, "reason": "'%s' has no owner, so it is not part of the saved scene (it was added by a script or plugin, not the editor)." % rel(root, x)}
		if o != root and not root.is_editable_instance(o):
			var where: String = rel(root, o)
			return {"persisted": false, "reason": "'%s' belongs to the instanced scene '%s' (the instance '%s'), which does not have Editable Children, so this change is not saved with the scene. Turn on its Editable Children (godot_scene_set_editable_children {node: \"%s\"}), or edit '%s' itself." % [rel(root, n), o.scene_file_path, where, where, o.scene_file_path]}
		x = x.get_parent()
	if x == null:
		return {"persisted": false, "reason": "'%s' is not inside the edited scene." % str(n.name)}
	return {"persisted": true, "reason": ""}
