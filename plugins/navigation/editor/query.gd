@tool
extends RefCounted
## Path queries on baked navigation data and the navigation debug drawing of games:
## cmd_navigation_path builds a temporary navigation map in the editor from the scene's
## baked regions (and links) and asks NavigationServer for the path; cmd_navigation_game_path
## asks the running game's own map through the runtime toolset's probe (the toolset's
## game code, ../game/game.gd, loaded by the probe); cmd_navigation_debug switches the editor's
## "Visible Navigation" run option (the game gets --debug-navigation).

const Common := preload("common.gd")
const GameMessages := preload("res://addons/godot_mcp/lib/game_messages.gd")

const SYNC_FRAMES := 120
const GAME_TIMEOUT_MS := 10000

var c: Common = null


func _init(common: Common) -> void:
	c = common


## Checks {from, to, layers?} for dimension [param d]: {from, to, bits} or {error}.
func _ends(params: Dictionary, d: String) -> Dictionary:
	var from: Variant = Common.to_vec(params.get("from"), d)
	var to: Variant = Common.to_vec(params.get("to"), d)
	if from == null or to == null:
		return {"error": c.invalid("from and to must both be [x, y] (2D) or [x, y, z] (3D) points in global coordinates.")}
	var bits: int = 0xFFFFFFFF
	if params.get("layers") is Array and not (params["layers"] as Array).is_empty():
		var r: Dictionary = c.refs_bits(params["layers"], Common.names(d), d, "layers")
		if r.has("error"):
			return r
		bits = int(r["bits"])
	return {"from": from, "to": to, "bits": bits}


static func _length(points: Variant) -> float:
	var total: float = 0.0
	for i: int in range(1, points.size()):
		total += points[i].distance_to(points[i - 1])
	return total


static func _points(points: Variant) -> Array:
	var out: Array = []
	for p: Variant in points:
		out.append(Common.vec(p))
	return out


