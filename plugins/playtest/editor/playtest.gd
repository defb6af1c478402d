@tool
extends RefCounted
## Playtesting at the agent's pace: eval in the live game, freeze and step it (with an
## input timeline and step-until), wait for a predicate, watch values over frames. The
## game side is the probe's playtest half (res://addons/godot_mcp/runtime/playtest.gd);
## requests go through the runtime toolset's link (link.gd of its editor code, reached
## as DebuggerPlugin.runtime_link and called dynamically: that code is another
## toolset's and may be absent).
##
## eval: a script error raised by the agent's code (a snippet that does not compile,
## or fails while it runs) stops the game in the debugger, as every script error does
## while a debugger is attached. The editor recognises a stop whose stack runs through
## the eval, takes Godot's message, line and stack from it, lets the game go on
## (the debugger's continue) and answers VALIDATION_ERROR with them.

const CommandRouter := preload("res://addons/godot_mcp/command_router.gd")
const DebuggerPlugin := preload("res://addons/godot_mcp/runtime/debugger_plugin.gd")
const Record := preload("record.gd")

const DEFAULT_TIMEOUT_MS := 10000

const EVAL_PREFIX := "res://godot_mcp_eval_"
const PLAYTEST_SCRIPT := "res://addons/godot_mcp/runtime/playtest.gd"

var _router: CommandRouter = null
var _record: Record = null


func _init(router: RefCounted) -> void:
	_router = router as CommandRouter
	_record = Record.new(router)


func get_commands() -> Dictionary:
	return {
		"cmd_playtest_eval": {"class": "runtime", "run": eval},
		"cmd_playtest_step": {"class": "runtime", "run": step},
		"cmd_playtest_wait_for": {"class": "runtime", "run": wait_for},
		"cmd_playtest_watch": {"class": "runtime", "run": watch},
		"cmd_playtest_controls": {"class": "runtime", "run": controls},
		"cmd_playtest_interact": {"class": "runtime", "run": interact},
		"cmd_playtest_digest": {"class": "runtime", "run": digest},
		"cmd_playtest_record": {"class": "runtime", "run": record},
	}


## {action: start|stop|discard, path, unit?, checkpoints?, overwrite?}
func record(params: Dictionary) -> Dictionary:
	return await _record.record(params, _link())


## The runtime toolset's link to the game, or null when its editor code is not loaded.
func _link() -> RefCounted:
	var l: RefCounted = DebuggerPlugin.runtime_link
	return l if l != null and is_instance_valid(l) else null


func _no_runtime() -> Dictionary:
	return _router.fail("PRECONDITION_FAILED", "The playtest tools reach the game through the runtime toolset's probe, and the runtime toolset is not enabled. Enable it (godot_enable_toolset runtime), then play the game with godot_runtime_play.", "runtime_probe")


## Sends one request to the game's probe through the runtime link.
func _ask(command: String, params: Dictionary, timeout_ms: int) -> Dictionary:
	var link: RefCounted = _link()
	if link == null:
		return _no_runtime()
	return await link.call("ask", command, params, timeout_ms)


## Tells the running game to let go of everything (this toolset is going away):
## unfreeze, release held inputs, cancel a running window. Fire and forget.
func release_game() -> void:
	_record.teardown()
	var link: RefCounted = _link()
	if link != null:
		link.call("release_game")


static func int_param(params: Dictionary, key: String, default_value: int, lo: int, hi: int) -> Variant:
	if not params.has(key) or params[key] == null:
		return default_value
	var v: Variant = params[key]
	if typeof(v) == TYPE_FLOAT and is_finite(v as float) and (v as float) == floorf(v as float):
		v = int(v)
	if typeof(v) != TYPE_INT or int(v) < lo or int(v) > hi:
		return null
	return v


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
	var timeout: Variant = int_param(params, "timeout_ms", 5000, 100, 60000)
	if timeout == null:
		return _router.fail("VALIDATION_ERROR", "timeout_ms must be an integer from 100 to 60000.")
	var req: Dictionary = {"code": code, "node": node, "mode": mode if mode != "" else "auto", "timeout_ms": timeout}
	return await _ask_eval(req, int(timeout) + DEFAULT_TIMEOUT_MS)


