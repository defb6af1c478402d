@tool
extends RefCounted
## One dispatch table {command_name: Callable} for every command the server sends.
##
## A handler is `func(params: Dictionary) -> Dictionary` and returns `ok(result)` or
## `fail(code, hint, required)`. It may `await` (then it answers when it finishes).
##
## Every command declares its class, as a handler file's get_commands() lists it:
## {"cmd_x": {"class": "read_only"|"mutating"|"destructive"|"runtime", "dry_run": true
## (optional: the command takes dry_run and then changes nothing), "run": Callable}}.
## The table of names, classes and owners (command_table()) goes to the server in the
## hello and again after an extension loads (commands_changed); the server holds each
## toolset to its tools' classes with it. A command without a valid class is refused.
##
## GDScript has no try/catch, so the boundary is guarded instead of caught:
## - a handler that hits a runtime error is aborted by the engine and its call
##   returns null; anything that is not a well-formed answer becomes INTERNAL_ERROR
##   ("…failed inside the addon…");
## - an awaiting handler that never finishes (a runtime error after an await leaves
##   its coroutine dead) is answered TIMEOUT by a watchdog;
## so every command gets exactly one answer and nothing hangs. Handlers validate
## their params first and return fail() early rather than letting an error happen.

const ValueCodec := preload("value_codec.gd")

## The stable error codes of the envelope.
const ERROR_CODES := [
	"PRECONDITION_FAILED", "RESOURCE_NOT_FOUND", "VALIDATION_ERROR", "BRIDGE_DISCONNECTED",
	"TIMEOUT", "INTERNAL_ERROR", "APPROVAL_DENIED", "PEER_REPLACED",
]
## Where third-party toolsets ship their editor handlers: <EXT_ROOT>/<prefix>/handlers.gd.
const EXT_ROOT := "res://addons/godot_mcp_ext"
## Where a toolset's game code is, inside its extension folder (<prefix>/game/game.gd,
## loaded by the runtime probe in the game, never by the editor). A folder with game
## code only (no handlers.gd) loads with no commands and reports its version.
const EXT_GAME_ENTRY := "game/game.gd"
## The file the server writes into an extension folder it installed: {toolset, version, files}.
const EXT_STAMP := ".godot_mcp_stamp.json"
## The file that keeps EXT_ROOT out of the editor's file system (keep_out_of_filesystem).
const EXT_IGNORE := ".gdignore"
## How long cmd_ext_load lets a file-system scan under way end before it loads.
const EXT_SCAN_WAIT_MS := 10000
## An awaiting handler that has not answered after this long is answered TIMEOUT.
const ASYNC_DEADLINE_MS := 120000

## Emitted exactly once per command with the full response envelope (id included).
signal responded(response: Dictionary)
## Emitted after each command for the dock: command, ok, error code, milliseconds.
signal command_finished(command: String, ok: bool, error: String, elapsed_ms: int)
## Emitted when commands were added after start-up (an extension loaded), so the bridge
## client can send the server the new command_table().
signal commands_changed

## The classes a command may declare.
const CLASSES := ["read_only", "mutating", "destructive", "runtime"]

## The addon's version (plugin.cfg), set by the plugin.
var addon_version: String = ""
## Tracing to the Output panel, from the editor setting godot_mcp/debug.
var debug: bool = false
## The editor plugin, for handlers that need it (set by the plugin).
var plugin: EditorPlugin = null
## The value codec script (value_codec.gd), for extension handlers: codec.decode(…).
var codec: GDScript = ValueCodec

var _table: Dictionary = {} # command name -> Callable
var _owner_of: Dictionary = {} # command name -> "core", an area ("scene", ...) or "ext:<prefix>"
var _class_of: Dictionary = {} # command name -> {"class": String, "dry_run": bool}
var _extensions: Array[Dictionary] = [] # {prefix, path, version, commands, refused, error}
var _ext_objects: Dictionary = {} # prefix -> its handler Object
var _handler_objects: Array[Object] = [] # keeps handler instances alive; Nodes are freed on shutdown
var _pending: Dictionary = {} # id -> {command, started, deadline}
var _prefix_re: RegEx = RegEx.create_from_string("^[a-z][a-z0-9_]*$")


