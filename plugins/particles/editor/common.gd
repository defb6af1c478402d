@tool
extends RefCounted
## Shared helpers of the particles toolset's editor commands: answers, the
## particles node a command names, and whether its edits are saved.

const Nodes := preload("res://addons/godot_mcp/lib/nodes.gd")

const CLASSES: PackedStringArray = ["GPUParticles3D", "GPUParticles2D", "CPUParticles3D", "CPUParticles2D"]

var router: RefCounted = null


func _init(r: RefCounted) -> void:
	router = r


func ok(result: Dictionary) -> Dictionary:
	return router.call("ok", result)


func fail(code: String, hint: String, required: String = "") -> Dictionary:
	return router.call("fail", code, hint, required)


func no_scene() -> Dictionary:
	return fail("PRECONDITION_FAILED", "No scene is open in the editor. Open one with godot_scene_open (or create one with godot_scene_create), then retry.", "active_scene")


static func is_particles(n: Node) -> bool:
	return n is GPUParticles3D or n is GPUParticles2D or n is CPUParticles3D or n is CPUParticles2D


## The particles node params[key] names: {root, node} or {error}.
func particles_param(params: Dictionary, key: String = "node") -> Dictionary:
	var root: Node = EditorInterface.get_edited_scene_root()
	if root == null:
		return {"error": no_scene()}
	var r: Dictionary = Nodes.param(root, params, key)
	if not r["ok"]:
		return {"error": r["failure"]}
	var n: Node = r["node"]
	if not is_particles(n):
		var hint: String = "'%s' is a %s, not a particles node (%s)." % [Nodes.rel(root, n), n.get_class(), ", ".join(CLASSES)]
		var found: Array = []
		for c: Node in n.get_children():
			if is_particles(c):
				found.append(Nodes.rel(root, c))
		if not found.is_empty():
			hint += " Did you mean its child '%s'?" % found[0]
		else:
			hint += " Create one with godot_particles_create, or list them with godot_particles_get."
		return {"error": fail("VALIDATION_ERROR", hint)}
	return {"root": root, "node": n}


## {persisted, reason} of edits to [param n] (lib/nodes.gd).
static func persisted(root: Node, n: Node) -> Dictionary:
	return Nodes.persist_info(root, n)


static func walk(n: Node, out: Array[Node]) -> void:
	out.append(n)
	for c: Node in n.get_children():
		walk(c, out)
