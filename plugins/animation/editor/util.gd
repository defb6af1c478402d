@tool
extends RefCounted
## Shared helpers of the animation toolset's editor commands: parameters, the
## AnimationMixer and animation of a call, did-you-mean, track and key codecs,
## and the one-undo-action commit of an animation's edit.

const TRACK_TYPES := ["value", "position_3d", "rotation_3d", "scale_3d", "blend_shape", "method", "bezier", "audio", "animation"]
const INTERPOLATIONS := ["nearest", "linear", "cubic", "linear_angle", "cubic_angle"]
const UPDATE_MODES := ["continuous", "discrete", "capture"]
const LOOP_MODES := ["none", "linear", "pingpong"]

var router: RefCounted = null
var codec: GDScript = null


func _init(r: RefCounted) -> void:
	router = r
	codec = r.get("codec")


## Keeps an animation's data to put back: undo and redo apply a snapshot.
class Restorer:
	extends RefCounted

	func apply(anim: Animation, snap: Array) -> void:
		anim.clear()
		for pair: Array in snap:
			anim.set(pair[0], pair[1])
		anim.emit_changed()


func fail(code: String, hint: String, required: String = "") -> Dictionary:
	return router.call("fail", code, hint, required)


func ok(result: Dictionary) -> Dictionary:
	return router.call("ok", result)


func bad(hint: String) -> Dictionary:
	return fail("VALIDATION_ERROR", hint)


func is_fail(d: Dictionary) -> bool:
	return d.has("error") or d.get("ok", true) == false


## The edited scene root, or null.
func scene_root() -> Node:
	return EditorInterface.get_edited_scene_root()


func no_scene() -> Dictionary:
	return fail("PRECONDITION_FAILED", "No scene is open in the editor. Open one with godot_scene_open (or create one with godot_scene_create).", "active_scene")


static func rel(root: Node, n: Node) -> String:
	if n == root:
		return "."
	return str(root.get_path_to(n))


## The closest of [param names] to [param wanted] (few edits apart, or alike in letter
## pairs), or "" when none is close.
static func closest(wanted: String, names: PackedStringArray) -> String:
	var w: String = wanted.to_lower()
	var best: String = ""
	var best_score: float = 0.0
	for n: String in names:
		var l: String = n.to_lower()
		var s: float = w.similarity(l)
		var d: int = edits(w, l)
		if d <= maxi(1, mini(w.length(), l.length()) / 3):
			s = maxf(s, 1.0 - float(d) / float(maxi(1, maxi(w.length(), l.length()))))
		if s > best_score:
			best_score = s
			best = n
	return best if best_score >= 0.4 else ""


## Edit distance (insert, delete, substitute, swap two neighbours).
static func edits(a: String, b: String) -> int:
	if absi(a.length() - b.length()) > 8:
		return 99
	var prev2: PackedInt32Array = []
	var prev: PackedInt32Array = []
	for j: int in range(b.length() + 1):
		prev.append(j)
	for i: int in range(1, a.length() + 1):
		var cur: PackedInt32Array = [i]
		for j: int in range(1, b.length() + 1):
			var cost: int = 0 if a[i - 1] == b[j - 1] else 1
			var v: int = mini(mini(prev[j] + 1, cur[j - 1] + 1), prev[j - 1] + cost)
			if i > 1 and j > 1 and a[i - 1] == b[j - 2] and a[i - 2] == b[j - 1]:
				v = mini(v, prev2[j - 2] + 1)
			cur.append(v)
		prev2 = prev
		prev = cur
	return prev[b.length()]


static func short_list(names: PackedStringArray, most: int = 12) -> String:
	if names.is_empty():
		return "none"
	var s: String = ", ".join(names.slice(0, most))
	if names.size() > most:
		s += " (and %d more)" % (names.size() - most)
	return s


static func mixers_of(root: Node) -> Array[Node]:
	var out: Array[Node] = []
	var stack: Array[Node] = [root]
	while not stack.is_empty():
		var n: Node = stack.pop_back()
		if n is AnimationMixer:
			out.append(n)
		var kids: Array[Node] = n.get_children()
		kids.reverse()
		stack.append_array(kids)
	return out


## Resolves params.player to an AnimationMixer of the edited scene (the only one when
## omitted): {root, mixer} or a failure.
func mixer_param(p: Dictionary, want_player: bool = false) -> Dictionary:
	var root: Node = scene_root()
	if root == null:
		return no_scene()
	var path: Variant = p.get("player", "")
	if typeof(path) != TYPE_STRING:
		return bad("player must be a string: the AnimationPlayer's node path relative to the scene root, e.g. \"AnimationPlayer\".")
	var all: Array[Node] = mixers_of(root)
	var names: PackedStringArray = []
	for m: Node in all:
		if not want_player or m is AnimationPlayer:
			names.append(rel(root, m))
	if str(path).strip_edges() == "":
		if names.size() == 1:
			return {"root": root, "mixer": root.get_node(names[0]) if names[0] != "." else root}
		if names.is_empty():
			return fail("RESOURCE_NOT_FOUND", "The scene '%s' has no AnimationPlayer. Add one with godot_scene_create_node {type: \"AnimationPlayer\"}." % label(root))
		return bad("The scene has several animation nodes; name one as player: %s." % short_list(names))
	var s: String = str(path).strip_edges().trim_prefix("./")
	var n: Node = root if s == "." else root.get_node_or_null(NodePath(s))
	if n == null or not (n == root or root.is_ancestor_of(n)):
		var hint: String = "No node at '%s' in the scene '%s'." % [s, label(root)]
		var best: String = closest(s, names)
		if best != "":
			hint += " Did you mean '%s'?" % best
		hint += " Animation nodes here: %s." % short_list(names)
		return fail("RESOURCE_NOT_FOUND", hint)
	if not (n is AnimationMixer) or (want_player and not (n is AnimationPlayer)):
		return bad("'%s' is a %s, not an %s. Animation nodes here: %s." % [s, n.get_class(), "AnimationPlayer" if want_player else "AnimationPlayer or AnimationTree", short_list(names)])
	return {"root": root, "mixer": n}


