@tool
extends "common.gd"
## Scene files: list_open, open, create, save, close, reload; tracks what each open
## scene's file held when the editor loaded or saved it.

var _plugin: EditorPlugin = null
## res:// path -> {mtime, md5} of the scene file when the editor loaded or last saved it.
var _disk: Dictionary = {}


## Follows the editor's scene signals (called by handlers.gd after init_family).
func start(plugin: EditorPlugin) -> void:
	_plugin = plugin
	if _plugin != null:
		_plugin.scene_saved.connect(_on_scene_saved)
		_plugin.scene_changed.connect(_on_scene_changed)
		_plugin.scene_closed.connect(_on_scene_closed)
	for p: String in Compat.open_scenes():
		_remember_disk(p, false)


func teardown() -> void:
	if _plugin != null and is_instance_valid(_plugin):
		if _plugin.scene_saved.is_connected(_on_scene_saved):
			_plugin.scene_saved.disconnect(_on_scene_saved)
		if _plugin.scene_changed.is_connected(_on_scene_changed):
			_plugin.scene_changed.disconnect(_on_scene_changed)
		if _plugin.scene_closed.is_connected(_on_scene_closed):
			_plugin.scene_closed.disconnect(_on_scene_closed)
	_plugin = null


## {} -> {scenes: [{path, dirty, active}], active}
func cmd_list_open(_params: Dictionary) -> Dictionary:
	var scenes: Array = []
	var active: String = ""
	for s: Dictionary in _open_scenes():
		scenes.append({"path": s["path"], "dirty": s["dirty"], "active": s["active"]})
		if s["active"]:
			active = s["path"]
	var root: Node = EditorInterface.get_edited_scene_root()
	if active == "" and root != null:
		active = root.scene_file_path
	return _router.ok({"scenes": scenes, "active": active})


## Remembers the modification time and MD5 of a scene file, as the editor's copy of it.
func _remember_disk(path: String, force: bool) -> void:
	if path == "" or (not force and _disk.has(path)):
		return
	if not FileAccess.file_exists(path):
		_disk.erase(path)
		return
	_disk[path] = {"mtime": FileAccess.get_modified_time(path), "md5": FileAccess.get_md5(path)}


func _on_scene_saved(path: String) -> void:
	_remember_disk(path, true)


func _on_scene_changed(root: Node) -> void:
	if root != null and is_instance_valid(root):
		_remember_disk(root.scene_file_path, false)


func _on_scene_closed(path: String) -> void:
	_disk.erase(path)


## {path, dry_run?} -> {path, already_open, active, root_name, root_type, dry_run}
func cmd_open(params: Dictionary) -> Dictionary:
	var dry: Variant = Params.boolean(params, "dry_run", false)
	if dry == null:
		return _bad("dry_run must be true or false.")
	var pv: Variant = Params.string(params, "path")
	if pv == null or not _is_scene_path(pv as String):
		return _bad("path is required: the res:// path of a scene file (.tscn or .scn), e.g. \"res://main.tscn\".")
	var path: String = pv
	var outside: Dictionary = _outside("path", path)
	if not outside.is_empty():
		return outside
	if not ResourceLoader.exists(path):
		return _scene_file_not_found(path)
	if ResourceLoader.get_recognized_extensions_for_type("PackedScene").find(path.get_extension()) < 0:
		return _bad("'%s' is not a scene file." % path)
	var already: bool = Compat.open_scenes().has(path)
	if dry:
		return _router.ok({"path": path, "already_open": already, "active": true, "root_name": "", "root_type": "", "dry_run": true})
	# Switching to a scene that is already open settles a frame or two later
	# (the scene tab change is deferred), so wait for it like save and close do.
	await _switch_settled(path)
	var root: Node = EditorInterface.get_edited_scene_root()
	if root == null or root.scene_file_path != path:
		return _router.fail("INTERNAL_ERROR", "The editor did not open '%s' (it may be broken or have missing dependencies; the editor's Output panel says why)." % path)
	if not already:
		_remember_disk(path, true)
	return _router.ok({"path": path, "already_open": already, "active": true, "root_name": str(root.name), "root_type": root.get_class(), "dry_run": false})


