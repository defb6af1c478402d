@tool
extends RefCounted
## Bakes a navigation region in the editor (cmd_navigation_bake): parses the source
## geometry its NavigationMesh / NavigationPolygon selects (children of the region, or
## a group), bakes synchronously into a copy, and writes the baked vertices and polygons
## into the region's resource as ONE undo action (before and after). A bake that
## produces no polygon changes nothing and says why.

const Common := preload("common.gd")
const Recorder := preload("res://addons/godot_mcp/lib/undo.gd")

var c: Common = null


func _init(common: Common) -> void:
	c = common


## {region, dry_run} -> {region, dimension, polygons, vertices, before: {polygons, vertices},
## source: {...}, settings, warnings?, persisted, reason, undoable, dry_run}
func bake(params: Dictionary) -> Dictionary:
	var dry: bool = bool(params.get("dry_run", false))
	var root: Node = EditorInterface.get_edited_scene_root()
	if root == null:
		return c.no_scene()
	var f: Dictionary = c.find(root, str(params.get("region", "")))
	if f.has("error"):
		return f["error"]
	var region: Node = f["node"]
	if Common.kind_of(region) != "region":
		return c.wrong_kind(root, region, "region")
	var d: String = Common.dim(region)
	var res: Resource = Common.nav_resource(region)
	if res == null:
		return c.fail("PRECONDITION_FAILED", "'%s' has no %s to bake into. Give it one with godot_navigation_region {node: \"%s\"} (with the baking settings), then bake." % [Common.rel(root, region), "NavigationMesh" if d == "3d" else "NavigationPolygon", Common.rel(root, region)])
	var work: Resource = res.duplicate()
	var source: Dictionary = {}
	if d == "3d":
		var nm: NavigationMesh = work as NavigationMesh
		nm.clear()
		var src: NavigationMeshSourceGeometryData3D = NavigationMeshSourceGeometryData3D.new()
		NavigationServer3D.parse_source_geometry_data(nm, src, region)
		var tris: int = int(src.get_indices().size() / 3.0)
		source = {"triangles": tris, "has_data": src.has_data()}
		if src.has_data():
			NavigationServer3D.bake_from_source_geometry_data(nm, src)
		if nm.get_polygon_count() == 0:
			return _empty(root, region, nm, _why_3d(root, region, nm, src))
	else:
		var np: NavigationPolygon = work as NavigationPolygon
		np.clear_polygons()
		np.set_vertices(PackedVector2Array())
		var src2: NavigationMeshSourceGeometryData2D = NavigationMeshSourceGeometryData2D.new()
		NavigationServer2D.parse_source_geometry_data(np, src2, region)
		source = {"outlines": np.get_outline_count(), "traversable": src2.get_traversable_outlines().size(), "obstructions": src2.get_obstruction_outlines().size()}
		if np.get_outline_count() > 0 or src2.has_data():
			NavigationServer2D.bake_from_source_geometry_data(np, src2)
		if np.get_polygon_count() == 0:
			return _empty(root, region, np, _why_2d(root, region, np, src2))
	var before: Dictionary = Common.counts(res)
	var after: Dictionary = Common.counts(work)
	var out: Dictionary = {"region": Common.rel(root, region), "dimension": d, "polygons": after["polygons"], "vertices": after["vertices"],
		"before": before, "source": source, "settings": Common.settings_of(res), "dry_run": dry, "undoable": false, "persisted": false,
		"reason": "a dry run" if dry else ""}
	var external: bool = not res.resource_path.is_empty() and not res.resource_path.contains("::")
	if dry:
		return c.ok(out)
	var rec: Recorder = Recorder.new()
	rec.begin()
	var prop_name: String = "navigation_mesh" if d == "3d" else "navigation_polygon"
	if external:
		# A shared .tres: the baked data goes into that resource (and its file).
		for prop: String in ["vertices", "polygons"]:
			rec.undo_set(res, prop, res.get(prop))
			rec.do_set(res, prop, work.get(prop))
		rec.do_call(res, "emit_changed")
		rec.undo_call(res, "emit_changed")
		rec.do_call(ResourceSaver, "save", [res, res.resource_path])
		rec.undo_call(ResourceSaver, "save", [res, res.resource_path])
	else:
		# An embedded resource: the region takes the baked copy; undo gives the old one back.
		rec.do_set(region, prop_name, work)
		rec.undo_set(region, prop_name, res)
		rec.undo_refs.append(res)
		rec.do_refs.append(work)
	rec.commit("godot-mcp: bake navigation '%s'" % Common.rel(root, region), root)
	var now: Dictionary = Common.counts(Common.nav_resource(region))
	if now["polygons"] != after["polygons"]:
		return c.fail("INTERNAL_ERROR", "The bake produced %d polygons but the region's resource holds %d after writing them." % [after["polygons"], now["polygons"]])
	var pr: Dictionary = Common.persisted(root, region)
	out["undoable"] = true
	out["persisted"] = pr["persisted"]
	out["reason"] = pr["reason"]
	if external:
		out["warnings"] = ["the baked data was saved into %s (shared by every region using it); undo writes the old data back" % res.resource_path]
		out["persisted"] = true
		out["reason"] = ""
	return c.ok(out)


