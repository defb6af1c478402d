@tool
extends RefCounted
## cmd_animation_edit_tracks: ops on one animation's tracks and keys, run on a copy
## of the animation (so a dry run gives the real verdicts and a failed op changes
## nothing), then made one undo action.

const OPS := ["set_animation", "add_track", "set_track", "insert_keys", "set_keys", "change_keys", "remove_keys"]

var u: RefCounted = null # util.gd
var keys: RefCounted = null # keys.gd


func _init(util: RefCounted, k: RefCounted) -> void:
	u = util
	keys = k


## {player?, animation, ops: [{op, ...}], dry_run} -> {animation, ops: [...], track_count, ...}
func edit_tracks(p: Dictionary) -> Dictionary:
	var m: Dictionary = u.mixer_param(p)
	if u.is_fail(m):
		return m
	var root: Node = m["root"]
	var mixer: AnimationMixer = m["mixer"]
	var a: Dictionary = u.anim_param(mixer, p)
	if u.is_fail(a):
		return a
	var ops: Variant = p.get("ops", [])
	if typeof(ops) != TYPE_ARRAY or (ops as Array).is_empty():
		return u.bad("ops is required: a list of {op, ...}, op one of %s." % ", ".join(OPS))
	var anim: Animation = a["anim"]
	var work: Animation = anim.duplicate(false)
	var results: Array = []
	var warnings: PackedStringArray = []
	var i: int = 0
	for op: Variant in ops:
		var where: String = "ops[%d]" % i
		if typeof(op) != TYPE_DICTIONARY:
			return u.bad("%s must be an object {op, ...}." % where)
		var r: Dictionary = run_op(mixer, work, op, where, warnings)
		if r.has("hint"):
			return u.fail(str(r.get("code", "VALIDATION_ERROR")), "%s (%s). Nothing was changed." % [r["hint"], where])
		results.append(r)
		i += 1
	var dry: bool = p.get("dry_run", false) == true
	var persist: Dictionary = u.persist_of(root, anim, mixer)
	if not dry:
		u.commit_anim("Edit animation '%s'" % a["full"], root, anim, work)
	var out: Dictionary = {"player": u.rel(root, mixer), "animation": a["full"], "ops": results, "track_count": work.get_track_count(),
		"length": work.length, "persisted": persist["persisted"], "undoable": not dry, "dry_run": dry}
	if persist.get("reason", "") != "":
		out["reason"] = persist["reason"]
	if not warnings.is_empty():
		out["warnings"] = warnings
	return u.ok(out)


## One op on work: its result, or {hint, code?}.
func run_op(mixer: AnimationMixer, work: Animation, op: Dictionary, where: String, warnings: PackedStringArray) -> Dictionary:
	var name: String = str(op.get("op", ""))
	match name:
		"set_animation":
			return set_animation(work, op)
		"add_track":
			return _add_track(mixer, work, op, where, warnings)
		"set_track":
			return _set_track(mixer, work, op, where, warnings)
		"insert_keys", "set_keys":
			return _write_keys(mixer, work, op, where, warnings, name == "set_keys")
		"change_keys":
			return _change_keys(mixer, work, op, where, warnings)
		"remove_keys":
			return _remove_keys(work, op, where)
	return {"hint": "%s.op must be one of %s (got %s)" % [where, ", ".join(OPS), JSON.stringify(op.get("op"))]}


## length, loop_mode, step of an animation: {length, loop_mode, step} or {hint}.
func set_animation(work: Animation, op: Dictionary) -> Dictionary:
	if op.has("length"):
		var l: Variant = u.num(op["length"])
		if l == null or float(l) < 0.001:
			return {"hint": "length must be a number of seconds >= 0.001"}
		work.length = float(l)
	if op.has("loop_mode"):
		var lm: Dictionary = u.enum_value(u.LOOP_MODES, op["loop_mode"], "loop_mode")
		if lm.has("hint"):
			return lm
		work.loop_mode = lm["value"]
	if op.has("step"):
		var s: Variant = u.num(op["step"])
		if s == null or float(s) < 0.0:
			return {"hint": "step must be a number of seconds >= 0 (the editor's snap; 0 for none)"}
		work.step = float(s)
	return {"op": "set_animation", "length": work.length, "loop_mode": u.enum_name(u.LOOP_MODES, work.loop_mode), "step": snappedf(work.step, 0.000001)}


