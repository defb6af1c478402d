@tool
extends EditorDebuggerPlugin
## godot-mcp's end of the editor debugger: watches every game the editor runs.
##
## - Output and errors: every "output" and "error" message a game sends to the
##   editor's debugger is kept in two bounded ring buffers with a sequence number
##   each, so an agent reads them with a cursor and never misses or repeats a line.
## - The probe (runtime/probe.gd, an autoload in the game) reports in with
##   "godot_mcp:hello" and answers requests with "godot_mcp:reply".
## - Breaks (a script error or a breakpoint stops the game in the debugger) are
##   tracked with their reason and stack, so commands can refuse with game_not_breaked.
##
## Output lines reach the editor through Godot's own debugger messages, read from
## the session's ScriptEditorDebugger "debug_data" signal (the plugin API has no
## capture for core messages) through the one hook of it, lib/debugger_feed.gd.

const DebuggerFeed := preload("../lib/debugger_feed.gd")

const CAPTURE := "godot_mcp"
const OUTPUT_CAPACITY := 4000
const ERRORS_CAPACITY := 1000
const MAX_TEXT := 4000

## session id -> {active, breaked, break_reason, break_stack, probe, pid, started_ms, stopped_ms}
var _sessions: Dictionary = {}
var _subscribed: bool = false # to lib/debugger_feed.gd
var _replies: Dictionary = {} # request id -> response Dictionary
var _waiting: Dictionary = {} # request id -> session id
var _next_request: int = 1
## Stops a toolset brought about itself and named (session id -> reason): the
## debugger toolset's break lands on the next script line with a step, which Godot
## reports like any step. Cleared when the game runs on. Static: the toolset reaches
## it through this script, not through this plugin's instance.
static var _named_stops: Dictionary = {}
## The runtime toolset's link to the game (its editor code's link.gd) while that code
## is loaded, else null: the playtest toolset reaches the game through it.
static var runtime_link: RefCounted = null
## Who listens to the probe's "godot_mcp:event" messages (the playtest toolset's
## recorder streams a recording so): Callables (kind: String, data: Variant,
## session_id: int), also called with kind "session_stopped" when a game stops.
## Static, like runtime_link: a toolset adds itself and removes itself on teardown.
static var event_listeners: Array[Callable] = []

var _out: Array = []
var _out_head: int = 0 # index of the oldest entry once the ring is full
var _out_next: int = 1 # seq the next entry gets
var _err: Array = []
var _err_head: int = 0
var _err_next: int = 1


func _has_capture(capture: String) -> bool:
	return capture == CAPTURE


func _capture(message: String, data: Array, session_id: int) -> bool:
	var s: Dictionary = _session(session_id)
	match message:
		"godot_mcp:hello":
			var info: Dictionary = data[0] if data.size() > 0 and typeof(data[0]) == TYPE_DICTIONARY else {}
			info["connected_ms"] = Time.get_ticks_msec()
			s["probe"] = info
			if info.has("pid"):
				s["pid"] = int(info["pid"])
		"godot_mcp:reply":
			if data.size() >= 2 and typeof(data[1]) == TYPE_DICTIONARY:
				var id: int = int(data[0])
				if _waiting.has(id):
					_waiting.erase(id)
					_replies[id] = data[1]
		"godot_mcp:event":
			if data.size() >= 2 and typeof(data[0]) == TYPE_STRING:
				_notify(str(data[0]), data[1], session_id)
	return true


static func _notify(kind: String, data: Variant, session_id: int) -> void:
	for cb: Callable in event_listeners.duplicate():
		if cb.is_valid():
			cb.call(kind, data, session_id)


func _setup_session(session_id: int) -> void:
	var session: EditorDebuggerSession = get_session(session_id)
	if session == null:
		return
	_session(session_id)
	session.started.connect(_on_started.bind(session_id))
	session.stopped.connect(_on_stopped.bind(session_id))
	session.continued.connect(_on_continued.bind(session_id))
	_hook_debuggers()


## Receives every debugger panel's messages (lib/debugger_feed.gd), and hooks
## panels created since.
func _hook_debuggers() -> void:
	if not _subscribed:
		_subscribed = true
		DebuggerFeed.subscribe(_on_debug_data)
	else:
		DebuggerFeed.rescan()


## Stops receiving the debugger panels' messages (the plugin is going away).
func teardown() -> void:
	if _subscribed:
		_subscribed = false
		DebuggerFeed.unsubscribe(_on_debug_data)


