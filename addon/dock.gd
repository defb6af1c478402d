@tool
extends VBoxContainer
## The MCP dock: connection status, server version, enabled toolsets, extensions,
## and the last commands with their outcome. Built in code (no .tscn).

## Emitted by the Reconnect button.
signal reconnect_requested

const MAX_ROWS := 20
const OK_COLOR := Color(0.45, 0.85, 0.5)
const ERROR_COLOR := Color(1.0, 0.47, 0.42)
const WARN_COLOR := Color(1.0, 0.8, 0.35)

var _status: Label
var _detail: Label
var _server: Label
var _toolsets: Label
var _extensions: Label
var _log: ItemList
var _reconnect: Button


func _init() -> void:
	name = "MCP"
	custom_minimum_size = Vector2(200, 160)
	var row: HBoxContainer = HBoxContainer.new()
	add_child(row)
	_status = Label.new()
	_status.size_flags_horizontal = Control.SIZE_EXPAND_FILL
	_status.text = "Stopped"
	row.add_child(_status)
	_reconnect = Button.new()
	_reconnect.text = "Reconnect"
	_reconnect.tooltip_text = "Dial the godot-mcp server again now (also after another editor took over)."
	_reconnect.pressed.connect(func() -> void: reconnect_requested.emit())
	row.add_child(_reconnect)
	_detail = _wrapping_label("")
	_server = _wrapping_label("Server: –")
	_toolsets = _wrapping_label("Toolsets: –")
	_extensions = _wrapping_label("")
	_extensions.visible = false
	var heading: Label = Label.new()
	heading.text = "Last commands"
	add_child(heading)
	_log = ItemList.new()
	_log.size_flags_vertical = Control.SIZE_EXPAND_FILL
	_log.custom_minimum_size = Vector2(0, 120)
	_log.select_mode = ItemList.SELECT_SINGLE
	add_child(_log)


func _wrapping_label(text: String) -> Label:
	var l: Label = Label.new()
	l.text = text
	l.autowrap_mode = TextServer.AUTOWRAP_WORD_SMART
	l.custom_minimum_size = Vector2(150, 0)
	add_child(l)
	return l


## Shows the bridge status ("connected", "disconnected", "refused", "replaced", …).
func set_status(status: String, detail: String) -> void:
	var text: String = status.capitalize()
	var color: Color = OK_COLOR
	match status:
		"connected":
			text = "Connected"
		"connecting":
			text = "Connecting…"
			color = WARN_COLOR
		"disconnected":
			text = "Waiting for the server"
			color = WARN_COLOR
		"refused":
			text = "Refused by the server"
			color = ERROR_COLOR
		"replaced":
			text = "Another editor took over"
			color = ERROR_COLOR
		"stopped":
			text = "Stopped"
			color = WARN_COLOR
	_status.text = text
	_status.add_theme_color_override("font_color", color)
	_detail.text = detail
	_detail.visible = detail != ""
	_reconnect.visible = status != "connected"


## Shows the server's version and enabled toolsets (cmd_server_hello / cmd_toolsets_update).
func set_server_info(info: Dictionary) -> void:
	var version: String = str(info.get("server_version", "–"))
	var contract: Variant = info.get("contract_version")
	_server.text = "Server: %s%s" % [version, (" (contract %s)" % str(contract)) if contract != null else ""]
	var sets: Variant = info.get("enabled_toolsets")
	if sets == null:
		_toolsets.text = "Toolsets: –"
	elif (sets as PackedStringArray).is_empty():
		_toolsets.text = "Toolsets: core only"
	else:
		_toolsets.text = "Toolsets: " + ", ".join(sets as PackedStringArray)


## Lists the loaded extension handler folders (and why any was refused).
func set_extensions(extensions: Array[Dictionary]) -> void:
	var lines: PackedStringArray = []
	for e: Dictionary in extensions:
		if str(e.get("error", "")) != "":
			lines.append("%s: not loaded (%s)" % [e["prefix"], e["error"]])
		else:
			var refused: Array = e.get("refused", [])
			var line: String = "%s: %d command(s)" % [e["prefix"], (e.get("commands", []) as Array).size()]
			if not refused.is_empty():
				line += ", %d refused" % refused.size()
			lines.append(line)
	_extensions.text = "Extensions: " + "; ".join(lines)
	_extensions.visible = not lines.is_empty()


## Adds one command outcome at the top, keeping the last MAX_ROWS.
func add_command(command: String, ok: bool, error: String, elapsed_ms: int) -> void:
	var stamp: String = Time.get_time_string_from_system()
	var text: String = "%s  %s  %s  %d ms" % [stamp, command, "ok" if ok else error, elapsed_ms]
	var idx: int = _log.add_item(text, null, false)
	_log.set_item_custom_fg_color(idx, OK_COLOR if ok else ERROR_COLOR)
	_log.move_item(idx, 0)
	while _log.item_count > MAX_ROWS:
		_log.remove_item(_log.item_count - 1)
