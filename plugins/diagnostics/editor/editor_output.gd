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
var _path_re: RegEx = RegEx.create_from_string("(res://[^\\s:'\"()]*[^\\s:'\"().,])(?::(\\d+))?")
var _referrers_of: Dictionary = {}  # missing res:// path -> [{file, line}], found during one poll


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
	_referrers_of.clear()
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
	# Godot 4.5+ puts a thin space (U+2009) between the line's indent and its
	# ERROR:/WARNING: label; 4.4 has none (docs/godot-versions.md).
	var msg: String = line.strip_edges().lstrip("\u2009 ")
	if msg.begins_with("ERROR: "):
		e["severity"] = "error"
		msg = msg.substr(7)
	elif msg.begins_with("WARNING: "):
		e["severity"] = "warning"
		msg = msg.substr(9)
	var m: RegExMatch = _loc_re.search(msg)
	if m != null:
		msg = m.get_string(3)
		if m.get_string(1).begins_with("res://") or m.get_string(1).begins_with("user://"):
			e["file"] = m.get_string(1)
			e["line"] = m.get_string(2).to_int()
		else:
			e["source"] = "%s:%s" % [m.get_string(1), m.get_string(2)]  # the engine's C++ location
			m = null
	if m == null and e["severity"] != "info":
		m = _at_re.search(msg)
		if m == null:
			m = _path_re.search(msg)
		if m != null:
			e["file"] = m.get_string(1)
			if m.get_string(2) != "":
				e["line"] = m.get_string(2).to_int()
			elif not FileAccess.file_exists(str(e["file"])) and not DirAccess.dir_exists_absolute(str(e["file"])):
				# A missing file: name it as the dependency, and the scene or resource
				# that refers to it as the place (the engine's message does not).
				e["dependency"] = e["file"]
				e.erase("file")
				var refs: Array = _referrers(str(e["dependency"]))
				if not refs.is_empty():
					e["file"] = refs[0]["file"]
					e["line"] = refs[0]["line"]
					e["referenced_by"] = refs
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


## The text scenes and resources (res://addons and hidden folders skipped) that name
## path, each with the first line that does: at most 10.
func _referrers(path: String) -> Array:
	if _referrers_of.has(path):
		return _referrers_of[path]
	var out: Array = []
	var files: PackedStringArray = []
	_text_resources("res://", files)
	var needle: String = "\"" + path + "\""
	for f: String in files:
		var text: String = FileAccess.get_file_as_string(f)
		var at: int = text.find(needle)
		if at < 0:
			continue
		out.append({"file": f, "line": text.substr(0, at).count("\n") + 1})
		if out.size() >= 10:
			break
	_referrers_of[path] = out
	return out


func _text_resources(dir: String, out: PackedStringArray) -> void:
	if out.size() >= 5000:
		return
	var d: DirAccess = DirAccess.open(dir)
	if d == null or (dir != "res://" and FileAccess.file_exists(dir.path_join(".gdignore"))):
		return
	for f: String in d.get_files():
		if f.get_extension() in ["tscn", "tres"]:
			out.append(dir.path_join(f))
	for sub: String in d.get_directories():
		if sub.begins_with(".") or (dir == "res://" and sub == "addons"):
			continue
		_text_resources(dir.path_join(sub), out)
