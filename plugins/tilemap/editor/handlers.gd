@tool
extends RefCounted
## The tilemap toolset's editor side: TileMapLayer, TileSet and GridMap commands.
## godot-mcp installs this folder as res://addons/godot_mcp_ext/tilemap/ when the
## toolset is enabled. Every command is cmd_tilemap_* and declares its class; each
## edit is one undo action.

const Common := preload("common.gd")
const Read := preload("read.gd")
const Paint := preload("paint.gd")
const Authoring := preload("tileset.gd")
const Grid := preload("gridmap.gd")
const Edit := preload("edit.gd")

var _read: Read = null
var _paint: Paint = null
var _tileset: Authoring = null
var _grid: Grid = null
var _edit: Edit = null


func setup(router: RefCounted) -> void:
	var c: Common = Common.new(router)
	_read = Read.new(c)
	_paint = Paint.new(c)
	_tileset = Authoring.new(c)
	_grid = Grid.new(c)
	_edit = Edit.new(c, _tileset)


func get_commands() -> Dictionary:
	return {
		"cmd_tilemap_list_layers": {"class": "read_only", "run": _read.list_layers},
		"cmd_tilemap_get_cells": {"class": "read_only", "run": _read.get_cells},
		"cmd_tilemap_get_tileset": {"class": "read_only", "run": _read.get_tileset},
		"cmd_tilemap_paint": {"class": "mutating", "dry_run": true, "run": _paint.paint},
		"cmd_tilemap_create_tileset": {"class": "mutating", "dry_run": true, "run": _tileset.create_tileset},
		"cmd_tilemap_edit_tileset": {"class": "mutating", "dry_run": true, "run": _edit.edit_tileset},
		"cmd_tilemap_gridmap_build_library": {"class": "mutating", "dry_run": true, "run": _grid.build_library},
		"cmd_tilemap_gridmap_get_cells": {"class": "read_only", "run": _grid.get_cells},
		"cmd_tilemap_gridmap_set_cells": {"class": "mutating", "dry_run": true, "run": _grid.set_cells},
	}
