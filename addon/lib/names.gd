@tool
extends RefCounted
## Did-you-mean for names an agent got slightly wrong (a bus, an effect class, a
## property, a theme item, a uniform):
##
##     const Names := preload("res://addons/godot_mcp/lib/names.gd")
##     return fail("RESOURCE_NOT_FOUND", "No bus '%s'.%s" % [want, Names.did_you_mean(want, buses)])


## The nearest of [param have] to [param want] as " Did you mean 'x'?", or "" when
## none scores [param at_least] (0..1: the better of String.similarity and one minus
## the edit distance over the longer length, case ignored).
static func did_you_mean(want: String, have: PackedStringArray, at_least: float = 0.4) -> String:
	var best: String = ""
	var best_score: float = 0.0
	var a: String = want.to_lower()
	for h: String in have:
		var b: String = h.to_lower()
		var s: float = maxf(a.similarity(b), 1.0 - float(distance(a, b)) / float(maxi(1, maxi(a.length(), b.length()))))
		if s > best_score:
			best_score = s
			best = h
	return " Did you mean '%s'?" % best if best != "" and best_score >= at_least else ""


## The edit (Levenshtein) distance between [param a] and [param b].
static func distance(a: String, b: String) -> int:
	var prev: PackedInt32Array = []
	for j: int in b.length() + 1:
		prev.append(j)
	for i: int in a.length():
		var cur: PackedInt32Array = [i + 1]
		for j: int in b.length():
			cur.append(mini(mini(prev[j + 1] + 1, cur[j] + 1), prev[j] + (0 if a[i] == b[j] else 1)))
		prev = cur
	return prev[b.length()]
