@tool
extends RefCounted
## Where the game is and moving it: the debugger state, break now, step into /
## over / out and continue. Each movement answers once the game stopped again
## (with the new location) or with the fact that it ran on; never a silent no-op.
##
## The core debugger of Godot 4.4 (core/debugger/remote_debugger.cpp) knows
## "break", "step" (into), "next" (over) and "continue"; step out is "next" until
## the frame returned (bounded).

const CommandRouter := preload("res://addons/godot_mcp/command_router.gd")
const Monitor := preload("monitor.gd")
const DebuggerPlugin := preload("res://addons/godot_mcp/runtime/debugger_plugin.gd")

const DEFAULT_TIMEOUT_MS := 10000
const MAX_OUT_STEPS := 2000
## How long a stop's stack may take to arrive before it is asked for again.
const STACK_WAIT_MS := 1500

var _router: CommandRouter = null
var _monitor: Monitor = null


func setup(router: CommandRouter, monitor: Monitor) -> void:
	_router = router
	_monitor = monitor


func _fail(code: String, hint: String, required: String = "") -> Dictionary:
	return _router.fail(code, hint, required)


func _ok(result: Dictionary) -> Dictionary:
	return _router.ok(result)


func _tree() -> SceneTree:
	return Engine.get_main_loop() as SceneTree


static func int_param(params: Dictionary, key: String, default_value: int, lo: int, hi: int) -> Variant:
	if not params.has(key) or params[key] == null:
		return default_value
	var v: Variant = params[key]
	if typeof(v) == TYPE_FLOAT and is_finite(v as float) and (v as float) == floorf(v as float):
		v = int(v)
	if typeof(v) != TYPE_INT or int(v) < lo or int(v) > hi:
		return null
	return v


# --- state ------------------------------------------------------------------------------


## Waits (bounded) until the current stop's stack arrived, asking again once.
func _await_stack(sid: int) -> void:
	var st: Dictionary = _monitor.state(sid)
	if not st.get("breaked", false) or st["stack_ready"]:
		return
	var break_id: int = st["break_id"]
	var asked: bool = false
	var start: int = Time.get_ticks_msec()
	while Time.get_ticks_msec() - start < STACK_WAIT_MS * 2:
		await _tree().process_frame
		st = _monitor.state(sid)
		if not st["breaked"] or int(st["break_id"]) != break_id or st["stack_ready"]:
			return
		if not asked and Time.get_ticks_msec() - start > STACK_WAIT_MS:
			_monitor.request_stack(sid)
			asked = true


## Why the game stopped: breakpoint, step, breakpoint_keyword, script_error or
## break_request (godot_debugger_break: between frames, no script running).
static func reason_of(st: Dictionary) -> String:
	return DebuggerPlugin.break_kind(str(st.get("message", "")), st.get("stack", []))


## The answer's common part: playing, stopped, reason, message, location, stack.
func describe(sid: int) -> Dictionary:
	var out: Dictionary = {
		"playing": EditorInterface.is_playing_scene() or sid >= 0,
		"session_id": sid,
		"stopped": false,
		"reason": "",
		"message": "",
		"location": null,
		"stack": [],
		"can_continue": true,
	}
	if sid < 0:
		return out
	var st: Dictionary = _monitor.state(sid)
	if not st.get("breaked", false):
		return out
	var stack: Array = st["stack"]
	var frames: Array = []
	for i: int in range(stack.size()):
		var f: Dictionary = stack[i]
		frames.append({"frame": i, "file": f["file"], "line": f["line"], "function": f["function"]})
	out["stopped"] = true
	out["reason"] = DebuggerPlugin.named_stop(sid)
	if out["reason"] == "":
		out["reason"] = reason_of(st)
	out["message"] = st["message"] if out["reason"] == "script_error" else ""
	out["stack"] = frames
	out["location"] = frames[0] if not frames.is_empty() else null
	out["can_continue"] = st["can_continue"]
	return out


## Where the game is, in words, for hints.
static func where(d: Dictionary) -> String:
	if d.get("location") == null:
		return "between frames (no script code running)"
	var loc: Dictionary = d["location"]
	return "at %s:%d in %s()" % [loc["file"], int(loc["line"]), loc["function"]]


func no_game() -> Dictionary:
	if EditorInterface.is_playing_scene():
		return _fail("PRECONDITION_FAILED", "The game is starting but has not connected to the editor's debugger yet. Retry in a moment (godot_debugger_get_state).")
	return _fail("PRECONDITION_FAILED", "No game is running. Start one with godot_runtime_play (breakpoints set before are kept).")


## {} -> describe()
func get_state(_params: Dictionary) -> Dictionary:
	var sid: int = _monitor.active_session()
	await _await_stack(sid)
	return _ok(describe(sid))


# --- break ------------------------------------------------------------------------------


