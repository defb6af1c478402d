@tool
extends RefCounted
## Core editor commands (always available, whatever toolsets are enabled):
## cmd_get_editor_state, cmd_undo, cmd_redo, cmd_describe_class, cmd_value_roundtrip,
## cmd_filesystem_sync, cmd_check_preconditions (which the server sends itself), and
## cmd_game_message (a toolset's game message, lib/game_messages.gd; runtime, sent only
## for a toolset's runtime tool). The read_only ones but cmd_value_roundtrip are the public core
## commands every toolset may send (docs/contract.md).
## Every handler validates its params first and returns fail() early.

const ValueCodec := preload("../value_codec.gd")
const CommandRouter := preload("../command_router.gd")
const Files := preload("../lib/files.gd")
const Compat := preload("../lib/compat.gd")
const Params := preload("../lib/params.gd")
const EditorMenu := preload("../lib/editor_menu.gd")
const GameMessages := preload("../lib/game_messages.gd")

const MAX_UNDO_COUNT := 1000

var _router: CommandRouter = null
var _tab_bar: TabBar = null


func setup(router: CommandRouter) -> void:
	_router = router


func get_commands() -> Dictionary:
	return {
		"cmd_get_editor_state": {"class": "read_only", "run": get_editor_state},
		"cmd_undo": {"class": "mutating", "dry_run": true, "run": undo},
		"cmd_redo": {"class": "mutating", "dry_run": true, "run": redo},
		"cmd_describe_class": {"class": "read_only", "run": describe_class},
		"cmd_value_roundtrip": {"class": "read_only", "run": value_roundtrip},
		"cmd_filesystem_sync": {"class": "read_only", "run": filesystem_sync},
		"cmd_check_preconditions": {"class": "read_only", "run": check_preconditions},
		"cmd_game_message": {"class": "runtime", "run": game_message},
	}


## {toolset, message, params?, timeout_ms?} -> the toolset's game code's answer
## (lib/game_messages.gd). The server sends it for a toolset's runtime tool only.
func game_message(params: Dictionary) -> Dictionary:
	return await GameMessages.relay(_router, params)


# --- cmd_get_editor_state ---------------------------------------------------------------


## {} -> {project_dir, project_name, godot_version, addon_version, godot_executable, viewport_size,
## open_scenes, active_scene, selection, playing, playing_scene, scanning, scan_progress, undo, dirty_known}
func get_editor_state(_params: Dictionary) -> Dictionary:
	var root: Node = EditorInterface.get_edited_scene_root()
	var tabs: Array[Dictionary] = _scene_tabs()
	var current_tab: int = _tab_bar.current_tab if is_instance_valid(_tab_bar) else -1
	var open_paths: PackedStringArray = Compat.open_scenes()
	var active_path: String = root.scene_file_path if root != null else ""
	# Tabs and open scenes line up one to one unless an empty tab exists.
	var aligned: bool = tabs.size() == open_paths.size()
	var open_scenes: Array = []
	var active_dirty: bool = false
	var dirty_known: bool = not tabs.is_empty()
	for i: int in range(open_paths.size()):
		var path: String = open_paths[i]
		var tab: int = i if aligned else _tab_for_path(tabs, path)
		var dirty: bool = tab >= 0 and bool(tabs[tab]["dirty"])
		var active: bool = root != null and (tab == current_tab if (aligned and current_tab >= 0) else path == active_path)
		if active:
			active_dirty = dirty
		open_scenes.append({"path": path, "dirty": dirty, "active": active})
	var active_scene: Variant = null
	if root != null:
		active_scene = {
			"path": active_path,
			"root_name": str(root.name),
			"root_type": root.get_class(),
			"dirty": active_dirty,
		}
	var selection: PackedStringArray = []
	if root != null:
		for n: Node in EditorInterface.get_selection().get_selected_nodes():
			if is_instance_valid(n) and (n == root or root.is_ancestor_of(n)):
				selection.append(str(root.get_path_to(n)))
	var efs: EditorFileSystem = EditorInterface.get_resource_filesystem()
	var scanning: bool = efs.is_scanning()
	var project_dir: String = ProjectSettings.globalize_path("res://")
	if project_dir.length() > 1 and project_dir.ends_with("/"):
		project_dir = project_dir.substr(0, project_dir.length() - 1)
	var h: Dictionary = _history("auto")
	var undo_info: Dictionary = {"has_undo": false, "has_redo": false, "undo_action": "", "redo_action": "", "history": str(h.get("name", "global"))}
	if h.get("ok", false):
		undo_info.merge(_history_info(h["undo_redo"] as UndoRedo), true)
	return _router.ok({
		"project_dir": project_dir,
		"project_name": str(ProjectSettings.get_setting("application/config/name", "")),
		"godot_version": str(Engine.get_version_info().get("string", "")),
		"addon_version": _router.addon_version,
		"godot_executable": OS.get_executable_path(),
		"viewport_size": {
			"width": int(ProjectSettings.get_setting("display/window/size/viewport_width", 1152)),
			"height": int(ProjectSettings.get_setting("display/window/size/viewport_height", 648)),
		},
		"open_scenes": open_scenes,
		"active_scene": active_scene,
		"selection": selection,
		"playing": EditorInterface.is_playing_scene(),
		"playing_scene": EditorInterface.get_playing_scene(),
		"scanning": scanning,
		"scan_progress": efs.get_scanning_progress() if scanning else 1.0,
		"undo": undo_info,
		"dirty_known": dirty_known,
	})


