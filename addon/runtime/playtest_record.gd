extends RefCounted
## godot-mcp runtime probe, the recorder (godot_playtest_record): records the input
## events the game receives (from a person playing or from the agent's injected input)
## with the physics tick (or process frame) since the recording started, and evaluates
## checkpoint expressions at given ticks. Owned by the probe's playtest half
## (playtest.gd), which calls tick() last in every physics tick's early hook and
## frame() last in every process frame while a recording runs.
##
## The events are read from the root Window's window_input signal, which Godot emits
## for every event it delivers to the game (the OS's, and Input.parse_input_event's)
## before any node's _input: an event a node marks handled is still recorded.
##
## The recording is streamed to the editor as it grows ("godot_mcp:event" ["record",
## {token, frames, inputs, checkpoints, ended?}] at most once a frame, and at least
## every HEARTBEAT frames), so a game that is stopped or killed loses nothing the
## editor did not see by then; the editor writes the file (docs/playtest.md).
##
## `at` of an input is the tick (frame) from which the game sees it: events arriving
## after n ticks ran are recorded at n, and a replay (godot_playtest_step with replay)
## applies them at the start of tick n, before the game's nodes. A checkpoint at n is
## evaluated at the start of tick n, after that tick's inputs were delivered, on the
## state n ticks in.

const ValueCodec := preload("../value_codec.gd")

const CAPTURE := "godot_mcp"
const MAX_INPUTS := 20000
const HEARTBEAT := 30
const _BUTTON_NAMES := {
	MOUSE_BUTTON_LEFT: "left", MOUSE_BUTTON_RIGHT: "right", MOUSE_BUTTON_MIDDLE: "middle",
	MOUSE_BUTTON_WHEEL_UP: "wheel_up", MOUSE_BUTTON_WHEEL_DOWN: "wheel_down",
	MOUSE_BUTTON_WHEEL_LEFT: "wheel_left", MOUSE_BUTTON_WHEEL_RIGHT: "wheel_right",
	MOUSE_BUTTON_XBUTTON1: "xbutton1", MOUSE_BUTTON_XBUTTON2: "xbutton2",
}

var _probe: Node = null
## The probe's playtest half (a weak reference: it owns this recorder).
var _pt_ref: WeakRef = null
## The running recording, {} when none: token, unit (physics|process), count, inputs
## (not sent yet), checks (evaluated, not sent yet), due (checkpoints not evaluated yet,
## sorted by at), total, dropped, skipped, since_send, sent_count.
var _rec: Dictionary = {}


func _init(probe: Node, playtest: RefCounted) -> void:
	_probe = probe
	_pt_ref = weakref(playtest)


func _pt() -> RefCounted:
	return _pt_ref.get_ref() as RefCounted


func active() -> bool:
	return not _rec.is_empty()


func _root() -> Window:
	return _probe.get_tree().root


## {token, unit: physics_ticks|process_frames, checkpoints?: [{at, expr, node?}]} -> reply
func start(params: Dictionary) -> Dictionary:
	if active():
		return _pt().call("_fail", "PRECONDITION_FAILED", "A recording is already running in the game (token %d); stop it first." % int(_rec["token"]))
	var due: Array = []
	var raw: Array = params.get("checkpoints", []) if typeof(params.get("checkpoints")) == TYPE_ARRAY else []
	for i: int in range(raw.size()):
		var c: Dictionary = raw[i] if typeof(raw[i]) == TYPE_DICTIONARY else {}
		var compiled: Dictionary = compile_checkpoint(c, "checkpoints[%d]" % i)
		if compiled.has("ok"):
			return compiled
		due.append(compiled)
	due.sort_custom(func(a: Dictionary, b: Dictionary) -> bool: return int(a["at"]) < int(b["at"]))
	_rec = {
		"token": int(params.get("token", 0)),
		"unit": "process" if str(params.get("unit", "")) == "process_frames" else "physics",
		"count": 0, "inputs": [], "checks": [], "due": due, "total": 0, "dropped": 0,
		"skipped": 0, "since_send": 0, "sent_count": 0,
	}
	_root().window_input.connect(_on_input)
	var scene: Node = _probe.get_tree().current_scene
	return {"ok": true, "result": {
		"frozen": bool(_probe.get("frozen")),
		"scene": scene.scene_file_path if scene != null else "",
		"frame": Engine.get_process_frames(),
		"physics_frame": Engine.get_physics_frames(),
		"physics_ticks_per_second": Engine.physics_ticks_per_second,
		"godot_version": str(Engine.get_version_info().get("string", "")),
	}}


