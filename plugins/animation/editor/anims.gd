@tool
extends RefCounted
## cmd_animation_edit (create, duplicate, rename, set an animation; create and rename
## a library) and cmd_animation_delete (an animation, a library, or tracks). Each call
## is one undo action of the edited scene.

const ACTIONS := ["create", "duplicate", "rename", "set", "create_library", "rename_library"]

var u: RefCounted = null # util.gd
var tracks: RefCounted = null # tracks.gd


func _init(util: RefCounted, t: RefCounted) -> void:
	u = util
	tracks = t


static func _name_problem(n: String, what: String) -> String:
	if n.strip_edges() == "":
		return "%s cannot be empty" % what
	for c: String in ["/", ":", ",", "["]:
		if n.contains(c):
			return "%s '%s' cannot contain '%s'" % [what, n, c]
	return ""


func _mgr() -> EditorUndoRedoManager:
	return EditorInterface.get_editor_undo_redo()


func _answer(root: Node, mixer: AnimationMixer, dry: bool, fields: Dictionary) -> Dictionary:
	var persist: Dictionary = u.persist_of(root, null, mixer)
	fields["player"] = u.rel(root, mixer)
	fields["persisted"] = persist["persisted"]
	if persist.get("reason", "") != "":
		fields["reason"] = persist["reason"]
	fields["undoable"] = not dry
	fields["dry_run"] = dry
	return u.ok(fields)


## {player?, action, animation?, library?, new_name?, length?, loop_mode?, step?, dry_run}
func edit(p: Dictionary) -> Dictionary:
	var m: Dictionary = u.mixer_param(p)
	if u.is_fail(m):
		return m
	var root: Node = m["root"]
	var mixer: AnimationMixer = m["mixer"]
	var dry: bool = p.get("dry_run", false) == true
	var action: String = str(p.get("action", ""))
	match action:
		"create", "duplicate":
			return _create(root, mixer, p, dry, action == "duplicate")
		"rename":
			return _rename(root, mixer, p, dry)
		"set":
			var a: Dictionary = u.anim_param(mixer, p)
			if u.is_fail(a):
				return a
			var work: Animation = (a["anim"] as Animation).duplicate(false)
			var r: Dictionary = tracks.set_animation(work, p)
			if r.has("hint"):
				return u.bad(str(r["hint"]) + ". Nothing was changed.")
			if not dry:
				u.commit_anim("Set animation '%s'" % a["full"], root, a["anim"], work)
			r.erase("op")
			r["animation"] = a["full"]
			return _answer(root, mixer, dry, r)
		"create_library":
			var ln: String = str(p.get("library", ""))
			if typeof(p.get("library")) != TYPE_STRING:
				return u.bad("library is required: the new library's name (\"\" is the default library).")
			if ln != "" and _name_problem(ln, "library") != "":
				return u.bad(_name_problem(ln, "library") + ".")
			if mixer.has_animation_library(ln):
				return u.bad("'%s' already has a library '%s'." % [str(mixer.name), ln])
			if not dry:
				var lib := AnimationLibrary.new()
				var mgr: EditorUndoRedoManager = _mgr()
				mgr.create_action("godot-mcp: " + "Create animation library '%s'" % ln, UndoRedo.MERGE_DISABLE, root)
				mgr.add_do_method(mixer, "add_animation_library", ln, lib)
				mgr.add_undo_method(mixer, "remove_animation_library", ln)
				mgr.commit_action()
			return _answer(root, mixer, dry, {"library": ln})
		"rename_library":
			var l: Dictionary = u.library_param(mixer, p)
			if u.is_fail(l):
				return l
			var nn: String = str(p.get("new_name", ""))
			if _name_problem(nn, "new_name") != "":
				return u.bad(_name_problem(nn, "new_name") + ".")
			if mixer.has_animation_library(nn):
				return u.bad("'%s' already has a library '%s'." % [str(mixer.name), nn])
			if not dry:
				var mgr: EditorUndoRedoManager = _mgr()
				mgr.create_action("godot-mcp: " + "Rename animation library '%s'" % l["name"], UndoRedo.MERGE_DISABLE, root)
				mgr.add_do_method(mixer, "rename_animation_library", l["name"], nn)
				mgr.add_undo_method(mixer, "rename_animation_library", nn, l["name"])
				mgr.commit_action()
			return _answer(root, mixer, dry, {"library": nn, "old_name": l["name"]})
	return u.bad("action must be one of %s (got %s)." % [", ".join(ACTIONS), JSON.stringify(p.get("action"))])


