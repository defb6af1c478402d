@tool
extends RefCounted
## Playtesting at the agent's pace: eval in the live game, freeze and step it (with an
## input timeline and step-until), wait for a predicate, watch values over frames. The
## game side is the probe's playtest half (res://addons/godot_mcp/runtime/playtest.gd).
##
## eval: a script error raised by the agent's code (a snippet that does not compile,
## or fails while it runs) stops the game in the debugger, as every script error does
## while a debugger is attached. The editor recognises a stop whose stack runs through
## the eval, takes Godot's message, line and stack from it, lets the game go on
## (the debugger's continue) and answers VALIDATION_ERROR with them.

const CommandRouter := preload("res://addons/godot_mcp/command_router.gd")
const DebuggerPlugin := preload("res://addons/godot_mcp/runtime/debugger_plugin.gd")
const Link := preload("link.gd")

const EVAL_PREFIX := "res://godot_mcp_eval_"
const PLAYTEST_SCRIPT := "res://addons/godot_mcp/runtime/playtest.gd"

var _router: CommandRouter = null
var _monitor: DebuggerPlugin = null
var _link: Link = null


func setup(link: Link) -> void:
	_link = link
	_router = link.router
	_monitor = link.monitor


func get_commands() -> Dictionary:
	return {
		"cmd_runtime_eval": {"class": "runtime", "run": eval},
		"cmd_runtime_step": {"class": "runtime", "run": step},
		"cmd_runtime_wait_for": {"class": "runtime", "run": wait_for},
		"cmd_runtime_watch": {"class": "runtime", "run": watch},
	}


## Tells the running game to let go of everything (the toolset's editor code is going
## away): unfreeze, release held inputs, cancel a running window. Fire and forget.
func release_game() -> void:
	var sid: int = _monitor.active_session()
	if sid >= 0 and _monitor.probe_connected(sid) and not _monitor.session_state(sid)["breaked"]:
		var id: int = _monitor.send_to_game(sid, "release", {})
		_monitor.forget(id)


func _str(params: Dictionary, key: String) -> Variant:
	var v: Variant = params.get(key, "")
	if v == null:
		return ""
	return v if typeof(v) == TYPE_STRING else null


## {code, node?, mode?: auto|expression|snippet, timeout_ms?}
func eval(params: Dictionary) -> Dictionary:
	var code: Variant = _str(params, "code")
	if code == null or str(code).strip_edges() == "":
		return _router.fail("VALIDATION_ERROR", "code is required: a GDScript expression (node.position.y) or statements (return with a value).")
	var node: Variant = _str(params, "node")
	if node == null:
		return _router.fail("VALIDATION_ERROR", "node must be a node path string.")
	var mode: Variant = _str(params, "mode")
	if mode == null or not ["", "auto", "expression", "snippet"].has(mode):
		return _router.fail("VALIDATION_ERROR", "mode must be auto, expression or snippet.")
	var timeout: Variant = Link.int_param(params, "timeout_ms", 5000, 100, 60000)
	if timeout == null:
		return _router.fail("VALIDATION_ERROR", "timeout_ms must be an integer from 100 to 60000.")
	var req: Dictionary = {"code": code, "node": node, "mode": mode if mode != "" else "auto", "timeout_ms": timeout}
	return await _ask_eval(req, int(timeout) + Link.DEFAULT_TIMEOUT_MS)


