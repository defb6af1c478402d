@tool
extends RefCounted
## Breakpoints, kept where the editor keeps its own: in the script editor's gutter
## (CodeEdit.set_line_as_breakpoint), so they show in the editor, are sent to a
## running game at once, are passed to every game the editor starts
## (--breakpoints) and survive plays and closed script tabs, exactly like
## breakpoints a human set by clicking.
##
## A breakpoint only ever stops on a line that starts a statement, so lines
## without code (blank, comments, declarations, continuation lines) are refused
## with the nearest lines that have code.

const CommandRouter := preload("res://addons/godot_mcp/command_router.gd")
const PathGuard := preload("res://addons/godot_mcp/path_guard.gd")

const MAX_BATCH := 200

var _router: CommandRouter = null


func setup(router: CommandRouter) -> void:
	_router = router


func _fail(code: String, hint: String, required: String = "") -> Dictionary:
	return _router.fail(code, hint, required)


func _ok(result: Dictionary) -> Dictionary:
	return _router.ok(result)


## Every breakpoint the editor has, sorted: [{path, line}].
static func all() -> Array:
	var out: Array = []
	var se: ScriptEditor = EditorInterface.get_script_editor()
	if se == null:
		return out
	for entry: String in se.get_breakpoints():
		var at: int = entry.rfind(":")
		if at <= 0:
			continue
		out.append({"path": entry.substr(0, at), "line": int(entry.substr(at + 1))})
	out.sort_custom(_before)
	return out


static func _before(a: Dictionary, b: Dictionary) -> bool:
	if str(a["path"]) != str(b["path"]):
		return str(a["path"]) < str(b["path"])
	return int(a["line"]) < int(b["line"])


static func has(path: String, line: int) -> bool:
	for b: Dictionary in all():
		if str(b["path"]) == path and int(b["line"]) == line:
			return true
	return false


## cmd_debugger_breakpoints {} -> {breakpoints: [{path, line, code}], count}
func list(_params: Dictionary) -> Dictionary:
	var out: Array = []
	var sources: Dictionary = {}
	for b: Dictionary in all():
		var path: String = b["path"]
		if not sources.has(path):
			sources[path] = _source(path).split("\n")
		var lines: PackedStringArray = sources[path]
		var line: int = b["line"]
		out.append({"path": path, "line": line, "code": lines[line - 1].strip_edges() if line >= 1 and line <= lines.size() else ""})
	return _ok({"breakpoints": out, "count": out.size()})


