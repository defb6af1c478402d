extends RefCounted
## godot-mcp runtime probe: the eval snippet's wrapper. A snippet becomes the body of
## run() in a throw-away script, with a time-limit check at the top of every loop body;
## the map takes a wrapper line back to the snippet's. Used by playtest.gd (eval).


## The snippet's line of a wrapper line (0 for the wrapper's own).
static func user_line(map: Array, wrapper_line: int) -> int:
	if wrapper_line >= 1 and wrapper_line <= map.size():
		return int(map[wrapper_line - 1])
	return 0


const _HEADER := [
	"extends RefCounted",
	"var node",
	"var tree: SceneTree",
	"var root: Window",
	"var scene",
	"var _gm_deadline: int = 0",
	"var _gm_cut_line: int = 0",
	"func _gm_cut(line: int) -> bool:",
	"\tif Time.get_ticks_msec() < _gm_deadline:",
	"\t\treturn false",
	"\t_gm_cut_line = line",
	"\treturn true",
	"func run():",
]


## The snippet as the body of run(): every loop checks the time limit at the top of its
## body (a one-line loop is split for that). -> {source, map}
## where map[wrapper line - 1] is the snippet's line (0 for the wrapper's own).
static func instrument(code: String) -> Dictionary:
	var lines: PackedStringArray = _tabs(code.replace("\r\n", "\n").split("\n"))
	while not lines.is_empty() and lines[lines.size() - 1].strip_edges() == "":
		lines.remove_at(lines.size() - 1)
	var out: PackedStringArray = []
	var map: Array = []
	for h: String in _HEADER:
		out.append(h)
		map.append(0)
	if lines.is_empty():
		out.append("\tpass")
		map.append(1)
	for i: int in range(lines.size()):
		var line: String = lines[i]
		var stripped: String = line.strip_edges()
		var indent: String = line.substr(0, line.length() - line.strip_edges(true, false).length())
		var is_loop: bool = stripped.begins_with("while ") or stripped.begins_with("while(") or stripped.begins_with("for ")
		if not is_loop:
			out.append("\t" + line)
			map.append(i + 1)
			continue
		var colon: int = _header_colon(stripped, stripped.begins_with("for "))
		if colon < 0:
			out.append("\t" + line)
			map.append(i + 1)
			continue
		var body: String = stripped.substr(colon + 1).strip_edges()
		var check: String = "if _gm_cut(%d): return null" % (out.size() + 1)
		if body == "" or body.begins_with("#"):
			# A block: the check goes first in the body, at the body's indentation.
			out.append("\t" + line)
			map.append(i + 1)
			var body_indent: String = indent + "\t"
			for j: int in range(i + 1, lines.size()):
				if lines[j].strip_edges() != "":
					body_indent = lines[j].substr(0, lines[j].length() - lines[j].strip_edges(true, false).length())
					break
			out.append("\t" + body_indent + check)
			map.append(i + 1)
		else:
			# A one-line loop: split it so the body can hold the check.
			out.append("\t" + indent + stripped.substr(0, colon + 1))
			map.append(i + 1)
			out.append("\t" + indent + "\t" + check)
			map.append(i + 1)
			out.append("\t" + indent + "\t" + body)
			map.append(i + 1)
	return {"source": "\n".join(out) + "\n", "map": map}


## Indentation in tabs (the wrapper's own), whatever the snippet used: GDScript refuses
## a file that mixes them.
static func _tabs(lines: PackedStringArray) -> PackedStringArray:
	var unit: int = 0
	for line: String in lines:
		var n: int = line.length() - line.lstrip(" ").length()
		if n > 0 and line.strip_edges() != "" and (unit == 0 or n < unit):
			unit = n
	if unit == 0:
		return lines
	var out: PackedStringArray = []
	for line: String in lines:
		var lead: String = line.substr(0, line.length() - line.strip_edges(true, false).length())
		var spaces: int = lead.count(" ")
		out.append(lead.replace(" ", "").repeat(1) + "\t".repeat(floori(spaces / float(unit))) + line.strip_edges(true, false))
	return out


## The colon that ends a loop header (outside brackets and strings; for a for loop,
## after its " in "), or -1.
static func _header_colon(s: String, is_for: bool) -> int:
	var depth: int = 0
	var quote: String = ""
	var seen_in: bool = not is_for
	var i: int = 0
	while i < s.length():
		var c: String = s[i]
		if quote != "":
			if c == "\\":
				i += 2
				continue
			if c == quote:
				quote = ""
		elif c == "\"" or c == "'":
			quote = c
		elif c == "(" or c == "[" or c == "{":
			depth += 1
		elif c == ")" or c == "]" or c == "}":
			depth -= 1
		elif depth == 0 and c == " " and s.substr(i, 4) == " in ":
			seen_in = true
		elif depth == 0 and c == ":" and seen_in:
			return i
		i += 1
	return -1
