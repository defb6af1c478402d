@tool
extends RefCounted
## Shared helpers of the visual_shader toolset's editor commands: shader modes and
## functions, node types (short names, aliases, did-you-mean), ports (names from
## ports.json, counts and types probed from the engine), node properties and values.

const Names := preload("res://addons/godot_mcp/lib/names.gd")
const Codec := preload("res://addons/godot_mcp/lib/codec.gd")
const Params := preload("res://addons/godot_mcp/lib/params.gd")

const PREFIX := "VisualShaderNode"
const MODES := ["spatial", "canvas_item", "particles", "sky", "fog"]
## VisualShader.Type order.
const FUNCS := ["vertex", "fragment", "light", "start", "process", "collide", "start_custom", "process_custom", "sky", "fog"]
const MODE_FUNCS := {
	"spatial": ["vertex", "fragment", "light"],
	"canvas_item": ["vertex", "fragment", "light"],
	"particles": ["start", "process", "collide", "start_custom", "process_custom"],
	"sky": ["sky"],
	"fog": ["fog"],
}
## VisualShaderNode.PortType order.
const PORT_TYPES := ["float", "int", "uint", "vec2", "vec3", "vec4", "bool", "transform", "sampler"]
## Friendly names for node classes (short name -> short name).
const ALIASES := {
	"Texture2D": "Texture", "Texture2DSample": "Texture", "Color": "ColorConstant", "Float": "FloatConstant",
	"Int": "IntConstant", "UInt": "UIntConstant", "Bool": "BooleanConstant", "Boolean": "BooleanConstant",
	"Vec2": "Vec2Constant", "Vec3": "Vec3Constant", "Vec4": "Vec4Constant", "Vector2": "Vec2Constant",
	"Vector3": "Vec3Constant", "Vector4": "Vec4Constant", "Transform": "TransformConstant",
}
## Node classes that are not added by type: the graph's fixed output, and bases.
const NOT_ADDABLE := ["VisualShaderNodeOutput", "VisualShaderNodeParticleOutput", "VisualShaderNodeCustom", "VisualShaderNodeComment"]
## Node properties that are not part of a spec (internal, or given elsewhere).
const SKIP_PROPS := ["resource_local_to_scene", "resource_path", "resource_name", "resource_scene_unique_id", "script",
	"default_input_values", "output_port_for_preview", "expanded_output_ports", "linked_parent_graph_frame"]
## Node families that exist in one shader mode only (the editor's add menu hides them elsewhere).
const CANVAS_ONLY := ["SDFToScreenUV", "ScreenUVToSDF", "SDFRaymarch", "TextureSDF", "TextureSDFNormal"]
const SPATIAL_ONLY := ["Fresnel", "ProximityFade", "WorldPositionFromDepth", "ScreenNormalWorldSpace", "LinearSceneDepth", "Billboard"]

var router: RefCounted = null
var _ports: Dictionary = {}
var _classes: PackedStringArray = []
var _probe_cache: Dictionary = {}


func _init(r: RefCounted) -> void:
	router = r
	var dir: String = (get_script() as Script).resource_path.get_base_dir()
	var path: String = (dir if dir != "" else "res://addons/godot_mcp_ext/visual_shader").path_join("ports.json")
	var parsed: Variant = JSON.parse_string(FileAccess.get_file_as_string(path))
	_ports = parsed if parsed is Dictionary else {}


func ok(result: Dictionary) -> Dictionary:
	return router.call("ok", result)


func fail(code: String, hint: String, required: String = "") -> Dictionary:
	return router.call("fail", code, hint, required)


func invalid(hint: String) -> Dictionary:
	return fail("VALIDATION_ERROR", hint)


static func short(cls: String) -> String:
	return cls.trim_prefix(PREFIX)


static func mode_index(mode: String) -> int:
	return MODES.find(mode)


static func func_index(fn: String) -> int:
	return FUNCS.find(fn)


