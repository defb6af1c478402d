package e2e

import (
	"context"
	"encoding/json"
	"image"
	"image/color"
	"image/png"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"
)

// ---- material toolset e2e: PBR sets, import settings, slots, read-back, pixels ----

// matWritePNG writes a w×h solid-colour PNG into the project.
func matWritePNG(t *testing.T, project, rel string, c color.NRGBA) {
	t.Helper()
	img := image.NewNRGBA(image.Rect(0, 0, 16, 16))
	for y := 0; y < 16; y++ {
		for x := 0; x < 16; x++ {
			img.Set(x, y, c)
		}
	}
	p := filepath.Join(project, filepath.FromSlash(rel))
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		t.Fatal(err)
	}
	f, err := os.Create(p)
	if err != nil {
		t.Fatal(err)
	}
	if err := png.Encode(f, img); err != nil {
		t.Fatal(err)
	}
	f.Close()
}

func matFile(t *testing.T, project, rel string) string {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(project, filepath.FromSlash(rel)))
	if err != nil {
		return ""
	}
	return string(b)
}

type matInfo struct {
	Class  string         `json:"class"`
	Path   *string        `json:"path"`
	Params map[string]any `json:"params"`
}

type matCreate struct {
	Material *matInfo `json:"material"`
	Textures []struct {
		Role          string                    `json:"role"`
		Path          string                    `json:"path"`
		ImportChanges map[string]map[string]any `json:"import_changes"`
		Reimported    bool                      `json:"reimported"`
	} `json:"textures"`
	Unmatched []string `json:"unmatched"`
	Saved     string   `json:"saved"`
	Assigned  *struct {
		Node     string   `json:"node"`
		Slot     string   `json:"slot"`
		Surface  int      `json:"surface"`
		Previous *matInfo `json:"previous"`
	} `json:"assigned"`
	sceneEdit
}

func (c matCreate) texture(role string) (string, map[string]map[string]any) {
	for _, x := range c.Textures {
		if x.Role == role {
			return x.Path, x.ImportChanges
		}
	}
	return "", nil
}

type matGet struct {
	Node     string `json:"node"`
	Class    string `json:"class"`
	Surfaces []struct {
		Surface  int      `json:"surface"`
		Source   string   `json:"source"`
		Material *matInfo `json:"material"`
	} `json:"surfaces"`
	Override *matInfo `json:"override"`
	Canvas   *matInfo `json:"canvas"`
	Material *matInfo `json:"material"`
}

func matFail(t *testing.T, s *session, tool string, args map[string]any, code string, hintHas ...string) {
	t.Helper()
	sceneFail(t, s, "godot_material_"+tool, args, code, hintHas...)
}

// matCheckScript loads the saved scene and material in a fresh headless
// Godot and prints what the test checks.
const matCheckScript = `extends SceneTree

func _initialize() -> void:
	var args: PackedStringArray = OS.get_cmdline_user_args()
	var root: Node = (load(args[0]) as PackedScene).instantiate()
	var box: MeshInstance3D = root.get_node("Box")
	var so: Material = box.get_surface_override_material(0)
	var ov: Material = box.material_override
	var sprite: CanvasItem = root.get_node("Sprite")
	var file: StandardMaterial3D = load(args[1]) as StandardMaterial3D
	var out: Dictionary = {
		"surface": [so.resource_path if so != null else "", so.get_class() if so != null else ""],
		"override": ov.resource_path if ov != null else "",
		"canvas": [sprite.material.get_class() if sprite.material != null else "", int(sprite.material.get("blend_mode")) if sprite.material != null else -1],
		"file": [file.albedo_texture.resource_path if file.albedo_texture else "", file.normal_enabled, file.normal_texture.resource_path if file.normal_texture else "",
			file.roughness_texture.resource_path if file.roughness_texture else "", file.metallic, file.albedo_color.to_html(false)],
	}
	root.free()
	print("MAT_CHECK " + JSON.stringify(out))
	quit()
`

type matCheck struct {
	Surface  []string `json:"surface"`
	Override string   `json:"override"`
	Canvas   []any    `json:"canvas"`
	File     []any    `json:"file"`
}

