package e2e

import (
	"context"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"
)

// ---- sub-resource paths and editor-side method calls, in a real editor ----

// subresSession is an editor with the scene and resources toolsets and
// res://room.tscn open: a Node3D root Room with
//
//	Env   WorldEnvironment, Environment (fog on, density 0.01)
//	Ball  MeshInstance3D, SphereMesh with a StandardMaterial3D (white, roughness 0.3)
//	Box   MeshInstance3D, BoxMesh without a material
//	Path  Path3D with an empty Curve3D
//	Cam   Camera3D at (0, 2, 5)
func subresSession(t *testing.T) *session {
	t.Helper()
	s := newSession(t)
	h := s.host
	for _, ts := range []string{"scene", "resources"} {
		h.mustCall(t, "godot_enable_toolset", map[string]any{"name": ts}, nil)
	}
	h.mustCall(t, "godot_scene_create", map[string]any{"path": "res://room.tscn", "root_type": "Node3D", "root_name": "Room"}, nil)
	for _, n := range []map[string]any{
		{"type": "WorldEnvironment", "name": "Env", "properties": map[string]any{"environment": map[string]any{"type": "Environment", "properties": map[string]any{"fog_enabled": true, "fog_density": 0.01}}}},
		{"type": "MeshInstance3D", "name": "Ball", "properties": map[string]any{"mesh": map[string]any{"type": "SphereMesh", "properties": map[string]any{
			"material": map[string]any{"type": "StandardMaterial3D", "properties": map[string]any{"albedo_color": "#ffffff", "roughness": 0.3}}}}}},
		{"type": "MeshInstance3D", "name": "Box", "properties": map[string]any{"mesh": map[string]any{"type": "BoxMesh"}}},
		{"type": "Path3D", "name": "Path", "properties": map[string]any{"curve": map[string]any{"type": "Curve3D"}}},
		{"type": "Camera3D", "name": "Cam", "properties": map[string]any{"position": map[string]any{"x": 0, "y": 2, "z": 5}}},
	} {
		h.mustCall(t, "godot_scene_create_node", n, nil)
	}
	return s
}

type subChange struct {
	Property   string          `json:"property"`
	Old        json.RawMessage `json:"old"`
	New        json.RawMessage `json:"new"`
	SharedWith []string        `json:"shared_with"`
	SavedTo    string          `json:"saved_to"`
}

type subSetOut struct {
	Changes []subChange `json:"changes"`
	sceneEdit
}

// subProps reads properties (paths allowed) of a node of the edited scene.
func subProps(t *testing.T, s *session, node string, props ...string) map[string]json.RawMessage {
	t.Helper()
	var out struct {
		Properties map[string]json.RawMessage `json:"properties"`
	}
	s.host.mustCall(t, "godot_scene_get_node", map[string]any{"node": node, "properties": props}, &out)
	return out.Properties
}

func colorOf(t *testing.T, raw json.RawMessage) [4]float64 {
	t.Helper()
	var c struct{ R, G, B, A float64 }
	if err := json.Unmarshal(raw, &c); err != nil {
		t.Fatalf("not a colour: %s", raw)
	}
	return [4]float64{c.R, c.G, c.B, c.A}
}

