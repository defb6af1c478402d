@tool
extends RefCounted
## A VisualShader as a compact graph spec, both ways:
##   {mode, flags?: [..], modes?: {name: value}, functions: {fn: {nodes: [{id, type,
##    position: [x, y], props?: {..}, defaults?: {port: value}}], connections: [{from,
##    from_port, to, to_port}]}}}
## Node 0 of each function is its Output node (ports by name: albedo, roughness...).

const Common := preload("common.gd")

var c: Common = null


func _init(common: Common) -> void:
	c = common


## The spec of [param vs] (canonical: non-default props and defaults only, enum
## values by name, ports by name where unique).
func read(vs: VisualShader) -> Dictionary:
	var mode: String = Common.MODES[vs.get_mode()]
	var out: Dictionary = {"mode": mode}
	var flags: Array = []
	var modes: Dictionary = {}
	for pr: Dictionary in vs.get_property_list():
		var n: String = pr["name"]
		if n.begins_with("flags/") and bool(vs.get(n)):
			flags.append(n.trim_prefix("flags/"))
		elif n.begins_with("modes/") and int(vs.get(n)) != 0:
			modes[n.trim_prefix("modes/")] = Common.encode_prop(pr, vs.get(n))
	if not flags.is_empty():
		out["flags"] = flags
	if not modes.is_empty():
		out["modes"] = modes
	var fns: Dictionary = {}
	for fn: String in Common.MODE_FUNCS[mode]:
		var t: int = Common.func_index(fn)
		var nodes: Array = []
		var ids: Array = Array(vs.get_node_list(t))
		ids.sort()
		for id: int in ids:
			if id < 2:
				continue
			nodes.append(read_node(vs, t, id))
		var conns: Array = []
		for e: Dictionary in vs.get_node_connections(t):
			var fp: Array = c.ports_of(vs, t, int(e["from_node"]))["out"]
			var tp: Array = c.ports_of(vs, t, int(e["to_node"]))["in"]
			conns.append({"from": int(e["from_node"]), "from_port": Common.port_ref(fp, int(e["from_port"])), "to": int(e["to_node"]), "to_port": Common.port_ref(tp, int(e["to_port"]))})
		conns.sort_custom(_conn_before)
		if nodes.is_empty() and conns.is_empty():
			continue
		fns[fn] = {"nodes": nodes, "connections": conns}
	out["functions"] = fns
	return out


## Connections in a stable order: by target node, target port, source node.
static func _conn_before(a: Dictionary, b: Dictionary) -> bool:
	if int(a["to"]) != int(b["to"]):
		return int(a["to"]) < int(b["to"])
	if str(a["to_port"]) != str(b["to_port"]):
		return str(a["to_port"]) < str(b["to_port"])
	return int(a["from"]) < int(b["from"])


## One node of the spec: {id, type, position, props?, defaults?}.
func read_node(vs: VisualShader, t: int, id: int) -> Dictionary:
	var node: VisualShaderNode = vs.get_node(t, id)
	var pos: Vector2 = vs.get_node_position(t, id)
	var e: Dictionary = {"id": id, "type": Common.short(node.get_class()), "position": [_num(pos.x), _num(pos.y)]}
	var fresh: VisualShaderNode = ClassDB.instantiate(node.get_class()) as VisualShaderNode
	var props: Dictionary = {}
	var known: Dictionary = Common.props_of(node)
	for n: String in known.keys():
		var v: Variant = node.get(n)
		if JSON.stringify(Common.Codec.encode(v)) != JSON.stringify(Common.Codec.encode(fresh.get(n))):
			props[n] = Common.encode_prop(known[n], v)
			fresh.set(n, v)
	if not props.is_empty():
		e["props"] = props
	var ports: Array = c.ports_of(vs, t, id)["in"]
	var defaults: Dictionary = {}
	for p: int in ports.size():
		var v: Variant = node.get_input_port_default_value(p)
		if v == null:
			continue
		if JSON.stringify(Common.Codec.encode(v)) != JSON.stringify(Common.Codec.encode(fresh.get_input_port_default_value(p))):
			defaults[str(Common.port_ref(ports, p))] = Common.Codec.encode(v)
	if not defaults.is_empty():
		e["defaults"] = defaults
	return e


static func _num(f: float) -> Variant:
	return int(f) if f == floorf(f) and absf(f) < 1e9 else f


