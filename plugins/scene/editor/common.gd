@tool
extends RefCounted
## What the scene toolset's command families share (each extends this script): the
## router, the per-call caches, and the scene-specific checks (node types, property
## decoding, persistence, names, scene files, the scene tabs). Generic helpers come
## from the core addon's lib/ (parameters, node resolution, the undo recorder, the
## codec), as any extension's would.

const CommandRouter := preload("res://addons/godot_mcp/command_router.gd")
const PathGuard := preload("res://addons/godot_mcp/path_guard.gd")
const Params := preload("res://addons/godot_mcp/lib/params.gd")
const Nodes := preload("res://addons/godot_mcp/lib/nodes.gd")
const EditorMenu := preload("res://addons/godot_mcp/lib/editor_menu.gd")
const Recorder := preload("res://addons/godot_mcp/lib/undo.gd")
const Codec := preload("res://addons/godot_mcp/lib/codec.gd")
const SubPath := preload("res://addons/godot_mcp/lib/subpath.gd")
const Names := preload("res://addons/godot_mcp/lib/names.gd")
const Files := preload("res://addons/godot_mcp/lib/files.gd")
const Compat := preload("res://addons/godot_mcp/lib/compat.gd")

const ACTION_PREFIX := "godot-mcp: "
## get_tree / find_nodes: the most nodes one answer lists, and a byte budget.
const TREE_MAX_LIMIT := 5000
const TREE_MAX_BYTES := 2000000
## How long a shared-resource check looks for other files using a resource file.
const FILE_USERS_BUDGET_MS := 1000
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
	"set_editable_children",
]
const DUPLICATE_FLAGS := 15 # DUPLICATE_SIGNALS | GROUPS | SCRIPTS | USE_INSTANTIATION

var _router: CommandRouter = null
var _tab_bar: TabBar = null
var _scene_tabs: Node = null
## Shared by every family of one handlers.gd (set by init_family).
var _prop_lists: Dictionary = {} # class|script -> {property: info}, for one call
var _type_cache: Dictionary = {} # type name -> _node_type() answer, for one call
var _ctx: Dictionary = {} # {dry_run} of the batch being run


## Wires this family to the router and to the caches all families share.
func init_family(router: CommandRouter, shared: Dictionary) -> void:
	_router = router
	_prop_lists = shared["prop_lists"]
	_type_cache = shared["type_cache"]
	_ctx = shared["ctx"]


func _no_scene() -> Dictionary:
	return _router.fail("PRECONDITION_FAILED", "No scene is open in the editor. Open one with godot_scene_open {path} or create one with godot_scene_create {path, root_type}.", "active_scene")


func _bad(hint: String) -> Dictionary:
	return _router.fail("VALIDATION_ERROR", hint)


## A VALIDATION_ERROR when the res:// [param path] (argument [param arg]) is not inside the
## project on the real filesystem (a symbolic link leading out: path_guard.gd), else {}.
func _outside(arg: String, path: String) -> Dictionary:
	var why: String = PathGuard.problem(path)
	return {} if why == "" else _bad("%s: %s." % [arg, why])


# --- scene-specific checks ---------------------------------------------------------------


## Whether changes to [param n] are saved with the scene: {persisted, reason} (lib/nodes.gd).
static func _persist_info(root: Node, n: Node) -> Dictionary:
	return Nodes.persist_info(root, n)


## Refusal for structural edits (rename, move, delete, duplicate) of a node that is not
## the scene's own (it belongs to an instanced scene).
func _foreign_refusal(root: Node, n: Node, verb: String) -> Dictionary:
	if n == root or n.owner == root:
		return {}
	var o: Node = n.owner
	if o == null:
		return _bad("'%s' has no owner: it is not part of the saved scene, so it cannot be %s here." % [Nodes.rel(root, n), verb])
	return _bad("'%s' belongs to the instanced scene '%s' (the instance '%s') and cannot be %s in this scene. Open '%s' and change it there, or act on the instance '%s' itself." % [Nodes.rel(root, n), o.scene_file_path, Nodes.rel(root, o), verb, o.scene_file_path, Nodes.rel(root, o)])


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
	var scr: Script = Codec.global_script(t)
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
	return ClassDB.class_exists(t) or Codec.global_script(t) != null


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
		var d: Dictionary = Codec.decode(props[k], int(info.get("type", TYPE_NIL)), int(info.get("hint", PROPERTY_HINT_NONE)), str(info.get("hint_string", "")), node)
		if not d.get("ok", false):
			return {"ok": false, "failure": _bad("%s ('%s', %s): %s" % [prop, Nodes.rel(root, node), node.get_class(), str(d.get("hint", "the value does not fit"))])}
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
	return Codec.property_info(node, prop)


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