func _init() -> void:
	register("cmd_ping", func(_params: Dictionary) -> Dictionary: return ok({"pong": true}), "core", "read_only")
	register("cmd_ext_load", _cmd_ext_load, "core", "mutating")
	register("cmd_ext_unload", _cmd_ext_unload, "core", "mutating")


# --- response builders ------------------------------------------------------


## A successful answer carrying [param result].
func ok(result: Dictionary = {}) -> Dictionary:
	return {"ok": true, "result": result}


## A failed answer: [param code] is one of ERROR_CODES, [param hint] tells an agent how
## to recover, [param required] names the unmet precondition (active_scene, confirm, …).
func fail(code: String, hint: String, required: String = "") -> Dictionary:
	var r: Dictionary = {"ok": false, "error": code, "hint": hint}
	if required != "":
		r["required"] = required
	return r


## Builder names used by the spec and the style guide; same as ok() / fail().
func _ok(result: Dictionary = {}) -> Dictionary:
	return ok(result)


func _fail(code: String, hint: String, required: String = "") -> Dictionary:
	return fail(code, hint, required)


# --- registration ---------------------------------------------------------------


## Registers one command of class [param klass] (one of CLASSES; [param dry_run]: it
## takes dry_run). Refuses (returns false) a name that is already taken, an invalid
## handler or an unknown class.
func register(command: String, handler: Callable, owner: String, klass: String, dry_run: bool = false) -> bool:
	if _table.has(command) or not handler.is_valid() or not CLASSES.has(klass):
		return false
	_table[command] = handler
	_owner_of[command] = owner
	_class_of[command] = {"class": klass, "dry_run": dry_run}
	return true


## Why a get_commands() entry is not {"class": one of CLASSES, "dry_run"?: bool,
## "run": Callable}, or "" when it is.
static func entry_problem(entry: Variant) -> String:
	if typeof(entry) != TYPE_DICTIONARY:
		return "declare it as {\"class\": \"read_only\"|\"mutating\"|\"destructive\"|\"runtime\", \"run\": Callable}"
	var e: Dictionary = entry
	if not CLASSES.has(str(e.get("class", ""))):
		return "its class '%s' is not read_only, mutating, destructive or runtime" % str(e.get("class", ""))
	if e.has("dry_run") and typeof(e["dry_run"]) != TYPE_BOOL:
		return "dry_run must be true or false"
	var cb: Variant = e.get("run")
	if typeof(cb) != TYPE_CALLABLE or not (cb as Callable).is_valid():
		return "its run is not a valid Callable"
	return ""


## Registers every command of a handler object's get_commands() -> {name: entry} (see
## entry_problem). Returns the names that were registered.
func register_handlers(handlers: Object, owner: String = "core") -> PackedStringArray:
	var done: PackedStringArray = []
	if handlers == null or not handlers.has_method("get_commands"):
		return done
	if handlers.has_method("setup"):
		handlers.call("setup", self)
	var cmds: Variant = handlers.call("get_commands")
	if typeof(cmds) != TYPE_DICTIONARY:
		return done
	_handler_objects.append(handlers)
	for k: Variant in (cmds as Dictionary).keys():
		var entry: Variant = cmds[k]
		var problem: String = entry_problem(entry)
		if problem != "":
			push_warning("godot_mcp: refused '%s' (%s): %s." % [str(k), owner, problem])
			continue
		var e: Dictionary = entry
		if register(str(k), e["run"] as Callable, owner, str(e["class"]), bool(e.get("dry_run", false))):
			done.append(str(k))
	return done


## {command: {class, dry_run, owner}} for every registered command: what the server
## holds toolsets to. owner is "core" or the toolset the command belongs to.
func command_table() -> Dictionary:
	var out: Dictionary = {}
	for k: Variant in _table.keys():
		var c: Dictionary = _class_of.get(k, {})
		var owner: String = str(_owner_of.get(k, "core")).trim_prefix("ext:")
		var row: Dictionary = {"class": str(c.get("class", "")), "owner": owner}
		if bool(c.get("dry_run", false)):
			row["dry_run"] = true
		out[str(k)] = row
	return out


## The registered command names, sorted.
func commands() -> PackedStringArray:
	var names: PackedStringArray = []
	for k: Variant in _table.keys():
		names.append(str(k))
	names.sort()
	return names


func has_command(command: String) -> bool:
	return _table.has(command)


