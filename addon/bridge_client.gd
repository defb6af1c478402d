@tool
extends Node
## The editor's end of the bridge: dials the godot-mcp server over WebSocket,
## says hello, answers commands through the router, and reconnects forever with
## exponential backoff (500 ms doubling to 5 s) until it is stopped or replaced.
##
## Latency: every frame drains all queued packets, and while commands flow the
## editor's low-processor sleep is lowered to 1 ms (restored after 1 s of quiet),
## so an unfocused editor does not add up to 100 ms to each command.

const CommandRouter := preload("command_router.gd")

## Emitted when the connection status or its detail changes (for the dock).
signal status_changed(status: String, detail: String)
## Emitted when the server's hello or toolset set changes (for the dock).
signal server_info_changed(info: Dictionary)

const DEFAULT_URL := "ws://127.0.0.1:9080"
const URL_ENV := "GODOT_MCP_BRIDGE_URL"
const TOKEN_ENV := "GODOT_MCP_BRIDGE_TOKEN"
const URL_SETTING := "godot_mcp/bridge_url"
const BUFFER_BYTES := 64 * 1024 * 1024 # envelope.MaxFrameBytes
const MAX_QUEUED_PACKETS := 4096
const BACKOFF_START_MS := 500
const BACKOFF_CAP_MS := 5000
const HELLO_TIMEOUT_MS := 10000
const BOOST_SLEEP_USEC := 1000
const BOOST_HOLD_MS := 30000 # an agent thinks for seconds between calls: keep the boost through its pauses
const BOOST_HOLD_ENV := "GODOT_MCP_BOOST_HOLD_MS" # override (ms), e.g. for tests
const CLOSE_PEER_REPLACED := 4000
const CLOSE_POLICY_VIOLATION := 1008

## Connection statuses shown in the dock.
const STATUS_CONNECTING := "connecting"
const STATUS_CONNECTED := "connected"
const STATUS_DISCONNECTED := "disconnected"
const STATUS_REFUSED := "refused"
const STATUS_REPLACED := "replaced"
const STATUS_STOPPED := "stopped"

enum Phase { STOPPED, WAITING, CONNECTING, HANDSHAKING, CONNECTED, REPLACED }

var router: CommandRouter = null
var addon_version: String = ""
var debug: bool = false
## The URL of the current or last attempt.
var url: String = ""
## The last cmd_server_hello params (plus the hello answer's fields).
var server_info: Dictionary = {}
var status: String = STATUS_STOPPED
var status_detail: String = ""

var _phase: Phase = Phase.STOPPED
var _peer: WebSocketPeer = null
var _backoff_ms: int = BACKOFF_START_MS
var _next_attempt_ms: int = 0
var _hello_id: String = ""
var _hello_nonce: String = ""
var _commands_after_hello: bool = false # the command table changed while the hello was in flight
var _hello_seq: int = 0
var _hello_sent_ms: int = 0
var _refused_hint: String = ""
var _refused_this_attempt: bool = false
var _warned_hint: String = ""
var _replaced_hint: String = ""
var _boosting: bool = false
var _saved_sleep_usec: int = 0
var _boost_until_ms: int = 0


func _ready() -> void:
	process_mode = Node.PROCESS_MODE_ALWAYS


func _exit_tree() -> void:
	stop()


## Starts connecting (now) and keeps the link up until stop().
func start() -> void:
	if router != null and not router.responded.is_connected(_on_router_responded):
		router.responded.connect(_on_router_responded)
	if router != null and not router.commands_changed.is_connected(_on_commands_changed):
		router.commands_changed.connect(_on_commands_changed)
	_replaced_hint = ""
	_refused_hint = ""
	_backoff_ms = BACKOFF_START_MS
	_next_attempt_ms = 0
	_phase = Phase.WAITING
	_set_status(STATUS_CONNECTING, "")


## Drops the link and any pending reconnect; restores the editor's sleep setting.
func stop() -> void:
	_close_peer(1000, "editor plugin stopped")
	_phase = Phase.STOPPED
	_end_boost()
	_set_status(STATUS_STOPPED, "")