## The scene tab bar's tabs: [{title, dirty}]. Godot 4.4 exposes no per-scene
## "unsaved" flag to scripts; the scene tabs mark unsaved scenes with "(*)", so
## that is what is read. [] when the tab bar cannot be found.
func _scene_tabs() -> Array[Dictionary]:
	var out: Array[Dictionary] = []
	if not is_instance_valid(_tab_bar):
		_tab_bar = null
		var base: Control = EditorInterface.get_base_control()
		for holder: Node in base.find_children("*", "EditorSceneTabs", true, false):
			var bars: Array[Node] = holder.find_children("*", "TabBar", true, false)
			if not bars.is_empty():
				_tab_bar = bars[0] as TabBar
				break
	if _tab_bar == null:
		return out
	for i: int in range(_tab_bar.tab_count):
		var title: String = _tab_bar.get_tab_title(i)
		var dirty: bool = title.ends_with("(*)")
		out.append({"title": title.trim_suffix("(*)"), "dirty": dirty})
	return out


func _tab_for_path(tabs: Array[Dictionary], path: String) -> int:
	if path == "":
		return -1
	var file: String = path.get_file()
	var base: String = file.get_basename()
	var match_index: int = -1
	for i: int in range(tabs.size()):
		var title: String = str(tabs[i]["title"])
		if title == file or title == base or title.ends_with("/" + file) or title.ends_with("/" + base):
			if match_index >= 0:
				return -1 # ambiguous
			match_index = i
	return match_index


# --- cmd_undo / cmd_redo --------------------------------------------------------------


## {count?: int >= 1, dry_run?: bool, history?: "auto"|"scene"|"global"} ->
## {requested, performed, actions, dry_run, has_undo, has_redo, history}
func undo(params: Dictionary) -> Dictionary:
	return _step(params, true)


func redo(params: Dictionary) -> Dictionary:
	return _step(params, false)


