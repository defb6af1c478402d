@tool
extends RefCounted
## What the assets toolset's command families share: answers, an imported file's state
## (from its .import file and the editor's filesystem) and the importer's messages in
## the editor's Output panel.

const Files := preload("res://addons/godot_mcp/lib/files.gd")
const Params := preload("res://addons/godot_mcp/lib/params.gd")
const Names := preload("res://addons/godot_mcp/lib/names.gd")
const Codec := preload("res://addons/godot_mcp/lib/codec.gd")

## How long a command lets a filesystem scan already under way end before it works.
const SCAN_WAIT_MS: int = 10000
## Importer messages kept per answer.
const MAX_MESSAGES: int = 8

var router: RefCounted = null
var _log: RichTextLabel = null


func _init(r: RefCounted) -> void:
	router = r


func ok(result: Dictionary) -> Dictionary:
	return router.call("ok", result)


func fail(code: String, hint: String, required: String = "") -> Dictionary:
	return router.call("fail", code, hint, required)


## Waits (bounded) for a filesystem scan under way to end; says whether it did.
func await_no_scan() -> bool:
	var fs: EditorFileSystem = Files.efs()
	var t0: int = Time.get_ticks_msec()
	while fs.is_scanning() and Time.get_ticks_msec() - t0 < SCAN_WAIT_MS:
		await (Engine.get_main_loop() as SceneTree).process_frame
	return not fs.is_scanning()


## An imported file's state: {path, type, uid, status, message, import_path, importer}.
## status: imported (its .import is valid), failed (the importer refused it: [remap]
## valid=false), not_imported (a file the editor uses as it is), missing, or pending
## (the editor has not imported it yet).
func file_status(p: String) -> Dictionary:
	var out: Dictionary = {"path": p, "type": "", "uid": "", "status": "pending", "message": "", "import_path": "", "importer": ""}
	if not FileAccess.file_exists(p):
		out["status"] = "missing"
		return out
	var cf: ConfigFile = ConfigFile.new()
	var has_import: bool = FileAccess.file_exists(p + ".import") and cf.load(p + ".import") == OK
	var failed: bool = false
	if has_import:
		out["import_path"] = p + ".import"
		out["importer"] = str(cf.get_value("remap", "importer", ""))
		out["type"] = str(cf.get_value("remap", "type", ""))
		failed = cf.get_value("remap", "valid", true) == false
	var dir: EditorFileSystemDirectory = Files.efs().get_filesystem_path(p.get_base_dir())
	var idx: int = dir.find_file_index(p.get_file()) if dir != null else -1
	var valid: bool = false
	if idx >= 0:
		valid = dir.get_file_import_is_valid(idx)
		if str(dir.get_file_type(idx)) != "":
			out["type"] = str(dir.get_file_type(idx))
	if failed:
		out["status"] = "failed"
	elif has_import and valid and out["importer"] in ["keep", "skip"]:
		out["status"] = "not_imported"
	elif has_import and valid:
		out["status"] = "imported"
	elif not has_import and idx >= 0 and valid and out["type"] != "":
		out["status"] = "not_imported"
	out["uid"] = Files.uid_text(p)
	return out


var _log_owner: Node = null


func _find_log() -> RichTextLabel:
	if _log != null and is_instance_valid(_log):
		return _log
	var base: Control = EditorInterface.get_base_control()
	if base == null:
		return null
	var logs: Array[Node] = base.find_children("*", "EditorLog", true, false)
	if logs.is_empty():
		return null
	var labels: Array[Node] = logs[0].find_children("*", "RichTextLabel", true, false)
	if labels.is_empty():
		return null
	_log_owner = logs[0]
	_log = labels[0] as RichTextLabel
	return _log


## The Output panel's lines, every message it holds: the panel's label is threaded and
## skips a message that arrives while it lays text out (an importer's errors, sent from
## worker threads, often do), but the panel keeps every message and lays them all out
## again when its search text changes, which is what this asks for first.
func _log_lines() -> PackedStringArray:
	var rtl: RichTextLabel = _find_log()
	if rtl == null:
		return PackedStringArray()
	var boxes: Array[Node] = _log_owner.find_children("*", "LineEdit", true, false)
	if boxes.size() == 1:
		var box: LineEdit = boxes[0]
		box.text_changed.emit(box.text)
	var lines: PackedStringArray = rtl.get_parsed_text().split("\n")
	if lines.size() > 0 and lines[lines.size() - 1] == "":
		lines.resize(lines.size() - 1)
	return lines


## Where the Output panel stands now (a line count), for log_since().
func log_mark() -> int:
	return _log_lines().size()


