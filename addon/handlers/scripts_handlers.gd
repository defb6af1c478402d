@tool
extends RefCounted
## Editor side of the scripts toolset: GDScript files.
##
## Parse and compile errors come from Godot's own GDScript parser, analyzer and compiler.
## Godot 4.4 gives scripts no API that returns a script's errors (GDScript.reload() only
## returns an error code, and the messages go to the log), so the check runs in a
## throw-away headless Godot on this project (OS.execute_with_pipe): a small MainLoop
## script (CHECKER_SOURCE) makes a GDScript for each checked file with the file's path
## (so class_name and relative preloads resolve as in the project), calls reload(), and
## brackets what Godot prints with markers. The editor reads the child's stderr: the
## "SCRIPT ERROR: Parse Error: …" / "at: GDScript::reload (res://x.gd:LINE)" lines Godot
## printed, and each reload()'s error code. Nothing of this touches the editor's own
## scripts, and nothing reaches the editor's Output panel.

const ValueCodec := preload("../value_codec.gd")
const CommandRouter := preload("../command_router.gd")
const Files := preload("resources_handlers.gd")
const PathGuard := preload("../path_guard.gd")

## Where the checker and its job files live (hidden from the editor's filesystem).
const WORK_DIR := "res://.godot/godot_mcp"
const MARK := "@@GODOT_MCP@@ "
## How long write/patch/attach wait in the editor for its filesystem before answering
## (the server keeps waiting with progress notifications when it is longer).
const EDITOR_WAIT_MS := 3000
## A check that takes longer is stopped.
const DEFAULT_CHECK_MS := 60000

## The headless checker (runs in a separate Godot process; see the file's doc comment).
## Kept free of backslashes and double quotes so it can live in this string.
const CHECKER_SOURCE := """extends MainLoop
## godot-mcp: checks scripts with Godot's own GDScript parser (written by the godot-mcp addon).

const MARK := '@@GODOT_MCP@@ '
const NAME_END := '(?![A-Za-z0-9_])'
const WS := '[[:space:]]+'

var _codec: Script = null


func _initialize() -> void:
	var args: PackedStringArray = OS.get_cmdline_user_args()
	if args.is_empty():
		printerr(MARK + JSON.stringify({'fatal': 'no job file'}))
		return
	var job: Variant = JSON.parse_string(FileAccess.get_file_as_string(args[0]))
	if typeof(job) != TYPE_DICTIONARY:
		printerr(MARK + JSON.stringify({'fatal': 'unreadable job file'}))
		return
	var codec_path: String = str(job.get('codec', ''))
	if codec_path != '' and ResourceLoader.exists(codec_path):
		_codec = load(codec_path) as Script
	var items: Array = job.get('items', [])
	for i: int in range(items.size()):
		var item: Dictionary = items[i]
		var path: String = str(item.get('path', ''))
		var source: String = ''
		if item.has('source'):
			source = str(item['source'])
		else:
			source = FileAccess.get_file_as_string(path)
		printerr(MARK + JSON.stringify({'begin': i}))
		var s: GDScript = GDScript.new()
		s.source_code = source
		s.take_over_path(path)
		var err: int = s.reload()
		var end: Dictionary = {'end': i, 'err': err, 'class_name': str(s.get_global_name())}
		if bool(job.get('symbols', false)) and err == OK:
			end['symbols'] = _symbols(s, source)
		printerr(MARK + JSON.stringify(end))
	printerr(MARK + JSON.stringify({'done': true}))


func _process(_delta: float) -> bool:
	return true


func _enc(v: Variant) -> Variant:
	if _codec != null:
		return _codec.call('encode', v)
	return var_to_str(v)


func _type_of(p: Dictionary) -> String:
	var t: int = int(p.get('type', TYPE_NIL))
	if t == TYPE_NIL:
		return 'Variant' if (int(p.get('usage', 0)) & PROPERTY_USAGE_NIL_IS_VARIANT) != 0 else 'void'
	if t == TYPE_OBJECT:
		var cn: String = str(p.get('class_name', ''))
		return cn if cn != '' else 'Object'
	if t == TYPE_ARRAY and int(p.get('hint', 0)) == PROPERTY_HINT_ARRAY_TYPE and str(p.get('hint_string', '')) != '':
		return 'Array[%s]' % str(p.get('hint_string', ''))
	return type_string(t)


func _args(m: Dictionary) -> Array:
	var out: Array = []
	var args: Array = m.get('args', [])
	var defaults: Array = m.get('default_args', [])
	var first_default: int = args.size() - defaults.size()
	for i: int in range(args.size()):
		var a: Dictionary = args[i]
		var e: Dictionary = {'name': str(a.get('name', '')), 'type': _type_of(a)}
		if i >= first_default:
			e['default'] = _enc(defaults[i - first_default])
		out.append(e)
	return out


func _line_of(lines: PackedStringArray, pattern: String) -> int:
	var re: RegEx = RegEx.create_from_string(pattern)
	for i: int in range(lines.size()):
		if re.search(lines[i]) != null:
			return i + 1
	return 0


func _symbols(s: GDScript, source: String) -> Dictionary:
	var lines: PackedStringArray = source.split(char(10))
	var out: Dictionary = {
		'class_name': str(s.get_global_name()),
		'extends': str(s.get_instance_base_type()),
		'extends_path': s.get_base_script().resource_path if s.get_base_script() != null else '',
		'tool': s.is_tool(),
		'functions': [], 'signals': [], 'variables': [], 'constants': [], 'enums': [],
	}
	var seen: Dictionary = {}
	for m: Dictionary in s.get_script_method_list():
		var name: String = str(m.get('name', ''))
		if name.begins_with('@') or seen.has(name):
			continue
		seen[name] = true
		var line: int = _line_of(lines, '^(static' + WS + ')?func' + WS + name + NAME_END)
		if line == 0:
			continue
		var ret: Dictionary = m.get('return', {})
		out['functions'].append({'name': name, 'args': _args(m), 'return_type': _type_of(ret), 'static': (int(m.get('flags', 0)) & METHOD_FLAG_STATIC) != 0, 'line': line})
	for sig: Dictionary in s.get_script_signal_list():
		var name: String = str(sig.get('name', ''))
		var line: int = _line_of(lines, '^signal' + WS + name + NAME_END)
		if line == 0 or seen.has('signal ' + name):
			continue
		seen['signal ' + name] = true
		out['signals'].append({'name': name, 'args': _args(sig), 'line': line})
	for p: Dictionary in s.get_script_property_list():
		var usage: int = int(p.get('usage', 0))
		var name: String = str(p.get('name', ''))
		if (usage & PROPERTY_USAGE_SCRIPT_VARIABLE) == 0 or seen.has('var ' + name):
			continue
		var line: int = _line_of(lines, '^(@[^=]*' + WS + ')?(static' + WS + ')?var' + WS + name + NAME_END)
		if line == 0:
			continue
		seen['var ' + name] = true
		var e: Dictionary = {'name': name, 'type': _type_of(p), 'exported': (usage & PROPERTY_USAGE_EDITOR) != 0, 'line': line}
		var def: Variant = s.get_property_default_value(StringName(name))
		if def != null:
			e['default'] = _enc(def)
		out['variables'].append(e)
	var consts: Dictionary = s.get_script_constant_map()
	for k: Variant in consts.keys():
		var name: String = str(k)
		var v: Variant = consts[k]
		var eline: int = _line_of(lines, '^enum' + WS + name + NAME_END)
		if typeof(v) == TYPE_DICTIONARY and eline > 0:
			out['enums'].append({'name': name, 'values': v})
			continue
		var line: int = _line_of(lines, '^const' + WS + name + NAME_END)
		if line > 0:
			out['constants'].append({'name': name, 'value': _enc(v), 'line': line})
	return out
"""

