@tool
extends RefCounted
## What the scripts toolset's command families share (each extends this script): the
## router, the checker, path and node checks. File and node helpers come from the core
## addon's lib/, as any extension's would.

const CommandRouter := preload("res://addons/godot_mcp/command_router.gd")
const PathGuard := preload("res://addons/godot_mcp/path_guard.gd")
const Params := preload("res://addons/godot_mcp/lib/params.gd")
const Files := preload("res://addons/godot_mcp/lib/files.gd")
const Nodes := preload("res://addons/godot_mcp/lib/nodes.gd")
const Codec := preload("res://addons/godot_mcp/lib/codec.gd")

## Where the checker and its job files live (hidden from the editor's filesystem).
const WORK_DIR := "res://.godot/godot_mcp"
const MARK := "@@GODOT_MCP@@ "
## How long write/patch/attach wait in the editor for its filesystem before answering
## (the server keeps waiting with progress notifications when it is longer).
const EDITOR_WAIT_MS := 3000
## A check that takes longer is stopped.
const DEFAULT_CHECK_MS := 60000

var _router: CommandRouter = null
## The checker family (checker.gd), whose check() every family uses.
var _checker: RefCounted = null


## Wires this family to the router and the checker (called by handlers.gd).
func init_family(router: CommandRouter, checker: RefCounted) -> void:
	_router = router
	_checker = checker


## Waits (at most [param max_ms]) until the editor's filesystem knows the files.
func _wait_ready(written: PackedStringArray, removed: PackedStringArray, max_ms: int) -> bool:
	var deadline: int = Time.get_ticks_msec() + max_ms
	var tree: SceneTree = Engine.get_main_loop() as SceneTree
	while true:
		if bool(Files.sync_files(written, removed)["ready"]):
			return true
		if Time.get_ticks_msec() >= deadline:
			return false
		await tree.process_frame
	return false


# --- params -----------------------------------------------------------------------------


func _gd_path(params: Dictionary, key: String = "path") -> Dictionary:
	var bad: Dictionary = Files.check_path(params.get(key), key)
	if not bad.is_empty():
		return {"ok": false, "failure": bad}
	var p: String = params[key]
	if p.get_extension().to_lower() != "gd":
		return {"ok": false, "failure": _router.fail("VALIDATION_ERROR", "%s: '%s' is not a GDScript file; give a res://….gd path." % [key, p])}
	return {"ok": true, "path": p}


static func _in_addon(path: String) -> bool:
	return path.begins_with("res://addons/godot_mcp/")


func _class_name_of(path: String) -> String:
	var dir: EditorFileSystemDirectory = Files.efs().get_filesystem_path(path.get_base_dir())
	if dir == null:
		return ""
	var idx: int = dir.find_file_index(path.get_file())
	return dir.get_file_script_class_name(idx) if idx >= 0 else ""


## The edited scene's root, or a failure.
func _scene_root() -> Dictionary:
	var root: Node = EditorInterface.get_edited_scene_root()
	if root == null:
		return {"ok": false, "failure": _router.fail("PRECONDITION_FAILED", "No scene is open in the editor. Open one with godot_scene_open {path}.", "active_scene")}
	return {"ok": true, "root": root}


## A node of the edited scene by a path relative to its root ("." is the root), with a
## did-you-mean when there is none: {ok, node, path} or {ok: false, failure}.
func _node(root: Node, path_v: Variant) -> Dictionary:
	var r: Dictionary = Nodes.param(root, {"node": path_v}, "node")
	if not r["ok"]:
		return r
	var n: Node = r["node"]
	return {"ok": true, "node": n, "path": Nodes.rel(root, n)}


## The script path a reference names (a res:// path, or a class_name).
func _script_path(ref: String) -> Dictionary:
	if ref.begins_with("res://"):
		return _gd_path({"script": ref}, "script")
	for entry: Dictionary in ProjectSettings.get_global_class_list():
		if str(entry.get("class", "")) == ref:
			# A class the editor found behind a link that leads out of the project is refused.
			return _gd_path({"script": str(entry.get("path", ""))}, "script")
	var near: PackedStringArray = []
	for entry: Dictionary in ProjectSettings.get_global_class_list():
		var c: String = str(entry.get("class", ""))
		if c.to_lower().similarity(ref.to_lower()) >= 0.5:
			near.append(c)
	var hint: String = "No script class named '%s' in this project." % ref
	if not near.is_empty():
		hint += " Did you mean %s?" % ", ".join(near.slice(0, 3))
	hint += " Give the script's res:// path, or list classes with godot_scripts_list {only_classes: true}. A class_name written just now is registered once godot_scripts_write returned without rescan_pending."
	return {"ok": false, "failure": _router.fail("RESOURCE_NOT_FOUND", hint)}
