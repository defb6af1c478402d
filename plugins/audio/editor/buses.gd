@tool
extends RefCounted
## The audio bus layout: read it from AudioServer, edit it with a list of operations
## as ONE undo action (global history), all or nothing, then save it to the project's
## default bus layout file (audio/buses/default_bus_layout) as the editor's Audio panel
## does. Undo and redo put back a snapshot of the whole layout and save it again.

const Common := preload("common.gd")
const BUS_FIELDS: PackedStringArray = ["volume_db", "solo", "mute", "bypass_effects", "send"]

var c: Common = null


func _init(common: Common) -> void:
	c = common


## The bus layout file the project loads (uid:// resolved).
static func layout_path() -> String:
	var p: String = str(ProjectSettings.get_setting("audio/buses/default_bus_layout", "res://default_bus_layout.tres"))
	if p.begins_with("uid://"):
		var id: int = ResourceUID.text_to_id(p)
		if ResourceUID.has_id(id):
			p = ResourceUID.get_id_path(id)
	return p


static func bus_names() -> PackedStringArray:
	var out: PackedStringArray = []
	for i: int in AudioServer.bus_count:
		out.append(str(AudioServer.get_bus_name(i)))
	return out


## {buses: [...], layout: {path, exists}} of the layout in effect.
static func describe() -> Dictionary:
	var buses: Array = []
	for i: int in AudioServer.bus_count:
		var effects: Array = []
		for j: int in AudioServer.get_bus_effect_count(i):
			var fx: AudioEffect = AudioServer.get_bus_effect(i, j)
			var props: Dictionary = {}
			var st: Dictionary = Common.stored(fx)
			for k: String in st:
				props[k] = Common.encode(st[k])
			effects.append({"index": j, "class": fx.get_class(), "enabled": AudioServer.is_bus_effect_enabled(i, j), "properties": props})
		buses.append({
			"index": i,
			"name": str(AudioServer.get_bus_name(i)),
			"volume_db": AudioServer.get_bus_volume_db(i),
			"solo": AudioServer.is_bus_solo(i),
			"mute": AudioServer.is_bus_mute(i),
			"bypass_effects": AudioServer.is_bus_bypassing_effects(i),
			"send": "" if i == 0 else effective_send(i),
			"effects": effects,
		})
	var path: String = layout_path()
	return {"buses": buses, "layout": {"path": path, "exists": FileAccess.file_exists(path)}}


## The send of bus [param i] as AudioServer mixes it: an empty send is Master.
static func effective_send(i: int) -> String:
	var s: String = str(AudioServer.get_bus_send(i))
	return "Master" if s == "" else s


func get_buses(_params: Dictionary) -> Dictionary:
	return c.ok(describe())


## The whole layout: [{name, send, solo, mute, bypass, volume_db, effects: [[fx, enabled, props]]}].
static func snapshot() -> Array:
	var out: Array = []
	for i: int in AudioServer.bus_count:
		var effects: Array = []
		for j: int in AudioServer.get_bus_effect_count(i):
			var fx: AudioEffect = AudioServer.get_bus_effect(i, j)
			effects.append([fx, AudioServer.is_bus_effect_enabled(i, j), Common.stored(fx)])
		out.append({"name": AudioServer.get_bus_name(i), "send": AudioServer.get_bus_send(i), "solo": AudioServer.is_bus_solo(i),
			"mute": AudioServer.is_bus_mute(i), "bypass": AudioServer.is_bus_bypassing_effects(i), "volume_db": AudioServer.get_bus_volume_db(i), "effects": effects})
	return out


## Puts AudioServer back in the state of [param snap] (the same effect objects, their
## properties restored) and tells the Audio panel to rebuild.
static func restore(snap: Array) -> void:
	var layout: AudioBusLayout = AudioBusLayout.new()
	for i: int in snap.size():
		var b: Dictionary = snap[i]
		var pre: String = "bus/%d/" % i
		layout.set(pre + "name", b["name"])
		layout.set(pre + "send", b["send"])
		layout.set(pre + "solo", b["solo"])
		layout.set(pre + "mute", b["mute"])
		layout.set(pre + "bypass_fx", b["bypass"])
		layout.set(pre + "volume_db", b["volume_db"])
		var effects: Array = b["effects"]
		for j: int in effects.size():
			var fx: AudioEffect = effects[j][0]
			var props: Dictionary = effects[j][2]
			for k: String in props:
				var v: Variant = props[k]
				fx.set(k, v.duplicate(true) if (v is Array or v is Dictionary) else v)
			layout.set(pre + "effect/%d/effect" % j, fx)
			layout.set(pre + "effect/%d/enabled" % j, effects[j][1])
	AudioServer.set_bus_layout(layout)
	AudioServer.emit_signal("bus_layout_changed")


