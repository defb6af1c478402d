@tool
extends RefCounted
## Import settings of audio files (.wav, .ogg, .mp3): read from their .import file;
## set, reimport (EditorFileSystem.reimport_files) and read back from the imported
## stream. One undo action (global history) writes the old .import back and reimports.

const Common := preload("common.gd")
const EXTENSIONS: PackedStringArray = ["wav", "ogg", "mp3"]
const IMPORTERS: PackedStringArray = ["wav", "oggvorbis", "mp3"]
## Names accepted for the enum options of the WAV importer (their index is the value).
const ENUMS: Dictionary = {
	"edit/loop_mode": ["detect", "disabled", "forward", "ping_pong", "backward"],
	"compress/mode": ["pcm", "ima_adpcm", "qoa"],
}
const MAX_FILES: int = 200

var c: Common = null


func _init(common: Common) -> void:
	c = common


## {ok: true, cfg, import_path} of an imported audio file, or {ok: false, error}.
func _open(path: String) -> Dictionary:
	if not path.begins_with("res://") or path.contains(".."):
		return {"ok": false, "error": c.fail("VALIDATION_ERROR", "'%s' must be a res:// path without '..'." % path)}
	if not EXTENSIONS.has(path.get_extension().to_lower()):
		return {"ok": false, "error": c.fail("VALIDATION_ERROR", "'%s' is not an audio file these tools import (.wav, .ogg, .mp3)." % path)}
	if not FileAccess.file_exists(path):
		return {"ok": false, "error": c.fail("RESOURCE_NOT_FOUND", "No file at '%s'. List audio files with godot_resources_list." % path)}
	var ipath: String = path + ".import"
	var cfg: ConfigFile = ConfigFile.new()
	if not FileAccess.file_exists(ipath) or cfg.load(ipath) != OK or not cfg.has_section("params"):
		return {"ok": false, "error": c.fail("PRECONDITION_FAILED", "'%s' has not been imported yet (no %s). Let the editor import it: call godot_resources_rescan, then retry." % [path, ipath.get_file()], "imported")}
	var importer: String = str(cfg.get_value("remap", "importer", ""))
	if not IMPORTERS.has(importer):
		return {"ok": false, "error": c.fail("VALIDATION_ERROR", "'%s' is imported by '%s', not an audio importer (wav, oggvorbis, mp3)." % [path, importer])}
	return {"ok": true, "cfg": cfg, "import_path": ipath, "importer": importer}


static func _options(cfg: ConfigFile) -> Dictionary:
	var out: Dictionary = {}
	for k: String in cfg.get_section_keys("params"):
		out[k] = cfg.get_value("params", k)
	return out


## What the imported stream at [param path] is (as loaded; the editor's reimport
## refreshes the cached one).
static func stream_info(path: String) -> Variant:
	var s: Resource = ResourceLoader.load(path)
	var st: AudioStream = s as AudioStream
	if st == null:
		return null
	var props: Dictionary = {}
	var all: Dictionary = Common.stored(st)
	for k: String in all:
		var v: Variant = all[k]
		if v is Object or v is PackedByteArray or v is PackedFloat32Array:
			continue
		props[k] = Common.encode(v)
	return {"class": st.get_class(), "length": st.get_length(), "properties": props}


func _paths(params: Dictionary) -> Variant:
	var v: Variant = params.get("paths", [])
	if typeof(v) != TYPE_ARRAY or (v as Array).is_empty() or (v as Array).size() > MAX_FILES:
		return c.fail("VALIDATION_ERROR", "paths must list 1..%d res:// audio files." % MAX_FILES)
	var out: PackedStringArray = []
	for p: Variant in v:
		if typeof(p) != TYPE_STRING:
			return c.fail("VALIDATION_ERROR", "paths must be strings (res:// audio files).")
		if not out.has(str(p)):
			out.append(str(p))
	return out


## {paths} -> {files: [{path, importer, options, stream}]}
func get_import(params: Dictionary) -> Dictionary:
	var pv: Variant = _paths(params)
	if pv is Dictionary:
		return pv
	var files: Array = []
	for path: String in pv:
		var o: Dictionary = _open(path)
		if not o["ok"]:
			return o["error"]
		files.append({"path": path, "importer": o["importer"], "options": _options(o["cfg"]), "stream": stream_info(path)})
	return c.ok({"files": files})


## The value for option [param key] whose current value is [param cur]; {ok, value} or {ok: false, hint}.
static func _coerce(key: String, cur: Variant, v: Variant) -> Dictionary:
	match typeof(cur):
		TYPE_BOOL:
			if typeof(v) == TYPE_BOOL:
				return {"ok": true, "value": v}
			return {"ok": false, "hint": "%s takes true or false" % key}
		TYPE_INT:
			if typeof(v) == TYPE_STRING and ENUMS.has(key):
				var names: Array = ENUMS[key]
				var at: int = names.find(str(v).to_lower().replace("-", "_"))
				if at >= 0:
					return {"ok": true, "value": at}
				return {"ok": false, "hint": "%s takes one of %s (or its index)" % [key, ", ".join(PackedStringArray(names))]}
			if (typeof(v) == TYPE_INT or typeof(v) == TYPE_FLOAT) and float(v) == floorf(float(v)):
				if ENUMS.has(key) and (int(v) < 0 or int(v) >= (ENUMS[key] as Array).size()):
					return {"ok": false, "hint": "%s takes one of %s (or its index 0..%d)" % [key, ", ".join(PackedStringArray(ENUMS[key])), (ENUMS[key] as Array).size() - 1]}
				return {"ok": true, "value": int(v)}
			return {"ok": false, "hint": "%s takes an integer" % key + (" or one of %s" % ", ".join(PackedStringArray(ENUMS[key])) if ENUMS.has(key) else "")}
		TYPE_FLOAT:
			if typeof(v) == TYPE_INT or typeof(v) == TYPE_FLOAT:
				return {"ok": true, "value": float(v)}
			return {"ok": false, "hint": "%s takes a number" % key}
	if typeof(v) == typeof(cur):
		return {"ok": true, "value": v}
	return {"ok": false, "hint": "%s takes a %s" % [key, type_string(typeof(cur))]}


