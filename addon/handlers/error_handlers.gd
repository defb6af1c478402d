@tool
extends RefCounted
## The error feed's command: cmd_error_feed, which the server sends after every tool
## call to attach the editor's and the game's new errors to the call's result
## (lib/error_feed.gd; docs/envelope.md "Errors attached to results"). It belongs to
## no toolset: toolsets read the editor's log and the game's errors with their own
## tools (godot_diagnostics_editor_log, godot_runtime_get_errors).

const ErrorFeed := preload("../lib/error_feed.gd")
const CommandRouter := preload("../command_router.gd")

var _router: CommandRouter = null
var _feed: ErrorFeed = null


func setup(router: CommandRouter) -> void:
	_router = router
	_feed = ErrorFeed.new()
	_feed.start()


func teardown() -> void:
	if _feed != null:
		_feed.stop()
		_feed = null


func get_commands() -> Dictionary:
	return {
		"cmd_error_feed": {"class": "read_only", "run": error_feed},
	}


## {since?: int >= 0, feed?: String, limit?: 1..50} ->
## {feed, next_cursor, entries: [{severity, source, message, file?, line?, repeats?}],
## errors, warnings, dropped}: what is new after since (0: everything kept). A since
## of another feed (feed differs: the editor or the addon restarted) reads from 0.
func error_feed(params: Dictionary) -> Dictionary:
	var since: Variant = params.get("since", 0)
	var feed: Variant = params.get("feed", "")
	var limit: Variant = params.get("limit", 5)
	if typeof(since) not in [TYPE_INT, TYPE_FLOAT] or int(since) < 0:
		return _router.fail("VALIDATION_ERROR", "since must be 0 or a next_cursor from a previous answer.")
	if typeof(feed) != TYPE_STRING:
		return _router.fail("VALIDATION_ERROR", "feed must be the feed of a previous answer, or \"\".")
	if typeof(limit) not in [TYPE_INT, TYPE_FLOAT] or int(limit) < 1 or int(limit) > 50:
		return _router.fail("VALIDATION_ERROR", "limit must be 1..50.")
	if _feed == null:
		return _router.fail("PRECONDITION_FAILED", "The error feed is not running; re-enable the godot_mcp plugin.")
	return _router.ok(_feed.read(int(since), str(feed), int(limit)))
