extends RefCounted
## godot-mcp runtime probe, playtest half: eval, freeze and step, wait-for, watch, UI,
## digest. Owned by the probe (probe.gd), which hands it the requests and calls its
## frame hooks: start_of_tick() first in every physics tick (an early child node of
## the probe), end_of_frame() last in every process frame. See docs/playtest.md.
## Freezing is SceneTree.paused (which also stops the physics servers); a step
## unpauses for exactly the asked window. The probe's flags frozen / stepping and its
## signals frozen_changed / stepping_changed tell game code about it.

const ValueCodec := preload("../value_codec.gd")
const PlaytestUI := preload("playtest_ui.gd")
const Snippet := preload("playtest_snippet.gd")
const Recorder := preload("playtest_record.gd")

## The eval snippet's script path prefix: the editor recognises its frames in a stack.
const EVAL_PATH := "res://godot_mcp_eval_%d.gd"
const MAX_EXPRESSIONS := 16

var _probe: Node = null
## The running window (one at a time): {} when none. Keys: kind (step|wait|watch),
## id, unit (physics|process), limit, done, until, report, inputs, held, ...
var _job: Dictionary = {}
var _eval_seq: int = 0
var _paused_before: bool = false
var _ui: PlaytestUI = null
var _recorder: Recorder = null


func _init(probe: Node) -> void:
	_probe = probe
	_ui = PlaytestUI.new(probe)
	_recorder = Recorder.new(probe, self)


func busy() -> bool:
	return not _job.is_empty()


## A recording runs (the probe keeps its frame hooks on meanwhile).
func recording() -> bool:
	return _recorder.active()


## {token, unit?, checkpoints?} -> starts recording the game's input.
func record_start(id: int, params: Dictionary) -> void:
	var r: Dictionary = _recorder.start(params)
	_probe.call("_reply", id, r)
	if bool(r.get("ok", false)):
		_probe.call("_wanted")


## Ends the recording; what it holds was sent to the editor before this answer.
func record_stop(id: int, _params: Dictionary) -> void:
	_probe.call("_reply", id, _ok(_recorder.stop("stop")))


func _tree() -> SceneTree:
	return _probe.get_tree()


func _ok(result: Dictionary) -> Dictionary:
	return {"ok": true, "result": result}


func _fail(code: String, hint: String, required: String = "") -> Dictionary:
	var r: Dictionary = {"ok": false, "error": code, "hint": hint}
	if required != "":
		r["required"] = required
	return r


# --- bindings ---------------------------------------------------------------------------


## The node a request names ("" is the current scene, else the root), or null.
func _binding_node(path: String) -> Node:
	if path == "":
		var scene: Node = _tree().current_scene
		return scene if scene != null else _tree().root
	return _probe.call("_find", path) as Node


## Names and values an expression sees: node, tree, root, scene and every autoload.
func _bindings(node: Node) -> Dictionary:
	var names: PackedStringArray = ["node", "tree", "root", "scene"]
	var values: Array = [node, _tree(), _tree().root, _tree().current_scene]
	for p: Dictionary in ProjectSettings.get_property_list():
		var key: String = str(p.get("name", ""))
		if not key.begins_with("autoload/"):
			continue
		var aname: String = key.trim_prefix("autoload/")
		var n: Node = _tree().root.get_node_or_null(NodePath(aname))
		if n != null and n != _probe and not names.has(aname):
			names.append(aname)
			values.append(n)
	return {"names": names, "values": values}


## A parsed Expression, or {error}.
func _compile(code: String, names: PackedStringArray) -> Dictionary:
	var e: Expression = Expression.new()
	if e.parse(code, names) != OK:
		return {"error": e.get_error_text()}
	return {"expr": e}


## Evaluates a compiled expression: {value} or {error}.
func _run(e: Expression, b: Dictionary, node: Node) -> Dictionary:
	var v: Variant = e.execute(b["values"], node, false)
	if e.has_execute_failed():
		return {"error": e.get_error_text()}
	return {"value": v}


## Compiles the report/watch expressions: {exprs: [Expression]} or a failure.
func _compile_all(list: Array, names: PackedStringArray, what: String) -> Dictionary:
	var out: Array = []
	if list.size() > MAX_EXPRESSIONS:
		return _fail("VALIDATION_ERROR", "%s: at most %d expressions." % [what, MAX_EXPRESSIONS])
	for i: int in range(list.size()):
		var c: Dictionary = _compile(str(list[i]), names)
		if c.has("error"):
			return _fail("VALIDATION_ERROR", "%s[%d] '%s' does not parse: %s. Expressions use GDScript expression syntax (no statements); node's members are visible by bare name." % [what, i, list[i], c["error"]])
		out.append(c["expr"])
	return {"exprs": out}


func _type_name(v: Variant) -> String:
	if typeof(v) == TYPE_OBJECT:
		return (v as Object).get_class() if is_instance_valid(v) else "null"
	return type_string(typeof(v))


# --- eval -------------------------------------------------------------------------------