func _step(params: Dictionary, undoing: bool) -> Dictionary:
	var verb: String = "undo" if undoing else "redo"
	var count: Variant = Params.integer(params, "count", 1)
	if count == null or int(count) < 1 or int(count) > MAX_UNDO_COUNT:
		return _router.fail("VALIDATION_ERROR", "count must be an integer from 1 to %d (how many actions to %s)." % [MAX_UNDO_COUNT, verb])
	var dry_run: Variant = params.get("dry_run", false)
	if typeof(dry_run) != TYPE_BOOL:
		return _router.fail("VALIDATION_ERROR", "dry_run must be true or false.")
	var which: Variant = params.get("history", "auto")
	if typeof(which) != TYPE_STRING or not ["auto", "scene", "global"].has(which):
		return _router.fail("VALIDATION_ERROR", "history must be \"auto\" (the active scene's history, else the global one), \"scene\" or \"global\".")
	var h: Dictionary = _history(which as String)
	if not h.get("ok", false):
		return h["failure"]
	var ur: UndoRedo = h["undo_redo"]
	var history_name: String = h["name"]
	var mgr: EditorUndoRedoManager = EditorInterface.get_editor_undo_redo()
	if mgr.is_committing_action() or ur.is_committing_action():
		return _router.fail("PRECONDITION_FAILED", "The editor is in the middle of an action; retry in a moment.")
	var available: bool = ur.has_undo() if undoing else ur.has_redo()
	if not available:
		var where: String = "the %s history" % history_name
		if history_name == "scene":
			where = "the history of the scene '%s'" % str(h.get("scene", ""))
		var other: String = ""
		if which == "auto" and history_name == "scene":
			var g: Dictionary = _history("global")
			if g.get("ok", false) and ((g["undo_redo"] as UndoRedo).has_undo() if undoing else (g["undo_redo"] as UndoRedo).has_redo()):
				other = " The global history has something to %s: pass history: \"global\"." % verb
		return _router.fail("PRECONDITION_FAILED", "Nothing to %s in %s.%s" % [verb, where, other])
	var n: int = int(count)
	var actions: PackedStringArray = []
	if dry_run:
		var idx: int = ur.get_current_action()
		for i: int in range(n):
			var j: int = idx - i if undoing else idx + 1 + i
			if j < 0 or j >= ur.get_history_count():
				break
			actions.append(ur.get_action_name(j))
	else:
		for i: int in range(n):
			if not (ur.has_undo() if undoing else ur.has_redo()):
				break
			var action_name: String = ur.get_current_action_name() if undoing else ur.get_action_name(ur.get_current_action() + 1)
			var before: int = ur.get_version()
			# The editor's menu may not know of a step this history took
			# directly (an undo made while another history had entries of its
			# own): then it does nothing, and the history is stepped directly.
			if not _step_through_editor(undoing, history_name) or ur.get_version() == before:
				if undoing:
					ur.undo()
				else:
					ur.redo()
			if ur.get_version() == before:
				break
			actions.append(action_name)
		if actions.is_empty():
			return _router.fail("PRECONDITION_FAILED", "The editor did not %s (a mouse button may be held down in the editor). Retry in a moment." % verb)
	return _router.ok({
		"requested": n,
		"performed": 0 if dry_run else actions.size(),
		"actions": actions,
		"dry_run": dry_run,
		"has_undo": ur.has_undo(),
		"has_redo": ur.has_redo(),
		"history": history_name,
	})


## The history cmd_undo acts on: {ok, id, undo_redo, name: "scene"|"global", scene} or
## {ok: false, failure}.
func _history(which: String) -> Dictionary:
	var mgr: EditorUndoRedoManager = EditorInterface.get_editor_undo_redo()
	var root: Node = EditorInterface.get_edited_scene_root()
	var use_scene: bool = which == "scene" or (which == "auto" and root != null)
	if use_scene:
		if root == null:
			return {"ok": false, "name": "scene", "failure": _router.fail("PRECONDITION_FAILED", "No scene is open, so there is no scene history. Open a scene, or pass history: \"global\".", "active_scene")}
		var id: int = mgr.get_object_history_id(root)
		var ur: UndoRedo = mgr.get_history_undo_redo(id)
		if ur == null:
			return {"ok": false, "name": "scene", "failure": _router.fail("PRECONDITION_FAILED", "The active scene has no undo history yet.")}
		var label: String = root.scene_file_path if root.scene_file_path != "" else str(root.name)
		return {"ok": true, "id": id, "undo_redo": ur, "name": "scene", "scene": label}
	var gur: UndoRedo = mgr.get_history_undo_redo(EditorUndoRedoManager.GLOBAL_HISTORY)
	if gur == null:
		return {"ok": false, "name": "global", "failure": _router.fail("PRECONDITION_FAILED", "The editor has no global undo history yet.")}
	return {"ok": true, "id": EditorUndoRedoManager.GLOBAL_HISTORY, "undo_redo": gur, "name": "global", "scene": ""}


