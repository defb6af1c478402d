@tool
extends EditorDebuggerPlugin
## The debugger toolset's end of the editor debugger: what each game session is
## doing (running, stopped and why, the stack) and the replies to the core
## debugger requests this toolset sends while a game is stopped.
##
## Godot's own debugger panel (ScriptEditorDebugger) receives every message; its
## "debug_data" signal hands each one to us too (plugins get no capture for core
## messages), through the core addon's one hook of it (lib/debugger_feed.gd). The panel itself asks for the stack on every stop and, whenever a
## stack frame gets selected, for that frame's variables. Replies carry no request
## id, so the requests of both are kept in one queue in the order they were sent:
## the panel's are seen through its "stack_frame_selected" signal, which it emits
## right before sending. The game answers strictly in order, so each block of
## variables belongs to the queue's head.

const DebuggerFeed := preload("res://addons/godot_mcp/lib/debugger_feed.gd")

const ERROR_KEEP := 50
## Request ids of this toolset's questions to the game's probe, above the runtime
## toolset's (which count from 1).
const OBJECTS_ID_BASE := 1 << 40

## session id -> state, see _session().
var _sessions: Dictionary = {}
var _subscribed: bool = false # to lib/debugger_feed.gd
var _error_seq: int = 0
var _next_eval: int = 1
var _next_objects: int = 0


func _has_capture(_capture: String) -> bool:
	return false


func _setup_session(session_id: int) -> void:
	var session: EditorDebuggerSession = get_session(session_id)
	if session == null:
		return
	_session(session_id)
	session.started.connect(_on_started.bind(session_id))
	session.stopped.connect(_on_stopped.bind(session_id))
	_hook_debuggers()


## Receives every debugger panel's messages and stack-frame selections
## (lib/debugger_feed.gd), and hooks panels created since.
func _hook_debuggers() -> void:
	if not _subscribed:
		_subscribed = true
		DebuggerFeed.subscribe(_on_debug_data, _on_frame_selected)
	else:
		DebuggerFeed.rescan()


## Stops receiving them (the toolset is going away).
func teardown() -> void:
	if _subscribed:
		_subscribed = false
		DebuggerFeed.unsubscribe(_on_debug_data, _on_frame_selected)


func _session(session_id: int) -> Dictionary:
	if not _sessions.has(session_id):
		_sessions[session_id] = _fresh()
	return _sessions[session_id]


func _fresh() -> Dictionary:
	return {
		"breaked": false, # stopped in the debugger
		"break_id": 0, # counts stops, so a waiter sees a new one
		"exits": 0, # counts resumes
		"message": "", # what Godot said when it stopped ("Breakpoint", the error, "")
		"can_continue": true,
		"stack": [], # [{file, line, function}], innermost first
		"stack_ready": false, # the stack of the current stop arrived
		"resumed_by": "", # the command this toolset last resumed with (step/next/continue/break)
		"stopped_by": "", # resumed_by as it was when the current stop happened
		"vars": {}, # frame -> [[name, scope, variant type, value], ...] of the current stop
		"queue": [], # outstanding variable requests: {owner: "editor"} | {owner: "us", frame, break_id}
		"block": {}, # the variable block being received: {entry, remaining, vars}
		"evals": [], # outstanding evaluations: {id, expression, break_id}
		"eval_results": {}, # id -> [name, kind, variant type, value]
		"probe": false, # the game's godot-mcp probe said hello
		"objects": {}, # describe request id -> the probe's answer
		"ended": false,
	}


func _on_started(session_id: int) -> void:
	_sessions[session_id] = _fresh()
	_hook_debuggers()


func _on_stopped(session_id: int) -> void:
	var s: Dictionary = _session(session_id)
	s["breaked"] = false
	s["ended"] = true
	s["exits"] = int(s["exits"]) + 1
	_drop_requests(s)


func _drop_requests(s: Dictionary) -> void:
	s["queue"] = []
	s["block"] = {}
	s["evals"] = []


func _on_frame_selected(session_id: int) -> void:
	# The panel sends get_stack_frame_vars right after this signal.
	(_session(session_id)["queue"] as Array).append({"owner": "editor"})


func _on_debug_data(msg: String, data: Array, session_id: int) -> void:
	var s: Dictionary = _session(session_id)
	match msg:
		"debug_enter":
			s["breaked"] = true
			s["break_id"] = int(s["break_id"]) + 1
			s["can_continue"] = bool(data[0]) if data.size() > 0 else true
			s["message"] = str(data[1]) if data.size() > 1 else ""
			s["stack"] = []
			s["stack_ready"] = false
			s["vars"] = {}
			s["stopped_by"] = s["resumed_by"]
			s["resumed_by"] = ""
		"debug_exit":
			s["breaked"] = false
			s["exits"] = int(s["exits"]) + 1
			s["stack"] = []
			s["stack_ready"] = false
			s["vars"] = {}
			_drop_requests(s)
		"stack_dump":
			var stack: Array = []
			var idx: int = 1
			while idx + 2 < data.size():
				stack.append({"file": str(data[idx]), "line": int(data[idx + 1]), "function": str(data[idx + 2])})
				idx += 3
			if s["breaked"]:
				s["stack"] = stack
				s["stack_ready"] = true
		"stack_frame_vars":
			var queue: Array = s["queue"]
			var entry: Dictionary = queue.pop_front() if not queue.is_empty() else {"owner": "editor"}
			var n: int = int(data[0]) if data.size() > 0 else 0
			s["block"] = {"entry": entry, "remaining": n, "vars": []}
			if n <= 0:
				_finish_block(s)
		"stack_frame_var":
			var block: Dictionary = s["block"]
			if block.is_empty():
				return
			(block["vars"] as Array).append(data)
			block["remaining"] = int(block["remaining"]) - 1
			if int(block["remaining"]) <= 0:
				_finish_block(s)
		"godot_mcp:hello":
			s["probe"] = true
		"godot_mcp:reply":
			# Only the answers to this toolset's requests (ids from OBJECTS_ID_BASE); the
			# runtime toolset reads its own through its capture.
			if data.size() >= 2 and typeof(data[1]) == TYPE_DICTIONARY and int(data[0]) >= OBJECTS_ID_BASE:
				(s["objects"] as Dictionary)[int(data[0])] = data[1]
		"evaluation_return":
			var name: String = str(data[0]) if data.size() > 0 else ""
			var evals: Array = s["evals"]
			for i: int in range(evals.size()):
				if str(evals[i]["expression"]) == name:
					(s["eval_results"] as Dictionary)[int(evals[i]["id"])] = data
					evals.remove_at(i)
					break
		"error":
			if data.size() >= 9:
				_error_seq += 1
				var errors: Array = s.get("errors", [])
				var text: String = str(data[8]) if str(data[8]) != "" else str(data[7])
				errors.append({"seq": _error_seq, "message": text, "warning": bool(data[9]) if data.size() > 9 else false})
				if errors.size() > ERROR_KEEP:
					errors.pop_front()
				s["errors"] = errors