var _router: CommandRouter = null
var _job_counter: int = 0


func setup(router: CommandRouter) -> void:
	_router = router


func get_commands() -> Dictionary:
	return {
		"cmd_scripts_list": {"class": "read_only", "run": list},
		"cmd_scripts_read": {"class": "read_only", "run": read},
		"cmd_scripts_write": {"class": "mutating", "dry_run": true, "run": write},
		"cmd_scripts_validate": {"class": "read_only", "run": validate},
		"cmd_scripts_attach": {"class": "mutating", "dry_run": true, "run": attach},
		"cmd_scripts_detach": {"class": "mutating", "dry_run": true, "run": detach},
		"cmd_scripts_get_symbols": {"class": "read_only", "run": get_symbols},
	}


# --- the checker ---------------------------------------------------------------------------


## Checks [param items] ([{path, source?}]) with Godot's parser in a headless Godot on this
## project. Returns {ok: true, results: [{path, valid, class_name, errors, symbols?}]} or
## {ok: false, failure}. Awaits (the editor keeps running meanwhile).
func _check(items: Array, symbols: bool, timeout_ms: int) -> Dictionary:
	var work: String = ProjectSettings.globalize_path(WORK_DIR)
	DirAccess.make_dir_recursive_absolute(work)
	var checker: String = work.path_join("checker.gd")
	if FileAccess.get_file_as_string(checker) != CHECKER_SOURCE:
		var cf: FileAccess = FileAccess.open(checker, FileAccess.WRITE)
		if cf == null:
			return {"ok": false, "failure": _router.fail("INTERNAL_ERROR", "Cannot write the script checker to %s (%s); check that the project folder is writable." % [checker, error_string(FileAccess.get_open_error())])}
		cf.store_string(CHECKER_SOURCE)
		cf.close()
	_job_counter += 1
	var job_path: String = work.path_join("job_%d_%d_%d.json" % [OS.get_process_id(), Time.get_ticks_usec(), _job_counter])
	var codec: String = (ValueCodec as Script).resource_path
	var jf: FileAccess = FileAccess.open(job_path, FileAccess.WRITE)
	if jf == null:
		return {"ok": false, "failure": _router.fail("INTERNAL_ERROR", "Cannot write %s (%s)." % [job_path, error_string(FileAccess.get_open_error())])}
	jf.store_string(JSON.stringify({"items": items, "symbols": symbols, "codec": codec}))
	jf.close()
	var args: PackedStringArray = ["--headless", "--no-header", "--path", Files.project_root(), "--script", checker, "--", job_path]
	var proc: Dictionary = OS.execute_with_pipe(OS.get_executable_path(), args, false)
	if proc.is_empty():
		DirAccess.remove_absolute(job_path)
		return {"ok": false, "failure": _router.fail("INTERNAL_ERROR", "Could not start a headless Godot (%s) to check the scripts." % OS.get_executable_path())}
	var pid: int = int(proc["pid"])
	var stdio: FileAccess = proc["stdio"]
	var stderr: FileAccess = proc["stderr"]
	var err_bytes: PackedByteArray = []
	var out_bytes: PackedByteArray = []
	var deadline: int = Time.get_ticks_msec() + timeout_ms
	var timed_out: bool = false
	var tree: SceneTree = Engine.get_main_loop() as SceneTree
	while OS.is_process_running(pid):
		_drain(stderr, err_bytes)
		_drain(stdio, out_bytes)
		if Time.get_ticks_msec() > deadline:
			OS.kill(pid)
			timed_out = true
			break
		await tree.process_frame
	_drain(stderr, err_bytes)
	_drain(stdio, out_bytes)
	DirAccess.remove_absolute(job_path)
	if timed_out:
		return {"ok": false, "failure": _router.fail("TIMEOUT", "Godot's check of %d script(s) did not finish within %d s; check fewer at once (folder) or give more time (timeout_ms)." % [items.size(), roundi(timeout_ms / 1000.0)])}
	var parsed: Dictionary = _parse_check_output(err_bytes.get_string_from_utf8(), items)
	if not parsed.get("ok", false):
		var tail: String = (err_bytes.get_string_from_utf8() + out_bytes.get_string_from_utf8()).right(600)
		return {"ok": false, "failure": _router.fail("INTERNAL_ERROR", "The headless Godot that checks scripts failed: %s. Its last output: %s" % [parsed.get("why", "no answer"), tail])}
	return parsed


