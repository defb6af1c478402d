extends RefCounted
## godot-mcp runtime probe, playtest UI half: lists the live Controls, resolves a
## pointer target (a node path or a control's visible text) to a point in window
## pixels at the moment it is asked, and refuses a target that is missing, hidden,
## disabled, clipped or covered, naming the candidates. Owned by playtest.gd, which
## runs the resulting gesture (input events at frame offsets). See docs/playtest.md.
##
## Coordinates: a control's rect is in its viewport's canvas coordinates (what
## Control.get_global_transform_with_canvas gives, cameras included); window pixels
## (what input events carry) go through embedded windows' positions and transforms
## and the root window's final transform (content scale / stretch); screen pixels
## add the window's position.

const MAX_LIST := 2000
const MAX_ITEMS := 50
const MAX_TEXT := 200

var _probe: Node = null


func _init(probe: Node) -> void:
	_probe = probe


func _root() -> Window:
	return _probe.get_tree().root


func _fail(code: String, hint: String) -> Dictionary:
	return {"ok": false, "error": code, "hint": hint}


# --- what a control shows -----------------------------------------------------------


static func text_of(c: Control) -> String:
	if c is RichTextLabel:
		return (c as RichTextLabel).get_parsed_text()
	if "text" in c:
		var v: Variant = c.get("text")
		if typeof(v) == TYPE_STRING:
			return v
	return ""


static func disabled_of(c: Control) -> bool:
	if c is BaseButton:
		return (c as BaseButton).disabled
	if c is LineEdit:
		return not (c as LineEdit).editable
	if c is TextEdit:
		return not (c as TextEdit).editable
	if c is Slider:
		return not (c as Slider).editable
	return false


## Rows of an ItemList or a Tree: [{text, rect (local), index}] (at most MAX_ITEMS).
static func rows_of(c: Control) -> Array:
	var out: Array = []
	if c is ItemList:
		var il: ItemList = c
		# get_item_rect leaves out the scroll: the list draws its rows scrolled by it.
		var scroll: Vector2 = Vector2(0, int(il.get_v_scroll_bar().value))
		if il.has_method("get_h_scroll_bar"):
			scroll.x = int((il.call("get_h_scroll_bar") as ScrollBar).value)
		for i: int in range(mini(il.item_count, MAX_ITEMS)):
			var r: Rect2 = il.get_item_rect(i)
			r.position -= scroll
			out.append({"text": il.get_item_text(i), "rect": r, "index": i})
	elif c is Tree:
		var t: Tree = c
		var item: TreeItem = t.get_root()
		if item != null and t.hide_root:
			item = item.get_next_in_tree()
		var i: int = 0
		while item != null and out.size() < MAX_ITEMS:
			var r: Rect2 = t.get_item_area_rect(item, 0)
			if r.size.x > 0 and r.size.y > 0:
				out.append({"text": item.get_text(0), "rect": r, "index": i})
			item = item.get_next_visible()
			i += 1
	return out


# --- coordinates ----------------------------------------------------------------------


## A point in [param vp]'s canvas coordinates -> window pixels, or null when the
## viewport is not the root or a window embedded in it (a SubViewport).
func to_window(vp: Viewport, p: Vector2) -> Variant:
	var root: Window = _root()
	var q: Vector2 = p
	var v: Viewport = vp
	var guard: int = 0
	while v != root and guard < 16:
		guard += 1
		var w: Window = v as Window
		if w == null or not w.is_embedded() or w.get_parent() == null:
			return null
		q = Vector2(w.position) + w.get_final_transform() * q
		v = w.get_parent().get_viewport()
	if v != root:
		return null
	return root.get_final_transform() * q


func window_origin() -> Vector2:
	return Vector2(_root().position)


static func _rect_json(r: Rect2) -> Dictionary:
	return {"x": snappedf(r.position.x, 0.01), "y": snappedf(r.position.y, 0.01), "w": snappedf(r.size.x, 0.01), "h": snappedf(r.size.y, 0.01)}