## Like Link.ask, but a script error stop that runs through the eval is the eval's
## error: answered with Godot's message, line and stack, and the game goes on.
func _ask_eval(req: Dictionary, timeout_ms: int) -> Dictionary:
	var sid: int = _monitor.active_session()
	if sid >= 0 and _monitor.session_state(sid)["breaked"]:
		await _link.await_break_stack(sid)
	var pre: Dictionary = _link.precondition(sid)
	if not pre.is_empty():
		return pre
	var id: int = _monitor.send_to_game(sid, "eval", req)
	var deadline: int = Time.get_ticks_msec() + timeout_ms
	var error: Dictionary = {}
	while true:
		var reply: Variant = _monitor.take_reply(id)
		if reply != null:
			var r: Dictionary = reply
			if typeof(r.get("ok")) != TYPE_BOOL:
				return _router.fail("INTERNAL_ERROR", "The game's probe sent a malformed answer. Reinstall the addon (godot-mcp addon install) and play the game again.")
			if not error.is_empty():
				return _router.fail("VALIDATION_ERROR", _error_hint(error, r))
			if not r["ok"] and r.has("line_map"):
				# The snippet did not compile but no stop was seen (should not happen).
				return _router.fail("VALIDATION_ERROR", str(r.get("hint", "The snippet does not compile.")) + " Godot's message is in godot_runtime_get_errors.")
			if r["ok"]:
				var res: Dictionary = r["result"]
				res.erase("eval_path")
				res.erase("line_map")
				r.erase("eval_path")
				r.erase("line_map")
			else:
				r.erase("eval_path")
				r.erase("line_map")
			return r
		var st: Dictionary = _monitor.session_state(sid)
		if not st["active"]:
			_monitor.forget(id)
			return _router.fail("PRECONDITION_FAILED", "The game stopped before the eval answered.%s Play it again with godot_runtime_play." % _link.last_errors_hint(0), "runtime_probe")
		if st["breaked"]:
			await _link.await_break_stack(sid)
			st = _monitor.session_state(sid)
			var info: Dictionary = Link.break_info(st)
			if info["break_reason"] == "script_error" and _through_eval(info["break_stack"]) and error.is_empty():
				error = info
				_monitor.get_session(sid).send_message("continue", [])
				# Wait for the game to leave the debugger, then for the probe's answer.
				var until: int = Time.get_ticks_msec() + 5000
				while _monitor.session_state(sid)["breaked"] and _monitor.session_state(sid)["active"] and Time.get_ticks_msec() < until:
					await _link.tree().process_frame
				continue
			_monitor.forget(id)
			return _router.fail("PRECONDITION_FAILED", Link.break_hint(st), "game_not_breaked")
		if Time.get_ticks_msec() >= deadline:
			_monitor.forget(id)
			return _router.fail("TIMEOUT", "The eval did not answer within %d ms: it may be awaiting something that does not come, or stuck in game code it called. The game may still be running it; check with godot_runtime_get_status (stop it with godot_runtime_stop if it hangs)." % timeout_ms)
		await _link.tree().process_frame
	return {}


func _through_eval(stack: Array) -> bool:
	for f: Dictionary in stack:
		var file: String = str(f.get("file", ""))
		if file.begins_with(EVAL_PREFIX):
			return true
		if file == PLAYTEST_SCRIPT and str(f.get("function", "")).begins_with("eval_run"):
			return true
	return false


## Godot's message with the line in the agent's code and the stack.
func _error_hint(info: Dictionary, reply: Dictionary) -> String:
	var message: String = str(info["break_message"])
	var map: Array = reply.get("line_map", []) if typeof(reply.get("line_map")) == TYPE_ARRAY else []
	var eval_path: String = str(reply.get("eval_path", ""))
	var parse: bool = message.begins_with("Parser Error: ") or message.begins_with("Parse Error: ")
	for p: String in ["Parser Error: ", "Parse Error: "]:
		message = message.trim_prefix(p)
	var where: String = ""
	var frames: PackedStringArray = []
	for f: Dictionary in info["break_stack"]:
		var file: String = str(f.get("file", ""))
		var line: int = int(f.get("line", 0))
		if file == eval_path or file.begins_with(EVAL_PREFIX):
			var user: int = int(map[line - 1]) if line >= 1 and line <= map.size() else line
			if where == "":
				where = "line %d" % user
			frames.append("your code line %d" % user)
		elif file == PLAYTEST_SCRIPT or file.ends_with("runtime/probe.gd"):
			continue
		else:
			if where == "":
				where = "%s:%d in %s()" % [file, line, f.get("function", "")]
			frames.append("%s:%d in %s()" % [file, line, f.get("function", "")])
	if where == "":
		where = "line 1" if map.is_empty() else "an unknown line"
	if parse:
		return "The code does not compile: %s: %s. Nothing ran. Snippets are GDScript statements (the body of a function; return gives the value); node, tree, root, scene and the autoloads are bound." % [where, message]
	return "The code raised a script error at %s: %s. Stack: %s. The game stopped in the debugger for it and was continued; what ran before the error stays done." % [where, message, " <- ".join(frames) if not frames.is_empty() else "(none)"]


