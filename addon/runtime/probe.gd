extends Node
## godot-mcp runtime probe: the game-side half of the runtime toolset.
##
## The addon registers this script as the autoload "GodotMcpProbe" while the runtime
## toolset is enabled. It speaks only over the debugger channel the editor already
## has with a game it runs (no port of its own): the editor sends
## "godot_mcp:cmd" [id, command, params] and the probe answers
## "godot_mcp:reply" [id, {ok, result} | {ok: false, error, hint, required}].
##
## Inert unless a debugger is attached (an exported game, or a game started from a
## terminal, never hears from it); while nobody asks it does not process at all:
## _process runs only while an input sequence, a frame step or a playtest window
## (playtest.gd: step, wait-for, watch) is in progress.
##
## Game code can tell when the agent controls time: `frozen` is true while the game is
## frozen by godot_playtest_step (SceneTree.paused set by the probe), `stepping` while a
## step window advances it; frozen_changed and stepping_changed are emitted on change.
## Read them as get_node_or_null("/root/GodotMcpProbe"), which is null in an exported game.
##
## Toolsets' game code: the probe loads each installed toolset's game/game.gd when it
## starts and answers "<toolset>:<name>" requests with it (probe_game_code.gd).
##
## Start frozen: when the editor starts the game with GODOT_MCP_START_FROZEN=1 in its
## environment (godot_playtest_step with play), the probe freezes the game in its own
## _ready, before the game's first frame: the scene's _ready has run, no _process or
## _physics_process has.

signal frozen_changed(frozen: bool)
signal stepping_changed(stepping: bool)

const ValueCodec := preload("../value_codec.gd")
const Playtest := preload("playtest.gd")
const GameCode := preload("probe_game_code.gd")

const CAPTURE := "godot_mcp"
const START_FROZEN_ENV := "GODOT_MCP_START_FROZEN"
const PROBE_VERSION := 1
## Godot's debugger refuses messages over 8 MiB; screenshots are scaled to stay below.
const MAX_PNG_BYTES := 6 * 1024 * 1024
const MAX_TREE_NODES := 5000

var _active: bool = false
## The running input sequence (one at a time), {} when none.
var _seq: Dictionary = {}
## The running frame step, {} when none: {id, remaining, frames}.
var _step: Dictionary = {}
## The game is frozen by godot_playtest_step (documented for game code).
var frozen: bool = false
## A godot_playtest_step window is advancing the game (documented for game code).
var stepping: bool = false
var _playtest: Playtest = null
## Toolsets' game code (probe_game_code.gd): messages "<toolset>:<name>".
var _game_code: GameCode = null
var _early: _Early = null


## Runs first in every physics tick, before the game's nodes (a step window's inputs and
## end land exactly on tick boundaries).
class _Early:
	extends Node
	var hook: Callable

	func _physics_process(delta: float) -> void:
		hook.call(delta)


func _init() -> void:
	name = "GodotMcpProbe"
	process_mode = Node.PROCESS_MODE_ALWAYS
	# Last in every frame: a frame step ends after everything else in that frame ran.
	process_priority = 2147483647


func _ready() -> void:
	set_process(false)
	set_physics_process(false)
	if not EngineDebugger.is_active() or not OS.is_debug_build():
		return # exported release, or no editor attached: stay inert
	_active = true
	_playtest = Playtest.new(self)
	_early = _Early.new()
	_early.name = "GodotMcpProbeEarly"
	_early.process_physics_priority = -2147483648
	_early.hook = _playtest.start_of_tick
	_early.set_physics_process(false)
	add_child(_early)
	_game_code = GameCode.new(self, _reply)
	_game_code.load_all()
	EngineDebugger.register_message_capture(CAPTURE, _on_message)
	if OS.get_environment(START_FROZEN_ENV) == "1":
		_playtest.freeze()
	# Report in once the first frame ran, so the main scene's _ready has happened:
	# a scene that fails while starting fails before "hello".
	get_tree().process_frame.connect(_send_hello, CONNECT_ONE_SHOT)


func _exit_tree() -> void:
	if _active and EngineDebugger.has_capture(CAPTURE):
		EngineDebugger.unregister_message_capture(CAPTURE)
	_release_all()
	if _playtest != null:
		_playtest.release()
	if _game_code != null:
		_game_code.release()


func _send_hello() -> void:
	var scene: Node = get_tree().current_scene
	EngineDebugger.send_message(CAPTURE + ":hello", [{
		"probe_version": PROBE_VERSION,
		"pid": OS.get_process_id(),
		"scene": scene.scene_file_path if scene != null else "",
		"headless": _is_headless(),
		"paused": get_tree().paused,
		"frozen": frozen,
		"display": DisplayServer.get_name(),
		"godot_version": str(Engine.get_version_info().get("string", "")),
		"game_code": _game_code.report(),
	}])