## The node classes that can be added to a graph, sorted.
func classes() -> PackedStringArray:
	if _classes.is_empty():
		var all: Array = Array(ClassDB.get_inheriters_from_class("VisualShaderNode"))
		all.sort()
		for c: String in all:
			if ClassDB.can_instantiate(c) and ClassDB.is_class_enabled(c) and not NOT_ADDABLE.has(c):
				_classes.append(c)
	return _classes


## Whether the short node type [param s] belongs in [param mode].
static func fits_mode(s: String, mode: String) -> bool:
	if s.begins_with("Particle"):
		return mode == "particles"
	if CANVAS_ONLY.has(s):
		return mode == "canvas_item"
	if SPATIAL_ONLY.has(s):
		return mode == "spatial"
	return true


## The class for a node type name (short, full, alias, any case): {cls} or {error}.
func resolve_type(name: String) -> Dictionary:
	var all: PackedStringArray = classes()
	var want: String = ALIASES.get(name, name)
	for cand: String in [want, PREFIX + want]:
		if all.has(cand):
			return {"cls": cand}
	var low: String = want.to_lower().trim_prefix(PREFIX.to_lower())
	var shorts: PackedStringArray = []
	for c: String in all:
		shorts.append(short(c))
		if short(c).to_lower() == low:
			return {"cls": c}
	var near: PackedStringArray = []
	for s: String in shorts:
		if s.to_lower().contains(low) or low.contains(s.to_lower()):
			near.append(s)
	var hint: String = "Unknown node type '%s'.%s" % [name, Names.did_you_mean(name, shorts)]
	if not near.is_empty() and near.size() <= 15:
		hint += " Similar: %s." % ", ".join(near)
	hint += " Valid types (%d): %s. Aliases: %s. List them with ports via godot_visual_shader_catalog." % [shorts.size(), ", ".join(shorts), ", ".join(PackedStringArray(ALIASES.keys()))]
	return {"error": invalid(hint)}


## The graph-type index of function [param fn] in [param mode]: {type} or {error}.
func resolve_func(mode: String, fn: String) -> Dictionary:
	var valid: Array = MODE_FUNCS.get(mode, [])
	if not valid.has(fn):
		return {"error": invalid("Unknown function '%s' for a %s shader.%s Valid: %s." % [fn, mode, Names.did_you_mean(fn, PackedStringArray(valid)), ", ".join(PackedStringArray(valid))])}
	return {"type": func_index(fn)}


static func norm(port_name: String) -> String:
	return port_name.strip_edges().to_lower().replace(" ", "_")


# ---- ports ----

## Ports of node [param node] (in graph [param vs], function type [param t], id [param id]):
## {in: [[name, type]], out: [[name, type]]}. Counts and types come from the engine (a
## probe graph of the same mode); names from ports.json (Godot's own port names).
func ports_of(vs: VisualShader, t: int, id: int) -> Dictionary:
	var node: VisualShaderNode = vs.get_node(t, id)
	if id == 0:
		var named: Array = output_ports(MODES[vs.get_mode()], FUNCS[t])
		if not named.is_empty():
			return {"in": named, "out": []}
		# An output node ports.json does not name: its ports by index.
	var key: String = "%d/%d/%s/%s" % [vs.get_mode(), t, node.get_class(), _state_key(node)]
	if _probe_cache.has(key):
		return _probe_cache[key]
	var p: Dictionary = probe(vs.get_mode(), t, node)
	if _probe_cache.size() > 2000:
		_probe_cache.clear()
	_probe_cache[key] = p
	return p


func _state_key(node: VisualShaderNode) -> String:
	var parts: PackedStringArray = []
	for pr: Dictionary in node.get_property_list():
		var n: String = pr["name"]
		if int(pr["usage"]) & PROPERTY_USAGE_STORAGE and not SKIP_PROPS.has(n) and int(pr["type"]) != TYPE_OBJECT:
			parts.append("%s=%s" % [n, var_to_str(node.get(n))])
	return "|".join(parts).md5_text()