func _create(root: Node, mixer: AnimationMixer, p: Dictionary, dry: bool, dup: bool) -> Dictionary:
	var src: Dictionary = {}
	var key: String = "animation"
	if dup:
		src = u.anim_param(mixer, p)
		if u.is_fail(src):
			return src
		key = "new_name"
	var full: Variant = p.get(key, "")
	if typeof(full) != TYPE_STRING or str(full).strip_edges() == "":
		return u.bad("%s is required: the new animation's name, \"library/name\" for a library other than the default one." % key)
	var parts: PackedStringArray = u.split_name(str(full))
	var problem: String = _name_problem(parts[1], "an animation name")
	if problem == "" and parts[0] != "":
		problem = _name_problem(parts[0], "a library name")
	if problem != "":
		return u.bad(problem + ".")
	if mixer.has_animation(str(full)):
		return u.bad("'%s' already has an animation '%s'; pick another name or edit it." % [str(mixer.name), str(full)])
	var anim: Animation = (src["anim"] as Animation).duplicate(false) if dup else Animation.new()
	if not dup:
		anim.length = 1.0
	var r: Dictionary = tracks.set_animation(anim, p)
	if r.has("hint"):
		return u.bad(str(r["hint"]) + ". Nothing was changed.")
	var new_lib: bool = not mixer.has_animation_library(parts[0])
	if not dry:
		var mgr: EditorUndoRedoManager = _mgr()
		mgr.create_action("godot-mcp: " + (("Duplicate animation '%s'" % src["full"]) if dup else ("Create animation '%s'" % full)), UndoRedo.MERGE_DISABLE, root)
		var lib: AnimationLibrary = AnimationLibrary.new() if new_lib else mixer.get_animation_library(parts[0])
		if new_lib:
			mgr.add_do_method(mixer, "add_animation_library", parts[0], lib)
		mgr.add_do_method(lib, "add_animation", parts[1], anim)
		mgr.add_undo_method(lib, "remove_animation", parts[1])
		if new_lib:
			mgr.add_undo_method(mixer, "remove_animation_library", parts[0])
		mgr.add_do_reference(anim)
		mgr.commit_action()
	var out: Dictionary = {"animation": str(full), "library": parts[0], "created_library": new_lib, "length": anim.length,
		"loop_mode": u.enum_name(u.LOOP_MODES, anim.loop_mode), "step": snappedf(anim.step, 0.000001), "track_count": anim.get_track_count()}
	if dup:
		out["source"] = src["full"]
	return _answer(root, mixer, dry, out)


func _rename(root: Node, mixer: AnimationMixer, p: Dictionary, dry: bool) -> Dictionary:
	var a: Dictionary = u.anim_param(mixer, p)
	if u.is_fail(a):
		return a
	var nn: String = str(p.get("new_name", ""))
	var parts: PackedStringArray = u.split_name(nn)
	if parts[0] != "" and parts[0] != a["library"]:
		return u.bad("rename keeps the animation in its library '%s': new_name is the name alone. To move it, duplicate into the other library and delete this one." % a["library"])
	nn = parts[1]
	var problem: String = _name_problem(nn, "new_name")
	if problem != "":
		return u.bad(problem + ".")
	var lib: AnimationLibrary = a["lib"]
	if lib.has_animation(nn):
		return u.bad("The library already has an animation '%s'." % nn)
	var new_full: String = nn if a["library"] == "" else "%s/%s" % [a["library"], nn]
	if not dry:
		var mgr: EditorUndoRedoManager = _mgr()
		mgr.create_action("godot-mcp: " + "Rename animation '%s'" % a["full"], UndoRedo.MERGE_DISABLE, root)
		mgr.add_do_method(lib, "rename_animation", a["name"], nn)
		mgr.add_undo_method(lib, "rename_animation", nn, a["name"])
		var player := mixer as AnimationPlayer
		if player != null and player.autoplay == a["full"]:
			mgr.add_do_property(player, "autoplay", new_full)
			mgr.add_undo_property(player, "autoplay", a["full"])
		mgr.commit_action()
	return _answer(root, mixer, dry, {"animation": new_full, "old_name": a["full"]})