func _on_message(message: String, data: Array) -> bool:
	if message != "cmd":
		return false
	if data.size() < 3 or typeof(data[0]) != TYPE_INT or typeof(data[1]) != TYPE_STRING:
		return true
	var id: int = data[0]
	var command: String = data[1]
	var params: Dictionary = data[2] if typeof(data[2]) == TYPE_DICTIONARY else {}
	if GameCode.is_game_message(command):
		_game_code.dispatch(id, command, params)
		return true
	match command:
		"status":
			_reply(id, _ok(_status()))
		"tree":
			_reply(id, _tree(params))
		"node":
			_reply(id, _node(params))
		"set":
			_reply(id, _set_properties(params))
		"call":
			_call_method(id, params)
		"input":
			_start_input(id, params)
		"input_cancel":
			_reply(id, _ok(_cancel_input()))
		"describe_objects":
			_reply(id, _ok({"objects": _describe_objects(params.get("ids", []))}))
		"screenshot":
			_screenshot(id, params)
		"perf":
			_reply(id, _ok(_performance()))
		"pause":
			_pause(id, params)
		"eval":
			_playtest.eval(id, params)
		"step":
			_playtest.step(id, params)
		"wait":
			_playtest.wait(id, params)
		"watch":
			_playtest.watch(id, params)
		"controls":
			_playtest.controls(id, params)
		"interact":
			_playtest.interact(id, params)
		"digest":
			_playtest.digest(id, params)
		"record_start":
			_playtest.record_start(id, params)
		"record_stop":
			_playtest.record_stop(id, params)
		"release":
			_reply(id, _ok(_playtest.release()))
		_:
			_reply(id, _fail("INTERNAL_ERROR", "The game's probe has no command '%s'. Reinstall the addon (godot-mcp addon install) and play the game again." % command))
	return true


func _reply(id: int, response: Dictionary) -> void:
	EngineDebugger.send_message(CAPTURE + ":reply", [id, response])


func _ok(result: Dictionary) -> Dictionary:
	return {"ok": true, "result": result}


func _fail(code: String, hint: String, required: String = "") -> Dictionary:
	var r: Dictionary = {"ok": false, "error": code, "hint": hint}
	if required != "":
		r["required"] = required
	return r


func _is_headless() -> bool:
	return DisplayServer.get_name() == "headless"


# --- status and performance ----------------------------------------------------------


func _status() -> Dictionary:
	var scene: Node = get_tree().current_scene
	return {
		"paused": get_tree().paused,
		"time_scale": Engine.time_scale,
		"scene": scene.scene_file_path if scene != null else "",
		"current_scene_path": str(scene.get_path()) if scene != null else "",
		"process_frames": Engine.get_process_frames(),
		"physics_frames": Engine.get_physics_frames(),
		"fps": Performance.get_monitor(Performance.TIME_FPS),
		"headless": _is_headless(),
		"input_running": not _seq.is_empty(),
		"frozen": frozen,
		"stepping": stepping,
	}


func _performance() -> Dictionary:
	var custom: Dictionary = {}
	for n: StringName in Performance.get_custom_monitor_names():
		custom[str(n)] = ValueCodec.encode(Performance.get_custom_monitor(n))
	return {
		"fps": Performance.get_monitor(Performance.TIME_FPS),
		"process_time_ms": Performance.get_monitor(Performance.TIME_PROCESS) * 1000.0,
		"physics_time_ms": Performance.get_monitor(Performance.TIME_PHYSICS_PROCESS) * 1000.0,
		"navigation_time_ms": Performance.get_monitor(Performance.TIME_NAVIGATION_PROCESS) * 1000.0,
		"memory_static_bytes": int(Performance.get_monitor(Performance.MEMORY_STATIC)),
		"memory_static_max_bytes": int(Performance.get_monitor(Performance.MEMORY_STATIC_MAX)),
		"objects": int(Performance.get_monitor(Performance.OBJECT_COUNT)),
		"resources": int(Performance.get_monitor(Performance.OBJECT_RESOURCE_COUNT)),
		"nodes": int(Performance.get_monitor(Performance.OBJECT_NODE_COUNT)),
		"orphan_nodes": int(Performance.get_monitor(Performance.OBJECT_ORPHAN_NODE_COUNT)),
		"draw_calls": int(Performance.get_monitor(Performance.RENDER_TOTAL_DRAW_CALLS_IN_FRAME)),
		"objects_drawn": int(Performance.get_monitor(Performance.RENDER_TOTAL_OBJECTS_IN_FRAME)),
		"primitives_drawn": int(Performance.get_monitor(Performance.RENDER_TOTAL_PRIMITIVES_IN_FRAME)),
		"video_memory_bytes": int(Performance.get_monitor(Performance.RENDER_VIDEO_MEM_USED)),
		"physics_2d_active_objects": int(Performance.get_monitor(Performance.PHYSICS_2D_ACTIVE_OBJECTS)),
		"physics_3d_active_objects": int(Performance.get_monitor(Performance.PHYSICS_3D_ACTIVE_OBJECTS)),
		"process_frames": Engine.get_process_frames(),
		"physics_frames": Engine.get_physics_frames(),
		"time_scale": Engine.time_scale,
		"paused": get_tree().paused,
		"custom": custom,
	}


# --- nodes -----------------------------------------------------------------------------


