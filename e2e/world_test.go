package e2e

import (
	"context"
	"encoding/json"
	"image"
	"math"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"
)

// ---- world toolset e2e: environment, lights, cameras, meshes, CSG, GI in a real editor ----

type worldEdit struct {
	Node    string `json:"node"`
	Created []struct {
		Path  string `json:"path"`
		Class string `json:"class"`
	} `json:"created"`
	Changes []struct {
		Target   string `json:"target"`
		Property string `json:"property"`
		Old      any    `json:"old"`
		New      any    `json:"new"`
	} `json:"changes"`
	Warnings []string       `json:"warnings"`
	Dims     map[string]any `json:"dims"`
	Removed  []string       `json:"removed"`
	Vertices int            `json:"vertices"`
	Bakeable bool           `json:"bakeable"`
	sceneEdit
}

func (e worldEdit) created() []string {
	var out []string
	for _, c := range e.Created {
		out = append(out, c.Path+":"+c.Class)
	}
	return out
}

type worldDescribe struct {
	Renderer struct {
		Project string `json:"project"`
		Editor  string `json:"editor"`
	} `json:"renderer"`
	Environment map[string]any   `json:"environment"`
	Lights      []map[string]any `json:"lights"`
	Cameras     []map[string]any `json:"cameras"`
	Meshes      []map[string]any `json:"meshes"`
	CSG         []map[string]any `json:"csg"`
	GI          []map[string]any `json:"gi"`
}

func worldEntry(list []map[string]any, path string) map[string]any {
	for _, e := range list {
		if e["path"] == path {
			return e
		}
	}
	return nil
}

func worldFail(t *testing.T, s *session, tool string, args map[string]any, code string, hintHas ...string) {
	t.Helper()
	sceneFail(t, s, "godot_world_"+tool, args, code, hintHas...)
}

// worldCheckScript loads the saved scene in a fresh headless Godot and prints
// what the test checks, in Godot's own terms.
const worldCheckScript = `extends SceneTree

func _initialize() -> void:
	var root: Node = (load(OS.get_cmdline_user_args()[0]) as PackedScene).instantiate()
	var out: Dictionary = {}
	var env: Environment = (root.get_node("WorldEnvironment") as WorldEnvironment).environment
	var sky: ProceduralSkyMaterial = env.sky.sky_material as ProceduralSkyMaterial
	out["env"] = [env.background_mode, sky.sky_top_color.to_html(false), env.fog_enabled, snappedf(env.fog_density, 0.0001), env.tonemap_mode, env.glow_enabled]
	var sun: DirectionalLight3D = root.get_node("Sun")
	out["sun"] = [sun.light_energy, sun.shadow_enabled]
	var lamp: OmniLight3D = root.get_node("Lamp")
	out["lamp"] = [lamp.omni_range, lamp.light_color.to_html(false), lamp.position.y]
	var cam: Camera3D = root.get_node("Cam")
	var cam2: Camera3D = root.get_node("Cam2")
	var f: Vector3 = -cam.transform.basis.z.normalized()
	out["cam"] = [cam.current, cam.fov, snappedf(f.x, 0.01), snappedf(f.y, 0.01), snappedf(f.z, 0.01), cam2.current, cam2.projection, cam2.size]
	var box: MeshInstance3D = root.get_node("Box")
	out["box"] = [box.mesh.get_class(), (box.mesh as BoxMesh).size.x, ((box.mesh as BoxMesh).material as StandardMaterial3D).albedo_color.to_html(false)]
	var hole: CSGSphere3D = root.get_node("Room/Hole")
	out["csg"] = [root.get_node("Room").get_class(), hole.operation, hole.radius, (root.get_node("Room") as CSGShape3D).use_collision]
	var baked: MeshInstance3D = root.get_node("RoomMesh")
	out["baked"] = [baked.mesh.get_class(), baked.mesh.get_surface_count(), (baked.mesh.surface_get_arrays(0)[Mesh.ARRAY_VERTEX] as PackedVector3Array).size(), baked.position.x]
	var probe: ReflectionProbe = root.get_node("ReflectionProbe")
	out["probe"] = [probe.size.x, probe.update_mode]
	root.free()
	print("WORLD_CHECK " + JSON.stringify(out))
	quit()
`