## Like Link.ask, but a script error stop that runs through the eval is the eval's
## error: answered with Godot's message, line and stack, and the game goes on.
func _ask_eval(req: Dictionary, timeout_ms: int) -> Dictionary:
	var link: RefCounted = _link()
	if link == null:
		return _no_runtime()
	var monitor: DebuggerPlugin = link.get("monitor")
	var sid: int = monitor.active_session()
	if sid >= 0 and monitor.session_state(sid)["breaked"]:
		await link.call("await_break_stack", sid)
	var pre: Dictionary = link.call("precondition", sid)
	if not pre.is_empty():
		return pre
	var id: int = monitor.send_to_game(sid, "eval", req)
	var deadline: int = Time.get_ticks_msec() + timeout_ms
	var error: Dictionary = {}
	while true:
		var reply: Variant = monitor.take_reply(id)
		if reply != null:
			var r: Dictionary = reply
			if typeof(r.get("ok")) != TYPE_BOOL:
				return _router.fail("INTERNAL_ERROR", "The game's probe sent a malformed answer. Reinstall the addon (godot-mcp addon install) and play the game again.")
			if not error.is_empty():
				return _router.fail("VALIDATION_ERROR", _error_hint(error, r))
			if not r["ok"] and r.has("line_map") and str(r.get("error", "")) == "VALIDATION_ERROR":
				# The snippet did not compile but no stop was seen (should not happen).
				return _router.fail("VALIDATION_ERROR", str(r.get("hint", "The snippet does not compile.")) + " Godot's message is in godot_runtime_get_errors.")
			if r["ok"]:
				(r["result"] as Dictionary).erase("eval_path")
				(r["result"] as Dictionary).erase("line_map")
			r.erase("eval_path")
			r.erase("line_map")
			return r
		var st: Dictionary = monitor.session_state(sid)
		if not st["active"]:
			monitor.forget(id)
			return _router.fail("PRECONDITION_FAILED", "The game stopped before the eval answered.%s Play it again with godot_runtime_play." % link.call("last_errors_hint", 0), "runtime_probe")
		if st["breaked"]:
			await link.call("await_break_stack", sid)
			st = monitor.session_state(sid)
			var info: Dictionary = link.call("break_info", st)
			if info["break_reason"] == "script_error" and _through_eval(info["break_stack"]) and error.is_empty():
				error = info
				monitor.get_session(sid).send_message("continue", [])
				# Wait for the game to leave the debugger, then for the probe's answer.
				var until: int = Time.get_ticks_msec() + 5000
				while monitor.session_state(sid)["breaked"] and monitor.session_state(sid)["active"] and Time.get_ticks_msec() < until:
					await (Engine.get_main_loop() as SceneTree).process_frame
				continue
			monitor.forget(id)
			return _router.fail("PRECONDITION_FAILED", link.call("break_hint", st), "game_not_breaked")
		if Time.get_ticks_msec() >= deadline:
			monitor.forget(id)
			return _router.fail("TIMEOUT", "The eval did not answer within %d ms: it may be awaiting something that does not come, or stuck in game code it called. The game may still be running it; check with godot_runtime_get_status (stop it with godot_runtime_stop if it hangs)." % timeout_ms)
		await (Engine.get_main_loop() as SceneTree).process_frame
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
			var v: Variant = int_param(d, k, 0, 0, 1000000)
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
	var count: Variant = int_param(params, "count", 600 if not u.is_empty() else 0, 0, 36000)
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
	var timeout: Variant = int_param(params, "timeout_ms", 10000 + int(count) * 100, 100, 600000)
	if timeout == null:
		return _router.fail("VALIDATION_ERROR", "timeout_ms must be an integer from 100 to 600000.")
	var req: Dictionary = {
		"unit": unit if unit != "" else "physics_ticks", "count": count, "inputs": inputs,
		"report": report, "then": then if then != "" else "freeze", "node": node, "timeout_ms": timeout,
	}
	# Replay: the recording's inputs (and count and unit unless given) and its checkpoints.
	var replay: Variant = _str(params, "replay")
	if replay == null:
		return _router.fail("VALIDATION_ERROR", "replay must be a res:// path of a recording.")
	var recorded: Dictionary = {}
	if replay != "":
		if not (inputs as Array).is_empty():
			return _router.fail("VALIDATION_ERROR", "Give replay or inputs, not both: replay takes its inputs from the recording.")
		var loaded: Dictionary = _record.load_recording(str(replay))
		if loaded.has("fail"):
			return loaded["fail"]
		recorded = loaded["doc"]
		if unit != "" and unit != recorded["unit"]:
			return _router.fail("VALIDATION_ERROR", "unit is %s but the recording %s counts %s; leave unit out to replay it." % [unit, replay, recorded["unit"]])
		req["unit"] = recorded["unit"]
		req["inputs"] = recorded.get("inputs", [])
		req["checkpoints"] = recorded.get("checkpoints", [])
		if params.get("count") == null:
			req["count"] = int(recorded["frames"])
			if params.get("timeout_ms") == null:
				req["timeout_ms"] = mini(600000, 10000 + int(recorded["frames"]) * 100)
		timeout = req["timeout_ms"]
	if not u.is_empty():
		req["until"] = u
	var play: Variant = _str(params, "play")
	if play == null:
		return _router.fail("VALIDATION_ERROR", "play must be \"main\", \"current\" or a res:// scene path.")
	if play == "":
		return _replayed(await _ask("step", req, int(timeout) + DEFAULT_TIMEOUT_MS), recorded, str(replay))
	# Start frozen: the runtime toolset's play, with the probe told to freeze the game
	# before its first frame; then the window runs from there.
	var link: RefCounted = _link()
	if link == null:
		return _no_runtime()
	var starter: Variant = link.get("play_game")
	if typeof(starter) != TYPE_CALLABLE or not (starter as Callable).is_valid():
		return _router.fail("PRECONDITION_FAILED", "The runtime toolset's editor code is older than the playtest toolset's and cannot start a game frozen. Reinstall both toolsets' editor files (disable and enable them), then retry.", "runtime_probe")
	var started: Dictionary = await (starter as Callable).call({"scene": play, "frozen": true})
	if not bool(started.get("ok", false)):
		return started
	var st: Dictionary = started["result"]
	if not bool(st.get("probe_connected", false)):
		return _router.fail("PRECONDITION_FAILED", "The game started but its probe did not report in: %s" % str(st.get("note", "it is stopped in the debugger.")), "game_not_breaked")
	var r: Dictionary = _replayed(await _ask("step", req, int(timeout) + DEFAULT_TIMEOUT_MS), recorded, str(replay))
	if bool(r.get("ok", false)):
		(r["result"] as Dictionary)["started"] = {
			"scene": st.get("scene", ""), "pid": st.get("pid", 0), "restarted": st.get("restarted", false),
			"headless": st.get("headless", false), "output_cursor": st.get("output_cursor", 0), "errors_cursor": st.get("errors_cursor", 0),
		}
	return r


