@tool
extends RefCounted
## Reading: the tile layers of the edited scene, cells in a rect, a TileSet.

const Common := preload("common.gd")

var c: Common = null


func _init(common: Common) -> void:
	c = common


## {} -> {scene, layers[], legacy[], gridmaps[]}
func list_layers(_params: Dictionary) -> Dictionary:
	var root: Node = EditorInterface.get_edited_scene_root()
	if root == null:
		return c.no_scene()
	var all: Array[Node] = []
	Common.walk(root, root, all)
	var layers: Array = []
	var legacy: Array = []
	var grids: Array = []
	for n: Node in all:
		if n.is_class("TileMap"):
			legacy.append({"path": Common.rel(root, n), "layers": int(n.call("get_layers_count")), "hint": Common.legacy_hint(root, n)})
		elif n is TileMapLayer:
			var l: TileMapLayer = n
			var p: Dictionary = Common.persisted(root, l)
			layers.append({
				"path": Common.rel(root, l), "enabled": l.enabled, "visible": l.visible, "z_index": l.z_index,
				"tile_set": Common.tileset_summary(l.tile_set), "used_rect": Common.rect(l.get_used_rect()),
				"cells": l.get_used_cells().size(), "persisted": p["persisted"],
			})
		elif n is GridMap:
			var g: GridMap = n
			var lib: MeshLibrary = g.mesh_library
			grids.append({"path": Common.rel(root, g), "mesh_library": lib.resource_path if lib != null else "",
				"items": lib.get_item_list().size() if lib != null else 0, "cells": g.get_used_cells().size(),
				"cell_size": [g.cell_size.x, g.cell_size.y, g.cell_size.z]})
	return c.ok({"scene": root.scene_file_path, "layers": layers, "legacy": legacy, "gridmaps": grids})


## {layer, rect?: {x,y,w,h}, offset, limit} -> {layer, used_rect, total, cells[], next_offset}
func get_cells(params: Dictionary) -> Dictionary:
	var found: Dictionary = c.find_node(str(params.get("layer", "")))
	if found.has("error"):
		return found["error"]
	var l: TileMapLayer = found["node"]
	var used: Array[Vector2i] = l.get_used_cells()
	var r: Variant = params.get("rect")
	var cells: Array[Vector2i] = []
	if typeof(r) == TYPE_DICTIONARY:
		var rr: Rect2i = Rect2i(int(r["x"]), int(r["y"]), int(r["w"]), int(r["h"]))
		for v: Vector2i in used:
			if rr.has_point(v):
				cells.append(v)
	else:
		cells = used
	cells.sort_custom(func(a: Vector2i, b: Vector2i) -> bool: return a.y < b.y or a.y == b.y and a.x < b.x)
	var offset: int = int(params.get("offset", 0))
	var limit: int = int(params.get("limit", 1000))
	var out: Array = []
	var end: int = mini(cells.size(), offset + limit)
	for i: int in range(offset, end):
		var v: Vector2i = cells[i]
		out.append({"x": v.x, "y": v.y, "source": l.get_cell_source_id(v), "atlas": Common.v2(l.get_cell_atlas_coords(v)), "alt": l.get_cell_alternative_tile(v)})
	return c.ok({
		"layer": Common.rel(found["root"], l), "used_rect": Common.rect(l.get_used_rect()), "total": cells.size(),
		"cells": out, "next_offset": end if end < cells.size() else -1,
	})


## {layer? | path?, tiles_limit} -> the TileSet in full (see Go's TileSetOut).
func get_tileset(params: Dictionary) -> Dictionary:
	var ts: TileSet = null
	var layer_path: String = str(params.get("layer", ""))
	var path: String = str(params.get("path", ""))
	if layer_path != "":
		var found: Dictionary = c.find_node(layer_path)
		if found.has("error"):
			return found["error"]
		ts = (found["node"] as TileMapLayer).tile_set
		if ts == null:
			return c.fail("PRECONDITION_FAILED", "The layer '%s' has no TileSet. Create one with godot_tilemap_build_tileset {layer: \"%s\", new: {tile_size: [16, 16]}, atlases: [...]}." % [layer_path, layer_path], "tile_set")
	else:
		if not ResourceLoader.exists(path):
			return c.fail("RESOURCE_NOT_FOUND", "No resource at '%s'. List TileSets with godot_resources_list {type: \"TileSet\"}." % path)
		ts = load(path) as TileSet
		if ts == null:
			return c.fail("VALIDATION_ERROR", "'%s' is not a TileSet." % path)
	return c.ok(describe(ts, int(params.get("tiles_limit", 500))))