## {from, to, layers?, regions?: [paths], optimize} -> {dimension, points[], length, straight,
## reached, end_gap, regions[], links}
func editor_path(params: Dictionary) -> Dictionary:
	var root: Node = EditorInterface.get_edited_scene_root()
	if root == null:
		return c.no_scene()
	var d: String = "2d" if (params.get("from") is Array and (params["from"] as Array).size() == 2) else "3d"
	var e: Dictionary = _ends(params, d)
	if e.has("error"):
		return e["error"]
	var optimize: bool = bool(params.get("optimize", true))
	var regions: Array[Node] = []
	var wanted: Array = params.get("regions", []) if params.get("regions") is Array else []
	if wanted.is_empty():
		var all: Array[Node] = []
		Common.walk(root, all)
		for n: Node in all:
			if Common.kind_of(n) == "region" and Common.dim(n) == d and bool(n.get("enabled")) and Common.counts(Common.nav_resource(n))["polygons"] > 0:
				regions.append(n)
	else:
		for p: Variant in wanted:
			var f: Dictionary = c.find(root, str(p))
			if f.has("error"):
				return f["error"]
			var rn: Node = f["node"]
			if Common.kind_of(rn) != "region":
				return c.wrong_kind(root, rn, "region")
			if Common.dim(rn) != d:
				return c.invalid("'%s' is a %s region; from and to are %s points." % [Common.rel(root, rn), Common.dim(rn).to_upper(), d.to_upper()])
			if Common.counts(Common.nav_resource(rn))["polygons"] == 0:
				return c.fail("PRECONDITION_FAILED", "'%s' has no baked polygons. Bake it with godot_navigation_bake {region: \"%s\"} first." % [Common.rel(root, rn), Common.rel(root, rn)])
			regions.append(rn)
	if regions.is_empty():
		var any: PackedStringArray = Common.paths_of(root, "region")
		var hint: String = "The scene has no enabled %s navigation region with baked polygons." % d.to_upper()
		hint += (" Regions: %s; bake one with godot_navigation_bake." % Common.Nodes.short_list(any)) if not any.is_empty() else " Create one with godot_navigation_region, then bake it with godot_navigation_bake."
		return c.fail("PRECONDITION_FAILED", hint)
	var server: Object = NavigationServer2D
	if d == "3d":
		server = NavigationServer3D
	var map: RID = server.call("map_create")
	var first_res: Resource = Common.nav_resource(regions[0])
	server.call("map_set_cell_size", map, float(first_res.get("cell_size")))
	if d == "3d":
		server.call("map_set_cell_height", map, float(first_res.get("cell_height")))
	server.call("map_set_use_async_iterations", map, false)
	server.call("map_set_active", map, true)
	var rids: Array[RID] = []
	for r: Node in regions:
		var rid: RID = server.call("region_create")
		rids.append(rid)
		server.call("region_set_map", rid, map)
		server.call("region_set_transform", rid, r.get("global_transform"))
		server.call("region_set_navigation_layers", rid, int(r.get("navigation_layers")))
		server.call("region_set_enter_cost", rid, float(r.get("enter_cost")))
		server.call("region_set_travel_cost", rid, float(r.get("travel_cost")))
		server.call("region_set_navigation_mesh" if d == "3d" else "region_set_navigation_polygon", rid, Common.nav_resource(r))
	var link_rids: Array[RID] = []
	var every: Array[Node] = []
	Common.walk(root, every)
	for ln: Node in every:
		if Common.kind_of(ln) == "link" and Common.dim(ln) == d and bool(ln.get("enabled")):
			var lid: RID = server.call("link_create")
			link_rids.append(lid)
			server.call("link_set_map", lid, map)
			server.call("link_set_bidirectional", lid, bool(ln.get("bidirectional")))
			server.call("link_set_start_position", lid, ln.call("get_global_start_position"))
			server.call("link_set_end_position", lid, ln.call("get_global_end_position"))
			server.call("link_set_navigation_layers", lid, int(ln.get("navigation_layers")))
			server.call("link_set_enter_cost", lid, float(ln.get("enter_cost")))
			server.call("link_set_travel_cost", lid, float(ln.get("travel_cost")))
	# The map takes the regions in on its next synchronisation; wait for it (bounded).
	var tree: SceneTree = Engine.get_main_loop() as SceneTree
	var synced: bool = false
	for i: int in SYNC_FRAMES:
		server.call("map_force_update", map)
		var owner: RID = server.call("map_get_closest_point_owner", map, e["from"])
		if int(server.call("map_get_iteration_id", map)) > 0 and owner.is_valid():
			synced = true
			break
		await tree.physics_frame
	var out: Dictionary = {}
	if synced:
		var path: Variant = server.call("map_get_path", map, e["from"], e["to"], optimize, e["bits"])
		var start: Variant = server.call("map_get_closest_point", map, e["from"])
		var end: Variant = server.call("map_get_closest_point", map, e["to"])
		var tol: float = 0.05 + float(first_res.get("cell_size")) * 2.0 + (float(first_res.get("cell_height")) * 2.0 if d == "3d" else 0.0)
		var reached: bool = path.size() > 0 and path[path.size() - 1].distance_to(e["to"]) <= tol
		var reg_paths: Array = []
		for r2: Node in regions:
			reg_paths.append(Common.rel(root, r2))
		out = {"dimension": d, "points": _points(path), "length": snappedf(_length(path), 0.0001),
			"straight": snappedf(e["from"].distance_to(e["to"]), 0.0001), "reached": reached,
			"end_gap": snappedf(path[path.size() - 1].distance_to(e["to"]), 0.0001) if path.size() > 0 else -1.0,
			"from_on_mesh": Common.vec(start), "to_on_mesh": Common.vec(end), "regions": reg_paths, "links": link_rids.size(), "layers": e["bits"]}
	for lid2: RID in link_rids:
		server.call("free_rid", lid2)
	for rid2: RID in rids:
		server.call("free_rid", rid2)
	server.call("free_rid", map)
	if not synced:
		return c.fail("TIMEOUT", "The temporary navigation map did not take the baked regions in within %d physics frames (is the editor's main loop running?). Retry." % SYNC_FRAMES)
	return c.ok(out)