## The Output node's input ports for mode/function: [[name, type]].
func output_ports(mode: String, fn: String) -> Array:
	var all: Dictionary = _ports.get("output", {})
	return (all.get("%s/%s" % [mode, fn], []) as Array).duplicate(true)


## The names of node class [param cls]'s ports from ports.json: {i: [...], o: [...]}.
func _static_ports(cls: String) -> Dictionary:
	return (_ports.get("nodes", {}) as Dictionary).get(short(cls), {})


## Counts (by what Godot lets connect) and types (from the code Godot generates) of a
## copy of [param node] in a probe graph of mode [param mode], function type [param t].
func probe(mode: int, t: int, node: VisualShaderNode) -> Dictionary:
	var vs: VisualShader = VisualShader.new()
	vs.set_mode(mode)
	var n: VisualShaderNode = node.duplicate() as VisualShaderNode
	vs.add_node(t, n, Vector2.ZERO, 2)
	if n is VisualShaderNodeInput and node is VisualShaderNodeInput:
		(n as VisualShaderNodeInput).input_name = (node as VisualShaderNodeInput).input_name
	var srcs: Array = [VisualShaderNodeFloatConstant.new(), VisualShaderNodeTransformConstant.new(), VisualShaderNodeTexture2DParameter.new()]
	var kinds: Array = ["scalar", "transform", "sampler"]
	for i: int in srcs.size():
		vs.add_node(t, srcs[i], Vector2.ZERO, 3 + i)
	var sinks: Array = [[VisualShaderNodeFloatFunc.new(), 0], [VisualShaderNodeTransformFunc.new(), 0], [VisualShaderNodeTexture.new(), 2]]
	for i: int in sinks.size():
		vs.add_node(t, sinks[i][0], Vector2.ZERO, 6 + i)
	(sinks[2][0] as VisualShaderNodeTexture).source = VisualShaderNodeTexture.SOURCE_PORT
	var ins: Array = []
	for p: int in 64:
		var k: String = ""
		for i: int in srcs.size():
			if vs.can_connect_nodes(t, 3 + i, 0, 2, p):
				k = kinds[i]
				break
		if k == "":
			break
		ins.append(k)
	var outs: Array = []
	for p: int in 64:
		var k: String = ""
		for i: int in sinks.size():
			if vs.can_connect_nodes(t, 2, p, 6 + i, sinks[i][1]):
				k = kinds[i]
				break
		if k == "":
			break
		outs.append(k)
	# Types from the generated code: the node made reachable from the output.
	var code_types: Dictionary = {}
	if not outs.is_empty() and outs[0] == "scalar":
		var outn: int = -1
		for k: int in 64:
			if vs.can_connect_nodes(t, 3, 0, 0, k):
				outn = k
				break
		if outn >= 0 and vs.connect_nodes(t, 2, 0, 0, outn) == OK:
			var re: RegEx = RegEx.create_from_string("\\b(float|int|uint|vec2|vec3|vec4|bool|mat4)\\s+n_(in|out)2p(\\d+)\\b")
			for m: RegExMatch in re.search_all(vs.get_code()):
				code_types["%s%s" % [m.get_string(2), m.get_string(3)]] = "transform" if m.get_string(1) == "mat4" else m.get_string(1)
	var st: Dictionary = _static_ports(node.get_class())
	var out: Dictionary = {"in": [], "out": []}
	for side: String in ["in", "out"]:
		var kinds_side: Array = ins if side == "in" else outs
		var names: Array = st.get("i" if side == "in" else "o", [])
		for p: int in kinds_side.size():
			var nm: String = ""
			var ty: String = ""
			if p < names.size():
				nm = norm(str(names[p][0]))
				ty = str(names[p][1])
			if node is VisualShaderNodeInput and side == "out" and p == 0:
				nm = str((node as VisualShaderNodeInput).input_name)
				if nm == "[None]":
					nm = ""
			if code_types.has("%s%d" % [side, p]):
				ty = code_types["%s%d" % [side, p]]
			elif kinds_side[p] != "scalar":
				ty = kinds_side[p]
			elif ty == "?" or ty == "" or ty == "transform" or ty == "sampler":
				ty = "scalar|vector"
			(out[side] as Array).append([nm, ty])
	return out


