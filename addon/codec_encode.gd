@tool
extends RefCounted
## The encoding half of the value codec (value_codec.gd): any Variant as a JSON-safe
## value (see docs/values.md), and the class naming both halves use. value_codec.gd's
## encode() calls encode() here; nothing here needs the decoder.

const MAX_INLINE_DEPTH := 4

static var _double_precision: int = -1


## Encodes any Variant into a JSON-safe value (null, bool, number, string, array, object).
static func encode(v: Variant) -> Variant:
	return _enc(v, 0)


## The Script of a global class_name, or null.
static func _global_script(cls: String) -> Script:
	for entry: Dictionary in ProjectSettings.get_global_class_list():
		if str(entry.get("class", "")) == cls:
			return load(str(entry.get("path", ""))) as Script
	return null


static func _class_label(obj: Object) -> String:
	if obj == null:
		return "null"
	var scr: Variant = obj.get_script()
	if scr is Script and (scr as Script).get_global_name() != &"":
		return str((scr as Script).get_global_name())
	return obj.get_class()


# --- encoding -----------------------------------------------------------------


static func _enc(v: Variant, depth: int) -> Variant:
	match typeof(v):
		TYPE_NIL, TYPE_BOOL, TYPE_INT, TYPE_STRING:
			return v
		TYPE_FLOAT:
			return _enc_float(v)
		TYPE_STRING_NAME, TYPE_NODE_PATH:
			return str(v)
		TYPE_VECTOR2, TYPE_VECTOR2I:
			return {"x": _real(v.x), "y": _real(v.y)}
		TYPE_VECTOR3, TYPE_VECTOR3I:
			return {"x": _real(v.x), "y": _real(v.y), "z": _real(v.z)}
		TYPE_VECTOR4, TYPE_VECTOR4I, TYPE_QUATERNION:
			return {"x": _real(v.x), "y": _real(v.y), "z": _real(v.z), "w": _real(v.w)}
		TYPE_COLOR:
			var c: Color = v
			return {"r": _f32(c.r), "g": _f32(c.g), "b": _f32(c.b), "a": _f32(c.a)}
		TYPE_RECT2, TYPE_RECT2I, TYPE_AABB:
			return {"position": _enc(v.position, depth), "size": _enc(v.size, depth)}
		TYPE_TRANSFORM2D:
			var t2: Transform2D = v
			return {"x": _enc(t2.x, depth), "y": _enc(t2.y, depth), "origin": _enc(t2.origin, depth)}
		TYPE_BASIS:
			var b: Basis = v
			return {"x": _enc(b.x, depth), "y": _enc(b.y, depth), "z": _enc(b.z, depth)}
		TYPE_TRANSFORM3D:
			var t3: Transform3D = v
			return {"basis": _enc(t3.basis, depth), "origin": _enc(t3.origin, depth)}
		TYPE_PLANE:
			var p: Plane = v
			return {"normal": _enc(p.normal, depth), "d": _real(p.d)}
		TYPE_PROJECTION:
			var pr: Projection = v
			return {"x": _enc(pr.x, depth), "y": _enc(pr.y, depth), "z": _enc(pr.z, depth), "w": _enc(pr.w, depth)}
		TYPE_RID:
			return {"type": "RID", "id": (v as RID).get_id()}
		TYPE_CALLABLE:
			var cb: Callable = v
			var target: Object = cb.get_object() if cb.is_valid() else null
			return {"type": "Callable", "method": str(cb.get_method()), "object": _enc(target, MAX_INLINE_DEPTH)}
		TYPE_SIGNAL:
			var sg: Signal = v
			return {"type": "Signal", "name": str(sg.get_name()), "object": _enc(sg.get_object(), MAX_INLINE_DEPTH)}
		TYPE_OBJECT:
			return _enc_object(v, depth)
		TYPE_DICTIONARY:
			var out: Dictionary = {}
			for k: Variant in (v as Dictionary).keys():
				out[_key(k)] = _enc(v[k], depth)
			return out
		TYPE_PACKED_FLOAT32_ARRAY:
			var fa: Array = []
			for f: float in (v as PackedFloat32Array):
				fa.append(_f32(f))
			return fa
		TYPE_PACKED_BYTE_ARRAY, TYPE_PACKED_INT32_ARRAY, TYPE_PACKED_INT64_ARRAY:
			return Array(v)
	if typeof(v) == TYPE_ARRAY or _is_packed(typeof(v)):
		var arr: Array = []
		for e: Variant in v:
			arr.append(_enc(e, depth))
		return arr
	return str(v)


