@tool
extends RefCounted
## Small helpers of the shader toolset's editor commands.

const Names := preload("res://addons/godot_mcp/lib/names.gd")
const Decl := preload("decl.gd")


## The nearest of [param have] to [param want] as " Did you mean 'x'?", or "".
static func did_you_mean(want: String, have: PackedStringArray) -> String:
	return Names.did_you_mean(want, have)


## The uniforms of [param shader] with types and initializers read from its code.
## Without an #include, only the uniforms the code declares: the headless editor's dummy
## renderer keeps a recompiled shader's old uniforms in its list.
static func uniforms(shader: Shader) -> Array:
	if shader == null:
		return []
	var decls: Dictionary = Decl.read(shader.code)["decls"]
	var all: Array = Decl.uniforms(shader, decls)
	if shader.code.contains("#include"):
		return all
	return all.filter(func(u: Dictionary) -> bool: return decls.has(u["name"]))


## Whether [param res] is a file of its own (not embedded in a scene).
static func is_file(res: Resource) -> bool:
	return res != null and res.resource_path != "" and not res.resource_path.contains("::")


## Properties of [param obj] that hold a ShaderMaterial (stored Object properties whose
## hint names ShaderMaterial or Material), by name.
static func material_properties(obj: Object) -> PackedStringArray:
	var out: PackedStringArray = []
	for p: Dictionary in obj.get_property_list():
		if int(p["type"]) != TYPE_OBJECT or int(p["usage"]) & PROPERTY_USAGE_STORAGE == 0:
			continue
		var hs: PackedStringArray = str(p["hint_string"]).split(",")
		if hs.has("ShaderMaterial") or hs.has("Material"):
			out.append(str(p["name"]))
	return out


## Path of [param n] relative to [param root] ("." for the root).
static func rel(root: Node, n: Node) -> String:
	return "." if n == root else str(root.get_path_to(n))


## [param n] and its descendants in tree order.
static func walk(n: Node, out: Array[Node]) -> void:
	out.append(n)
	for c: Node in n.get_children():
		walk(c, out)