## {class, dry_run, owner} of a registered command, or {} when there is none.
func command_info(command: String) -> Dictionary:
	if not _table.has(command):
		return {}
	var info: Dictionary = (_class_of[command] as Dictionary).duplicate()
	info["owner"] = str(_owner_of.get(command, ""))
	return info


## What was found under EXT_ROOT: [{prefix, path, version, commands, refused, error}].
func extensions() -> Array[Dictionary]:
	return _extensions


## {prefix: version} of every extension that loaded (version from its EXT_STAMP, ""
## when it has none): what the editor reports to the server.
func loaded_extensions() -> Dictionary:
	var out: Dictionary = {}
	for r: Dictionary in _extensions:
		if str(r.get("error", "")) == "":
			out[str(r["prefix"])] = str(r.get("version", ""))
	return out


## cmd_ext_load {prefix}: (re)loads one extension folder without toggling the plugin.
## The server calls it after installing a toolset's editor code. The folder is kept out
## of the editor's file system first (see keep_out_of_filesystem), and a scan under way,
## which may have listed it before, is let end (bounded) before the scripts are loaded.
func _cmd_ext_load(params: Dictionary) -> Dictionary:
	var prefix: String = str(params.get("prefix", ""))
	if _prefix_re.search(prefix) == null:
		return fail("VALIDATION_ERROR", "prefix must be a toolset name (lower-case letters, digits and '_'), got '%s'." % prefix)
	var path: String = EXT_ROOT.path_join(prefix).path_join("handlers.gd")
	var game_only: bool = not FileAccess.file_exists(path) and FileAccess.file_exists(EXT_ROOT.path_join(prefix).path_join(EXT_GAME_ENTRY))
	if not FileAccess.file_exists(path) and not game_only:
		return fail("RESOURCE_NOT_FOUND", "There is no %s; enable the toolset again so the server installs it." % path)
	var ignore_problem: String = keep_out_of_filesystem()
	if ignore_problem != "":
		return fail("INTERNAL_ERROR", ignore_problem)
	var efs: EditorFileSystem = EditorInterface.get_resource_filesystem()
	var t0: int = Time.get_ticks_msec()
	while efs.is_scanning() and Time.get_ticks_msec() - t0 < EXT_SCAN_WAIT_MS:
		await (Engine.get_main_loop() as SceneTree).process_frame
	if efs.is_scanning():
		return fail("PRECONDITION_FAILED", "The editor is still scanning the file system after %d s; enable the toolset again when the scan has ended." % (EXT_SCAN_WAIT_MS / 1000), "toolset_editor_code")
	unload_extension(prefix, false)
	if game_only:
		var g: Dictionary = register_game_only(prefix)
		commands_changed.emit() # the server learns the version with the table
		return ok({"prefix": prefix, "version": g["version"], "commands": [], "refused": []})
	var report: Dictionary = register_extension(prefix, path, true)
	if str(report["error"]) != "":
		unload_extension(prefix, true)
		return fail("PRECONDITION_FAILED", "%s." % report["error"], "toolset_editor_code")
	return ok({"prefix": prefix, "version": report["version"], "commands": report["commands"], "refused": report["refused"]})


## cmd_ext_unload {prefix}: drops one extension's commands and handler object.
func _cmd_ext_unload(params: Dictionary) -> Dictionary:
	var prefix: String = str(params.get("prefix", ""))
	if _prefix_re.search(prefix) == null:
		return fail("VALIDATION_ERROR", "prefix must be a toolset name (lower-case letters, digits and '_'), got '%s'." % prefix)
	return ok({"prefix": prefix, "unloaded": unload_extension(prefix, true)})


## Forgets extension [param prefix]: its commands, its handler object (teardown, then
## freed unless RefCounted) and its report. Emits commands_changed when [param notify]
## and anything was dropped. Returns whether it was loaded.
func unload_extension(prefix: String, notify: bool) -> bool:
	var owner: String = "ext:" + prefix
	var dropped: bool = false
	for k: Variant in _table.keys():
		if str(_owner_of.get(k, "")) == owner:
			_table.erase(k)
			_owner_of.erase(k)
			_class_of.erase(k)
			dropped = true
	if _ext_objects.has(prefix):
		var obj: Object = _ext_objects[prefix]
		_ext_objects.erase(prefix)
		_handler_objects.erase(obj)
		if is_instance_valid(obj) and obj.has_method("teardown"):
			obj.call("teardown")
		if is_instance_valid(obj) and not (obj is RefCounted):
			obj.free()
	for i: int in range(_extensions.size() - 1, -1, -1):
		if str(_extensions[i]["prefix"]) == prefix:
			_extensions.remove_at(i)
			dropped = true
	if dropped and notify:
		commands_changed.emit()
	return dropped


