@tool
extends RefCounted
## cmd_visual_shader_catalog: the node types a shader mode/function can use, each with
## its input and output ports (name, type) as the engine reports them for a new node.

const Common := preload("common.gd")
const Params := preload("res://addons/godot_mcp/lib/params.gd")

var c: Common = null


func _init(common: Common) -> void:
	c = common


## {mode, function?, type?, filter?} -> {mode, function, output, inputs, nodes: [{type, in, out}]}
## or, with type, {mode, function, node: {type, class, in, out, props}}.
func catalog(params: Dictionary) -> Dictionary:
	var mode: Variant = Params.string(params, "mode", "spatial")
	var fn: Variant = Params.string(params, "function", "")
	var want: Variant = Params.string(params, "type", "")
	var filter: Variant = Params.string(params, "filter", "")
	if mode == null or fn == null or want == null or filter == null:
		return c.invalid("mode, function, type and filter are strings.")
	if Common.mode_index(mode) < 0:
		return c.invalid("Unknown mode '%s'.%s Valid: %s." % [mode, Common.Names.did_you_mean(mode, PackedStringArray(Common.MODES)), ", ".join(PackedStringArray(Common.MODES))])
	if fn == "":
		fn = (Common.MODE_FUNCS[mode] as Array)[1 if (Common.MODE_FUNCS[mode] as Array).size() == 3 else 0]
		if mode == "particles":
			fn = "process"
	var rf: Dictionary = c.resolve_func(mode, fn)
	if rf.has("error"):
		return rf["error"]
	var t: int = rf["type"]
	var vs: VisualShader = VisualShader.new()
	vs.set_mode(Common.mode_index(mode))
	var out: Dictionary = {"mode": mode, "function": fn}
	if want != "":
		var rt: Dictionary = c.resolve_type(want)
		if rt.has("error"):
			return rt["error"]
		var node: VisualShaderNode = ClassDB.instantiate(rt["cls"]) as VisualShaderNode
		vs.add_node(t, node, Vector2.ZERO, 2)
		var ports: Dictionary = c.ports_of(vs, t, 2)
		var props: Array = []
		var known: Dictionary = Common.props_of(node)
		for n: String in known.keys():
			var info: Dictionary = known[n]
			var e: Dictionary = {"name": n, "type": type_string(int(info["type"])), "default": Common.encode_prop(info, node.get(n))}
			if int(info["hint"]) == PROPERTY_HINT_ENUM:
				var opts: PackedStringArray = []
				for item: String in str(info["hint_string"]).split(","):
					opts.append(item.get_slice(":", 0))
				e["options"] = opts
			elif int(info["hint"]) == PROPERTY_HINT_RESOURCE_TYPE:
				e["resource_type"] = str(info["hint_string"])
			props.append(e)
		out["node"] = {"type": Common.short(rt["cls"]), "class": rt["cls"], "fits_mode": Common.fits_mode(Common.short(rt["cls"]), mode), "in": ports["in"], "out": ports["out"], "props": props}
		return c.ok(out)
	out["output"] = c.output_ports(mode, fn)
	var inputs: Array = []
	var probe_in: VisualShaderNodeInput = VisualShaderNodeInput.new()
	vs.add_node(t, probe_in, Vector2.ZERO, 2)
	for pr: Dictionary in probe_in.get_property_list():
		if str(pr["name"]) == "input_name":
			for nm: String in str(pr["hint_string"]).split(","):
				if nm == "" or nm == "None":
					continue
				probe_in.input_name = nm
				var pp: Dictionary = c.probe(vs.get_mode(), t, probe_in)
				inputs.append([nm, (pp["out"] as Array)[0][1] if not (pp["out"] as Array).is_empty() else ""])
	out["inputs"] = inputs
	var nodes: Array = []
	var f: String = (filter as String).to_lower()
	var idx: int = 3
	for cls: String in c.classes():
		var s: String = Common.short(cls)
		if not Common.fits_mode(s, mode) or (f != "" and not s.to_lower().contains(f)):
			continue
		var node: VisualShaderNode = ClassDB.instantiate(cls) as VisualShaderNode
		vs.add_node(t, node, Vector2.ZERO, idx)
		var ports: Dictionary = c.ports_of(vs, t, idx)
		idx += 1
		nodes.append({"type": s, "in": ports["in"], "out": ports["out"]})
	out["nodes"] = nodes
	return c.ok(out)
