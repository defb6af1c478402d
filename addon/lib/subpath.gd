@tool
extends RefCounted
## Sub-resource property paths ("mesh:material:albedo_color", Godot's NodePath subname
## syntax): walk from a node or resource through its resource-valued properties to the
## object that holds the last property, with an actionable hint for a null link or an
## unknown name, and find who else uses the resources on the way.
##
##     const SubPath := preload("res://addons/godot_mcp/lib/subpath.gd")
##     var r: Dictionary = SubPath.resolve(node, "mesh:material:albedo_color")
##     if not r["ok"]:
##         return Params.invalid(r["hint"])
##     var target: Object = r["target"]         # the StandardMaterial3D
##     var prop: String = r["property"]         # "albedo_color"
##     var chain: Array = r["chain"]            # [the mesh, the material]

const Names := preload("names.gd")

## Properties a path may not set on a resource.
const RESERVED := {"script": true, "resource_path": true, "resource_name": false}
const NON_PROPERTY := PROPERTY_USAGE_CATEGORY | PROPERTY_USAGE_GROUP | PROPERTY_USAGE_SUBGROUP


static func is_path(name: String) -> bool:
	return name.contains(":")


## {ok, target, property, info, chain: [Resource], prefixes: ["mesh", "mesh:material"]}
## or {ok: false, hint, null_segment?}. [param obj] is where the path starts (a node or
## a resource); [param label] names it in hints.
static func resolve(obj: Object, path: String, label: String = "") -> Dictionary:
	var segs: PackedStringArray = path.split(":")
	var where: String = label if label != "" else obj.get_class()
	for s: String in segs:
		if s.strip_edges() == "":
			return {"ok": false, "hint": "'%s' has an empty segment; write a path as property:sub_property, e.g. \"mesh:material:albedo_color\"." % path}
	var cur: Object = obj
	var chain: Array = []
	var prefixes: PackedStringArray = []
	for i: int in range(segs.size() - 1):
		var seg: String = segs[i]
		var info: Dictionary = property_info(cur, seg)
		var at: String = ":".join(segs.slice(0, i + 1))
		if info.is_empty():
			return {"ok": false, "hint": unknown_hint(cur, seg, at, where)}
		var v: Variant = cur.get(seg)
		if v == null:
			return {"ok": false, "null_segment": at, "hint": null_hint(info, at, path, where)}
		if typeof(v) != TYPE_OBJECT or not (v is Resource):
			var what: String = type_string(typeof(v)) if typeof(v) != TYPE_OBJECT else (v as Object).get_class()
			return {"ok": false, "hint": "'%s' on %s is a %s, not a resource: a path goes through resources only. Set '%s' as a whole value instead." % [at, where, what, at]}
		cur = v
		chain.append(v)
		prefixes.append(at)
	var last: String = segs[segs.size() - 1]
	var linfo: Dictionary = property_info(cur, last)
	if linfo.is_empty():
		return {"ok": false, "hint": unknown_hint(cur, last, path, where)}
	if RESERVED.get(last, false):
		return {"ok": false, "hint": "'%s' cannot be changed through a path ('%s' of a resource is managed by the editor)." % [path, last]}
	return {"ok": true, "target": cur, "property": last, "info": linfo, "chain": chain, "prefixes": prefixes}


## The property-list entry of [param prop] on [param obj] (not a category or group), {}
## when it has none.
static func property_info(obj: Object, prop: String) -> Dictionary:
	for info: Dictionary in obj.get_property_list():
		if str(info.get("name", "")) == prop and int(info.get("usage", 0)) & NON_PROPERTY == 0:
			return info
	return {}


## "X has no property 'y' (at 'a:y'). Did you mean 'z'? Its properties: …"
static func unknown_hint(obj: Object, prop: String, at: String, where: String) -> String:
	var names: PackedStringArray = []
	for info: Dictionary in obj.get_property_list():
		var u: int = int(info.get("usage", 0))
		if u & NON_PROPERTY == 0 and u & (PROPERTY_USAGE_EDITOR | PROPERTY_USAGE_STORAGE) != 0:
			var n: String = str(info.get("name", ""))
			if n != "script" and n != "resource_path":
				names.append(n)
	var hint: String = "%s has no property '%s'" % [obj.get_class(), prop]
	if at != prop:
		hint += " (at '%s' on %s)" % [at, where]
	hint += "." + Names.did_you_mean(prop, names)
	var shown: PackedStringArray = names.slice(0, 25)
	hint += " Its properties: %s%s." % [", ".join(shown), ", …" if names.size() > shown.size() else ""]
	return hint


## The hint for a path through a null resource property: which segment, and how to fill it.
static func null_hint(info: Dictionary, at: String, path: String, where: String) -> String:
	var cls: String = str(info.get("hint_string", "")) if int(info.get("hint", 0)) == PROPERTY_HINT_RESOURCE_TYPE else ""
	var example: String = concrete_class(cls.get_slice(",", 0)) if cls != "" else ""
	var hint: String = "'%s' is null on %s, so '%s' cannot be reached." % [at, where, path]
	if example != "":
		hint += " Create it first: set \"%s\" to an inline resource (a %s), e.g. {\"%s\": {\"type\": \"%s\", \"properties\": {}}}, then retry the path." % [at, cls, at, example]
	else:
		hint += " Set \"%s\" to a resource first ({\"type\": \"ClassName\", \"properties\": {}} or a res:// path), then retry the path." % at
	return hint