## The rect (local to [param c]) in canvas and in window pixels: {canvas, window} or
## {canvas} when the control is in a SubViewport.
func rects(c: Control, local: Rect2) -> Dictionary:
	var xf: Transform2D = c.get_global_transform_with_canvas()
	var canvas: Rect2 = xf * local
	var out: Dictionary = {"canvas": canvas}
	var corners: Array = []
	for p: Vector2 in [local.position, local.position + Vector2(local.size.x, 0), local.end, local.position + Vector2(0, local.size.y)]:
		var w: Variant = to_window(c.get_viewport(), xf * p)
		if w == null:
			return out
		corners.append(w)
	var first: Vector2 = corners[0]
	var win: Rect2 = Rect2(first, Vector2.ZERO)
	for p: Vector2 in corners:
		win = win.expand(p)
	out["window"] = win
	return out


# --- the live controls ------------------------------------------------------------------


## Every Control of the root viewport and of the windows embedded in it, in tree order
## (SubViewports' contents are left out: their input goes through their container).
func all_controls(from: Node) -> Array[Control]:
	var out: Array[Control] = []
	var stack: Array[Node] = [from]
	while not stack.is_empty() and out.size() < 20000:
		var n: Node = stack.pop_back()
		if n == _probe:
			continue
		if n is SubViewport:
			continue
		if n is Window and n != _root() and not (n as Window).is_embedded():
			continue
		if n is Control:
			out.append(n as Control)
		var kids: Array[Node] = n.get_children()
		for i: int in range(kids.size() - 1, -1, -1):
			stack.append(kids[i])
	return out


func _layer(c: CanvasItem) -> int:
	var p: Node = c.get_parent()
	while p != null:
		if p is CanvasLayer:
			return (p as CanvasLayer).layer
		if p is Viewport:
			return 0
		p = p.get_parent()
	return 0


## Whether an ancestor that clips its contents hides the canvas point [param at].
func _clipped_by(c: Control, at: Vector2) -> Control:
	var p: Node = c.get_parent()
	while p != null and not (p is Viewport):
		if p is Control and (p as Control).clip_contents:
			var pc: Control = p
			var local: Vector2 = pc.get_global_transform_with_canvas().affine_inverse() * at
			if not Rect2(Vector2.ZERO, pc.size).has_point(local):
				return pc
		p = p.get_parent()
	return null


## The control that takes a mouse event at canvas point [param at] of viewport
## [param vp], as Viewport.gui_find_control picks it: visible, not ignoring the mouse,
## containing the point and not clipped away; the last in (canvas layer, tree order).
func hit(vp: Viewport, at: Vector2, controls: Array[Control]) -> Control:
	var best: Control = null
	var best_layer: int = -2147483648
	for c: Control in controls:
		if c.get_viewport() != vp or not c.is_visible_in_tree() or c.mouse_filter == Control.MOUSE_FILTER_IGNORE:
			continue
		var local: Vector2 = c.get_global_transform_with_canvas().affine_inverse() * at
		if not Rect2(Vector2.ZERO, c.size).has_point(local) or _clipped_by(c, at) != null:
			continue
		var layer: int = _layer(c)
		if best == null or layer >= best_layer:
			best = c
			best_layer = layer
	return best


## The visible embedded window (popup, dialog) over root point [param r] that does not
## hold [param target], or null.
func _window_over(r: Vector2, target: Node) -> Window:
	var found: Window = null
	for n: Node in _root().find_children("*", "Window", true, false):
		var w: Window = n
		if not w.is_embedded() or not w.visible:
			continue
		if Rect2(Vector2(w.position), Vector2(w.size)).has_point(r) and not w.is_ancestor_of(target):
			found = w
	return found


