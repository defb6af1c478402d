@tool
extends RefCounted
## The friendly parameter vocabulary of the particles toolset (plugins/particles/params.go
## holds the same names), mapped to the properties of the four particles classes: a
## CPUParticles node holds them itself, a GPUParticles node on its ParticleProcessMaterial
## (except the node's own: amount, lifetime, ...). Values are decoded from the Go side's
## normalised JSON and encoded back in the same friendly form.

const Files := preload("res://addons/godot_mcp/lib/files.gd")

## Read-back order; every name params.go's table has.
const ORDER: PackedStringArray = [
	"emitting", "amount", "lifetime", "one_shot", "preprocess", "speed_scale", "explosiveness", "randomness",
	"lifetime_randomness", "fixed_fps", "local_coords", "texture",
	"emission_shape", "emission_sphere_radius", "emission_box_extents", "emission_ring_radius", "emission_ring_inner_radius",
	"emission_ring_height", "emission_ring_axis", "direction", "spread", "flatness", "gravity",
	"initial_velocity", "angular_velocity", "orbit_velocity", "linear_accel", "radial_accel", "tangential_accel",
	"damping", "angle", "scale", "hue_variation", "anim_speed", "anim_offset",
	"color", "color_ramp", "color_initial_ramp",
	"scale_curve", "damping_curve", "angle_curve", "angular_velocity_curve", "orbit_velocity_curve", "linear_accel_curve",
	"radial_accel_curve", "tangential_accel_curve", "hue_variation_curve", "anim_speed_curve", "anim_offset_curve", "alpha_curve",
]
## Parameters every particles node holds itself.
const NODE_OWN: PackedStringArray = ["emitting", "amount", "lifetime", "one_shot", "preprocess", "speed_scale", "explosiveness",
	"randomness", "fixed_fps", "local_coords", "texture"]
const RANGES: PackedStringArray = ["initial_velocity", "angular_velocity", "orbit_velocity", "linear_accel", "radial_accel",
	"tangential_accel", "damping", "angle", "scale", "hue_variation", "anim_speed", "anim_offset"]
const SHAPES: PackedStringArray = ["point", "sphere", "sphere_surface", "box", "ring"]

static var _template: ParticleProcessMaterial = null


static func is_gpu(n: Node) -> bool:
	return n is GPUParticles3D or n is GPUParticles2D


static func is_2d(n: Node) -> bool:
	return n is Node2D


## What holds [param name] on [param n]: the node, its process material, or (a GPU
## node without a ParticleProcessMaterial) a template standing for the one to create.
static func holder(n: Node, name: String) -> Object:
	if NODE_OWN.has(name) or not is_gpu(n):
		return n
	var m: Variant = n.get("process_material")
	if m is ParticleProcessMaterial:
		return m
	if _template == null:
		_template = ParticleProcessMaterial.new()
	return _template


## The property [param name] (and [param part] of a range: "min" or "max") is on
## [param n], or "" when this class has no such parameter.
static func prop(n: Node, name: String, part: String = "") -> String:
	var p: String = name
	var cpu: bool = not is_gpu(n)
	if RANGES.has(name):
		p = ("scale_amount" if cpu and name == "scale" else name) + "_" + (part if part != "" else "min")
	elif name == "scale_curve" and cpu:
		p = "scale_amount_curve"
	elif name == "emission_box_extents" and n is CPUParticles2D:
		p = "emission_rect_extents"
	return p if p in holder(n, name) else ""


## The names [param n] takes.
static func applicable(n: Node) -> PackedStringArray:
	var out: PackedStringArray = []
	for name: String in ORDER:
		if prop(n, name) != "":
			out.append(name)
	return out


## The class whose EMISSION_SHAPE_* constants [param n]'s emission_shape uses.
static func shape_class(n: Node) -> String:
	return "ParticleProcessMaterial" if is_gpu(n) else n.get_class()


