@tool
extends RefCounted
## Control layout: reading the rects as the editor laid them out (with the problems
## an agent cannot see) and setting presets, anchors, offsets, grow and size flags on
## several Controls as ONE undo action.

const Common := preload("common.gd")
const Nodes := preload("res://addons/godot_mcp/lib/nodes.gd")
const Recorder := preload("res://addons/godot_mcp/lib/undo.gd")
const Compat := preload("res://addons/godot_mcp/lib/compat.gd")

const PRESETS: PackedStringArray = ["top_left", "top_right", "bottom_left", "bottom_right", "center_left", "center_top",
	"center_right", "center_bottom", "center", "left_wide", "top_wide", "right_wide", "bottom_wide", "vcenter_wide",
	"hcenter_wide", "full_rect"]
const RESIZE_MODES: PackedStringArray = ["minsize", "keep_width", "keep_height", "keep_size"]
const MODES: PackedStringArray = ["position", "anchors", "container", "uncontrolled"]
const GROW: PackedStringArray = ["begin", "end", "both"]
const FLAGS: Dictionary = {"shrink_begin": 0, "fill": 1, "expand": 2, "expand_fill": 3, "shrink_center": 4, "shrink_end": 8}
const EPS: float = 0.5
## Grow directions (0 begin, 1 end, 2 both) per preset, as Control.set_grow_direction_preset
## (not exposed to scripts) sets them.
const H_GROW: PackedInt32Array = [1, 0, 1, 0, 1, 2, 0, 2, 2, 1, 2, 0, 2, 2, 2, 2]
const V_GROW: PackedInt32Array = [1, 1, 0, 0, 2, 1, 2, 0, 2, 2, 1, 2, 0, 2, 2, 2]

var c: Common = null


func _init(common: Common) -> void:
	c = common


static func flag_names(f: int) -> Array:
	var out: Array = []
	if f & Control.SIZE_FILL:
		out.append("fill")
	if f & Control.SIZE_EXPAND:
		out.append("expand")
	if f & Control.SIZE_SHRINK_CENTER:
		out.append("shrink_center")
	if f & Control.SIZE_SHRINK_END:
		out.append("shrink_end")
	return out


static func in_container(n: Control) -> bool:
	return n.get_parent() is Container


## One Control as laid out, with its problems.
static func describe(root: Node, n: Control) -> Dictionary:
	var r: Rect2 = n.get_rect()
	var g: Vector2 = n.global_position
	var mode: int = int(n.get("layout_mode"))
	var cms: Vector2 = n.custom_minimum_size
	var ms: Vector2 = n.get_combined_minimum_size()
	return {
		"path": Nodes.rel(root, n), "class": n.get_class(),
		"rect": {"x": r.position.x, "y": r.position.y, "w": r.size.x, "h": r.size.y},
		"global_position": [g.x, g.y],
		"anchors": [n.anchor_left, n.anchor_top, n.anchor_right, n.anchor_bottom],
		"offsets": [n.offset_left, n.offset_top, n.offset_right, n.offset_bottom],
		"grow": [GROW[n.grow_horizontal], GROW[n.grow_vertical]],
		"layout_mode": MODES[clampi(mode, 0, 3)],
		"size_flags": {"h": flag_names(n.size_flags_horizontal), "v": flag_names(n.size_flags_vertical), "stretch_ratio": n.size_flags_stretch_ratio},
		"custom_minimum_size": [cms.x, cms.y], "minimum_size": [ms.x, ms.y],
		"in_container": in_container(n), "visible": n.is_visible_in_tree(),
		"problems": problems(n),
	}


