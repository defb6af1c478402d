@tool
extends RefCounted
## cmd_animation_tree_get and cmd_animation_tree_edit: an AnimationTree's graph
## (state machines, blend trees, blend spaces) read back, and edited as ops on a
## deep copy of its tree_root that then replaces it as one undo action.

const KINDS := {
	"animation": "AnimationNodeAnimation", "state_machine": "AnimationNodeStateMachine", "blend_tree": "AnimationNodeBlendTree",
	"blend_space_1d": "AnimationNodeBlendSpace1D", "blend_space_2d": "AnimationNodeBlendSpace2D", "blend2": "AnimationNodeBlend2",
	"blend3": "AnimationNodeBlend3", "add2": "AnimationNodeAdd2", "add3": "AnimationNodeAdd3", "sub2": "AnimationNodeSub2",
	"one_shot": "AnimationNodeOneShot", "time_scale": "AnimationNodeTimeScale", "time_seek": "AnimationNodeTimeSeek", "transition": "AnimationNodeTransition",
}
const OPS := ["set_root", "add_node", "remove_node", "add_transition", "set_transition", "remove_transition", "connect", "disconnect", "add_point", "remove_point", "set_blend_space"]
const SWITCH := ["immediate", "sync", "at_end"]
const ADVANCE := ["disabled", "enabled", "auto"]

var u: RefCounted = null # util.gd


func _init(util: RefCounted) -> void:
	u = util


static func kind_of(n: AnimationNode) -> String:
	if n == null:
		return ""
	for k: String in KINDS:
		if n.get_class() == KINDS[k]:
			return k
	return n.get_class()


func _tree_param(p: Dictionary) -> Dictionary:
	var m: Dictionary = u.mixer_param({"player": p.get("tree", "")})
	if u.is_fail(m):
		return m
	if not (m["mixer"] is AnimationTree):
		return u.bad("'%s' is a %s, not an AnimationTree. Add one with godot_scene_create_node {type: \"AnimationTree\", properties: {anim_player: \"../AnimationPlayer\"}}." % [u.rel(m["root"], m["mixer"]), (m["mixer"] as Node).get_class()])
	return m


## Children of a state machine or blend tree: name -> node, read from its stored properties.
static func children(g: AnimationNode) -> Dictionary:
	var out: Dictionary = {}
	var prefix: String = "states/" if g is AnimationNodeStateMachine else "nodes/"
	for info: Dictionary in g.get_property_list():
		var n: String = str(info["name"])
		if n.begins_with(prefix) and n.ends_with("/node"):
			var name: String = n.substr(prefix.length(), n.length() - prefix.length() - 5)
			var child: Variant = g.get(n)
			if child is AnimationNode:
				out[name] = child
	return out


