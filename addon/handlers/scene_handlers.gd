@tool
extends RefCounted
## Editor side of the scene toolset (plugins/scene), plus cmd_check_preconditions.
##
## Node paths are always relative to the scene root ("." is the root). Every edit is
## applied at once while its do/undo operations are recorded, then registered as ONE
## EditorUndoRedoManager action (commit_action(false)), so godot_undo reverts exactly
## one call. A failing step rolls back what earlier steps did; a dry run applies and
## rolls back in the same frame, so its verdicts are those of the real run and nothing
## is left changed (no node, no undo entry, no unsaved flag).
## See docs/scene.md for the behaviours and limits.

const ValueCodec := preload("../value_codec.gd")
const CommandRouter := preload("../command_router.gd")
const PathGuard := preload("../path_guard.gd")

const ACTION_PREFIX := "godot-mcp: "
## get_tree / find_nodes: the most nodes one answer lists, and a byte budget.
const TREE_MAX_LIMIT := 5000
const TREE_MAX_BYTES := 2000000
## get_node: larger property values are left out (listed in omitted_properties).
const PROPERTY_MAX_CHARS := 16384
## Properties set_properties refuses, with where to go instead.
const RESERVED_PROPERTIES := {
	"name": "rename it with godot_scene_rename_node",
	"owner": "the owner is managed by the scene tools",
	"script": "attach or detach scripts with godot_scripts_attach / godot_scripts_detach",
	"scene_file_path": "it is managed by the editor",
}
## Operations godot_scene_batch (and the single edit tools) run.
const STEP_TOOLS := [
	"create_node", "instantiate", "delete_node", "duplicate_node", "rename_node",
	"move_node", "set_properties", "connect_signal", "disconnect_signal", "set_groups",
]
const DUPLICATE_FLAGS := 15 # DUPLICATE_SIGNALS | GROUPS | SCRIPTS | USE_INSTANTIATION


## Records the do/undo operations of one call while applying them at once.
class Recorder:
	var steps: Array = [] # [{do: [[obj, name, args, is_property]], undo: [...]}]
	var do_refs: Array = [] # objects the do side keeps alive (created nodes)
	var undo_refs: Array = [] # objects the undo side keeps alive (removed nodes)
	var created: Array = [] # nodes made by this call: freed when it rolls back
	var _do: Array = []
	var _undo: Array = []

	func begin() -> void:
		_do = []
		_undo = []
		steps.append({"do": _do, "undo": _undo})

	## Calls obj.method(args) now and records it as a do operation.
	func do_call(obj: Object, method: String, args: Array = []) -> void:
		obj.callv(method, args)
		_do.append([obj, method, args, false])

	## Sets obj.property = value now and records it as a do operation.
	func do_set(obj: Object, property: String, value: Variant) -> void:
		obj.set(property, value)
		_do.append([obj, property, [value], true])

	## Records an undo operation (run in the order recorded, last step first).
	func undo_call(obj: Object, method: String, args: Array = []) -> void:
		_undo.append([obj, method, args, false])

	func undo_set(obj: Object, property: String, value: Variant) -> void:
		_undo.append([obj, property, [value], true])

	func has_ops() -> bool:
		for s: Dictionary in steps:
			if not (s["do"] as Array).is_empty():
				return true
		return false

	## Undoes everything done so far (last step first) and frees created nodes.
	func rollback() -> void:
		for i: int in range(steps.size() - 1, -1, -1):
			for op: Array in steps[i]["undo"]:
				_run(op)
		for n: Variant in created:
			if is_instance_valid(n) and (n as Node).get_parent() == null:
				(n as Node).free()
		steps.clear()
		created.clear()

	static func _run(op: Array) -> void:
		var obj: Object = op[0]
		if not is_instance_valid(obj):
			return
		if op[3]:
			obj.set(op[1], (op[2] as Array)[0])
		else:
			obj.callv(op[1], op[2])

	## Registers what was done as one action in the scene's history, without
	## running it again.
	func commit(action_name: String, context: Node) -> void:
		var mgr: EditorUndoRedoManager = EditorInterface.get_editor_undo_redo()
		mgr.create_action(action_name, UndoRedo.MERGE_DISABLE, context)
		mgr.force_fixed_history()
		for s: Dictionary in steps:
			for op: Array in s["do"]:
				_add(mgr, true, op)
		for i: int in range(steps.size() - 1, -1, -1):
			for op: Array in steps[i]["undo"]:
				_add(mgr, false, op)
		for o: Object in do_refs:
			if is_instance_valid(o):
				mgr.add_do_reference(o)
		for o: Object in undo_refs:
			if is_instance_valid(o):
				mgr.add_undo_reference(o)
		mgr.commit_action(false)
		# The editor refreshes the scene tab's unsaved mark "(*)" on its next frame, and
		# a command handled before that would see the scene as saved; marking it now
		# updates the tab at once. (Undoing back to the saved state then still shows the
		# scene as unsaved, which errs on the safe side.)
		EditorInterface.mark_scene_as_unsaved()

	static func _add(mgr: EditorUndoRedoManager, doing: bool, op: Array) -> void:
		var obj: Object = op[0]
		if not is_instance_valid(obj):
			return
		if op[3]:
			if doing:
				mgr.add_do_property(obj, op[1], (op[2] as Array)[0])
			else:
				mgr.add_undo_property(obj, op[1], (op[2] as Array)[0])
			return
		var args: Array = [obj, StringName(op[1])]
		args.append_array(op[2])
		mgr.callv("add_do_method" if doing else "add_undo_method", args)


var _router: CommandRouter = null
var _plugin: EditorPlugin = null
var _tab_bar: TabBar = null
var _scene_tabs: Node = null
var _menu_cache: Dictionary = {} # menu item text -> {menu, id}
## res:// path -> {mtime, md5} of the scene file when the editor loaded or last saved it.
var _disk: Dictionary = {}
var _steps: Dictionary = {}
var _prop_lists: Dictionary = {} # class|script -> {property: info}, for one call
var _type_cache: Dictionary = {} # type name -> _node_type() answer, for one call


func setup(router: CommandRouter) -> void:
	_router = router
	_steps = {
		"create_node": _op_create_node,
		"instantiate": _op_instantiate,
		"delete_node": _op_delete_node,
		"duplicate_node": _op_duplicate_node,
		"rename_node": _op_rename_node,
		"move_node": _op_move_node,
		"set_properties": _op_set_properties,
		"connect_signal": _op_connect_signal,
		"disconnect_signal": _op_disconnect_signal,
		"set_groups": _op_set_groups,
	}
	_plugin = router.plugin
	if _plugin != null:
		_plugin.scene_saved.connect(_on_scene_saved)
		_plugin.scene_changed.connect(_on_scene_changed)
		_plugin.scene_closed.connect(_on_scene_closed)
	for p: String in EditorInterface.get_open_scenes():
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


func get_commands() -> Dictionary:
	return {
		"cmd_check_preconditions": {"class": "read_only", "run": check_preconditions},
		"cmd_scene_get_tree": {"class": "read_only", "run": cmd_get_tree},
		"cmd_scene_get_node": {"class": "read_only", "run": cmd_get_node},
		"cmd_scene_find_nodes": {"class": "read_only", "run": cmd_find_nodes},
		"cmd_scene_list_open": {"class": "read_only", "run": cmd_list_open},
		"cmd_scene_open": {"class": "mutating", "dry_run": true, "run": cmd_open},
		"cmd_scene_create": {"class": "mutating", "dry_run": true, "run": cmd_create},
		"cmd_scene_save": {"class": "mutating", "dry_run": true, "run": cmd_save},
		"cmd_scene_close": {"class": "destructive", "dry_run": true, "run": cmd_close},
		"cmd_scene_reload": {"class": "destructive", "dry_run": true, "run": cmd_reload},
		"cmd_scene_create_node": {"class": "mutating", "dry_run": true, "run": func(p: Dictionary) -> Dictionary: return _single("create_node", p)},
		"cmd_scene_instantiate": {"class": "mutating", "dry_run": true, "run": func(p: Dictionary) -> Dictionary: return _single("instantiate", p)},
		"cmd_scene_delete_node": {"class": "destructive", "dry_run": true, "run": func(p: Dictionary) -> Dictionary: return _single("delete_node", p)},
		"cmd_scene_duplicate_node": {"class": "mutating", "dry_run": true, "run": func(p: Dictionary) -> Dictionary: return _single("duplicate_node", p)},
		"cmd_scene_rename_node": {"class": "mutating", "dry_run": true, "run": func(p: Dictionary) -> Dictionary: return _single("rename_node", p)},
		"cmd_scene_move_node": {"class": "mutating", "dry_run": true, "run": func(p: Dictionary) -> Dictionary: return _single("move_node", p)},
		"cmd_scene_set_properties": {"class": "mutating", "dry_run": true, "run": func(p: Dictionary) -> Dictionary: return _single("set_properties", p)},
		"cmd_scene_connect_signal": {"class": "mutating", "dry_run": true, "run": func(p: Dictionary) -> Dictionary: return _single("connect_signal", p)},
		"cmd_scene_disconnect_signal": {"class": "mutating", "dry_run": true, "run": func(p: Dictionary) -> Dictionary: return _single("disconnect_signal", p)},
		"cmd_scene_set_groups": {"class": "mutating", "dry_run": true, "run": func(p: Dictionary) -> Dictionary: return _single("set_groups", p)},
		"cmd_scene_extract_branch": {"class": "mutating", "dry_run": true, "run": cmd_extract_branch},
		"cmd_scene_batch": {"class": "mutating", "dry_run": true, "run": cmd_batch},
	}


# --- cmd_check_preconditions ---------------------------------------------------------


## {required: [names]} -> ok {} when every editor-side precondition holds, else the
## first PRECONDITION_FAILED with `required`. Knows "active_scene"; for any other name
## X it asks the command cmd_check_precondition_X when some handler registered it
## (that is how other toolsets add theirs), and otherwise ignores the name.
func check_preconditions(params: Dictionary) -> Dictionary:
	var req: Variant = params.get("required", [])
	if typeof(req) != TYPE_ARRAY:
		return _router.ok({})
	for r: Variant in req:
		var name: String = str(r)
		if name == "active_scene":
			if EditorInterface.get_edited_scene_root() == null:
				return _no_scene()
			continue
		var cmd: String = "cmd_check_precondition_" + name
		if _router.has_command(cmd):
			var cb: Variant = _router._table.get(cmd)
			if typeof(cb) == TYPE_CALLABLE and (cb as Callable).is_valid():
				var res: Variant = (cb as Callable).call({})
				if typeof(res) == TYPE_DICTIONARY and not bool((res as Dictionary).get("ok", true)):
					return res
	return _router.ok({})


func _no_scene() -> Dictionary:
	return _router.fail("PRECONDITION_FAILED", "No scene is open in the editor. Open one with godot_scene_open {path} or create one with godot_scene_create {path, root_type}.", "active_scene")


# --- parameters -----------------------------------------------------------------------


## A string parameter: the value, [param def] when absent or null, or null when it is
## not a string.
func _str(p: Dictionary, key: String, def: String = "") -> Variant:
	var v: Variant = p.get(key)
	if v == null:
		return def
	if typeof(v) != TYPE_STRING and typeof(v) != TYPE_STRING_NAME:
		return null
	return str(v)