// subresCheckScript loads the saved room in a fresh headless Godot and prints
// what the tests check.
const subresCheckScript = `extends SceneTree

func _initialize() -> void:
	var root: Node = (load(OS.get_cmdline_user_args()[0]) as PackedScene).instantiate()
	var env: Environment = (root.get_node("Env") as WorldEnvironment).environment
	var ball: MeshInstance3D = root.get_node("Ball")
	var mat: StandardMaterial3D = (ball.mesh as PrimitiveMesh).material
	var out: Dictionary = {"fog_density": env.fog_density, "fog_enabled": env.fog_enabled,
		"albedo": [mat.albedo_color.r, mat.albedo_color.g, mat.albedo_color.b], "roughness": mat.roughness}
	var ball2: MeshInstance3D = root.get_node_or_null("Ball2")
	if ball2 != null:
		var m2: StandardMaterial3D = (ball2.mesh as PrimitiveMesh).material
		out["ball2_albedo"] = [m2.albedo_color.r, m2.albedo_color.g, m2.albedo_color.b]
		out["ball2_same_mesh"] = ball2.mesh == ball.mesh
	var box_mat: Material = (root.get_node("Box").mesh as PrimitiveMesh).material
	out["box_material"] = box_mat.resource_path if box_mat != null else ""
	out["curve_points"] = (root.get_node("Path") as Path3D).curve.point_count
	var cam: Camera3D = root.get_node("Cam")
	var fwd: Vector3 = -cam.transform.basis.z
	out["cam_forward"] = [fwd.x, fwd.y, fwd.z]
	var col: Node = ball.get_node_or_null("Ball_col")
	out["collision"] = [col.get_class(), col.get_child(0).get_class(), (col.get_child(0) as CollisionShape3D).shape.get_class()] if col != null else []
	root.free()
	print("SUBRES_CHECK " + JSON.stringify(out))
	quit()
`

type subresCheck struct {
	FogDensity  float64   `json:"fog_density"`
	FogEnabled  bool      `json:"fog_enabled"`
	Albedo      []float64 `json:"albedo"`
	Roughness   float64   `json:"roughness"`
	Ball2Albedo []float64 `json:"ball2_albedo"`
	Ball2Same   bool      `json:"ball2_same_mesh"`
	BoxMaterial string    `json:"box_material"`
	CurvePoints int       `json:"curve_points"`
	CamForward  []float64 `json:"cam_forward"`
	Collision   []string  `json:"collision"`
}

func loadRoomHeadless(t *testing.T, project string) subresCheck {
	t.Helper()
	script := filepath.Join(t.TempDir(), "subres_check.gd")
	if err := os.WriteFile(script, []byte(subresCheckScript), 0o644); err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, suite.godot, "--headless", "--path", project, "--script", script, "--", "res://room.tscn")
	cmd.Env = append(godotEnv(), "GODOT_MCP_BRIDGE_URL=ws://127.0.0.1:1")
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("headless load: %v\n%s", err, out)
	}
	checkEditorOutput(t, "headless subres check", string(out))
	for _, line := range strings.Split(string(out), "\n") {
		if rest, ok := strings.CutPrefix(strings.TrimSpace(line), "SUBRES_CHECK "); ok {
			var got subresCheck
			if err := json.Unmarshal([]byte(rest), &got); err != nil {
				t.Fatalf("bad JSON: %v\n%s", err, rest)
			}
			return got
		}
	}
	t.Fatalf("no SUBRES_CHECK line:\n%s", out)
	return subresCheck{}
}

func near3(a []float64, b ...float64) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] < b[i]-0.01 || a[i] > b[i]+0.01 {
			return false
		}
	}
	return true
}