## {code, node?, mode?: auto|expression|snippet, timeout_ms?}
func eval(id: int, params: Dictionary) -> void:
	var code: String = str(params.get("code", ""))
	var path: String = str(params.get("node", ""))
	var mode: String = str(params.get("mode", "auto"))
	var timeout_ms: int = clampi(int(params.get("timeout_ms", 5000)), 1, 600000)
	var node: Node = _binding_node(path)
	if node == null:
		_probe.call("_reply", id, _probe.call("_not_found", path))
		return
	var b: Dictionary = _bindings(node)
	var started_ms: int = Time.get_ticks_msec()
	var started_frame: int = Engine.get_process_frames()
	# Several lines are statements; one line is an expression when it parses as one.
	if mode == "expression" or (mode == "auto" and not code.strip_edges().contains("\n") and not _starts_statement(code)):
		var c: Dictionary = _compile(code, b["names"])
		if not c.has("error"):
			var r: Dictionary = eval_run_expression(c["expr"], b, node)
			if r.has("error"):
				_probe.call("_reply", id, _fail("VALIDATION_ERROR", "The expression failed at run time: %s." % r["error"]))
				return
			_probe.call("_reply", id, _ok(_eval_result(r["value"], "expression", node, started_ms, started_frame)))
			return
		if mode == "expression":
			_probe.call("_reply", id, _fail("VALIDATION_ERROR", "line 1: %s (the expression does not parse; mode snippet runs statements)." % c["error"]))
			return
	_eval_seq += 1
	var inst: Dictionary = Snippet.instrument(code)
	var s: GDScript = GDScript.new()
	s.source_code = str(inst["source"])
	var spath: String = EVAL_PATH % _eval_seq
	s.resource_path = spath
	var meta: Dictionary = {"eval_path": spath, "line_map": inst["map"]}
	# A parse error stops the game in the debugger (Godot does that for every script
	# it fails to compile while a debugger is attached); the editor reads the message
	# and line there, and lets the game go on.
	var err: int = s.reload()
	if err != OK:
		var f: Dictionary = _fail("VALIDATION_ERROR", "The snippet does not compile (error %d)." % err)
		f.merge(meta)
		_probe.call("_reply", id, f)
		return
	var obj: Object = s.new()
	obj.set("node", node)
	obj.set("tree", _tree())
	obj.set("root", _tree().root)
	obj.set("scene", _tree().current_scene)
	obj.set("_gm_deadline", Time.get_ticks_msec() + timeout_ms)
	var value: Variant = await eval_run_snippet(obj)
	var cut: int = int(obj.get("_gm_cut_line"))
	if cut > 0:
		var f: Dictionary = _fail("TIMEOUT", "The snippet ran longer than its time limit (%d ms) and was cut in the loop at line %d. Make the loop end sooner, or raise timeout_ms." % [timeout_ms, Snippet.user_line(inst["map"], cut)])
		f.merge(meta)
		_probe.call("_reply", id, f)
		return
	var r: Dictionary = _ok(_eval_result(value, "snippet", node, started_ms, started_frame))
	r.merge(meta)
	_probe.call("_reply", id, r)


## Whether one line begins with a GDScript statement keyword (Expression would take
## "while true: pass" for a named index and fail at run time).
static func _starts_statement(code: String) -> bool:
	var word: String = code.strip_edges().get_slice(" ", 0).get_slice(":", 0).get_slice("(", 0)
	return word in ["var", "const", "while", "for", "if", "match", "return", "await", "pass", "assert", "breakpoint", "elif", "else", "break", "continue"]


## Named so that the editor recognises a script error raised under an expression.
func eval_run_expression(e: Expression, b: Dictionary, node: Node) -> Dictionary:
	return _run(e, b, node)


## Named so that the editor recognises a script error raised under a snippet.
func eval_run_snippet(obj: Object) -> Variant:
	var v: Variant = obj.call("run")
	if v is Object and is_instance_valid(v) and (v as Object).get_class() == "GDScriptFunctionState":
		v = await (v as Object).completed
	return v


func _eval_result(v: Variant, mode: String, node: Node, started_ms: int, started_frame: int) -> Dictionary:
	return {
		"value": ValueCodec.encode(v),
		"type": _type_name(v),
		"mode": mode,
		"node": str(node.get_path()),
		"duration_ms": Time.get_ticks_msec() - started_ms,
		"frames": Engine.get_process_frames() - started_frame,
		"frozen": bool(_probe.get("frozen")),
	}


# --- freeze -----------------------------------------------------------------------------


func freeze() -> void:
	if bool(_probe.get("frozen")):
		return
	_paused_before = _tree().paused
	_tree().paused = true
	_probe.set("frozen", true)
	_probe.emit_signal("frozen_changed", true)


func resume() -> void:
	if not bool(_probe.get("frozen")):
		return
	_probe.set("frozen", false)
	_tree().paused = _paused_before
	_probe.emit_signal("frozen_changed", false)


func _set_stepping(on: bool) -> void:
	if bool(_probe.get("stepping")) == on:
		return
	_probe.set("stepping", on)
	_probe.emit_signal("stepping_changed", on)


## Nothing left held, frozen or waiting: the toolset is going away.
func release() -> Dictionary:
	var had_job: String = str(_job.get("kind", ""))
	if not _job.is_empty():
		var id: int = _job["id"]
		var released: PackedStringArray = _release_held()
		released.append_array(_release_gesture())
		_disconnect(_job.get("until", {}))
		_job = {}
		_set_stepping(false)
		_probe.call("_reply", id, _fail("PRECONDITION_FAILED", "Cancelled: the runtime toolset was disabled while this ran (released: %s)." % (", ".join(released) if not released.is_empty() else "nothing")))
	var was_frozen: bool = bool(_probe.get("frozen"))
	resume()
	var rec: Dictionary = _recorder.stop("released")
	return {"was_frozen": was_frozen, "cancelled": had_job, "recording_stopped": bool(rec.get("running", false))}


# --- predicates ---------------------------------------------------------------------------


