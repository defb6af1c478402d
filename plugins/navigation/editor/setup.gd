@tool
extends RefCounted
## Navigation regions, agents and links: read back (cmd_navigation_get), created or
## updated with their settings (cmd_navigation_configure), and the named navigation
## layers set on them by name or number (cmd_navigation_set_layers). One undo action
## per call; a dry run changes nothing; a refused call changes nothing.

const Common := preload("common.gd")
const Recorder := preload("res://addons/godot_mcp/lib/undo.gd")

## Input key -> [2D property, 3D property] on the region's NavigationPolygon / NavigationMesh.
const REGION_RES := {
	"geometry": ["parsed_geometry_type", "geometry_parsed_geometry_type"],
	"source_mode": ["source_geometry_mode", "geometry_source_geometry_mode"],
	"source_group": ["source_geometry_group_name", "geometry_source_group_name"],
	"collision_mask": ["parsed_collision_mask", "geometry_collision_mask"],
	"agent_radius": ["agent_radius", "agent_radius"],
	"agent_height": ["", "agent_height"],
	"agent_max_climb": ["", "agent_max_climb"],
	"agent_max_slope": ["", "agent_max_slope"],
	"cell_size": ["cell_size", "cell_size"],
	"cell_height": ["", "cell_height"],
	"border_size": ["border_size", "border_size"],
}
## Input key -> [2D property, 3D property] on the node itself, per kind.
const NODE_PROPS := {
	"region": {"enabled": ["enabled", "enabled"]},
	"agent": {"radius": ["radius", "radius"], "height": ["", "height"], "path_desired_distance": ["path_desired_distance", "path_desired_distance"],
		"target_desired_distance": ["target_desired_distance", "target_desired_distance"], "max_speed": ["max_speed", "max_speed"],
		"avoidance": ["avoidance_enabled", "avoidance_enabled"]},
	"link": {"start": ["start_position", "start_position"], "end": ["end_position", "end_position"], "bidirectional": ["bidirectional", "bidirectional"],
		"enter_cost": ["enter_cost", "enter_cost"], "travel_cost": ["travel_cost", "travel_cost"], "enabled": ["enabled", "enabled"]},
}

var c: Common = null


func _init(common: Common) -> void:
	c = common


## {} -> {scene, names_2d, names_3d, regions[], agents[], links[], debug_navigation}
func get_setup(_params: Dictionary) -> Dictionary:
	var out: Dictionary = {"scene": "", "names_2d": Common.named(Common.names("2d")), "names_3d": Common.named(Common.names("3d")),
		"regions": [], "agents": [], "links": [], "debug_navigation": debug_on()}
	var root: Node = EditorInterface.get_edited_scene_root()
	if root == null:
		return c.ok(out)
	out["scene"] = root.scene_file_path
	var all: Array[Node] = []
	Common.walk(root, all)
	for n: Node in all:
		var k: String = Common.kind_of(n)
		if k != "":
			(out[k + "s"] as Array).append(Common.report(root, n))
	return c.ok(out)


static func debug_on() -> bool:
	return bool(EditorInterface.get_editor_settings().get_project_metadata("debug_options", "run_debug_navigation", false))


