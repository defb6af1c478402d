@tool
extends RefCounted
## Project toolset editor commands: project settings, the input map and autoloads.
##
## Every edit is ONE EditorUndoRedoManager action in the global history ("godot-mcp: …")
## whose do and undo both save project.godot, so the file follows the editor through
## undo and redo. After an edit the handler reads project.godot back (ConfigFile) and
## reports persisted: true only when the file holds what the editor holds.
## Values are typed by the value codec with each setting's own type; nothing that
## does not fit is coerced. Input events use the JSON shape of docs/project.md.

const ValueCodec := preload("../value_codec.gd")
const CommandRouter := preload("../command_router.gd")
const PathGuard := preload("../path_guard.gd")

const PROJECT_FILE := "res://project.godot"
## InputMap's default deadzone for new actions (InputMap::DEFAULT_DEADZONE).
const DEFAULT_DEADZONE := 0.2
const MAX_LIMIT := 2000
const MAX_SUGGESTIONS := 3
## The autoload the runtime toolset manages itself (handlers/runtime_handlers.gd).
const RUNTIME_PROBE := "GodotMcpProbe"

const MOUSE_BUTTONS := {
	1: "left", 2: "right", 3: "middle", 4: "wheel_up", 5: "wheel_down",
	6: "wheel_left", 7: "wheel_right", 8: "xbutton1", 9: "xbutton2",
}
const MOUSE_ALIASES := {"x1": 8, "x2": 9, "back": 8, "forward": 9, "wheelup": 4, "wheeldown": 5}
const JOY_BUTTONS := [
	"a", "b", "x", "y", "back", "guide", "start", "left_stick", "right_stick",
	"left_shoulder", "right_shoulder", "dpad_up", "dpad_down", "dpad_left", "dpad_right",
	"misc1", "paddle1", "paddle2", "paddle3", "paddle4", "touchpad",
]
const JOY_ALIASES := {
	"select": 4, "home": 5, "l3": 7, "r3": 8, "lb": 9, "l1": 9, "rb": 10, "r1": 10,
	"up": 11, "down": 12, "left": 13, "right": 14,
}
const JOY_AXES := ["left_x", "left_y", "right_x", "right_y", "trigger_left", "trigger_right"]
const JOY_AXIS_ALIASES := {"lt": 4, "l2": 4, "rt": 5, "r2": 5, "lefttrigger": 4, "righttrigger": 5}
const KEY_ALIASES := {
	"esc": "Escape", "return": "Enter", "del": "Delete", "spacebar": "Space", "ins": "Insert",
	"arrowup": "Up", "arrowdown": "Down", "arrowleft": "Left", "arrowright": "Right",
	"control": "Ctrl", "pgup": "PageUp", "pgdn": "PageDown", "pagedown": "PageDown", "pageup": "PageUp",
	"+": "Plus",
}
## Every key name Godot's keyboard table has (core/os/keyboard.cpp, 4.4), for lookups by
## normalised name and did-you-mean. Codes come from OS.find_keycode_from_string.
const KEY_NAMES := [
	"Escape", "Tab", "Backtab", "Backspace", "Enter", "Kp Enter", "Insert", "Delete", "Pause", "Print",
	"SysReq", "Clear", "Home", "End", "Left", "Up", "Right", "Down", "PageUp", "PageDown", "Shift", "Ctrl",
	"Meta", "Alt", "CapsLock", "NumLock", "ScrollLock", "F1", "F2", "F3", "F4", "F5", "F6", "F7", "F8", "F9",
	"F10", "F11", "F12", "F13", "F14", "F15", "F16", "F17", "F18", "F19", "F20", "F21", "F22", "F23", "F24",
	"F25", "F26", "F27", "F28", "F29", "F30", "F31", "F32", "F33", "F34", "F35", "Kp Multiply", "Kp Divide",
	"Kp Subtract", "Kp Period", "Kp Add", "Kp 0", "Kp 1", "Kp 2", "Kp 3", "Kp 4", "Kp 5", "Kp 6", "Kp 7",
	"Kp 8", "Kp 9", "Menu", "Hyper", "Help", "Back", "Forward", "Stop", "Refresh", "VolumeDown", "VolumeMute",
	"VolumeUp", "MediaPlay", "MediaStop", "MediaPrevious", "MediaNext", "MediaRecord", "HomePage", "Favorites",
	"Search", "StandBy", "OpenURL", "LaunchMail", "LaunchMedia", "Launch0", "Launch1", "Launch2", "Launch3",
	"Launch4", "Launch5", "Launch6", "Launch7", "Launch8", "Launch9", "LaunchA", "LaunchB", "LaunchC",
	"LaunchD", "LaunchE", "LaunchF", "Globe", "On-screen keyboard", "JIS Eisu", "JIS Kana", "Space", "Exclam",
	"QuoteDbl", "NumberSign", "Dollar", "Percent", "Ampersand", "Apostrophe", "ParenLeft", "ParenRight",
	"Asterisk", "Plus", "Comma", "Minus", "Period", "Slash", "0", "1", "2", "3", "4", "5", "6", "7", "8", "9",
	"Colon", "Semicolon", "Less", "Equal", "Greater", "Question", "At", "A", "B", "C", "D", "E", "F", "G", "H",
	"I", "J", "K", "L", "M", "N", "O", "P", "Q", "R", "S", "T", "U", "V", "W", "X", "Y", "Z", "BracketLeft",
	"BackSlash", "BracketRight", "AsciiCircum", "UnderScore", "QuoteLeft", "BraceLeft", "Bar", "BraceRight",
	"AsciiTilde", "Yen", "Section"
]
## Modifier words accepted before "+" in key names ("Ctrl+Shift+S").
const MODIFIER_WORDS := {
	"ctrl": "ctrl", "control": "ctrl", "shift": "shift", "alt": "alt", "option": "alt",
	"meta": "meta", "cmd": "meta", "command": "meta", "super": "meta", "win": "meta", "windows": "meta",
	"cmdorctrl": "command_or_control", "commandorcontrol": "command_or_control",
}
const EVENT_FIELDS := {
	"key": ["keycode", "physical_keycode", "key_label", "location", "ctrl", "shift", "alt", "meta", "command_or_control"],
	"mouse_button": ["button", "double_click", "ctrl", "shift", "alt", "meta", "command_or_control"],
	"joypad_button": ["button"],
	"joypad_motion": ["axis", "axis_value", "direction"],
}
## Fields every event may carry: device, and what list_actions writes (text, class).
const EVENT_COMMON := ["type", "device", "text", "class"]
## GDScript keywords and built-in constants (autoload names cannot be these).
const RESERVED := [
	"if", "elif", "else", "for", "while", "match", "when", "break", "continue", "pass", "return",
	"class", "class_name", "extends", "is", "in", "as", "self", "super", "signal", "func", "static",
	"const", "enum", "var", "breakpoint", "preload", "await", "yield", "assert", "void", "and", "or",
	"not", "true", "false", "null", "PI", "TAU", "INF", "NAN", "tool", "trait", "namespace",
]

var _router: CommandRouter = null
var _last_save_error: int = OK
var _key_by_norm: Dictionary = {} # normalised key name -> keycode
var _key_names: PackedStringArray = []
var _editor_nodes: Dictionary = {} # class name -> Node (cached lookups in the editor GUI)


func setup(router: CommandRouter) -> void:
	_router = router


func get_commands() -> Dictionary:
	return {
		"cmd_project_get_settings": {"class": "read_only", "run": get_settings},
		"cmd_project_set_settings": {"class": "mutating", "dry_run": true, "run": set_settings},
		"cmd_project_list_actions": {"class": "read_only", "run": list_actions},
		"cmd_project_set_action": {"class": "mutating", "dry_run": true, "run": set_action},
		"cmd_project_remove_action": {"class": "destructive", "dry_run": true, "run": remove_action},
		"cmd_project_list_autoloads": {"class": "read_only", "run": list_autoloads},
		"cmd_project_add_autoload": {"class": "mutating", "dry_run": true, "run": add_autoload},
		"cmd_project_remove_autoload": {"class": "mutating", "dry_run": true, "run": remove_autoload},
	}


# --- cmd_project_get_settings --------------------------------------------------------


