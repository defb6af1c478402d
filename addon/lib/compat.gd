@tool
extends RefCounted
## The one place where the addon and the toolsets' editor code tell Godot
## versions apart (docs/godot-versions.md lists every difference):
##
##     const Compat := preload("res://addons/godot_mcp/lib/compat.gd")
##     if Compat.has("editor_dock"):
##         ...
##
## Each feature names the first Godot version (major.minor) that has it and a
## probe that holds on an engine exactly when it has it: a class, a method or
## a property in ClassDB. Code asks has(); no other file compares versions.
## The e2e suite runs mismatches() on every engine it tests, so a feature whose
## version is wrong fails there (TestCompatTableMatchesEngine).
##
## Prefer a public API that exists in every supported version: add a feature
## here only where none does.

## name → [since "4.N", probe kind ("class", "method", "property"), class, member]
const FEATURES := {
	# EditorDock (docks as objects, EditorPlugin.add_dock) replaced
	# add_control_to_dock, which stays as a deprecated wrapper; EditorLog is an
	# EditorDock from then on.
	"editor_dock": ["4.6", "class", "EditorDock", ""],
	# Logger (OS.add_logger): scripts receive every error the engine prints, with
	# file, line and script backtraces. Before it, the error feed reads the
	# editor's Output panel (lib/error_feed.gd).
	"logger": ["4.5", "class", "Logger", ""],
}


## The res:// paths of the scenes open in the editor, in tab order ("" for one
## never saved). Godot 4.8 answers get_open_scenes() from its own list of paths,
## which EditorInterface.save_scene_as() does not update (the tab keeps the
## old path until the editor is restarted) and lists an empty tab too; the roots'
## scene_file_path, which get_open_scenes() returned up to 4.7, is right on every
## engine. Use this,
## never EditorInterface.get_open_scenes().
static func open_scenes() -> PackedStringArray:
	if not EditorInterface.has_method("get_open_scene_roots"):
		return EditorInterface.get_open_scenes()
	# 4.8 also lists a tab with no scene (left when the last one closes) as "".
	var paths: PackedStringArray = []
	for r: Node in EditorInterface.call("get_open_scene_roots"):
		paths.append(r.scene_file_path)
	return paths


## The tab of the open scene [param path] when the editor's own lookup by path would
## miss it (Godot 4.8 after a save-as: open_scene_from_path() would load the file
## again into a new tab), else -1. Switch to such a scene by its tab.
static func stale_tab(path: String) -> int:
	if EditorInterface.get_open_scenes().has(path):
		return -1
	return open_scenes().find(path)


## Call before making the open scene [param path] the edited one. Godot 4.8-dev's
## script list connects every node of an edited scene's child_entered_tree to a
## deferred call bound to the scene's root (ScriptEditor::_connect_to_scene_recursive,
## raw pointers); switching to a tab whose instances changed re-adds its old root to
## the tree (queuing those calls) and then replaces and frees that root
## (EditorData::reload_scene_from_memory), and the queued calls crash the editor.
## Dropping those connections first is harmless: the script list makes them again
## for the scene it switches to. Nothing to do where get_open_scene_roots() does not
## exist (4.4: no such connections).
static func before_scene_switch(path: String) -> void:
	if not EditorInterface.has_method("get_open_scene_roots"):
		return
	var idx: int = open_scenes().find(path)
	var roots: Array = EditorInterface.call("get_open_scene_roots")
	if idx < 0 or idx >= roots.size() or roots[idx] == EditorInterface.get_edited_scene_root():
		return
	var stack: Array[Node] = [roots[idx] as Node]
	while not stack.is_empty():
		var n: Node = stack.pop_back()
		for c: Dictionary in n.get_signal_connection_list("child_entered_tree"):
			var cb: Callable = c["callable"]
			if cb.get_object() is ScriptEditor:  # 4.8 has two (one per script editor window)
				n.disconnect("child_entered_tree", cb)
		for child: Node in n.get_children(true):
			stack.append(child)


## Whether the running engine has [param feature] (by its version).
static func has(feature: String) -> bool:
	var f: Array = FEATURES.get(feature, [])
	assert(not f.is_empty(), "compat.gd: unknown feature " + feature)
	return at_least(str(f[0]))


## Whether the running engine is [param version] ("4.6") or newer.
static func at_least(version: String) -> bool:
	var v: Dictionary = Engine.get_version_info()
	var want: PackedStringArray = version.split(".")
	var major: int = int(want[0])
	var minor: int = int(want[1]) if want.size() > 1 else 0
	if int(v["major"]) != major:
		return int(v["major"]) > major
	return int(v["minor"]) >= minor


## Whether the probe of a FEATURES entry holds on the running engine.
static func probe(entry: Array) -> bool:
	var cls: String = str(entry[2])
	var member: String = str(entry[3])
	if not ClassDB.class_exists(cls):
		return false
	match str(entry[1]):
		"class":
			return true
		"method":
			return ClassDB.class_has_method(cls, member, true) or ClassDB.class_has_method(cls, member)
		"property":
			for p: Dictionary in ClassDB.class_get_property_list(cls):
				if str(p["name"]) == member:
					return true
			return false
	return false


## The features of [param table] (FEATURES by default) whose version and
## probe disagree on the running engine, each as
## {feature, since, by_version, by_probe}.
static func mismatches(table: Dictionary = FEATURES) -> Array:
	var out: Array = []
	for name: String in table:
		var entry: Array = table[name]
		var by_version: bool = at_least(str(entry[0]))
		var by_probe: bool = probe(entry)
		if by_version != by_probe:
			out.append({"feature": name, "since": str(entry[0]), "by_version": by_version, "by_probe": by_probe})
	return out