func loadWorldHeadless(t *testing.T, project, scene string) map[string][]any {
	t.Helper()
	script := filepath.Join(t.TempDir(), "world_check.gd")
	if err := os.WriteFile(script, []byte(worldCheckScript), 0o644); err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, suite.godot, "--headless", "--path", project, "--script", script, "--", scene)
	cmd.Env = append(godotEnv(), "GODOT_MCP_BRIDGE_URL=ws://127.0.0.1:1")
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("headless load: %v\n%s", err, out)
	}
	checkEditorOutput(t, "headless world check", string(out))
	for _, line := range strings.Split(string(out), "\n") {
		if rest, ok := strings.CutPrefix(strings.TrimSpace(line), "WORLD_CHECK "); ok {
			var got map[string][]any
			if err := json.Unmarshal([]byte(rest), &got); err != nil {
				t.Fatalf("bad JSON: %v\n%s", err, rest)
			}
			return got
		}
	}
	t.Fatalf("no WORLD_CHECK line:\n%s", out)
	return nil
}

// A lit 3D room built through the world tools alone: environment with sky,
// sun, fog, tonemap and glow in one call (a dry run first changes nothing;
// a later edit is one undo action), lights, cameras (current moves, look_at
// a node), a primitive mesh, a CSG tree with a subtraction baked to a mesh
// (and replace undone), GI nodes and the honest LightmapGI refusal, bad
// input refused with did-you-mean; the saved scene read back by a fresh Godot.
func TestWorldBuildSaveReload(t *testing.T) {
	s := newSession(t)
	h := s.host
	for _, ts := range []string{"scene", "world"} {
		h.mustCall(t, "godot_enable_toolset", map[string]any{"name": ts}, nil)
	}
	h.mustCall(t, "godot_scene_create", map[string]any{"path": "res://world.tscn", "root_type": "Node3D", "root_name": "World"}, nil)

	// ---- environment ----
	env := map[string]any{"sky": map[string]any{"type": "procedural", "top_color": "#ff5000", "horizon_color": "#ffa060"}, "sun": map[string]any{"energy": 1.5},
		"fog": map[string]any{"density": 0.01}, "tonemap": map[string]any{"mode": "filmic"}, "glow": map[string]any{"intensity": 1.2}}
	var ed worldEdit
	h.mustCall(t, "godot_world_set_environment", withArgs(env, "dry_run", true), &ed)
	if !ed.DryRun || ed.Undoable || strings.Join(ed.created(), ",") != "WorldEnvironment:WorldEnvironment,Sun:DirectionalLight3D" {
		t.Fatalf("dry run: %+v", ed)
	}
	var d worldDescribe
	h.mustCall(t, "godot_world_describe", nil, &d)
	if d.Environment != nil || len(d.Lights) != 0 {
		t.Fatalf("the dry run changed the scene: %+v", d)
	}
	worldFail(t, s, "set_environment", map[string]any{"properties": map[string]any{"fog_densty": 1}}, "VALIDATION_ERROR", "Did you mean 'fog_density'")
	worldFail(t, s, "set_environment", map[string]any{"sky": map[string]any{"type": "panorama"}}, "VALIDATION_ERROR", "texture")
	worldFail(t, s, "set_environment", map[string]any{"sky": map[string]any{"type": "panorama", "texture": "res://nope.png"}}, "RESOURCE_NOT_FOUND", "nope.png")
	worldFail(t, s, "set_environment", map[string]any{"sky": map[string]any{"type": "procdural"}}, "VALIDATION_ERROR", `did you mean "procedural"`)
	h.mustCall(t, "godot_world_describe", nil, &d)
	if d.Environment != nil {
		t.Fatalf("a refused call left an environment: %+v", d.Environment)
	}
	ed = worldEdit{}
	h.mustCall(t, "godot_world_set_environment", env, &ed)
	if ed.DryRun || !ed.Undoable || !ed.Persisted || len(ed.Created) != 2 {
		t.Fatalf("set_environment: %+v", ed)
	}
	h.mustCall(t, "godot_world_describe", nil, &d)
	sky, _ := d.Environment["sky"].(map[string]any)
	fog, _ := d.Environment["fog"].(map[string]any)
	if sky["type"] != "procedural" || sky["top_color"] != "#ff5000" || d.Environment["background"] != "sky" || fog["enabled"] != true ||
		len(d.Lights) != 1 || d.Lights[0]["type"] != "directional" || d.Lights[0]["energy"] != 1.5 {
		t.Fatalf("describe after: %+v", d)
	}
	// An edit of the existing Environment says old and new, and one undo reverts it.
	ed = worldEdit{}
	h.mustCall(t, "godot_world_set_environment", map[string]any{"fog": map[string]any{"density": 0.05}}, &ed)
	found := false
	for _, c := range ed.Changes {
		if c.Property == "fog_density" && c.New == 0.05 && math.Abs(c.Old.(float64)-0.01) < 1e-6 {
			found = true
		}
	}
	if !found || len(ed.Created) != 0 {
		t.Fatalf("fog edit: %+v", ed)
	}
	sceneUndo(t, s)
	h.mustCall(t, "godot_world_describe", nil, &d)
	if fog, _ := d.Environment["fog"].(map[string]any); math.Abs(fog["density"].(float64)-0.01) > 1e-6 {
		t.Fatalf("undo left fog %v", fog)
	}

	// ---- lights ----
	ed = worldEdit{}
	h.mustCall(t, "godot_world_set_light", map[string]any{"type": "omni", "name": "Lamp", "position": []float64{0, 3, 0}, "range": 6, "color": "#ffcc88", "energy": 2}, &ed)
	if ed.Node != "Lamp" || !ed.Undoable {
		t.Fatalf("omni: %+v", ed)
	}
	worldFail(t, s, "set_light", map[string]any{"node": "Lamp", "angle": 30}, "VALIDATION_ERROR", "spot")
	worldFail(t, s, "set_light", map[string]any{"node": "Lamp", "type": "spot"}, "VALIDATION_ERROR", "omni")
	worldFail(t, s, "set_light", map[string]any{"node": "Lamb", "energy": 1}, "RESOURCE_NOT_FOUND", "Lamp")
	worldFail(t, s, "set_light", map[string]any{"node": "Lamp", "properties": map[string]any{"omni_rnge": 3}}, "VALIDATION_ERROR", "omni_range")

	// ---- a primitive mesh, cameras ----
	ed = worldEdit{}
	h.mustCall(t, "godot_world_add_mesh", map[string]any{"shape": "box", "name": "Box", "size": []float64{2, 1, 1}, "color": "#ffffff", "position": []float64{0, 0, -4}}, &ed)
	if ed.Node != "Box" || ed.Dims["size"] == nil {
		t.Fatalf("add_mesh: %+v", ed)
	}
	worldFail(t, s, "add_mesh", map[string]any{"shape": "torus", "inner_radius": 1, "outer_radius": 0.5}, "VALIDATION_ERROR", "less than outer_radius")
	worldFail(t, s, "add_mesh", map[string]any{"shape": "sphere", "size": []float64{1, 1, 1}}, "VALIDATION_ERROR", "radius, height")
	h.mustCall(t, "godot_world_set_camera", map[string]any{"name": "Cam", "current": true, "fov": 60, "position": []float64{0, 1, 2}, "look_at_node": "Box"}, nil)
	h.mustCall(t, "godot_world_describe", nil, &d)
	cam := worldEntry(d.Cameras, "Cam")
	if cam == nil || cam["current"] != true || cam["fov"] != 60.0 {
		t.Fatalf("camera: %+v", d.Cameras)
	}
	if f, _ := cam["forward"].([]any); len(f) != 3 || math.Abs(f[1].(float64)+0.164) > 0.01 || math.Abs(f[2].(float64)+0.986) > 0.01 {
		t.Fatalf("Cam does not face Box: forward %v", cam["forward"])
	}
	ed = worldEdit{}
	h.mustCall(t, "godot_world_set_camera", map[string]any{"name": "Cam2", "current": true}, &ed)
	if len(ed.Changes) != 1 || ed.Changes[0].Target != "Cam" || ed.Changes[0].Property != "current" || ed.Changes[0].New != false {
		t.Fatalf("making Cam2 current did not clear Cam: %+v", ed)
	}
	h.mustCall(t, "godot_world_set_camera", map[string]any{"node": "Cam2", "projection": "orthogonal", "size": 10}, nil)
	worldFail(t, s, "set_camera", map[string]any{"node": "Box", "fov": 50}, "VALIDATION_ERROR", "not a Camera3D")

	// ---- CSG, baked to a mesh ----
	h.mustCall(t, "godot_world_add_csg", map[string]any{"shape": "box", "name": "Room", "size": []float64{4, 3, 4}, "position": []float64{5, 0, 0}, "use_collision": true}, nil)
	ed = worldEdit{}
	h.mustCall(t, "godot_world_add_csg", map[string]any{"shape": "sphere", "name": "Hole", "parent": "Room", "operation": "subtraction", "radius": 1.8}, &ed)
	if ed.Node != "Room/Hole" || ed.Dims["operation"] != "subtraction" || len(ed.Warnings) != 0 {
		t.Fatalf("add_csg: %+v", ed)
	}
	ed = worldEdit{}
	h.mustCall(t, "godot_world_add_csg", map[string]any{"shape": "cylinder", "operation": "subtraction", "dry_run": true}, &ed)
	if len(ed.Warnings) != 1 || !strings.Contains(ed.Warnings[0], "nothing to act on") {
		t.Fatalf("a subtraction at the root should warn: %+v", ed)
	}
	worldFail(t, s, "add_csg", map[string]any{"shape": "box", "parent": "Room", "use_collision": true}, "VALIDATION_ERROR", "CSG root")
	worldFail(t, s, "bake", map[string]any{"node": "Room/Hole"}, "VALIDATION_ERROR", "bake the root")
	ed = worldEdit{}
	h.mustCall(t, "godot_world_bake", map[string]any{"node": "Room", "dry_run": true}, &ed)
	if !ed.DryRun || ed.Vertices == 0 || len(ed.Created) != 1 {
		t.Fatalf("bake dry run: %+v", ed)
	}
	h.mustCall(t, "godot_world_describe", nil, &d)
	if worldEntry(d.Meshes, "RoomMesh") != nil {
		t.Fatal("the dry run added a mesh")
	}
	ed = worldEdit{}
	h.mustCall(t, "godot_world_bake", map[string]any{"node": "Room"}, &ed)
	if ed.Created[0].Path != "RoomMesh" || ed.Vertices < 36 || !ed.Undoable {
		t.Fatalf("bake: %+v", ed)
	}
	// replace removes the CSG tree (it needs confirm); one undo brings it back.
	worldFail(t, s, "bake", map[string]any{"node": "Room", "name": "Other", "replace": true}, "PRECONDITION_FAILED", "confirm")
	ed = worldEdit{}
	h.mustCall(t, "godot_world_bake", map[string]any{"node": "Room", "name": "Other", "replace": true, "confirm": true}, &ed)
	h.mustCall(t, "godot_world_describe", nil, &d)
	if len(ed.Removed) != 1 || len(d.CSG) != 0 || worldEntry(d.Meshes, "Other") == nil {
		t.Fatalf("replace: %+v / %+v", ed, d.CSG)
	}
	sceneUndo(t, s)
	h.mustCall(t, "godot_world_describe", nil, &d)
	if worldEntry(d.CSG, "Room") == nil || worldEntry(d.CSG, "Room/Hole") == nil || worldEntry(d.Meshes, "Other") != nil {
		t.Fatalf("undo of replace: csg %+v meshes %+v", d.CSG, d.Meshes)
	}

	// ---- GI ----
	ed = worldEdit{}
	h.mustCall(t, "godot_world_add_gi", map[string]any{"type": "reflection_probe", "size": []float64{6, 4, 6}, "update_mode": "always"}, &ed)
	if ed.Node != "ReflectionProbe" {
		t.Fatalf("probe: %+v", ed)
	}
	ed = worldEdit{}
	h.mustCall(t, "godot_world_add_gi", map[string]any{"type": "lightmap_gi"}, &ed)
	if ed.Bakeable || len(ed.Warnings) != 1 {
		t.Fatalf("lightmap_gi: %+v", ed)
	}
	worldFail(t, s, "bake", map[string]any{"node": "LightmapGI"}, "PRECONDITION_FAILED", "LightmapGI")
	worldFail(t, s, "bake", map[string]any{"node": "ReflectionProbe"}, "VALIDATION_ERROR", "update_mode")

	// ---- saved, read back by a fresh Godot ----
	h.mustCall(t, "godot_scene_save", nil, nil)
	c := loadWorldHeadless(t, s.project, "res://world.tscn")
	want := map[string]string{
		"env":   `[2,"ff5000",true,0.01,2,true]`,
		"sun":   `[1.5,true]`,
		"lamp":  `[6,"ffcc88",3]`,
		"cam":   `[false,60,0,-0.16,-0.99,true,1,10]`,
		"box":   `["BoxMesh",2,"ffffff"]`,
		"csg":   `["CSGBox3D",2,1.8,true]`,
		"probe": `[6,1]`,
	}
	for k, w := range want {
		var wv []any
		json.Unmarshal([]byte(w), &wv)
		if !worldNear(c[k], wv) {
			got, _ := json.Marshal(c[k])
			t.Errorf("saved %s: %s, want %s", k, got, w)
		}
	}
	if b := c["baked"]; len(b) != 4 || b[0] != "ArrayMesh" || b[1].(float64) < 1 || b[2].(float64) < 36 || b[3] != 5.0 {
		t.Errorf("saved baked mesh: %v", b)
	}
}

