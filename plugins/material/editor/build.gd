@tool
extends RefCounted
## create: a StandardMaterial3D / ORMMaterial3D from a set of PBR textures found by
## name in a folder (import settings fixed per map and the textures reimported), or a
## CanvasItemMaterial; parameters set by name; saved as a .tres and/or put on a node.
## Everything is ONE undo action: the import settings, the file and the assignment.

const Common := preload("common.gd")
const Files := preload("res://addons/godot_mcp/lib/files.gd")
const Nodes := preload("res://addons/godot_mcp/lib/nodes.gd")

const IMAGE_EXTS: PackedStringArray = ["png", "jpg", "jpeg", "webp", "tga", "bmp", "exr", "hdr", "dds", "ktx", "svg"]
## Name endings (after _ - . or space) of each map; docs/material.md lists them.
const SUFFIXES: Dictionary = {
	"albedo": ["albedo", "basecolor", "base_color", "basecolour", "diffuse", "diff", "col", "color", "colour"],
	"normal": ["normal", "normalgl", "normal_gl", "normaldx", "normal_dx", "nrm", "nor", "nor_gl", "nor_dx", "n"],
	"roughness": ["roughness", "rough", "rgh"],
	"metallic": ["metallic", "metalness", "metal", "mtl"],
	"ao": ["ao", "occlusion", "ambientocclusion", "ambient_occlusion"],
	"emission": ["emission", "emissive", "emit"],
	"height": ["height", "displacement", "disp"],
	"orm": ["orm", "arm"],
}
const ROLES: PackedStringArray = ["albedo", "normal", "roughness", "metallic", "ao", "emission", "height", "orm"]

var c: Common = null


func _init(common: Common) -> void:
	c = common


## The role and set name of a texture file name: [role, set] or [] when it matches none.
static func classify(file: String) -> Array:
	var base: String = file.get_basename().to_lower()
	var best: Array = []
	var best_len: int = -1
	for role: String in SUFFIXES.keys():
		for s: String in SUFFIXES[role]:
			var prefix: String = ""
			if base == s:
				prefix = ""
			elif base.length() > s.length() and base.ends_with(s) and "_-. ".contains(base[base.length() - s.length() - 1]):
				prefix = base.substr(0, base.length() - s.length() - 1)
			else:
				continue
			if s.length() > best_len:
				best_len = s.length()
				best = [role, prefix]
	return best


## The maps of a call: {maps: {role: path}, unmatched, sets} or {error}.
func find_maps(params: Dictionary) -> Dictionary:
	var maps: Dictionary = {}
	var unmatched: PackedStringArray = []
	var sets: PackedStringArray = []
	var folder: String = str(params.get("textures", ""))
	if folder != "":
		var bad: Dictionary = Files.check_path(folder, "textures", true)
		if not bad.is_empty():
			return {"error": bad}
		if not Files.is_dir(folder):
			return {"error": Files.not_found(folder, "folder")}
		var by_set: Dictionary = {}
		var all_images: PackedStringArray = []
		for f: Dictionary in Files.files_under(folder, false):
			var path: String = f["path"]
			if not IMAGE_EXTS.has(path.get_extension().to_lower()):
				continue
			all_images.append(path.get_file())
			var k: Array = classify(path.get_file())
			if k.is_empty():
				unmatched.append(path.get_file())
				continue
			var set_maps: Dictionary = by_set.get_or_add(k[1], {})
			if set_maps.has(k[0]):
				return {"error": c.invalid("Two %s maps in set '%s': %s and %s. Keep one, or name the maps with maps: {%s: \"res://...\"}." % [k[0], k[1], (set_maps[k[0]] as String).get_file(), path.get_file(), k[0]])}
			set_maps[k[0]] = path
		sets = PackedStringArray(by_set.keys())
		sets.sort()
		var want: String = str(params.get("set", "")).to_lower()
		if by_set.is_empty():
			var hint: String = "No PBR texture found by name in %s." % folder
			if all_images.is_empty():
				hint += " The editor knows no image there: if you just wrote them, run godot_resources_rescan first."
			else:
				hint += " Images there: %s; none ends in a map name (_albedo, _basecolor, _diffuse, _col, _normal, _n, _nrm, _rough, _roughness, _metal, _metallic, _ao, _occlusion, _emission, _emissive, _height, _disp, _orm; see docs/material.md), or give maps: {albedo: \"res://...\"}." % ", ".join(all_images)
			return {"error": c.fail("RESOURCE_NOT_FOUND", hint)}
		if want == "" and by_set.size() > 1:
			return {"error": c.invalid("%s holds %d texture sets: %s. Pick one with set." % [folder, sets.size(), ", ".join(sets)])}
		if want != "" and not by_set.has(want):
			return {"error": c.fail("RESOURCE_NOT_FOUND", "No texture set '%s' in %s.%s Sets: %s." % [want, folder, Common.did_you_mean(want, sets), ", ".join(sets)])}
		maps = (by_set[want if want != "" else by_set.keys()[0]] as Dictionary).duplicate()
	var explicit: Variant = params.get("maps", {})
	if explicit is Dictionary:
		for k2: Variant in (explicit as Dictionary).keys():
			var role: String = str(k2)
			if not ROLES.has(role):
				return {"error": c.invalid("Unknown map '%s'.%s Maps: %s." % [role, Common.did_you_mean(role, ROLES), ", ".join(ROLES)])}
			var p: String = str(explicit[k2])
			var bad2: Dictionary = Files.check_path(p, "maps.%s" % role)
			if not bad2.is_empty():
				return {"error": bad2}
			if not FileAccess.file_exists(p):
				return {"error": Files.not_found(p, "%s texture" % role)}
			maps[role] = p
	for role2: String in maps.keys():
		if EditorInterface.get_resource_filesystem().get_file_type(maps[role2]) == "" and not ResourceLoader.exists(maps[role2]):
			return {"error": c.fail("PRECONDITION_FAILED", "The editor does not know %s yet: run godot_resources_rescan, then retry." % maps[role2], "imported")}
	return {"maps": maps, "unmatched": unmatched, "sets": sets}