func _session(session_id: int) -> Dictionary:
	if not _sessions.has(session_id):
		_sessions[session_id] = {"active": false, "breaked": false, "break_reason": "", "break_stack": [], "probe": {}, "pid": 0, "started_ms": 0, "stopped_ms": 0, "scene": ""}
	return _sessions[session_id]


func _on_started(session_id: int) -> void:
	var s: Dictionary = _session(session_id)
	s["active"] = true
	s["breaked"] = false
	s["break_reason"] = ""
	s["break_stack"] = []
	s["probe"] = {}
	s["pid"] = 0
	s["started_ms"] = Time.get_ticks_msec()
	s["scene"] = EditorInterface.get_playing_scene()
	_hook_debuggers()
	_push_output({"kind": "session", "text": "game started: %s" % s["scene"], "session": session_id})


func _on_stopped(session_id: int) -> void:
	_named_stops.erase(session_id)
	var s: Dictionary = _session(session_id)
	var was_active: bool = s["active"]
	s["active"] = false
	s["breaked"] = false
	s["probe"] = {}
	s["stopped_ms"] = Time.get_ticks_msec()
	for id: Variant in _waiting.keys():
		if int(_waiting[id]) == session_id:
			_waiting.erase(id)
	if was_active:
		_push_output({"kind": "session", "text": "game stopped: %s" % s["scene"], "session": session_id})
	_notify("session_stopped", null, session_id)


func _on_continued(session_id: int) -> void:
	_named_stops.erase(session_id)
	var s: Dictionary = _session(session_id)
	s["breaked"] = false
	s["break_reason"] = ""
	s["break_stack"] = []


func _on_debug_data(msg: String, data: Array, session_id: int) -> void:
	match msg:
		"output":
			if data.size() < 2:
				return
			var lines: PackedStringArray = data[0]
			var types: PackedInt32Array = data[1]
			for i: int in range(mini(lines.size(), types.size())):
				var kind: String = "log"
				match types[i]:
					1:
						kind = "error" # printerr()
					2:
						kind = "rich"
				_push_output({"kind": kind, "text": lines[i], "session": session_id})
		"error":
			_on_error(data, session_id)
		"debug_enter":
			_named_stops.erase(session_id)
			var s: Dictionary = _session(session_id)
			s["breaked"] = true
			s["break_reason"] = str(data[1]) if data.size() > 1 else ""
			s["break_stack"] = []
			var entry: Dictionary = {"kind": "error", "text": "game stopped in the debugger: %s" % s["break_reason"], "message": s["break_reason"], "break": true, "session": session_id}
			_push_output(entry)
			_push_error(entry.duplicate())
		"debug_exit":
			_on_continued(session_id)
		"stack_dump":
			var stack: Array = []
			if data.size() >= 1:
				var n: int = int(data[0])
				var idx: int = 1
				for _i: int in range(floori(n / 3.0)):
					if idx + 2 >= data.size():
						break
					stack.append({"file": str(data[idx]), "line": int(data[idx + 1]), "function": str(data[idx + 2])})
					idx += 3
			var s: Dictionary = _session(session_id)
			if s["breaked"]:
				s["break_stack"] = stack
				_attach_break_stack(stack)
		"set_pid":
			if data.size() >= 1:
				_session(session_id)["pid"] = int(data[0])


## The stack of a break arrives after the break itself: attach it to the newest
## break entries (still the same objects as in the rings).
func _attach_break_stack(stack: Array) -> void:
	for ring: Array in [_out, _err]:
		for e: Variant in ring:
			if typeof(e) == TYPE_DICTIONARY and (e as Dictionary).get("break", false) and not (e as Dictionary).has("stack"):
				(e as Dictionary)["stack"] = stack
				if not stack.is_empty():
					(e as Dictionary)["file"] = str(stack[0]["file"])
					(e as Dictionary)["line"] = int(stack[0]["line"])
					(e as Dictionary)["function"] = str(stack[0]["function"])


func _on_error(data: Array, session_id: int) -> void:
	var entry: Dictionary = error_entry(data, session_id)
	if entry.is_empty():
		return
	_push_output(entry)
	_push_error(entry.duplicate())