## An integer parameter (JSON numbers arrive as floats): the value, [param def] when
## absent or null, or null when it is not an integral number.
func _int(p: Dictionary, key: String, def: int) -> Variant:
	var v: Variant = p.get(key)
	if v == null:
		return def
	if typeof(v) == TYPE_INT:
		return v
	if typeof(v) == TYPE_FLOAT and is_finite(v) and float(v) == floorf(v) and absf(v) < 9007199254740992.0:
		return int(v)
	return null


func _bool(p: Dictionary, key: String, def: bool) -> Variant:
	var v: Variant = p.get(key)
	if v == null:
		return def
	if typeof(v) != TYPE_BOOL:
		return null
	return v


func _string_list(p: Dictionary, key: String) -> Variant:
	var v: Variant = p.get(key)
	var out: PackedStringArray = []
	if v == null:
		return out
	if typeof(v) != TYPE_ARRAY and typeof(v) != TYPE_PACKED_STRING_ARRAY:
		return null
	for e: Variant in v:
		if typeof(e) != TYPE_STRING:
			return null
		out.append(str(e))
	return out


func _bad(hint: String) -> Dictionary:
	return _router.fail("VALIDATION_ERROR", hint)


## A VALIDATION_ERROR when the res:// [param path] (argument [param arg]) is not inside the
## project on the real filesystem (a symbolic link leading out: path_guard.gd), else {}.
func _outside(arg: String, path: String) -> Dictionary:
	var why: String = PathGuard.problem(path)
	return {} if why == "" else _bad("%s: %s." % [arg, why])


# --- scenes and nodes -------------------------------------------------------------------


## Path of [param n] relative to [param root] ("." for the root itself).
static func _rel(root: Node, n: Node) -> String:
	if n == root:
		return "."
	return str(root.get_path_to(n))


## Finds a node by a path relative to the scene root. Also accepts "./X", "/root/<Root>/X"
## and "%Unique". Returns null when there is none inside the scene.
func _resolve(root: Node, path: String) -> Node:
	var p: String = path.strip_edges()
	if p == "" or p == "." or p == "./":
		return root
	if p.begins_with("./"):
		p = p.substr(2)
	if p.begins_with("/"):
		var abs_root: String = "/root/" + str(root.name)
		if p == abs_root:
			return root
		if not p.begins_with(abs_root + "/"):
			return null
		p = p.substr(abs_root.length() + 1)
	if p.ends_with("/"):
		p = p.substr(0, p.length() - 1)
	var n: Node = root.get_node_or_null(NodePath(p))
	if n == null or not (n == root or root.is_ancestor_of(n)):
		return null
	return n


## RESOURCE_NOT_FOUND for a node path, naming the nearest existing node and a likely match.
func _not_found(root: Node, path: String, what: String = "node") -> Dictionary:
	var p: String = path.strip_edges().trim_prefix("./")
	var segs: PackedStringArray = p.split("/", false)
	var cur: Node = root
	var missing: String = p
	for seg: String in segs:
		var next: Node = null
		if seg != ".." and seg != ".":
			next = cur.get_node_or_null(NodePath(seg))
		if next == null:
			missing = seg
			break
		cur = next
	var hint: String = "No %s at '%s' in the scene '%s' (paths are relative to the scene root, \".\" is the root '%s')." % [what, path, _scene_label(root), root.name]
	var best: String = ""
	var best_score: float = 0.0
	var names: PackedStringArray = []
	for c: Node in cur.get_children():
		names.append(str(c.name))
		var score: float = missing.to_lower().similarity(str(c.name).to_lower())
		if score > best_score:
			best_score = score
			best = _rel(root, c)
	if best_score >= 0.4:
		hint += " Did you mean '%s'?" % best
	else:
		var elsewhere: Node = root.find_child(missing, true, false)
		if elsewhere != null:
			hint += " A node named '%s' exists at '%s'." % [missing, _rel(root, elsewhere)]
	if cur == root:
		hint += " The root's children: %s." % _short_list(names)
	else:
		hint += " The nearest existing node is '%s'; its children: %s." % [_rel(root, cur), _short_list(names)]
	hint += " godot_scene_get_tree lists every node."
	return _router.fail("RESOURCE_NOT_FOUND", hint)


static func _short_list(names: PackedStringArray, most: int = 12) -> String:
	if names.is_empty():
		return "none"
	var shown: PackedStringArray = names.slice(0, most)
	var s: String = ", ".join(shown)
	if names.size() > most:
		s += " (and %d more)" % (names.size() - most)
	return s


static func _scene_label(root: Node) -> String:
	return root.scene_file_path if root.scene_file_path != "" else "(unsaved) " + str(root.name)


## Resolves params[key] to a node of the edited scene: {ok, node} or {ok: false, failure}.
func _node_param(root: Node, p: Dictionary, key: String, def: String = "", required: bool = true) -> Dictionary:
	var v: Variant = _str(p, key, def)
	if v == null:
		return {"ok": false, "failure": _bad("%s must be a string: a node path relative to the scene root, e.g. \"Player/Sprite2D\" (\".\" is the root)." % key)}
	if required and (v as String).strip_edges() == "":
		return {"ok": false, "failure": _bad("%s is required: a node path relative to the scene root, e.g. \"Player/Sprite2D\" (\".\" is the root)." % key)}
	var n: Node = _resolve(root, v as String)
	if n == null:
		return {"ok": false, "failure": _not_found(root, v as String)}
	return {"ok": true, "node": n}


## Whether changes to [param n] are saved with the scene: every node from the root down to
## it must belong to the scene, or to an instance with Editable Children (that is what
## PackedScene.pack() keeps). {persisted, reason}
static func _persist_info(root: Node, n: Node) -> Dictionary:
	var x: Node = n
	while x != null and x != root:
		var o: Node = x.owner
		if o == null:
			return {"persisted": false, "reason": "'%s' has no owner, so it is not part of the saved scene (it was added by a script or plugin, not the editor)." % _rel(root, x)}
		if o != root and not root.is_editable_instance(o):
			var where: String = _rel(root, o)
			return {"persisted": false, "reason": "'%s' belongs to the instanced scene '%s' (the instance '%s'), which does not have Editable Children, so this change is not saved with the scene. Enable Editable Children on '%s' (instantiate it with editable_children: true, or in the Scene dock), or edit '%s' itself." % [_rel(root, n), o.scene_file_path, where, where, o.scene_file_path]}
		x = x.get_parent()
	if x == null:
		return {"persisted": false, "reason": "'%s' is not inside the edited scene." % str(n.name)}
	return {"persisted": true, "reason": ""}


## Refusal for structural edits (rename, move, delete, duplicate) of a node that is not
## the scene's own (it belongs to an instanced scene).
func _foreign_refusal(root: Node, n: Node, verb: String) -> Dictionary:
	if n == root or n.owner == root:
		return {}
	var o: Node = n.owner
	if o == null:
		return _bad("'%s' has no owner: it is not part of the saved scene, so it cannot be %s here." % [_rel(root, n), verb])
	return _bad("'%s' belongs to the instanced scene '%s' (the instance '%s') and cannot be %s in this scene. Open '%s' and change it there, or act on the instance '%s' itself." % [_rel(root, n), o.scene_file_path, _rel(root, o), verb, o.scene_file_path, _rel(root, o)])


## Checks a node name given by an agent: "" when fine, else the reason.
static func _name_problem(name: String) -> String:
	if name.strip_edges() == "":
		return "a node name cannot be empty"
	if name != name.strip_edges():
		return "a node name cannot start or end with spaces"
	if name.validate_node_name() != name:
		return "'%s' contains a character node names cannot have (. : @ / \" %%); try '%s'" % [name, name.validate_node_name()]
	return ""


## A free child name of [param parent] based on [param base]: base, base2, base3, …
## (a trailing number is continued, as the editor does).
static func _free_name(parent: Node, base: String, ignore: Node = null) -> String:
	var taken: Dictionary = {}
	for c: Node in parent.get_children(true):
		if c != ignore:
			taken[str(c.name)] = true
	if not taken.has(base):
		return base
	var stem: String = base
	var n: int = 2
	var digits: int = 0
	while digits < stem.length() and stem[stem.length() - 1 - digits].is_valid_int():
		digits += 1
	if digits > 0 and digits < stem.length():
		n = int(stem.substr(stem.length() - digits)) + 1
		stem = stem.substr(0, stem.length() - digits)
	while taken.has(stem + str(n)):
		n += 1
	return stem + str(n)


static func _has_child_named(parent: Node, name: String, ignore: Node = null) -> bool:
	var c: Node = parent.get_node_or_null(NodePath(name))
	return c != null and c != ignore and c.get_parent() == parent


## {ok, type, script} for a type given as an engine class or a script class_name, for a
## node; {ok: false, failure} with a did-you-mean otherwise.
func _node_type(type_name: String) -> Dictionary:
	var cached: Variant = _type_cache.get(type_name)
	if cached != null:
		return cached
	var out: Dictionary = _node_type_uncached(type_name)
	if out.get("ok", false):
		_type_cache[type_name] = out
	return out


func _node_type_uncached(type_name: String) -> Dictionary:
	var t: String = type_name.strip_edges()
	if t == "":
		return {"ok": false, "failure": _bad("type is required: a Node class such as \"Node2D\", \"Sprite2D\", \"Label\", or a script class_name.")}
	if ClassDB.class_exists(t):
		if not ClassDB.is_parent_class(t, "Node"):
			return {"ok": false, "failure": _bad("'%s' is not a Node class (it is a %s); scenes hold nodes such as Node2D, Node3D, Control." % [t, ClassDB.get_parent_class(t)])}
		if not ClassDB.can_instantiate(t):
			return {"ok": false, "failure": _bad("'%s' is abstract and cannot be created; use one of its subclasses (godot_describe_class lists classes)." % t)}
		return {"ok": true, "type": t, "script": null}
	var scr: Script = ValueCodec._global_script(t)
	if scr != null:
		# In the editor only @tool scripts can_instantiate(); a script that does not
		# compile has no instance base type.
		var base: String = str(scr.get_instance_base_type())
		if base == "":
			return {"ok": false, "failure": _bad("The script class '%s' (%s) has errors and cannot be used; fix it first (godot_scripts_validate)." % [t, scr.resource_path])}
		if not ClassDB.is_parent_class(base, "Node"):
			return {"ok": false, "failure": _bad("The script class '%s' extends %s, which is not a Node." % [t, base])}
		return {"ok": true, "type": base, "script": scr}
	var hint: String = "Unknown node type '%s'." % t
	var near: PackedStringArray = _similar_node_classes(t)
	if not near.is_empty():
		hint += " Did you mean %s?" % ", ".join(near)
	hint += " Give an engine Node class (\"Node2D\", \"CharacterBody2D\", \"Label\", …) or a script's class_name."
	return {"ok": false, "failure": _bad(hint)}


static func _similar_node_classes(t: String) -> PackedStringArray:
	var scored: Array = []
	var lt: String = t.to_lower()
	for c: String in ClassDB.get_inheriters_from_class("Node"):
		var s: float = lt.similarity(c.to_lower())
		if s >= 0.5:
			scored.append([s, c])
	for entry: Dictionary in ProjectSettings.get_global_class_list():
		var c2: String = str(entry.get("class", ""))
		var s2: float = lt.similarity(c2.to_lower())
		if s2 >= 0.5:
			scored.append([s2, c2])
	scored.sort_custom(func(a: Array, b: Array) -> bool: return float(a[0]) > float(b[0]))
	var out: PackedStringArray = []
	for e: Array in scored.slice(0, 3):
		out.append(str(e[1]))
	return out