func encode(n: AnimationNode, depth: int) -> Dictionary:
	var d: Dictionary = {"type": kind_of(n)}
	if n is AnimationNodeAnimation:
		d["animation"] = str((n as AnimationNodeAnimation).animation)
	if depth > 8:
		return d
	if n is AnimationNodeStateMachine:
		var sm := n as AnimationNodeStateMachine
		var nodes: Array = []
		var kids: Dictionary = children(sm)
		for name: String in kids:
			var e: Dictionary = encode(kids[name], depth + 1)
			e["name"] = name
			e["position"] = u.codec.encode(sm.get_node_position(name))
			nodes.append(e)
		var trs: Array = []
		for i: int in range(sm.get_transition_count()):
			var t: AnimationNodeStateMachineTransition = sm.get_transition(i)
			trs.append({"from": str(sm.get_transition_from(i)), "to": str(sm.get_transition_to(i)), "switch_mode": SWITCH[t.switch_mode], "advance_mode": ADVANCE[t.advance_mode],
				"advance_condition": str(t.advance_condition), "advance_expression": t.advance_expression, "xfade_time": snappedf(t.xfade_time, 0.000001), "priority": t.priority, "reset": t.reset})
		d["nodes"] = nodes
		d["transitions"] = trs
	elif n is AnimationNodeBlendTree:
		var bt := n as AnimationNodeBlendTree
		var nodes: Array = []
		var kids: Dictionary = children(bt)
		for name: String in kids:
			var e: Dictionary = encode(kids[name], depth + 1)
			e["name"] = name
			e["position"] = u.codec.encode(bt.get_node_position(name))
			var inputs: PackedStringArray = []
			for i: int in range((kids[name] as AnimationNode).get_input_count()):
				inputs.append((kids[name] as AnimationNode).get_input_name(i))
			if not inputs.is_empty():
				e["inputs"] = inputs
			nodes.append(e)
		var conns: Array = []
		var flat: Array = bt.get("node_connections")
		for i: int in range(0, flat.size() - 2, 3):
			conns.append({"to": str(flat[i]), "input": int(flat[i + 1]), "from": str(flat[i + 2])})
		d["nodes"] = nodes
		d["connections"] = conns
	elif n is AnimationNodeBlendSpace1D or n is AnimationNodeBlendSpace2D:
		var pts: Array = []
		for i: int in range(int(n.call("get_blend_point_count"))):
			var e: Dictionary = encode(n.call("get_blend_point_node", i), depth + 1)
			e["index"] = i
			e["position"] = u.codec.encode(n.call("get_blend_point_position", i))
			pts.append(e)
		d["points"] = pts
		d["min_space"] = u.codec.encode(n.get("min_space"))
		d["max_space"] = u.codec.encode(n.get("max_space"))
		d["blend_mode"] = int(n.get("blend_mode"))
	return d


## {tree} -> {tree, anim_player, active, root}
func get_tree(p: Dictionary) -> Dictionary:
	var m: Dictionary = _tree_param(p)
	if u.is_fail(m):
		return m
	var tree: AnimationTree = m["mixer"]
	return u.ok({"tree": u.rel(m["root"], tree), "anim_player": str(tree.anim_player), "active": tree.active,
		"root": encode(tree.tree_root, 0) if tree.tree_root != null else null})


## Finds the graph an op acts in: op.graph is "" (the root) or a path of child names.
func _graph(root: AnimationNode, op: Dictionary, where: String) -> Variant:
	if root == null:
		return {"hint": "%s: the tree has no root yet: start with {op: \"set_root\", type: \"state_machine\"} (or blend_tree, blend_space_1d, blend_space_2d)" % where, "code": "PRECONDITION_FAILED"}
	var g: AnimationNode = root
	var path: String = str(op.get("graph", ""))
	for seg: String in path.split("/", false):
		if not (g is AnimationNodeStateMachine or g is AnimationNodeBlendTree):
			return {"hint": "%s.graph: '%s' is not a state machine or blend tree" % [where, seg]}
		var kids: Dictionary = children(g)
		if not kids.has(seg):
			var best: String = u.closest(seg, PackedStringArray(kids.keys()))
			return {"hint": "%s.graph: no node '%s'%s; there: %s" % [where, seg, (" (did you mean '%s'?)" % best) if best != "" else "", u.short_list(PackedStringArray(kids.keys()))], "code": "RESOURCE_NOT_FOUND"}
		g = kids[seg]
	return g


func _new_node(mixer: AnimationTree, op: Dictionary, where: String) -> Variant:
	var kind: String = str(op.get("type", "animation"))
	if not KINDS.has(kind):
		return {"hint": "%s.type must be one of %s" % [where, ", ".join(PackedStringArray(KINDS.keys()))]}
	var n: AnimationNode = ClassDB.instantiate(KINDS[kind])
	if n is AnimationNodeAnimation:
		var an: String = str(op.get("animation", ""))
		if an == "" or not mixer.has_animation(an):
			var names: PackedStringArray = mixer.get_animation_list()
			var best: String = u.closest(an, names)
			return {"hint": "%s.animation: %s%s; the tree's animations (from anim_player): %s" % [where, "required" if an == "" else "no animation '%s'" % an, (" (did you mean '%s'?)" % best) if best != "" else "", u.short_list(names)], "code": "VALIDATION_ERROR" if an == "" else "RESOURCE_NOT_FOUND"}
		(n as AnimationNodeAnimation).animation = an
	return n