## {keys?, prefix?, limit, cursor?, with_info?} ->
## {settings, info?, missing, suggestions?, total, truncated, next_cursor?}
func get_settings(params: Dictionary) -> Dictionary:
	var keys_v: Variant = params.get("keys", [])
	if keys_v == null:
		keys_v = []
	if typeof(keys_v) != TYPE_ARRAY:
		return _router.fail("VALIDATION_ERROR", "keys must be an array of setting keys.")
	var prefix_v: Variant = params.get("prefix", "")
	if prefix_v == null:
		prefix_v = ""
	if typeof(prefix_v) != TYPE_STRING:
		return _router.fail("VALIDATION_ERROR", "prefix must be a string such as \"application/\".")
	var limit: Variant = _int_param(params, "limit", 200)
	if limit == null or int(limit) < 1 or int(limit) > MAX_LIMIT:
		return _router.fail("VALIDATION_ERROR", "limit must be an integer from 1 to %d." % MAX_LIMIT)
	var offset: Variant = _cursor(params)
	if offset == null:
		return _router.fail("VALIDATION_ERROR", "cursor is not one this tool returned; pass next_cursor from the previous page, or omit it.")
	var with_info: bool = _flag(params, "with_info")
	var prefix: String = prefix_v
	if (keys_v as Array).is_empty() and prefix == "":
		return _router.fail("VALIDATION_ERROR", "Give keys, a prefix, or both (e.g. prefix: \"application/\").")
	var index: Dictionary = _settings_index()
	var settings: Dictionary = {}
	var info: Dictionary = {}
	var missing: Array = []
	var suggestions: Dictionary = {}
	for k: Variant in keys_v:
		var key: String = str(k)
		if ProjectSettings.has_setting(key):
			settings[key] = _setting_json(key)
			if with_info:
				info[key] = _setting_info(key, index.get(key, {}))
		else:
			missing.append(key)
			var near: PackedStringArray = _suggest(key, index.keys())
			if not near.is_empty():
				suggestions[key] = near
	var total: int = 0
	var truncated: bool = false
	var next_cursor: String = ""
	if prefix != "":
		var matched: PackedStringArray = []
		for k: Variant in index.keys():
			if str(k).begins_with(prefix):
				matched.append(str(k))
		matched.sort()
		total = matched.size()
		var start: int = mini(int(offset), total)
		var end: int = mini(start + int(limit), total)
		for i: int in range(start, end):
			var key: String = matched[i]
			settings[key] = _setting_json(key)
			if with_info:
				info[key] = _setting_info(key, index.get(key, {}))
		truncated = end < total
		if truncated:
			next_cursor = str(end)
		if total == 0:
			var near_p: PackedStringArray = _suggest(prefix, index.keys())
			if not near_p.is_empty():
				suggestions[prefix] = near_p
	var out: Dictionary = {
		"settings": settings,
		"missing": missing,
		"total": total,
		"truncated": truncated,
	}
	if with_info:
		out["info"] = info
	if not suggestions.is_empty():
		out["suggestions"] = suggestions
	if next_cursor != "":
		out["next_cursor"] = next_cursor
	return _router.ok(out)


# --- cmd_project_set_settings --------------------------------------------------------


## {settings: {key: value}, reset: [key], create: bool, types: {key: type}, dry_run} ->
## {changes: [{key, type, old, new, changed, created?, removed?, is_default, restart_required?}],
##  dry_run, persisted, undoable, undo_action?, warnings?}
func set_settings(params: Dictionary) -> Dictionary:
	var settings_v: Variant = params.get("settings", {})
	if settings_v == null:
		settings_v = {}
	var reset_v: Variant = params.get("reset", [])
	if reset_v == null:
		reset_v = []
	var types_v: Variant = params.get("types", {})
	if types_v == null:
		types_v = {}
	if typeof(settings_v) != TYPE_DICTIONARY or typeof(reset_v) != TYPE_ARRAY or typeof(types_v) != TYPE_DICTIONARY:
		return _router.fail("VALIDATION_ERROR", "settings must be an object {key: value}, reset an array of keys and types an object {key: type name}.")
	var create: bool = _flag(params, "create")
	var dry_run: bool = _flag(params, "dry_run")
	var settings: Dictionary = settings_v
	var types: Dictionary = types_v
	if settings.is_empty() and (reset_v as Array).is_empty():
		return _router.fail("VALIDATION_ERROR", "Give settings (key -> value) and/or reset (keys).")
	var index: Dictionary = _settings_index()
	var keys: Array = settings.keys()
	keys.sort()
	var plan: Array[Dictionary] = []
	for k: Variant in keys:
		var key: String = str(k)
		var where: String = "settings[%s]" % key
		var owned: String = _owned_elsewhere(key)
		if owned != "":
			return _router.fail("VALIDATION_ERROR", "%s: %s" % [where, owned])
		var exists: bool = ProjectSettings.has_setting(key)
		var t: int = TYPE_NIL
		var hint: int = PROPERTY_HINT_NONE
		var hs: String = ""
		var pinfo: Dictionary = index.get(key, {})
		if exists:
			t = _setting_type(key, pinfo)
			hint = int(pinfo.get("hint", PROPERTY_HINT_NONE))
			hs = str(pinfo.get("hint_string", ""))
			if types.has(key):
				var asked: int = ValueCodec.type_from_name(str(types[key]))
				if asked != t:
					return _router.fail("VALIDATION_ERROR", "%s: '%s' already exists as a %s; an existing setting keeps its type (drop types[%s])." % [where, key, _type_name(t), key])
		else:
			if not create:
				return _router.fail("VALIDATION_ERROR", _unknown_key_hint(key, index) + " To add a new custom setting, pass create: true.")
			if types.has(key):
				t = ValueCodec.type_from_name(str(types[key]))
				if t < 0:
					return _router.fail("VALIDATION_ERROR", "types[%s]: unknown type '%s'; use a Variant type name such as int, float, bool, String, Vector2, Color or PackedStringArray." % [key, types[key]])
		var decoded: Dictionary = ValueCodec.decode(settings[key], t, hint, hs)
		if not decoded.get("ok", false):
			return _router.fail("VALIDATION_ERROR", "%s: the value does not fit this %s setting: %s" % [where, _type_name(t), decoded.get("hint", "")])
		var value: Variant = decoded["value"]
		if value == null:
			return _router.fail("VALIDATION_ERROR", "%s: null is not a setting value; list the key in reset to put it back to its default." % where)
		var range_problem: String = _range_problem(value, hint, hs)
		if range_problem != "":
			return _router.fail("VALIDATION_ERROR", "%s: %s" % [where, range_problem])
		# A file setting (main scene, icon, …) never names a file behind a link leading out.
		if typeof(value) == TYPE_STRING and (value as String).begins_with("res://"):
			var outside: String = PathGuard.escape_problem(value as String)
			if outside != "":
				return _router.fail("VALIDATION_ERROR", "%s: %s." % [where, outside])
		var old: Variant = ProjectSettings.get_setting(key) if exists else null
		var typed: int = t if t != TYPE_NIL else typeof(value)
		plan.append({
			"key": key, "type": typed, "old": old, "new": value, "exists": exists,
			"created": not exists, "removed": false,
			"changed": not exists or not _same(old, value),
			"order": ProjectSettings.get_order(key) if exists else -1,
			"restart": (int(pinfo.get("usage", 0)) & PROPERTY_USAGE_RESTART_IF_CHANGED) != 0,
		})
	for k: Variant in reset_v:
		var key: String = str(k)
		var where: String = "reset[%s]" % key
		var owned: String = _owned_elsewhere(key)
		if owned != "":
			return _router.fail("VALIDATION_ERROR", "%s: %s" % [where, owned])
		if settings.has(key):
			return _router.fail("VALIDATION_ERROR", "%s: '%s' is both set and reset; pick one." % [where, key])
		if not ProjectSettings.has_setting(key):
			return _router.fail("VALIDATION_ERROR", "%s: %s" % [where, _unknown_key_hint(key, index)])
		var pinfo: Dictionary = index.get(key, {})
		var default_value: Variant = ProjectSettings.property_get_revert(key)
		var old: Variant = ProjectSettings.get_setting(key)
		plan.append({
			"key": key, "type": _setting_type(key, pinfo), "old": old, "new": default_value, "exists": true,
			"created": false, "removed": default_value == null,
			"changed": default_value == null or not _same(old, default_value),
			"order": ProjectSettings.get_order(key),
			"restart": (int(pinfo.get("usage", 0)) & PROPERTY_USAGE_RESTART_IF_CHANGED) != 0,
		})
	var changed: Array[Dictionary] = []
	for p: Dictionary in plan:
		if p["changed"]:
			changed.append(p)
	var action_name: String = ""
	var undoable: bool = false
	var save_error: int = OK
	if not dry_run and not changed.is_empty():
		action_name = "godot-mcp: set project settings (%s)" % _summary(changed.map(func(p: Dictionary) -> String: return str(p["key"])))
		var ur: EditorUndoRedoManager = EditorInterface.get_editor_undo_redo()
		ur.create_action(action_name, UndoRedo.MERGE_DISABLE, ProjectSettings)
		for p: Dictionary in changed:
			var key: String = p["key"]
			if p["removed"]:
				ur.add_do_method(ProjectSettings, "set_setting", key, null)
				ur.add_undo_method(ProjectSettings, "set_setting", key, p["old"])
				ur.add_undo_method(ProjectSettings, "set_order", key, int(p["order"]))
			elif p["created"]:
				ur.add_do_method(ProjectSettings, "set_setting", key, p["new"])
				ur.add_undo_method(ProjectSettings, "set_setting", key, null)
			else:
				ur.add_do_method(ProjectSettings, "set_setting", key, p["new"])
				ur.add_undo_method(ProjectSettings, "set_setting", key, p["old"])
		ur.add_do_method(self, "_after_change", "settings")
		ur.add_undo_method(self, "_after_change", "settings")
		_last_save_error = OK
		ur.commit_action()
		save_error = _last_save_error
		undoable = true
	var changes: Array = []
	var check_keys: PackedStringArray = []
	for p: Dictionary in plan:
		var key: String = p["key"]
		check_keys.append(key)
		var new_value: Variant = p["new"]
		var is_default: bool = p["removed"] or _equals_default(key, new_value)
		var entry: Dictionary = {
			"key": key,
			"type": _type_name(int(p["type"])),
			"old": _value_json(key, p["old"]),
			"new": null if p["removed"] else _value_json(key, new_value),
			"changed": p["changed"],
			"is_default": is_default,
		}
		if p["created"]:
			entry["created"] = true
		if p["removed"]:
			entry["removed"] = true
		if p["restart"] and p["changed"]:
			entry["restart_required"] = true
		changes.append(entry)
	var out: Dictionary = {"changes": changes, "dry_run": dry_run, "undoable": undoable}
	if dry_run:
		out["persisted"] = false
		return _router.ok(out)
	var check: Dictionary = _disk_check(check_keys, save_error) if action_name != "" else _repair_check(check_keys)
	out["persisted"] = check["ok"]
	if not check["ok"]:
		out["warnings"] = check["problems"]
	if action_name != "":
		out["undo_action"] = action_name
	return _router.ok(out)


