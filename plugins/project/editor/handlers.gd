@tool
extends RefCounted
## Project toolset, editor side: project settings, the input map and autoloads.
## godot-mcp installs this folder as res://addons/godot_mcp_ext/project/ when the
## project toolset is enabled, and the addon loads it (this index) without a plugin
## toggle, as it does a third party's.
##
## Every edit is ONE EditorUndoRedoManager action in the global history ("godot-mcp: …")
## whose do and undo both save project.godot, so the file follows the editor through
## undo and redo. After an edit the handler reads project.godot back (ConfigFile) and
## reports persisted: true only when the file holds what the editor holds.
## Values are typed by the value codec with each setting's own type; nothing that
## does not fit is coerced. Input events use the JSON shape of docs/project.md.
##
## Families: settings.gd, input_map.gd (events: input_events.gd), autoloads.gd; they
## share project_file.gd (save after do/undo, read-back) and common.gd.

const CommandRouter := preload("res://addons/godot_mcp/command_router.gd")
const ProjectFile := preload("project_file.gd")
const Settings := preload("settings.gd")
const InputMapCommands := preload("input_map.gd")
const Autoloads := preload("autoloads.gd")

var _families: Array[RefCounted] = []


func setup(router: CommandRouter) -> void:
	var pf: ProjectFile = ProjectFile.new()
	_families = [Settings.new(), InputMapCommands.new(), Autoloads.new()]
	for f: RefCounted in _families:
		f.call("setup", router, pf)


func get_commands() -> Dictionary:
	var out: Dictionary = {}
	for f: RefCounted in _families:
		out.merge(f.call("get_commands") as Dictionary)
	return out