## Resolves op.track (index) or op.path (+ op.type) to a track of work: {track} or {hint}.
func track_ref(work: Animation, op: Dictionary, where: String) -> Dictionary:
	var n: int = work.get_track_count()
	if op.has("track"):
		var v: Variant = u.num(op["track"])
		if v == null or float(v) != floorf(float(v)) or int(v) < 0 or int(v) >= n:
			return {"hint": "%s.track must be a track index 0..%d (got %s)" % [where, n - 1, JSON.stringify(op["track"])], "code": "RESOURCE_NOT_FOUND"}
		return {"track": int(v)}
	if typeof(op.get("path")) != TYPE_STRING:
		return {"hint": "%s needs track (an index) or path (the track's path) to name a track" % where}
	var want: String = str(op["path"])
	var type: int = -1
	if op.has("type"):
		type = u.TRACK_TYPES.find(str(op["type"]))
	var found: Array[int] = []
	var paths: PackedStringArray = []
	for t: int in range(n):
		paths.append(str(work.track_get_path(t)))
		if str(work.track_get_path(t)) == want and (type < 0 or work.track_get_type(t) == type):
			found.append(t)
	if found.size() == 1:
		return {"track": found[0]}
	if found.size() > 1:
		return {"hint": "%s: several tracks have the path '%s' (%s): give type or track" % [where, want, ", ".join(found.map(func(t: int) -> String: return "%d %s" % [t, u.TRACK_TYPES[work.track_get_type(t)]]))]}
	var best: String = u.closest(want, paths)
	return {"hint": "%s: no track with the path '%s'%s; tracks: %s" % [where, want, (" (did you mean '%s'?)" % best) if best != "" else "", u.short_list(paths)], "code": "RESOURCE_NOT_FOUND"}


func _track_settings(work: Animation, t: int, op: Dictionary, where: String) -> Dictionary:
	var type: int = work.track_get_type(t)
	if op.has("interpolation"):
		if type == Animation.TYPE_METHOD or type == Animation.TYPE_AUDIO or type == Animation.TYPE_ANIMATION or type == Animation.TYPE_BEZIER:
			return {"hint": "%s: a %s track has no interpolation" % [where, u.TRACK_TYPES[type]]}
		var iv: Dictionary = u.enum_value(u.INTERPOLATIONS, op["interpolation"], where + ".interpolation")
		if iv.has("hint"):
			return iv
		work.track_set_interpolation_type(t, iv["value"])
	if op.has("update_mode"):
		if type != Animation.TYPE_VALUE:
			return {"hint": "%s: update_mode is for value tracks only" % where}
		var um: Dictionary = u.enum_value(u.UPDATE_MODES, op["update_mode"], where + ".update_mode")
		if um.has("hint"):
			return um
		work.value_track_set_update_mode(t, um["value"])
	if op.has("loop_wrap"):
		if typeof(op["loop_wrap"]) != TYPE_BOOL:
			return {"hint": "%s.loop_wrap must be true or false" % where}
		work.track_set_interpolation_loop_wrap(t, op["loop_wrap"])
	if op.has("enabled"):
		if typeof(op["enabled"]) != TYPE_BOOL:
			return {"hint": "%s.enabled must be true or false" % where}
		work.track_set_enabled(t, op["enabled"])
	return {}


func _add_track(mixer: AnimationMixer, work: Animation, op: Dictionary, where: String, warnings: PackedStringArray) -> Dictionary:
	var type: int = u.TRACK_TYPES.find(str(op.get("type", "")))
	if type < 0:
		return {"hint": "%s.type must be one of %s (got %s)" % [where, ", ".join(u.TRACK_TYPES), JSON.stringify(op.get("type"))]}
	if typeof(op.get("path")) != TYPE_STRING:
		return {"hint": "%s.path is required: the animated node relative to the player's root node, with :property for value/bezier tracks, e.g. \"Sprite2D:position\"" % where}
	var path: String = str(op["path"])
	var problem: String = keys.path_problem(mixer, type, path)
	if problem != "":
		return {"hint": "%s.path: %s" % [where, problem], "code": "RESOURCE_NOT_FOUND" if problem.begins_with("no node") else "VALIDATION_ERROR"}
	var existing: int = work.find_track(NodePath(path), type)
	if existing >= 0:
		return {"hint": "%s: track %d already animates '%s' (%s): edit it with track: %d" % [where, existing, path, u.TRACK_TYPES[type], existing]}
	var at: int = -1
	if op.has("at"):
		var v: Variant = u.num(op["at"])
		if v == null or int(v) < 0 or int(v) > work.get_track_count():
			return {"hint": "%s.at must be a track index 0..%d" % [where, work.get_track_count()]}
		at = int(v)
	var t: int = work.add_track(type, at)
	work.track_set_path(t, NodePath(path))
	var s: Dictionary = _track_settings(work, t, op, where)
	if s.has("hint"):
		return s
	var r: Dictionary = {"op": "add_track", "track": t, "type": u.TRACK_TYPES[type], "path": path}
	if op.has("keys"):
		var w: Dictionary = _write_keys(mixer, work, {"track": t, "keys": op["keys"]}, where, warnings, false)
		if w.has("hint"):
			return w
		r["keys_written"] = w["keys_written"]
	return r


