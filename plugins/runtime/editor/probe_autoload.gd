@tool
extends RefCounted
## The runtime toolset's probe autoload (res://addons/godot_mcp/runtime/probe.gd, part
## of the core addon): registered in project.godot while the server says the runtime
## toolset is enabled (cmd_server_hello / cmd_toolsets_update, which the bridge client
## keeps in server_info), removed when it is disabled or this code is unloaded, putting
## project.godot back byte for byte when nobody else changed it meanwhile; and
## cmd_runtime_set_probe, to do it by hand.

const CommandRouter := preload("res://addons/godot_mcp/command_router.gd")

const PROBE_NAME := "GodotMcpProbe"
const PROBE_SETTING := "autoload/" + PROBE_NAME
## The game-side probe ships with the core addon, beside the debugger plugin it talks to.
const PROBE_SCRIPT := "res://addons/godot_mcp/runtime/probe.gd"
const PROJECT_FILE := "res://project.godot"
const BACKUP_FILE := "res://.godot/godot_mcp/project_godot_before_probe.json"

## Whether the server last said the runtime toolset is enabled.
var runtime_enabled: bool = false
var _router: CommandRouter = null
var _bridge: Node = null


func setup(router: CommandRouter) -> void:
	_router = router


func get_commands() -> Dictionary:
	return {
		"cmd_runtime_set_probe": {"class": "mutating", "run": set_probe},
	}


## Stops following the server and removes the probe autoload.
func teardown() -> void:
	if is_instance_valid(_bridge) and _bridge.is_connected("server_info_changed", _on_server_info):
		_bridge.disconnect("server_info_changed", _on_server_info)
	_bridge = null
	set_registered(false)


## Follows the server's enabled toolsets: the bridge client keeps them in server_info
## and emits server_info_changed on cmd_server_hello and cmd_toolsets_update.
func hook_bridge() -> void:
	if _router == null or not is_instance_valid(_router.plugin):
		return
	for c: Node in _router.plugin.get_children():
		if c.has_signal("server_info_changed") and typeof(c.get("server_info")) == TYPE_DICTIONARY:
			_bridge = c
			c.connect("server_info_changed", _on_server_info)
			_on_server_info(c.get("server_info"))
			return


func _on_server_info(info: Dictionary) -> void:
	if not info.has("enabled_toolsets"):
		return
	var enabled: bool = false
	for t: Variant in info["enabled_toolsets"]:
		if str(t) == "runtime":
			enabled = true
	runtime_enabled = enabled
	set_registered(enabled)


func probe_path() -> String:
	return PROBE_SCRIPT


func registered() -> bool:
	return str(ProjectSettings.get_setting(PROBE_SETTING, "")) == "*" + probe_path()


## Adds or removes the probe autoload in project.godot. Directly through
## ProjectSettings (not EditorPlugin.add_autoload_singleton) so it never lands in the
## user's undo history. Returns "" or why it failed.
func set_registered(want: bool) -> String:
	var value: String = "*" + probe_path()
	var current: Variant = ProjectSettings.get_setting(PROBE_SETTING, null)
	if want:
		if current != null and str(current) == value:
			return ""
		if not FileAccess.file_exists(probe_path()):
			return "the probe script %s is missing; reinstall the addon (godot-mcp addon install)" % probe_path()
		var before: String = read_text(PROJECT_FILE)
		ProjectSettings.set_setting(PROBE_SETTING, value)
		var err: Error = ProjectSettings.save()
		if err != OK:
			ProjectSettings.set_setting(PROBE_SETTING, current)
			return "saving project.godot failed (%s)" % error_string(err)
		if current == null:
			_write_backup(before, read_text(PROJECT_FILE))
		return ""
	if current == null or str(current) != value:
		return "" # not ours (or already gone)
	var now: String = read_text(PROJECT_FILE)
	ProjectSettings.set_setting(PROBE_SETTING, null)
	var err2: Error = ProjectSettings.save()
	if err2 != OK:
		return "saving project.godot failed (%s)" % error_string(err2)
	# Nobody touched project.godot since the probe was added: put the original bytes back
	# (Godot's own save may format a hand-written file differently).
	var backup: Dictionary = _read_backup()
	if not backup.is_empty() and str(backup.get("after", "")) == now and str(backup.get("before", "")) != "":
		write_text(PROJECT_FILE, str(backup["before"]))
	DirAccess.remove_absolute(ProjectSettings.globalize_path(BACKUP_FILE))
	return ""


static func read_text(path: String) -> String:
	var f: FileAccess = FileAccess.open(path, FileAccess.READ)
	if f == null:
		return ""
	return f.get_as_text()


static func write_text(path: String, text: String) -> void:
	var f: FileAccess = FileAccess.open(path, FileAccess.WRITE)
	if f != null:
		f.store_string(text)


func _write_backup(before: String, after: String) -> void:
	DirAccess.make_dir_recursive_absolute(ProjectSettings.globalize_path(BACKUP_FILE.get_base_dir()))
	write_text(BACKUP_FILE, JSON.stringify({"before": before, "after": after}))


func _read_backup() -> Dictionary:
	if not FileAccess.file_exists(BACKUP_FILE):
		return {}
	var parsed: Variant = JSON.parse_string(read_text(BACKUP_FILE))
	return parsed if typeof(parsed) == TYPE_DICTIONARY else {}


## {registered: bool} -> {registered, changed, path}: registers or removes the probe
## by hand (the server's toolset pushes do this automatically; tests and tools use it).
func set_probe(params: Dictionary) -> Dictionary:
	if typeof(params.get("registered")) != TYPE_BOOL:
		return _router.fail("VALIDATION_ERROR", "registered must be true or false.")
	var before: bool = registered()
	var why: String = set_registered(bool(params["registered"]))
	if why != "":
		return _router.fail("INTERNAL_ERROR", "Could not change the probe autoload: %s." % why)
	return _router.ok({"registered": registered(), "changed": before != registered(), "path": probe_path()})
