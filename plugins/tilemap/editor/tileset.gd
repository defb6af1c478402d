@tool
extends RefCounted
## TileSet authoring: a new TileSet, written to a .tres or embedded in a layer, with
## atlas sources, tiles, terrain sets, physics / navigation / custom-data layers,
## collision polygons, terrain peering bits and custom data per tile.

const Common := preload("common.gd")

var c: Common = null


func _init(common: Common) -> void:
	c = common


## Builds the TileSet of [param p] (see Go's CreateTileSetIn); {tileset} or {error}.
func build(p: Dictionary) -> Dictionary:
	var ts: TileSet = TileSet.new()
	ts.tile_shape = maxi(0, Common.SHAPES.find(str(p.get("tile_shape", "square")))) as TileSet.TileShape
	ts.tile_size = Common.vec(p.get("tile_size", [16, 16]))
	var err: Dictionary = apply(ts, p)
	if not err.is_empty():
		return err
	return {"tileset": ts}


## Adds to [param ts] what [param p] describes: layers, terrain sets, atlases, then
## tiles (of an atlas of this call by atlas_index, or of an existing source by
## source). Indexes of layers and terrain sets count the TileSet's existing ones
## first. Returns {} or {error}; on error [param ts] may be half changed.
func apply(ts: TileSet, p: Dictionary) -> Dictionary:
	for pl: Dictionary in p.get("physics_layers", []):
		ts.add_physics_layer()
		var i: int = ts.get_physics_layers_count() - 1
		ts.set_physics_layer_collision_layer(i, int(pl.get("collision_layer", 1)))
		ts.set_physics_layer_collision_mask(i, int(pl.get("collision_mask", 1)))
	for nl: Dictionary in p.get("navigation_layers", []):
		ts.add_navigation_layer()
		ts.set_navigation_layer_layers(ts.get_navigation_layers_count() - 1, int(nl.get("layers", 1)))
	var custom_types: Dictionary = {}
	for i: int in ts.get_custom_data_layers_count():
		custom_types[ts.get_custom_data_layer_name(i)] = ts.get_custom_data_layer_type(i)
	for i: int in (p.get("custom_data_layers", []) as Array).size():
		var cl: Dictionary = p["custom_data_layers"][i]
		var t: int = int(c.router.codec.call("type_from_name", str(cl.get("type", ""))))
		if t <= TYPE_NIL or t == TYPE_OBJECT or t == TYPE_CALLABLE or t == TYPE_SIGNAL:
			return {"error": c.fail("VALIDATION_ERROR", "custom_data_layers[%d].type '%s' is not a Variant type name (int, float, bool, String, Color, Vector2, ...)." % [i, cl.get("type", "")])}
		if custom_types.has(str(cl["name"])):
			return {"error": c.fail("VALIDATION_ERROR", "custom_data_layers[%d]: the TileSet has a custom data layer '%s' already." % [i, cl["name"]])}
		ts.add_custom_data_layer()
		var li: int = ts.get_custom_data_layers_count() - 1
		ts.set_custom_data_layer_name(li, str(cl["name"]))
		ts.set_custom_data_layer_type(li, t)
		custom_types[str(cl["name"])] = t
	for ti: Dictionary in p.get("terrain_sets", []):
		ts.add_terrain_set()
		var s: int = ts.get_terrain_sets_count() - 1
		ts.set_terrain_set_mode(s, maxi(0, Common.TERRAIN_MODES.find(str(ti.get("mode", "corners_and_sides")))) as TileSet.TerrainMode)
		for te: Dictionary in ti.get("terrains", []):
			ts.add_terrain(s)
			var k: int = ts.get_terrains_count(s) - 1
			ts.set_terrain_name(s, k, str(te.get("name", "")))
			if str(te.get("color", "")) != "":
				ts.set_terrain_color(s, k, Color.from_string(str(te["color"]), Color.WHITE))
	var atlases: Array = p.get("atlases", [])
	for i: int in atlases.size():
		var a: Dictionary = atlases[i]
		var tex_path: String = str(a.get("texture", ""))
		if not ResourceLoader.exists(tex_path):
			return {"error": c.fail("RESOURCE_NOT_FOUND", "atlases[%d].texture: no resource at '%s'. List images with godot_resources_list {type: \"Texture2D\"} (a new image must be imported first: godot_resources_rescan)." % [i, tex_path])}
		var tex: Texture2D = load(tex_path) as Texture2D
		if tex == null:
			return {"error": c.fail("VALIDATION_ERROR", "atlases[%d].texture '%s' is not a Texture2D." % [i, tex_path])}
		var src: TileSetAtlasSource = TileSetAtlasSource.new()
		src.texture = tex
		src.texture_region_size = Common.vec(a["tile_size"]) if a.has("tile_size") else ts.tile_size
		src.margins = Common.vec(a.get("margins", [0, 0]))
		src.separation = Common.vec(a.get("separation", [0, 0]))
		var grid: Vector2i = src.get_atlas_grid_size()
		if grid.x <= 0 or grid.y <= 0:
			return {"error": c.fail("VALIDATION_ERROR", "atlases[%d]: a %dx%d texture holds no %dx%d tile with margins %s and separation %s." % [i, tex.get_width(), tex.get_height(), src.texture_region_size.x, src.texture_region_size.y, src.margins, src.separation])}
		var id: int = int(a.get("id", -1))
		if id >= 0 and ts.has_source(id):
			return {"error": c.fail("VALIDATION_ERROR", "atlases[%d].id %d is taken by another source." % [i, id])}
		id = ts.add_source(src, id)
		var mode: String = str(a.get("create_tiles", "all"))
		if mode != "none":
			var img: Image = tex.get_image() if mode == "opaque" else null
			if img != null and img.is_compressed():
				img.decompress()
			for y: int in grid.y:
				for x: int in grid.x:
					var co: Vector2i = Vector2i(x, y)
					var region: Rect2i = Rect2i(src.margins + co * (src.texture_region_size + src.separation), src.texture_region_size)
					if img != null and not _opaque(img, region):
						continue
					src.create_tile(co)
		a["_id"] = id
	var tiles: Array = p.get("tiles", [])
	for i: int in tiles.size():
		var t: Dictionary = tiles[i]
		var where: String = "tiles[%d]" % i
		var src2: TileSetAtlasSource = null
		if t.has("source"):
			var sid: int = int(t["source"])
			if not ts.has_source(sid) or not ts.get_source(sid) is TileSetAtlasSource:
				var ids: PackedStringArray = []
				for k: int in ts.get_source_count():
					if ts.get_source(ts.get_source_id(k)) is TileSetAtlasSource:
						ids.append(str(ts.get_source_id(k)))
				return {"error": c.fail("VALIDATION_ERROR", "%s.source %d is not an atlas source of the TileSet (atlas sources: %s)." % [where, sid, ", ".join(ids) if not ids.is_empty() else "none"])}
			src2 = ts.get_source(sid)
		else:
			var sidx: int = int(t.get("atlas_index", 0))
			if sidx < 0 or sidx >= atlases.size():
				return {"error": c.fail("VALIDATION_ERROR", "%s.atlas_index %d: this call adds %d atlases; name an existing source with source instead." % [where, sidx, atlases.size()])}
			src2 = ts.get_source(int(atlases[sidx]["_id"]))
		var co2: Vector2i = Common.vec(t.get("atlas", [0, 0]))
		var size: Vector2i = Common.vec(t.get("size", [1, 1]))
		var grid2: Vector2i = src2.get_atlas_grid_size()
		if co2.x < 0 or co2.y < 0 or co2.x + size.x > grid2.x or co2.y + size.y > grid2.y:
			return {"error": c.fail("VALIDATION_ERROR", "%s.atlas [%d,%d] size [%d,%d] is outside the atlas grid %dx%d." % [where, co2.x, co2.y, size.x, size.y, grid2.x, grid2.y])}
		if src2.has_tile(co2) and src2.get_tile_size_in_atlas(co2) != size:
			src2.remove_tile(co2)
		if not src2.has_tile(co2):
			for yy: int in range(co2.y, co2.y + size.y):
				for xx: int in range(co2.x, co2.x + size.x):
					var other: Vector2i = src2.get_tile_at_coords(Vector2i(xx, yy))
					if other != Vector2i(-1, -1):
						src2.remove_tile(other)
			src2.create_tile(co2, size)
		var td: TileData = src2.get_tile_data(co2, 0)
		if t.has("probability"):
			td.probability = float(t["probability"])
		var tset: int = int(t.get("terrain_set", -1))
		if tset >= ts.get_terrain_sets_count():
			return {"error": c.fail("VALIDATION_ERROR", "%s.terrain_set %d: the TileSet has %d terrain sets." % [where, tset, ts.get_terrain_sets_count()])}
		if tset >= 0:
			td.terrain_set = tset
			var terr: int = int(t.get("terrain", -1))
			if terr >= ts.get_terrains_count(tset):
				return {"error": c.fail("VALIDATION_ERROR", "%s.terrain %d: terrain set %d has %d terrains." % [where, terr, tset, ts.get_terrains_count(tset)])}
			td.terrain = terr
			var peer: Dictionary = t.get("peering", {})
			for bit_name: Variant in peer.keys():
				var b: int = Common.NEIGHBORS.find(str(bit_name))
				if b < 0 or not td.is_valid_terrain_peering_bit(b):
					var valid: PackedStringArray = []
					for k: int in Common.NEIGHBORS.size():
						if td.is_valid_terrain_peering_bit(k):
							valid.append(Common.NEIGHBORS[k])
					return {"error": c.fail("VALIDATION_ERROR", "%s.peering '%s' is not a peering bit of terrain set %d (%s mode, %s tiles): use %s." % [where, bit_name, tset, Common.TERRAIN_MODES[ts.get_terrain_set_mode(tset)], Common.SHAPES[ts.tile_shape], ", ".join(valid)])}
				var pv: int = int(peer[bit_name])
				if pv < -1 or pv >= ts.get_terrains_count(tset):
					return {"error": c.fail("VALIDATION_ERROR", "%s.peering.%s %d: terrain set %d has %d terrains (-1 for none)." % [where, bit_name, pv, tset, ts.get_terrains_count(tset)])}
				td.set_terrain_peering_bit(b, pv)
		elif t.has("terrain") or t.has("peering"):
			return {"error": c.fail("VALIDATION_ERROR", "%s: terrain and peering need terrain_set." % where)}
		var cols: Array = t.get("collision", [])
		for k: int in cols.size():
			var col: Dictionary = cols[k]
			var pl2: int = int(col.get("physics_layer", 0))
			if pl2 < 0 or pl2 >= ts.get_physics_layers_count():
				return {"error": c.fail("VALIDATION_ERROR", "%s.collision[%d].physics_layer %d: the TileSet has %d physics layers (add physics_layers)." % [where, k, pl2, ts.get_physics_layers_count()])}
			var pts: PackedVector2Array = []
			var raw_pts: Variant = col.get("points")
			if typeof(raw_pts) == TYPE_ARRAY and not (raw_pts as Array).is_empty():
				for q: Variant in raw_pts:
					pts.append(Common.vecf(q))
			else:
				var half: Vector2 = Vector2(src2.texture_region_size * size) / 2.0
				pts = PackedVector2Array([-half, Vector2(half.x, -half.y), half, Vector2(-half.x, half.y)])
			td.add_collision_polygon(pl2)
			var pi: int = td.get_collision_polygons_count(pl2) - 1
			td.set_collision_polygon_points(pl2, pi, pts)
			td.set_collision_polygon_one_way(pl2, pi, bool(col.get("one_way", false)))
		var custom: Dictionary = t.get("custom_data", {})
		for nm: Variant in custom.keys():
			if not custom_types.has(str(nm)):
				return {"error": c.fail("VALIDATION_ERROR", "%s.custom_data '%s' is not a custom data layer of the TileSet (%s).%s" % [where, nm, ", ".join(PackedStringArray(custom_types.keys())), Common.did_you_mean(str(nm), PackedStringArray(custom_types.keys()))])}
			var dec: Dictionary = c.router.codec.call("decode", custom[nm], int(custom_types[nm]))
			if not bool(dec.get("ok", false)):
				return {"error": c.fail("VALIDATION_ERROR", "%s.custom_data.%s: %s" % [where, nm, dec.get("hint", "")])}
			td.set_custom_data(str(nm), dec["value"])
	return {}


