extends SceneTree
## Runs the path guard against a real Godot and real symbolic links (no editor needed):
##   godot --headless --path PROJECT -s res://path_guard_test.gd
## PROJECT must contain the addon at res://addons/godot_mcp/ and the link layout that
## tools/godot-check.sh plants in res://linktest/ (links out of the project to a sibling
## folder, links inside it). Prints one line per failure and "N passed, N failed"; exits 1
## on failure.

const PathGuard := preload("res://addons/godot_mcp/path_guard.gd")

var _passed: int = 0
var _failed: int = 0


func _init() -> void:
	_refused()
	_allowed()
	_walks()
	print("path guard: %d passed, %d failed" % [_passed, _failed])
	quit(1 if _failed > 0 else 0)


func _check(label: String, ok: bool, detail: String = "") -> void:
	if ok:
		_passed += 1
	else:
		_failed += 1
		printerr("FAIL %s %s" % [label, detail])


func _refused() -> void:
	# path -> the link the refusal must name
	var cases: Dictionary = {
		"res://linktest/rel/secret.txt": "res://linktest/rel",
		"res://linktest/abs/secret.txt": "res://linktest/abs",
		"res://linktest/chain1/secret.txt": "res://linktest/chain1",
		"res://linktest/deep/a/up/esc/secret.txt": "res://linktest/deep/a/up/esc",
		"res://linktest/deep/a/up/esc/new/file.tres": "res://linktest/deep/a/up/esc",
		"res://linktest/leak.txt": "res://linktest/leak.txt",
		"res://linktest/long/secret.txt": "res://linktest/long",
		"res://linktest/loop1/x.txt": "res://linktest/loop1",
		"res://linktest/rel": "res://linktest/rel",
	}
	for p: String in cases.keys():
		var why: String = PathGuard.problem(p)
		_check("refused %s" % p, why.contains("symbolic link") and why.contains(str(cases[p])), "got '%s'" % why)
	_check("lexical ..", PathGuard.problem("res://linktest/../x").contains(".."))
	_check("not res://", PathGuard.problem("/etc/passwd").contains("res://"))
	_check("hidden", PathGuard.problem("res://.godot/x").contains("hidden"))


func _allowed() -> void:
	for p: String in ["res://linktest/real/ok.txt", "res://linktest/alias/ok.txt", "res://linktest/alias/new/made.tres",
			"res://linktest/deep/a/up", "res://linktest/deep/a/up/inside.txt", "res://nothing/here.gd", "res://linktest/okfile.txt"]:
		var why: String = PathGuard.problem(p)
		_check("allowed %s" % p, why == "", "got '%s'" % why)
	_check("root allowed as a folder", PathGuard.problem("res://", true) == "")
	var root: String = PathGuard.real_root()
	_check("real_root has no link", PathGuard.resolve(root)["path"] == root, root)
	_check("inside root", PathGuard.inside(root) and PathGuard.inside(root + "/x") and not PathGuard.inside(root + "x"))


func _walks() -> void:
	var w: Dictionary = PathGuard.walk_new()
	_check("walk: linktest inside", PathGuard.walk_folder_inside(w, "res://linktest/"))
	_check("walk: alias inside", PathGuard.walk_folder_inside(w, "res://linktest/alias/"))
	_check("walk: rel skipped", not PathGuard.walk_folder_inside(w, "res://linktest/rel/"))
	_check("walk: under rel skipped", not PathGuard.walk_folder_inside(w, "res://linktest/rel/sub/"))
	_check("walk: file under abs skipped", not PathGuard.walk_file_inside(w, "res://linktest/abs/secret.txt"))
	_check("walk: file link skipped", not PathGuard.walk_file_inside(w, "res://linktest/leak.txt"))
	_check("walk: file link inside kept", PathGuard.walk_file_inside(w, "res://linktest/okfile.txt"))
	_check("walk: plain file kept", PathGuard.walk_file_inside(w, "res://linktest/real/ok.txt"))
	_check("walk: shallower then .. skipped", not PathGuard.walk_folder_inside(w, "res://linktest/deep/a/up/esc"))
	var rep: Dictionary = PathGuard.walk_report(w)
	var skipped: PackedStringArray = rep["skipped_links"]
	_check("walk report", int(rep["links_skipped"]) == 4 and skipped.has("res://linktest/rel") and skipped.has("res://linktest/abs") and skipped.has("res://linktest/leak.txt") and skipped.has("res://linktest/deep/a/up/esc"), str(rep))
	var links: PackedStringArray = PathGuard.links_under("res://linktest/deep")
	_check("links_under", links.size() == 1 and links[0] == "res://linktest/deep/a/up", str(links))
	_check("links_under none", PathGuard.links_under("res://linktest/real").is_empty())
