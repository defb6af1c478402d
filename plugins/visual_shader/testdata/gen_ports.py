# Generates plugins/visual_shader/editor/ports.json from a Godot 4.4 source tree:
# the port names (and, where the code says so plainly, types) of every
# VisualShaderNode class, the Output node's ports per mode and function, and the
# Input node's inputs. Port counts and types are probed from the engine at run
# time (editor/common.gd); names are what Godot does not expose to scripts.
# Run from the root of the Godot source: python3 gen_ports.py OUT.json
import re, json, sys, glob
src = ""
for f in ["scene/resources/visual_shader.cpp","scene/resources/visual_shader_nodes.cpp","scene/resources/visual_shader_particle_nodes.cpp","scene/resources/visual_shader_sdf_nodes.cpp"]:
    src += open(f).read()
TYPES = {"PORT_TYPE_SCALAR":"float","PORT_TYPE_SCALAR_INT":"int","PORT_TYPE_SCALAR_UINT":"uint","PORT_TYPE_VECTOR_2D":"vec2","PORT_TYPE_VECTOR_3D":"vec3","PORT_TYPE_VECTOR_4D":"vec4","PORT_TYPE_BOOLEAN":"bool","PORT_TYPE_TRANSFORM":"transform","PORT_TYPE_SAMPLER":"sampler"}
fn = re.compile(r'^[\w:]*?\s*(VisualShaderNode\w*)::(get_(input|output)_port_(name|type|count))\(([^)]*)\) const \{\n(.*?)^\}', re.M|re.S)
data = {}
for m in fn.finditer(src):
    cls, _, side, what, _, body = m.groups()
    d = data.setdefault(cls, {})
    d[side+"_"+what] = body
out = {}
def parse_map(body, kind):
    # returns dict idx->value, plus default value
    lit = r'"([^"]*)"' if kind=="name" else r'(PORT_TYPE_\w+)'
    res = {}; default=None; dep = bool(re.search(r'op_type|source|mode|get_|func|texture_type|type\b|hint', body.replace("p_port","")))
    # case N: return X;
    for cm in re.finditer(r'case (\d+):\s*(?:\{\s*)?return '+lit, body): res[int(cm.group(1))]=cm.group(2)
    for cm in re.finditer(r'p_port == (\d+)\)\s*\{?\s*return '+lit, body): res.setdefault(int(cm.group(1)), cm.group(2))
    tm = re.search(r'return p_port == (\d+) \? '+lit+' : '+lit, body)
    if tm: res[int(tm.group(1))]=tm.group(2); default=tm.group(3)
    lm = re.findall(r'^\treturn '+lit+';', body, re.M)
    if lm: default = lm[-1]
    if re.search(r'^\treturn (String\(\)|"");', body, re.M) and kind=="name": default = ""
    em = re.search(r'\} else \{\s*return '+lit+';', body)
    if em and default is None: default = em.group(1)
    return res, default, dep
for cls, d in data.items():
    e = {}
    for side in ("input","output"):
        cb = d.get(side+"_count")
        if cb is None: continue
        cm = re.fullmatch(r'\s*return (\d+);\s*', cb)
        nm, nd, ndep = parse_map(d.get(side+"_name",""),"name")
        tp, td, tdep = parse_map(d.get(side+"_type",""),"type")
        if cm:
            n = int(cm.group(1))
        elif nm:
            n = max(nm) + 1  # the count varies: the ports the names cover
        else:
            e[side]=None; continue
        ports=[]
        for i in range(n):
            name = nm.get(i, nd); t = tp.get(i, td)
            ports.append([name if name is not None else "", TYPES.get(t,"?") if t else "?"])
        e[side]=ports
        if ndep or tdep: e[side+"_varies"]=True
    out[cls[len("VisualShaderNode"):]] = e
bad = [k for k,v in out.items() if v.get("input") is None or v.get("output") is None or any(p[1]=="?" for p in (v.get("input") or [])+(v.get("output") or []))]
print(len(out), "classes;", len(bad), "incomplete:", bad)
MODES={"MODE_SPATIAL":"spatial","MODE_CANVAS_ITEM":"canvas_item","MODE_PARTICLES":"particles","MODE_SKY":"sky","MODE_FOG":"fog"}
FUNCS={"TYPE_VERTEX":"vertex","TYPE_FRAGMENT":"fragment","TYPE_LIGHT":"light","TYPE_START":"start","TYPE_PROCESS":"process","TYPE_COLLIDE":"collide","TYPE_START_CUSTOM":"start_custom","TYPE_PROCESS_CUSTOM":"process_custom","TYPE_SKY":"sky","TYPE_FOG":"fog","TYPE_MAX":"*"}
row = re.compile(r'\{ Shader::(MODE_\w+), VisualShader::(TYPE_\w+), VisualShaderNode::(PORT_TYPE_\w+), "([^"]*)", "([^"]*)" \}')
def table(start):
    i = src.index(start); j = src.index("};", i)
    return row.findall(src[i:j])
outp = {}
for mo, ty, pt, name, _ in table("const VisualShaderNodeOutput::Port VisualShaderNodeOutput::ports[] = {"):
    outp.setdefault(MODES[mo]+"/"+FUNCS[ty], []).append([name.lower().replace(" ","_"), TYPES[pt]])
inp = {}
for mo, ty, pt, name, _ in table("const VisualShaderNodeInput::Port VisualShaderNodeInput::ports[] = {"):
    inp.setdefault(MODES[mo]+"/"+FUNCS[ty], {})[name] = TYPES[pt]
OV = {"Texture2DArray": {"input": [["uv","vec2"],["lod","float"],["sampler2DArray","sampler"]], "output": [["color","vec4"]]},
 "Texture3D": {"input": [["uvw","vec3"],["lod","float"],["sampler3D","sampler"]], "output": [["color","vec4"]]},
"VectorCompose": {"input": [["x","float"],["y","float"],["z","float"],["w","float"]], "output": [["vec","?"]]},
 "VectorDecompose": {"input": [["vec","?"]], "output": [["x","float"],["y","float"],["z","float"],["w","float"]]}}
out.update(OV)
nodes = {}
for k, v in out.items():
    e = {}
    if v.get("input") is not None: e["i"] = v["input"]
    if v.get("output") is not None: e["o"] = v["output"]
    nodes[k] = e
out = nodes
# The particles Output node (VisualShaderNodeParticleOutput) names its ports in code
# that depends on the function; transcribed from visual_shader_particle_nodes.cpp.
PARTICLES_OUT = {
 "particles/start": [["active","bool"],["velocity","vec3"],["color","vec3"],["alpha","float"],["position","vec3"],["scale","float"],["rotation_axis","vec3"],["angle_in_radians","float"]],
 "particles/process": [["active","bool"],["velocity","vec3"],["color","vec3"],["alpha","float"],["scale","float"],["rotation_axis","vec3"],["angle_in_radians","float"]],
 "particles/collide": [["active","bool"],["velocity","vec3"],["color","vec3"],["alpha","float"],["transform","transform"]],
 "particles/start_custom": [["custom","vec3"],["custom_alpha","float"],["velocity","vec3"],["color","vec3"],["alpha","float"],["transform","transform"]],
 "particles/process_custom": [["custom","vec3"],["custom_alpha","float"],["velocity","vec3"],["color","vec3"],["alpha","float"],["transform","transform"]],
}
outp.update(PARTICLES_OUT)
json.dump({"nodes": out, "output": outp, "input": inp}, open(sys.argv[1] if len(sys.argv) > 1 else "ports.json","w"), sort_keys=True, separators=(",",":"))
print(list(outp.keys()), list(inp.keys()))
