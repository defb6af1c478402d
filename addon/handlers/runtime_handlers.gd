@tool
extends RefCounted
## Runtime toolset, editor side: play and stop the game, read its output and errors,
## and relay requests to the game-side probe (runtime/probe.gd) over the editor's
## debugger channel (runtime/debugger_plugin.gd).
##
## The probe is an autoload this file registers while the server says the runtime
## toolset is enabled (cmd_server_hello / cmd_toolsets_update), and removes when it
## is disabled or the addon goes away, putting project.godot back byte for byte when
## nobody else changed it meanwhile.
##
## Commands that need the game answer PRECONDITION_FAILED themselves: required
## runtime_probe when no game with a probe runs, game_not_breaked when the game is
## stopped in the debugger. One bridge command, one answer.

const CommandRouter := preload("../command_router.gd")
const PathGuard := preload("../path_guard.gd")
const DebuggerPlugin := preload("../runtime/debugger_plugin.gd")

const PROBE_NAME := "GodotMcpProbe"
const PROBE_SETTING := "autoload/" + PROBE_NAME
const RUN_ARGS_SETTING := "editor/run/main_run_args"
const PROJECT_FILE := "res://project.godot"
const BACKUP_FILE := "res://.godot/godot_mcp/project_godot_before_probe.json"
const DEFAULT_TIMEOUT_MS := 10000
const MAX_LIMIT := 1000
const HINT_LINES := 12

var _router: CommandRouter = null
var _monitor: DebuggerPlugin = null
var _bridge: Node = null
var _runtime_enabled: bool = false


func setup(router: CommandRouter) -> void:
	_router = router
	_monitor = DebuggerPlugin.new()
	if _router.plugin != null:
		_router.plugin.add_debugger_plugin(_monitor)
		# The bridge client is created after the handlers; hook in once it exists.
		_hook_bridge.call_deferred()


func teardown() -> void:
	if is_instance_valid(_bridge) and _bridge.is_connected("server_info_changed", _on_server_info):
		_bridge.disconnect("server_info_changed", _on_server_info)
	_bridge = null
	if _monitor != null:
		_monitor.teardown()
		if _router != null and is_instance_valid(_router.plugin):
			_router.plugin.remove_debugger_plugin(_monitor)
	_set_probe_registered(false)


func get_commands() -> Dictionary:
	return {
		"cmd_runtime_play": {"class": "runtime", "run": play},
		"cmd_runtime_stop": {"class": "runtime", "run": stop},
		"cmd_runtime_get_status": {"class": "read_only", "run": get_status},
		"cmd_runtime_get_output": {"class": "read_only", "run": get_output},
		"cmd_runtime_get_errors": {"class": "read_only", "run": get_errors},
		"cmd_runtime_get_tree": {"class": "read_only", "run": get_tree},
		"cmd_runtime_get_node": {"class": "read_only", "run": get_node},
		"cmd_runtime_set_properties": {"class": "runtime", "run": set_properties},
		"cmd_runtime_call_method": {"class": "runtime", "run": call_method},
		"cmd_runtime_input": {"class": "runtime", "run": input},
		"cmd_runtime_screenshot": {"class": "read_only", "run": screenshot},
		"cmd_runtime_get_performance": {"class": "read_only", "run": get_performance},
		"cmd_runtime_pause": {"class": "runtime", "run": pause},
		"cmd_runtime_check": {"class": "read_only", "run": check},
		"cmd_runtime_set_probe": {"class": "mutating", "run": set_probe},
	}


# --- the probe autoload -----------------------------------------------------------------


## Follows the server's enabled toolsets: the bridge client keeps them in server_info
## and emits server_info_changed on cmd_server_hello and cmd_toolsets_update.
func _hook_bridge() -> void:
	if _router == null or not is_instance_valid(_router.plugin):
		return
	for c: Node in _router.plugin.get_children():
		if c.has_signal("server_info_changed") and typeof(c.get("server_info")) == TYPE_DICTIONARY:
			_bridge = c
			c.connect("server_info_changed", _on_server_info)
			_on_server_info(c.get("server_info"))
			return


func _on_server_info(info: Dictionary) -> void:
	if not info.has("enabled_toolsets"):
		return
	var enabled: bool = false
	for t: Variant in info["enabled_toolsets"]:
		if str(t) == "runtime":
			enabled = true
	_runtime_enabled = enabled
	_set_probe_registered(enabled)


