@tool
extends RefCounted
## cmd_visual_shader_create / _get / _edit: VisualShader .tres files from and to the
## graph spec (spec.gd). Every write is ONE action in the editor's global undo history
## that restores both the file and the editor's loaded copy; nothing is half-applied.

const Common := preload("common.gd")
const Spec := preload("spec.gd")
const Files := preload("res://addons/godot_mcp/lib/files.gd")
const Params := preload("res://addons/godot_mcp/lib/params.gd")
const Recorder := preload("res://addons/godot_mcp/lib/undo.gd")

## How long to wait for the editor's filesystem to know a new file.
const SYNC_MS := 10000
const DEFAULT_FUNC := {"spatial": "fragment", "canvas_item": "fragment", "particles": "process", "sky": "sky", "fog": "fog"}
const OPS := ["add_node", "remove_node", "connect", "disconnect", "set"]

var c: Common = null
var spec: Spec = null


func _init(common: Common) -> void:
	c = common
	spec = Spec.new(common)


## The path parameter checked: {path} or {error}.
func _path(params: Dictionary) -> Dictionary:
	var path: Variant = Params.string(params, "path")
	if path == null or str(path) == "":
		return {"error": c.invalid("path must be a res:// .tres file.")}
	var p: String = path
	var bad: Dictionary = Files.check_path(p)
	if not bad.is_empty():
		return {"error": bad}
	if not (p.ends_with(".tres") or p.ends_with(".res")):
		return {"error": c.invalid("'%s': a VisualShader is saved as .tres (or .res)." % p)}
	if p.begins_with("res://addons/godot_mcp"):
		return {"error": c.invalid("'%s' is part of the godot-mcp addon; it is not edited through tools." % p)}
	return {"path": p}


## The VisualShader at [param p] (the editor's loaded copy when it has one): {vs} or {error}.
func _load(p: String) -> Dictionary:
	if not FileAccess.file_exists(p):
		return {"error": Files.not_found(p, "VisualShader")}
	var res: Resource = ResourceLoader.load(p, "", ResourceLoader.CACHE_MODE_REUSE)
	if not (res is VisualShader):
		return {"error": c.invalid("'%s' is a %s, not a VisualShader." % [p, res.get_class() if res != null else "file Godot cannot load"])}
	return {"vs": res}


static func _counts(vs: VisualShader) -> Dictionary:
	var nodes: int = 0
	var conns: int = 0
	for t: int in Common.FUNCS.size():
		nodes += maxi(0, vs.get_node_list(t).size() - 1)
		conns += vs.get_node_connections(t).size()
	return {"nodes": nodes, "connections": conns}


## {path} -> {path, spec, nodes, connections}
func get_graph(params: Dictionary) -> Dictionary:
	var rp: Dictionary = _path(params)
	if rp.has("error"):
		return rp["error"]
	var rl: Dictionary = _load(rp["path"])
	if rl.has("error"):
		return rl["error"]
	var vs: VisualShader = rl["vs"]
	var out: Dictionary = {"path": rp["path"], "spec": spec.read(vs)}
	out.merge(_counts(vs))
	return c.ok(out)


## {path, spec, overwrite, dry_run} -> {path, created, overwritten, spec, code, nodes, connections, undoable, dry_run}
func create(params: Dictionary) -> Dictionary:
	var rp: Dictionary = _path(params)
	if rp.has("error"):
		return rp["error"]
	var p: String = rp["path"]
	var dry: Variant = Params.boolean(params, "dry_run", false)
	var overwrite: Variant = Params.boolean(params, "overwrite", false)
	if dry == null or overwrite == null:
		return c.invalid("dry_run and overwrite must be true or false.")
	var existed: bool = FileAccess.file_exists(p)
	if existed and not overwrite:
		return c.fail("PRECONDITION_FAILED", "'%s' exists. Edit it with godot_visual_shader_edit, or pass overwrite: true (and confirm) to replace it." % p, "confirm")
	if Files.is_dir(p):
		return c.invalid("'%s' is a folder." % p)
	var rb: Dictionary = spec.build(params.get("spec"))
	if rb.has("error"):
		return rb["error"]
	var vs: VisualShader = rb["vs"]
	var out: Dictionary = {"path": p, "created": not existed, "overwritten": existed, "spec": spec.read(vs), "code": vs.get_code(), "undoable": false, "dry_run": dry}
	out.merge(_counts(vs))
	if dry:
		return c.ok(out)
	var before: Variant = Files.file_bytes(p)
	var had_uid: bool = FileAccess.file_exists(p + ".uid")
	DirAccess.make_dir_recursive_absolute(ProjectSettings.globalize_path(p.get_base_dir()))
	var err: Error = ResourceSaver.save(vs, p)
	if err != OK:
		return c.fail("INTERNAL_ERROR", "Saving %s failed: %s." % [p, error_string(err)])
	# A replaced graph's loaded copy stops standing for the file (Godot cannot reload a
	# VisualShader in place: its reset_state keeps the old nodes), so the next load
	# reads the new one.
	if ResourceLoader.has_cached(p):
		var old: Resource = ResourceLoader.get_cached_ref(p)
		if old != null:
			old.resource_path = ""
	var after: PackedByteArray = FileAccess.get_file_as_bytes(p)
	Files.notify_changed(PackedStringArray([p]), PackedStringArray())
	var tree: SceneTree = EditorInterface.get_base_control().get_tree()
	var until: int = Time.get_ticks_msec() + SYNC_MS
	while Time.get_ticks_msec() < until:
		if bool(Files.sync_files(PackedStringArray([p]), PackedStringArray()).get("ready", false)):
			break
		await tree.process_frame
	var do_ops: Array = [{"op": "write", "path": p, "data": after}]
	var undo_ops: Array = []
	if before == null:
		undo_ops.append({"op": "delete", "path": p})
		if not had_uid and FileAccess.file_exists(p + ".uid"):
			do_ops.append({"op": "write", "path": p + ".uid", "data": FileAccess.get_file_as_bytes(p + ".uid")})
			undo_ops.append({"op": "delete", "path": p + ".uid"})
	else:
		undo_ops.append({"op": "write", "path": p, "data": before})
	var undoable: bool = Files.ops_bytes(do_ops) + Files.ops_bytes(undo_ops) <= Files.UNDO_LIMIT_BYTES
	if undoable:
		Files.record("godot-mcp: create visual shader %s" % p, do_ops, undo_ops)
	out["undoable"] = undoable
	return c.ok(out)


