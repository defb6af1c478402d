@tool
extends RefCounted
## Pure helpers the project toolset's command families share: suggestions, small
## param readers, and comparisons of setting values.

const PROJECT_FILE := "res://project.godot"
const MAX_LIMIT := 2000
const MAX_SUGGESTIONS := 3


## True when [param value] is what Godot treats as the setting's default, so that
## ProjectSettings.save() leaves it out of project.godot (Variant ==, as Godot does).
static func equals_default(key: String, value: Variant) -> bool:
	var default_value: Variant = ProjectSettings.property_get_revert(key)
	return default_value != null and typeof(default_value) == typeof(value) and default_value == value


static func same(a: Variant, b: Variant) -> bool:
	return typeof(a) == typeof(b) and a == b


## Compares two JSON values (encode() output); numbers within float rounding when
## [param loose] (project.godot stores floats with 6 significant digits).
static func same_json(a: Variant, b: Variant, loose: bool = false) -> bool:
	var ta: int = typeof(a)
	var tb: int = typeof(b)
	if (ta == TYPE_INT or ta == TYPE_FLOAT) and (tb == TYPE_INT or tb == TYPE_FLOAT):
		var fa: float = float(a)
		var fb: float = float(b)
		if not loose:
			return fa == fb
		return absf(fa - fb) <= 1e-5 * maxf(1.0, maxf(absf(fa), absf(fb)))
	if ta != tb:
		return false
	if ta == TYPE_DICTIONARY:
		var da: Dictionary = a
		var db: Dictionary = b
		if da.size() != db.size():
			return false
		for k: Variant in da.keys():
			if not db.has(k) or not same_json(da[k], db[k], loose):
				return false
		return true
	if ta == TYPE_ARRAY:
		var aa: Array = a
		var ab: Array = b
		if aa.size() != ab.size():
			return false
		for i: int in range(aa.size()):
			if not same_json(aa[i], ab[i], loose):
				return false
		return true
	return a == b


## Up to three candidates closest to [param wanted]: String.similarity (bigrams), with a
## bonus for sharing the last path segment; for short lists also the edit distance with
## transpositions, which bigrams miss ("jmup" -> "jump").
static func suggest(wanted: String, candidates: Array) -> PackedStringArray:
	var lower: String = wanted.to_lower()
	var last: String = lower.get_file()
	var by_edits: bool = candidates.size() <= 500
	var scored: Array = []
	for c: Variant in candidates:
		var name: String = str(c)
		var nl: String = name.to_lower()
		var score: float = nl.similarity(lower)
		if by_edits and absi(nl.length() - lower.length()) <= 3:
			var longest: int = maxi(nl.length(), lower.length())
			if longest > 0:
				score = maxf(score, 1.0 - float(edit_distance(nl, lower)) / float(longest))
		if last != "" and nl.get_file() == last:
			score += 0.3
		elif last.length() >= 3 and nl.get_file().contains(last):
			score += 0.15
		if score >= 0.45:
			scored.append([score, name])
	scored.sort_custom(func(a: Array, b: Array) -> bool: return float(a[0]) > float(b[0]) or (float(a[0]) == float(b[0]) and str(a[1]) < str(b[1])))
	var out: PackedStringArray = []
	for s: Array in scored.slice(0, MAX_SUGGESTIONS):
		out.append(str(s[1]))
	return out


## Optimal string alignment distance: insertions, deletions, substitutions and swaps of
## two neighbouring characters each cost 1.
static func edit_distance(a: String, b: String) -> int:
	var n: int = a.length()
	var m: int = b.length()
	var prev2: PackedInt32Array = []
	var prev: PackedInt32Array = []
	prev.resize(m + 1)
	for j: int in range(m + 1):
		prev[j] = j
	for i: int in range(1, n + 1):
		var cur: PackedInt32Array = []
		cur.resize(m + 1)
		cur[0] = i
		for j: int in range(1, m + 1):
			var cost: int = 0 if a.unicode_at(i - 1) == b.unicode_at(j - 1) else 1
			var best: int = mini(mini(prev[j] + 1, cur[j - 1] + 1), prev[j - 1] + cost)
			if i > 1 and j > 1 and a.unicode_at(i - 1) == b.unicode_at(j - 2) and a.unicode_at(i - 2) == b.unicode_at(j - 1):
				best = mini(best, prev2[j - 2] + 1)
			cur[j] = best
		prev2 = prev
		prev = cur
	return prev[m]


static func quoted(names: PackedStringArray) -> String:
	var q: PackedStringArray = []
	for n: String in names:
		q.append("'%s'" % n)
	return " or ".join(q)


## A short list of keys for an action name.
static func summary(keys: Array) -> String:
	if keys.size() <= 2:
		return ", ".join(PackedStringArray(keys))
	return "%s, %s and %d more" % [keys[0], keys[1], keys.size() - 2]


## An integer from a JSON number; null otherwise.
static func as_int(v: Variant) -> Variant:
	if typeof(v) == TYPE_INT:
		return v
	if typeof(v) == TYPE_FLOAT and is_finite(v as float) and (v as float) == floorf(v as float):
		return int(v)
	return null


## A boolean param: true only for a JSON true.
static func flag(params: Dictionary, key: String) -> bool:
	var v: Variant = params.get(key, false)
	return typeof(v) == TYPE_BOOL and v


static func int_param(params: Dictionary, key: String, default_value: int) -> Variant:
	if not params.has(key) or params[key] == null:
		return default_value
	return as_int(params[key])


## The offset a cursor stands for (0 without one), or null for a malformed cursor.
static func cursor(params: Dictionary) -> Variant:
	var c: Variant = params.get("cursor", "")
	if c == null:
		return 0
	if typeof(c) != TYPE_STRING:
		return null
	if (c as String) == "":
		return 0
	if not (c as String).is_valid_int() or (c as String).to_int() < 0:
		return null
	return (c as String).to_int()