static func _groups(n: Node) -> PackedStringArray:
	var out: PackedStringArray = []
	for g: StringName in n.get_groups():
		if not str(g).begins_with("_"):
			out.append(str(g))
	return out


# --- scene files and tabs --------------------------------------------------------------


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
		hint += " Scenes in the project: %s." % Nodes.short_list(all, 10)
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
	var paths: PackedStringArray = Compat.open_scenes()
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


# --- sub-resources ----------------------------------------------------------------------


## Who else a change to the last resource of [param chain] (reached from [param node]
## through [param prefixes]) affects: {kind: scene|file|foreign, file, owner, others:
## ["Node:property", …] other places of the scene using a resource of the chain, why: ""
## when nobody else}. [param refs] is SubPath.references() over the chain.
func _sharing(root: Node, node: Node, chain: Array, prefixes: PackedStringArray, refs: Dictionary) -> Dictionary:
	var me: String = Nodes.rel(root, node)
	var others: PackedStringArray = []
	for i: int in range(chain.size()):
		var expected: String = "%s:%s" % [me, prefixes[i]]
		for at: String in refs.get((chain[i] as Object).get_instance_id(), []):
			if at != expected and not others.has(at) and not _under_any(at, others):
				others.append(at)
	var st: Dictionary = SubPath.storage(chain, root.scene_file_path)
	var file: String = str(st.get("file", "")) if st["kind"] == "file" else ""
	var why: PackedStringArray = []
	if not others.is_empty():
		why.append("is also used by %s" % Nodes.short_list(others, 8))
	if file != "":
		var users: Dictionary = _file_users(file, root.scene_file_path)
		for f: String in users["files"]:
			others.append(f)
		var used: String = "used by %s" % Nodes.short_list(users["files"], 8) if not (users["files"] as PackedStringArray).is_empty() else "used by no other file"
		if not users["complete"]:
			used += " as far as a %d ms search found" % FILE_USERS_BUDGET_MS
		why.append("is saved in its own file '%s' (%s; the change is saved to that file at once)" % [file, used])
	return {"kind": st["kind"], "file": file if st["kind"] == "file" else str(st.get("file", "")), "owner": st.get("owner"), "others": others, "why": " and ".join(why)}


## Whether [param at] ("Ball2:mesh:material") lies inside one of [param paths] ("Ball2:mesh").
static func _under_any(at: String, paths: PackedStringArray) -> bool:
	for p: String in paths:
		if at.begins_with(p + ":"):
			return true
	return false


## The scene and resource files other than [param file] and [param scene_file] that load
## [param file]: {files, complete} (complete false when the search ran out of time).
static func _file_users(file: String, scene_file: String) -> Dictionary:
	var out: PackedStringArray = []
	var started: int = Time.get_ticks_msec()
	var quoted: String = "\"%s\"" % file
	for f: Dictionary in Files.files_under("res://", true):
		var p: String = f["path"]
		if p == file or p == scene_file:
			continue
		var ext: String = p.get_extension().to_lower()
		var uses: bool = false
		if ext == "tscn" or ext == "tres":
			uses = FileAccess.get_file_as_string(p).contains(quoted)
		elif ext == "scn" or ext == "res":
			for dep: String in ResourceLoader.get_dependencies(p):
				uses = uses or Files.dependency_path(dep) == file
		if uses:
			out.append(p)
		if Time.get_ticks_msec() - started > FILE_USERS_BUDGET_MS:
			return {"files": out, "complete": false}
	return {"files": out, "complete": true}
