@tool
extends RefCounted
## set_environment: a WorldEnvironment with its Environment and Sky (procedural,
## physical or panorama) plus a sun (DirectionalLight3D), background, ambient light,
## tonemap, fog, glow and the Forward+-only effects (refused with the reason under the
## Mobile and Compatibility renderers), in ONE undo action.

const Common := preload("common.gd")
const Plan := preload("plan.gd")

const SKIES: PackedStringArray = ["procedural", "physical", "panorama"]
const SKY_CLASS := {"procedural": "ProceduralSkyMaterial", "physical": "PhysicalSkyMaterial", "panorama": "PanoramaSkyMaterial"}
const BACKGROUNDS := {"clear_color": Environment.BG_CLEAR_COLOR, "color": Environment.BG_COLOR, "sky": Environment.BG_SKY, "canvas": Environment.BG_CANVAS, "keep": Environment.BG_KEEP}
const AMBIENTS := {"background": Environment.AMBIENT_SOURCE_BG, "disabled": Environment.AMBIENT_SOURCE_DISABLED, "color": Environment.AMBIENT_SOURCE_COLOR, "sky": Environment.AMBIENT_SOURCE_SKY}
const TONEMAPS := {"linear": 0, "reinhard": 1, "filmic": 2, "aces": 3, "agx": 4}

var c: Common = null


func _init(common: Common) -> void:
	c = common


static func _keys(d: Dictionary) -> PackedStringArray:
	var out: PackedStringArray = []
	for k: Variant in d:
		out.append(str(k))
	return out


## {node?, parent?, name?, background?, background_color?, sky?, sun?, ambient?, tonemap?,
## fog?, glow?, effects?, properties?, dry_run} -> {node, created, changes, renderer, warnings,
## persisted, reason, undoable, dry_run}
func set_environment(p: Dictionary) -> Dictionary:
	var root: Node = EditorInterface.get_edited_scene_root()
	if root == null:
		return c.no_scene()
	if not (root is Node3D):
		return c.invalid("The edited scene's root '%s' is a %s; a 3D world goes in a scene whose root is a Node3D." % [root.name, root.get_class()])
	var plan: Plan = Plan.new()
	var res: Dictionary = _build(p, root, plan)
	if res.has("error"):
		plan.discard()
		return res["error"]
	var we: WorldEnvironment = res["node"]
	var out: Dictionary = {"node": res["path"], "created": res["created"], "changes": plan.changes(), "renderer": Common.renderer(),
		"warnings": plan.warnings, "dry_run": bool(p.get("dry_run", false)), "undoable": false, "persisted": false, "reason": ""}
	if out["dry_run"]:
		plan.discard()
		out["reason"] = "a dry run"
		return c.ok(out)
	plan.apply("godot-mcp: set the world environment", root)
	var pr: Dictionary = Common.persisted(root, we)
	out["undoable"] = true
	out["persisted"] = pr["persisted"]
	out["reason"] = pr["reason"]
	return c.ok(out)


func _err(d: Dictionary) -> Dictionary:
	return {"error": d}