## Reconnects at once, also after PEER_REPLACED (the dock's Reconnect button).
func reconnect_now() -> void:
	_close_peer(1000, "reconnecting")
	start()


## The bridge URL: $GODOT_MCP_BRIDGE_URL, else the editor setting godot_mcp/bridge_url,
## else ws://127.0.0.1:9080.
static func resolve_url() -> String:
	var from_env: String = OS.get_environment(URL_ENV).strip_edges()
	if from_env != "":
		return from_env
	var es: EditorSettings = EditorInterface.get_editor_settings()
	if es != null and es.has_setting(URL_SETTING):
		var from_setting: String = str(es.get_setting(URL_SETTING)).strip_edges()
		if from_setting != "":
			return from_setting
	return DEFAULT_URL


func _process(_delta: float) -> void:
	if router != null:
		router.tick()
	match _phase:
		Phase.WAITING:
			if Time.get_ticks_msec() >= _next_attempt_ms:
				_dial()
		Phase.CONNECTING, Phase.HANDSHAKING, Phase.CONNECTED:
			_poll()
	_update_boost()


func _dial() -> void:
	url = resolve_url()
	_refused_this_attempt = false
	_peer = WebSocketPeer.new()
	# Before connecting: the defaults (64 KiB) cannot carry a screenshot or a big tree.
	_peer.inbound_buffer_size = BUFFER_BYTES
	_peer.outbound_buffer_size = BUFFER_BYTES
	_peer.max_queued_packets = MAX_QUEUED_PACKETS
	var err: Error = _peer.connect_to_url(url)
	if err != OK:
		_peer = null
		_retry_later(STATUS_DISCONNECTED, "cannot dial %s (%s); check %s or the %s editor setting" % [url, error_string(err), URL_ENV, URL_SETTING])
		return
	_phase = Phase.CONNECTING
	if status != STATUS_REFUSED and status != STATUS_DISCONNECTED:
		_set_status(STATUS_CONNECTING, url)


func _poll() -> void:
	if _peer == null:
		return
	_peer.poll()
	var ready_state: WebSocketPeer.State = _peer.get_ready_state()
	if ready_state == WebSocketPeer.STATE_OPEN:
		if _phase == Phase.CONNECTING:
			_send_hello()
		_drain()
		if _phase == Phase.HANDSHAKING and not _refused_this_attempt and Time.get_ticks_msec() - _hello_sent_ms > HELLO_TIMEOUT_MS:
			_close_peer(1000, "no answer to hello")
			_retry_later(STATUS_DISCONNECTED, "the server at %s did not answer the hello within %d s" % [url, roundi(HELLO_TIMEOUT_MS / 1000.0)])
	elif ready_state == WebSocketPeer.STATE_CLOSING:
		_drain()
	elif ready_state == WebSocketPeer.STATE_CLOSED:
		_drain()
		_on_closed()


## Handles every packet already queued, then flushes the answers in this same frame.
func _drain() -> void:
	var handled: int = 0
	while _peer != null and _peer.get_available_packet_count() > 0:
		var packet: PackedByteArray = _peer.get_packet()
		if not _peer.was_string_packet():
			continue
		handled += 1
		_on_message(packet.get_string_from_utf8())
	if handled > 0:
		_kick_boost()
		if _peer != null:
			_peer.poll()