## The version in an extension folder's EXT_STAMP ("" without one).
static func stamp_version(prefix: String) -> String:
	var path: String = EXT_ROOT.path_join(prefix).path_join(EXT_STAMP)
	if not FileAccess.file_exists(path):
		return ""
	var parsed: Variant = JSON.parse_string(FileAccess.get_file_as_string(path))
	if typeof(parsed) != TYPE_DICTIONARY:
		return ""
	return str((parsed as Dictionary).get("version", ""))


## Keeps EXT_ROOT out of the editor's file system (EditorFileSystem) with a .gdignore
## in it; returns "" or what went wrong. Otherwise a scan finds the files the server
## installed as new or changed and reloads the loaded scripts in place
## (EditorFileSystem's script documentation update calls reload_from_file() on every
## cached script it sees), and a handler of them paused in an await crashes when it
## resumes. Telling the file system about the files (update_file) does not prevent it:
## a full scan compares with its cache file, which lags one scan behind. Extension
## code is .gd only and is loaded by path, so it needs nothing from the file system.
static func keep_out_of_filesystem() -> String:
	var ignore: String = EXT_ROOT.path_join(EXT_IGNORE)
	if FileAccess.file_exists(ignore):
		return ""
	var f: FileAccess = FileAccess.open(ignore, FileAccess.WRITE)
	if f == null:
		return "Could not write %s (%s); check the project folder's permissions." % [ignore, error_string(FileAccess.get_open_error())]
	f.store_string("# Written by godot-mcp: toolsets' editor code is loaded by the godot-mcp addon;\n# the editor's file system must not rescan and reload it under a running command.\n")
	f.close()
	return ""


## Loads every res://addons/godot_mcp_ext/<prefix>/handlers.gd (called on enable).
func scan_extensions() -> void:
	var dir: DirAccess = DirAccess.open(EXT_ROOT)
	if dir == null:
		return
	var ignore_problem: String = keep_out_of_filesystem()
	if ignore_problem != "":
		push_warning("godot_mcp: " + ignore_problem)
	var subdirs: PackedStringArray = dir.get_directories()
	subdirs.sort()
	for prefix: String in subdirs:
		var path: String = EXT_ROOT.path_join(prefix).path_join("handlers.gd")
		if FileAccess.file_exists(path):
			register_extension(prefix, path)
		elif _prefix_re.search(prefix) != null and FileAccess.file_exists(EXT_ROOT.path_join(prefix).path_join(EXT_GAME_ENTRY)):
			register_game_only(prefix)


## Records a toolset folder that has game code only: no editor commands, its version
## reported to the server like any extension's.
func register_game_only(prefix: String) -> Dictionary:
	var report: Dictionary = {"prefix": prefix, "path": EXT_ROOT.path_join(prefix).path_join(EXT_GAME_ENTRY), "version": stamp_version(prefix), "commands": [], "refused": [], "error": ""}
	_extensions.append(report)
	return report