## cmd_debugger_set_breakpoints {add?: [{path, line}], remove?: [{path, line}], clear?: bool,
## dry_run?: bool} -> {added, removed, unchanged, breakpoints, dry_run}. All or nothing:
## every entry is checked before the first one is applied.
func set_breakpoints(params: Dictionary) -> Dictionary:
	var add_v: Variant = params.get("add", [])
	var remove_v: Variant = params.get("remove", [])
	if add_v == null:
		add_v = []
	if remove_v == null:
		remove_v = []
	if typeof(add_v) != TYPE_ARRAY or typeof(remove_v) != TYPE_ARRAY:
		return _fail("VALIDATION_ERROR", "add and remove must be arrays of {path, line}.")
	var clear: bool = params.get("clear", false) == true
	var adds: Array = add_v
	var removes: Array = remove_v
	if adds.is_empty() and removes.is_empty() and not clear:
		return _fail("VALIDATION_ERROR", "Nothing to do: pass add and/or remove ([{path: \"res://player.gd\", line: 12}]) or clear: true.")
	if adds.size() + removes.size() > MAX_BATCH:
		return _fail("VALIDATION_ERROR", "At most %d breakpoints per call." % MAX_BATCH)
	var before: Array = all()
	# Check everything first.
	var to_add: Array = []
	for i: int in range(adds.size()):
		var checked: Dictionary = _check(adds[i], "add[%d]" % i, true)
		if checked.has("failure"):
			return checked["failure"]
		to_add.append(checked)
	var to_remove: Array = []
	for i: int in range(removes.size()):
		var checked: Dictionary = _check(removes[i], "remove[%d]" % i, false)
		if checked.has("failure"):
			return checked["failure"]
		to_remove.append(checked)
	if clear:
		for b: Dictionary in before:
			to_remove.append({"path": b["path"], "line": b["line"]})
	var existing: Dictionary = {}
	for b: Dictionary in before:
		existing["%s:%d" % [b["path"], b["line"]]] = true
	var added: Array = []
	var removed: Array = []
	var unchanged: Array = []
	var final: Dictionary = existing.duplicate()
	for r: Dictionary in to_remove:
		var key: String = "%s:%d" % [r["path"], r["line"]]
		if final.has(key):
			final.erase(key)
			removed.append({"path": r["path"], "line": r["line"]})
		elif not clear:
			unchanged.append({"path": r["path"], "line": r["line"], "why": "no breakpoint there"})
	for a: Dictionary in to_add:
		var key: String = "%s:%d" % [a["path"], a["line"]]
		if final.has(key):
			unchanged.append({"path": a["path"], "line": a["line"], "why": "already set"})
			continue
		final[key] = true
		added.append({"path": a["path"], "line": a["line"], "code": a["code"]})
	var dry_run: bool = params.get("dry_run", false) == true
	if not dry_run and _external_editor() and _needs_switch(added + removed):
		# ScriptEditor.edit() would launch the external editor instead of switching tabs.
		return _fail("PRECONDITION_FAILED", "The editor is set to use an external script editor (Editor Settings: text_editor/external/use_external_editor), and Godot keeps breakpoints only in its own script editor, which it would not open. Turn that setting off, or set the breakpoints in the external editor (through Godot's debug adapter). Nothing was changed.")
	if not dry_run:
		var se: ScriptEditor = EditorInterface.get_script_editor()
		var previous: Script = se.get_current_script()
		var done: Array = [] # [path, line, on] applied so far, to undo on a failure
		var failed: String = ""
		for r: Dictionary in removed:
			if not await _toggle(r["path"], int(r["line"]), false):
				failed = "%s:%d (removing)" % [r["path"], r["line"]]
				break
			done.append([r["path"], int(r["line"]), false])
		if failed == "":
			for a: Dictionary in added:
				if not await _toggle(a["path"], int(a["line"]), true):
					failed = "%s:%d" % [a["path"], a["line"]]
					break
				done.append([a["path"], int(a["line"]), true])
		if failed != "":
			done.reverse()
			for d: Array in done:
				await _toggle(d[0], d[1], not d[2])
		if previous != null and se.get_current_script() != previous:
			EditorInterface.edit_script(previous, -1, 0, false)
		if failed != "":
			return _fail("INTERNAL_ERROR", "The script editor did not take the breakpoint %s, so none of this call's changes were kept. Open the script in the editor (godot_scripts_read shows it) and retry." % failed)
	var result: Array = []
	for key: String in final.keys():
		var at: int = key.rfind(":")
		result.append({"path": key.substr(0, at), "line": int(key.substr(at + 1))})
	result.sort_custom(_before)
	return _ok({"added": added, "removed": removed, "unchanged": unchanged, "breakpoints": result, "dry_run": dry_run})


## Whether any of [param entries] is in another script than the script editor's current one.
static func _needs_switch(entries: Array) -> bool:
	var current: Script = EditorInterface.get_script_editor().get_current_script()
	for e: Dictionary in entries:
		if current == null or current.resource_path != str(e["path"]):
			return true
	return false


static func _external_editor() -> bool:
	var es: EditorSettings = EditorInterface.get_editor_settings()
	return es != null and es.has_setting("text_editor/external/use_external_editor") and bool(es.get_setting("text_editor/external/use_external_editor"))


## Sets or clears one breakpoint in the script editor: makes the script the current
## tab (opening it when needed, with ScriptEditor.edit()) and toggles the line in that tab's gutter. Returns whether
## the breakpoint is now as asked.
func _toggle(path: String, line: int, on: bool) -> bool:
	var se: ScriptEditor = EditorInterface.get_script_editor()
	var script: Script = load(path) as Script
	if script == null:
		return false
	if se.get_current_script() != script:
		EditorInterface.edit_script(script, -1, 0, false)
		if se.get_current_script() != script:
			# A tab it just opened (without focus) is not made current; the tab it
			# has now is, when asked again.
			EditorInterface.edit_script(script, -1, 0, false)
		var deadline: int = Time.get_ticks_msec() + 2000
		while se.get_current_script() != script and Time.get_ticks_msec() < deadline:
			await (Engine.get_main_loop() as SceneTree).process_frame
	if se.get_current_script() != script or se.get_current_editor() == null:
		return false
	var ce: CodeEdit = se.get_current_editor().get_base_editor() as CodeEdit
	if ce == null or line - 1 >= ce.get_line_count():
		return false
	if ce.is_line_breakpointed(line - 1) != on:
		ce.set_line_as_breakpoint(line - 1, on)
	return has(path, line) == on


