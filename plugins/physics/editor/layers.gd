@tool
extends RefCounted
## Named physics layers (project settings layer_names/2d_physics/layer_N and
## layer_names/3d_physics/layer_N) and the collision_layer / collision_mask of the
## edited scene's nodes, read and set by layer number or name as one undo action.

const Common := preload("common.gd")
const Recorder := preload("res://addons/godot_mcp/lib/undo.gd")

var c: Common = null


func _init(common: Common) -> void:
	c = common


## {nodes[], offset, limit} -> {scene, names_2d, names_3d, nodes[], total, next_offset}
func get_layers(params: Dictionary) -> Dictionary:
	var wanted: Array = params.get("nodes", []) if params.get("nodes") is Array else []
	var offset: int = int(params.get("offset", 0))
	var limit: int = int(params.get("limit", 200))
	var out: Dictionary = {"scene": "", "names_2d": Common.named(Common.names("2d")), "names_3d": Common.named(Common.names("3d")),
		"nodes": [], "total": 0, "next_offset": -1}
	var root: Node = EditorInterface.get_edited_scene_root()
	if root == null:
		if not wanted.is_empty():
			return c.no_scene()
		return c.ok(out)
	out["scene"] = root.scene_file_path
	var list: Array[Node] = []
	if wanted.is_empty():
		var all: Array[Node] = []
		Common.walk(root, all)
		for n: Node in all:
			if Common.kind(n) > 0:
				list.append(n)
	else:
		for p: Variant in wanted:
			var f: Dictionary = c.find(root, str(p))
			if f.has("error"):
				return f["error"]
			var n2: Node = f["node"]
			if Common.kind(n2) == 0:
				return _not_collision(root, n2)
			list.append(n2)
	out["total"] = list.size()
	var page: Array = []
	for i: int in range(offset, mini(list.size(), offset + limit)):
		page.append(Common.node_layers(root, list[i]))
	out["nodes"] = page
	if offset + limit < list.size():
		out["next_offset"] = offset + limit
	return c.ok(out)


func _not_collision(root: Node, n: Node) -> Dictionary:
	var have: PackedStringArray = []
	var all: Array[Node] = []
	Common.walk(root, all)
	for m: Node in all:
		if Common.kind(m) > 0:
			have.append(Common.rel(root, m))
	var hint: String = "'%s' is a %s, which has no collision layer or mask (collision objects are bodies and areas: StaticBody, RigidBody, CharacterBody, Area, ...; its shapes belong to its parent body)." % [Common.rel(root, n), n.get_class()]
	if n.get_parent() != null and Common.kind(n.get_parent()) > 0:
		hint += " Did you mean its parent '%s'?" % Common.rel(root, n.get_parent())
	hint += (" Collision objects in the scene: %s." % Common.Nodes.short_list(have)) if not have.is_empty() else " The scene has no collision object."
	return c.fail("VALIDATION_ERROR", hint)