func _drain(f: FileAccess, into: PackedByteArray) -> void:
	if f == null:
		return
	var n: int = f.get_length()
	if n > 0:
		into.append_array(f.get_buffer(n))


## Reads the checker's stderr: markers and the SCRIPT ERROR lines between them.
func _parse_check_output(text: String, items: Array) -> Dictionary:
	var ansi: RegEx = RegEx.create_from_string("\u001b\\[[0-9;]*[A-Za-z]")
	var lines: PackedStringArray = ansi.sub(text, "", true).split("\n")
	var results: Array = []
	for item: Dictionary in items:
		results.append({"path": item["path"], "valid": false, "class_name": "", "errors": [], "finished": false})
	var current: int = -1
	var done: bool = false
	var i: int = 0
	while i < lines.size():
		var line: String = lines[i].strip_edges(false, true)
		i += 1
		var at_mark: int = line.find(MARK)
		if at_mark >= 0:
			var m: Variant = JSON.parse_string(line.substr(at_mark + MARK.length()))
			if typeof(m) != TYPE_DICTIONARY:
				continue
			var md: Dictionary = m
			if md.has("fatal"):
				return {"ok": false, "why": str(md["fatal"])}
			if md.has("begin"):
				current = int(md["begin"])
			elif md.has("end"):
				var k: int = int(md["end"])
				if k >= 0 and k < results.size():
					var r: Dictionary = results[k]
					r["finished"] = true
					r["valid"] = int(md.get("err", 1)) == OK and (r["errors"] as Array).is_empty()
					r["class_name"] = str(md.get("class_name", ""))
					if md.has("symbols") and typeof(md["symbols"]) == TYPE_DICTIONARY:
						r["symbols"] = _intify_symbols(md["symbols"])
				current = -1
			elif md.has("done"):
				done = true
			continue
		var body: String = line.strip_edges()
		var kind: String = ""
		if body.begins_with("SCRIPT ERROR: "):
			body = body.substr(14)
			if body.begins_with("Parse Error: "):
				kind = "parse"
				body = body.substr(13)
			elif body.begins_with("Compile Error: "):
				kind = "compile"
				body = body.substr(15)
		if kind == "" or current < 0 or current >= results.size():
			continue
		# The next line says where: "   at: GDScript::reload (res://x.gd:12)".
		var where_path: String = str(items[current]["path"])
		var where_line: int = 0
		if i < lines.size() and lines[i].strip_edges().begins_with("at: "):
			var at: String = lines[i].strip_edges()
			i += 1
			var open: int = at.rfind("(")
			var close: int = at.rfind(")")
			if open >= 0 and close > open:
				var loc: String = at.substr(open + 1, close - open - 1)
				var colon: int = loc.rfind(":")
				if colon > 0 and loc.substr(colon + 1).is_valid_int():
					where_path = loc.substr(0, colon)
					where_line = int(loc.substr(colon + 1))
		var errs: Array = results[current]["errors"]
		var entry: Dictionary = {"path": where_path, "line": where_line, "column": _code_column(where_path, where_line, items[current]), "message": body, "kind": kind}
		var dup: bool = false
		for e: Dictionary in errs:
			if e["path"] == entry["path"] and e["line"] == entry["line"] and e["message"] == entry["message"]:
				dup = true
				break
		if not dup:
			errs.append(entry)
	if not done:
		# The checker stopped early (a crash): say so for every script it did not finish.
		for r: Dictionary in results:
			if not r["finished"]:
				r["valid"] = false
				(r["errors"] as Array).append({"path": r["path"], "line": 0, "column": 0, "message": "Godot's checker process stopped while checking this script (it may have crashed the engine); check it in the editor.", "kind": "internal"})
	for r: Dictionary in results:
		r.erase("finished")
		if not (r["errors"] as Array).is_empty():
			r["valid"] = false
	return {"ok": true, "results": results}


