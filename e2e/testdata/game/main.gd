extends Node2D
## The runtime sample: prints, reads the "jump" action, moves Player, raises an
## error on demand and draws a red 64x64 square at the top-left corner (on the
## blue clear colour; the green Panel fills the bottom-right quarter).

@export var speed: float = 60.0

var jumps: int = 0
var frames: int = 0
var physics_jumps: int = 0

@onready var player: Node2D = $Player


func _ready() -> void:
	print("sample: ready")
	var probe: Node = get_node_or_null("/root/GodotMcpProbe")
	if probe == null:
		print("sample: no probe")
	else:
		print("sample: probe %s" % ("listening" if EngineDebugger.has_capture("godot_mcp") else "inert"))


func _process(delta: float) -> void:
	frames += 1
	player.position.x += speed * delta
	if Input.is_action_just_pressed("jump"):
		jumps += 1
		print("sample: jump %d" % jumps)


func _physics_process(_delta: float) -> void:
	if Input.is_action_just_pressed("jump"):
		physics_jumps += 1
		print("sample: physics jump %d" % physics_jumps)


func _draw() -> void:
	draw_rect(Rect2(0, 0, 64, 64), Color(1, 0, 0))


## Called by the tests through godot_runtime_call_method.
func raise_error(message: String) -> String:
	push_error("sample: " + message)
	return "raised " + message


func add(a: int, b: int) -> int:
	return a + b


func is_jump_pressed() -> bool:
	return Input.is_action_pressed("jump")


## A real script error: stops the game in the debugger.
func break_now() -> void:
	var missing: Dictionary = {}
	print(missing["no such key"])
