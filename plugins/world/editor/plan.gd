@tool
extends RefCounted
## The edits of one command: new nodes and property sets, applied as one undo action
## by [method apply], or dropped by [method discard] (dry run, or a refusal).

const Recorder := preload("res://addons/godot_mcp/lib/undo.gd")

var adds: Array = [] # [parent, node]
var sets: Array = [] # [obj, property, value, label]
var fresh: Array = [] # objects this command made: set at once, not recorded
var warnings: PackedStringArray = []


## Adds [param n] (made by this command) under [param parent] at apply.
func add_node(parent: Node, n: Node) -> void:
	adds.append([parent, n])
	fresh.append(n)


## Marks [param o] as made by this command (its sets are not recorded).
func made(o: Object) -> Object:
	fresh.append(o)
	return o


## Sets obj.property: at once on an object this command made, else at apply.
func put(obj: Object, property: String, value: Variant, label: String) -> void:
	if fresh.has(obj):
		obj.set(property, value)
		return
	for s: Array in sets:
		if s[0] == obj and s[1] == property:
			s[2] = value
			return
	sets.append([obj, property, value, label])


## The property edits on existing objects: [{target, property, old, new}].
func changes() -> Array:
	var out: Array = []
	for s: Array in sets:
		var old: Variant = (s[0] as Object).get(s[1])
		if not _same(old, s[2]):
			out.append({"target": s[3], "property": s[1], "old": old, "new": s[2]})
	return out


static func _same(a: Variant, b: Variant) -> bool:
	return typeof(a) == typeof(b) and a == b


## Drops the plan: frees the nodes it made; nothing was applied.
func discard() -> void:
	for a: Array in adds:
		if is_instance_valid(a[1]) and (a[1] as Node).get_parent() == null:
			(a[1] as Node).free()
	adds.clear()
	sets.clear()


## Applies the plan as ONE undo action in the scene's history.
func apply(action: String, root: Node) -> void:
	var rec: Recorder = Recorder.new()
	rec.begin()
	for a: Array in adds:
		var parent: Node = a[0]
		var n: Node = a[1]
		rec.created.append(n)
		rec.do_refs.append(n)
		rec.do_call(parent, "add_child", [n, true])
		rec.do_call(n, "set_owner", [root])
		rec.undo_call(parent, "remove_child", [n])
	for s: Array in sets:
		var obj: Object = s[0]
		var old: Variant = obj.get(s[1])
		if _same(old, s[2]):
			continue
		rec.do_set(obj, s[1], s[2])
		rec.undo_set(obj, s[1], old)
	rec.commit(action, root)
