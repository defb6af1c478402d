@tool
extends RefCounted
## The errors and warnings the editor's Output panel (EditorLog) shows anew: the error
## feed's source of editor errors on Godot 4.4, which has no Logger (lib/error_feed.gd).
## Each message is one line of the panel; errors start with "ERROR: " and warnings
## with "WARNING: ". New lines are the ones after the last lines already taken (the
## panel drops its oldest lines past run/output/max_lines, and Clear empties it). The
## diagnostics toolset reads the whole panel the same way (its editor_output.gd).

const TAIL := 3 # lines matched to find where the new ones start

var _tail: PackedStringArray = []
var _rtl: RichTextLabel = null
var _loc_re: RegEx = RegEx.create_from_string("^(res://[^\\s:]+|user://[^\\s:]+|built-in):(\\d+) - (.*)$")
var _at_re: RegEx = RegEx.create_from_string("(res://[^\\s:'\"()]*[^\\s:'\"().,]):(\\d+)")
var _count_re: RegEx = RegEx.create_from_string("^\\(\\d+\\)\\s*")


func _find_rtl() -> RichTextLabel:
	if _rtl != null and is_instance_valid(_rtl):
		return _rtl
	var base: Control = EditorInterface.get_base_control()
	if base == null:
		return null
	var logs: Array[Node] = base.find_children("*", "EditorLog", true, false)
	if logs.is_empty():
		return null
	var labels: Array[Node] = logs[0].find_children("*", "RichTextLabel", true, false)
	if labels.is_empty():
		return null
	_rtl = labels[0] as RichTextLabel
	return _rtl


## The panel's new error and warning lines: [{severity, message, file?, line?}].
func poll() -> Array[Dictionary]:
	var out: Array[Dictionary] = []
	var rtl: RichTextLabel = _find_rtl()
	if rtl == null:
		return out
	var lines: PackedStringArray = rtl.get_parsed_text().split("\n")
	if lines.size() > 0 and lines[lines.size() - 1] == "":
		lines.resize(lines.size() - 1)
	var start: int = _new_start(lines)
	for i: int in range(start, lines.size()):
		var e: Dictionary = _parse(lines[i])
		if not e.is_empty():
			out.append(e)
	_tail = lines.slice(maxi(0, lines.size() - TAIL))
	return out


## Index of the first line not taken yet: after the latest place where the last lines
## taken appear (all lines when they are not there: the panel was cleared).
func _new_start(lines: PackedStringArray) -> int:
	if _tail.is_empty():
		return 0
	var n: int = _tail.size()
	var i: int = lines.size() - n
	while i >= 0:
		var same: bool = true
		for k: int in n:
			if lines[i + k] != _tail[k]:
				same = false
				break
		if same:
			return i + n
		i -= 1
	return 0


func _parse(line: String) -> Dictionary:
	# Godot 4.5+ puts a thin space (U+2009) before the ERROR:/WARNING: label.
	var msg: String = _count_re.sub(line.strip_edges().lstrip("\u2009 "), "")
	var e: Dictionary = {}
	if msg.begins_with("ERROR: "):
		e["severity"] = "error"
		msg = msg.substr(7)
	elif msg.begins_with("WARNING: "):
		e["severity"] = "warning"
		msg = msg.substr(9)
	else:
		return {}
	var m: RegExMatch = _loc_re.search(msg)
	if m != null:
		e["file"] = m.get_string(1)
		e["line"] = m.get_string(2).to_int()
		msg = m.get_string(3)
	else:
		m = _at_re.search(msg)
		if m != null:
			e["file"] = m.get_string(1)
			e["line"] = m.get_string(2).to_int()
	e["message"] = msg
	return e
