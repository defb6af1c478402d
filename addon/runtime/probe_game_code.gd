extends RefCounted
## The probe's half of toolsets' game code (sdk.Toolset.GameCode; docs/plugin-authoring.md).
##
## When a game starts with the probe, every res://addons/godot_mcp_ext/<toolset>/game/game.gd
## the server installed is loaded, in folder order. game.gd:
## - may have setup(api), called first with this object: api.ok(result),
##   api.fail(code, hint, required), api.probe (the probe Node), api.codec (value_codec.gd);
## - must have get_messages() -> Dictionary {name: Callable}: each Callable is
##   func(params: Dictionary) -> Dictionary answering api.ok(...) or api.fail(...), and
##   may await; it is registered as the game message "<toolset>:<name>";
## - may be a Node: it is then added under the probe (process_mode always) and freed with it;
## - may have teardown(), called when the probe leaves the tree.
## A message name is lower-case letters, digits and '_'. A key that names another prefix
## ("other:x"), a toolset folder named as the probe's own prefix, and a name already
## registered are refused with the reason, and the toolset's report says so.
##
## The probe reports {toolset: {version, messages, refused, error}} in its hello, so the
## editor refuses a message to code the game did not load (or loaded at another version).

const ValueCodec := preload("../value_codec.gd")

const EXT_ROOT := "res://addons/godot_mcp_ext"
const EXT_STAMP := ".godot_mcp_stamp.json"
const ENTRY := "game/game.gd"
## Prefixes no toolset may register messages under: the probe's own.
const RESERVED := ["godot_mcp"]

## The probe Node (for game code: its tree, frozen/stepping state).
var probe: Node = null
## value_codec.gd, for game code: codec.encode(value) gives the godot://docs/values shape.
var codec: GDScript = ValueCodec

var _reply: Callable
var _handlers: Dictionary = {} # "<toolset>:<name>" -> Callable
var _objects: Array[Object] = []
var _report: Dictionary = {} # toolset -> {version, messages, refused, error}
var _name_re: RegEx = RegEx.create_from_string("^[a-z][a-z0-9_]*$")


func _init(p: Node, reply: Callable) -> void:
	probe = p
	_reply = reply


## The probe's own answer shapes, for game code's handlers.
func ok(result: Dictionary = {}) -> Dictionary:
	return probe.call("_ok", result)


func fail(code: String, hint: String, required: String = "") -> Dictionary:
	return probe.call("_fail", code, hint, required)


## {toolset: {version, messages, refused, error}}, for the probe's hello.
func report() -> Dictionary:
	return _report.duplicate(true)


## Loads every installed toolset's game.gd.
func load_all() -> void:
	var dir: DirAccess = DirAccess.open(EXT_ROOT)
	if dir == null:
		return
	var subdirs: PackedStringArray = dir.get_directories()
	subdirs.sort()
	for toolset: String in subdirs:
		var path: String = EXT_ROOT.path_join(toolset).path_join(ENTRY)
		if FileAccess.file_exists(path):
			_load_one(toolset, path)