## JSON numbers come back as floats: make the symbol fields that are integers ints again
## (lines, enum values), so they are written as 8, not 8.0.
static func _intify_symbols(sym: Dictionary) -> Dictionary:
	for key: String in ["functions", "signals", "variables", "constants"]:
		for e: Variant in sym.get(key, []):
			if typeof(e) == TYPE_DICTIONARY and (e as Dictionary).has("line"):
				e["line"] = int(e["line"])
	for e: Variant in sym.get("enums", []):
		if typeof(e) == TYPE_DICTIONARY and typeof((e as Dictionary).get("values")) == TYPE_DICTIONARY:
			var vals: Dictionary = e["values"]
			for k: Variant in vals.keys():
				vals[k] = int(vals[k])
	return sym


## 1-based column where the code on [param line] starts (Godot 4.4 reports no parser
## column to scripts; its language server uses the same convention).
func _code_column(path: String, line: int, item: Dictionary) -> int:
	if line <= 0:
		return 0
	var text: String = ""
	if item.has("source") and str(item["path"]) == path:
		text = item["source"]
	elif FileAccess.file_exists(path):
		text = FileAccess.get_file_as_string(path)
	var lines: PackedStringArray = text.split("\n")
	if line > lines.size():
		return 1
	var l: String = lines[line - 1]
	return l.length() - l.strip_edges(true, false).length() + 1


## Waits (at most [param max_ms]) until the editor's filesystem knows the files.
func _wait_ready(written: PackedStringArray, removed: PackedStringArray, max_ms: int) -> bool:
	var deadline: int = Time.get_ticks_msec() + max_ms
	var tree: SceneTree = Engine.get_main_loop() as SceneTree
	while true:
		if bool(Files.sync_files(written, removed)["ready"]):
			return true
		if Time.get_ticks_msec() >= deadline:
			return false
		await tree.process_frame
	return false


# --- params -----------------------------------------------------------------------------


func _gd_path(params: Dictionary, key: String = "path") -> Dictionary:
	var bad: Dictionary = Files.check_path(_router, params.get(key), key)
	if not bad.is_empty():
		return {"ok": false, "failure": bad}
	var p: String = params[key]
	if p.get_extension().to_lower() != "gd":
		return {"ok": false, "failure": _router.fail("VALIDATION_ERROR", "%s: '%s' is not a GDScript file; give a res://….gd path." % [key, p])}
	return {"ok": true, "path": p}


static func _in_addon(path: String) -> bool:
	return path.begins_with("res://addons/godot_mcp/")


# --- cmd_scripts_list ------------------------------------------------------------------------


## {path, recursive, glob, class_name, extends, only_classes, offset, limit} ->
## {scripts: [{path, class_name, extends, language}], next_offset (0 when done), scanning}
func list(params: Dictionary) -> Dictionary:
	var path: Variant = params.get("path", "res://")
	var bad: Dictionary = Files.check_path(_router, path, "path", true)
	if not bad.is_empty():
		return bad
	var recursive: Variant = Files._bool_param(params, "recursive", true)
	var only_classes: Variant = Files._bool_param(params, "only_classes", false)
	var offset: Variant = Files._int_param(params, "offset", 0, 0, 1 << 30)
	var limit: Variant = Files._int_param(params, "limit", 500, 1, 5000)
	var glob: Variant = params.get("glob", "")
	var cls_glob: Variant = params.get("class_name", "")
	var extends_v: Variant = params.get("extends", "")
	if recursive == null or only_classes == null or offset == null or limit == null or typeof(glob) != TYPE_STRING or typeof(cls_glob) != TYPE_STRING or typeof(extends_v) != TYPE_STRING:
		return _router.fail("VALIDATION_ERROR", "Expected {path, recursive: bool, glob, class_name (glob), extends (class), only_classes: bool, offset, limit: 1..5000}.")
	var dir: String = (path as String).trim_suffix("/") if path != "res://" else "res://"
	if not Files.is_dir(dir):
		return Files.not_found(_router, dir, "folder")
	var matched: Array = []
	var walk: Dictionary = PathGuard.walk_new()
	for f: Dictionary in Files.files_under(dir, recursive as bool, 1 << 30, walk):
		var t: String = f["type"]
		if not ClassDB.class_exists(t) or not ClassDB.is_parent_class(t, "Script"):
			continue
		var p: String = f["path"]
		var cls: String = f["class_name"]
		var ext: String = f["extends"]
		if not Files.glob_match(p, glob as String):
			continue
		if only_classes and cls == "":
			continue
		if cls_glob != "" and not cls.matchn(cls_glob as String):
			continue
		if extends_v != "" and not _extends_matches(ext, extends_v as String):
			continue
		var e: Dictionary = {"path": p, "language": t}
		if cls != "":
			e["class_name"] = cls
		if ext != "":
			e["extends"] = ext
		matched.append(e)
	var page: Array = matched.slice(int(offset), int(offset) + int(limit))
	var next: int = int(offset) + page.size()
	var out: Dictionary = {"scripts": page, "next_offset": next if next < matched.size() else 0, "scanning": Files.efs().is_scanning()}
	out.merge(PathGuard.walk_report(walk))
	return _router.ok(out)


