@tool
extends RefCounted
## Tracks and keys: what a track animates (checked against the target's types),
## keys to JSON and from JSON (docs/values.md shapes, typed by the target).

var u: RefCounted = null # util.gd


func _init(util: RefCounted) -> void:
	u = util


## What a track's keys are checked against: {type, hint, hs, context, what} or
## {untyped: true, warning} when the target cannot be found.
func target_of(mixer: AnimationMixer, anim: Animation, t: int) -> Dictionary:
	var type: int = anim.track_get_type(t)
	match type:
		Animation.TYPE_POSITION_3D, Animation.TYPE_SCALE_3D:
			return {"type": TYPE_VECTOR3, "hint": PROPERTY_HINT_NONE, "hs": ""}
		Animation.TYPE_ROTATION_3D:
			return {"type": TYPE_QUATERNION, "hint": PROPERTY_HINT_NONE, "hs": ""}
		Animation.TYPE_BLEND_SHAPE, Animation.TYPE_BEZIER:
			return {"type": TYPE_FLOAT, "hint": PROPERTY_HINT_NONE, "hs": ""}
		Animation.TYPE_METHOD, Animation.TYPE_AUDIO:
			return {"type": TYPE_NIL, "hint": PROPERTY_HINT_NONE, "hs": ""}
	var path: NodePath = anim.track_get_path(t)
	var base: Node = u.base_of(mixer)
	var node: Node = null
	if base != null:
		node = base.get_node_or_null(NodePath(path.get_concatenated_names())) if path.get_name_count() > 0 else base
	if type == Animation.TYPE_ANIMATION:
		return {"type": TYPE_STRING_NAME, "hint": PROPERTY_HINT_NONE, "hs": "", "player": node}
	if node == null:
		return {"untyped": true, "warning": "track %d's node '%s' is not in the scene, so its values were not checked against a property type" % [t, str(path)]}
	var subs: String = path.get_concatenated_subnames()
	if path.get_subname_count() == 1:
		var info: Dictionary = u.codec.property_info(node, subs)
		if not info.is_empty():
			return {"type": int(info["type"]), "hint": int(info.get("hint", 0)), "hs": str(info.get("hint_string", "")), "context": node}
	elif path.get_subname_count() > 1:
		var cur: Variant = node.get_indexed(NodePath(subs))
		if cur != null:
			return {"type": typeof(cur), "hint": PROPERTY_HINT_NONE, "hs": "", "context": node}
	return {"untyped": true, "warning": "track %d's property '%s' is not on '%s', so its values were not checked against a property type" % [t, subs, str(node.name)]}


