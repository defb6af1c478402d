@tool
extends RefCounted
## create: a particles node from a preset (its parameters, and a look: a soft or
## streak sprite, mixed or added, as a 2D texture or a 3D billboard quad); convert:
## CPU<->GPU in place as the editor's particles menu does. One undo action each.

const Common := preload("common.gd")
const Model := preload("model.gd")
const Edit := preload("edit.gd")
const Nodes := preload("res://addons/godot_mcp/lib/nodes.gd")
const Recorder := preload("res://addons/godot_mcp/lib/undo.gd")

## The classes a node's own settings come from, which a converted node keeps.
const BASES_2D: PackedStringArray = ["Node", "CanvasItem", "Node2D"]
const BASES_3D: PackedStringArray = ["Node", "Node3D", "VisualInstance3D", "GeometryInstance3D"]
const SKIP: PackedStringArray = ["script", "name", "owner", "scene_file_path", "unique_name_in_owner"]

var c: Common = null
var _edit: Edit = null


func _init(common: Common) -> void:
	c = common
	_edit = Edit.new(common)


## {class, preset, parent, name, position?, look, preset_params, params, dry_run}
## -> {path, class, preset, look, params, persisted, reason, undoable, dry_run}
func create(params: Dictionary) -> Dictionary:
	var root: Node = EditorInterface.get_edited_scene_root()
	if root == null:
		return c.no_scene()
	var r: Dictionary = Nodes.param(root, params, "parent", ".", false)
	if not r["ok"]:
		return r["failure"]
	var parent: Node = r["node"]
	var cls: String = str(params.get("class", ""))
	if not Common.CLASSES.has(cls):
		return c.fail("VALIDATION_ERROR", "class '%s' is not one of %s." % [cls, ", ".join(Common.CLASSES)])
	var n: Node = ClassDB.instantiate(cls)
	var name: String = str(params.get("name", cls))
	n.name = name
	var look: Dictionary = params.get("look", {})
	if Model.is_gpu(n):
		n.set("process_material", ParticleProcessMaterial.new())
	_dress(n, look)
	var pos: Variant = params.get("position")
	if pos is Array:
		n.set("position", Vector2(float(pos[0]), float(pos[1])) if Model.is_2d(n) else Vector3(float(pos[0]), float(pos[1]), float(pos[2])))
	for key: String in ["preset_params", "params"]:
		var plan: Dictionary = _edit.plan_params(n, params.get(key, []), key)
		if plan.has("error"):
			n.free()
			return plan["error"]
		var scratch: Recorder = Recorder.new()
		scratch.begin()
		Edit.apply(scratch, n, plan["steps"])
	if parent.has_node(NodePath(name)):
		var i: int = 2
		while parent.has_node(NodePath("%s%d" % [name, i])):
			i += 1
		n.name = "%s%d" % [name, i]
	var dry: bool = bool(params.get("dry_run", false))
	var path: String = Nodes.rel(root, parent).path_join(str(n.name)) if parent != root else str(n.name)
	var out: Dictionary = {"path": path, "class": cls, "preset": str(params.get("preset", "")), "look": look,
		"params": Model.read_all(n), "dry_run": dry, "undoable": false, "persisted": false, "reason": ""}
	if dry:
		n.free()
		out["reason"] = "a dry run: nothing was created"
		return c.ok(out)
	var rec: Recorder = Recorder.new()
	rec.begin()
	rec.created.append(n)
	rec.do_refs.append(n)
	rec.do_call(parent, "add_child", [n, true])
	rec.do_call(n, "set_owner", [root])
	rec.undo_call(parent, "remove_child", [n])
	rec.commit("godot-mcp: add %s particles '%s'" % [out["preset"], path], root)
	out["path"] = Nodes.rel(root, n)
	var pr: Dictionary = Common.persisted(root, n)
	out["undoable"] = true
	out["persisted"] = pr["persisted"]
	out["reason"] = pr["reason"]
	return c.ok(out)


