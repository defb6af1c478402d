extends Node2D
## The UI sample of the playtest e2e tests (e2e/playtest_ui_test.go): buttons (one
## hidden, one disabled, one covered by a panel), a LineEdit, a slider, an ItemList,
## a scroll container and a world marker, seen through a Camera2D offset by (100, 50)
## and, in a window, the canvas_items stretch mode with a content size twice the
## window's (everything drawn at half size, aspect kept). It counts its own
## process frames and physics ticks from the start and prints what it was given, so
## the tests check the tools against the game's own account.

var frames: int = 0
var ticks: int = 0
var start_presses: int = 0


func _ready() -> void:
	if DisplayServer.get_name() != "headless":
		var root: Window = get_tree().root
		root.content_scale_size = root.size * 2
		root.content_scale_aspect = Window.CONTENT_SCALE_ASPECT_KEEP
		root.content_scale_mode = Window.CONTENT_SCALE_MODE_CANVAS_ITEMS
	$Start.pressed.connect(func() -> void:
		start_presses += 1
		print("uitest: start pressed %d" % start_presses))
	$Start.mouse_entered.connect(func() -> void: print("uitest: start hovered"))
	$Locked.pressed.connect(func() -> void: print("uitest: locked pressed"))
	$Secret.pressed.connect(func() -> void: print("uitest: secret pressed"))
	$Under.pressed.connect(func() -> void: print("uitest: under pressed"))
	$Name.text_submitted.connect(func(t: String) -> void: print("uitest: name submitted %s" % t))
	$Volume.drag_ended.connect(func(_changed: bool) -> void: print("uitest: volume %d" % roundi($Volume.value)))
	$Fruits.item_selected.connect(func(i: int) -> void: print("uitest: fruit selected %s" % $Fruits.get_item_text(i)))
	$Fruits.item_activated.connect(func(i: int) -> void: print("uitest: fruit activated %s" % $Fruits.get_item_text(i)))
	print("uitest: ready frames=%d ticks=%d" % [frames, ticks])


func _process(_delta: float) -> void:
	frames += 1
	if frames == 10:
		print("uitest: process frame 10 at tick %d" % ticks)


func _physics_process(_delta: float) -> void:
	ticks += 1


func _unhandled_input(event: InputEvent) -> void:
	var mb: InputEventMouseButton = event as InputEventMouseButton
	if mb != null and mb.pressed and mb.button_index == MOUSE_BUTTON_LEFT:
		var p: Vector2 = (make_input_local(mb) as InputEventMouseButton).position
		print("uitest: world click at %d,%d" % [roundi(p.x), roundi(p.y)])