## {path, root_type?, root_name?, open?, dry_run?} -> {path, root_name, root_type, script, opened,
## persisted, undoable, dry_run}
func cmd_create(params: Dictionary) -> Dictionary:
	var dry: Variant = Params.boolean(params, "dry_run", false)
	var open: Variant = Params.boolean(params, "open", true)
	if dry == null or open == null:
		return _bad("dry_run and open must be true or false.")
	var pv: Variant = Params.string(params, "path")
	if pv == null or not _is_scene_path(pv as String):
		return _bad("path is required: the res:// path of the new scene file, ending in .tscn or .scn (e.g. \"res://levels/level_1.tscn\").")
	var path: String = pv
	var outside: Dictionary = _outside("path", path)
	if not outside.is_empty():
		return outside
	if FileAccess.file_exists(path) or ResourceLoader.exists(path):
		return _bad("'%s' already exists; godot_scene_create never overwrites a file. Open it with godot_scene_open, or choose another path." % path)
	var tv: Variant = Params.string(params, "root_type", "Node")
	if tv == null:
		return _bad("root_type must be a string, e.g. \"Node2D\".")
	var tinfo: Dictionary = _node_type(tv as String)
	if not tinfo.get("ok", false):
		return tinfo["failure"]
	var nv: Variant = Params.string(params, "root_name")
	if nv == null:
		return _bad("root_name must be a string.")
	var root_name: String = nv
	if root_name == "":
		root_name = path.get_file().get_basename().to_pascal_case().validate_node_name()
		if root_name == "":
			root_name = str(tinfo["type"])
	else:
		var problem: String = _name_problem(root_name)
		if problem != "":
			return _bad("root_name: %s." % problem)
	var script_path: String = (tinfo["script"] as Script).resource_path if tinfo["script"] != null else ""
	var result: Dictionary = {"path": path, "root_name": root_name, "root_type": tinfo["type"], "script": script_path, "opened": bool(open) and not dry, "persisted": not dry, "undoable": false, "dry_run": dry}
	if dry:
		result["opened"] = false
		return _router.ok(result)
	var dir: String = path.get_base_dir()
	if not DirAccess.dir_exists_absolute(dir):
		var derr: Error = DirAccess.make_dir_recursive_absolute(dir)
		if derr != OK:
			return _router.fail("INTERNAL_ERROR", "Could not create the folder '%s' (%s)." % [dir, error_string(derr)])
	var root: Node = ClassDB.instantiate(tinfo["type"]) as Node
	root.name = root_name
	if tinfo["script"] != null:
		root.set_script(tinfo["script"])
	var packed: PackedScene = PackedScene.new()
	var perr: Error = packed.pack(root)
	root.free()
	if perr != OK:
		return _router.fail("INTERNAL_ERROR", "Could not pack the new scene (%s)." % error_string(perr))
	var serr: Error = ResourceSaver.save(packed, path)
	if serr != OK:
		return _router.fail("INTERNAL_ERROR", "Could not write '%s' (%s)." % [path, error_string(serr)])
	EditorInterface.get_resource_filesystem().update_file(path)
	if open:
		EditorInterface.open_scene_from_path(path)
		var edited: Node = EditorInterface.get_edited_scene_root()
		result["opened"] = edited != null and edited.scene_file_path == path
		_remember_disk(path, true)
	return _router.ok(result)


func _find_tab_ok() -> bool:
	_find_tabs()
	return _tab_bar != null


func _switch_back(prev_tab: int, prev_path: String) -> void:
	var root: Node = EditorInterface.get_edited_scene_root()
	if prev_path != "":
		if root == null or root.scene_file_path != prev_path:
			if Compat.open_scenes().has(prev_path):
				_activate(prev_path)
		return
	if prev_tab >= 0 and _find_tab_ok() and prev_tab < _tab_bar.tab_count and _tab_bar.current_tab != prev_tab:
		_tab_bar.current_tab = prev_tab


## Which open scene a save/close/reload acts on: {ok, root, path, is_active} or {ok: false, failure}.
func _target_scene(params: Dictionary) -> Dictionary:
	var edited: Node = EditorInterface.get_edited_scene_root()
	if edited == null:
		return {"ok": false, "failure": _no_scene()}
	var sv: Variant = Params.string(params, "scene")
	if sv == null:
		return {"ok": false, "failure": _bad("scene must be a res:// path string (omit it for the edited scene).")}
	var scene: String = sv
	if scene == "" or scene == edited.scene_file_path:
		return {"ok": true, "path": edited.scene_file_path, "is_active": true}
	if not Compat.open_scenes().has(scene):
		var open: PackedStringArray = []
		for s: String in Compat.open_scenes():
			open.append(s if s != "" else "(unsaved)")
		return {"ok": false, "failure": _router.fail("RESOURCE_NOT_FOUND", "'%s' is not open in the editor. Open scenes: %s. Open it with godot_scene_open first." % [scene, Nodes.short_list(open)])}
	return {"ok": true, "path": scene, "is_active": false}