# --- cmd_project_list_actions ---------------------------------------------------------


## {filter, include_builtin, limit, cursor} -> {actions: [{name, deadzone, events, builtin}], total, truncated, next_cursor?}
func list_actions(params: Dictionary) -> Dictionary:
	var filter_v: Variant = params.get("filter", "")
	if filter_v == null:
		filter_v = ""
	if typeof(filter_v) != TYPE_STRING:
		return _router.fail("VALIDATION_ERROR", "filter must be a string (part of the action name).")
	var limit: Variant = _int_param(params, "limit", 100)
	if limit == null or int(limit) < 1 or int(limit) > MAX_LIMIT:
		return _router.fail("VALIDATION_ERROR", "limit must be an integer from 1 to %d." % MAX_LIMIT)
	var offset: Variant = _cursor(params)
	if offset == null:
		return _router.fail("VALIDATION_ERROR", "cursor is not one this tool returned; pass next_cursor from the previous page, or omit it.")
	var include_builtin: bool = _flag(params, "include_builtin")
	var filter: String = (filter_v as String).to_lower()
	var names: PackedStringArray = []
	for name: String in _action_names():
		if not include_builtin and _is_builtin_action(name):
			continue
		if filter != "" and not name.to_lower().contains(filter):
			continue
		names.append(name)
	var total: int = names.size()
	var start: int = mini(int(offset), total)
	var end: int = mini(start + int(limit), total)
	var actions: Array = []
	for i: int in range(start, end):
		var state: Dictionary = _action_state_json(ProjectSettings.get_setting("input/" + names[i]))
		actions.append({"name": names[i], "deadzone": state["deadzone"], "events": state["events"], "builtin": _is_builtin_action(names[i])})
	var out: Dictionary = {"actions": actions, "total": total, "truncated": end < total}
	if end < total:
		out["next_cursor"] = str(end)
	return _router.ok(out)


# --- cmd_project_set_action ---------------------------------------------------------------


## {name, events?, add_events, remove_events, deadzone?, dry_run} ->
## {name, created, builtin, old, new, changed, dry_run, persisted, undoable, undo_action?}
func set_action(params: Dictionary) -> Dictionary:
	var name_v: Variant = params.get("name")
	var name_problem: String = _action_name_problem(name_v)
	if name_problem != "":
		return _router.fail("VALIDATION_ERROR", name_problem)
	var name: String = name_v
	var key: String = "input/" + name
	var dry_run: bool = _flag(params, "dry_run")
	var exists: bool = ProjectSettings.has_setting(key)
	var old_value: Variant = ProjectSettings.get_setting(key) if exists else null
	if exists and typeof(old_value) != TYPE_DICTIONARY:
		return _router.fail("VALIDATION_ERROR", "The setting '%s' is not an input action (it holds a %s); fix project.godot by hand." % [key, type_string(typeof(old_value))])
	var events: Array = []
	var deadzone: float = DEFAULT_DEADZONE
	if exists:
		deadzone = float(_action_state_json(old_value)["deadzone"])
		events = _events_of(old_value)
	var has_events: bool = params.has("events") and params["events"] != null
	var add_v: Variant = params.get("add_events", [])
	var remove_v: Variant = params.get("remove_events", [])
	if add_v == null:
		add_v = []
	if remove_v == null:
		remove_v = []
	if typeof(add_v) != TYPE_ARRAY or typeof(remove_v) != TYPE_ARRAY:
		return _router.fail("VALIDATION_ERROR", "add_events and remove_events must be arrays of events.")
	if has_events and (not (add_v as Array).is_empty() or not (remove_v as Array).is_empty()):
		return _router.fail("VALIDATION_ERROR", "events replaces the whole list; do not combine it with add_events/remove_events.")
	if has_events:
		if typeof(params["events"]) != TYPE_ARRAY:
			return _router.fail("VALIDATION_ERROR", "events must be an array of events (see the resource godot://docs/project), [] to clear the action.")
		var parsed: Dictionary = _parse_events(params["events"] as Array, "events")
		if not parsed["ok"]:
			return _router.fail("VALIDATION_ERROR", parsed["hint"])
		events = parsed["events"]
	else:
		for i: int in range((remove_v as Array).size()):
			var where: String = "remove_events[%d]" % i
			var r: Dictionary = _event_from_json(remove_v[i], where)
			if not r["ok"]:
				return _router.fail("VALIDATION_ERROR", r["hint"])
			var wanted: Dictionary = _event_key(r["event"] as InputEvent, r["device_given"])
			var found: int = -1
			for j: int in range(events.size()):
				if _event_key(events[j] as InputEvent, r["device_given"]) == wanted:
					found = j
					break
			if found < 0:
				var have: PackedStringArray = []
				for e: Variant in events:
					have.append(JSON.stringify(_event_json_for_match(e as InputEvent)))
				var listed: String = ", ".join(have) if not have.is_empty() else "none"
				return _router.fail("VALIDATION_ERROR", "%s (%s) is not an event of '%s'. Its events are: %s." % [where, (r["event"] as InputEvent).as_text(), name, listed])
			events.remove_at(found)
		var added: Dictionary = _parse_events(add_v as Array, "add_events", events)
		if not added["ok"]:
			return _router.fail("VALIDATION_ERROR", added["hint"])
		events.append_array(added["events"])
	if params.has("deadzone") and params["deadzone"] != null:
		var dz: Variant = params["deadzone"]
		if (typeof(dz) != TYPE_INT and typeof(dz) != TYPE_FLOAT) or float(dz) < 0.0 or float(dz) > 1.0:
			return _router.fail("VALIDATION_ERROR", "deadzone must be a number from 0 to 1 (default 0.2), got %s." % JSON.stringify(dz))
		deadzone = float(dz)
	var new_value: Dictionary = {"deadzone": deadzone, "events": events}
	var old_json: Variant = _action_state_json(old_value) if exists else null
	var new_json: Dictionary = _action_state_json(new_value)
	var changed: bool = not exists or not _same_json(old_json, new_json)
	var out: Dictionary = {
		"name": name, "created": not exists, "builtin": _is_builtin_action(name),
		"old": old_json, "new": new_json, "changed": changed, "dry_run": dry_run, "undoable": false,
	}
	if dry_run:
		out["persisted"] = false
		return _router.ok(out)
	var save_error: int = OK
	if changed:
		var action_name: String = ("godot-mcp: add input action '%s'" if not exists else "godot-mcp: change input action '%s'") % name
		var ur: EditorUndoRedoManager = EditorInterface.get_editor_undo_redo()
		ur.create_action(action_name, UndoRedo.MERGE_DISABLE, ProjectSettings)
		ur.add_do_method(ProjectSettings, "set_setting", key, new_value)
		ur.add_undo_method(ProjectSettings, "set_setting", key, old_value)
		ur.add_do_method(self, "_after_change", "input")
		ur.add_undo_method(self, "_after_change", "input")
		_last_save_error = OK
		ur.commit_action()
		save_error = _last_save_error
		out["undoable"] = true
		out["undo_action"] = action_name
	var check: Dictionary = _disk_check(PackedStringArray([key]), save_error) if changed else _repair_check(PackedStringArray([key]))
	out["persisted"] = check["ok"]
	if not check["ok"]:
		out["warnings"] = check["problems"]
	return _router.ok(out)


# --- cmd_project_remove_action ---------------------------------------------------------


