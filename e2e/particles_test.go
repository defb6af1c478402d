package e2e

import (
	"context"
	"encoding/json"
	"fmt"
	"image"
	"image/png"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"
)

// ---- particles toolset e2e: presets, parameters, conversion, restart, in a real editor ----

type ptParams map[string]json.RawMessage

func (p ptParams) num(t *testing.T, name string) float64 {
	t.Helper()
	var f float64
	if err := json.Unmarshal(p[name], &f); err != nil {
		t.Fatalf("%s = %s is not a number", name, p[name])
	}
	return f
}

func (p ptParams) str(name string) string { return strings.TrimSpace(string(p[name])) }

type ptNode struct {
	Path   string   `json:"path"`
	Class  string   `json:"class"`
	Preset string   `json:"preset"`
	Params ptParams `json:"params"`
	sceneEdit
}

type ptSet struct {
	ptNode
	Changes []struct {
		Name string          `json:"name"`
		Old  json.RawMessage `json:"old"`
		New  json.RawMessage `json:"new"`
	} `json:"changes"`
}

type ptConvert struct {
	Path    string   `json:"path"`
	From    string   `json:"from"`
	To      string   `json:"to"`
	Params  ptParams `json:"params"`
	Dropped []string `json:"dropped"`
	sceneEdit
}

func ptGet(t *testing.T, s *session, node string) ptNode {
	t.Helper()
	var n ptNode
	s.host.mustCall(t, "godot_particles_get", map[string]any{"node": node}, &n)
	return n
}

// particlesSession is an editor with the scene and particles toolsets enabled
// and res://fx.tscn open: a Node3D root World with a Camera3D Cam at (0, 0.5, 3).
func particlesSession(t *testing.T) *session {
	t.Helper()
	s := newSession(t)
	h := s.host
	for _, ts := range []string{"scene", "resources", "particles"} {
		h.mustCall(t, "godot_enable_toolset", map[string]any{"name": ts}, nil)
	}
	h.mustCall(t, "godot_scene_create", map[string]any{"path": "res://fx.tscn", "root_type": "Node3D", "root_name": "World"}, nil)
	h.mustCall(t, "godot_scene_create_node", map[string]any{"type": "Camera3D", "name": "Cam",
		"properties": map[string]any{"position": map[string]any{"x": 0, "y": 0.5, "z": 3}, "current": true}}, nil)
	return s
}

// ptCheckScript loads a scene in a fresh headless Godot and prints every
// particles node's class and the properties the test checks, read by
// Godot's own names (not the toolset's).
const ptCheckScript = `extends SceneTree

func _initialize() -> void:
	var root: Node = (load(OS.get_cmdline_user_args()[0]) as PackedScene).instantiate()
	var out: Dictionary = {}
	for n: Node in root.get_children():
		if not (n is GPUParticles3D or n is CPUParticles3D or n is GPUParticles2D or n is CPUParticles2D):
			continue
		var d: Dictionary = {"class": n.get_class(), "amount": n.amount, "lifetime": n.lifetime, "one_shot": n.one_shot,
			"explosiveness": n.explosiveness, "emitting": n.emitting, "index": n.get_index()}
		var src: Object = n
		if n is GPUParticles3D or n is GPUParticles2D:
			var pm: Material = n.process_material
			d["process_material"] = pm.get_class() if pm != null else ""
			src = pm
			if n is GPUParticles3D:
				d["draw_pass"] = n.draw_pass_1.get_class() if n.draw_pass_1 != null else ""
		elif n is CPUParticles3D:
			d["draw_pass"] = n.mesh.get_class() if n.mesh != null else ""
		if n is Node3D:
			d["position"] = [n.position.x, n.position.y, n.position.z]
		for p: String in ["emission_shape", "emission_box_extents", "emission_rect_extents", "initial_velocity_min", "initial_velocity_max",
				"scale_min", "scale_max", "scale_amount_min", "scale_amount_max", "spread", "gravity"]:
			if p in src:
				var v: Variant = src.get(p)
				if v is Vector3:
					v = [v.x, v.y, v.z]
				elif v is Vector2:
					v = [v.x, v.y]
				d[p] = v
		var ramp: Variant = src.get("color_ramp")
		if ramp is GradientTexture1D:
			ramp = ramp.gradient
		if ramp is Gradient:
			var cols: Array = []
			for c: Color in (ramp as Gradient).colors:
				cols.append(c.to_html(true))
			d["ramp"] = cols
		out[str(n.name)] = d
	root.free()
	print("PT_CHECK " + JSON.stringify(out))
	quit()
`