## The import options each map needs (ResourceImporterTexture's names).
static func import_options(role: String, maps: Dictionary, p: Dictionary) -> Dictionary:
	var vram: bool = str(p.get("compress", "vram")) == "vram"
	var o: Dictionary = {"compress/mode": 2 if vram else 0, "mipmaps/generate": true, "detect_3d/compress_to": 0}
	# Colour maps stay sRGB-friendly; data maps (linear) may use the RG formats.
	o["compress/channel_pack"] = 0 if role == "albedo" or role == "emission" else 1
	match role:
		"normal":
			o["compress/normal_map"] = 1
			o["process/normal_map_invert_y"] = str(p.get("normal_convention", "opengl")) == "directx" or str(maps["normal"]).get_basename().to_lower().ends_with("dx")
		"roughness", "orm":
			o["compress/normal_map"] = 2
			# The channel holding roughness, for the importer's normal-based roughness limiter.
			o["roughness/mode"] = 3 if role == "orm" else 2
			o["roughness/src_normal"] = str(maps.get("normal", ""))
		_:
			o["compress/normal_map"] = 2
	return o


## {path: {changes: {option: [old, new]}, before: bytes, after: bytes}} for maps whose
## .import needs changing.
static func import_plan(maps: Dictionary, p: Dictionary) -> Dictionary:
	var plan: Dictionary = {}
	for role: String in maps.keys():
		var path: String = maps[role]
		var cfg: ConfigFile = ConfigFile.new()
		var file: String = path + ".import"
		var before: Variant = null
		if FileAccess.file_exists(file):
			before = FileAccess.get_file_as_bytes(file)
			cfg.load(file)
		if str(cfg.get_value("remap", "importer", "texture")) != "texture":
			continue
		cfg.set_value("remap", "importer", "texture")
		var changes: Dictionary = {}
		var want: Dictionary = import_options(role, maps, p)
		for k: String in want.keys():
			var old: Variant = cfg.get_value("params", k, null)
			if old == null or str(old) != str(want[k]):
				changes[k] = [old, want[k]]
				cfg.set_value("params", k, want[k])
		if changes.is_empty():
			continue
		plan[path] = {"role": role, "changes": changes, "before": before, "after": cfg.encode_to_text().to_utf8_buffer()}
	return plan


## Writes .import files ({texture path: bytes or null}) and reimports those textures.
func apply_imports(files: Dictionary) -> void:
	var paths: PackedStringArray = []
	for path: String in files.keys():
		var data: Variant = files[path]
		if data == null:
			continue
		var f: FileAccess = FileAccess.open(path + ".import", FileAccess.WRITE)
		if f == null:
			continue
		f.store_buffer(data as PackedByteArray)
		f.close()
		paths.append(path)
	if not paths.is_empty():
		EditorInterface.get_resource_filesystem().reimport_files(paths)