## Whether a script extending [param base] extends [param wanted], through engine
## inheritance and script class_names.
static func _extends_matches(base: String, wanted: String) -> bool:
	var cur: String = base
	var hops: int = 0
	while cur != "" and hops < 32:
		hops += 1
		if cur == wanted:
			return true
		if ClassDB.class_exists(cur):
			return ClassDB.class_exists(wanted) and ClassDB.is_parent_class(cur, wanted)
		var next: String = ""
		for entry: Dictionary in ProjectSettings.get_global_class_list():
			if str(entry.get("class", "")) == cur:
				next = str(entry.get("base", ""))
				break
		cur = next
	return false


# --- cmd_scripts_read ------------------------------------------------------------------------


## {path, start_line, end_line} -> {path, source, start_line, end_line, line_count, sha256}
func read(params: Dictionary) -> Dictionary:
	var path: Variant = params.get("path")
	var bad: Dictionary = Files.check_path(_router, path)
	if not bad.is_empty():
		return bad
	var start: Variant = Files._int_param(params, "start_line", 0, 0, 1 << 30)
	var end: Variant = Files._int_param(params, "end_line", 0, 0, 1 << 30)
	if start == null or end == null:
		return _router.fail("VALIDATION_ERROR", "start_line and end_line must be line numbers (1-based).")
	var p: String = path
	if not FileAccess.file_exists(p):
		if Files.is_dir(p):
			return _router.fail("VALIDATION_ERROR", "'%s' is a folder; list its scripts with godot_scripts_list." % p)
		return Files.not_found(_router, p, "script")
	var text: String = FileAccess.get_file_as_string(p)
	var lines: PackedStringArray = text.split("\n")
	var count: int = lines.size()
	if count > 0 and lines[count - 1] == "":
		count -= 1 # the text ends with a line break
	var first: int = maxi(1, int(start))
	var last: int = count if int(end) == 0 else mini(int(end), count)
	if count == 0:
		first = 1
		last = 0
	elif first > count:
		return _router.fail("VALIDATION_ERROR", "start_line %d is past the end: '%s' has %d lines." % [first, p, count])
	var source: String = text
	if first != 1 or last != count:
		source = "\n".join(lines.slice(first - 1, last))
		if last < lines.size():
			source += "\n" # that line ends with a line break in the file
	return _router.ok({"path": p, "source": source, "start_line": first, "end_line": last, "line_count": count, "sha256": FileAccess.get_sha256(p)})


# --- cmd_scripts_write -----------------------------------------------------------------------


## {path, source, overwrite, if_sha256, dry_run} -> {path, created, bytes, valid, errors,
## validated, class_name, uid, persisted, undoable, undo_history, ready, written, removed}
func write(params: Dictionary) -> Dictionary:
	var gp: Dictionary = _gd_path(params)
	if not gp["ok"]:
		return gp["failure"]
	var p: String = gp["path"]
	var source: Variant = params.get("source")
	var overwrite: Variant = Files._bool_param(params, "overwrite", false)
	var dry_run: Variant = Files._bool_param(params, "dry_run", false)
	var if_sha: Variant = params.get("if_sha256", "")
	if typeof(source) != TYPE_STRING or overwrite == null or dry_run == null or typeof(if_sha) != TYPE_STRING:
		return _router.fail("VALIDATION_ERROR", "Expected {path, source: string, overwrite: bool, if_sha256: string, dry_run: bool}.")
	if _in_addon(p):
		return _router.fail("VALIDATION_ERROR", "'%s' is part of the godot-mcp addon; it is installed by `godot-mcp addon install`, not edited through tools." % p)
	if Files.is_dir(p):
		return _router.fail("VALIDATION_ERROR", "'%s' is a folder." % p)
	var existed: bool = FileAccess.file_exists(p)
	if if_sha != "":
		if not existed:
			return Files.not_found(_router, p, "script")
		if FileAccess.get_sha256(p) != if_sha:
			return _router.fail("PRECONDITION_FAILED", "'%s' changed on disk since it was read; nothing was written. Read it again (godot_scripts_read) and redo the edit." % p)
	var st: Dictionary = Files.script_editor_state(p)
	if bool(st["unsaved"]) and not overwrite:
		return _router.fail("PRECONDITION_FAILED", "'%s' is open in the script editor with unsaved changes; nothing was written. Ask the user to save them (or read them with godot_scripts_read after saving), or pass overwrite: true to replace them." % p)
	var data: PackedByteArray = (source as String).to_utf8_buffer()
	var out: Dictionary = {"path": p, "created": not existed, "bytes": data.size(), "ready": true, "written": [], "removed": []}
	if dry_run:
		var chk: Dictionary = await _check([{"path": p, "source": source}], false, DEFAULT_CHECK_MS)
		if not chk["ok"]:
			return chk["failure"]
		var r: Dictionary = chk["results"][0]
		out["valid"] = r["valid"]
		out["errors"] = r["errors"]
		out["class_name"] = r["class_name"]
		out["validated"] = true
		out["persisted"] = false
		out["undoable"] = false
		return _router.ok(out)
	var before: Variant = Files.file_bytes(p)
	var had_uid_file: bool = FileAccess.file_exists(p + ".uid")
	var res: Dictionary = Files.commit("godot-mcp: write %s" % p, [{"op": "write", "path": p, "data": data}], [], false)
	if not res.get("ok", false):
		return _router.fail("INTERNAL_ERROR", "Writing %s failed: %s." % [p, res.get("error", "")])
	# Record the undo now that the editor has made the .uid file of a new script, so that
	# redo brings back the same UID.
	var do_ops: Array = [{"op": "write", "path": p, "data": data}]
	var undo_ops: Array = []
	if before == null:
		undo_ops.append({"op": "delete", "path": p})
		if not had_uid_file and FileAccess.file_exists(p + ".uid"):
			do_ops.append({"op": "write", "path": p + ".uid", "data": FileAccess.get_file_as_bytes(p + ".uid")})
			undo_ops.append({"op": "delete", "path": p + ".uid"})
	else:
		undo_ops.append({"op": "write", "path": p, "data": before})
	var undoable: bool = Files.ops_bytes(do_ops) + Files.ops_bytes(undo_ops) <= Files.UNDO_LIMIT_BYTES
	if undoable:
		Files.record("godot-mcp: write %s" % p, do_ops, undo_ops)
	var ready: bool = await _wait_ready(PackedStringArray([p]), PackedStringArray(), EDITOR_WAIT_MS)
	out["persisted"] = true
	out["undoable"] = undoable
	out["undo_history"] = "global"
	out["ready"] = ready
	out["written"] = [p]
	out["uid"] = Files.uid_text(p)
	out["class_name"] = _class_name_of(p)
	out["validated"] = false
	if ready:
		var chk: Dictionary = await _check([{"path": p}], false, DEFAULT_CHECK_MS)
		if chk["ok"]:
			var r: Dictionary = chk["results"][0]
			out["valid"] = r["valid"]
			out["errors"] = r["errors"]
			out["validated"] = true
			if out["class_name"] == "":
				out["class_name"] = r["class_name"]
	return _router.ok(out)