func _probe_path() -> String:
	var here: String = (get_script() as Script).resource_path # res://addons/godot_mcp/handlers/runtime_handlers.gd
	return here.get_base_dir().get_base_dir().path_join("runtime/probe.gd")


func probe_registered() -> bool:
	return str(ProjectSettings.get_setting(PROBE_SETTING, "")) == "*" + _probe_path()


## Adds or removes the probe autoload in project.godot. Directly through
## ProjectSettings (not EditorPlugin.add_autoload_singleton) so it never lands in the
## user's undo history. Returns "" or why it failed.
func _set_probe_registered(want: bool) -> String:
	var value: String = "*" + _probe_path()
	var current: Variant = ProjectSettings.get_setting(PROBE_SETTING, null)
	if want:
		if current != null and str(current) == value:
			return ""
		if not FileAccess.file_exists(_probe_path()):
			return "the probe script %s is missing; reinstall the addon (godot-mcp addon install)" % _probe_path()
		var before: String = _read_text(PROJECT_FILE)
		ProjectSettings.set_setting(PROBE_SETTING, value)
		var err: Error = ProjectSettings.save()
		if err != OK:
			ProjectSettings.set_setting(PROBE_SETTING, current)
			return "saving project.godot failed (%s)" % error_string(err)
		if current == null:
			_write_backup(before, _read_text(PROJECT_FILE))
		return ""
	if current == null or str(current) != value:
		return "" # not ours (or already gone)
	var now: String = _read_text(PROJECT_FILE)
	ProjectSettings.set_setting(PROBE_SETTING, null)
	var err2: Error = ProjectSettings.save()
	if err2 != OK:
		return "saving project.godot failed (%s)" % error_string(err2)
	# Nobody touched project.godot since the probe was added: put the original bytes back
	# (Godot's own save may format a hand-written file differently).
	var backup: Dictionary = _read_backup()
	if not backup.is_empty() and str(backup.get("after", "")) == now and str(backup.get("before", "")) != "":
		_write_text(PROJECT_FILE, str(backup["before"]))
	DirAccess.remove_absolute(ProjectSettings.globalize_path(BACKUP_FILE))
	return ""


func _read_text(path: String) -> String:
	var f: FileAccess = FileAccess.open(path, FileAccess.READ)
	if f == null:
		return ""
	return f.get_as_text()


func _write_text(path: String, text: String) -> void:
	var f: FileAccess = FileAccess.open(path, FileAccess.WRITE)
	if f != null:
		f.store_string(text)


func _write_backup(before: String, after: String) -> void:
	DirAccess.make_dir_recursive_absolute(ProjectSettings.globalize_path(BACKUP_FILE.get_base_dir()))
	_write_text(BACKUP_FILE, JSON.stringify({"before": before, "after": after}))


func _read_backup() -> Dictionary:
	if not FileAccess.file_exists(BACKUP_FILE):
		return {}
	var parsed: Variant = JSON.parse_string(_read_text(BACKUP_FILE))
	return parsed if typeof(parsed) == TYPE_DICTIONARY else {}


## {registered: bool} -> {registered, changed, path}: registers or removes the probe
## by hand (the server's toolset pushes do this automatically; tests and tools use it).
func set_probe(params: Dictionary) -> Dictionary:
	if typeof(params.get("registered")) != TYPE_BOOL:
		return _router.fail("VALIDATION_ERROR", "registered must be true or false.")
	var before: bool = probe_registered()
	var why: String = _set_probe_registered(bool(params["registered"]))
	if why != "":
		return _router.fail("INTERNAL_ERROR", "Could not change the probe autoload: %s." % why)
	return _router.ok({"registered": probe_registered(), "changed": before != probe_registered(), "path": _probe_path()})


# --- helpers ------------------------------------------------------------------------


func _tree() -> SceneTree:
	return Engine.get_main_loop() as SceneTree


func _int_param(params: Dictionary, key: String, default_value: int, lo: int, hi: int) -> Variant:
	if not params.has(key) or params[key] == null:
		return default_value
	var v: Variant = params[key]
	if typeof(v) == TYPE_FLOAT and is_finite(v as float) and (v as float) == floorf(v as float):
		v = int(v)
	if typeof(v) != TYPE_INT or int(v) < lo or int(v) > hi:
		return null
	return v