## True when [param n] is of class [param t] or a subclass, or has a script of that
## class_name (or extending it).
static func _is_type(n: Node, t: String) -> bool:
	if ClassDB.class_exists(t):
		return n.is_class(t)
	var s: Script = n.get_script() as Script
	while s != null:
		if str(s.get_global_name()) == t:
			return true
		s = s.get_base_script()
	return false


static func _type_known(t: String) -> bool:
	return ClassDB.class_exists(t) or ValueCodec._global_script(t) != null


static func _script_info(n: Node) -> Dictionary:
	var s: Script = n.get_script() as Script
	if s == null:
		return {"script": "", "script_class": ""}
	return {"script": s.resource_path, "script_class": str(s.get_global_name())}


## Collects the owners that removing [param n] from the tree clears (owners outside
## the removed branch), to restore them on undo: [[node, owner], …].
static func _owners_to_restore(n: Node) -> Array:
	var out: Array = []
	var stack: Array[Node] = [n]
	while not stack.is_empty():
		var x: Node = stack.pop_back()
		var o: Node = x.owner
		if o != null and o != n and not n.is_ancestor_of(o):
			out.append([x, o])
		for c: Node in x.get_children(true):
			stack.append(c)
	return out


static func _count_descendants(n: Node) -> int:
	var count: int = 0
	var stack: Array[Node] = [n]
	while not stack.is_empty():
		var x: Node = stack.pop_back()
		for c: Node in x.get_children():
			count += 1
			stack.append(c)
	return count


## Decodes {name: json} for [param node]: {ok, values: {name: Variant}} or {ok: false, failure}.
func _decode_properties(root: Node, node: Node, props: Variant) -> Dictionary:
	if props == null:
		return {"ok": true, "values": {}}
	if typeof(props) != TYPE_DICTIONARY:
		return {"ok": false, "failure": _bad("properties must be an object {property: value}, e.g. {\"position\": {\"x\": 10, \"y\": 20}, \"visible\": false}.")}
	var values: Dictionary = {}
	for k: Variant in (props as Dictionary).keys():
		var prop: String = str(k)
		if RESERVED_PROPERTIES.has(prop):
			return {"ok": false, "failure": _bad("'%s' cannot be set as a property here: %s." % [prop, RESERVED_PROPERTIES[prop]])}
		var info: Dictionary = _property_info(node, prop)
		if info.is_empty() or int(info.get("usage", 0)) & (PROPERTY_USAGE_CATEGORY | PROPERTY_USAGE_GROUP | PROPERTY_USAGE_SUBGROUP) != 0:
			return {"ok": false, "failure": _bad(_unknown_property_hint(node, prop))}
		var d: Dictionary = ValueCodec.decode(props[k], int(info.get("type", TYPE_NIL)), int(info.get("hint", PROPERTY_HINT_NONE)), str(info.get("hint_string", "")), node)
		if not d.get("ok", false):
			return {"ok": false, "failure": _bad("%s ('%s', %s): %s" % [prop, _rel(root, node), node.get_class(), str(d.get("hint", "the value does not fit"))])}
		values[prop] = d["value"]
	return {"ok": true, "values": values}


## The property-list entry of [param prop] on [param node], {} when it has none. Lists
## are cached per class and script for the current call (a batch creating 1,000 nodes
## of one type reads the list once); a name the cached list lacks is looked up on the
## node itself, for properties that exist per instance.
func _property_info(node: Node, prop: String) -> Dictionary:
	var scr: Script = node.get_script() as Script
	var key: String = node.get_class() + "|" + (scr.resource_path if scr != null else "")
	var props: Variant = _prop_lists.get(key)
	if props == null:
		var built: Dictionary = {}
		for info: Dictionary in node.get_property_list():
			built[str(info.get("name", ""))] = info
		_prop_lists[key] = built
		props = built
	var found: Variant = (props as Dictionary).get(prop)
	if found != null:
		return found
	return ValueCodec.property_info(node, prop)


func _unknown_property_hint(node: Node, prop: String) -> String:
	var hint: String = "%s has no property '%s'." % [node.get_class(), prop]
	var scored: Array = []
	for info: Dictionary in node.get_property_list():
		var n: String = str(info.get("name", ""))
		if int(info.get("usage", 0)) & PROPERTY_USAGE_EDITOR == 0:
			continue
		var s: float = prop.to_lower().similarity(n.to_lower())
		if s >= 0.5:
			scored.append([s, n])
	scored.sort_custom(func(a: Array, b: Array) -> bool: return float(a[0]) > float(b[0]))
	if not scored.is_empty():
		var names: PackedStringArray = []
		for e: Array in scored.slice(0, 3):
			names.append(str(e[1]))
		hint += " Did you mean %s?" % ", ".join(names)
	hint += " godot_scene_get_node lists a node's properties; godot_describe_class {class_name: \"%s\"} lists them with types." % node.get_class()
	return hint


# --- running edits --------------------------------------------------------------------------


## Runs steps [{tool, params}] on the edited scene as one undo action named [param action]
## (computed from the first step's label when empty). On a failing step everything
## already done is rolled back. {ok, results, undoable, action} or {ok: false, index, failure}.
func _run_steps(steps: Array, dry_run: bool, action: String) -> Dictionary:
	_prop_lists.clear()
	_type_cache.clear()
	var out: Dictionary = _run_steps_cached(steps, dry_run, action)
	_prop_lists.clear()
	_type_cache.clear()
	return out


func _run_steps_cached(steps: Array, dry_run: bool, action: String) -> Dictionary:
	var root: Node = EditorInterface.get_edited_scene_root()
	if root == null:
		return {"ok": false, "index": -1, "failure": _no_scene()}
	var mgr: EditorUndoRedoManager = EditorInterface.get_editor_undo_redo()
	if mgr.is_committing_action():
		return {"ok": false, "index": -1, "failure": _router.fail("PRECONDITION_FAILED", "The editor is in the middle of an undo action; retry in a moment.")}
	var rec: Recorder = Recorder.new()
	var results: Array = []
	var label: String = ""
	for i: int in range(steps.size()):
		var step: Variant = steps[i]
		if typeof(step) != TYPE_DICTIONARY:
			rec.rollback()
			return {"ok": false, "index": i, "failure": _bad("steps[%d] must be an object {tool, params}." % i), "results": results}
		var tool: String = str((step as Dictionary).get("tool", ""))
		var params: Variant = (step as Dictionary).get("params", {})
		if not _steps.has(tool):
			rec.rollback()
			return {"ok": false, "index": i, "failure": _bad("steps[%d].tool '%s' is not a batchable edit; use one of %s." % [i, tool, ", ".join(STEP_TOOLS)]), "results": results}
		if typeof(params) != TYPE_DICTIONARY:
			rec.rollback()
			return {"ok": false, "index": i, "failure": _bad("steps[%d].params must be an object." % i), "results": results}
		rec.begin()
		var rv: Variant = (_steps[tool] as Callable).call(root, params, rec)
		if typeof(rv) != TYPE_DICTIONARY:
			# A script error inside the step: undo what it and earlier steps did.
			rec.rollback()
			return {"ok": false, "index": i, "failure": _router.fail("INTERNAL_ERROR", "The %s step failed inside the addon (see the editor's Output panel); nothing was changed." % tool), "results": results}
		var r: Dictionary = rv
		if not r.get("ok", false):
			rec.rollback()
			return {"ok": false, "index": i, "failure": r, "results": results}
		var res: Dictionary = r.get("result", {})
		if label == "":
			label = str(res.get("_label", tool))
		res.erase("_label")
		# Leaner answers (a batch of 1,000 steps answers 1,000 of these): empty
		# optional fields are left out.
		for key: String in ["reason", "script", "script_class"]:
			if res.has(key) and str(res[key]) == "":
				res.erase(key)
		results.append(res)
	var changed: bool = rec.has_ops()
	if action == "":
		action = ACTION_PREFIX + label
	if dry_run:
		rec.rollback()
	elif changed:
		rec.commit(action, root)
	return {"ok": true, "results": results, "undoable": changed, "action": action if changed else ""}


## One edit tool = a batch of one step.
func _single(tool: String, params: Dictionary) -> Dictionary:
	var dry: Variant = _bool(params, "dry_run", false)
	if dry == null:
		return _bad("dry_run must be true or false.")
	var out: Dictionary = _run_steps([{"tool": tool, "params": params}], dry, "")
	if not out.get("ok", false):
		return out["failure"]
	var r: Dictionary = (out["results"] as Array)[0]
	r["undoable"] = out["undoable"]
	r["dry_run"] = dry
	return _router.ok(r)


## {steps: [{tool, params}], dry_run} -> {applied, aborted_at, error, steps: [{index, tool, result}],
## persisted, reasons, undoable, dry_run, action}
func cmd_batch(params: Dictionary) -> Dictionary:
	var dry: Variant = _bool(params, "dry_run", false)
	if dry == null:
		return _bad("dry_run must be true or false.")
	var steps: Variant = params.get("steps")
	if typeof(steps) != TYPE_ARRAY or (steps as Array).is_empty():
		return _bad("steps must be a non-empty array of {tool, params}.")
	if EditorInterface.get_edited_scene_root() == null:
		return _no_scene()
	var n: int = (steps as Array).size()
	var out: Dictionary = _run_steps(steps, dry, ACTION_PREFIX + "batch of %d step%s" % [n, "" if n == 1 else "s"])
	var results: Array = out.get("results", [])
	var listed: Array = []
	var persisted: bool = true
	var reasons: PackedStringArray = []
	for i: int in range(results.size()):
		var r: Dictionary = results[i]
		listed.append({"index": i, "tool": str(((steps as Array)[i] as Dictionary).get("tool", "")), "result": r})
		if not bool(r.get("persisted", true)):
			persisted = false
			reasons.append("step %d: %s" % [i, str(r.get("reason", ""))])
	if not out.get("ok", false):
		var idx: int = out.get("index", -1)
		var f: Dictionary = out["failure"]
		if idx < 0:
			return f
		var err: Dictionary = {"error": str(f.get("error", "INTERNAL_ERROR")), "hint": "Step %d (%s) failed: %s Nothing was changed." % [idx, str(((steps as Array)[idx] as Dictionary).get("tool", "")) if typeof((steps as Array)[idx]) == TYPE_DICTIONARY else "?", str(f.get("hint", ""))]}
		if str(f.get("required", "")) != "":
			err["required"] = str(f["required"])
		return _router.ok({
			"applied": false, "aborted_at": idx, "error": err, "steps": listed,
			"persisted": false, "reasons": reasons, "undoable": false, "dry_run": dry, "action": "",
		})
	return _router.ok({
		"applied": not dry, "aborted_at": null, "error": null, "steps": listed,
		"persisted": persisted, "reasons": reasons, "undoable": out["undoable"], "dry_run": dry,
		"action": out["action"],
	})


# --- step operations: (root, params, recorder) -> ok({... , _label}) or fail(...) -------------


