@tool
extends RefCounted
## What a stopped game holds: the variables of a stack frame (locals, members of
## self, globals) and expressions evaluated in a frame, as the JSON value shapes of
## docs/values.md. Large values are cut (truncated: true, size) and can be read a
## page at a time by name.

const CommandRouter := preload("res://addons/godot_mcp/command_router.gd")
const Monitor := preload("monitor.gd")
const DbgControl := preload("control.gd")

const VARS_WAIT_MS := 5000
## How long to wait for the game's probe to say what objects are.
const OBJECTS_WAIT_MS := 1500
const EVAL_WAIT_MS := 5000
## Elements of an array/dictionary (and characters of a string) shown per value
## in a frame listing; a named variable is paged with offset/limit instead.
const PREVIEW_ITEMS := 20
const PREVIEW_CHARS := 1000
const NESTED_ITEMS := 10
const MAX_DEPTH := 4
const SCOPES := ["local", "member", "global"]

var _router: CommandRouter = null
var _monitor: Monitor = null
var _control: DbgControl = null


func setup(router: CommandRouter, monitor: Monitor, control: DbgControl) -> void:
	_router = router
	_monitor = monitor
	_control = control


func _fail(code: String, hint: String, required: String = "") -> Dictionary:
	return _router.fail(code, hint, required)


func _ok(result: Dictionary) -> Dictionary:
	return _router.ok(result)


func _tree() -> SceneTree:
	return Engine.get_main_loop() as SceneTree


## A stopped game and a valid frame. -> {sid, frame, where} or {failure}.
func _frame(params: Dictionary) -> Dictionary:
	var frame_v: Variant = DbgControl.int_param(params, "frame", 0, 0, 1000)
	if frame_v == null:
		return {"failure": _fail("VALIDATION_ERROR", "frame must be a stack frame number (0 is where the game stopped; see godot_debugger_get_state's stack).")}
	var frame: int = frame_v
	var sid: int = _monitor.active_session()
	if sid < 0:
		return {"failure": _control.no_game()}
	await _control._await_stack(sid)
	var d: Dictionary = _control.describe(sid)
	if not d["stopped"]:
		return {"failure": _fail("PRECONDITION_FAILED", "The game is running, not stopped in the debugger, so it has no stack to read. Stop it first: a breakpoint (godot_debugger_set_breakpoints) or godot_debugger_break.")}
	var stack: Array = d["stack"]
	if stack.is_empty():
		return {"failure": _fail("PRECONDITION_FAILED", "The game is stopped between frames, with no script frame to read. Step into the next script line (godot_debugger_step mode into), then read.")}
	if frame >= stack.size():
		return {"failure": _fail("VALIDATION_ERROR", "frame %d does not exist: the stack has %d frame(s), 0 to %d." % [frame, stack.size(), stack.size() - 1])}
	return {"sid": sid, "frame": frame, "where": stack[frame], "break_id": _monitor.state(sid)["break_id"]}


## The raw variables of a frame of the current stop (asking the game once). -> Array or null.
func _vars(sid: int, frame: int) -> Variant:
	var have: Variant = _monitor.frame_vars(sid, frame)
	if have != null:
		return have
	var break_id: int = _monitor.state(sid)["break_id"]
	_monitor.request_vars(sid, frame)
	var deadline: int = Time.get_ticks_msec() + VARS_WAIT_MS
	while Time.get_ticks_msec() < deadline:
		await _tree().process_frame
		have = _monitor.frame_vars(sid, frame)
		if have != null:
			return have
		var st: Dictionary = _monitor.state(sid)
		if not st["breaked"] or int(st["break_id"]) != break_id:
			return null
	return null


