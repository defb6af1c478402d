extends Node
## A scene whose _ready hits a script error: the game stops in the debugger
## before its first frame (the runtime e2e test plays it).


func _ready() -> void:
	var settings: Dictionary = {}
	print("break_on_start: %s" % settings["no such key"])