// worldNear compares decoded JSON arrays, numbers within 0.006.
func worldNear(got, want []any) bool {
	if len(got) != len(want) {
		return false
	}
	for i := range got {
		g, gok := got[i].(float64)
		w, wok := want[i].(float64)
		if gok && wok {
			if math.Abs(g-w) > 0.006 {
				return false
			}
		} else if got[i] != want[i] {
			return false
		}
	}
	return true
}

// worldShot plays scene in the editor, takes the game's screenshot and stops it.
func worldShot(t *testing.T, s *session, scene string) image.Image {
	t.Helper()
	h := s.host
	var run rtPlay
	h.mustCall(t, "godot_runtime_play", map[string]any{"scene": scene, "timeout_ms": 60000}, &run)
	if !run.Playing || run.Headless {
		t.Fatalf("play %s: %+v", scene, run)
	}
	time.Sleep(1500 * time.Millisecond) // a few rendered frames
	img, _ := rtScreenshot(t, h, nil)
	h.mustCall(t, "godot_runtime_stop", nil, nil)
	rtWaitStatus(t, s, "the game to stop", func(st rtStatus) bool { return !st.Playing })
	return img
}

// centre is the mean colour (0..255) of a 9x9 square in the middle of img.
func centre(img image.Image) (r, g, b float64) {
	bd := img.Bounds()
	cx, cy := (bd.Min.X+bd.Max.X)/2, (bd.Min.Y+bd.Max.Y)/2
	n := 0.0
	for y := cy - 4; y <= cy+4; y++ {
		for x := cx - 4; x <= cx+4; x++ {
			cr, cg, cb, _ := img.At(x, y).RGBA()
			r, g, b = r+float64(cr>>8), g+float64(cg>>8), b+float64(cb>>8)
			n++
		}
	}
	return r / n, g / n, b / n
}