static func shape_const(n: Node, shape: String) -> int:
	var c: String = "EMISSION_SHAPE_" + ("RECTANGLE" if shape == "box" and n is CPUParticles2D else shape.to_upper())
	if not ClassDB.class_has_integer_constant(shape_class(n), c):
		return -1
	return ClassDB.class_get_integer_constant(shape_class(n), c)


static func shape_name(n: Node, v: int) -> String:
	for s: String in SHAPES:
		if shape_const(n, s) == v:
			return s
	for extra: String in ["points", "directed_points"]:
		if ClassDB.class_get_integer_constant(shape_class(n), "EMISSION_SHAPE_" + extra.to_upper()) == v:
			return extra
	return str(v)


# ---- decoding (friendly JSON -> Godot value) ----


## {value} or {error: hint} for setting [param name] on [param n] from [param v].
static func decode(n: Node, name: String, v: Variant) -> Dictionary:
	var h: Object = holder(n, name)
	var p: String = prop(n, name, "min")
	var t: int = typeof(h.get(p))
	if name == "emission_shape":
		var c: int = shape_const(n, str(v))
		if c < 0:
			var have: PackedStringArray = []
			for s: String in SHAPES:
				if shape_const(n, s) >= 0:
					have.append(s)
			return {"error": "emission_shape '%s' is not available on %s; it takes %s." % [v, n.get_class(), ", ".join(have)]}
		return {"value": c}
	if name == "texture":
		return _texture(str(v))
	if name.ends_with("_ramp"):
		return {"value": _gradient(v, is_gpu(n))}
	if name.ends_with("_curve"):
		return {"value": _curve(v, is_gpu(n))}
	if name == "color":
		return _color(v)
	if t == TYPE_VECTOR2 or t == TYPE_VECTOR3:
		var a: Array = v
		if is_2d(n) and a.size() == 3 and float(a[2]) != 0.0:
			return {"error": "%s of a 2D node is [x, y]; got %s." % [name, JSON.stringify(v)]}
		if not is_2d(n) and a.size() != 3:
			return {"error": "%s of a 3D node is [x, y, z]; got %s." % [name, JSON.stringify(v)]}
		if t == TYPE_VECTOR2:
			return {"value": Vector2(float(a[0]), float(a[1]))}
		return {"value": Vector3(float(a[0]), float(a[1]), float(a[2]) if a.size() == 3 else 0.0)}
	if t == TYPE_BOOL:
		return {"value": bool(v)}
	if t == TYPE_INT:
		return {"value": int(v)}
	return {"value": float(v)}


static func _color(v: Variant) -> Dictionary:
	if v is Array:
		var a: Array = v
		return {"value": Color(float(a[0]), float(a[1]), float(a[2]), float(a[3]))}
	var s: String = str(v)
	var none: Color = Color(-1, -1, -1, -1)
	var c: Color = Color.from_string(s, none)
	if c == none:
		return {"error": "'%s' is not a colour: give #rrggbb(aa), [r, g, b, a] in 0..1, or a name such as orange, white, crimson." % s}
	return {"value": c}


static func _gradient(v: Variant, as_texture: bool) -> Variant:
	if v == null:
		return null
	var g: Gradient = Gradient.new()
	var offsets: PackedFloat32Array = []
	var colors: PackedColorArray = []
	for stop: Dictionary in v:
		offsets.append(float(stop["offset"]))
		var c: Dictionary = _color(stop["color"])
		colors.append(c.get("value", Color.WHITE))
	g.offsets = offsets
	g.colors = colors
	if not as_texture:
		return g
	var tex: GradientTexture1D = GradientTexture1D.new()
	tex.gradient = g
	return tex


## Bad colour names inside a ramp, as a hint, or "".
static func ramp_problem(v: Variant) -> String:
	if not (v is Array):
		return ""
	for stop: Dictionary in v:
		var c: Dictionary = _color(stop["color"])
		if c.has("error"):
			return str(c["error"])
	return ""