func _vec2(v: Variant, def: Vector2) -> Variant:
	if v == null:
		return def
	var d: Dictionary = u.codec.decode(v, TYPE_VECTOR2)
	return d["value"] if d.get("ok", false) else null


func _state(sm: AnimationNodeStateMachine, name: String, where: String, field: String) -> String:
	if sm.has_node(name):
		return ""
	var names: PackedStringArray = PackedStringArray(children(sm).keys())
	var best: String = u.closest(name, names)
	return "%s.%s: no state '%s'%s; states: %s" % [where, field, name, (" (did you mean '%s'?)" % best) if best != "" else "", u.short_list(names)]


func _set_transition(t: AnimationNodeStateMachineTransition, op: Dictionary, where: String) -> String:
	if op.has("switch_mode"):
		var s: Dictionary = u.enum_value(SWITCH, op["switch_mode"], where + ".switch_mode")
		if s.has("hint"):
			return s["hint"]
		t.switch_mode = s["value"]
	if op.has("advance_mode"):
		var a: Dictionary = u.enum_value(ADVANCE, op["advance_mode"], where + ".advance_mode")
		if a.has("hint"):
			return a["hint"]
		t.advance_mode = a["value"]
	if op.has("advance_condition"):
		t.advance_condition = StringName(str(op["advance_condition"]))
	if op.has("advance_expression"):
		var e: String = str(op["advance_expression"])
		if e != "":
			var ex := Expression.new()
			if ex.parse(e) != OK:
				return "%s.advance_expression does not parse: %s" % [where, ex.get_error_text()]
		t.advance_expression = e
	for f: String in ["xfade_time", "priority"]:
		if op.has(f):
			var v: Variant = u.num(op[f])
			if v == null or float(v) < 0.0:
				return "%s.%s must be a number >= 0" % [where, f]
			t.set(f, float(v) if f == "xfade_time" else int(v))
	if op.has("reset"):
		t.reset = op["reset"] == true
	return ""