## Saves the layout in effect to [param path] as the Audio panel does; OK or the error.
static func save_layout(path: String) -> Error:
	var err: Error = ResourceSaver.save(AudioServer.generate_bus_layout(), path)
	if err == OK:
		EditorInterface.get_resource_filesystem().update_file(path)
	return err


func _restore_and_save(snap: Array, path: String) -> void:
	restore(snap)
	var err: Error = save_layout(path)
	if err != OK:
		push_error("godot-mcp: saving the audio bus layout to %s failed: %s" % [path, error_string(err)])


## {ops: [...], dry_run} -> {buses, layout, applied, saved, persisted, reason, undoable, dry_run}
func edit_buses(params: Dictionary) -> Dictionary:
	var ops_v: Variant = params.get("ops", [])
	if typeof(ops_v) != TYPE_ARRAY or (ops_v as Array).is_empty():
		return c.fail("VALIDATION_ERROR", "ops must be a non-empty list of operations, e.g. [{op: \"add_bus\", name: \"Music\"}].")
	var ops: Array = ops_v
	var dry: bool = bool(params.get("dry_run", false))
	var before: Array = snapshot()
	var bad_before: Dictionary = _bad_sends()
	for i: int in ops.size():
		if typeof(ops[i]) != TYPE_DICTIONARY:
			restore(before)
			return c.fail("VALIDATION_ERROR", "ops[%d] must be an object with op." % i)
		var err: Dictionary = _apply(ops[i], i)
		if not err.is_empty():
			restore(before)
			return err
	var bad: String = _check_sends(bad_before)
	if bad != "":
		restore(before)
		return c.fail("VALIDATION_ERROR", bad)
	var result: Dictionary = describe()
	result["applied"] = ops.size()
	result["dry_run"] = dry
	result["undoable"] = false
	result["persisted"] = false
	result["reason"] = ""
	if dry:
		restore(before)
		result["reason"] = "dry run: nothing was changed"
		return c.ok(result)
	var after: Array = snapshot()
	var path: String = layout_path()
	var serr: Error = save_layout(path)
	if serr != OK:
		restore(before)
		return c.fail("INTERNAL_ERROR", "Saving the bus layout to '%s' failed (%s); nothing was changed. Check that the file is writable." % [path, error_string(serr)])
	var mgr: EditorUndoRedoManager = EditorInterface.get_editor_undo_redo()
	mgr.create_action("godot-mcp: edit audio buses", UndoRedo.MERGE_DISABLE)
	mgr.add_do_method(self, "_restore_and_save", after, path)
	mgr.add_undo_method(self, "_restore_and_save", before, path)
	mgr.commit_action(false)
	result["layout"] = {"path": path, "exists": true}
	result["undoable"] = true
	result["persisted"] = true
	return c.ok(result)


func _no_bus(name: String, i: int) -> Dictionary:
	var names: PackedStringArray = bus_names()
	return c.fail("RESOURCE_NOT_FOUND", "ops[%d]: no audio bus named '%s'.%s Buses now (after the earlier ops): %s." % [i, name, Common.did_you_mean(name, names), ", ".join(names)])


## Applies one operation to AudioServer; {} or a failure.
func _apply(op: Dictionary, i: int) -> Dictionary:
	var kind: String = str(op.get("op", ""))
	if kind == "add_bus":
		return _add_bus(op, i)
	var bus_name: String = str(op.get("bus", ""))
	var b: int = AudioServer.get_bus_index(bus_name)
	if bus_name == "" or b < 0:
		return _no_bus(bus_name, i)
	match kind:
		"remove_bus":
			if b == 0:
				return c.fail("VALIDATION_ERROR", "ops[%d]: Master (bus 0) cannot be removed: every other bus ends in it. Remove other buses, or mute Master with set_bus." % i)
			AudioServer.remove_bus(b)
		"rename_bus":
			if b == 0:
				return c.fail("VALIDATION_ERROR", "ops[%d]: Master (bus 0) cannot be renamed: Godot always names bus 0 Master." % i)
			var new_name: String = str(op.get("name", "")).strip_edges()
			if new_name == "":
				return c.fail("VALIDATION_ERROR", "ops[%d]: rename_bus needs name (the new name)." % i)
			if new_name != bus_name and AudioServer.get_bus_index(new_name) >= 0:
				return c.fail("VALIDATION_ERROR", "ops[%d]: there already is a bus named '%s'." % [i, new_name])
			AudioServer.set_bus_name(b, new_name)
			for k: int in AudioServer.bus_count:
				if k > 0 and str(AudioServer.get_bus_send(k)) == bus_name:
					AudioServer.set_bus_send(k, new_name)
		"move_bus":
			if b == 0:
				return c.fail("VALIDATION_ERROR", "ops[%d]: Master (bus 0) cannot be moved: it is always first." % i)
			var to: int = int(op.get("to", -1))
			if to < 1 or to >= AudioServer.bus_count:
				return c.fail("VALIDATION_ERROR", "ops[%d]: to %d is out of range: a bus can move to 1..%d (0 is Master)." % [i, to, AudioServer.bus_count - 1])
			if to > b:
				AudioServer.move_bus(b, to + 1)
			elif to < b:
				AudioServer.move_bus(b, to)
		"set_bus":
			return _set_fields(op, b, i)
		"add_effect", "remove_effect", "move_effect", "set_effect":
			return _effect_op(kind, op, b, i)
		_:
			return c.fail("VALIDATION_ERROR", "ops[%d]: unknown op '%s'." % [i, kind])
	return {}