## A checkpoint {at, expr, node?} compiled against its node: {at, expr, node, e, n, b}
## or a failure naming [param where].
func compile_checkpoint(c: Dictionary, where: String) -> Dictionary:
	var expr: String = str(c.get("expr", "")) if c.get("expr") != null else ""
	var at: Variant = c.get("at")
	if typeof(at) == TYPE_FLOAT and is_finite(at as float) and (at as float) == floorf(at as float):
		at = int(at)
	if typeof(at) != TYPE_INT or int(at) < 0:
		return _pt().call("_fail", "VALIDATION_ERROR", "%s.at must be an integer >= 0 (the tick it is evaluated at)." % where)
	if expr.strip_edges() == "":
		return _pt().call("_fail", "VALIDATION_ERROR", "%s.expr is empty: give a GDScript expression (position, score)." % where)
	var path: String = str(c.get("node", "")) if c.get("node") != null else ""
	var node: Node = _pt().call("_binding_node", path)
	if node == null:
		var nf: Dictionary = _probe.call("_not_found", path)
		nf["hint"] = "%s.node: %s" % [where, nf["hint"]]
		return nf
	var b: Dictionary = _pt().call("_bindings", node)
	var compiled: Dictionary = _pt().call("_compile", expr, b["names"])
	if compiled.has("error"):
		return _pt().call("_fail", "VALIDATION_ERROR", "%s.expr '%s' does not parse: %s. It is a GDScript expression (no statements); node's members are visible by bare name." % [where, expr, compiled["error"]])
	return {"at": int(at), "expr": expr, "node": path, "e": compiled["expr"], "n": node, "b": b}


## The value of a compiled checkpoint now: {at, expr, node?, value}.
func evaluate(c: Dictionary) -> Dictionary:
	var out: Dictionary = {"at": int(c["at"]), "expr": str(c["expr"])}
	if str(c["node"]) != "":
		out["node"] = str(c["node"])
	if not is_instance_valid(c["n"]):
		out["value"] = {"error": "the node was freed"}
		return out
	var r: Dictionary = _pt().call("_run", c["e"], c["b"], c["n"])
	out["value"] = ValueCodec.encode(r["value"]) if r.has("value") else {"error": r["error"]}
	return out


## Evaluates the checkpoints due at or before the count.
func _checkpoints_due() -> void:
	var due: Array = _rec["due"]
	while not due.is_empty() and int(due[0]["at"]) <= int(_rec["count"]):
		(_rec["checks"] as Array).append(evaluate(due.pop_front()))


## Last in the early hook of every physics tick the game runs (not while it is paused
## or frozen): the checkpoints due, then the tick is counted. Those due when the game
## stopped moving are evaluated by stop().
func tick(paused: bool) -> void:
	if _rec.is_empty() or _rec["unit"] != "physics" or paused:
		return
	_checkpoints_due()
	_rec["count"] = int(_rec["count"]) + 1


## Last in every process frame: counts a process-frame recording's frame and sends
## what is new to the editor.
func frame(paused: bool) -> void:
	if _rec.is_empty():
		return
	if _rec["unit"] == "process" and not paused:
		_rec["count"] = int(_rec["count"]) + 1
		_checkpoints_due()
	_rec["since_send"] = int(_rec["since_send"]) + 1
	# What is new goes at once; a count that moved, when the game stopped moving (a step
	# ended) or every 10 frames; nothing new, every HEARTBEAT frames.
	var moved: bool = int(_rec["count"]) != int(_rec["sent_count"])
	if not (_rec["inputs"] as Array).is_empty() or not (_rec["checks"] as Array).is_empty() \
			or (moved and (paused or int(_rec["since_send"]) >= 10)) or int(_rec["since_send"]) >= HEARTBEAT:
		_send("")


func _send(ended: String) -> void:
	var data: Dictionary = {"token": _rec["token"], "frames": _rec["count"], "inputs": _rec["inputs"], "checkpoints": _rec["checks"], "dropped": _rec["dropped"], "skipped": _rec["skipped"]}
	if ended != "":
		data["ended"] = ended
	EngineDebugger.send_message(CAPTURE + ":event", ["record", data])
	_rec["inputs"] = []
	_rec["checks"] = []
	_rec["since_send"] = 0
	_rec["sent_count"] = _rec["count"]


