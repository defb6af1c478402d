@tool
extends RefCounted
## cmd_project_get_settings / cmd_project_set_settings: project settings by key or
## prefix, and edits typed by each setting's own type (value codec), one undo action,
## saved to project.godot and read back.

const ValueCodec := preload("res://addons/godot_mcp/value_codec.gd")
const CommandRouter := preload("res://addons/godot_mcp/command_router.gd")
const PathGuard := preload("res://addons/godot_mcp/path_guard.gd")
const Common := preload("common.gd")
const Events := preload("input_events.gd")
const ProjectFile := preload("project_file.gd")

var _router: CommandRouter = null
var _pf: ProjectFile = null


func setup(router: CommandRouter, pf: ProjectFile) -> void:
	_router = router
	_pf = pf


func get_commands() -> Dictionary:
	return {
		"cmd_project_get_settings": {"class": "read_only", "run": get_settings},
		"cmd_project_set_settings": {"class": "mutating", "dry_run": true, "run": set_settings},
	}


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
	var limit: Variant = Common.int_param(params, "limit", 200)
	if limit == null or int(limit) < 1 or int(limit) > Common.MAX_LIMIT:
		return _router.fail("VALIDATION_ERROR", "limit must be an integer from 1 to %d." % Common.MAX_LIMIT)
	var offset: Variant = Common.cursor(params)
	if offset == null:
		return _router.fail("VALIDATION_ERROR", "cursor is not one this tool returned; pass next_cursor from the previous page, or omit it.")
	var with_info: bool = Common.flag(params, "with_info")
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
			var near: PackedStringArray = Common.suggest(key, index.keys())
			if not near.is_empty():
				suggestions[key] = near
	# total counts every setting the call matched: each key found, plus the
	# prefix's matches on all pages (a key the prefix also matches once).
	var total: int = settings.size()
	var truncated: bool = false
	var next_cursor: String = ""
	if prefix != "":
		var matched: PackedStringArray = []
		for k: Variant in index.keys():
			if str(k).begins_with(prefix):
				matched.append(str(k))
		matched.sort()
		var keys_outside: int = 0
		for key: String in settings:
			if not key.begins_with(prefix):
				keys_outside += 1
		total = matched.size() + keys_outside
		var start: int = mini(int(offset), matched.size())
		var end: int = mini(start + int(limit), matched.size())
		for i: int in range(start, end):
			var key: String = matched[i]
			settings[key] = _setting_json(key)
			if with_info:
				info[key] = _setting_info(key, index.get(key, {}))
		truncated = end < matched.size()
		if truncated:
			next_cursor = str(end)
		if matched.is_empty():
			var near_p: PackedStringArray = Common.suggest(prefix, index.keys())
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
	var create: bool = Common.flag(params, "create")
	var dry_run: bool = Common.flag(params, "dry_run")
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
			"changed": not exists or not Common.same(old, value),
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
			"changed": default_value == null or not Common.same(old, default_value),
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
		action_name = "godot-mcp: set project settings (%s)" % Common.summary(changed.map(func(p: Dictionary) -> String: return str(p["key"])))
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
		ur.add_do_method(_pf, "after_change", "settings")
		ur.add_undo_method(_pf, "after_change", "settings")
		_pf.last_save_error = OK
		ur.commit_action()
		save_error = _pf.last_save_error
		undoable = true
	var changes: Array = []
	var check_keys: PackedStringArray = []
	for p: Dictionary in plan:
		var key: String = p["key"]
		check_keys.append(key)
		var new_value: Variant = p["new"]
		var is_default: bool = p["removed"] or Common.equals_default(key, new_value)
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
	var check: Dictionary = _pf.disk_check(check_keys, save_error) if action_name != "" else _pf.repair_check(check_keys)
	out["persisted"] = check["ok"]
	if not check["ok"]:
		out["warnings"] = check["problems"]
	if action_name != "":
		out["undo_action"] = action_name
	return _router.ok(out)


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
		return Events.action_state_json(value)
	return ValueCodec.encode(value)


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
	var near: PackedStringArray = Common.suggest(key, index.keys())
	if not near.is_empty():
		hint += " Did you mean %s?" % Common.quoted(near)
	else:
		hint += " godot_project_get_settings with a prefix (e.g. \"%s/\") lists the existing keys." % key.get_slice("/", 0)
	return hint