func _on_message(text: String) -> void:
	var parsed: Variant = JSON.parse_string(text)
	if typeof(parsed) != TYPE_DICTIONARY:
		if debug:
			print("godot_mcp: ignored a frame that is not a JSON object (%d bytes)" % text.length())
		return
	var msg: Dictionary = parsed
	var id: String = _id_string(msg.get("id"))
	if msg.has("command"):
		var command: String = str(msg["command"])
		if _phase != Phase.CONNECTED:
			# Nothing is routed before the server accepted this editor's hello (and,
			# with a token, proved it knows it): whatever holds the port is not trusted.
			if debug:
				print("godot_mcp: ignored '%s' sent before the hello was accepted" % command)
			return
		var params: Variant = msg.get("params", {})
		match command:
			"cmd_server_hello":
				_on_server_hello(params)
				if id != "":
					_send({"id": id, "ok": true, "result": {}})
			"cmd_toolsets_update":
				if typeof(params) == TYPE_DICTIONARY:
					server_info["enabled_toolsets"] = _string_list((params as Dictionary).get("enabled_toolsets", []))
					server_info_changed.emit(server_info)
				if id != "":
					_send({"id": id, "ok": true, "result": {}})
			_:
				if id == "":
					if debug:
						print("godot_mcp: ignored push '%s'" % command)
					return
				if router == null:
					_send({"id": id, "ok": false, "error": "INTERNAL_ERROR", "hint": "The addon is shutting down; retry in a moment."})
					return
				router.handle(id, command, params)
		return
	if not msg.has("ok"):
		return
	if id != "" and id == _hello_id:
		_on_hello_answer(msg)
	elif str(msg.get("error", "")) == "PEER_REPLACED":
		_on_replaced(str(msg.get("hint", "")))
	elif debug:
		print("godot_mcp: ignored an answer with id '%s'" % id)


func _send_hello() -> void:
	_hello_seq += 1
	_commands_after_hello = false # this hello carries the current table
	_hello_id = "hello-%d" % _hello_seq
	var project_dir: String = ProjectSettings.globalize_path("res://")
	if project_dir.length() > 1 and project_dir.ends_with("/"):
		project_dir = project_dir.substr(0, project_dir.length() - 1)
	var params: Dictionary = {
		"project_dir": project_dir,
		"godot_version": str(Engine.get_version_info().get("string", "")),
		"addon_version": addon_version,
		"godot_executable": OS.get_executable_path(),
	}
	if router != null:
		params["commands"] = router.command_table()
		params["extensions"] = router.loaded_extensions()
	# A fresh nonce per hello. With a token, the hello carries a proof of it, never the
	# token itself, and the server must answer with its own proof (_on_hello_answer):
	# a program that took the bridge port learns nothing and gets no command routed.
	_hello_nonce = Crypto.new().generate_random_bytes(32).hex_encode()
	params["nonce"] = _hello_nonce
	var token: String = OS.get_environment(TOKEN_ENV)
	if token != "":
		params["token_proof"] = hello_proof(token, "editor", _hello_nonce)
	_phase = Phase.HANDSHAKING
	_hello_sent_ms = Time.get_ticks_msec()
	_send({"id": _hello_id, "command": "cmd_editor_hello", "params": params})


## An extension loaded after the hello: the server gets the whole command table again
## (cmd_editor_commands), so it can hold toolsets to the new commands' classes.
func _on_commands_changed() -> void:
	if _phase == Phase.HANDSHAKING:
		_commands_after_hello = true # the hello in flight carries the old table
	elif _phase == Phase.CONNECTED and router != null:
		_send({"command": "cmd_editor_commands", "params": {"commands": router.command_table(), "extensions": router.loaded_extensions()}})


## The bridge token proof both ends exchange in the hello (envelope.HelloProof):
## hex(HMAC-SHA256(token, "godot-mcp " + side + "\n" + nonce)).
static func hello_proof(token: String, side: String, nonce: String) -> String:
	var mac := HMACContext.new()
	mac.start(HashingContext.HASH_SHA256, token.to_utf8_buffer())
	mac.update(("godot-mcp %s\n%s" % [side, nonce]).to_utf8_buffer())
	return mac.finish().hex_encode()