func _set_track(mixer: AnimationMixer, work: Animation, op: Dictionary, where: String, warnings: PackedStringArray) -> Dictionary:
	var ref: Dictionary = track_ref(work, op, where)
	if ref.has("hint"):
		return ref
	var t: int = ref["track"]
	var type: int = work.track_get_type(t)
	if op.has("new_path"):
		var np: String = str(op["new_path"])
		var problem: String = keys.path_problem(mixer, type, np)
		if problem != "":
			return {"hint": "%s.new_path: %s" % [where, problem], "code": "RESOURCE_NOT_FOUND" if problem.begins_with("no node") else "VALIDATION_ERROR"}
		var other: int = work.find_track(NodePath(np), type)
		if other >= 0 and other != t:
			return {"hint": "%s.new_path: track %d already animates '%s'" % [where, other, np]}
		work.track_set_path(t, NodePath(np))
		if type == Animation.TYPE_VALUE and work.track_get_key_count(t) > 0:
			var target: Dictionary = keys.target_of(mixer, work, t)
			var kt: int = typeof(work.track_get_key_value(t, 0))
			var tt: int = int(target.get("type", TYPE_NIL))
			if not target.get("untyped", false) and tt != TYPE_NIL and kt != tt and not (kt in [TYPE_INT, TYPE_FLOAT] and tt in [TYPE_INT, TYPE_FLOAT]):
				warnings.append("track %d now animates '%s' (%s) but its keys hold %s values: rewrite them (op set_keys)" % [t, np, type_string(tt), type_string(kt)])
	var s: Dictionary = _track_settings(work, t, op, where)
	if s.has("hint"):
		return s
	if op.has("at"):
		var v: Variant = u.num(op["at"])
		if v == null or int(v) < 0 or int(v) >= work.get_track_count():
			return {"hint": "%s.at must be a track index 0..%d" % [where, work.get_track_count() - 1]}
		work.track_move_to(t, int(v))
		t = int(v)
	return {"op": "set_track", "track": t, "path": str(work.track_get_path(t))}


func _decode_keys(mixer: AnimationMixer, work: Animation, t: int, list: Variant, where: String, warnings: PackedStringArray) -> Dictionary:
	if typeof(list) != TYPE_ARRAY:
		return {"hint": "%s.keys must be a list of {time, value, ...}" % where}
	var target: Dictionary = keys.target_of(mixer, work, t)
	if target.get("untyped", false) and not warnings.has(str(target["warning"])):
		warnings.append(str(target["warning"]))
	var out: Array = []
	var times: Dictionary = {}
	var i: int = 0
	for j: Variant in list:
		var d: Dictionary = keys.decode_key(work, t, target, j, "%s.keys[%d]" % [where, i])
		if d.has("hint"):
			return d
		var key: Dictionary = d["key"]
		var tk: String = "%.6f" % float(key["time"])
		if times.has(tk):
			return {"hint": "%s.keys[%d]: keys[%d] has the same time %s" % [where, i, times[tk], str(key["time"])]}
		times[tk] = i
		out.append(key)
		i += 1
	return {"keys": out}


func _note_length(work: Animation, t: int, warnings: PackedStringArray) -> void:
	var n: int = work.track_get_key_count(t)
	if n > 0 and work.track_get_key_time(t, n - 1) > work.length + 0.0001:
		var w: String = "track %d has keys after the animation's length %s s: they never play until length grows (op set_animation)" % [t, str(work.length)]
		if not warnings.has(w):
			warnings.append(w)


func _write_keys(mixer: AnimationMixer, work: Animation, op: Dictionary, where: String, warnings: PackedStringArray, replace: bool) -> Dictionary:
	var ref: Dictionary = track_ref(work, op, where)
	if ref.has("hint"):
		return ref
	var t: int = ref["track"]
	var d: Dictionary = _decode_keys(mixer, work, t, op.get("keys"), where, warnings)
	if d.has("hint"):
		return d
	if replace:
		for k: int in range(work.track_get_key_count(t) - 1, -1, -1):
			work.track_remove_key(t, k)
	for key: Dictionary in d["keys"]:
		keys.insert_key(work, t, key)
	_note_length(work, t, warnings)
	return {"op": "set_keys" if replace else "insert_keys", "track": t, "keys_written": (d["keys"] as Array).size(), "key_count": work.track_get_key_count(t)}