## {frame?: 0, scope?: "all"|"local"|"member"|"global", name?, offset?, limit?}
## -> {frame, location, variables: [{name, scope, type, value, size?, truncated?}], total,
## offset, next_offset, truncated}; with name: {frame, location, variable, offset, next_offset, truncated}.
func variables(params: Dictionary) -> Dictionary:
	var scope: String = str(params.get("scope", "all")) if params.get("scope") != null else "all"
	if not (scope == "all" or SCOPES.has(scope)):
		return _fail("VALIDATION_ERROR", "scope must be \"all\", \"local\", \"member\" or \"global\".")
	var offset_v: Variant = DbgControl.int_param(params, "offset", 0, 0, 100000000)
	var limit_v: Variant = DbgControl.int_param(params, "limit", 50, 1, 1000)
	if offset_v == null or limit_v == null:
		return _fail("VALIDATION_ERROR", "offset must be an integer >= 0 and limit from 1 to 1000.")
	var offset: int = offset_v
	var limit: int = limit_v
	var f: Dictionary = await _frame(params)
	if f.has("failure"):
		return f["failure"]
	var sid: int = f["sid"]
	var raw: Variant = await _vars(sid, f["frame"])
	if raw == null:
		return _fail("TIMEOUT", "The game did not send the variables of frame %d within %d ms (it may have continued). Check godot_debugger_get_state and retry." % [f["frame"], VARS_WAIT_MS])
	var picked: Array = []
	for v: Array in raw:
		if v.size() < 4:
			continue
		var vscope: String = SCOPES[clampi(int(v[1]), 0, 2)]
		if scope != "all" and vscope != scope:
			continue
		picked.append({"name": str(v[0]), "scope": vscope, "type": int(v[2]), "value": v[3]})
	var name_v: Variant = params.get("name")
	if name_v != null and str(name_v) != "":
		var wanted: String = str(name_v)
		for p: Dictionary in picked:
			if p["name"] == wanted:
				var paged: Dictionary = _paged_variable(f, p, offset, limit)
				await _describe_objects(sid, [paged["variable"]])
				return _ok(paged)
		var names: PackedStringArray = []
		for p: Dictionary in picked:
			names.append(p["name"])
		return _fail("RESOURCE_NOT_FOUND", "Frame %d (%s) has no %svariable '%s'. It has: %s." % [f["frame"], f["where"]["function"], "" if scope == "all" else scope + " ", wanted, ", ".join(names) if not names.is_empty() else "none"])
	var out: Array = []
	for i: int in range(offset, mini(picked.size(), offset + limit)):
		var p: Dictionary = picked[i]
		out.append(_entry(p))
	await _describe_objects(sid, out)
	var next: int = offset + out.size()
	return _ok({
		"frame": f["frame"],
		"location": f["where"],
		"variables": out,
		"total": picked.size(),
		"offset": offset,
		"next_offset": next if next < picked.size() else -1,
		"truncated": next < picked.size(),
	})


func _entry(p: Dictionary) -> Dictionary:
	var e: Dictionary = {"name": p["name"], "scope": p["scope"], "type": _type_name(p["type"], p["value"])}
	var cut: Array = [false]
	e["value"] = enc(p["value"], 0, cut)
	var size: int = _size_of(p["value"])
	if size >= 0:
		e["size"] = size
	if cut[0]:
		e["truncated"] = true
	return e


## One variable, its elements (or characters) from offset, limit of them.
func _paged_variable(f: Dictionary, p: Dictionary, offset: int, limit: int) -> Dictionary:
	var v: Variant = p["value"]
	var e: Dictionary = {"name": p["name"], "scope": p["scope"], "type": _type_name(p["type"], v)}
	var size: int = _size_of(v)
	var cut: Array = [false]
	var next: int = -1
	if size < 0:
		e["value"] = enc(v, 0, cut)
	elif typeof(v) == TYPE_STRING or typeof(v) == TYPE_STRING_NAME or typeof(v) == TYPE_NODE_PATH:
		var s: String = str(v)
		var n: int = limit * 100
		e["value"] = s.substr(offset, n)
		next = offset + n if offset + n < s.length() else -1
	elif typeof(v) == TYPE_DICTIONARY:
		var d: Dictionary = v
		var keys: Array = d.keys()
		var part: Dictionary = {}
		for i: int in range(offset, mini(keys.size(), offset + limit)):
			part[_key(keys[i])] = enc(d[keys[i]], 1, cut)
		e["value"] = part
		next = offset + limit if offset + limit < keys.size() else -1
	else:
		var items: Array = []
		for i: int in range(offset, mini(size, offset + limit)):
			items.append(enc(v[i], 1, cut))
		e["value"] = items
		next = offset + limit if offset + limit < size else -1
	if size >= 0:
		e["size"] = size
	if cut[0]:
		e["truncated"] = true
	return {"frame": f["frame"], "location": f["where"], "variable": e, "offset": offset, "next_offset": next, "truncated": next >= 0}


static func _size_of(v: Variant) -> int:
	match typeof(v):
		TYPE_STRING, TYPE_STRING_NAME, TYPE_NODE_PATH:
			return str(v).length()
		TYPE_ARRAY, TYPE_DICTIONARY, TYPE_PACKED_BYTE_ARRAY, TYPE_PACKED_INT32_ARRAY, TYPE_PACKED_INT64_ARRAY, TYPE_PACKED_FLOAT32_ARRAY, TYPE_PACKED_FLOAT64_ARRAY, TYPE_PACKED_STRING_ARRAY, TYPE_PACKED_VECTOR2_ARRAY, TYPE_PACKED_VECTOR3_ARRAY, TYPE_PACKED_COLOR_ARRAY, TYPE_PACKED_VECTOR4_ARRAY:
			return v.size()
	return -1


