@tool
extends "common.gd"
## Reading: cmd_resources_list, cmd_resources_search, cmd_resources_read.


## {path, recursive, types, glob, offset, limit} -> {entries: [{path, kind, type, uid,
## class_name}], next_offset (0 when done), scanning}
func list(params: Dictionary) -> Dictionary:
	var path: Variant = params.get("path", "res://")
	var bad: Dictionary = Files.check_path(path, "path", true)
	if not bad.is_empty():
		return bad
	var recursive: Variant = Params.boolean(params, "recursive", true)
	var types: Variant = Params.strings(params.get("types"))
	var glob: Variant = params.get("glob", "")
	var offset: Variant = Params.int_in(params, "offset", 0, 0, 1 << 30)
	var limit: Variant = Params.int_in(params, "limit", 500, 1, 5000)
	if recursive == null or types == null or typeof(glob) != TYPE_STRING or offset == null or limit == null:
		return _router.fail("VALIDATION_ERROR", "Expected {path, recursive: bool, types: [class names], glob: string, offset: int >= 0, limit: 1..5000}.")
	var dir: String = (path as String).trim_suffix("/") if path != "res://" else "res://"
	if not Files.is_dir(dir):
		if FileAccess.file_exists(dir):
			return _router.fail("VALIDATION_ERROR", "'%s' is a file; list its folder '%s' or read it." % [dir, dir.get_base_dir()])
		return Files.not_found(dir, "folder")
	var matched: Array = []
	var walk: Dictionary = PathGuard.walk_new()
	if not recursive:
		for sub: String in Files.subdirs_of(dir, walk):
			if Files.glob_match(sub, glob as String):
				matched.append({"path": sub, "kind": "folder"})
	for f: Dictionary in Files.files_under(dir, recursive as bool, 1 << 30, walk):
		var p: String = f["path"]
		if not Files.glob_match(p, glob as String):
			continue
		if not (types as PackedStringArray).is_empty() and not _type_matches(str(f["type"]), types as PackedStringArray):
			continue
		var e: Dictionary = {"path": p, "kind": "file", "type": f["type"]}
		if str(f["class_name"]) != "":
			e["class_name"] = f["class_name"]
		matched.append(e)
	var page: Array = matched.slice(int(offset), int(offset) + int(limit))
	for e: Dictionary in page:
		if e["kind"] == "file":
			var u: String = Files.uid_text(e["path"])
			if u != "":
				e["uid"] = u
	var next: int = int(offset) + page.size()
	var out: Dictionary = {"entries": page, "next_offset": next if next < matched.size() else 0, "scanning": Files.efs().is_scanning()}
	out.merge(PathGuard.walk_report(walk))
	return _router.ok(out)


static func _type_matches(file_type: String, types: PackedStringArray) -> bool:
	for t: String in types:
		if file_type == t or (ClassDB.class_exists(file_type) and ClassDB.class_exists(t) and ClassDB.is_parent_class(file_type, t)):
			return true
	return false


# --- cmd_resources_search ------------------------------------------------------------------


