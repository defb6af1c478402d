@tool
extends RefCounted
## The ui toolset's editor side: Control layout and theme commands. godot-mcp
## installs this folder as res://addons/godot_mcp_ext/ui/ when the toolset is
## enabled. Every command is cmd_ui_* and declares its class; each edit is one
## undo action.

const Common := preload("common.gd")
const Layout := preload("layout.gd")
const ThemeRead := preload("theme_read.gd")
const ThemeWrite := preload("theme_write.gd")

var _layout: Layout = null
var _read: ThemeRead = null
var _write: ThemeWrite = null


func setup(router: RefCounted) -> void:
	var c: Common = Common.new(router)
	_layout = Layout.new(c)
	_read = ThemeRead.new(c)
	_write = ThemeWrite.new(c)


func get_commands() -> Dictionary:
	return {
		"cmd_ui_get_layout": {"class": "read_only", "run": _layout.get_layout},
		"cmd_ui_set_layout": {"class": "mutating", "dry_run": true, "run": _layout.set_layout},
		"cmd_ui_theme_get": {"class": "read_only", "run": _read.theme_get},
		"cmd_ui_theme_edit": {"class": "mutating", "dry_run": true, "run": _write.theme_edit},
		"cmd_ui_set_theme_overrides": {"class": "mutating", "dry_run": true, "run": _write.set_overrides},
	}