## {names: [{dimension, n, name}], edits: [{nodes, layer?, mask?}], dry_run}
## -> {names_2d, names_3d, renamed, nodes[], changed, persisted, reason, undoable, dry_run}
func set_layers(params: Dictionary) -> Dictionary:
	var dry: bool = bool(params.get("dry_run", false))
	var current: Dictionary = {"2d": Common.names("2d"), "3d": Common.names("3d")}
	# Packed arrays are values: edit locals, then put them in planned.
	var p2d: PackedStringArray = (current["2d"] as PackedStringArray).duplicate()
	var p3d: PackedStringArray = (current["3d"] as PackedStringArray).duplicate()
	var renames: Array = [] # [key, old, new]
	var names_in: Array = params.get("names", []) if params.get("names") is Array else []
	for i: int in names_in.size():
		var e: Dictionary = names_in[i]
		var d: String = str(e.get("dimension", ""))
		var n: int = int(e.get("n", 0))
		var name: String = str(e.get("name", "")).strip_edges()
		if d != "2d" and d != "3d" or n < 1 or n > 32:
			return c.fail("VALIDATION_ERROR", "names[%d]: dimension is \"2d\" or \"3d\" and n is 1..32." % i)
		if d == "2d":
			p2d[n - 1] = name
		else:
			p3d[n - 1] = name
	var planned: Dictionary = {"2d": p2d, "3d": p3d}
	for d2: String in ["2d", "3d"]:
		var pl: PackedStringArray = planned[d2]
		for k: int in 32:
			if pl[k] != "" and pl.find(pl[k]) != k:
				return c.fail("VALIDATION_ERROR", "Two %s layers would be named '%s' (layers %d and %d): names pick layers, so they must be unique. Rename one." % [d2.to_upper(), pl[k], pl.find(pl[k]) + 1, k + 1])
			var old: String = (current[d2] as PackedStringArray)[k]
			if pl[k] != old:
				renames.append([Common.setting_key(d2, k + 1), old, pl[k]])
	var edits: Array = params.get("edits", []) if params.get("edits") is Array else []
	var root: Node = EditorInterface.get_edited_scene_root()
	if not edits.is_empty() and root == null:
		return c.no_scene()
	var order: Array[Node] = []
	var before: Dictionary = {} # node -> [layer, mask]
	var after: Dictionary = {}
	for i: int in edits.size():
		var e: Dictionary = edits[i]
		for p: Variant in e.get("nodes", []):
			var f: Dictionary = c.find(root, str(p))
			if f.has("error"):
				return f["error"]
			var n: Node = f["node"]
			var k: int = Common.kind(n)
			if k == 0:
				return _not_collision(root, n)
			if k == 1 and e.has("layer"):
				return c.fail("VALIDATION_ERROR", "edits[%d]: '%s' is a %s, which has only a collision_mask (what it detects); edit its mask." % [i, Common.rel(root, n), n.get_class()])
			if not after.has(n):
				order.append(n)
				var now: Array = [int(n.get("collision_layer")) if k == 2 else 0, int(n.get("collision_mask"))]
				before[n] = now
				after[n] = now.duplicate()
			var d3: String = Common.dim(n)
			for which: int in 2:
				var field: String = "layer" if which == 0 else "mask"
				if not e.has(field):
					continue
				var r: Dictionary = _apply_bits(int(after[n][which]), e[field], planned[d3], d3, "edits[%d].%s" % [i, field])
				if r.has("error"):
					return r["error"]
				after[n][which] = int(r["bits"])
	var changed: Array[Node] = []
	for n2: Node in order:
		if after[n2] != before[n2]:
			changed.append(n2)
	var reports: Array = []
	for n3: Node in order:
		var rep: Dictionary = Common.node_layers(root, n3)
		var all: PackedStringArray = planned[Common.dim(n3)]
		if Common.kind(n3) == 2:
			rep["layer"] = Common.layers_of(int(after[n3][0]), all)
			rep["layer_bits"] = int(after[n3][0])
		rep["mask"] = Common.layers_of(int(after[n3][1]), all)
		rep["mask_bits"] = int(after[n3][1])
		reports.append(rep)
	var out: Dictionary = {"names_2d": Common.named(planned["2d"]), "names_3d": Common.named(planned["3d"]), "renamed": renames.size(),
		"nodes": reports, "changed": changed.size(), "dry_run": dry, "undoable": false, "persisted": not dry, "reason": "a dry run" if dry else ""}
	if dry or (renames.is_empty() and changed.is_empty()):
		return c.ok(out)
	var label: String = _label(renames, changed, root)
	if root == null:
		# Names only and no scene open: the project's (global) undo history, which
		# godot_undo uses when no scene is open. With a scene open the action goes in
		# the scene's history, where godot_undo looks then.
		var mgr: EditorUndoRedoManager = EditorInterface.get_editor_undo_redo()
		mgr.create_action(label, UndoRedo.MERGE_DISABLE, ProjectSettings)
		for rn: Array in renames:
			mgr.add_do_method(ProjectSettings, "set_setting", rn[0], rn[2])
			mgr.add_undo_method(ProjectSettings, "set_setting", rn[0], rn[1])
		mgr.add_do_method(ProjectSettings, "save")
		mgr.add_undo_method(ProjectSettings, "save")
		mgr.commit_action(true)
	else:
		var rec: Recorder = Recorder.new()
		rec.begin()
		if not renames.is_empty():
			rec.undo_call(ProjectSettings, "save")
			rec.begin()
			for rn2: Array in renames:
				rec.do_call(ProjectSettings, "set_setting", [rn2[0], rn2[2]])
				rec.undo_call(ProjectSettings, "set_setting", [rn2[0], rn2[1]])
			rec.begin()
			rec.do_call(ProjectSettings, "save")
			rec.begin()
		for n4: Node in changed:
			if Common.kind(n4) == 2 and int(after[n4][0]) != int(before[n4][0]):
				rec.do_set(n4, "collision_layer", int(after[n4][0]))
				rec.undo_set(n4, "collision_layer", int(before[n4][0]))
			if int(after[n4][1]) != int(before[n4][1]):
				rec.do_set(n4, "collision_mask", int(after[n4][1]))
				rec.undo_set(n4, "collision_mask", int(before[n4][1]))
		rec.commit(label, root)
	out["undoable"] = true
	var reasons: PackedStringArray = []
	if not renames.is_empty():
		var disk: String = _on_disk(renames)
		if disk != "":
			reasons.append(disk)
	for n5: Node in changed:
		var pr: Dictionary = Common.persisted(root, n5)
		if not pr["persisted"]:
			reasons.append(str(pr["reason"]))
	out["persisted"] = reasons.is_empty()
	out["reason"] = "; ".join(reasons)
	return c.ok(out)