func _class_name_of(path: String) -> String:
	var dir: EditorFileSystemDirectory = Files.efs().get_filesystem_path(path.get_base_dir())
	if dir == null:
		return ""
	var idx: int = dir.find_file_index(path.get_file())
	return dir.get_file_script_class_name(idx) if idx >= 0 else ""


# --- cmd_scripts_validate ----------------------------------------------------------------------


## {items: [{path, source?}]} | {all: true, folder, limit}, timeout_ms ->
## {results: [{path, valid, class_name, errors}], checked, truncated}
func validate(params: Dictionary) -> Dictionary:
	var timeout: Variant = Files._int_param(params, "timeout_ms", DEFAULT_CHECK_MS, 1000, 600000)
	var all: Variant = Files._bool_param(params, "all", false)
	if timeout == null or all == null:
		return _router.fail("VALIDATION_ERROR", "timeout_ms must be 1000..600000 and all a bool.")
	var items: Array = []
	var truncated: bool = false
	if all:
		var folder: Variant = params.get("folder", "res://")
		var bad: Dictionary = Files.check_path(_router, folder, "folder", true)
		if not bad.is_empty():
			return bad
		var limit: Variant = Files._int_param(params, "limit", 2000, 1, 5000)
		if limit == null:
			return _router.fail("VALIDATION_ERROR", "limit must be 1..5000.")
		var dir: String = (folder as String).trim_suffix("/") if folder != "res://" else "res://"
		if not Files.is_dir(dir):
			return Files.not_found(_router, dir, "folder")
		for f: Dictionary in Files.files_under(dir, true):
			if str(f["path"]).get_extension() != "gd" or _in_addon(str(f["path"])):
				continue
			if items.size() >= int(limit):
				truncated = true
				break
			items.append({"path": f["path"]})
	else:
		var raw: Variant = params.get("items")
		if typeof(raw) != TYPE_ARRAY or (raw as Array).is_empty():
			return _router.fail("VALIDATION_ERROR", "Give items: [{path, source?}] or all: true.")
		for it: Variant in raw:
			if typeof(it) != TYPE_DICTIONARY:
				return _router.fail("VALIDATION_ERROR", "Each item is {path, source?}.")
			var gp: Dictionary = _gd_path(it as Dictionary)
			if not gp["ok"]:
				return gp["failure"]
			var item: Dictionary = {"path": gp["path"]}
			if (it as Dictionary).has("source"):
				if typeof(it["source"]) != TYPE_STRING:
					return _router.fail("VALIDATION_ERROR", "source must be a string.")
				item["source"] = it["source"]
			elif not FileAccess.file_exists(str(gp["path"])):
				return Files.not_found(_router, str(gp["path"]), "script")
			items.append(item)
	if items.is_empty():
		return _router.ok({"results": [], "checked": 0, "truncated": false})
	var chk: Dictionary = await _check(items, false, int(timeout))
	if not chk["ok"]:
		return chk["failure"]
	return _router.ok({"results": chk["results"], "checked": items.size(), "truncated": truncated})


# --- cmd_scripts_get_symbols -------------------------------------------------------------------