func _entry(c: Control, focus: Control) -> Dictionary:
	var r: Dictionary = rects(c, Rect2(Vector2.ZERO, c.size))
	var text: String = text_of(c)
	var e: Dictionary = {
		"path": str(c.get_path()),
		"class": c.get_class(),
		"text": text.substr(0, MAX_TEXT),
		"rect": _rect_json(r["canvas"]),
		"visible": c.is_visible_in_tree(),
		"disabled": disabled_of(c),
		"focused": c == focus,
	}
	if r.has("window"):
		var s: Rect2 = r["window"]
		s.position += window_origin()
		e["screen_rect"] = _rect_json(s)
	var rows: Array = rows_of(c)
	if not rows.is_empty():
		var items: Array = []
		for row: Dictionary in rows:
			items.append({"text": str(row["text"]).substr(0, MAX_TEXT), "rect": _rect_json(rects(c, row["rect"])["canvas"])})
		e["items"] = items
	return e


## {text?, class?, under?, all?, max?} -> {controls, count, truncated, window, focus}
func list(params: Dictionary) -> Dictionary:
	var under: String = str(params.get("under", ""))
	var from: Node = _root()
	if under != "":
		from = _probe.call("_find", under)
		if from == null:
			return _probe.call("_not_found", under)
	var want_text: String = str(params.get("text", "")).to_lower()
	var want_class: String = str(params.get("class", ""))
	if want_class != "" and not ClassDB.class_exists(want_class):
		return _fail("VALIDATION_ERROR", "class '%s' is not a Godot class (Button, Label, LineEdit, Control ...)." % want_class)
	var everything: bool = bool(params.get("all", false))
	var most: int = clampi(int(params.get("max", 200)), 1, MAX_LIST)
	var focus: Control = _root().gui_get_focus_owner()
	var out: Array = []
	var matched: int = 0
	for c: Control in all_controls(from):
		if not everything and not c.is_visible_in_tree():
			continue
		if want_class != "" and not c.is_class(want_class):
			continue
		if want_text != "" and not text_of(c).to_lower().contains(want_text) and not _rows_contain(c, want_text):
			continue
		matched += 1
		if out.size() < most:
			out.append(_entry(c, focus))
	var root: Window = _root()
	return {"ok": true, "result": {
		"controls": out,
		"count": matched,
		"truncated": matched > out.size(),
		"focus": str(focus.get_path()) if focus != null else "",
		"window": {"x": root.position.x, "y": root.position.y, "w": root.size.x, "h": root.size.y},
	}}


static func _rows_contain(c: Control, lower: String) -> bool:
	for row: Dictionary in rows_of(c):
		if str(row["text"]).to_lower().contains(lower):
			return true
	return false


# --- targets ------------------------------------------------------------------------------


## Visible, enabled controls that show text, nearest to [param wanted] first: for hints.
func candidates(wanted: String, controls: Array[Control]) -> String:
	var scored: Array = []
	for c: Control in controls:
		if not c.is_visible_in_tree():
			continue
		var t: String = text_of(c).strip_edges()
		if t == "" and not (c is BaseButton or c is LineEdit or c is TextEdit):
			continue
		var s: float = t.to_lower().similarity(wanted.to_lower()) if wanted != "" else 0.0
		scored.append([s, "%s%s (%s %s)" % ["\"%s\"" % t.substr(0, 40) if t != "" else "", " disabled" if disabled_of(c) else "", c.get_class(), c.get_path()]])
	scored.sort_custom(func(a: Array, b: Array) -> bool: return a[0] > b[0])
	var out: PackedStringArray = []
	for e: Array in scored.slice(0, 8):
		out.append(str(e[1]))
	if out.is_empty():
		return " No visible control shows text."
	return " Visible controls: %s." % ", ".join(out)


