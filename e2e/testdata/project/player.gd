class_name E2EPlayer
extends Node2D
## The player of the e2e sample project (a script class the suite describes).

signal hit(damage: int)

enum Mood { CALM, ANGRY }

const MAX_SPEED := 400.0

@export var speed: float = 120.0
@export var mood: Mood = Mood.CALM


func _process(delta: float) -> void:
	position.x += speed * delta


func take_hit(damage: int) -> void:
	hit.emit(damage)