## {scene?, path?, overwrite?, dry_run?} -> {path, previous_path, saved, was_dirty,
## overwrote_newer, persisted, undoable, dry_run}
func cmd_save(params: Dictionary) -> Dictionary:
	var dry: Variant = Params.boolean(params, "dry_run", false)
	var overwrite: Variant = Params.boolean(params, "overwrite", false)
	var all: Variant = Params.boolean(params, "all", false)
	if dry == null or overwrite == null or all == null:
		return _bad("dry_run, overwrite and all must be true or false.")
	if all:
		return await _save_all(dry, overwrite, str(params.get("scene", "")) != "" or str(params.get("path", "")) != "")
	var t: Dictionary = _target_scene(params)
	if not t.get("ok", false):
		return t["failure"]
	var current: String = t["path"]
	var av: Variant = Params.string(params, "path")
	if av == null or ((av as String) != "" and not _is_scene_path(av as String)):
		return _bad("path must be a res:// path ending in .tscn or .scn (save as), or omitted to save in place.")
	var target: String = av if (av as String) != "" else current
	if target == "":
		return _bad("This scene has never been saved: give path (a res:// path ending in .tscn), e.g. \"res://main.tscn\".")
	var save_as: bool = target != current
	var outside: Dictionary = _outside("path" if save_as else "scene", target)
	if not outside.is_empty():
		return outside
	if save_as:
		if Compat.open_scenes().has(target):
			return _bad("'%s' is open in another tab; the editor cannot save over an open scene. Close it first (godot_scene_close) or choose another path." % target)
		if FileAccess.file_exists(target) and not overwrite:
			return _router.fail("PRECONDITION_FAILED", "'%s' already exists. Pass overwrite: true to replace it, or choose another path." % target)
	var newer: bool = false
	if not save_as and FileAccess.file_exists(target) and _disk.has(target):
		var rec: Dictionary = _disk[target]
		var md5: String = FileAccess.get_md5(target)
		var mtime: int = FileAccess.get_modified_time(target)
		if (md5 != "" and md5 != str(rec["md5"])) or (md5 == "" and mtime > int(rec["mtime"])):
			newer = true
			if not overwrite:
				return _router.fail("PRECONDITION_FAILED", "'%s' changed on disk (modified %s) after the editor loaded or last saved it (%s); saving now would overwrite that newer file. To keep the file on disk, call godot_scene_reload (discards the editor's unsaved changes); to keep the editor's version, save again with overwrite: true; or save elsewhere with path." % [target, Time.get_datetime_string_from_unix_time(mtime, true), Time.get_datetime_string_from_unix_time(int(rec["mtime"]), true)])
	var was_dirty: bool = _is_dirty(current) if current != "" else true
	var result: Dictionary = {"path": target, "previous_path": current if save_as else "", "saved": not dry, "was_dirty": was_dirty, "overwrote_newer": newer and not dry, "persisted": not dry, "undoable": false, "dry_run": dry}
	if dry:
		return _router.ok(result)
	var prev_root: Node = EditorInterface.get_edited_scene_root()
	var prev_path: String = prev_root.scene_file_path if prev_root != null else ""
	var prev_tab: int = -1
	if not t["is_active"]:
		prev_tab = _tab_bar.current_tab if _find_tab_ok() else -1
		await _switch_settled(current)
	var root: Node = EditorInterface.get_edited_scene_root()
	if root == null or root.scene_file_path != current:
		_switch_back(prev_tab, prev_path)
		return _router.fail("INTERNAL_ERROR", "Could not switch to '%s' to save it (the edited scene is '%s'); retry, or open it with godot_scene_open first." % [current, _active_path()])
	var dir: String = target.get_base_dir()
	if not DirAccess.dir_exists_absolute(dir):
		DirAccess.make_dir_recursive_absolute(dir)
	EditorInterface.save_scene_as(target, false)
	var ok_saved: bool = FileAccess.file_exists(target) and root.scene_file_path == target
	if not t["is_active"]:
		_switch_back(prev_tab, prev_path)
		await _next_frame()
	if not ok_saved:
		return _router.fail("INTERNAL_ERROR", "The editor did not save '%s' (see its Output panel)." % target)
	_remember_disk(target, true)
	return _router.ok(result)