func _op_create_node(root: Node, p: Dictionary, rec: Recorder) -> Dictionary:
	var tv: Variant = _str(p, "type")
	if tv == null:
		return _bad("type must be a string, e.g. \"Node2D\".")
	var tinfo: Dictionary = _node_type(tv as String)
	if not tinfo.get("ok", false):
		return tinfo["failure"]
	var pr: Dictionary = _node_param(root, p, "parent", ".", false)
	if not pr.get("ok", false):
		return pr["failure"]
	var parent: Node = pr["node"]
	var scr: Variant = tinfo["script"]
	var sv: Variant = _str(p, "script")
	if sv == null:
		return _bad("script must be a res:// path string.")
	if (sv as String) != "":
		var loaded: Dictionary = _load_script(sv as String, tinfo["type"] as String)
		if not loaded.get("ok", false):
			return loaded["failure"]
		scr = loaded["script"]
	var default_name: String = (tv as String).strip_edges()
	var nv: Variant = _str(p, "name")
	if nv == null:
		return _bad("name must be a string.")
	var name: String = nv
	if name == "":
		name = _free_name(parent, default_name.validate_node_name())
	else:
		var problem: String = _name_problem(name)
		if problem != "":
			return _bad("name: %s." % problem)
		if _has_child_named(parent, name):
			return _bad("'%s' already has a child named '%s'. Choose another name (for example '%s'), or omit name to get a free one." % [_rel(root, parent), name, _free_name(parent, name)])
	var idx: Variant = _int(p, "index", -1)
	if idx == null or int(idx) < -1 or int(idx) > parent.get_child_count():
		return _bad("index must be an integer from 0 to %d (the position among the parent's children), or -1 for the end." % parent.get_child_count())
	var node: Node = ClassDB.instantiate(tinfo["type"]) as Node
	if node == null:
		return _router.fail("INTERNAL_ERROR", "The editor could not create a %s." % tinfo["type"])
	node.name = name
	if scr != null:
		node.set_script(scr)
	# Decode against the new node before it joins the scene, so a bad value changes nothing.
	var props: Dictionary = _decode_properties(root, node, p.get("properties"))
	if not props.get("ok", false):
		node.free()
		return props["failure"]
	rec.created.append(node)
	rec.do_refs.append(node)
	rec.do_call(parent, "add_child", [node, true])
	rec.do_call(node, "set_owner", [root])
	if int(idx) >= 0:
		rec.do_call(parent, "move_child", [node, int(idx)])
	rec.undo_call(parent, "remove_child", [node])
	var applied: Dictionary = {}
	var values: Dictionary = props["values"]
	for k: String in values.keys():
		# A new node keeps its properties while undone (out of the tree), so setting
		# them needs no undo operation of its own.
		node.set(k, values[k])
		applied[k] = node.get(k)
	var persist: Dictionary = _persist_info(root, parent)
	var si: Dictionary = _script_info(node)
	return _router.ok({
		"_label": "create %s '%s'" % [tinfo["type"], name],
		"path": _rel(root, node), "name": str(node.name), "type": node.get_class(),
		"script": si["script"], "script_class": si["script_class"],
		"parent": _rel(root, parent), "index": node.get_index(), "properties": applied,
		"persisted": persist["persisted"], "reason": persist["reason"],
	})


func _load_script(path: String, node_type: String) -> Dictionary:
	if not path.begins_with("res://"):
		return {"ok": false, "failure": _bad("script must be a res:// path, e.g. \"res://player.gd\".")}
	var out: Dictionary = _outside("script", path)
	if not out.is_empty():
		return {"ok": false, "failure": out}
	if not ResourceLoader.exists(path):
		return {"ok": false, "failure": _router.fail("RESOURCE_NOT_FOUND", "No script at '%s'. Create it with godot_scripts_write first, or check the path with godot_resources_list." % path)}
	var s: Script = load(path) as Script
	if s == null:
		return {"ok": false, "failure": _bad("'%s' is not a script." % path)}
	var base: String = str(s.get_instance_base_type())
	if base == "":
		return {"ok": false, "failure": _bad("The script '%s' has errors; fix it first (godot_scripts_validate)." % path)}
	if not ClassDB.is_parent_class(node_type, base):
		return {"ok": false, "failure": _bad("The script '%s' extends %s, which a %s is not; use a node type that is a %s." % [path, base, node_type, base])}
	return {"ok": true, "script": s}


func _op_instantiate(root: Node, p: Dictionary, rec: Recorder) -> Dictionary:
	var sv: Variant = _str(p, "scene")
	if sv == null or (sv as String) == "":
		return _bad("scene is required: the res:// path of a scene file, e.g. \"res://enemy.tscn\".")
	var path: String = sv
	var outside: Dictionary = _outside("scene", path)
	if not outside.is_empty():
		return outside
	if not ResourceLoader.exists(path):
		return _scene_file_not_found(path)
	if path == root.scene_file_path or _depends_on(path, root.scene_file_path):
		return _bad("'%s' cannot be instanced into '%s': it would contain itself." % [path, _scene_label(root)])
	var packed: PackedScene = load(path) as PackedScene
	if packed == null:
		return _bad("'%s' is not a scene (PackedScene)." % path)
	var pr: Dictionary = _node_param(root, p, "parent", ".", false)
	if not pr.get("ok", false):
		return pr["failure"]
	var parent: Node = pr["node"]
	var nv: Variant = _str(p, "name")
	if nv == null:
		return _bad("name must be a string.")
	var name: String = nv
	if name != "":
		var problem: String = _name_problem(name)
		if problem != "":
			return _bad("name: %s." % problem)
		if _has_child_named(parent, name):
			return _bad("'%s' already has a child named '%s'. Choose another name (for example '%s'), or omit name to get a free one." % [_rel(root, parent), name, _free_name(parent, name)])
	var idx: Variant = _int(p, "index", -1)
	if idx == null or int(idx) < -1 or int(idx) > parent.get_child_count():
		return _bad("index must be an integer from 0 to %d (the position among the parent's children), or -1 for the end." % parent.get_child_count())
	var editable: Variant = _bool(p, "editable_children", false)
	if editable == null:
		return _bad("editable_children must be true or false.")
	var inst: Node = packed.instantiate(PackedScene.GEN_EDIT_STATE_INSTANCE)
	if inst == null:
		return _router.fail("INTERNAL_ERROR", "The scene '%s' could not be instantiated (is it broken? open it to see the error)." % path)
	inst.scene_file_path = path
	if name == "":
		name = _free_name(parent, str(inst.name))
	inst.name = name
	var props: Dictionary = _decode_properties(root, inst, p.get("properties"))
	if not props.get("ok", false):
		inst.free()
		return props["failure"]
	rec.created.append(inst)
	rec.do_refs.append(inst)
	rec.do_call(parent, "add_child", [inst, true])
	rec.do_call(inst, "set_owner", [root])
	if int(idx) >= 0:
		rec.do_call(parent, "move_child", [inst, int(idx)])
	if editable:
		rec.do_call(root, "set_editable_instance", [inst, true])
		rec.undo_call(root, "set_editable_instance", [inst, false])
	rec.undo_call(parent, "remove_child", [inst])
	var applied: Dictionary = {}
	var values: Dictionary = props["values"]
	for k: String in values.keys():
		# A new node keeps its properties while undone (out of the tree), so setting
		# them needs no undo operation of its own.
		inst.set(k, values[k])
		applied[k] = inst.get(k)
	var persist: Dictionary = _persist_info(root, parent)
	return _router.ok({
		"_label": "instantiate '%s' as '%s'" % [path.get_file(), name],
		"path": _rel(root, inst), "name": str(inst.name), "scene": path, "type": inst.get_class(),
		"parent": _rel(root, parent), "index": inst.get_index(), "editable_children": editable,
		"properties": applied, "persisted": persist["persisted"], "reason": persist["reason"],
	})


## True when the scene at [param path] depends (directly or not) on [param target].
func _depends_on(path: String, target: String) -> bool:
	if target == "":
		return false
	var seen: Dictionary = {}
	var todo: PackedStringArray = [path]
	while not todo.is_empty():
		var cur: String = todo[todo.size() - 1]
		todo.remove_at(todo.size() - 1)
		if seen.has(cur):
			continue
		seen[cur] = true
		for dep: String in ResourceLoader.get_dependencies(cur):
			var d: String = dep.get_slice("::", dep.get_slice_count("::") - 1) if dep.contains("::") else dep
			if d.begins_with("uid://"):
				var id: int = ResourceUID.text_to_id(d)
				if ResourceUID.has_id(id):
					d = ResourceUID.get_id_path(id)
			if d == target:
				return true
			if d.get_extension() in ["tscn", "scn"]:
				todo.append(d)
	return false


func _op_delete_node(root: Node, p: Dictionary, rec: Recorder) -> Dictionary:
	var nr: Dictionary = _node_param(root, p, "node")
	if not nr.get("ok", false):
		return nr["failure"]
	var node: Node = nr["node"]
	if node == root:
		return _bad("The scene root '%s' cannot be deleted. Delete its children instead, or make another scene with godot_scene_create." % root.name)
	var refusal: Dictionary = _foreign_refusal(root, node, "deleted")
	if not refusal.is_empty():
		return refusal
	var parent: Node = node.get_parent()
	var path: String = _rel(root, node)
	var idx: int = node.get_index()
	var owners: Array = _owners_to_restore(node)
	var count: int = _count_descendants(node)
	var persist: Dictionary = _persist_info(root, node)
	rec.undo_refs.append(node)
	rec.do_call(parent, "remove_child", [node])
	rec.undo_call(parent, "add_child", [node])
	rec.undo_call(parent, "move_child", [node, idx])
	for pair: Array in owners:
		rec.undo_call(pair[0], "set_owner", [pair[1]])
	return _router.ok({
		"_label": "delete '%s'" % path,
		"path": path, "type": node.get_class(), "deleted": true, "descendants": count,
		"persisted": persist["persisted"], "reason": persist["reason"],
	})


func _op_duplicate_node(root: Node, p: Dictionary, rec: Recorder) -> Dictionary:
	var nr: Dictionary = _node_param(root, p, "node")
	if not nr.get("ok", false):
		return nr["failure"]
	var node: Node = nr["node"]
	if node == root:
		return _bad("The scene root cannot be duplicated; duplicate its children, or save the scene under another name with godot_scene_save {path}.")
	var refusal: Dictionary = _foreign_refusal(root, node, "duplicated")
	if not refusal.is_empty():
		return refusal
	var parent: Node = node.get_parent()
	var pv: Variant = _str(p, "parent")
	if pv == null:
		return _bad("parent must be a string: a node path relative to the scene root.")
	if (pv as String) != "":
		var pr: Dictionary = _node_param(root, p, "parent")
		if not pr.get("ok", false):
			return pr["failure"]
		parent = pr["node"]
		if parent == node or node.is_ancestor_of(parent):
			return _bad("'%s' cannot be duplicated into itself or its own descendant '%s'." % [_rel(root, node), _rel(root, parent)])
	var nv: Variant = _str(p, "name")
	if nv == null:
		return _bad("name must be a string.")
	var name: String = nv
	if name == "":
		name = _free_name(parent, str(node.name))
	else:
		var problem: String = _name_problem(name)
		if problem != "":
			return _bad("name: %s." % problem)
		if _has_child_named(parent, name):
			return _bad("'%s' already has a child named '%s'. Choose another name (for example '%s'), or omit name to get a free one." % [_rel(root, parent), name, _free_name(parent, name)])
	var dup: Node = node.duplicate(DUPLICATE_FLAGS)
	if dup == null:
		return _router.fail("INTERNAL_ERROR", "The editor could not duplicate '%s'." % _rel(root, node))
	dup.name = name
	# Pair each node of the copy with its original, to give the copy the same owners.
	var pairs: Array = []
	var stack: Array[Node] = [node]
	while not stack.is_empty():
		var o: Node = stack.pop_back()
		var d: Node = dup if o == node else dup.get_node_or_null(node.get_path_to(o))
		if d != null and o.owner == root:
			pairs.append([d, o])
		for c: Node in o.get_children():
			stack.append(c)
	rec.created.append(dup)
	rec.do_refs.append(dup)
	rec.do_call(parent, "add_child", [dup, true])
	for pair: Array in pairs:
		var d2: Node = pair[0]
		var o2: Node = pair[1]
		if d2.unique_name_in_owner:
			rec.do_set(d2, "unique_name_in_owner", false) # two %Names in one scene would clash
		rec.do_call(d2, "set_owner", [root])
		if root.is_editable_instance(o2):
			rec.do_call(root, "set_editable_instance", [d2, true])
			rec.undo_call(root, "set_editable_instance", [d2, false])
	if parent == node.get_parent():
		rec.do_call(parent, "move_child", [dup, node.get_index() + 1])
	rec.undo_call(parent, "remove_child", [dup])
	var persist: Dictionary = _persist_info(root, parent)
	return _router.ok({
		"_label": "duplicate '%s'" % _rel(root, node),
		"source": _rel(root, node), "path": _rel(root, dup), "name": str(dup.name),
		"parent": _rel(root, parent), "descendants": _count_descendants(dup),
		"persisted": persist["persisted"], "reason": persist["reason"],
	})