## {path, ops: [{op, function?, ...}], dry_run} -> {path, applied, spec, code, nodes, connections, undoable, dry_run}
func edit(params: Dictionary) -> Dictionary:
	var rp: Dictionary = _path(params)
	if rp.has("error"):
		return rp["error"]
	var p: String = rp["path"]
	var dry: Variant = Params.boolean(params, "dry_run", false)
	if dry == null:
		return c.invalid("dry_run must be true or false.")
	var ops: Variant = params.get("ops")
	if not (ops is Array) or (ops as Array).is_empty():
		return c.invalid("ops must be a non-empty array of {op: %s, function, ...}." % " | ".join(PackedStringArray(OPS)))
	var rl: Dictionary = _load(p)
	if rl.has("error"):
		return rl["error"]
	var vs: VisualShader = rl["vs"]
	var mode: String = Common.MODES[vs.get_mode()]
	var rec: Recorder = Recorder.new()
	var applied: Array = []
	var touched: Dictionary = {}
	for i: int in (ops as Array).size():
		rec.begin()
		var r: Dictionary = _apply(vs, mode, ops[i], "ops[%d]" % i, rec, touched)
		if r.has("error"):
			rec.rollback()
			return r["error"]
		applied.append(r["summary"])
	for t: int in touched.keys():
		var bad: Array = spec.broken(vs, t)
		if not bad.is_empty():
			rec.rollback()
			return c.invalid("After these ops, connections in %s no longer fit: %s. Disconnect them (op disconnect) or change the ports in the same call. Nothing was changed." % [Common.FUNCS[t], "; ".join(PackedStringArray(bad))])
	var out: Dictionary = {"path": p, "applied": applied, "spec": spec.read(vs), "code": vs.get_code(), "undoable": false, "dry_run": dry}
	out.merge(_counts(vs))
	if dry:
		rec.rollback()
		return c.ok(out)
	var err: Error = ResourceSaver.save(vs, p)
	if err != OK:
		rec.rollback()
		return c.fail("INTERNAL_ERROR", "Saving %s failed: %s. Nothing was changed." % [p, error_string(err)])
	# Undo and redo change the loaded copy, then save it: the file follows. (A file
	# write would make the editor reload the copy in place, which Godot cannot do for a
	# VisualShader.)
	var saver: Object = Engine.get_singleton("ResourceSaver")
	var mgr: EditorUndoRedoManager = EditorInterface.get_editor_undo_redo()
	mgr.create_action("godot-mcp: edit visual shader %s" % p, UndoRedo.MERGE_DISABLE, null)
	for s: Dictionary in rec.steps:
		for op: Array in s["do"]:
			_add(mgr, true, op)
	mgr.add_do_method(saver, "save", vs, p)
	for i: int in range(rec.steps.size() - 1, -1, -1):
		for op: Array in rec.steps[i]["undo"]:
			_add(mgr, false, op)
	mgr.add_undo_method(saver, "save", vs, p)
	mgr.commit_action(false)
	out["undoable"] = true
	return c.ok(out)


static func _add(mgr: EditorUndoRedoManager, doing: bool, op: Array) -> void:
	var obj: Object = op[0]
	if op[3]:
		if doing:
			mgr.add_do_property(obj, op[1], (op[2] as Array)[0])
		else:
			mgr.add_undo_property(obj, op[1], (op[2] as Array)[0])
		return
	var args: Array = [obj, StringName(op[1])]
	args.append_array(op[2])
	mgr.callv("add_do_method" if doing else "add_undo_method", args)