func _finish_block(s: Dictionary) -> void:
	var block: Dictionary = s["block"]
	s["block"] = {}
	var entry: Dictionary = block["entry"]
	if str(entry.get("owner", "")) == "us" and int(entry["break_id"]) == int(s["break_id"]):
		(s["vars"] as Dictionary)[int(entry["frame"])] = block["vars"]


# --- queries and requests, for the handlers ------------------------------------------


## The session of the running game: the first active one, else -1.
func active_session() -> int:
	var ids: Array = _sessions.keys()
	ids.sort()
	for id: Variant in ids:
		var session: EditorDebuggerSession = get_session(int(id))
		if session != null and session.is_active():
			return int(id)
	return -1


## The state of a session (a copy); {} for none.
func state(session_id: int) -> Dictionary:
	if session_id < 0:
		return {}
	var s: Dictionary = _session(session_id)
	var session: EditorDebuggerSession = get_session(session_id)
	var out: Dictionary = {
		"breaked": bool(s["breaked"]) and session != null and session.is_active(),
		"break_id": int(s["break_id"]),
		"exits": int(s["exits"]),
		"message": str(s["message"]),
		"can_continue": bool(s["can_continue"]),
		"stack": (s["stack"] as Array).duplicate(true),
		"stack_ready": bool(s["stack_ready"]),
		"stopped_by": str(s["stopped_by"]),
		"active": session != null and session.is_active(),
	}
	return out


## Sends a core debugger command to the game ("step", "next", "continue", "break").
func resume(session_id: int, command: String) -> void:
	var s: Dictionary = _session(session_id)
	s["resumed_by"] = command
	get_session(session_id).send_message(command, [])


## Asks the game for the stack again (the panel asks on every stop; this is the
## fallback when its answer does not come).
func request_stack(session_id: int) -> void:
	get_session(session_id).send_message("get_stack_dump", [])


## The variables of [param frame] of the current stop, once they arrived: an Array
## of [name, scope (0 local, 1 member, 2 global), variant type, value]; null before.
func frame_vars(session_id: int, frame: int) -> Variant:
	var vars: Dictionary = _session(session_id)["vars"]
	return vars.get(frame, null)


## Asks for the variables of [param frame] of the current stop.
func request_vars(session_id: int, frame: int) -> void:
	var s: Dictionary = _session(session_id)
	(s["queue"] as Array).append({"owner": "us", "frame": frame, "break_id": int(s["break_id"])})
	get_session(session_id).send_message("get_stack_frame_vars", [frame])


## Evaluates [param expression] in [param frame]; returns the id for eval_result().
func request_eval(session_id: int, expression: String, frame: int) -> int:
	var s: Dictionary = _session(session_id)
	var id: int = _next_eval
	_next_eval += 1
	(s["evals"] as Array).append({"id": id, "expression": expression, "break_id": int(s["break_id"])})
	get_session(session_id).send_message("evaluate", [expression, frame])
	return id


## Asks the game's probe what the objects behind [param ids] are; returns the id for
## objects_result(). Without a probe nothing answers.
func request_objects(session_id: int, ids: Array) -> int:
	_next_objects += 1
	var id: int = OBJECTS_ID_BASE + _next_objects
	get_session(session_id).send_message("godot_mcp:cmd", [id, "describe_objects", {"ids": ids}])
	return id


## The probe's answer to request [param id] ({ok, result: {objects}}), or null.
func objects_result(session_id: int, id: int) -> Variant:
	var got: Dictionary = _session(session_id)["objects"]
	if not got.has(id):
		return null
	var r: Variant = got[id]
	got.erase(id)
	return r


## Whether the session's game has a godot-mcp probe (it said hello while this toolset
## listened).
func has_probe(session_id: int) -> bool:
	return bool(_session(session_id).get("probe", false))


## The game's answer [name, 3, variant type, value] to evaluation [param id], or null.
func eval_result(session_id: int, id: int) -> Variant:
	var results: Dictionary = _session(session_id)["eval_results"]
	if not results.has(id):
		return null
	var r: Variant = results[id]
	results.erase(id)
	return r


## The newest error sequence number (errors received later have a larger one).
func error_cursor() -> int:
	return _error_seq


## Error messages of a session received after [param since].
func errors_since(session_id: int, since: int) -> Array:
	var out: Array = []
	for e: Dictionary in _session(session_id).get("errors", []):
		if int(e["seq"]) > since:
			out.append(e)
	return out
