@tool
extends RefCounted
## Editing an existing TileSet in place (a layer's, or a .tres): what build_tileset
## can add (atlases, tiles, terrain sets, layers, collision, custom data), as ONE undo
## action. The TileSet's whole state is snapshotted before and after; undo and redo
## restore a snapshot (sources are shallow copies, so textures stay shared).

const Common := preload("common.gd")
const Authoring := preload("tileset.gd")

var c: Common = null
var _authoring: Authoring = null


func _init(common: Common, authoring: Authoring) -> void:
	c = common
	_authoring = authoring


## The stored properties of [param obj] as [[name, value]...] (resource_* and
## script left out, and names starting with [param skip]).
static func stored(obj: Object, skip: String = "") -> Array:
	var props: Array = []
	for p: Dictionary in obj.get_property_list():
		var name: String = str(p["name"])
		if int(p["usage"]) & PROPERTY_USAGE_STORAGE == 0 or name.begins_with("resource_") or name == "script" or skip != "" and name.begins_with(skip):
			continue
		var v: Variant = obj.get(name)
		if v is Array or v is Dictionary:
			v = v.duplicate(true)
		props.append([name, v])
	return props


## {props: [[name, value]...], sources: {id: [class, props]}} of [param ts].
static func snapshot(ts: TileSet) -> Dictionary:
	var sources: Dictionary = {}
	for i: int in ts.get_source_count():
		var id: int = ts.get_source_id(i)
		var src: TileSetSource = ts.get_source(id)
		sources[id] = [src.get_class(), stored(src)]
	return {"props": stored(ts, "sources/"), "sources": sources}


## Puts [param ts] back in the state of [param snap] (as loading it would).
static func restore(ts: TileSet, snap: Dictionary) -> void:
	while ts.get_source_count() > 0:
		ts.remove_source(ts.get_source_id(0))
	while ts.get_physics_layers_count() > 0:
		ts.remove_physics_layer(0)
	while ts.get_navigation_layers_count() > 0:
		ts.remove_navigation_layer(0)
	while ts.get_occlusion_layers_count() > 0:
		ts.remove_occlusion_layer(0)
	while ts.get_custom_data_layers_count() > 0:
		ts.remove_custom_data_layer(0)
	while ts.get_terrain_sets_count() > 0:
		ts.remove_terrain_set(0)
	while ts.get_patterns_count() > 0:
		ts.remove_pattern(0)
	for pv: Array in snap["props"]:
		var v: Variant = pv[1]
		if v is Array or v is Dictionary:
			v = v.duplicate(true)
		ts.set(str(pv[0]), v)
	var sources: Dictionary = snap["sources"]
	for id: Variant in sources.keys():
		var src: TileSetSource = ClassDB.instantiate(str(sources[id][0])) as TileSetSource
		for pv2: Array in sources[id][1]:
			var v2: Variant = pv2[1]
			if v2 is Array or v2 is Dictionary:
				v2 = v2.duplicate(true)
			src.set(str(pv2[0]), v2)
		ts.add_source(src, int(id))
	ts.emit_changed()


## {layer? | path?, ...additions, dry_run} -> {path, embedded, sources[], tiles, ...}
func edit_tileset(params: Dictionary) -> Dictionary:
	var layer_path: String = str(params.get("layer", ""))
	var path: String = str(params.get("path", ""))
	var root: Node = EditorInterface.get_edited_scene_root()
	var ts: TileSet = null
	var owner_label: String = path
	if layer_path != "":
		var found: Dictionary = c.find_node(layer_path)
		if found.has("error"):
			return found["error"]
		ts = (found["node"] as TileMapLayer).tile_set
		owner_label = layer_path
		if ts == null:
			return c.fail("PRECONDITION_FAILED", "The layer '%s' has no TileSet. Create one with godot_tilemap_build_tileset {layer: \"%s\", new: {tile_size: [16, 16]}, atlases: [...]}." % [layer_path, layer_path], "tile_set")
	else:
		if not ResourceLoader.exists(path):
			return c.fail("RESOURCE_NOT_FOUND", "No resource at '%s'. List TileSets with godot_resources_list {type: \"TileSet\"}." % path)
		ts = load(path) as TileSet
		if ts == null:
			return c.fail("VALIDATION_ERROR", "'%s' is not a TileSet." % path)
	var dry: bool = bool(params.get("dry_run", false))
	var before: Dictionary = snapshot(ts)
	var err: Dictionary = _authoring.apply(ts, params)
	if not err.is_empty():
		restore(ts, before)
		return err["error"]
	var sources: Array = []
	var tiles: int = 0
	for i: int in ts.get_source_count():
		var s: TileSetSource = ts.get_source(ts.get_source_id(i))
		var a: TileSetAtlasSource = s as TileSetAtlasSource
		sources.append({"id": ts.get_source_id(i), "tiles": s.get_tiles_count(), "grid_size": Common.v2(a.get_atlas_grid_size()) if a != null else [0, 0]})
		tiles += s.get_tiles_count()
	var file: String = ts.resource_path if not ts.resource_path.contains("::") else ""
	var result: Dictionary = {"path": file, "embedded": file == "", "layer": layer_path, "sources": sources, "tiles": tiles,
		"terrain_sets": ts.get_terrain_sets_count(), "physics_layers": ts.get_physics_layers_count(),
		"custom_data_layers": ts.get_custom_data_layers_count(), "dry_run": dry, "undoable": false, "persisted": false, "reason": ""}
	if dry:
		restore(ts, before)
		return c.ok(result)
	var after: Dictionary = snapshot(ts)
	var mgr: EditorUndoRedoManager = EditorInterface.get_editor_undo_redo()
	mgr.create_action("godot-mcp: edit TileSet of %s" % owner_label, UndoRedo.MERGE_DISABLE, root if root != null else ts)
	mgr.add_do_method(self, "_restore", ts, after)
	mgr.add_undo_method(self, "_restore", ts, before)
	# A property op on the TileSet itself marks it edited on undo and redo, so the
	# editor writes a .tres TileSet with the next scene save.
	mgr.add_do_property(ts, "resource_name", ts.resource_name)
	mgr.add_undo_property(ts, "resource_name", ts.resource_name)
	mgr.commit_action(false)
	result["undoable"] = true
	if file != "":
		var serr: Error = ResourceSaver.save(ts, file)
		if serr != OK:
			return c.fail("INTERNAL_ERROR", "The TileSet was changed (godot_undo reverts it) but saving '%s' failed: %s." % [file, error_string(serr)])
		result["persisted"] = true
	elif root != null:
		EditorInterface.mark_scene_as_unsaved()
		result["persisted"] = true
	else:
		result["reason"] = "the TileSet is not saved anywhere"
	return c.ok(result)


func _restore(ts: TileSet, snap: Dictionary) -> void:
	restore(ts, snap)
