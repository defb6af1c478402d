@tool
extends RefCounted
## describe: the edited scene's 3D world in domain terms: the renderer, the
## WorldEnvironment (background, sky, ambient, tonemap, fog, glow, effects), lights,
## cameras, meshes, CSG shapes and GI nodes.

const Common := preload("common.gd")
const Env := preload("environment.gd")
const Geometry := preload("geometry.gd")

var c: Common = null


func _init(common: Common) -> void:
	c = common


static func _name_of(d: Dictionary, v: int) -> String:
	for k: Variant in d:
		if int(d[k]) == v:
			return str(k)
	return str(v)


## {limit} -> {scene, renderer, environment, lights, cameras, meshes, csg, gi, totals, truncated}
func describe(p: Dictionary) -> Dictionary:
	var root: Node = EditorInterface.get_edited_scene_root()
	if root == null:
		return c.no_scene()
	var limit: int = int(p.get("limit", 100))
	var r: Dictionary = Common.renderer()
	r["forward_plus_effects"] = Common.forward_only_refusal("x") == ""
	var out: Dictionary = {"scene": root.scene_file_path, "renderer": r, "environment": null,
		"lights": [], "cameras": [], "meshes": [], "csg": [], "gi": [], "totals": {}, "truncated": false}
	var all: Array[Node] = [root]
	all.append_array(root.find_children("*", "", true, false))
	var totals: Dictionary = {"lights": 0, "cameras": 0, "meshes": 0, "csg": 0, "gi": 0, "environments": 0}
	for n: Node in all:
		var key: String = ""
		var entry: Dictionary = {}
		if n is WorldEnvironment:
			totals["environments"] += 1
			if out["environment"] == null:
				out["environment"] = _environment(root, n as WorldEnvironment)
			continue
		if n is Light3D:
			key = "lights"
			entry = _light(root, n as Light3D)
		elif n is Camera3D:
			key = "cameras"
			var cam: Camera3D = n
			entry = {"path": Common.rel(root, cam), "current": cam.current, "projection": ["perspective", "orthogonal", "frustum"][cam.projection],
				"fov": cam.fov, "size": cam.size, "near": cam.near, "far": cam.far, "position": Common.arr3(cam.global_position),
				"forward": Common.arr3(-cam.global_basis.z.normalized())}
		elif n is MeshInstance3D:
			key = "meshes"
			var mi: MeshInstance3D = n
			entry = {"path": Common.rel(root, mi), "mesh": mi.mesh.get_class() if mi.mesh != null else "", "position": Common.arr3(mi.global_position)}
			if mi.mesh is PrimitiveMesh:
				entry["dims"] = Geometry._dims_of(mi.mesh)
			if mi.mesh != null:
				entry["surfaces"] = mi.mesh.get_surface_count()
				entry["aabb_size"] = Common.arr3(mi.mesh.get_aabb().size)
			var col: Variant = _albedo(mi)
			if col != null:
				entry["albedo"] = col
		elif n is CSGShape3D:
			key = "csg"
			var cs: CSGShape3D = n
			entry = {"path": Common.rel(root, cs), "class": cs.get_class(), "root": cs.is_root_shape(), "dims": Geometry._dims_of(cs),
				"position": Common.arr3(cs.global_position)}
			if cs.is_root_shape():
				entry["use_collision"] = cs.use_collision
		elif n is ReflectionProbe or n is VoxelGI or n is LightmapGI:
			key = "gi"
			entry = {"path": Common.rel(root, n), "class": n.get_class(), "position": Common.arr3((n as Node3D).global_position)}
			if "size" in n:
				entry["size"] = Common.arr3(n.get("size"))
			if n is VoxelGI:
				entry["baked"] = (n as VoxelGI).data != null
			if n is LightmapGI:
				entry["baked"] = (n as LightmapGI).light_data != null
		if key == "":
			continue
		totals[key] += 1
		if (out[key] as Array).size() < limit:
			(out[key] as Array).append(entry)
		else:
			out["truncated"] = true
	out["totals"] = totals
	return c.ok(out)


