@tool
extends RefCounted
## Shared helpers of the tilemap toolset's editor commands: answers, the edited
## scene, layer lookup (with did-you-mean and the legacy TileMap refusal) and the
## small value shapes the commands answer.

const Names := preload("res://addons/godot_mcp/lib/names.gd")
const SHAPES: PackedStringArray = ["square", "isometric", "half_offset_square", "hexagon"]
const TERRAIN_MODES: PackedStringArray = ["corners_and_sides", "corners", "sides"]
const NEIGHBORS: PackedStringArray = [
	"right_side", "right_corner", "bottom_right_side", "bottom_right_corner",
	"bottom_side", "bottom_corner", "bottom_left_side", "bottom_left_corner",
	"left_side", "left_corner", "top_left_side", "top_left_corner",
	"top_side", "top_corner", "top_right_side", "top_right_corner",
]

var router: RefCounted = null


func _init(r: RefCounted) -> void:
	router = r


func ok(result: Dictionary) -> Dictionary:
	return router.call("ok", result)


func fail(code: String, hint: String, required: String = "") -> Dictionary:
	return router.call("fail", code, hint, required)


func no_scene() -> Dictionary:
	return fail("PRECONDITION_FAILED", "No scene is open in the editor. Open one with godot_scene_open (or create one with godot_scene_create), then retry.", "active_scene")


## Path of [param n] relative to [param root] ("." for the root itself).
static func rel(root: Node, n: Node) -> String:
	if n == root:
		return "."
	return str(root.get_path_to(n))


## The node at a path relative to the scene root, or null.
static func resolve(root: Node, path: String) -> Node:
	var p: String = path.strip_edges().trim_prefix("./")
	if p == "" or p == ".":
		return root
	var n: Node = root.get_node_or_null(NodePath(p))
	if n == null or not (n == root or root.is_ancestor_of(n)):
		return null
	return n


## [param n] and its descendants (internal children left out) in tree order.
static func walk(root: Node, n: Node, out: Array[Node]) -> void:
	out.append(n)
	for c: Node in n.get_children():
		walk(root, c, out)


static func legacy_hint(root: Node, n: Node) -> String:
	return ("'%s' is a TileMap node, the tile node of Godot 4.2 and older (deprecated since 4.3), which these tools do not edit. " +
		"Convert it in the editor: select it, open the TileMap panel at the bottom and pick 'Extract TileMap layers as individual TileMapLayer nodes' " +
		"from its toolbar menu; then use the new TileMapLayer nodes (godot_tilemap_list_layers lists them).") % rel(root, n)


## {root, node} of the TileMapLayer at [param path] in the edited scene, or {error}.
## [param kind] is the class wanted: "TileMapLayer" or "GridMap".
func find_node(path: String, kind: String = "TileMapLayer") -> Dictionary:
	var root: Node = EditorInterface.get_edited_scene_root()
	if root == null:
		return {"error": no_scene()}
	var n: Node = resolve(root, path)
	var all: Array[Node] = []
	walk(root, root, all)
	var names: PackedStringArray = []
	for c: Node in all:
		if c.is_class(kind):
			names.append(rel(root, c))
	if n == null:
		var hint: String = "No node at '%s' in the edited scene (paths are relative to the scene root)." % path
		hint += did_you_mean(path, names, 0.3)
		hint += (" %s nodes: %s." % [kind, ", ".join(names)]) if not names.is_empty() else (" The scene has no %s node." % kind)
		return {"error": fail("RESOURCE_NOT_FOUND", hint)}
	if kind == "TileMapLayer" and n.is_class("TileMap"):
		return {"error": fail("PRECONDITION_FAILED", legacy_hint(root, n), "tile_map_layer")}
	if not n.is_class(kind):
		var hint2: String = "'%s' is a %s, not a %s." % [path, n.get_class(), kind]
		hint2 += (" %s nodes: %s." % [kind, ", ".join(names)]) if not names.is_empty() else (" The scene has no %s node; add one with godot_scene_create_node." % kind)
		return {"error": fail("VALIDATION_ERROR", hint2)}
	return {"root": root, "node": n}


## Whether edits to [param n] are saved with the scene, and why not.
static func persisted(root: Node, n: Node) -> Dictionary:
	if n == root or n.owner == root:
		return {"persisted": true, "reason": ""}
	if n.owner != null and root.is_editable_instance(n.owner):
		return {"persisted": true, "reason": ""}
	return {"persisted": false, "reason": "the node belongs to an instanced scene without Editable Children; edit that scene instead"}


static func v2(v: Vector2i) -> Array:
	return [v.x, v.y]


static func rect(r: Rect2i) -> Dictionary:
	return {"x": r.position.x, "y": r.position.y, "w": r.size.x, "h": r.size.y}


static func vec(a: Variant) -> Vector2i:
	if typeof(a) == TYPE_ARRAY and (a as Array).size() == 2:
		return Vector2i(int(a[0]), int(a[1]))
	return Vector2i.ZERO


static func vecf(a: Variant) -> Vector2:
	if typeof(a) == TYPE_ARRAY and (a as Array).size() == 2:
		return Vector2(float(a[0]), float(a[1]))
	return Vector2.ZERO


## Short summary of a TileSet for listings.
static func tileset_summary(ts: TileSet) -> Variant:
	if ts == null:
		return null
	var embedded: bool = ts.resource_path == "" or ts.resource_path.contains("::")
	return {
		"path": "" if embedded else ts.resource_path,
		"embedded": embedded,
		"tile_shape": SHAPES[ts.tile_shape],
		"tile_size": v2(ts.tile_size),
		"sources": ts.get_source_count(),
	}


## The nearest of [param have] to [param want] as " Did you mean 'x'?", or "" (lib/names.gd).
static func did_you_mean(want: String, have: PackedStringArray, at_least: float = 0.4) -> String:
	return Names.did_you_mean(want, have, at_least)


## Records [param obj].[param prop] going from [param before] to [param after] as one
## undo action in the history of the scene [param root] (not run again).
static func commit_property(action: String, root: Node, obj: Object, prop: String, before: Variant, after: Variant) -> void:
	var mgr: EditorUndoRedoManager = EditorInterface.get_editor_undo_redo()
	mgr.create_action(action, UndoRedo.MERGE_DISABLE, root)
	mgr.add_do_property(obj, prop, after)
	mgr.add_undo_property(obj, prop, before)
	mgr.commit_action(false)
	EditorInterface.mark_scene_as_unsaved()