## Checks that a new or retargeted track's path names something of the right kind in
## the scene: "" when fine, else the hint (with did-you-mean).
func path_problem(mixer: AnimationMixer, type: int, path_s: String) -> String:
	var base: Node = u.base_of(mixer)
	if base == null:
		return "the player's root_node '%s' is not in the scene" % str(mixer.root_node)
	var path := NodePath(path_s)
	if path.is_empty():
		return "path is required: NodePath of the animated node relative to the player's root node '%s', with :property for value and bezier tracks, e.g. \"Sprite2D:position\"" % str(base.name)
	var names: String = path.get_concatenated_names()
	var node: Node = base if names == "" or names == "." else base.get_node_or_null(NodePath(names))
	if node == null:
		return "no node '%s' under the player's root node '%s'%s" % [names, str(base.name), _node_suggestion(base, names)]
	var subs: int = path.get_subname_count()
	match type:
		Animation.TYPE_VALUE, Animation.TYPE_BEZIER:
			if subs == 0:
				return "a %s track's path names a property: '%s:<property>', e.g. '%s:position'" % [u.TRACK_TYPES[type], names, names]
			var prop: String = path.get_subname(0)
			if u.codec.property_info(node, prop).is_empty():
				var props: PackedStringArray = []
				for p: Dictionary in node.get_property_list():
					if int(p["usage"]) & PROPERTY_USAGE_EDITOR != 0:
						props.append(str(p["name"]))
				var best: String = u.closest(prop, props)
				return "%s '%s' has no property '%s'%s" % [node.get_class(), names, prop, (" (did you mean '%s'?)" % best) if best != "" else ""]
			if type == Animation.TYPE_BEZIER:
				var v: Variant = node.get_indexed(NodePath(path.get_concatenated_subnames()))
				if typeof(v) != TYPE_FLOAT and typeof(v) != TYPE_INT:
					return "a bezier track animates one number; '%s' is %s: use a component, e.g. '%s:%s:x', or a value track" % [path.get_concatenated_subnames(), type_string(typeof(v)), names, prop]
		Animation.TYPE_POSITION_3D, Animation.TYPE_ROTATION_3D, Animation.TYPE_SCALE_3D:
			if not (node is Node3D):
				return "a %s track animates a Node3D (or a Skeleton3D bone); '%s' is a %s" % [u.TRACK_TYPES[type], names, node.get_class()]
		Animation.TYPE_BLEND_SHAPE:
			var mi := node as MeshInstance3D
			if mi == null or subs != 1:
				return "a blend_shape track's path is '<MeshInstance3D>:<blend shape name>'"
			if mi.find_blend_shape_by_name(path.get_subname(0)) < 0:
				return "'%s' has no blend shape '%s'" % [names, path.get_subname(0)]
		Animation.TYPE_METHOD:
			if subs != 0:
				return "a method track's path is a node path without :property"
		Animation.TYPE_AUDIO:
			if not (node is AudioStreamPlayer or node is AudioStreamPlayer2D or node is AudioStreamPlayer3D):
				return "an audio track's node is an AudioStreamPlayer (2D/3D); '%s' is a %s" % [names, node.get_class()]
		Animation.TYPE_ANIMATION:
			if not (node is AnimationPlayer):
				return "an animation track's node is an AnimationPlayer; '%s' is a %s" % [names, node.get_class()]
	return ""


func _node_suggestion(base: Node, wanted: String) -> String:
	var paths: PackedStringArray = []
	var stack: Array[Node] = [base]
	while not stack.is_empty() and paths.size() < 2000:
		var n: Node = stack.pop_back()
		if n != base:
			paths.append(str(base.get_path_to(n)))
		stack.append_array(n.get_children())
	var best: String = u.closest(wanted, paths)
	return (" (did you mean '%s'?)" % best) if best != "" else (" (nodes there: %s)" % u.short_list(paths))


## A key as JSON.
func encode_key(anim: Animation, t: int, k: int) -> Dictionary:
	var d: Dictionary = {"time": anim.track_get_key_time(t, k)}
	match anim.track_get_type(t):
		Animation.TYPE_BEZIER:
			d["value"] = anim.bezier_track_get_key_value(t, k)
			d["in_handle"] = u.codec.encode(anim.bezier_track_get_key_in_handle(t, k))
			d["out_handle"] = u.codec.encode(anim.bezier_track_get_key_out_handle(t, k))
		Animation.TYPE_AUDIO:
			d["value"] = {"stream": u.codec.encode(anim.audio_track_get_key_stream(t, k)), "start_offset": anim.audio_track_get_key_start_offset(t, k), "end_offset": anim.audio_track_get_key_end_offset(t, k)}
		Animation.TYPE_ANIMATION:
			d["value"] = str(anim.animation_track_get_key_animation(t, k))
		Animation.TYPE_METHOD:
			d["value"] = {"method": str(anim.method_track_get_name(t, k)), "args": u.codec.encode(anim.method_track_get_params(t, k))}
		_:
			d["value"] = u.codec.encode(anim.track_get_key_value(t, k))
			d["transition"] = anim.track_get_key_transition(t, k)
	return d


