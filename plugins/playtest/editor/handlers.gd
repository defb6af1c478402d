@tool
extends RefCounted
## The playtest toolset's editor side: cmd_playtest_eval, _step, _wait_for, _watch.
## godot-mcp installs this folder as res://addons/godot_mcp_ext/playtest/ when the
## toolset is enabled. It reaches the running game through the runtime toolset's link
## (DebuggerPlugin.runtime_link, set while the runtime toolset's editor code is loaded)
## and the probe's playtest half (res://addons/godot_mcp/runtime/playtest.gd).

const Playtest := preload("playtest.gd")

var _playtest: Playtest = null


func setup(router: RefCounted) -> void:
	_playtest = Playtest.new(router)


## Nothing left frozen or held in the game when this toolset goes away.
func teardown() -> void:
	if _playtest != null:
		_playtest.release_game()


func get_commands() -> Dictionary:
	return _playtest.get_commands()