## Gives a new node the preset's look: what each particle is drawn with.
static func _dress(n: Node, look: Dictionary) -> void:
	var size: float = float(look.get("size", 1.0))
	var aspect: float = float(look.get("aspect", 1.0))
	var add: bool = str(look.get("blend", "mix")) == "add"
	var v: Array = look.get("visibility", [])
	if Model.is_2d(n):
		n.set("texture", _sprite(str(look.get("sprite", "soft")), maxi(2, roundi(size)), maxi(2, roundi(size * aspect))))
		if add:
			var cm: CanvasItemMaterial = CanvasItemMaterial.new()
			cm.blend_mode = CanvasItemMaterial.BLEND_MODE_ADD
			n.set("material", cm)
		if n is GPUParticles2D and v.size() >= 4:
			n.set("visibility_rect", Rect2(float(v[0]), float(v[1]), float(v[2]), float(v[3])))
		return
	var quad: QuadMesh = QuadMesh.new()
	quad.size = Vector2(size, size * aspect)
	var m: StandardMaterial3D = StandardMaterial3D.new()
	m.shading_mode = BaseMaterial3D.SHADING_MODE_UNSHADED
	m.vertex_color_use_as_albedo = true
	m.transparency = BaseMaterial3D.TRANSPARENCY_ALPHA
	m.blend_mode = BaseMaterial3D.BLEND_MODE_ADD if add else BaseMaterial3D.BLEND_MODE_MIX
	m.billboard_mode = BaseMaterial3D.BILLBOARD_PARTICLES
	m.albedo_texture = _sprite(str(look.get("sprite", "soft")), 32, mini(256, roundi(32 * aspect)))
	quad.material = m
	if n is GPUParticles3D:
		n.set("draw_pass_1", quad)
		if v.size() >= 6:
			n.set("visibility_aabb", AABB(Vector3(float(v[0]), float(v[1]), float(v[2])), Vector3(float(v[3]), float(v[4]), float(v[5]))))
	else:
		n.set("mesh", quad)


## A soft round sprite (white, fading out from the centre) of w x h pixels.
static func _sprite(_kind: String, w: int, h: int) -> GradientTexture2D:
	var g: Gradient = Gradient.new()
	g.offsets = PackedFloat32Array([0.0, 0.4, 1.0])
	g.colors = PackedColorArray([Color(1, 1, 1, 1), Color(1, 1, 1, 0.7), Color(1, 1, 1, 0)])
	var t: GradientTexture2D = GradientTexture2D.new()
	t.gradient = g
	t.width = w
	t.height = h
	t.fill = GradientTexture2D.FILL_RADIAL
	t.fill_from = Vector2(0.5, 0.5)
	t.fill_to = Vector2(0.5, 0.0)
	return t


## {node, dry_run} -> {path, from, to, params, dropped, persisted, reason, undoable, dry_run}
func convert_node(params: Dictionary) -> Dictionary:
	var f: Dictionary = c.particles_param(params)
	if f.has("error"):
		return f["error"]
	var root: Node = f["root"]
	var old: Node = f["node"]
	if old == root:
		return c.fail("VALIDATION_ERROR", "'%s' is the scene root; convert a particles node below the root (or make a new scene whose root is the converted class)." % old.name)
	if old.get_script() != null:
		return c.fail("VALIDATION_ERROR", "'%s' has a script (%s) written for %s; it would not fit the converted node. Detach or change the script first." % [old.name, (old.get_script() as Script).resource_path, old.get_class()])
	var to: String = {"GPUParticles3D": "CPUParticles3D", "GPUParticles2D": "CPUParticles2D", "CPUParticles3D": "GPUParticles3D", "CPUParticles2D": "GPUParticles2D"}[old.get_class()]
	var n: Node = ClassDB.instantiate(to)
	n.call("convert_from_particles", old)
	n.name = old.name
	var dropped: PackedStringArray = _dropped(old, n)
	var copies: Array = _own_settings(old)
	var dry: bool = bool(params.get("dry_run", false))
	var rec: Recorder = Recorder.new()
	rec.begin()
	rec.created.append(n)
	rec.do_refs.append(n)
	rec.undo_refs.append(old)
	for kv: Array in copies:
		n.set(kv[0], kv[1])
	rec.do_call(old, "replace_by", [n, true])
	rec.undo_call(n, "replace_by", [old, true])
	# Signals the old node sent (saved connections) go on from the new one.
	for sig: Dictionary in old.get_signal_list():
		for conn: Dictionary in old.get_signal_connection_list(sig["name"]):
			if int(conn["flags"]) & CONNECT_PERSIST and n.has_signal(sig["name"]) and not n.is_connected(sig["name"], conn["callable"]):
				rec.do_call(n, "connect", [sig["name"], conn["callable"], CONNECT_PERSIST])
				rec.undo_call(n, "disconnect", [sig["name"], conn["callable"]])
	if old.unique_name_in_owner:
		rec.do_set(n, "unique_name_in_owner", true)
	var out: Dictionary = {"path": Nodes.rel(root, n), "from": old.get_class(), "to": to, "params": Model.read_all(n),
		"dropped": dropped, "dry_run": dry, "undoable": false, "persisted": false, "reason": ""}
	if dry:
		rec.rollback()
		out["reason"] = "a dry run: nothing was replaced"
		return c.ok(out)
	rec.commit("godot-mcp: convert '%s' to %s" % [out["path"], to], root)
	var sel: EditorSelection = EditorInterface.get_selection()
	if sel.get_selected_nodes().has(old):
		sel.remove_node(old)
		sel.add_node(n)
	var pr: Dictionary = Common.persisted(root, n)
	out["undoable"] = true
	out["persisted"] = pr["persisted"]
	out["reason"] = pr["reason"]
	return c.ok(out)