## What is likely wrong with [param n]'s layout, each "code: detail".
static func problems(n: Control) -> Array:
	var out: Array = []
	if not n.is_visible_in_tree():
		return out
	var s: Vector2 = n.size
	if s.x <= 0.0 or s.y <= 0.0:
		var why: String = "it has no content and no custom_minimum_size" if n.get_combined_minimum_size() == Vector2.ZERO else "its anchors/offsets give it no area"
		out.append("zero_size: %sx%s (%s)" % [s.x, s.y, why])
	var ms: Vector2 = n.get_combined_minimum_size()
	if ms.x > s.x + EPS or ms.y > s.y + EPS:
		out.append("min_size_exceeds_size: minimum %sx%s, size %sx%s" % [ms.x, ms.y, s.x, s.y])
	var parent: Control = n.get_parent() as Control
	if parent != null and not n.top_level and parent.size.x > 0 and parent.size.y > 0:
		var pr: Rect2 = Rect2(Vector2.ZERO, parent.size)
		var r: Rect2 = n.get_rect()
		if not pr.intersects(r) and r.size.x > 0 and r.size.y > 0:
			out.append("outside_parent: rect (%s, %s, %sx%s) lies wholly outside the parent's %sx%s" % [r.position.x, r.position.y, r.size.x, r.size.y, pr.size.x, pr.size.y])
		elif not pr.grow(EPS).encloses(r):
			out.append("exceeds_parent: rect (%s, %s, %sx%s) reaches outside the parent's %sx%s" % [r.position.x, r.position.y, r.size.x, r.size.y, pr.size.x, pr.size.y])
	if in_container(n) and (n.anchor_left != 0.0 or n.anchor_top != 0.0 or n.anchor_right != 0.0 or n.anchor_bottom != 0.0):
		out.append("anchors_under_container: the parent %s sets this rect and ignores anchors; use size flags" % n.get_parent().get_class())
	var clip: String = _clipped(n)
	if clip != "":
		out.append(clip)
	return out


static func _clipped(n: Control) -> String:
	if n is Label:
		var l: Label = n
		if l.text == "":
			return ""
		if l.get_visible_line_count() < l.get_line_count() and l.max_lines_visible < 0:
			return "text_clipped: %d of %d lines fit" % [l.get_visible_line_count(), l.get_line_count()]
		if l.autowrap_mode == TextServer.AUTOWRAP_OFF and (l.clip_text or l.text_overrun_behavior != TextServer.OVERRUN_NO_TRIMMING):
			var f: Font = l.get_theme_font("font")
			var w: float = f.get_multiline_string_size(l.text, HORIZONTAL_ALIGNMENT_LEFT, -1, l.get_theme_font_size("font_size")).x
			if w > l.size.x + EPS:
				return "text_clipped: the text is %s px wide, the label %s" % [w, l.size.x]
	elif n is Button:
		var b: Button = n
		if b.text != "" and (b.clip_text or b.text_overrun_behavior != TextServer.OVERRUN_NO_TRIMMING):
			var f2: Font = b.get_theme_font("font")
			var w2: float = f2.get_string_size(b.text, HORIZONTAL_ALIGNMENT_LEFT, -1, b.get_theme_font_size("font_size")).x
			if w2 > b.size.x + EPS:
				return "text_clipped: the text is %s px wide, the button %s" % [w2, b.size.x]
	return ""


static func _walk(n: Node, depth: int, out: Array[Control]) -> void:
	if n is Control:
		out.append(n)
	if depth <= 0:
		return
	for ch: Node in n.get_children():
		_walk(ch, depth - 1, out)


