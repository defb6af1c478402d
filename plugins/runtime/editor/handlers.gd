@tool
extends RefCounted
## Runtime toolset, editor side: play and stop the game, read its output and errors,
## and relay requests to the game-side probe over the editor's debugger channel.
## godot-mcp installs this folder as res://addons/godot_mcp_ext/runtime/ when the
## runtime toolset is enabled, and the addon loads it (this index) without a plugin
## toggle, as it does a third party's.
##
## The debugger plugin (res://addons/godot_mcp/runtime/debugger_plugin.gd) and the probe
## (runtime/probe.gd) stay in the core addon; this code adds the debugger plugin to the
## editor (through router.plugin) while it is loaded, and registers the probe autoload
## while the server says the runtime toolset is enabled (probe_autoload.gd).
##
## Families: play.gd, output.gd, game.gd, screenshot.gd; they share link.gd (the
## debugger channel, the probe's preconditions, one request and its bounded answer).

const CommandRouter := preload("res://addons/godot_mcp/command_router.gd")
const DebuggerPlugin := preload("res://addons/godot_mcp/runtime/debugger_plugin.gd")
const ProbeAutoload := preload("probe_autoload.gd")
const Link := preload("link.gd")
const Play := preload("play.gd")
const Output := preload("output.gd")
const Game := preload("game.gd")
const Screenshot := preload("screenshot.gd")

var _router: CommandRouter = null
var _monitor: DebuggerPlugin = null
var _probe: ProbeAutoload = null
var _families: Array[RefCounted] = []
var _link: Link = null


func setup(router: CommandRouter) -> void:
	_router = router
	_monitor = DebuggerPlugin.new()
	_probe = ProbeAutoload.new()
	_probe.setup(router)
	var link: Link = Link.new(router, _monitor, _probe)
	_link = link
	# The playtest toolset drives the game through this link.
	DebuggerPlugin.runtime_link = link
	_families = [Play.new(), Output.new(), Game.new(), Screenshot.new()]
	for f: RefCounted in _families:
		f.call("setup", link)
	if _router.plugin != null:
		_router.plugin.add_debugger_plugin(_monitor)
		# At editor start-up the bridge client is created after the extensions load;
		# hook in once it exists.
		_probe.hook_bridge.call_deferred()


func teardown() -> void:
	# Nothing left frozen or held in a game that outlives the toolset.
	if _link != null:
		_link.release_game()
		if DebuggerPlugin.runtime_link == _link:
			DebuggerPlugin.runtime_link = null
	if _monitor != null:
		_monitor.teardown()
		if _router != null and is_instance_valid(_router.plugin):
			_router.plugin.remove_debugger_plugin(_monitor)
	if _probe != null:
		_probe.teardown()


func get_commands() -> Dictionary:
	var out: Dictionary = _probe.get_commands()
	for f: RefCounted in _families:
		out.merge(f.call("get_commands") as Dictionary)
	return out