func _on_hello_answer(msg: Dictionary) -> void:
	if msg.get("ok") == true and not _server_proven(msg.get("result", {})):
		_refused_this_attempt = true
		_refused_hint = "the program at %s accepted this editor without proving it knows GODOT_MCP_BRIDGE_TOKEN: it is not the godot-mcp server (is another program holding the port?), so this editor does not connect to it" % url
		if _refused_hint != _warned_hint:
			_warned_hint = _refused_hint
			push_warning("godot_mcp: " + _refused_hint)
		_close_peer(1000, "server did not prove the token")
		_retry_later(STATUS_REFUSED, _refused_hint)
		return
	if msg.get("ok") == true:
		_phase = Phase.CONNECTED
		if _commands_after_hello:
			_commands_after_hello = false
			_on_commands_changed()
		_backoff_ms = BACKOFF_START_MS
		_refused_hint = ""
		_warned_hint = ""
		var result: Variant = msg.get("result", {})
		if typeof(result) == TYPE_DICTIONARY:
			for k: String in ["server_version", "contract_version"]:
				if (result as Dictionary).has(k):
					server_info[k] = result[k]
			server_info_changed.emit(server_info)
		_set_status(STATUS_CONNECTED, url)
		return
	# Refused (bad or missing token, …): drop the link and keep backing off, so a
	# fixed token on either side is picked up without touching the editor.
	_refused_this_attempt = true
	_refused_hint = str(msg.get("hint", "the server refused the hello"))
	if _refused_hint != _warned_hint:
		_warned_hint = _refused_hint
		push_warning("godot_mcp: the server at %s refused this editor: %s" % [url, _refused_hint])
	_close_peer(1000, "hello refused")
	_retry_later(STATUS_REFUSED, _refused_hint)


## With GODOT_MCP_BRIDGE_TOKEN set, the hello answer must carry the server's proof
## of it for this hello's nonce; without a token there is nothing to prove.
func _server_proven(result: Variant) -> bool:
	var token: String = OS.get_environment(TOKEN_ENV)
	if token == "":
		return true
	if typeof(result) != TYPE_DICTIONARY:
		return false
	return str((result as Dictionary).get("server_proof", "")) == hello_proof(token, "server", _hello_nonce)


func _on_server_hello(params: Variant) -> void:
	if typeof(params) != TYPE_DICTIONARY:
		return
	var p: Dictionary = params
	for k: String in ["server_version", "contract_version", "min_compatible_contract"]:
		if p.has(k):
			server_info[k] = p[k]
	if p.has("enabled_toolsets"):
		server_info["enabled_toolsets"] = _string_list(p["enabled_toolsets"])
	server_info_changed.emit(server_info)


func _on_replaced(hint: String) -> void:
	_replaced_hint = hint if hint != "" else "another editor connected to the server"
	_close_peer(1000, "replaced")
	_phase = Phase.REPLACED
	push_warning("godot_mcp: %s. This editor stops reconnecting; re-enable the plugin or press Reconnect in the MCP dock to take the bridge back." % _replaced_hint)
	_set_status(STATUS_REPLACED, _replaced_hint)


func _on_closed() -> void:
	var code: int = _peer.get_close_code() if _peer != null else -1
	var reason: String = _peer.get_close_reason() if _peer != null else ""
	var was_connected: bool = _phase == Phase.CONNECTED
	_peer = null
	if _phase == Phase.REPLACED or _phase == Phase.STOPPED:
		return
	if code == CLOSE_PEER_REPLACED:
		_on_replaced(reason)
		return
	if code == CLOSE_POLICY_VIOLATION and not _refused_this_attempt:
		# Godot drops the frames that arrive together with a close frame, so the
		# refused hello's answer is often never read: the close reason says why.
		_refused_this_attempt = true
		_refused_hint = "the server closed the connection (%s)" % (reason if reason != "" else "policy violation")
		if reason.contains("token"):
			_refused_hint += "; set GODOT_MCP_BRIDGE_TOKEN to the same value for the server and the editor"
		if _refused_hint != _warned_hint:
			_warned_hint = _refused_hint
			push_warning("godot_mcp: the server at %s refused this editor: %s" % [url, _refused_hint])
	if _refused_this_attempt:
		_retry_later(STATUS_REFUSED, _refused_hint)
	elif was_connected:
		_retry_later(STATUS_DISCONNECTED, "connection to %s lost (code %d%s); reconnecting" % [url, code, (", " + reason) if reason != "" else ""])
	else:
		_retry_later(STATUS_DISCONNECTED, "no godot-mcp server at %s yet; retrying in the background" % url)


func _retry_later(new_status: String, detail: String) -> void:
	_next_attempt_ms = Time.get_ticks_msec() + _backoff_ms
	_backoff_ms = mini(_backoff_ms * 2, BACKOFF_CAP_MS)
	_phase = Phase.WAITING
	_set_status(new_status, detail)


