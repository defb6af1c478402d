@tool
extends "common.gd"
## Step operations: connect_signal, disconnect_signal.


## Resolves {source, signal, target, method} for the signal tools.
func _signal_params(root: Node, p: Dictionary) -> Dictionary:
	var sr: Dictionary = Nodes.param(root, p, "source")
	if not sr.get("ok", false):
		return sr
	var tr: Dictionary = Nodes.param(root, p, "target")
	if not tr.get("ok", false):
		return tr
	var source: Node = sr["node"]
	var sig: Variant = Params.string(p, "signal")
	if sig == null or (sig as String) == "":
		return {"ok": false, "failure": _bad("signal is required: the signal's name, e.g. \"pressed\" or \"body_entered\".")}
	if not source.has_signal(sig as String):
		var names: PackedStringArray = []
		for s: Dictionary in source.get_signal_list():
			names.append(str(s["name"]))
		var near: PackedStringArray = []
		for n: String in names:
			if (sig as String).to_lower().similarity(n.to_lower()) >= 0.5:
				near.append(n)
		var hint: String = "'%s' (%s) has no signal '%s'." % [Nodes.rel(root, source), _class_label(source), sig]
		if not near.is_empty():
			hint += " Did you mean %s?" % ", ".join(near.slice(0, 3))
		hint += " Its signals: %s." % Nodes.short_list(names, 40)
		return {"ok": false, "failure": _bad(hint)}
	var method: Variant = Params.string(p, "method")
	if method == null or not (method as String).is_valid_identifier():
		return {"ok": false, "failure": _bad("method is required: the name of the target's method to call, e.g. \"_on_button_pressed\".")}
	return {"ok": true, "source": source, "target": tr["node"], "signal": sig, "method": method}


static func _class_label(n: Object) -> String:
	var si: Script = n.get_script() as Script
	if si != null and si.get_global_name() != &"":
		return str(si.get_global_name())
	return n.get_class()


func _op_connect_signal(root: Node, p: Dictionary, rec: Recorder) -> Dictionary:
	var sp: Dictionary = _signal_params(root, p)
	if not sp.get("ok", false):
		return sp["failure"]
	var source: Node = sp["source"]
	var target: Node = sp["target"]
	var sig: String = sp["signal"]
	var method: String = sp["method"]
	var deferred: Variant = Params.boolean(p, "deferred", false)
	var one_shot: Variant = Params.boolean(p, "one_shot", false)
	if deferred == null or one_shot == null:
		return _bad("deferred and one_shot must be true or false.")
	var binds_v: Variant = p.get("binds")
	var binds: Array = []
	if binds_v != null:
		if typeof(binds_v) != TYPE_ARRAY:
			return _bad("binds must be an array of extra arguments passed after the signal's own.")
		for b: Variant in binds_v:
			var d: Dictionary = Codec.decode(b, TYPE_NIL)
			if not d.get("ok", false):
				return _bad("binds: %s" % str(d.get("hint", "")))
			binds.append(d["value"])
	var callable: Callable = Callable(target, method)
	if not binds.is_empty():
		callable = callable.bindv(binds)
	for c: Dictionary in source.get_signal_connection_list(sig):
		var cc: Callable = c["callable"]
		if cc.get_object() == target and str(cc.get_method()) == method:
			return _bad("'%s'.%s is already connected to '%s'.%s(). Disconnect it first (godot_scene_disconnect_signal) to change its options." % [Nodes.rel(root, source), sig, Nodes.rel(root, target), method])
	var flags: int = CONNECT_PERSIST
	if deferred:
		flags |= CONNECT_DEFERRED
	if one_shot:
		flags |= CONNECT_ONE_SHOT
	rec.do_call(source, "connect", [sig, callable, flags])
	rec.undo_call(source, "disconnect", [sig, callable])
	var persist: Dictionary = _persist_info(root, source)
	if persist["persisted"]:
		persist = _persist_info(root, target)
	return _router.ok({
		"_label": "connect '%s'.%s to '%s'.%s" % [Nodes.rel(root, source), sig, Nodes.rel(root, target), method],
		"source": Nodes.rel(root, source), "signal": sig, "target": Nodes.rel(root, target), "method": method,
		"flags": flags, "binds": binds, "method_exists": target.has_method(method),
		"persisted": persist["persisted"], "reason": persist["reason"],
	})


func _op_disconnect_signal(root: Node, p: Dictionary, rec: Recorder) -> Dictionary:
	var sp: Dictionary = _signal_params(root, p)
	if not sp.get("ok", false):
		return sp["failure"]
	var source: Node = sp["source"]
	var target: Node = sp["target"]
	var sig: String = sp["signal"]
	var method: String = sp["method"]
	var found: Dictionary = {}
	var existing: PackedStringArray = []
	for c: Dictionary in source.get_signal_connection_list(sig):
		var cc: Callable = c["callable"]
		var obj: Object = cc.get_object()
		if obj == target and str(cc.get_method()) == method:
			found = c
		if obj is Node and (obj == root or root.is_ancestor_of(obj as Node)):
			existing.append("'%s'.%s()" % [Nodes.rel(root, obj as Node), cc.get_method()])
	if found.is_empty():
		return _router.fail("RESOURCE_NOT_FOUND", "'%s'.%s is not connected to '%s'.%s(). Its connections: %s. godot_scene_get_node lists a node's connections." % [Nodes.rel(root, source), sig, Nodes.rel(root, target), method, Nodes.short_list(existing)])
	var callable: Callable = found["callable"]
	var flags: int = found["flags"]
	rec.do_call(source, "disconnect", [sig, callable])
	rec.undo_call(source, "connect", [sig, callable, flags])
	var persist: Dictionary = _persist_info(root, source)
	if persist["persisted"]:
		persist = _persist_info(root, target)
	return _router.ok({
		"_label": "disconnect '%s'.%s from '%s'.%s" % [Nodes.rel(root, source), sig, Nodes.rel(root, target), method],
		"source": Nodes.rel(root, source), "signal": sig, "target": Nodes.rel(root, target), "method": method,
		"flags": flags, "persisted": persist["persisted"], "reason": persist["reason"],
	})