// Pixels under Xvfb with the Compatibility renderer: a camera looking straight
// up sees the project's blue clear colour, then, after set_environment, the
// procedural sky's orange top colour; a white box with no light is dark, and
// bright once set_light adds a sun. The Forward+-only effects and a VoxelGI
// bake are refused with the reason under Compatibility.
func TestWorldPixelsUnderXvfb(t *testing.T) {
	if why := rtDisplayAvailable(); why != "" {
		t.Skip("world pixels: skipped: " + why)
	}
	s := rtSession(t, true)
	h := s.host
	for _, ts := range []string{"scene", "world", "runtime"} {
		h.mustCall(t, "godot_enable_toolset", map[string]any{"name": ts}, nil)
	}
	rtWaitStatus(t, s, "the probe autoload to be registered", func(st rtStatus) bool { return st.ProbeRegistered })

	// ---- the sky ----
	h.mustCall(t, "godot_scene_create", map[string]any{"path": "res://sky.tscn", "root_type": "Node3D", "root_name": "SkyTest"}, nil)
	h.mustCall(t, "godot_world_set_camera", map[string]any{"name": "Cam", "current": true, "look_at": []float64{0, 10, 0}}, nil)
	h.mustCall(t, "godot_scene_save", nil, nil)
	before := worldShot(t, s, "res://sky.tscn")
	if r, g, b := centre(before); !(b > 200 && r < 60 && g < 60) {
		t.Fatalf("before the environment the centre is (%.0f,%.0f,%.0f), want the blue clear colour (saved as %s)", r, g, b, rtSavePNG(t, before, "sky-before"))
	}
	var d worldDescribe
	h.mustCall(t, "godot_world_describe", nil, &d)
	if d.Renderer.Project != "gl_compatibility" || d.Renderer.Editor != "gl_compatibility" {
		t.Fatalf("renderer: %+v", d.Renderer)
	}
	worldFail(t, s, "set_environment", map[string]any{"effects": map[string]any{"ssao": true}}, "PRECONDITION_FAILED", "gl_compatibility", "Forward+")
	worldFail(t, s, "set_environment", map[string]any{"properties": map[string]any{"sdfgi_enabled": true}}, "PRECONDITION_FAILED", "SDFGI")
	h.mustCall(t, "godot_world_describe", nil, &d)
	if d.Environment != nil {
		t.Fatalf("a refused effect left an environment: %+v", d.Environment)
	}
	h.mustCall(t, "godot_world_set_environment", map[string]any{"sky": map[string]any{"top_color": "#ff5000", "horizon_color": "#ff5000"}, "sun": map[string]any{}}, nil)
	h.mustCall(t, "godot_scene_save", nil, nil)
	after := worldShot(t, s, "res://sky.tscn")
	if r, g, b := centre(after); !(r > 180 && b < 100 && r > g+60) {
		t.Fatalf("after the environment the centre is (%.0f,%.0f,%.0f), want the sky's orange top colour #ff5000 (saved as %s)", r, g, b, rtSavePNG(t, after, "sky-after"))
	}
	var gi worldEdit
	h.mustCall(t, "godot_world_add_gi", map[string]any{"type": "voxel_gi"}, &gi)
	if gi.Bakeable || len(gi.Warnings) != 1 || !strings.Contains(gi.Warnings[0], "Forward+") {
		t.Fatalf("voxel_gi under Compatibility: %+v", gi)
	}
	worldFail(t, s, "bake", map[string]any{"node": "VoxelGI"}, "PRECONDITION_FAILED", "gl_compatibility")

	// ---- lit vs unlit ----
	h.mustCall(t, "godot_scene_create", map[string]any{"path": "res://lit.tscn", "root_type": "Node3D", "root_name": "LitTest"}, nil)
	h.mustCall(t, "godot_world_add_mesh", map[string]any{"shape": "box", "name": "Box", "size": []float64{2, 2, 2}, "color": "#ffffff", "position": []float64{0, 0, -3}}, nil)
	h.mustCall(t, "godot_world_set_camera", map[string]any{"name": "Cam", "current": true, "look_at_node": "Box"}, nil)
	h.mustCall(t, "godot_scene_save", nil, nil)
	dark := worldShot(t, s, "res://lit.tscn")
	h.mustCall(t, "godot_world_set_light", map[string]any{"type": "directional", "name": "Sun", "look_at": []float64{0, -1, -3}}, nil)
	h.mustCall(t, "godot_scene_save", nil, nil)
	lit := worldShot(t, s, "res://lit.tscn")
	dr, dg, db := centre(dark)
	lr, lg, lb := centre(lit)
	sr, sg, sb := centre(before)
	ar, ag, ab := centre(after)
	t.Logf("centre pixels: sky before (%.0f,%.0f,%.0f) after (%.0f,%.0f,%.0f); box unlit (%.0f,%.0f,%.0f) lit (%.0f,%.0f,%.0f)", sr, sg, sb, ar, ag, ab, dr, dg, db, lr, lg, lb)
	if (lr+lg+lb)/3 < (dr+dg+db)/3+60 || lr < 120 {
		t.Fatalf("the box is (%.0f,%.0f,%.0f) without the light and (%.0f,%.0f,%.0f) with it; want clearly brighter (saved as %s and %s)",
			dr, dg, db, lr, lg, lb, rtSavePNG(t, dark, "unlit"), rtSavePNG(t, lit, "lit"))
	}
}
