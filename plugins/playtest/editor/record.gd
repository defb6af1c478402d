@tool
extends RefCounted
## Record and replay (godot_playtest_record; godot_playtest_step with replay): the editor
## half. The game's recorder (res://addons/godot_mcp/runtime/playtest_record.gd) streams
## the recording here as it grows ("godot_mcp:event" "record" messages, heard through
## DebuggerPlugin.event_listeners); this side writes the file when the recording stops,
## when the game stops, or when the toolset goes away, so nothing is left recording and
## nothing the editor saw is lost. The file format is in docs/playtest.md.

const CommandRouter := preload("res://addons/godot_mcp/command_router.gd")
const DebuggerPlugin := preload("res://addons/godot_mcp/runtime/debugger_plugin.gd")
const PathGuard := preload("res://addons/godot_mcp/path_guard.gd")

const FORMAT := "godot-mcp-recording"
const VERSION := 1
const DIR := "res://playtests"
const MAX_REPLAY_INPUTS := 20000
const MAX_CHECKPOINTS := 100

var _router: CommandRouter = null
## The recording in progress, {} when none: token, path, unit, session, inputs,
## checkpoints, frames, dropped, skipped, header fields.
var _rec: Dictionary = {}
## What the last recording that ended without a stop (game stopped, toolset released)
## saved: answered once by the next stop.
var _ended: Dictionary = {}
var _next_token: int = 1
var _listener: Callable


func _init(router: RefCounted) -> void:
	_router = router as CommandRouter
	_listener = _on_event
	DebuggerPlugin.event_listeners.append(_listener)


## The toolset goes away: what is being recorded is saved, and the listener removed.
func teardown() -> void:
	if not _rec.is_empty():
		_save("toolset_disabled")
	DebuggerPlugin.event_listeners.erase(_listener)


func _on_event(kind: String, data: Variant, session_id: int) -> void:
	if _rec.is_empty() or session_id != int(_rec["session"]):
		return
	if kind == "session_stopped":
		_ended = _save("game_stopped")
		return
	if kind != "record" or typeof(data) != TYPE_DICTIONARY or int((data as Dictionary).get("token", -1)) != int(_rec["token"]):
		return
	var d: Dictionary = data
	(_rec["inputs"] as Array).append_array(d.get("inputs", []) if typeof(d.get("inputs")) == TYPE_ARRAY else [])
	(_rec["checkpoints"] as Array).append_array(d.get("checkpoints", []) if typeof(d.get("checkpoints")) == TYPE_ARRAY else [])
	_rec["frames"] = maxi(int(_rec["frames"]), int(d.get("frames", 0)))
	_rec["dropped"] = int(d.get("dropped", 0))
	_rec["skipped"] = int(d.get("skipped", 0))
	if str(d.get("ended", "")) == "released":
		_ended = _save("released")


## {action: start|stop|discard, path, unit?, checkpoints?, overwrite?}
func record(params: Dictionary, link: RefCounted) -> Dictionary:
	var action: String = str(params.get("action", "")) if params.get("action") != null else ""
	match action:
		"start":
			return await _start(params, link)
		"stop", "discard":
			return await _stop(action == "discard", link)
	return _router.fail("VALIDATION_ERROR", "action must be start, stop or discard.")


