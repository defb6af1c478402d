@tool
extends RefCounted
## cmd_shader_write: writes a .gdshader/.gdshaderinc as one undo action, updates the
## editor's loaded copy, and says which ShaderMaterials of the edited scene lost
## parameter values (values set for uniforms the new code no longer declares).

const Params := preload("res://addons/godot_mcp/lib/params.gd")
const Files := preload("res://addons/godot_mcp/lib/files.gd")
const Util := preload("util.gd")

## How long to wait for the editor's filesystem to know a written file.
const SYNC_MS := 10000

var _router: RefCounted = null


func _init(router: RefCounted) -> void:
	_router = router


## {path, code, dry_run} -> {path, created, bytes, undoable, materials, lost_params}
func write(params: Dictionary) -> Dictionary:
	var path: Variant = Params.string(params, "path")
	var code: Variant = params.get("code")
	var dry: Variant = Params.boolean(params, "dry_run", false)
	if path == null or typeof(code) != TYPE_STRING or dry == null:
		return Params.invalid("Expected {path: res:// .gdshader or .gdshaderinc, code: string, dry_run: bool}.")
	var p: String = path
	var bad: Dictionary = Files.check_path(p)
	if not bad.is_empty():
		return bad
	if p.begins_with("res://addons/godot_mcp"):
		return Params.invalid("'%s' is part of the godot-mcp addon; it is not edited through tools." % p)
	if Files.is_dir(p):
		return Params.invalid("'%s' is a folder." % p)
	var existed: bool = FileAccess.file_exists(p)
	var data: PackedByteArray = (code as String).to_utf8_buffer()
	var cached: Resource = null
	if ResourceLoader.has_cached(p):
		cached = ResourceLoader.load(p, "", ResourceLoader.CACHE_MODE_REUSE)
	var using: Array = _materials_using(p)
	var out: Dictionary = {"path": p, "created": not existed, "bytes": data.size(), "undoable": false, "materials": using.size(), "lost_params": [], "dry_run": dry}
	var probe: Shader = null
	if p.ends_with(".gdshader") and not using.is_empty():
		probe = Shader.new()
		probe.code = absolute_includes(code, p.get_base_dir())
		out["lost_params"] = _losses(using, probe)
	if dry:
		return _router.call("ok", out)
	var before: Variant = Files.file_bytes(p)
	var had_uid: bool = FileAccess.file_exists(p + ".uid")
	var res: Dictionary = Files.commit("godot-mcp: write %s" % p, [{"op": "write", "path": p, "data": data}], [], false)
	if not res.get("ok", false):
		return _router.call("fail", "INTERNAL_ERROR", "Writing %s failed: %s." % [p, res.get("error", "")])
	var old_code: String = ""
	if cached is Shader or cached is ShaderInclude:
		old_code = cached.get("code")
		cached.set("code", code)
	# The file's uid and type registered before the answer, so a next call can load it.
	var tree: SceneTree = EditorInterface.get_base_control().get_tree()
	var until: int = Time.get_ticks_msec() + SYNC_MS
	while Time.get_ticks_msec() < until:
		var st: Dictionary = Files.sync_files(PackedStringArray([p]), PackedStringArray())
		if bool(st.get("ready", false)):
			break
		await tree.process_frame
	# Recorded now that the editor has made the .uid file of a new shader, so undo
	# removes it too and redo brings back the same UID.
	var do_ops: Array = [{"op": "write", "path": p, "data": data}]
	var undo_ops: Array = []
	if before == null:
		undo_ops.append({"op": "delete", "path": p})
		if not had_uid and FileAccess.file_exists(p + ".uid"):
			do_ops.append({"op": "write", "path": p + ".uid", "data": FileAccess.get_file_as_bytes(p + ".uid")})
			undo_ops.append({"op": "delete", "path": p + ".uid"})
	else:
		undo_ops.append({"op": "write", "path": p, "data": before})
	var undoable: bool = Files.ops_bytes(do_ops) + Files.ops_bytes(undo_ops) <= Files.UNDO_LIMIT_BYTES
	if undoable:
		var ur: EditorUndoRedoManager = EditorInterface.get_editor_undo_redo()
		ur.create_action("godot-mcp: write %s" % p, UndoRedo.MERGE_DISABLE, null)
		ur.add_do_method(Files.applier(), "apply", do_ops)
		ur.add_undo_method(Files.applier(), "apply", undo_ops)
		if cached != null:
			ur.add_do_property(cached, "code", code)
			ur.add_undo_property(cached, "code", old_code)
		ur.commit_action(false)
	out["undoable"] = undoable
	return _router.call("ok", out)


## [param code] with each relative #include made absolute from [param dir], for a probe
## Shader that has no path. (The probe is a new Shader: the headless editor's dummy
## renderer keeps a recompiled shader's old uniforms, so the loaded copy can't tell.)
static func absolute_includes(code: String, dir: String) -> String:
	var re: RegEx = RegEx.create_from_string("(?m)^(\\s*#include\\s+\")([^\"]+)\"")
	var out: String = ""
	var at: int = 0
	for m: RegExMatch in re.search_all(code):
		var inc: String = m.get_string(2)
		if not inc.begins_with("res://") and not inc.begins_with("uid://"):
			inc = dir.path_join(inc).simplify_path()
		out += code.substr(at, m.get_start() - at) + m.get_string(1) + inc + "\""
		at = m.get_end()
	return out + code.substr(at)


## The ShaderMaterials of the edited scene whose shader is (or includes) [param path]:
## [{node, property, material, mat, values: {name: value}}].
func _materials_using(path: String) -> Array:
	var root: Node = EditorInterface.get_edited_scene_root()
	var out: Array = []
	if root == null:
		return out
	var all: Array[Node] = []
	Util.walk(root, all)
	for n: Node in all:
		for prop: String in Util.material_properties(n):
			var m: ShaderMaterial = n.get(prop) as ShaderMaterial
			if m == null or m.shader == null:
				continue
			var sp: String = m.shader.resource_path
			if sp != path and not (path.ends_with(".gdshaderinc") and m.shader.code.contains(path.get_file())):
				continue
			var values: Dictionary = {}
			for u: Dictionary in m.shader.get_shader_uniform_list():
				var v: Variant = m.get_shader_parameter(str(u["name"]))
				if v != null:
					values[str(u["name"])] = v
			out.append({"node": Util.rel(root, n), "property": prop, "material": m.resource_path if Util.is_file(m) else "", "mat": m, "values": values})
	return out


## The entries of [param using] that set a value for a uniform [param shader] (with the
## new code) does not declare.
func _losses(using: Array, shader: Shader) -> Array:
	var new_names: Dictionary = {}
	for u: Dictionary in shader.get_shader_uniform_list():
		new_names[str(u["name"])] = true
	var out: Array = []
	for e: Dictionary in using:
		var lost: Array = []
		for name: String in (e["values"] as Dictionary).keys():
			if not new_names.has(name):
				lost.append(name)
		if not lost.is_empty():
			lost.sort()
			out.append({"node": e["node"], "property": e["property"], "material": e["material"], "lost": lost})
	return out