## {name, dry_run} -> {name, removed: {deadzone, events}, dry_run, persisted, undoable, undo_action?}
func remove_action(params: Dictionary) -> Dictionary:
	var name_v: Variant = params.get("name")
	var name_problem: String = _action_name_problem(name_v)
	if name_problem != "":
		return _router.fail("VALIDATION_ERROR", name_problem)
	var name: String = name_v
	var key: String = "input/" + name
	var dry_run: bool = _flag(params, "dry_run")
	if not ProjectSettings.has_setting(key):
		var hint: String = "No input action '%s'." % name
		var near: PackedStringArray = _suggest(name, Array(_action_names()))
		if not near.is_empty():
			hint += " Did you mean %s?" % _quoted(near)
		hint += " godot_project_list_actions lists them."
		return _router.fail("RESOURCE_NOT_FOUND", hint)
	if _is_builtin_action(name):
		return _router.fail("VALIDATION_ERROR", "'%s' is a built-in action: Godot brings it back with its default events, so it cannot be removed. To disable it, clear its events: godot_project_set_action {name: \"%s\", events: []}." % [name, name])
	var old_value: Variant = ProjectSettings.get_setting(key)
	var order: int = ProjectSettings.get_order(key)
	var out: Dictionary = {"name": name, "removed": _action_state_json(old_value), "dry_run": dry_run, "undoable": false}
	if dry_run:
		out["persisted"] = false
		return _router.ok(out)
	var action_name: String = "godot-mcp: remove input action '%s'" % name
	var ur: EditorUndoRedoManager = EditorInterface.get_editor_undo_redo()
	ur.create_action(action_name, UndoRedo.MERGE_DISABLE, ProjectSettings)
	ur.add_do_method(ProjectSettings, "set_setting", key, null)
	ur.add_undo_method(ProjectSettings, "set_setting", key, old_value)
	ur.add_undo_method(ProjectSettings, "set_order", key, order)
	ur.add_do_method(self, "_after_change", "input")
	ur.add_undo_method(self, "_after_change", "input")
	_last_save_error = OK
	ur.commit_action()
	var check: Dictionary = _disk_check(PackedStringArray([key]), _last_save_error)
	out["undoable"] = true
	out["undo_action"] = action_name
	out["persisted"] = check["ok"]
	if not check["ok"]:
		out["warnings"] = check["problems"]
	return _router.ok(out)


# --- autoloads ----------------------------------------------------------------------------


## {} -> {autoloads: [{name, path, singleton, index}]}
func list_autoloads(_params: Dictionary) -> Dictionary:
	return _router.ok({"autoloads": _autoloads()})


## {name, path, singleton, index (-1: last), dry_run} ->
## {autoload, autoloads, dry_run, persisted, undoable, undo_action?, editor_refreshed}
func add_autoload(params: Dictionary) -> Dictionary:
	var name_v: Variant = params.get("name")
	if typeof(name_v) != TYPE_STRING or (name_v as String) == "":
		return _router.fail("VALIDATION_ERROR", "name is required: the autoload's name, e.g. GameState.")
	var name: String = name_v
	var problem: String = _autoload_name_problem(name)
	if problem != "":
		return _router.fail("VALIDATION_ERROR", problem)
	var current: Array = _autoloads()
	for a: Dictionary in current:
		if str(a["name"]) == name:
			return _router.fail("VALIDATION_ERROR", "There already is an autoload '%s' (%s, position %d). Remove it first (godot_project_remove_autoload) or pick another name." % [name, a["path"], a["index"]])
	var path_v: Variant = params.get("path")
	if typeof(path_v) != TYPE_STRING or not (path_v as String).begins_with("res://"):
		return _router.fail("VALIDATION_ERROR", "path must be a res:// path of a script or scene, e.g. res://autoload/game_state.gd.")
	var path: String = path_v
	var outside: String = PathGuard.problem(path)
	if outside != "":
		return _router.fail("VALIDATION_ERROR", "path: %s." % outside)
	var file_problem: Dictionary = _autoload_file_problem(path)
	if not file_problem.is_empty():
		return _router.fail(str(file_problem["code"]), str(file_problem["hint"]))
	var singleton_v: Variant = params.get("singleton", true)
	if singleton_v != null and typeof(singleton_v) != TYPE_BOOL:
		return _router.fail("VALIDATION_ERROR", "singleton must be true (the name is a global variable) or false.")
	var singleton: bool = singleton_v != false if typeof(singleton_v) == TYPE_BOOL else true
	var index: Variant = _int_param(params, "index", -1)
	if index == null or int(index) < -1 or int(index) > current.size():
		return _router.fail("VALIDATION_ERROR", "index must be a position from 0 to %d (the number of autoloads), or omitted for the end." % current.size())
	var at: int = current.size() if int(index) == -1 else int(index)
	var names: PackedStringArray = []
	for a: Dictionary in current:
		names.append(str(a["name"]))
	names.insert(at, name)
	var entry: Dictionary = {"name": name, "path": path, "singleton": singleton, "index": at}
	var preview: Array = current.duplicate(true)
	preview.insert(at, entry)
	for i: int in range(preview.size()):
		preview[i]["index"] = i
	var out: Dictionary = {"autoload": entry, "autoloads": preview, "dry_run": _flag(params, "dry_run"), "undoable": false, "editor_refreshed": false}
	if _flag(params, "dry_run"):
		out["persisted"] = false
		return _router.ok(out)
	var key: String = "autoload/" + name
	var action_name: String = "godot-mcp: add autoload '%s'" % name
	var ur: EditorUndoRedoManager = EditorInterface.get_editor_undo_redo()
	ur.create_action(action_name, UndoRedo.MERGE_DISABLE, ProjectSettings)
	ur.add_do_method(ProjectSettings, "set_setting", key, ("*" if singleton else "") + path)
	ur.add_do_method(self, "_order_autoloads", names)
	ur.add_undo_method(ProjectSettings, "set_setting", key, null)
	for a: Dictionary in current:
		var other: String = "autoload/" + str(a["name"])
		ur.add_undo_method(ProjectSettings, "set_order", other, ProjectSettings.get_order(other))
	ur.add_do_method(self, "_after_change", "autoload")
	ur.add_undo_method(self, "_after_change", "autoload")
	_last_save_error = OK
	ur.commit_action()
	return _router.ok(_autoload_result(out, name, action_name, _last_save_error))


## {name, dry_run} -> {autoload, autoloads, dry_run, persisted, undoable, undo_action?, editor_refreshed}
func remove_autoload(params: Dictionary) -> Dictionary:
	var name_v: Variant = params.get("name")
	if typeof(name_v) != TYPE_STRING or (name_v as String) == "":
		return _router.fail("VALIDATION_ERROR", "name is required: the autoload's name.")
	var name: String = name_v
	var current: Array = _autoloads()
	var entry: Dictionary = {}
	var names: Array = []
	for a: Dictionary in current:
		names.append(str(a["name"]))
		if str(a["name"]) == name:
			entry = a
	if entry.is_empty():
		var hint: String = "No autoload named '%s'." % name
		var near: PackedStringArray = _suggest(name, names)
		if not near.is_empty():
			hint += " Did you mean %s?" % _quoted(near)
		elif names.is_empty():
			hint += " The project has no autoloads."
		else:
			hint += " The autoloads are: %s." % ", ".join(PackedStringArray(names))
		return _router.fail("RESOURCE_NOT_FOUND", hint)
	if name == RUNTIME_PROBE:
		return _router.fail("VALIDATION_ERROR", "'%s' is the runtime toolset's probe: it is added while the runtime toolset is enabled and removed when it is disabled. Use godot_disable_toolset {name: \"runtime\"} instead." % name)
	var preview: Array = []
	for a: Dictionary in current:
		if str(a["name"]) != name:
			var copy: Dictionary = a.duplicate()
			copy["index"] = preview.size()
			preview.append(copy)
	var out: Dictionary = {"autoload": entry, "autoloads": preview, "dry_run": _flag(params, "dry_run"), "undoable": false, "editor_refreshed": false}
	if _flag(params, "dry_run"):
		out["persisted"] = false
		return _router.ok(out)
	var key: String = "autoload/" + name
	var old_value: Variant = ProjectSettings.get_setting(key)
	var order: int = ProjectSettings.get_order(key)
	var action_name: String = "godot-mcp: remove autoload '%s'" % name
	var ur: EditorUndoRedoManager = EditorInterface.get_editor_undo_redo()
	ur.create_action(action_name, UndoRedo.MERGE_DISABLE, ProjectSettings)
	ur.add_do_method(ProjectSettings, "set_setting", key, null)
	ur.add_undo_method(ProjectSettings, "set_setting", key, old_value)
	ur.add_undo_method(ProjectSettings, "set_order", key, order)
	ur.add_do_method(self, "_after_change", "autoload")
	ur.add_undo_method(self, "_after_change", "autoload")
	_last_save_error = OK
	ur.commit_action()
	return _router.ok(_autoload_result(out, name, action_name, _last_save_error))


## Fills in what happened after an autoload action was committed.
func _autoload_result(out: Dictionary, name: String, action_name: String, save_error: int) -> Dictionary:
	out["autoloads"] = _autoloads()
	out["undoable"] = true
	out["undo_action"] = action_name
	out["editor_refreshed"] = _editor_node("EditorAutoloadSettings") != null
	var keys: PackedStringArray = ["autoload/" + name]
	for a: Dictionary in out["autoloads"]:
		keys.append("autoload/" + str(a["name"]))
	var check: Dictionary = _disk_check(keys, save_error)
	if check["ok"]:
		var order_problem: String = _disk_autoload_order(out["autoloads"])
		if order_problem != "":
			check = {"ok": false, "problems": [order_problem]}
	out["persisted"] = check["ok"]
	if not check["ok"]:
		out["warnings"] = check["problems"]
	return out


