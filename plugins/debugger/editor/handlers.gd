@tool
extends RefCounted
## The debugger toolset's editor side (installed as res://addons/godot_mcp_ext/debugger/).
##
## Breakpoints live in the script editor like a human's (breakpoints.gd); the game's
## stops, stack and variables come through the editor's own debugger, watched by
## an EditorDebuggerPlugin of this toolset (monitor.gd); control.gd moves the game
## (break, step, continue) and inspect.gd reads it (variables, evaluate).
## The game side needs nothing of ours: these are Godot's own debugger messages.

const CommandRouter := preload("res://addons/godot_mcp/command_router.gd")
const Monitor := preload("monitor.gd")
const Breakpoints := preload("breakpoints.gd")
const DbgControl := preload("control.gd")
const Inspect := preload("inspect.gd")

var _router: CommandRouter = null
var _monitor: Monitor = null
var _breakpoints: Breakpoints = Breakpoints.new()
var _control: DbgControl = DbgControl.new()
var _inspect: Inspect = Inspect.new()


func setup(router: CommandRouter) -> void:
	_router = router
	_monitor = Monitor.new()
	if _router.plugin != null:
		_router.plugin.add_debugger_plugin(_monitor)
	_breakpoints.setup(router)
	_control.setup(router, _monitor)
	_inspect.setup(router, _monitor, _control)


func teardown() -> void:
	if _monitor != null:
		_monitor.teardown()
		if _router != null and is_instance_valid(_router.plugin):
			_router.plugin.remove_debugger_plugin(_monitor)
	_monitor = null


func get_commands() -> Dictionary:
	return {
		"cmd_debugger_breakpoints": {"class": "read_only", "run": _breakpoints.list},
		"cmd_debugger_set_breakpoints": {"class": "mutating", "dry_run": true, "run": _breakpoints.set_breakpoints},
		"cmd_debugger_state": {"class": "read_only", "run": _control.get_state},
		"cmd_debugger_break": {"class": "runtime", "run": _control.break_now},
		"cmd_debugger_step": {"class": "runtime", "run": _control.step},
		"cmd_debugger_continue": {"class": "runtime", "run": _control.continue_game},
		"cmd_debugger_variables": {"class": "read_only", "run": _inspect.variables},
		"cmd_debugger_evaluate": {"class": "runtime", "run": _inspect.evaluate},
	}