## A new VisualShader from [param spec]: {vs} or {error}. Everything is checked;
## the first problem is the answer.
func build(spec: Variant) -> Dictionary:
	if not (spec is Dictionary):
		return {"error": c.invalid("spec must be an object {mode, functions: {fragment: {nodes, connections}}}.")}
	var s: Dictionary = spec
	for k: Variant in s.keys():
		if not ["mode", "flags", "modes", "functions"].has(str(k)):
			return {"error": c.invalid("spec has no field '%s'; it takes mode, flags, modes, functions." % str(k))}
	var mode: String = str(s.get("mode", "spatial"))
	if Common.mode_index(mode) < 0:
		return {"error": c.invalid("Unknown mode '%s'.%s Valid: %s." % [mode, Common.Names.did_you_mean(mode, PackedStringArray(Common.MODES)), ", ".join(PackedStringArray(Common.MODES))])}
	var vs: VisualShader = VisualShader.new()
	vs.set_mode(Common.mode_index(mode))
	var r: Dictionary = set_render_modes(vs, s.get("flags"), s.get("modes"))
	if r.has("error"):
		return r
	var fns: Variant = s.get("functions", {})
	if not (fns is Dictionary):
		return {"error": c.invalid("functions must be an object {function name: {nodes, connections}}.")}
	for fn: Variant in (fns as Dictionary).keys():
		var rf: Dictionary = c.resolve_func(mode, str(fn))
		if rf.has("error"):
			return rf
		var g: Variant = fns[fn]
		if not (g is Dictionary):
			return {"error": c.invalid("functions.%s must be {nodes: [...], connections: [...]}." % str(fn))}
		for k: Variant in (g as Dictionary).keys():
			if not ["nodes", "connections"].has(str(k)):
				return {"error": c.invalid("functions.%s has no field '%s'; it takes nodes and connections." % [str(fn), str(k)])}
		var t: int = rf["type"]
		var nodes: Variant = g.get("nodes", [])
		if not (nodes is Array):
			return {"error": c.invalid("functions.%s.nodes must be an array." % str(fn))}
		for i: int in (nodes as Array).size():
			var e: Variant = nodes[i]
			if not (e is Dictionary):
				return {"error": c.invalid("functions.%s.nodes[%d] must be an object {id, type, position, props, defaults}." % [str(fn), i])}
			var ra: Dictionary = add_node(vs, t, e, "functions.%s.nodes[%d]" % [str(fn), i], null)
			if ra.has("error"):
				return ra
		var conns: Variant = g.get("connections", [])
		if not (conns is Array):
			return {"error": c.invalid("functions.%s.connections must be an array." % str(fn))}
		for i: int in (conns as Array).size():
			var rc: Dictionary = connect_ports(vs, t, conns[i], "functions.%s.connections[%d]" % [str(fn), i], null)
			if rc.has("error"):
				return rc
	return {"vs": vs}


## flags: [names] turned on; modes: {name: value} (enum name or number).
func set_render_modes(vs: VisualShader, flags: Variant, modes: Variant) -> Dictionary:
	var known_flags: PackedStringArray = []
	var known_modes: Dictionary = {}
	for pr: Dictionary in vs.get_property_list():
		var n: String = pr["name"]
		if n.begins_with("flags/"):
			known_flags.append(n.trim_prefix("flags/"))
		elif n.begins_with("modes/"):
			known_modes[n.trim_prefix("modes/")] = pr
	if flags != null:
		if not (flags is Array):
			return {"error": c.invalid("flags must be an array of render mode names, e.g. [\"unshaded\"].")}
		for f: Variant in flags:
			if not known_flags.has(str(f)):
				return {"error": c.invalid("Unknown flag '%s' for this mode.%s Valid: %s." % [str(f), Common.Names.did_you_mean(str(f), known_flags), ", ".join(known_flags)])}
			vs.set("flags/" + str(f), true)
	if modes != null:
		if not (modes is Dictionary):
			return {"error": c.invalid("modes must be an object {render mode: value}, e.g. {\"cull\": \"Disabled\"}.")}
		var names: PackedStringArray = PackedStringArray(known_modes.keys())
		for m: Variant in (modes as Dictionary).keys():
			if not known_modes.has(str(m)):
				return {"error": c.invalid("Unknown mode '%s'.%s Valid: %s." % [str(m), Common.Names.did_you_mean(str(m), names), ", ".join(names)])}
			var d: Dictionary = Common.Codec.decode_property(vs, "modes/" + str(m), modes[m], null)
			if not d.get("ok", false):
				return {"error": c.invalid("modes.%s: %s (options: %s)" % [str(m), str(d.get("hint", "")), str(known_modes[str(m)]["hint_string"])])}
			vs.set("modes/" + str(m), d["value"])
	return {"ok": true}