static func _albedo(mi: MeshInstance3D) -> Variant:
	var m: Material = mi.material_override
	if m == null and mi.mesh != null and mi.mesh.get_surface_count() > 0:
		m = mi.get_surface_override_material(0) if mi.get_surface_override_material(0) != null else mi.mesh.surface_get_material(0)
	if m is BaseMaterial3D:
		return Common.hex((m as BaseMaterial3D).albedo_color)
	return null


func _light(root: Node, l: Light3D) -> Dictionary:
	var type: String = {"DirectionalLight3D": "directional", "OmniLight3D": "omni", "SpotLight3D": "spot"}.get(l.get_class(), l.get_class())
	var e: Dictionary = {"path": Common.rel(root, l), "type": type, "color": Common.hex(l.light_color), "energy": l.light_energy,
		"shadows": l.shadow_enabled, "visible": l.visible, "position": Common.arr3(l.global_position),
		"direction": Common.arr3(-l.global_basis.z.normalized())}
	if l is OmniLight3D:
		e["range"] = (l as OmniLight3D).omni_range
	if l is SpotLight3D:
		e["range"] = (l as SpotLight3D).spot_range
		e["angle"] = (l as SpotLight3D).spot_angle
	return e


func _environment(root: Node, we: WorldEnvironment) -> Dictionary:
	var e: Environment = we.environment
	var out: Dictionary = {"path": Common.rel(root, we)}
	if e == null:
		out["missing"] = "the WorldEnvironment has no Environment"
		return out
	if e.resource_path != "" and not e.resource_path.contains("::"):
		out["file"] = e.resource_path
	out["background"] = _name_of(Env.BACKGROUNDS, e.background_mode)
	out["background_color"] = Common.hex(e.background_color)
	if e.sky != null and e.sky.sky_material != null:
		var m: Material = e.sky.sky_material
		var s: Dictionary = {"material": m.get_class()}
		if m is ProceduralSkyMaterial:
			var ps: ProceduralSkyMaterial = m
			s.merge({"type": "procedural", "top_color": Common.hex(ps.sky_top_color), "horizon_color": Common.hex(ps.sky_horizon_color),
				"ground_color": Common.hex(ps.ground_bottom_color), "ground_horizon_color": Common.hex(ps.ground_horizon_color), "energy": ps.sky_energy_multiplier})
		elif m is PhysicalSkyMaterial:
			var ph: PhysicalSkyMaterial = m
			s.merge({"type": "physical", "rayleigh_color": Common.hex(ph.rayleigh_color), "mie_color": Common.hex(ph.mie_color),
				"ground_color": Common.hex(ph.ground_color), "turbidity": ph.turbidity, "energy": ph.energy_multiplier})
		elif m is PanoramaSkyMaterial:
			var pa: PanoramaSkyMaterial = m
			s.merge({"type": "panorama", "texture": pa.panorama.resource_path if pa.panorama != null else "", "energy": pa.energy_multiplier})
		out["sky"] = s
	out["ambient"] = {"source": _name_of(Env.AMBIENTS, e.ambient_light_source), "color": Common.hex(e.ambient_light_color), "energy": e.ambient_light_energy}
	out["tonemap"] = {"mode": _name_of(Env.TONEMAPS, e.tonemap_mode), "exposure": e.tonemap_exposure, "white": e.tonemap_white}
	out["fog"] = {"enabled": e.fog_enabled, "color": Common.hex(e.fog_light_color), "density": e.fog_density}
	out["glow"] = {"enabled": e.glow_enabled, "intensity": e.glow_intensity, "strength": e.glow_strength, "bloom": e.glow_bloom}
	var fx: Dictionary = {}
	for k: String in Common.FORWARD_ONLY:
		fx[k] = bool(e.get(Common.FORWARD_ONLY[k]))
	out["effects"] = fx
	return out