## A node by path: absolute ("/root/Main/Player"), or relative to the current scene
## ("Player", "." for the scene itself). A relative path may also start with the
## scene root's name ("Main", "Main/Player" when the scene is /root/Main), as the
## editor tools name nodes, unless the scene has a child of that name.
func _find(path: String) -> Node:
	var tree: SceneTree = get_tree()
	if path.begins_with("/"):
		return tree.root.get_node_or_null(NodePath(path))
	var scene: Node = tree.current_scene
	if scene == null:
		return null
	if path == "" or path == ".":
		return scene
	var n: Node = scene.get_node_or_null(NodePath(path))
	if n != null:
		return n
	var first: String = path.get_slice("/", 0)
	if first == str(scene.name):
		var rest: String = path.substr(first.length() + 1)
		return scene if rest == "" else scene.get_node_or_null(NodePath(rest))
	return null


func _not_found(path: String) -> Dictionary:
	var hint: String = "No node at '%s' in the running game." % path
	var scene: Node = get_tree().current_scene
	var near: PackedStringArray = _nearest_nodes(path)
	if not near.is_empty():
		hint += " Nearest: %s." % ", ".join(near)
	elif scene != null:
		hint += " Paths are absolute (/root/%s/...) or relative to the current scene '%s'." % [scene.name, scene.get_path()]
	hint += " godot_runtime_get_tree lists the live tree."
	return _fail("RESOURCE_NOT_FOUND", hint)


func _nearest_nodes(path: String) -> PackedStringArray:
	var wanted: String = path.get_file().to_lower()
	var scored: Array = []
	var stack: Array[Node] = [get_tree().root]
	var seen: int = 0
	while not stack.is_empty() and seen < MAX_TREE_NODES:
		var n: Node = stack.pop_back()
		seen += 1
		if n != self:
			var s: float = str(n.name).to_lower().similarity(wanted)
			if s >= 0.4:
				scored.append([s, str(n.get_path())])
		for c: Node in n.get_children():
			stack.append(c)
	scored.sort_custom(func(a: Array, b: Array) -> bool: return a[0] > b[0])
	var out: PackedStringArray = []
	for e: Array in scored.slice(0, 3):
		out.append(str(e[1]))
	return out


func _tree(params: Dictionary) -> Dictionary:
	var root_path: String = str(params.get("root", "/root"))
	var depth: int = int(params.get("depth", 6))
	var max_nodes: int = clampi(int(params.get("max_nodes", 500)), 1, MAX_TREE_NODES)
	var root: Node = _find(root_path)
	if root == null:
		return _not_found(root_path)
	var budget: Array[int] = [max_nodes]
	var truncated: Array[bool] = [false]
	var tree: Dictionary = _tree_node(root, depth, budget, truncated)
	var scene: Node = get_tree().current_scene
	return _ok({
		"root": tree,
		"node_count": max_nodes - budget[0],
		"truncated": truncated[0],
		"current_scene": str(scene.get_path()) if scene != null else "",
	})


func _tree_node(n: Node, depth: int, budget: Array[int], truncated: Array[bool]) -> Dictionary:
	budget[0] -= 1
	var entry: Dictionary = {
		"name": str(n.name),
		"type": n.get_class(),
		"path": str(n.get_path()),
		"child_count": n.get_child_count(),
		"children": [],
	}
	var script: Script = n.get_script() as Script
	if script != null:
		entry["script"] = script.resource_path
	if n.scene_file_path != "":
		entry["scene"] = n.scene_file_path
	var kids: Array = []
	for c: Node in n.get_children():
		if c == self:
			entry["child_count"] = int(entry["child_count"]) - 1
			continue
		if depth <= 1 or budget[0] <= 0:
			truncated[0] = true
			break
		kids.append(_tree_node(c, depth - 1, budget, truncated))
	entry["children"] = kids
	return entry


func _node(params: Dictionary) -> Dictionary:
	var path: String = str(params.get("path", ""))
	var n: Node = _find(path)
	if n == null:
		return _not_found(path)
	var wanted: Array = params.get("properties", []) if typeof(params.get("properties")) == TYPE_ARRAY else []
	var props: Dictionary = {}
	var missing: PackedStringArray = []
	if wanted.is_empty():
		for p: Dictionary in n.get_property_list():
			var usage: int = int(p.get("usage", 0))
			if (usage & (PROPERTY_USAGE_CATEGORY | PROPERTY_USAGE_GROUP | PROPERTY_USAGE_SUBGROUP)) != 0:
				continue
			if (usage & (PROPERTY_USAGE_EDITOR | PROPERTY_USAGE_SCRIPT_VARIABLE)) == 0:
				continue
			var pname: String = str(p["name"])
			if pname == "script":
				continue
			props[pname] = ValueCodec.encode(n.get(pname))
	else:
		for w: Variant in wanted:
			var pname: String = str(w)
			if ValueCodec.property_info(n, pname).is_empty():
				missing.append(pname)
			else:
				props[pname] = ValueCodec.encode(n.get(pname))
	var groups: PackedStringArray = []
	for g: StringName in n.get_groups():
		if not str(g).begins_with("_"):
			groups.append(str(g))
	var children: PackedStringArray = []
	for c: Node in n.get_children():
		if c != self:
			children.append(str(c.name))
	var script: Script = n.get_script() as Script
	var out: Dictionary = {
		"path": str(n.get_path()),
		"name": str(n.name),
		"type": n.get_class(),
		"script": script.resource_path if script != null else "",
		"properties": props,
		"missing": missing,
		"groups": groups,
		"children": children,
	}
	return _ok(out)