func _op_rename_node(root: Node, p: Dictionary, rec: Recorder) -> Dictionary:
	var nr: Dictionary = _node_param(root, p, "node")
	if not nr.get("ok", false):
		return nr["failure"]
	var node: Node = nr["node"]
	var nv: Variant = _str(p, "name")
	if nv == null or (nv as String) == "":
		return _bad("name is required: the new node name.")
	var name: String = nv
	var problem: String = _name_problem(name)
	if problem != "":
		return _bad("name: %s." % problem)
	var refusal: Dictionary = _foreign_refusal(root, node, "renamed")
	if not refusal.is_empty():
		return refusal
	var old_path: String = _rel(root, node)
	var old_name: String = str(node.name)
	var parent: Node = node.get_parent()
	if node != root and name != old_name and _has_child_named(parent, name, node):
		return _bad("'%s' already has a child named '%s'. Choose another name (for example '%s')." % [_rel(root, parent), name, _free_name(parent, name, node)])
	if name != old_name:
		rec.do_call(node, "set_name", [name])
		rec.undo_call(node, "set_name", [old_name])
	var persist: Dictionary = _persist_info(root, node)
	return _router.ok({
		"_label": "rename '%s' to '%s'" % [old_path, name],
		"old_path": old_path, "path": _rel(root, node), "old_name": old_name, "name": str(node.name),
		"persisted": persist["persisted"], "reason": persist["reason"],
	})


func _op_move_node(root: Node, p: Dictionary, rec: Recorder) -> Dictionary:
	var nr: Dictionary = _node_param(root, p, "node")
	if not nr.get("ok", false):
		return nr["failure"]
	var node: Node = nr["node"]
	if node == root:
		return _bad("The scene root cannot be moved. To make another node the root, create a new scene (godot_scene_create) or extract a branch (godot_scene_extract_branch).")
	var refusal: Dictionary = _foreign_refusal(root, node, "moved")
	if not refusal.is_empty():
		return refusal
	var old_parent: Node = node.get_parent()
	var new_parent: Node = old_parent
	var pv: Variant = _str(p, "new_parent")
	if pv == null:
		return _bad("new_parent must be a string: a node path relative to the scene root.")
	if (pv as String) != "":
		var pr: Dictionary = _node_param(root, p, "new_parent")
		if not pr.get("ok", false):
			return pr["failure"]
		new_parent = pr["node"]
	if new_parent == node or node.is_ancestor_of(new_parent):
		return _bad("'%s' cannot be moved into itself or its own descendant '%s'. Pick a new_parent outside its branch." % [_rel(root, node), _rel(root, new_parent)])
	var np_persist: Dictionary = _persist_info(root, new_parent)
	if new_parent != old_parent and not np_persist["persisted"]:
		return _bad("'%s' cannot take new children that would be saved: %s" % [_rel(root, new_parent), np_persist["reason"]])
	var reparenting: bool = new_parent != old_parent
	if reparenting and _has_child_named(new_parent, str(node.name)):
		return _bad("'%s' already has a child named '%s'. Rename one of them first (godot_scene_rename_node), e.g. to '%s'." % [_rel(root, new_parent), node.name, _free_name(new_parent, str(node.name))])
	var max_idx: int = new_parent.get_child_count() - (0 if reparenting else 1)
	var idx: Variant = _int(p, "index", -1)
	if idx == null or int(idx) < -1 or int(idx) > max_idx:
		return _bad("index must be an integer from 0 to %d (the position among the new parent's children), or -1 for the end." % max_idx)
	var keep: Variant = _bool(p, "keep_global_transform", true)
	if keep == null:
		return _bad("keep_global_transform must be true or false.")
	var old_path: String = _rel(root, node)
	var old_idx: int = node.get_index()
	var xform_prop: String = ""
	if node is Node2D or node is Node3D:
		xform_prop = "transform"
	elif node is Control:
		xform_prop = "position"
	var old_xform: Variant = node.get(xform_prop) if xform_prop != "" else null
	if reparenting:
		rec.do_call(node, "reparent", [new_parent, keep])
		if int(idx) >= 0:
			rec.do_call(new_parent, "move_child", [node, int(idx)])
		rec.undo_call(node, "reparent", [old_parent, false])
		rec.undo_call(old_parent, "move_child", [node, old_idx])
		if xform_prop != "":
			rec.undo_set(node, xform_prop, old_xform)
	elif int(idx) >= 0 and int(idx) != old_idx:
		rec.do_call(new_parent, "move_child", [node, int(idx)])
		rec.undo_call(old_parent, "move_child", [node, old_idx])
	elif int(idx) < 0 and old_idx != old_parent.get_child_count() - 1:
		rec.do_call(new_parent, "move_child", [node, -1])
		rec.undo_call(old_parent, "move_child", [node, old_idx])
	var persist: Dictionary = _persist_info(root, node)
	return _router.ok({
		"_label": "move '%s' to '%s'" % [old_path, _rel(root, new_parent)],
		"old_path": old_path, "path": _rel(root, node),
		"old_parent": _rel(root, old_parent), "parent": _rel(root, new_parent),
		"old_index": old_idx, "index": node.get_index(),
		"global_transform_kept": bool(keep) and reparenting and xform_prop != "",
		"persisted": persist["persisted"], "reason": persist["reason"],
	})


func _op_set_properties(root: Node, p: Dictionary, rec: Recorder) -> Dictionary:
	var nr: Dictionary = _node_param(root, p, "node")
	if not nr.get("ok", false):
		return nr["failure"]
	var node: Node = nr["node"]
	var props: Variant = p.get("properties")
	if typeof(props) != TYPE_DICTIONARY or (props as Dictionary).is_empty():
		return _bad("properties is required: an object {property: value} with at least one property, e.g. {\"position\": {\"x\": 10, \"y\": 20}}.")
	var dec: Dictionary = _decode_properties(root, node, props)
	if not dec.get("ok", false):
		return dec["failure"]
	var values: Dictionary = dec["values"]
	var changes: Array = []
	for k: String in values.keys():
		var old: Variant = node.get(k)
		rec.do_set(node, k, values[k])
		rec.undo_set(node, k, old)
		changes.append({"property": k, "old": old, "new": node.get(k)})
	var persist: Dictionary = _persist_info(root, node)
	return _router.ok({
		"_label": "set %s on '%s'" % [", ".join(PackedStringArray(values.keys())), _rel(root, node)],
		"path": _rel(root, node), "changes": changes,
		"persisted": persist["persisted"], "reason": persist["reason"],
	})


## Resolves {source, signal, target, method} for the signal tools.
func _signal_params(root: Node, p: Dictionary) -> Dictionary:
	var sr: Dictionary = _node_param(root, p, "source")
	if not sr.get("ok", false):
		return sr
	var tr: Dictionary = _node_param(root, p, "target")
	if not tr.get("ok", false):
		return tr
	var source: Node = sr["node"]
	var sig: Variant = _str(p, "signal")
	if sig == null or (sig as String) == "":
		return {"ok": false, "failure": _bad("signal is required: the signal's name, e.g. \"pressed\" or \"body_entered\".")}
	if not source.has_signal(sig as String):
		var names: PackedStringArray = []
		for s: Dictionary in source.get_signal_list():
			names.append(str(s["name"]))
		var near: PackedStringArray = []
		for n: String in names:
			if (sig as String).to_lower().similarity(n.to_lower()) >= 0.5:
				near.append(n)
		var hint: String = "'%s' (%s) has no signal '%s'." % [_rel(root, source), _class_label(source), sig]
		if not near.is_empty():
			hint += " Did you mean %s?" % ", ".join(near.slice(0, 3))
		hint += " Its signals: %s." % _short_list(names, 40)
		return {"ok": false, "failure": _bad(hint)}
	var method: Variant = _str(p, "method")
	if method == null or not (method as String).is_valid_identifier():
		return {"ok": false, "failure": _bad("method is required: the name of the target's method to call, e.g. \"_on_button_pressed\".")}
	return {"ok": true, "source": source, "target": tr["node"], "signal": sig, "method": method}


static func _class_label(n: Object) -> String:
	var si: Script = n.get_script() as Script
	if si != null and si.get_global_name() != &"":
		return str(si.get_global_name())
	return n.get_class()


func _op_connect_signal(root: Node, p: Dictionary, rec: Recorder) -> Dictionary:
	var sp: Dictionary = _signal_params(root, p)
	if not sp.get("ok", false):
		return sp["failure"]
	var source: Node = sp["source"]
	var target: Node = sp["target"]
	var sig: String = sp["signal"]
	var method: String = sp["method"]
	var deferred: Variant = _bool(p, "deferred", false)
	var one_shot: Variant = _bool(p, "one_shot", false)
	if deferred == null or one_shot == null:
		return _bad("deferred and one_shot must be true or false.")
	var binds_v: Variant = p.get("binds")
	var binds: Array = []
	if binds_v != null:
		if typeof(binds_v) != TYPE_ARRAY:
			return _bad("binds must be an array of extra arguments passed after the signal's own.")
		for b: Variant in binds_v:
			var d: Dictionary = ValueCodec.decode(b, TYPE_NIL)
			if not d.get("ok", false):
				return _bad("binds: %s" % str(d.get("hint", "")))
			binds.append(d["value"])
	var callable: Callable = Callable(target, method)
	if not binds.is_empty():
		callable = callable.bindv(binds)
	for c: Dictionary in source.get_signal_connection_list(sig):
		var cc: Callable = c["callable"]
		if cc.get_object() == target and str(cc.get_method()) == method:
			return _bad("'%s'.%s is already connected to '%s'.%s(). Disconnect it first (godot_scene_disconnect_signal) to change its options." % [_rel(root, source), sig, _rel(root, target), method])
	var flags: int = CONNECT_PERSIST
	if deferred:
		flags |= CONNECT_DEFERRED
	if one_shot:
		flags |= CONNECT_ONE_SHOT
	rec.do_call(source, "connect", [sig, callable, flags])
	rec.undo_call(source, "disconnect", [sig, callable])
	var persist: Dictionary = _persist_info(root, source)
	if persist["persisted"]:
		persist = _persist_info(root, target)
	return _router.ok({
		"_label": "connect '%s'.%s to '%s'.%s" % [_rel(root, source), sig, _rel(root, target), method],
		"source": _rel(root, source), "signal": sig, "target": _rel(root, target), "method": method,
		"flags": flags, "binds": binds, "method_exists": target.has_method(method),
		"persisted": persist["persisted"], "reason": persist["reason"],
	})