## Resolves {node} or {text} (the visible text of a control or of an ItemList/Tree row)
## to {ok: true, node, control?, point (window px), canvas (canvas point), rect, label}
## or a failure. [param need_enabled]: refuse a disabled control.
func resolve(t: Dictionary, need_enabled: bool, what: String) -> Dictionary:
	var controls: Array[Control] = all_controls(_root())
	var path: String = str(t.get("node", ""))
	var text: String = str(t.get("text", ""))
	if path == "" and text == "":
		return _fail("VALIDATION_ERROR", "%s needs node (a node path) or text (the visible text of a control)." % what)
	var c: Control = null
	var local: Rect2 = Rect2()
	var row_text: String = ""
	if path != "":
		var n: Node = _probe.call("_find", path)
		if n == null:
			var f: Dictionary = _probe.call("_not_found", path)
			f["hint"] = str(f["hint"]) + candidates("", controls)
			return f
		if n is Node2D or n is Node3D:
			return _resolve_world(n, what)
		if not (n is Control):
			return _fail("VALIDATION_ERROR", "%s: '%s' is a %s; a pointer target is a Control, a Node2D or a Node3D." % [what, n.get_path(), n.get_class()])
		c = n
		local = Rect2(Vector2.ZERO, c.size)
	else:
		var found: Dictionary = _by_text(text, controls)
		if found.has("ok"):
			return found
		c = found["control"]
		local = found["rect"]
		row_text = str(found.get("row", ""))
	var label: String = "%s %s%s" % [c.get_class(), c.get_path(), (" row \"%s\"" % row_text) if row_text != "" else ""]
	if not c.is_visible_in_tree():
		return _fail("PRECONDITION_FAILED", "%s: %s is hidden (not visible in the tree); nothing was sent.%s" % [what, label, candidates(text, controls)])
	if need_enabled and disabled_of(c):
		return _fail("PRECONDITION_FAILED", "%s: %s is disabled; nothing was sent.%s" % [what, label, candidates(text, controls)])
	if row_text != "" and not Rect2(Vector2.ZERO, c.size).has_point(local.get_center()):
		return _fail("PRECONDITION_FAILED", "%s: %s is scrolled out of the list's view (scroll it into view first); nothing was sent." % [what, label])
	var xf: Transform2D = c.get_global_transform_with_canvas()
	var at: Vector2 = xf * local.get_center()
	var clip: Control = _clipped_by(c, at)
	if clip != null:
		return _fail("PRECONDITION_FAILED", "%s: %s is clipped out of view by %s (scroll it into view first); nothing was sent." % [what, label, clip.get_path()])
	var point: Variant = to_window(c.get_viewport(), at)
	if point == null:
		return _fail("PRECONDITION_FAILED", "%s: %s is inside a SubViewport, which these tools do not reach; nothing was sent." % [what, label])
	var outside: String = _outside(point)
	if outside != "":
		return _fail("PRECONDITION_FAILED", "%s: %s is %s; nothing was sent." % [what, label, outside])
	var over: Window = _window_over(_root().get_final_transform().affine_inverse() * (point as Vector2), c)
	if over != null:
		return _fail("PRECONDITION_FAILED", "%s: %s is covered by the window %s (%s); nothing was sent. Close it first." % [what, label, over.get_path(), over.title])
	var top: Control = hit(c.get_viewport(), at, controls)
	if top != null and top != c and not c.is_ancestor_of(top) and not top.is_ancestor_of(c):
		var order: Dictionary = _order(controls)
		if _layer(top) > _layer(c) or (_layer(top) == _layer(c) and int(order.get(top, 0)) > int(order.get(c, 0))):
			return _fail("PRECONDITION_FAILED", "%s: %s is covered at its centre by %s %s%s; nothing was sent." % [what, label, top.get_class(), top.get_path(), (" \"%s\"" % text_of(top).substr(0, 40)) if text_of(top) != "" else ""])
	var r: Dictionary = rects(c, local)
	return {"node": c, "control": c, "point": point, "canvas": at, "rect": r, "label": label, "text": row_text if row_text != "" else text_of(c)}


func _order(controls: Array[Control]) -> Dictionary:
	var m: Dictionary = {}
	for i: int in range(controls.size()):
		m[controls[i]] = i
	return m


## Why window point [param p] is not in the window ("" when it is). A headless game has
## no real window (its root keeps a nominal 64x64) and takes input anywhere.
func _outside(p: Vector2) -> String:
	var size: Vector2i = _root().size
	if size.x <= 0 or size.y <= 0 or DisplayServer.get_name() == "headless":
		return ""
	if Rect2(Vector2.ZERO, Vector2(size)).has_point(p):
		return ""
	return "outside the window (its centre is at window pixel (%d, %d); the window is %dx%d)" % [roundi(p.x), roundi(p.y), size.x, size.y]


