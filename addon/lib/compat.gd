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
## old path until the editor is restarted); the roots' scene_file_path, which
## get_open_scenes() returned up to 4.7, is right on every engine. Use this,
## never EditorInterface.get_open_scenes().
static func open_scenes() -> PackedStringArray:
	var paths: PackedStringArray = EditorInterface.get_open_scenes()
	if not EditorInterface.has_method("get_open_scene_roots"):
		return paths
	var roots: Array = EditorInterface.call("get_open_scene_roots")
	if roots.size() != paths.size():
		return paths  # a tab without a root (still loading): keep the tab order
	for i: int in roots.size():
		paths[i] = (roots[i] as Node).scene_file_path
	return paths


## The tab of the open scene [param path] when the editor's own lookup by path would
## miss it (Godot 4.8 after a save-as: open_scene_from_path() would load the file
## again into a new tab), else -1. Switch to such a scene by its tab.
static func stale_tab(path: String) -> int:
	if EditorInterface.get_open_scenes().has(path):
		return -1
	return open_scenes().find(path)


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