static func label(root: Node) -> String:
	return root.scene_file_path if root.scene_file_path != "" else "(unsaved) " + str(root.name)


## Splits "lib/name" into [library, name] ("" is the default library).
static func split_name(full: String) -> PackedStringArray:
	var i: int = full.find("/")
	if i < 0:
		return PackedStringArray(["", full])
	return PackedStringArray([full.substr(0, i), full.substr(i + 1)])


## Resolves params[key] to an animation of mixer: {anim, library, name, lib} or a failure.
func anim_param(mixer: AnimationMixer, p: Dictionary, key: String = "animation") -> Dictionary:
	var v: Variant = p.get(key, "")
	if typeof(v) != TYPE_STRING or str(v).strip_edges() == "":
		return bad("%s is required: an animation name, \"library/name\" outside the default library (godot_animation_list lists them)." % key)
	var full: String = str(v)
	if not mixer.has_animation(full):
		var names: PackedStringArray = mixer.get_animation_list()
		var hint: String = "'%s' has no animation '%s'." % [str(mixer.name), full]
		var best: String = closest(full, names)
		if best != "":
			hint += " Did you mean '%s'?" % best
		hint += " Its animations: %s." % short_list(names)
		return fail("RESOURCE_NOT_FOUND", hint)
	var parts: PackedStringArray = split_name(full)
	if not mixer.has_animation_library(parts[0]):
		parts = PackedStringArray(["", full])
	return {"anim": mixer.get_animation(full), "library": parts[0], "name": parts[1], "lib": mixer.get_animation_library(parts[0]), "full": full}


func library_param(mixer: AnimationMixer, p: Dictionary, key: String = "library") -> Dictionary:
	var v: Variant = p.get(key, "")
	if typeof(v) != TYPE_STRING:
		return bad("%s must be a string: a library name (\"\" is the default library)." % key)
	var name: String = str(v)
	if not mixer.has_animation_library(name):
		var libs: PackedStringArray = []
		for l: StringName in mixer.get_animation_library_list():
			libs.append("\"%s\"" % str(l))
		var hint: String = "'%s' has no animation library '%s'." % [str(mixer.name), name]
		var best: String = closest(name, libs)
		if best != "":
			hint += " Did you mean %s?" % best
		hint += " Its libraries: %s." % short_list(libs)
		return fail("RESOURCE_NOT_FOUND", hint)
	return {"lib": mixer.get_animation_library(name), "name": name}


## The node track paths are relative to.
static func base_of(mixer: AnimationMixer) -> Node:
	return mixer.get_node_or_null(mixer.root_node)


## Where edits to [param res] are saved: {persisted, reason}.
static func persist_of(root: Node, res: Resource, mixer: Node) -> Dictionary:
	if mixer != root and mixer.owner != root:
		return {"persisted": false, "reason": "'%s' is not owned by the edited scene (it belongs to an instanced scene), so this change is not saved with it." % rel(root, mixer)}
	if res != null and res.resource_path != "" and not res.resource_path.contains("::"):
		return {"persisted": true, "reason": "", "file": res.resource_path}
	return {"persisted": true, "reason": ""}


## Everything stored of an animation, to put back with Restorer.apply.
static func snapshot(anim: Animation) -> Array:
	var out: Array = []
	for info: Dictionary in anim.get_property_list():
		var n: String = str(info["name"])
		if int(info["usage"]) & PROPERTY_USAGE_STORAGE == 0 or n == "script" or n == "resource_path":
			continue
		out.append([n, anim.get(n)])
	return out


## Makes [param anim] what [param work] is, as one undo action of the edited scene.
func commit_anim(action: String, root: Node, anim: Animation, work: Animation) -> void:
	var before: Array = snapshot(anim)
	var after: Array = snapshot(work)
	var r := Restorer.new()
	r.apply(anim, after)
	var mgr: EditorUndoRedoManager = EditorInterface.get_editor_undo_redo()
	mgr.create_action("godot-mcp: " + action, UndoRedo.MERGE_DISABLE, root)
	mgr.add_do_method(r, "apply", anim, after)
	mgr.add_undo_method(r, "apply", anim, before)
	mgr.commit_action(false)
	EditorInterface.mark_scene_as_unsaved()


static func enum_name(names: Array, v: int) -> String:
	return names[v] if v >= 0 and v < names.size() else str(v)


## Reads an enum parameter given by name (or number): {value} or {hint}.
static func enum_value(names: Array, v: Variant, what: String) -> Dictionary:
	if typeof(v) == TYPE_STRING:
		var i: int = names.find(str(v).to_lower())
		if i >= 0:
			return {"value": i}
	elif typeof(v) == TYPE_FLOAT or typeof(v) == TYPE_INT:
		if float(v) == floorf(float(v)) and int(v) >= 0 and int(v) < names.size():
			return {"value": int(v)}
	return {"hint": "%s must be one of %s (got %s)." % [what, ", ".join(names), JSON.stringify(v)]}


## A finite number parameter, or null.
static func num(v: Variant) -> Variant:
	if typeof(v) == TYPE_FLOAT or typeof(v) == TYPE_INT:
		var f: float = float(v)
		if is_finite(f):
			return f
	return null