type ptSaved struct {
	Class           string    `json:"class"`
	Amount          int       `json:"amount"`
	Lifetime        float64   `json:"lifetime"`
	OneShot         bool      `json:"one_shot"`
	Explosiveness   float64   `json:"explosiveness"`
	Emitting        bool      `json:"emitting"`
	Index           int       `json:"index"`
	ProcessMaterial string    `json:"process_material"`
	DrawPass        string    `json:"draw_pass"`
	Position        []float64 `json:"position"`
	EmissionShape   int       `json:"emission_shape"`
	BoxExtents      []float64 `json:"emission_box_extents"`
	RectExtents     []float64 `json:"emission_rect_extents"`
	VelMin          float64   `json:"initial_velocity_min"`
	VelMax          float64   `json:"initial_velocity_max"`
	ScaleMax        *float64  `json:"scale_max"`
	Spread          float64   `json:"spread"`
	Ramp            []string  `json:"ramp"`
}

func ptLoadHeadless(t *testing.T, project, scene string) map[string]ptSaved {
	t.Helper()
	script := filepath.Join(t.TempDir(), "pt_check.gd")
	if err := os.WriteFile(script, []byte(ptCheckScript), 0o644); err != nil {
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
	checkEditorOutput(t, "headless particles check", string(out))
	for _, line := range strings.Split(string(out), "\n") {
		if rest, ok := strings.CutPrefix(strings.TrimSpace(line), "PT_CHECK "); ok {
			var got map[string]ptSaved
			if err := json.Unmarshal([]byte(rest), &got); err != nil {
				t.Fatalf("bad JSON: %v\n%s", err, rest)
			}
			return got
		}
	}
	t.Fatalf("no PT_CHECK line:\n%s", out)
	return nil
}

func ptFail(t *testing.T, s *session, tool string, args map[string]any, code string, hintHas ...string) {
	t.Helper()
	sceneFail(t, s, "godot_particles_"+tool, args, code, hintHas...)
}

func ptNear(a, b float64) bool { return a > b-0.001 && a < b+0.001 }

// Presets created (a dry run first creates nothing), parameters set by name,
// refused whole with did-you-mean, read back and undone in one step; CPU→GPU
// and GPU→CPU conversion keeping amount, lifetime and the rest, undone;
// restart; the saved scene loaded by a fresh Godot; then, under Xvfb with the
// Compatibility renderer, a fire preset seen by a camera in frame 60.
func TestParticlesPresetsEditConvert(t *testing.T) {
	s := particlesSession(t)
	h := s.host

	// ---- create: dry run, refusals, then for real ----
	var fire ptNode
	h.mustCall(t, "godot_particles_create", map[string]any{"type": "gpu_3d", "preset": "fire", "dry_run": true}, &fire)
	if !fire.DryRun || fire.Undoable || fire.Path != "Fire" || fire.Params.num(t, "amount") != 48 || fire.Params.str("emission_shape") != `"sphere"` {
		t.Fatalf("dry run: %+v", fire)
	}
	// The dry run's read-back is the preset as godot_particles_presets documents it.
	var presets struct {
		Presets []struct {
			Name   string                     `json:"name"`
			Params map[string]json.RawMessage `json:"params"`
		} `json:"presets"`
	}
	h.mustCall(t, "godot_particles_presets", nil, &presets)
	if len(presets.Presets) != 8 || presets.Presets[0].Name != "fire" {
		t.Fatalf("presets: %+v", presets)
	}
	for k, v := range presets.Presets[0].Params {
		if k == "color_ramp" { // given as colours, read back as stops
			continue
		}
		if compactJSON(fire.Params[k]) != compactJSON(v) {
			t.Errorf("fire preset %s = %s, but the created node reads %s", k, v, fire.Params[k])
		}
	}
	var list struct {
		Nodes []struct{ Path string } `json:"nodes"`
	}
	h.mustCall(t, "godot_particles_get", nil, &list)
	if len(list.Nodes) != 0 {
		t.Fatalf("the dry run created %+v", list.Nodes)
	}
	ptFail(t, s, "create", map[string]any{"type": "gpu_3d", "preset": "fier"}, "VALIDATION_ERROR", `did you mean "fire"`, "smoke, sparks")
	ptFail(t, s, "create", map[string]any{"type": "gpu_4d", "preset": "fire"}, "VALIDATION_ERROR", `did you mean "gpu_3d"`)
	ptFail(t, s, "create", map[string]any{"type": "cpu_2d", "preset": "dust", "params": map[string]any{"flatness": 0.5}}, "VALIDATION_ERROR", "CPUParticles2D has no flatness", "emission_box_extents")
	h.mustCall(t, "godot_particles_get", nil, &list)
	if len(list.Nodes) != 0 {
		t.Fatalf("a refused create left %+v", list.Nodes)
	}

	h.mustCall(t, "godot_particles_create", map[string]any{"type": "gpu_3d", "preset": "fire"}, &fire)
	if fire.DryRun || !fire.Undoable || !fire.Persisted || fire.Class != "GPUParticles3D" || fire.Path != "Fire" || fire.Params.num(t, "lifetime") != 1 {
		t.Fatalf("create fire: %+v", fire)
	}
	var smoke, boom, dust ptNode
	h.mustCall(t, "godot_particles_create", map[string]any{"type": "cpu_3d", "preset": "smoke", "position": []float64{1, 0, 0}, "params": map[string]any{"amount": 20}}, &smoke)
	h.mustCall(t, "godot_particles_create", map[string]any{"type": "GPUParticles3D", "preset": "explosion", "name": "Boom"}, &boom)
	h.mustCall(t, "godot_particles_create", map[string]any{"type": "cpu_2d", "preset": "dust"}, &dust)
	if smoke.Class != "CPUParticles3D" || smoke.Params.num(t, "amount") != 20 || boom.Path != "Boom" || boom.Params.str("one_shot") != "true" ||
		dust.Class != "CPUParticles2D" || compactJSON(dust.Params["emission_box_extents"]) != "[100,25]" {
		t.Fatalf("create: %+v\n%+v\n%+v", smoke, boom, dust)
	}

	// One undo removes the last created node; redo brings it back.
	sceneUndo(t, s)
	h.mustCall(t, "godot_particles_get", nil, &list)
	if len(list.Nodes) != 3 {
		t.Fatalf("after undoing the create of Dust: %+v", list.Nodes)
	}
	sceneRedo(t, s)
	if g := ptGet(t, s, "Dust"); g.Class != "CPUParticles2D" {
		t.Fatalf("after redo: %+v", g)
	}

	// ---- set: one undo action, all or nothing ----
	var set ptSet
	edit := map[string]any{"amount": 100, "scale_max": 1.5, "emission_shape": "box", "emission_box_extents": []float64{1, 0.2, 1},
		"color_ramp": []string{"#ffff00", "#ff000000"}, "scale_curve": [][]float64{{0, 1}, {1, 0.5}}}
	h.mustCall(t, "godot_particles_set", map[string]any{"node": "Fire", "params": edit, "dry_run": true}, &set)
	if !set.DryRun || set.Undoable || len(set.Changes) != 6 || set.Params.num(t, "amount") != 100 {
		t.Fatalf("set dry run: %+v", set)
	}
	if got := ptGet(t, s, "Fire"); got.Params.num(t, "amount") != 48 {
		t.Fatalf("the dry run changed amount: %s", got.Params["amount"])
	}
	ptFail(t, s, "set", map[string]any{"node": "Fire", "params": map[string]any{"amount": 10, "direction": []float64{0, 1}}}, "VALIDATION_ERROR", "[x, y, z]")
	ptFail(t, s, "set", map[string]any{"node": "Fire", "params": map[string]any{"amount": 10, "scale_min": 5}}, "VALIDATION_ERROR", "above max")
	ptFail(t, s, "set", map[string]any{"node": "Fire", "params": map[string]any{"amount": 10, "lifetim": 2}}, "VALIDATION_ERROR", `did you mean "lifetime"`)
	ptFail(t, s, "set", map[string]any{"node": "Fire", "params": map[string]any{"color": "notacolour"}}, "VALIDATION_ERROR", "not a colour")
	ptFail(t, s, "set", map[string]any{"node": "Smoke", "params": map[string]any{"alpha_curve": [][]float64{{0, 1}}}}, "VALIDATION_ERROR", "CPUParticles3D has no alpha_curve")
	ptFail(t, s, "set", map[string]any{"node": "Cam", "params": map[string]any{"amount": 10}}, "VALIDATION_ERROR", "Camera3D, not a particles node")
	ptFail(t, s, "set", map[string]any{"node": "Fier", "params": map[string]any{"amount": 10}}, "RESOURCE_NOT_FOUND", "Fire")
	if got := ptGet(t, s, "Fire"); got.Params.num(t, "amount") != 48 {
		t.Fatalf("a refused set was half applied: amount %s", got.Params["amount"])
	}
	h.mustCall(t, "godot_particles_set", map[string]any{"node": "Fire", "params": edit}, &set)
	if set.DryRun || !set.Undoable || !set.Persisted || len(set.Changes) != 6 {
		t.Fatalf("set: %+v", set)
	}
	got := ptGet(t, s, "Fire")
	want := map[string]string{"amount": "100", "scale": "[0.6,1.5]", "emission_shape": `"box"`, "emission_box_extents": "[1,0.2,1]",
		"color_ramp": `[{"color":"#ffff00ff","offset":0},{"color":"#ff000000","offset":1}]`, "scale_curve": "[[0,1],[1,0.5]]", "lifetime": "1"}
	for k, v := range want {
		if g := compactJSON(got.Params[k]); g != v {
			t.Errorf("read back %s = %s, want %s", k, g, v)
		}
	}
	u := sceneUndo(t, s)
	if g := ptGet(t, s, "Fire"); g.Params.num(t, "amount") != 48 || g.Params.str("emission_shape") != `"sphere"` || compactJSON(g.Params["scale"]) != "[0.6,1]" {
		t.Fatalf("after one undo (%v): %v", u.Actions, g.Params)
	}
	sceneRedo(t, s)
	if g := ptGet(t, s, "Fire"); g.Params.num(t, "amount") != 100 {
		t.Fatalf("after redo: %v", g.Params["amount"])
	}
	h.mustCall(t, "godot_particles_set", map[string]any{"node": "Dust", "params": map[string]any{"emission_box_extents": []float64{30, 10}, "gravity": []float64{0, 20}}}, &set)
	if compactJSON(set.Params["emission_box_extents"]) != "[30,10]" || compactJSON(set.Params["gravity"]) != "[0,20]" {
		t.Fatalf("2D set: %v", set.Params)
	}

	// A process material saved as its own file is not edited behind the scene's back.
	h.mustCall(t, "godot_resources_create", map[string]any{"path": "res://pm.tres", "type": "ParticleProcessMaterial"}, nil)
	h.mustCall(t, "godot_scene_create_node", map[string]any{"type": "GPUParticles3D", "name": "Shared", "properties": map[string]any{"process_material": "res://pm.tres"}}, nil)
	ptFail(t, s, "set", map[string]any{"node": "Shared", "params": map[string]any{"amount": 5, "spread": 10}}, "VALIDATION_ERROR", "res://pm.tres", "godot_resources_set_properties")
	h.mustCall(t, "godot_particles_set", map[string]any{"node": "Shared", "params": map[string]any{"amount": 5}}, &set)
	if g := ptGet(t, s, "Shared"); g.Params.num(t, "amount") != 5 || g.Params.num(t, "spread") != 45 {
		t.Fatalf("Shared after set: %v", g.Params)
	}

	// ---- convert ----
	var conv ptConvert
	h.mustCall(t, "godot_particles_convert", map[string]any{"node": "Smoke", "dry_run": true}, &conv)
	if !conv.DryRun || conv.To != "GPUParticles3D" || ptGet(t, s, "Smoke").Class != "CPUParticles3D" {
		t.Fatalf("convert dry run: %+v", conv)
	}
	h.mustCall(t, "godot_particles_convert", map[string]any{"node": "Smoke"}, &conv)
	if !conv.Undoable || conv.From != "CPUParticles3D" || conv.To != "GPUParticles3D" || conv.Path != "Smoke" || len(conv.Dropped) != 0 {
		t.Fatalf("convert smoke: %+v", conv)
	}
	for _, k := range []string{"amount", "lifetime", "initial_velocity", "damping", "angle", "scale", "scale_curve", "color_ramp", "emission_shape", "emission_sphere_radius", "gravity", "spread", "direction"} {
		if compactJSON(conv.Params[k]) != compactJSON(smoke.Params[k]) {
			t.Errorf("convert changed %s: %s -> %s", k, smoke.Params[k], conv.Params[k])
		}
	}
	sceneUndo(t, s)
	if g := ptGet(t, s, "Smoke"); g.Class != "CPUParticles3D" || g.Params.num(t, "amount") != 20 {
		t.Fatalf("after undoing the conversion: %+v", g)
	}
	sceneRedo(t, s)
	h.mustCall(t, "godot_particles_convert", map[string]any{"node": "Boom"}, &conv)
	if conv.To != "CPUParticles3D" || conv.Params.str("one_shot") != "true" || conv.Params.num(t, "explosiveness") != 1 || conv.Params.num(t, "amount") != 96 || conv.Params.num(t, "lifetime") != 1 || compactJSON(conv.Params["initial_velocity"]) != "[3,6]" {
		t.Fatalf("convert boom: %+v", conv)
	}
	var snow ptNode
	h.mustCall(t, "godot_particles_create", map[string]any{"type": "gpu_2d", "preset": "snow", "name": "Snow2D"}, &snow)
	h.mustCall(t, "godot_particles_convert", map[string]any{"node": "Snow2D"}, &conv)
	if snow.Class != "GPUParticles2D" || conv.To != "CPUParticles2D" || len(conv.Dropped) != 0 {
		t.Fatalf("convert 2D snow: %+v -> %+v", snow, conv)
	}
	for _, k := range []string{"amount", "lifetime", "emission_shape", "emission_box_extents", "direction", "gravity", "initial_velocity", "tangential_accel", "scale", "color"} {
		if compactJSON(conv.Params[k]) != compactJSON(snow.Params[k]) {
			t.Errorf("GPU->CPU 2D changed %s: %s -> %s", k, snow.Params[k], conv.Params[k])
		}
	}
	ptFail(t, s, "convert", map[string]any{"node": "Cam"}, "VALIDATION_ERROR", "not a particles node")

	// ---- restart ----
	var rs struct {
		Emitting, Restarted, Changed bool
		sceneEdit
	}
	h.mustCall(t, "godot_particles_restart", map[string]any{"node": "Fire"}, &rs)
	if !rs.Restarted || rs.Changed || rs.Undoable {
		t.Fatalf("restart while emitting: %+v", rs)
	}
	h.mustCall(t, "godot_particles_restart", map[string]any{"node": "Fire", "emitting": false}, &rs)
	if rs.Emitting || !rs.Changed || !rs.Undoable {
		t.Fatalf("stop: %+v", rs)
	}
	h.mustCall(t, "godot_particles_restart", map[string]any{"node": "Fire"}, &rs)
	if !rs.Emitting || !rs.Changed || !rs.Undoable || ptGet(t, s, "Fire").Params.str("emitting") != "true" {
		t.Fatalf("restart: %+v", rs)
	}

	// ---- the saved scene, loaded by a fresh Godot ----
	h.mustCall(t, "godot_scene_save", nil, nil)
	saved := ptLoadHeadless(t, s.project, "res://fx.tscn")
	f, sm, b, d := saved["Fire"], saved["Smoke"], saved["Boom"], saved["Dust"]
	if f.Class != "GPUParticles3D" || f.ProcessMaterial != "ParticleProcessMaterial" || f.DrawPass != "QuadMesh" || f.Amount != 100 || !f.Emitting ||
		f.EmissionShape != 3 || len(f.BoxExtents) != 3 || !ptNear(f.BoxExtents[1], 0.2) || f.ScaleMax == nil || !ptNear(*f.ScaleMax, 1.5) ||
		strings.Join(f.Ramp, ",") != "ffff00ff,ff000000" {
		t.Errorf("saved Fire: %+v", f)
	}
	if sm.Class != "GPUParticles3D" || sm.ProcessMaterial != "ParticleProcessMaterial" || sm.Amount != 20 || sm.Lifetime != 3 || !ptNear(sm.VelMin, 0.3) || !ptNear(sm.VelMax, 0.6) ||
		len(sm.Position) != 3 || sm.Position[0] != 1 || sm.Index != 2 || len(sm.Ramp) != 3 || sm.DrawPass != "QuadMesh" {
		t.Errorf("saved Smoke (converted to GPU, second child after Cam and Fire): %+v", sm)
	}
	if b.Class != "CPUParticles3D" || !b.OneShot || b.Explosiveness != 1 || b.Amount != 96 || b.DrawPass != "QuadMesh" || len(b.Ramp) != 4 {
		t.Errorf("saved Boom (converted to CPU): %+v", b)
	}
	if d.Class != "CPUParticles2D" || len(d.RectExtents) != 2 || d.RectExtents[0] != 30 || d.Amount != 40 {
		t.Errorf("saved Dust: %+v", d)
	}

	// ---- pixels: a fire preset seen by a camera, emitting vs not ----
	t.Run("pixels", func(t *testing.T) {
		if why := rtDisplayAvailable(); why != "" {
			t.Skip("particle pixels: skipped: " + why)
		}
		h.mustCall(t, "godot_scene_create", map[string]any{"path": "res://fire.tscn", "root_type": "Node3D", "root_name": "Stage"}, nil)
		h.mustCall(t, "godot_scene_create_node", map[string]any{"type": "Camera3D", "name": "Cam",
			"properties": map[string]any{"position": map[string]any{"x": 0, "y": 0.6, "z": 2.5}, "current": true}}, nil)
		h.mustCall(t, "godot_particles_create", map[string]any{"type": "gpu_3d", "preset": "fire"}, nil)
		h.mustCall(t, "godot_scene_save", nil, nil)
		on := ptRenderFrame(t, s.project, "res://fire.tscn", true)
		off := ptRenderFrame(t, s.project, "res://fire.tscn", false)
		litOn, fieryOn, orangeOn := ptFirePixels(on)
		litOff, _, _ := ptFirePixels(off)
		if litOn < 300 || fieryOn*10 < litOn*9 || orangeOn < 100 {
			t.Errorf("frame 60 with the fire emitting has %d lit pixels, %d in fire colours, %d orange; want hundreds, nearly all fire-coloured (saved as %s)", litOn, fieryOn, orangeOn, rtSavePNG(t, on, "fire-on"))
		}
		if litOff != 0 {
			t.Errorf("frame 60 with emitting off has %d lit pixels; want the black clear colour only (saved as %s)", litOff, rtSavePNG(t, off, "fire-off"))
		}
		t.Logf("3D GPU fire, frame 60: %d lit pixels (%d fire-coloured, %d orange) emitting, %d not", litOn, fieryOn, orangeOn, litOff)

		// The same in 2D with CPU particles: no camera, the node in the middle of the window.
		h.mustCall(t, "godot_scene_create", map[string]any{"path": "res://fire2d.tscn", "root_type": "Node2D", "root_name": "Stage"}, nil)
		h.mustCall(t, "godot_particles_create", map[string]any{"type": "cpu_2d", "preset": "fire", "position": []float64{320, 240}}, nil)
		h.mustCall(t, "godot_scene_save", nil, nil)
		on2 := ptRenderFrame(t, s.project, "res://fire2d.tscn", true)
		off2 := ptRenderFrame(t, s.project, "res://fire2d.tscn", false)
		lit2, fiery2, orange2 := ptFirePixels(on2)
		litOff2, _, _ := ptFirePixels(off2)
		if lit2 < 100 || fiery2*10 < lit2*9 || orange2 < 30 || litOff2 != 0 {
			t.Errorf("2D CPU fire, frame 60: %d lit (%d fire-coloured, %d orange) emitting (saved as %s), %d not (saved as %s)", lit2, fiery2, orange2, rtSavePNG(t, on2, "fire2d-on"), litOff2, rtSavePNG(t, off2, "fire2d-off"))
		}
		t.Logf("2D CPU fire, frame 60: %d lit pixels (%d fire-coloured, %d orange) emitting, %d not", lit2, fiery2, orange2, litOff2)
	})
}

// ptRenderScript runs a scene in the Compatibility renderer against a black
// clear colour, with its particles emitting or not, and saves frame 60.
const ptRenderScript = `extends SceneTree

var _frames: int = 0
var _out: String = ""


func _initialize() -> void:
	var args: PackedStringArray = OS.get_cmdline_user_args()
	_out = args[1]
	RenderingServer.set_default_clear_color(Color.BLACK)
	var scene: Node = (load(args[0]) as PackedScene).instantiate()
	if args[2] == "off":
		for n: Node in scene.get_children():
			if n is GPUParticles3D or n is CPUParticles3D or n is GPUParticles2D or n is CPUParticles2D:
				n.set("emitting", false)
	root.add_child(scene)


func _process(_delta: float) -> bool:
	_frames += 1
	var at: int = int(OS.get_cmdline_user_args()[3]) if OS.get_cmdline_user_args().size() > 3 else 60
	if _frames == at:
		root.get_texture().get_image().save_png(_out)
		print("PT_RENDERED ", RenderingServer.get_current_rendering_method())
		return true
	return false
`

func ptRenderFrame(t *testing.T, project, scene string, emitting bool, frame ...string) image.Image {
	t.Helper()
	dir := t.TempDir()
	script := filepath.Join(dir, "pt_render.gd")
	if err := os.WriteFile(script, []byte(ptRenderScript), 0o644); err != nil {
		t.Fatal(err)
	}
	out := filepath.Join(dir, "frame.png")
	mode := map[bool]string{true: "on", false: "off"}[emitting]
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, "xvfb-run", "-a", "-s", "-screen 0 1280x1024x24", suite.godot, "--rendering-driver", "opengl3",
		"--rendering-method", "gl_compatibility", "--resolution", "640x360", "--path", project, "--script", script, "--", scene, out, mode)
	cmd.Args = append(cmd.Args, frame...)
	cmd.Env = append(godotEnv(), "GODOT_MCP_BRIDGE_URL=ws://127.0.0.1:1")
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	log, err := cmd.CombinedOutput()
	if err != nil || !strings.Contains(string(log), "PT_RENDERED gl_compatibility") {
		t.Fatalf("rendering %s (%s): %v\n%s", scene, mode, err, log)
	}
	f, err := os.Open(out)
	if err != nil {
		t.Fatalf("no frame: %v\n%s", err, log)
	}
	defer f.Close()
	img, err := png.Decode(f)
	if err != nil {
		t.Fatal(err)
	}
	return img
}

// ptFirePixels counts the pixels brighter than the clear colour, those of
// them in fire's colours (red >= green >= blue: yellow, orange, red, and the
// white where additive particles overlap) and the orange ones among them
// (red well above blue).
func ptFirePixels(img image.Image) (lit, fiery, orange int) {
	b := img.Bounds()
	for y := b.Min.Y; y < b.Max.Y; y++ {
		for x := b.Min.X; x < b.Max.X; x++ {
			r, g, bl, _ := img.At(x, y).RGBA()
			r, g, bl = r>>8, g>>8, bl>>8
			if r+g+bl < 60 {
				continue
			}
			lit++
			if r+4 >= g && g+4 >= bl {
				fiery++
			}
			if r > bl+60 {
				orange++
			}
		}
	}
	return lit, fiery, orange
}

func compactJSON(raw json.RawMessage) string {
	var v any
	if err := json.Unmarshal(raw, &v); err != nil {
		return string(raw)
	}
	b, _ := json.Marshal(v)
	return fmt.Sprint(string(b))
}
