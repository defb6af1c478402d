@tool
extends RefCounted
## The editor's own menu commands, for what the editor API does not expose as a call
## (Undo/Redo with the editor's own choice of history, Scene > Close Scene, ...).
##
##     const EditorMenu := preload("res://addons/godot_mcp/lib/editor_menu.gd")
##     if not EditorMenu.press("Close Scene"):
##         return fail("INTERNAL_ERROR", "The editor's Close Scene command was not found.")
##
## Items are found by their untranslated text among the PopupMenus EditorNode listens
## to, and cached until their menu is freed.

static var _cache: Dictionary = {} # "<text>|<with_shortcut>" -> {menu, id}


## {menu, id} of the editor's own menu item with this (untranslated) text, or {} when
## there is none. With [param with_shortcut], only an item that has a shortcut (the
## main menu's entry, not a copy in some other menu).
static func item(text: String, with_shortcut: bool = false) -> Dictionary:
	var key: String = "%s|%s" % [text, with_shortcut]
	var cached: Dictionary = _cache.get(key, {})
	if not cached.is_empty() and is_instance_valid(cached["menu"]):
		return cached
	var base: Control = EditorInterface.get_base_control()
	for n: Node in base.find_children("*", "PopupMenu", true, false):
		var menu: PopupMenu = n as PopupMenu
		if not _from_editor_node(menu):
			continue
		for i: int in range(menu.item_count):
			if menu.get_item_text(i) == text and (not with_shortcut or menu.get_item_shortcut(i) != null):
				_cache[key] = {"menu": menu, "id": menu.get_item_id(i)}
				return _cache[key]
	return {}


## Presses the item as a click would. False when there is no such item.
static func press(text: String, with_shortcut: bool = false) -> bool:
	var found: Dictionary = item(text, with_shortcut)
	if found.is_empty():
		return false
	(found["menu"] as PopupMenu).id_pressed.emit(int(found["id"]))
	return true


static func _from_editor_node(menu: PopupMenu) -> bool:
	for c: Dictionary in menu.get_signal_connection_list("id_pressed"):
		var target: Object = (c["callable"] as Callable).get_object()
		if target != null and target.get_class() == "EditorNode":
			return true
	return false