## Why the game cannot take a request now: a failure answer, or {} when it can.
func _precondition(session_id: int) -> Dictionary:
	if session_id < 0:
		if EditorInterface.is_playing_scene():
			return _router.fail("PRECONDITION_FAILED", "The game is starting but has not connected to the editor's debugger yet. Retry in a moment, or check godot_runtime_get_status.", "runtime_probe")
		return _router.fail("PRECONDITION_FAILED", "No game is running. Start one with godot_runtime_play.", "runtime_probe")
	var st: Dictionary = _monitor.session_state(session_id)
	if st["breaked"]:
		return _router.fail("PRECONDITION_FAILED", _break_hint(st), "game_not_breaked")
	if not _monitor.probe_connected(session_id):
		if not probe_registered():
			return _router.fail("PRECONDITION_FAILED", "The running game has no godot-mcp probe: the runtime toolset's autoload is not registered. Enable the runtime toolset (godot_enable_toolset runtime), then play the game again with godot_runtime_play.", "runtime_probe")
		return _router.fail("PRECONDITION_FAILED", "The running game has no godot-mcp probe (it was started before the probe was registered, or has not reported in yet). Play it again with godot_runtime_play.", "runtime_probe")
	return {}


func _break_hint(st: Dictionary) -> String:
	var where: String = ""
	var stack: Array = st.get("break_stack", [])
	if not stack.is_empty():
		where = " at %s:%d in %s()" % [stack[0]["file"], int(stack[0]["line"]), stack[0]["function"]]
	return "The game is stopped in the debugger%s: %s. It cannot run requests until it continues. Stop it (godot_runtime_stop), fix the error, and play again; godot_runtime_get_errors has the error with its stack." % [where, str(st.get("break_reason", "a breakpoint"))]


## Sends one request to the game's probe and waits (bounded) for its answer.
func _ask(command: String, params: Dictionary, timeout_ms: int) -> Dictionary:
	var sid: int = _monitor.active_session()
	var pre: Dictionary = _precondition(sid)
	if not pre.is_empty():
		return pre
	var id: int = _monitor.send_to_game(sid, command, params)
	var deadline: int = Time.get_ticks_msec() + timeout_ms
	while true:
		var reply: Variant = _monitor.take_reply(id)
		if reply != null:
			var r: Dictionary = reply
			if typeof(r.get("ok")) != TYPE_BOOL:
				return _router.fail("INTERNAL_ERROR", "The game's probe sent a malformed answer. Reinstall the addon (godot-mcp addon install) and play the game again.")
			return r
		var st: Dictionary = _monitor.session_state(sid)
		if not st["active"]:
			_monitor.forget(id)
			return _router.fail("PRECONDITION_FAILED", "The game stopped before it answered.%s Play it again with godot_runtime_play." % _last_errors_hint(0), "runtime_probe")
		if st["breaked"]:
			_monitor.forget(id)
			return _router.fail("PRECONDITION_FAILED", _break_hint(st), "game_not_breaked")
		if Time.get_ticks_msec() >= deadline:
			_monitor.forget(id)
			return _router.fail("TIMEOUT", "The game did not answer within %d ms (it may be busy or frozen). The request may still take effect; check with godot_runtime_get_status." % timeout_ms)
		await _tree().process_frame
	return {}


## The last error lines of the output since [param since] (0: the newest few), for hints.
func _last_errors_hint(since: int) -> String:
	var start: int = since if since > 0 else maxi(1, _monitor.output_cursor() - 50)
	var r: Dictionary = _monitor.read_output(start, 500)
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


func _status_base() -> Dictionary:
	var sid: int = _monitor.active_session()
	var st: Dictionary = _monitor.session_state(sid) if sid >= 0 else {}
	var probe: Dictionary = st.get("probe", {})
	return {
		"playing": EditorInterface.is_playing_scene(),
		"scene": EditorInterface.get_playing_scene(),
		"session_id": sid,
		"pid": int(st.get("pid", 0)),
		"probe_connected": sid >= 0 and not probe.is_empty(),
		"probe_registered": probe_registered(),
		"runtime_enabled": _runtime_enabled,
		"paused": bool(probe.get("paused", false)),
		"time_scale": 1.0,
		"breaked": bool(st.get("breaked", false)),
		"break_reason": str(st.get("break_reason", "")),
		"break_stack": st.get("break_stack", []),
		"headless": bool(probe.get("headless", false)),
		"output_cursor": _monitor.output_cursor(),
		"errors_cursor": _monitor.errors_cursor(),
	}


