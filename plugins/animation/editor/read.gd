@tool
extends RefCounted
## cmd_animation_list, cmd_animation_get and cmd_animation_seek (read only: a seek
## applies the pose, reads the animated properties and puts everything back).

var u: RefCounted = null # util.gd
var keys: RefCounted = null # keys.gd


func _init(util: RefCounted, k: RefCounted) -> void:
	u = util
	keys = k


func _anim_summary(anim: Animation, name: String) -> Dictionary:
	var n: int = 0
	for t: int in range(anim.get_track_count()):
		n += anim.track_get_key_count(t)
	return {"name": name, "length": anim.length, "loop_mode": u.enum_name(u.LOOP_MODES, anim.loop_mode), "step": snappedf(anim.step, 0.000001), "track_count": anim.get_track_count(), "key_count": n}


func _mixer_entry(root: Node, mixer: AnimationMixer) -> Dictionary:
	var libs: Array = []
	for ln: StringName in mixer.get_animation_library_list():
		var lib: AnimationLibrary = mixer.get_animation_library(ln)
		var anims: Array = []
		for an: StringName in lib.get_animation_list():
			var full: String = str(an) if str(ln) == "" else "%s/%s" % [ln, an]
			anims.append(_anim_summary(lib.get_animation(an), full))
		var e: Dictionary = {"name": str(ln), "animations": anims}
		if lib.resource_path != "" and not lib.resource_path.contains("::"):
			e["file"] = lib.resource_path
		libs.append(e)
	var d: Dictionary = {"path": u.rel(root, mixer), "type": mixer.get_class(), "root_node": str(mixer.root_node), "active": mixer.active, "libraries": libs}
	var player := mixer as AnimationPlayer
	if player != null:
		d["autoplay"] = player.autoplay
	var tree := mixer as AnimationTree
	if tree != null:
		d["tree_root"] = tree.tree_root.get_class() if tree.tree_root != null else ""
		d["anim_player"] = str(tree.anim_player)
	return d


## {player?} -> {scene, players: [...]}
func list(p: Dictionary) -> Dictionary:
	var root: Node = u.scene_root()
	if root == null:
		return u.no_scene()
	var out: Array = []
	if str(p.get("player", "")) != "":
		var m: Dictionary = u.mixer_param(p)
		if u.is_fail(m):
			return m
		out.append(_mixer_entry(root, m["mixer"]))
	else:
		for mixer: Node in u.mixers_of(root):
			out.append(_mixer_entry(root, mixer as AnimationMixer))
	return u.ok({"scene": root.scene_file_path, "players": out})


## {player?, animation, track?, key_offset?, key_limit?} -> the animation with its tracks and keys
func get_animation(p: Dictionary) -> Dictionary:
	var m: Dictionary = u.mixer_param(p)
	if u.is_fail(m):
		return m
	var root: Node = m["root"]
	var mixer: AnimationMixer = m["mixer"]
	var a: Dictionary = u.anim_param(mixer, p)
	if u.is_fail(a):
		return a
	var anim: Animation = a["anim"]
	var offset: int = 0
	var limit: int = 500
	if p.has("key_offset"):
		var v: Variant = u.num(p["key_offset"])
		if v == null or int(v) < 0:
			return u.bad("key_offset must be an integer >= 0.")
		offset = int(v)
	if p.has("key_limit"):
		var v: Variant = u.num(p["key_limit"])
		if v == null or int(v) < 1:
			return u.bad("key_limit must be an integer >= 1.")
		limit = int(v)
	var only: int = -1
	if p.has("track") and p["track"] != null:
		var ref: Dictionary = {}
		if typeof(p["track"]) == TYPE_STRING:
			ref = _track_ref(anim, {"path": p["track"]})
		else:
			ref = _track_ref(anim, {"track": p["track"]})
		if ref.has("hint"):
			return u.fail(str(ref.get("code", "VALIDATION_ERROR")), str(ref["hint"]) + ".")
		only = int(ref["track"])
	var list_out: Array = []
	var truncated: bool = false
	for t: int in range(anim.get_track_count()):
		if only >= 0 and t != only:
			continue
		var e: Dictionary = keys.encode_track(anim, t, offset, limit)
		truncated = truncated or e.get("keys_truncated", false)
		list_out.append(e)
	var out: Dictionary = _anim_summary(anim, a["full"])
	out.erase("name")
	out["animation"] = a["full"]
	out["library"] = a["library"]
	out["player"] = u.rel(root, mixer)
	out["tracks"] = list_out
	out["keys_truncated"] = truncated
	if truncated:
		out["next_key_offset"] = offset + limit
	var file: String = (a["lib"] as AnimationLibrary).resource_path
	if file != "" and not file.contains("::"):
		out["library_file"] = file
	return u.ok(out)