## {kind, node?, parent?, name?, dimension?, values: {key: value}, layers?: {set?, add?, remove?}, outline?, dry_run}
## -> {node: report, created, changes[], warnings?, persisted, reason, undoable, dry_run}
func configure(params: Dictionary) -> Dictionary:
	var dry: bool = bool(params.get("dry_run", false))
	var root: Node = EditorInterface.get_edited_scene_root()
	if root == null:
		return c.no_scene()
	var k: String = str(params.get("kind", ""))
	if not Common.CLASSES.has(k):
		return c.invalid("kind must be region, agent or link.")
	var values: Dictionary = params.get("values", {}) if params.get("values") is Dictionary else {}
	var target: Node = null
	var parent: Node = null
	var d: String = str(params.get("dimension", ""))
	var node_path: String = str(params.get("node", "")).strip_edges()
	if node_path != "":
		var f: Dictionary = c.find(root, node_path)
		if f.has("error"):
			return f["error"]
		target = f["node"]
		if Common.kind_of(target) != k:
			return c.wrong_kind(root, target, k)
		var nd: String = Common.dim(target)
		if d != "" and d != nd:
			return c.invalid("'%s' is a %s (%s); dimension %s does not apply. Omit dimension when editing a node." % [Common.rel(root, target), target.get_class(), nd.to_upper(), d])
		d = nd
	else:
		var pp: String = str(params.get("parent", "")).strip_edges()
		if pp == "":
			return c.invalid("Give node (an existing %s to update) or parent (where to create a new one; \".\" is the scene root)." % " or ".join(PackedStringArray(Common.CLASSES[k])))
		var fp: Dictionary = c.find(root, pp)
		if fp.has("error"):
			return fp["error"]
		parent = fp["node"]
		if d == "":
			if parent is Node3D:
				d = "3d"
			elif parent is CanvasItem:
				d = "2d"
			else:
				return c.invalid("'%s' is a %s, neither 2D nor 3D: give dimension \"2d\" or \"3d\" for the new %s." % [Common.rel(root, parent), parent.get_class(), k])
	var di: int = 0 if d == "2d" else 1
	var cls: String = Common.CLASSES[k][di]
	# Check every value before anything changes.
	var node_sets: Array = [] # [property, value]
	var res_sets: Array = []
	var warnings: PackedStringArray = []
	var node_table: Dictionary = NODE_PROPS[k]
	for key: String in values:
		var v: Variant = values[key]
		if v == null:
			continue
		var prop: String = ""
		var on_res: bool = false
		if node_table.has(key):
			prop = node_table[key][di]
		elif k == "region" and REGION_RES.has(key):
			prop = REGION_RES[key][di]
			on_res = true
		else:
			var valid: PackedStringArray = PackedStringArray(node_table.keys())
			if k == "region":
				valid.append_array(PackedStringArray(REGION_RES.keys()))
			return c.invalid("'%s' is not a %s setting.%s Valid: %s." % [key, k, Common.Names.did_you_mean(key, valid), ", ".join(valid)])
		if prop == "":
			return c.invalid("%s is a 3D setting; a %s has no %s." % [key, cls, key])
		var conv: Dictionary = _convert(key, v, d)
		if conv.has("error"):
			return c.invalid(str(conv["error"]))
		if on_res:
			res_sets.append([prop, conv["value"]])
		else:
			node_sets.append([prop, conv["value"]])
	var outline: Variant = null
	if params.get("outline") != null:
		if k != "region" or d != "2d":
			return c.invalid("outline is the walkable area of a 2D region (NavigationRegion2D); a 3D region bakes from its source geometry.")
		var pts: PackedVector2Array = []
		var raw: Array = params["outline"] if params["outline"] is Array else []
		for p: Variant in raw:
			var pv: Variant = Common.to_vec(p, "2d")
			if pv == null:
				return c.invalid("outline must be a list of [x, y] points.")
			pts.append(pv)
		if pts.size() < 3:
			return c.invalid("outline needs at least 3 points [x, y] (the walkable area's corners, in the region's space).")
		outline = pts
	var layer_bits: int = -1
	if params.get("layers") is Dictionary:
		var cur: int = int(target.get("navigation_layers")) if target != null else 1
		var r: Dictionary = apply_bits(cur, params["layers"], Common.names(d), d, "layers")
		if r.has("error"):
			return r["error"]
		layer_bits = int(r["bits"])
	var want_name: String = str(params.get("name", "")).strip_edges()
	if target != null and want_name != "" and want_name != str(target.name):
		return c.invalid("name is for a new node; '%s' exists. Rename nodes with godot_scene_rename_node." % Common.rel(root, target))
	# Plan: for a new node, everything is set before it enters the tree (undo removes it).
	var created: bool = target == null
	var n: Node = target
	if created:
		n = ClassDB.instantiate(cls)
		n.name = want_name if want_name != "" else cls
		if k == "region":
			n.set("navigation_mesh" if d == "3d" else "navigation_polygon", _new_resource(d))
	var res: Resource = Common.nav_resource(n) if k == "region" else null
	var new_res: bool = false
	if k == "region" and res == null:
		res = _new_resource(d)
		new_res = true
	if res != null and not res.resource_path.is_empty() and not res.resource_path.contains("::"):
		warnings.append("the region's %s is the file %s: these settings change that file when the scene is saved, and every region using it" % [res.get_class(), res.resource_path])
	var changes: Array = []
	var rec: Recorder = Recorder.new()
	rec.begin()
	if new_res and not created:
		rec.do_set(n, "navigation_mesh" if d == "3d" else "navigation_polygon", res)
		rec.undo_set(n, "navigation_mesh" if d == "3d" else "navigation_polygon", null)
		changes.append({"property": "navigation_mesh" if d == "3d" else "navigation_polygon", "old": null, "new": res.get_class()})
	for s: Array in node_sets:
		var old: Variant = n.get(s[0])
		if old != s[1]:
			changes.append({"property": s[0], "old": _show(old), "new": _show(s[1])})
			rec.do_set(n, s[0], s[1])
			rec.undo_set(n, s[0], old)
	if layer_bits >= 0 and int(n.get("navigation_layers")) != layer_bits:
		changes.append({"property": "navigation_layers", "old": int(n.get("navigation_layers")), "new": layer_bits})
		rec.undo_set(n, "navigation_layers", n.get("navigation_layers"))
		rec.do_set(n, "navigation_layers", layer_bits)
	for s2: Array in res_sets:
		var old2: Variant = res.get(s2[0])
		if old2 != s2[1]:
			changes.append({"property": "%s:%s" % ["navigation_mesh" if d == "3d" else "navigation_polygon", s2[0]], "old": _show(old2), "new": _show(s2[1])})
			rec.do_set(res, s2[0], s2[1])
			rec.undo_set(res, s2[0], old2)
	if outline != null:
		var np: NavigationPolygon = res as NavigationPolygon
		var olds: Array = []
		for i: int in np.get_outline_count():
			olds.append(np.get_outline(i))
		changes.append({"property": "navigation_polygon:outlines", "old": olds.size(), "new": 1})
		rec.undo_call(np, "clear_outlines")
		for o: PackedVector2Array in olds:
			rec.undo_call(np, "add_outline", [o])
		rec.do_call(np, "clear_outlines")
		rec.do_call(np, "add_outline", [outline])
	if res is NavigationMesh:
		var cell: float = float(ProjectSettings.get_setting("navigation/3d/default_cell_size", 0.25))
		if not is_equal_approx((res as NavigationMesh).cell_size, cell):
			warnings.append("cell_size %s differs from the navigation map's (project setting navigation/3d/default_cell_size = %s): Godot reports a mismatch at run time and edges may not connect" % [(res as NavigationMesh).cell_size, cell])
	if k == "agent" and created and not (parent is Node2D or parent is Node3D):
		warnings.append("a navigation agent steers its parent: put it under the CharacterBody (or other Node2D/Node3D) that moves")
	if res != null and (res_sets.size() > 0 or outline != null) and Common.counts(res)["polygons"] > 0:
		warnings.append("the region keeps its old baked polygons until it is baked again (godot_navigation_bake)")
	var report: Dictionary = Common.report(root, n) if not created else {}
	if created:
		report = {"path": (Common.rel(root, parent).path_join(str(n.name)) if parent != root else str(n.name)), "class": cls, "kind": k, "dimension": d}
		changes.push_front({"property": "(node)", "old": null, "new": cls})
	var out: Dictionary = {"node": report, "created": created, "changes": changes, "dry_run": dry, "undoable": false, "persisted": false, "reason": ""}
	if not warnings.is_empty():
		out["warnings"] = warnings
	if dry:
		rec.rollback()
		if created:
			n.free()
		out["reason"] = "a dry run"
		return c.ok(out)
	if changes.is_empty():
		out["persisted"] = true
		out["reason"] = "nothing to change"
		return c.ok(out)
	if created:
		rec.begin()
		rec.created.append(n)
		rec.do_refs.append(n)
		rec.do_call(parent, "add_child", [n, true])
		rec.do_call(n, "set_owner", [root])
		rec.undo_call(parent, "remove_child", [n])
	rec.commit("godot-mcp: %s navigation %s '%s'" % ["add" if created else "configure", k, str(n.name)], root)
	out["node"] = Common.report(root, n)
	var pr: Dictionary = Common.persisted(root, n)
	out["undoable"] = true
	out["persisted"] = pr["persisted"]
	out["reason"] = pr["reason"]
	return c.ok(out)