func loadMaterialsHeadless(t *testing.T, project, scene, mat string) matCheck {
	t.Helper()
	script := filepath.Join(t.TempDir(), "mat_check.gd")
	if err := os.WriteFile(script, []byte(matCheckScript), 0o644); err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, suite.godot, "--headless", "--path", project, "--script", script, "--", scene, mat)
	cmd.Env = append(godotEnv(), "GODOT_MCP_BRIDGE_URL=ws://127.0.0.1:1")
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("headless load: %v\n%s", err, out)
	}
	checkEditorOutput(t, "headless material check", string(out))
	for _, line := range strings.Split(string(out), "\n") {
		if rest, ok := strings.CutPrefix(strings.TrimSpace(line), "MAT_CHECK "); ok {
			var got matCheck
			if err := json.Unmarshal([]byte(rest), &got); err != nil {
				t.Fatalf("bad JSON: %v\n%s", err, rest)
			}
			return got
		}
	}
	t.Fatalf("no MAT_CHECK line:\n%s", out)
	return matCheck{}
}

// A material built from a PBR set found by name (import settings fixed and
// reimported), put on a mesh surface and saved as a .tres; refusals with
// did-you-mean that leave nothing behind; a dry run that changes nothing;
// one undo reverting imports, file and slot; parameters by name on the file;
// a CanvasItemMaterial; an override; the effective materials read back; the
// saved scene and .tres read by a fresh Godot.
func TestMaterialFromTextures(t *testing.T) {
	s := newSession(t)
	h := s.host
	for _, ts := range []string{"scene", "resources", "material"} {
		h.mustCall(t, "godot_enable_toolset", map[string]any{"name": ts}, nil)
	}
	matWritePNG(t, s.project, "tex/crate_albedo.png", color.NRGBA{200, 60, 30, 255})
	matWritePNG(t, s.project, "tex/crate_normal.png", color.NRGBA{128, 128, 255, 255})
	matWritePNG(t, s.project, "tex/crate_rough.png", color.NRGBA{150, 150, 150, 255})
	matWritePNG(t, s.project, "tex/brick_col.png", color.NRGBA{150, 40, 40, 255})
	matWritePNG(t, s.project, "tex/readme_image.png", color.NRGBA{0, 0, 0, 255})
	h.mustCall(t, "godot_resources_rescan", nil, nil)
	h.mustCall(t, "godot_scene_create", map[string]any{"path": "res://mat.tscn", "root_type": "Node3D", "root_name": "World"}, nil)
	for _, n := range []map[string]any{
		{"type": "MeshInstance3D", "name": "Box", "properties": map[string]any{"mesh": map[string]any{"type": "BoxMesh"}}},
		{"type": "Node3D", "name": "Empty"},
		{"type": "Sprite2D", "name": "Sprite"},
		{"type": "MeshInstance3D", "name": "Ball", "properties": map[string]any{"mesh": map[string]any{"type": "SphereMesh"}}},
	} {
		h.mustCall(t, "godot_scene_create_node", n, nil)
	}
	normalImport := func() string { return matFile(t, s.project, "tex/crate_normal.png.import") }
	before := normalImport()
	if before == "" || strings.Contains(before, "compress/normal_map=1") {
		t.Fatalf("crate_normal.png.import before: %q", before)
	}
	base := map[string]any{"textures": "res://tex", "set": "crate", "save_path": "res://mats/crate.tres", "node": "Box"}

	// ---- refusals: did-you-mean, the valid set, nothing half-applied ----
	matFail(t, s, "create", map[string]any{"textures": "res://tex", "node": "Box"}, "VALIDATION_ERROR", "2 texture sets", "brick", "crate")
	matFail(t, s, "create", withArgs(base, "set", "crat"), "RESOURCE_NOT_FOUND", "Did you mean 'crate'", "Sets: brick, crate")
	matFail(t, s, "create", withArgs(base, "textures", "res://texx"), "RESOURCE_NOT_FOUND", "No folder at")
	matFail(t, s, "create", withArgs(base, "node", "Bx"), "RESOURCE_NOT_FOUND", "Box")
	matFail(t, s, "create", withArgs(base, "node", "Empty"), "VALIDATION_ERROR", "holds no material")
	matFail(t, s, "create", withArgs(base, "surface", 3), "VALIDATION_ERROR", "surface 3", "surface(s): 0")
	matFail(t, s, "create", withArgs(base, "slot", "canvas"), "VALIDATION_ERROR", "surface, override, overlay, mesh")
	matFail(t, s, "create", withArgs(base, "params", map[string]any{"roughnes": 0.5}), "VALIDATION_ERROR", "Did you mean 'roughness'", "albedo_color")
	matFail(t, s, "create", withArgs(base, "params", map[string]any{"metallic": 2}), "VALIDATION_ERROR", "metallic = 2", "[0, 1]")
	matFail(t, s, "create", withArgs(base, "type", "orm"), "VALIDATION_ERROR", "ORMMaterial3D", "roughness")
	matFail(t, s, "create", withArgs(base, "maps", map[string]any{"height": "res://tex/crate_hieght.png"}), "RESOURCE_NOT_FOUND", "No height texture at")
	// ---- dry run: the full report, nothing changed ----
	var cr matCreate
	h.mustCall(t, "godot_material_create", withArgs(base, "dry_run", true), &cr)
	_, nch := cr.texture("normal")
	if !cr.DryRun || cr.Undoable || cr.Material == nil || cr.Material.Class != "StandardMaterial3D" || nch["compress/normal_map"]["new"] != 1.0 ||
		len(cr.Unmatched) != 1 || cr.Unmatched[0] != "readme_image.png" || cr.Assigned == nil || cr.Assigned.Previous != nil {
		t.Fatalf("dry run: %+v", cr)
	}
	if normalImport() != before || matFile(t, s.project, "mats/crate.tres") != "" {
		t.Fatalf("a refused call or the dry run changed files: import %q", normalImport())
	}

	// ---- create ----
	cr = matCreate{}
	h.mustCall(t, "godot_material_create", withArgs(base, "params", map[string]any{"uv1_scale": map[string]any{"x": 2, "y": 2, "z": 1}}), &cr)
	alb, ach := cr.texture("albedo")
	_, rch := cr.texture("roughness")
	if cr.DryRun || !cr.Undoable || !cr.Persisted || cr.Saved != "res://mats/crate.tres" || alb != "res://tex/crate_albedo.png" ||
		ach["compress/mode"]["new"] != 2.0 || rch["roughness/src_normal"]["new"] != "res://tex/crate_normal.png" ||
		cr.Material.Params["normal_enabled"] != true || cr.Material.Params["metallic"] != 0.0 || cr.Material.Params["albedo_texture"] != alb {
		t.Fatalf("create: %+v", cr)
	}
	imp := normalImport()
	if !strings.Contains(imp, "compress/normal_map=1") || !strings.Contains(imp, "compress/channel_pack=1") || !strings.Contains(imp, "mipmaps/generate=true") {
		t.Fatalf("crate_normal.png.import after create:\n%s", imp)
	}
	if r := matFile(t, s.project, "tex/crate_rough.png.import"); !strings.Contains(r, `roughness/src_normal="res://tex/crate_normal.png"`) || !strings.Contains(r, "roughness/mode=2") {
		t.Fatalf("crate_rough.png.import:\n%s", r)
	}
	if tres := matFile(t, s.project, "mats/crate.tres"); !strings.Contains(tres, "StandardMaterial3D") || !strings.Contains(tres, "res://tex/crate_normal.png") {
		t.Fatalf("crate.tres:\n%s", tres)
	}
	var g matGet
	get := func(node string) {
		t.Helper()
		g = matGet{}
		h.mustCall(t, "godot_material_get", map[string]any{"node": node}, &g)
	}
	get("Box")
	if len(g.Surfaces) != 1 || g.Surfaces[0].Source != "surface_override" || g.Surfaces[0].Material == nil || *g.Surfaces[0].Material.Path != "res://mats/crate.tres" {
		t.Fatalf("get after create: %+v", g)
	}
	// One undo reverts the import settings, the file and the slot.
	sceneUndo(t, s)
	get("Box")
	if g.Surfaces[0].Source != "none" || g.Surfaces[0].Material != nil {
		t.Fatalf("get after undo: %+v", g)
	}
	if strings.Contains(normalImport(), "compress/normal_map=1") || matFile(t, s.project, "mats/crate.tres") != "" {
		t.Fatalf("undo left the import settings or the file:\n%s", normalImport())
	}
	sceneRedo(t, s)
	get("Box")
	if g.Surfaces[0].Source != "surface_override" || !strings.Contains(normalImport(), "compress/normal_map=1") || matFile(t, s.project, "mats/crate.tres") == "" {
		t.Fatalf("after redo: %+v", g)
	}
	// The file exists now: replacing it needs overwrite (and confirm).
	matFail(t, s, "create", base, "VALIDATION_ERROR", "already exists")

	// ---- set_params on the material in the slot (a file: saved at once) ----
	type setOut struct {
		Target  string `json:"target"`
		File    string `json:"file"`
		Changed []struct {
			Name string `json:"name"`
		} `json:"changed"`
		sceneEdit
	}
	var so setOut
	matFail(t, s, "set_params", map[string]any{"node": "Box", "set": map[string]any{"albedo": "#ff0000"}}, "VALIDATION_ERROR", "Did you mean 'albedo_color'")
	matFail(t, s, "set_params", map[string]any{"node": "Box", "set": map[string]any{"roughness": -1}}, "VALIDATION_ERROR", "roughness = -1")
	matFail(t, s, "set_params", map[string]any{"node": "Box", "set": map[string]any{"albedo_color": 7}}, "VALIDATION_ERROR", "albedo_color")
	h.mustCall(t, "godot_material_set_params", map[string]any{"node": "Box", "set": map[string]any{"albedo_color": "#808080", "metallic": 0.25}}, &so)
	if so.File != "res://mats/crate.tres" || len(so.Changed) != 2 || !so.Undoable || !so.Persisted {
		t.Fatalf("set_params: %+v", so)
	}
	if tres := matFile(t, s.project, "mats/crate.tres"); !strings.Contains(tres, "albedo_color = Color(0.5") || !strings.Contains(tres, "metallic = 0.25") {
		t.Fatalf("crate.tres after set_params:\n%s", tres)
	}
	// A material file's edit is in the global history: undo saves the old values.
	var u undoAnswer
	h.mustCall(t, "godot_undo", map[string]any{"history": "global"}, &u)
	if tres := matFile(t, s.project, "mats/crate.tres"); u.Performed != 1 || strings.Contains(tres, "albedo_color") || strings.Contains(tres, "metallic = 0.25") {
		t.Fatalf("crate.tres after undo (%+v):\n%s", u, tres)
	}
	h.mustCall(t, "godot_redo", map[string]any{"history": "global"}, &u)
	if tres := matFile(t, s.project, "mats/crate.tres"); u.Performed != 1 || !strings.Contains(tres, "metallic = 0.25") {
		t.Fatalf("crate.tres after redo (%+v):\n%s", u, tres)
	}

	// ---- a CanvasItemMaterial on the sprite (embedded), an override on the box ----
	matFail(t, s, "create", map[string]any{"type": "canvas_item", "node": "Box"}, "VALIDATION_ERROR", "CanvasItemMaterial")
	cr = matCreate{}
	h.mustCall(t, "godot_material_create", map[string]any{"type": "canvas_item", "node": "Sprite", "params": map[string]any{"blend_mode": "Add"}}, &cr)
	if cr.Material == nil || cr.Material.Class != "CanvasItemMaterial" || cr.Material.Path != nil || cr.Material.Params["blend_mode"] != 1.0 || cr.Assigned.Slot != "canvas" {
		t.Fatalf("canvas_item: %+v", cr)
	}
	type assignOut struct {
		Slot     string   `json:"slot"`
		Previous *matInfo `json:"previous"`
		Material *matInfo `json:"material"`
		sceneEdit
	}
	var ao assignOut
	matFail(t, s, "assign", map[string]any{"node": "Box", "slot": "override", "material": "res://mats/crat.tres"}, "RESOURCE_NOT_FOUND", "crate.tres")
	matFail(t, s, "assign", map[string]any{"node": "Sprite", "material": "res://mats/crate.tres"}, "VALIDATION_ERROR", "CanvasItem")
	h.mustCall(t, "godot_material_assign", map[string]any{"node": "Box", "slot": "override", "material": "res://mats/crate.tres", "dry_run": true}, &ao)
	get("Box")
	if !ao.DryRun || g.Override != nil {
		t.Fatalf("assign dry run: %+v / %+v", ao, g)
	}
	h.mustCall(t, "godot_material_assign", map[string]any{"node": "Box", "slot": "override", "material": "res://mats/crate.tres"}, &ao)
	get("Box")
	if !ao.Undoable || ao.Previous != nil || g.Override == nil || g.Surfaces[0].Source != "override" {
		t.Fatalf("assign override: %+v / %+v", ao, g)
	}
	get("Sprite")
	if g.Canvas == nil || g.Canvas.Class != "CanvasItemMaterial" || g.Surfaces[0].Source != "canvas" {
		t.Fatalf("get sprite: %+v", g)
	}
	matFail(t, s, "get", map[string]any{"node": "Empty"}, "VALIDATION_ERROR", "holds no material")

	// ---- the mesh's own surface material (an embedded PrimitiveMesh) ----
	h.mustCall(t, "godot_material_assign", map[string]any{"node": "Ball", "slot": "mesh", "material": "res://mats/crate.tres"}, &ao)
	get("Ball")
	if !ao.Undoable || len(g.Surfaces) != 1 || g.Surfaces[0].Source != "mesh" || g.Surfaces[0].Material == nil || *g.Surfaces[0].Material.Path != "res://mats/crate.tres" {
		t.Fatalf("mesh slot: %+v / %+v", ao, g)
	}
	matFail(t, s, "assign", map[string]any{"node": "Ball", "slot": "override", "surface": 1, "material": ""}, "VALIDATION_ERROR", "surface is for slot surface or mesh")
	sceneUndo(t, s)
	get("Ball")
	if g.Surfaces[0].Source != "none" {
		t.Fatalf("mesh slot after undo: %+v", g)
	}

	// ---- ShaderMaterial uniforms by name (with did-you-mean and hint_range) ----
	shader := "shader_type spatial;\nuniform vec4 tint : source_color = vec4(1.0);\nuniform float strength : hint_range(0.0, 1.0) = 0.5;\nvoid fragment() { ALBEDO = tint.rgb * strength; }\n"
	if err := os.WriteFile(filepath.Join(s.project, "tint.gdshader"), []byte(shader), 0o644); err != nil {
		t.Fatal(err)
	}
	h.mustCall(t, "godot_resources_rescan", nil, nil)
	h.mustCall(t, "godot_scene_create_node", map[string]any{"type": "MeshInstance3D", "name": "Shaded", "properties": map[string]any{"mesh": map[string]any{"type": "BoxMesh"},
		"material_override": map[string]any{"type": "ShaderMaterial", "properties": map[string]any{"shader": "res://tint.gdshader"}}}}, nil)
	sh := map[string]any{"node": "Shaded", "slot": "override"}
	matFail(t, s, "set_params", withArgs(sh, "set", map[string]any{"stregth": 0.5}), "VALIDATION_ERROR", "Did you mean 'strength'")
	matFail(t, s, "set_params", withArgs(sh, "set", map[string]any{"strength": 2}), "VALIDATION_ERROR", "strength = 2", "[0.0, 1.0]")
	h.mustCall(t, "godot_material_set_params", withArgs(sh, "set", map[string]any{"tint": "#ff0000", "strength": 0.75}), &so)
	get("Shaded")
	if len(so.Changed) != 2 || g.Override == nil || g.Override.Class != "ShaderMaterial" || g.Override.Params["strength"] != 0.75 || g.Override.Params["shader"] != "res://tint.gdshader" {
		t.Fatalf("shader params: %+v / %+v", so, g.Override)
	}

	// ---- a material file alone: the global history ----
	cr = matCreate{}
	h.mustCall(t, "godot_material_create", map[string]any{"type": "canvas_item", "save_path": "res://mats/glow.tres", "params": map[string]any{"light_mode": "Unshaded"}}, &cr)
	g = matGet{}
	h.mustCall(t, "godot_material_get", map[string]any{"path": "res://mats/glow.tres"}, &g)
	if !cr.Undoable || cr.Assigned != nil || g.Material == nil || g.Material.Class != "CanvasItemMaterial" || g.Material.Params["light_mode"] != 1.0 ||
		!strings.Contains(matFile(t, s.project, "mats/glow.tres"), "light_mode = 1") {
		t.Fatalf("canvas_item file: %+v / %+v", cr, g)
	}
	h.mustCall(t, "godot_undo", map[string]any{"history": "global"}, &u)
	if u.Performed != 1 || matFile(t, s.project, "mats/glow.tres") != "" || matFile(t, s.project, "mats/crate.tres") == "" {
		t.Fatalf("undo of the file-only create (%+v) left glow.tres or removed crate.tres", u)
	}

	// ---- saved, read back by a fresh Godot ----
	h.mustCall(t, "godot_scene_save", nil, nil)
	c := loadMaterialsHeadless(t, s.project, "res://mat.tscn", "res://mats/crate.tres")
	if len(c.Surface) != 2 || c.Surface[0] != "res://mats/crate.tres" || c.Surface[1] != "StandardMaterial3D" || c.Override != "res://mats/crate.tres" {
		t.Fatalf("saved slots: %+v", c)
	}
	if len(c.Canvas) != 2 || c.Canvas[0] != "CanvasItemMaterial" || c.Canvas[1] != 1.0 {
		t.Fatalf("saved canvas material: %+v", c)
	}
	if len(c.File) != 6 || c.File[0] != "res://tex/crate_albedo.png" || c.File[1] != true || c.File[2] != "res://tex/crate_normal.png" ||
		c.File[3] != "res://tex/crate_rough.png" || c.File[4] != 0.25 || c.File[5] != "808080" {
		t.Fatalf("saved material file: %+v", c)
	}
}