## Compiles an until predicate: {pred} or a failure.
func _compile_until(u: Dictionary, node: Node, b: Dictionary) -> Dictionary:
	var p: Dictionary = {"kind": str(u.get("kind", ""))}
	match p["kind"]:
		"expression":
			var c: Dictionary = _compile(str(u.get("expression", "")), b["names"])
			if c.has("error"):
				return _fail("VALIDATION_ERROR", "until.expression '%s' does not parse: %s. It is a GDScript expression (no statements); node's members are visible by bare name, and node, tree, root, scene and the autoloads are bound." % [u.get("expression", ""), c["error"]])
			p["expr"] = c["expr"]
			p["text"] = str(u["expression"])
		"signal":
			var sig: String = str(u.get("signal", ""))
			if not node.has_signal(sig):
				var names: PackedStringArray = []
				for s: Dictionary in node.get_signal_list():
					names.append(str(s["name"]))
				return _fail("VALIDATION_ERROR", "%s '%s' has no signal '%s'.%s" % [node.get_class(), node.get_path(), sig, _probe.call("_did_you_mean", sig, names)])
			var argc: int = 0
			for s: Dictionary in node.get_signal_list():
				if str(s["name"]) == sig:
					argc = (s.get("args", []) as Array).size()
			p["node"] = node
			p["signal"] = sig
			p["fired"] = false
			p["cb"] = _on_signal.bind(p).unbind(argc)
			node.connect(sig, p["cb"])
			p["text"] = "signal %s of %s" % [sig, node.get_path()]
		"node_appears", "node_leaves":
			p["path"] = str(u.get("path", ""))
			p["text"] = "%s %s" % [p["kind"], p["path"]]
		"group":
			p["group"] = str(u.get("group", ""))
			p["min"] = int(u["count_at_least"]) if u.get("count_at_least") != null else -1
			p["max"] = int(u["count_at_most"]) if u.get("count_at_most") != null else -1
			p["text"] = "group %s count%s%s" % [p["group"], (" >= %d" % p["min"]) if p["min"] >= 0 else "", (" <= %d" % p["max"]) if p["max"] >= 0 else ""]
		_:
			return _fail("VALIDATION_ERROR", "until needs one of expression, signal, node_appears, node_leaves, group.")
	return {"pred": p}


func _on_signal(p: Dictionary) -> void:
	p["fired"] = true


func _disconnect(p: Dictionary) -> void:
	if p.get("kind", "") == "signal" and p.has("cb") and is_instance_valid(p.get("node")) and (p["node"] as Node).is_connected(p["signal"], p["cb"]):
		(p["node"] as Node).disconnect(p["signal"], p["cb"])
	p.erase("cb") # it binds p itself


## Whether the predicate holds now: {held, value?, error?}.
func _check(p: Dictionary, b: Dictionary, node: Node) -> Dictionary:
	match str(p["kind"]):
		"expression":
			if not is_instance_valid(node):
				return {"held": false, "error": "the node the expression runs on was freed"}
			var r: Dictionary = _run(p["expr"], b, node)
			if r.has("error"):
				return {"held": false, "error": r["error"]}
			# Truthiness as in an if: any value, never a conversion error.
			var held: bool = true if r["value"] else false
			return {"held": held, "value": ValueCodec.encode(r["value"])}
		"signal":
			return {"held": bool(p["fired"])}
		"node_appears":
			return {"held": _probe.call("_find", p["path"]) != null}
		"node_leaves":
			return {"held": _probe.call("_find", p["path"]) == null}
		"group":
			var n: int = _tree().get_nodes_in_group(p["group"]).size()
			var ok: bool = (int(p["min"]) < 0 or n >= int(p["min"])) and (int(p["max"]) < 0 or n <= int(p["max"]))
			return {"held": ok, "value": n}
	return {"held": false}


func _report(job: Dictionary) -> Dictionary:
	var out: Dictionary = {}
	var texts: Array = job["report_texts"]
	var exprs: Array = job["report"]
	var node: Node = job["node"]
	for i: int in range(exprs.size()):
		if not is_instance_valid(node):
			out[str(texts[i])] = {"error": "the node was freed"}
			continue
		var r: Dictionary = _run(exprs[i], job["b"], node)
		out[str(texts[i])] = ValueCodec.encode(r["value"]) if r.has("value") else {"error": r["error"]}
	return out


# --- windows: step, wait, watch -----------------------------------------------------------


## Why another window cannot start now: a failure, or {}.
func _busy_failure() -> Dictionary:
	if not _job.is_empty():
		return _fail("PRECONDITION_FAILED", "A %s is still running in the game; wait for it to finish." % _job["kind"])
	if not (_probe.get("_seq") as Dictionary).is_empty() or not (_probe.get("_step") as Dictionary).is_empty():
		return _fail("PRECONDITION_FAILED", "An input sequence or a godot_runtime_pause frame step is still running; wait for it to finish.")
	return {}


## Common set-up of a window: node, bindings, until, report. -> job or a failure.
func _new_job(kind: String, id: int, params: Dictionary) -> Dictionary:
	var why: Dictionary = _busy_failure()
	if not why.is_empty():
		return {"failure": why}
	var path: String = str(params.get("node", ""))
	var node: Node = _binding_node(path)
	if node == null:
		return {"failure": _probe.call("_not_found", path)}
	var b: Dictionary = _bindings(node)
	var job: Dictionary = {
		"kind": kind, "id": id, "node": node, "b": b, "done": 0, "game_time": 0.0,
		"start_ms": Time.get_ticks_msec(), "start_frame": Engine.get_process_frames(),
		"start_physics": Engine.get_physics_frames(), "ticks": 0, "frames": 0,
		"deadline": Time.get_ticks_msec() + clampi(int(params.get("timeout_ms", 10000)), 1, 600000),
		"report": [], "report_texts": [], "until": {}, "last_values": {}, "last_pred": null,
		"held_inputs": {}, "inputs": [],
	}
	var rep: Array = params.get("report", []) if typeof(params.get("report")) == TYPE_ARRAY else []
	var cr: Dictionary = _compile_all(rep, b["names"], "report")
	if cr.has("ok"):
		return {"failure": cr}
	job["report"] = cr["exprs"]
	job["report_texts"] = rep
	if typeof(params.get("until")) == TYPE_DICTIONARY:
		var cu: Dictionary = _compile_until(params["until"], node, b)
		if cu.has("ok"):
			return {"failure": cu}
		job["until"] = cu["pred"]
	return job


