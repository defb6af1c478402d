@tool
extends "common.gd"
## godot_scene_batch and the single edit tools: steps run as ONE undo action; a failing
## step rolls back what earlier ones did; a dry run applies and rolls back.

## tool name -> Callable(root, params, rec) -> answer (set by handlers.gd).
var step_ops: Dictionary = {}


## Runs steps [{tool, params}] on the edited scene as one undo action named [param action]
## (computed from the first step's label when empty). On a failing step everything
## already done is rolled back. {ok, results, undoable, action} or {ok: false, index, failure}.
func _run_steps(steps: Array, dry_run: bool, action: String) -> Dictionary:
	_prop_lists.clear()
	_type_cache.clear()
	_ctx["dry_run"] = dry_run
	var out: Dictionary = _run_steps_cached(steps, dry_run, action)
	_ctx["dry_run"] = false
	_prop_lists.clear()
	_type_cache.clear()
	return out


func _run_steps_cached(steps: Array, dry_run: bool, action: String) -> Dictionary:
	var root: Node = EditorInterface.get_edited_scene_root()
	if root == null:
		return {"ok": false, "index": -1, "failure": _no_scene()}
	var mgr: EditorUndoRedoManager = EditorInterface.get_editor_undo_redo()
	if mgr.is_committing_action():
		return {"ok": false, "index": -1, "failure": _router.fail("PRECONDITION_FAILED", "The editor is in the middle of an undo action; retry in a moment.")}
	var rec: Recorder = Recorder.new()
	var results: Array = []
	var label: String = ""
	for i: int in range(steps.size()):
		var step: Variant = steps[i]
		if typeof(step) != TYPE_DICTIONARY:
			rec.rollback()
			return {"ok": false, "index": i, "failure": _bad("steps[%d] must be an object {tool, params}." % i), "results": results}
		var tool: String = str((step as Dictionary).get("tool", ""))
		var params: Variant = (step as Dictionary).get("params", {})
		if not step_ops.has(tool):
			rec.rollback()
			return {"ok": false, "index": i, "failure": _bad("steps[%d].tool '%s' is not a batchable edit; use one of %s." % [i, tool, ", ".join(STEP_TOOLS)]), "results": results}
		if typeof(params) != TYPE_DICTIONARY:
			rec.rollback()
			return {"ok": false, "index": i, "failure": _bad("steps[%d].params must be an object." % i), "results": results}
		rec.begin()
		var rv: Variant = (step_ops[tool] as Callable).call(root, params, rec)
		if typeof(rv) != TYPE_DICTIONARY:
			# A script error inside the step: undo what it and earlier steps did.
			rec.rollback()
			return {"ok": false, "index": i, "failure": _router.fail("INTERNAL_ERROR", "The %s step failed inside the addon (see the editor's Output panel); nothing was changed." % tool), "results": results}
		var r: Dictionary = rv
		if not r.get("ok", false):
			rec.rollback()
			return {"ok": false, "index": i, "failure": r, "results": results}
		var res: Dictionary = r.get("result", {})
		if label == "":
			label = str(res.get("_label", tool))
		res.erase("_label")
		# Leaner answers (a batch of 1,000 steps answers 1,000 of these): empty
		# optional fields are left out.
		for key: String in ["reason", "script", "script_class"]:
			if res.has(key) and str(res[key]) == "":
				res.erase(key)
		results.append(res)
	var changed: bool = rec.has_ops()
	if action == "":
		action = ACTION_PREFIX + label
	if dry_run:
		rec.rollback()
	elif changed:
		rec.commit(action, root)
	return {"ok": true, "results": results, "undoable": changed, "action": action if changed else ""}


## One edit tool = a batch of one step.
func _single(tool: String, params: Dictionary) -> Dictionary:
	var dry: Variant = Params.boolean(params, "dry_run", false)
	if dry == null:
		return _bad("dry_run must be true or false.")
	var out: Dictionary = _run_steps([{"tool": tool, "params": params}], dry, "")
	if not out.get("ok", false):
		return out["failure"]
	var r: Dictionary = (out["results"] as Array)[0]
	r["undoable"] = out["undoable"]
	r["dry_run"] = dry
	return _router.ok(r)


