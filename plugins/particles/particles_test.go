package particles

import (
	"context"
	"encoding/json"
	"io/fs"
	"regexp"
	"slices"
	"testing"

	"github.com/godot-mcp/godot-mcp/sdk"
	"github.com/godot-mcp/godot-mcp/sdk/sdktest"
)

// The commands the tools send, with the class handlers.gd must declare.
var commands = []sdktest.EditorCommand{
	{Name: "cmd_particles_create", Class: sdk.Mutating, DryRun: true},
	{Name: "cmd_particles_set", Class: sdk.Mutating, DryRun: true},
	{Name: "cmd_particles_get", Class: sdk.ReadOnly},
	{Name: "cmd_particles_convert", Class: sdk.Mutating, DryRun: true},
	{Name: "cmd_particles_restart", Class: sdk.Mutating, DryRun: true},
}

func start(t *testing.T) *sdktest.Harness {
	t.Helper()
	return sdktest.StartWith(t, Toolset(), commands)
}

var editorFilesShipped = []string{"handlers.gd", "common.gd", "model.gd", "edit.gd", "build.gd"}

// handlers.gd declares every command with the class the tools assume, and
// every script it preloads is shipped.
func TestEditorCodeDeclaresCommands(t *testing.T) {
	sdktest.CheckEditorCode(t, Toolset(), commands, editorFilesShipped...)
}

// model.gd reads back exactly the names the Go side accepts, in the same order.
func TestEditorModelHasTheSameNames(t *testing.T) {
	b, err := fs.ReadFile(Toolset().EditorCode, "model.gd")
	if err != nil {
		t.Fatal(err)
	}
	m := regexp.MustCompile(`(?s)const ORDER: PackedStringArray = \[(.*?)\]`).FindSubmatch(b)
	if m == nil {
		t.Fatal("model.gd has no ORDER")
	}
	var gd []string
	for _, q := range regexp.MustCompile(`"([a-z_0-9]+)"`).FindAllSubmatch(m[1], -1) {
		gd = append(gd, string(q[1]))
	}
	if !slices.Equal(gd, names()) {
		t.Fatalf("model.gd ORDER\n%v\nparams.go table\n%v", gd, names())
	}
}

// Every preset is valid in both dimensions, and its 2D form is in pixels with y down.
func TestPresets(t *testing.T) {
	if got := presetNames(); !slices.Equal(got, []string{"fire", "smoke", "sparks", "explosion", "rain", "snow", "magic", "dust"}) {
		t.Fatalf("presets %v", got)
	}
	for _, p := range presets {
		for _, is2D := range []bool{false, true} {
			if _, err := normalize(p.Name, p.forDim(is2D)); err != nil {
				t.Errorf("preset %s (2D %v): %v", p.Name, is2D, err)
			}
		}
		if p.Look.Blend != "add" && p.Look.Blend != "mix" || p.Look.Size <= 0 || p.Look.Visibility[3] <= 0 {
			t.Errorf("preset %s look %+v", p.Name, p.Look)
		}
	}
	h := start(t)
	var out PresetsOut
	if err := h.MustCall(t, "presets", map[string]any{"dimension": "2d"}).Decode(&out); err != nil {
		t.Fatal(err)
	}
	if len(out.Presets) != 8 || len(out.Parameters) != len(table) || len(h.Commands()) != 0 {
		t.Fatalf("presets: %d presets, %d parameters, commands %v", len(out.Presets), len(out.Parameters), h.Commands())
	}
	fire := out.Presets[0]
	grav, _ := fire.Params["gravity"].([]any)
	vel, _ := fire.Params["initial_velocity"].([]any)
	if fire.Name != "fire" || len(grav) != 2 || grav[1] != -50.0 || vel[0] != 40.0 || fire.Look.Size != 25 || fire.Params["spread"] != 15.0 {
		t.Fatalf("2D fire: %+v", fire)
	}
	h.MustCall(t, "presets", nil).Decode(&out)
	if g := out.Presets[0].Params["gravity"].([]any); len(g) != 3 || g[1] != 1.0 {
		t.Fatalf("3D fire gravity %v", g)
	}
}

