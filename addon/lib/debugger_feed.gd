@tool
extends RefCounted
## The one hook of the editor's debugger panels. Every game session the editor
## runs has a ScriptEditorDebugger (Godot's Debugger panel tab, not public API);
## its "debug_data" signal hands out each message the game sends, including the
## core messages ("output", "error", "debug_enter", "stack_dump", ...) that an
## EditorDebuggerPlugin gets no capture for, and "stack_frame_selected" tells
## that the panel is about to ask for a frame's variables.
##
## This script connects to each panel once and passes what it receives to its
## subscribers in the order they subscribed: the runtime toolset's monitor
## (runtime/debugger_plugin.gd), the error feed (lib/error_feed.gd) and any
## toolset's editor code (the debugger toolset's monitor.gd). A subscriber's
## Callables get (message: String, data: Array, session: int) and (session: int);
## session is the panel's place among the editor's panels, which is the
## debugger session id. Part of the GDScript API extensions may preload
## (lib/README.md).
##
## Usage:
##   const DebuggerFeed := preload("res://addons/godot_mcp/lib/debugger_feed.gd")
##   DebuggerFeed.subscribe(_on_debug_data, _on_frame_selected)
##   DebuggerFeed.rescan() # when a session starts: connects to new panels
##   DebuggerFeed.unsubscribe(_on_debug_data, _on_frame_selected) # on teardown
## When the last subscriber leaves, every connection to the panels is removed.

## The feed in use, created by the first subscriber.
static var _feed: Relay = null


## Adds a subscriber: on_data(message, data, session) for every message of every
## game session, on_frame(session) (optional) when the panel selects a stack frame.
## Connects to the panels that exist now.
static func subscribe(on_data: Callable, on_frame: Callable = Callable()) -> void:
	if _feed == null:
		_feed = Relay.new()
	if on_data.is_valid() and not _feed.data_subs.has(on_data):
		_feed.data_subs.append(on_data)
	if on_frame.is_valid() and not _feed.frame_subs.has(on_frame):
		_feed.frame_subs.append(on_frame)
	rescan()


## Removes a subscriber's Callables; the last one out disconnects from the panels.
static func unsubscribe(on_data: Callable, on_frame: Callable = Callable()) -> void:
	if _feed == null:
		return
	_feed.data_subs.erase(on_data)
	if on_frame.is_valid():
		_feed.frame_subs.erase(on_frame)
	if _feed.data_subs.is_empty() and _feed.frame_subs.is_empty():
		_feed.unhook()
		_feed = null


## Connects to panels created since the last call (the editor adds one per new
## concurrent session). Cheap; call it when a session starts.
static func rescan() -> void:
	if _feed != null:
		_feed.hook()


## How many panels are hooked (tests and diagnostics).
static func hooked_count() -> int:
	return 0 if _feed == null else _feed.hooked.size()


## The connections and the subscribers.
class Relay:
	extends RefCounted

	var hooked: Dictionary = {} # ScriptEditorDebugger instance id -> [Callable (debug_data), Callable (stack_frame_selected)]
	var data_subs: Array[Callable] = []
	var frame_subs: Array[Callable] = []

	func hook() -> void:
		var base: Control = EditorInterface.get_base_control()
		if base == null:
			return
		var found: Array[Node] = base.find_children("*", "ScriptEditorDebugger", true, false)
		for i: int in range(found.size()):
			var d: Node = found[i]
			if hooked.has(d.get_instance_id()) or not d.has_signal("debug_data"):
				continue
			var on_data: Callable = _on_debug_data.bind(i)
			var on_frame: Callable = _on_frame_selected.bind(i)
			hooked[d.get_instance_id()] = [on_data, on_frame]
			d.connect("debug_data", on_data)
			if d.has_signal("stack_frame_selected"):
				d.connect("stack_frame_selected", on_frame)

	func unhook() -> void:
		for id: Variant in hooked.keys():
			var d: Object = instance_from_id(int(id))
			var cbs: Array = hooked[id]
			if d == null or not is_instance_valid(d):
				continue
			if d.is_connected("debug_data", cbs[0]):
				d.disconnect("debug_data", cbs[0])
			if d.has_signal("stack_frame_selected") and d.is_connected("stack_frame_selected", cbs[1]):
				d.disconnect("stack_frame_selected", cbs[1])
		hooked.clear()

	func _on_debug_data(msg: String, data: Array, session: int) -> void:
		for cb: Callable in data_subs.duplicate():
			if cb.is_valid():
				cb.call(msg, data, session)

	func _on_frame_selected(session: int) -> void:
		for cb: Callable in frame_subs.duplicate():
			if cb.is_valid():
				cb.call(session)