func _property_names(n: Node) -> PackedStringArray:
	var names: PackedStringArray = []
	for p: Dictionary in n.get_property_list():
		var usage: int = int(p.get("usage", 0))
		if (usage & (PROPERTY_USAGE_CATEGORY | PROPERTY_USAGE_GROUP | PROPERTY_USAGE_SUBGROUP)) == 0:
			names.append(str(p["name"]))
	return names


func _did_you_mean(wanted: String, names: PackedStringArray) -> String:
	var best: Array = []
	var w: String = wanted.to_lower()
	for n: String in names:
		var s: float = n.to_lower().similarity(w)
		if s >= 0.5:
			best.append([s, n])
	best.sort_custom(func(a: Array, b: Array) -> bool: return a[0] > b[0])
	var out: PackedStringArray = []
	for b: Array in best.slice(0, 3):
		out.append(str(b[1]))
	return (" Did you mean %s?" % ", ".join(out)) if not out.is_empty() else ""


func _set_properties(params: Dictionary) -> Dictionary:
	var path: String = str(params.get("path", ""))
	var n: Node = _find(path)
	if n == null:
		return _not_found(path)
	if typeof(params.get("properties")) != TYPE_DICTIONARY or (params["properties"] as Dictionary).is_empty():
		return _fail("VALIDATION_ERROR", "properties must be an object {name: value} with at least one property.")
	var wanted: Dictionary = params["properties"]
	# Decode everything first: either every property fits, or nothing changes.
	var decoded: Dictionary = {}
	for k: Variant in wanted.keys():
		var pname: String = str(k)
		var info: Dictionary = ValueCodec.property_info(n, pname)
		if info.is_empty():
			return _fail("VALIDATION_ERROR", "%s '%s' has no property '%s'.%s Nothing was changed." % [n.get_class(), n.get_path(), pname, _did_you_mean(pname, _property_names(n))])
		if (int(info.get("usage", 0)) & PROPERTY_USAGE_READ_ONLY) != 0:
			return _fail("VALIDATION_ERROR", "'%s' of %s is read-only. Nothing was changed." % [pname, n.get_path()])
		var d: Dictionary = ValueCodec.decode_property(n, pname, wanted[k], n)
		if not d.get("ok", false):
			return _fail("VALIDATION_ERROR", "%s Nothing was changed." % str(d.get("hint", "'%s' does not fit." % pname)))
		decoded[pname] = d["value"]
	var changed: Array = []
	for pname: String in decoded.keys():
		var old: Variant = ValueCodec.encode(n.get(pname))
		n.set(pname, decoded[pname])
		changed.append({"property": pname, "old": old, "new": ValueCodec.encode(n.get(pname))})
	return _ok({"path": str(n.get_path()), "changed": changed})


func _call_method(id: int, params: Dictionary) -> void:
	var path: String = str(params.get("path", ""))
	var n: Node = _find(path)
	if n == null:
		_reply(id, _not_found(path))
		return
	var method: String = str(params.get("method", ""))
	var args: Array = params.get("args", []) if typeof(params.get("args")) == TYPE_ARRAY else []
	if method == "" or not n.has_method(method):
		var names: PackedStringArray = []
		for m: Dictionary in n.get_method_list():
			names.append(str(m["name"]))
		_reply(id, _fail("VALIDATION_ERROR", "%s '%s' has no method '%s'.%s" % [n.get_class(), n.get_path(), method, _did_you_mean(method, names)]))
		return
	var info: Dictionary = {}
	for m: Dictionary in n.get_method_list():
		if str(m["name"]) == method:
			info = m # script methods come after the native ones and override them
	var decoded: Array = []
	if not info.is_empty():
		var margs: Array = info.get("args", [])
		var defaults: Array = info.get("default_args", [])
		var vararg: bool = (int(info.get("flags", 0)) & METHOD_FLAG_VARARG) != 0
		var required: int = margs.size() - defaults.size()
		if args.size() < required or (not vararg and args.size() > margs.size()):
			var sig: PackedStringArray = []
			for a: Dictionary in margs:
				sig.append("%s: %s" % [a.get("name", "arg"), type_string(int(a.get("type", TYPE_NIL))) if int(a.get("type", TYPE_NIL)) != TYPE_NIL else "Variant"])
			_reply(id, _fail("VALIDATION_ERROR", "%s(%s) takes %s argument(s), got %d." % [method, ", ".join(sig), str(required) if required == margs.size() else "%d to %d" % [required, margs.size()], args.size()]))
			return
		for i: int in range(args.size()):
			if i >= margs.size():
				decoded.append(ValueCodec.decode(args[i], TYPE_NIL).get("value"))
				continue
			var a: Dictionary = margs[i]
			var d: Dictionary = ValueCodec.decode(args[i], int(a.get("type", TYPE_NIL)), int(a.get("hint", 0)), str(a.get("hint_string", "")), n)
			if int(a.get("type", TYPE_NIL)) == TYPE_OBJECT and str(a.get("class_name", "")) != "" and d.get("ok", false) == false:
				d = ValueCodec.decode(args[i], TYPE_OBJECT, PROPERTY_HINT_NODE_TYPE if ClassDB.is_parent_class(str(a["class_name"]), "Node") else PROPERTY_HINT_RESOURCE_TYPE, str(a["class_name"]), n)
			if not d.get("ok", false):
				_reply(id, _fail("VALIDATION_ERROR", "argument %d (%s) of %s: %s" % [i, a.get("name", "arg"), method, d.get("hint", "does not fit")]))
				return
			decoded.append(d["value"])
	else:
		for v: Variant in args:
			decoded.append(ValueCodec.decode(v, TYPE_NIL).get("value"))
	var result: Variant = n.callv(method, decoded)
	if result is Object and is_instance_valid(result) and (result as Object).get_class() == "GDScriptFunctionState":
		result = await (result as Object).completed
	_reply(id, _ok({"path": str(n.get_path()), "method": method, "result": ValueCodec.encode(result)}))


