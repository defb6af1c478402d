@tool
extends RefCounted
## The animation toolset's editor side (installed as res://addons/godot_mcp_ext/animation/).
## Reads the AnimationPlayers / AnimationMixers of the edited scene and edits their
## libraries, animations, tracks and keys, each call one undo action.

const Util := preload("util.gd")
const Keys := preload("keys.gd")
const Read := preload("read.gd")
const Tracks := preload("tracks.gd")
const Anims := preload("anims.gd")
const TreeOps := preload("tree.gd")

var _util: RefCounted = null
var _read: RefCounted = null
var _tracks: RefCounted = null
var _anims: RefCounted = null
var _tree: RefCounted = null


func setup(router: RefCounted) -> void:
	_util = Util.new(router)
	var keys: RefCounted = Keys.new(_util)
	_tracks = Tracks.new(_util, keys)
	_read = Read.new(_util, keys)
	_read.set("track_ref_impl", Callable(_tracks, "track_ref"))
	_anims = Anims.new(_util, _tracks)
	_tree = TreeOps.new(_util)


func get_commands() -> Dictionary:
	return {
		"cmd_animation_list": {"class": "read_only", "run": _cmd_list},
		"cmd_animation_get": {"class": "read_only", "run": _cmd_get},
		"cmd_animation_seek": {"class": "read_only", "run": _cmd_seek},
		"cmd_animation_edit": {"class": "mutating", "dry_run": true, "run": _cmd_edit},
		"cmd_animation_edit_tracks": {"class": "mutating", "dry_run": true, "run": _cmd_edit_tracks},
		"cmd_animation_delete": {"class": "destructive", "dry_run": true, "run": _cmd_delete},
		"cmd_animation_tree_get": {"class": "read_only", "run": _cmd_tree_get},
		"cmd_animation_tree_edit": {"class": "mutating", "dry_run": true, "run": _cmd_tree_edit},
	}


func _cmd_list(params: Dictionary) -> Dictionary:
	return _read.call("list", params)


func _cmd_get(params: Dictionary) -> Dictionary:
	return _read.call("get_animation", params)


func _cmd_seek(params: Dictionary) -> Dictionary:
	return _read.call("seek", params)


func _cmd_edit(params: Dictionary) -> Dictionary:
	return _anims.call("edit", params)


func _cmd_edit_tracks(params: Dictionary) -> Dictionary:
	return _tracks.call("edit_tracks", params)


func _cmd_delete(params: Dictionary) -> Dictionary:
	return _anims.call("delete", params)


func _cmd_tree_get(params: Dictionary) -> Dictionary:
	return _tree.call("get_tree", params)


func _cmd_tree_edit(params: Dictionary) -> Dictionary:
	return _tree.call("edit_tree", params)