## {paths, options, dry_run} -> {files: [{path, importer, options, stream}], changed, undoable, persisted, dry_run}
func set_import(params: Dictionary) -> Dictionary:
	var pv: Variant = _paths(params)
	if pv is Dictionary:
		return pv
	var paths: PackedStringArray = pv
	var opts_v: Variant = params.get("options", {})
	if typeof(opts_v) != TYPE_DICTIONARY or (opts_v as Dictionary).is_empty():
		return c.fail("VALIDATION_ERROR", "options must name at least one import option, e.g. {\"edit/loop_mode\": \"forward\"} (.wav) or {\"loop\": true} (.ogg/.mp3); godot_audio_get_import lists them.")
	var opts: Dictionary = opts_v
	var dry: bool = bool(params.get("dry_run", false))
	var old_texts: PackedStringArray = []
	var new_texts: PackedStringArray = []
	var files: Array = []
	var changed: bool = false
	for path: String in paths:
		var o: Dictionary = _open(path)
		if not o["ok"]:
			return o["error"]
		var cfg: ConfigFile = o["cfg"]
		var have: PackedStringArray = cfg.get_section_keys("params")
		for k: Variant in opts:
			var key: String = str(k)
			if not have.has(key):
				return c.fail("VALIDATION_ERROR", "'%s' (importer %s) has no import option '%s'.%s Options: %s." % [path, o["importer"], key, Common.did_you_mean(key, have), ", ".join(have)])
			var cv: Dictionary = _coerce(key, cfg.get_value("params", key), opts[k])
			if not cv["ok"]:
				return c.fail("VALIDATION_ERROR", "'%s': %s, not %s." % [path, cv["hint"], JSON.stringify(opts[k])])
			if cfg.get_value("params", key) != cv["value"]:
				changed = true
			cfg.set_value("params", key, cv["value"])
		old_texts.append(FileAccess.get_file_as_string(o["import_path"]))
		new_texts.append(cfg.encode_to_text())
		files.append({"path": path, "importer": o["importer"], "options": _options(cfg), "stream": null})
	var result: Dictionary = {"files": files, "changed": changed, "dry_run": dry, "undoable": false, "persisted": false, "reason": ""}
	if dry:
		result["reason"] = "dry run: nothing was changed"
		for f: Dictionary in files:
			f["stream"] = stream_info(f["path"])
		return c.ok(result)
	if not changed:
		for f0: Dictionary in files:
			f0["stream"] = stream_info(f0["path"])
		result["persisted"] = true
		result["reason"] = "nothing to change: every option already had that value"
		return c.ok(result)
	var err: String = _write_and_reimport(paths, new_texts)
	if err != "":
		_write_and_reimport(paths, old_texts)
		return c.fail("INTERNAL_ERROR", "Reimporting failed (%s); the old import settings were put back." % err)
	for f2: Dictionary in files:
		f2["stream"] = stream_info(f2["path"])
		var cfg2: ConfigFile = ConfigFile.new()
		cfg2.load(f2["path"] + ".import")
		f2["options"] = _options(cfg2)
	var mgr: EditorUndoRedoManager = EditorInterface.get_editor_undo_redo()
	mgr.create_action("godot-mcp: set audio import options", UndoRedo.MERGE_DISABLE)
	mgr.add_do_method(self, "_write_and_reimport", paths, new_texts)
	mgr.add_undo_method(self, "_write_and_reimport", paths, old_texts)
	mgr.commit_action(false)
	result["undoable"] = true
	result["persisted"] = true
	return c.ok(result)


## Writes each .import text and reimports the files; "" or what failed.
func _write_and_reimport(paths: PackedStringArray, texts: PackedStringArray) -> String:
	for i: int in paths.size():
		var f: FileAccess = FileAccess.open(paths[i] + ".import", FileAccess.WRITE)
		if f == null:
			return "cannot write %s.import: %s" % [paths[i], error_string(FileAccess.get_open_error())]
		f.store_string(texts[i])
		f.close()
	EditorInterface.get_resource_filesystem().reimport_files(paths)
	for p: String in paths:
		var cfg: ConfigFile = ConfigFile.new()
		if cfg.load(p + ".import") != OK:
			return "%s.import is unreadable after the reimport" % p
		var dest: String = str(cfg.get_value("remap", "path", ""))
		if dest == "" or not FileAccess.file_exists(dest):
			return "the editor did not import %s (no %s)" % [p, dest]
		if ResourceLoader.load(p, "", ResourceLoader.CACHE_MODE_REPLACE) == null:
			return "%s does not load after the reimport" % p
	return ""