## [property, value] of the settings [param old] has from its base classes (transform,
## visibility, material, layers...) that differ from a new node's, as the editor's
## replace keeps them.
static func _own_settings(old: Node) -> Array:
	var fresh: Node = ClassDB.instantiate(old.get_class())
	var out: Array = []
	for base: String in (BASES_2D if Model.is_2d(old) else BASES_3D):
		for p: Dictionary in ClassDB.class_get_property_list(base, true):
			var name: String = str(p["name"])
			if not (int(p["usage"]) & PROPERTY_USAGE_STORAGE) or SKIP.has(name):
				continue
			var v: Variant = old.get(name)
			if typeof(v) != typeof(fresh.get(name)) or v != fresh.get(name):
				out.append([name, v])
	for m: StringName in old.get_meta_list():
		out.append(["metadata/" + str(m), old.get_meta(m)])
	fresh.free()
	return out


## The old node's settings the new class has no place for.
static func _dropped(old: Node, n: Node) -> PackedStringArray:
	var out: PackedStringArray = []
	if str(Model.read(old, "emission_shape")) != str(Model.read(n, "emission_shape")):
		out.append("emission_shape %s (%s has no such shape; it is %s)" % [Model.read(old, "emission_shape"), n.get_class(), Model.read(n, "emission_shape")])
	if not Model.is_gpu(old):
		if Model.read(old, "emission_shape") in ["points", "directed_points"]:
			out.append("emission points (the GPU material takes them as textures; set them again)")
		return out
	var m: Variant = old.get("process_material")
	if m != null and not (m is ParticleProcessMaterial):
		out.append("process_material (%s): only a ParticleProcessMaterial converts" % (m as Object).get_class())
	if str(old.get("sub_emitter")) != "":
		out.append("sub_emitter")
	if bool(old.get("trail_enabled")):
		out.append("trails")
	if old is GPUParticles3D and int(old.get("draw_passes")) > 1:
		out.append("draw passes 2..%d (only the first mesh is kept)" % int(old.get("draw_passes")))
	if m is ParticleProcessMaterial:
		var pm: ParticleProcessMaterial = m
		if pm.turbulence_enabled:
			out.append("turbulence")
		if pm.collision_mode != ParticleProcessMaterial.COLLISION_DISABLED:
			out.append("collision")
		if pm.emission_shape == ParticleProcessMaterial.EMISSION_SHAPE_POINTS or pm.emission_shape == ParticleProcessMaterial.EMISSION_SHAPE_DIRECTED_POINTS:
			out.append("emission point textures")
		for curve: String in ["alpha_curve", "emission_curve", "velocity_limit_curve", "directional_velocity_curve", "radial_velocity_curve", "scale_over_velocity_curve"]:
			if pm.get(curve) != null:
				out.append(curve)
		if pm.inherit_velocity_ratio != 0.0:
			out.append("inherit_velocity_ratio")
		if pm.sub_emitter_mode != ParticleProcessMaterial.SUB_EMITTER_DISABLED:
			out.append("sub_emitter_mode")
	return out
