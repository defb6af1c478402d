@tool
extends RefCounted
## cmd_runtime_get_status / get_output / get_errors / check: what the game is doing and
## what it printed, read from the debugger channel by cursor.

const CommandRouter := preload("res://addons/godot_mcp/command_router.gd")
const DebuggerPlugin := preload("res://addons/godot_mcp/runtime/debugger_plugin.gd")
const Link := preload("link.gd")

const MAX_LIMIT := 1000

var _router: CommandRouter = null
var _monitor: DebuggerPlugin = null
var _link: Link = null


func setup(link: Link) -> void:
	_link = link
	_router = link.router
	_monitor = link.monitor


func get_commands() -> Dictionary:
	return {
		"cmd_runtime_get_status": {"class": "read_only", "run": get_status},
		"cmd_runtime_get_output": {"class": "read_only", "run": get_output},
		"cmd_runtime_get_errors": {"class": "read_only", "run": get_errors},
		"cmd_runtime_check": {"class": "read_only", "run": check},
	}


func get_status(_params: Dictionary) -> Dictionary:
	var out: Dictionary = _link.status_base()
	var sid: int = int(out["session_id"])
	if out["probe_connected"] and not out["breaked"]:
		var r: Dictionary = await _link.ask("status", {}, 3000)
		if r.get("ok", false):
			var res: Dictionary = r["result"]
			for k: String in ["paused", "time_scale", "headless", "process_frames", "fps", "frozen", "stepping"]:
				if res.has(k):
					out[k] = res[k]
			out["probe_responding"] = true
		else:
			out["probe_responding"] = false
	elif sid < 0:
		out["probe_connected"] = false
	return _router.ok(out)


## {since?: int >= 0, limit?: 1..1000} -> {entries, next_cursor, truncated, dropped, ...}
func get_output(params: Dictionary) -> Dictionary:
	return _read(params, true)


func get_errors(params: Dictionary) -> Dictionary:
	return _read(params, false)


func _read(params: Dictionary, output: bool) -> Dictionary:
	var since: Variant = Link.int_param(params, "since", 0, 0, 9007199254740991)
	if since == null:
		return _router.fail("VALIDATION_ERROR", "since must be an integer >= 0: the next_cursor of your previous call (0 for everything kept).")
	var limit: Variant = Link.int_param(params, "limit", 200, 1, MAX_LIMIT)
	if limit == null:
		return _router.fail("VALIDATION_ERROR", "limit must be an integer from 1 to %d." % MAX_LIMIT)
	var r: Dictionary = _monitor.read_output(since, limit) if output else _monitor.read_errors(since, limit)
	# An error entry keeps its message twice (text, and message for the error
	# feed); the agent reads text.
	var entries: Array = []
	for e: Dictionary in r.get("entries", []):
		if e.has("message"):
			e = e.duplicate()
			e.erase("message")
		entries.append(e)
	r["entries"] = entries
	r["playing"] = EditorInterface.is_playing_scene()
	return _router.ok(r)


## {required: ["runtime_probe", "game_not_breaked"]} -> {satisfied: true} or the failure.
func check(params: Dictionary) -> Dictionary:
	var req: Variant = params.get("required", ["runtime_probe", "game_not_breaked"])
	if typeof(req) != TYPE_ARRAY:
		return _router.fail("VALIDATION_ERROR", "required must be an array of precondition names.")
	var sid: int = _monitor.active_session()
	for r: Variant in req:
		match str(r):
			"runtime_probe":
				var pre: Dictionary = _link.precondition(sid)
				if not pre.is_empty() and str(pre.get("required", "")) == "runtime_probe":
					return pre
			"game_not_breaked":
				if sid >= 0 and bool(_monitor.session_state(sid)["breaked"]):
					await _link.await_break_stack(sid)
					return _router.fail("PRECONDITION_FAILED", _link.break_hint(_monitor.session_state(sid)), "game_not_breaked")
			_:
				return _router.fail("VALIDATION_ERROR", "Unknown runtime precondition '%s' (runtime_probe, game_not_breaked)." % r)
	return _router.ok({"satisfied": true})