func _history_info(ur: UndoRedo) -> Dictionary:
	var cur: int = ur.get_current_action()
	return {
		"has_undo": ur.has_undo(),
		"has_redo": ur.has_redo(),
		"undo_action": ur.get_action_name(cur) if ur.has_undo() else "",
		"redo_action": ur.get_action_name(cur + 1) if ur.has_redo() else "",
	}


## Undoes/redoes through the editor's own Scene > Undo/Redo menu item when that
## provably acts on the same history, so the editor's bookkeeping (which history
## Ctrl+Z picks next, the redo list) stays exactly as if the user had done it.
## Scripts cannot call EditorUndoRedoManager.undo(); calling the history's UndoRedo
## directly works but leaves that bookkeeping one step behind. Returns false when
## the caller must fall back to the history's UndoRedo.
func _step_through_editor(undoing: bool, history_name: String) -> bool:
	if EditorInterface.is_playing_scene():
		return false # the remote (running game) history may be the one the editor picks
	var other: Dictionary = _history("global" if history_name == "scene" else "scene")
	if other.get("ok", false):
		var our: UndoRedo = other["undo_redo"]
		if (our.has_undo() if undoing else our.has_redo()):
			return false
	return EditorMenu.press("Undo" if undoing else "Redo", true)


# --- cmd_describe_class -------------------------------------------------------------


## {class_name, filter?, include_inherited?} -> {class_name, inherits, instantiable,
## properties, methods, signals, constants, enums}
func describe_class(params: Dictionary) -> Dictionary:
	var cls_v: Variant = params.get("class_name")
	if typeof(cls_v) != TYPE_STRING or (cls_v as String).strip_edges() == "":
		return _router.fail("VALIDATION_ERROR", "class_name is required: an engine class (\"Node2D\") or a script's class_name.")
	var cls: String = (cls_v as String).strip_edges()
	var filter_v: Variant = params.get("filter", "")
	if filter_v == null:
		filter_v = ""
	if typeof(filter_v) != TYPE_STRING:
		return _router.fail("VALIDATION_ERROR", "filter must be a string (a case-insensitive part of member names).")
	var inherited_v: Variant = params.get("include_inherited", false)
	if typeof(inherited_v) != TYPE_BOOL:
		return _router.fail("VALIDATION_ERROR", "include_inherited must be true or false.")
	var filter: String = (filter_v as String).to_lower()
	var inherited: bool = inherited_v
	if ClassDB.class_exists(cls):
		return _router.ok(_describe_native(cls, filter, inherited))
	var scr: Script = ValueCodec._global_script(cls)
	if scr != null:
		return _router.ok(_describe_script(cls, scr, filter, inherited))
	var hint: String = "No class named '%s'." % cls
	var near: PackedStringArray = _similar_classes(cls)
	if not near.is_empty():
		hint += " Did you mean %s?" % ", ".join(near)
	return _router.fail("RESOURCE_NOT_FOUND", hint)