## The autoloads in load order: [{name, path, singleton, index}].
func _autoloads() -> Array:
	var found: Array = []
	for p: Dictionary in ProjectSettings.get_property_list():
		var key: String = str(p.get("name", ""))
		if not key.begins_with("autoload/") or not ProjectSettings.has_setting(key):
			continue
		var value: String = str(ProjectSettings.get_setting(key))
		var singleton: bool = value.begins_with("*")
		var path: String = value.substr(1) if singleton else value
		if path.begins_with("uid://"):
			var id: int = ResourceUID.text_to_id(path)
			if id != ResourceUID.INVALID_ID and ResourceUID.has_id(id):
				path = ResourceUID.get_id_path(id)
		found.append({"name": key.substr("autoload/".length()), "path": path, "singleton": singleton, "order": ProjectSettings.get_order(key)})
	found.sort_custom(func(a: Dictionary, b: Dictionary) -> bool: return int(a["order"]) < int(b["order"]))
	var out: Array = []
	for a: Dictionary in found:
		out.append({"name": a["name"], "path": a["path"], "singleton": a["singleton"], "index": out.size()})
	return out


## Gives the autoloads [param names] ascending orders in that sequence, reusing the
## orders they already have (what the editor's drag and drop does).
func _order_autoloads(names: PackedStringArray) -> void:
	var orders: Array[int] = []
	for n: String in names:
		if ProjectSettings.has_setting("autoload/" + n):
			orders.append(ProjectSettings.get_order("autoload/" + n))
	orders.sort()
	var i: int = 0
	for n: String in names:
		if ProjectSettings.has_setting("autoload/" + n):
			ProjectSettings.set_order("autoload/" + n, orders[i])
			i += 1


## The editor's own rules for autoload names (EditorAutoloadSettings), "" when fine.
func _autoload_name_problem(name: String) -> String:
	if not name.is_valid_unicode_identifier():
		return "'%s' is not a valid autoload name: use an identifier (letters, digits, _; not starting with a digit), e.g. GameState." % name
	if ClassDB.class_exists(name):
		return "'%s' is an engine class; an autoload name must not collide with one. Try %sManager or My%s." % [name, name, name]
	for c: Dictionary in ProjectSettings.get_global_class_list():
		if str(c.get("class", "")) == name:
			return "'%s' is the class_name of %s; an autoload name must not collide with a global script class." % [name, c.get("path", "a script")]
	var as_type: int = ValueCodec.type_from_name(name)
	if name == "Variant" or (as_type >= 0 and type_string(as_type) == name):
		return "'%s' is a built-in type name; pick another name." % name
	if RESERVED.has(name):
		return "'%s' is a GDScript keyword or constant; pick another name." % name
	if Engine.has_singleton(name):
		return "'%s' is an engine singleton; pick another name." % name
	return ""


## {} when [param path] can be an autoload, else {code, hint}.
func _autoload_file_problem(path: String) -> Dictionary:
	if not FileAccess.file_exists(path) and not ResourceLoader.exists(path):
		var hint: String = "No file %s." % path
		var near: PackedStringArray = _nearby_files(path)
		if not near.is_empty():
			hint += " Did you mean %s?" % _quoted(near)
		return {"code": "RESOURCE_NOT_FOUND", "hint": hint + " An autoload is a script extending Node or a scene."}
	var res: Resource = ResourceLoader.load(path)
	if res is PackedScene:
		return {}
	if res is Script:
		var scr: Script = res
		# can_instantiate() is false for every non-@tool script in the editor; a script
		# that does not compile has no instance base type.
		var base: String = str(scr.get_instance_base_type())
		if base == "":
			return {"code": "VALIDATION_ERROR", "hint": "%s does not compile; fix it first (godot_scripts_validate shows the errors)." % path}
		if not ClassDB.is_parent_class(base, "Node"):
			return {"code": "VALIDATION_ERROR", "hint": "%s extends %s; an autoload script must extend Node (or a Node class)." % [path, base]}
		return {}
	var what: String = res.get_class() if res != null else "not loadable"
	return {"code": "VALIDATION_ERROR", "hint": "%s is %s; an autoload must be a script extending Node (.gd) or a scene (.tscn/.scn)." % [path, what]}


## Up to three files in the same folder with names like [param path]'s.
func _nearby_files(path: String) -> PackedStringArray:
	var dir: String = path.get_base_dir()
	if not DirAccess.dir_exists_absolute(dir):
		return PackedStringArray()
	var files: Array = []
	for f: String in DirAccess.get_files_at(dir):
		if f.ends_with(".gd") or f.ends_with(".tscn") or f.ends_with(".scn") or f.ends_with(".cs"):
			files.append(dir.path_join(f))
	return _suggest(path, files)


## Checks the order of the [autoload] section of project.godot; "" when it matches.
func _disk_autoload_order(expected: Array) -> String:
	var cf: ConfigFile = ConfigFile.new()
	if cf.load(PROJECT_FILE) != OK:
		return "project.godot could not be read back."
	var on_disk: PackedStringArray = cf.get_section_keys("autoload") if cf.has_section("autoload") else PackedStringArray()
	var want: PackedStringArray = []
	for a: Dictionary in expected:
		want.append(str(a["name"]))
	if on_disk != want:
		return "project.godot lists the autoloads as [%s], the editor as [%s]." % [", ".join(on_disk), ", ".join(want)]
	return ""


# --- after every do/undo ----------------------------------------------------------------


## Runs at the end of every do and undo of this toolset's actions: saves project.godot
## and refreshes the editor's own views of what changed.
func _after_change(kind: String) -> void:
	if kind == "autoload":
		var autoloads: Node = _editor_node("EditorAutoloadSettings")
		if autoloads != null and autoloads.has_method("update_autoload"):
			autoloads.call("update_autoload")
	elif kind == "input":
		var pse: Node = _editor_node("ProjectSettingsEditor")
		if pse != null and pse.has_method("_update_action_map_editor"):
			pse.call("_update_action_map_editor")
	_last_save_error = ProjectSettings.save()


## A node of the editor's GUI by class (cached), or null.
func _editor_node(cls: String) -> Node:
	var cached: Variant = _editor_nodes.get(cls)
	if cached is Node and is_instance_valid(cached):
		return cached
	var found: Array[Node] = EditorInterface.get_base_control().find_children("*", cls, true, false)
	if found.is_empty():
		return null
	_editor_nodes[cls] = found[0]
	return found[0]


## For a call that changed nothing: checks the file, and when it is behind the editor
## (an earlier save failed), saves it and checks again.
func _repair_check(keys: PackedStringArray) -> Dictionary:
	var check: Dictionary = _disk_check(keys, OK)
	if check["ok"]:
		return check
	return _disk_check(keys, ProjectSettings.save())


## Reads project.godot back and checks that each key is stored as the editor holds it
## (absent when removed or equal to its default). {ok, problems}.
func _disk_check(keys: PackedStringArray, save_error: int) -> Dictionary:
	if save_error != OK:
		return {"ok": false, "problems": ["Saving project.godot failed (%s); the change is in the editor but not on disk. Check that the file is writable, then retry." % error_string(save_error)]}
	var cf: ConfigFile = ConfigFile.new()
	var err: int = cf.load(PROJECT_FILE)
	if err != OK:
		return {"ok": false, "problems": ["project.godot could not be read back (%s)." % error_string(err)]}
	var problems: Array = []
	for key: String in keys:
		var slash: int = key.find("/")
		var section: String = key.substr(0, slash) if slash >= 0 else ""
		var name: String = key.substr(slash + 1) if slash >= 0 else key
		var on_disk: bool = cf.has_section_key(section, name)
		var expect_present: bool = ProjectSettings.has_setting(key) and not _equals_default(key, ProjectSettings.get_setting(key))
		if expect_present and not on_disk:
			problems.append("%s is not in project.godot although the editor has it." % key)
		elif not expect_present and on_disk:
			problems.append("%s is still in project.godot although the editor removed it or holds its default." % key)
		elif expect_present and not _same_json(ValueCodec.encode(cf.get_value(section, name)), ValueCodec.encode(ProjectSettings.get_setting(key)), true):
			problems.append("%s is stored in project.godot as %s, the editor holds %s." % [key, JSON.stringify(ValueCodec.encode(cf.get_value(section, name))), JSON.stringify(ValueCodec.encode(ProjectSettings.get_setting(key)))])
	return {"ok": problems.is_empty(), "problems": problems}


# --- settings helpers ---------------------------------------------------------------------


## key -> property-list entry {name, type, hint, hint_string, usage} of every listed setting.
func _settings_index() -> Dictionary:
	var out: Dictionary = {}
	for p: Dictionary in ProjectSettings.get_property_list():
		var key: String = str(p.get("name", ""))
		if key.contains("/") and ProjectSettings.has_setting(key):
			out[key] = p
	return out


