@tool
extends RefCounted
## The error feed: the editor's and the game's new errors and warnings, numbered, read
## from a cursor (cmd_error_feed, handlers/error_handlers.gd). The server reads it
## after every tool call and attaches what is new to the call's result
## (host/mcpserver/errorfeed.go; docs/envelope.md "Errors attached to results").
##
## Where the errors come from:
## - the editor: on Godot 4.5+ a Logger (OS.add_logger) receives every error and
##   warning the engine prints, with file, line and script backtraces; on 4.4 the
##   editor's Output panel is read (lib/editor_log_errors.gd);
## - scripts changed on disk behind the editor's back (4.5+): each read compares the
##   project's .gd files' modification times with the previous read's and has Godot
##   parse and compile the changed ones into a throwaway GDScript (the editor's own
##   copy is left as it is), so their parse errors are printed, caught by the Logger
##   and reported even when the editor does not reload them (a headless editor's scan
##   does not);
## - the game: the editor's debugger messages ("error" for push_error, push_warning and
##   engine errors; "debug_enter" when a script error stops the game), read from every
##   ScriptEditorDebugger's debug_data signal (lib/debugger_feed.gd).

const Compat := preload("compat.gd")
const DebuggerPlugin := preload("../runtime/debugger_plugin.gd")
const DebuggerFeed := preload("debugger_feed.gd")
const EditorLogErrors := preload("editor_log_errors.gd")

const KEEP := 300 # entries kept; older ones are dropped (counted)
const MAX_MESSAGE := 1000
const REPEAT_WINDOW_MS := 1000 # the same error again within this is counted on the first
const MAX_SCRIPTS := 5000 # .gd files watched
const MAX_CHECKS := 20 # changed scripts parsed per read; the others at the next
const HOOK_EVERY_MS := 2000 # how often a read looks for new debugger sessions

## The Logger subclass, compiled at run time: a file that extends Logger would not
## parse on Godot 4.4. Called from any thread: it only queues under its mutex. The
## location is the script frame's when the engine's is C++ source (push_error, an
## engine error a script caused). @tool: in the editor only tool scripts run.
const LOGGER_SOURCE := """@tool
extends Logger

var mutex: Mutex = Mutex.new()
var queue: Array = []
var lost: int = 0


func _log_error(function: String, file: String, line: int, code: String, rationale: String, _editor_notify: bool, error_type: int, script_backtraces: Array[ScriptBacktrace]) -> void:
	var f: String = file
	var l: int = line
	if not f.begins_with("res://"):
		for b: ScriptBacktrace in script_backtraces:
			if b != null and b.get_frame_count() > 0:
				f = b.get_frame_file(0)
				l = b.get_frame_line(0)
				break
	var m: String = rationale if rationale != "" else code
	mutex.lock()
	if queue.size() < 1000:
		queue.append([error_type, f, l, m, function])
	else:
		lost += 1
	mutex.unlock()


func take() -> Array:
	mutex.lock()
	var q: Array = queue
	queue = []
	var n: int = lost
	lost = 0
	mutex.unlock()
	return [q, n]
"""

## This feed's id: a cursor from another feed (an editor restart) reads from the start.
var id: String = ""

var _entries: Array[Dictionary] = []
var _next_seq: int = 1
var _lost: int = 0 # errors the Logger could not queue
var _logger: RefCounted = null # 4.5+
var _panel: EditorLogErrors = null # 4.4
var _mtimes: Dictionary = {} # res:// path of a .gd file -> modification time at the last read
var _baseline: bool = false
var _temps: Dictionary = {} # path -> the throwaway GDScript of a script the editor has not loaded
var _last_check: Dictionary = {} # path -> the errors last reported for it by a check
var _declared: Dictionary = {} # path of a changed script -> the class_name its source declares ("" for none)
var _class_re: RegEx = RegEx.create_from_string("(?m)^class_name\\s+([A-Za-z_][A-Za-z0-9_]*)")
var _subscribed: bool = false # to lib/debugger_feed.gd
var _last_hook_ms: int = -HOOK_EVERY_MS
var _break_entry: Dictionary = {} # a game's script-error stop, waiting for its stack


func start() -> void:
	id = "%x-%x" % [int(Time.get_unix_time_from_system() * 1000.0), randi()]
	if Compat.has("logger"):
		var script: GDScript = GDScript.new()
		script.source_code = LOGGER_SOURCE
		if script.reload() == OK:
			_logger = script.new()
			OS.call("add_logger", _logger)
	else:
		_panel = EditorLogErrors.new()
		_panel.poll() # what the panel shows already is not new
	_hook_debuggers.call_deferred()
	_check_scripts.call_deferred() # the first pass only records the files as they are


func stop() -> void:
	if _logger != null:
		OS.call("remove_logger", _logger)
		_logger = null
	if _subscribed:
		_subscribed = false
		DebuggerFeed.unsubscribe(_on_debug_data)
	_temps.clear()