func _op_disconnect_signal(root: Node, p: Dictionary, rec: Recorder) -> Dictionary:
	var sp: Dictionary = _signal_params(root, p)
	if not sp.get("ok", false):
		return sp["failure"]
	var source: Node = sp["source"]
	var target: Node = sp["target"]
	var sig: String = sp["signal"]
	var method: String = sp["method"]
	var found: Dictionary = {}
	var existing: PackedStringArray = []
	for c: Dictionary in source.get_signal_connection_list(sig):
		var cc: Callable = c["callable"]
		var obj: Object = cc.get_object()
		if obj == target and str(cc.get_method()) == method:
			found = c
		if obj is Node and (obj == root or root.is_ancestor_of(obj as Node)):
			existing.append("'%s'.%s()" % [_rel(root, obj as Node), cc.get_method()])
	if found.is_empty():
		return _router.fail("RESOURCE_NOT_FOUND", "'%s'.%s is not connected to '%s'.%s(). Its connections: %s. godot_scene_get_node lists a node's connections." % [_rel(root, source), sig, _rel(root, target), method, _short_list(existing)])
	var callable: Callable = found["callable"]
	var flags: int = found["flags"]
	rec.do_call(source, "disconnect", [sig, callable])
	rec.undo_call(source, "connect", [sig, callable, flags])
	var persist: Dictionary = _persist_info(root, source)
	if persist["persisted"]:
		persist = _persist_info(root, target)
	return _router.ok({
		"_label": "disconnect '%s'.%s from '%s'.%s" % [_rel(root, source), sig, _rel(root, target), method],
		"source": _rel(root, source), "signal": sig, "target": _rel(root, target), "method": method,
		"flags": flags, "persisted": persist["persisted"], "reason": persist["reason"],
	})


func _op_set_groups(root: Node, p: Dictionary, rec: Recorder) -> Dictionary:
	var nr: Dictionary = _node_param(root, p, "node")
	if not nr.get("ok", false):
		return nr["failure"]
	var node: Node = nr["node"]
	var add: Variant = _string_list(p, "add")
	var remove: Variant = _string_list(p, "remove")
	if add == null or remove == null:
		return _bad("add and remove must be arrays of group names.")
	if (add as PackedStringArray).is_empty() and (remove as PackedStringArray).is_empty():
		return _bad("Give add and/or remove: arrays of group names, e.g. {\"add\": [\"enemies\"]}.")
	for g: String in add:
		if g.strip_edges() == "" or g != g.strip_edges():
			return _bad("group names cannot be empty or start/end with spaces (got '%s')." % g)
		if (remove as PackedStringArray).has(g):
			return _bad("'%s' is in both add and remove." % g)
	var added: PackedStringArray = []
	var removed: PackedStringArray = []
	var unchanged: PackedStringArray = []
	for g: String in add:
		if node.is_in_group(g):
			unchanged.append(g)
			continue
		rec.do_call(node, "add_to_group", [g, true])
		rec.undo_call(node, "remove_from_group", [g])
		added.append(g)
	for g: String in remove:
		if not node.is_in_group(g):
			unchanged.append(g)
			continue
		rec.do_call(node, "remove_from_group", [g])
		rec.undo_call(node, "add_to_group", [g, true])
		removed.append(g)
	var persist: Dictionary = _persist_info(root, node)
	return _router.ok({
		"_label": "set groups of '%s'" % _rel(root, node),
		"path": _rel(root, node), "groups": _groups(node), "added": added, "removed": removed,
		"unchanged": unchanged, "persisted": persist["persisted"], "reason": persist["reason"],
	})


static func _groups(n: Node) -> PackedStringArray:
	var out: PackedStringArray = []
	for g: StringName in n.get_groups():
		if not str(g).begins_with("_"):
			out.append(str(g))
	return out


# --- cmd_scene_extract_branch -------------------------------------------------------------


## {node, path, replace?, dry_run?} -> {path, node, replaced, instance, node_count,
## dropped_connections, file_written, persisted, reason, undoable, dry_run}
func cmd_extract_branch(params: Dictionary) -> Dictionary:
	var root: Node = EditorInterface.get_edited_scene_root()
	if root == null:
		return _no_scene()
	var dry: Variant = _bool(params, "dry_run", false)
	var replace: Variant = _bool(params, "replace", true)
	if dry == null or replace == null:
		return _bad("dry_run and replace must be true or false.")
	var nr: Dictionary = _node_param(root, params, "node")
	if not nr.get("ok", false):
		return nr["failure"]
	var node: Node = nr["node"]
	if node == root:
		return _bad("The root is the whole scene; save it under another name with godot_scene_save {path} instead of extracting it.")
	var refusal: Dictionary = _foreign_refusal(root, node, "extracted")
	if not refusal.is_empty():
		return refusal
	var pv: Variant = _str(params, "path")
	if pv == null or not _is_scene_path(pv as String):
		return _bad("path is required: the res:// path of the new scene file, ending in .tscn or .scn (e.g. \"res://enemy.tscn\").")
	var path: String = pv
	var outside: Dictionary = _outside("path", path)
	if not outside.is_empty():
		return outside
	if FileAccess.file_exists(path) or ResourceLoader.exists(path):
		return _bad("'%s' already exists; extract_branch never overwrites a file. Choose another path." % path)
	# The branch: nodes the scene owns, and connections that cross its border (lost).
	var members: Dictionary = {}
	var stack: Array[Node] = [node]
	while not stack.is_empty():
		var x: Node = stack.pop_back()
		members[x] = true
		for c: Node in x.get_children():
			stack.append(c)
	var owned: int = 0
	var dropped: Array = []
	for x: Variant in members.keys():
		var xn: Node = x
		if xn.owner == root or xn == node:
			owned += 1
		for s: Dictionary in xn.get_signal_list():
			for c: Dictionary in xn.get_signal_connection_list(str(s["name"])):
				if int(c["flags"]) & CONNECT_PERSIST == 0:
					continue
				var t: Object = (c["callable"] as Callable).get_object()
				if t is Node and not members.has(t) and (t == root or root.is_ancestor_of(t as Node)):
					dropped.append({"source": _rel(root, xn), "signal": str(s["name"]), "target": _rel(root, t as Node), "method": str((c["callable"] as Callable).get_method())})
		for c2: Dictionary in xn.get_incoming_connections():
			if int(c2["flags"]) & CONNECT_PERSIST == 0:
				continue
			var sg: Signal = c2["signal"]
			var src: Object = sg.get_object()
			if src is Node and not members.has(src) and (src == root or root.is_ancestor_of(src as Node)):
				dropped.append({"source": _rel(root, src as Node), "signal": str(sg.get_name()), "target": _rel(root, xn), "method": str((c2["callable"] as Callable).get_method())})
	var node_path: String = _rel(root, node)
	var result: Dictionary = {
		"path": path, "node": node_path, "replaced": bool(replace), "instance": node_path if replace else "",
		"node_count": owned, "dropped_connections": dropped, "file_written": not dry,
		"persisted": true, "reason": "", "undoable": bool(replace), "dry_run": dry,
	}
	if dry:
		return _router.ok(result)
	var dir: String = path.get_base_dir()
	if not DirAccess.dir_exists_absolute(dir):
		var derr: Error = DirAccess.make_dir_recursive_absolute(dir)
		if derr != OK:
			return _router.fail("INTERNAL_ERROR", "Could not create the folder '%s' (%s)." % [dir, error_string(derr)])
	var copy: Node = node.duplicate(DUPLICATE_FLAGS)
	var ostack: Array[Node] = [node]
	while not ostack.is_empty():
		var o: Node = ostack.pop_back()
		if o != node and o.owner == root:
			var d: Node = copy.get_node_or_null(node.get_path_to(o))
			if d != null:
				d.owner = copy
				if root.is_editable_instance(o):
					copy.set_editable_instance(d, true)
		for c3: Node in o.get_children():
			ostack.append(c3)
	var packed: PackedScene = PackedScene.new()
	var perr: Error = packed.pack(copy)
	copy.free()
	if perr != OK:
		return _router.fail("INTERNAL_ERROR", "The branch '%s' could not be packed into a scene (%s)." % [node_path, error_string(perr)])
	var serr: Error = ResourceSaver.save(packed, path)
	if serr != OK:
		return _router.fail("INTERNAL_ERROR", "Could not write '%s' (%s)." % [path, error_string(serr)])
	EditorInterface.get_resource_filesystem().update_file(path)
	if not replace:
		result["undoable"] = false
		return _router.ok(result)
	var loaded: PackedScene = ResourceLoader.load(path, "PackedScene", ResourceLoader.CACHE_MODE_REPLACE) as PackedScene
	var inst: Node = loaded.instantiate(PackedScene.GEN_EDIT_STATE_INSTANCE) if loaded != null else null
	if inst == null:
		result["replaced"] = false
		result["instance"] = ""
		result["undoable"] = false
		result["reason"] = "The file was written but could not be instanced back, so the branch was left in place."
		return _router.ok(result)
	inst.scene_file_path = path
	inst.name = node.name
	inst.unique_name_in_owner = node.unique_name_in_owner
	var parent: Node = node.get_parent()
	var idx: int = node.get_index()
	var owners: Array = _owners_to_restore(node)
	var rec: Recorder = Recorder.new()
	rec.begin()
	rec.do_refs.append(inst)
	rec.undo_refs.append(node)
	rec.do_call(parent, "remove_child", [node])
	rec.do_call(parent, "add_child", [inst, true])
	rec.do_call(parent, "move_child", [inst, idx])
	rec.do_call(inst, "set_owner", [root])
	rec.undo_call(parent, "remove_child", [inst])
	rec.undo_call(parent, "add_child", [node])
	rec.undo_call(parent, "move_child", [node, idx])
	for pair: Array in owners:
		rec.undo_call(pair[0], "set_owner", [pair[1]])
	rec.commit(ACTION_PREFIX + "extract '%s' to %s" % [node_path, path.get_file()], root)
	result["instance"] = _rel(root, inst)
	return _router.ok(result)


# --- reading: get_tree, find_nodes, get_node ----------------------------------------------


## The scene to read: the edited one, or params.scene (read from its file unless it is the
## edited scene). {ok, root, scene, source, temp, unsaved_changes_ignored} or {ok: false, failure}.
## A temp root must be freed by the caller.
func _read_root(params: Dictionary) -> Dictionary:
	var sv: Variant = _str(params, "scene")
	if sv == null:
		return {"ok": false, "failure": _bad("scene must be a res:// path string.")}
	var edited: Node = EditorInterface.get_edited_scene_root()
	var scene: String = sv
	if scene == "" or (edited != null and scene == edited.scene_file_path):
		if edited == null:
			return {"ok": false, "failure": _no_scene()}
		return {"ok": true, "root": edited, "scene": edited.scene_file_path, "source": "editor", "temp": false, "unsaved_changes_ignored": false}
	var outside: Dictionary = _outside("scene", scene)
	if not outside.is_empty():
		return {"ok": false, "failure": outside}
	if not ResourceLoader.exists(scene):
		return {"ok": false, "failure": _scene_file_not_found(scene)}
	var packed: PackedScene = load(scene) as PackedScene
	if packed == null:
		return {"ok": false, "failure": _bad("'%s' is not a scene (PackedScene)." % scene)}
	var root: Node = packed.instantiate(PackedScene.GEN_EDIT_STATE_INSTANCE)
	if root == null:
		return {"ok": false, "failure": _router.fail("INTERNAL_ERROR", "The scene '%s' could not be instantiated (is it broken? open it to see the error)." % scene)}
	var dirty: bool = EditorInterface.get_open_scenes().has(scene) and _is_dirty(scene)
	return {"ok": true, "root": root, "scene": scene, "source": "file", "temp": true, "unsaved_changes_ignored": dirty}


