extends Node2D
## The playtest sample (e2e/playtest_test.go): a body that falls 2 px per physics
## tick (120 px/s at 60 ticks/s), a player that moves 1 px per tick while the Right
## key is held, a line at y = 200 the body crosses, and a Go button. It counts its
## own physics ticks and prints what happened at which tick, so the tests check the
## tools against the game's own account.

signal crossed(tick: int)

const FALL_SPEED := 120.0
const LINE_Y := 200.0

var ticks: int = 0
var moved_at: int = -1
var crossed_at: int = -1
var presses: int = 0

@onready var body: Node2D = $Body
@onready var player: Node2D = $Player
@onready var button: Button = $Go


func _ready() -> void:
	button.pressed.connect(_on_go)
	var probe: Node = get_node_or_null("/root/GodotMcpProbe")
	if probe != null:
		probe.connect("frozen_changed", func(f: bool) -> void: print("playtest: frozen_changed %s at tick %d" % [f, ticks]))
	print("playtest: ready")


func _physics_process(delta: float) -> void:
	ticks += 1
	var was_above: bool = body.position.y < LINE_Y
	body.position.y += FALL_SPEED * delta
	if was_above and body.position.y >= LINE_Y:
		crossed_at = ticks
		print("playtest: crossed at tick %d y=%.2f" % [ticks, body.position.y])
		crossed.emit(ticks)
	if Input.is_key_pressed(KEY_RIGHT):
		player.position.x += 1.0
		if moved_at < 0:
			moved_at = ticks
			print("playtest: player moved at tick %d" % ticks)


func _on_go() -> void:
	presses += 1
	print("playtest: go pressed %d" % presses)


func explode() -> int:
	var d: Dictionary = {}
	return d["missing"]