## A new material of [param kind].
static func build(kind: String) -> Material:
	if kind == "canvas_item":
		return CanvasItemMaterial.new()
	if kind == "orm":
		return ORMMaterial3D.new()
	return StandardMaterial3D.new()


## Puts the maps of [param maps] that are imported (all but those in [param skip]) on [param mat].
static func attach(mat: Material, kind: String, maps: Dictionary, skip: Dictionary) -> void:
	if not (mat is BaseMaterial3D):
		return
	var m: BaseMaterial3D = mat
	var tex: Dictionary = {}
	for role: String in maps.keys():
		if not skip.has(role) and ResourceLoader.exists(maps[role]):
			tex[role] = load(maps[role])
	if tex.has("albedo"):
		m.albedo_texture = tex["albedo"]
	if tex.has("normal"):
		m.normal_enabled = true
		m.normal_texture = tex["normal"]
	if tex.has("orm"):
		if kind == "orm":
			m.set("orm_texture", tex["orm"])
		else:
			m.ao_enabled = true
			m.ao_texture = tex["orm"]
			m.ao_texture_channel = BaseMaterial3D.TEXTURE_CHANNEL_RED
			m.roughness_texture = tex["orm"]
			m.roughness_texture_channel = BaseMaterial3D.TEXTURE_CHANNEL_GREEN
			m.metallic_texture = tex["orm"]
			m.metallic_texture_channel = BaseMaterial3D.TEXTURE_CHANNEL_BLUE
			m.metallic = 1.0
	if tex.has("roughness"):
		m.roughness_texture = tex["roughness"]
		m.roughness_texture_channel = BaseMaterial3D.TEXTURE_CHANNEL_RED
		m.roughness = 1.0
	if tex.has("metallic"):
		m.metallic_texture = tex["metallic"]
		m.metallic_texture_channel = BaseMaterial3D.TEXTURE_CHANNEL_RED
		m.metallic = 1.0 # the texture is multiplied by metallic (default 0)
	if tex.has("ao"):
		m.ao_enabled = true
		m.ao_texture = tex["ao"]
		m.ao_texture_channel = BaseMaterial3D.TEXTURE_CHANNEL_RED
	if tex.has("emission"):
		m.emission_enabled = true
		m.emission_texture = tex["emission"]
	if tex.has("height"):
		m.heightmap_enabled = true
		m.heightmap_texture = tex["height"]