## The refusal of a bake without polygons: why, and what to do. Nothing is changed.
func _empty(root: Node, region: Node, _res: Resource, why: Array) -> Dictionary:
	var parts: PackedStringArray = []
	for w: Dictionary in why:
		parts.append("%s (%s): %s" % [w["message"], w["code"], w["fix"]])
	return c.fail("PRECONDITION_FAILED", "Baking '%s' produced no navigation polygon; nothing was changed. %s" % [Common.rel(root, region), " ".join(parts)])


## Nodes of the edited scene in [param group] ([] when none).
static func _in_group(root: Node, group: String) -> Array[Node]:
	var out: Array[Node] = []
	for n: Node in root.get_tree().get_nodes_in_group(group):
		if n == root or root.is_ancestor_of(n):
			out.append(n)
	return out


## How many nodes under (and including) [param from] could give geometry of each type.
static func _candidates(from: Array[Node], three_d: bool, children: bool) -> Dictionary:
	var meshes: int = 0
	var bodies: int = 0
	for top: Node in from:
		var all: Array[Node] = [top]
		if children:
			all = []
			Common.walk(top, all)
		for n: Node in all:
			if three_d:
				if n is MeshInstance3D or n is CSGShape3D or n is MultiMeshInstance3D or n is GridMap:
					meshes += 1
				if n is StaticBody3D:
					bodies += 1
			else:
				if n is MeshInstance2D or n is Polygon2D or n is MultiMeshInstance2D or n is TileMapLayer:
					meshes += 1
				if n is StaticBody2D:
					bodies += 1
	return {"meshes": meshes, "bodies": bodies}


## Why the source geometry is empty: the mode's roots, the parsed type and what they hold.
func _no_source(root: Node, region: Node, geometry: int, mode: int, group: String, three_d: bool) -> Dictionary:
	var tops: Array[Node] = []
	var where: String = "under the region '%s'" % Common.rel(root, region)
	if mode == 0:
		tops.assign(region.get_children())
	else:
		tops = _in_group(root, group)
		where = "in the group '%s'" % group
		if tops.is_empty():
			return {"code": "no_source_geometry", "message": "no node of the scene is in the group '%s' (source_mode %s)" % [group, Common.SOURCE_MODES[mode]],
				"fix": "add the floor and obstacles to the group '%s' (godot_scene_set_groups), or set source_group / source_mode root_node with godot_navigation_region" % group}
		if mode == 2:
			where += " (group_explicit: the group's nodes only, not their children)"
	var cand: Dictionary = _candidates(tops, three_d, mode != 2)
	var want: String = ["%s nodes" % ("MeshInstance3D/CSG/GridMap" if three_d else "MeshInstance2D/Polygon2D/TileMapLayer"),
		"StaticBody%s collision shapes" % ("3D" if three_d else "2D"), "meshes or static bodies"][geometry]
	var msg: String = "no source geometry %s: geometry %s parses %s, and there are %d mesh node(s) and %d static body(ies)" % [where, Common.GEOMETRY[geometry], want, cand["meshes"], cand["bodies"]]
	var fix: String = "put the floor and obstacles %s" % where
	if geometry == 0 and cand["bodies"] > 0:
		fix = "set geometry to static_colliders or both (godot_navigation_region), since the geometry there is static bodies"
	elif geometry == 1 and cand["meshes"] > 0 and cand["bodies"] == 0:
		fix = "set geometry to mesh_instances or both (godot_navigation_region), since the geometry there is meshes"
	elif geometry != 0 and cand["bodies"] > 0:
		fix = "check collision_mask: the static bodies' collision layers are not in the region's collision_mask, or their shapes are empty"
	elif mode == 0:
		fix = "move the floor and obstacles under the region, or use source_mode group_with_children with a group (godot_navigation_region)"
	return {"code": "no_source_geometry", "message": msg, "fix": fix}