## {path} -> {path, valid, errors, class_name, extends, extends_path, tool, functions,
## signals, variables, constants, enums}
func get_symbols(params: Dictionary) -> Dictionary:
	var gp: Dictionary = _gd_path(params)
	if not gp["ok"]:
		return gp["failure"]
	var p: String = gp["path"]
	if not FileAccess.file_exists(p):
		return Files.not_found(_router, p, "script")
	var chk: Dictionary = await _check([{"path": p}], true, DEFAULT_CHECK_MS)
	if not chk["ok"]:
		return chk["failure"]
	var r: Dictionary = chk["results"][0]
	var out: Dictionary = {"path": p, "valid": r["valid"], "errors": r["errors"], "class_name": r["class_name"], "extends": "", "tool": false}
	if r.has("symbols"):
		out.merge(r["symbols"] as Dictionary, true)
	if str(out.get("extends_path", "")) == "":
		out.erase("extends_path")
	return _router.ok(out)


# --- cmd_scripts_attach / cmd_scripts_detach -------------------------------------------------


## The edited scene's root, or a failure.
func _scene_root() -> Dictionary:
	var root: Node = EditorInterface.get_edited_scene_root()
	if root == null:
		return {"ok": false, "failure": _router.fail("PRECONDITION_FAILED", "No scene is open in the editor. Open one with godot_scene_open {path}.", "active_scene")}
	return {"ok": true, "root": root}


## A node of the edited scene by a path relative to its root ("." is the root).
func _node(root: Node, path_v: Variant) -> Dictionary:
	if typeof(path_v) != TYPE_STRING or (path_v as String).strip_edges() == "":
		return {"ok": false, "failure": _router.fail("VALIDATION_ERROR", "node is required: a path relative to the scene root, e.g. \"Player/Sprite2D\" (\".\" is the root).")}
	var p: String = (path_v as String).strip_edges().trim_prefix("./").trim_suffix("/")
	var n: Node = root if p == "" or p == "." else root.get_node_or_null(NodePath(p))
	if n != null and n != root and not root.is_ancestor_of(n):
		n = null
	if n == null:
		var names: PackedStringArray = []
		var best: String = ""
		var best_score: float = 0.0
		var last: String = p.get_file()
		for c: Node in root.find_children("*", "", true, false):
			var rel: String = str(root.get_path_to(c))
			var s: float = str(c.name).to_lower().similarity(last.to_lower())
			if s > best_score:
				best_score = s
				best = rel
			if names.size() < 12:
				names.append(rel)
		var hint: String = "No node at '%s' in the scene '%s' (paths are relative to the root '%s', \".\" is the root)." % [p, root.scene_file_path, root.name]
		if best_score >= 0.4:
			hint += " Did you mean '%s'?" % best
		hint += " Nodes: %s." % ", ".join(names)
		return {"ok": false, "failure": _router.fail("RESOURCE_NOT_FOUND", hint)}
	return {"ok": true, "node": n, "path": "." if n == root else str(root.get_path_to(n))}


## The script path a reference names (a res:// path, or a class_name).
func _script_path(ref: String) -> Dictionary:
	if ref.begins_with("res://"):
		return _gd_path({"script": ref}, "script")
	for entry: Dictionary in ProjectSettings.get_global_class_list():
		if str(entry.get("class", "")) == ref:
			# A class the editor found behind a link that leads out of the project is refused.
			return _gd_path({"script": str(entry.get("path", ""))}, "script")
	var near: PackedStringArray = []
	for entry: Dictionary in ProjectSettings.get_global_class_list():
		var c: String = str(entry.get("class", ""))
		if c.to_lower().similarity(ref.to_lower()) >= 0.5:
			near.append(c)
	var hint: String = "No script class named '%s' in this project." % ref
	if not near.is_empty():
		hint += " Did you mean %s?" % ", ".join(near.slice(0, 3))
	hint += " Give the script's res:// path, or list classes with godot_scripts_list {only_classes: true}. A class_name written just now is registered once godot_scripts_write returned without rescan_pending."
	return {"ok": false, "failure": _router.fail("RESOURCE_NOT_FOUND", hint)}