## {query, regex, case_sensitive, path, glob, max_results, offset, skip, budget_ms} ->
## {matches: [{path, line, column, text}], files_searched, files_skipped, next_offset,
## next_skip, reason ("" when the search ended)}
func search(params: Dictionary) -> Dictionary:
	var query: Variant = params.get("query")
	if typeof(query) != TYPE_STRING or (query as String) == "":
		return _router.fail("VALIDATION_ERROR", "query is required: the text to find.")
	var path: Variant = params.get("path", "res://")
	var bad: Dictionary = Files.check_path(path, "path", true)
	if not bad.is_empty():
		return bad
	var use_regex: Variant = Params.boolean(params, "regex", false)
	var case_sensitive: Variant = Params.boolean(params, "case_sensitive", false)
	var glob: Variant = params.get("glob", "")
	var max_results: Variant = Params.int_in(params, "max_results", 100, 1, 1000)
	var offset: Variant = Params.int_in(params, "offset", 0, 0, 1 << 30)
	var skip: Variant = Params.int_in(params, "skip", 0, 0, 1 << 30)
	var budget: Variant = Params.int_in(params, "budget_ms", 3000, 100, 60000)
	if use_regex == null or case_sensitive == null or typeof(glob) != TYPE_STRING or max_results == null or offset == null or skip == null or budget == null:
		return _router.fail("VALIDATION_ERROR", "Expected {query, regex: bool, case_sensitive: bool, path, glob, max_results: 1..1000, offset, skip, budget_ms}.")
	var dir: String = (path as String).trim_suffix("/") if path != "res://" else "res://"
	if not Files.is_dir(dir):
		return Files.not_found(dir, "folder")
	var re: RegEx = null
	var needle: String = query
	if use_regex:
		re = RegEx.new()
		var pattern: String = needle if case_sensitive else "(?i)" + needle
		if re.compile(pattern) != OK:
			return _router.fail("VALIDATION_ERROR", "query is not a valid regular expression (PCRE2 syntax, as Godot's RegEx): %s" % needle)
	elif not case_sensitive:
		needle = needle.to_lower()
	var files: PackedStringArray = []
	if dir == "res://" and Files.glob_match("res://project.godot", glob as String):
		files.append("res://project.godot")
	var walk: Dictionary = PathGuard.walk_new()
	for f: Dictionary in Files.files_under(dir, true, 1 << 30, walk):
		var p: String = f["path"]
		if p.get_extension().to_lower() in SEARCH_EXTENSIONS and Files.glob_match(p, glob as String):
			files.append(p)
	var matches: Array = []
	var searched: int = 0
	var skipped: int = 0
	var started: int = Time.get_ticks_msec()
	var slice_start: int = started
	var i: int = int(offset)
	var to_skip: int = int(skip)
	var reason: String = ""
	var next_skip: int = 0
	while i < files.size():
		var p: String = files[i]
		var f: FileAccess = FileAccess.open(p, FileAccess.READ)
		if f == null or f.get_length() > MAX_SEARCH_FILE_BYTES:
			skipped += 1
			i += 1
			continue
		var text: String = f.get_as_text()
		f.close()
		searched += 1
		var found_here: int = 0
		var lines: PackedStringArray = text.split("\n")
		var stop: bool = false
		for ln: int in range(lines.size()):
			var line: String = lines[ln].trim_suffix("\r")
			var cols: Array[int] = []
			if re != null:
				for m: RegExMatch in re.search_all(line):
					cols.append(m.get_start())
			else:
				var hay: String = line if case_sensitive else line.to_lower()
				var at: int = hay.find(needle)
				while at >= 0:
					cols.append(at)
					at = hay.find(needle, at + maxi(1, needle.length()))
			for c: int in cols:
				found_here += 1
				if found_here <= to_skip:
					continue
				if matches.size() >= int(max_results):
					stop = true
					break
				matches.append({"path": p, "line": ln + 1, "column": c + 1, "text": line.substr(0, 300)})
			if stop:
				break
		if stop:
			reason = "max_results"
			next_skip = found_here - 1
			break
		to_skip = 0
		i += 1
		var now: int = Time.get_ticks_msec()
		if now - started > int(budget) and i < files.size():
			reason = "time_budget"
			break
		if now - slice_start > Files.SLICE_MS:
			await (Engine.get_main_loop() as SceneTree).process_frame
			slice_start = Time.get_ticks_msec()
	var out: Dictionary = {
		"matches": matches, "files_searched": searched, "files_skipped": skipped,
		"next_offset": i if reason != "" else -1, "next_skip": next_skip, "reason": reason,
	}
	out.merge(PathGuard.walk_report(walk))
	return _router.ok(out)


# --- cmd_resources_read ---------------------------------------------------------------------