# --- cmd_runtime_play / cmd_runtime_stop ------------------------------------------------


## {scene: "main"|"current"|res:// path, display: "auto"|"window"|"headless", timeout_ms}
## -> {playing, scene, pid, probe_connected, paused, headless, restarted, output_cursor,
## errors_cursor, startup_ms, session_id}
func play(params: Dictionary) -> Dictionary:
	var scene_v: Variant = params.get("scene", "main")
	if scene_v == null or str(scene_v) == "":
		scene_v = "main"
	if typeof(scene_v) != TYPE_STRING:
		return _router.fail("VALIDATION_ERROR", "scene must be \"main\", \"current\" or a res:// scene path.")
	var display: String = str(params.get("display", "auto")) if params.get("display") != null else "auto"
	if not ["auto", "window", "headless"].has(display):
		return _router.fail("VALIDATION_ERROR", "display must be \"auto\" (headless when the editor itself is), \"window\" or \"headless\".")
	var timeout_v: Variant = _int_param(params, "timeout_ms", 20000, 1000, 300000)
	if timeout_v == null:
		return _router.fail("VALIDATION_ERROR", "timeout_ms must be an integer from 1000 to 300000.")
	var timeout_ms: int = timeout_v
	var scene: String = scene_v
	var kind: String = scene
	var path: String = ""
	match scene:
		"main":
			path = str(ProjectSettings.get_setting("application/run/main_scene", ""))
			if path == "":
				return _router.fail("PRECONDITION_FAILED", "The project has no main scene (application/run/main_scene). Set one with godot_project_set_settings, or pass scene: \"res://path/to/scene.tscn\" or \"current\".")
			if path.begins_with("uid://"):
				var id: int = ResourceUID.text_to_id(path)
				if ResourceUID.has_id(id):
					path = ResourceUID.get_id_path(id)
			if not ResourceLoader.exists(path):
				return _router.fail("RESOURCE_NOT_FOUND", "The main scene '%s' does not exist.%s Fix application/run/main_scene or pass another scene." % [path, _near_scenes(path)])
		"current":
			var root: Node = EditorInterface.get_edited_scene_root()
			if root == null:
				return _router.fail("PRECONDITION_FAILED", "No scene is open in the editor to play. Open one (godot_scene_open), or pass scene: \"main\" or a res:// path.", "active_scene")
			if root.scene_file_path == "":
				return _router.fail("PRECONDITION_FAILED", "The edited scene has never been saved, so it cannot be played. Save it first (godot_scene_save), or pass scene: \"main\".", "active_scene")
			path = root.scene_file_path
		_:
			kind = "custom"
			path = scene
			if not path.begins_with("res://") or path.contains(".."):
				return _router.fail("VALIDATION_ERROR", "scene must be \"main\", \"current\" or a res:// scene path (got '%s')." % path)
			if not (path.ends_with(".tscn") or path.ends_with(".scn")):
				return _router.fail("VALIDATION_ERROR", "'%s' is not a scene file (.tscn or .scn)." % path)
			var outside: String = PathGuard.problem(path)
			if outside != "":
				return _router.fail("VALIDATION_ERROR", "scene: %s." % outside)
			if not ResourceLoader.exists(path):
				return _router.fail("RESOURCE_NOT_FOUND", "No scene at '%s'.%s" % [path, _near_scenes(path)])
	# The main or the edited scene must really be inside the project too.
	var where: String = PathGuard.escape_problem(path) if path.begins_with("res://") else ""
	if where != "":
		return _router.fail("VALIDATION_ERROR", "scene (%s): %s." % [kind, where])
	var why: String = _set_probe_registered(true)
	if why != "":
		return _router.fail("INTERNAL_ERROR", "Could not register the game-side probe: %s." % why)
	var restarted: bool = EditorInterface.is_playing_scene()
	if restarted:
		EditorInterface.stop_playing_scene()
		var stop_deadline: int = Time.get_ticks_msec() + 5000
		while _monitor.active_session() >= 0 and Time.get_ticks_msec() < stop_deadline:
			await _tree().process_frame
	var headless: bool = display == "headless" or (display == "auto" and DisplayServer.get_name() == "headless")
	var out_cursor: int = _monitor.output_cursor()
	var err_cursor: int = _monitor.errors_cursor()
	var started: int = Time.get_ticks_msec()
	var started_unix: float = Time.get_unix_time_from_system()
	_launch(kind, path, headless)
	var deadline: int = started + timeout_ms
	var seen_playing: bool = false
	while true:
		await _tree().process_frame
		var sid: int = _monitor.active_session()
		var playing: bool = EditorInterface.is_playing_scene()
		seen_playing = seen_playing or playing or sid >= 0
		if sid >= 0:
			var st: Dictionary = _monitor.session_state(sid)
			if _monitor.probe_connected(sid):
				var probe: Dictionary = st["probe"]
				return _router.ok({
					"playing": true,
					"scene": path,
					"pid": int(st.get("pid", 0)),
					"session_id": sid,
					"probe_connected": true,
					"paused": bool(probe.get("paused", false)),
					"headless": bool(probe.get("headless", headless)),
					"restarted": restarted,
					"output_cursor": out_cursor,
					"errors_cursor": err_cursor,
					"startup_ms": Time.get_ticks_msec() - started,
				})
			if st["breaked"]:
				return _router.fail("PRECONDITION_FAILED", "The game started but stopped in the debugger before its probe reported in. " + _break_hint(st), "game_not_breaked")
		elif seen_playing and not playing:
			# A game that dies this early may never flush its errors to the debugger;
			# its log file (user://logs/godot.log, on by default) has them.
			if _last_errors_hint(out_cursor) == "":
				_monitor.import_game_log(_game_log_lines(started_unix))
			return _router.fail("INTERNAL_ERROR", "The game exited while starting (%s), before its probe reported in.%s Read all of its output with godot_runtime_get_output since=%d, fix the problem, and play again." % [path, _last_errors_hint(out_cursor), out_cursor])
		elif not playing and Time.get_ticks_msec() - started > 3000:
			return _router.fail("INTERNAL_ERROR", "The editor did not start the game (%s).%s Check the editor's Output panel (a dialog such as a missing main scene may be waiting), then retry." % [path, _last_errors_hint(out_cursor)])
		if Time.get_ticks_msec() >= deadline:
			var state: String = "still running without reporting in" if (sid >= 0 or playing) else "not running"
			return _router.fail("TIMEOUT", "The game's probe did not report in within %d ms; the game is %s.%s Check godot_runtime_get_output since=%d, stop it with godot_runtime_stop if needed, and retry with a larger timeout_ms." % [timeout_ms, state, _last_errors_hint(out_cursor), out_cursor])
	return {}