## One op on work (the copy of the root, or null before set_root): {result, root} or {hint, code?}.
func _run(tree: AnimationTree, work: AnimationNode, op: Dictionary, where: String) -> Dictionary:
	var name: String = str(op.get("op", ""))
	if name == "set_root":
		if work != null:
			return {"hint": "%s: the tree has a root already (%s): edit it, or delete the AnimationTree's tree_root first" % [where, kind_of(work)]}
		var kind: String = str(op.get("type", ""))
		if not ["state_machine", "blend_tree", "blend_space_1d", "blend_space_2d"].has(kind):
			return {"hint": "%s.type must be state_machine, blend_tree, blend_space_1d or blend_space_2d" % where}
		return {"root": ClassDB.instantiate(KINDS[kind]), "result": {"op": name, "type": kind}}
	if not OPS.has(name):
		return {"hint": "%s.op must be one of %s (got %s)" % [where, ", ".join(OPS), JSON.stringify(op.get("op"))]}
	var gv: Variant = _graph(work, op, where)
	if typeof(gv) == TYPE_DICTIONARY:
		return gv
	var g: AnimationNode = gv
	var sm := g as AnimationNodeStateMachine
	var bt := g as AnimationNodeBlendTree
	var is_space: bool = g is AnimationNodeBlendSpace1D or g is AnimationNodeBlendSpace2D
	var res: Dictionary = {"op": name}
	match name:
		"add_node":
			if sm == null and bt == null:
				return {"hint": "%s: add_node works in a state machine or blend tree (a blend space takes add_point)" % where}
			var nn: String = str(op.get("name", ""))
			if nn == "" or nn.contains("/"):
				return {"hint": "%s.name is required (no '/')" % where}
			if (sm != null and sm.has_node(nn)) or (bt != null and bt.has_node(nn)):
				return {"hint": "%s: '%s' already exists" % [where, nn]}
			var n: Variant = _new_node(tree, op, where)
			if typeof(n) == TYPE_DICTIONARY:
				return n
			var pos: Variant = _vec2(op.get("position"), Vector2(children(g).size() * 160, 100))
			if pos == null:
				return {"hint": "%s.position must be {x, y}" % where}
			if sm != null:
				sm.add_node(nn, n, pos)
			else:
				bt.add_node(nn, n, pos)
			res["name"] = nn
		"remove_node":
			var nn: String = str(op.get("name", ""))
			if sm != null:
				var bad: String = _state(sm, nn, where, "name")
				if bad != "":
					return {"hint": bad, "code": "RESOURCE_NOT_FOUND"}
				if nn == "Start" or nn == "End":
					return {"hint": "%s: Start and End cannot be removed" % where}
				sm.remove_node(nn)
			elif bt != null:
				if not bt.has_node(nn) or nn == "output":
					return {"hint": "%s.name: no removable node '%s'" % [where, nn], "code": "RESOURCE_NOT_FOUND"}
				bt.remove_node(nn)
			else:
				return {"hint": "%s: remove_node works in a state machine or blend tree" % where}
			res["name"] = nn
		"add_transition", "set_transition", "remove_transition":
			if sm == null:
				return {"hint": "%s: transitions are in a state machine; graph '%s' is a %s" % [where, str(op.get("graph", "")), kind_of(g)]}
			var from: String = str(op.get("from", ""))
			var to: String = str(op.get("to", ""))
			for pair: Array in [[from, "from"], [to, "to"]]:
				var bad: String = _state(sm, pair[0], where, pair[1])
				if bad != "":
					return {"hint": bad, "code": "RESOURCE_NOT_FOUND"}
			var has: bool = sm.has_transition(from, to)
			if name == "add_transition":
				if has:
					return {"hint": "%s: %s -> %s exists: use set_transition" % [where, from, to]}
				var t := AnimationNodeStateMachineTransition.new()
				var bad: String = _set_transition(t, op, where)
				if bad != "":
					return {"hint": bad}
				sm.add_transition(from, to, t)
			elif not has:
				return {"hint": "%s: no transition %s -> %s" % [where, from, to], "code": "RESOURCE_NOT_FOUND"}
			elif name == "set_transition":
				for i: int in range(sm.get_transition_count()):
					if str(sm.get_transition_from(i)) == from and str(sm.get_transition_to(i)) == to:
						var bad: String = _set_transition(sm.get_transition(i), op, where)
						if bad != "":
							return {"hint": bad}
			else:
				sm.remove_transition(from, to)
			res["from"] = from
			res["to"] = to
		"connect", "disconnect":
			if bt == null:
				return {"hint": "%s: connections are in a blend tree; graph '%s' is a %s" % [where, str(op.get("graph", "")), kind_of(g)]}
			var to: String = str(op.get("to", ""))
			var input: Variant = u.num(op.get("input", 0))
			if not bt.has_node(to):
				return {"hint": "%s.to: no node '%s' in the blend tree" % [where, to], "code": "RESOURCE_NOT_FOUND"}
			var cnt: int = (bt.get_node(to) as AnimationNode).get_input_count()
			if input == null or int(input) < 0 or int(input) >= cnt:
				return {"hint": "%s.input must be 0..%d (the inputs of '%s')" % [where, cnt - 1, to]}
			if name == "disconnect":
				bt.disconnect_node(to, int(input))
			else:
				var from: String = str(op.get("from", ""))
				if not bt.has_node(from) or from == "output":
					return {"hint": "%s.from: no node '%s' in the blend tree" % [where, from], "code": "RESOURCE_NOT_FOUND"}
				var flat: Array = bt.get("node_connections")
				for j: int in range(0, flat.size() - 2, 3):
					if str(flat[j]) == to and int(flat[j + 1]) == int(input):
						return {"hint": "%s: %s input %d is connected to '%s' already: disconnect it first" % [where, to, int(input), str(flat[j + 2])]}
					if str(flat[j + 2]) == from:
						return {"hint": "%s: the output of '%s' goes to %s input %d already (a node's output feeds one input)" % [where, from, str(flat[j]), int(flat[j + 1])]}
				if from == to:
					return {"hint": "%s: a node cannot feed itself" % where}
				bt.connect_node(to, int(input), from)
				res["from"] = from
			res["to"] = to
			res["input"] = int(input)
		"add_point", "remove_point", "set_blend_space":
			if not is_space:
				return {"hint": "%s: %s works on a blend space; graph '%s' is a %s" % [where, name, str(op.get("graph", "")), kind_of(g)]}
			var two: bool = g is AnimationNodeBlendSpace2D
			if name == "remove_point":
				var i: Variant = u.num(op.get("index"))
				if i == null or int(i) < 0 or int(i) >= int(g.call("get_blend_point_count")):
					return {"hint": "%s.index must be a point index 0..%d" % [where, int(g.call("get_blend_point_count")) - 1], "code": "RESOURCE_NOT_FOUND"}
				g.call("remove_blend_point", int(i))
			elif name == "add_point":
				var n: Variant = _new_node(tree, op, where)
				if typeof(n) == TYPE_DICTIONARY:
					return n
				var pos: Variant = _vec2(op.get("position"), Vector2.ZERO) if two else u.num(op.get("position"))
				if pos == null:
					return {"hint": "%s.position must be %s" % [where, "{x, y}" if two else "a number"]}
				g.call("add_blend_point", n, pos)
				res["index"] = int(g.call("get_blend_point_count")) - 1
			else:
				for f: String in ["min_space", "max_space", "snap"]:
					if op.has(f):
						var v: Variant = _vec2(op[f], Vector2.ZERO) if two else u.num(op[f])
						if v == null:
							return {"hint": "%s.%s must be %s" % [where, f, "{x, y}" if two else "a number"]}
						g.set(f, v)
				if op.has("blend_mode"):
					var bm: Dictionary = u.enum_value(["interpolated", "discrete", "discrete_carry"], op["blend_mode"], where + ".blend_mode")
					if bm.has("hint"):
						return bm
					g.set("blend_mode", bm["value"])
	return {"root": work, "result": res}