func _start(params: Dictionary, link: RefCounted) -> Dictionary:
	if not _rec.is_empty():
		return _router.fail("PRECONDITION_FAILED", "Already recording to %s (%d ticks/frames so far). Stop it first: godot_playtest_record {action: \"stop\"} saves it, \"discard\" drops it." % [_rec["path"], int(_rec["frames"])])
	var path: String = str(params.get("path", "")) if params.get("path") != null else ""
	var why: String = _path_problem(path)
	if why != "":
		return _router.fail("VALIDATION_ERROR", why)
	if FileAccess.file_exists(path) and params.get("overwrite") != true:
		return _router.fail("PRECONDITION_FAILED", "%s already exists: pass overwrite: true (with confirm: true) to replace it, or another path." % path)
	var unit: String = str(params.get("unit", "physics_ticks")) if params.get("unit") != null else "physics_ticks"
	if not unit in ["physics_ticks", "process_frames"]:
		return _router.fail("VALIDATION_ERROR", "unit must be physics_ticks or process_frames.")
	var cps: Variant = params.get("checkpoints", [])
	if cps == null:
		cps = []
	if typeof(cps) != TYPE_ARRAY or (cps as Array).size() > MAX_CHECKPOINTS:
		return _router.fail("VALIDATION_ERROR", "checkpoints must be a list of at most %d {at, expr, node?}." % MAX_CHECKPOINTS)
	if link == null:
		return _router.fail("PRECONDITION_FAILED", "The playtest tools reach the game through the runtime toolset's probe, and the runtime toolset is not enabled. Enable it (godot_enable_toolset runtime), then play the game with godot_runtime_play.", "runtime_probe")
	var token: int = _next_token
	_next_token += 1
	var monitor: DebuggerPlugin = link.get("monitor")
	# Set before asking: the game's first batch may arrive with its answer.
	_rec = {
		"token": token, "path": path, "unit": unit, "session": monitor.active_session(), "inputs": [], "checkpoints": [],
		"frames": 0, "dropped": 0, "skipped": 0, "scene": "", "started_frozen": false,
		"physics_ticks_per_second": 60, "godot_version": "",
	}
	var r: Dictionary = await link.call("ask", "record_start", {"token": token, "unit": unit, "checkpoints": cps}, 10000)
	if not bool(r.get("ok", false)):
		if not _rec.is_empty() and int(_rec["token"]) == token:
			_rec = {}
		return r
	if _rec.is_empty() or int(_rec["token"]) != token:
		return _router.fail("PRECONDITION_FAILED", "The game stopped as the recording started; nothing was recorded. Play it again with godot_runtime_play.", "runtime_probe")
	var st: Dictionary = r["result"]
	_ended = {}
	_rec["scene"] = str(st.get("scene", ""))
	_rec["started_frozen"] = bool(st.get("frozen", false))
	_rec["physics_ticks_per_second"] = int(st.get("physics_ticks_per_second", 60))
	_rec["godot_version"] = str(st.get("godot_version", ""))
	return _router.ok({"action": "start", "path": path, "recording": true, "unit": unit, "frames": 0, "inputs": 0, "checkpoints": [], "started_frozen": _rec["started_frozen"], "scene": _rec["scene"]})


func _stop(discard: bool, link: RefCounted) -> Dictionary:
	var action: String = "discard" if discard else "stop"
	if _rec.is_empty():
		if not _ended.is_empty():
			return _answer_ended(action)
		return _router.fail("PRECONDITION_FAILED", "Nothing is being recorded. Start a recording with godot_playtest_record {action: \"start\", path}.")
	var rec: Dictionary = _rec
	var reply: Dictionary = {}
	if link != null:
		reply = await link.call("ask", "record_stop", {"token": rec["token"]}, 10000)
	if _rec.is_empty() or int(_rec["token"]) != int(rec["token"]):
		# The game stopped meanwhile: saved then.
		return _answer_ended(action)
	var ended: String = "stop"
	if bool(reply.get("ok", false)):
		var res: Dictionary = reply["result"]
		_rec["frames"] = int(res.get("frames", _rec["frames"]))
		_rec["not_reached"] = res.get("not_reached", [])
	else:
		ended = "game_unreachable"
	if discard:
		var frames: int = int(_rec["frames"])
		_rec = {}
		return _router.ok({"action": "discard", "path": rec["path"], "recording": false, "saved": false, "unit": rec["unit"], "frames": frames, "inputs": (rec["inputs"] as Array).size(), "checkpoints": [], "ended": ended})
	var out2: Dictionary = _save(ended)
	out2["action"] = "stop"
	if out2.has("error_hint"):
		return _router.fail("INTERNAL_ERROR", str(out2["error_hint"]))
	return _router.ok(out2)


## The answer of a stop after the recording ended without one (saved then), once.
func _answer_ended(action: String) -> Dictionary:
	var out: Dictionary = _ended
	_ended = {}
	out["action"] = action
	if out.has("error_hint"):
		return _router.fail("INTERNAL_ERROR", str(out["error_hint"]))
	return _router.ok(out)