static func _opaque(img: Image, region: Rect2i) -> bool:
	var r: Rect2i = region.intersection(Rect2i(Vector2i.ZERO, img.get_size()))
	for y: int in range(r.position.y, r.end.y):
		for x: int in range(r.position.x, r.end.x):
			if img.get_pixel(x, y).a > 0.1: # the editor's test (Texture2D.is_pixel_opaque's alpha bitmap, threshold 0.1)
				return true
	return false


## {path?, layer?, ...TileSet spec, dry_run} -> {path, embedded, layer, sources[], tiles, ...}
func create_tileset(params: Dictionary) -> Dictionary:
	var path: String = str(params.get("path", ""))
	var layer_path: String = str(params.get("layer", ""))
	var dry: bool = bool(params.get("dry_run", false))
	var root: Node = null
	var layer: TileMapLayer = null
	if layer_path != "":
		var found: Dictionary = c.find_node(layer_path)
		if found.has("error"):
			return found["error"]
		root = found["root"]
		layer = found["node"]
	if path != "" and (ResourceLoader.exists(path) or FileAccess.file_exists(path)):
		return c.fail("VALIDATION_ERROR", "'%s' exists; this tool never overwrites. Pick another path, or add to that TileSet: godot_tilemap_build_tileset {path: \"%s\", ...} without new." % [path, path])
	if path != "" and not DirAccess.dir_exists_absolute(path.get_base_dir()):
		return c.fail("RESOURCE_NOT_FOUND", "The folder '%s' does not exist; create it first or pick another path." % path.get_base_dir())
	var built: Dictionary = build(params)
	if built.has("error"):
		return built["error"]
	var ts: TileSet = built["tileset"]
	var sources: Array = []
	var tiles: int = 0
	for i: int in ts.get_source_count():
		var s: TileSetAtlasSource = ts.get_source(ts.get_source_id(i))
		sources.append({"id": ts.get_source_id(i), "tiles": s.get_tiles_count(), "grid_size": Common.v2(s.get_atlas_grid_size())})
		tiles += s.get_tiles_count()
	var result: Dictionary = {"path": path, "embedded": path == "", "layer": Common.rel(root, layer) if layer != null else "",
		"sources": sources, "tiles": tiles, "terrain_sets": ts.get_terrain_sets_count(), "physics_layers": ts.get_physics_layers_count(),
		"custom_data_layers": ts.get_custom_data_layers_count(), "dry_run": dry, "undoable": false, "persisted": false, "reason": ""}
	if dry:
		return c.ok(result)
	if path != "":
		var err: Error = ResourceSaver.save(ts, path)
		if err != OK:
			return c.fail("INTERNAL_ERROR", "Saving the TileSet to '%s' failed: %s. Check the folder is writable." % [path, error_string(err)])
		ts.take_over_path(path)
		EditorInterface.get_resource_filesystem().update_file(path)
		result["persisted"] = true
	if layer != null:
		Common.commit_property("godot-mcp: set TileSet of %s" % result["layer"], root, layer, "tile_set", layer.tile_set, ts)
		layer.tile_set = ts
		result["undoable"] = true
		var pr: Dictionary = Common.persisted(root, layer)
		result["persisted"] = pr["persisted"]
		result["reason"] = pr["reason"]
	return c.ok(result)