## {timeout_ms?} -> describe() + {already_stopped}. Stops the game now; a stop between
## frames is followed by a step into the next script line that runs (within
## timeout_ms), so the answer has a location when the game runs any script.
func break_now(params: Dictionary) -> Dictionary:
	var timeout: Variant = int_param(params, "timeout_ms", 3000, 100, 60000)
	if timeout == null:
		return _fail("VALIDATION_ERROR", "timeout_ms must be an integer from 100 to 60000.")
	var sid: int = _monitor.active_session()
	if sid < 0:
		return no_game()
	var st: Dictionary = _monitor.state(sid)
	if st["breaked"]:
		await _await_stack(sid)
		var d0: Dictionary = describe(sid)
		d0["already_stopped"] = true
		return _ok(d0)
	_monitor.resume(sid, "break")
	var got: String = await _await_stop(sid, int(st["break_id"]), 5000)
	if got != "stopped":
		return _moved_failure(sid, got, "break", 5000)
	var d: Dictionary = describe(sid)
	if d["location"] == null:
		# Stopped between frames: land on the next script line instead.
		var before: int = int(_monitor.state(sid)["break_id"])
		_monitor.resume(sid, "step")
		got = await _await_stop(sid, before, int(timeout))
		if got == "running":
			# No script ran: stop between frames again, and say so.
			before = int(_monitor.state(sid)["break_id"])
			_monitor.resume(sid, "break")
			got = await _await_stop(sid, before, 5000)
		if got != "stopped":
			return _moved_failure(sid, got, "break", int(timeout))
		d = describe(sid)
		# The game's probe runs first in every physics tick: step through its lines
		# until the stop is in the game's own code.
		var hops: int = 0
		while hops < 300 and _in_probe(d):
			before = int(_monitor.state(sid)["break_id"])
			_monitor.resume(sid, "step")
			got = await _await_stop(sid, before, int(timeout))
			if got != "stopped":
				return _moved_failure(sid, got, "break", int(timeout))
			hops += 1
			d = describe(sid)
		if reason_of(_monitor.state(sid)) == "step":
			# The step that landed on a script line is still the break request, for
			# this toolset and the runtime toolset's hints alike.
			DebuggerPlugin.name_stop(sid, "break_request")
		d = describe(sid)
	d["already_stopped"] = false
	return _ok(d)


## Whether a stop is in godot-mcp's own game-side code (the probe), not the game's.
func _in_probe(d: Dictionary) -> bool:
	var loc: Variant = d.get("location")
	return loc is Dictionary and str((loc as Dictionary).get("file", "")).begins_with("res://addons/godot_mcp/")


# --- step and continue ---------------------------------------------------------------


## Waits for a stop newer than [param break_id]: "stopped" (its stack arrived),
## "ended" (the game exited) or "running" (not within timeout_ms).
func _await_stop(sid: int, break_id: int, timeout_ms: int) -> String:
	var deadline: int = Time.get_ticks_msec() + timeout_ms
	while true:
		var st: Dictionary = _monitor.state(sid)
		if not st["active"]:
			return "ended"
		if st["breaked"] and int(st["break_id"]) > break_id:
			await _await_stack(sid)
			return "stopped"
		if Time.get_ticks_msec() >= deadline:
			return "running"
		await _tree().process_frame
	return "running"


func _moved_failure(sid: int, got: String, what: String, timeout_ms: int) -> Dictionary:
	if got == "ended":
		return _ok({"playing": false, "session_id": sid, "stopped": false, "ran_on": true, "game_ended": true, "reason": "", "message": "", "location": null, "stack": [], "can_continue": false, "note": "The game exited after %s." % what})
	return _fail("TIMEOUT", "The game did not stop within %d ms after %s; it may be frozen in engine code. Check godot_debugger_get_state, or stop it with godot_runtime_stop." % [timeout_ms, what])


## Common checks for step/continue: a stopped game. -> {sid, st} or {failure}.
func _stopped_game() -> Dictionary:
	var sid: int = _monitor.active_session()
	if sid < 0:
		return {"failure": no_game()}
	var st: Dictionary = _monitor.state(sid)
	if not st["breaked"]:
		return {"failure": _fail("PRECONDITION_FAILED", "The game is running, not stopped in the debugger. Stop it first: a breakpoint (godot_debugger_set_breakpoints) or godot_debugger_break.")}
	return {"sid": sid, "st": st}


## {mode: "into"|"over"|"out", timeout_ms?} -> describe() + {ran_on, steps, from}
func step(params: Dictionary) -> Dictionary:
	var mode: String = str(params.get("mode", "over")) if params.get("mode") != null else "over"
	if not ["into", "over", "out"].has(mode):
		return _fail("VALIDATION_ERROR", "mode must be \"into\" (into calls), \"over\" (the next line of this function) or \"out\" (until this function returned).")
	var timeout: Variant = int_param(params, "timeout_ms", DEFAULT_TIMEOUT_MS, 100, 300000)
	if timeout == null:
		return _fail("VALIDATION_ERROR", "timeout_ms must be an integer from 100 to 300000.")
	var g: Dictionary = _stopped_game()
	if g.has("failure"):
		return g["failure"]
	var sid: int = g["sid"]
	await _await_stack(sid)
	var from: Dictionary = describe(sid)
	if mode == "out":
		return await _step_out(sid, from, int(timeout))
	var st: Dictionary = _monitor.state(sid)
	_monitor.resume(sid, "step" if mode == "into" else "next")
	var got: String = await _await_stop(sid, int(st["break_id"]), int(timeout))
	return _after_move(sid, got, from, 1, "step %s" % mode)


