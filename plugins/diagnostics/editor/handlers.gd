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


## {since?: int, limit?: int, severity?: "error"|"warning"|"all"} ->
## {entries: [{seq, severity, message, text, file?, line?}], next_cursor, has_more, dropped, available}
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
	if not bool(_output.call("poll")):
		return _router.call("fail", "PRECONDITION_FAILED", "The editor's Output panel (EditorLog) was not found in this editor; diagnostics_check_project works without it.")
	return _router.call("ok", _output.call("page", int(since), int(limit), str(severity)))