## Starts the game. For a headless run, "--headless" is added to the editor's run
## arguments for this launch only (in memory, never saved), because the editor
## forwards neither --headless nor a missing display to the game it starts.
func _launch(kind: String, path: String, headless: bool) -> void:
	var original: String = str(ProjectSettings.get_setting(RUN_ARGS_SETTING, ""))
	var override: bool = headless and not original.split(" ", false).has("--headless")
	if override:
		ProjectSettings.set_setting(RUN_ARGS_SETTING, (original + " --headless").strip_edges())
		ProjectSettings.emit_signal("settings_changed") # the run dialog reads it now, not next frame
	match kind:
		"main":
			EditorInterface.play_main_scene()
		"current":
			EditorInterface.play_current_scene()
		_:
			EditorInterface.play_custom_scene(path)
	if override:
		ProjectSettings.set_setting(RUN_ARGS_SETTING, original)
		ProjectSettings.emit_signal("settings_changed")


## The lines of the game's log file written since [param since_unix] (empty when file
## logging is off or the file is older): the last 200 of them.
func _game_log_lines(since_unix: float) -> PackedStringArray:
	var lines: PackedStringArray = []
	if not bool(ProjectSettings.get_setting("debug/file_logging/enable_file_logging.pc", ProjectSettings.get_setting("debug/file_logging/enable_file_logging", false))):
		return lines
	var log_path: String = str(ProjectSettings.get_setting("debug/file_logging/log_path", "user://logs/godot.log"))
	if not FileAccess.file_exists(log_path) or FileAccess.get_modified_time(log_path) + 1 < int(since_unix):
		return lines
	lines = _read_text(log_path).split("\n", false)
	if lines.size() > 200:
		lines = lines.slice(lines.size() - 200)
	return lines