## {steps: [{tool, params}], dry_run} -> {applied, aborted_at, error, steps: [{index, tool, result}],
## persisted, reasons, undoable, dry_run, action}
func cmd_batch(params: Dictionary) -> Dictionary:
	var dry: Variant = Params.boolean(params, "dry_run", false)
	if dry == null:
		return _bad("dry_run must be true or false.")
	var steps: Variant = params.get("steps")
	if typeof(steps) != TYPE_ARRAY or (steps as Array).is_empty():
		return _bad("steps must be a non-empty array of {tool, params}.")
	if EditorInterface.get_edited_scene_root() == null:
		return _no_scene()
	var full: Variant = Params.boolean(params, "full_values", false)
	if full == null:
		return _bad("full_values must be true or false.")
	var n: int = (steps as Array).size()
	var out: Dictionary = _run_steps(steps, dry, ACTION_PREFIX + "batch of %d step%s" % [n, "" if n == 1 else "s"])
	var results: Array = out.get("results", [])
	if not full:
		for i: int in range(results.size()):
			results[i] = _summarised(results[i])
	var listed: Array = []
	var persisted: bool = true
	var reasons: PackedStringArray = []
	for i: int in range(results.size()):
		var r: Dictionary = results[i]
		listed.append({"index": i, "tool": str(((steps as Array)[i] as Dictionary).get("tool", "")), "result": r})
		if not bool(r.get("persisted", true)):
			persisted = false
			reasons.append("step %d: %s" % [i, str(r.get("reason", ""))])
	if not out.get("ok", false):
		var idx: int = out.get("index", -1)
		var f: Dictionary = out["failure"]
		if idx < 0:
			return f
		var err: Dictionary = {"error": str(f.get("error", "INTERNAL_ERROR")), "hint": "Step %d (%s) failed: %s Nothing was changed." % [idx, str(((steps as Array)[idx] as Dictionary).get("tool", "")) if typeof((steps as Array)[idx]) == TYPE_DICTIONARY else "?", str(f.get("hint", ""))]}
		if str(f.get("required", "")) != "":
			err["required"] = str(f["required"])
		return _router.ok({
			"applied": false, "aborted_at": idx, "error": err, "steps": listed,
			"persisted": false, "reasons": reasons, "undoable": false, "dry_run": dry, "action": "",
		})
	return _router.ok({
		"applied": not dry, "aborted_at": null, "error": null, "steps": listed,
		"persisted": persisted, "reasons": reasons, "undoable": out["undoable"], "dry_run": dry,
		"action": out["action"],
	})


## [param v] (a step result, before the router encodes it) with every inline
## (embedded) resource replaced by {type, summary}: a batch that builds an Environment,
## its sky material and a noise would otherwise echo every stored property of each in
## every step. Resources saved to a file are encoded as their path anyway. A copy: the
## dictionaries and arrays of a result may be a node's own property values.
## full_values: true keeps them.
static func _summarised(v: Variant) -> Variant:
	var x: Variant = _inline_summary(v)
	if x != null:
		return x
	match typeof(v):
		TYPE_DICTIONARY:
			var out: Dictionary = {}
			for k: Variant in (v as Dictionary).keys():
				out[k] = _summarised((v as Dictionary)[k])
			return out
		TYPE_ARRAY:
			var arr: Array = []
			for e: Variant in (v as Array):
				arr.append(_summarised(e))
			return arr
	return v


## {type, summary} for an inline resource (an object, or the codec's {type, properties}),
## else null.
static func _inline_summary(x: Variant) -> Variant:
	var label: String = ""
	var n: int = 0
	if typeof(x) == TYPE_OBJECT and is_instance_valid(x) and x is Resource:
		var res: Resource = x
		if res.resource_path != "" and not res.resource_path.contains("::"):
			return null
		var scr: Script = res.get_script() as Script
		label = str(scr.get_global_name()) if scr != null and str(scr.get_global_name()) != "" else res.get_class()
		for info: Dictionary in res.get_property_list():
			var pname: String = str(info.get("name", ""))
			if (int(info.get("usage", 0)) & PROPERTY_USAGE_STORAGE) != 0 and pname != "resource_path" and pname != "script":
				n += 1
	elif typeof(x) == TYPE_DICTIONARY and (x as Dictionary).size() == 2 and (x as Dictionary).has("type") and typeof((x as Dictionary).get("properties")) == TYPE_DICTIONARY:
		label = str((x as Dictionary)["type"])
		n = ((x as Dictionary)["properties"] as Dictionary).size()
	else:
		return null
	return {"type": label, "summary": "inline resource with %d stored properties (full_values: true echoes them)" % n}
