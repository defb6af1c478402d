@tool
extends RefCounted
## GridMap: a MeshLibrary built from a scene of meshes (as the editor's MeshLibrary
## export does), and cells set, erased and read; each edit is one undo action.

const Common := preload("common.gd")

var c: Common = null


func _init(common: Common) -> void:
	c = common


static func _v3(v: Vector3i) -> Array:
	return [v.x, v.y, v.z]


## The MeshLibrary export of the editor (MeshLibraryEditor::_import_scene): every
## MeshInstance3D with a mesh, searched depth first, becomes an item named after it,
## with the shapes of its StaticBody3D children and its NavigationRegion3D's mesh.
static func import_scene(scene: Node, lib: MeshLibrary, apply_xforms: bool) -> Array[MeshInstance3D]:
	var found: Array[MeshInstance3D] = []
	for ch: Node in scene.get_children():
		_parse(ch, lib, apply_xforms, found)
	return found


static func _parse(n: Node, lib: MeshLibrary, apply_xforms: bool, found: Array[MeshInstance3D]) -> void:
	var mi: MeshInstance3D = n as MeshInstance3D
	if mi == null:
		for ch: Node in n.get_children():
			_parse(ch, lib, apply_xforms, found)
		return
	if mi.mesh == null:
		return
	var id: int = lib.find_item_by_name(str(mi.name))
	if id < 0:
		id = lib.get_last_unused_item_id()
		lib.create_item(id)
		lib.set_item_name(id, str(mi.name))
	found.append(mi)
	var mesh: Mesh = mi.mesh.duplicate() as Mesh
	for s: int in mesh.get_surface_count():
		var m: Material = mi.get_surface_override_material(s)
		if m != null:
			mesh.surface_set_material(s, m)
	lib.set_item_mesh(id, mesh)
	lib.set_item_mesh_cast_shadow(id, RenderingServer.SHADOW_CASTING_SETTING_OFF if mi.cast_shadow == GeometryInstance3D.SHADOW_CASTING_SETTING_OFF else RenderingServer.SHADOW_CASTING_SETTING_ON)
	var base: Transform3D = mi.transform if apply_xforms else Transform3D.IDENTITY
	lib.set_item_mesh_transform(id, base)
	var shapes: Array = []
	for ch: Node in mi.get_children():
		var sb: StaticBody3D = ch as StaticBody3D
		if sb == null:
			continue
		for cs: Node in sb.get_children():
			var shape_node: CollisionShape3D = cs as CollisionShape3D
			if shape_node == null or shape_node.disabled or shape_node.shape == null:
				continue
			shapes.append(shape_node.shape)
			shapes.append(base * sb.transform * shape_node.transform)
	lib.set_item_shapes(id, shapes)
	for ch: Node in mi.get_children():
		var nr: NavigationRegion3D = ch as NavigationRegion3D
		if nr != null and nr.navigation_mesh != null:
			lib.set_item_navigation_mesh(id, nr.navigation_mesh)
			lib.set_item_navigation_mesh_transform(id, nr.transform)
			break


## {scene, path?, gridmap?, apply_transforms, dry_run} -> {path, embedded, gridmap, items[], ...}
func build_library(params: Dictionary) -> Dictionary:
	var scene_path: String = str(params.get("scene", ""))
	var path: String = str(params.get("path", ""))
	var grid_path: String = str(params.get("gridmap", ""))
	var dry: bool = bool(params.get("dry_run", false))
	var root: Node = null
	var grid: GridMap = null
	if grid_path != "":
		var found: Dictionary = c.find_node(grid_path, "GridMap")
		if found.has("error"):
			return found["error"]
		root = found["root"]
		grid = found["node"]
	if not ResourceLoader.exists(scene_path):
		return c.fail("RESOURCE_NOT_FOUND", "No scene at '%s'. List scenes with godot_resources_list {type: \"PackedScene\"}." % scene_path)
	var packed: PackedScene = load(scene_path) as PackedScene
	if packed == null:
		return c.fail("VALIDATION_ERROR", "'%s' is not a scene (PackedScene)." % scene_path)
	if path != "" and (ResourceLoader.exists(path) or FileAccess.file_exists(path)):
		return c.fail("VALIDATION_ERROR", "'%s' exists; this tool never overwrites. Pick another path." % path)
	if path != "" and not DirAccess.dir_exists_absolute(path.get_base_dir()):
		return c.fail("RESOURCE_NOT_FOUND", "The folder '%s' does not exist; create it first or pick another path." % path.get_base_dir())
	var inst: Node = packed.instantiate()
	var lib: MeshLibrary = MeshLibrary.new()
	import_scene(inst, lib, bool(params.get("apply_transforms", false)))
	inst.free()
	var items: Array = []
	for id: int in lib.get_item_list():
		items.append({"id": id, "name": lib.get_item_name(id), "shapes": lib.get_item_shapes(id).size() / 2,
			"navigation": lib.get_item_navigation_mesh(id) != null})
	if items.is_empty():
		return c.fail("VALIDATION_ERROR", "'%s' has no MeshInstance3D with a mesh: each item of a MeshLibrary is a MeshInstance3D of the scene (named as the item, with StaticBody3D/CollisionShape3D children for collision)." % scene_path)
	lib.set_meta("_editor_source_scene", scene_path)
	var result: Dictionary = {"path": path, "embedded": path == "", "gridmap": Common.rel(root, grid) if grid != null else "",
		"items": items, "dry_run": dry, "undoable": false, "persisted": false, "reason": ""}
	if dry:
		return c.ok(result)
	if path != "":
		var err: Error = ResourceSaver.save(lib, path)
		if err != OK:
			return c.fail("INTERNAL_ERROR", "Saving the MeshLibrary to '%s' failed: %s." % [path, error_string(err)])
		lib.take_over_path(path)
		EditorInterface.get_resource_filesystem().update_file(path)
		result["persisted"] = true
	if grid != null:
		Common.commit_property("godot-mcp: set MeshLibrary of %s" % result["gridmap"], root, grid, "mesh_library", grid.mesh_library, lib)
		grid.mesh_library = lib
		result["undoable"] = true
		var pr: Dictionary = Common.persisted(root, grid)
		result["persisted"] = pr["persisted"]
		result["reason"] = pr["reason"]
	return c.ok(result)