func _near_scenes(path: String) -> String:
	var found: PackedStringArray = []
	var stack: PackedStringArray = ["res://"]
	var wanted: String = path.get_file().get_basename().to_lower()
	var scored: Array = []
	var walk: Dictionary = PathGuard.walk_new()
	while not stack.is_empty() and found.size() < 2000:
		var dir: String = stack[stack.size() - 1]
		stack.remove_at(stack.size() - 1)
		for d: String in DirAccess.get_directories_at(dir):
			if not d.begins_with(".") and PathGuard.walk_folder_inside(walk, dir.path_join(d)):
				stack.append(dir.path_join(d))
		for f: String in DirAccess.get_files_at(dir):
			if (f.ends_with(".tscn") or f.ends_with(".scn")) and PathGuard.walk_file_inside(walk, dir.path_join(f)):
				var p: String = dir.path_join(f)
				found.append(p)
				scored.append([f.get_basename().to_lower().similarity(wanted), p])
	if scored.is_empty():
		return " The project has no scene files."
	scored.sort_custom(func(a: Array, b: Array) -> bool: return a[0] > b[0])
	var out: PackedStringArray = []
	for e: Array in scored.slice(0, 3):
		out.append(str(e[1]))
	return " Scenes nearby: %s." % ", ".join(out)


## {} -> {was_playing, stopped, scene}
func stop(_params: Dictionary) -> Dictionary:
	var was: bool = EditorInterface.is_playing_scene() or _monitor.active_session() >= 0
	var scene: String = EditorInterface.get_playing_scene()
	if was:
		EditorInterface.stop_playing_scene()
		var deadline: int = Time.get_ticks_msec() + 5000
		while (_monitor.active_session() >= 0 or EditorInterface.is_playing_scene()) and Time.get_ticks_msec() < deadline:
			await _tree().process_frame
	var stopped: bool = _monitor.active_session() < 0 and not EditorInterface.is_playing_scene()
	if not stopped:
		return _router.fail("TIMEOUT", "The editor was told to stop the game but it still runs after 5 s. Retry godot_runtime_stop.")
	return _router.ok({"was_playing": was, "stopped": true, "scene": scene, "output_cursor": _monitor.output_cursor()})


# --- status, output, errors ----------------------------------------------------------


func get_status(_params: Dictionary) -> Dictionary:
	var out: Dictionary = _status_base()
	var sid: int = int(out["session_id"])
	if out["probe_connected"] and not out["breaked"]:
		var r: Dictionary = await _ask("status", {}, 3000)
		if r.get("ok", false):
			var res: Dictionary = r["result"]
			for k: String in ["paused", "time_scale", "headless", "process_frames", "fps"]:
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
	var since: Variant = _int_param(params, "since", 0, 0, 9007199254740991)
	if since == null:
		return _router.fail("VALIDATION_ERROR", "since must be an integer >= 0: the next_cursor of your previous call (0 for everything kept).")
	var limit: Variant = _int_param(params, "limit", 200, 1, MAX_LIMIT)
	if limit == null:
		return _router.fail("VALIDATION_ERROR", "limit must be an integer from 1 to %d." % MAX_LIMIT)
	var r: Dictionary = _monitor.read_output(since, limit) if output else _monitor.read_errors(since, limit)
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
				var pre: Dictionary = _precondition(sid)
				if not pre.is_empty() and str(pre.get("required", "")) == "runtime_probe":
					return pre
			"game_not_breaked":
				if sid >= 0 and bool(_monitor.session_state(sid)["breaked"]):
					return _router.fail("PRECONDITION_FAILED", _break_hint(_monitor.session_state(sid)), "game_not_breaked")
			_:
				return _router.fail("VALIDATION_ERROR", "Unknown runtime precondition '%s' (runtime_probe, game_not_breaked)." % r)
	return _router.ok({"satisfied": true})


# --- requests to the game --------------------------------------------------------------


func _path_param(params: Dictionary, key: String, default_value: String) -> Variant:
	var v: Variant = params.get(key, default_value)
	if v == null:
		return default_value
	if typeof(v) != TYPE_STRING:
		return null
	return v