## Writes the recording in progress to its file and ends it: the answer of a stop.
func _save(ended: String) -> Dictionary:
	var rec: Dictionary = _rec
	_rec = {}
	var frames: int = int(rec["frames"])
	var inputs: Array = []
	var after_end: int = 0
	for s: Variant in rec["inputs"]:
		if typeof(s) == TYPE_DICTIONARY and int((s as Dictionary).get("at", 0)) < frames:
			inputs.append(s)
		else:
			after_end += 1
	var doc: Dictionary = {
		"format": FORMAT,
		"version": VERSION,
		"unit": rec["unit"],
		"frames": frames,
		"scene": rec["scene"],
		"started_frozen": rec["started_frozen"],
		"physics_ticks_per_second": rec["physics_ticks_per_second"],
		"godot_version": rec["godot_version"],
		"recorded_at": Time.get_datetime_string_from_system(true) + "Z",
		"ended": ended,
		"inputs": inputs,
		"checkpoints": rec["checkpoints"],
	}
	var out: Dictionary = {"path": rec["path"], "recording": false, "saved": false, "unit": rec["unit"], "frames": frames, "inputs": inputs.size(), "checkpoints": rec["checkpoints"], "ended": ended, "dropped": int(rec["dropped"]) + after_end, "skipped": int(rec["skipped"])}
	if rec.has("not_reached"):
		out["not_reached"] = rec["not_reached"]
	var why: String = PathGuard.problem(str(rec["path"]))
	if why != "":
		out["error_hint"] = "The recording was not saved: %s." % why
		return out
	var dir: String = str(rec["path"]).get_base_dir()
	if not DirAccess.dir_exists_absolute(dir):
		DirAccess.make_dir_recursive_absolute(dir)
	var f: FileAccess = FileAccess.open(str(rec["path"]), FileAccess.WRITE)
	if f == null:
		out["error_hint"] = "The recording could not be written to %s: %s." % [rec["path"], error_string(FileAccess.get_open_error())]
		return out
	f.store_string(JSON.stringify(doc, "\t") + "\n")
	f.close()
	out["saved"] = true
	return out


static func _path_problem(path: String) -> String:
	if path == "":
		return "path is required: a res:// .json file (e.g. res://playtests/jump.json)."
	if not path.ends_with(".json"):
		return "path %s must end in .json." % path
	var why: String = PathGuard.problem(path)
	if why != "":
		return why + "."
	return ""


## The recordings in the project's playtests folder (and the folder of [param near]).
static func list(near: String) -> PackedStringArray:
	var out: PackedStringArray = []
	for dir: String in [DIR, near.get_base_dir()]:
		var d: DirAccess = DirAccess.open(dir)
		if d == null:
			continue
		for f: String in d.get_files():
			var p: String = dir.path_join(f)
			if f.ends_with(".json") and not out.has(p):
				out.append(p)
	return out


