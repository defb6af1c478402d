@tool
extends RefCounted
## Reads the editor's Output panel (the EditorLog's RichTextLabel) into numbered entries.
## Godot 4.4 gives scripts no logger hook, so this reads what the panel shows: each
## message is one line there, errors start with " ERROR: " and warnings with
## " WARNING: ". New lines are found after the last lines already taken (the panel
## drops its oldest lines past run/output/max_lines, and Clear empties it).

const KEEP := 5000  # entries kept; older ones are dropped (counted)
const TAIL := 3  # lines matched to find where the new ones start

var _entries: Array[Dictionary] = []
var _next_seq: int = 1
var _dropped: int = 0
var _tail: PackedStringArray = []  # the last lines taken
var _rtl: RichTextLabel = null

var _loc_re: RegEx = RegEx.create_from_string("^(res://[^\\s:]+|user://[^\\s:]+|[A-Za-z]:?[^\\s:]*\\.[A-Za-z0-9]+):(\\d+) - (.*)$")
var _at_re: RegEx = RegEx.create_from_string("\\((res://[^\\s()]+):(\\d+)\\)")
var _path_re: RegEx = RegEx.create_from_string("(res://[^\\s:'\"()]+)(?::(\\d+))?")


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


## Takes the panel's new lines. False when there is no panel.
func poll() -> bool:
	var rtl: RichTextLabel = _find_rtl()
	if rtl == null:
		return false
	var lines: PackedStringArray = rtl.get_parsed_text().split("\n")
	if lines.size() > 0 and lines[lines.size() - 1] == "":
		lines.resize(lines.size() - 1)
	var start: int = _new_start(lines)
	for i: int in range(start, lines.size()):
		_add(lines[i])
	var from: int = maxi(0, lines.size() - TAIL)
	_tail = lines.slice(from)
	return true


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


func _add(line: String) -> void:
	var e: Dictionary = {"seq": _next_seq, "severity": "info", "text": line}
	_next_seq += 1
	var msg: String = line.strip_edges()
	if msg.begins_with("ERROR: "):
		e["severity"] = "error"
		msg = msg.substr(7)
	elif msg.begins_with("WARNING: "):
		e["severity"] = "warning"
		msg = msg.substr(9)
	var m: RegExMatch = _loc_re.search(msg)
	if m != null:
		e["file"] = m.get_string(1)
		e["line"] = m.get_string(2).to_int()
		msg = m.get_string(3)
	elif e["severity"] != "info":
		m = _at_re.search(msg)
		if m == null:
			m = _path_re.search(msg)
		if m != null:
			e["file"] = m.get_string(1)
			if m.get_string(2) != "":
				e["line"] = m.get_string(2).to_int()
	e["message"] = msg
	_entries.append(e)
	if _entries.size() > KEEP:
		_entries.pop_front()
		_dropped += 1


func page(since: int, limit: int, severity: String) -> Dictionary:
	var out: Array[Dictionary] = []
	var has_more: bool = false
	var next: int = since
	var lost: int = 0
	if not _entries.is_empty() and since + 1 < int(_entries[0]["seq"]):
		lost = int(_entries[0]["seq"]) - since - 1
	for e: Dictionary in _entries:
		if int(e["seq"]) <= since:
			continue
		var sev: String = str(e["severity"])
		var wanted: bool = severity == "all" or sev == severity or (severity == "errors_and_warnings" and sev != "info")
		if not wanted:
			next = int(e["seq"])
			continue
		if out.size() >= limit:
			has_more = true
			break
		out.append(e)
		next = int(e["seq"])
	if not has_more and not _entries.is_empty():
		next = maxi(next, int(_entries[_entries.size() - 1]["seq"]))
	return {"entries": out, "next_cursor": next, "has_more": has_more, "dropped": lost, "available": _entries.size()}