## Adds one node {id?, type, position?, props?, defaults?} to graph [param t]: {id} or {error}.
func add_node(vs: VisualShader, t: int, e: Dictionary, where: String, rec: RefCounted) -> Dictionary:
	for k: Variant in e.keys():
		if not ["id", "type", "position", "props", "defaults", "op", "function"].has(str(k)):
			return {"error": c.invalid("%s has no field '%s'; a node takes id, type, position, props, defaults." % [where, str(k)])}
	var rt: Dictionary = c.resolve_type(str(e.get("type", "")))
	if rt.has("error"):
		return rt
	var cls: String = rt["cls"]
	if not Common.fits_mode(Common.short(cls), Common.MODES[vs.get_mode()]):
		return {"error": c.invalid("%s: %s nodes do not work in a %s shader." % [where, Common.short(cls), Common.MODES[vs.get_mode()]])}
	var id: int = vs.get_valid_node_id(t)
	if e.has("id") and e["id"] != null:
		var v: Variant = Common.Params.integer(e, "id", -1)
		if v == null or int(v) < 2:
			return {"error": c.invalid("%s: id must be an integer >= 2 (0 is the Output node)." % where)}
		id = v
		if vs.get_node(t, id) != null:
			return {"error": c.invalid("%s: id %d is taken in this function by a %s node." % [where, id, Common.short(vs.get_node(t, id).get_class())])}
	var rp: Dictionary = c.position(e.get("position"), where)
	if rp.has("error"):
		return rp
	var pos: Vector2 = rp["pos"] if rp["pos"] != null else Vector2(0, 150 * (vs.get_node_list(t).size()))
	var node: VisualShaderNode = ClassDB.instantiate(cls) as VisualShaderNode
	if rec != null:
		rec.call("do_call", vs, "add_node", [t, node, pos, id])
		rec.call("undo_call", vs, "remove_node", [t, id])
	else:
		vs.add_node(t, node, pos, id)
	var label: String = "%s (node %d, %s)" % [where, id, Common.short(cls)]
	# The new node is undone as a whole: its own settings need no undo records.
	var rs: Dictionary = c.set_props(node, e.get("props"), label, null)
	if rs.has("error"):
		return rs
	var rd: Dictionary = c.set_defaults(node, c.ports_of(vs, t, id)["in"], e.get("defaults"), label, null)
	if rd.has("error"):
		return rd
	return {"id": id}


## Connects {from, from_port, to, to_port} in graph [param t]: {replaced?} or {error}.
## An input port already fed is re-fed (the old connection removed), as the editor does.
func connect_ports(vs: VisualShader, t: int, e: Variant, where: String, rec: RefCounted) -> Dictionary:
	var r: Dictionary = endpoints(vs, t, e, where)
	if r.has("error"):
		return r
	var f: int = r["from"]
	var fp: int = r["from_port"]
	var to: int = r["to"]
	var tp: int = r["to_port"]
	if vs.is_node_connection(t, f, fp, to, tp):
		return {"error": c.invalid("%s: node %d port %s already feeds node %d port %s." % [where, f, str(e["from_port"]), to, str(e["to_port"])])}
	var fpt: String = str(r["out_ports"][fp][1])
	var tpt: String = str(r["in_ports"][tp][1])
	if f == to:
		return {"error": c.invalid("%s: a node cannot feed itself." % where)}
	if not vs.can_connect_nodes(t, f, fp, to, tp):
		var why: String = "port types %s -> %s are incompatible (transform and sampler ports connect only to their own kind; float, int, uint, vec2/3/4 and bool convert)" % [fpt, tpt]
		if _types_compatible(fpt, tpt):
			why = "it would make a loop (node %d already depends on node %d)" % [f, to]
		return {"error": c.invalid("%s: cannot connect node %d port %s to node %d port %s: %s." % [where, f, str(e["from_port"]), to, str(e["to_port"]), why])}
	var replaced: Array = []
	for old: Dictionary in vs.get_node_connections(t):
		if int(old["to_node"]) == to and int(old["to_port"]) == tp:
			replaced.append(old)
	for old: Dictionary in replaced:
		_disconnect(vs, t, int(old["from_node"]), int(old["from_port"]), to, tp, rec)
	if rec != null:
		rec.call("do_call", vs, "connect_nodes", [t, f, fp, to, tp])
		rec.call("undo_call", vs, "disconnect_nodes", [t, f, fp, to, tp])
	else:
		vs.connect_nodes(t, f, fp, to, tp)
	var out: Dictionary = {}
	if not replaced.is_empty():
		out["replaced"] = replaced
	return out


static func _types_compatible(a: String, b: String) -> bool:
	var special: Array = ["transform", "sampler"]
	if special.has(a) or special.has(b):
		return a == b
	return true