static func _new_resource(d: String) -> Resource:
	if d == "3d":
		return NavigationMesh.new()
	return NavigationPolygon.new()


static func _show(v: Variant) -> Variant:
	if v is Vector2 or v is Vector3:
		return Common.vec(v)
	if v is StringName:
		return str(v)
	return v


## One value of [param key] in Godot's type: {value} or {error}.
static func _convert(key: String, v: Variant, d: String) -> Dictionary:
	match key:
		"geometry":
			var i: int = Common.GEOMETRY.find(str(v))
			if i < 0:
				return {"error": "geometry '%s' is not one of %s." % [v, ", ".join(Common.GEOMETRY)]}
			return {"value": i}
		"source_mode":
			var j: int = Common.SOURCE_MODES.find(str(v))
			if j < 0:
				return {"error": "source_mode '%s' is not one of %s." % [v, ", ".join(Common.SOURCE_MODES)]}
			return {"value": j}
		"source_group":
			if str(v).strip_edges() == "":
				return {"error": "source_group must be a group name"}
			return {"value": StringName(str(v).strip_edges())}
		"start", "end":
			var p: Variant = Common.to_vec(v, d)
			if p == null:
				return {"error": "%s must be [x, y] for a 2D link or [x, y, z] for a 3D link." % key}
			return {"value": p}
		"enabled", "bidirectional", "avoidance":
			if typeof(v) != TYPE_BOOL:
				return {"error": "%s must be true or false." % key}
			return {"value": v}
		"collision_mask":
			if typeof(v) != TYPE_INT and typeof(v) != TYPE_FLOAT or float(v) < 0 or float(v) > 4294967295.0:
				return {"error": "collision_mask must be a 32-bit mask (0..4294967295)."}
			return {"value": int(v)}
	if typeof(v) != TYPE_INT and typeof(v) != TYPE_FLOAT:
		return {"error": "%s must be a number." % key}
	var f: float = float(v)
	if key == "agent_max_slope" and (f < 0.0 or f > 90.0):
		return {"error": "agent_max_slope is in degrees, 0..90."}
	if f < 0.0 or (f == 0.0 and key in ["cell_size", "cell_height", "agent_height"]):
		return {"error": "%s must be %s." % [key, "positive" if key in ["cell_size", "cell_height", "agent_height"] else "0 or more"]}
	return {"value": f}