## Registers a third-party toolset's editor handlers. The script must be @tool, have
## get_commands() -> Dictionary {command: {class, dry_run?, run}} (see entry_problem),
## and may have setup(router). Every command must start with "cmd_<prefix>_" and
## declare its class; others are refused. Emits commands_changed when any command was
## registered. Returns
## {prefix, path, commands: [registered], refused: [{command, reason}], error}.
func register_extension(prefix: String, handler_script_path: String, reload: bool = false) -> Dictionary:
	var report: Dictionary = {"prefix": prefix, "path": handler_script_path, "version": "", "commands": [], "refused": [], "error": ""}
	_extensions.append(report)
	if _prefix_re.search(prefix) == null:
		return _ext_error(report, "the folder name '%s' is not a valid prefix (lower-case letters, digits and '_', starting with a letter)" % prefix)
	report["version"] = stamp_version(prefix)
	if reload:
		_refresh_cached_scripts(handler_script_path.get_base_dir(), handler_script_path)
	var res: Resource = load(handler_script_path)
	if not (res is GDScript):
		return _ext_error(report, "'%s' is not a GDScript" % handler_script_path)
	var script: GDScript = res
	# A reload runs what is on disk now: the cached script (the same object every
	# later load() returns) gets the file's source and is recompiled in place.
	if reload:
		var source: String = FileAccess.get_file_as_string(handler_script_path)
		if source != script.source_code:
			script.source_code = source
			if script.reload() != OK:
				return _ext_error(report, "'%s' has errors; open it in the script editor" % handler_script_path)
	if not script.can_instantiate():
		return _ext_error(report, "'%s' has errors; open it in the script editor" % handler_script_path)
	if not script.is_tool():
		return _ext_error(report, "'%s' must start with @tool so it can run in the editor" % handler_script_path)
	var inst: Variant = script.new()
	if not (inst is Object) or not (inst as Object).has_method("get_commands"):
		if inst is Object and not (inst is RefCounted):
			(inst as Object).free()
		return _ext_error(report, "'%s' has no get_commands() -> Dictionary" % handler_script_path)
	var obj: Object = inst
	if obj.has_method("setup"):
		obj.call("setup", self)
	var cmds: Variant = obj.call("get_commands")
	if typeof(cmds) != TYPE_DICTIONARY:
		if not (obj is RefCounted):
			obj.free()
		return _ext_error(report, "get_commands() in '%s' did not return a Dictionary" % handler_script_path)
	_handler_objects.append(obj)
	_ext_objects[prefix] = obj
	var want: String = "cmd_%s_" % prefix
	for k: Variant in (cmds as Dictionary).keys():
		var command: String = str(k)
		var entry: Variant = cmds[k]
		var reason: String = ""
		if not command.begins_with(want) or command.length() == want.length():
			reason = "commands of the '%s' toolset must start with '%s'" % [prefix, want]
		elif entry_problem(entry) != "":
			reason = entry_problem(entry)
		elif _table.has(command):
			reason = "already registered by %s" % _owner_of.get(command, "another handler")
		if reason != "":
			(report["refused"] as Array).append({"command": command, "reason": reason})
			push_warning("godot_mcp: refused '%s' from %s: %s." % [command, handler_script_path, reason])
			continue
		var e: Dictionary = entry
		register(command, e["run"] as Callable, "ext:" + prefix, str(e["class"]), bool(e.get("dry_run", false)))
		(report["commands"] as Array).append(command)
	if not (report["commands"] as Array).is_empty():
		commands_changed.emit()
	return report


## Recompiles, from disk, every script under [param dir] that the editor has cached
## (what handlers.gd preloads), except [param skip], so a reload runs the new files.
func _refresh_cached_scripts(dir: String, skip: String) -> void:
	for file: String in DirAccess.get_files_at(dir):
		var path: String = dir.path_join(file)
		if path == skip or not file.ends_with(".gd") or not ResourceLoader.has_cached(path):
			continue
		var script: GDScript = load(path) as GDScript
		var source: String = FileAccess.get_file_as_string(path)
		if script != null and source != script.source_code:
			script.source_code = source
			script.reload()
	for sub: String in DirAccess.get_directories_at(dir):
		_refresh_cached_scripts(dir.path_join(sub), skip)


func _ext_error(report: Dictionary, msg: String) -> Dictionary:
	report["error"] = msg
	push_warning("godot_mcp: extension '%s' not loaded: %s." % [report["prefix"], msg])
	return report


## Frees handler Nodes and forgets everything (called when the plugin is disabled).
func shutdown() -> void:
	for obj: Object in _handler_objects:
		if is_instance_valid(obj) and obj.has_method("teardown"):
			obj.call("teardown")
		if is_instance_valid(obj) and not (obj is RefCounted):
			obj.free()
	_handler_objects.clear()
	_ext_objects.clear()
	_table.clear()
	_owner_of.clear()
	_class_of.clear()
	_pending.clear()


# --- dispatch ---------------------------------------------------------------------


