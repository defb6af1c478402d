@tool
extends EditorPlugin
## godot-mcp editor addon: connects this editor to the godot-mcp server.
##
## On enable: registers the editor settings, builds the command router with the
## core handlers and any extension handlers under res://addons/godot_mcp_ext/,
## adds the MCP dock, and starts the bridge client. On disable: undoes all of it.

const BridgeClient := preload("bridge_client.gd")
const CommandRouter := preload("command_router.gd")
const Dock := preload("dock.gd")

const SETTING_URL := "godot_mcp/bridge_url"
const SETTING_DEBUG := "godot_mcp/debug"

var _router: CommandRouter = null
var _client: BridgeClient = null
var _dock: Dock = null
var _url: String = ""


func _enter_tree() -> void:
	_register_settings()
	var debug: bool = _debug_enabled()
	var version: String = get_plugin_version()

	_router = CommandRouter.new()
	_router.addon_version = version
	_router.debug = debug
	_router.plugin = self
	_register_builtin_handlers()
	_router.scan_extensions()

	_dock = Dock.new()
	add_control_to_dock(DOCK_SLOT_RIGHT_UL, _dock)
	_dock.set_extensions(_router.extensions())

	_client = BridgeClient.new()
	_client.name = "GodotMcpBridge"
	_client.router = _router
	_client.addon_version = version
	_client.debug = debug
	_client.status_changed.connect(_dock.set_status)
	_client.server_info_changed.connect(_dock.set_server_info)
	_router.command_finished.connect(_dock.add_command)
	_dock.reconnect_requested.connect(_client.reconnect_now)
	add_child(_client)
	_url = BridgeClient.resolve_url()
	_client.start()

	var es: EditorSettings = EditorInterface.get_editor_settings()
	if not es.settings_changed.is_connected(_on_settings_changed):
		es.settings_changed.connect(_on_settings_changed)


## Registers every handlers/<area>_handlers.gd script shipped with the addon, each
## under its area's name (core, ...). A toolset's editor side is not here: the toolset
## ships it and the server installs it under res://addons/godot_mcp_ext/<toolset>/,
## loaded by scan_extensions() or cmd_ext_load.
func _register_builtin_handlers() -> void:
	var dir: String = (get_script() as Script).resource_path.get_base_dir().path_join("handlers")
	var files: PackedStringArray = DirAccess.get_files_at(dir)
	files.sort()
	for file: String in files:
		if not file.ends_with("_handlers.gd"):
			continue
		var script: Script = load(dir.path_join(file)) as Script
		if script == null or not script.can_instantiate():
			push_warning("godot-mcp: cannot load %s; its commands are unavailable." % dir.path_join(file))
			continue
		_router.register_handlers(script.new(), file.trim_suffix("_handlers.gd"))


func _exit_tree() -> void:
	var es: EditorSettings = EditorInterface.get_editor_settings()
	if es.settings_changed.is_connected(_on_settings_changed):
		es.settings_changed.disconnect(_on_settings_changed)
	if _client != null:
		_client.stop()
		remove_child(_client)
		_client.free()
		_client = null
	if _dock != null:
		remove_control_from_docks(_dock)
		_dock.queue_free()
		_dock = null
	if _router != null:
		_router.shutdown()
		_router = null


func _register_settings() -> void:
	var es: EditorSettings = EditorInterface.get_editor_settings()
	if not es.has_setting(SETTING_URL):
		es.set_setting(SETTING_URL, "")
	es.set_initial_value(SETTING_URL, "", false)
	es.add_property_info({
		"name": SETTING_URL,
		"type": TYPE_STRING,
		"hint": PROPERTY_HINT_PLACEHOLDER_TEXT,
		"hint_string": BridgeClient.DEFAULT_URL + " (GODOT_MCP_BRIDGE_URL overrides)",
	})
	if not es.has_setting(SETTING_DEBUG):
		es.set_setting(SETTING_DEBUG, false)
	es.set_initial_value(SETTING_DEBUG, false, false)
	es.add_property_info({"name": SETTING_DEBUG, "type": TYPE_BOOL})


func _debug_enabled() -> bool:
	var es: EditorSettings = EditorInterface.get_editor_settings()
	return es.has_setting(SETTING_DEBUG) and bool(es.get_setting(SETTING_DEBUG))


func _on_settings_changed() -> void:
	var debug: bool = _debug_enabled()
	if _router != null:
		_router.debug = debug
	if _client != null:
		_client.debug = debug
		var url: String = BridgeClient.resolve_url()
		if url != _url:
			_url = url
			_client.reconnect_now()