static func _type_name(t: int, v: Variant) -> String:
	if v is EncodedObjectAsID or t == TYPE_OBJECT:
		return "Object"
	return type_string(t)


static func _key(k: Variant) -> String:
	return k if typeof(k) == TYPE_STRING else var_to_str(k) if typeof(k) != TYPE_STRING_NAME else str(k)


## Encodes a value the game sent into the docs/values.md shapes, cutting long
## containers and strings (cut[0] becomes true when anything was cut). Objects
## arrive as ids (the game's objects live in the game): {"type": "Object", "object_id"}.
func enc(v: Variant, depth: int, cut: Array) -> Variant:
	if v is EncodedObjectAsID:
		return {"type": "Object", "object_id": (v as EncodedObjectAsID).object_id}
	if v is Object:
		return _router.codec.encode(v)
	var items: int = PREVIEW_ITEMS if depth == 0 else NESTED_ITEMS
	match typeof(v):
		TYPE_STRING, TYPE_STRING_NAME, TYPE_NODE_PATH:
			var s: String = str(v)
			if s.length() > PREVIEW_CHARS:
				cut[0] = true
				return s.left(PREVIEW_CHARS)
			return s
		TYPE_ARRAY:
			var a: Array = v
			if depth >= MAX_DEPTH and not a.is_empty():
				cut[0] = true
				return []
			var out: Array = []
			for i: int in range(mini(a.size(), items)):
				out.append(enc(a[i], depth + 1, cut))
			if a.size() > items:
				cut[0] = true
			return out
		TYPE_DICTIONARY:
			var d: Dictionary = v
			if depth >= MAX_DEPTH and not d.is_empty():
				cut[0] = true
				return {}
			var out2: Dictionary = {}
			var keys: Array = d.keys()
			for i: int in range(mini(keys.size(), items)):
				out2[_key(keys[i])] = enc(d[keys[i]], depth + 1, cut)
			if keys.size() > items:
				cut[0] = true
			return out2
	if _size_of(v) > items:
		cut[0] = true
		var sliced: Variant = v.slice(0, items)
		return _router.codec.encode(sliced)
	return _router.codec.encode(v)


## {expression, frame?: 0} -> {expression, frame, location, type, value, size?, truncated?, errors}
func evaluate(params: Dictionary) -> Dictionary:
	var expr_v: Variant = params.get("expression")
	if typeof(expr_v) != TYPE_STRING or str(expr_v).strip_edges() == "":
		return _fail("VALIDATION_ERROR", "expression is required: a GDScript expression such as \"position.x + speed\" or \"get_node('Player').name\".")
	var expression: String = str(expr_v).strip_edges()
	if expression.length() > 4000:
		return _fail("VALIDATION_ERROR", "expression is longer than 4000 characters.")
	var f: Dictionary = await _frame(params)
	if f.has("failure"):
		return f["failure"]
	var sid: int = f["sid"]
	var frame: int = f["frame"]
	# Godot 4.4 resumes the game when asked to evaluate in a frame without an
	# instance (a static function): refuse that instead. The frame's members start
	# with "self" when it has one.
	var raw: Variant = await _vars(sid, frame)
	if raw == null:
		return _fail("TIMEOUT", "The game did not send the variables of frame %d within %d ms (it may have continued). Check godot_debugger_get_state and retry." % [frame, VARS_WAIT_MS])
	var has_self: bool = false
	var locals: PackedStringArray = []
	for v: Array in raw:
		if v.size() >= 4 and int(v[1]) == 1 and str(v[0]) == "self":
			has_self = true
		if v.size() >= 4 and int(v[1]) == 0:
			locals.append(str(v[0]))
	if not has_self:
		return _fail("PRECONDITION_FAILED", "Frame %d (%s() in %s) runs without an instance (a static function): Godot 4.4 cannot evaluate there and would resume the game. Evaluate in another frame (godot_debugger_get_state lists them), or read its variables with godot_debugger_get_variables." % [frame, f["where"]["function"], f["where"]["file"]])
	var check: Expression = Expression.new()
	if check.parse(expression, locals) != OK:
		return _fail("VALIDATION_ERROR", "The expression does not parse: %s. It is a GDScript Expression (no statements, no assignments with =); the frame's locals (%s) and self's members and methods can be used." % [check.get_error_text(), ", ".join(locals) if not locals.is_empty() else "none"])
	var err_cursor: int = _monitor.error_cursor()
	var id: int = _monitor.request_eval(sid, expression, frame)
	var deadline: int = Time.get_ticks_msec() + EVAL_WAIT_MS
	var answer: Variant = null
	while Time.get_ticks_msec() < deadline:
		await _tree().process_frame
		answer = _monitor.eval_result(sid, id)
		if answer != null:
			break
		if not _monitor.state(sid)["breaked"]:
			return _fail("PRECONDITION_FAILED", "The game continued before it answered the evaluation. Check godot_debugger_get_state.")
	if answer == null:
		return _fail("TIMEOUT", "The game did not answer the evaluation within %d ms. Check godot_debugger_get_state." % EVAL_WAIT_MS)
	var a: Array = answer
	var value: Variant = a[3] if a.size() > 3 else null
	# Errors the expression raised in the game arrive right after its answer (the
	# game flushes them on its debug loop's next turn); a failed one answers null.
	if value == null:
		var settle: int = Time.get_ticks_msec() + 150
		while Time.get_ticks_msec() < settle:
			await _tree().process_frame
	var errors: Array = []
	for e: Dictionary in _monitor.errors_since(sid, err_cursor):
		errors.append(e["message"])
	var cut: Array = [false]
	var out: Dictionary = {
		"expression": expression,
		"frame": frame,
		"location": f["where"],
		"type": _type_name(int(a[2]) if a.size() > 2 else typeof(value), value),
		"value": enc(value, 0, cut),
		"errors": errors,
	}
	var size: int = _size_of(value)
	if size >= 0:
		out["size"] = size
	if cut[0]:
		out["truncated"] = true
	await _describe_objects(sid, [out])
	return _ok(out)