## What is new after cursor [param since] of feed [param feed] (another feed's cursor
## reads from the start): {feed, next_cursor, entries (at most [param limit]: errors
## first, then warnings, each oldest first), errors, warnings, dropped}.
func read(since: int, feed: String, limit: int) -> Dictionary:
	if Time.get_ticks_msec() - _last_hook_ms >= HOOK_EVERY_MS:
		_hook_debuggers()
	_drain()
	_check_scripts()
	if feed != id:
		since = 0
	var dropped: int = 0
	if not _entries.is_empty() and since + 1 < int(_entries[0]["seq"]):
		dropped = int(_entries[0]["seq"]) - since - 1
	var errors: Array = []
	var warnings: Array = []
	for e: Dictionary in _entries:
		if int(e["seq"]) <= since:
			continue
		if e["severity"] == "warning":
			warnings.append(e)
		else:
			errors.append(e)
	var listed: Array = []
	for e: Dictionary in errors + warnings:
		if listed.size() >= limit:
			break
		var out: Dictionary = {"severity": e["severity"], "source": e["source"], "message": e["message"]}
		if str(e["file"]) != "":
			out["file"] = e["file"]
			if int(e["line"]) > 0:
				out["line"] = e["line"]
		if int(e["repeats"]) > 0:
			out["repeats"] = e["repeats"]
		listed.append(out)
	return {"feed": id, "next_cursor": _next_seq - 1, "entries": listed, "errors": errors.size(), "warnings": warnings.size(), "dropped": dropped + _lost}


## Adds an entry (or counts it on the same one added within REPEAT_WINDOW_MS) and
## returns it.
func _add(severity: String, source: String, file: String, line: int, message: String) -> Dictionary:
	message = message.strip_edges()
	if message.length() > MAX_MESSAGE:
		message = message.substr(0, MAX_MESSAGE) + "…"
	var now: int = Time.get_ticks_msec()
	for i: int in range(_entries.size() - 1, maxi(-1, _entries.size() - 21), -1):
		var e: Dictionary = _entries[i]
		if now - int(e["at"]) > REPEAT_WINDOW_MS:
			break
		if e["severity"] == severity and e["source"] == source and e["file"] == file and int(e["line"]) == line and e["message"] == message:
			e["repeats"] = int(e["repeats"]) + 1
			return e
	var entry: Dictionary = {"seq": _next_seq, "severity": severity, "source": source, "file": file, "line": line, "message": message, "repeats": 0, "at": now}
	_next_seq += 1
	_entries.append(entry)
	if _entries.size() > KEEP:
		_entries.pop_front()
	return entry


## Moves what the Logger queued (or the panel shows anew) into the feed; returns the
## Logger's items when [param keep] (a check looks at them itself).
func _drain(keep: bool = false) -> Array:
	var items: Array = []
	if _logger != null:
		var got: Array = _logger.call("take")
		items = got[0]
		_lost += int(got[1])
	elif _panel != null:
		for e: Dictionary in _panel.poll():
			items.append([1 if e["severity"] == "warning" else 0, str(e.get("file", "")), int(e.get("line", 0)), str(e["message"]), ""])
	if keep:
		return items
	for it: Array in items:
		_add("warning" if int(it[0]) == 1 else "error", "editor", str(it[1]), int(it[2]), str(it[3]))
	return []


# --- scripts changed on disk ----------------------------------------------------------


## Parses the .gd files changed since the last read (the first read only records them).
## While the editor scans its file system (the global classes may be changing) the
## changed files wait for a later read.
func _check_scripts() -> void:
	var efs: EditorFileSystem = EditorInterface.get_resource_filesystem()
	if _baseline and efs != null and efs.is_scanning():
		return
	var now: Dictionary = {}
	_collect("res://", now)
	if not _baseline:
		_mtimes = now
		_baseline = true
		return
	var changed: PackedStringArray = []
	for p: String in now:
		if _mtimes.get(p, -1) != now[p]:
			changed.append(p)
	for p: String in _mtimes:
		if not now.has(p):
			_last_check.erase(p)
			_temps.erase(p)
			_declared.erase(p)
	_mtimes = now
	if changed.is_empty() or _logger == null:
		return # without a Logger a check's errors have no place (Godot 4.4)
	var sources: Dictionary = {}
	for i: int in changed.size():
		if i >= MAX_CHECKS:
			_mtimes[changed[i]] = -1 # next time
			continue
		var source: String = FileAccess.get_file_as_string(changed[i])
		sources[changed[i]] = source
		var m: RegExMatch = _class_re.search(source)
		_declared[changed[i]] = m.get_string(1) if m != null else ""
	var pending: PackedStringArray = _unregistered_classes()
	for p: String in sources:
		_check_script(p, sources[p], pending)


## The class_names that changed scripts declare but the editor has not registered yet
## (it has not scanned them): a script that uses one fails to compile now, and will
## not once the editor knows the class, so such errors are not reported.
func _unregistered_classes() -> PackedStringArray:
	var known: Dictionary = {}
	for c: Dictionary in ProjectSettings.get_global_class_list():
		known[str(c.get("class", ""))] = true
	var out: PackedStringArray = []
	for p: String in _declared:
		var n: String = _declared[p]
		if n != "" and not known.has(n):
			out.append(n)
	return out