# --- pause, time scale, frame steps --------------------------------------------------


func _pause(id: int, params: Dictionary) -> void:
	if not _step.is_empty():
		_reply(id, _fail("PRECONDITION_FAILED", "A frame step is still running; wait for it to finish."))
		return
	if _playtest.busy():
		_reply(id, _fail("PRECONDITION_FAILED", "A godot_playtest_step, wait_for or watch is still running; wait for it to finish."))
		return
	if frozen:
		_reply(id, _fail("PRECONDITION_FAILED", "The game is frozen by godot_playtest_step; step it with godot_playtest_step, or resume it with godot_playtest_step {then: \"resume\"} before pausing it this way."))
		return
	var tree: SceneTree = get_tree()
	if params.has("time_scale") and params["time_scale"] != null:
		Engine.time_scale = float(params["time_scale"])
	if params.has("paused") and params["paused"] != null:
		tree.paused = bool(params["paused"])
	var frames: int = int(params.get("step_frames", 0))
	if frames > 0:
		tree.paused = false
		_step = {"id": id, "remaining": frames, "frames": frames, "start": Engine.get_process_frames()}
		set_process(true)
		return
	_reply(id, _ok(_pause_state(0)))


func _pause_state(stepped: int) -> Dictionary:
	return {
		"paused": get_tree().paused,
		"time_scale": Engine.time_scale,
		"stepped_frames": stepped,
		"process_frames": Engine.get_process_frames(),
		"physics_frames": Engine.get_physics_frames(),
	}


# --- screenshots ----------------------------------------------------------------------


func _screenshot(id: int, params: Dictionary) -> void:
	if _is_headless():
		_reply(id, _fail("PRECONDITION_FAILED", "The game runs headless (display server 'headless', no renderer), so it draws nothing to capture. Play it with a display: godot_runtime_play with display: \"window\" from an editor that has a screen (or a virtual one such as Xvfb)."))
		return
	await RenderingServer.frame_post_draw
	var tex: ViewportTexture = get_viewport().get_texture()
	var img: Image = tex.get_image() if tex != null else null
	if img == null or img.is_empty():
		_reply(id, _fail("PRECONDITION_FAILED", "The game's viewport returned no image (rendering driver '%s'). Nothing was captured; check that the game renders in a window." % RenderingServer.get_current_rendering_driver_name()))
		return
	var original: Vector2i = img.get_size()
	var max_size: int = int(params.get("max_size", 0))
	if max_size > 0 and maxi(original.x, original.y) > max_size:
		var s: float = float(max_size) / float(maxi(original.x, original.y))
		img.resize(maxi(1, roundi(original.x * s)), maxi(1, roundi(original.y * s)), Image.INTERPOLATE_BILINEAR)
	var png: PackedByteArray = img.save_png_to_buffer()
	while png.size() > MAX_PNG_BYTES and img.get_width() > 16:
		img.resize(maxi(1, floori(img.get_width() / 2.0)), maxi(1, floori(img.get_height() / 2.0)), Image.INTERPOLATE_BILINEAR)
		png = img.save_png_to_buffer()
	_reply(id, _ok({
		"width": img.get_width(),
		"height": img.get_height(),
		"original_width": original.x,
		"original_height": original.y,
		"png": png,
	}))


# --- input sequences ------------------------------------------------------------------


const _MODIFIERS := ["shift", "ctrl", "alt", "meta"]
const _BUTTONS := {
	"left": MOUSE_BUTTON_LEFT, "right": MOUSE_BUTTON_RIGHT, "middle": MOUSE_BUTTON_MIDDLE,
	"wheel_up": MOUSE_BUTTON_WHEEL_UP, "wheel_down": MOUSE_BUTTON_WHEEL_DOWN,
	"wheel_left": MOUSE_BUTTON_WHEEL_LEFT, "wheel_right": MOUSE_BUTTON_WHEEL_RIGHT,
	"xbutton1": MOUSE_BUTTON_XBUTTON1, "xbutton2": MOUSE_BUTTON_XBUTTON2,
}