// One value inside an embedded resource changes and nothing else does (the
// fog stays on, the roughness stays 0.3); old and new values answered; one
// undo each; refusals name the null segment and the near property; a shared
// mesh is refused without allow_shared and changed for both users with it;
// an external material file is saved (and restored by undo). A fresh Godot
// reads the saved scene.
func TestSubResourcePaths(t *testing.T) {
	s := subresSession(t)
	h := s.host

	var out subSetOut
	h.mustCall(t, "godot_scene_set_properties", map[string]any{"node": "Env", "properties": map[string]any{"environment:fog_density": 0.05}}, &out)
	if len(out.Changes) != 1 || out.Changes[0].Property != "environment:fog_density" || num(t, out.Changes[0].Old) > 0.0101 || num(t, out.Changes[0].New) < 0.0499 || !out.Undoable || !out.Persisted {
		t.Fatalf("fog density: %+v", out)
	}
	p := subProps(t, s, "Env", "environment:fog_enabled", "environment:fog_density")
	if string(p["environment:fog_enabled"]) != "true" || num(t, p["environment:fog_density"]) < 0.0499 {
		t.Fatalf("read back: %s", p)
	}
	h.mustCall(t, "godot_scene_set_properties", map[string]any{"node": "Ball", "properties": map[string]any{"mesh:material:albedo_color": "#ff0000"}}, &out)
	if len(out.Changes) != 1 || colorOf(t, out.Changes[0].Old) != [4]float64{1, 1, 1, 1} || colorOf(t, out.Changes[0].New) != [4]float64{1, 0, 0, 1} || len(out.Changes[0].SharedWith) != 0 {
		t.Fatalf("albedo: %+v", out)
	}
	p = subProps(t, s, "Ball", "mesh:material:roughness")
	if v := num(t, p["mesh:material:roughness"]); v < 0.29 || v > 0.31 {
		t.Fatalf("roughness reverted: %s", p)
	}
	// A dry run answers the change and changes nothing.
	h.mustCall(t, "godot_scene_set_properties", map[string]any{"node": "Ball", "properties": map[string]any{"mesh:material:albedo_color": "#0000ff"}, "dry_run": true}, &out)
	if !out.DryRun || colorOf(t, out.Changes[0].New) != [4]float64{0, 0, 1, 1} {
		t.Fatalf("dry run: %+v", out)
	}
	if c := colorOf(t, subProps(t, s, "Ball", "mesh:material:albedo_color")["mesh:material:albedo_color"]); c != [4]float64{1, 0, 0, 1} {
		t.Fatalf("the dry run changed the colour: %v", c)
	}
	// Undo reverts exactly the colour; redo brings it back.
	u := sceneUndo(t, s)
	if c := colorOf(t, subProps(t, s, "Ball", "mesh:material:albedo_color")["mesh:material:albedo_color"]); c != [4]float64{1, 1, 1, 1} {
		t.Fatalf("after undo (%v): %v", u.Actions, c)
	}
	if v := num(t, subProps(t, s, "Env", "environment:fog_density")["environment:fog_density"]); v < 0.0499 {
		t.Fatalf("undo also reverted the fog: %v", v)
	}
	sceneRedo(t, s)

	// Refusals.
	sceneFail(t, s, "godot_scene_set_properties", map[string]any{"node": "Ball", "properties": map[string]any{"mesh:material:albedo_colour": "#00ff00"}},
		"VALIDATION_ERROR", "albedo_colour", "Did you mean 'albedo_color'")
	sceneFail(t, s, "godot_scene_set_properties", map[string]any{"node": "Box", "properties": map[string]any{"mesh:material:albedo_color": "#00ff00"}},
		"VALIDATION_ERROR", "'mesh:material' is null", `"mesh:material": {"type": "StandardMaterial3D"`)
	sceneFail(t, s, "godot_scene_set_properties", map[string]any{"node": "Ball", "properties": map[string]any{"mesh:material:albedo_color": 5}},
		"VALIDATION_ERROR", "mesh:material:albedo_color")
	sceneFail(t, s, "godot_scene_get_node", map[string]any{"node": "Ball", "properties": []string{"mesh:materal:albedo_color"}},
		"VALIDATION_ERROR", "Did you mean 'material'")

	// A mesh shared with a duplicate: refused, then changed for both with allow_shared.
	h.mustCall(t, "godot_scene_duplicate_node", map[string]any{"node": "Ball", "name": "Ball2"}, nil)
	e := sceneFail(t, s, "godot_scene_set_properties", map[string]any{"node": "Ball", "properties": map[string]any{"mesh:material:albedo_color": "#00ff00"}},
		"PRECONDITION_FAILED", "Ball2:mesh", "allow_shared")
	_ = e
	if c := colorOf(t, subProps(t, s, "Ball2", "mesh:material:albedo_color")["mesh:material:albedo_color"]); c != [4]float64{1, 0, 0, 1} {
		t.Fatalf("the refused call changed the colour: %v", c)
	}
	h.mustCall(t, "godot_scene_set_properties", map[string]any{"node": "Ball", "properties": map[string]any{"mesh:material:albedo_color": "#00ff00"}, "allow_shared": true}, &out)
	if len(out.Changes) != 1 || strings.Join(out.Changes[0].SharedWith, ",") != "Ball2:mesh" {
		t.Fatalf("shared change: %+v", out)
	}

	// A material saved in its own file: set through a path, then changed in place
	// only with allow_shared, which saves the file; undo restores the file.
	h.mustCall(t, "godot_resources_create", map[string]any{"path": "res://metal.tres", "type": "StandardMaterial3D", "properties": map[string]any{"metallic": 0.25}}, nil)
	h.mustCall(t, "godot_scene_set_properties", map[string]any{"node": "Box", "properties": map[string]any{"mesh:material": "res://metal.tres"}}, &out)
	// Another file using the material is named as a user.
	h.mustCall(t, "godot_resources_create", map[string]any{"path": "res://crate.tres", "type": "BoxMesh", "properties": map[string]any{"material": "res://metal.tres"}}, nil)
	sceneFail(t, s, "godot_scene_set_properties", map[string]any{"node": "Box", "properties": map[string]any{"mesh:material:metallic": 1}},
		"PRECONDITION_FAILED", "own file 'res://metal.tres'", "res://crate.tres")
	h.mustCall(t, "godot_scene_set_properties", map[string]any{"node": "Box", "properties": map[string]any{"mesh:material:metallic": 1}, "allow_shared": true}, &out)
	if len(out.Changes) != 1 || out.Changes[0].SavedTo != "res://metal.tres" || strings.Join(out.Changes[0].SharedWith, ",") != "res://crate.tres" {
		t.Fatalf("external change: %+v", out)
	}
	metal := func() string {
		b, err := os.ReadFile(filepath.Join(s.project, "metal.tres"))
		if err != nil {
			t.Fatal(err)
		}
		return string(b)
	}
	if !strings.Contains(metal(), "metallic = 1.0") {
		t.Fatalf("metal.tres not saved:\n%s", metal())
	}
	sceneUndo(t, s)
	if !strings.Contains(metal(), "metallic = 0.25") {
		t.Fatalf("undo did not restore metal.tres:\n%s", metal())
	}
	sceneRedo(t, s)

	h.mustCall(t, "godot_scene_save", nil, nil)
	got := loadRoomHeadless(t, s.project)
	if got.FogDensity < 0.0499 || got.FogDensity > 0.0501 || !got.FogEnabled || !near3(got.Albedo, 0, 1, 0) || got.Roughness < 0.29 || got.Roughness > 0.31 ||
		!near3(got.Ball2Albedo, 0, 1, 0) || !got.Ball2Same || got.BoxMaterial != "res://metal.tres" {
		t.Fatalf("saved room: %+v", got)
	}
}