## {unit: physics|process, count, until?, inputs?: [{at, ...input step}], report?, then: freeze|resume, node?, timeout_ms}
func step(id: int, params: Dictionary) -> void:
	var job: Dictionary = _new_job("step", id, params)
	if job.has("failure"):
		_probe.call("_reply", id, job["failure"])
		return
	job["unit"] = "physics" if str(params.get("unit", "physics_ticks")) == "physics_ticks" else "process"
	job["limit"] = maxi(0, int(params.get("count", 0)))
	job["then"] = str(params.get("then", "freeze"))
	# Inputs: each becomes press/release events at window offsets; checked before anything runs.
	var events: Array = []
	var raw: Array = params.get("inputs", []) if typeof(params.get("inputs")) == TYPE_ARRAY else []
	for i: int in range(raw.size()):
		if typeof(raw[i]) != TYPE_DICTIONARY:
			_disconnect(job["until"])
			_probe.call("_reply", id, _fail("VALIDATION_ERROR", "inputs[%d] must be an object." % i))
			return
		var s: Dictionary = (raw[i] as Dictionary).duplicate()
		var at: int = maxi(0, int(s.get("at", 0)))
		s.erase("at")
		var checked: Dictionary = _probe.call("_check_step", s, i)
		if checked.has("error"):
			_disconnect(job["until"])
			_probe.call("_reply", id, _fail("VALIDATION_ERROR", str(checked["error"]).replace("steps[", "inputs[") + " Nothing was run."))
			return
		if str(checked["kind"]) == "wait":
			_disconnect(job["until"])
			_probe.call("_reply", id, _fail("VALIDATION_ERROR", "inputs[%d]: a timeline has no wait steps; give each input its frame with at." % i))
			return
		checked["label"] = str(checked.get("label", checked["kind"]))
		if str(checked["kind"]) in ["mouse_motion", "joypad_motion"]:
			events.append({"at": at, "step": checked, "pressed": true, "order": i})
		else:
			match str(checked["state"]):
				"press":
					events.append({"at": at, "step": checked, "pressed": true, "order": i})
				"release":
					events.append({"at": at, "step": checked, "pressed": false, "order": i})
				_:
					events.append({"at": at, "step": checked, "pressed": true, "order": i})
					events.append({"at": at + int(checked["hold_frames"]), "step": checked, "pressed": false, "order": i})
	events.sort_custom(func(a: Dictionary, c: Dictionary) -> bool: return int(a["at"]) < int(c["at"]) or (int(a["at"]) == int(c["at"]) and int(a["order"]) < int(c["order"])))
	job["inputs"] = events
	# A replay's checkpoints: evaluated at their tick as the recorder did (the editor compares).
	var due: Array = []
	var cps: Array = params.get("checkpoints", []) if typeof(params.get("checkpoints")) == TYPE_ARRAY else []
	for i: int in range(cps.size()):
		var c: Dictionary = _recorder.compile_checkpoint(cps[i] if typeof(cps[i]) == TYPE_DICTIONARY else {}, "checkpoints[%d]" % i)
		if c.has("ok"):
			_disconnect(job["until"])
			_probe.call("_reply", id, c)
			return
		due.append(c)
	due.sort_custom(func(a: Dictionary, c: Dictionary) -> bool: return int(a["at"]) < int(c["at"]))
	job["checks_due"] = due
	job["checks"] = []
	freeze()
	# Already true before a single tick: answer without stepping.
	if not (job["until"] as Dictionary).is_empty():
		var c: Dictionary = _check(job["until"], job["b"], job["node"])
		if c["held"]:
			_job = job
			_finish_step(true)
			return
	if int(job["limit"]) == 0:
		_job = job
		_finish_step(false)
		return
	_job = job
	_set_stepping(true)
	# Unpaused first: a paused Control takes no GUI input, and the flush dispatches now.
	_tree().paused = false
	if job["unit"] == "process":
		_emit_due(0)
		_checkpoints_due(0)
	_probe.call("_wanted")


## Emits the timeline's events due at window offset [param at] and applies them now.
func _emit_due(at: int) -> void:
	var events: Array = _job["inputs"]
	var held: Dictionary = _job["held_inputs"]
	var any: bool = false
	while not events.is_empty() and int(events[0]["at"]) <= at:
		var e: Dictionary = events.pop_front()
		_probe.call("_emit", e["step"], bool(e["pressed"]))
		var key: String = _probe.call("_held_key", e["step"])
		if key != "":
			if bool(e["pressed"]) and float((e["step"] as Dictionary).get("value", 1.0)) != 0.0:
				held[key] = e["step"]
			else:
				held.erase(key)
		any = true
	if any:
		Input.flush_buffered_events()


## Evaluates the step's checkpoints due at or before window offset [param at].
func _checkpoints_due(at: int) -> void:
	var due: Array = _job.get("checks_due", [])
	while not due.is_empty() and int(due[0]["at"]) <= at:
		(_job["checks"] as Array).append(_recorder.evaluate(due.pop_front()))


func _release_held() -> PackedStringArray:
	var out: PackedStringArray = []
	if _job.is_empty():
		return out
	var held: Dictionary = _job.get("held_inputs", {})
	for k: Variant in held.keys():
		var s: Dictionary = held[k]
		_probe.call("_emit", s, false)
		out.append(str(s.get("label", k)))
	held.clear()
	if not out.is_empty():
		Input.flush_buffered_events()
	return out