## Has Godot parse and compile [param path] as it is on disk into a throwaway GDScript:
## its errors are printed (caught by the Logger), and reported unless the same ones
## were already reported for this file.
func _check_script(path: String, source: String, pending: PackedStringArray) -> void:
	_drain()
	var script: GDScript = null
	if ResourceLoader.has_cached(path):
		# The editor's own copy stays as it is; this one is never cached: the
		# editor's copy holds the path in both caches.
		_temps.erase(path)
		script = GDScript.new()
		script.set_path_cache(path)
	else:
		# Godot caches the first script compiled at a path it has not loaded yet
		# (GDScriptCache); reusing the same object keeps that cached copy current.
		script = _temps.get(path)
		if script == null:
			script = GDScript.new()
			script.set_path_cache(path)
			_temps[path] = script
	script.source_code = source
	var err: Error = script.reload()
	var found: Array = []
	for it: Array in _drain(true):
		var file: String = str(it[1])
		var msg: String = str(it[3])
		var own: bool = (file == path or file == "built-in" or file == "") and (msg.begins_with("Parse Error") or msg.begins_with("Compile Error"))
		if own and file != path and msg.contains("hides a global script class"):
			continue # no path known to the parser (an engine without GDScript.set_path_cache): not an error of the file
		if own and _names_any(msg, pending):
			continue # it uses a class the editor has not registered yet
		if own:
			found.append([int(it[2]), msg])
		else:
			_add("warning" if int(it[0]) == 1 else "error", "editor", file, int(it[2]), msg)
	if err == OK or found.is_empty():
		_last_check.erase(path)
		return
	var signature: String = JSON.stringify(found)
	if _last_check.get(path, "") == signature:
		return
	_last_check[path] = signature
	for f: Array in found:
		if not _reported_lately(path, int(f[0]), str(f[1])):
			_add("error", "editor", path, int(f[0]), str(f[1]))


## Whether [param message] names one of [param classes] ("Name").
static func _names_any(message: String, classes: PackedStringArray) -> bool:
	for n: String in classes:
		if message.contains("\"%s\"" % n):
			return true
	return false


## Whether the editor itself reported this error within the last 30 s (it reloaded
## the script): not reported twice.
func _reported_lately(file: String, line: int, message: String) -> bool:
	var now: int = Time.get_ticks_msec()
	for i: int in range(_entries.size() - 1, -1, -1):
		var e: Dictionary = _entries[i]
		if now - int(e["at"]) > 30000:
			return false
		if e["file"] == file and int(e["line"]) == line and e["message"] == message.strip_edges():
			return true
	return false


## The .gd files under [param dir] with their modification times, hidden folders,
## folders with a .gdignore and godot-mcp's own addon folders left out.
func _collect(dir: String, out: Dictionary) -> void:
	if out.size() >= MAX_SCRIPTS:
		return
	if dir != "res://" and FileAccess.file_exists(dir.path_join(".gdignore")):
		return
	var d: DirAccess = DirAccess.open(dir)
	if d == null:
		return
	for f: String in d.get_files():
		if f.get_extension() == "gd" and out.size() < MAX_SCRIPTS:
			var p: String = dir.path_join(f)
			out[p] = FileAccess.get_modified_time(p)
	for sub: String in d.get_directories():
		if sub.begins_with(".") or (dir == "res://addons" and sub.begins_with("godot_mcp")):
			continue
		_collect(dir.path_join(sub), out)


# --- the game -----------------------------------------------------------------------


## Receives every debugger panel's messages (lib/debugger_feed.gd), and hooks
## panels created since.
func _hook_debuggers() -> void:
	_last_hook_ms = Time.get_ticks_msec()
	if not _subscribed:
		_subscribed = true
		DebuggerFeed.subscribe(_on_debug_data)
	else:
		DebuggerFeed.rescan()


func _on_debug_data(msg: String, data: Array, _session: int) -> void:
	match msg:
		"error":
			var e: Dictionary = DebuggerPlugin.error_entry(data, 0)
			if not e.is_empty():
				_add(str(e["kind"]), "game", str(e.get("file", "")), int(e.get("line", 0)), str(e["message"]))
		"debug_enter":
			var reason: String = str(data[1]) if data.size() > 1 else ""
			_break_entry = {}
			if DebuggerPlugin.break_kind(reason, []) == "script_error":
				_break_entry = _add("error", "game", "", 0, reason)
		"stack_dump":
			# The stack of the stop: [n, file, line, function, ...]; the top frame is
			# where the script error happened.
			if not _break_entry.is_empty() and data.size() >= 3 and str(_break_entry["file"]) == "":
				_break_entry["file"] = str(data[1])
				_break_entry["line"] = int(data[2])
			_break_entry = {}
		"debug_exit":
			_break_entry = {}