## [param bits] after the edit {set?, add?, remove?} with references resolved in [param all].
func _apply_bits(bits: int, edit: Variant, all: PackedStringArray, d: String, where: String) -> Dictionary:
	if not (edit is Dictionary):
		return {"error": c.fail("VALIDATION_ERROR", "%s must be {set?, add?, remove?}." % where)}
	var e: Dictionary = edit
	var out: int = bits
	for op: String in ["set", "add", "remove"]:
		if not e.has(op):
			continue
		var acc: int = 0
		var list: Array = e[op] if e[op] is Array else []
		for j: int in list.size():
			var r: Dictionary = c.ref_bit(list[j], all, d, "%s.%s[%d]" % [where, op, j])
			if r.has("error"):
				return r
			acc |= int(r["bit"])
		match op:
			"set":
				out = acc
			"add":
				out |= acc
			"remove":
				out &= ~acc
	return {"bits": out & 0xFFFFFFFF}


static func _label(renames: Array, changed: Array[Node], root: Node) -> String:
	var parts: PackedStringArray = []
	if not renames.is_empty():
		parts.append("name %d physics layer(s)" % renames.size())
	if not changed.is_empty():
		parts.append("set collision layers of %s" % (Common.rel(root, changed[0]) if changed.size() == 1 else "%d nodes" % changed.size()))
	return "godot-mcp: " + ", ".join(parts)


## "" when project.godot holds the new names, else why not.
static func _on_disk(renames: Array) -> String:
	var cf: ConfigFile = ConfigFile.new()
	var err: Error = cf.load("res://project.godot")
	if err != OK:
		return "project.godot could not be read back (%s)" % error_string(err)
	for rn: Array in renames:
		var key: String = str(rn[0]).trim_prefix("layer_names/")
		var want: String = str(rn[2])
		var got: String = str(cf.get_value("layer_names", key, ""))
		if got != want:
			return "project.godot was not saved with %s = '%s' (it holds '%s')" % [rn[0], want, got]
	return ""