## The until predicate, checked: {kind, ...} or {error}.
func _until(params: Dictionary, required: bool) -> Dictionary:
	var u: Variant = params.get("until")
	if u == null:
		if required:
			return {"error": "until is required: {expression}, {signal}, {node_appears}, {node_leaves} or {group, count_at_least/count_at_most}."}
		return {}
	if typeof(u) != TYPE_DICTIONARY:
		return {"error": "until must be an object."}
	var d: Dictionary = u
	var kinds: PackedStringArray = []
	for k: String in ["expression", "signal", "node_appears", "node_leaves", "group"]:
		if d.get(k) != null and str(d[k]) != "":
			kinds.append(k)
	if kinds.size() != 1:
		return {"error": "until takes exactly one of expression, signal, node_appears, node_leaves, group (got %s)." % (", ".join(kinds) if not kinds.is_empty() else "none")}
	var out: Dictionary = {"kind": kinds[0]}
	match kinds[0]:
		"expression", "signal", "group":
			out[kinds[0]] = str(d[kinds[0]])
		_:
			out["path"] = str(d[kinds[0]])
	for k: String in ["count_at_least", "count_at_most"]:
		if d.get(k) != null:
			if kinds[0] != "group":
				return {"error": "%s belongs to a group predicate." % k}
			var v: Variant = Link.int_param(d, k, 0, 0, 1000000)
			if v == null:
				return {"error": "%s must be an integer >= 0." % k}
			out[k] = v
	if kinds[0] == "group" and not out.has("count_at_least") and not out.has("count_at_most"):
		return {"error": "a group predicate needs count_at_least and/or count_at_most."}
	return out


func _strings(params: Dictionary, key: String, most: int) -> Variant:
	var v: Variant = params.get(key, [])
	if v == null:
		return []
	if typeof(v) != TYPE_ARRAY or (v as Array).size() > most:
		return null
	for e: Variant in v:
		if typeof(e) != TYPE_STRING or str(e).strip_edges() == "":
			return null
	return v


## {unit?: physics_ticks|process_frames, count?, until?, inputs?, report?, then?: freeze|resume, node?, timeout_ms?}
func step(params: Dictionary) -> Dictionary:
	var unit: Variant = _str(params, "unit")
	if unit == null or not ["", "physics_ticks", "process_frames"].has(unit):
		return _router.fail("VALIDATION_ERROR", "unit must be physics_ticks or process_frames.")
	var u: Dictionary = _until(params, false)
	if u.has("error"):
		return _router.fail("VALIDATION_ERROR", str(u["error"]))
	var count: Variant = Link.int_param(params, "count", 600 if not u.is_empty() else 0, 0, 36000)
	if count == null:
		return _router.fail("VALIDATION_ERROR", "count must be an integer from 0 to 36000.")
	var then: Variant = _str(params, "then")
	if then == null or not ["", "freeze", "resume"].has(then):
		return _router.fail("VALIDATION_ERROR", "then must be freeze or resume.")
	var report: Variant = _strings(params, "report", 16)
	if report == null:
		return _router.fail("VALIDATION_ERROR", "report must be a list of at most 16 non-empty expressions.")
	var inputs: Variant = params.get("inputs", [])
	if inputs == null:
		inputs = []
	if typeof(inputs) != TYPE_ARRAY or (inputs as Array).size() > 500:
		return _router.fail("VALIDATION_ERROR", "inputs must be a list of at most 500 timed input steps.")
	var node: Variant = _str(params, "node")
	if node == null:
		return _router.fail("VALIDATION_ERROR", "node must be a node path string.")
	var timeout: Variant = Link.int_param(params, "timeout_ms", 10000 + int(count) * 100, 100, 600000)
	if timeout == null:
		return _router.fail("VALIDATION_ERROR", "timeout_ms must be an integer from 100 to 600000.")
	var req: Dictionary = {
		"unit": unit if unit != "" else "physics_ticks", "count": count, "inputs": inputs,
		"report": report, "then": then if then != "" else "freeze", "node": node, "timeout_ms": timeout,
	}
	if not u.is_empty():
		req["until"] = u
	return await _link.ask("step", req, int(timeout) + Link.DEFAULT_TIMEOUT_MS)


