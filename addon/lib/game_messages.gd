@tool
extends RefCounted
## Game messages: how a toolset reaches its own game code (sdk.Toolset.GameCode) in the
## running game. The server installs that code as
## res://addons/godot_mcp_ext/<toolset>/game/ (game.gd at its root); the runtime
## probe loads it when a game starts (runtime/probe_game_code.gd), registering each of
## game.gd's get_messages() as "<toolset>:<name>". A request travels the runtime
## toolset's link (DebuggerPlugin.runtime_link): the editor's debugger channel, one
## bounded answer.
##
## Two ways in, both held to the class rules:
## - cmd_game_message {toolset, message, params?, timeout_ms?} (core, class runtime):
##   what sdk.GameMessage sends. The server lets only a runtime tool send it and sets
##   toolset to the caller's own.
## - ask_from(router, command, message, params, timeout_ms) for a toolset's editor code:
##   from its editor command [param command], which must be its own and declared
##   runtime (otherwise PRECONDITION_FAILED, required command_class).

const DebuggerPlugin := preload("../runtime/debugger_plugin.gd")

const DEFAULT_TIMEOUT_MS := 10000
## Below the router's 120 s watchdog on an awaiting handler.
const MAX_TIMEOUT_MS := 60000
## The probe's own message prefix: no toolset's.
const PROBE_PREFIX := "godot_mcp"

static var _name_re: RegEx = RegEx.create_from_string("^[a-z][a-z0-9_]*$")


## cmd_game_message {toolset, message, params?, timeout_ms?} -> the game code's answer.
static func relay(router: RefCounted, params: Dictionary) -> Dictionary:
	var toolset: Variant = params.get("toolset", "")
	var message: Variant = params.get("message", "")
	if typeof(toolset) != TYPE_STRING or _name_re.search(str(toolset)) == null:
		return router.call("fail", "VALIDATION_ERROR", "toolset must be a toolset name (lower-case letters, digits and '_'), got '%s'." % str(toolset))
	var body: Variant = params.get("params", {})
	if body == null:
		body = {}
	if typeof(body) != TYPE_DICTIONARY:
		return router.call("fail", "VALIDATION_ERROR", "params of game message '%s' must be an object." % str(message))
	var timeout: Variant = params.get("timeout_ms", DEFAULT_TIMEOUT_MS)
	if typeof(timeout) == TYPE_FLOAT and is_finite(timeout as float) and (timeout as float) == floorf(timeout as float):
		timeout = int(timeout)
	if typeof(timeout) != TYPE_INT or int(timeout) < 1 or int(timeout) > MAX_TIMEOUT_MS:
		return router.call("fail", "VALIDATION_ERROR", "timeout_ms must be a whole number from 1 to %d." % MAX_TIMEOUT_MS)
	return await ask(router, str(toolset), str(message) if typeof(message) == TYPE_STRING else "", body, int(timeout))


## For a toolset's editor code: sends game message [param message] of the toolset that
## owns editor command [param command] (the command being served, declared runtime)
## and waits at most [param timeout_ms] for the answer ({ok, result} or a failure).
## Call it with await.
static func ask_from(router: RefCounted, command: String, message: String, params: Dictionary, timeout_ms: int = DEFAULT_TIMEOUT_MS) -> Dictionary:
	var info: Dictionary = router.call("command_info", command)
	var owner: String = str(info.get("owner", ""))
	if info.is_empty() or not owner.begins_with("ext:"):
		return router.call("fail", "VALIDATION_ERROR", "'%s' is not a toolset's editor command; send game messages from your own cmd_<toolset>_* command." % command)
	if str(info.get("class", "")) != "runtime":
		return router.call("fail", "PRECONDITION_FAILED", "'%s' is declared %s, and only a runtime command reaches the running game. Declare it {\"class\": \"runtime\"} (and its tool sdk.Runtime)." % [command, info.get("class", "")], "command_class")
	return await ask(router, owner.substr(4), message, params, timeout_ms)


## Sends "<toolset>:<message>" to the running game's probe and waits (bounded) for the
## answer of the toolset's game code.
static func ask(router: RefCounted, toolset: String, message: String, params: Dictionary, timeout_ms: int) -> Dictionary:
	if _name_re.search(message) == null:
		return router.call("fail", "VALIDATION_ERROR", "A game message name is lower-case letters, digits and '_' (the probe prefixes it with the toolset: '%s:<name>'), got '%s'." % [toolset, message])
	if toolset == PROBE_PREFIX:
		return router.call("fail", "VALIDATION_ERROR", "'%s' is the probe's own message prefix, not a toolset's." % PROBE_PREFIX)
	var link: RefCounted = DebuggerPlugin.runtime_link
	if link == null or not is_instance_valid(link):
		return router.call("fail", "PRECONDITION_FAILED", "Toolset '%s''s game code runs in the runtime toolset's probe, and the runtime toolset is not enabled. Enable it (godot_enable_toolset runtime), then play the game with godot_runtime_play." % toolset, "runtime_probe")
	var stale: Dictionary = _stale(router, link, toolset)
	if not stale.is_empty():
		return stale
	return await link.call("ask", toolset + ":" + message, params, timeout_ms)


## A failure when the running game reported in without the toolset's game code, or with
## another version than the editor has installed; {} otherwise (and when no game runs:
## the link says so).
static func _stale(router: RefCounted, link: RefCounted, toolset: String) -> Dictionary:
	var monitor: Variant = link.get("monitor")
	if monitor == null:
		return {}
	var sid: int = monitor.call("active_session")
	if sid < 0 or not bool(monitor.call("probe_connected", sid)):
		return {}
	var st: Dictionary = monitor.call("session_state", sid)
	var probe: Dictionary = st.get("probe", {})
	var game_code: Variant = probe.get("game_code", null)
	if typeof(game_code) != TYPE_DICTIONARY:
		return router.call("fail", "PRECONDITION_FAILED", "The running game's probe is older than the addon and loads no toolset game code. Play the game again (godot_runtime_play).", "toolset_game_code")
	var installed: String = str((router.call("loaded_extensions") as Dictionary).get(toolset, ""))
	var have: Variant = (game_code as Dictionary).get(toolset, null)
	if typeof(have) != TYPE_DICTIONARY:
		return router.call("fail", "PRECONDITION_FAILED", "The running game started without toolset '%s''s game code (it was installed after the game started). Play the game again (godot_runtime_play) so the probe loads it." % toolset, "toolset_game_code")
	var h: Dictionary = have
	if str(h.get("error", "")) != "":
		return router.call("fail", "PRECONDITION_FAILED", "Toolset '%s''s game code did not load in the running game: %s. Fix it (the game's output has the script error), then play the game again." % [toolset, h["error"]], "toolset_game_code")
	if installed != "" and str(h.get("version", "")) != installed:
		return router.call("fail", "PRECONDITION_FAILED", "The running game runs version %s of toolset '%s''s game code, and version %s is installed now. Play the game again (godot_runtime_play)." % [h.get("version", ""), toolset, installed], "toolset_game_code")
	return {}