## {node, depth, offset, limit} -> {scene, viewport, total, nodes, next_offset}
func get_layout(params: Dictionary) -> Dictionary:
	var want: String = str(params.get("scene", ""))
	var edited: Node = EditorInterface.get_edited_scene_root()
	if want != "" and edited != null and edited.scene_file_path != want:
		if Array(Compat.open_scenes()).has(want):
			return c.fail("PRECONDITION_FAILED", ("'%s' is open but not the edited scene ('%s'); the editor lays out only the scene in front. " +
				"Switch with godot_scene_open {path: \"%s\"}, then retry.") % [want, Nodes.scene_label(edited), want], "active_scene")
		return c.fail("RESOURCE_NOT_FOUND", "'%s' is not open in the editor (open: %s). Open it with godot_scene_open {path: \"%s\"}." % [want, Nodes.short_list(Compat.open_scenes()), want])
	var found: Dictionary = c.find_control(str(params.get("node", ".")), true)
	if found.has("error"):
		return found["error"]
	var root: Node = found["root"]
	var all: Array[Control] = []
	_walk(found["node"], int(params.get("depth", 8)), all)
	if all.is_empty():
		return c.fail("VALIDATION_ERROR", "'%s' (a %s) has no Control in it to depth %d; get_layout reads Controls (godot_scene_get_tree shows the tree)." % [params.get("node", "."), (found["node"] as Node).get_class(), int(params.get("depth", 8))])
	var offset: int = int(params.get("offset", 0))
	var limit: int = int(params.get("limit", 200))
	var nodes: Array = []
	for i: int in range(offset, mini(all.size(), offset + limit)):
		nodes.append(describe(root, all[i]))
	var vp: Vector2 = (root as Control).get_parent_area_size() if root is Control else Vector2(
		float(ProjectSettings.get_setting("display/window/size/viewport_width", 0)), float(ProjectSettings.get_setting("display/window/size/viewport_height", 0)))
	return c.ok({"scene": Nodes.scene_label(root), "viewport": [vp.x, vp.y], "total": all.size(), "nodes": nodes,
		"next_offset": offset + limit if offset + limit < all.size() else 0})


## {items: [{node, preset?, resize_mode?, margin?, anchors?, offsets?, grow?, size_flags_h?, size_flags_v?,
## stretch_ratio?, custom_minimum_size?}], dry_run} -> {nodes, undoable, persisted, dry_run}
func set_layout(params: Dictionary) -> Dictionary:
	var root: Node = EditorInterface.get_edited_scene_root()
	if root == null:
		return c.no_scene()
	var dry: bool = bool(params.get("dry_run", false))
	var items: Array = params.get("items", [])
	var targets: Array[Control] = []
	# Check everything first: nothing changes unless every item is valid.
	for i: int in items.size():
		var it: Dictionary = items[i]
		var found: Dictionary = c.find_control(str(it.get("node", "")))
		if found.has("error"):
			var e: Dictionary = found["error"]
			e["hint"] = "items[%d]: %s" % [i, e["hint"]]
			return e
		var n: Control = found["node"]
		var anchored: bool = it.has("preset") or it.has("anchors") or it.has("offsets") or it.has("grow")
		if anchored and in_container(n):
			return c.fail("VALIDATION_ERROR", ("items[%d]: '%s' is inside the %s '%s', which sets its position and size: presets, anchors, offsets and grow have no effect there. " +
				"Use size_flags_h / size_flags_v (fill, expand, shrink_center, shrink_end), stretch_ratio and custom_minimum_size, or lay out the container itself.") %
				[i, Nodes.rel(root, n), n.get_parent().get_class(), Nodes.rel(root, n.get_parent())])
		if n != root and n.owner != root and not (n.owner != null and root.is_editable_instance(n.owner)):
			return c.fail("VALIDATION_ERROR", "items[%d]: '%s' belongs to an instanced scene without Editable Children; its layout would not be saved. Edit that scene instead." % [i, Nodes.rel(root, n)])
		targets.append(n)
	var rec: Recorder = Recorder.new()
	rec.begin()
	for i: int in items.size():
		_apply(rec, targets[i], items[i])
	var result: Dictionary = {"dry_run": dry, "undoable": false, "persisted": false, "reason": ""}
	if dry:
		_settle(targets)
		result["nodes"] = _read(root, targets)
		rec.rollback()
		result["reason"] = "dry run"
		return c.ok(result)
	rec.commit("godot-mcp: set layout of %d Control(s)" % targets.size(), root)
	# Containers sort their children, and minimum sizes update, on the next frame.
	await (Engine.get_main_loop() as SceneTree).process_frame
	await (Engine.get_main_loop() as SceneTree).process_frame
	result["nodes"] = _read(root, targets)
	result["undoable"] = true
	result["persisted"] = true
	return c.ok(result)