## {gridmap, box?: {x,y,z,w,h,d}, offset, limit} -> {gridmap, total, cells[], next_offset}
func get_cells(params: Dictionary) -> Dictionary:
	var found: Dictionary = c.find_node(str(params.get("gridmap", "")), "GridMap")
	if found.has("error"):
		return found["error"]
	var g: GridMap = found["node"]
	var used: Array[Vector3i] = g.get_used_cells()
	var b: Variant = params.get("box")
	var cells: Array[Vector3i] = []
	if typeof(b) == TYPE_DICTIONARY:
		var lo: Vector3i = Vector3i(int(b["x"]), int(b["y"]), int(b["z"]))
		var hi: Vector3i = lo + Vector3i(int(b["w"]), int(b["h"]), int(b["d"]))
		for v: Vector3i in used:
			if v.x >= lo.x and v.y >= lo.y and v.z >= lo.z and v.x < hi.x and v.y < hi.y and v.z < hi.z:
				cells.append(v)
	else:
		cells = used
	cells.sort_custom(func(a: Vector3i, z: Vector3i) -> bool: return a.y < z.y or a.y == z.y and (a.z < z.z or a.z == z.z and a.x < z.x))
	var offset: int = int(params.get("offset", 0))
	var end: int = mini(cells.size(), offset + int(params.get("limit", 1000)))
	var lib: MeshLibrary = g.mesh_library
	var out: Array = []
	for i: int in range(offset, end):
		var v: Vector3i = cells[i]
		var item: int = g.get_cell_item(v)
		out.append({"x": v.x, "y": v.y, "z": v.z, "item": item, "name": lib.get_item_name(item) if lib != null and item in lib.get_item_list() else "",
			"orientation": g.get_cell_item_orientation(v)})
	return c.ok({"gridmap": Common.rel(found["root"], g), "total": cells.size(), "cells": out, "next_offset": end if end < cells.size() else -1})


## {gridmap, set: [{item?, name?, orientation, cells}], erase, dry_run} -> {gridmap, written, changed, used_cells, ...}
func set_cells(params: Dictionary) -> Dictionary:
	var found: Dictionary = c.find_node(str(params.get("gridmap", "")), "GridMap")
	if found.has("error"):
		return found["error"]
	var root: Node = found["root"]
	var g: GridMap = found["node"]
	var gp: String = Common.rel(root, g)
	var lib: MeshLibrary = g.mesh_library
	var sets: Array = params.get("set", [])
	var items: Array[int] = []
	if not sets.is_empty() and lib == null:
		return c.fail("PRECONDITION_FAILED", "The GridMap '%s' has no MeshLibrary. Build one with godot_tilemap_gridmap_build_library {scene: \"res://...tscn\", gridmap: \"%s\"}." % [gp, gp], "mesh_library")
	for i: int in sets.size():
		var s: Dictionary = sets[i]
		var names: PackedStringArray = []
		for id: int in lib.get_item_list():
			names.append("%d %s" % [id, lib.get_item_name(id)])
		var item: int = int(s.get("item", -1))
		if s.has("name"):
			item = lib.find_item_by_name(str(s["name"]))
			if item < 0:
				var plain: PackedStringArray = []
				for id2: int in lib.get_item_list():
					plain.append(lib.get_item_name(id2))
				return c.fail("VALIDATION_ERROR", "set[%d].name '%s' is not an item of the MeshLibrary (items: %s).%s" % [i, s["name"], ", ".join(names), Common.did_you_mean(str(s["name"]), plain)])
		elif not item in lib.get_item_list():
			return c.fail("VALIDATION_ERROR", "set[%d].item %d is not an item of the MeshLibrary (items: %s)." % [i, item, ", ".join(names)])
		var o: int = int(s.get("orientation", 0))
		if o < 0 or o > 23:
			return c.fail("VALIDATION_ERROR", "set[%d].orientation %d: an orthogonal index is 0..23 (GridMap.get_orthogonal_index_from_basis)." % [i, o])
		items.append(item)
	var before: Dictionary = g.get("data")
	var written: int = 0
	for i: int in sets.size():
		var o2: int = int(sets[i].get("orientation", 0))
		for p: Variant in sets[i]["cells"]:
			g.set_cell_item(Vector3i(int(p[0]), int(p[1]), int(p[2])), items[i], o2)
		written += (sets[i]["cells"] as Array).size()
	for p2: Variant in params.get("erase", []):
		g.set_cell_item(Vector3i(int(p2[0]), int(p2[1]), int(p2[2])), GridMap.INVALID_CELL_ITEM)
		written += 1
	var after: Dictionary = g.get("data")
	var changed: bool = after != before
	var result: Dictionary = {"gridmap": gp, "written": written, "changed": changed, "used_cells": g.get_used_cells().size(),
		"dry_run": bool(params.get("dry_run", false)), "undoable": false}
	result.merge(Common.persisted(root, g))
	if result["dry_run"] or not changed:
		if changed:
			g.set("data", before)
		return c.ok(result)
	Common.commit_property("godot-mcp: set GridMap cells of %s" % gp, root, g, "data", before, after)
	result["undoable"] = true
	return c.ok(result)