## The index of port [param want] (a name or an index) among [param ports] ([[name, type]]):
## {port} or {error} naming the valid ports.
func resolve_port(ports: Array, want: Variant, side: String, where: String) -> Dictionary:
	if typeof(want) == TYPE_FLOAT and float(want) == floorf(float(want)):
		want = int(want)
	if typeof(want) == TYPE_INT:
		if int(want) >= 0 and int(want) < ports.size():
			return {"port": int(want)}
		return {"error": invalid("%s has no %s port %d; it has %d: %s." % [where, side, int(want), ports.size(), describe_ports(ports)])}
	if typeof(want) != TYPE_STRING and typeof(want) != TYPE_STRING_NAME:
		return {"error": invalid("%s: a port is a name or an index, not %s." % [where, JSON.stringify(want)])}
	var w: String = norm(str(want))
	var names: PackedStringArray = []
	var hit: int = -1
	for i: int in ports.size():
		var nm: String = str(ports[i][0])
		if nm != "":
			names.append(nm)
		if nm == w:
			if hit >= 0:
				return {"error": invalid("%s has two %s ports named '%s'; give the index: %s." % [where, side, w, describe_ports(ports)])}
			hit = i
	if hit >= 0:
		return {"port": hit}
	return {"error": invalid("%s has no %s port '%s'.%s Its %s ports: %s." % [where, side, str(want), Names.did_you_mean(w, names), side, describe_ports(ports)])}


static func describe_ports(ports: Array) -> String:
	if ports.is_empty():
		return "none"
	var parts: PackedStringArray = []
	for i: int in ports.size():
		var nm: String = str(ports[i][0])
		parts.append("%d%s (%s)" % [i, " '%s'" % nm if nm != "" else "", ports[i][1]])
	return ", ".join(parts)


## The name a spec uses for port [param i]: its name when non-empty and unique, else the index.
static func port_ref(ports: Array, i: int) -> Variant:
	if i < ports.size():
		var nm: String = str(ports[i][0])
		if nm != "":
			var count: int = 0
			for p: Array in ports:
				if str(p[0]) == nm:
					count += 1
			if count == 1:
				return nm
	return i


# ---- properties and values ----

## The spec-settable properties of [param node]: {name: property info}.
static func props_of(node: Object) -> Dictionary:
	var out: Dictionary = {}
	for pr: Dictionary in node.get_property_list():
		var n: String = pr["name"]
		if int(pr["usage"]) & PROPERTY_USAGE_STORAGE == 0 or SKIP_PROPS.has(n):
			continue
		out[n] = pr
	return out


## A property value as a spec writes it: codec JSON, enum values by name.
static func encode_prop(info: Dictionary, v: Variant) -> Variant:
	if int(info["type"]) == TYPE_INT and int(info["hint"]) == PROPERTY_HINT_ENUM:
		var at: int = 0
		for item: String in str(info["hint_string"]).split(","):
			var label: String = item
			if item.contains(":"):
				label = item.get_slice(":", 0)
				at = int(item.get_slice(":", 1))
			if at == int(v):
				return label
			at += 1
	return Codec.encode(v)