func _start_input(id: int, params: Dictionary) -> void:
	if not _seq.is_empty():
		_reply(id, _fail("PRECONDITION_FAILED", "Another input sequence is still running in the game; wait for it to finish, then retry."))
		return
	if _playtest.busy():
		_reply(id, _fail("PRECONDITION_FAILED", "A godot_playtest_step, wait_for or watch is still running; wait for it to finish (a step takes an input timeline of its own: inputs)."))
		return
	var steps: Array = params.get("steps", []) if typeof(params.get("steps")) == TYPE_ARRAY else []
	if steps.is_empty():
		_reply(id, _fail("VALIDATION_ERROR", "steps must be a non-empty array."))
		return
	# Validate every step before the first event: a typo never leaves half a sequence applied.
	var plan: Array = []
	for i: int in range(steps.size()):
		var s: Variant = steps[i]
		if typeof(s) != TYPE_DICTIONARY:
			_reply(id, _fail("VALIDATION_ERROR", "steps[%d] must be an object." % i))
			return
		var checked: Dictionary = _check_step(s as Dictionary, i)
		if checked.has("error"):
			_reply(id, _fail("VALIDATION_ERROR", str(checked["error"]) + " Nothing was sent."))
			return
		plan.append(checked)
	_seq = {
		"id": id, "plan": plan, "index": 0, "applied": 0,
		"held": {}, "wait": {}, "start_ms": Time.get_ticks_msec(), "start_frame": Engine.get_process_frames(),
	}
	set_process(true)
	_run_sequence()


## Checks one step and resolves its names: {kind, ...} or {error}.
func _check_step(s: Dictionary, i: int) -> Dictionary:
	var type: String = str(s.get("type", ""))
	var state: String = str(s.get("state", "tap"))
	if not ["tap", "press", "release"].has(state):
		return {"error": "steps[%d].state must be tap, press or release." % i}
	var hold_frames: int = maxi(1, int(s.get("hold_frames", 2)))
	var hold_ms: int = maxi(0, int(s.get("hold_ms", 0)))
	var mods: Dictionary = {}
	for m: Variant in (s.get("modifiers", []) if typeof(s.get("modifiers")) == TYPE_ARRAY else []):
		if not _MODIFIERS.has(str(m)):
			return {"error": "steps[%d].modifiers: '%s' is not one of shift, ctrl, alt, meta." % [i, m]}
		mods[str(m)] = true
	match type:
		"wait":
			return {"kind": "wait", "frames": maxi(0, int(s.get("frames", 0))), "ms": maxi(0, int(s.get("ms", 0)))}
		"action":
			var action: String = str(s.get("action", ""))
			if not InputMap.has_action(action):
				var names: PackedStringArray = []
				for a: StringName in InputMap.get_actions():
					if not str(a).begins_with("ui_"):
						names.append(str(a))
				return {"error": "steps[%d]: the game has no input action '%s'.%s Project actions: %s." % [i, action, _did_you_mean(action, names), ", ".join(names) if not names.is_empty() else "none (only the built-in ui_* actions)"]}
			var strength: float = clampf(float(s.get("strength", 1.0)), 0.0, 1.0)
			return {"kind": "action", "action": action, "strength": strength, "state": state, "hold_frames": hold_frames, "hold_ms": hold_ms, "label": "action " + action}
		"key":
			var key_name: String = str(s.get("key", ""))
			var code: Key = OS.find_keycode_from_string(key_name)
			if key_name == "" or code == KEY_NONE:
				return {"error": "steps[%d]: unknown key '%s'. Use Godot key names: \"A\", \"Space\", \"Enter\", \"Escape\", \"Left\", \"F1\"." % [i, key_name]}
			return {"kind": "key", "keycode": code, "mods": mods, "state": state, "hold_frames": hold_frames, "hold_ms": hold_ms, "label": "key " + key_name}
		"mouse_button":
			var button: String = str(s.get("button", "left"))
			if not _BUTTONS.has(button):
				return {"error": "steps[%d].button must be one of %s." % [i, ", ".join(PackedStringArray(_BUTTONS.keys()))]}
			var pos: Variant = _vec2(s.get("position"))
			if s.has("position") and pos == null:
				return {"error": "steps[%d].position must be {x, y} in window pixels." % i}
			return {"kind": "mouse_button", "button": _BUTTONS[button], "position": pos, "mods": mods, "state": state, "hold_frames": hold_frames, "hold_ms": hold_ms, "label": "mouse " + button, "double_click": bool(s.get("double_click", false))}
		"mouse_motion":
			var to: Variant = _vec2(s.get("position"))
			var rel: Variant = _vec2(s.get("relative"))
			if to == null and rel == null:
				return {"error": "steps[%d]: mouse_motion needs position {x, y} and/or relative {x, y}." % i}
			return {"kind": "mouse_motion", "position": to, "relative": rel, "mods": mods}
		"joypad_button", "joypad_motion":
			var index: Variant = s.get("index")
			var device: Variant = s.get("device", 0)
			var most: int = 127 if type == "joypad_button" else 9
			if not _whole(index) or int(index) < 0 or int(index) > most:
				return {"error": "steps[%d].index must be an integer 0..%d: the %s (Godot's %s)." % [i, most, "button" if type == "joypad_button" else "axis", "JoyButton" if type == "joypad_button" else "JoyAxis"]}
			if device == null:
				device = 0
			if not _whole(device) or int(device) < 0 or int(device) > 15:
				return {"error": "steps[%d].device must be an integer 0..15 (default 0)." % i}
			if type == "joypad_button":
				return {"kind": "joypad_button", "index": int(index), "device": int(device), "state": state, "hold_frames": hold_frames, "hold_ms": hold_ms, "label": "joypad %d button %d" % [int(device), int(index)]}
			var value: Variant = s.get("value")
			if not (typeof(value) in [TYPE_INT, TYPE_FLOAT]) or absf(float(value)) > 1.0:
				return {"error": "steps[%d].value must be a number from -1 to 1 (the axis position)." % i}
			return {"kind": "joypad_motion", "index": int(index), "device": int(device), "value": float(value), "label": "joypad %d axis %d" % [int(device), int(index)]}
	return {"error": "steps[%d].type must be action, key, mouse_button, mouse_motion, joypad_button, joypad_motion or wait (got '%s')." % [i, type]}