## {until, report?, max_frames?, timeout_ms?, node?}
func wait_for(params: Dictionary) -> Dictionary:
	var u: Dictionary = _until(params, true)
	if u.has("error"):
		return _router.fail("VALIDATION_ERROR", str(u["error"]))
	var report: Variant = _strings(params, "report", 16)
	if report == null:
		return _router.fail("VALIDATION_ERROR", "report must be a list of at most 16 non-empty expressions.")
	var frames: Variant = Link.int_param(params, "max_frames", 600, 1, 36000)
	var timeout: Variant = Link.int_param(params, "timeout_ms", 10000, 100, 120000)
	if frames == null or timeout == null:
		return _router.fail("VALIDATION_ERROR", "max_frames must be 1..36000 and timeout_ms 100..120000.")
	var node: Variant = _str(params, "node")
	if node == null:
		return _router.fail("VALIDATION_ERROR", "node must be a node path string.")
	var req: Dictionary = {"until": u, "report": report, "max_frames": frames, "timeout_ms": timeout, "node": node}
	return await _link.ask("wait", req, int(timeout) + Link.DEFAULT_TIMEOUT_MS)


## {expressions, every?, frames?, max_samples?, max_bytes?, timeout_ms?, node?}
func watch(params: Dictionary) -> Dictionary:
	var exprs: Variant = _strings(params, "expressions", 16)
	if exprs == null or (exprs as Array).is_empty():
		return _router.fail("VALIDATION_ERROR", "expressions must list 1 to 16 non-empty expressions.")
	var every: Variant = Link.int_param(params, "every", 1, 1, 600)
	var frames: Variant = Link.int_param(params, "frames", 60, 1, 36000)
	var max_samples: Variant = Link.int_param(params, "max_samples", 600, 1, 5000)
	var max_bytes: Variant = Link.int_param(params, "max_bytes", 262144, 1024, 4194304)
	if every == null or frames == null or max_samples == null or max_bytes == null:
		return _router.fail("VALIDATION_ERROR", "every must be 1..600, frames 1..36000, max_samples 1..5000, max_bytes 1024..4194304.")
	var timeout: Variant = Link.int_param(params, "timeout_ms", 10000 + int(frames) * 50, 100, 600000)
	if timeout == null:
		return _router.fail("VALIDATION_ERROR", "timeout_ms must be an integer from 100 to 600000.")
	var node: Variant = _str(params, "node")
	if node == null:
		return _router.fail("VALIDATION_ERROR", "node must be a node path string.")
	var req: Dictionary = {"expressions": exprs, "every": every, "frames": frames, "max_samples": max_samples, "max_bytes": max_bytes, "timeout_ms": timeout, "node": node}
	return await _link.ask("watch", req, int(timeout) + Link.DEFAULT_TIMEOUT_MS)