func _build(p: Dictionary, root: Node, plan: Plan) -> Dictionary:
	var created: Array = []
	var we: WorldEnvironment = null
	var path: String = str(p.get("node", "")).strip_edges()
	if path != "":
		var f: Dictionary = c.find(root, path)
		if f.has("error"):
			return f
		if not (f["node"] is WorldEnvironment):
			return _err(c.invalid("node '%s' is a %s, not a WorldEnvironment; omit node to use the scene's WorldEnvironment (or make one)." % [path, (f["node"] as Node).get_class()]))
		we = f["node"]
	else:
		we = _first(root, "WorldEnvironment") as WorldEnvironment
	if we == null:
		var pf: Dictionary = c.parent_of(root, p)
		if pf.has("error"):
			return pf
		we = WorldEnvironment.new()
		we.name = Common.free_name(pf["node"], str(p.get("name", "WorldEnvironment")).strip_edges() if str(p.get("name", "")).strip_edges() != "" else "WorldEnvironment")
		plan.add_node(pf["node"], we)
		created.append({"path": _path(root, pf["node"], we), "class": "WorldEnvironment"})
	var env: Environment = we.environment
	if env == null:
		env = Environment.new()
		plan.made(env)
		plan.put(we, "environment", env, "WorldEnvironment")
	elif env.resource_path != "" and not env.resource_path.contains("::"):
		plan.warnings.append("The Environment is the file %s: these edits change it for every scene that uses it, and are saved when the scene is saved." % env.resource_path)
	var label: String = "%s:environment" % _path(root, we.get_parent() if we.get_parent() != null else root, we)
	# ---- background and sky ----
	var bg: String = str(p.get("background", ""))
	var sky_p: Variant = p.get("sky")
	if sky_p != null and bg == "":
		bg = "sky"
	if bg != "":
		var ch: Dictionary = c.choice("background", bg, _keys(BACKGROUNDS))
		if ch.has("error"):
			return ch
		plan.put(env, "background_mode", BACKGROUNDS[ch["value"]], label)
		if ch["value"] == "sky" and sky_p == null and env.sky == null:
			sky_p = {"type": "procedural"}
	if p.get("background_color") != null:
		var bc: Dictionary = c.color("background_color", p["background_color"])
		if bc.has("error"):
			return bc
		plan.put(env, "background_color", bc["value"], label)
	if sky_p != null:
		var s: Dictionary = _sky(sky_p, env, plan, label, root)
		if s.has("error"):
			return s
	# ---- ambient, tonemap, fog, glow ----
	for part: Array in [["ambient", _ambient], ["tonemap", _tonemap], ["fog", _fog], ["glow", _glow], ["effects", _effects]]:
		var v: Variant = p.get(part[0])
		if v == null:
			continue
		if not (v is Dictionary):
			return _err(c.invalid("%s must be an object." % part[0]))
		var r: Dictionary = (part[1] as Callable).call(v, env, plan, label)
		if r.has("error"):
			return r
	var pe: Dictionary = c.set_props(plan, env, "Environment", p.get("properties"), root)
	if not pe.is_empty():
		return _err(pe)
	# ---- sun ----
	if p.get("sun") != null:
		var s2: Dictionary = _sun(p["sun"], root, plan)
		if s2.has("error"):
			return s2
		if s2.has("created"):
			created.append(s2["created"])
	return {"node": we, "path": _path(root, we.get_parent() if we.get_parent() != null else root, we), "created": created}


static func _first(n: Node, cls: String) -> Node:
	if n.is_class(cls):
		return n
	for ch: Node in n.get_children():
		var f: Node = _first(ch, cls)
		if f != null:
			return f
	return null


## The path of [param n] once it is a child of [param parent] (it may not be yet).
static func _path(root: Node, parent: Node, n: Node) -> String:
	if n.is_inside_tree() and (n == root or root.is_ancestor_of(n)):
		return Common.rel(root, n)
	var pp: String = Common.rel(root, parent)
	return str(n.name) if pp == "." else pp.path_join(str(n.name))