func _disconnect(vs: VisualShader, t: int, f: int, fp: int, to: int, tp: int, rec: RefCounted) -> void:
	if rec != null:
		rec.call("do_call", vs, "disconnect_nodes", [t, f, fp, to, tp])
		rec.call("undo_call", vs, "connect_nodes_forced", [t, f, fp, to, tp])
	else:
		vs.disconnect_nodes(t, f, fp, to, tp)


## Removes the connection {from, from_port, to, to_port}: {} or {error}.
func disconnect_ports(vs: VisualShader, t: int, e: Variant, where: String, rec: RefCounted) -> Dictionary:
	var r: Dictionary = endpoints(vs, t, e, where)
	if r.has("error"):
		return r
	if not vs.is_node_connection(t, r["from"], r["from_port"], r["to"], r["to_port"]):
		return {"error": c.invalid("%s: there is no connection from node %d port %s to node %d port %s." % [where, r["from"], str(e["from_port"]), r["to"], str(e["to_port"])])}
	_disconnect(vs, t, r["from"], r["from_port"], r["to"], r["to_port"], rec)
	return {}


## The nodes and port indices of a connection spec: {from, from_port, to, to_port,
## out_ports, in_ports} or {error}.
func endpoints(vs: VisualShader, t: int, e: Variant, where: String) -> Dictionary:
	if not (e is Dictionary):
		return {"error": c.invalid("%s must be {from, from_port, to, to_port} (node ids; ports by name or index; node 0 is the Output)." % where)}
	for k: Variant in (e as Dictionary).keys():
		if not ["from", "from_port", "to", "to_port", "op", "function"].has(str(k)):
			return {"error": c.invalid("%s has no field '%s'; a connection takes from, from_port, to, to_port." % [where, str(k)])}
	var ids: Dictionary = {}
	for k: String in ["from", "to"]:
		var v: Variant = Common.Params.integer(e, k, -1)
		if v == null or int(v) < 0 or not (e as Dictionary).has(k):
			return {"error": c.invalid("%s: %s must be a node id (0 is the Output node)." % [where, k])}
		if vs.get_node(t, int(v)) == null:
			return {"error": c.fail("RESOURCE_NOT_FOUND", "%s: no node %d in this function; its nodes: %s." % [where, int(v), _node_list(vs, t)])}
		ids[k] = int(v)
	for k: String in ["from_port", "to_port"]:
		if not (e as Dictionary).has(k):
			return {"error": c.invalid("%s: %s is required (a port name or index)." % [where, k])}
	var out_ports: Array = c.ports_of(vs, t, ids["from"])["out"]
	var in_ports: Array = c.ports_of(vs, t, ids["to"])["in"]
	var rf: Dictionary = c.resolve_port(out_ports, e["from_port"], "output", "%s: node %d (%s)" % [where, ids["from"], Common.short(vs.get_node(t, ids["from"]).get_class())])
	if rf.has("error"):
		return {"error": rf["error"]}
	var rt: Dictionary = c.resolve_port(in_ports, e["to_port"], "input", "%s: node %d (%s)" % [where, ids["to"], Common.short(vs.get_node(t, ids["to"]).get_class())])
	if rt.has("error"):
		return {"error": rt["error"]}
	return {"from": ids["from"], "from_port": rf["port"], "to": ids["to"], "to_port": rt["port"], "out_ports": out_ports, "in_ports": in_ports}


static func _node_list(vs: VisualShader, t: int) -> String:
	var parts: PackedStringArray = []
	for id: int in vs.get_node_list(t):
		parts.append("%d %s" % [id, Common.short(vs.get_node(t, id).get_class())])
	return ", ".join(parts)


## Problems of the connections of graph [param t] after property changes (a port gone,
## or types no longer compatible): [strings].
func broken(vs: VisualShader, t: int) -> Array:
	var out: Array = []
	for e: Dictionary in vs.get_node_connections(t):
		var f: int = e["from_node"]
		var to: int = e["to_node"]
		var op: Array = c.ports_of(vs, t, f)["out"]
		var ip: Array = c.ports_of(vs, t, to)["in"]
		var fp: int = e["from_port"]
		var tp: int = e["to_port"]
		if fp >= op.size() or tp >= ip.size():
			out.append("node %d port %d -> node %d port %d: the port no longer exists" % [f, fp, to, tp])
		elif not _types_compatible(str(op[fp][1]), str(ip[tp][1])):
			out.append("node %d port %s (%s) -> node %d port %s (%s): incompatible types" % [f, str(Common.port_ref(op, fp)), op[fp][1], to, str(Common.port_ref(ip, tp)), ip[tp][1]])
	return out
