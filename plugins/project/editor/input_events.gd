@tool
extends RefCounted
## Input events in the JSON shape of docs/project.md, both ways: InputEvent -> JSON
## (list_actions, results) and JSON -> InputEvent with precise hints (set_action).
## Static: no state but the key-name table, built once.

const ValueCodec := preload("res://addons/godot_mcp/value_codec.gd")
const Common := preload("common.gd")

## InputMap's default deadzone for new actions (InputMap::DEFAULT_DEADZONE).
const DEFAULT_DEADZONE := 0.2
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

static var _key_by_norm: Dictionary = {} # normalised key name -> keycode
static var _key_names: PackedStringArray = []


## {deadzone, events} of a stored action value.
static func action_state_json(value: Variant) -> Dictionary:
	var d: Dictionary = value if typeof(value) == TYPE_DICTIONARY else {}
	var events: Array = []
	for e: InputEvent in events_of(value):
		events.append(event_to_json(e))
	var dz: Variant = d.get("deadzone", DEFAULT_DEADZONE)
	if typeof(dz) != TYPE_INT and typeof(dz) != TYPE_FLOAT:
		dz = DEFAULT_DEADZONE
	return {"deadzone": ValueCodec.encode(float(dz)), "events": events}


## The InputEvents of a stored action value (anything else in it is skipped).
static func events_of(value: Variant) -> Array:
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
static func event_to_json(ev: InputEvent) -> Dictionary:
	var out: Dictionary = event_json_for_match(ev)
	out["text"] = ev.as_text()
	return out


## The JSON shape without the display text.
static func event_json_for_match(ev: InputEvent) -> Dictionary:
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


static func _modifiers_to_json(ev: InputEventWithModifiers, out: Dictionary) -> void:
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
static func event_key(ev: InputEvent, with_device: bool) -> Dictionary:
	var d: Dictionary = event_json_for_match(ev)
	if not with_device:
		d.erase("device")
	return d


## Parses an array of events; refuses duplicates (also against [param existing]).
## {ok, events} or {ok: false, hint}.
static func parse_events(list: Array, field: String, existing: Array = []) -> Dictionary:
	var events: Array = []
	var seen: Array = []
	for e: Variant in existing:
		seen.append(event_json_for_match(e as InputEvent))
	for i: int in range(list.size()):
		var where: String = "%s[%d]" % [field, i]
		var r: Dictionary = event_from_json(list[i], where)
		if not r["ok"]:
			return r
		var ev: InputEvent = r["event"]
		var ident: Dictionary = event_json_for_match(ev)
		if seen.has(ident):
			return {"ok": false, "hint": "%s (%s) is listed twice / already in the action; each event can be in an action once." % [where, ev.as_text()]}
		seen.append(ident)
		events.append(ev)
	return {"ok": true, "events": events}


## One event from its JSON shape. {ok, event, device_given} or {ok: false, hint}.
static func event_from_json(v: Variant, where: String) -> Dictionary:
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
		var dv: Variant = Common.as_int(d["device"])
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


static func _bad_event(where: String, msg: String) -> Dictionary:
	return {"ok": false, "hint": "%s: %s." % [where, msg]}


static func _key_event(d: Dictionary, where: String) -> Dictionary:
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
static func _apply_modifiers(ev: InputEventWithModifiers, d: Dictionary, from_names: Dictionary, where: String) -> Dictionary:
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
static func _index_or_name(v: Variant, field: String, where: String, listed: Array, first_index: int, aliases: Dictionary, lo: int, hi: int = 127) -> Dictionary:
	if v == null:
		return _bad_event(where, "%s is required: one of %s, or an index" % [field, ", ".join(PackedStringArray(listed))])
	var as_int: Variant = Common.as_int(v)
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
	var near: PackedStringArray = Common.suggest(v as String, listed)
	if not near.is_empty():
		hint = "unknown %s '%s' (did you mean %s?); use one of %s, or an index" % [field, v, Common.quoted(near), ", ".join(PackedStringArray(listed))]
	return _bad_event(where, hint)


## Parses "Space", "a", "KEY_ESCAPE", "Ctrl+Shift+S" ("Ctrl++" is Ctrl and the + key).
## {ok, keycode, mods} or {ok: false, hint}.
static func _parse_key(text: String, where: String) -> Dictionary:
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
		var near: PackedStringArray = Common.suggest(key_part, Array(_key_names))
		if not near.is_empty():
			hint += " (did you mean %s?)" % Common.quoted(near)
		hint += "; key names are as Godot writes them: A-Z, 0-9, Space, Enter, Escape, Tab, Up, Down, Left, Right, F1-F12, Shift, Ctrl, Minus, Comma, Kp 1, …"
		return _bad_event(where, hint)
	return {"ok": true, "keycode": code, "mods": mods}


static func _find_key(name: String) -> int:
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
static func _ensure_key_table() -> void:
	if not _key_by_norm.is_empty():
		return
	for label: String in KEY_NAMES:
		var code: int = OS.find_keycode_from_string(label)
		if code == KEY_NONE:
			continue
		_key_names.append(label)
		_key_by_norm[_norm(label)] = code


static func _norm(s: String) -> String:
	return s.to_lower().replace(" ", "").replace("_", "").replace("-", "")