## all: true -> every open scene with unsaved changes saved in place, all or none:
## each is checked first (never saved, changed on disk), and nothing is saved when one
## would fail. {path: "", saved, was_dirty, persisted, undoable, dry_run, scenes: [{path,
## saved, was_dirty, overwrote_newer}]}
func _save_all(dry: bool, overwrite: bool, targeted: bool) -> Dictionary:
	if targeted:
		return _bad("all saves every open scene in place: leave scene and path out.")
	var dirty: PackedStringArray = []
	for s: Dictionary in _open_scenes():
		if not s["dirty"]:
			continue
		if str(s["path"]) == "":
			return _router.fail("PRECONDITION_FAILED", "An open scene with unsaved changes was never saved (it has no file): save it first with godot_scene_save {path}. Nothing was saved.")
		dirty.append(str(s["path"]))
	for path: String in dirty:
		var check: Dictionary = await cmd_save({"scene": path, "overwrite": overwrite, "dry_run": true})
		if not check.get("ok", false):
			check["hint"] = "'%s' cannot be saved: %s Nothing was saved." % [path, str(check.get("hint", ""))]
			return check
	var scenes: Array = []
	for path: String in dirty:
		var r: Dictionary = await cmd_save({"scene": path, "overwrite": overwrite, "dry_run": dry})
		if not r.get("ok", false):
			var done: PackedStringArray = []
			for e: Dictionary in scenes:
				done.append(str(e["path"]))
			r["hint"] = "Saving '%s' failed: %s Saved before it: %s." % [path, str(r.get("hint", "")), ", ".join(done) if not done.is_empty() else "none"]
			return r
		var res: Dictionary = r["result"]
		scenes.append({"path": path, "saved": res["saved"], "was_dirty": true, "overwrote_newer": res["overwrote_newer"]})
	return _router.ok({
		"path": "", "saved": not dry and not scenes.is_empty(), "was_dirty": not scenes.is_empty(), "persisted": not dry,
		"undoable": false, "dry_run": dry, "scenes": scenes,
	})


## {nodes: [paths], add?: false, dry_run?} -> {selection: [paths], dry_run}: the editor's selection (what the
## Scene dock highlights and the inspector shows). [] clears it. Not an undo action.
func cmd_select(params: Dictionary) -> Dictionary:
	var root: Node = EditorInterface.get_edited_scene_root()
	if root == null:
		return _no_scene()
	var nv: Variant = params.get("nodes", [])
	var add: Variant = Params.boolean(params, "add", false)
	var dry: Variant = Params.boolean(params, "dry_run", false)
	if typeof(nv) != TYPE_ARRAY or add == null or dry == null:
		return _bad("nodes must be an array of node paths relative to the scene root (\".\" is the root), add true or false.")
	var picked: Array[Node] = []
	for v: Variant in nv:
		if typeof(v) != TYPE_STRING:
			return _bad("nodes must hold node paths (strings).")
		var n: Node = Nodes.resolve(root, v as String)
		if n == null:
			return Nodes.not_found(root, v as String)
		picked.append(n)
	var sel: EditorSelection = EditorInterface.get_selection()
	var now: Array[Node] = []
	if add:
		for n: Node in sel.get_selected_nodes():
			if is_instance_valid(n) and (n == root or root.is_ancestor_of(n)):
				now.append(n)
	for n: Node in picked:
		if not now.has(n):
			now.append(n)
	if not dry:
		sel.clear()
		for n: Node in now:
			sel.add_node(n)
	var out: PackedStringArray = []
	for n: Node in now:
		out.append(Nodes.rel(root, n))
	return _router.ok({"selection": out, "dry_run": dry})