static func _whole(v: Variant) -> bool:
	return typeof(v) == TYPE_INT or (typeof(v) == TYPE_FLOAT and is_finite(v as float) and (v as float) == floorf(v as float))


func _vec2(v: Variant) -> Variant:
	if typeof(v) != TYPE_DICTIONARY:
		return null
	var d: Dictionary = v
	if not (d.has("x") and d.has("y")):
		return null
	if not (typeof(d["x"]) in [TYPE_INT, TYPE_FLOAT] and typeof(d["y"]) in [TYPE_INT, TYPE_FLOAT]):
		return null
	return Vector2(float(d["x"]), float(d["y"]))


## A playtest window started: process (and tick) until it ends.
func _wanted() -> void:
	set_process(true)
	_early.set_physics_process(true)


func _process(delta: float) -> void:
	if _playtest.busy() or _playtest.recording():
		_playtest.end_of_frame(delta)
	if not _step.is_empty():
		_step["remaining"] = int(_step["remaining"]) - 1
		if int(_step["remaining"]) <= 0:
			get_tree().paused = true
			var id: int = _step["id"]
			var frames: int = _step["frames"]
			_step = {}
			_reply(id, _ok(_pause_state(frames)))
	if not _seq.is_empty():
		_run_sequence()
	if _step.is_empty() and _seq.is_empty() and not _playtest.busy() and not _playtest.recording():
		set_process(false)
		_early.set_physics_process(false)


## Runs the sequence as far as it can in this frame: events are parsed now and reach
## the game at the start of the next frame, so a press and its release are always at
## least one frame apart and "just pressed" is seen by _process and _physics_process.
func _run_sequence() -> void:
	var plan: Array = _seq["plan"]
	while true:
		var wait: Dictionary = _seq["wait"]
		if not wait.is_empty():
			if Engine.get_process_frames() < int(wait["frame"]) or Engine.get_physics_frames() < int(wait.get("physics", 0)) or Time.get_ticks_msec() < int(wait["ms"]):
				return
			_seq["wait"] = {}
			if wait.has("release"):
				var step: Dictionary = wait["release"]
				_emit(step, false)
				(_seq["held"] as Dictionary).erase(_held_key(step))
		var index: int = _seq["index"]
		if index >= plan.size():
			_finish_sequence()
			return
		var step: Dictionary = plan[index]
		_seq["index"] = index + 1
		_seq["applied"] = int(_seq["applied"]) + 1
		match str(step["kind"]):
			"wait":
				_seq["wait"] = {"frame": Engine.get_process_frames() + int(step["frames"]), "ms": Time.get_ticks_msec() + int(step["ms"])}
			"mouse_motion":
				_emit(step, true)
			"joypad_motion":
				_emit(step, true)
				if float(step["value"]) != 0.0:
					(_seq["held"] as Dictionary)[_held_key(step)] = step
				else:
					(_seq["held"] as Dictionary).erase(_held_key(step))
			_:
				match str(step["state"]):
					"press":
						_emit(step, true)
						(_seq["held"] as Dictionary)[_held_key(step)] = step
					"release":
						_emit(step, false)
						(_seq["held"] as Dictionary).erase(_held_key(step))
					"tap":
						_emit(step, true)
						(_seq["held"] as Dictionary)[_held_key(step)] = step
						var hold: int = int(step["hold_frames"])
						_seq["wait"] = {
							"frame": Engine.get_process_frames() + hold,
							"physics": Engine.get_physics_frames() + hold,
							"ms": Time.get_ticks_msec() + int(step["hold_ms"]),
							"release": step,
						}


func _held_key(step: Dictionary) -> String:
	match str(step["kind"]):
		"action":
			return "action:" + str(step["action"])
		"key":
			return "key:%d" % int(step["keycode"])
		"mouse_button":
			return "mouse:%d" % int(step["button"])
		"joypad_button":
			return "joy:%d:%d" % [int(step["device"]), int(step["index"])]
		"joypad_motion":
			return "axis:%d:%d" % [int(step["device"]), int(step["index"])]
	return ""


func _finish_sequence() -> void:
	var released: PackedStringArray = _release_all()
	var id: int = _seq["id"]
	var result: Dictionary = {
		"applied": int(_seq["applied"]),
		"total": (_seq["plan"] as Array).size(),
		"frames": Engine.get_process_frames() - int(_seq["start_frame"]),
		"duration_ms": Time.get_ticks_msec() - int(_seq["start_ms"]),
		"released_at_end": released,
	}
	_seq = {}
	_reply(id, _ok(result))


