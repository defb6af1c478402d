extends SceneTree
## Run by the runtime e2e test through godot_runtime_run_headless (--script).


func _initialize() -> void:
	var scene: PackedScene = load("res://main.tscn")
	print("check: main.tscn loads: %s" % (scene != null))
	push_error("check: an error with a location")
	quit(4)