## A control by its visible text: exact first, then case-insensitive, then a row of an
## ItemList/Tree; among several the visible, enabled ones. -> {control, rect, row?} or a failure.
func _by_text(text: String, controls: Array[Control]) -> Dictionary:
	var wanted: String = text.strip_edges()
	var found: Array = []
	for pass_i: int in range(3):
		for c: Control in controls:
			if pass_i < 2:
				var t: String = text_of(c).strip_edges()
				if (pass_i == 0 and t == wanted) or (pass_i == 1 and t.to_lower() == wanted.to_lower()):
					found.append({"control": c, "rect": Rect2(Vector2.ZERO, c.size)})
			else:
				for row: Dictionary in rows_of(c):
					if str(row["text"]).strip_edges().to_lower() == wanted.to_lower():
						found.append({"control": c, "rect": row["rect"], "row": row["text"]})
		if not found.is_empty():
			break
	if found.is_empty():
		return _fail("RESOURCE_NOT_FOUND", "No control shows the text \"%s\"; nothing was sent.%s" % [text, candidates(text, controls)])
	var visible: Array = found.filter(func(e: Dictionary) -> bool: return (e["control"] as Control).is_visible_in_tree())
	if visible.is_empty():
		return found[0] # resolve() refuses it as hidden, with the candidates
	var enabled: Array = visible.filter(func(e: Dictionary) -> bool: return not disabled_of(e["control"]))
	var pool: Array = enabled if not enabled.is_empty() else visible
	if pool.size() > 1:
		var buttons: Array = pool.filter(func(e: Dictionary) -> bool: return e["control"] is BaseButton)
		if buttons.size() == 1:
			pool = buttons
	if pool.size() > 1:
		var paths: PackedStringArray = []
		for e: Dictionary in pool.slice(0, 8):
			paths.append("%s %s" % [(e["control"] as Control).get_class(), (e["control"] as Control).get_path()])
		return _fail("VALIDATION_ERROR", "%d visible controls show the text \"%s\": %s. Give the one you mean as node; nothing was sent." % [pool.size(), text, ", ".join(paths)])
	return pool[0]


## A Node2D or Node3D target: its origin through the canvas transform (Camera2D) or
## the viewport's Camera3D.
func _resolve_world(n: Node, what: String) -> Dictionary:
	var vp: Viewport = n.get_viewport()
	var at: Vector2
	if n is Node2D:
		if not (n as Node2D).is_visible_in_tree():
			return _fail("PRECONDITION_FAILED", "%s: %s %s is hidden; nothing was sent." % [what, n.get_class(), n.get_path()])
		at = (n as Node2D).get_global_transform_with_canvas().origin
	else:
		var cam: Camera3D = vp.get_camera_3d()
		if cam == null:
			return _fail("PRECONDITION_FAILED", "%s: the viewport of %s has no current Camera3D to map it through; nothing was sent." % [what, n.get_path()])
		var pos: Vector3 = (n as Node3D).global_position
		if cam.is_position_behind(pos):
			return _fail("PRECONDITION_FAILED", "%s: %s is behind the camera %s; nothing was sent." % [what, n.get_path(), cam.get_path()])
		at = cam.unproject_position(pos)
	var point: Variant = to_window(vp, at)
	if point == null:
		return _fail("PRECONDITION_FAILED", "%s: %s is inside a SubViewport, which these tools do not reach; nothing was sent." % [what, n.get_path()])
	var outside: String = _outside(point)
	if outside != "":
		return _fail("PRECONDITION_FAILED", "%s: %s is %s; nothing was sent." % [what, n.get_path(), outside])
	return {"node": n, "point": point, "canvas": at, "rect": {}, "label": "%s %s" % [n.get_class(), n.get_path()], "text": ""}