func _release(ctx: Dictionary) -> void:
	if ctx.get("temp", false):
		var r: Node = ctx["root"]
		if is_instance_valid(r):
			r.free()


## A cursor tag that changes whenever the scene does.
func _tag(ctx: Dictionary) -> String:
	var root: Node = ctx["root"]
	if ctx["source"] == "file":
		return "f%d" % FileAccess.get_modified_time(str(ctx["scene"]))
	var mgr: EditorUndoRedoManager = EditorInterface.get_editor_undo_redo()
	var ur: UndoRedo = mgr.get_history_undo_redo(mgr.get_object_history_id(root))
	return "e%d.%d" % [root.get_instance_id(), ur.get_version() if ur != null else 0]


## Walks the tree under params.root in pre-order and lists the nodes that pass the filters,
## a page at a time. {ok, result} or a failure.
func _walk(params: Dictionary, default_limit: int, extra_filters: bool) -> Dictionary:
	var ctx: Dictionary = _read_root(params)
	if not ctx.get("ok", false):
		return ctx["failure"]
	var out: Dictionary = _walk_in(ctx, params, default_limit, extra_filters)
	_release(ctx)
	return out


func _walk_in(ctx: Dictionary, params: Dictionary, default_limit: int, extra_filters: bool) -> Dictionary:
	var root: Node = ctx["root"]
	var start_v: Variant = _str(params, "root", ".")
	if start_v == null:
		return _bad("root must be a string: the node to start from, relative to the scene root.")
	var start: Node = _resolve(root, start_v as String)
	if start == null:
		return _not_found(root, start_v as String)
	var max_depth: Variant = _int(params, "max_depth", -1)
	var limit: Variant = _int(params, "limit", default_limit)
	if max_depth == null or int(max_depth) < -1:
		return _bad("max_depth must be an integer >= 0 (omit it for the whole tree).")
	if limit == null or int(limit) < 1 or int(limit) > TREE_MAX_LIMIT:
		return _bad("limit must be an integer from 1 to %d." % TREE_MAX_LIMIT)
	var type_f: Variant = _str(params, "type")
	var name_f: Variant = _str(params, "name")
	var group_f: Variant = _str(params, "group")
	var script_f: Variant = _str(params, "script")
	var expand: Variant = _bool(params, "expand_instances", false)
	if type_f == null or name_f == null or group_f == null or script_f == null or expand == null:
		return _bad("type, name, group and script must be strings; expand_instances true or false.")
	if (type_f as String) != "" and not _type_known(type_f as String):
		var near: PackedStringArray = _similar_node_classes(type_f as String)
		return _bad("Unknown type '%s'%s. Give an engine class (\"Node2D\") or a script class_name." % [type_f, (" (did you mean %s?)" % ", ".join(near)) if not near.is_empty() else ""])
	var tag: String = _tag(ctx)
	var offset: int = 0
	var cv: Variant = _str(params, "cursor")
	if cv == null:
		return _bad("cursor must be the next_cursor string of the previous answer.")
	if (cv as String) != "":
		var parts: PackedStringArray = (cv as String).split(":")
		if parts.size() != 2 or not parts[0].is_valid_int() or int(parts[0]) < 0:
			return _bad("cursor '%s' is not a cursor this tool gave; pass next_cursor exactly, or omit it to start over." % cv)
		if parts[1] != tag:
			return _bad("The scene changed since that cursor was given, so the pages would not line up. Call again without cursor to start over.")
		offset = int(parts[0])
	var nodes: Array = []
	var total: int = 0
	var bytes: int = 0
	var truncated: bool = false
	var full: bool = false
	# Explicit stack of [node, path, depth] so 10,000-node scenes cost one pass, no recursion.
	var start_path: String = _rel(root, start)
	var stack: Array = [[start, start_path, 0]]
	while not stack.is_empty():
		var item: Array = stack.pop_back()
		var n: Node = item[0]
		var path: String = item[1]
		var depth: int = item[2]
		var children: Array[Node] = n.get_children()
		var descend: bool = (int(max_depth) < 0 or depth < int(max_depth))
		if descend and n != root and n.scene_file_path != "" and not expand and not root.is_editable_instance(n):
			descend = false
		if descend:
			for i: int in range(children.size() - 1, -1, -1):
				var c: Node = children[i]
				var cp: String = str(c.name) if path == "." else path + "/" + str(c.name)
				stack.append([c, cp, depth + 1])
		if (type_f as String) != "" and not _is_type(n, type_f as String):
			continue
		if (name_f as String) != "" and not str(n.name).matchn(name_f as String):
			continue
		if extra_filters:
			if (group_f as String) != "" and not n.is_in_group(group_f as String):
				continue
			if (script_f as String) != "":
				var s: Script = n.get_script() as Script
				if s == null or s.resource_path != script_f:
					continue
		total += 1
		if total <= offset or full:
			if full:
				truncated = true
			continue
		var entry: Dictionary = _tree_entry(root, n, path, depth, children.size())
		nodes.append(entry)
		bytes += path.length() + str(n.name).length() + str(entry.get("script", "")).length() + str(entry.get("instance", "")).length() + 96
		if nodes.size() >= int(limit) or bytes >= TREE_MAX_BYTES:
			full = true
	var result: Dictionary = {
		"scene": ctx["scene"], "source": ctx["source"], "root": start_path,
		"nodes": nodes, "total": total, "returned": nodes.size(), "truncated": truncated,
		"next_cursor": ("%d:%s" % [offset + nodes.size(), tag]) if truncated else "",
		"unsaved_changes_ignored": ctx["unsaved_changes_ignored"],
	}
	return _router.ok(result)


func _tree_entry(root: Node, n: Node, path: String, depth: int, child_count: int) -> Dictionary:
	var e: Dictionary = {"path": path, "name": str(n.name), "type": n.get_class(), "depth": depth, "children": child_count}
	var s: Script = n.get_script() as Script
	if s != null:
		e["script"] = s.resource_path
		if s.get_global_name() != &"":
			e["script_class"] = str(s.get_global_name())
	if n != root and n.scene_file_path != "":
		e["instance"] = n.scene_file_path
		if root.is_editable_instance(n):
			e["editable_children"] = true
	if n != root and n.owner != root and not _persist_info(root, n)["persisted"]:
		e["foreign"] = true
	return e


## {scene?, root?, max_depth?, type?, name?, expand_instances?, limit?, cursor?} ->
## {scene, source, root, nodes: [{path, name, type, depth, children, script?, script_class?,
## instance?, editable_children?, foreign?}], total, returned, truncated, next_cursor,
## unsaved_changes_ignored}
func cmd_get_tree(params: Dictionary) -> Dictionary:
	return _walk(params, 1000, false)


## Same answer as get_tree; also filters by group and script, default limit 200.
func cmd_find_nodes(params: Dictionary) -> Dictionary:
	return _walk(params, 200, true)


## {node, scene?, properties?} -> {scene, source, path, name, type, script, script_class,
## parent, owner, foreign, reason, instance, groups, children, connections,
## incoming_connections, properties, omitted_properties}
func cmd_get_node(params: Dictionary) -> Dictionary:
	var ctx: Dictionary = _read_root(params)
	if not ctx.get("ok", false):
		return ctx["failure"]
	var out: Dictionary = _get_node_in(ctx, params)
	_release(ctx)
	return out


func _get_node_in(ctx: Dictionary, params: Dictionary) -> Dictionary:
	var root: Node = ctx["root"]
	var nr: Dictionary = _node_param(root, params, "node")
	if not nr.get("ok", false):
		return nr["failure"]
	var n: Node = nr["node"]
	var wanted: Variant = _string_list(params, "properties")
	if wanted == null:
		return _bad("properties must be an array of property names.")
	var props: Dictionary = {}
	var omitted: PackedStringArray = []
	if (wanted as PackedStringArray).is_empty():
		for info: Dictionary in n.get_property_list():
			var usage: int = int(info.get("usage", 0))
			if usage & PROPERTY_USAGE_EDITOR == 0 or usage & (PROPERTY_USAGE_CATEGORY | PROPERTY_USAGE_GROUP | PROPERTY_USAGE_SUBGROUP) != 0:
				continue
			var pname: String = str(info["name"])
			if pname == "script":
				continue
			_put_property(props, omitted, pname, n.get(pname))
	else:
		for pname: String in wanted:
			if ValueCodec.property_info(n, pname).is_empty():
				return _bad(_unknown_property_hint(n, pname))
			_put_property(props, omitted, pname, n.get(pname))
	var outgoing: Array = []
	for s: Dictionary in n.get_signal_list():
		for c: Dictionary in n.get_signal_connection_list(str(s["name"])):
			if int(c["flags"]) & CONNECT_PERSIST == 0:
				continue
			var cb: Callable = c["callable"]
			var t: Object = cb.get_object()
			if t is Node and (t == root or root.is_ancestor_of(t as Node)):
				outgoing.append({"source": _rel(root, n), "signal": str(s["name"]), "target": _rel(root, t as Node), "method": str(cb.get_method()), "flags": int(c["flags"])})
	var incoming: Array = []
	for c2: Dictionary in n.get_incoming_connections():
		if int(c2["flags"]) & CONNECT_PERSIST == 0:
			continue
		var sg: Signal = c2["signal"]
		var src: Object = sg.get_object()
		if src is Node and (src == root or root.is_ancestor_of(src as Node)):
			incoming.append({"source": _rel(root, src as Node), "signal": str(sg.get_name()), "target": _rel(root, n), "method": str((c2["callable"] as Callable).get_method()), "flags": int(c2["flags"])})
	var children: PackedStringArray = []
	for c3: Node in n.get_children():
		children.append(str(c3.name))
	var instance: Variant = null
	if n != root and n.scene_file_path != "":
		instance = {"scene": n.scene_file_path, "editable_children": root.is_editable_instance(n)}
	var persist: Dictionary = _persist_info(root, n)
	var si: Dictionary = _script_info(n)
	return _router.ok({
		"scene": ctx["scene"], "source": ctx["source"],
		"path": _rel(root, n), "name": str(n.name), "type": n.get_class(),
		"script": si["script"], "script_class": si["script_class"],
		"parent": _rel(root, n.get_parent()) if n != root else "",
		"owner": (_rel(root, n.owner) if n.owner != null else "") if n != root else "",
		"foreign": not persist["persisted"], "reason": persist["reason"],
		"instance": instance, "groups": _groups(n), "children": children,
		"connections": outgoing, "incoming_connections": incoming,
		"properties": props, "omitted_properties": omitted,
		"unsaved_changes_ignored": ctx["unsaved_changes_ignored"],
	})