static func describe(ts: TileSet, tiles_limit: int) -> Dictionary:
	var d: Dictionary = Common.tileset_summary(ts)
	d.erase("sources")
	var budget: int = tiles_limit
	var truncated: bool = false
	var sources: Array = []
	for i: int in ts.get_source_count():
		var id: int = ts.get_source_id(i)
		var src: TileSetSource = ts.get_source(id)
		if src is TileSetAtlasSource:
			var a: TileSetAtlasSource = src
			var tiles: Array = []
			for t: int in a.get_tiles_count():
				if budget <= 0:
					truncated = true
					break
				budget -= 1
				var co: Vector2i = a.get_tile_id(t)
				var td: TileData = a.get_tile_data(co, 0)
				var alts: Array = []
				for k: int in a.get_alternative_tiles_count(co):
					alts.append(a.get_alternative_tile_id(co, k))
				var tile: Dictionary = {"atlas": Common.v2(co), "size": Common.v2(a.get_tile_size_in_atlas(co)), "alternatives": alts,
					"terrain_set": td.terrain_set, "terrain": td.terrain}
				var polys: Array = []
				for pl: int in ts.get_physics_layers_count():
					polys.append(td.get_collision_polygons_count(pl))
				if not polys.is_empty():
					tile["collision_polygons"] = polys
				if td.terrain_set >= 0:
					var peer: Dictionary = {}
					for b: int in Common.NEIGHBORS.size():
						if td.is_valid_terrain_peering_bit(b) and td.get_terrain_peering_bit(b) >= 0:
							peer[Common.NEIGHBORS[b]] = td.get_terrain_peering_bit(b)
					tile["peering"] = peer
				var custom: Dictionary = {}
				for cl: int in ts.get_custom_data_layers_count():
					var nm: String = ts.get_custom_data_layer_name(cl)
					var val: Variant = td.get_custom_data(nm)
					if val != null:
						custom[nm] = val
				if not custom.is_empty():
					tile["custom_data"] = custom
				tiles.append(tile)
			sources.append({"id": id, "type": "atlas", "texture": a.texture.resource_path if a.texture != null else "",
				"texture_region_size": Common.v2(a.texture_region_size), "margins": Common.v2(a.margins), "separation": Common.v2(a.separation),
				"grid_size": Common.v2(a.get_atlas_grid_size()), "tiles_count": a.get_tiles_count(), "tiles": tiles, "scenes": []})
		elif src is TileSetScenesCollectionSource:
			var sc: TileSetScenesCollectionSource = src
			var scenes: Array = []
			for k: int in sc.get_scene_tiles_count():
				var sid: int = sc.get_scene_tile_id(k)
				var ps: PackedScene = sc.get_scene_tile_scene(sid)
				scenes.append({"id": sid, "scene": ps.resource_path if ps != null else ""})
			sources.append({"id": id, "type": "scenes", "tiles_count": sc.get_scene_tiles_count(), "tiles": [], "scenes": scenes})
	var terrain_sets: Array = []
	for s: int in ts.get_terrain_sets_count():
		var terrains: Array = []
		for t: int in ts.get_terrains_count(s):
			terrains.append({"index": t, "name": ts.get_terrain_name(s, t), "color": "#" + ts.get_terrain_color(s, t).to_html()})
		terrain_sets.append({"index": s, "mode": Common.TERRAIN_MODES[ts.get_terrain_set_mode(s)], "terrains": terrains})
	var physics: Array = []
	for p: int in ts.get_physics_layers_count():
		physics.append({"index": p, "collision_layer": ts.get_physics_layer_collision_layer(p), "collision_mask": ts.get_physics_layer_collision_mask(p)})
	var nav: Array = []
	for p: int in ts.get_navigation_layers_count():
		nav.append({"index": p, "layers": ts.get_navigation_layer_layers(p)})
	var custom_layers: Array = []
	for p: int in ts.get_custom_data_layers_count():
		custom_layers.append({"index": p, "name": ts.get_custom_data_layer_name(p), "type": type_string(ts.get_custom_data_layer_type(p))})
	d["sources"] = sources
	d["terrain_sets"] = terrain_sets
	d["physics_layers"] = physics
	d["navigation_layers"] = nav
	d["custom_data_layers"] = custom_layers
	d["patterns"] = ts.get_patterns_count()
	d["tiles_truncated"] = truncated
	return d
