@tool
extends RefCounted
## Painting a TileMapLayer: fills, patterns, cells, erasures and terrains in one call,
## recorded as ONE undo action (the layer's tile_map_data before and after).

const Common := preload("common.gd")

var c: Common = null


func _init(common: Common) -> void:
	c = common


## "" when [param tile] ({source, atlas, alt}) names a tile of [param ts], else why not.
static func tile_problem(ts: TileSet, tile: Dictionary) -> String:
	var sid: int = int(tile.get("source", -1))
	var co: Vector2i = Common.vec(tile.get("atlas", [0, 0]))
	var alt: int = int(tile.get("alt", 0))
	if not ts.has_source(sid):
		var ids: PackedStringArray = []
		for i: int in ts.get_source_count():
			ids.append(str(ts.get_source_id(i)))
		return "the TileSet has no source %d (sources: %s; godot_tilemap_get_tileset lists them)" % [sid, ", ".join(ids) if not ids.is_empty() else "none"]
	var src: TileSetSource = ts.get_source(sid)
	if src is TileSetAtlasSource:
		var a: TileSetAtlasSource = src
		if not a.has_tile(co):
			var have: PackedStringArray = []
			for t: int in mini(a.get_tiles_count(), 24):
				var v: Vector2i = a.get_tile_id(t)
				have.append("[%d,%d]" % [v.x, v.y])
			return "source %d has no tile at atlas [%d,%d] (tiles: %s%s)" % [sid, co.x, co.y, ", ".join(have), ", ..." if a.get_tiles_count() > 24 else ""]
		if not a.has_alternative_tile(co, alt):
			return "tile [%d,%d] of source %d has no alternative %d (it has %d)" % [co.x, co.y, sid, alt, a.get_alternative_tiles_count(co)]
	elif src is TileSetScenesCollectionSource:
		if not (src as TileSetScenesCollectionSource).has_scene_tile_id(alt):
			return "scenes source %d has no scene tile %d (alt is the scene tile id; atlas must be [0,0])" % [sid, alt]
	return ""


static func typed_cells(raw: Variant) -> Array[Vector2i]:
	var out: Array[Vector2i] = []
	if typeof(raw) == TYPE_ARRAY:
		for p: Variant in raw:
			out.append(Common.vec(p))
	return out


static func path_problem(ts: TileSet, l: TileMapLayer, path: Array[Vector2i]) -> String:
	for i: int in range(path.size() - 1):
		var found: bool = false
		for b: int in 16:
			if _existing_neighbor(ts, b) and l.get_neighbor_cell(path[i], b) == path[i + 1]:
				found = true
				break
		if not found:
			return "path cell %d [%d,%d] is not a neighbour of cell %d [%d,%d]; a path must be a chain of neighbouring cells" % [i + 1, path[i + 1].x, path[i + 1].y, i, path[i].x, path[i].y]
	return ""


## TileSet::is_existing_neighbor (not exposed to scripts).
static func _existing_neighbor(ts: TileSet, b: int) -> bool:
	match ts.tile_shape:
		TileSet.TILE_SHAPE_SQUARE:
			return b in [0, 3, 4, 7, 8, 11, 12, 15]
		TileSet.TILE_SHAPE_ISOMETRIC:
			return b in [1, 2, 5, 6, 9, 10, 13, 14]
	if ts.tile_offset_axis == TileSet.TILE_OFFSET_AXIS_HORIZONTAL:
		return b in [0, 2, 6, 8, 10, 14]
	return b in [2, 4, 6, 10, 12, 14]