// PIXELS: under Xvfb with the Compatibility renderer, a quad in front of a
// Camera3D wearing an unshaded material built from a generated solid-colour
// texture shows that colour in the running game's screenshot.
func TestMaterialPixelsUnderXvfb(t *testing.T) {
	if why := rtDisplayAvailable(); why != "" {
		t.Skip("material pixels: skipped: " + why)
	}
	s := rtSession(t, true)
	h := s.host
	for _, ts := range []string{"scene", "resources", "material", "runtime"} {
		h.mustCall(t, "godot_enable_toolset", map[string]any{"name": ts}, nil)
	}
	rtWaitStatus(t, s, "the probe autoload to be registered", func(st rtStatus) bool { return st.ProbeRegistered })
	albedo := color.NRGBA{200, 60, 30, 255}
	matWritePNG(t, s.project, "pix/paint_albedo.png", albedo)
	h.mustCall(t, "godot_resources_rescan", nil, nil)
	h.mustCall(t, "godot_scene_create", map[string]any{"path": "res://pix.tscn", "root_type": "Node3D", "root_name": "World"}, nil)
	for _, n := range []map[string]any{
		{"type": "Camera3D", "name": "Cam", "properties": map[string]any{"position": map[string]any{"x": 0, "y": 0, "z": 2}, "current": true}},
		{"type": "MeshInstance3D", "name": "Quad", "properties": map[string]any{"mesh": map[string]any{"type": "QuadMesh", "properties": map[string]any{"size": map[string]any{"x": 10, "y": 10}}}}},
		{"type": "MeshInstance3D", "name": "Plain", "properties": map[string]any{"mesh": map[string]any{"type": "QuadMesh"}, "position": map[string]any{"x": 0, "y": -0.5, "z": 1}}},
	} {
		h.mustCall(t, "godot_scene_create_node", n, nil)
	}
	var cr matCreate
	h.mustCall(t, "godot_material_create", map[string]any{"textures": "res://pix", "save_path": "res://pix/paint.tres", "node": "Quad",
		"params": map[string]any{"shading_mode": "Unshaded"}}, &cr)
	if cr.Material == nil || cr.Material.Params["shading_mode"] != 0.0 || cr.Material.Params["albedo_texture"] != "res://pix/paint_albedo.png" {
		t.Fatalf("create: %+v", cr)
	}
	h.mustCall(t, "godot_scene_save", nil, nil)
	var run rtPlay
	h.mustCall(t, "godot_runtime_play", map[string]any{"scene": "res://pix.tscn", "timeout_ms": 60000}, &run)
	t.Cleanup(func() { h.call(context.Background(), "godot_runtime_stop", nil) })
	if run.Headless {
		t.Fatalf("the game runs headless under Xvfb: %+v", run)
	}
	var img image.Image
	deadline := time.Now().Add(20 * time.Second)
	for {
		img, _ = rtScreenshot(t, h, nil)
		b := img.Bounds()
		if rtNear(img.At(b.Min.X+b.Dx()/2, b.Min.Y+b.Dy()/4), albedo.R, albedo.G, albedo.B) || time.Now().After(deadline) {
			break
		}
		time.Sleep(500 * time.Millisecond)
	}
	b := img.Bounds()
	// Upper half: the textured quad fills the view; the clear colour is blue.
	for _, p := range [][2]int{{b.Dx() / 2, b.Dy() / 4}, {b.Dx() / 4, b.Dy() / 3}, {3 * b.Dx() / 4, b.Dy() / 5}} {
		if c := img.At(b.Min.X+p[0], b.Min.Y+p[1]); !rtNear(c, albedo.R, albedo.G, albedo.B) {
			t.Errorf("pixel (%d,%d) is %v, want the albedo texture's colour %v (saved as %s)", p[0], p[1], c, albedo, rtSavePNG(t, img, "material"))
		}
	}
	// The lower quad, without a material, is not that colour: the colour comes from the material.
	if c := img.At(b.Min.X+b.Dx()/2, b.Max.Y-b.Dy()/6); rtNear(c, albedo.R, albedo.G, albedo.B) {
		t.Errorf("the quad without a material is %v too (saved as %s)", c, rtSavePNG(t, img, "material-plain"))
	}
}