## Finds the key a change/remove entry names (key: index or time: seconds): index or {hint}.
func _key_of(work: Animation, t: int, e: Dictionary, where: String) -> Variant:
	var n: int = work.track_get_key_count(t)
	if e.has("key"):
		var v: Variant = u.num(e["key"])
		if v == null or float(v) != floorf(float(v)) or int(v) < 0 or int(v) >= n:
			return {"hint": "%s.key must be a key index 0..%d of track %d" % [where, n - 1, t], "code": "RESOURCE_NOT_FOUND"}
		return int(v)
	var tv: Variant = u.num(e.get("time"))
	if tv == null:
		return {"hint": "%s needs key (an index) or time (seconds) to name a key" % where}
	var k: int = work.track_find_key(t, float(tv), Animation.FIND_MODE_APPROX)
	if k < 0:
		var ts: PackedStringArray = []
		for i: int in range(mini(n, 12)):
			ts.append(str(work.track_get_key_time(t, i)))
		return {"hint": "%s: track %d has no key at %s s; its key times: %s" % [where, t, str(tv), u.short_list(ts)], "code": "RESOURCE_NOT_FOUND"}
	return k


func _change_keys(mixer: AnimationMixer, work: Animation, op: Dictionary, where: String, warnings: PackedStringArray) -> Dictionary:
	var ref: Dictionary = track_ref(work, op, where)
	if ref.has("hint"):
		return ref
	var t: int = ref["track"]
	if typeof(op.get("keys")) != TYPE_ARRAY:
		return {"hint": "%s.keys must be a list of {key | time, new_time?, value?, transition?, ...}" % where}
	var raw: Array = []
	for k: int in range(work.track_get_key_count(t)):
		raw.append(keys.raw_key(work, t, k))
	var target: Dictionary = keys.target_of(mixer, work, t)
	var i: int = 0
	for e: Variant in op["keys"]:
		var w: String = "%s.keys[%d]" % [where, i]
		if typeof(e) != TYPE_DICTIONARY:
			return {"hint": w + " must be an object {key | time, new_time?, value?, ...}"}
		var ed: Dictionary = e
		for f: Variant in ed.keys():
			if not ["key", "time", "new_time", "value", "transition", "in_handle", "out_handle"].has(str(f)):
				return {"hint": "%s has an unknown field '%s' (key | time names the key; new_time, value, transition, in_handle, out_handle change it)" % [w, str(f)]}
		var k: Variant = _key_of(work, t, ed, w)
		if typeof(k) == TYPE_DICTIONARY:
			return k
		# The key as it is, with the given fields replaced, decoded like a new key.
		var merged: Dictionary = keys.encode_key(work, t, int(k))
		if ed.has("new_time"):
			merged["time"] = ed["new_time"]
		for f: String in ["value", "transition", "in_handle", "out_handle"]:
			if ed.has(f):
				merged[f] = ed[f]
		var dk: Dictionary = keys.decode_key(work, t, target, merged, w)
		if dk.has("hint"):
			return dk
		if not ed.has("value"):
			(dk["key"] as Dictionary)["value"] = (raw[int(k)] as Dictionary)["value"]
		raw[int(k)] = dk["key"]
		i += 1
	var seen: Dictionary = {}
	for nk: Dictionary in raw:
		var tk: String = "%.6f" % float(nk["time"])
		if seen.has(tk):
			return {"hint": "%s: two keys of track %d would be at %s s" % [where, t, str(nk["time"])]}
		seen[tk] = true
	for k: int in range(work.track_get_key_count(t) - 1, -1, -1):
		work.track_remove_key(t, k)
	for nk: Dictionary in raw:
		keys.insert_key(work, t, nk)
	_note_length(work, t, warnings)
	return {"op": "change_keys", "track": t, "keys_changed": i, "key_count": work.track_get_key_count(t)}


func _remove_keys(work: Animation, op: Dictionary, where: String) -> Dictionary:
	var ref: Dictionary = track_ref(work, op, where)
	if ref.has("hint"):
		return ref
	var t: int = ref["track"]
	var idx: Dictionary = {}
	if op.get("all", false) == true:
		for k: int in range(work.track_get_key_count(t)):
			idx[k] = true
	elif typeof(op.get("keys")) == TYPE_ARRAY:
		var i: int = 0
		for e: Variant in op["keys"]:
			var w: String = "%s.keys[%d]" % [where, i]
			var k: Variant = _key_of(work, t, e if typeof(e) == TYPE_DICTIONARY else {"key": e}, w)
			if typeof(k) == TYPE_DICTIONARY:
				return k
			idx[int(k)] = true
			i += 1
	else:
		return {"hint": "%s: remove_keys takes keys: [index | {key} | {time}] or all: true" % where}
	var order: Array = idx.keys()
	order.sort()
	order.reverse()
	for k: Variant in order:
		work.track_remove_key(t, int(k))
	return {"op": "remove_keys", "track": t, "keys_removed": order.size(), "key_count": work.track_get_key_count(t)}