## The importer's messages about [param path] in the Output panel's lines since
## [param mark]: the error and warning lines before its "Error importing '<path>'" line
## (back to the previous file's), else the lines that name it, else every error line.
func log_since(mark: int, path: String) -> PackedStringArray:
	var lines: PackedStringArray = _log_lines()
	if mark > lines.size():
		mark = 0 # the panel was cleared or trimmed
	var errors: PackedStringArray = []
	var naming: PackedStringArray = []
	var run: PackedStringArray = []
	var got: PackedStringArray = []
	for i: int in range(mark, lines.size()):
		# Godot 4.5+ puts a thin space (U+2009) before the ERROR:/WARNING: label; a
		# repeated line is shown once with a "(N) " count.
		var l: String = lines[i].strip_edges().lstrip("\u2009 ")
		if l.begins_with("(") and l.find(") ") > 0 and l.substr(1, l.find(") ") - 1).is_valid_int():
			l = l.substr(l.find(") ") + 2)
		if l.is_empty():
			continue
		var is_err: bool = l.begins_with("ERROR") or l.begins_with("WARNING")
		if l.contains("Error importing"):
			if l.contains(path):
				run.append(l)
				got = run
			run = PackedStringArray()
			continue
		if l.contains(path):
			naming.append(l)
		if is_err:
			errors.append(l)
			run.append(l)
	if got.is_empty():
		got = naming if not naming.is_empty() else errors
	if got.size() > MAX_MESSAGES:
		got = got.slice(got.size() - MAX_MESSAGES)
	return got


## Source extensions Image.load() reads, as the texture importers do.
const IMAGE_EXTENSIONS := ["png", "jpg", "jpeg", "webp", "svg", "bmp", "tga", "hdr", "exr", "dds", "ktx"]
## Font files FontFile.load_dynamic_font() reads, as the font importer does.
const FONT_EXTENSIONS := ["ttf", "otf", "woff", "woff2", "pfb", "pfm"]


## Why [param path] failed to import: the importer's messages in the Output panel since
## [param mark]. An importer that runs on a worker thread may have its messages miss
## the panel (Godot 4.4 drops them), so then the source is loaded again here, on the
## main thread, with the loader its importer uses (Image, AudioStreamWAV/OggVorbis/MP3,
## GLTFDocument, FontFile), and that loader's messages are the answer.
func failure_message(mark: int, path: String) -> String:
	var got: PackedStringArray = log_since(mark, path)
	if not got.is_empty():
		return "\n".join(got)
	var mark2: int = log_mark()
	var err: int = _reload(path)
	got = PackedStringArray()
	var lines: PackedStringArray = _log_lines()
	for i: int in range(mini(mark2, lines.size()), lines.size()):
		var l: String = lines[i].strip_edges().lstrip("\u2009 ")
		if l.begins_with("ERROR") or l.begins_with("WARNING"):
			got.append(l)
	if got.size() > MAX_MESSAGES:
		got = got.slice(got.size() - MAX_MESSAGES)
	if not got.is_empty():
		return "\n".join(got)
	if err != OK:
		return "loading %s failed: %s" % [path.get_file(), error_string(err)]
	return "the importer printed no reason where godot-mcp can read it; see the editor's Output"


## Loads [param path] with the loader its importer uses; the loader's error code.
func _reload(path: String) -> int:
	var ext: String = path.get_extension().to_lower()
	if ext in IMAGE_EXTENSIONS:
		# From the bytes, as the importer reads them (Image.load() of a res:// path
		# adds a warning about export).
		var loader: String = {"png": "load_png_from_buffer", "jpg": "load_jpg_from_buffer", "jpeg": "load_jpg_from_buffer", "webp": "load_webp_from_buffer",
			"svg": "load_svg_from_buffer", "bmp": "load_bmp_from_buffer", "tga": "load_tga_from_buffer", "ktx": "load_ktx_from_buffer"}.get(ext, "")
		var img: Image = Image.new()
		if loader != "" and img.has_method(loader):
			return int(img.call(loader, FileAccess.get_file_as_bytes(path)))
		return img.load(ProjectSettings.globalize_path(path))
	if ext in FONT_EXTENSIONS:
		return FontFile.new().load_dynamic_font(path)
	var cls: String = {"wav": "AudioStreamWAV", "ogg": "AudioStreamOggVorbis", "mp3": "AudioStreamMP3"}.get(ext, "")
	if cls != "" and ClassDB.class_exists(cls):
		var stream: Variant = ClassDB.instantiate(cls).call("load_from_file", path)
		return OK if stream != null else ERR_FILE_CORRUPT
	if ext in ["gltf", "glb"] and ClassDB.class_exists("GLTFDocument"):
		return int(ClassDB.instantiate("GLTFDocument").call("append_from_file", path, ClassDB.instantiate("GLTFState")))
	return OK