## {path, properties: [names]} -> {path, type, uid, script_class, properties, sub_resources,
## omitted}
func read(params: Dictionary) -> Dictionary:
	var path: Variant = params.get("path")
	var bad: Dictionary = Files.check_path(path)
	if not bad.is_empty():
		return bad
	var wanted: Variant = Params.strings(params.get("properties"))
	if wanted == null:
		return _router.fail("VALIDATION_ERROR", "properties must be an array of property names.")
	var p: String = path
	if not FileAccess.file_exists(p):
		if Files.is_dir(p):
			return _router.fail("VALIDATION_ERROR", "'%s' is a folder; list it with godot_resources_list." % p)
		return Files.not_found(p)
	if not ResourceLoader.exists(p):
		return _router.fail("VALIDATION_ERROR", "'%s' is not a resource Godot can load (the editor sees it as '%s'); search or read it as text." % [p, Files.efs().get_file_type(p)])
	var res: Resource = ResourceLoader.load(p)
	if res == null:
		return _router.fail("VALIDATION_ERROR", "'%s' failed to load; fix or reimport it first (see the editor's Output)." % p)
	var props: Dictionary = {}
	var omitted: PackedStringArray = []
	var names: PackedStringArray = []
	for info: Dictionary in res.get_property_list():
		var n: String = str(info["name"])
		if (int(info.get("usage", 0)) & PROPERTY_USAGE_STORAGE) == 0 or n == "resource_path":
			continue
		names.append(n)
	for n: String in (wanted as PackedStringArray):
		if SubPath.is_path(n):
			var r: Dictionary = SubPath.resolve(res, n, "%s '%s'" % [res.get_class(), p])
			if not r.get("ok", false):
				return _router.fail("VALIDATION_ERROR", str(r["hint"]))
			continue
		if not names.has(n):
			var hint: String = "%s has no stored property '%s'." % [res.get_class(), n]
			var near: PackedStringArray = []
			for m: String in names:
				if m.similarity(n) > 0.5:
					near.append(m)
			if not near.is_empty():
				hint += " Did you mean %s?" % ", ".join(near)
			return _router.fail("VALIDATION_ERROR", hint)
	for n: String in (wanted as PackedStringArray):
		if SubPath.is_path(n):
			var r2: Dictionary = SubPath.resolve(res, n)
			props[n] = Codec.encode((r2["target"] as Object).get(str(r2["property"])))
	for n: String in names:
		if not (wanted as PackedStringArray).is_empty() and not (wanted as PackedStringArray).has(n):
			continue
		var v: Variant = Codec.encode(res.get(n))
		if (wanted as PackedStringArray).is_empty() and JSON.stringify(v).length() > MAX_READ_VALUE_CHARS:
			omitted.append(n)
			continue
		props[n] = v
	var subs: Array = []
	for n: String in names:
		_collect_subresources(res.get(n), n, subs, 0)
	var out: Dictionary = {"path": p, "type": res.get_class(), "uid": Files.uid_text(p), "properties": props, "sub_resources": subs, "omitted": omitted}
	var scr: Variant = res.get_script()
	if scr is Script and (scr as Script).get_global_name() != &"":
		out["script_class"] = str((scr as Script).get_global_name())
	return _router.ok(out)


func _collect_subresources(v: Variant, where: String, out: Array, depth: int) -> void:
	if depth > 4 or out.size() > 1000:
		return
	if v is Resource:
		var r: Resource = v
		if r.resource_path == "" or r.resource_path.contains("::"):
			out.append({"id": r.resource_scene_unique_id, "type": r.get_class(), "property": where})
			for info: Dictionary in r.get_property_list():
				if (int(info.get("usage", 0)) & PROPERTY_USAGE_STORAGE) != 0 and int(info.get("type", 0)) in [TYPE_OBJECT, TYPE_ARRAY, TYPE_DICTIONARY]:
					_collect_subresources(r.get(str(info["name"])), where + "/" + str(info["name"]), out, depth + 1)
	elif typeof(v) == TYPE_ARRAY:
		var a: Array = v
		for i: int in range(mini(a.size(), 256)):
			_collect_subresources(a[i], "%s/%d" % [where, i], out, depth + 1)
	elif typeof(v) == TYPE_DICTIONARY:
		var d: Dictionary = v
		for k: Variant in d.keys().slice(0, 256):
			_collect_subresources(d[k], "%s/%s" % [where, str(k)], out, depth + 1)
