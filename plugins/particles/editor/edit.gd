@tool
extends RefCounted
## set, get and restart: a particles node's parameters by friendly name (model.gd),
## each edit one undo action, all or nothing.

const Common := preload("common.gd")
const Model := preload("model.gd")
const Nodes := preload("res://addons/godot_mcp/lib/nodes.gd")
const Recorder := preload("res://addons/godot_mcp/lib/undo.gd")

var c: Common = null


func _init(common: Common) -> void:
	c = common


## {node, params: [{name, part?, value}], dry_run} -> {path, class, changes, params, persisted, reason, undoable, dry_run}
func set_params(params: Dictionary) -> Dictionary:
	var f: Dictionary = c.particles_param(params)
	if f.has("error"):
		return f["error"]
	var root: Node = f["root"]
	var n: Node = f["node"]
	var dry: bool = bool(params.get("dry_run", false))
	var plan: Dictionary = plan_params(n, params.get("params", []), "params")
	if plan.has("error"):
		return plan["error"]
	var before: Dictionary = Model.read_all(n)
	var rec: Recorder = Recorder.new()
	rec.begin()
	apply(rec, n, plan["steps"])
	var after: Dictionary = Model.read_all(n)
	var changes: Array = []
	for name: String in plan["names"]:
		if str(before.get(name)) != str(after.get(name)):
			changes.append({"name": name, "old": before.get(name), "new": after.get(name)})
	var out: Dictionary = {"path": Nodes.rel(root, n), "class": n.get_class(), "changes": changes, "params": after,
		"dry_run": dry, "undoable": false, "persisted": false, "reason": ""}
	if dry or changes.is_empty():
		rec.rollback()
		out["params"] = after
		out["reason"] = "a dry run: nothing was changed" if dry else "every parameter already had that value: nothing changed"
		return c.ok(out)
	rec.commit("godot-mcp: set particles of '%s'" % Nodes.rel(root, n), root)
	var pr: Dictionary = Common.persisted(root, n)
	out["undoable"] = true
	out["persisted"] = pr["persisted"]
	out["reason"] = pr["reason"]
	return c.ok(out)


## Checks [param entries] against [param n] before anything changes:
## {steps: [[name, part, value]], names} or {error}.
func plan_params(n: Node, entries: Array, where: String) -> Dictionary:
	var have: PackedStringArray = Model.applicable(n)
	var steps: Array = []
	var names: PackedStringArray = []
	var ranges: Dictionary = {}
	var needs_material: bool = false
	for e: Dictionary in entries:
		var name: String = str(e.get("name", ""))
		var part: String = str(e.get("part", ""))
		var v: Variant = e.get("value")
		if Model.prop(n, name) == "":
			return {"error": c.fail("VALIDATION_ERROR", "%s.%s: a %s has no %s parameter. It takes: %s." % [where, name, n.get_class(), name, ", ".join(have)])}
		if not names.has(name):
			names.append(name)
		if not Model.NODE_OWN.has(name):
			needs_material = true
		if Model.RANGES.has(name):
			var pair: Array = ranges.get(name, Model.read(n, name))
			if part == "":
				pair = [float(v[0]), float(v[1])]
			elif part == "min":
				pair[0] = float(v)
			else:
				pair[1] = float(v)
			ranges[name] = pair
			continue
		if name.ends_with("_ramp"):
			var bad: String = Model.ramp_problem(v)
			if bad != "":
				return {"error": c.fail("VALIDATION_ERROR", "%s.%s: %s" % [where, name, bad])}
		var d: Dictionary = Model.decode(n, name, v)
		if d.has("error"):
			return {"error": c.fail("VALIDATION_ERROR", "%s.%s: %s" % [where, name, d["error"]])}
		steps.append([name, "", d["value"]])
	for name2: String in ranges:
		var p: Array = ranges[name2]
		if float(p[0]) > float(p[1]):
			return {"error": c.fail("VALIDATION_ERROR", "%s.%s: min %s would be above max %s; set both as [min, max]." % [where, name2, p[0], p[1]])}
		steps.append([name2, "min", float(p[0])])
		steps.append([name2, "max", float(p[1])])
	if needs_material and Model.is_gpu(n):
		var m: Variant = n.get("process_material")
		if m != null and not (m is ParticleProcessMaterial):
			return {"error": c.fail("VALIDATION_ERROR", "'%s' draws with a %s as process_material, which has no named particle parameters; only %s apply. Replace it with a ParticleProcessMaterial (godot_scene_set_properties) to use the others." % [n.name, (m as Object).get_class(), ", ".join(Model.NODE_OWN)])}
		var file: String = (m as Resource).resource_path if m != null else ""
		if file != "" and not file.contains("::"):
			# A material saved as its own file is shared by every scene that uses it, and a
			# scene save does not write it: refuse rather than change it unsaved.
			return {"error": c.fail("VALIDATION_ERROR", "'%s' uses the material file %s as process_material, shared by every scene that loads it; these tools edit only materials embedded in the scene. Edit the file with godot_resources_set_properties, or give the node an embedded one (godot_scene_set_properties {process_material: {type: \"ParticleProcessMaterial\"}}, from defaults). The node's own parameters (%s) can be set here." % [n.name, file, ", ".join(Model.NODE_OWN)])}
	return {"steps": steps, "names": names}