## {names: [{dimension, n, name}], edits: [{nodes, set?, add?, remove?}], dry_run}
## -> {names_2d, names_3d, renamed, nodes[], changed, persisted, reason, undoable, dry_run}
func set_layers(params: Dictionary) -> Dictionary:
	var dry: bool = bool(params.get("dry_run", false))
	var current: Dictionary = {"2d": Common.names("2d"), "3d": Common.names("3d")}
	var p2d: PackedStringArray = (current["2d"] as PackedStringArray).duplicate()
	var p3d: PackedStringArray = (current["3d"] as PackedStringArray).duplicate()
	var names_in: Array = params.get("names", []) if params.get("names") is Array else []
	for i: int in names_in.size():
		var e: Dictionary = names_in[i] if names_in[i] is Dictionary else {}
		var d: String = str(e.get("dimension", ""))
		var n: int = int(e.get("n", 0))
		var name: String = str(e.get("name", "")).strip_edges()
		if d != "2d" and d != "3d" or n < 1 or n > 32:
			return c.invalid("names[%d]: dimension is \"2d\" or \"3d\" and n is 1..32." % i)
		if name.is_valid_int():
			return c.invalid("names[%d].name '%s': a layer name must not be a number (numbers mean layer numbers here)." % [i, name])
		if d == "2d":
			p2d[n - 1] = name
		else:
			p3d[n - 1] = name
	var planned: Dictionary = {"2d": p2d, "3d": p3d}
	var renames: Array = [] # [key, old, new]
	for d2: String in ["2d", "3d"]:
		var pl: PackedStringArray = planned[d2]
		for k: int in 32:
			if pl[k] != "" and pl.find(pl[k]) != k:
				return c.invalid("Two %s navigation layers would be named '%s' (layers %d and %d): names pick layers, so they must be unique." % [d2.to_upper(), pl[k], pl.find(pl[k]) + 1, k + 1])
			var old: String = (current[d2] as PackedStringArray)[k]
			if pl[k] != old:
				renames.append([Common.setting_key(d2, k + 1), old, pl[k]])
	var edits: Array = params.get("edits", []) if params.get("edits") is Array else []
	var root: Node = EditorInterface.get_edited_scene_root()
	if not edits.is_empty() and root == null:
		return c.no_scene()
	var order: Array[Node] = []
	var before: Dictionary = {}
	var after: Dictionary = {}
	for i: int in edits.size():
		var e2: Dictionary = edits[i] if edits[i] is Dictionary else {}
		for p: Variant in e2.get("nodes", []):
			var f: Dictionary = c.find(root, str(p))
			if f.has("error"):
				return f["error"]
			var nn: Node = f["node"]
			if Common.kind_of(nn) == "":
				var have: PackedStringArray = Common.paths_of(root, "")
				var hint: String = "'%s' is a %s, which has no navigation layers (regions, links and agents have them)." % [Common.rel(root, nn), nn.get_class()]
				hint += (" Navigation nodes in the scene: %s." % Common.Nodes.short_list(have)) if not have.is_empty() else " The scene has no navigation node."
				return c.invalid(hint)
			if not after.has(nn):
				order.append(nn)
				before[nn] = int(nn.get("navigation_layers"))
				after[nn] = before[nn]
			var d3: String = Common.dim(nn)
			var r: Dictionary = apply_bits(int(after[nn]), e2, planned[d3], d3, "edits[%d]" % i)
			if r.has("error"):
				return r["error"]
			after[nn] = int(r["bits"])
	var reports: Array = []
	var changed: Array[Node] = []
	for n2: Node in order:
		var rep: Dictionary = Common.report(root, n2)
		rep["layers"] = Common.layers_of(int(after[n2]), planned[Common.dim(n2)])
		rep["layer_bits"] = int(after[n2])
		reports.append(rep)
		if int(after[n2]) != int(before[n2]):
			changed.append(n2)
	var out: Dictionary = {"names_2d": Common.named(planned["2d"]), "names_3d": Common.named(planned["3d"]), "renamed": renames.size(),
		"nodes": reports, "changed": changed.size(), "dry_run": dry, "undoable": false, "persisted": not dry, "reason": "a dry run" if dry else ""}
	if dry or (renames.is_empty() and changed.is_empty()):
		return c.ok(out)
	var label: String = "godot-mcp: navigation layers"
	if root == null:
		var mgr: EditorUndoRedoManager = EditorInterface.get_editor_undo_redo()
		mgr.create_action(label, UndoRedo.MERGE_DISABLE, ProjectSettings)
		for rn: Array in renames:
			mgr.add_do_method(ProjectSettings, "set_setting", rn[0], rn[2] if rn[2] != "" else null)
			mgr.add_undo_method(ProjectSettings, "set_setting", rn[0], rn[1] if rn[1] != "" else null)
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
				rec.do_call(ProjectSettings, "set_setting", [rn2[0], rn2[2] if rn2[2] != "" else null])
				rec.undo_call(ProjectSettings, "set_setting", [rn2[0], rn2[1] if rn2[1] != "" else null])
			rec.begin()
			rec.do_call(ProjectSettings, "save")
			rec.begin()
		for n3: Node in changed:
			rec.do_set(n3, "navigation_layers", int(after[n3]))
			rec.undo_set(n3, "navigation_layers", int(before[n3]))
		rec.commit(label, root)
	out["undoable"] = true
	var reasons: PackedStringArray = []
	for n4: Node in changed:
		var pr: Dictionary = Common.persisted(root, n4)
		if not pr["persisted"]:
			reasons.append(str(pr["reason"]))
	out["persisted"] = reasons.is_empty()
	out["reason"] = "; ".join(reasons)
	return c.ok(out)


## [param bits] after the edit {set?, add?, remove?} with references resolved in [param all].
func apply_bits(bits: int, e: Dictionary, all: PackedStringArray, d: String, where: String) -> Dictionary:
	var out: int = bits
	for op: String in ["set", "add", "remove"]:
		if not e.has(op) or e[op] == null:
			continue
		var r: Dictionary = c.refs_bits(e[op], all, d, "%s.%s" % [where, op])
		if r.has("error"):
			return r
		match op:
			"set":
				out = int(r["bits"])
			"add":
				out |= int(r["bits"])
			"remove":
				out &= ~int(r["bits"])
	return {"bits": out & 0xFFFFFFFF}