## Decodes one JSON key for track t: {key: {time, value, transition, ...}} or {hint}.
func decode_key(anim: Animation, t: int, target: Dictionary, j: Variant, where: String) -> Dictionary:
	if typeof(j) != TYPE_DICTIONARY:
		return {"hint": "%s must be an object {time, value, ...}" % where}
	var k: Dictionary = j
	var allowed := ["time", "value", "transition", "in_handle", "out_handle"]
	for key: Variant in k.keys():
		if not allowed.has(str(key)):
			return {"hint": "%s has an unknown field '%s' (a key has %s)" % [where, str(key), ", ".join(allowed)]}
	var time: Variant = u.num(k.get("time"))
	if time == null or float(time) < 0.0:
		return {"hint": "%s.time must be a number of seconds >= 0 (got %s)" % [where, JSON.stringify(k.get("time"))]}
	var out: Dictionary = {"time": float(time), "transition": 1.0}
	if k.has("transition"):
		var tr: Variant = u.num(k["transition"])
		if tr == null:
			return {"hint": "%s.transition must be a number (the easing curve: 1 linear, <1 ease out, >1 ease in, negative in-out)" % where}
		out["transition"] = float(tr)
	if not k.has("value"):
		return {"hint": "%s.value is required" % where}
	var v: Variant = k["value"]
	var type: int = anim.track_get_type(t)
	match type:
		Animation.TYPE_METHOD:
			if typeof(v) != TYPE_DICTIONARY or typeof((v as Dictionary).get("method")) != TYPE_STRING or str((v as Dictionary)["method"]) == "":
				return {"hint": "%s.value of a method track is {method: \"name\", args: [...]}" % where}
			var args: Variant = (v as Dictionary).get("args", [])
			var da: Dictionary = u.codec.decode(args, TYPE_ARRAY)
			if not da.get("ok", false):
				return {"hint": "%s.value.args: %s" % [where, da.get("hint", "")]}
			out["value"] = {"method": StringName((v as Dictionary)["method"]), "args": da["value"]}
		Animation.TYPE_AUDIO:
			var s: Variant = v
			var start: float = 0.0
			var end: float = 0.0
			if typeof(v) == TYPE_DICTIONARY and (v as Dictionary).has("stream"):
				s = (v as Dictionary)["stream"]
				start = float(u.num((v as Dictionary).get("start_offset", 0.0)) if u.num((v as Dictionary).get("start_offset", 0.0)) != null else 0.0)
				end = float(u.num((v as Dictionary).get("end_offset", 0.0)) if u.num((v as Dictionary).get("end_offset", 0.0)) != null else 0.0)
			var ds: Dictionary = u.codec.decode(s, TYPE_OBJECT, PROPERTY_HINT_RESOURCE_TYPE, "AudioStream")
			if not ds.get("ok", false):
				return {"hint": "%s.value of an audio track is {stream: \"res://….ogg\", start_offset?, end_offset?}: %s" % [where, ds.get("hint", "")]}
			out["value"] = ds["value"]
			out["start_offset"] = start
			out["end_offset"] = end
		Animation.TYPE_ANIMATION:
			if typeof(v) != TYPE_STRING:
				return {"hint": "%s.value of an animation track is the name of an animation of the target AnimationPlayer" % where}
			var player: AnimationPlayer = target.get("player") as AnimationPlayer
			if player != null and str(v) != "[stop]" and not player.has_animation(str(v)):
				var names: PackedStringArray = player.get_animation_list()
				var best: String = u.closest(str(v), names)
				return {"hint": "%s.value: '%s' has no animation '%s'%s; its animations: %s (or \"[stop]\")" % [where, str(player.name), str(v), (" (did you mean '%s'?)" % best) if best != "" else "", u.short_list(names)]}
			out["value"] = StringName(str(v))
		_:
			if target.get("untyped", false):
				out["value"] = u.codec.decode(v, TYPE_NIL).get("value")
			else:
				var d: Dictionary = u.codec.decode(v, int(target["type"]), int(target["hint"]), str(target["hs"]), target.get("context") as Node)
				if not d.get("ok", false):
					return {"hint": "%s.value: %s" % [where, d.get("hint", "")]}
				out["value"] = d["value"]
				if type == Animation.TYPE_BEZIER:
					out["value"] = float(d["value"])
	if type == Animation.TYPE_BEZIER:
		for h: String in ["in_handle", "out_handle"]:
			if k.has(h):
				var dh: Dictionary = u.codec.decode(k[h], TYPE_VECTOR2)
				if not dh.get("ok", false):
					return {"hint": "%s.%s: %s" % [where, h, dh.get("hint", "")]}
				out[h] = dh["value"]
	elif k.has("in_handle") or k.has("out_handle"):
		return {"hint": "%s: in_handle and out_handle are for bezier tracks only" % where}
	return {"key": out}