// Paths in the resources toolset: read and set one value of an embedded
// material of a mesh file (the file on disk changes, undo restores it); a
// path through another file is refused naming it.
func TestSubResourcePathsInResourceFiles(t *testing.T) {
	s := subresSession(t)
	h := s.host
	h.mustCall(t, "godot_resources_create", map[string]any{"path": "res://ball.tres", "type": "SphereMesh", "properties": map[string]any{
		"radius": 0.75, "material": map[string]any{"type": "StandardMaterial3D", "properties": map[string]any{"roughness": 0.4}}}}, nil)
	var set struct {
		Changes []subChange `json:"changes"`
		UsedBy  []string    `json:"used_by"`
	}
	h.mustCall(t, "godot_resources_set_properties", map[string]any{"path": "res://ball.tres", "properties": map[string]any{"material:albedo_color": "#00ff00"}}, &set)
	if len(set.Changes) != 1 || set.Changes[0].Property != "material:albedo_color" || colorOf(t, set.Changes[0].New) != [4]float64{0, 1, 0, 1} {
		t.Fatalf("set: %+v", set)
	}
	text, _ := os.ReadFile(filepath.Join(s.project, "ball.tres"))
	if !strings.Contains(string(text), "albedo_color = Color(0, 1, 0, 1)") || !strings.Contains(string(text), "roughness = 0.4") || !strings.Contains(string(text), "radius = 0.75") {
		t.Fatalf("ball.tres:\n%s", text)
	}
	var read struct {
		Properties map[string]json.RawMessage `json:"properties"`
	}
	h.mustCall(t, "godot_resources_read", map[string]any{"path": "res://ball.tres", "properties": []string{"material:albedo_color", "radius"}}, &read)
	if colorOf(t, read.Properties["material:albedo_color"]) != [4]float64{0, 1, 0, 1} || len(read.Properties) != 2 {
		t.Fatalf("read: %s", read.Properties)
	}
	sceneFail(t, s, "godot_resources_read", map[string]any{"path": "res://ball.tres", "properties": []string{"material:albedo_colr"}}, "VALIDATION_ERROR", "Did you mean 'albedo_color'")
	var undo undoAnswer
	h.mustCall(t, "godot_undo", map[string]any{"history": "global"}, &undo)
	text, _ = os.ReadFile(filepath.Join(s.project, "ball.tres"))
	if undo.Performed != 1 || strings.Contains(string(text), "albedo_color") || !strings.Contains(string(text), "roughness = 0.4") {
		t.Fatalf("after undo (%+v):\n%s", undo, text)
	}
	// A mesh file whose material is another file.
	h.mustCall(t, "godot_resources_create", map[string]any{"path": "res://metal.tres", "type": "StandardMaterial3D"}, nil)
	h.mustCall(t, "godot_resources_create", map[string]any{"path": "res://box.tres", "type": "BoxMesh", "properties": map[string]any{"material": "res://metal.tres"}}, nil)
	sceneFail(t, s, "godot_resources_set_properties", map[string]any{"path": "res://box.tres", "properties": map[string]any{"material:metallic": 1}},
		"VALIDATION_ERROR", "res://metal.tres", `"metallic"`)
	sceneFail(t, s, "godot_resources_set_properties", map[string]any{"path": "res://box.tres", "properties": map[string]any{"size:x": 1}},
		"VALIDATION_ERROR", "not a resource")
}