## A step's answer with a replay's checkpoints compared to the recording: divergence
## and checkpoints_checked; a refusal names the recording.
func _replayed(r: Dictionary, recorded: Dictionary, path: String) -> Dictionary:
	if recorded.is_empty():
		return r
	if not bool(r.get("ok", false)):
		if str(r.get("error", "")) == "VALIDATION_ERROR":
			r["hint"] = "In the recording %s: %s" % [path, r.get("hint", "")]
		return r
	var res: Dictionary = r["result"]
	var cmp: Dictionary = Record.compare(recorded.get("checkpoints", []), res.get("checkpoints", []), res.get("checkpoints_not_reached", []), int(res.get("stepped", 0)))
	res.erase("checkpoints")
	res.erase("checkpoints_not_reached")
	res["replay"] = path
	res["divergence"] = cmp["divergence"]
	res["checkpoints_checked"] = cmp["checked"]
	return r


## {text?, class?, under?, all?, max?}
func controls(params: Dictionary) -> Dictionary:
	for k: String in ["text", "class", "under"]:
		if _str(params, k) == null:
			return _router.fail("VALIDATION_ERROR", "%s must be a string." % k)
	var most: Variant = int_param(params, "max", 200, 1, 2000)
	if most == null:
		return _router.fail("VALIDATION_ERROR", "max must be an integer from 1 to 2000.")
	var req: Dictionary = {"text": _str(params, "text"), "class": _str(params, "class"), "under": _str(params, "under"), "all": params.get("all") == true, "max": most}
	return await _ask("controls", req, DEFAULT_TIMEOUT_MS)