## Sets the properties [param props] ({name: JSON value}) on [param node], in the
## node's property order (so op_type comes before what depends on it). Returns
## {set: {name: [old, new]}} or {error}. With [param rec], each set is recorded.
func set_props(node: VisualShaderNode, props: Variant, where: String, rec: RefCounted = null) -> Dictionary:
	if props == null:
		return {"set": {}}
	if not (props is Dictionary):
		return {"error": invalid("%s: props must be an object {property: value}." % where)}
	var known: Dictionary = props_of(node)
	var names: PackedStringArray = PackedStringArray(known.keys())
	for k: Variant in (props as Dictionary).keys():
		if not known.has(str(k)):
			return {"error": invalid("%s (%s) has no property '%s'.%s Its properties: %s." % [where, short(node.get_class()), str(k), Names.did_you_mean(str(k), names), ", ".join(names) if not names.is_empty() else "none"])}
	var done: Dictionary = {}
	for n: String in names:
		if not (props as Dictionary).has(n):
			continue
		var info: Dictionary = known[n]
		var want: Variant = props[n]
		if int(info["hint"]) == PROPERTY_HINT_ENUM and typeof(want) == TYPE_STRING:
			var opts: PackedStringArray = []
			for item: String in str(info["hint_string"]).split(","):
				opts.append(item.get_slice(":", 0))
			for o: String in opts:
				if o.to_lower() == str(want).to_lower():
					want = o
			if not opts.has(str(want)):
				return {"error": invalid("%s.%s: '%s' is not valid here.%s Valid: %s." % [where, n, str(want), Names.did_you_mean(str(want), opts), ", ".join(opts)])}
		var d: Dictionary = Codec.decode_property(node, n, want, null)
		if not d.get("ok", false):
			return {"error": invalid("%s.%s: %s" % [where, n, str(d.get("hint", "bad value"))])}
		var old: Variant = node.get(n)
		if rec != null:
			rec.call("do_set", node, n, d["value"])
			rec.call("undo_set", node, n, old)
		else:
			node.set(n, d["value"])
		done[n] = [old, d["value"]]
	return {"set": done}


## Sets input-port default values [param defaults] ({port name or index: value}).
## Returns {ok: true} or {error}.
func set_defaults(node: VisualShaderNode, ports: Array, defaults: Variant, where: String, rec: RefCounted = null) -> Dictionary:
	if defaults == null:
		return {"ok": true}
	if not (defaults is Dictionary):
		return {"error": invalid("%s: defaults must be an object {input port: value}." % where)}
	for k: Variant in (defaults as Dictionary).keys():
		var key: Variant = k
		if str(k).is_valid_int():
			key = int(str(k))
		var r: Dictionary = resolve_port(ports, key, "input", where)
		if r.has("error"):
			return r
		var p: int = r["port"]
		var cur: Variant = node.get_input_port_default_value(p)
		var vt: int = typeof(cur)
		if cur == null:
			vt = _variant_for(str(ports[p][1]))
		if vt == TYPE_NIL:
			return {"error": invalid("%s: input port %s (%s) takes no default value; connect it instead." % [where, str(k), ports[p][1]])}
		var d: Dictionary = Codec.decode(defaults[k], vt)
		if not d.get("ok", false):
			return {"error": invalid("%s: default of input port %s: %s" % [where, str(k), str(d.get("hint", "bad value"))])}
		if rec != null:
			rec.call("do_call", node, "set_input_port_default_value", [p, d["value"]])
		else:
			node.set_input_port_default_value(p, d["value"])
	return {"ok": true}


static func _variant_for(port_type: String) -> int:
	match port_type:
		"float":
			return TYPE_FLOAT
		"int", "uint":
			return TYPE_INT
		"vec2":
			return TYPE_VECTOR2
		"vec3":
			return TYPE_VECTOR3
		"vec4":
			return TYPE_QUATERNION
		"bool":
			return TYPE_BOOL
		"transform":
			return TYPE_TRANSFORM3D
	return TYPE_NIL


## A two-number position [x, y] as a Vector2: {pos} or {error}.
func position(v: Variant, where: String) -> Dictionary:
	if v == null:
		return {"pos": null}
	if v is Array and (v as Array).size() == 2 and typeof(v[0]) in [TYPE_INT, TYPE_FLOAT] and typeof(v[1]) in [TYPE_INT, TYPE_FLOAT]:
		return {"pos": Vector2(float(v[0]), float(v[1]))}
	return {"error": invalid("%s: position must be [x, y] (graph units), got %s." % [where, JSON.stringify(v)])}