## The entry of a game's "error" debugger message (Godot's OutputError): kind
## error/warning, message, file/line/function of the script frame (else of the engine
## source), stack, game_time; {} when data is not one. The core error feed
## (lib/error_feed.gd) reads game errors with it too.
static func error_entry(data: Array, session_id: int) -> Dictionary:
	if data.size() < 11:
		return {}
	var stack: Array = []
	var n: int = int(data[10])
	var idx: int = 11
	for _i: int in range(floori(n / 3.0)):
		if idx + 2 >= data.size():
			break
		stack.append({"file": str(data[idx]), "function": str(data[idx + 1]), "line": int(data[idx + 2])})
		idx += 3
	var warning: bool = bool(data[9])
	var message: String = str(data[8]) if str(data[8]) != "" else str(data[7])
	var entry: Dictionary = {
		"kind": "warning" if warning else "error",
		"text": message,
		"message": message,
		"condition": str(data[7]) if str(data[8]) != "" else "",
		"source_file": str(data[4]),
		"source_function": str(data[5]),
		"source_line": int(data[6]),
		"stack": stack,
		"session": session_id,
	}
	# Where the agent should look: the script frame when there is one, else the engine source.
	if not stack.is_empty():
		entry["file"] = stack[0]["file"]
		entry["line"] = stack[0]["line"]
		entry["function"] = stack[0]["function"]
	else:
		entry["file"] = entry["source_file"]
		entry["line"] = entry["source_line"]
		entry["function"] = entry["source_function"]
	entry["game_time"] = "%d:%02d:%02d.%03d" % [int(data[0]), int(data[1]), int(data[2]), int(data[3])]
	return entry


## Adds the lines of a game's log file (a game that died before its output reached the
## debugger) to the output, errors with their "at:" location: kind error/warning/log,
## source "log_file".
func import_game_log(lines: PackedStringArray) -> void:
	var at_re: RegEx = RegEx.create_from_string("^\\s+at:\\s*(.*?)\\s*\\((.*):(\\d+)\\)\\s*$")
	var last: Dictionary = {}
	for raw: String in lines:
		var line: String = raw.strip_edges(false, true)
		if line == "":
			continue
		var m: RegExMatch = at_re.search(line)
		if m != null and not last.is_empty() and not last.has("file"):
			last["function"] = m.get_string(1)
			last["file"] = m.get_string(2)
			last["line"] = int(m.get_string(3))
			continue
		var kind: String = "log"
		var text: String = line
		for prefix: String in ["USER SCRIPT ERROR: ", "SCRIPT ERROR: ", "USER ERROR: ", "ERROR: "]:
			if line.begins_with(prefix):
				kind = "error"
				text = line.substr(prefix.length())
				break
		for prefix: String in ["USER WARNING: ", "WARNING: "]:
			if line.begins_with(prefix):
				kind = "warning"
				text = line.substr(prefix.length())
				break
		if not last.is_empty():
			_push_error(last.duplicate())
		var entry: Dictionary = {"kind": kind, "text": text, "source": "log_file", "session": -1}
		if kind != "log":
			entry["message"] = text
		_push_output(entry)
		# _push_output keeps this very Dictionary: a following "at:" line completes it.
		last = entry if kind != "log" else {}
	if not last.is_empty():
		_push_error(last.duplicate())


# --- ring buffers -----------------------------------------------------------------------


func _clip(entry: Dictionary) -> Dictionary:
	var text: String = str(entry.get("text", ""))
	if text.length() > MAX_TEXT:
		entry["text"] = text.substr(0, MAX_TEXT) + "…[%d more characters]" % (text.length() - MAX_TEXT)
	entry["time_ms"] = Time.get_ticks_msec()
	return entry


func _push_output(entry: Dictionary) -> void:
	entry = _clip(entry)
	entry["seq"] = _out_next
	_out_next += 1
	if _out.size() < OUTPUT_CAPACITY:
		_out.append(entry)
	else:
		_out[_out_head] = entry
		_out_head = (_out_head + 1) % OUTPUT_CAPACITY


func _push_error(entry: Dictionary) -> void:
	entry = _clip(entry)
	entry["seq"] = _err_next
	_err_next += 1
	if _err.size() < ERRORS_CAPACITY:
		_err.append(entry)
	else:
		_err[_err_head] = entry
		_err_head = (_err_head + 1) % ERRORS_CAPACITY


## The cursor a reader passes to read from now on (entries with seq >= it).
func output_cursor() -> int:
	return _out_next


func errors_cursor() -> int:
	return _err_next


## Entries with seq >= since, oldest first, at most limit:
## {entries, next_cursor, truncated, dropped, oldest_cursor}.
func read_output(since: int, limit: int) -> Dictionary:
	return _read(_out, _out_head, _out_next, since, limit)