## {tree, ops, dry_run} -> {tree, ops, root_type, ...}
func edit_tree(p: Dictionary) -> Dictionary:
	var m: Dictionary = _tree_param(p)
	if u.is_fail(m):
		return m
	var root: Node = m["root"]
	var tree: AnimationTree = m["mixer"]
	var ops: Variant = p.get("ops", [])
	if typeof(ops) != TYPE_ARRAY or (ops as Array).is_empty():
		return u.bad("ops is required: a list of {op, ...}, op one of %s." % ", ".join(OPS))
	var old: AnimationRootNode = tree.tree_root
	var work: AnimationNode = old.duplicate(true) if old != null else null
	var results: Array = []
	var i: int = 0
	for op: Variant in ops:
		var where: String = "ops[%d]" % i
		if typeof(op) != TYPE_DICTIONARY:
			return u.bad("%s must be an object {op, ...}." % where)
		var r: Dictionary = _run(tree, work, op, where)
		if r.has("hint"):
			return u.fail(str(r.get("code", "VALIDATION_ERROR")), "%s (%s). Nothing was changed." % [r["hint"], where])
		work = r["root"]
		results.append(r["result"])
		i += 1
	var dry: bool = p.get("dry_run", false) == true
	if not dry:
		var mgr: EditorUndoRedoManager = EditorInterface.get_editor_undo_redo()
		mgr.create_action("godot-mcp: edit AnimationTree '%s'" % u.rel(root, tree), UndoRedo.MERGE_DISABLE, root)
		mgr.add_do_property(tree, "tree_root", work)
		mgr.add_undo_property(tree, "tree_root", old)
		mgr.commit_action()
	var persist: Dictionary = u.persist_of(root, null, tree)
	var out: Dictionary = {"tree": u.rel(root, tree), "ops": results, "root_type": kind_of(work) if work != null else "",
		"persisted": persist["persisted"], "undoable": not dry, "dry_run": dry}
	if persist.get("reason", "") != "":
		out["reason"] = persist["reason"]
	return u.ok(out)
