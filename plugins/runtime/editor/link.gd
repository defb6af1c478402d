@tool
extends RefCounted
## The runtime toolset's link to the running game: the editor's debugger channel
## (res://addons/godot_mcp/runtime/debugger_plugin.gd, owned by the core addon) and
## the game-side probe behind it. Shared by the command families (handlers.gd).
##
## Commands that need the game answer PRECONDITION_FAILED themselves: required
## runtime_probe when no game with a probe runs, game_not_breaked when the game is
## stopped in the debugger. One bridge command, one answer.

const CommandRouter := preload("res://addons/godot_mcp/command_router.gd")
const DebuggerPlugin := preload("res://addons/godot_mcp/runtime/debugger_plugin.gd")
const ProbeAutoload := preload("probe_autoload.gd")

const DEFAULT_TIMEOUT_MS := 10000
const HINT_LINES := 12
## How long an answer waits for the stack of a stop that just happened.
const STACK_WAIT_MS := 1500

var router: CommandRouter = null
var monitor: DebuggerPlugin = null
var probe: ProbeAutoload = null
## play.gd's play(params) (cmd_runtime_play): the playtest toolset starts a game
## frozen through it (params + frozen: true).
var play_game: Callable


func _init(r: CommandRouter, m: DebuggerPlugin, p: ProbeAutoload) -> void:
	router = r
	monitor = m
	probe = p


func tree() -> SceneTree:
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


## Why the game cannot take a request now: a failure answer, or {} when it can.
func precondition(session_id: int) -> Dictionary:
	if session_id < 0:
		if EditorInterface.is_playing_scene():
			return router.fail("PRECONDITION_FAILED", "The game is starting but has not connected to the editor's debugger yet. Retry in a moment, or check godot_runtime_get_status.", "runtime_probe")
		return router.fail("PRECONDITION_FAILED", "No game is running. Start one with godot_runtime_play.", "runtime_probe")
	var st: Dictionary = monitor.session_state(session_id)
	if st["breaked"]:
		return router.fail("PRECONDITION_FAILED", break_hint(st), "game_not_breaked")
	if not monitor.probe_connected(session_id):
		if not probe.registered():
			return router.fail("PRECONDITION_FAILED", "The running game has no godot-mcp probe: the runtime toolset's autoload is not registered. Enable the runtime toolset (godot_enable_toolset runtime), then play the game again with godot_runtime_play.", "runtime_probe")
		return router.fail("PRECONDITION_FAILED", "The running game has no godot-mcp probe (it was started before the probe was registered, or has not reported in yet). Play it again with godot_runtime_play.", "runtime_probe")
	return {}


## How the game is stopped in the debugger, for answers: {breaked, break_reason
## (DebuggerPlugin.break_kind: breakpoint, step, breakpoint_keyword, script_error,
## break_request; "" when running), break_message (a script error's message),
## break_stack ([{file, line, function}], innermost first; [] until it arrived)}.
static func break_info(st: Dictionary) -> Dictionary:
	var breaked: bool = bool(st.get("breaked", false))
	var message: String = str(st.get("break_reason", ""))
	var stack: Array = st.get("break_stack", []) if breaked else []
	var kind: String = ""
	if breaked:
		kind = str(st.get("named_stop", ""))
		if kind == "":
			kind = DebuggerPlugin.break_kind(message, stack)
	return {
		"breaked": breaked,
		"break_reason": kind,
		"break_message": message if kind == "script_error" else "",
		"break_stack": stack,
	}


## Waits (bounded) for the stack of the session's current stop: it arrives after the
## stop itself, and an answer should name the location.
func await_break_stack(session_id: int) -> void:
	var deadline: int = Time.get_ticks_msec() + STACK_WAIT_MS
	while Time.get_ticks_msec() < deadline:
		var st: Dictionary = monitor.session_state(session_id)
		if not st["active"] or not st["breaked"] or not (st["break_stack"] as Array).is_empty():
			return
		await tree().process_frame


## Why the game is stopped in the debugger, where, and what to do about it.
static func break_hint(st: Dictionary) -> String:
	var info: Dictionary = break_info(st)
	var stack: Array = info["break_stack"]
	var at: String = "at a location not known yet (godot_debugger_get_state shows it)"
	if not stack.is_empty():
		at = "at %s:%d in %s()" % [stack[0]["file"], int(stack[0]["line"]), stack[0]["function"]]
	var waits: String = " Requests to the game wait until it runs again."
	var go_on: String = " Continue it with godot_debugger_continue, step it with godot_debugger_step (the debugger toolset; godot_debugger_get_variables reads it meanwhile), or stop it with godot_runtime_stop."
	match str(info["break_reason"]):
		"breakpoint":
			return "The game is stopped at a breakpoint %s.%s%s Remove the breakpoint with godot_debugger_set_breakpoints to not stop there again." % [at, waits, go_on]
		"step":
			return "The game is stopped after a debugger step, %s.%s%s" % [at, waits, go_on]
		"breakpoint_keyword":
			return "The game is stopped at a `breakpoint` statement in the script, %s.%s%s Remove the statement to not stop there again." % [at, waits, go_on]
		"break_request":
			if stack.is_empty():
				at = "between frames"
			return "The game was paused in the debugger on request (godot_debugger_break or the editor's Pause button), %s.%s%s" % [at, waits, go_on]
	return "The game stopped on a script error %s: %s.%s Stop it (godot_runtime_stop), fix the error, and play again; godot_runtime_get_errors has the error with its stack (godot_debugger_get_variables reads the frame's variables meanwhile)." % [at, str(info["break_message"]), waits]


