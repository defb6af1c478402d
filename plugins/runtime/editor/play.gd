@tool
extends RefCounted
## cmd_runtime_play / cmd_runtime_stop: start the game (main, current or a res:// scene,
## windowed or headless) and wait, bounded, for its probe to report in; stop it.

const CommandRouter := preload("res://addons/godot_mcp/command_router.gd")
const PathGuard := preload("res://addons/godot_mcp/path_guard.gd")
const DebuggerPlugin := preload("res://addons/godot_mcp/runtime/debugger_plugin.gd")
const Link := preload("link.gd")
const ProbeAutoload := preload("probe_autoload.gd")

const RUN_ARGS_SETTING := "editor/run/main_run_args"
const START_FROZEN_ENV := "GODOT_MCP_START_FROZEN"

var _router: CommandRouter = null
var _monitor: DebuggerPlugin = null
var _link: Link = null


func setup(link: Link) -> void:
	_link = link
	_router = link.router
	_monitor = link.monitor
	# The playtest toolset starts a game frozen through this (params + frozen: true).
	link.play_game = play


func get_commands() -> Dictionary:
	return {
		"cmd_runtime_play": {"class": "runtime", "run": play},
		"cmd_runtime_stop": {"class": "runtime", "run": stop},
	}


## {scene: "main"|"current"|res:// path, display: "auto"|"window"|"headless", timeout_ms}
## -> {playing, scene, pid, probe_connected, paused, headless, restarted, output_cursor,
## errors_cursor, startup_ms, session_id, breaked, break_reason, break_message,
## break_stack, note?}. A game that stops in the debugger before its probe reported in
## (a breakpoint, a `breakpoint` statement, a pause request) answers ok with
## probe_connected false and where it stopped; one stopped on a script error fails
## (game_not_breaked), like one that exits while starting (INTERNAL_ERROR).
func play(params: Dictionary) -> Dictionary:
	var scene_v: Variant = params.get("scene", "main")
	if scene_v == null or str(scene_v) == "":
		scene_v = "main"
	if typeof(scene_v) != TYPE_STRING:
		return _router.fail("VALIDATION_ERROR", "scene must be \"main\", \"current\" or a res:// scene path.")
	var display: String = str(params.get("display", "auto")) if params.get("display") != null else "auto"
	if not ["auto", "window", "headless"].has(display):
		return _router.fail("VALIDATION_ERROR", "display must be \"auto\" (headless when the editor itself is), \"window\" or \"headless\".")
	var timeout_v: Variant = Link.int_param(params, "timeout_ms", 20000, 1000, 300000)
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
	var why: String = _link.probe.set_registered(true)
	if why != "":
		return _router.fail("INTERNAL_ERROR", "Could not register the game-side probe: %s." % why)
	var restarted: bool = EditorInterface.is_playing_scene()
	if restarted:
		EditorInterface.stop_playing_scene()
		# Wait for the old game to be gone (its debugger session too) before the
		# new one starts: on a loaded machine that can take seconds, and a new
		# game started before would be taken for one that died while starting.
		var stop_deadline: int = Time.get_ticks_msec() + timeout_ms
		while (_monitor.active_session() >= 0 or EditorInterface.is_playing_scene()) and Time.get_ticks_msec() < stop_deadline:
			await _link.tree().process_frame
		if _monitor.active_session() >= 0 or EditorInterface.is_playing_scene():
			return _router.fail("TIMEOUT", "The game that was running did not stop within %d ms, so the new one was not started. Stop it with godot_runtime_stop (or end its process), then play again, or retry with a larger timeout_ms." % timeout_ms)
	var headless: bool = display == "headless" or (display == "auto" and DisplayServer.get_name() == "headless")
	var out_cursor: int = _monitor.output_cursor()
	var err_cursor: int = _monitor.errors_cursor()
	var started: int = Time.get_ticks_msec()
	var started_unix: float = Time.get_unix_time_from_system()
	_launch(kind, path, headless, params.get("frozen") == true)
	var deadline: int = started + timeout_ms
	var seen_playing: bool = false
	while true:
		await _link.tree().process_frame
		var sid: int = _monitor.active_session()
		var playing: bool = EditorInterface.is_playing_scene()
		seen_playing = seen_playing or playing or sid >= 0
		if sid >= 0:
			var st: Dictionary = _monitor.session_state(sid)
			var connected: bool = _monitor.probe_connected(sid)
			if st["breaked"]:
				# Stopped in the debugger (before its probe reported in: a breakpoint in
				# _ready, say): the game did start; say where it stands, once its stack is
				# known. A script error before the probe reported in is a failed start.
				await _link.await_break_stack(sid)
				st = _monitor.session_state(sid)
				connected = _monitor.probe_connected(sid)
				if not st["active"]:
					continue # it exited meanwhile: the next round reports that
				if not connected and Link.break_info(st)["break_reason"] == "script_error":
					return _router.fail("PRECONDITION_FAILED", "The game started but stopped on a script error before its probe reported in. " + Link.break_hint(st), "game_not_breaked")
			if connected or st["breaked"]:
				var probe: Dictionary = st["probe"]
				var out: Dictionary = {
					"playing": true,
					"scene": path,
					"pid": int(st.get("pid", 0)),
					"session_id": sid,
					"probe_connected": connected,
					"paused": bool(probe.get("paused", false)),
					"headless": bool(probe.get("headless", headless)),
					"restarted": restarted,
					"output_cursor": out_cursor,
					"errors_cursor": err_cursor,
					"startup_ms": Time.get_ticks_msec() - started,
				}
				out.merge(Link.break_info(st))
				if not connected:
					out["note"] = "The game started and is stopped in the debugger before its probe reported in. " + Link.break_hint(st)
				return _router.ok(out)
		elif seen_playing and not playing:
			# A game that dies this early may never flush its errors to the debugger;
			# its log file (user://logs/godot.log, on by default) has them.
			if _link.last_errors_hint(out_cursor) == "":
				_monitor.import_game_log(_game_log_lines(started_unix))
			return _router.fail("INTERNAL_ERROR", "The game exited while starting (%s), before its probe reported in.%s Read all of its output with godot_runtime_get_output since=%d, fix the problem, and play again." % [path, _link.last_errors_hint(out_cursor), out_cursor])
		elif not playing and Time.get_ticks_msec() - started > 3000:
			return _router.fail("INTERNAL_ERROR", "The editor did not start the game (%s).%s Check the editor's Output panel (a dialog such as a missing main scene may be waiting), then retry." % [path, _link.last_errors_hint(out_cursor)])
		if Time.get_ticks_msec() >= deadline:
			var state: String = "still running without reporting in" if (sid >= 0 or playing) else "not running"
			return _router.fail("TIMEOUT", "The game's probe did not report in within %d ms; the game is %s.%s Check godot_runtime_get_output since=%d, stop it with godot_runtime_stop if needed, and retry with a larger timeout_ms." % [timeout_ms, state, _link.last_errors_hint(out_cursor), out_cursor])
	return {}