type callOut struct {
	TargetType string          `json:"target_type"`
	Signature  string          `json:"signature"`
	Return     json.RawMessage `json:"return"`
	Changes    []struct {
		Object   string `json:"object"`
		Property string `json:"property"`
	} `json:"changes"`
	AddedNodes []string `json:"added_nodes"`
	Action     string   `json:"action"`
	sceneEdit
}

// godot_scene_call_method: look_at on a camera, add_point on a sub-resource
// curve, create_trimesh_collision adding nodes: each one undo action (undo
// and redo checked), the saved scene read by a fresh Godot; a reorder is
// answered undoable: false with the reason; bad names and arguments refused.
func TestCallMethod(t *testing.T) {
	s := subresSession(t)
	h := s.host
	camT := func() string { return string(subProps(t, s, "Cam", "transform")["transform"]) }
	before := camT()

	var c callOut
	h.mustCall(t, "godot_scene_call_method", map[string]any{"node": "Cam", "method": "look_at", "args": []any{map[string]any{"x": 0, "y": 0, "z": 0}}, "dry_run": true}, &c)
	if !c.DryRun || c.Undoable || camT() != before || !strings.HasPrefix(c.Signature, "look_at(target: Vector3") {
		t.Fatalf("dry run: %+v", c)
	}
	h.mustCall(t, "godot_scene_call_method", map[string]any{"node": "Cam", "method": "look_at", "args": []any{map[string]any{"x": 0, "y": 0, "z": 0}}}, &c)
	if !c.Undoable || len(c.Changes) == 0 || c.Changes[0].Property != "transform" || camT() == before || string(c.Return) != "null" {
		t.Fatalf("look_at: %+v", c)
	}
	after := camT()
	sceneUndo(t, s)
	if camT() != before {
		t.Fatalf("undo left the camera at %s", camT())
	}
	sceneRedo(t, s)
	if camT() != after {
		t.Fatalf("redo: %s", camT())
	}

	h.mustCall(t, "godot_scene_call_method", map[string]any{"node": "Path", "sub_resource": "curve", "method": "add_point", "args": []any{map[string]any{"x": 1, "y": 0, "z": 0}}}, &c)
	if c.TargetType != "Curve3D" || !c.Undoable || len(c.Changes) == 0 {
		t.Fatalf("add_point: %+v", c)
	}
	h.mustCall(t, "godot_scene_call_method", map[string]any{"node": "Path", "sub_resource": "curve", "method": "add_point", "args": []any{map[string]any{"x": 2, "y": 0, "z": 0}}}, &c)
	points := func() float64 { return num(t, subProps(t, s, "Path", "curve:point_count")["curve:point_count"]) }
	if points() != 2 {
		t.Fatalf("points: %v", points())
	}
	sceneUndo(t, s)
	if points() != 1 {
		t.Fatalf("after undo: %v points", points())
	}

	h.mustCall(t, "godot_scene_call_method", map[string]any{"node": "Ball", "method": "create_trimesh_collision"}, &c)
	if !c.Undoable || strings.Join(c.AddedNodes, ",") != "Ball/Ball_col,Ball/Ball_col/CollisionShape3D" {
		t.Fatalf("create_trimesh_collision: %+v", c)
	}
	children := func() []string {
		var n struct {
			Children []string `json:"children"`
		}
		h.mustCall(t, "godot_scene_get_node", map[string]any{"node": "Ball"}, &n)
		return n.Children
	}
	sceneUndo(t, s)
	if len(children()) != 0 {
		t.Fatalf("undo left %v", children())
	}
	sceneRedo(t, s)
	if strings.Join(children(), ",") != "Ball_col" {
		t.Fatalf("redo: %v", children())
	}

	// Refusals and honest answers.
	sceneFail(t, s, "godot_scene_call_method", map[string]any{"node": "Cam", "method": "lok_at"}, "VALIDATION_ERROR", "Did you mean 'look_at'")
	sceneFail(t, s, "godot_scene_call_method", map[string]any{"node": "Cam", "method": "look_at"}, "VALIDATION_ERROR", "look_at(target: Vector3")
	sceneFail(t, s, "godot_scene_call_method", map[string]any{"node": "Cam", "method": "look_at", "args": []any{"here"}}, "VALIDATION_ERROR", "args[0]", "Signature")
	sceneFail(t, s, "godot_scene_call_method", map[string]any{"node": "Cam", "method": "queue_free"}, "VALIDATION_ERROR", "godot_scene_delete_node")
	sceneFail(t, s, "godot_scene_call_method", map[string]any{"node": "Box", "sub_resource": "mesh:material", "method": "set_albedo", "args": []any{"#fff"}}, "VALIDATION_ERROR", "'mesh:material' is null")
	h.mustCall(t, "godot_scene_call_method", map[string]any{"node": ".", "method": "move_child", "args": []any{"Cam", 0}}, &c)
	if c.Undoable || !strings.Contains(c.Reason, "reordered") {
		t.Fatalf("move_child: %+v", c)
	}

	h.mustCall(t, "godot_scene_save", nil, nil)
	got := loadRoomHeadless(t, s.project)
	if got.CurvePoints != 1 || len(got.CamForward) != 3 || got.CamForward[1] > -0.3 || got.CamForward[2] > -0.8 ||
		strings.Join(got.Collision, ",") != "StaticBody3D,CollisionShape3D,ConcavePolygonShape3D" {
		t.Fatalf("saved room: %+v", got)
	}
}
