@tool
extends RefCounted
## The one check every handler runs on a res:// path it takes or walks: the path must stay
## inside the project on the real filesystem.
##
## A path is first checked as text (res:// only; no ".", "..", empty or hidden segments).
## Then each of its prefixes (res://a, res://a/b, …) is resolved the way realpath() does:
## every existing segment that is a symbolic link is followed for real, relative targets
## against the folder the link really is in, absolute ones from the filesystem root,
## chains of links to the end (at most MAX_HOPS). A prefix whose real location is outside
## the project's own real directory is refused, naming the link that leads out. So a link
## to a shallower folder followed by a relative "../.." link is judged where the files
## really are, not where the text says.
##
## Walks (listings, searches, reference scans, did-you-mean hints) use walk_new() and
## walk_*_inside(): which folders and files found on the way stay inside; the links that
## lead out are skipped, never followed, and reported (walk_report). Folder moves and
## deletes refuse a folder that holds any link (links_under).
##
## A missing tail of a path (a file about to be created) is kept as written: it cannot be a
## link yet. Hard links cannot be told from ordinary files and are not detected.

## Most symbolic links followed while resolving one path (Linux's own limit is 40).
const MAX_HOPS := 40
## DirAccess.read_link() reads at most 256 bytes of a link's target: a target this long or
## longer may have been cut, so the link cannot be checked and is refused.
const MAX_TARGET_BYTES := 250

## The project directory as given (ProjectSettings) and as it really is.
static var _root_given: String = ""
static var _root_real: String = ""


## The project's real directory (links in its own path resolved), without a trailing slash
## (except for a project at the filesystem root).
static func real_root() -> String:
	var given: String = ProjectSettings.globalize_path("res://").replace("\\", "/")
	if given != _root_given or _root_real == "":
		var st: Dictionary = resolve(given)
		_root_real = str(st["path"]) if str(st["error"]) == "" else given.simplify_path()
		_root_given = given
	return _root_real


## Whether the real filesystem path [param real] is the project directory or inside it.
static func inside(real: String) -> bool:
	var root: String = real_root()
	if real == root:
		return true
	return real.begins_with(root if root.ends_with("/") else root + "/")


## Resolves the absolute filesystem path [param abs_path] like realpath():
## {path (the real path; a missing tail kept as written), error ("" | "loop")}.
static func resolve(abs_path: String) -> Dictionary:
	var p: String = abs_path.replace("\\", "/")
	var top: String = _fs_root(p)
	var st: Dictionary = {"path": top, "hops": 0, "error": ""}
	for seg: String in p.substr(top.length()).split("/"):
		_step(st, seg)
		if str(st["error"]) != "":
			break
	return st


## Why [param path] is not an acceptable project path, or "" when it is. [param allow_root]
## accepts res:// itself (a folder argument).
static func problem(path: String, allow_root: bool = false) -> String:
	if not path.begins_with("res://"):
		return "'%s' must be a res:// path (inside the project)" % path
	var rest: String = path.substr(6)
	if rest == "":
		return "" if allow_root else "name a file or folder inside the project, not res:// itself"
	if rest.contains("\\") or rest.begins_with("/"):
		return "'%s' must use forward slashes and be relative to res://" % path
	for seg: String in rest.split("/"):
		if seg == ".." or seg == "." or seg == "":
			return "'%s' is not a clean project path (no '.', '..' or empty segments)" % path
		if seg.begins_with("."):
			return "'%s' has a hidden segment '%s'; the editor ignores hidden files and folders" % [path, seg]
	return escape_problem(path)


## "" when every prefix of the clean res:// path [param path] really is inside the project;
## else why not, naming the symbolic link that leads out.
static func escape_problem(path: String) -> String:
	var rest: String = path.substr(6)
	if rest == "":
		return ""
	var st: Dictionary = {"path": real_root(), "hops": 0, "error": ""}
	var prefix: String = "res://"
	for seg: String in rest.split("/"):
		var folder: String = str(st["path"])
		prefix = prefix.path_join(seg)
		st["hops"] = 0
		_step(st, seg)
		if str(st["error"]) == "loop":
			return "'%s' goes through a loop of symbolic links at '%s'; fix or remove that link" % [path, prefix]
		if str(st["error"]) == "unreadable":
			return "'%s' goes through the symbolic link '%s', whose target godot-mcp cannot read in full (unreadable, not UTF-8, or %d bytes or longer), so it cannot tell whether it stays inside the project; replace the link with a real folder or file, or shorten its target" % [path, prefix, MAX_TARGET_BYTES]
		if not inside(str(st["path"])):
			return _leak_hint(path, prefix, folder, seg, str(st["path"]))
	return ""


## The hint for a path whose prefix [param prefix] (the name [param seg] in the real folder
## [param folder]) is a symbolic link that leads to [param real], outside the project.
static func _leak_hint(path: String, prefix: String, folder: String, seg: String, real: String) -> String:
	var target: String = ""
	var d: DirAccess = DirAccess.open(folder)
	if d == null or not d.is_link(seg):
		return "'%s' leads outside the project (to '%s'); godot-mcp only reads and writes files inside the project" % [path, real]
	target = " (-> '%s')" % d.read_link(seg)
	var head: String = "'%s' is a symbolic link%s, which" % [path, target]
	if path != prefix:
		head = "'%s' goes through the symbolic link '%s'%s, which" % [path, prefix, target]
	return "%s leads outside the project (to '%s'); godot-mcp only reads and writes files inside the project: use a path that does not go through %s, or replace the link with a real folder or file" % [head, real, prefix]