func _close_peer(code: int, reason: String) -> void:
	if _peer != null:
		if _peer.get_ready_state() == WebSocketPeer.STATE_OPEN or _peer.get_ready_state() == WebSocketPeer.STATE_CONNECTING:
			_peer.close(code, reason)
			_peer.poll()
		_peer = null


## Logs at most one line when the status itself changes, never per retry: "connected"
## and "connection lost" always, "no server yet" only with godot_mcp/debug. Refusal
## and replacement are reported once each with push_warning where they happen.
func _set_status(new_status: String, detail: String) -> void:
	var previous: String = status
	status = new_status
	status_detail = detail
	if new_status != previous:
		if new_status == STATUS_CONNECTED:
			print("godot_mcp: connected to the godot-mcp server at %s." % url)
		elif new_status == STATUS_DISCONNECTED and (previous == STATUS_CONNECTED or debug):
			print("godot_mcp: %s." % detail)
	status_changed.emit(status, detail)


func _on_router_responded(response: Dictionary) -> void:
	_send(response)
	if _peer != null:
		_peer.poll()


func _send(message: Dictionary) -> void:
	if _peer == null or _peer.get_ready_state() != WebSocketPeer.STATE_OPEN:
		if debug:
			print("godot_mcp: dropped a message, the bridge is not open")
		return
	var text: String = JSON.stringify(message)
	var err: Error = _peer.send_text(text)
	if err != OK and message.has("id") and message.has("ok"):
		# Too big for the outbound buffer (or the link is failing): still answer once.
		_peer.send_text(JSON.stringify({
			"id": message["id"], "ok": false, "error": "INTERNAL_ERROR",
			"hint": "The addon could not send its answer (%d bytes, %s). Ask for less at a time (a smaller depth, page or region)." % [text.length(), error_string(err)],
		}))


static func _id_string(v: Variant) -> String:
	match typeof(v):
		TYPE_STRING:
			return v
		TYPE_FLOAT:
			var f: float = v
			if f == floorf(f):
				return str(int(f))
			return str(f)
		TYPE_INT:
			return str(v)
	return ""


static func _string_list(v: Variant) -> PackedStringArray:
	var out: PackedStringArray = []
	if typeof(v) == TYPE_ARRAY or typeof(v) == TYPE_PACKED_STRING_ARRAY:
		for e: Variant in v:
			out.append(str(e))
	return out


# --- latency boost ------------------------------------------------------------------


## How long the latency boost outlives the last command, in ms.
static func boost_hold_ms() -> int:
	var from_env: String = OS.get_environment(BOOST_HOLD_ENV).strip_edges()
	if from_env.is_valid_int() and from_env.to_int() >= 0:
		return from_env.to_int()
	return BOOST_HOLD_MS


func _kick_boost() -> void:
	_boost_until_ms = Time.get_ticks_msec() + boost_hold_ms()
	var current: int = OS.low_processor_usage_mode_sleep_usec
	if not _boosting:
		_saved_sleep_usec = current
		_boosting = true
	elif current != BOOST_SLEEP_USEC:
		# The editor changed it since the last frame (focus in/out): restore that one.
		_saved_sleep_usec = current
	if current != BOOST_SLEEP_USEC:
		OS.low_processor_usage_mode_sleep_usec = BOOST_SLEEP_USEC


func _update_boost() -> void:
	if not _boosting:
		return
	var current: int = OS.low_processor_usage_mode_sleep_usec
	if current != BOOST_SLEEP_USEC:
		# The editor changed it meanwhile (focus in/out): that is the value to restore.
		_saved_sleep_usec = current
		OS.low_processor_usage_mode_sleep_usec = BOOST_SLEEP_USEC
	var busy: bool = router != null and router.pending_count() > 0
	if Time.get_ticks_msec() >= _boost_until_ms and not busy:
		_end_boost()


func _end_boost() -> void:
	if _boosting:
		OS.low_processor_usage_mode_sleep_usec = _saved_sleep_usec
		_boosting = false