## {action, node?, text?, button?, to?, by?, amount?, value?, frames?}
func interact(params: Dictionary) -> Dictionary:
	for k: String in ["action", "node", "text", "button", "value"]:
		if _str(params, k) == null:
			return _router.fail("VALIDATION_ERROR", "%s must be a string." % k)
	var amount: Variant = int_param(params, "amount", 3, -100, 100)
	var frames: Variant = int_param(params, "frames", 8, 1, 600)
	if amount == null or frames == null:
		return _router.fail("VALIDATION_ERROR", "amount must be an integer from -100 to 100 and frames from 1 to 600.")
	var req: Dictionary = params.duplicate()
	req["amount"] = amount
	req["frames"] = frames
	return await _ask("interact", req, DEFAULT_TIMEOUT_MS + int(frames) * 100)


## {until, report?, max_frames?, timeout_ms?, node?}
func wait_for(params: Dictionary) -> Dictionary:
	var u: Dictionary = _until(params, true)
	if u.has("error"):
		return _router.fail("VALIDATION_ERROR", str(u["error"]))
	var report: Variant = _strings(params, "report", 16)
	if report == null:
		return _router.fail("VALIDATION_ERROR", "report must be a list of at most 16 non-empty expressions.")
	var frames: Variant = int_param(params, "max_frames", 600, 1, 36000)
	var timeout: Variant = int_param(params, "timeout_ms", 10000, 100, 120000)
	if frames == null or timeout == null:
		return _router.fail("VALIDATION_ERROR", "max_frames must be 1..36000 and timeout_ms 100..120000.")
	var node: Variant = _str(params, "node")
	if node == null:
		return _router.fail("VALIDATION_ERROR", "node must be a node path string.")
	var req: Dictionary = {"until": u, "report": report, "max_frames": frames, "timeout_ms": timeout, "node": node}
	return await _ask("wait", req, int(timeout) + DEFAULT_TIMEOUT_MS)


## {expressions, every?, frames?, max_samples?, max_bytes?, timeout_ms?, node?}
func watch(params: Dictionary) -> Dictionary:
	var exprs: Variant = _strings(params, "expressions", 16)
	if exprs == null or (exprs as Array).is_empty():
		return _router.fail("VALIDATION_ERROR", "expressions must list 1 to 16 non-empty expressions.")
	var every: Variant = int_param(params, "every", 1, 1, 600)
	var frames: Variant = int_param(params, "frames", 60, 1, 36000)
	var max_samples: Variant = int_param(params, "max_samples", 600, 1, 5000)
	var max_bytes: Variant = int_param(params, "max_bytes", 262144, 1024, 4194304)
	if every == null or frames == null or max_samples == null or max_bytes == null:
		return _router.fail("VALIDATION_ERROR", "every must be 1..600, frames 1..36000, max_samples 1..5000, max_bytes 1024..4194304.")
	var timeout: Variant = int_param(params, "timeout_ms", 10000 + int(frames) * 50, 100, 600000)
	if timeout == null:
		return _router.fail("VALIDATION_ERROR", "timeout_ms must be an integer from 100 to 600000.")
	var node: Variant = _str(params, "node")
	if node == null:
		return _router.fail("VALIDATION_ERROR", "node must be a node path string.")
	var req: Dictionary = {"expressions": exprs, "every": every, "frames": frames, "max_samples": max_samples, "max_bytes": max_bytes, "timeout_ms": timeout, "node": node}
	return await _ask("watch", req, int(timeout) + DEFAULT_TIMEOUT_MS)


## {groups?, max_nodes?}
func digest(params: Dictionary) -> Dictionary:
	var groups: Variant = _strings(params, "groups", 16)
	var most: Variant = int_param(params, "max_nodes", 40, 1, 500)
	if groups == null or most == null:
		return _router.fail("VALIDATION_ERROR", "groups must be at most 16 group names and max_nodes 1..500.")
	return await _ask("digest", {"groups": groups, "max_nodes": most}, DEFAULT_TIMEOUT_MS)