## The answer's description of a resolved target.
func describe(r: Dictionary) -> Dictionary:
	var n: Node = r["node"]
	var p: Vector2 = r["point"]
	var out: Dictionary = {
		"path": str(n.get_path()),
		"class": n.get_class(),
		"text": str(r.get("text", "")).substr(0, MAX_TEXT),
		"point": {"x": snappedf(p.x, 0.01), "y": snappedf(p.y, 0.01)},
		"screen_point": {"x": snappedf(p.x + window_origin().x, 0.01), "y": snappedf(p.y + window_origin().y, 0.01)},
	}
	var rr: Dictionary = r["rect"]
	if rr.has("canvas"):
		out["rect"] = _rect_json(rr["canvas"])
	return out


# --- gestures -------------------------------------------------------------------------------




static func _mask(index: int) -> int:
	return 1 << (index - 1)


static func motion(to: Vector2, from: Vector2, mask: int) -> InputEventMouseMotion:
	var mm: InputEventMouseMotion = InputEventMouseMotion.new()
	mm.position = to
	mm.global_position = to
	mm.relative = to - from
	mm.screen_relative = to - from
	mm.button_mask = mask
	return mm


static func button(at: Vector2, index: int, pressed: bool, mask: int, double_click: bool = false) -> InputEventMouseButton:
	var mb: InputEventMouseButton = InputEventMouseButton.new()
	mb.position = at
	mb.global_position = at
	mb.button_index = index as MouseButton
	mb.pressed = pressed
	mb.button_mask = mask
	mb.double_click = double_click
	return mb


static func key_char(ch: String, pressed: bool) -> InputEventKey:
	var k: InputEventKey = InputEventKey.new()
	k.pressed = pressed
	if ch == "\n":
		k.keycode = KEY_ENTER
		k.physical_keycode = KEY_ENTER
		k.key_label = KEY_ENTER
	else:
		k.unicode = ch.unicode_at(0)
	return k


## The events of a gesture as [{at, ev}] in frame order (at: the frame offset from which
## the game sees it). [param p]: the target's window point; [param q]: the drag end.
static func plan(action: String, p: Vector2, q: Vector2, from: Vector2, b: int, amount: int, frames: int) -> Array:
	var ev: Array = []
	var m: int = _mask(b)
	match action:
		"hover":
			ev.append({"at": 0, "ev": motion(p, from, 0)})
		"click", "double_click":
			ev.append({"at": 0, "ev": motion(p, from, 0)})
			ev.append({"at": 0, "ev": button(p, b, true, m)})
			ev.append({"at": 1, "ev": button(p, b, false, 0)})
			if action == "double_click":
				ev.append({"at": 2, "ev": button(p, b, true, m, true)})
				ev.append({"at": 3, "ev": button(p, b, false, 0)})
		"drag":
			ev.append({"at": 0, "ev": motion(p, from, 0)})
			ev.append({"at": 0, "ev": button(p, b, true, m)})
			var last: Vector2 = p
			for i: int in range(1, frames + 1):
				var to: Vector2 = p.lerp(q, float(i) / float(frames))
				ev.append({"at": i, "ev": motion(to, last, m)})
				last = to
			ev.append({"at": frames + 1, "ev": button(q, b, false, 0)})
		"scroll":
			ev.append({"at": 0, "ev": motion(p, from, 0)})
			var wheel: int = MOUSE_BUTTON_WHEEL_DOWN if amount > 0 else MOUSE_BUTTON_WHEEL_UP
			for i: int in range(absi(amount)):
				ev.append({"at": i, "ev": button(p, wheel, true, _mask(wheel))})
				ev.append({"at": i, "ev": button(p, wheel, false, 0)})
	return ev


## Key events typing [param text] at frame offset [param at].
static func typing(text: String, at: int) -> Array:
	var ev: Array = []
	for i: int in range(text.length()):
		var ch: String = text[i]
		ev.append({"at": at, "ev": key_char(ch, true)})
		ev.append({"at": at, "ev": key_char(ch, false)})
	return ev