static func _is_packed(t: int) -> bool:
	return t >= TYPE_PACKED_BYTE_ARRAY and t <= TYPE_PACKED_VECTOR4_ARRAY


static func _key(k: Variant) -> String:
	if typeof(k) == TYPE_STRING:
		return k
	if typeof(k) == TYPE_STRING_NAME or typeof(k) == TYPE_NODE_PATH or typeof(k) == TYPE_INT:
		return str(k)
	return JSON.stringify(_enc(k, MAX_INLINE_DEPTH))


static func _enc_float(f: float) -> Variant:
	if is_nan(f):
		return "nan"
	if is_inf(f):
		return "inf" if f > 0.0 else "-inf"
	return f


## A real_t component: float32 unless the engine is built with double precision.
static func _real(x: Variant) -> Variant:
	if typeof(x) == TYPE_INT:
		return x
	if _double_precision < 0:
		_double_precision = 1 if OS.has_feature("double") else 0
	if _double_precision == 1:
		return _enc_float(x)
	return _f32(x)


## The shortest decimal that reads back as the same 32-bit float, so 0.1 stays 0.1
## instead of 0.10000000149012.
static func _f32(x: float) -> Variant:
	if not is_finite(x):
		return _enc_float(x)
	if x == 0.0:
		return 0.0
	var target: float = PackedFloat32Array([x])[0]
	var magnitude: int = int(floorf(log(absf(x)) / log(10.0)))
	for digits: int in range(6, 10):
		var decimals: int = maxi(0, digits - 1 - magnitude)
		var candidate: float = String.num(x, decimals).to_float()
		if PackedFloat32Array([candidate])[0] == target:
			return candidate
	return x


static func _enc_object(v: Variant, depth: int) -> Variant:
	if not is_instance_valid(v):
		return null
	var obj: Object = v
	var label: String = _class_label(obj)
	if obj is Node:
		return {"type": label, "path": _node_path(obj as Node)}
	if obj is Resource:
		var res: Resource = obj
		var p: String = res.resource_path
		if p != "" and not p.contains("::"):
			return {"type": label, "path": p}
		if depth >= MAX_INLINE_DEPTH:
			return {"type": label}
		var props: Dictionary = {}
		for info: Dictionary in res.get_property_list():
			var usage: int = int(info.get("usage", 0))
			var pname: String = str(info.get("name", ""))
			if (usage & PROPERTY_USAGE_STORAGE) == 0 or pname == "resource_path" or pname == "script":
				continue
			props[pname] = _enc(res.get(pname), depth + 1)
		return {"type": label, "properties": props}
	return {"type": label}


## A node's path relative to the edited scene root when it is inside it ("." for the
## root), else its absolute path. Uses EditorInterface only when it exists (editor).
static func _node_path(n: Node) -> String:
	# A running game on 4.8 lists the singleton but gets null for it.
	var ei: Object = Engine.get_singleton("EditorInterface") if Engine.has_singleton("EditorInterface") else null
	if ei != null:
		var root: Variant = ei.call("get_edited_scene_root")
		if root is Node and is_instance_valid(root):
			var r: Node = root
			if n == r:
				return "."
			if r.is_ancestor_of(n):
				return str(r.get_path_to(n))
	if n.is_inside_tree():
		return str(n.get_path())
	return str(n.name)
