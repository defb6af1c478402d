@tool
extends RefCounted
## The audio toolset's editor side: the audio bus layout (AudioServer, saved to the
## project's default bus layout file as the editor's Audio panel does) and the import
## settings of audio files. godot-mcp installs this folder as
## res://addons/godot_mcp_ext/audio/ when the toolset is enabled. Every command is
## cmd_audio_* and declares its class; each edit is one undo action.

const Common := preload("common.gd")
const Buses := preload("buses.gd")
const Imports := preload("imports.gd")
const Assign := preload("assign.gd")

var _buses: Buses = null
var _imports: Imports = null
var _assign: Assign = null


func setup(router: RefCounted) -> void:
	var c: Common = Common.new(router)
	_buses = Buses.new(c)
	_imports = Imports.new(c)
	_assign = Assign.new(c)


func get_commands() -> Dictionary:
	return {
		"cmd_audio_get_buses": {"class": "read_only", "run": _buses.get_buses},
		"cmd_audio_edit_buses": {"class": "mutating", "dry_run": true, "run": _buses.edit_buses},
		"cmd_audio_get_import": {"class": "read_only", "run": _imports.get_import},
		"cmd_audio_set_import": {"class": "mutating", "dry_run": true, "run": _imports.set_import},
		"cmd_audio_assign": {"class": "mutating", "dry_run": true, "run": _assign.assign},
	}