## {from, to, layers?, optimize} -> the running game's path on its world's navigation map.
func game_path(params: Dictionary) -> Dictionary:
	var d: String = "2d" if (params.get("from") is Array and (params["from"] as Array).size() == 2) else "3d"
	var e: Dictionary = _ends(params, d)
	if e.has("error"):
		return e["error"]
	var optimize: bool = bool(params.get("optimize", true))
	# The query runs in the game as this toolset's game code (game/game.gd, "navigation:path").
	var r: Dictionary = await GameMessages.ask_from(c.router, "cmd_navigation_game_path", "path", {"from": e["from"], "to": e["to"], "layers": int(e["bits"]), "optimize": optimize}, GAME_TIMEOUT_MS)
	if not bool(r.get("ok", false)):
		return r
	var value: Variant = r.get("result")
	if not (value is Dictionary) or not (value as Dictionary).has("points"):
		return c.fail("INTERNAL_ERROR", "The game's navigation code answered the path query with %s." % str(value).left(200))
	var v: Dictionary = value
	if int(v.get("iteration", 0)) == 0:
		return c.fail("PRECONDITION_FAILED", "The running game's %s navigation map has not synchronised yet (no region is on it, or it was just created). Check that the played scene has a baked, enabled region, and retry in a moment." % d.to_upper())
	var pts: Array = []
	for p: Variant in v["points"]:
		pts.append(Common.to_vec(p, d))
	var length: float = _length(pts)
	var reached: bool = not pts.is_empty() and pts[pts.size() - 1].distance_to(e["to"]) <= 0.5
	return c.ok({"dimension": d, "points": v["points"], "length": snappedf(length, 0.0001), "straight": snappedf(e["from"].distance_to(e["to"]), 0.0001),
		"reached": reached, "end_gap": snappedf(pts[pts.size() - 1].distance_to(e["to"]), 0.0001) if not pts.is_empty() else -1.0,
		"regions": int(v.get("regions", 0)), "debug_navigation": bool(v.get("debug_navigation", false)), "layers": e["bits"]})


## {enabled, dry_run} -> {enabled, was, changed, undoable, persisted, dry_run, note}
func set_debug(params: Dictionary) -> Dictionary:
	var dry: bool = bool(params.get("dry_run", false))
	if typeof(params.get("enabled")) != TYPE_BOOL:
		return c.invalid("enabled must be true or false.")
	var want: bool = params["enabled"]
	var es: EditorSettings = EditorInterface.get_editor_settings()
	var was: bool = bool(es.get_project_metadata("debug_options", "run_debug_navigation", false))
	var out: Dictionary = {"enabled": want, "was": was, "changed": want != was, "dry_run": dry, "undoable": false, "persisted": not dry,
		"note": "games run from the editor from now on get --debug-navigation (navigation meshes, links and agent paths drawn); a game already running keeps its drawing until it is played again"}
	if dry or want == was:
		return c.ok(out)
	var mgr: EditorUndoRedoManager = EditorInterface.get_editor_undo_redo()
	var root: Node = EditorInterface.get_edited_scene_root()
	var context: Object = es
	if root != null:
		context = root
	mgr.create_action("godot-mcp: navigation debug drawing %s" % ("on" if want else "off"), UndoRedo.MERGE_DISABLE, context)
	mgr.add_do_method(es, "set_project_metadata", "debug_options", "run_debug_navigation", want)
	mgr.add_undo_method(es, "set_project_metadata", "debug_options", "run_debug_navigation", was)
	mgr.commit_action(true)
	out["undoable"] = true
	out["enabled"] = bool(es.get_project_metadata("debug_options", "run_debug_navigation", false))
	return c.ok(out)