func _sky(sp: Variant, env: Environment, plan: Plan, label: String, root: Node) -> Dictionary:
	if not (sp is Dictionary):
		return _err(c.invalid("sky must be an object {type: procedural|physical|panorama, ...}."))
	var t: Dictionary = c.choice("sky.type", str((sp as Dictionary).get("type", "procedural")), SKIES)
	if t.has("error"):
		return t
	var type: String = t["value"]
	var mat: Material = null
	if env.sky != null and env.sky.sky_material != null and env.sky.sky_material.get_class() == SKY_CLASS[type]:
		mat = env.sky.sky_material
	else:
		var sky: Sky = Sky.new()
		plan.made(sky)
		mat = ClassDB.instantiate(SKY_CLASS[type])
		plan.made(mat)
		sky.sky_material = mat
		plan.put(env, "sky", sky, label)
	var ml: String = label + ":sky:sky_material"
	var colors: Dictionary = {}
	match type:
		"procedural":
			colors = {"top_color": "sky_top_color", "horizon_color": "sky_horizon_color", "ground_color": "ground_bottom_color", "ground_horizon_color": "ground_horizon_color"}
		"physical":
			colors = {"ground_color": "ground_color", "rayleigh_color": "rayleigh_color", "mie_color": "mie_color"}
	for key: Variant in sp:
		var k: String = str(key)
		if k in ["type", "properties"]:
			continue
		if colors.has(k):
			var cl: Dictionary = c.color("sky." + k, sp[k])
			if cl.has("error"):
				return cl
			plan.put(mat, colors[k], cl["value"], ml)
		elif k == "energy":
			var e: float = float(sp[k])
			if e < 0:
				return _err(c.invalid("sky.energy must be >= 0."))
			plan.put(mat, "sky_energy_multiplier" if type == "procedural" else "energy_multiplier", e, ml)
		elif k == "turbidity" and type == "physical":
			plan.put(mat, "turbidity", float(sp[k]), ml)
		elif k == "texture" and type == "panorama":
			var tex: Dictionary = c.load_res("sky.texture", str(sp[k]), "Texture2D")
			if tex.has("error"):
				return tex
			plan.put(mat, "panorama", tex["value"], ml)
		else:
			var have: PackedStringArray = ["type", "energy", "properties"]
			have.append_array(_keys(colors))
			if type != "procedural":
				have.append("turbidity" if type == "physical" else "texture")
			return _err(c.invalid("sky.%s does not apply to a %s sky; it takes: %s.%s" % [k, type, ", ".join(have), Common.Names.did_you_mean(k, have)]))
	var has_texture: bool = mat.get("panorama") != null
	for st: Array in plan.sets:
		has_texture = has_texture or (st[0] == mat and st[1] == "panorama")
	if type == "panorama" and not has_texture:
		return _err(c.invalid("A panorama sky needs sky.texture: a res:// equirectangular image (2:1), e.g. \"res://sky.hdr\"."))
	var pe: Dictionary = c.set_props(plan, mat, SKY_CLASS[type], (sp as Dictionary).get("properties"), root)
	if not pe.is_empty():
		return _err(pe)
	return {}


func _ambient(a: Dictionary, env: Environment, plan: Plan, label: String) -> Dictionary:
	for k: Variant in a:
		match str(k):
			"source":
				var ch: Dictionary = c.choice("ambient.source", str(a[k]), _keys(AMBIENTS))
				if ch.has("error"):
					return ch
				plan.put(env, "ambient_light_source", AMBIENTS[ch["value"]], label)
			"color":
				var cl: Dictionary = c.color("ambient.color", a[k])
				if cl.has("error"):
					return cl
				plan.put(env, "ambient_light_color", cl["value"], label)
				if not a.has("source"):
					plan.put(env, "ambient_light_source", Environment.AMBIENT_SOURCE_COLOR, label)
			"energy":
				plan.put(env, "ambient_light_energy", maxf(0.0, float(a[k])), label)
			_:
				return _unknown("ambient", str(k), ["source", "color", "energy"])
	return {}


func _tonemap(a: Dictionary, env: Environment, plan: Plan, label: String) -> Dictionary:
	for k: Variant in a:
		match str(k):
			"mode":
				var ch: Dictionary = c.choice("tonemap.mode", str(a[k]), _keys(TONEMAPS))
				if ch.has("error"):
					return ch
				plan.put(env, "tonemap_mode", TONEMAPS[ch["value"]], label)
			"exposure":
				plan.put(env, "tonemap_exposure", float(a[k]), label)
			"white":
				plan.put(env, "tonemap_white", float(a[k]), label)
			_:
				return _unknown("tonemap", str(k), ["mode", "exposure", "white"])
	return {}