func _load_one(toolset: String, path: String) -> void:
	var r: Dictionary = {"version": _stamp_version(toolset), "messages": [], "refused": [], "error": ""}
	_report[toolset] = r
	if _name_re.search(toolset) == null:
		_error(toolset, "the folder name '%s' is not a toolset name" % toolset)
		return
	if RESERVED.has(toolset):
		_error(toolset, "'%s' is the probe's own message prefix; a toolset of that name cannot ship game code" % toolset)
		return
	var res: Resource = load(path)
	if not (res is GDScript) or not (res as GDScript).can_instantiate():
		_error(toolset, "'%s' has errors" % path)
		return
	var inst: Variant = (res as GDScript).new()
	if not (inst is Object) or not (inst as Object).has_method("get_messages"):
		if inst is Object and not (inst is RefCounted):
			(inst as Object).free()
		_error(toolset, "'%s' has no get_messages() -> Dictionary" % path)
		return
	var obj: Object = inst
	_objects.append(obj)
	if obj.has_method("setup"):
		obj.call("setup", self)
	if obj is Node:
		(obj as Node).process_mode = Node.PROCESS_MODE_ALWAYS
		probe.add_child(obj as Node)
	var msgs: Variant = obj.call("get_messages")
	if typeof(msgs) != TYPE_DICTIONARY:
		_error(toolset, "get_messages() in '%s' did not return a Dictionary" % path)
		return
	for k: Variant in (msgs as Dictionary).keys():
		var name: String = str(k)
		var full: String = toolset + ":" + name
		var reason: String = ""
		if name.contains(":"):
			reason = "toolset '%s' registers game messages under its own prefix only ('%s:<name>'); give the bare name" % [toolset, toolset]
		elif _name_re.search(name) == null:
			reason = "a game message name is lower-case letters, digits and '_'"
		elif typeof(msgs[k]) != TYPE_CALLABLE or not (msgs[k] as Callable).is_valid():
			reason = "its value is not a valid Callable"
		elif _handlers.has(full):
			reason = "'%s' is already registered" % full
		if reason != "":
			(r["refused"] as Array).append({"message": name, "reason": reason})
			push_warning("godot_mcp probe: refused game message '%s' of toolset '%s': %s." % [name, toolset, reason])
			continue
		_handlers[full] = msgs[k]
		(r["messages"] as Array).append(name)


func _error(toolset: String, msg: String) -> void:
	_report[toolset]["error"] = msg
	push_warning("godot_mcp probe: toolset '%s''s game code not loaded: %s." % [toolset, msg])


static func _stamp_version(toolset: String) -> String:
	var path: String = EXT_ROOT.path_join(toolset).path_join(EXT_STAMP)
	if not FileAccess.file_exists(path):
		return ""
	var parsed: Variant = JSON.parse_string(FileAccess.get_file_as_string(path))
	return str((parsed as Dictionary).get("version", "")) if typeof(parsed) == TYPE_DICTIONARY else ""


## Whether [param command] names a toolset's game message ("<toolset>:<name>").
static func is_game_message(command: String) -> bool:
	return command.contains(":")


## Runs game message [param command] and replies to request [param id] with its answer.
func dispatch(id: int, command: String, params: Dictionary) -> void:
	var toolset: String = command.get_slice(":", 0)
	var name: String = command.substr(toolset.length() + 1)
	if not _handlers.has(command):
		var r: Variant = _report.get(toolset, null)
		if r == null:
			_reply.call(id, fail("PRECONDITION_FAILED", "The running game has no game code of toolset '%s' (it started before the toolset was enabled). Play the game again (godot_runtime_play)." % toolset, "toolset_game_code"))
		elif str((r as Dictionary)["error"]) != "":
			_reply.call(id, fail("PRECONDITION_FAILED", "Toolset '%s''s game code did not load in this game: %s. Fix it, then play the game again." % [toolset, (r as Dictionary)["error"]], "toolset_game_code"))
		else:
			_reply.call(id, fail("RESOURCE_NOT_FOUND", "Toolset '%s''s game code has no message '%s' (it has: %s)." % [toolset, name, ", ".join(PackedStringArray((r as Dictionary)["messages"]))]))
		return
	var handler: Callable = _handlers[command]
	var result: Variant = await handler.call(params)
	if typeof(result) != TYPE_DICTIONARY or typeof((result as Dictionary).get("ok")) != TYPE_BOOL:
		_reply.call(id, fail("INTERNAL_ERROR", "Toolset '%s''s game message '%s' failed inside the game (a script error: see godot_runtime_get_errors) or did not answer api.ok(...) / api.fail(...)." % [toolset, name]))
		return
	_reply.call(id, result)


## Calls teardown() on the loaded game code (the probe is leaving the tree).
func release() -> void:
	for obj: Object in _objects:
		if is_instance_valid(obj) and obj.has_method("teardown"):
			obj.call("teardown")
	_objects.clear()
	_handlers.clear()