## A recording file, checked: {doc} or {fail}. The inputs are checked again by the game.
func load_recording(path: String) -> Dictionary:
	var why: String = _path_problem(path)
	if why != "":
		return {"fail": _router.fail("VALIDATION_ERROR", "replay: " + why)}
	if not FileAccess.file_exists(path):
		var have: PackedStringArray = list(path)
		var hint: String = "No recording at %s." % path
		var best: String = ""
		var score: float = 0.0
		for p: String in have:
			var s: float = p.get_file().similarity(path.get_file())
			if s > score:
				score = s
				best = p
		if score >= 0.5:
			hint += " Did you mean %s?" % best
		hint += (" Recordings: %s." % ", ".join(have.slice(0, 20))) if not have.is_empty() else " There are none in %s yet: make one with godot_playtest_record." % DIR
		return {"fail": _router.fail("RESOURCE_NOT_FOUND", hint)}
	var text: String = FileAccess.get_file_as_string(path)
	var json: JSON = JSON.new()
	if json.parse(text) != OK:
		return {"fail": _bad(path, "", "it is not JSON (line %d: %s)" % [json.get_error_line(), json.get_error_message()])}
	if typeof(json.data) != TYPE_DICTIONARY:
		return {"fail": _bad(path, "", "it is not a JSON object")}
	var doc: Dictionary = json.data
	if doc.get("format") != FORMAT:
		return {"fail": _bad(path, "format", "must be \"%s\"" % FORMAT)}
	var version: Variant = doc.get("version")
	if not _whole(version) or int(version) < 1:
		return {"fail": _bad(path, "version", "must be an integer >= 1")}
	if int(version) > VERSION:
		return {"fail": _bad(path, "version", "is %d, newer than this godot-mcp reads (up to %d): update godot-mcp, or record again" % [int(version), VERSION])}
	if not doc.get("unit") in ["physics_ticks", "process_frames"]:
		return {"fail": _bad(path, "unit", "must be physics_ticks or process_frames")}
	if not _whole(doc.get("frames")) or int(doc["frames"]) < 0 or int(doc["frames"]) > 36000:
		return {"fail": _bad(path, "frames", "must be an integer from 0 to 36000")}
	var frames: int = int(doc["frames"])
	var inputs: Variant = doc.get("inputs", [])
	if typeof(inputs) != TYPE_ARRAY or (inputs as Array).size() > MAX_REPLAY_INPUTS:
		return {"fail": _bad(path, "inputs", "must be a list of at most %d timed inputs" % MAX_REPLAY_INPUTS)}
	for i: int in range((inputs as Array).size()):
		var s: Variant = inputs[i]
		if typeof(s) != TYPE_DICTIONARY:
			return {"fail": _bad(path, "inputs[%d]" % i, "must be an object")}
		if not _whole((s as Dictionary).get("at")) or int(s["at"]) < 0 or int(s["at"]) >= maxi(frames, 1):
			return {"fail": _bad(path, "inputs[%d].at" % i, "must be an integer from 0 to frames - 1 (%d)" % (frames - 1))}
		if typeof((s as Dictionary).get("type")) != TYPE_STRING:
			return {"fail": _bad(path, "inputs[%d].type" % i, "is required")}
	var cps: Variant = doc.get("checkpoints", [])
	if typeof(cps) != TYPE_ARRAY or (cps as Array).size() > MAX_CHECKPOINTS:
		return {"fail": _bad(path, "checkpoints", "must be a list of at most %d" % MAX_CHECKPOINTS)}
	for i: int in range((cps as Array).size()):
		var c: Variant = cps[i]
		if typeof(c) != TYPE_DICTIONARY or not _whole((c as Dictionary).get("at")) or int(c["at"]) < 0:
			return {"fail": _bad(path, "checkpoints[%d].at" % i, "must be an integer >= 0")}
		if typeof(c.get("expr")) != TYPE_STRING or str(c["expr"]).strip_edges() == "":
			return {"fail": _bad(path, "checkpoints[%d].expr" % i, "must be a non-empty expression")}
		if not (c as Dictionary).has("value"):
			return {"fail": _bad(path, "checkpoints[%d].value" % i, "is missing (the recorded value)")}
	return {"doc": doc}


func _bad(path: String, field: String, why: String) -> Dictionary:
	var what: String = ("%s %s" % [field, why]) if field != "" else why
	return _router.fail("VALIDATION_ERROR", "The recording %s is not one godot-mcp can replay: %s. The format is in docs/playtest.md (Record and replay)." % [path, what])


static func _whole(v: Variant) -> bool:
	return typeof(v) == TYPE_INT or (typeof(v) == TYPE_FLOAT and is_finite(v as float) and (v as float) == floorf(v as float))


## The recorded and replayed checkpoints compared: divergence entries
## [{at, expr, node?, recorded, replayed}] (a checkpoint the window did not reach
## has replayed {error: "not reached ..."}).
static func compare(recorded: Array, replayed: Array, missed: Array, stepped: int) -> Dictionary:
	var got: Dictionary = {}
	for c: Variant in replayed:
		if typeof(c) == TYPE_DICTIONARY:
			got[_key(c)] = (c as Dictionary).get("value")
	var out: Array = []
	var checked: int = 0
	for c: Dictionary in recorded:
		var k: String = _key(c)
		var d: Dictionary = {"at": int(c["at"]), "expr": str(c["expr"]), "recorded": c.get("value")}
		if str(c.get("node", "")) != "":
			d["node"] = str(c["node"])
		if not got.has(k):
			d["replayed"] = {"error": "not reached: the replay ended after %d" % stepped}
			out.append(d)
			continue
		checked += 1
		# Both sides as they read back from a file (JSON numbers, the same rounding).
		var a: String = JSON.stringify(c.get("value"))
		var b: String = JSON.stringify(JSON.parse_string(JSON.stringify(got[k])))
		if a != b:
			d["replayed"] = got[k]
			out.append(d)
	return {"divergence": out, "checked": checked, "missed": missed.size()}


static func _key(c: Dictionary) -> String:
	return "%d|%s|%s" % [int(c.get("at", 0)), str(c.get("node", "")), str(c.get("expr", ""))]