## Resolves one path segment [param seg] (a name, or a link target being expanded) under
## the real folder st.path, following links for real; updates st.path and st.error.
static func _step(st: Dictionary, seg: String) -> void:
	var pending: PackedStringArray = [seg]
	while not pending.is_empty():
		var s: String = pending[0]
		pending.remove_at(0)
		if s == "" or s == ".":
			continue
		var cur: String = st["path"]
		if s == "..":
			st["path"] = _parent(cur)
			continue
		var d: DirAccess = DirAccess.open(cur)
		if d == null and DirAccess.dir_exists_absolute(cur):
			# A folder that exists but cannot be looked into: its links cannot be checked.
			st["error"] = "unreadable"
			return
		if d == null or not d.is_link(s):
			# Not a link (or cur is missing or a file: nothing below it exists, so no link).
			st["path"] = cur.path_join(s)
			continue
		st["hops"] = int(st["hops"]) + 1
		if int(st["hops"]) > MAX_HOPS:
			st["error"] = "loop"
			return
		var target: String = d.read_link(s).replace("\\", "/")
		if target == "" or target.to_utf8_buffer().size() >= MAX_TARGET_BYTES:
			# Unreadable, not UTF-8, or possibly cut by read_link(): cannot be followed here
			# as the OS would, so it is not trusted.
			st["error"] = "unreadable"
			return
		if _is_abs(target):
			var top: String = _fs_root(target)
			st["path"] = top
			target = target.substr(top.length())
		var parts: PackedStringArray = target.split("/")
		parts.append_array(pending)
		pending = parts


## "/" for a POSIX path, "C:/" for a Windows one (the drive).
static func _fs_root(p: String) -> String:
	if p.length() >= 3 and p[1] == ":" and p[2] == "/":
		return p.substr(0, 3)
	if p.length() == 2 and p[1] == ":":
		return p + "/"
	return "/"


static func _is_abs(p: String) -> bool:
	return p.begins_with("/") or (p.length() >= 2 and p[1] == ":")


static func _parent(p: String) -> String:
	if p == _fs_root(p):
		return p
	var b: String = p.trim_suffix("/").get_base_dir()
	return b if b != "" else _fs_root(p)


## A new walk: which folders and files found on one walk over the project stay inside it.
## Pass it to walk_folder_inside() / walk_file_inside(); walk_report() says what was
## skipped. A folder or file that is (or lies under) a symbolic link leading out is refused,
## and the link is remembered once.
static func walk_new() -> Dictionary:
	# real: res:// folder (no trailing slash; "res://" for the root) -> its real path, "" when out.
	# dirs: real folder -> DirAccess on it (is_link on its entries). skipped: links leading out.
	return {"real": {}, "dirs": {}, "skipped": PackedStringArray()}


## Whether the res:// folder [param res_dir], met on walk [param w], really is inside.
static func walk_folder_inside(w: Dictionary, res_dir: String) -> bool:
	return _walk_real(w, _walk_norm(res_dir)) != ""


## Whether the res:// file [param res_file], met on walk [param w], really is inside.
static func walk_file_inside(w: Dictionary, res_file: String) -> bool:
	var f: String = _walk_norm(res_file)
	var folder: String = _walk_real(w, _walk_norm(f.get_base_dir()))
	if folder == "":
		return false
	var dirs: Dictionary = w["dirs"]
	if not dirs.has(folder):
		dirs[folder] = DirAccess.open(folder)
	var d: DirAccess = dirs[folder]
	var name: String = f.get_file()
	if d == null or not d.is_link(name):
		return true
	var st: Dictionary = {"path": folder, "hops": 0, "error": ""}
	_step(st, name)
	if str(st["error"]) == "" and inside(str(st["path"])):
		return true
	_walk_skip(w, f)
	return false


## What walk [param w] skipped, for an answer: {links_skipped, skipped_links (the first
## [param most] res:// paths of links that lead out)}.
static func walk_report(w: Dictionary, most: int = 20) -> Dictionary:
	var skipped: PackedStringArray = w["skipped"]
	return {"links_skipped": skipped.size(), "skipped_links": skipped.slice(0, most)}


static func _walk_norm(p: String) -> String:
	if p == "res://" or p == "res:" or p == "res:/":
		return "res://"
	return p.trim_suffix("/")


static func _walk_real(w: Dictionary, res_dir: String) -> String:
	var known: Dictionary = w["real"]
	if known.has(res_dir):
		return known[res_dir]
	var real: String = ""
	if res_dir == "res://":
		real = real_root()
	else:
		var pr: String = _walk_real(w, _walk_norm(res_dir.get_base_dir()))
		if pr != "":
			var st: Dictionary = {"path": pr, "hops": 0, "error": ""}
			_step(st, res_dir.get_file())
			if str(st["error"]) == "" and inside(str(st["path"])):
				real = st["path"]
			else:
				_walk_skip(w, res_dir)
	known[res_dir] = real
	return real


static func _walk_skip(w: Dictionary, p: String) -> void:
	var skipped: PackedStringArray = w["skipped"]
	if not skipped.has(p):
		skipped.append(p)
		w["skipped"] = skipped


## The symbolic links under the res:// folder [param res_dir] on disk (not followed; hidden
## entries included), as res:// paths: folder moves and deletes refuse to go through links.
static func links_under(res_dir: String, most: int = 20) -> PackedStringArray:
	var out: PackedStringArray = []
	var stack: PackedStringArray = [res_dir]
	while not stack.is_empty() and out.size() < most:
		var dir: String = stack[stack.size() - 1]
		stack.remove_at(stack.size() - 1)
		var d: DirAccess = DirAccess.open(dir)
		if d == null:
			continue
		d.include_hidden = true
		for f: String in d.get_files():
			if d.is_link(f):
				out.append(dir.path_join(f))
		for sub: String in d.get_directories():
			if d.is_link(sub):
				out.append(dir.path_join(sub))
			else:
				stack.append(dir.path_join(sub))
	return out