func _finish_step(held: bool, expired: String = "") -> void:
	_checkpoints_due(int(_job["done"]))
	var job: Dictionary = _job
	_tree().paused = true
	_set_stepping(false)
	var released: PackedStringArray = _release_held()
	var pending: int = (job["inputs"] as Array).size()
	var values: Dictionary = _report(job)
	_disconnect(job["until"])
	_job = {}
	if str(job["then"]) == "resume":
		resume()
	var out: Dictionary = {
		"unit": "physics_ticks" if job["unit"] == "physics" else "process_frames",
		"stepped": int(job["done"]),
		"physics_ticks": int(job["ticks"]),
		"process_frames": int(job["frames"]),
		"game_time_ms": float(job["game_time"]) * 1000.0,
		"wall_ms": Time.get_ticks_msec() - int(job["start_ms"]),
		"frozen": bool(_probe.get("frozen")),
		"values": values,
		"released_at_end": released,
		"inputs_not_reached": pending,
		"expired": expired,
		"frame": Engine.get_process_frames(),
		"physics_frame": Engine.get_physics_frames(),
	}
	if not (job["until"] as Dictionary).is_empty():
		out["until"] = str(job["until"]["text"])
		out["held"] = held
	if job.has("checks_due") and not ((job["checks"] as Array).is_empty() and (job["checks_due"] as Array).is_empty()):
		out["checkpoints"] = job["checks"]
		var missed: Array = []
		for c: Dictionary in job["checks_due"]:
			missed.append({"at": c["at"], "expr": c["expr"], "node": c["node"]})
		out["checkpoints_not_reached"] = missed
	_probe.call("_reply", int(job["id"]), _ok(out))


## {until, report?, max_frames, timeout_ms, node?}
func wait(id: int, params: Dictionary) -> void:
	if bool(_probe.get("frozen")):
		_probe.call("_reply", id, _fail("PRECONDITION_FAILED", "The game is frozen (godot_playtest_step), so nothing would happen while waiting. Use godot_playtest_step with until to step it until the predicate holds, or resume it with godot_playtest_step {then: \"resume\"}."))
		return
	var job: Dictionary = _new_job("wait", id, params)
	if job.has("failure"):
		_probe.call("_reply", id, job["failure"])
		return
	if (job["until"] as Dictionary).is_empty():
		_probe.call("_reply", id, _fail("VALIDATION_ERROR", "until is required."))
		return
	job["unit"] = "process"
	job["limit"] = clampi(int(params.get("max_frames", 600)), 1, 1000000)
	_job = job
	# Already true: answer at once, frame 0.
	if _wait_check():
		return
	_probe.call("_wanted")


## Checks the wait's predicate; finishes it when held or out of bounds. -> finished
func _wait_check() -> bool:
	var c: Dictionary = _check(_job["until"], _job["b"], _job["node"])
	_job["last_pred"] = c.get("value", c.get("error", null)) if (c.has("value") or c.has("error")) else null
	_job["last_values"] = _report(_job)
	var expired: String = ""
	if not c["held"]:
		if int(_job["done"]) >= int(_job["limit"]):
			expired = "frames"
		elif Time.get_ticks_msec() >= int(_job["deadline"]):
			expired = "wall_time"
		else:
			return false
	var job: Dictionary = _job
	_disconnect(job["until"])
	_job = {}
	var out: Dictionary = {
		"held": c["held"],
		"until": str(job["until"]["text"]),
		"expired": expired,
		"frame": Engine.get_process_frames(),
		"frames_waited": int(job["done"]),
		"game_time_ms": float(job["game_time"]) * 1000.0,
		"wall_ms": Time.get_ticks_msec() - int(job["start_ms"]),
		"values": job["last_values"],
	}
	if job["last_pred"] != null:
		out["predicate_value"] = job["last_pred"]
	if c.has("error"):
		out["predicate_error"] = c["error"]
	_probe.call("_reply", int(job["id"]), _ok(out))
	return true


## {expressions, every, frames, max_samples, max_bytes, timeout_ms, node?}
func watch(id: int, params: Dictionary) -> void:
	if bool(_probe.get("frozen")):
		_probe.call("_reply", id, _fail("PRECONDITION_FAILED", "The game is frozen (godot_playtest_step), so every sample would be the same. Resume it with godot_playtest_step {then: \"resume\"}, or step it with report."))
		return
	var job: Dictionary = _new_job("watch", id, params)
	if job.has("failure"):
		_probe.call("_reply", id, job["failure"])
		return
	var list: Array = params.get("expressions", []) if typeof(params.get("expressions")) == TYPE_ARRAY else []
	if list.is_empty():
		_probe.call("_reply", id, _fail("VALIDATION_ERROR", "expressions must list 1 to %d expressions." % MAX_EXPRESSIONS))
		return
	var cr: Dictionary = _compile_all(list, job["b"]["names"], "expressions")
	if cr.has("ok"):
		_probe.call("_reply", id, cr)
		return
	job["unit"] = "process"
	job["exprs"] = cr["exprs"]
	job["texts"] = list
	job["every"] = clampi(int(params.get("every", 1)), 1, 100000)
	job["limit"] = clampi(int(params.get("frames", 60)), 1, 1000000)
	job["max_samples"] = clampi(int(params.get("max_samples", 600)), 1, 100000)
	job["max_bytes"] = clampi(int(params.get("max_bytes", 262144)), 256, 8 * 1024 * 1024)
	job["samples"] = []
	job["bytes"] = 0
	job["truncated_by"] = ""
	_job = job
	_sample() # frame 0: the state when the watch starts
	_probe.call("_wanted")


func _sample() -> void:
	var values: Array = []
	for e: Expression in _job["exprs"]:
		if not is_instance_valid(_job["node"]):
			values.append({"error": "the node was freed"})
			continue
		var r: Dictionary = _run(e, _job["b"], _job["node"])
		values.append(ValueCodec.encode(r["value"]) if r.has("value") else {"error": r["error"]})
	var s: Dictionary = {
		"frame": int(_job["done"]),
		"process_frame": Engine.get_process_frames(),
		"game_time_ms": float(_job["game_time"]) * 1000.0,
		"values": values,
	}
	var size: int = JSON.stringify(s).length()
	if int(_job["bytes"]) + size > int(_job["max_bytes"]):
		_job["truncated_by"] = "max_bytes"
		return
	_job["bytes"] = int(_job["bytes"]) + size
	(_job["samples"] as Array).append(s)
	if (_job["samples"] as Array).size() >= int(_job["max_samples"]) and int(_job["done"]) < int(_job["limit"]):
		_job["truncated_by"] = "max_samples"