var track_ref_impl: Callable


func _track_ref(anim: Animation, op: Dictionary) -> Dictionary:
	return track_ref_impl.call(anim, op, "track")


## What a track sets on the scene: {node, prop} (prop a property path for get/set_indexed),
## or {} when it animates nothing readable (method, audio, animation tracks, a missing node).
func _animated(mixer: AnimationMixer, anim: Animation, t: int) -> Dictionary:
	var base: Node = u.base_of(mixer)
	if base == null:
		return {}
	var path: NodePath = anim.track_get_path(t)
	var names: String = path.get_concatenated_names()
	var node: Node = base if names == "" or names == "." else base.get_node_or_null(NodePath(names))
	if node == null:
		return {}
	var subs: String = path.get_concatenated_subnames()
	match anim.track_get_type(t):
		Animation.TYPE_VALUE, Animation.TYPE_BEZIER:
			return {"node": node, "prop": subs} if subs != "" else {}
		Animation.TYPE_POSITION_3D:
			return {"node": node, "prop": "position"} if subs == "" else {}
		Animation.TYPE_ROTATION_3D:
			return {"node": node, "prop": "quaternion"} if subs == "" else {}
		Animation.TYPE_SCALE_3D:
			return {"node": node, "prop": "scale"} if subs == "" else {}
		Animation.TYPE_BLEND_SHAPE:
			return {"node": node, "prop": "blend_shapes/" + subs}
	return {}


static func _expected(anim: Animation, t: int, time: float) -> Variant:
	match anim.track_get_type(t):
		Animation.TYPE_VALUE:
			return anim.value_track_interpolate(t, time)
		Animation.TYPE_BEZIER:
			return anim.bezier_track_interpolate(t, time)
		Animation.TYPE_POSITION_3D:
			return anim.position_track_interpolate(t, time)
		Animation.TYPE_ROTATION_3D:
			return anim.rotation_track_interpolate(t, time)
		Animation.TYPE_SCALE_3D:
			return anim.scale_track_interpolate(t, time)
		Animation.TYPE_BLEND_SHAPE:
			return anim.blend_shape_track_interpolate(t, time)
	return null


## {player?, animation, time} -> {time, values: [{track, type, path, value, expected}]}: seeks
## the AnimationPlayer in the editor, reads what it set, then restores the scene.
func seek(p: Dictionary) -> Dictionary:
	var m: Dictionary = u.mixer_param(p, true)
	if u.is_fail(m):
		return m
	var root: Node = m["root"]
	var player: AnimationPlayer = m["mixer"]
	var a: Dictionary = u.anim_param(player, p)
	if u.is_fail(a):
		return a
	var anim: Animation = a["anim"]
	var tv: Variant = u.num(p.get("time"))
	if tv == null or float(tv) < 0.0:
		return u.bad("time must be a number of seconds >= 0 (the animation is %s s long)." % str(anim.length))
	var time: float = minf(float(tv), anim.length)
	if not player.active:
		return u.fail("PRECONDITION_FAILED", "'%s' is not active (active = false), so seeking applies nothing. Set active to true (godot_scene_set_properties)." % u.rel(root, player))
	var targets: Array = []
	for t: int in range(anim.get_track_count()):
		var e: Dictionary = _animated(player, anim, t)
		if e.is_empty() or not anim.track_is_enabled(t):
			continue
		e["track"] = t
		e["before"] = (e["node"] as Node).get_indexed(NodePath(e["prop"]))
		targets.append(e)
	var prev: String = player.assigned_animation
	var prev_pos: float = player.current_animation_position if prev != "" and player.has_animation(prev) else 0.0
	var playing: bool = player.is_playing()
	player.assigned_animation = a["full"]
	player.seek(time, true)
	var values: Array = []
	for e: Dictionary in targets:
		var t: int = e["track"]
		var now: Variant = (e["node"] as Node).get_indexed(NodePath(e["prop"]))
		values.append({"track": t, "type": u.TRACK_TYPES[anim.track_get_type(t)], "path": str(anim.track_get_path(t)), "node": u.rel(root, e["node"]),
			"property": e["prop"], "value": u.codec.encode(now), "expected": u.codec.encode(_expected(anim, t, time))})
	# Put the scene back as it was: the seek was only to look.
	for e: Dictionary in targets:
		(e["node"] as Node).set_indexed(NodePath(e["prop"]), e["before"])
	if prev != "" and prev != a["full"] and player.has_animation(prev):
		player.assigned_animation = prev
		player.seek(prev_pos, false)
	if playing:
		player.play()
	return u.ok({"player": u.rel(root, player), "animation": a["full"], "time": time, "values": values, "restored": true})