func createAnswer(dry bool) map[string]any {
	return map[string]any{"path": "Fire", "class": "GPUParticles3D", "preset": "fire", "look": map[string]any{"sprite": "soft", "blend": "add", "size": 0.5, "aspect": 1, "visibility": []float64{-1, -0.5, -1, 2, 3, 2}},
		"params": map[string]any{"amount": 100}, "persisted": !dry, "undoable": !dry, "dry_run": dry}
}

func TestCreate(t *testing.T) {
	h := start(t)
	h.Addon().Handle("cmd_particles_create", func(_ context.Context, p json.RawMessage) (any, *sdk.Error) {
		var in struct {
			DryRun bool `json:"dry_run"`
		}
		json.Unmarshal(p, &in)
		return createAnswer(in.DryRun), nil
	})
	var out CreateOut
	h.MustCall(t, "create", map[string]any{"type": "GPUParticles3D", "preset": "Fire", "params": map[string]any{"amount": 100, "scale_max": 2, "color": "#ff8800"}}).Decode(&out)
	if out.Path != "Fire" || !out.Undoable || out.DryRun || out.Look.Blend != "add" {
		t.Fatalf("create: %+v", out)
	}
	p := h.LastParams(t, "cmd_particles_create")
	if p["class"] != "GPUParticles3D" || p["preset"] != "fire" || p["name"] != "Fire" || p["dry_run"] != false || p["position"] != nil {
		t.Fatalf("params: %v", p)
	}
	assertSame(t, p["params"], []any{
		map[string]any{"name": "amount", "value": 100},
		map[string]any{"name": "color", "value": []any{1, 0.5333, 0, 1}},
		map[string]any{"name": "scale", "part": "max", "value": 2},
	})
	var base []entry
	b, _ := json.Marshal(p["preset_params"])
	json.Unmarshal(b, &base)
	if len(base) != len(presets[0].Params) {
		t.Fatalf("preset params sent: %s", b)
	}
	h.MustCall(t, "create", map[string]any{"type": "cpu_2d", "preset": "rain", "name": "Drops", "position": []float64{10, 20}}, sdktest.DryRun()).Decode(&out)
	p = h.LastParams(t, "cmd_particles_create")
	if !out.DryRun || p["dry_run"] != true || p["class"] != "CPUParticles2D" || p["name"] != "Drops" || p["look"].(map[string]any)["size"] != 4.0 {
		t.Fatalf("2D dry run: %+v %v", out, p)
	}

	n := len(h.Commands())
	h.MustFail(t, "create", map[string]any{"type": "gpu_3d", "preset": "fier"}, sdk.CodeValidationError, `did you mean "fire"`)
	h.MustFail(t, "create", map[string]any{"type": "gpu_3d", "preset": "lava"}, sdk.CodeValidationError, "fire, smoke, sparks, explosion, rain, snow, magic, dust")
	h.MustFail(t, "create", map[string]any{"type": "gpu_4d", "preset": "fire"}, sdk.CodeValidationError, `did you mean "gpu_3d"`)
	h.MustFail(t, "create", map[string]any{"type": "GPUParticle3D", "preset": "fire"}, sdk.CodeValidationError, `did you mean "GPUParticles3D"`)
	h.MustFail(t, "create", map[string]any{"type": "gpu_3d", "preset": "fire", "position": []float64{1, 2}}, sdk.CodeValidationError, "3 numbers")
	h.MustFail(t, "create", map[string]any{"type": "gpu_3d", "preset": "fire", "name": "a/b"}, sdk.CodeValidationError, "name")
	h.MustFail(t, "create", map[string]any{"type": "gpu_3d", "preset": "fire", "params": map[string]any{"lifetim": 2}}, sdk.CodeValidationError, `did you mean "lifetime"`)
	if len(h.Commands()) != n {
		t.Fatalf("a refused call reached the editor: %v", h.Commands()[n:])
	}
}

