extends Node2D
## The record/replay sample (e2e/playtest_replay_test.go): a player moved only by
## input, one step per physics tick: the Right key (speed px), the joypad's left
## stick x (3 px at full tilt), joypad button A (1 px up while held) and the action
## "boost" (2 px down while held, added to the InputMap here). Left clicks are
## counted with where they landed, and the last mouse motion kept. Deterministic:
## the same input on the same ticks gives the same state.

var ticks: int = 0
var clicks: int = 0
var last_click: Vector2 = Vector2.ZERO
var last_motion: Vector2 = Vector2.ZERO
## The e2e test changes it to make a replay diverge.
var speed: float = 1.0

@onready var player: Node2D = $Player


func _ready() -> void:
	if not InputMap.has_action("boost"):
		InputMap.add_action("boost")
	print("replay: ready")


func _physics_process(_delta: float) -> void:
	ticks += 1
	if Input.is_key_pressed(KEY_RIGHT):
		player.position.x += speed
	player.position.x += 3.0 * Input.get_joy_axis(0, JOY_AXIS_LEFT_X)
	if Input.is_joy_button_pressed(0, JOY_BUTTON_A):
		player.position.y -= 1.0
	if Input.is_action_pressed("boost"):
		player.position.y += 2.0


func _input(event: InputEvent) -> void:
	if event is InputEventMouseButton and event.pressed and event.button_index == MOUSE_BUTTON_LEFT:
		clicks += 1
		last_click = event.position
	elif event is InputEventMouseMotion:
		last_motion = event.position