## Checks one {path, line}: the script exists and (when adding) the line has code.
## -> {path, line, code} or {failure}.
func _check(v: Variant, where: String, adding: bool) -> Dictionary:
	if typeof(v) != TYPE_DICTIONARY:
		return {"failure": _fail("VALIDATION_ERROR", "%s must be {path: \"res://….gd\", line: 12}." % where)}
	var d: Dictionary = v
	var path_v: Variant = d.get("path", d.get("file", null))
	if typeof(path_v) != TYPE_STRING or str(path_v) == "":
		return {"failure": _fail("VALIDATION_ERROR", "%s.path is required: a res:// script path." % where)}
	var path: String = path_v
	if not path.begins_with("res://"):
		path = "res://" + path.trim_prefix("/")
	var line_v: Variant = d.get("line", null)
	if typeof(line_v) == TYPE_FLOAT and is_finite(line_v as float) and (line_v as float) == floorf(line_v as float):
		line_v = int(line_v)
	if typeof(line_v) != TYPE_INT or int(line_v) < 1:
		return {"failure": _fail("VALIDATION_ERROR", "%s.line must be a line number (1 is the first line)." % where)}
	var line: int = line_v
	var problem: String = PathGuard.problem(path)
	if problem != "":
		return {"failure": _fail("VALIDATION_ERROR", "%s.path: %s." % [where, problem])}
	if not path.ends_with(".gd"):
		return {"failure": _fail("VALIDATION_ERROR", "%s.path '%s' is not a GDScript file (.gd); breakpoints go in GDScript." % [where, path])}
	if not FileAccess.file_exists(path):
		return {"failure": _fail("RESOURCE_NOT_FOUND", "%s: no script at '%s'.%s" % [where, path, _near_scripts(path)])}
	if not adding:
		return {"path": path, "line": line, "code": ""}
	var lines: PackedStringArray = _source(path).split("\n")
	if line > lines.size():
		return {"failure": _fail("VALIDATION_ERROR", "%s: '%s' has %d lines, there is no line %d." % [where, path, lines.size(), line])}
	var code: Dictionary = code_lines(lines)
	if not code.has(line):
		var near: Array = nearest(code, line)
		var hint: String = "%s: line %d of %s has no code a breakpoint can stop at (%s)." % [where, line, path, _what(lines[line - 1])]
		if near.is_empty():
			hint += " The script has no executable lines."
		else:
			var parts: PackedStringArray = []
			for n: int in near:
				parts.append("%d: %s" % [n, lines[n - 1].strip_edges().left(60)])
			hint += " The nearest lines with code: %s. Set the breakpoint on one of them." % "; ".join(parts)
		return {"failure": _fail("VALIDATION_ERROR", hint)}
	return {"path": path, "line": line, "code": lines[line - 1].strip_edges()}


func _what(text: String) -> String:
	var t: String = text.strip_edges()
	if t == "":
		return "a blank line"
	if t.begins_with("#"):
		return "a comment"
	if t.begins_with("func ") or t.begins_with("static func "):
		return "a function declaration; its first statement is below"
	return "a declaration or the continuation of a statement"


## The text the editor has for [param path]: the script's source as the script
## editor keeps it (what its breakpoint gutter numbers), else the file.
func _source(path: String) -> String:
	var script: Script = load(path) as Script if ResourceLoader.exists(path) else null
	if script != null and script.has_source_code():
		return script.source_code
	return FileAccess.get_file_as_string(path)


func _near_scripts(path: String) -> String:
	var wanted: String = path.get_file().get_basename().to_lower()
	var scored: Array = []
	var stack: PackedStringArray = ["res://"]
	var walk: Dictionary = PathGuard.walk_new()
	var seen: int = 0
	while not stack.is_empty() and seen < 3000:
		var dir: String = stack[stack.size() - 1]
		stack.remove_at(stack.size() - 1)
		for sub: String in DirAccess.get_directories_at(dir):
			if not sub.begins_with(".") and sub != "addons" and PathGuard.walk_folder_inside(walk, dir.path_join(sub)):
				stack.append(dir.path_join(sub))
		for f: String in DirAccess.get_files_at(dir):
			if f.ends_with(".gd"):
				seen += 1
				scored.append([f.get_basename().to_lower().similarity(wanted), dir.path_join(f)])
	if scored.is_empty():
		return ""
	scored.sort_custom(func(a: Array, b: Array) -> bool: return a[0] > b[0])
	var out: PackedStringArray = []
	for e: Array in scored.slice(0, 3):
		out.append(str(e[1]))
	return " Did you mean: %s?" % ", ".join(out)


## The nearest code lines to [param line]: the next one below and the one above.
static func nearest(code: Dictionary, line: int) -> Array:
	var below: int = -1
	var above: int = -1
	for l: Variant in code.keys():
		var n: int = int(l)
		if n > line and (below < 0 or n < below):
			below = n
		if n < line and (above < 0 or n > above):
			above = n
	var out: Array = []
	if below > 0:
		out.append(below)
	if above > 0:
		out.append(above)
	return out


