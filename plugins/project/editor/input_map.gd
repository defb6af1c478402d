@tool
extends RefCounted
## cmd_project_list_actions / set_action / remove_action: the input map, with events in
## the shape of docs/project.md (input_events.gd), one undo action per edit, saved to
## project.godot.

const CommandRouter := preload("res://addons/godot_mcp/command_router.gd")
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
		"cmd_project_list_actions": {"class": "read_only", "run": list_actions},
		"cmd_project_set_action": {"class": "mutating", "dry_run": true, "run": set_action},
		"cmd_project_remove_action": {"class": "destructive", "dry_run": true, "run": remove_action},
	}


## {filter, include_builtin, limit, cursor} -> {actions: [{name, deadzone, events, builtin}], total, truncated, next_cursor?}
func list_actions(params: Dictionary) -> Dictionary:
	var filter_v: Variant = params.get("filter", "")
	if filter_v == null:
		filter_v = ""
	if typeof(filter_v) != TYPE_STRING:
		return _router.fail("VALIDATION_ERROR", "filter must be a string (part of the action name).")
	var limit: Variant = Common.int_param(params, "limit", 100)
	if limit == null or int(limit) < 1 or int(limit) > Common.MAX_LIMIT:
		return _router.fail("VALIDATION_ERROR", "limit must be an integer from 1 to %d." % Common.MAX_LIMIT)
	var offset: Variant = Common.cursor(params)
	if offset == null:
		return _router.fail("VALIDATION_ERROR", "cursor is not one this tool returned; pass next_cursor from the previous page, or omit it.")
	var include_builtin: bool = Common.flag(params, "include_builtin")
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
		var state: Dictionary = Events.action_state_json(ProjectSettings.get_setting("input/" + names[i]))
		actions.append({"name": names[i], "deadzone": state["deadzone"], "events": state["events"], "builtin": _is_builtin_action(names[i])})
	var out: Dictionary = {"actions": actions, "total": total, "truncated": end < total}
	if end < total:
		out["next_cursor"] = str(end)
	return _router.ok(out)


## {name, events?, add_events, remove_events, deadzone?, dry_run} ->
## {name, created, builtin, old, new, changed, dry_run, persisted, undoable, undo_action?}
func set_action(params: Dictionary) -> Dictionary:
	var name_v: Variant = params.get("name")
	var name_problem: String = _action_name_problem(name_v)
	if name_problem != "":
		return _router.fail("VALIDATION_ERROR", name_problem)
	var name: String = name_v
	var key: String = "input/" + name
	var dry_run: bool = Common.flag(params, "dry_run")
	var exists: bool = ProjectSettings.has_setting(key)
	var old_value: Variant = ProjectSettings.get_setting(key) if exists else null
	if exists and typeof(old_value) != TYPE_DICTIONARY:
		return _router.fail("VALIDATION_ERROR", "The setting '%s' is not an input action (it holds a %s); fix project.godot by hand." % [key, type_string(typeof(old_value))])
	var events: Array = []
	var deadzone: float = Events.DEFAULT_DEADZONE
	if exists:
		deadzone = float(Events.action_state_json(old_value)["deadzone"])
		events = Events.events_of(old_value)
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
		var parsed: Dictionary = Events.parse_events(params["events"] as Array, "events")
		if not parsed["ok"]:
			return _router.fail("VALIDATION_ERROR", parsed["hint"])
		events = parsed["events"]
	else:
		for i: int in range((remove_v as Array).size()):
			var where: String = "remove_events[%d]" % i
			var r: Dictionary = Events.event_from_json(remove_v[i], where)
			if not r["ok"]:
				return _router.fail("VALIDATION_ERROR", r["hint"])
			var wanted: Dictionary = Events.event_key(r["event"] as InputEvent, r["device_given"])
			var found: int = -1
			for j: int in range(events.size()):
				if Events.event_key(events[j] as InputEvent, r["device_given"]) == wanted:
					found = j
					break
			if found < 0:
				var have: PackedStringArray = []
				for e: Variant in events:
					have.append(JSON.stringify(Events.event_json_for_match(e as InputEvent)))
				var listed: String = ", ".join(have) if not have.is_empty() else "none"
				return _router.fail("VALIDATION_ERROR", "%s (%s) is not an event of '%s'. Its events are: %s." % [where, (r["event"] as InputEvent).as_text(), name, listed])
			events.remove_at(found)
		var added: Dictionary = Events.parse_events(add_v as Array, "add_events", events)
		if not added["ok"]:
			return _router.fail("VALIDATION_ERROR", added["hint"])
		events.append_array(added["events"])
	if params.has("deadzone") and params["deadzone"] != null:
		var dz: Variant = params["deadzone"]
		if (typeof(dz) != TYPE_INT and typeof(dz) != TYPE_FLOAT) or float(dz) < 0.0 or float(dz) > 1.0:
			return _router.fail("VALIDATION_ERROR", "deadzone must be a number from 0 to 1 (default 0.2), got %s." % JSON.stringify(dz))
		deadzone = float(dz)
	var new_value: Dictionary = {"deadzone": deadzone, "events": events}
	var old_json: Variant = Events.action_state_json(old_value) if exists else null
	var new_json: Dictionary = Events.action_state_json(new_value)
	var changed: bool = not exists or not Common.same_json(old_json, new_json)
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
		ur.add_do_method(_pf, "after_change", "input")
		ur.add_undo_method(_pf, "after_change", "input")
		_pf.last_save_error = OK
		ur.commit_action()
		save_error = _pf.last_save_error
		out["undoable"] = true
		out["undo_action"] = action_name
	var check: Dictionary = _pf.disk_check(PackedStringArray([key]), save_error) if changed else _pf.repair_check(PackedStringArray([key]))
	out["persisted"] = check["ok"]
	if not check["ok"]:
		out["warnings"] = check["problems"]
	return _router.ok(out)