## Inserts a decoded key (replacing one at the same time); returns its index.
static func insert_key(anim: Animation, t: int, key: Dictionary) -> int:
	var time: float = key["time"]
	var old: int = anim.track_find_key(t, time, Animation.FIND_MODE_APPROX)
	if old >= 0:
		anim.track_remove_key(t, old)
	match anim.track_get_type(t):
		Animation.TYPE_BEZIER:
			return anim.bezier_track_insert_key(t, time, key["value"], key.get("in_handle", Vector2(-0.25, 0)), key.get("out_handle", Vector2(0.25, 0)))
		Animation.TYPE_AUDIO:
			return anim.audio_track_insert_key(t, time, key["value"], key.get("start_offset", 0.0), key.get("end_offset", 0.0))
		Animation.TYPE_ANIMATION:
			return anim.animation_track_insert_key(t, time, key["value"])
	return anim.track_insert_key(t, time, key["value"], key.get("transition", 1.0))


## A key as a decoded key (for rebuilding a track).
static func raw_key(anim: Animation, t: int, k: int) -> Dictionary:
	var d: Dictionary = {"time": anim.track_get_key_time(t, k), "transition": anim.track_get_key_transition(t, k)}
	match anim.track_get_type(t):
		Animation.TYPE_BEZIER:
			d["value"] = anim.bezier_track_get_key_value(t, k)
			d["in_handle"] = anim.bezier_track_get_key_in_handle(t, k)
			d["out_handle"] = anim.bezier_track_get_key_out_handle(t, k)
		Animation.TYPE_AUDIO:
			d["value"] = anim.audio_track_get_key_stream(t, k)
			d["start_offset"] = anim.audio_track_get_key_start_offset(t, k)
			d["end_offset"] = anim.audio_track_get_key_end_offset(t, k)
		Animation.TYPE_ANIMATION:
			d["value"] = anim.animation_track_get_key_animation(t, k)
		_:
			d["value"] = anim.track_get_key_value(t, k)
	return d


## A track as JSON, with keys [offset, offset + limit).
func encode_track(anim: Animation, t: int, offset: int, limit: int) -> Dictionary:
	var type: int = anim.track_get_type(t)
	var n: int = anim.track_get_key_count(t)
	var d: Dictionary = {"index": t, "type": u.TRACK_TYPES[type], "path": str(anim.track_get_path(t)), "enabled": anim.track_is_enabled(t), "key_count": n}
	if type != Animation.TYPE_METHOD and type != Animation.TYPE_AUDIO and type != Animation.TYPE_ANIMATION and type != Animation.TYPE_BEZIER:
		d["interpolation"] = u.enum_name(u.INTERPOLATIONS, anim.track_get_interpolation_type(t))
		d["loop_wrap"] = anim.track_get_interpolation_loop_wrap(t)
	if type == Animation.TYPE_VALUE:
		d["update_mode"] = u.enum_name(u.UPDATE_MODES, anim.value_track_get_update_mode(t))
	if type == Animation.TYPE_AUDIO:
		d["use_blend"] = anim.audio_track_is_use_blend(t)
	var keys: Array = []
	var end: int = mini(n, offset + limit)
	for k: int in range(offset, end):
		keys.append(encode_key(anim, t, k))
	d["keys"] = keys
	if end < n:
		d["keys_truncated"] = true
		d["next_key_offset"] = end
	return d