## The Variant type a setting takes: its declared type, else its current value's.
func _setting_type(key: String, pinfo: Dictionary) -> int:
	var t: int = int(pinfo.get("type", TYPE_NIL))
	if t == TYPE_NIL and ProjectSettings.has_setting(key):
		t = typeof(ProjectSettings.get_setting(key))
	return t


func _type_name(t: int) -> String:
	return "Variant" if t == TYPE_NIL else type_string(t)


func _setting_info(key: String, pinfo: Dictionary) -> Dictionary:
	var default_value: Variant = ProjectSettings.property_get_revert(key)
	return {
		"type": _type_name(_setting_type(key, pinfo)),
		"hint": int(pinfo.get("hint", PROPERTY_HINT_NONE)),
		"hint_string": str(pinfo.get("hint_string", "")),
		"has_default": default_value != null,
		"default": _value_json(key, default_value),
		"restart_required": (int(pinfo.get("usage", 0)) & PROPERTY_USAGE_RESTART_IF_CHANGED) != 0,
	}


func _setting_json(key: String) -> Variant:
	return _value_json(key, ProjectSettings.get_setting(key))


## A setting value as JSON; input actions in the documented event shape.
func _value_json(key: String, value: Variant) -> Variant:
	if key.begins_with("input/") and typeof(value) == TYPE_DICTIONARY:
		return _action_state_json(value)
	return ValueCodec.encode(value)


## True when [param value] is what Godot treats as the setting's default, so that
## ProjectSettings.save() leaves it out of project.godot (Variant ==, as Godot does).
func _equals_default(key: String, value: Variant) -> bool:
	var default_value: Variant = ProjectSettings.property_get_revert(key)
	return default_value != null and typeof(default_value) == typeof(value) and default_value == value


func _same(a: Variant, b: Variant) -> bool:
	return typeof(a) == typeof(b) and a == b


## Compares two JSON values (encode() output); numbers within float rounding when
## [param loose] (project.godot stores floats with 6 significant digits).
func _same_json(a: Variant, b: Variant, loose: bool = false) -> bool:
	var ta: int = typeof(a)
	var tb: int = typeof(b)
	if (ta == TYPE_INT or ta == TYPE_FLOAT) and (tb == TYPE_INT or tb == TYPE_FLOAT):
		var fa: float = float(a)
		var fb: float = float(b)
		if not loose:
			return fa == fb
		return absf(fa - fb) <= 1e-5 * maxf(1.0, maxf(absf(fa), absf(fb)))
	if ta != tb:
		return false
	if ta == TYPE_DICTIONARY:
		var da: Dictionary = a
		var db: Dictionary = b
		if da.size() != db.size():
			return false
		for k: Variant in da.keys():
			if not db.has(k) or not _same_json(da[k], db[k], loose):
				return false
		return true
	if ta == TYPE_ARRAY:
		var aa: Array = a
		var ab: Array = b
		if aa.size() != ab.size():
			return false
		for i: int in range(aa.size()):
			if not _same_json(aa[i], ab[i], loose):
				return false
		return true
	return a == b


## "" when [param value] is inside a range hint ("min,max[,step][,or_greater][,or_less]").
func _range_problem(value: Variant, hint: int, hs: String) -> String:
	if hint != PROPERTY_HINT_RANGE or (typeof(value) != TYPE_INT and typeof(value) != TYPE_FLOAT):
		return ""
	var parts: PackedStringArray = hs.split(",")
	if parts.size() < 2 or not parts[0].strip_edges().is_valid_float() or not parts[1].strip_edges().is_valid_float():
		return ""
	var lo: float = parts[0].to_float()
	var hi: float = parts[1].to_float()
	var or_greater: bool = parts.has("or_greater")
	var or_less: bool = parts.has("or_less") or parts.has("or_lesser")
	var v: float = float(value)
	if v < lo and not or_less:
		return "%s is below the minimum %s (range %s..%s%s)." % [str(value), parts[0], parts[0], parts[1], ", or greater" if or_greater else ""]
	if v > hi and not or_greater:
		return "%s is above the maximum %s (range %s..%s%s)." % [str(value), parts[1], parts[0], parts[1], ", or less" if or_less else ""]
	return ""


## Keys another tool of this toolset owns; "" for the rest.
func _owned_elsewhere(key: String) -> String:
	if key.begins_with("input/"):
		return "'%s' is an input action; use godot_project_set_action / godot_project_remove_action." % key
	if key.begins_with("autoload/"):
		return "'%s' is an autoload; use godot_project_add_autoload / godot_project_remove_autoload." % key
	return ""


func _unknown_key_hint(key: String, index: Dictionary) -> String:
	var hint: String = "Unknown setting '%s'." % key
	var near: PackedStringArray = _suggest(key, index.keys())
	if not near.is_empty():
		hint += " Did you mean %s?" % _quoted(near)
	else:
		hint += " godot_project_get_settings with a prefix (e.g. \"%s/\") lists the existing keys." % key.get_slice("/", 0)
	return hint


# --- input events ---------------------------------------------------------------------------


## Every input action name in project.godot order.
func _action_names() -> PackedStringArray:
	var found: Array = []
	for p: Dictionary in ProjectSettings.get_property_list():
		var key: String = str(p.get("name", ""))
		if key.begins_with("input/") and ProjectSettings.has_setting(key):
			found.append([ProjectSettings.get_order(key), key.substr("input/".length())])
	found.sort_custom(func(a: Array, b: Array) -> bool: return int(a[0]) < int(b[0]) or (int(a[0]) == int(b[0]) and str(a[1]) < str(b[1])))
	var out: PackedStringArray = []
	for f: Array in found:
		out.append(str(f[1]))
	return out


## Built-in actions (ui_*) are registered with a default; custom ones are not.
func _is_builtin_action(name: String) -> bool:
	return ProjectSettings.property_get_revert("input/" + name) != null


func _action_name_problem(name_v: Variant) -> String:
	if typeof(name_v) != TYPE_STRING or (name_v as String) == "":
		return "name is required: the action name, e.g. jump."
	var name: String = name_v
	if name.strip_edges() != name:
		return "The action name '%s' has leading or trailing spaces." % name
	for c: String in ["/", ":", "=", "\\", "\"", "\n", "\r", "\t"]:
		if name.contains(c):
			return "'%s' is not a valid action name: it cannot contain / : = \\ \" or control characters." % name.c_escape()
	return ""


## {deadzone, events} of a stored action value.
func _action_state_json(value: Variant) -> Dictionary:
	var d: Dictionary = value if typeof(value) == TYPE_DICTIONARY else {}
	var events: Array = []
	for e: InputEvent in _events_of(value):
		events.append(_event_to_json(e))
	var dz: Variant = d.get("deadzone", DEFAULT_DEADZONE)
	if typeof(dz) != TYPE_INT and typeof(dz) != TYPE_FLOAT:
		dz = DEFAULT_DEADZONE
	return {"deadzone": ValueCodec.encode(float(dz)), "events": events}


## The InputEvents of a stored action value (anything else in it is skipped).
func _events_of(value: Variant) -> Array:
	var out: Array = []
	if typeof(value) != TYPE_DICTIONARY:
		return out
	var list: Variant = (value as Dictionary).get("events", [])
	if typeof(list) != TYPE_ARRAY:
		return out
	for e: Variant in list:
		if e is InputEvent:
			out.append(e)
	return out


## One event in the documented JSON shape (docs/project.md).
func _event_to_json(ev: InputEvent) -> Dictionary:
	var out: Dictionary = _event_json_for_match(ev)
	out["text"] = ev.as_text()
	return out


## The JSON shape without the display text.
func _event_json_for_match(ev: InputEvent) -> Dictionary:
	var out: Dictionary = {}
	if ev is InputEventKey:
		var k: InputEventKey = ev
		out["type"] = "key"
		if k.keycode != KEY_NONE:
			out["keycode"] = OS.get_keycode_string(k.keycode)
		if k.physical_keycode != KEY_NONE:
			out["physical_keycode"] = OS.get_keycode_string(k.physical_keycode)
		if k.key_label != KEY_NONE:
			out["key_label"] = OS.get_keycode_string(k.key_label)
		if k.location == KEY_LOCATION_LEFT:
			out["location"] = "left"
		elif k.location == KEY_LOCATION_RIGHT:
			out["location"] = "right"
		_modifiers_to_json(k, out)
	elif ev is InputEventMouseButton:
		var mb: InputEventMouseButton = ev
		out["type"] = "mouse_button"
		out["button"] = MOUSE_BUTTONS.get(int(mb.button_index), int(mb.button_index))
		if mb.double_click:
			out["double_click"] = true
		_modifiers_to_json(mb, out)
	elif ev is InputEventJoypadButton:
		var jb: InputEventJoypadButton = ev
		out["type"] = "joypad_button"
		var bi: int = int(jb.button_index)
		out["button"] = JOY_BUTTONS[bi] if bi >= 0 and bi < JOY_BUTTONS.size() else bi
	elif ev is InputEventJoypadMotion:
		var jm: InputEventJoypadMotion = ev
		out["type"] = "joypad_motion"
		var ai: int = int(jm.axis)
		out["axis"] = JOY_AXES[ai] if ai >= 0 and ai < JOY_AXES.size() else ai
		out["axis_value"] = ValueCodec.encode(jm.axis_value)
		out["direction"] = "negative" if jm.axis_value < 0.0 else "positive"
	else:
		out["type"] = "other"
		out["class"] = ev.get_class()
	out["device"] = ev.device
	return out