func _add_bus(op: Dictionary, i: int) -> Dictionary:
	var name: String = str(op.get("name", "")).strip_edges()
	if name == "":
		return c.fail("VALIDATION_ERROR", "ops[%d]: add_bus needs name." % i)
	if AudioServer.get_bus_index(name) >= 0:
		return c.fail("VALIDATION_ERROR", "ops[%d]: there already is a bus named '%s'." % [i, name])
	var at: int = int(op.get("at", -1))
	if at != -1 and (at < 1 or at > AudioServer.bus_count):
		return c.fail("VALIDATION_ERROR", "ops[%d]: at %d is out of range: a new bus goes at 1..%d (0 is Master; omit at for last)." % [i, at, AudioServer.bus_count])
	var idx: int = AudioServer.bus_count if at == -1 or at == AudioServer.bus_count else at
	AudioServer.add_bus(-1 if idx == AudioServer.bus_count else idx)
	AudioServer.set_bus_name(idx, name)
	AudioServer.set_bus_send(idx, "Master")
	return _set_fields(op, idx, i)


## volume_db / solo / mute / bypass_effects / send of bus [param b] from [param op].
func _set_fields(op: Dictionary, b: int, i: int) -> Dictionary:
	if op.has("send") and op["send"] != null:
		if b == 0:
			return c.fail("VALIDATION_ERROR", "ops[%d]: Master has no send: it is the output." % i)
		var send: String = str(op["send"])
		var s: int = AudioServer.get_bus_index(send)
		if s < 0:
			return _no_bus(send, i)
		# Checked at the end too: the order may still change.
		AudioServer.set_bus_send(b, send)
	if op.has("volume_db") and op["volume_db"] != null:
		var v: float = float(op["volume_db"])
		if is_nan(v) or v < -80.0 or v > 24.0:
			return c.fail("VALIDATION_ERROR", "ops[%d]: volume_db %s is out of range: -80..24 dB (0 is unchanged, the Audio panel's slider tops out at +6)." % [i, str(op["volume_db"])])
		AudioServer.set_bus_volume_db(b, v)
	if op.has("solo") and op["solo"] != null:
		AudioServer.set_bus_solo(b, bool(op["solo"]))
	if op.has("mute") and op["mute"] != null:
		AudioServer.set_bus_mute(b, bool(op["mute"]))
	if op.has("bypass_effects") and op["bypass_effects"] != null:
		AudioServer.set_bus_bypass_effects(b, bool(op["bypass_effects"]))
	return {}


## {bus name: send} of the buses whose send is no bus before them.
static func _bad_sends() -> Dictionary:
	var out: Dictionary = {}
	for k: int in range(1, AudioServer.bus_count):
		var send: String = effective_send(k)
		var s: int = AudioServer.get_bus_index(send)
		if s < 0 or s >= k:
			out[str(AudioServer.get_bus_name(k))] = send
	return out


## "" or why a bus's send is not a bus before it (AudioServer mixes such a send into
## Master). A bad send the layout already had before the call ([param was]) is let be.
static func _check_sends(was: Dictionary) -> String:
	for k: int in range(1, AudioServer.bus_count):
		var send: String = effective_send(k)
		var name: String = str(AudioServer.get_bus_name(k))
		if was.has(name) and str(was[name]) == send:
			continue
		var s: int = AudioServer.get_bus_index(send)
		if s < 0:
			return "Bus '%s' sends to '%s', which is no bus after these ops (removed or renamed?). Set its send (set_bus {bus: \"%s\", send: \"Master\"}) in the same call." % [AudioServer.get_bus_name(k), send, AudioServer.get_bus_name(k)]
		if s >= k:
			return "Bus '%s' (index %d) sends to '%s' (index %d): a send must go to a bus before it in the order (Godot routes a later one to Master, and a loop is impossible). Move '%s' before '%s' with move_bus, or pick another send." % [AudioServer.get_bus_name(k), k, send, s, send, AudioServer.get_bus_name(k)]
	return ""


