@tool
extends RefCounted
## cmd_runtime_screenshot: the game's viewport (through the probe) or one of the
## editor's, as PNG.

const CommandRouter := preload("res://addons/godot_mcp/command_router.gd")
const DebuggerPlugin := preload("res://addons/godot_mcp/runtime/debugger_plugin.gd")
const Link := preload("link.gd")

var _router: CommandRouter = null
var _monitor: DebuggerPlugin = null
var _link: Link = null


func setup(link: Link) -> void:
	_link = link
	_router = link.router
	_monitor = link.monitor


func get_commands() -> Dictionary:
	return {
		"cmd_runtime_screenshot": {"class": "read_only", "run": screenshot},
	}


## {target: "game"|"editor"|"editor_2d"|"editor_3d", max_size?: int}
## -> {target, width, height, original_width, original_height, png_base64}
func screenshot(params: Dictionary) -> Dictionary:
	var target: String = str(params.get("target", "game")) if params.get("target") != null else "game"
	if not ["game", "editor", "editor_2d", "editor_3d"].has(target):
		return _router.fail("VALIDATION_ERROR", "target must be \"game\", \"editor\", \"editor_2d\" or \"editor_3d\".")
	var max_size: Variant = Link.int_param(params, "max_size", 0, 0, 16384)
	if max_size == null:
		return _router.fail("VALIDATION_ERROR", "max_size must be an integer from 0 (full size) to 16384.")
	if target == "game":
		var r: Dictionary = await _link.ask("screenshot", {"max_size": max_size}, Link.DEFAULT_TIMEOUT_MS)
		if not r.get("ok", false):
			return r
		var res: Dictionary = r["result"]
		var png: PackedByteArray = res.get("png", PackedByteArray())
		return _router.ok({
			"target": "game",
			"width": int(res.get("width", 0)),
			"height": int(res.get("height", 0)),
			"original_width": int(res.get("original_width", 0)),
			"original_height": int(res.get("original_height", 0)),
			"png_base64": Marshalls.raw_to_base64(png),
		})
	if DisplayServer.get_name() == "headless":
		return _router.fail("PRECONDITION_FAILED", "The editor runs headless (no display, no renderer), so it draws nothing to capture. Run the editor with a display (or a virtual one: xvfb-run godot --rendering-driver opengl3 --editor ...) to take editor screenshots.")
	var vp: Viewport = null
	match target:
		"editor":
			vp = EditorInterface.get_base_control().get_viewport()
		"editor_2d":
			vp = EditorInterface.get_editor_viewport_2d()
		"editor_3d":
			vp = EditorInterface.get_editor_viewport_3d(0)
	if vp == null:
		return _router.fail("INTERNAL_ERROR", "The editor has no %s viewport to capture." % target)
	# Make the editor draw a fresh frame (it idles in low-processor mode), bounded.
	EditorInterface.get_base_control().queue_redraw()
	var drawn: Array[bool] = [false]
	var mark: Callable = func() -> void: drawn[0] = true
	RenderingServer.frame_post_draw.connect(mark, CONNECT_ONE_SHOT)
	var deadline: int = Time.get_ticks_msec() + 2000
	while not drawn[0] and Time.get_ticks_msec() < deadline:
		await _link.tree().process_frame
	if RenderingServer.frame_post_draw.is_connected(mark):
		RenderingServer.frame_post_draw.disconnect(mark)
	var img: Image = vp.get_texture().get_image() if vp.get_texture() != null else null
	if img == null or img.is_empty():
		return _router.fail("PRECONDITION_FAILED", "The editor's %s viewport returned no image (rendering driver '%s'); nothing was captured." % [target, RenderingServer.get_current_rendering_driver_name()])
	var original: Vector2i = img.get_size()
	if int(max_size) > 0 and maxi(original.x, original.y) > int(max_size):
		var s: float = float(max_size) / float(maxi(original.x, original.y))
		img.resize(maxi(1, roundi(original.x * s)), maxi(1, roundi(original.y * s)), Image.INTERPOLATE_BILINEAR)
	var png2: PackedByteArray = img.save_png_to_buffer()
	return _router.ok({
		"target": target,
		"width": img.get_width(),
		"height": img.get_height(),
		"original_width": original.x,
		"original_height": original.y,
		"png_base64": Marshalls.raw_to_base64(png2),
	})
