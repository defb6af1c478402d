@tool
extends RefCounted
## Requests to the running game's probe: its scene tree and nodes, setting properties,
## calling methods, input, pause/time scale/frame step, performance.

const CommandRouter := preload("res://addons/godot_mcp/command_router.gd")
const DebuggerPlugin := preload("res://addons/godot_mcp/runtime/debugger_plugin.gd")
const Link := preload("link.gd")

var _router: CommandRouter = null
var _monitor: DebuggerPlugin = null
var _link: Link = null


func setup(link: Link) -> void:
	_link = link
	_router = link.router
	_monitor = link.monitor


func get_commands() -> Dictionary:
	return {
		"cmd_runtime_get_tree": {"class": "read_only", "run": get_tree},
		"cmd_runtime_get_node": {"class": "read_only", "run": get_node},
		"cmd_runtime_set_properties": {"class": "runtime", "run": set_properties},
		"cmd_runtime_call_method": {"class": "runtime", "run": call_method},
		"cmd_runtime_input": {"class": "runtime", "run": input},
		"cmd_runtime_get_performance": {"class": "read_only", "run": get_performance},
		"cmd_runtime_pause": {"class": "runtime", "run": pause},
	}


func _path_param(params: Dictionary, key: String, default_value: String) -> Variant:
	var v: Variant = params.get(key, default_value)
	if v == null:
		return default_value
	if typeof(v) != TYPE_STRING:
		return null
	return v


## {root?: node path, depth?: 1..64, max_nodes?: 1..5000}
func get_tree(params: Dictionary) -> Dictionary:
	var root: Variant = _path_param(params, "root", "/root")
	if root == null:
		return _router.fail("VALIDATION_ERROR", "root must be a node path string (\"/root\", \"/root/Main\" or relative to the current scene).")
	var depth: Variant = Link.int_param(params, "depth", 6, 1, 64)
	var max_nodes: Variant = Link.int_param(params, "max_nodes", 500, 1, 5000)
	if depth == null or max_nodes == null:
		return _router.fail("VALIDATION_ERROR", "depth must be 1..64 and max_nodes 1..5000.")
	return await _link.ask("tree", {"root": root, "depth": depth, "max_nodes": max_nodes}, Link.DEFAULT_TIMEOUT_MS)


## {path, properties?: [names]}
func get_node(params: Dictionary) -> Dictionary:
	var path: Variant = _path_param(params, "path", "")
	if path == null:
		return _router.fail("VALIDATION_ERROR", "path must be a node path string.")
	var props: Variant = params.get("properties", [])
	if props == null:
		props = []
	if typeof(props) != TYPE_ARRAY:
		return _router.fail("VALIDATION_ERROR", "properties must be an array of property names.")
	return await _link.ask("node", {"path": path, "properties": props}, Link.DEFAULT_TIMEOUT_MS)


## {path, properties: {name: value}}
func set_properties(params: Dictionary) -> Dictionary:
	var path: Variant = _path_param(params, "path", "")
	if path == null:
		return _router.fail("VALIDATION_ERROR", "path must be a node path string.")
	if typeof(params.get("properties")) != TYPE_DICTIONARY or (params["properties"] as Dictionary).is_empty():
		return _router.fail("VALIDATION_ERROR", "properties must be an object {name: value} with at least one property.")
	var r: Dictionary = await _link.ask("set", {"path": path, "properties": params["properties"]}, Link.DEFAULT_TIMEOUT_MS)
	if r.get("ok", false):
		(r["result"] as Dictionary)["persisted"] = false
	return r


