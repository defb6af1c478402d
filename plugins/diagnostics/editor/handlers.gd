@tool
extends RefCounted
## The diagnostics toolset's editor side: the editor's Output panel (EditorLog) read
## from a cursor. godot-mcp installs this folder as res://addons/godot_mcp_ext/diagnostics/.

const EditorOutput := preload("editor_output.gd")

var _router: RefCounted = null
var _output: RefCounted = null
## res:// script -> modified time, as last seen (see _changed_scripts).
var _script_times: Dictionary = {}
## Scripts changed on disk when a rescan started, with the log's cursor then.
var _pending: Dictionary = {}


func setup(router: RefCounted) -> void:
	_router = router
	_output = EditorOutput.new()
	_output.call("poll")  # take what the panel shows now (boot messages included)
	_changed_scripts()  # what is on disk now is the baseline of the first rescan


func teardown() -> void:
	_output = null


func get_commands() -> Dictionary:
	return {
		"cmd_diagnostics_editor_log": {"class": "read_only", "run": _editor_log},
	}


## {since?: int, limit?: int, severity?: "all"|"error"|"warning"|"errors_and_warnings", rescan?: bool} ->
## {entries: [{seq, severity, message, text, file?, line?, dependency?, referenced_by?, source?}],
## next_cursor, has_more, dropped, available, scanning}
func _editor_log(params: Dictionary) -> Dictionary:
	var since: Variant = params.get("since", 0)
	var limit: Variant = params.get("limit", 200)
	var severity: Variant = params.get("severity", "all")
	if typeof(since) not in [TYPE_INT, TYPE_FLOAT] or int(since) < 0:
		return _router.call("fail", "VALIDATION_ERROR", "since must be a cursor: 0 or a next_cursor from a previous answer.")
	if typeof(limit) not in [TYPE_INT, TYPE_FLOAT] or int(limit) < 1 or int(limit) > 1000:
		return _router.call("fail", "VALIDATION_ERROR", "limit must be 1..1000.")
	if typeof(severity) != TYPE_STRING or not (str(severity) in ["all", "error", "warning", "errors_and_warnings"]):
		return _router.call("fail", "VALIDATION_ERROR", "severity must be all, error, warning or errors_and_warnings.")
	var rescan: Variant = params.get("rescan", false)
	if typeof(rescan) != TYPE_BOOL:
		return _router.call("fail", "VALIDATION_ERROR", "rescan must be true or false.")
	# The scan runs on after this answer (no await here: the scan may reload this very
	# script, which a suspended coroutine of it would not survive); the server polls
	# until scanning is false.
	var efs: EditorFileSystem = EditorInterface.get_resource_filesystem()
	if not bool(_output.call("poll")):
		return _router.call("fail", "PRECONDITION_FAILED", "The editor's Output panel (EditorLog) was not found in this editor; diagnostics_check_project works without it.")
	if bool(rescan) and not efs.is_scanning():
		var changed: PackedStringArray = _changed_scripts()
		if not changed.is_empty():
			_pending = {"scripts": changed, "cursor": int(_output.call("page", 0, 1, "all")["next_cursor"])}
		efs.scan()
	elif not bool(rescan) and not efs.is_scanning() and not _pending.is_empty():
		_parse_unreported()
		_output.call("poll")
	var page: Dictionary = _output.call("page", int(since), int(limit), str(severity))
	page["scanning"] = efs.is_scanning() or bool(rescan)
	return _router.call("ok", page)


## The scripts (.gd) whose modified time changed, or that are new, since the
## last call; res://addons, .godot and hidden or .gdignore'd folders skipped.
func _changed_scripts() -> PackedStringArray:
	var now: Dictionary = {}
	_scan_scripts("res://", now)
	var changed: PackedStringArray = []
	for path: String in now:
		if not _script_times.has(path) or int(_script_times[path]) != int(now[path]):
			changed.append(path)
	_script_times = now
	return changed


func _scan_scripts(dir: String, out: Dictionary) -> void:
	var d: DirAccess = DirAccess.open(dir)
	if d == null or FileAccess.file_exists(dir.path_join(".gdignore")):
		return
	for f: String in d.get_files():
		if f.get_extension() == "gd":
			var p: String = dir.path_join(f)
			out[p] = FileAccess.get_modified_time(p)
	for sub: String in d.get_directories():
		if sub.begins_with(".") or (dir == "res://" and sub == "addons"):
			continue
		_scan_scripts(dir.path_join(sub), out)


## After a rescan: a changed script the editor did not load while scanning
## (a headless Godot 4.8 editor skips that step) and of which the log says
## nothing since is parsed now, so its parse error reaches the Output panel
## as in a windowed editor. A script the scan reported is not parsed twice.
func _parse_unreported() -> void:
	var seen: Dictionary = {}
	var page: Dictionary = _output.call("page", int(_pending["cursor"]), 1000, "all")
	for e: Dictionary in page["entries"]:
		seen[str(e.get("file", ""))] = true
	for path: String in _pending["scripts"]:
		if not seen.has(path) and FileAccess.file_exists(path):
			ResourceLoader.load(path, "", ResourceLoader.CACHE_MODE_IGNORE)
	_pending = {}