## The lines (1-based) of a GDScript source where a statement starts, that is where
## the compiled code has a line marker a breakpoint can stop at: statements inside
## functions (if/elif/for/while/match and its branches, var, return, pass, calls,
## lambdas' bodies) and member variables (run when an instance is made). Blank
## lines, comments, declarations (extends, class_name, signal, enum, const, func,
## class, annotations), `else:` and the continuation lines of a statement are not.
static func code_lines(lines: PackedStringArray) -> Dictionary:
	var code: Dictionary = {}
	var depth: int = 0 # open brackets carried from previous lines
	var in_string: String = "" # an open triple-quoted string's quote
	var continued: bool = false # the previous line ended with a backslash
	var func_indent: int = -1 # indentation of the enclosing func, -1 outside one
	for i: int in range(lines.size()):
		var raw: String = lines[i]
		var starts_statement: bool = depth == 0 and in_string == "" and not continued
		var scan: Dictionary = _scan(raw, depth, in_string)
		depth = scan["depth"]
		in_string = scan["in_string"]
		continued = scan["backslash"]
		if not starts_statement:
			continue
		var text: String = raw.strip_edges()
		if text == "" or text.begins_with("#"):
			continue
		var indent: int = _indent(raw)
		if func_indent >= 0 and indent <= func_indent:
			func_indent = -1
		var body: String = text
		while body.begins_with("@"):
			# annotations: @onready var x, @export var y, @warning_ignore(...) stmt
			var sp: int = _annotation_end(body)
			body = body.substr(sp).strip_edges()
		if body == "":
			continue
		var first: String = _first_word(body)
		if func_indent >= 0:
			# Inside a function body: every statement start has code, except else:.
			if first == "else" and body.trim_prefix("else").strip_edges() == ":":
				continue
			if first == "func" and not body.begins_with("func("):
				# a nested declaration does not happen in GDScript; lambdas are func(
				continue
			code[i + 1] = true
			continue
		match first:
			"func", "static":
				if first == "static" and _first_word(body.trim_prefix("static").strip_edges()) == "var":
					if body.contains("="):
						code[i + 1] = true
					continue
				func_indent = indent
				# A one-line function: `func f() -> int: return 1`.
				var after: String = str(scan["after_colon"]).strip_edges()
				if after != "" and not after.begins_with("#"):
					code[i + 1] = true
			"var":
				code[i + 1] = true
			_:
				pass # extends, class_name, signal, enum, const, class, tool lines
	return code


static func _indent(s: String) -> int:
	var n: int = 0
	for c: String in s:
		if c == "\t":
			n += 4
		elif c == " ":
			n += 1
		else:
			break
	return n


static func _first_word(s: String) -> String:
	var out: String = ""
	for c: String in s:
		if (c >= "a" and c <= "z") or (c >= "A" and c <= "Z") or (c >= "0" and c <= "9") or c == "_":
			out += c
		else:
			break
	return out


## Where an annotation at the start of [param s] ends (after its arguments).
static func _annotation_end(s: String) -> int:
	var i: int = 1
	while i < s.length() and (s[i] == "_" or s.unicode_at(i) >= 48 and s.unicode_at(i) <= 57 or s.unicode_at(i) >= 65 and s.unicode_at(i) <= 90 or s.unicode_at(i) >= 97 and s.unicode_at(i) <= 122):
		i += 1
	if i < s.length() and s[i] == "(":
		var d: int = 0
		while i < s.length():
			if s[i] == "(":
				d += 1
			elif s[i] == ")":
				d -= 1
				if d == 0:
					return i + 1
			i += 1
	return i


## Scans one line: bracket depth, an open triple-quoted string, a trailing backslash,
## and what follows the first ':' outside brackets and strings (for one-line funcs).
static func _scan(line: String, depth: int, in_string: String) -> Dictionary:
	var i: int = 0
	var n: int = line.length()
	var after_colon: String = ""
	var colon_seen: bool = false
	var backslash: bool = false
	while i < n:
		var c: String = line[i]
		if in_string != "":
			if c == "\\":
				i += 2
				continue
			if line.substr(i, in_string.length()) == in_string:
				i += in_string.length()
				in_string = ""
				continue
			i += 1
			continue
		if c == "#":
			break
		if c == "\"" or c == "'":
			if line.substr(i, 3) == c + c + c:
				in_string = c + c + c
				i += 3
				continue
			in_string = c
			i += 1
			# a one-line string: read to its end here
			while i < n:
				if line[i] == "\\":
					i += 2
					continue
				if line[i] == c:
					break
				i += 1
			in_string = ""
			i += 1
			continue
		if c == "(" or c == "[" or c == "{":
			depth += 1
		elif c == ")" or c == "]" or c == "}":
			depth = maxi(0, depth - 1)
		elif c == ":" and depth == 0 and not colon_seen:
			colon_seen = true
			after_colon = line.substr(i + 1)
		elif c == "\\" and i == n - 1:
			backslash = true
		i += 1
	return {"depth": depth, "in_string": in_string, "backslash": backslash, "after_colon": after_colon}