func _put_property(props: Dictionary, omitted: PackedStringArray, name: String, value: Variant) -> void:
	var enc: Variant = ValueCodec.encode(value)
	if typeof(enc) == TYPE_ARRAY or typeof(enc) == TYPE_DICTIONARY or typeof(enc) == TYPE_STRING:
		if JSON.stringify(enc).length() > PROPERTY_MAX_CHARS:
			omitted.append(name)
			return
	props[name] = enc


# --- scene files: list_open, open, create, save, close, reload ---------------------------------


static func _is_scene_path(path: String) -> bool:
	return path.begins_with("res://") and (path.ends_with(".tscn") or path.ends_with(".scn")) and path.get_file().get_basename() != ""


func _scene_file_not_found(path: String) -> Dictionary:
	var hint: String = "No scene file at '%s'." % path
	var best: String = ""
	var best_score: float = 0.0
	var all: PackedStringArray = []
	_collect_scenes(EditorInterface.get_resource_filesystem().get_filesystem(), all)
	var want: String = path.get_file().to_lower()
	for f: String in all:
		var s: float = want.similarity(f.get_file().to_lower())
		if s > best_score:
			best_score = s
			best = f
	if best_score >= 0.4:
		hint += " Did you mean '%s'?" % best
	elif not all.is_empty():
		hint += " Scenes in the project: %s." % _short_list(all, 10)
	hint += " godot_resources_list {type: \"PackedScene\"} lists scene files; godot_scene_create makes a new one."
	return _router.fail("RESOURCE_NOT_FOUND", hint)


## The scenes the editor knows under [param dir] (links that lead out of the project skipped).
static func _collect_scenes(dir: EditorFileSystemDirectory, out: PackedStringArray, walk: Dictionary = {}) -> void:
	var w: Dictionary = walk if not walk.is_empty() else PathGuard.walk_new()
	if dir == null or out.size() > 2000 or not PathGuard.walk_folder_inside(w, dir.get_path()):
		return
	for i: int in range(dir.get_file_count()):
		if dir.get_file_type(i) == &"PackedScene" and PathGuard.walk_file_inside(w, dir.get_file_path(i)):
			out.append(dir.get_file_path(i))
	for j: int in range(dir.get_subdir_count()):
		_collect_scenes(dir.get_subdir(j), out, w)


## The scene tab bar's tabs [{title, dirty}]; Godot 4.4 shows unsaved scenes as "name(*)".
func _scene_tab_list() -> Array:
	var out: Array = []
	_find_tabs()
	if _tab_bar == null:
		return out
	for i: int in range(_tab_bar.tab_count):
		var title: String = _tab_bar.get_tab_title(i)
		out.append({"title": title.trim_suffix("(*)"), "dirty": title.ends_with("(*)")})
	return out


func _find_tabs() -> void:
	if is_instance_valid(_tab_bar) and is_instance_valid(_scene_tabs):
		return
	_tab_bar = null
	_scene_tabs = null
	var base: Control = EditorInterface.get_base_control()
	for holder: Node in base.find_children("*", "EditorSceneTabs", true, false):
		var bars: Array[Node] = holder.find_children("*", "TabBar", true, false)
		if not bars.is_empty():
			_scene_tabs = holder
			_tab_bar = bars[0] as TabBar
			return


## Open scenes in tab order: [{path, dirty, active, tab}].
func _open_scenes() -> Array:
	var root: Node = EditorInterface.get_edited_scene_root()
	var paths: PackedStringArray = EditorInterface.get_open_scenes()
	var tabs: Array = _scene_tab_list()
	var aligned: bool = tabs.size() == paths.size()
	var current: int = _tab_bar.current_tab if _tab_bar != null else -1
	var out: Array = []
	for i: int in range(paths.size()):
		var path: String = paths[i]
		var tab: int = i if aligned else _tab_for_path(tabs, path)
		var dirty: bool = tab >= 0 and bool((tabs[tab] as Dictionary)["dirty"])
		var active: bool = false
		if root != null:
			active = (path == root.scene_file_path) if path != "" else (aligned and tab == current)
		out.append({"path": path, "dirty": dirty, "active": active, "tab": tab})
	return out


static func _tab_for_path(tabs: Array, path: String) -> int:
	if path == "":
		return -1
	var file: String = path.get_file()
	var base: String = file.get_basename()
	var found: int = -1
	for i: int in range(tabs.size()):
		var title: String = str((tabs[i] as Dictionary)["title"])
		if title == file or title == base or title.ends_with("/" + file) or title.ends_with("/" + base):
			if found >= 0:
				return -1
			found = i
	return found


func _is_dirty(path: String) -> bool:
	for s: Dictionary in _open_scenes():
		if s["path"] == path:
			return s["dirty"]
	return false


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
	var dry: Variant = _bool(params, "dry_run", false)
	if dry == null:
		return _bad("dry_run must be true or false.")
	var pv: Variant = _str(params, "path")
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
	var already: bool = EditorInterface.get_open_scenes().has(path)
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
	var dry: Variant = _bool(params, "dry_run", false)
	var open: Variant = _bool(params, "open", true)
	if dry == null or open == null:
		return _bad("dry_run and open must be true or false.")
	var pv: Variant = _str(params, "path")
	if pv == null or not _is_scene_path(pv as String):
		return _bad("path is required: the res:// path of the new scene file, ending in .tscn or .scn (e.g. \"res://levels/level_1.tscn\").")
	var path: String = pv
	var outside: Dictionary = _outside("path", path)
	if not outside.is_empty():
		return outside
	if FileAccess.file_exists(path) or ResourceLoader.exists(path):
		return _bad("'%s' already exists; godot_scene_create never overwrites a file. Open it with godot_scene_open, or choose another path." % path)
	var tv: Variant = _str(params, "root_type", "Node")
	if tv == null:
		return _bad("root_type must be a string, e.g. \"Node2D\".")
	var tinfo: Dictionary = _node_type(tv as String)
	if not tinfo.get("ok", false):
		return tinfo["failure"]
	var nv: Variant = _str(params, "root_name")
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
			if EditorInterface.get_open_scenes().has(prev_path):
				EditorInterface.open_scene_from_path(prev_path)
		return
	if prev_tab >= 0 and _find_tab_ok() and prev_tab < _tab_bar.tab_count and _tab_bar.current_tab != prev_tab:
		_tab_bar.current_tab = prev_tab


## Which open scene a save/close/reload acts on: {ok, root, path, is_active} or {ok: false, failure}.
func _target_scene(params: Dictionary) -> Dictionary:
	var edited: Node = EditorInterface.get_edited_scene_root()
	if edited == null:
		return {"ok": false, "failure": _no_scene()}
	var sv: Variant = _str(params, "scene")
	if sv == null:
		return {"ok": false, "failure": _bad("scene must be a res:// path string (omit it for the edited scene).")}
	var scene: String = sv
	if scene == "" or scene == edited.scene_file_path:
		return {"ok": true, "path": edited.scene_file_path, "is_active": true}
	if not EditorInterface.get_open_scenes().has(scene):
		var open: PackedStringArray = []
		for s: String in EditorInterface.get_open_scenes():
			open.append(s if s != "" else "(unsaved)")
		return {"ok": false, "failure": _router.fail("RESOURCE_NOT_FOUND", "'%s' is not open in the editor. Open scenes: %s. Open it with godot_scene_open first." % [scene, _short_list(open)])}
	return {"ok": true, "path": scene, "is_active": false}


## {scene?, path?, overwrite?, dry_run?} -> {path, previous_path, saved, was_dirty,
## overwrote_newer, persisted, undoable, dry_run}
func cmd_save(params: Dictionary) -> Dictionary:
	var dry: Variant = _bool(params, "dry_run", false)
	var overwrite: Variant = _bool(params, "overwrite", false)
	if dry == null or overwrite == null:
		return _bad("dry_run and overwrite must be true or false.")
	var t: Dictionary = _target_scene(params)
	if not t.get("ok", false):
		return t["failure"]
	var current: String = t["path"]
	var av: Variant = _str(params, "path")
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
		if EditorInterface.get_open_scenes().has(target):
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


## {scene?, dry_run?} -> {path, closed, discarded_changes, active, undoable, dry_run}
func cmd_close(params: Dictionary) -> Dictionary:
	var dry: Variant = _bool(params, "dry_run", false)
	if dry == null:
		return _bad("dry_run must be true or false.")
	var t: Dictionary = _target_scene(params)
	if not t.get("ok", false):
		return t["failure"]
	var path: String = t["path"]
	var dirty: bool = _is_dirty(path) if path != "" else true
	if dry:
		return _router.ok({"path": path, "closed": false, "discarded_changes": dirty, "active": _active_path(), "undoable": false, "dry_run": true})
	var before: int = EditorInterface.get_open_scenes().size()
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
	var item: Dictionary = _editor_menu_item("Close Scene")
	if not item.is_empty():
		(item["menu"] as PopupMenu).id_pressed.emit(int(item["id"]))
	else:
		var idx: int = EditorInterface.get_open_scenes().find(path)
		if not _find_tab_ok() or _scene_tabs == null or idx < 0 or _tab_bar.tab_count != EditorInterface.get_open_scenes().size():
			return _router.fail("INTERNAL_ERROR", "The editor's Close Scene command was not found, so the scene could not be closed.")
		_scene_tabs.emit_signal("tab_closed", idx)
	_discard_save_prompt()
	var closed: bool = EditorInterface.get_open_scenes().size() < before or not EditorInterface.get_open_scenes().has(path)
	if not closed:
		return _router.fail("INTERNAL_ERROR", "The editor did not close '%s'." % path)
	_disk.erase(path)
	await _next_frame()
	if prev_path != "" and prev_path != path:
		_switch_back(-1, prev_path)
		await _next_frame()
	return _router.ok({"path": path, "closed": true, "discarded_changes": dirty, "active": _active_path(), "undoable": false, "dry_run": false})


## Finds the editor's own menu item with this (untranslated) text among the menus
## EditorNode listens to: {menu, id}, or {} when there is none.
func _editor_menu_item(text: String) -> Dictionary:
	var cached: Dictionary = _menu_cache.get(text, {})
	if not cached.is_empty() and is_instance_valid(cached["menu"]):
		return cached
	var base: Control = EditorInterface.get_base_control()
	for n: Node in base.find_children("*", "PopupMenu", true, false):
		var menu: PopupMenu = n as PopupMenu
		var from_editor_node: bool = false
		for c: Dictionary in menu.get_signal_connection_list("id_pressed"):
			var target: Object = (c["callable"] as Callable).get_object()
			if target != null and target.get_class() == "EditorNode":
				from_editor_node = true
				break
		if not from_editor_node:
			continue
		for i: int in range(menu.item_count):
			if menu.get_item_text(i) == text:
				_menu_cache[text] = {"menu": menu, "id": menu.get_item_id(i)}
				return _menu_cache[text]
	return {}


## Makes the open scene [param path] the edited one and waits until the editor has
## settled on it (its own deferred tab updates run on the following frames).
func _switch_settled(path: String) -> void:
	for attempt: int in range(5):
		if _active_path() != path:
			EditorInterface.open_scene_from_path(path)
		await _next_frame()
		if _active_path() == path:
			await _next_frame()
			if _active_path() == path:
				return


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
	var dry: Variant = _bool(params, "dry_run", false)
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
	if not EditorInterface.get_open_scenes().has(path):
		return _router.fail("INTERNAL_ERROR", "The editor did not reload '%s' (see its Output panel)." % path)
	_remember_disk(path, true)
	return _router.ok({"path": path, "reloaded": true, "discarded_changes": dirty, "undoable": false, "dry_run": false})
