@tool
extends RefCounted
## The project's named layers (ProjectSettings layer_names/<dim>_<kind>/layer_N) as
## the physics and navigation toolsets read and report them. [param kind] is
## "physics", "navigation" or "render"; [param d] is "2d" or "3d". Static only.


static func setting_key(kind: String, d: String, i: int) -> String:
	return "layer_names/%s_%s/layer_%d" % [d, kind, i]


## The 32 layer names of [param kind] and dimension [param d] ("" for unnamed), index 0 is layer 1.
static func names(kind: String, d: String) -> PackedStringArray:
	var out: PackedStringArray = []
	for i: int in range(1, 33):
		out.append(str(ProjectSettings.get_setting(setting_key(kind, d, i), "")))
	return out


## [{n, name}] of the named layers in [param all].
static func named(all: PackedStringArray) -> Array:
	var out: Array = []
	for i: int in all.size():
		if all[i] != "":
			out.append({"n": i + 1, "name": all[i]})
	return out


## [{n, name?}] of the bits set in [param bits].
static func layers_of(bits: int, all: PackedStringArray) -> Array:
	var out: Array = []
	for i: int in 32:
		if bits & (1 << i):
			var e: Dictionary = {"n": i + 1}
			if all[i] != "":
				e["name"] = all[i]
			out.append(e)
	return out