func read_errors(since: int, limit: int) -> Dictionary:
	return _read(_err, _err_head, _err_next, since, limit)


func _read(ring: Array, head: int, next_seq: int, since: int, limit: int) -> Dictionary:
	var count: int = ring.size()
	var oldest: int = next_seq - count
	var start: int = since
	var dropped: int = 0
	var reset: bool = false
	if start > next_seq:
		start = oldest # a cursor from before an editor restart: start over
		reset = true
	if start < oldest:
		dropped = oldest - maxi(start, 1) if start > 0 else 0
		start = oldest
	var entries: Array = []
	var seq: int = start
	while seq < next_seq and entries.size() < limit:
		var pos: int = (head + (seq - oldest)) % count if count > 0 else 0
		entries.append((ring[pos] as Dictionary).duplicate(true))
		seq += 1
	return {
		"entries": entries,
		"next_cursor": seq,
		"truncated": seq < next_seq,
		"dropped": dropped,
		"oldest_cursor": oldest,
		"cursor_reset": reset,
	}


# --- sessions and the probe ---------------------------------------------------------


## The session of the running game: the first active one, else -1.
func active_session() -> int:
	var ids: Array = _sessions.keys()
	ids.sort()
	for id: Variant in ids:
		if int(id) < 0:
			continue
		var session: EditorDebuggerSession = get_session(int(id))
		if session != null and session.is_active():
			return int(id)
	return -1


func session_state(session_id: int) -> Dictionary:
	if session_id < 0 or not _sessions.has(session_id):
		return {"active": false, "breaked": false, "break_reason": "", "break_stack": [], "probe": {}, "pid": 0, "started_ms": 0, "stopped_ms": 0, "scene": ""}
	var s: Dictionary = _session(session_id).duplicate(true)
	var session: EditorDebuggerSession = get_session(session_id)
	if session != null:
		s["active"] = session.is_active()
		s["breaked"] = session.is_breaked() or bool(s["breaked"])
	s["named_stop"] = named_stop(session_id) if s["breaked"] else ""
	return s


## Why a game stopped in the debugger, from what Godot said when it stopped
## (debug_enter's message) and the stack: "breakpoint", "step" (a debugger step
## landed), "breakpoint_keyword" (a `breakpoint` statement), "script_error" or
## "break_request" (the editor's Pause button or godot_debugger_break). Godot says
## "Breakpoint" for a breakpoint and a step alike: a stop on a line the editor has a
## breakpoint on is the breakpoint.
static func break_kind(message: String, stack: Array) -> String:
	match message:
		"Breakpoint Statement":
			return "breakpoint_keyword"
		"":
			return "break_request"
		"Breakpoint":
			if not stack.is_empty() and has_breakpoint(str(stack[0]["file"]), int(stack[0]["line"])):
				return "breakpoint"
			return "step"
	return "script_error"


## Names the current stop of [param session_id] (a break_kind() reason) until the game
## runs on: for a stop a toolset brought about and knows better than Godot's message.
static func name_stop(session_id: int, reason: String) -> void:
	_named_stops[session_id] = reason


## The name a toolset gave the current stop of [param session_id], or "".
static func named_stop(session_id: int) -> String:
	return str(_named_stops.get(session_id, ""))


## Whether the editor has a breakpoint at [param path]:[param line] (1-based).
static func has_breakpoint(path: String, line: int) -> bool:
	var se: ScriptEditor = EditorInterface.get_script_editor()
	return se != null and se.get_breakpoints().has("%s:%d" % [path, line])


func probe_connected(session_id: int) -> bool:
	return _sessions.has(session_id) and not (_sessions[session_id]["probe"] as Dictionary).is_empty()


## Sends a request to the probe of a session; returns its id for take_reply().
func send_to_game(session_id: int, command: String, params: Dictionary) -> int:
	var id: int = _next_request
	_next_request += 1
	_waiting[id] = session_id
	get_session(session_id).send_message(CAPTURE + ":cmd", [id, command, params])
	return id


## The probe's answer to request id, or null while there is none.
func take_reply(id: int) -> Variant:
	if not _replies.has(id):
		return null
	var r: Variant = _replies[id]
	_replies.erase(id)
	return r


## Forgets a request nobody waits for any more (timed out).
func forget(id: int) -> void:
	_waiting.erase(id)
	_replies.erase(id)