## {path, method, args?: [], timeout_ms?}
func call_method(params: Dictionary) -> Dictionary:
	var path: Variant = _path_param(params, "path", "")
	if path == null:
		return _router.fail("VALIDATION_ERROR", "path must be a node path string.")
	if typeof(params.get("method")) != TYPE_STRING or str(params["method"]) == "":
		return _router.fail("VALIDATION_ERROR", "method is required: the name of a method of the node.")
	var args: Variant = params.get("args", [])
	if args == null:
		args = []
	if typeof(args) != TYPE_ARRAY:
		return _router.fail("VALIDATION_ERROR", "args must be an array of JSON values.")
	var timeout: Variant = Link.int_param(params, "timeout_ms", Link.DEFAULT_TIMEOUT_MS, 100, 300000)
	if timeout == null:
		return _router.fail("VALIDATION_ERROR", "timeout_ms must be an integer from 100 to 300000.")
	var r: Dictionary = await _link.ask("call", {"path": path, "method": params["method"], "args": args}, timeout)
	if r.get("ok", false):
		(r["result"] as Dictionary)["persisted"] = false
	return r


## {steps: [...], timeout_ms}
func input(params: Dictionary) -> Dictionary:
	if typeof(params.get("steps")) != TYPE_ARRAY or (params["steps"] as Array).is_empty():
		return _router.fail("VALIDATION_ERROR", "steps must be a non-empty array of input steps.")
	var timeout: Variant = Link.int_param(params, "timeout_ms", 30000, 100, 600000)
	if timeout == null:
		return _router.fail("VALIDATION_ERROR", "timeout_ms must be an integer from 100 to 600000.")
	var r: Dictionary = await _link.ask("input", {"steps": params["steps"]}, timeout)
	if str(r.get("required", "")) == "game_not_breaked":
		r["hint"] = await _input_cut_off(r) + str(r["hint"])
	return r


## The game stopped in the debugger under an input sequence (or before it began): ends
## the sequence in the game and says which steps ran and what was released.
func _input_cut_off(_r: Dictionary) -> String:
	var c: Dictionary = await _link.ask_while_stopped("input_cancel", {}, 2000)
	if not c.get("ok", false):
		return "The input sequence was cut off by a debugger stop; which steps ran is not known (the game did not answer), and inputs it held are released when the game runs again. "
	var res: Dictionary = c["result"]
	if not res.get("running", false):
		return "No input step ran: the game is stopped in the debugger. "
	var released: PackedStringArray = []
	for label: Variant in res.get("released", []):
		released.append(str(label))
	var held: String = "Held inputs released: %s (the game sees the releases when it runs again)." % ", ".join(released) if not released.is_empty() else "Nothing was held."
	return "The input sequence was cut off by a debugger stop after %d of %d steps (the last: %s); the rest will not run. %s " % [int(res["applied"]), int(res["total"]), str(res.get("last", "")), held]


## {paused?: bool, time_scale?: number, step_frames?: int, timeout_ms?}
func pause(params: Dictionary) -> Dictionary:
	var out: Dictionary = {}
	if params.get("paused") != null:
		if typeof(params["paused"]) != TYPE_BOOL:
			return _router.fail("VALIDATION_ERROR", "paused must be true or false.")
		out["paused"] = params["paused"]
	if params.get("time_scale") != null:
		var ts: Variant = params["time_scale"]
		if not (typeof(ts) == TYPE_FLOAT or typeof(ts) == TYPE_INT) or float(ts) < 0.0 or float(ts) > 100.0:
			return _router.fail("VALIDATION_ERROR", "time_scale must be a number from 0 to 100 (1 is normal speed).")
		out["time_scale"] = float(ts)
	var step: Variant = Link.int_param(params, "step_frames", 0, 0, 10000)
	if step == null:
		return _router.fail("VALIDATION_ERROR", "step_frames must be an integer from 0 to 10000.")
	out["step_frames"] = step
	var timeout: Variant = Link.int_param(params, "timeout_ms", Link.DEFAULT_TIMEOUT_MS + int(step) * 100, 100, 600000)
	if timeout == null:
		return _router.fail("VALIDATION_ERROR", "timeout_ms must be an integer from 100 to 600000.")
	return await _link.ask("pause", out, timeout)


func get_performance(_params: Dictionary) -> Dictionary:
	return await _link.ask("perf", {}, Link.DEFAULT_TIMEOUT_MS)