## {layer, fill[], patterns[], set[], erase[], terrain[], dry_run} -> {layer, written, changed, used_cells, used_rect, ...}
func paint(params: Dictionary) -> Dictionary:
	var found: Dictionary = c.find_node(str(params.get("layer", "")))
	if found.has("error"):
		return found["error"]
	var root: Node = found["root"]
	var l: TileMapLayer = found["node"]
	var lp: String = Common.rel(root, l)
	var ts: TileSet = l.tile_set
	if ts == null:
		return c.fail("PRECONDITION_FAILED", "The layer '%s' has no TileSet. Create one with godot_tilemap_build_tileset {layer: \"%s\", new: {tile_size: [16, 16]}, atlases: [...]} (or set tile_set with godot_scene_set_properties)." % [lp, lp], "tile_set")
	var fills: Array = params.get("fill", [])
	var patterns: Array = params.get("patterns", [])
	var sets: Array = params.get("set", [])
	var erase: Array = params.get("erase", [])
	var terrains: Array = params.get("terrain", [])
	# Check everything before changing anything.
	for i: int in fills.size():
		var t: Variant = fills[i].get("tile")
		if typeof(t) == TYPE_DICTIONARY:
			var why: String = tile_problem(ts, t)
			if why != "":
				return c.fail("VALIDATION_ERROR", "fill[%d].tile: %s." % [i, why])
	for i: int in sets.size():
		var why2: String = tile_problem(ts, sets[i].get("tile", {}))
		if why2 != "":
			return c.fail("VALIDATION_ERROR", "set[%d].tile: %s." % [i, why2])
	var pats: Array[TileMapPattern] = []
	for i: int in patterns.size():
		var p: Dictionary = patterns[i]
		if p.has("copy") and typeof(p["copy"]) == TYPE_DICTIONARY:
			var r: Dictionary = p["copy"]
			var coords: Array[Vector2i] = []
			for y: int in range(int(r["y"]), int(r["y"]) + int(r["h"])):
				for x: int in range(int(r["x"]), int(r["x"]) + int(r["w"])):
					coords.append(Vector2i(x, y))
			pats.append(l.get_pattern(coords))
		else:
			var idx: int = int(p.get("index", -1))
			if idx < 0 or idx >= ts.get_patterns_count():
				return c.fail("VALIDATION_ERROR", "patterns[%d].index %d: the TileSet has %d patterns (0..%d); or copy a rect of this layer with copy: {x,y,w,h}." % [i, idx, ts.get_patterns_count(), ts.get_patterns_count() - 1])
			pats.append(ts.get_pattern(idx))
	var paths: Array = []
	for i: int in terrains.size():
		var tr: Dictionary = terrains[i]
		var tset: int = int(tr.get("terrain_set", 0))
		var terr: int = int(tr.get("terrain", 0))
		if tset < 0 or tset >= ts.get_terrain_sets_count():
			return c.fail("VALIDATION_ERROR", "terrain[%d].terrain_set %d: the TileSet has %d terrain sets%s." % [i, tset, ts.get_terrain_sets_count(), "" if ts.get_terrain_sets_count() > 0 else " (add one with godot_tilemap_build_tileset {layer, terrain_sets: [...]})"])
		if terr < -1 or terr >= ts.get_terrains_count(tset):
			var names: PackedStringArray = []
			for k: int in ts.get_terrains_count(tset):
				names.append("%d %s" % [k, ts.get_terrain_name(tset, k)])
			return c.fail("VALIDATION_ERROR", "terrain[%d].terrain %d: terrain set %d has terrains %s (-1 paints empty terrain)." % [i, terr, tset, ", ".join(names)])
		var cells: Array[Vector2i] = typed_cells(tr.get("cells", []))
		if str(tr.get("mode", "connect")) == "path":
			var why3: String = path_problem(ts, l, cells)
			if why3 != "":
				return c.fail("VALIDATION_ERROR", "terrain[%d]: %s." % [i, why3])
		paths.append(cells)
	var before: PackedByteArray = l.tile_map_data
	var written: int = 0
	for f: Dictionary in fills:
		var r2: Dictionary = f["rect"]
		var t2: Variant = f.get("tile")
		var has_tile: bool = typeof(t2) == TYPE_DICTIONARY
		var sid: int = int(t2["source"]) if has_tile else -1
		var co: Vector2i = Common.vec(t2.get("atlas", [0, 0])) if has_tile else Vector2i(-1, -1)
		var alt: int = int(t2.get("alt", 0)) if has_tile else -1
		for y: int in range(int(r2["y"]), int(r2["y"]) + int(r2["h"])):
			for x: int in range(int(r2["x"]), int(r2["x"]) + int(r2["w"])):
				l.set_cell(Vector2i(x, y), sid, co, alt)
		written += int(r2["w"]) * int(r2["h"])
	for i: int in patterns.size():
		l.set_pattern(Common.vec(patterns[i].get("at", [0, 0])), pats[i])
		written += pats[i].get_used_cells().size()
	for s: Dictionary in sets:
		var t3: Dictionary = s["tile"]
		var sid3: int = int(t3["source"])
		var co3: Vector2i = Common.vec(t3.get("atlas", [0, 0]))
		var alt3: int = int(t3.get("alt", 0))
		for p3: Variant in s["cells"]:
			l.set_cell(Vector2i(int(p3[0]), int(p3[1])), sid3, co3, alt3)
		written += (s["cells"] as Array).size()
	for p4: Variant in erase:
		l.erase_cell(Vector2i(int(p4[0]), int(p4[1])))
	written += erase.size()
	for i: int in terrains.size():
		var tr2: Dictionary = terrains[i]
		var cells2: Array[Vector2i] = paths[i]
		var ignore: bool = bool(tr2.get("ignore_empty_terrains", true))
		if str(tr2.get("mode", "connect")) == "path":
			l.set_cells_terrain_path(cells2, int(tr2["terrain_set"]), int(tr2["terrain"]), ignore)
		else:
			l.set_cells_terrain_connect(cells2, int(tr2["terrain_set"]), int(tr2["terrain"]), ignore)
		written += cells2.size()
	var after: PackedByteArray = l.tile_map_data
	var changed: bool = after != before
	var result: Dictionary = {"layer": lp, "written": written, "changed": changed, "used_cells": l.get_used_cells().size(),
		"used_rect": Common.rect(l.get_used_rect()), "dry_run": bool(params.get("dry_run", false)), "undoable": false}
	result.merge(Common.persisted(root, l))
	if result["dry_run"] or not changed:
		if changed:
			l.tile_map_data = before
		return c.ok(result)
	Common.commit_property("godot-mcp: paint tiles on %s" % lp, root, l, "tile_map_data", before, after)
	result["undoable"] = true
	return c.ok(result)
