@tool
extends "common.gd"
## The checker, and the commands built on it: cmd_scripts_validate, cmd_scripts_get_symbols.
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

var _job_counter: int = 0


# --- the checker ---------------------------------------------------------------------------


## Checks [param items] ([{path, source?}]) with Godot's parser in a headless Godot on this
## project. Returns {ok: true, results: [{path, valid, class_name, errors, symbols?}]} or
## {ok: false, failure}. Awaits (the editor keeps running meanwhile).
func check(items: Array, symbols: bool, timeout_ms: int) -> Dictionary:
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
	var codec: String = (Codec as Script).resource_path
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


# --- cmd_scripts_validate ----------------------------------------------------------------------


## {items: [{path, source?}]} | {all: true, folder, limit}, timeout_ms ->
## {results: [{path, valid, class_name, errors}], checked, truncated}
func validate(params: Dictionary) -> Dictionary:
	var timeout: Variant = Params.int_in(params, "timeout_ms", DEFAULT_CHECK_MS, 1000, 600000)
	var all: Variant = Params.boolean(params, "all", false)
	if timeout == null or all == null:
		return _router.fail("VALIDATION_ERROR", "timeout_ms must be 1000..600000 and all a bool.")
	var items: Array = []
	var truncated: bool = false
	if all:
		var folder: Variant = params.get("folder", "res://")
		var bad: Dictionary = Files.check_path(folder, "folder", true)
		if not bad.is_empty():
			return bad
		var limit: Variant = Params.int_in(params, "limit", 2000, 1, 5000)
		if limit == null:
			return _router.fail("VALIDATION_ERROR", "limit must be 1..5000.")
		var dir: String = (folder as String).trim_suffix("/") if folder != "res://" else "res://"
		if not Files.is_dir(dir):
			return Files.not_found(dir, "folder")
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
				return Files.not_found(str(gp["path"]), "script")
			items.append(item)
	if items.is_empty():
		return _router.ok({"results": [], "checked": 0, "truncated": false})
	var chk: Dictionary = await _checker.check(items, false, int(timeout))
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
		return Files.not_found(p, "script")
	var chk: Dictionary = await _checker.check([{"path": p}], true, DEFAULT_CHECK_MS)
	if not chk["ok"]:
		return chk["failure"]
	var r: Dictionary = chk["results"][0]
	var out: Dictionary = {"path": p, "valid": r["valid"], "errors": r["errors"], "class_name": r["class_name"], "extends": "", "tool": false}
	if r.has("symbols"):
		out.merge(r["symbols"] as Dictionary, true)
	if str(out.get("extends_path", "")) == "":
		out.erase("extends_path")
	return _router.ok(out)