## What the objects behind ids are, for the debugger toolset's variables (a message
## capture runs while the game is stopped in the debugger): [{id, class, script?,
## script_class?, name?, node_path?, resource_path?} or {id, freed: true}].
func _describe_objects(ids: Variant) -> Array:
	var out: Array = []
	if typeof(ids) != TYPE_ARRAY:
		return out
	for v: Variant in (ids as Array).slice(0, 200):
		var oid: int = int(v)
		var e: Dictionary = {"id": oid}
		if not is_instance_id_valid(oid):
			e["freed"] = true
			out.append(e)
			continue
		var o: Object = instance_from_id(oid)
		e["class"] = o.get_class()
		var s: Script = o.get_script() as Script
		if s != null:
			e["script"] = s.resource_path
			if str(s.get_global_name()) != "":
				e["script_class"] = str(s.get_global_name())
		if o is Node:
			e["name"] = str((o as Node).name)
			if (o as Node).is_inside_tree():
				e["node_path"] = str((o as Node).get_path())
		elif o is Resource and (o as Resource).resource_path != "":
			e["resource_path"] = (o as Resource).resource_path
		out.append(e)
	return out


## Ends the running input sequence where it is (the editor asks when the game stopped
## in the debugger under it; a message capture runs even then): releases what it
## holds. {running: false} when none runs, else {running, applied, total, last,
## released}.
func _cancel_input() -> Dictionary:
	if _seq.is_empty():
		return {"running": false}
	var plan: Array = _seq["plan"]
	var applied: int = _seq["applied"]
	var last: String = ""
	if applied > 0:
		var step: Dictionary = plan[applied - 1]
		last = str(step.get("label", step["kind"]))
	var out: Dictionary = {"running": true, "applied": applied, "total": plan.size(), "last": last, "released": _release_all()}
	_seq = {}
	return out


## Releases whatever the running sequence still holds; returns their labels.
func _release_all() -> PackedStringArray:
	var released: PackedStringArray = []
	if _seq.is_empty():
		return released
	var held: Dictionary = _seq["held"]
	for k: Variant in held.keys():
		var step: Dictionary = held[k]
		_emit(step, false)
		released.append(str(step.get("label", k)))
	held.clear()
	return released


func _emit(step: Dictionary, pressed: bool) -> void:
	match str(step["kind"]):
		"action":
			var ev: InputEventAction = InputEventAction.new()
			ev.action = StringName(str(step["action"]))
			ev.pressed = pressed
			ev.strength = float(step["strength"]) if pressed else 0.0
			Input.parse_input_event(ev)
		"key":
			var k: InputEventKey = InputEventKey.new()
			var code: Key = step["keycode"]
			k.keycode = code
			k.physical_keycode = code
			k.key_label = code
			k.pressed = pressed
			if pressed and code >= 32 and code < 127:
				var ch: String = char(code)
				k.unicode = (ch.to_upper() if (step["mods"] as Dictionary).has("shift") else ch.to_lower()).unicode_at(0)
			_apply_mods(k, step["mods"])
			Input.parse_input_event(k)
		"mouse_button":
			var mb: InputEventMouseButton = InputEventMouseButton.new()
			var pos: Vector2 = step["position"] if step["position"] != null else get_viewport().get_mouse_position()
			mb.button_index = step["button"]
			mb.pressed = pressed
			mb.position = pos
			mb.global_position = pos
			mb.double_click = pressed and bool(step.get("double_click", false))
			if pressed:
				mb.button_mask = Input.get_mouse_button_mask() | (1 << (int(step["button"]) - 1))
			else:
				mb.button_mask = Input.get_mouse_button_mask() & ~(1 << (int(step["button"]) - 1))
			_apply_mods(mb, step["mods"])
			Input.parse_input_event(mb)
		"mouse_motion":
			var mm: InputEventMouseMotion = InputEventMouseMotion.new()
			var from: Vector2 = get_viewport().get_mouse_position()
			var rel: Vector2 = step["relative"] if step["relative"] != null else Vector2.ZERO
			var to: Vector2 = step["position"] if step["position"] != null else from + rel
			if step["relative"] == null:
				rel = to - from
			mm.position = to
			mm.global_position = to
			mm.relative = rel
			mm.screen_relative = rel
			mm.button_mask = Input.get_mouse_button_mask()
			_apply_mods(mm, step["mods"])
			Input.parse_input_event(mm)
		"joypad_button":
			var jb: InputEventJoypadButton = InputEventJoypadButton.new()
			jb.device = int(step["device"])
			jb.button_index = int(step["index"]) as JoyButton
			jb.pressed = pressed
			jb.pressure = 1.0 if pressed else 0.0
			Input.parse_input_event(jb)
		"joypad_motion":
			var jm: InputEventJoypadMotion = InputEventJoypadMotion.new()
			jm.device = int(step["device"])
			jm.axis = int(step["index"]) as JoyAxis
			jm.axis_value = float(step["value"]) if pressed else 0.0
			Input.parse_input_event(jm)


func _apply_mods(ev: InputEventWithModifiers, mods: Dictionary) -> void:
	ev.shift_pressed = mods.has("shift")
	ev.ctrl_pressed = mods.has("ctrl")
	ev.alt_pressed = mods.has("alt")
	ev.meta_pressed = mods.has("meta")
