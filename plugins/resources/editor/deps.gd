@tool
extends "common.gd"
## Dependencies, UIDs and the editor filesystem: cmd_resources_get_dependencies,
## cmd_resources_resolve_uid, cmd_resources_rescan, cmd_resources_reimport.


## {path, dependents: bool} -> {path, uid, dependencies: [{path, uid, type, exists}],
## dependents: [{path, count}], dependents_complete}
func get_dependencies(params: Dictionary) -> Dictionary:
	var path: Variant = params.get("path")
	var bad: Dictionary = Files.check_path(path)
	if not bad.is_empty():
		return bad
	var with_dependents: Variant = Params.boolean(params, "dependents", true)
	if with_dependents == null:
		return _router.fail("VALIDATION_ERROR", "dependents must be true or false.")
	var p: String = path
	if not FileAccess.file_exists(p):
		return Files.not_found(p)
	var deps: Array = []
	for dep: String in ResourceLoader.get_dependencies(p):
		var parts: PackedStringArray = dep.split("::")
		var uid: String = parts[0] if parts[0].begins_with("uid://") else ""
		var dp: String = Files.dependency_path(dep)
		var type_name: String = parts[1] if parts.size() > 1 else ""
		deps.append({"path": dp, "uid": uid, "type": type_name, "exists": FileAccess.file_exists(dp)})
	var out: Dictionary = {"path": p, "uid": Files.uid_text(p), "dependencies": deps, "dependents": [], "dependents_complete": false}
	if with_dependents:
		var exclude: Dictionary = {p: true}
		var scan: Dictionary = await Files.find_referrers(PackedStringArray([p]), PackedStringArray(), exclude, 20000)
		var refs: Array = []
		for r: Dictionary in scan["referrers"]:
			refs.append({"path": r["path"], "count": r["count"]})
		out["dependents"] = refs
		out["dependents_complete"] = scan["complete"]
	return _router.ok(out)


# --- cmd_resources_resolve_uid ---------------------------------------------------------------


## {ref: "uid://…" | "res://…"} -> {uid, path, exists}
func resolve_uid(params: Dictionary) -> Dictionary:
	var ref: Variant = params.get("ref")
	if typeof(ref) != TYPE_STRING:
		return _router.fail("VALIDATION_ERROR", "ref must be a uid://… or res://… string.")
	var r: String = ref
	if r.begins_with("uid://"):
		var id: int = ResourceUID.text_to_id(r)
		if id == ResourceUID.INVALID_ID:
			return _router.fail("VALIDATION_ERROR", "'%s' is not a valid uid:// text." % r)
		if not ResourceUID.has_id(id):
			return _router.fail("RESOURCE_NOT_FOUND", "No file has the UID '%s' in this project. If the file was just added, rescan (godot_resources_rescan)." % r)
		var p: String = ResourceUID.get_id_path(id)
		return _router.ok({"uid": r, "path": p, "exists": FileAccess.file_exists(p)})
	var bad: Dictionary = Files.check_path(r, "ref")
	if not bad.is_empty():
		return bad
	if not FileAccess.file_exists(r):
		return Files.not_found(r)
	return _router.ok({"uid": Files.uid_text(r), "path": r, "exists": true})


# --- cmd_resources_rescan / cmd_resources_reimport -------------------------------------------


## {} -> {started, scanning}
func rescan(_params: Dictionary) -> Dictionary:
	var fs: EditorFileSystem = Files.efs()
	# A scan already under way may have listed the folders before the files
	# the caller just wrote: let it end (bounded), then scan again.
	var t0: int = Time.get_ticks_msec()
	while fs.is_scanning() and Time.get_ticks_msec() - t0 < RESCAN_WAIT_MS:
		await (Engine.get_main_loop() as SceneTree).process_frame
	var started: bool = not fs.is_scanning()
	if started:
		fs.scan()
	return _router.ok({"started": started, "scanning": fs.is_scanning()})


## {paths, dry_run} -> {reimported, skipped: [{path, reason}], ready, written, removed}
func reimport(params: Dictionary) -> Dictionary:
	var paths: Variant = Params.strings(params.get("paths"))
	var dry_run: Variant = Params.boolean(params, "dry_run", false)
	if paths == null or (paths as PackedStringArray).is_empty() or dry_run == null:
		return _router.fail("VALIDATION_ERROR", "paths must be a non-empty array of res:// paths of imported assets.")
	var todo: PackedStringArray = []
	var skipped: Array = []
	for p: String in paths:
		var why: String = Files.path_problem(p)
		if why != "":
			return _router.fail("VALIDATION_ERROR", "%s." % why)
		if not FileAccess.file_exists(p):
			skipped.append({"path": p, "reason": "no such file"})
		elif not FileAccess.file_exists(p + ".import"):
			skipped.append({"path": p, "reason": "not an imported asset (no .import file)"})
		else:
			todo.append(p)
	var out: Dictionary = {"reimported": todo, "skipped": skipped, "ready": true, "written": todo, "removed": []}
	if dry_run or todo.is_empty():
		return _router.ok(out)
	if Files.efs().is_scanning():
		return _router.fail("PRECONDITION_FAILED", "The editor is scanning the filesystem; retry when it is done (godot_resources_rescan waits for it).")
	Files.efs().reimport_files(todo)
	out["ready"] = Files.sync_files(todo, PackedStringArray())["ready"]
	return _router.ok(out)