## {root?: node path, depth?: 1..64, max_nodes?: 1..5000}
func get_tree(params: Dictionary) -> Dictionary:
	var root: Variant = _path_param(params, "root", "/root")
	if root == null:
		return _router.fail("VALIDATION_ERROR", "root must be a node path string (\"/root\", \"/root/Main\" or relative to the current scene).")
	var depth: Variant = _int_param(params, "depth", 6, 1, 64)
	var max_nodes: Variant = _int_param(params, "max_nodes", 500, 1, 5000)
	if depth == null or max_nodes == null:
		return _router.fail("VALIDATION_ERROR", "depth must be 1..64 and max_nodes 1..5000.")
	return await _ask("tree", {"root": root, "depth": depth, "max_nodes": max_nodes}, DEFAULT_TIMEOUT_MS)


## {path, properties?: [names]}
func get_node(params: Dictionary) -> Dictionary:
	var path: Variant = _path_param(params, "path", "")
	if path == null:
		return _router.fail("VALIDATION_ERROR", "path must be a node path string.")
	var props: Variant = params.get("properties", [])
	if props == null:
		props = []
	if typeof(props) != TYPE_ARRAY:
		return _router.fail("VALIDATION_ERROR", "properties must be an array of property names.")
	return await _ask("node", {"path": path, "properties": props}, DEFAULT_TIMEOUT_MS)


## {path, properties: {name: value}}
func set_properties(params: Dictionary) -> Dictionary:
	var path: Variant = _path_param(params, "path", "")
	if path == null:
		return _router.fail("VALIDATION_ERROR", "path must be a node path string.")
	if typeof(params.get("properties")) != TYPE_DICTIONARY or (params["properties"] as Dictionary).is_empty():
		return _router.fail("VALIDATION_ERROR", "properties must be an object {name: value} with at least one property.")
	var r: Dictionary = await _ask("set", {"path": path, "properties": params["properties"]}, DEFAULT_TIMEOUT_MS)
	if r.get("ok", false):
		(r["result"] as Dictionary)["persisted"] = false
	return r


## {path, method, args?: [], timeout_ms?}
func call_method(params: Dictionary) -> Dictionary:
	var path: Variant = _path_param(params, "path", "")
	if path == null:
		return _router.fail("VALIDATION_ERROR", "path must be a node path string.")
	if typeof(params.get("method")) != TYPE_STRING or str(params["method"]) == "":
		return _router.fail("VALIDATION_ERROR", "method is required: the name of a method of the node.")
	var args: Variant = params.get("args", [])
	if args == null:
		args = []
	if typeof(args) != TYPE_ARRAY:
		return _router.fail("VALIDATION_ERROR", "args must be an array of JSON values.")
	var timeout: Variant = _int_param(params, "timeout_ms", DEFAULT_TIMEOUT_MS, 100, 300000)
	if timeout == null:
		return _router.fail("VALIDATION_ERROR", "timeout_ms must be an integer from 100 to 300000.")
	var r: Dictionary = await _ask("call", {"path": path, "method": params["method"], "args": args}, timeout)
	if r.get("ok", false):
		(r["result"] as Dictionary)["persisted"] = false
	return r


## {steps: [...], timeout_ms}
func input(params: Dictionary) -> Dictionary:
	if typeof(params.get("steps")) != TYPE_ARRAY or (params["steps"] as Array).is_empty():
		return _router.fail("VALIDATION_ERROR", "steps must be a non-empty array of input steps.")
	var timeout: Variant = _int_param(params, "timeout_ms", 30000, 100, 600000)
	if timeout == null:
		return _router.fail("VALIDATION_ERROR", "timeout_ms must be an integer from 100 to 600000.")
	return await _ask("input", {"steps": params["steps"]}, timeout)


## {paused?: bool, time_scale?: number, step_frames?: int, timeout_ms?}
func pause(params: Dictionary) -> Dictionary:
	var out: Dictionary = {}
	if params.get("paused") != null:
		if typeof(params["paused"]) != TYPE_BOOL:
			return _router.fail("VALIDATION_ERROR", "paused must be true or false.")
		out["paused"] = params["paused"]
	if params.get("time_scale") != null:
		var ts: Variant = params["time_scale"]
		if not (typeof(ts) == TYPE_FLOAT or typeof(ts) == TYPE_INT) or float(ts) < 0.0 or float(ts) > 100.0:
			return _router.fail("VALIDATION_ERROR", "time_scale must be a number from 0 to 100 (1 is normal speed).")
		out["time_scale"] = float(ts)
	var step: Variant = _int_param(params, "step_frames", 0, 0, 10000)
	if step == null:
		return _router.fail("VALIDATION_ERROR", "step_frames must be an integer from 0 to 10000.")
	out["step_frames"] = step
	var timeout: Variant = _int_param(params, "timeout_ms", DEFAULT_TIMEOUT_MS + int(step) * 100, 100, 600000)
	if timeout == null:
		return _router.fail("VALIDATION_ERROR", "timeout_ms must be an integer from 100 to 600000.")
	return await _ask("pause", out, timeout)