func _read(root: Node, targets: Array[Control]) -> Array:
	var out: Array = []
	for n: Control in targets:
		out.append(describe(root, n) if is_instance_valid(n) else {})
	return out


## Sorts the containers at and above [param targets] now (a dry run answers in this frame).
static func _settle(targets: Array[Control]) -> void:
	for n: Control in targets:
		var chain: Array[Container] = []
		var p: Node = n
		while p != null:
			if p is Container:
				chain.push_front(p)
			p = p.get_parent()
		for ct: Container in chain:
			ct.notification(Container.NOTIFICATION_SORT_CHILDREN)


static func _flags(names: Array) -> int:
	var f: int = 0
	for nm: Variant in names:
		f |= int(FLAGS.get(str(nm), 0))
	return f


func _apply(rec: Recorder, n: Control, it: Dictionary) -> void:
	# Minimum size and flags first: a preset in minsize mode sizes to the new minimum.
	if it.has("custom_minimum_size"):
		var m: Array = it["custom_minimum_size"]
		rec.undo_set(n, "custom_minimum_size", n.custom_minimum_size)
		rec.do_set(n, "custom_minimum_size", Vector2(float(m[0]), float(m[1])))
	if it.has("size_flags_h"):
		rec.undo_set(n, "size_flags_horizontal", n.size_flags_horizontal)
		rec.do_set(n, "size_flags_horizontal", _flags(it["size_flags_h"]))
	if it.has("size_flags_v"):
		rec.undo_set(n, "size_flags_vertical", n.size_flags_vertical)
		rec.do_set(n, "size_flags_vertical", _flags(it["size_flags_v"]))
	if it.has("stretch_ratio"):
		rec.undo_set(n, "size_flags_stretch_ratio", n.size_flags_stretch_ratio)
		rec.do_set(n, "size_flags_stretch_ratio", float(it["stretch_ratio"]))
	var anchored: bool = it.has("preset") or it.has("anchors") or it.has("offsets")
	# Undo runs in the order recorded: the state first (it resets grow in position mode), then grow.
	if anchored:
		rec.undo_call(n, "_edit_set_state", [n.call("_edit_get_state")])
	if anchored or it.has("grow"):
		rec.undo_set(n, "grow_horizontal", n.grow_horizontal)
		rec.undo_set(n, "grow_vertical", n.grow_vertical)
	if it.has("preset"):
		var preset: int = PRESETS.find(str(it["preset"]))
		var mode: int = maxi(0, RESIZE_MODES.find(str(it.get("resize_mode", "minsize"))))
		if n.get_parent() is Control:
			rec.do_set(n, "layout_mode", 1)
		rec.do_call(n, "set_anchors_and_offsets_preset", [preset, mode, int(it.get("margin", 0))])
		rec.do_set(n, "grow_horizontal", H_GROW[preset])
		rec.do_set(n, "grow_vertical", V_GROW[preset])
	if it.has("anchors"):
		var a: Array = it["anchors"]
		if n.get_parent() is Control:
			rec.do_set(n, "layout_mode", 1)
		rec.do_set(n, "anchors_preset", -1)
		# set_anchor clamps a side past its opposite: open the range first, then set
		# left/top and right/bottom (left <= right was checked).
		for side: int in 4:
			rec.do_call(n, "set_anchor", [side, 0.0 if side < 2 else 1.0, false, false])
		for side2: int in 4:
			rec.do_call(n, "set_anchor", [side2, float(a[side2]), false, false])
	if it.has("offsets"):
		var o: Array = it["offsets"]
		for side3: int in 4:
			rec.do_call(n, "set_offset", [side3, float(o[side3])])
	if it.has("grow"):
		var g: Dictionary = it["grow"]
		if g.has("h"):
			rec.do_set(n, "grow_horizontal", GROW.find(str(g["h"])))
		if g.has("v"):
			rec.do_set(n, "grow_vertical", GROW.find(str(g["v"])))