## Starts the game. For a headless run, "--headless" is added to the editor's run
## arguments for this launch only (in memory, never saved), because the editor
## forwards neither --headless nor a missing display to the game it starts.
##
## [param frozen] (the playtest toolset's start frozen): the game inherits
## GODOT_MCP_START_FROZEN=1 from the editor's environment, set for this launch only,
## and its probe freezes it before its first frame.
func _launch(kind: String, path: String, headless: bool, frozen: bool = false) -> void:
	if frozen:
		OS.set_environment(START_FROZEN_ENV, "1")
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
	if frozen:
		OS.unset_environment(START_FROZEN_ENV)


## The lines of the game's log file written since [param since_unix] (empty when file
## logging is off or the file is older): the last 200 of them.
func _game_log_lines(since_unix: float) -> PackedStringArray:
	var lines: PackedStringArray = []
	if not bool(ProjectSettings.get_setting("debug/file_logging/enable_file_logging.pc", ProjectSettings.get_setting("debug/file_logging/enable_file_logging", false))):
		return lines
	var log_path: String = str(ProjectSettings.get_setting("debug/file_logging/log_path", "user://logs/godot.log"))
	if not FileAccess.file_exists(log_path) or FileAccess.get_modified_time(log_path) + 1 < int(since_unix):
		return lines
	lines = ProbeAutoload.read_text(log_path).split("\n", false)
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
			await _link.tree().process_frame
	var stopped: bool = _monitor.active_session() < 0 and not EditorInterface.is_playing_scene()
	if not stopped:
		return _router.fail("TIMEOUT", "The editor was told to stop the game but it still runs after 5 s. Retry godot_runtime_stop.")
	return _router.ok({"was_playing": was, "stopped": true, "scene": scene, "output_cursor": _monitor.output_cursor()})