func get_performance(_params: Dictionary) -> Dictionary:
	return await _ask("perf", {}, DEFAULT_TIMEOUT_MS)


## {target: "game"|"editor"|"editor_2d"|"editor_3d", max_size?: int}
## -> {target, width, height, original_width, original_height, png_base64}
func screenshot(params: Dictionary) -> Dictionary:
	var target: String = str(params.get("target", "game")) if params.get("target") != null else "game"
	if not ["game", "editor", "editor_2d", "editor_3d"].has(target):
		return _router.fail("VALIDATION_ERROR", "target must be \"game\", \"editor\", \"editor_2d\" or \"editor_3d\".")
	var max_size: Variant = _int_param(params, "max_size", 0, 0, 16384)
	if max_size == null:
		return _router.fail("VALIDATION_ERROR", "max_size must be an integer from 0 (full size) to 16384.")
	if target == "game":
		var r: Dictionary = await _ask("screenshot", {"max_size": max_size}, DEFAULT_TIMEOUT_MS)
		if not r.get("ok", false):
			return r
		var res: Dictionary = r["result"]
		var png: PackedByteArray = res.get("png", PackedByteArray())
		return _router.ok({
			"target": "game",
			"width": int(res.get("width", 0)),
			"height": int(res.get("height", 0)),
			"original_width": int(res.get("original_width", 0)),
			"original_height": int(res.get("original_height", 0)),
			"png_base64": Marshalls.raw_to_base64(png),
		})
	if DisplayServer.get_name() == "headless":
		return _router.fail("PRECONDITION_FAILED", "The editor runs headless (no display, no renderer), so it draws nothing to capture. Run the editor with a display (or a virtual one: xvfb-run godot --rendering-driver opengl3 --editor ...) to take editor screenshots.")
	var vp: Viewport = null
	match target:
		"editor":
			vp = EditorInterface.get_base_control().get_viewport()
		"editor_2d":
			vp = EditorInterface.get_editor_viewport_2d()
		"editor_3d":
			vp = EditorInterface.get_editor_viewport_3d(0)
	if vp == null:
		return _router.fail("INTERNAL_ERROR", "The editor has no %s viewport to capture." % target)
	# Make the editor draw a fresh frame (it idles in low-processor mode), bounded.
	EditorInterface.get_base_control().queue_redraw()
	var drawn: Array[bool] = [false]
	var mark: Callable = func() -> void: drawn[0] = true
	RenderingServer.frame_post_draw.connect(mark, CONNECT_ONE_SHOT)
	var deadline: int = Time.get_ticks_msec() + 2000
	while not drawn[0] and Time.get_ticks_msec() < deadline:
		await _tree().process_frame
	if RenderingServer.frame_post_draw.is_connected(mark):
		RenderingServer.frame_post_draw.disconnect(mark)
	var img: Image = vp.get_texture().get_image() if vp.get_texture() != null else null
	if img == null or img.is_empty():
		return _router.fail("PRECONDITION_FAILED", "The editor's %s viewport returned no image (rendering driver '%s'); nothing was captured." % [target, RenderingServer.get_current_rendering_driver_name()])
	var original: Vector2i = img.get_size()
	if int(max_size) > 0 and maxi(original.x, original.y) > int(max_size):
		var s: float = float(max_size) / float(maxi(original.x, original.y))
		img.resize(maxi(1, roundi(original.x * s)), maxi(1, roundi(original.y * s)), Image.INTERPOLATE_BILINEAR)
	var png2: PackedByteArray = img.save_png_to_buffer()
	return _router.ok({
		"target": target,
		"width": img.get_width(),
		"height": img.get_height(),
		"original_width": original.x,
		"original_height": original.y,
		"png_base64": Marshalls.raw_to_base64(png2),
	})