## {name, dry_run} -> {name, removed: {deadzone, events}, dry_run, persisted, undoable, undo_action?}
func remove_action(params: Dictionary) -> Dictionary:
	var name_v: Variant = params.get("name")
	var name_problem: String = _action_name_problem(name_v)
	if name_problem != "":
		return _router.fail("VALIDATION_ERROR", name_problem)
	var name: String = name_v
	var key: String = "input/" + name
	var dry_run: bool = Common.flag(params, "dry_run")
	if not ProjectSettings.has_setting(key):
		var hint: String = "No input action '%s'." % name
		var near: PackedStringArray = Common.suggest(name, Array(_action_names()))
		if not near.is_empty():
			hint += " Did you mean %s?" % Common.quoted(near)
		hint += " godot_project_list_actions lists them."
		return _router.fail("RESOURCE_NOT_FOUND", hint)
	if _is_builtin_action(name):
		return _router.fail("VALIDATION_ERROR", "'%s' is a built-in action: Godot brings it back with its default events, so it cannot be removed. To disable it, clear its events: godot_project_set_action {name: \"%s\", events: []}." % [name, name])
	var old_value: Variant = ProjectSettings.get_setting(key)
	var order: int = ProjectSettings.get_order(key)
	var out: Dictionary = {"name": name, "removed": Events.action_state_json(old_value), "dry_run": dry_run, "undoable": false}
	if dry_run:
		out["persisted"] = false
		return _router.ok(out)
	var action_name: String = "godot-mcp: remove input action '%s'" % name
	var ur: EditorUndoRedoManager = EditorInterface.get_editor_undo_redo()
	ur.create_action(action_name, UndoRedo.MERGE_DISABLE, ProjectSettings)
	ur.add_do_method(ProjectSettings, "set_setting", key, null)
	ur.add_undo_method(ProjectSettings, "set_setting", key, old_value)
	ur.add_undo_method(ProjectSettings, "set_order", key, order)
	ur.add_do_method(_pf, "after_change", "input")
	ur.add_undo_method(_pf, "after_change", "input")
	_pf.last_save_error = OK
	ur.commit_action()
	var check: Dictionary = _pf.disk_check(PackedStringArray([key]), _pf.last_save_error)
	out["undoable"] = true
	out["undo_action"] = action_name
	out["persisted"] = check["ok"]
	if not check["ok"]:
		out["warnings"] = check["problems"]
	return _router.ok(out)


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