// Bad parameters are refused before the editor is asked, each with what it takes.
func TestSetRefusesBadParameters(t *testing.T) {
	h := start(t)
	set := func(params map[string]any) map[string]any { return map[string]any{"node": "Fire", "params": params} }
	for _, c := range []struct {
		params map[string]any
		hint   string
	}{
		{map[string]any{}, "params is empty"},
		{map[string]any{"lifetim": 1}, `did you mean "lifetime"`},
		{map[string]any{"initial_velocity_mn": 1}, `did you mean "initial_velocity_min"`},
		{map[string]any{"amount_min": 1}, "no particle parameter"},
		{map[string]any{"explosiveness": 2}, "out of range"},
		{map[string]any{"amount": 1.5}, "an integer"},
		{map[string]any{"amount": 0}, "out of range"},
		{map[string]any{"one_shot": "yes"}, "true/false"},
		{map[string]any{"spread": 200}, "0..180"},
		{map[string]any{"scale": []float64{2, 1}}, "min 2 is above max 1"},
		{map[string]any{"scale": []float64{-1, 1}}, "out of range"},
		{map[string]any{"scale": 1, "scale_min": 0.5}, "both set scale"},
		{map[string]any{"emission_shape": "sphrere"}, `did you mean "sphere"`},
		{map[string]any{"emission_shape": "cone"}, "point, sphere, sphere_surface, box, ring"},
		{map[string]any{"direction": []float64{1}}, "[x, y]"},
		{map[string]any{"color": "#ff88x"}, "not a colour"},
		{map[string]any{"color": []float64{1, 0}}, "[r, g, b]"},
		{map[string]any{"color_ramp": []any{}}, "colour ramp"},
		{map[string]any{"color_ramp": []any{map[string]any{"offset": 2, "color": "#fff"}}}, "out of range 0..1"},
		{map[string]any{"scale_curve": [][]float64{{1.5, 1}}}, "x 1.5 is out of range"},
		{map[string]any{"scale_curve": [][]float64{{0.5, 1}, {0.5, 2}}}, "two points"},
		{map[string]any{"texture": "/etc/passwd"}, "res://"},
		{map[string]any{"texture": "res://../x.png"}, "res://"},
	} {
		h.MustFail(t, "set", set(c.params), sdk.CodeValidationError, c.hint)
	}
	h.MustFail(t, "set", map[string]any{"node": " ", "params": map[string]any{"amount": 1}}, sdk.CodeValidationError, "node")
	if len(h.Commands()) != 0 {
		t.Fatalf("a refused call reached the editor: %v", h.Commands())
	}
}

func TestSetSendsNormalisedValues(t *testing.T) {
	h := start(t)
	h.Addon().Handle("cmd_particles_set", func(_ context.Context, p json.RawMessage) (any, *sdk.Error) {
		var in struct {
			DryRun bool `json:"dry_run"`
		}
		json.Unmarshal(p, &in)
		return map[string]any{"path": "Fire", "class": "CPUParticles2D", "changes": []any{map[string]any{"name": "amount", "old": 8, "new": 64}},
			"params": map[string]any{"amount": 64}, "persisted": !in.DryRun, "undoable": !in.DryRun, "dry_run": in.DryRun}, nil
	})
	args := map[string]any{"node": "Fire", "params": map[string]any{
		"amount": 64, "Explosiveness": 0.5, "scale_min": 0.25, "initial_velocity": []float64{10, 20}, "damping": map[string]any{"min": 1, "max": 2},
		"emission_shape": "Rectangle", "gravity": []float64{0, 98}, "color": "orange", "color_ramp": []any{"#fff", "#ff000080", "#f000"},
		"scale_curve": [][]float64{{1, 0}, {0, 1}}, "alpha_curve": nil, "texture": "",
	}}
	var out SetOut
	h.MustCall(t, "set", args).Decode(&out)
	if !out.Undoable || len(out.Changes) != 1 || out.Changes[0].Name != "amount" {
		t.Fatalf("set: %+v", out)
	}
	p := h.LastParams(t, "cmd_particles_set")
	if p["node"] != "Fire" || p["dry_run"] != false {
		t.Fatalf("params %v", p)
	}
	assertSame(t, p["params"], []any{
		map[string]any{"name": "explosiveness", "value": 0.5},
		map[string]any{"name": "alpha_curve", "value": nil},
		map[string]any{"name": "amount", "value": 64},
		map[string]any{"name": "color", "value": "orange"},
		map[string]any{"name": "color_ramp", "value": []any{
			map[string]any{"offset": 0, "color": []any{1, 1, 1, 1}},
			map[string]any{"offset": 0.5, "color": []any{1, 0, 0, 0.502}},
			map[string]any{"offset": 1, "color": []any{1, 0, 0, 0}}}},
		map[string]any{"name": "damping", "value": []any{1, 2}},
		map[string]any{"name": "emission_shape", "value": "box"},
		map[string]any{"name": "gravity", "value": []any{0, 98}},
		map[string]any{"name": "initial_velocity", "value": []any{10, 20}},
		map[string]any{"name": "scale_curve", "value": []any{[]any{0, 1}, []any{1, 0}}},
		map[string]any{"name": "scale", "part": "min", "value": 0.25},
		map[string]any{"name": "texture", "value": ""},
	})
	h.MustCall(t, "set", args, sdktest.DryRun()).Decode(&out)
	if !out.DryRun || out.Undoable || h.LastParams(t, "cmd_particles_set")["dry_run"] != true {
		t.Fatalf("dry run: %+v", out)
	}
	// The editor's refusal (a parameter this class lacks, a missing node) reaches the agent as it is.
	h.Addon().HandleError("cmd_particles_set", sdk.NotFound("No node 'Fir'. Did you mean 'Fire'?"))
	h.MustFail(t, "set", map[string]any{"node": "Fir", "params": map[string]any{"amount": 1}}, sdk.CodeResourceNotFound, "Did you mean 'Fire'")
}

