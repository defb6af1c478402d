@tool
extends RefCounted
## What a shader's source says about itself, read from the text: shader_type,
## render modes and each uniform's declaration (type as written, hints, initializer).
## Shared by the editor commands and the separate compile process (appended to it).

const HINTS: Dictionary = {0: "none", 1: "range", 2: "enum", 17: "resource_type", 21: "color_no_alpha"}


## [param code] without // and /* */ comments (line breaks kept, so lines still count).
static func strip_comments(code: String) -> String:
	var re: RegEx = RegEx.create_from_string("//[^\\n]*|/\\*[\\s\\S]*?\\*/")
	var out: String = ""
	var at: int = 0
	for m: RegExMatch in re.search_all(code):
		out += code.substr(at, m.get_start() - at)
		out += "\n".repeat(m.get_string().count("\n"))
		at = m.get_end()
	return out + code.substr(at)


## {shader_type, render_modes, decls: {name: {type, hints, default}}} of [param code].
static func read(code: String) -> Dictionary:
	var src: String = strip_comments(code)
	var out: Dictionary = {"shader_type": "", "render_modes": [], "decls": {}}
	var t: RegExMatch = RegEx.create_from_string("(?m)^\\s*shader_type\\s+(\\w+)\\s*;").search(src)
	if t != null:
		out["shader_type"] = t.get_string(1)
	var modes: Array = []
	for m: RegExMatch in RegEx.create_from_string("(?m)^\\s*render_mode\\s+([^;]+);").search_all(src):
		for part: String in m.get_string(1).split(","):
			if part.strip_edges() != "":
				modes.append(part.strip_edges())
	out["render_modes"] = modes
	var re: RegEx = RegEx.create_from_string("(?:^|[;{}\\s])(?:(global|instance)\\s+)?uniform\\s+(?:(?:highp|mediump|lowp)\\s+)?(\\w+)\\s+(\\w+)\\s*(\\[[^\\]]*\\])?\\s*(?::\\s*([^=;]+?))?\\s*(?:=\\s*([^;]+?))?\\s*;")
	var decls: Dictionary = {}
	for m: RegExMatch in re.search_all(src):
		if m.get_string(1) != "":
			continue
		decls[m.get_string(3)] = {"type": m.get_string(2) + m.get_string(4).replace(" ", ""), "hints": m.get_string(5).strip_edges(), "default": m.get_string(6).strip_edges()}
	out["decls"] = decls
	return out


## The uniforms of [param shader] (compiled) as [{name, type, hint, hint_string, default?, group?}],
## types and initializers from [param decls] (read()["decls"]).
static func uniforms(shader: Shader, decls: Dictionary) -> Array:
	var out: Array = []
	var group: String = ""
	for u: Dictionary in shader.get_shader_uniform_list(true):
		var usage: int = int(u.get("usage", 0))
		if usage & PROPERTY_USAGE_GROUP:
			group = str(u["name"])
			continue
		if usage & PROPERTY_USAGE_SUBGROUP:
			continue
		var name: String = str(u["name"])
		var hs: String = str(u["hint_string"])
		if int(u["hint"]) == PROPERTY_HINT_RANGE:
			# The step is a float32 (0.001 reads 0.0010000000475): numbers to 6 places.
			var parts: PackedStringArray = hs.split(",")
			for i: int in parts.size():
				if parts[i].contains(".") and parts[i].is_valid_float():
					parts[i] = String.num(float(parts[i]), 6)
			hs = ",".join(parts)
		var d: Dictionary = decls.get(name, {})
		var e: Dictionary = {"name": name, "type": str(d.get("type", type_string(int(u["type"])))),
			"hint": str(HINTS.get(int(u["hint"]), str(int(u["hint"])))), "hint_string": hs,
			"variant_type": int(u["type"]), "hint_id": int(u["hint"])}
		if str(d.get("default", "")) != "":
			e["default"] = d["default"]
		if group != "":
			e["group"] = group
		out.append(e)
	return out