## Ends the recording: the checkpoints due by now are evaluated, the rest is sent to
## the editor (before this reply) -> {frames, not_reached: [checkpoints after the end]}.
func stop(ended: String) -> Dictionary:
	if _rec.is_empty():
		return {"running": false}
	_checkpoints_due()
	var not_reached: Array = []
	for c: Dictionary in _rec["due"]:
		not_reached.append({"at": c["at"], "expr": c["expr"]})
	if _root().window_input.is_connected(_on_input):
		_root().window_input.disconnect(_on_input)
	_send(ended)
	var out: Dictionary = {"running": true, "frames": int(_rec["count"]), "inputs": int(_rec["total"]), "dropped": int(_rec["dropped"]), "skipped": int(_rec["skipped"]), "not_reached": not_reached}
	_rec = {}
	return out


func _on_input(ev: InputEvent) -> void:
	if _rec.is_empty():
		return
	var inputs: Array = _rec["inputs"]
	var at: int = int(_rec["count"])
	var last: Dictionary = inputs.back() if not inputs.is_empty() else {}
	# Pointer and stick motion within one tick: one step (the last position, the sum of the moves).
	if ev is InputEventMouseMotion and last.get("type") == "mouse_motion" and int(last["at"]) == at:
		var mm: InputEventMouseMotion = ev
		last["position"] = _xy(mm.position)
		last["relative"] = {"x": float(last["relative"]["x"]) + mm.relative.x, "y": float(last["relative"]["y"]) + mm.relative.y}
		return
	if ev is InputEventJoypadMotion and last.get("type") == "joypad_motion" and int(last["at"]) == at \
			and int(last["index"]) == (ev as InputEventJoypadMotion).axis and int(last.get("device", 0)) == ev.device:
		last["value"] = (ev as InputEventJoypadMotion).axis_value
		return
	var step: Dictionary = to_step(ev)
	if step.is_empty():
		_rec["skipped"] = int(_rec["skipped"]) + 1
		return
	if int(_rec["total"]) >= MAX_INPUTS:
		_rec["dropped"] = int(_rec["dropped"]) + 1
		return
	step["at"] = at
	inputs.append(step)
	_rec["total"] = int(_rec["total"]) + 1


static func _xy(v: Vector2) -> Dictionary:
	return {"x": v.x, "y": v.y}


static func _mods(ev: InputEventWithModifiers, step: Dictionary) -> void:
	var mods: Array = []
	for m: Array in [["shift", ev.shift_pressed], ["ctrl", ev.ctrl_pressed], ["alt", ev.alt_pressed], ["meta", ev.meta_pressed]]:
		if m[1]:
			mods.append(m[0])
	if not mods.is_empty():
		step["modifiers"] = mods


## An input event as a timeline step (the shape godot_playtest_step's inputs take), or
## {} for an event a timeline cannot carry (touch, gestures, MIDI, key echoes).
static func to_step(ev: InputEvent) -> Dictionary:
	var step: Dictionary = {}
	if ev is InputEventKey:
		var k: InputEventKey = ev
		var code: Key = k.keycode if k.keycode != KEY_NONE else k.physical_keycode
		var key_name: String = OS.get_keycode_string(code)
		if k.echo or key_name == "":
			return {}
		step = {"type": "key", "key": key_name, "state": "press" if k.pressed else "release"}
		_mods(k, step)
	elif ev is InputEventMouseButton:
		var mb: InputEventMouseButton = ev
		if not _BUTTON_NAMES.has(mb.button_index):
			return {}
		step = {"type": "mouse_button", "button": _BUTTON_NAMES[mb.button_index], "state": "press" if mb.pressed else "release", "position": _xy(mb.position)}
		_mods(mb, step)
	elif ev is InputEventMouseMotion:
		var mm: InputEventMouseMotion = ev
		step = {"type": "mouse_motion", "position": _xy(mm.position), "relative": _xy(mm.relative)}
		_mods(mm, step)
	elif ev is InputEventAction:
		var a: InputEventAction = ev
		step = {"type": "action", "action": str(a.action), "state": "press" if a.pressed else "release"}
		if a.pressed and a.strength != 1.0:
			step["strength"] = a.strength
	elif ev is InputEventJoypadButton:
		var jb: InputEventJoypadButton = ev
		step = {"type": "joypad_button", "index": int(jb.button_index), "state": "press" if jb.pressed else "release"}
	elif ev is InputEventJoypadMotion:
		var jm: InputEventJoypadMotion = ev
		step = {"type": "joypad_motion", "index": int(jm.axis), "value": jm.axis_value}
	else:
		return {}
	if (ev is InputEventJoypadButton or ev is InputEventJoypadMotion) and ev.device > 0:
		step["device"] = ev.device
	return step