func _fog(a: Dictionary, env: Environment, plan: Plan, label: String) -> Dictionary:
	var on: bool = bool(a.get("enabled", true))
	plan.put(env, "fog_enabled", on, label)
	for k: Variant in a:
		match str(k):
			"enabled":
				pass
			"color":
				var cl: Dictionary = c.color("fog.color", a[k])
				if cl.has("error"):
					return cl
				plan.put(env, "fog_light_color", cl["value"], label)
			"density":
				plan.put(env, "fog_density", float(a[k]), label)
			"sky_affect":
				plan.put(env, "fog_sky_affect", clampf(float(a[k]), 0.0, 1.0), label)
			_:
				return _unknown("fog", str(k), ["enabled", "color", "density", "sky_affect"])
	return {}


func _glow(a: Dictionary, env: Environment, plan: Plan, label: String) -> Dictionary:
	plan.put(env, "glow_enabled", bool(a.get("enabled", true)), label)
	for k: Variant in a:
		match str(k):
			"enabled":
				pass
			"intensity":
				plan.put(env, "glow_intensity", float(a[k]), label)
			"strength":
				plan.put(env, "glow_strength", float(a[k]), label)
			"bloom":
				plan.put(env, "glow_bloom", float(a[k]), label)
			_:
				return _unknown("glow", str(k), ["enabled", "intensity", "strength", "bloom"])
	return {}


func _effects(a: Dictionary, env: Environment, plan: Plan, label: String) -> Dictionary:
	for k: Variant in a:
		var key: String = str(k)
		if not Common.FORWARD_ONLY.has(key):
			return _unknown("effects", key, _keys(Common.FORWARD_ONLY))
		if typeof(a[k]) != TYPE_BOOL:
			return _err(c.invalid("effects.%s must be true or false." % key))
		if a[k]:
			var why: String = Common.forward_only_refusal(key.to_upper().replace("_", " "))
			if why != "":
				return _err(c.fail("PRECONDITION_FAILED", why, "renderer"))
		plan.put(env, Common.FORWARD_ONLY[key], a[k], label)
	return {}


func _unknown(where: String, k: String, have: PackedStringArray) -> Dictionary:
	return _err(c.invalid("%s has no field '%s'; it takes: %s.%s" % [where, k, ", ".join(have), Common.Names.did_you_mean(k, have)]))


## The sun: the scene's first DirectionalLight3D, or a new one under the root.
func _sun(sp: Variant, root: Node, plan: Plan) -> Dictionary:
	if typeof(sp) == TYPE_BOOL:
		sp = {} if sp else null
	if sp == null:
		return {}
	if not (sp is Dictionary):
		return _err(c.invalid("sun must be an object {color?, energy?, rotation_degrees?, shadows?} (or true)."))
	var sun: DirectionalLight3D = _first(root, "DirectionalLight3D") as DirectionalLight3D
	var out: Dictionary = {}
	if sun == null:
		sun = DirectionalLight3D.new()
		sun.name = Common.free_name(root, "Sun")
		sun.rotation_degrees = Vector3(-50, -30, 0)
		sun.shadow_enabled = true
		plan.add_node(root, sun)
		out["created"] = {"path": str(sun.name), "class": "DirectionalLight3D"}
	var label: String = Common.rel(root, sun) if sun.is_inside_tree() else str(sun.name)
	for k: Variant in sp:
		match str(k):
			"color":
				var cl: Dictionary = c.color("sun.color", sp[k])
				if cl.has("error"):
					return cl
				plan.put(sun, "light_color", cl["value"], label)
			"energy":
				plan.put(sun, "light_energy", maxf(0.0, float(sp[k])), label)
			"shadows":
				plan.put(sun, "shadow_enabled", bool(sp[k]), label)
			"rotation_degrees":
				var v: Dictionary = c.vec3("sun.rotation_degrees", sp[k])
				if v.has("error"):
					return v
				plan.put(sun, "rotation_degrees", v["value"], label)
			_:
				return _unknown("sun", str(k), ["color", "energy", "shadows", "rotation_degrees"])
	return out