## {scene?, dry_run?} -> {path, closed, discarded_changes, active, undoable, dry_run}
func cmd_close(params: Dictionary) -> Dictionary:
	var dry: Variant = Params.boolean(params, "dry_run", false)
	if dry == null:
		return _bad("dry_run must be true or false.")
	var t: Dictionary = _target_scene(params)
	if not t.get("ok", false):
		return t["failure"]
	var path: String = t["path"]
	var dirty: bool = _is_dirty(path) if path != "" else true
	if dry:
		return _router.ok({"path": path, "closed": false, "discarded_changes": dirty, "active": _active_path(), "undoable": false, "dry_run": true})
	var before: int = Compat.open_scenes().size()
	var prev_root: Node = EditorInterface.get_edited_scene_root()
	var prev_path: String = prev_root.scene_file_path if prev_root != null else ""
	# Switching tabs, closing one and switching back are done a frame apart, as a
	# user would: the editor crashes when they all happen within one frame.
	if not t["is_active"]:
		await _switch_settled(path)
	var root: Node = EditorInterface.get_edited_scene_root()
	if root == null or root.scene_file_path != path:
		return _router.fail("INTERNAL_ERROR", "Could not switch to '%s' to close it (the edited scene is '%s'); retry, or open it with godot_scene_open first." % [path, _active_path()])
	# Closing discards the scene and its history anyway: marking the history saved first
	# keeps the editor from asking "Save before closing?".
	var mgr: EditorUndoRedoManager = EditorInterface.get_editor_undo_redo()
	mgr.clear_history(mgr.get_object_history_id(root), false)
	# Scene > Close Scene acts on the edited scene; the tab bar's current tab may lag
	# behind a tab switch made in this same frame.
	if not EditorMenu.press("Close Scene"):
		var idx: int = Compat.open_scenes().find(path)
		if not _find_tab_ok() or _scene_tabs == null or idx < 0 or _tab_bar.tab_count != Compat.open_scenes().size():
			return _router.fail("INTERNAL_ERROR", "The editor's Close Scene command was not found, so the scene could not be closed.")
		_scene_tabs.emit_signal("tab_closed", idx)
	_discard_save_prompt()
	var closed: bool = Compat.open_scenes().size() < before or not Compat.open_scenes().has(path)
	if not closed:
		return _router.fail("INTERNAL_ERROR", "The editor did not close '%s'." % path)
	_disk.erase(path)
	await _next_frame()
	if prev_path != "" and prev_path != path:
		_switch_back(-1, prev_path)
		await _next_frame()
	return _router.ok({"path": path, "closed": true, "discarded_changes": dirty, "active": _active_path(), "undoable": false, "dry_run": false})


## Makes the open scene [param path] the edited one and waits until the editor has
## settled on it (its own deferred tab updates run on the following frames).
func _switch_settled(path: String) -> void:
	for attempt: int in range(5):
		if _active_path() != path:
			_activate(path)
		await _next_frame()
		if _active_path() == path:
			await _next_frame()
			if _active_path() == path:
				return


## Makes [param path] the edited scene: by opening it, which switches to its tab
## when it is open, or by its scene tab, as a click would, where the editor's
## lookup by path would miss the open scene (compat.gd stale_tab).
func _activate(path: String) -> void:
	Compat.before_scene_switch(path)
	var idx: int = Compat.stale_tab(path)
	if idx >= 0 and _find_tab_ok() and _tab_bar.tab_count == Compat.open_scenes().size():
		if _tab_bar.current_tab != idx:
			_tab_bar.current_tab = idx
		return
	EditorInterface.open_scene_from_path(path)


## Waits for the editor's next frame.
func _next_frame() -> void:
	await (Engine.get_main_loop() as SceneTree).process_frame


func _active_path() -> String:
	var r: Node = EditorInterface.get_edited_scene_root()
	return r.scene_file_path if r != null else ""


## If the editor still asked "Save before closing?", answers "Don't Save".
func _discard_save_prompt() -> void:
	var base: Control = EditorInterface.get_base_control()
	for d: Node in base.find_children("*", "ConfirmationDialog", true, false):
		var dlg: ConfirmationDialog = d as ConfirmationDialog
		if not dlg.visible:
			continue
		for b: Node in dlg.find_children("*", "Button", true, false):
			if (b as Button).text == "Don't Save":
				dlg.custom_action.emit(&"discard")
				dlg.hide()
				return


## {scene?, dry_run?} -> {path, reloaded, discarded_changes, undoable, dry_run}
func cmd_reload(params: Dictionary) -> Dictionary:
	var dry: Variant = Params.boolean(params, "dry_run", false)
	if dry == null:
		return _bad("dry_run must be true or false.")
	var t: Dictionary = _target_scene(params)
	if not t.get("ok", false):
		return t["failure"]
	var path: String = t["path"]
	if path == "":
		return _bad("This scene has never been saved, so there is no file to reload it from.")
	if not FileAccess.file_exists(path):
		return _router.fail("RESOURCE_NOT_FOUND", "'%s' no longer exists on disk, so it cannot be reloaded. Save it (godot_scene_save) to write it again." % path)
	var dirty: bool = _is_dirty(path)
	if dry:
		return _router.ok({"path": path, "reloaded": false, "discarded_changes": dirty, "undoable": false, "dry_run": true})
	EditorInterface.reload_scene_from_path(path)
	if not Compat.open_scenes().has(path):
		return _router.fail("INTERNAL_ERROR", "The editor did not reload '%s' (see its Output panel)." % path)
	_remember_disk(path, true)
	return _router.ok({"path": path, "reloaded": true, "discarded_changes": dirty, "undoable": false, "dry_run": false})