## Applies planned steps to [param n] through [param rec] (a GPU node without a
## process material gets a new ParticleProcessMaterial first).
static func apply(rec: Recorder, n: Node, steps: Array) -> void:
	if Model.is_gpu(n) and n.get("process_material") == null:
		for s: Array in steps:
			if not Model.NODE_OWN.has(str(s[0])):
				rec.do_set(n, "process_material", ParticleProcessMaterial.new())
				rec.undo_set(n, "process_material", null)
				break
	for s2: Array in steps:
		var h: Object = Model.holder(n, str(s2[0]))
		var p: String = Model.prop(n, str(s2[0]), str(s2[1]))
		var old: Variant = h.get(p)
		rec.do_set(h, p, s2[2])
		rec.undo_set(h, p, old)


## {node?} -> {scene, nodes} or {scene, path, class, params}
func get_params(params: Dictionary) -> Dictionary:
	var root: Node = EditorInterface.get_edited_scene_root()
	if root == null:
		return c.no_scene()
	if str(params.get("node", "")).strip_edges() == "":
		var all: Array[Node] = []
		Common.walk(root, all)
		var nodes: Array = []
		for n: Node in all:
			if Common.is_particles(n):
				nodes.append({"path": Nodes.rel(root, n), "class": n.get_class(), "emitting": n.get("emitting"),
					"amount": n.get("amount"), "lifetime": Model.encode(n, n.get("lifetime")), "one_shot": n.get("one_shot")})
		return c.ok({"scene": Nodes.scene_label(root), "nodes": nodes})
	var f: Dictionary = c.particles_param(params)
	if f.has("error"):
		return f["error"]
	var node: Node = f["node"]
	return c.ok({"scene": Nodes.scene_label(root), "path": Nodes.rel(root, node), "class": node.get_class(), "params": Model.read_all(node)})


## {node, emitting, dry_run} -> {path, class, emitting, restarted, changed, persisted, reason, undoable, dry_run}
func restart(params: Dictionary) -> Dictionary:
	var f: Dictionary = c.particles_param(params)
	if f.has("error"):
		return f["error"]
	var root: Node = f["root"]
	var n: Node = f["node"]
	var on: bool = bool(params.get("emitting", true))
	var dry: bool = bool(params.get("dry_run", false))
	var was: bool = bool(n.get("emitting"))
	var out: Dictionary = {"path": Nodes.rel(root, n), "class": n.get_class(), "emitting": on, "restarted": on and not dry,
		"changed": was != on, "dry_run": dry, "undoable": false, "persisted": false, "reason": ""}
	if dry:
		out["emitting"] = was
		out["reason"] = "a dry run: nothing was changed"
		return c.ok(out)
	var rec: Recorder = Recorder.new()
	rec.begin()
	if on:
		rec.do_call(n, "restart")
		rec.undo_set(n, "emitting", was)
	else:
		rec.do_set(n, "emitting", false)
		rec.undo_set(n, "emitting", was)
	if was == on and not on:
		rec.rollback()
		out["reason"] = "it was not emitting: nothing changed"
		return c.ok(out)
	if was == on:
		# A restart of a node already emitting changes nothing that is saved: a preview only.
		out["reason"] = "a preview: emitting was already on, so nothing saved changed (no undo entry)"
		return c.ok(out)
	rec.commit("godot-mcp: %s particles '%s'" % ["restart" if on else "stop", Nodes.rel(root, n)], root)
	var pr: Dictionary = Common.persisted(root, n)
	out["undoable"] = true
	out["persisted"] = pr["persisted"]
	out["reason"] = pr["reason"]
	return c.ok(out)