func _describe_native(cls: String, filter: String, inherited: bool) -> Dictionary:
	var own: bool = not inherited
	var properties: Array = []
	for p: Dictionary in ClassDB.class_get_property_list(cls, own):
		if _is_grouping(p) or not _matches(str(p["name"]), filter):
			continue
		properties.append(_property_entry(p, ClassDB.class_get_property_default_value(cls, str(p["name"]))))
	var methods: Array = []
	for m: Dictionary in ClassDB.class_get_method_list(cls, own):
		if _matches(str(m["name"]), filter):
			methods.append(_method_entry(m))
	var signals: Array = []
	for s: Dictionary in ClassDB.class_get_signal_list(cls, own):
		if _matches(str(s["name"]), filter):
			signals.append({"name": str(s["name"]), "args": _args(s.get("args", []), [])})
	var constants: Array = []
	for c: String in ClassDB.class_get_integer_constant_list(cls, own):
		if _matches(c, filter):
			var entry: Dictionary = {"name": c, "value": ClassDB.class_get_integer_constant(cls, c)}
			var in_enum: String = str(ClassDB.class_get_integer_constant_enum(cls, c, own))
			if in_enum != "":
				entry["enum"] = in_enum
			constants.append(entry)
	var enums: Array = []
	for e: String in ClassDB.class_get_enum_list(cls, own):
		var names: PackedStringArray = ClassDB.class_get_enum_constants(cls, e, own)
		var keep: bool = _matches(e, filter)
		var values: Dictionary = {}
		for k: String in names:
			values[k] = ClassDB.class_get_integer_constant(cls, k)
			keep = keep or _matches(k, filter)
		if keep:
			enums.append({"name": e, "values": values, "is_bitfield": ClassDB.is_class_enum_bitfield(cls, e, own)})
	return {
		"class_name": cls,
		"inherits": _native_chain(ClassDB.get_parent_class(cls)),
		"instantiable": ClassDB.can_instantiate(cls),
		"is_script_class": false,
		"properties": properties,
		"methods": methods,
		"signals": signals,
		"constants": constants,
		"enums": enums,
	}


func _describe_script(cls: String, scr: Script, filter: String, inherited: bool) -> Dictionary:
	var inherits: PackedStringArray = []
	var base: Script = scr.get_base_script()
	while base != null:
		inherits.append(str(base.get_global_name()) if base.get_global_name() != &"" else base.resource_path)
		base = base.get_base_script()
	var native: String = str(scr.get_instance_base_type())
	inherits.append(native)
	inherits.append_array(_native_chain(ClassDB.get_parent_class(native)))
	var properties: Array = []
	for p: Dictionary in scr.get_script_property_list():
		if _is_grouping(p) or not _matches(str(p["name"]), filter):
			continue
		properties.append(_property_entry(p, scr.get_property_default_value(StringName(str(p["name"])))))
	var methods: Array = []
	for m: Dictionary in scr.get_script_method_list():
		if _matches(str(m["name"]), filter):
			methods.append(_method_entry(m))
	var signals: Array = []
	for s: Dictionary in scr.get_script_signal_list():
		if _matches(str(s["name"]), filter):
			signals.append({"name": str(s["name"]), "args": _args(s.get("args", []), [])})
	var constants: Array = []
	var enums: Array = []
	var cmap: Dictionary = scr.get_script_constant_map()
	for k: Variant in cmap.keys():
		var value: Variant = cmap[k]
		if typeof(value) == TYPE_DICTIONARY:
			var keep: bool = _matches(str(k), filter)
			for vk: Variant in (value as Dictionary).keys():
				keep = keep or _matches(str(vk), filter)
			if keep:
				enums.append({"name": str(k), "values": value, "is_bitfield": false})
		elif typeof(value) == TYPE_OBJECT:
			continue # preloaded scripts and resources are not constants an agent sets
		elif _matches(str(k), filter):
			constants.append({"name": str(k), "value": ValueCodec.encode(value)})
	if inherited:
		var more: Dictionary = _describe_native(native, filter, true)
		properties.append_array(more["properties"])
		methods.append_array(more["methods"])
		signals.append_array(more["signals"])
		constants.append_array(more["constants"])
		enums.append_array(more["enums"])
	return {
		"class_name": cls,
		"inherits": inherits,
		"instantiable": scr.can_instantiate(),
		"is_script_class": true,
		"script_path": scr.resource_path,
		"properties": properties,
		"methods": methods,
		"signals": signals,
		"constants": constants,
		"enums": enums,
	}


