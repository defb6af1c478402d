extends SceneTree
## godot-mcp's shader check, run in a separate headless Godot by the shader
## toolset: compiles each job's shader with the renderer's ShaderCompiler (the
## dummy renderer compiles too) and prints, per job, a begin mark, the compiler's
## own error output, then an end mark with what the shader declares as JSON.
## The jobs come as a JSON file named after "--".

const MARK := "@@GODOT_MCP_SHADER "


func _init() -> void:
	var args: PackedStringArray = OS.get_cmdline_user_args()
	var jobs: Variant = JSON.parse_string(FileAccess.get_file_as_string(args[0])) if args.size() > 0 else null
	if not (jobs is Array):
		print(MARK + "done")
		quit(2)
		return
	var keep: Array = [] # the includes from memory stay cached while the jobs run
	for i: int in (jobs as Array).size():
		var job: Dictionary = jobs[i]
		var include: String = str(job.get("include_path", ""))
		if include != "":
			# The include being checked, from memory, for the shaders that include it.
			var inc: ShaderInclude = ShaderInclude.new()
			inc.code = str(job.get("include_code", ""))
			inc.take_over_path(include)
			keep.append(inc)
		var path: String = str(job.get("path", ""))
		var code: String = str(job.get("code", "")) if job.has("code") else FileAccess.get_file_as_string(path)
		print(MARK + "begin %d" % i)
		var info: Dictionary = read(code)
		var sh: Shader = Shader.new()
		if path != "":
			sh.take_over_path(path)
		sh.code = code
		var us: Array = uniforms(sh, info["decls"])
		print(MARK + "end %d " % i + JSON.stringify({"shader_type": info["shader_type"], "render_modes": info["render_modes"], "uniforms": us, "mode": sh.get_mode()}))
	print(MARK + "done")
	quit(0)

