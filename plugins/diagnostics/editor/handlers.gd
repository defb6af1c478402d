@tool
extends RefCounted
## The diagnostics toolset's editor side: the editor's Output panel (EditorLog) read
## from a cursor. godot-mcp installs this folder as res://addons/godot_mcp_ext/diagnostics/.

const EditorOutput := preload("editor_output.gd")

var _router: RefCounted = null
var _output: RefCounted = null


func setup(router: RefCounted) -> void:
	_router = router
	_output = EditorOutput.new()
	_output.call("poll")  # take what the panel shows now (boot messages included)


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
	if bool(rescan) and not efs.is_scanning():
		efs.scan()
	if not bool(_output.call("poll")):
		return _router.call("fail", "PRECONDITION_FAILED", "The editor's Output panel (EditorLog) was not found in this editor; diagnostics_check_project works without it.")
	var page: Dictionary = _output.call("page", int(since), int(limit), str(severity))
	page["scanning"] = efs.is_scanning() or bool(rescan)
	return _router.call("ok", page)