func _native_chain(start: String) -> PackedStringArray:
	var chain: PackedStringArray = []
	var c: String = start
	while c != "":
		chain.append(c)
		c = str(ClassDB.get_parent_class(c))
	return chain


func _is_grouping(p: Dictionary) -> bool:
	var usage: int = int(p.get("usage", 0))
	return (usage & (PROPERTY_USAGE_CATEGORY | PROPERTY_USAGE_GROUP | PROPERTY_USAGE_SUBGROUP)) != 0


func _matches(member: String, filter: String) -> bool:
	return filter == "" or member.to_lower().contains(filter)


func _property_entry(p: Dictionary, default_value: Variant) -> Dictionary:
	var entry: Dictionary = {
		"name": str(p["name"]),
		"type": _type_label(p),
		"hint": int(p.get("hint", 0)),
		"hint_string": str(p.get("hint_string", "")),
		"default": ValueCodec.encode(default_value),
	}
	var enum_name: String = _enum_of(p)
	if enum_name != "":
		entry["enum"] = enum_name
	return entry


func _method_entry(m: Dictionary) -> Dictionary:
	var flags: int = int(m.get("flags", 0))
	var ret: Dictionary = m.get("return", {})
	var ret_type: String = "void"
	if not ret.is_empty():
		ret_type = _type_label(ret)
	return {
		"name": str(m["name"]),
		"return_type": ret_type,
		"args": _args(m.get("args", []), m.get("default_args", [])),
		"is_static": (flags & METHOD_FLAG_STATIC) != 0,
		"is_virtual": (flags & METHOD_FLAG_VIRTUAL) != 0,
		"is_vararg": (flags & METHOD_FLAG_VARARG) != 0,
	}


## [{name, type, default?}]; defaults belong to the last arguments.
func _args(args: Array, defaults: Array) -> Array:
	var out: Array = []
	var first_default: int = args.size() - defaults.size()
	for i: int in range(args.size()):
		var a: Dictionary = args[i]
		var entry: Dictionary = {"name": str(a.get("name", "arg%d" % i)), "type": _type_label(a)}
		if i >= first_default and i - first_default < defaults.size():
			entry["default"] = ValueCodec.encode(defaults[i - first_default])
		out.append(entry)
	return out


## A property/argument type as a name: the Variant type ("int", "Vector2"), the class
## for objects ("Texture2D"), "Array[T]" for typed arrays, "Variant" or "void".
func _type_label(p: Dictionary) -> String:
	var t: int = int(p.get("type", TYPE_NIL))
	var cn: String = str(p.get("class_name", ""))
	var hint: int = int(p.get("hint", 0))
	var hs: String = str(p.get("hint_string", ""))
	match t:
		TYPE_NIL:
			return "Variant" if (int(p.get("usage", 0)) & PROPERTY_USAGE_NIL_IS_VARIANT) != 0 else "void"
		TYPE_OBJECT:
			if cn != "":
				return cn
			if (hint == PROPERTY_HINT_RESOURCE_TYPE or hint == PROPERTY_HINT_NODE_TYPE) and hs != "":
				return hs
			return "Object"
		TYPE_ARRAY:
			if hint == PROPERTY_HINT_ARRAY_TYPE and hs != "":
				return "Array[%s]" % hs
		TYPE_DICTIONARY:
			if hint == PROPERTY_HINT_DICTIONARY_TYPE and hs.contains(";"):
				return "Dictionary[%s]" % hs.replace(";", ", ")
	return type_string(t)


func _enum_of(p: Dictionary) -> String:
	var usage: int = int(p.get("usage", 0))
	if int(p.get("type", TYPE_NIL)) == TYPE_INT and (usage & (PROPERTY_USAGE_CLASS_IS_ENUM | PROPERTY_USAGE_CLASS_IS_BITFIELD)) != 0:
		return str(p.get("class_name", ""))
	return ""