## A piecewise linear Curve through [param v]'s [[x, y], ...] (wrapped in a CurveTexture
## for a GPU material).
static func _curve(v: Variant, as_texture: bool) -> Variant:
	if v == null:
		return null
	var pts: Array = v
	var c: Curve = Curve.new()
	var lo: float = 0.0
	var hi: float = 1.0
	for pt: Array in pts:
		lo = minf(lo, float(pt[1]))
		hi = maxf(hi, float(pt[1]))
	c.min_value = lo
	c.max_value = hi
	for i: int in pts.size():
		var here: Vector2 = Vector2(float(pts[i][0]), float(pts[i][1]))
		var left: float = 0.0
		var right: float = 0.0
		if i > 0:
			var prev: Vector2 = Vector2(float(pts[i - 1][0]), float(pts[i - 1][1]))
			left = (here.y - prev.y) / maxf(here.x - prev.x, 0.0001)
		if i < pts.size() - 1:
			var next: Vector2 = Vector2(float(pts[i + 1][0]), float(pts[i + 1][1]))
			right = (next.y - here.y) / maxf(next.x - here.x, 0.0001)
		c.add_point(here, left, right, Curve.TANGENT_LINEAR, Curve.TANGENT_LINEAR)
	if not as_texture:
		return c
	var tex: CurveTexture = CurveTexture.new()
	tex.curve = c
	return tex


static func _texture(path: String) -> Dictionary:
	if path == "":
		return {"value": null}
	var bad: Dictionary = Files.check_path(path, "texture")
	if not bad.is_empty():
		return {"error": str(bad.get("hint", "bad texture path"))}
	if not ResourceLoader.exists(path):
		return {"error": "texture '%s' does not exist in the project (import it first, or godot_resources_rescan after writing it)." % path}
	var r: Resource = load(path)
	if not (r is Texture2D):
		return {"error": "'%s' is a %s, not a Texture2D." % [path, r.get_class() if r != null else "file Godot cannot load"]}
	return {"value": r}


# ---- encoding (Godot value -> friendly JSON) ----


## The friendly value of [param name] on [param n].
static func read(n: Node, name: String) -> Variant:
	var h: Object = holder(n, name)
	if RANGES.has(name):
		return [_num(h.get(prop(n, name, "min"))), _num(h.get(prop(n, name, "max")))]
	var v: Variant = h.get(prop(n, name))
	if name == "emission_shape":
		return shape_name(n, int(v))
	return encode(n, v)


static func encode(n: Node, v: Variant) -> Variant:
	if v == null:
		return null
	if v is bool or v is int:
		return v
	if v is float:
		return _num(v)
	if v is Vector2:
		return [_num(v.x), _num(v.y)]
	if v is Vector3:
		if is_2d(n):
			return [_num(v.x), _num(v.y)]
		return [_num(v.x), _num(v.y), _num(v.z)]
	if v is Color:
		return "#" + (v as Color).to_html(true)
	if v is GradientTexture1D:
		return encode(n, (v as GradientTexture1D).gradient)
	if v is Gradient:
		var g: Gradient = v
		var out: Array = []
		for i: int in g.get_point_count():
			out.append({"offset": _num(g.get_offset(i)), "color": "#" + g.get_color(i).to_html(true)})
		return out
	if v is CurveTexture:
		return encode(n, (v as CurveTexture).curve)
	if v is CurveXYZTexture:
		return encode(n, (v as CurveXYZTexture).curve_x)
	if v is Curve:
		var c: Curve = v
		var pts: Array = []
		for i: int in c.point_count:
			var p: Vector2 = c.get_point_position(i)
			pts.append([_num(p.x), _num(p.y)])
		return pts
	if v is Resource:
		var r: Resource = v
		if r.resource_path != "" and not r.resource_path.contains("::"):
			return r.resource_path
		return "(embedded %s)" % r.get_class()
	return str(v)


static func _num(v: Variant) -> Variant:
	if v is int:
		return v
	# Through a decimal string, so 0.6 (a float32 0.60000002) reads back as 0.6.
	return float(String.num(float(v), 4))


## Every applicable parameter of [param n], by name.
static func read_all(n: Node) -> Dictionary:
	var out: Dictionary = {}
	for name: String in applicable(n):
		out[name] = read(n, name)
	return out