## Sends one request to the game's probe and waits (bounded) for its answer.
func ask(command: String, params: Dictionary, timeout_ms: int) -> Dictionary:
	var sid: int = monitor.active_session()
	if sid >= 0 and monitor.session_state(sid)["breaked"]:
		await await_break_stack(sid)
	var pre: Dictionary = precondition(sid)
	if not pre.is_empty():
		return pre
	var id: int = monitor.send_to_game(sid, command, params)
	var deadline: int = Time.get_ticks_msec() + timeout_ms
	while true:
		var reply: Variant = monitor.take_reply(id)
		if reply != null:
			var r: Dictionary = reply
			if typeof(r.get("ok")) != TYPE_BOOL:
				return router.fail("INTERNAL_ERROR", "The game's probe sent a malformed answer. Reinstall the addon (godot-mcp addon install) and play the game again.")
			return r
		var st: Dictionary = monitor.session_state(sid)
		if not st["active"]:
			monitor.forget(id)
			return router.fail("PRECONDITION_FAILED", "The game stopped before it answered.%s Play it again with godot_runtime_play." % last_errors_hint(0), "runtime_probe")
		if st["breaked"]:
			monitor.forget(id)
			await await_break_stack(sid)
			st = monitor.session_state(sid)
			return router.fail("PRECONDITION_FAILED", break_hint(st), "game_not_breaked")
		if Time.get_ticks_msec() >= deadline:
			monitor.forget(id)
			return router.fail("TIMEOUT", "The game did not answer within %d ms (it may be busy or frozen). The request may still take effect; check with godot_runtime_get_status." % timeout_ms)
		await tree().process_frame
	return {}


## Sends one request to the probe of a game stopped in the debugger (its message
## captures still run) and waits (bounded) for the answer: the answer, or {} when none.
func ask_while_stopped(command: String, params: Dictionary, timeout_ms: int) -> Dictionary:
	var sid: int = monitor.active_session()
	if sid < 0 or not monitor.probe_connected(sid):
		return {}
	var id: int = monitor.send_to_game(sid, command, params)
	var deadline: int = Time.get_ticks_msec() + timeout_ms
	while Time.get_ticks_msec() < deadline:
		var reply: Variant = monitor.take_reply(id)
		if reply != null:
			return reply
		if not monitor.session_state(sid)["active"]:
			break
		await tree().process_frame
	monitor.forget(id)
	return {}


## Tells the running game's probe to let go of everything (the toolset's editor code
## is going away): unfreeze a game frozen by the playtest toolset, release held inputs,
## cancel a running step, wait or watch. Fire and forget.
func release_game() -> void:
	var sid: int = monitor.active_session()
	if sid >= 0 and monitor.probe_connected(sid) and not monitor.session_state(sid)["breaked"]:
		monitor.forget(monitor.send_to_game(sid, "release", {}))


## The last error lines of the output since [param since] (0: the newest few), for hints.
func last_errors_hint(since: int) -> String:
	var start: int = since if since > 0 else maxi(1, monitor.output_cursor() - 50)
	var r: Dictionary = monitor.read_output(start, 500)
	var lines: PackedStringArray = []
	for e: Dictionary in r["entries"]:
		var kind: String = str(e.get("kind", ""))
		if kind == "error" or kind == "warning":
			var at: String = ""
			if str(e.get("file", "")) != "":
				at = " (%s:%d)" % [e["file"], int(e.get("line", 0))]
			lines.append("%s: %s%s" % [kind, e.get("text", ""), at])
	if lines.is_empty():
		return ""
	if lines.size() > HINT_LINES:
		lines = lines.slice(lines.size() - HINT_LINES)
	return " The game reported: " + " | ".join(lines) + "."


func status_base() -> Dictionary:
	var sid: int = monitor.active_session()
	var st: Dictionary = monitor.session_state(sid) if sid >= 0 else {}
	var reported: Dictionary = st.get("probe", {})
	var out: Dictionary = {
		"playing": EditorInterface.is_playing_scene(),
		"scene": EditorInterface.get_playing_scene(),
		"session_id": sid,
		"pid": int(st.get("pid", 0)),
		"probe_connected": sid >= 0 and not reported.is_empty(),
		"probe_registered": probe.registered(),
		"runtime_enabled": probe.runtime_enabled,
		"paused": bool(reported.get("paused", false)),
		"time_scale": 1.0,
		"headless": bool(reported.get("headless", false)),
		"output_cursor": monitor.output_cursor(),
		"errors_cursor": monitor.errors_cursor(),
	}
	out.merge(break_info(st))
	return out