## Handles one command. The answer is emitted through [signal responded], now for a
## synchronous handler, later for one that awaits.
func handle(id: String, command: String, params: Variant) -> void:
	var started: int = Time.get_ticks_msec()
	if debug:
		print("godot_mcp: <- %s %s" % [id, command])
	if not _table.has(command):
		_answer(id, command, started, fail("INTERNAL_ERROR", "The addon has no handler for '%s'. Reinstall the addon (godot-mcp addon install) so it matches the server." % command))
		return
	if params == null:
		params = {}
	if typeof(params) != TYPE_DICTIONARY:
		_answer(id, command, started, fail("VALIDATION_ERROR", "params must be a JSON object, got %s." % type_string(typeof(params))))
		return
	var cb: Callable = _table[command]
	if not cb.is_valid():
		_answer(id, command, started, _internal(command, "its handler object is gone"))
		return
	# Awaited, because a handler that awaits hands back its coroutine, and taking that
	# without await is a script error in debug builds ("Trying to call an async
	# function without await"). A handler that does not await answers right here.
	_pending[id] = {"command": command, "started": started, "deadline": started + _deadline_for(params as Dictionary)}
	var result: Variant = await cb.call(params)
	if not _pending.has(id):
		return # the watchdog already answered TIMEOUT
	_pending.erase(id)
	_answer(id, command, started, result)


## Answers TIMEOUT for awaiting handlers past their deadline. Called every frame.
func tick() -> void:
	if _pending.is_empty():
		return
	var now: int = Time.get_ticks_msec()
	for id: Variant in _pending.keys():
		var p: Dictionary = _pending[id]
		if now >= int(p["deadline"]):
			_pending.erase(id)
			_answer(str(id), str(p["command"]), int(p["started"]), fail("TIMEOUT", "The addon's handler for '%s' did not finish within %d s (it may have failed inside the addon after waiting; see the editor's Output panel). Retry, or check the editor state with godot_get_editor_state." % [p["command"], roundi((int(p["deadline"]) - int(p["started"])) / 1000.0)]))


## How many commands are waiting on an awaiting handler.
func pending_count() -> int:
	return _pending.size()


func _deadline_for(params: Dictionary) -> int:
	var t: Variant = params.get("timeout_ms")
	if typeof(t) == TYPE_INT or typeof(t) == TYPE_FLOAT:
		return maxi(ASYNC_DEADLINE_MS, int(t) + 5000)
	return ASYNC_DEADLINE_MS


func _internal(command: String, why: String) -> Dictionary:
	return fail("INTERNAL_ERROR", "The command '%s' failed inside the addon (%s). See the editor's Output panel for the script error; retry, and if it persists reinstall the addon (godot-mcp addon install)." % [command, why])


## Validates a handler's return value into a well-formed envelope and emits it.
func _answer(id: String, command: String, started: int, result: Variant) -> void:
	var response: Dictionary = _normalize(command, result)
	response["id"] = id
	var is_ok: bool = response["ok"]
	var code: String = "" if is_ok else str(response.get("error", ""))
	var elapsed: int = Time.get_ticks_msec() - started
	if debug:
		print("godot_mcp: -> %s %s %s (%d ms)" % [id, command, "ok" if is_ok else code, elapsed])
	command_finished.emit(command, is_ok, code, elapsed)
	responded.emit(response)


func _normalize(command: String, result: Variant) -> Dictionary:
	if typeof(result) != TYPE_DICTIONARY:
		var got: String = "nothing" if result == null else "a %s" % type_string(typeof(result))
		return _internal(command, "the handler returned %s instead of an answer" % got)
	var d: Dictionary = result
	if typeof(d.get("ok")) != TYPE_BOOL:
		return _internal(command, "the handler's answer has no ok field")
	if d["ok"]:
		var r: Variant = d.get("result", {})
		if r == null:
			r = {}
		if typeof(r) != TYPE_DICTIONARY:
			return _internal(command, "the handler's result is a %s, not an object" % type_string(typeof(r)))
		return {"ok": true, "result": ValueCodec.encode(r)}
	var code: String = str(d.get("error", ""))
	if not ERROR_CODES.has(code):
		return _internal(command, "the handler failed with an unknown error code '%s'" % code)
	var hint: String = str(d.get("hint", ""))
	if hint == "":
		hint = "The command '%s' failed with %s." % [command, code]
	var out: Dictionary = {"ok": false, "error": code, "hint": hint}
	var required: String = str(d.get("required", ""))
	if required != "":
		out["required"] = required
	return out