func _finish_watch(expired: String) -> void:
	var job: Dictionary = _job
	_job = {}
	var truncated_by: String = str(job["truncated_by"])
	if truncated_by == "" and expired != "":
		truncated_by = expired
	_probe.call("_reply", int(job["id"]), _ok({
		"expressions": job["texts"],
		"every": int(job["every"]),
		"samples": job["samples"],
		"frames_watched": int(job["done"]),
		"game_time_ms": float(job["game_time"]) * 1000.0,
		"wall_ms": Time.get_ticks_msec() - int(job["start_ms"]),
		"bytes": int(job["bytes"]),
		"truncated": truncated_by != "",
		"truncated_by": truncated_by,
	}))


# --- frame hooks ------------------------------------------------------------------------


## First thing in every physics tick (before the game's nodes): a physics-unit step
## counts the tick, ends the window or checks its predicate, and applies the inputs due.
## A recording's hook runs last, after the step's inputs of this tick were applied.
func start_of_tick(delta: float) -> void:
	_step_tick(delta)
	if _recorder.active():
		_recorder.tick(_tree().paused)


func _step_tick(delta: float) -> void:
	if _job.is_empty() or _job["kind"] != "step" or _job["unit"] != "physics" or _tree().paused:
		return
	# The state here is the one after `done` ticks (bodies synced from the last step).
	if _step_ended():
		return
	_emit_due(int(_job["done"]))
	_checkpoints_due(int(_job["done"]))
	_job["done"] = int(_job["done"]) + 1
	_job["ticks"] = int(_job["ticks"]) + 1
	_job["game_time"] = float(_job["game_time"]) + delta


## Ends the step when its predicate holds (after at least one unit), its count
## is reached or its wall time is up; says whether it ended.
func _step_ended() -> bool:
	var until: Dictionary = _job["until"]
	if int(_job["done"]) > 0 and not until.is_empty():
		var c: Dictionary = _check(until, _job["b"], _job["node"])
		if c["held"]:
			_finish_step(true)
			return true
	if int(_job["done"]) >= int(_job["limit"]):
		_finish_step(false, "count" if not until.is_empty() else "")
		return true
	if Time.get_ticks_msec() >= int(_job["deadline"]):
		_finish_step(false, "wall_time")
		return true
	return false


## Last thing in every process frame (after the game's nodes).
func end_of_frame(delta: float) -> void:
	_end_of_frame(delta)
	if _recorder.active():
		_recorder.frame(_tree().paused)


func _end_of_frame(delta: float) -> void:
	if _job.is_empty():
		return
	var kind: String = _job["kind"]
	if kind == "gesture":
		_gesture_frame()
		return
	if kind == "step":
		if _tree().paused:
			return
		_job["frames"] = int(_job["frames"]) + 1
		if _job["unit"] != "process":
			return
		_job["done"] = int(_job["done"]) + 1
		_job["game_time"] = float(_job["game_time"]) + delta
		if _step_ended():
			return
		_emit_due(int(_job["done"]))
		_checkpoints_due(int(_job["done"]))
		return
	# wait and watch: frames of a running game.
	_job["done"] = int(_job["done"]) + 1
	_job["frames"] = int(_job["frames"]) + 1
	if not _tree().paused:
		_job["game_time"] = float(_job["game_time"]) + delta
	if kind == "wait":
		_wait_check()
		return
	if int(_job["done"]) % int(_job["every"]) == 0 and str(_job["truncated_by"]) == "":
		_sample()
	if int(_job["done"]) >= int(_job["limit"]) or str(_job["truncated_by"]) != "":
		_finish_watch("")
	elif Time.get_ticks_msec() >= int(_job["deadline"]):
		_finish_watch("wall_time")


# --- UI: controls and pointer gestures ---------------------------------------------------


## {text?, class?, under?, all?, max?}
func controls(id: int, params: Dictionary) -> void:
	_probe.call("_reply", id, _ui.list(params))


const _ACTIONS := ["click", "double_click", "hover", "drag", "scroll", "type_text"]
const _BUTTON_NAMES := {"left": MOUSE_BUTTON_LEFT, "right": MOUSE_BUTTON_RIGHT, "middle": MOUSE_BUTTON_MIDDLE}