func _modifiers_to_json(ev: InputEventWithModifiers, out: Dictionary) -> void:
	if ev.command_or_control_autoremap:
		out["command_or_control"] = true
	else:
		if ev.ctrl_pressed:
			out["ctrl"] = true
		if ev.meta_pressed:
			out["meta"] = true
	if ev.shift_pressed:
		out["shift"] = true
	if ev.alt_pressed:
		out["alt"] = true


## What identifies an event for remove_events (device left out unless given).
func _event_key(ev: InputEvent, with_device: bool) -> Dictionary:
	var d: Dictionary = _event_json_for_match(ev)
	if not with_device:
		d.erase("device")
	return d


## Parses an array of events; refuses duplicates (also against [param existing]).
## {ok, events} or {ok: false, hint}.
func _parse_events(list: Array, field: String, existing: Array = []) -> Dictionary:
	var events: Array = []
	var seen: Array = []
	for e: Variant in existing:
		seen.append(_event_json_for_match(e as InputEvent))
	for i: int in range(list.size()):
		var where: String = "%s[%d]" % [field, i]
		var r: Dictionary = _event_from_json(list[i], where)
		if not r["ok"]:
			return r
		var ev: InputEvent = r["event"]
		var ident: Dictionary = _event_json_for_match(ev)
		if seen.has(ident):
			return {"ok": false, "hint": "%s (%s) is listed twice / already in the action; each event can be in an action once." % [where, ev.as_text()]}
		seen.append(ident)
		events.append(ev)
	return {"ok": true, "events": events}


## One event from its JSON shape. {ok, event, device_given} or {ok: false, hint}.
func _event_from_json(v: Variant, where: String) -> Dictionary:
	var shape: String = " (see the input event shape in the resource godot://docs/project)"
	if typeof(v) != TYPE_DICTIONARY:
		return _bad_event(where, "an event must be an object such as {\"type\": \"key\", \"keycode\": \"Space\"}" + shape)
	var d: Dictionary = v
	var type_v: Variant = d.get("type")
	if typeof(type_v) != TYPE_STRING or not EVENT_FIELDS.has(type_v):
		if typeof(type_v) == TYPE_STRING and type_v == "other":
			return _bad_event(where, "events of type other (%s) cannot be set; use key, mouse_button, joypad_button or joypad_motion" % d.get("class", "?"))
		return _bad_event(where, "type must be key, mouse_button, joypad_button or joypad_motion, got %s" % JSON.stringify(type_v))
	var kind: String = type_v
	var fields: Array = EVENT_FIELDS[kind]
	for k: Variant in d.keys():
		if not fields.has(k) and not EVENT_COMMON.has(k):
			return _bad_event(where, "'%s' does not apply to a %s event; it takes %s%s" % [k, kind, ", ".join(PackedStringArray(fields)), shape])
	for flag: String in ["ctrl", "shift", "alt", "meta", "command_or_control", "double_click"]:
		if d.has(flag) and typeof(d[flag]) != TYPE_BOOL:
			return _bad_event(where, "%s must be true or false" % flag)
	var device: int = -1
	var device_given: bool = d.has("device") and d["device"] != null
	if device_given:
		var dv: Variant = _as_int(d["device"])
		if dv == null or int(dv) < -1:
			return _bad_event(where, "device must be -1 (every device) or a device index >= 0")
		device = int(dv)
	var ev: InputEvent = null
	match kind:
		"key":
			var r: Dictionary = _key_event(d, where)
			if not r["ok"]:
				return r
			ev = r["event"]
		"mouse_button":
			var mb: InputEventMouseButton = InputEventMouseButton.new()
			var b: Dictionary = _index_or_name(d.get("button"), "button", where, MOUSE_BUTTONS.values(), 1, MOUSE_ALIASES, 1)
			if not b["ok"]:
				return b
			mb.button_index = int(b["index"]) as MouseButton
			mb.double_click = d.get("double_click", false) == true
			var m: Dictionary = _apply_modifiers(mb, d, {}, where)
			if not m["ok"]:
				return m
			ev = mb
		"joypad_button":
			var jb: InputEventJoypadButton = InputEventJoypadButton.new()
			var b: Dictionary = _index_or_name(d.get("button"), "button", where, JOY_BUTTONS, 0, JOY_ALIASES, 0)
			if not b["ok"]:
				return b
			jb.button_index = int(b["index"]) as JoyButton
			ev = jb
		"joypad_motion":
			var jm: InputEventJoypadMotion = InputEventJoypadMotion.new()
			var a: Dictionary = _index_or_name(d.get("axis"), "axis", where, JOY_AXES, 0, JOY_AXIS_ALIASES, 0, 9)
			if not a["ok"]:
				return a
			jm.axis = int(a["index"]) as JoyAxis
			var value: Variant = null
			if d.has("axis_value") and d["axis_value"] != null:
				var av: Variant = d["axis_value"]
				if (typeof(av) != TYPE_INT and typeof(av) != TYPE_FLOAT) or float(av) == 0.0 or absf(float(av)) > 1.0:
					return _bad_event(where, "axis_value must be a non-zero number within -1..1 (-1 left/up, 1 right/down), got %s" % JSON.stringify(av))
				value = float(av)
			if d.has("direction") and d["direction"] != null:
				var dir: Variant = d["direction"]
				if typeof(dir) != TYPE_STRING or (dir != "positive" and dir != "negative"):
					return _bad_event(where, "direction must be \"positive\" (right/down) or \"negative\" (left/up), got %s" % JSON.stringify(dir))
				var dir_sign: float = 1.0 if dir == "positive" else -1.0
				if value != null and signf(float(value)) != dir_sign:
					return _bad_event(where, "direction %s contradicts axis_value %s" % [dir, str(value)])
				if value == null:
					value = dir_sign
			if value == null:
				return _bad_event(where, "a joypad_motion event needs direction (\"positive\" or \"negative\") or axis_value (-1 or 1)")
			jm.axis_value = float(value)
			ev = jm
	ev.device = device
	return {"ok": true, "event": ev, "device_given": device_given}


func _bad_event(where: String, msg: String) -> Dictionary:
	return {"ok": false, "hint": "%s: %s." % [where, msg]}


func _key_event(d: Dictionary, where: String) -> Dictionary:
	var k: InputEventKey = InputEventKey.new()
	var mods: Dictionary = {}
	var any_key: bool = false
	for field: String in ["keycode", "physical_keycode", "key_label"]:
		if not d.has(field) or d[field] == null or str(d[field]) == "":
			continue
		if typeof(d[field]) != TYPE_STRING:
			return _bad_event(where, "%s must be a key name such as \"Space\", \"A\" or \"Ctrl+S\"" % field)
		var parsed: Dictionary = _parse_key(d[field] as String, "%s.%s" % [where, field])
		if not parsed["ok"]:
			return parsed
		for m: Variant in (parsed["mods"] as Dictionary).keys():
			mods[m] = true
		var code: Key = int(parsed["keycode"]) as Key
		match field:
			"keycode":
				k.keycode = code
			"physical_keycode":
				k.physical_keycode = code
			"key_label":
				k.key_label = code
		any_key = true
	if not any_key:
		return _bad_event(where, "a key event needs keycode (the logical key, e.g. \"Space\"), physical_keycode (the key's position, e.g. \"W\") or key_label")
	var loc: Variant = d.get("location", "any")
	if loc == null:
		loc = "any"
	if typeof(loc) != TYPE_STRING or not ["any", "left", "right"].has(loc):
		return _bad_event(where, "location must be any, left or right")
	if loc == "left":
		k.location = KEY_LOCATION_LEFT
	elif loc == "right":
		k.location = KEY_LOCATION_RIGHT
	else:
		k.location = KEY_LOCATION_UNSPECIFIED
	var m: Dictionary = _apply_modifiers(k, d, mods, where)
	if not m["ok"]:
		return m
	return {"ok": true, "event": k}


## Sets the modifier flags from the event's booleans and from "Ctrl+…" key names.
func _apply_modifiers(ev: InputEventWithModifiers, d: Dictionary, from_names: Dictionary, where: String) -> Dictionary:
	var want: Dictionary = from_names.duplicate()
	for flag: String in ["ctrl", "shift", "alt", "meta", "command_or_control"]:
		if d.get(flag, false) == true:
			want[flag] = true
	if want.has("command_or_control") and (want.has("ctrl") or want.has("meta")):
		return _bad_event(where, "command_or_control stands for Ctrl (Cmd on macOS); do not combine it with ctrl or meta")
	if want.has("command_or_control"):
		ev.command_or_control_autoremap = true
	else:
		ev.ctrl_pressed = want.has("ctrl")
		ev.meta_pressed = want.has("meta")
	ev.shift_pressed = want.has("shift")
	ev.alt_pressed = want.has("alt")
	return {"ok": true}