## Up to three class names closest to [param wanted] (engine and script classes).
func _similar_classes(wanted: String) -> PackedStringArray:
	var lower: String = wanted.to_lower()
	var names: Array = Array(ClassDB.get_class_list())
	for entry: Dictionary in ProjectSettings.get_global_class_list():
		names.append(str(entry.get("class", "")))
	var scored: Array = []
	for n: Variant in names:
		var name: String = str(n)
		var nl: String = name.to_lower()
		var score: float = nl.similarity(lower)
		if nl == lower:
			score = 3.0
		elif nl.begins_with(lower) or lower.begins_with(nl):
			score += 1.0
		elif nl.contains(lower) or lower.contains(nl):
			score += 0.5
		if score >= 0.45:
			scored.append([score, name])
	scored.sort_custom(func(a: Array, b: Array) -> bool: return a[0] > b[0] or (a[0] == b[0] and str(a[1]) < str(b[1])))
	var out: PackedStringArray = []
	for s: Array in scored.slice(0, 3):
		out.append(str(s[1]))
	return out


# --- cmd_value_roundtrip -----------------------------------------------------------------


## {type: "Vector2" (a Variant type name), value, hint?: int, hint_string?: String} ->
## {type, value: encode(decode(value))}; VALIDATION_ERROR when the value does not fit.
func value_roundtrip(params: Dictionary) -> Dictionary:
	var type_v: Variant = params.get("type")
	if typeof(type_v) != TYPE_STRING:
		return _router.fail("VALIDATION_ERROR", "type is required: a Variant type name such as \"Vector2\", \"Color\" or \"PackedInt32Array\".")
	var t: int = ValueCodec.type_from_name(type_v as String)
	if t < 0:
		return _router.fail("VALIDATION_ERROR", "Unknown type '%s'. Use a Variant type name such as \"int\", \"Vector3\", \"Transform2D\" or \"Object\"." % type_v)
	if not params.has("value"):
		return _router.fail("VALIDATION_ERROR", "value is required.")
	var hint: Variant = Params.integer(params, "hint", PROPERTY_HINT_NONE)
	if hint == null:
		return _router.fail("VALIDATION_ERROR", "hint must be an integer (a PROPERTY_HINT_* value).")
	var hs: Variant = params.get("hint_string", "")
	if typeof(hs) != TYPE_STRING:
		return _router.fail("VALIDATION_ERROR", "hint_string must be a string.")
	var decoded: Dictionary = ValueCodec.decode(params["value"], t, int(hint), hs as String)
	if not decoded.get("ok", false):
		return _router.fail("VALIDATION_ERROR", "value does not fit %s: %s" % [type_string(t), decoded.get("hint", "")])
	var v: Variant = decoded["value"]
	return _router.ok({"type": type_string(typeof(v)), "value": ValueCodec.encode(v)})


# --- cmd_filesystem_sync ------------------------------------------------------------------


## {written: [paths], removed: [paths]} -> {scanning, progress, ready, pending}: whether the
## editor's filesystem knows the files a change wrote (type, class_name, UID) and no longer
## lists the removed ones; asks it to look at them when not. Public: a toolset that writes
## files polls it until ready.
func filesystem_sync(params: Dictionary) -> Dictionary:
	var written: Variant = Params.strings(params.get("written"))
	var removed: Variant = Params.strings(params.get("removed"))
	if written == null or removed == null:
		return _router.fail("VALIDATION_ERROR", "written and removed must be arrays of res:// paths.")
	return _router.ok(Files.sync_files(written as PackedStringArray, removed as PackedStringArray))


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
				return _router.fail("PRECONDITION_FAILED", "No scene is open in the editor. Open one with godot_scene_open {path} or create one with godot_scene_create {path, root_type}.", "active_scene")
			continue
		var cmd: String = "cmd_check_precondition_" + name
		if _router.has_command(cmd):
			var cb: Variant = _router._table.get(cmd)
			if typeof(cb) == TYPE_CALLABLE and (cb as Callable).is_valid():
				var res: Variant = (cb as Callable).call({})
				if typeof(res) == TYPE_DICTIONARY and not bool((res as Dictionary).get("ok", true)):
					return res
	return _router.ok({})