## One edit op on the live graph, recorded: {summary} or {error}.
func _apply(vs: VisualShader, mode: String, e: Variant, where: String, rec: Recorder, touched: Dictionary) -> Dictionary:
	if not (e is Dictionary):
		return {"error": c.invalid("%s must be an object {op, function, ...}." % where)}
	var op: String = str(e.get("op", ""))
	if not OPS.has(op):
		return {"error": c.invalid("%s: unknown op '%s'.%s Valid: %s." % [where, op, Common.Names.did_you_mean(op, PackedStringArray(OPS)), ", ".join(PackedStringArray(OPS))])}
	var fn: String = str(e.get("function", DEFAULT_FUNC[mode])) if e.get("function") != null else DEFAULT_FUNC[mode]
	var rf: Dictionary = c.resolve_func(mode, fn)
	if rf.has("error"):
		return rf
	var t: int = rf["type"]
	touched[t] = true
	match op:
		"add_node":
			var r: Dictionary = spec.add_node(vs, t, e, where, rec)
			if r.has("error"):
				return r
			return {"summary": "%s: added node %d (%s)" % [fn, r["id"], Common.short(vs.get_node(t, r["id"]).get_class())]}
		"connect":
			var r: Dictionary = spec.connect_ports(vs, t, e, where, rec)
			if r.has("error"):
				return r
			var s: String = "%s: connected %s:%s -> %s:%s" % [fn, str(e["from"]), str(e["from_port"]), str(e["to"]), str(e["to_port"])]
			if r.has("replaced"):
				s += " (replacing %d connection into that port)" % (r["replaced"] as Array).size()
			return {"summary": s}
		"disconnect":
			var r: Dictionary = spec.disconnect_ports(vs, t, e, where, rec)
			if r.has("error"):
				return r
			return {"summary": "%s: disconnected %s:%s -> %s:%s" % [fn, str(e["from"]), str(e["from_port"]), str(e["to"]), str(e["to_port"])]}
	# remove_node and set name one node.
	for k: Variant in (e as Dictionary).keys():
		var allowed: Array = ["op", "function", "id"] if op == "remove_node" else ["op", "function", "id", "props", "defaults", "position"]
		if not allowed.has(str(k)):
			return {"error": c.invalid("%s: op %s has no field '%s'; it takes %s." % [where, op, str(k), ", ".join(PackedStringArray(allowed))])}
	var idv: Variant = Params.integer(e, "id", -1)
	if idv == null or int(idv) < 0:
		return {"error": c.invalid("%s: id must be a node id." % where)}
	var id: int = idv
	var node: VisualShaderNode = vs.get_node(t, id)
	if node == null:
		return {"error": c.fail("RESOURCE_NOT_FOUND", "%s: no node %d in %s; its nodes: %s." % [where, id, fn, Spec._node_list(vs, t)])}
	if id < 2:
		return {"error": c.invalid("%s: node %d is the %s function's Output node; it cannot be %s." % [where, id, fn, "removed" if op == "remove_node" else "changed (connect to its ports instead)"])}
	if op == "remove_node":
		var pos: Vector2 = vs.get_node_position(t, id)
		var conns: Array = []
		for cn: Dictionary in vs.get_node_connections(t):
			if int(cn["from_node"]) == id or int(cn["to_node"]) == id:
				conns.append(cn)
		rec.do_call(vs, "remove_node", [t, id])
		rec.undo_call(vs, "add_node", [t, node, pos, id])
		for cn: Dictionary in conns:
			rec.undo_call(vs, "connect_nodes_forced", [t, cn["from_node"], cn["from_port"], cn["to_node"], cn["to_port"]])
		return {"summary": "%s: removed node %d (%s) and its %d connection(s)" % [fn, id, Common.short(node.get_class()), conns.size()]}
	var label: String = "%s (node %d, %s)" % [where, id, Common.short(node.get_class())]
	var old_defaults: Array = node.get_default_input_values()
	var changed: PackedStringArray = []
	var rs: Dictionary = c.set_props(node, e.get("props"), label, rec)
	if rs.has("error"):
		rec.undo_set(node, "default_input_values", old_defaults)
		return rs
	changed.append_array(PackedStringArray((rs["set"] as Dictionary).keys()))
	var rd: Dictionary = c.set_defaults(node, c.ports_of(vs, t, id)["in"], e.get("defaults"), label, rec)
	rec.undo_set(node, "default_input_values", old_defaults)
	if rd.has("error"):
		return rd
	if e.get("defaults") is Dictionary:
		for k: Variant in (e["defaults"] as Dictionary).keys():
			changed.append("defaults.%s" % str(k))
	var rp: Dictionary = c.position(e.get("position"), label)
	if rp.has("error"):
		return rp
	if rp["pos"] != null:
		var was: Vector2 = vs.get_node_position(t, id)
		rec.do_call(vs, "set_node_position", [t, id, rp["pos"]])
		rec.undo_call(vs, "set_node_position", [t, id, was])
		changed.append("position")
	if changed.is_empty():
		return {"error": c.invalid("%s: op set needs props, defaults or position." % where)}
	return {"summary": "%s: node %d set %s" % [fn, id, ", ".join(changed)]}