## Names the class of every object in [param entries] (each {type, value}; a value
## may hold objects anywhere inside): the game sends objects as ids only, so its
## godot-mcp probe (the runtime toolset's, whose message capture runs while the game
## is stopped) is asked what they are. Each {"type": "Object", "object_id"} gets
## class (and script, script_class, node_path, resource_path when there are), or
## freed: true; an entry whose value is an object gets its class as type. Without a
## probe (or no answer in time) the objects stay as they were.
func _describe_objects(sid: int, entries: Array) -> void:
	var found: Array = []
	for e: Variant in entries:
		if typeof(e) == TYPE_DICTIONARY:
			_collect_objects((e as Dictionary).get("value"), found)
	# Only a game whose probe said hello is asked: a game without one would print
	# "Unknown message received from debugger" for the question.
	if found.is_empty() or not _monitor.has_probe(sid):
		return
	var s: Dictionary = _monitor.state(sid)
	var break_id: int = int(s.get("break_id", -1))
	var ids: Array = []
	for o: Dictionary in found:
		if not ids.has(o["object_id"]):
			ids.append(o["object_id"])
	var id: int = _monitor.request_objects(sid, ids)
	var deadline: int = Time.get_ticks_msec() + OBJECTS_WAIT_MS
	var answer: Variant = null
	while Time.get_ticks_msec() < deadline:
		answer = _monitor.objects_result(sid, id)
		if answer != null:
			break
		var st: Dictionary = _monitor.state(sid)
		if not st.get("breaked", false) or int(st.get("break_id", -1)) != break_id:
			return
		await _tree().process_frame
	if typeof(answer) != TYPE_DICTIONARY or not (answer as Dictionary).get("ok", false):
		return
	var by_id: Dictionary = {}
	for d: Variant in ((answer as Dictionary).get("result", {}) as Dictionary).get("objects", []):
		if typeof(d) == TYPE_DICTIONARY:
			by_id[int((d as Dictionary).get("id", 0))] = d
	for o: Dictionary in found:
		var d: Dictionary = by_id.get(int(o["object_id"]), {})
		for k: String in ["class", "script", "script_class", "name", "node_path", "resource_path", "freed"]:
			if d.has(k):
				o[k] = d[k]
	for e: Variant in entries:
		if typeof(e) == TYPE_DICTIONARY:
			var v: Variant = (e as Dictionary).get("value")
			if typeof(v) == TYPE_DICTIONARY and (v as Dictionary).get("type") == "Object" and (v as Dictionary).has("class"):
				(e as Dictionary)["type"] = (v as Dictionary)["class"]


## The {"type": "Object", "object_id"} dictionaries inside [param v] (encoded values).
static func _collect_objects(v: Variant, found: Array) -> void:
	match typeof(v):
		TYPE_DICTIONARY:
			var d: Dictionary = v
			if d.get("type") == "Object" and d.has("object_id"):
				found.append(d)
				return
			for k: Variant in d.keys():
				_collect_objects(d[k], found)
		TYPE_ARRAY:
			for x: Variant in v:
				_collect_objects(x, found)