## Resolves a button/axis given by name (or alias) or index. {ok, index} or {ok: false, hint}.
func _index_or_name(v: Variant, field: String, where: String, listed: Array, first_index: int, aliases: Dictionary, lo: int, hi: int = 127) -> Dictionary:
	if v == null:
		return _bad_event(where, "%s is required: one of %s, or an index" % [field, ", ".join(PackedStringArray(listed))])
	var as_int: Variant = _as_int(v)
	if as_int != null:
		if int(as_int) < lo or int(as_int) > hi:
			return _bad_event(where, "%s index must be from %d to %d, got %d" % [field, lo, hi, int(as_int)])
		return {"ok": true, "index": int(as_int)}
	if typeof(v) != TYPE_STRING:
		return _bad_event(where, "%s must be a name (%s) or an index" % [field, ", ".join(PackedStringArray(listed))])
	var wanted: String = _norm(v as String)
	for prefix: String in ["joybutton", "joyaxis", "mousebutton"]:
		if wanted.begins_with(prefix) and wanted.length() > prefix.length():
			wanted = wanted.substr(prefix.length())
	for i: int in range(listed.size()):
		if _norm(str(listed[i])) == wanted:
			return {"ok": true, "index": i + first_index}
	if aliases.has(wanted):
		return {"ok": true, "index": int(aliases[wanted])}
	var hint: String = "unknown %s '%s'; use one of %s, or an index" % [field, v, ", ".join(PackedStringArray(listed))]
	var near: PackedStringArray = _suggest(v as String, listed)
	if not near.is_empty():
		hint = "unknown %s '%s' (did you mean %s?); use one of %s, or an index" % [field, v, _quoted(near), ", ".join(PackedStringArray(listed))]
	return _bad_event(where, hint)


## Parses "Space", "a", "KEY_ESCAPE", "Ctrl+Shift+S" ("Ctrl++" is Ctrl and the + key).
## {ok, keycode, mods} or {ok: false, hint}.
func _parse_key(text: String, where: String) -> Dictionary:
	_ensure_key_table()
	var key_part: String = text
	var mod_parts: PackedStringArray = []
	if text == "+" or text.ends_with("++"):
		key_part = "+"
		if text.length() > 2:
			mod_parts = text.substr(0, text.length() - 2).split("+")
	else:
		var parts: PackedStringArray = text.split("+")
		key_part = parts[parts.size() - 1]
		parts.remove_at(parts.size() - 1)
		mod_parts = parts
	key_part = key_part.strip_edges()
	var mods: Dictionary = {}
	for part: String in mod_parts:
		var word: String = _norm(part.strip_edges())
		if not MODIFIER_WORDS.has(word):
			return _bad_event(where, "'%s' in \"%s\" is not a modifier; use Ctrl, Shift, Alt, Meta or CommandOrControl before + (e.g. \"Ctrl+S\")" % [part, text])
		mods[MODIFIER_WORDS[word]] = true
	var code: int = _find_key(key_part)
	if code == KEY_NONE:
		var hint: String = "unknown key '%s'" % key_part
		var near: PackedStringArray = _suggest(key_part, Array(_key_names))
		if not near.is_empty():
			hint += " (did you mean %s?)" % _quoted(near)
		hint += "; key names are as Godot writes them: A-Z, 0-9, Space, Enter, Escape, Tab, Up, Down, Left, Right, F1-F12, Shift, Ctrl, Minus, Comma, Kp 1, …"
		return _bad_event(where, hint)
	return {"ok": true, "keycode": code, "mods": mods}


func _find_key(name: String) -> int:
	if name == "":
		return KEY_NONE
	var n: String = _norm(name)
	if n.begins_with("key") and n.length() > 3 and _key_by_norm.has(n.substr(3)) and not _key_by_norm.has(n):
		n = n.substr(3)
	if _key_by_norm.has(n):
		return int(_key_by_norm[n])
	if KEY_ALIASES.has(name.to_lower()):
		return int(_key_by_norm.get(_norm(KEY_ALIASES[name.to_lower()]), KEY_NONE))
	if KEY_ALIASES.has(n):
		return int(_key_by_norm.get(_norm(KEY_ALIASES[n]), KEY_NONE))
	if name.length() == 1:
		var code: int = name.to_upper().unicode_at(0)
		var label: String = OS.get_keycode_string(code as Key)
		if label != "" and int(OS.find_keycode_from_string(label)) == code:
			return code
	return KEY_NONE


## Builds the normalised name -> keycode table from KEY_NAMES (names this Godot does not
## know are left out).
func _ensure_key_table() -> void:
	if not _key_by_norm.is_empty():
		return
	for label: String in KEY_NAMES:
		var code: int = OS.find_keycode_from_string(label)
		if code == KEY_NONE:
			continue
		_key_names.append(label)
		_key_by_norm[_norm(label)] = code


func _norm(s: String) -> String:
	return s.to_lower().replace(" ", "").replace("_", "").replace("-", "")


# --- small helpers -------------------------------------------------------------------------


## Up to three candidates closest to [param wanted]: String.similarity (bigrams), with a
## bonus for sharing the last path segment; for short lists also the edit distance with
## transpositions, which bigrams miss ("jmup" -> "jump").
func _suggest(wanted: String, candidates: Array) -> PackedStringArray:
	var lower: String = wanted.to_lower()
	var last: String = lower.get_file()
	var by_edits: bool = candidates.size() <= 500
	var scored: Array = []
	for c: Variant in candidates:
		var name: String = str(c)
		var nl: String = name.to_lower()
		var score: float = nl.similarity(lower)
		if by_edits and absi(nl.length() - lower.length()) <= 3:
			var longest: int = maxi(nl.length(), lower.length())
			if longest > 0:
				score = maxf(score, 1.0 - float(_edit_distance(nl, lower)) / float(longest))
		if last != "" and nl.get_file() == last:
			score += 0.3
		elif last.length() >= 3 and nl.get_file().contains(last):
			score += 0.15
		if score >= 0.45:
			scored.append([score, name])
	scored.sort_custom(func(a: Array, b: Array) -> bool: return float(a[0]) > float(b[0]) or (float(a[0]) == float(b[0]) and str(a[1]) < str(b[1])))
	var out: PackedStringArray = []
	for s: Array in scored.slice(0, MAX_SUGGESTIONS):
		out.append(str(s[1]))
	return out


## Optimal string alignment distance: insertions, deletions, substitutions and swaps of
## two neighbouring characters each cost 1.
func _edit_distance(a: String, b: String) -> int:
	var n: int = a.length()
	var m: int = b.length()
	var prev2: PackedInt32Array = []
	var prev: PackedInt32Array = []
	prev.resize(m + 1)
	for j: int in range(m + 1):
		prev[j] = j
	for i: int in range(1, n + 1):
		var cur: PackedInt32Array = []
		cur.resize(m + 1)
		cur[0] = i
		for j: int in range(1, m + 1):
			var cost: int = 0 if a.unicode_at(i - 1) == b.unicode_at(j - 1) else 1
			var best: int = mini(mini(prev[j] + 1, cur[j - 1] + 1), prev[j - 1] + cost)
			if i > 1 and j > 1 and a.unicode_at(i - 1) == b.unicode_at(j - 2) and a.unicode_at(i - 2) == b.unicode_at(j - 1):
				best = mini(best, prev2[j - 2] + 1)
			cur[j] = best
		prev2 = prev
		prev = cur
	return prev[m]


func _quoted(names: PackedStringArray) -> String:
	var q: PackedStringArray = []
	for n: String in names:
		q.append("'%s'" % n)
	return " or ".join(q)


## A short list of keys for an action name.
func _summary(keys: Array) -> String:
	if keys.size() <= 2:
		return ", ".join(PackedStringArray(keys))
	return "%s, %s and %d more" % [keys[0], keys[1], keys.size() - 2]


## An integer from a JSON number; null otherwise.
func _as_int(v: Variant) -> Variant:
	if typeof(v) == TYPE_INT:
		return v
	if typeof(v) == TYPE_FLOAT and is_finite(v as float) and (v as float) == floorf(v as float):
		return int(v)
	return null


## A boolean param: true only for a JSON true.
func _flag(params: Dictionary, key: String) -> bool:
	var v: Variant = params.get(key, false)
	return typeof(v) == TYPE_BOOL and v


func _int_param(params: Dictionary, key: String, default_value: int) -> Variant:
	if not params.has(key) or params[key] == null:
		return default_value
	return _as_int(params[key])


## The offset a cursor stands for (0 without one), or null for a malformed cursor.
func _cursor(params: Dictionary) -> Variant:
	var c: Variant = params.get("cursor", "")
	if c == null:
		return 0
	if typeof(c) != TYPE_STRING:
		return null
	if (c as String) == "":
		return 0
	if not (c as String).is_valid_int() or (c as String).to_int() < 0:
		return null
	return (c as String).to_int()