func _why_3d(root: Node, region: Node, nm: NavigationMesh, src: NavigationMeshSourceGeometryData3D) -> Array:
	if not src.has_data():
		return [_no_source(root, region, nm.geometry_parsed_geometry_type, nm.geometry_source_geometry_mode, str(nm.geometry_source_group_name), true)]
	var why: Array = []
	var flat: PackedFloat32Array = src.get_vertices() # x, y, z per vertex
	var v: PackedVector3Array = []
	for i: int in int(flat.size() / 3.0):
		v.append(Vector3(flat[i * 3], flat[i * 3 + 1], flat[i * 3 + 2]))
	var idx: PackedInt32Array = src.get_indices()
	var walkable: int = 0
	var min_up: float = cos(deg_to_rad(nm.agent_max_slope))
	var aabb: AABB = AABB()
	var first: bool = true
	for t: int in mini(int(idx.size() / 3.0), 200000):
		var a: Vector3 = v[idx[t * 3]]
		var b: Vector3 = v[idx[t * 3 + 1]]
		var cc: Vector3 = v[idx[t * 3 + 2]]
		var nrm: Vector3 = (b - a).cross(cc - a)
		if nrm.length() == 0.0:
			continue
		# Godot feeds Recast clockwise triangles: the up face's normal points down here.
		if absf(nrm.normalized().y) >= min_up:
			walkable += 1
			for p: Vector3 in [a, b, cc]:
				if first:
					aabb = AABB(p, Vector3.ZERO)
					first = false
				else:
					aabb = aabb.expand(p)
	var tris: int = int(idx.size() / 3.0)
	if walkable == 0:
		why.append({"code": "no_walkable_surface", "message": "none of the %d source triangles is flatter than agent_max_slope %s°" % [tris, nm.agent_max_slope],
			"fix": "add a floor (a flat mesh or static body), or raise agent_max_slope"})
		return why
	var w: float = minf(aabb.size.x, aabb.size.z)
	if nm.agent_radius * 2.0 >= w:
		why.append({"code": "agent_radius_too_large", "message": "agent_radius %s leaves no room on walkable surfaces %s wide (the bake shrinks them by the radius on every side)" % [nm.agent_radius, snappedf(w, 0.01)],
			"fix": "lower agent_radius below %s, or make the floor wider" % snappedf(w / 2.0, 0.01)})
	if nm.cell_size * 3.0 > w:
		why.append({"code": "cell_size_too_large", "message": "cell_size %s is too coarse for walkable surfaces %s wide (fewer than 3 cells across)" % [nm.cell_size, snappedf(w, 0.01)],
			"fix": "lower cell_size (and the map's navigation/3d/default_cell_size to match) to %s or less" % snappedf(w / 8.0, 0.001)})
	var clearance: float = nm.agent_height
	if why.is_empty():
		why.append({"code": "no_polygons", "message": "the source has %d triangles (%d walkable, %s x %s) but Recast kept no polygon; agent_height %s, agent_max_climb %s, border_size %s, cell_size %s" % [tris, walkable, snappedf(aabb.size.x, 0.01), snappedf(aabb.size.z, 0.01), clearance, nm.agent_max_climb, nm.border_size, nm.cell_size],
			"fix": "lower agent_radius, agent_height or border_size, or cell_size; check that obstacles do not cover the floor"})
	return why


func _why_2d(root: Node, region: Node, np: NavigationPolygon, src: NavigationMeshSourceGeometryData2D) -> Array:
	if np.get_outline_count() == 0 and src.get_traversable_outlines().is_empty():
		return [{"code": "no_walkable_outline", "message": "the region's NavigationPolygon has no outline (the walkable area a 2D bake starts from) and no TileMapLayer navigation gives one",
			"fix": "give the walkable area with godot_navigation_region {node: \"%s\", outline: [[x,y], ...]}; meshes, polygons and static bodies only cut holes into it" % Common.rel(root, region)}]
	var r: Rect2 = Rect2()
	var first: bool = true
	for i: int in np.get_outline_count():
		for p: Vector2 in np.get_outline(i):
			if first:
				r = Rect2(p, Vector2.ZERO)
				first = false
			else:
				r = r.expand(p)
	var why: Array = []
	var w: float = minf(r.size.x, r.size.y)
	if np.agent_radius * 2.0 >= w and w > 0.0:
		why.append({"code": "agent_radius_too_large", "message": "agent_radius %s leaves no room in an outline %s wide (the bake shrinks it by the radius on every side)" % [np.agent_radius, snappedf(w, 0.01)],
			"fix": "lower agent_radius below %s, or enlarge the outline" % snappedf(w / 2.0, 0.01)})
	if np.cell_size * 3.0 > w and w > 0.0:
		why.append({"code": "cell_size_too_large", "message": "cell_size %s is too coarse for an outline %s wide" % [np.cell_size, snappedf(w, 0.01)], "fix": "lower cell_size"})
	if why.is_empty():
		why.append({"code": "obstructed", "message": "the %d obstruction(s) parsed from the scene (geometry %s) cover the whole outline" % [src.get_obstruction_outlines().size(), Common.GEOMETRY[np.parsed_geometry_type]],
			"fix": "move or shrink the obstacles, enlarge the outline, or parse less geometry (geometry, collision_mask, source_mode)"})
	return why