## {action, node?, text?, button?, to?: {node?, text?}, by?: {x, y}, amount?, value?, frames?}
## The target is resolved now, in the game; the gesture's events then reach the game one
## frame offset after another (on a frozen game the tree runs just for those frames).
func interact(id: int, params: Dictionary) -> void:
	var busy: Dictionary = _busy_failure()
	if not busy.is_empty():
		_probe.call("_reply", id, busy)
		return
	var action: String = str(params.get("action", ""))
	if not _ACTIONS.has(action):
		_probe.call("_reply", id, _fail("VALIDATION_ERROR", "action must be one of %s." % ", ".join(PackedStringArray(_ACTIONS))))
		return
	var bname: String = str(params.get("button", "left"))
	if not _BUTTON_NAMES.has(bname):
		_probe.call("_reply", id, _fail("VALIDATION_ERROR", "button must be left, right or middle."))
		return
	var value: String = str(params.get("value", "")) if params.get("value") != null else ""
	var has_target: bool = str(params.get("node", "")) != "" or str(params.get("text", "")) != ""
	var focus: Control = _tree().root.gui_get_focus_owner()
	var target: Dictionary = {}
	if action == "type_text":
		if value == "":
			_probe.call("_reply", id, _fail("VALIDATION_ERROR", "type_text needs value: the text to type (\\n presses Enter)."))
			return
		if not has_target:
			if not (focus is LineEdit or focus is TextEdit):
				_probe.call("_reply", id, _fail("PRECONDITION_FAILED", "type_text: %s; give the LineEdit/TextEdit to type into as node or text (it is clicked first). Nothing was sent.%s" % ["no control has the keyboard focus" if focus == null else "the focused control %s %s is not a LineEdit or TextEdit" % [focus.get_class(), focus.get_path()], _editables()]))
				return
			if PlaytestUI.disabled_of(focus):
				_probe.call("_reply", id, _fail("PRECONDITION_FAILED", "type_text: the focused %s %s is not editable; nothing was sent." % [focus.get_class(), focus.get_path()]))
				return
	if has_target:
		target = _ui.resolve(params, action != "hover", action)
		if target.has("ok"):
			_probe.call("_reply", id, target)
			return
		if action == "type_text" and not (target["node"] is LineEdit or target["node"] is TextEdit):
			_probe.call("_reply", id, _fail("PRECONDITION_FAILED", "type_text: %s is not a LineEdit or TextEdit; nothing was sent.%s" % [target["label"], _editables()]))
			return
	elif action != "type_text":
		_probe.call("_reply", id, _fail("VALIDATION_ERROR", "%s needs a target: node (a node path) or text (the visible text of a control)." % action))
		return
	var from: Vector2 = _tree().root.get_mouse_position()
	var p: Vector2 = target["point"] if has_target else from
	var q: Vector2 = p
	var end: Dictionary = {}
	if action == "drag":
		var to: Variant = params.get("to")
		var by: Variant = params.get("by")
		if typeof(to) == TYPE_DICTIONARY and not (to as Dictionary).is_empty():
			end = _ui.resolve(to, false, "drag to")
			if end.has("ok"):
				_probe.call("_reply", id, end)
				return
			q = end["point"]
		elif typeof(by) == TYPE_DICTIONARY and (by as Dictionary).has("x") and (by as Dictionary).has("y"):
			q = p + Vector2(float(by["x"]), float(by["y"]))
		else:
			_probe.call("_reply", id, _fail("VALIDATION_ERROR", "drag needs to ({node} or {text}: where to drop) or by ({x, y} window pixels)."))
			return
	var amount: int = int(params.get("amount", 3))
	if action == "scroll" and (amount == 0 or absi(amount) > 100):
		_probe.call("_reply", id, _fail("VALIDATION_ERROR", "amount must be 1..100 wheel steps down, or -1..-100 up."))
		return
	var frames: int = clampi(int(params.get("frames", 8)), 1, 600)
	var events: Array = []
	if action != "type_text":
		events = PlaytestUI.plan(action, p, q, from, _BUTTON_NAMES[bname], amount, frames)
	else:
		# Into a target: click it first (focus), type from the frame after the release.
		if has_target:
			events = PlaytestUI.plan("click", p, q, from, MOUSE_BUTTON_LEFT, amount, frames)
		events.append_array(PlaytestUI.typing(value, 2 if has_target else 0))
	var result: Dictionary = {"action": action}
	if has_target:
		result["target"] = _ui.describe(target)
	if not end.is_empty():
		result["to"] = _ui.describe(end)
	var last: int = 0
	for e: Dictionary in events:
		last = maxi(last, int(e["at"]))
	_job = {
		"kind": "gesture", "id": id, "events": events, "limit": last + 1, "result": result,
		"start_frame": Engine.get_process_frames(), "start_ms": Time.get_ticks_msec(), "until": {},
		"was_frozen": bool(_probe.get("frozen")), "held_events": {}, "done": 0,
		"type_into": (target["node"] if has_target else focus) if action == "type_text" else null,
		"typed": value,
	}
	if bool(_probe.get("frozen")):
		# A paused Control takes no input: the tree runs for the gesture's frames only.
		_tree().paused = false
		_set_stepping(true)
	_gesture_emit(0)
	_probe.call("_wanted")


func _editables() -> String:
	var out: PackedStringArray = []
	for c: Control in _ui.all_controls(_tree().root):
		if (c is LineEdit or c is TextEdit) and c.is_visible_in_tree():
			out.append("%s %s%s" % [c.get_class(), c.get_path(), " (not editable)" if PlaytestUI.disabled_of(c) else ""])
	return (" Visible LineEdit/TextEdit: %s." % ", ".join(out.slice(0, 8))) if not out.is_empty() else " No LineEdit or TextEdit is visible."


## Parses the gesture's events due at frame offset [param at]: they reach the game at
## the start of the next frame (Godot flushes buffered input there).
func _gesture_emit(at: int) -> void:
	var events: Array = _job["events"]
	var held: Dictionary = _job["held_events"]
	while not events.is_empty() and int(events[0]["at"]) <= at:
		var ev: InputEvent = events.pop_front()["ev"]
		Input.parse_input_event(ev)
		if ev is InputEventMouseButton:
			var mb: InputEventMouseButton = ev
			if mb.pressed:
				held[mb.button_index] = PlaytestUI.button(mb.position, mb.button_index, false, 0)
			else:
				held.erase(mb.button_index)


func _gesture_frame() -> void:
	var at: int = Engine.get_process_frames() - int(_job["start_frame"])
	if at >= int(_job["limit"]):
		_finish_gesture()
		return
	_gesture_emit(at)


## Releases whatever a cancelled gesture still holds: their labels.
func _release_gesture() -> PackedStringArray:
	var out: PackedStringArray = []
	if _job.get("kind", "") != "gesture":
		return out
	var held: Dictionary = _job["held_events"]
	for b: Variant in held.keys():
		Input.parse_input_event(held[b])
		out.append("mouse button %d" % int(b))
	held.clear()
	return out