func TestGetConvertRestart(t *testing.T) {
	h := start(t)
	h.Addon().HandleResult("cmd_particles_get", map[string]any{"scene": "res://fx.tscn", "nodes": []any{map[string]any{"path": "Fire", "class": "GPUParticles3D", "emitting": true, "amount": 48, "lifetime": 1, "one_shot": false}}})
	var got GetOut
	h.MustCall(t, "get", nil).Decode(&got)
	if len(got.Nodes) != 1 || got.Nodes[0].Amount != 48 || h.LastParams(t, "cmd_particles_get")["node"] != "" {
		t.Fatalf("get: %+v", got)
	}
	h.Addon().HandleResult("cmd_particles_convert", map[string]any{"path": "Fire", "from": "GPUParticles3D", "to": "CPUParticles3D", "params": map[string]any{"amount": 48}, "persisted": true, "undoable": true, "dry_run": false})
	var conv ConvertOut
	h.MustCall(t, "convert", map[string]any{"node": "Fire"}).Decode(&conv)
	if conv.To != "CPUParticles3D" || conv.Dropped == nil || !conv.Undoable {
		t.Fatalf("convert: %+v", conv)
	}
	h.MustCall(t, "convert", map[string]any{"node": "Fire"}, sdktest.DryRun())
	if h.LastParams(t, "cmd_particles_convert")["dry_run"] != true {
		t.Fatal("convert dry run not passed on")
	}
	h.Addon().HandleResult("cmd_particles_restart", map[string]any{"path": "Fire", "class": "GPUParticles3D", "emitting": true, "restarted": true, "changed": true, "persisted": true, "undoable": true, "dry_run": false})
	var rs RestartOut
	h.MustCall(t, "restart", map[string]any{"node": "Fire"}).Decode(&rs)
	if !rs.Restarted || h.LastParams(t, "cmd_particles_restart")["emitting"] != true {
		t.Fatalf("restart: %+v", rs)
	}
	h.MustCall(t, "restart", map[string]any{"node": "Fire", "emitting": false})
	if h.LastParams(t, "cmd_particles_restart")["emitting"] != false {
		t.Fatal("emitting false not passed on")
	}
	h.Addon().HandleError("cmd_particles_restart", sdk.PreconditionFailed(sdk.RequireActiveScene, "No scene is open"))
	h.MustFail(t, "restart", map[string]any{"node": "Fire"}, sdk.CodePreconditionFailed, "No scene")
}

// The toolset's tools/list share stays well under the per-toolset budget (16 KB).
func TestToolsListShare(t *testing.T) {
	h := start(t)
	total := 0
	for _, tool := range h.Tools() {
		b, _ := json.Marshal(tool)
		total += len(b)
		if len(tool.Description) > 600 {
			t.Errorf("%s: description of %d chars (limit 600)", tool.Name, len(tool.Description))
		}
	}
	if total > 14*1024 {
		t.Fatalf("tools/list share %d bytes", total)
	}
	t.Logf("tools/list share about %d bytes", total)
}

func assertSame(t *testing.T, got, want any) {
	t.Helper()
	g, _ := json.Marshal(got)
	w, _ := json.Marshal(want)
	sdktest.AssertJSON(t, g, string(w))
}