static func effect_classes() -> PackedStringArray:
	var out: PackedStringArray = []
	for cls: String in ClassDB.get_inheriters_from_class("AudioEffect"):
		if ClassDB.can_instantiate(cls):
			out.append(cls)
	out.sort()
	return out


func _effect_op(kind: String, op: Dictionary, b: int, i: int) -> Dictionary:
	var bus_name: String = str(AudioServer.get_bus_name(b))
	var count: int = AudioServer.get_bus_effect_count(b)
	if kind == "add_effect":
		var cls: String = str(op.get("effect", "")).strip_edges()
		var classes: PackedStringArray = effect_classes()
		if not classes.has(cls):
			var guess: String = cls if cls.begins_with("AudioEffect") else "AudioEffect" + cls
			if classes.has(guess):
				cls = guess
			else:
				return c.fail("VALIDATION_ERROR", "ops[%d]: '%s' is not an AudioEffect class.%s Effects: %s." % [i, cls, Common.did_you_mean(guess, classes), ", ".join(classes)])
		var at: int = int(op.get("at", -1))
		if at != -1 and (at < 0 or at > count):
			return c.fail("VALIDATION_ERROR", "ops[%d]: at %d is out of range: bus '%s' has %d effects (omit at for last)." % [i, at, bus_name, count])
		var fx: AudioEffect = ClassDB.instantiate(cls) as AudioEffect
		var perr: Dictionary = _set_props(fx, op, i)
		if not perr.is_empty():
			return perr
		AudioServer.add_bus_effect(b, fx, at)
		var idx: int = count if at == -1 else at
		if op.has("enabled") and op["enabled"] != null:
			AudioServer.set_bus_effect_enabled(b, idx, bool(op["enabled"]))
		return {}
	var index: int = int(op.get("index", -1))
	if index < 0 or index >= count:
		return c.fail("RESOURCE_NOT_FOUND", "ops[%d]: bus '%s' has no effect %d; it has %d (indexes 0..%d; godot_audio_get_buses lists them)." % [i, bus_name, index, count, count - 1])
	match kind:
		"remove_effect":
			AudioServer.remove_bus_effect(b, index)
		"move_effect":
			var to: int = int(op.get("to", -1))
			if to < 0 or to >= count:
				return c.fail("VALIDATION_ERROR", "ops[%d]: to %d is out of range 0..%d (effects of bus '%s')." % [i, to, count - 1, bus_name])
			var fx2: AudioEffect = AudioServer.get_bus_effect(b, index)
			var on: bool = AudioServer.is_bus_effect_enabled(b, index)
			AudioServer.remove_bus_effect(b, index)
			AudioServer.add_bus_effect(b, fx2, to)
			AudioServer.set_bus_effect_enabled(b, to, on)
		"set_effect":
			var fx3: AudioEffect = AudioServer.get_bus_effect(b, index)
			var perr2: Dictionary = _set_props(fx3, op, i)
			if not perr2.is_empty():
				return perr2
			if op.has("enabled") and op["enabled"] != null:
				AudioServer.set_bus_effect_enabled(b, index, bool(op["enabled"]))
	return {}


## Sets op.properties on [param fx] (decoded by the value codec); {} or a failure.
func _set_props(fx: AudioEffect, op: Dictionary, i: int) -> Dictionary:
	var props_v: Variant = op.get("properties", {})
	if props_v == null:
		return {}
	if typeof(props_v) != TYPE_DICTIONARY:
		return c.fail("VALIDATION_ERROR", "ops[%d]: properties must be an object {name: value}." % i)
	var names: PackedStringArray = Common.stored_names(fx)
	var props: Dictionary = props_v
	for k: Variant in props:
		var key: String = str(k)
		if not names.has(key):
			return c.fail("VALIDATION_ERROR", "ops[%d]: %s has no property '%s'.%s Properties: %s." % [i, fx.get_class(), key, Common.did_you_mean(key, names), ", ".join(names)])
		var d: Dictionary = Common.decode(fx, key, props[k])
		if not bool(d.get("ok", false)):
			return c.fail("VALIDATION_ERROR", "ops[%d]: %s.%s: %s" % [i, fx.get_class(), key, str(d.get("hint", "bad value"))])
		fx.set(key, d["value"])
	return {}