func _finish_gesture() -> void:
	var job: Dictionary = _job
	var released: PackedStringArray = _release_gesture()
	_job = {}
	if bool(job["was_frozen"]) and bool(_probe.get("frozen")):
		_tree().paused = true
	_set_stepping(false)
	var out: Dictionary = job["result"]
	var hovered: Control = _tree().root.gui_get_hovered_control()
	out["hovered"] = str(hovered.get_path()) if hovered != null else ""
	var focus: Control = _tree().root.gui_get_focus_owner()
	out["focus"] = str(focus.get_path()) if focus != null else ""
	out["frames"] = Engine.get_process_frames() - int(job["start_frame"])
	out["wall_ms"] = Time.get_ticks_msec() - int(job["start_ms"])
	out["frozen"] = bool(_probe.get("frozen"))
	out["released_at_end"] = released
	var into: Variant = job["type_into"]
	if into != null:
		if not is_instance_valid(into):
			_probe.call("_reply", int(job["id"]), _fail("PRECONDITION_FAILED", "type_text: the control was freed while typing."))
			return
		var c: Control = into
		out["text_after"] = PlaytestUI.text_of(c)
		if focus != c:
			_probe.call("_reply", int(job["id"]), _fail("PRECONDITION_FAILED", "type_text: %s %s did not have the keyboard focus when the keys arrived (the focus is on %s), so the text went there; its text is now \"%s\". Check its focus_mode." % [c.get_class(), c.get_path(), out["focus"] if out["focus"] != "" else "nothing", out["text_after"]]))
			return
	_probe.call("_reply", int(job["id"]), _ok(out))


# --- digest -------------------------------------------------------------------------------


## Global positions seen by the last digest: instance id -> position, for "moving".
var _last_positions: Dictionary = {}


static func _velocity(n: Node) -> Variant:
	if n is CharacterBody2D:
		return (n as CharacterBody2D).velocity
	if n is RigidBody2D:
		return (n as RigidBody2D).linear_velocity
	if n is CharacterBody3D:
		return (n as CharacterBody3D).velocity
	if n is RigidBody3D:
		return (n as RigidBody3D).linear_velocity
	return null


static func _vec_list(v: Variant) -> Array:
	if v is Vector2:
		return [snappedf((v as Vector2).x, 0.01), snappedf((v as Vector2).y, 0.01)]
	if v is Vector3:
		return [snappedf((v as Vector3).x, 0.01), snappedf((v as Vector3).y, 0.01), snappedf((v as Vector3).z, 0.01)]
	return []


## {groups?, max_nodes?} -> the scene at a glance: the nodes of interest (visible
## Node2D/Node3D that are bodies, in the given groups, scripted, or moved since the last
## digest) with position and velocity, and the visible UI texts.
func digest(id: int, params: Dictionary) -> void:
	var groups: Array = params.get("groups", []) if typeof(params.get("groups")) == TYPE_ARRAY else []
	var most: int = clampi(int(params.get("max_nodes", 40)), 1, 500)
	var scene: Node = _tree().current_scene
	var from: Node = scene if scene != null else _tree().root
	var seen: Dictionary = {}
	var picked: Array = []
	var stack: Array[Node] = [from]
	var visited: int = 0
	while not stack.is_empty() and visited < 20000:
		var n: Node = stack.pop_back()
		visited += 1
		var kids: Array[Node] = n.get_children()
		for i: int in range(kids.size() - 1, -1, -1):
			stack.append(kids[i])
		if not (n is Node2D or n is Node3D) or n == _probe:
			continue
		var visible: bool = false
		var pos: Variant = null
		if n is Node2D:
			visible = (n as Node2D).is_visible_in_tree()
			pos = (n as Node2D).global_position
		else:
			visible = (n as Node3D).is_visible_in_tree()
			pos = (n as Node3D).global_position
		var key: int = n.get_instance_id()
		seen[key] = pos
		var in_groups: PackedStringArray = []
		for g: Variant in groups:
			if n.is_in_group(StringName(str(g))):
				in_groups.append(str(g))
		var vel: Variant = _velocity(n)
		var speed: float = 0.0
		if vel is Vector2:
			speed = (vel as Vector2).length()
		elif vel is Vector3:
			speed = (vel as Vector3).length()
		var moving: bool = (_last_positions.has(key) and _last_positions[key] != pos) or speed > 0.0
		var body: bool = n is PhysicsBody2D or n is PhysicsBody3D
		if not in_groups.is_empty() or ((visible) and (body or moving or n.get_script() != null)):
			var rank: int = 0 if not in_groups.is_empty() else (1 if moving else (2 if body else 3))
			var e: Dictionary = {"path": str(n.get_path()), "class": n.get_class(), "position": _vec_list(pos), "moving": moving, "visible": visible}
			if vel != null:
				e["velocity"] = _vec_list(vel)
			if not in_groups.is_empty():
				e["groups"] = in_groups
			picked.append([rank, picked.size(), e])
	_last_positions = seen
	picked.sort_custom(func(a: Array, b: Array) -> bool: return a[0] < b[0] or (a[0] == b[0] and a[1] < b[1]))
	var nodes: Array = []
	for p: Array in picked.slice(0, most):
		nodes.append(p[2])
	var texts: Array = []
	for c: Control in _ui.all_controls(_tree().root):
		if texts.size() >= 50:
			break
		if c.is_visible_in_tree():
			var t: String = PlaytestUI.text_of(c).strip_edges()
			if t != "":
				texts.append({"path": str(c.get_path()), "text": t.substr(0, 80)})
	_probe.call("_reply", id, _ok({
		"scene": scene.scene_file_path if scene != null else "",
		"frame": Engine.get_process_frames(),
		"frozen": bool(_probe.get("frozen")),
		"nodes": nodes,
		"total": picked.size(),
		"truncated": picked.size() > nodes.size(),
		"texts": texts,
	}))