## {player?, animation?, library?, tracks?: [index | path], dry_run}: removes tracks of an
## animation, an animation, or a whole library.
func delete(p: Dictionary) -> Dictionary:
	var m: Dictionary = u.mixer_param(p)
	if u.is_fail(m):
		return m
	var root: Node = m["root"]
	var mixer: AnimationMixer = m["mixer"]
	var dry: bool = p.get("dry_run", false) == true
	var has_anim: bool = str(p.get("animation", "")) != ""
	var has_lib: bool = p.has("library") and typeof(p["library"]) == TYPE_STRING and not has_anim
	if p.has("tracks") and not has_anim:
		return u.bad("tracks needs animation: the animation whose tracks to remove.")
	if has_anim and p.has("tracks"):
		var a: Dictionary = u.anim_param(mixer, p)
		if u.is_fail(a):
			return a
		if typeof(p["tracks"]) != TYPE_ARRAY or (p["tracks"] as Array).is_empty():
			return u.bad("tracks must be a non-empty list of track indices or track paths.")
		var work: Animation = (a["anim"] as Animation).duplicate(false)
		var idx: Dictionary = {}
		var i: int = 0
		for e: Variant in p["tracks"]:
			var ref: Dictionary = tracks.track_ref(work, {"path": e} if typeof(e) == TYPE_STRING else {"track": e}, "tracks[%d]" % i)
			if ref.has("hint"):
				return u.fail(str(ref.get("code", "VALIDATION_ERROR")), str(ref["hint"]) + ". Nothing was changed.")
			idx[int(ref["track"])] = true
			i += 1
		var order: Array = idx.keys()
		order.sort()
		order.reverse()
		var removed: Array = []
		var key_count: int = 0
		for t: Variant in order:
			removed.push_front({"index": int(t), "type": u.TRACK_TYPES[work.track_get_type(int(t))], "path": str(work.track_get_path(int(t)))})
			key_count += work.track_get_key_count(int(t))
			work.remove_track(int(t))
		if not dry:
			u.commit_anim("Remove tracks of '%s'" % a["full"], root, a["anim"], work)
		return _answer(root, mixer, dry, {"deleted": "tracks", "animation": a["full"], "tracks": removed, "keys_removed": key_count, "track_count": work.get_track_count()})
	if has_anim:
		var a: Dictionary = u.anim_param(mixer, p)
		if u.is_fail(a):
			return a
		var anim: Animation = a["anim"]
		if not dry:
			var mgr: EditorUndoRedoManager = _mgr()
			mgr.create_action("godot-mcp: " + "Delete animation '%s'" % a["full"], UndoRedo.MERGE_DISABLE, root)
			mgr.add_do_method(a["lib"], "remove_animation", a["name"])
			mgr.add_undo_method(a["lib"], "add_animation", a["name"], anim)
			var player := mixer as AnimationPlayer
			if player != null and player.autoplay == a["full"]:
				mgr.add_do_property(player, "autoplay", "")
				mgr.add_undo_property(player, "autoplay", a["full"])
			mgr.add_undo_reference(anim)
			mgr.commit_action()
		return _answer(root, mixer, dry, {"deleted": "animation", "animation": a["full"], "track_count": anim.get_track_count()})
	if has_lib:
		var l: Dictionary = u.library_param(mixer, p)
		if u.is_fail(l):
			return l
		var lib: AnimationLibrary = l["lib"]
		if not dry:
			var mgr: EditorUndoRedoManager = _mgr()
			mgr.create_action("godot-mcp: " + "Delete animation library '%s'" % l["name"], UndoRedo.MERGE_DISABLE, root)
			mgr.add_do_method(mixer, "remove_animation_library", l["name"])
			mgr.add_undo_method(mixer, "add_animation_library", l["name"], lib)
			mgr.add_undo_reference(lib)
			mgr.commit_action()
		var names: PackedStringArray = []
		for n: StringName in lib.get_animation_list():
			names.append(str(n))
		return _answer(root, mixer, dry, {"deleted": "library", "library": l["name"], "animations": names})
	return u.bad("Name what to delete: animation (with tracks to remove only those tracks) or library.")