## {type, textures?, set?, maps?, normal_convention?, compress?, params?, save_path?,
## overwrite?, node?, slot?, surface?, dry_run}
## -> {material, textures, unmatched, saved, assigned, persisted, reason, undoable, dry_run}
func create(params: Dictionary) -> Dictionary:
	var dry: bool = bool(params.get("dry_run", false))
	var kind: String = str(params.get("type", "standard"))
	if not ["standard", "orm", "canvas_item"].has(kind):
		return c.invalid("Unknown type '%s'.%s Types: standard, orm, canvas_item." % [kind, Common.did_you_mean(kind, PackedStringArray(["standard", "orm", "canvas_item"]))])
	var save_path: String = str(params.get("save_path", ""))
	var node_path: String = str(params.get("node", ""))
	if save_path == "" and node_path == "":
		return c.invalid("Give save_path (a .tres) and/or node (to put the material on): a material that goes nowhere would be lost.")
	var maps: Dictionary = {}
	var unmatched: PackedStringArray = []
	if params.get("textures", "") != "" or params.get("maps") is Dictionary and not (params["maps"] as Dictionary).is_empty():
		if kind == "canvas_item":
			return c.invalid("A CanvasItemMaterial takes no PBR textures (2D textures belong on the node); use type standard or orm, or drop textures.")
		var fm: Dictionary = find_maps(params)
		if fm.has("error"):
			return fm["error"]
		maps = fm["maps"]
		unmatched = fm["unmatched"]
	if kind == "orm" and not maps.is_empty() and not maps.has("orm"):
		var loose: PackedStringArray = PackedStringArray(["roughness", "metallic", "ao"].filter(func(r: String) -> bool: return maps.has(r)))
		return c.invalid("An ORMMaterial3D reads one packed texture (AO in red, roughness in green, metallic in blue: a _orm or _arm map); this set has %s. Use type standard (it takes separate maps), or give maps.orm." % (", ".join(loose) if not loose.is_empty() else "no ORM map"))
	if save_path != "":
		var bad: Dictionary = Files.check_path(save_path, "save_path")
		if not bad.is_empty():
			return bad
		if not ["tres", "res"].has(save_path.get_extension().to_lower()):
			return c.invalid("save_path must end in .tres (text) or .res (binary), got '%s'." % save_path)
		if FileAccess.file_exists(save_path) and not bool(params.get("overwrite", false)):
			return c.invalid("%s already exists. Pass overwrite: true (with confirm) to replace it, or pick another save_path." % save_path)
	var mat: Material = build(kind)
	# Maps not imported yet are attached once create has imported them.
	var pending: Dictionary = {}
	for role0: String in maps.keys():
		if not ResourceLoader.exists(maps[role0]):
			pending[role0] = true
	attach(mat, kind, maps, pending)
	var target: Dictionary = {}
	if node_path != "":
		target = c.find_slot(params, mat)
		if target.has("error"):
			return target["error"]
	var set_v: Variant = params.get("params", {})
	if set_v == null:
		set_v = {}
	var d: Dictionary = c.decode_params(mat, set_v as Dictionary, [])
	if d.has("error"):
		return d["error"]
	var values: Dictionary = d["values"]
	for prop: String in values.keys():
		mat.set(prop, values[prop])
	var plan: Dictionary = import_plan(maps, params)
	var textures: Array = []
	for role: String in ROLES:
		if maps.has(role):
			var e: Dictionary = {"role": role, "path": maps[role], "import_changes": {}, "reimported": false}
			if plan.has(maps[role]):
				var ch: Dictionary = {}
				for k: String in (plan[maps[role]]["changes"] as Dictionary).keys():
					ch[k] = {"old": plan[maps[role]]["changes"][k][0], "new": plan[maps[role]]["changes"][k][1]}
				e["import_changes"] = ch
				e["reimported"] = not dry
			textures.append(e)
	var out: Dictionary = {"textures": textures, "unmatched": unmatched, "saved": save_path, "dry_run": dry, "undoable": false, "persisted": false, "reason": ""}
	if not target.is_empty():
		var prev: Material = Common.slot_get(target)
		out["assigned"] = {"node": Nodes.rel(target["root"], target["node"]), "slot": target["slot"], "surface": target["surface"], "previous": Common.describe(prev)}
	if dry:
		out["material"] = Common.describe(mat)
		out["reason"] = "a dry run"
		return c.ok(out)
	# Apply: imports, then the file, then the slot; roll back on failure.
	if not plan.is_empty() and EditorInterface.get_resource_filesystem().is_scanning():
		return c.fail("PRECONDITION_FAILED", "The editor is scanning the project's files; retry in a moment (godot_resources_rescan waits for it).", "imported")
	var act: Common.Action = Common.Action.new()
	if not plan.is_empty():
		var after: Dictionary = {}
		var before: Dictionary = {}
		for path: String in plan.keys():
			after[path] = plan[path]["after"]
			before[path] = plan[path]["before"]
		act.step([self, "apply_imports", [after], false], [self, "apply_imports", [before], false])
		# The importer rewrites the .import files: redo writes what it wrote.
		var written: Dictionary = {}
		for path2: String in plan.keys():
			written[path2] = FileAccess.get_file_as_bytes(path2 + ".import")
		act.do_ops[act.do_ops.size() - 1] = [self, "apply_imports", [written], false]
		for role2: String in maps.keys():
			var t: Resource = load(maps[role2])
			if t == null:
				act.rollback()
				return c.fail("INTERNAL_ERROR", "Reimporting %s failed; the import settings were restored." % maps[role2])
		if not pending.is_empty():
			var now: Dictionary = {}
			for role3: String in maps.keys():
				if not pending.has(role3):
					now[role3] = true
			attach(mat, kind, maps, now)
			for prop2: String in values.keys():
				mat.set(prop2, values[prop2])
	if save_path != "":
		var s: Dictionary = c.save_material(mat, save_path)
		if not s["ok"]:
			act.rollback()
			return s["error"]
		act.record(s["do"], s["undo"])
		act.refs.append(mat)
	if not target.is_empty():
		var prev2: Material = Common.slot_get(target)
		act.step(Common.slot_op(target, mat), Common.slot_op(target, prev2))
		var pr: Dictionary = Common.persist_info(target["root"], target["node"])
		out["persisted"] = pr["persisted"]
		out["reason"] = pr["reason"]
	else:
		out["persisted"] = true
	act.commit("godot-mcp: create %s" % mat.get_class(), target.get("root") if not target.is_empty() else self)
	out["undoable"] = true
	out["material"] = Common.describe(mat)
	return c.ok(out)