## The usual class for an abstract resource type in the examples of hints.
const USUAL := {
	"Material": "StandardMaterial3D", "BaseMaterial3D": "StandardMaterial3D", "Mesh": "BoxMesh",
	"PrimitiveMesh": "BoxMesh", "Texture2D": "GradientTexture2D", "Shape3D": "BoxShape3D",
	"Shape2D": "RectangleShape2D", "Sky": "Sky", "Curve": "Curve",
}


## [param cls] when it can be made, else its usual or first instantiable subclass.
static func concrete_class(cls: String) -> String:
	if not ClassDB.class_exists(cls):
		return cls
	if ClassDB.can_instantiate(cls):
		return cls
	if USUAL.has(cls):
		return USUAL[cls]
	var subs: Array = Array(ClassDB.get_inheriters_from_class(cls))
	subs.sort()
	for s: Variant in subs:
		if ClassDB.can_instantiate(str(s)) and ClassDB.is_class_enabled(str(s)):
			return str(s)
	return ""


## The file a change to [param chain]'s last resource is saved in, for a scene whose file
## is [param scene_file]: {kind: "scene"} (embedded in the scene, or the node itself),
## {kind: "file", file, owner: Resource} (an external .tres/.res, or a resource embedded
## in one), or {kind: "foreign", file} (embedded in another scene file).
static func storage(chain: Array, scene_file: String) -> Dictionary:
	var want: String = ""
	for i: int in range(chain.size() - 1, -1, -1):
		var r: Resource = chain[i]
		var p: String = r.resource_path
		if want != "":
			if p == want:
				return {"kind": "file", "file": want, "owner": r}
			continue
		if p == "":
			continue
		if not p.contains("::"):
			return {"kind": "file", "file": p, "owner": r}
		var f: String = p.get_slice("::", 0)
		if f == scene_file:
			return {"kind": "scene"}
		want = f
	if want != "":
		return {"kind": "foreign", "file": want}
	return {"kind": "scene"}


## Every place of the scene under [param root] (nodes it owns, and the root) where
## [param targets] (resources) are referenced, as {resource_instance_id: ["Node:prop:sub", …]}.
## Walks stored properties and nested resources (depth-bounded, each resource once per node).
static func references(root: Node, targets: Array) -> Dictionary:
	var ids: Dictionary = {}
	for t: Variant in targets:
		ids[(t as Object).get_instance_id()] = []
	var stack: Array[Node] = [root]
	while not stack.is_empty():
		var n: Node = stack.pop_back()
		if n == root or n.owner == root:
			var label: String = "." if n == root else str(root.get_path_to(n))
			_refs_in(n, label, ids, {}, 0)
		for c: Node in n.get_children():
			stack.append(c)
	return ids


static func _refs_in(obj: Object, at: String, ids: Dictionary, seen: Dictionary, depth: int) -> void:
	if depth > 6:
		return
	for info: Dictionary in obj.get_property_list():
		if int(info.get("usage", 0)) & PROPERTY_USAGE_STORAGE == 0 or int(info.get("type", 0)) != TYPE_OBJECT:
			continue
		var name: String = str(info.get("name", ""))
		if name == "script":
			continue
		var v: Variant = obj.get(name)
		if not (v is Resource):
			continue
		var r: Resource = v
		var here: String = "%s:%s" % [at, name]
		var id: int = r.get_instance_id()
		if ids.has(id):
			(ids[id] as Array).append(here)
		if seen.has(id):
			continue
		seen[id] = true
		_refs_in(r, here, ids, seen, depth + 1)


## Resolves a path whose every segment is a resource ("mesh:material"): {ok, resource,
## chain, prefixes} or {ok: false, hint}.
static func resolve_resource(obj: Object, path: String, label: String = "") -> Dictionary:
	var r: Dictionary = resolve(obj, path, label)
	if not r.get("ok", false):
		return r
	var v: Variant = (r["target"] as Object).get(str(r["property"]))
	var where: String = label if label != "" else obj.get_class()
	if v == null:
		return {"ok": false, "null_segment": path, "hint": null_hint(r["info"], path, path, where)}
	if not (v is Resource):
		return {"ok": false, "hint": "'%s' on %s is a %s, not a resource." % [path, where, type_string(typeof(v)) if typeof(v) != TYPE_OBJECT else (v as Object).get_class()]}
	var chain: Array = (r["chain"] as Array).duplicate()
	chain.append(v)
	var prefixes: PackedStringArray = (r["prefixes"] as PackedStringArray).duplicate()
	prefixes.append(path)
	return {"ok": true, "resource": v, "chain": chain, "prefixes": prefixes}