## Steps over until the frame [param from] was in has returned: the stack is
## shallower, or its callers are no longer the same frames.
func _step_out(sid: int, from: Dictionary, timeout_ms: int) -> Dictionary:
	var stack: Array = from["stack"]
	if stack.size() <= 1:
		# The outermost script frame: the engine called it, there is no script to return to.
		var st0: Dictionary = _monitor.state(sid)
		_monitor.resume(sid, "continue")
		var got0: String = await _await_stop(sid, int(st0["break_id"]), mini(timeout_ms, 500))
		var r0: Dictionary = _after_move(sid, got0, from, 1, "step out")
		if r0.get("ok", false):
			(r0["result"] as Dictionary)["note"] = "Frame 0 (%s) was called by the engine, not by a script: stepping out of it continues the game." % (from["location"]["function"] if from["location"] != null else "?")
		return r0
	var callers: Array = stack.slice(1)
	var deadline: int = Time.get_ticks_msec() + timeout_ms
	var steps: int = 0
	while true:
		var st: Dictionary = _monitor.state(sid)
		_monitor.resume(sid, "next")
		steps += 1
		var got: String = await _await_stop(sid, int(st["break_id"]), maxi(100, deadline - Time.get_ticks_msec()))
		if got != "stopped":
			return _after_move(sid, got, from, steps, "step out")
		var now: Dictionary = describe(sid)
		var frames: Array = now["stack"]
		if str(now["reason"]) != "step":
			return _after_move(sid, got, from, steps, "step out") # a breakpoint or an error on the way
		if frames.size() < stack.size() or not _same_callers(frames, callers):
			return _after_move(sid, got, from, steps, "step out")
		if steps >= MAX_OUT_STEPS or Time.get_ticks_msec() >= deadline:
			var r: Dictionary = _after_move(sid, got, from, steps, "step out")
			if r.get("ok", false):
				(r["result"] as Dictionary)["note"] = "Still inside %s() after %d steps (timeout_ms %d): stopped there. Step out again to go on." % [from["location"]["function"], steps, timeout_ms]
				(r["result"] as Dictionary)["incomplete"] = true
			return r
	return {}


## Whether the outer frames of [param frames] are [param callers] (same file and
## function, innermost first, aligned at the outermost end).
static func _same_callers(frames: Array, callers: Array) -> bool:
	if frames.size() < callers.size() + 1:
		return false
	var offset: int = frames.size() - callers.size()
	for i: int in range(callers.size()):
		var a: Dictionary = frames[offset + i]
		var b: Dictionary = callers[i]
		if str(a["file"]) != str(b["file"]) or str(a["function"]) != str(b["function"]):
			return false
	return true


func _after_move(sid: int, got: String, from: Dictionary, steps: int, what: String) -> Dictionary:
	if got == "ended":
		return _moved_failure(sid, got, what, 0)
	var d: Dictionary = describe(sid)
	d["from"] = from["location"]
	d["steps"] = steps
	d["ran_on"] = got == "running"
	if got == "running":
		d["playing"] = true
		if what.begins_with("step"):
			d["note"] = "The game ran on without reaching another script line within the time limit; it stops at the next script line it runs (godot_debugger_get_state shows when)."
		else:
			d["note"] = "The game runs; it stops again at a breakpoint, a breakpoint keyword or a script error."
	return _ok(d)


## {wait_ms?: how long to wait for the next stop, default 300} -> describe() + {ran_on}
func continue_game(params: Dictionary) -> Dictionary:
	var wait: Variant = int_param(params, "wait_ms", 300, 0, 60000)
	if wait == null:
		return _fail("VALIDATION_ERROR", "wait_ms must be an integer from 0 to 60000.")
	var g: Dictionary = _stopped_game()
	if g.has("failure"):
		return g["failure"]
	var sid: int = g["sid"]
	await _await_stack(sid)
	var from: Dictionary = describe(sid)
	var st: Dictionary = _monitor.state(sid)
	_monitor.resume(sid, "continue")
	# The game has left the debug loop once debug_exit arrived.
	var deadline: int = Time.get_ticks_msec() + 5000
	while int(_monitor.state(sid)["exits"]) == int(st["exits"]) and _monitor.state(sid)["active"] and Time.get_ticks_msec() < deadline:
		await _tree().process_frame
	if int(_monitor.state(sid)["exits"]) == int(st["exits"]) and _monitor.state(sid)["active"]:
		return _fail("TIMEOUT", "The game did not leave the debugger within 5 s after continue. Check godot_debugger_get_state.")
	var got: String = await _await_stop(sid, int(st["break_id"]), int(wait))
	return _after_move(sid, got, from, 0, "continue")