## {node, script, source?, dry_run} -> {node, node_type, script, class_name, previous_script,
## created, scene, scene_dirty, persisted, undoable, undo_history, errors, ready, written,
## removed}
func attach(params: Dictionary) -> Dictionary:
	var sr: Dictionary = _scene_root()
	if not sr["ok"]:
		return sr["failure"]
	var root: Node = sr["root"]
	var nr: Dictionary = _node(root, params.get("node"))
	if not nr["ok"]:
		return nr["failure"]
	var node: Node = nr["node"]
	var ref: Variant = params.get("script")
	var dry_run: Variant = Files._bool_param(params, "dry_run", false)
	var source: Variant = params.get("source")
	if typeof(ref) != TYPE_STRING or dry_run == null or (source != null and typeof(source) != TYPE_STRING):
		return _router.fail("VALIDATION_ERROR", "Expected {node, script: res:// path or class_name, source?: string, dry_run: bool}.")
	var sp: Dictionary = _script_path((ref as String).strip_edges())
	if not sp["ok"]:
		return sp["failure"]
	var p: String = sp["path"]
	var create: bool = not FileAccess.file_exists(p)
	if create and source == null:
		return Files.not_found(_router, p, "script")
	if create and _in_addon(p):
		return _router.fail("VALIDATION_ERROR", "'%s' is inside the godot-mcp addon." % p)
	if create and (source as String) == "":
		source = "extends %s\n\n\nfunc _ready() -> void:\n\tpass\n" % node.get_class()
	var item: Dictionary = {"path": p}
	if create:
		item["source"] = source
	var chk: Dictionary = await _check([item], true, DEFAULT_CHECK_MS)
	if not chk["ok"]:
		return chk["failure"]
	var r: Dictionary = chk["results"][0]
	if not r["valid"]:
		var lines: PackedStringArray = []
		for e: Dictionary in (r["errors"] as Array).slice(0, 5):
			lines.append("%s:%d: %s" % [e["path"], e["line"], e["message"]])
		return _router.fail("VALIDATION_ERROR", "'%s' does not compile, so it was not attached: %s. Fix it first (godot_scripts_patch), then attach." % [p, "; ".join(lines)])
	var base: String = str((r.get("symbols", {}) as Dictionary).get("extends", ""))
	if base != "" and not node.is_class(base):
		return _router.fail("VALIDATION_ERROR", "'%s' extends %s, but '%s' is a %s; attach it to a %s (or a node inheriting it), or change the script's extends." % [p, base, nr["path"], node.get_class(), base])
	var old: Variant = node.get_script()
	var old_path: String = (old as Script).resource_path if old is Script else ""
	var out: Dictionary = {
		"node": nr["path"], "node_type": node.get_class(), "script": p, "class_name": r["class_name"],
		"previous_script": old_path, "created": create, "scene": root.scene_file_path, "errors": [],
		"ready": true, "written": [], "removed": [],
	}
	if dry_run:
		out["scene_dirty"] = false
		out["persisted"] = false
		out["undoable"] = false
		return _router.ok(out)
	var file_do: Array = []
	var file_undo: Array = []
	if create:
		var data: PackedByteArray = (source as String).to_utf8_buffer()
		var res: Dictionary = Files.commit("", [{"op": "write", "path": p, "data": data}], [], false)
		if not res.get("ok", false):
			return _router.fail("INTERNAL_ERROR", "Writing %s failed: %s." % [p, res.get("error", "")])
		file_do.append({"op": "write", "path": p, "data": data})
		file_undo.append({"op": "delete", "path": p})
		if FileAccess.file_exists(p + ".uid"):
			file_do.append({"op": "write", "path": p + ".uid", "data": FileAccess.get_file_as_bytes(p + ".uid")})
			file_undo.append({"op": "delete", "path": p + ".uid"})
		out["written"] = [p]
	var scr: Script = ResourceLoader.load(p, "Script") as Script
	if scr == null:
		return _router.fail("INTERNAL_ERROR", "'%s' did not load as a script in the editor." % p)
	var ur: EditorUndoRedoManager = EditorInterface.get_editor_undo_redo()
	ur.create_action("godot-mcp: attach %s to %s" % [p.get_file(), nr["path"]], UndoRedo.MERGE_DISABLE, root)
	if not file_do.is_empty():
		ur.add_do_method(Files._applier, "apply", file_do)
	ur.add_do_property(node, "script", scr)
	ur.add_undo_property(node, "script", old)
	if not file_undo.is_empty():
		ur.add_undo_method(Files._applier, "apply", file_undo)
	ur.commit_action(true)
	if create:
		out["ready"] = await _wait_ready(PackedStringArray([p]), PackedStringArray(), EDITOR_WAIT_MS)
		out["class_name"] = _class_name_of(p) if _class_name_of(p) != "" else r["class_name"]
	out["scene_dirty"] = true
	out["persisted"] = false
	out["undoable"] = true
	out["undo_history"] = "scene"
	return _router.ok(out)


## {node, dry_run} -> {node, node_type, detached, previous_script, scene, scene_dirty,
## persisted, undoable, undo_history}
func detach(params: Dictionary) -> Dictionary:
	var sr: Dictionary = _scene_root()
	if not sr["ok"]:
		return sr["failure"]
	var root: Node = sr["root"]
	var nr: Dictionary = _node(root, params.get("node"))
	if not nr["ok"]:
		return nr["failure"]
	var dry_run: Variant = Files._bool_param(params, "dry_run", false)
	if dry_run == null:
		return _router.fail("VALIDATION_ERROR", "dry_run must be true or false.")
	var node: Node = nr["node"]
	var old: Variant = node.get_script()
	var out: Dictionary = {"node": nr["path"], "node_type": node.get_class(), "scene": root.scene_file_path, "detached": false, "previous_script": "", "scene_dirty": false, "persisted": false, "undoable": false}
	if old == null:
		return _router.ok(out)
	out["previous_script"] = (old as Script).resource_path
	out["detached"] = not dry_run
	if dry_run:
		return _router.ok(out)
	# Keep the script's variable values so that undo restores them with the script.
	var saved: Dictionary = {}
	for info: Dictionary in node.get_property_list():
		var usage: int = int(info.get("usage", 0))
		if (usage & PROPERTY_USAGE_SCRIPT_VARIABLE) != 0 and (usage & PROPERTY_USAGE_STORAGE) != 0:
			saved[str(info["name"])] = node.get(str(info["name"]))
	var ur: EditorUndoRedoManager = EditorInterface.get_editor_undo_redo()
	ur.create_action("godot-mcp: detach the script of %s" % nr["path"], UndoRedo.MERGE_DISABLE, root)
	ur.add_do_property(node, "script", null)
	ur.add_undo_property(node, "script", old)
	for k: Variant in saved.keys():
		ur.add_undo_property(node, str(k), saved[k])
	ur.commit_action(true)
	out["scene_dirty"] = true
	out["undoable"] = true
	out["undo_history"] = "scene"
	return _router.ok(out)
