package e2e

import (
	"context"
	"encoding/json"
	"fmt"
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

// ---- physics toolset e2e: layers by name, shapes, check, in a real editor ----

// physicsSession is an editor with the scene, resources and physics toolsets
// enabled, res://box.png (32x32, an opaque 16x16 square in the middle)
// imported, and res://phys.tscn open: a Node3D root World with
//
//	Floor  StaticBody3D
//	Ball   RigidBody3D, with Mesh (MeshInstance3D, SphereMesh, at y=1)
//	Lonely StaticBody3D, scaled (2,1,1)
//	Level  Node2D, with Player (CharacterBody2D) > Sprite (Sprite2D, box.png, at x=5)
func physicsSession(t *testing.T) *session {
	t.Helper()
	s := newSession(t)
	h := s.host
	for _, ts := range []string{"scene", "resources", "physics"} {
		h.mustCall(t, "godot_enable_toolset", map[string]any{"name": ts}, nil)
	}
	img := image.NewNRGBA(image.Rect(0, 0, 32, 32))
	for y := 8; y < 24; y++ {
		for x := 8; x < 24; x++ {
			img.Set(x, y, color.NRGBA{200, 50, 50, 255})
		}
	}
	f, err := os.Create(filepath.Join(s.project, "box.png"))
	if err != nil {
		t.Fatal(err)
	}
	if err := png.Encode(f, img); err != nil {
		t.Fatal(err)
	}
	f.Close()
	h.mustCall(t, "godot_resources_rescan", nil, nil)
	h.mustCall(t, "godot_scene_create", map[string]any{"path": "res://phys.tscn", "root_type": "Node3D", "root_name": "World"}, nil)
	for _, n := range []map[string]any{
		{"type": "StaticBody3D", "name": "Floor"},
		{"type": "RigidBody3D", "name": "Ball"},
		{"type": "MeshInstance3D", "name": "Mesh", "parent": "Ball", "properties": map[string]any{"mesh": map[string]any{"type": "SphereMesh"}, "position": map[string]any{"x": 0, "y": 1, "z": 0}}},
		{"type": "StaticBody3D", "name": "Lonely", "properties": map[string]any{"scale": map[string]any{"x": 2, "y": 1, "z": 1}}},
		{"type": "Node2D", "name": "Level"},
		{"type": "CharacterBody2D", "name": "Player", "parent": "Level"},
		{"type": "Sprite2D", "name": "Sprite", "parent": "Level/Player", "properties": map[string]any{"texture": "res://box.png", "position": map[string]any{"x": 5, "y": 0}}},
	} {
		h.mustCall(t, "godot_scene_create_node", n, nil)
	}
	return s
}

type physLayer struct {
	N    int    `json:"n"`
	Name string `json:"name"`
}

type physNode struct {
	Path      string      `json:"path"`
	Dimension string      `json:"dimension"`
	Layer     []physLayer `json:"layer"`
	Mask      []physLayer `json:"mask"`
	LayerBits uint32      `json:"layer_bits"`
	MaskBits  uint32      `json:"mask_bits"`
}

type physLayers struct {
	Names2D []physLayer `json:"names_2d"`
	Names3D []physLayer `json:"names_3d"`
	Nodes   []physNode  `json:"nodes"`
	Total   int         `json:"total"`
}

func (l physLayers) node(path string) *physNode {
	for i := range l.Nodes {
		if l.Nodes[i].Path == path {
			return &l.Nodes[i]
		}
	}
	return nil
}

type physProblems struct {
	Bodies   int `json:"bodies"`
	Problems []struct {
		Code string `json:"code"`
		Path string `json:"path"`
		Fix  string `json:"fix"`
	} `json:"problems"`
}

func (p physProblems) has(code, path string) bool {
	for _, q := range p.Problems {
		if q.Code == code && q.Path == path {
			return true
		}
	}
	return false
}

// physicsCheckScript loads the scene and the project's layer names in a
// fresh headless Godot and prints what the test checks.
const physicsCheckScript = `extends SceneTree

func _initialize() -> void:
	var root: Node = (load(OS.get_cmdline_user_args()[0]) as PackedScene).instantiate()
	var ball: RigidBody3D = root.get_node("Ball")
	var player: CharacterBody2D = root.get_node("Level/Player")
	var out: Dictionary = {"ball": [ball.collision_layer, ball.collision_mask], "player": [player.collision_layer, player.collision_mask],
		"names": [ProjectSettings.get_setting("layer_names/3d_physics/layer_1"), ProjectSettings.get_setting("layer_names/3d_physics/layer_2"),
			ProjectSettings.get_setting("layer_names/2d_physics/layer_3")]}
	var floor_shape: CollisionShape3D = root.get_node("Floor").get_child(0) as CollisionShape3D
	out["floor"] = [floor_shape.shape.get_class(), (floor_shape.shape as BoxShape3D).size.x, (floor_shape.shape as BoxShape3D).size.y]
	var ball_shape: CollisionShape3D = null
	for c: Node in ball.get_children():
		if c is CollisionShape3D:
			ball_shape = c
	out["ball_shape"] = [ball_shape.shape.get_class(), (ball_shape.shape as ConvexPolygonShape3D).points.size(), ball_shape.position.y]
	var poly: CollisionPolygon2D = null
	for c2: Node in player.get_children():
		if c2 is CollisionPolygon2D:
			poly = c2
	var r: Rect2 = Rect2(poly.polygon[0], Vector2.ZERO)
	for p: Vector2 in poly.polygon:
		r = r.expand(p)
	out["poly"] = [poly.position.x, poly.position.y, r.position.x, r.position.y, r.size.x, r.size.y]
	root.free()
	print("PHYS_CHECK " + JSON.stringify(out))
	quit()
`

type physCheck struct {
	Ball      []uint32  `json:"ball"`
	Player    []uint32  `json:"player"`
	Names     []string  `json:"names"`
	Floor     []any     `json:"floor"`
	BallShape []any     `json:"ball_shape"`
	Poly      []float64 `json:"poly"`
}

func loadPhysicsHeadless(t *testing.T, project, scene string) physCheck {
	t.Helper()
	script := filepath.Join(t.TempDir(), "phys_check.gd")
	if err := os.WriteFile(script, []byte(physicsCheckScript), 0o644); err != nil {
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
	checkEditorOutput(t, "headless physics check", string(out))
	for _, line := range strings.Split(string(out), "\n") {
		if rest, ok := strings.CutPrefix(strings.TrimSpace(line), "PHYS_CHECK "); ok {
			var got physCheck
			if err := json.Unmarshal([]byte(rest), &got); err != nil {
				t.Fatalf("bad JSON: %v\n%s", err, rest)
			}
			return got
		}
	}
	t.Fatalf("no PHYS_CHECK line:\n%s", out)
	return physCheck{}
}

func physFail(t *testing.T, s *session, tool string, args map[string]any, code string, hintHas ...string) {
	t.Helper()
	sceneFail(t, s, "godot_physics_"+tool, args, code, hintHas...)
}

// Layers named and set by name (a dry run first changes nothing; one undo
// reverts names and masks together), shapes added (a box, a convex hull of
// a mesh, a polygon of a sprite's opaque pixels; undo removes one), check()
// finding the body without a shape, refusals with did-you-mean; the saved
// scene and project.godot read back by a fresh headless Godot.
func TestPhysicsLayersShapesCheck(t *testing.T) {
	s := physicsSession(t)
	h := s.host

	// ---- check before: every body lacks a shape ----
	var pr physProblems
	h.mustCall(t, "godot_physics_check", nil, &pr)
	if pr.Bodies != 4 || !pr.has("no_shape", "Floor") || !pr.has("no_shape", "Ball") || !pr.has("no_shape", "Level/Player") {
		t.Fatalf("check before: %+v", pr)
	}

	// ---- set_layers: names and node layers in one call ----
	set := map[string]any{
		"names": []any{
			map[string]any{"dimension": "3d", "n": 1, "name": "world"},
			map[string]any{"dimension": "3d", "n": 2, "name": "props"},
			map[string]any{"dimension": "2d", "n": 3, "name": "player"},
		},
		"edits": []any{
			map[string]any{"nodes": []string{"Ball"}, "layer": map[string]any{"set": []any{"props"}}, "mask": map[string]any{"set": []any{"world", 2}}},
			map[string]any{"nodes": []string{"Level/Player"}, "layer": map[string]any{"set": []any{"player"}}, "mask": map[string]any{"add": []any{4}, "remove": []any{1}}},
		},
	}
	var res struct {
		Names3D []physLayer `json:"names_3d"`
		Renamed int         `json:"renamed"`
		Changed int         `json:"changed"`
		Nodes   []physNode  `json:"nodes"`
		sceneEdit
	}
	h.mustCall(t, "godot_physics_set_layers", withArgs(set, "dry_run", true), &res)
	if !res.DryRun || res.Renamed != 3 || res.Changed != 2 || res.Undoable || len(res.Nodes) != 2 || res.Nodes[0].LayerBits != 2 || res.Nodes[0].MaskBits != 3 {
		t.Fatalf("dry run: %+v", res)
	}
	var got physLayers
	h.mustCall(t, "godot_physics_get_layers", nil, &got)
	if len(got.Names3D) != 0 || got.node("Ball") == nil || got.node("Ball").LayerBits != 1 {
		t.Fatalf("the dry run changed something: %+v", got)
	}
	physFail(t, s, "set_layers", map[string]any{"names": set["names"], "edits": []any{map[string]any{"nodes": []string{"Ball"}, "mask": map[string]any{"add": []any{"wrld"}}}}},
		"VALIDATION_ERROR", "Did you mean 'world'")
	physFail(t, s, "set_layers", map[string]any{"edits": []any{map[string]any{"nodes": []string{"Ball/Mesh"}, "mask": map[string]any{"add": []any{1}}}}},
		"VALIDATION_ERROR", "MeshInstance3D", "Did you mean its parent 'Ball'")
	physFail(t, s, "set_layers", map[string]any{"edits": []any{map[string]any{"nodes": []string{"Bal"}, "mask": map[string]any{"add": []any{1}}}}},
		"RESOURCE_NOT_FOUND", "Did you mean 'Ball'")
	h.mustCall(t, "godot_physics_get_layers", nil, &got)
	if len(got.Names3D) != 0 {
		t.Fatalf("a refused call named layers: %+v", got.Names3D)
	}
	h.mustCall(t, "godot_physics_set_layers", set, &res)
	if res.DryRun || !res.Undoable || !res.Persisted || res.Changed != 2 || len(res.Names3D) != 2 {
		t.Fatalf("set_layers: %+v", res)
	}
	h.mustCall(t, "godot_physics_get_layers", map[string]any{"nodes": []string{"Ball", "Level/Player"}}, &got)
	ball, player := got.node("Ball"), got.node("Level/Player")
	if ball == nil || player == nil || len(ball.Layer) != 1 || ball.Layer[0] != (physLayer{2, "props"}) || ball.MaskBits != 3 ||
		player.Dimension != "2d" || player.LayerBits != 4 || player.MaskBits != 8 || player.Layer[0].Name != "player" {
		t.Fatalf("get_layers after: %+v", got)
	}
	if b, _ := os.ReadFile(filepath.Join(s.project, "project.godot")); !strings.Contains(string(b), `3d_physics/layer_2="props"`) {
		t.Fatalf("project.godot lacks the layer name:\n%s", b)
	}
	// One undo reverts the names and the layers; redo brings them back.
	u := sceneUndo(t, s)
	h.mustCall(t, "godot_physics_get_layers", map[string]any{"nodes": []string{"Ball"}}, &got)
	if len(got.Names3D) != 0 || got.Nodes[0].LayerBits != 1 || got.Nodes[0].MaskBits != 1 {
		t.Fatalf("after undo (%v): %+v", u.Actions, got)
	}
	if b, _ := os.ReadFile(filepath.Join(s.project, "project.godot")); strings.Contains(string(b), "props") {
		t.Fatalf("project.godot keeps the name after undo:\n%s", b)
	}
	sceneRedo(t, s)
	h.mustCall(t, "godot_physics_get_layers", map[string]any{"nodes": []string{"Ball"}}, &got)
	if len(got.Names3D) != 2 || got.Nodes[0].LayerBits != 2 {
		t.Fatalf("after redo: %+v", got)
	}

	// ---- add_shape ----
	type shapeOut struct {
		Body    string `json:"body"`
		Created []struct {
			Path     string          `json:"path"`
			Class    string          `json:"class"`
			Shape    string          `json:"shape"`
			Params   json.RawMessage `json:"params"`
			Position []float64       `json:"position"`
		} `json:"created"`
		sceneEdit
	}
	var sh shapeOut
	physFail(t, s, "add_shape", map[string]any{"body": "Floor", "shape": "rectangle"}, "VALIDATION_ERROR", "box")
	physFail(t, s, "add_shape", map[string]any{"body": "Ball", "shape": "trimesh", "from": "Ball/Mesh"}, "VALIDATION_ERROR", "convex", "RigidBody3D")
	physFail(t, s, "add_shape", map[string]any{"body": "Ball/Mesh", "shape": "box"}, "VALIDATION_ERROR", "Did you mean its parent 'Ball'")
	// A box fitted around the sphere mesh (radius 0.5 at y=1), as a dry run: nothing is added.
	h.mustCall(t, "godot_physics_add_shape", map[string]any{"body": "Ball", "shape": "box", "from": "Ball/Mesh", "dry_run": true}, &sh)
	var box struct {
		Size []float64 `json:"size"`
	}
	if len(sh.Created) == 1 {
		json.Unmarshal(sh.Created[0].Params, &box)
	}
	near := func(a, b float64) bool { return a > b-0.01 && a < b+0.01 }
	if len(sh.Created) != 1 || !sh.DryRun || sh.Undoable || len(box.Size) != 3 || !near(box.Size[0], 1) || !near(box.Size[1], 1) || !near(sh.Created[0].Position[1], 1) {
		t.Fatalf("box fitted to the mesh (dry run): %+v %s", sh, sh.Created[0].Params)
	}
	h.mustCall(t, "godot_physics_check", nil, &pr)
	if !pr.has("no_shape", "Ball") {
		t.Fatalf("the dry run added a shape: %+v", pr)
	}
	h.mustCall(t, "godot_physics_add_shape", map[string]any{"body": "Floor", "shape": "box", "size": []float64{10, 1, 10}}, &sh)
	if len(sh.Created) != 1 || sh.Created[0].Path != "Floor/CollisionShape3D" || sh.Created[0].Shape != "BoxShape3D" || !sh.Undoable || !sh.Persisted {
		t.Fatalf("add box: %+v", sh)
	}
	h.mustCall(t, "godot_physics_check", nil, &pr)
	if pr.has("no_shape", "Floor") || !pr.has("no_shape", "Lonely") {
		t.Fatalf("check after the box: %+v", pr)
	}
	sceneUndo(t, s)
	h.mustCall(t, "godot_physics_check", nil, &pr)
	if !pr.has("no_shape", "Floor") {
		t.Fatalf("undo left the box: %+v", pr)
	}
	sceneRedo(t, s)
	h.mustCall(t, "godot_physics_add_shape", map[string]any{"body": "Ball", "shape": "auto", "from": "Ball/Mesh", "dry_run": true}, &sh)
	if len(sh.Created) != 1 || sh.Created[0].Shape != "ConvexPolygonShape3D" {
		t.Fatalf("auto on a RigidBody3D: %+v", sh)
	}
	h.mustCall(t, "godot_physics_add_shape", map[string]any{"body": "Ball", "shape": "convex", "from": "Ball/Mesh"}, &sh)
	if len(sh.Created) != 1 || sh.Created[0].Shape != "ConvexPolygonShape3D" || len(sh.Created[0].Position) != 3 || sh.Created[0].Position[1] != 1 {
		t.Fatalf("add convex: %+v", sh)
	}
	h.mustCall(t, "godot_physics_add_shape", map[string]any{"body": "Level/Player", "shape": "polygon", "from": "Level/Player/Sprite"}, &sh)
	if len(sh.Created) != 1 || sh.Created[0].Class != "CollisionPolygon2D" || sh.Created[0].Position[0] != 5 {
		t.Fatalf("add polygon: %+v", sh)
	}
	h.mustCall(t, "godot_physics_check", nil, &pr)
	if pr.has("no_shape", "Ball") || pr.has("no_shape", "Level/Player") || !pr.has("no_shape", "Lonely") {
		t.Fatalf("check after shapes: %+v", pr)
	}

	if !pr.has("non_uniform_scale", "Lonely") || pr.has("mask_zero", "Level/Player") {
		t.Fatalf("check: %+v", pr)
	}
	// A moving body with mask 0 collides with nothing; a duplicate layer name is refused.
	h.mustCall(t, "godot_physics_set_layers", map[string]any{"edits": []any{map[string]any{"nodes": []string{"Level/Player"}, "mask": map[string]any{"set": []any{}}}}}, &res)
	h.mustCall(t, "godot_physics_check", nil, &pr)
	if !pr.has("mask_zero", "Level/Player") {
		t.Fatalf("check with mask 0: %+v", pr)
	}
	sceneUndo(t, s)
	physFail(t, s, "set_layers", map[string]any{"names": []any{map[string]any{"dimension": "3d", "n": 5, "name": "world"}}}, "VALIDATION_ERROR", "Two 3D layers would be named 'world'")

	// ---- saved, read back by a fresh Godot ----
	h.mustCall(t, "godot_scene_save", nil, nil)
	c := loadPhysicsHeadless(t, s.project, "res://phys.tscn")
	if len(c.Ball) != 2 || c.Ball[0] != 2 || c.Ball[1] != 3 || c.Player[0] != 4 || c.Player[1] != 8 ||
		strings.Join(c.Names, ",") != "world,props,player" {
		t.Fatalf("saved layers: %+v", c)
	}
	if c.Floor[0] != "BoxShape3D" || c.Floor[1] != 10.0 || c.BallShape[0] != "ConvexPolygonShape3D" || c.BallShape[1].(float64) < 8 || c.BallShape[2] != 1.0 {
		t.Fatalf("saved 3D shapes: %+v", c)
	}
	// The opaque 16x16 square of a centred 32x32 sprite spans -8..8 around the sprite (at x=5).
	if len(c.Poly) != 6 || c.Poly[0] != 5 || c.Poly[1] != 0 || c.Poly[2] < -9 || c.Poly[2] > -7 || c.Poly[4] < 15 || c.Poly[4] > 17 || c.Poly[5] < 15 || c.Poly[5] > 17 {
		t.Fatalf("saved polygon [pos.x pos.y min.x min.y w h]: %v", c.Poly)
	}
}

// The other paths: names alone (the project's undo history), a mask-only
// RayCast3D, a trimesh on a static body and primitives fitted to a scaled
// mesh and sprite, a segment, paging, and what check reports about shape
// nodes (concave on a moving body, orphan, empty) and areas.
func TestPhysicsMorePaths(t *testing.T) {
	s := newSession(t)
	h := s.host
	for _, ts := range []string{"scene", "physics"} {
		h.mustCall(t, "godot_enable_toolset", map[string]any{"name": ts}, nil)
	}
	h.mustCall(t, "godot_scene_create", map[string]any{"path": "res://more.tscn", "root_type": "Node3D", "root_name": "Root"}, nil)
	for _, n := range []map[string]any{
		{"type": "StaticBody3D", "name": "Level"},
		{"type": "MeshInstance3D", "name": "Mesh", "parent": "Level", "properties": map[string]any{"mesh": map[string]any{"type": "BoxMesh"},
			"position": map[string]any{"x": 3, "y": 0, "z": 0}, "scale": map[string]any{"x": 2, "y": 2, "z": 2}}},
		{"type": "RayCast3D", "name": "Ray"},
		{"type": "CharacterBody3D", "name": "Hero"},
		{"type": "CollisionShape3D", "name": "Bad", "parent": "Hero", "properties": map[string]any{"shape": map[string]any{"type": "ConcavePolygonShape3D",
			"properties": map[string]any{"data": []any{map[string]any{"x": 0, "y": 0, "z": 0}, map[string]any{"x": 1, "y": 0, "z": 0}, map[string]any{"x": 0, "y": 0, "z": 1}}}}}},
		{"type": "CollisionShape3D", "name": "Stray"},
		{"type": "Area3D", "name": "Zone", "properties": map[string]any{"monitoring": false, "collision_layer": 0}},
		{"type": "CollisionShape3D", "name": "Empty", "parent": "Zone"},
		{"type": "Node2D", "name": "Flat"},
		{"type": "StaticBody2D", "name": "Wall", "parent": "Flat"},
		{"type": "Sprite2D", "name": "Pic", "parent": "Flat/Wall", "properties": map[string]any{"texture": "res://icon.svg", "scale": map[string]any{"x": 2, "y": 2}}},
	} {
		h.mustCall(t, "godot_scene_create_node", n, nil)
	}

	// ---- names alone: one undo action in the project's history ----
	var res struct {
		Renamed int `json:"renamed"`
		sceneEdit
	}
	h.mustCall(t, "godot_physics_set_layers", map[string]any{"names": []any{map[string]any{"dimension": "2d", "n": 7, "name": "Lava"}}}, &res)
	if res.Renamed != 1 || !res.Undoable || !res.Persisted {
		t.Fatalf("names: %+v", res)
	}
	godotFile := filepath.Join(s.project, "project.godot")
	if b, _ := os.ReadFile(godotFile); !strings.Contains(string(b), `2d_physics/layer_7="Lava"`) {
		t.Fatalf("project.godot lacks the name:\n%s", b)
	}
	// References are case-insensitive when unique.
	h.mustCall(t, "godot_physics_set_layers", map[string]any{"edits": []any{map[string]any{"nodes": []string{"Flat/Wall"}, "layer": map[string]any{"add": []any{"lava"}}}}}, nil)
	var got physLayers
	h.mustCall(t, "godot_physics_get_layers", map[string]any{"nodes": []string{"Flat/Wall"}}, &got)
	if got.Nodes[0].LayerBits != 1|64 || got.Nodes[0].Layer[1].Name != "Lava" {
		t.Fatalf("Wall after add lava: %+v", got.Nodes)
	}
	u1 := sceneUndo(t, s)
	u2 := sceneUndo(t, s)
	if b, _ := os.ReadFile(godotFile); strings.Contains(string(b), "Lava") {
		t.Fatalf("project.godot keeps the name after undo (%v, %v)", u1, u2)
	}

	// ---- a mask-only node ----
	physFail(t, s, "set_layers", map[string]any{"edits": []any{map[string]any{"nodes": []string{"Ray"}, "layer": map[string]any{"set": []any{2}}}}}, "VALIDATION_ERROR", "only a collision_mask")
	h.mustCall(t, "godot_physics_set_layers", map[string]any{"edits": []any{map[string]any{"nodes": []string{"Ray"}, "mask": map[string]any{"set": []any{2, 3}}}}}, nil)
	var ray struct {
		Nodes []struct {
			HasLayer bool   `json:"has_layer"`
			MaskBits uint32 `json:"mask_bits"`
		} `json:"nodes"`
	}
	h.mustCall(t, "godot_physics_get_layers", map[string]any{"nodes": []string{"Ray"}}, &ray)
	if len(ray.Nodes) != 1 || ray.Nodes[0].HasLayer || ray.Nodes[0].MaskBits != 6 {
		t.Fatalf("Ray: %+v", ray)
	}

	// ---- paging: Level, Ray, Hero, Zone, Flat/Wall ----
	var page physLayers
	var next struct {
		Truncated  bool   `json:"truncated"`
		NextCursor string `json:"next_cursor"`
	}
	r := h.mustCall(t, "godot_physics_get_layers", map[string]any{"limit": 2}, &page)
	r.decode(&next)
	if page.Total != 5 || len(page.Nodes) != 2 || !next.Truncated {
		t.Fatalf("page 1: %+v %+v", page, next)
	}
	h.mustCall(t, "godot_physics_get_layers", map[string]any{"limit": 2, "cursor": next.NextCursor}, &page)
	if len(page.Nodes) != 2 || page.Nodes[0].Path != "Hero" {
		t.Fatalf("page 2: %+v", page)
	}

	// ---- shapes ----
	type shapeOut struct {
		Created []struct {
			Path     string          `json:"path"`
			Shape    string          `json:"shape"`
			Params   json.RawMessage `json:"params"`
			Position []float64       `json:"position"`
		} `json:"created"`
	}
	var sh shapeOut
	h.mustCall(t, "godot_physics_add_shape", map[string]any{"body": "Level", "shape": "trimesh", "from": "Level/Mesh", "name": "Ground"}, &sh)
	if len(sh.Created) != 1 || sh.Created[0].Path != "Level/Ground" || sh.Created[0].Shape != "ConcavePolygonShape3D" || string(sh.Created[0].Params) != `{"faces":12}` || sh.Created[0].Position[0] != 3 {
		t.Fatalf("trimesh: %+v", sh)
	}
	// auto: trimesh on a static body (exact level geometry).
	h.mustCall(t, "godot_physics_add_shape", map[string]any{"body": "Level", "shape": "auto", "from": "Level/Mesh", "dry_run": true}, &sh)
	if len(sh.Created) != 1 || sh.Created[0].Shape != "ConcavePolygonShape3D" {
		t.Fatalf("auto on a StaticBody3D: %+v", sh)
	}
	// The mesh's scale 2 is in the box, not in the node: a 1x1x1 BoxMesh makes a 2x2x2 box.
	h.mustCall(t, "godot_physics_add_shape", map[string]any{"body": "Level", "shape": "box", "from": "Level/Mesh", "name": "Ground"}, &sh)
	var box struct {
		Size []float64 `json:"size"`
	}
	json.Unmarshal(sh.Created[0].Params, &box)
	if sh.Created[0].Path != "Level/Ground2" || fmt.Sprint(box.Size) != "[2 2 2]" {
		t.Fatalf("box around a scaled mesh: %+v %s", sh, sh.Created[0].Params)
	}
	physFail(t, s, "add_shape", map[string]any{"body": "Level", "shape": "capsule", "radius": 2, "height": 1}, "VALIDATION_ERROR", "less than its diameter")
	// A rectangle around the sprite (icon.svg, 16x16) scaled 2: 32x32 at its centre.
	h.mustCall(t, "godot_physics_add_shape", map[string]any{"body": "Flat/Wall", "shape": "rectangle", "from": "Flat/Wall/Pic"}, &sh)
	var rect struct {
		Size []float64 `json:"size"`
	}
	json.Unmarshal(sh.Created[0].Params, &rect)
	if fmt.Sprint(rect.Size) != "[32 32]" || fmt.Sprint(sh.Created[0].Position) != "[0 0]" {
		t.Fatalf("rectangle around the sprite: %s", sh.Created[0].Params)
	}
	h.mustCall(t, "godot_physics_add_shape", map[string]any{"body": "Flat/Wall", "shape": "segment", "a": []float64{0, 0}, "b": []float64{100, 0}}, &sh)
	var seg struct {
		A, B []float64
	}
	json.Unmarshal(sh.Created[0].Params, &seg)
	if fmt.Sprint(seg.A, seg.B) != "[0 0] [100 0]" {
		t.Fatalf("segment: %s", sh.Created[0].Params)
	}

	// ---- check ----
	var pr physProblems
	h.mustCall(t, "godot_physics_check", nil, &pr)
	for _, want := range [][2]string{{"concave_on_moving", "Hero/Bad"}, {"orphan_shape", "Stray"}, {"empty_shape", "Zone/Empty"}, {"not_monitoring", "Zone"}} {
		if !pr.has(want[0], want[1]) {
			t.Errorf("check lacks %s at %s: %+v", want[0], want[1], pr)
		}
	}
	if pr.has("no_shape", "Level") || pr.has("layer_zero", "Zone") || pr.has("mask_zero", "Level") {
		t.Errorf("check reports what is fine (a static body's mask, an area's layer): %+v", pr)
	}

	// ---- no scene open: names go in the project's history, where godot_undo looks then ----
	// Close every open scene (the project's main scene is open in a tab too).
	for i := 0; ; i++ {
		ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
		r, err := h.call(ctx, "godot_scene_close", map[string]any{"confirm": true})
		cancel()
		if err != nil || i > 5 {
			t.Fatalf("closing scenes: %v %+v", err, r)
		}
		if r.IsError {
			break
		}
	}
	h.mustCall(t, "godot_physics_set_layers", map[string]any{"names": []any{map[string]any{"dimension": "3d", "n": 4, "name": "water"}}}, &res)
	if !res.Undoable || !res.Persisted {
		t.Fatalf("names without a scene: %+v", res)
	}
	h.mustCall(t, "godot_physics_get_layers", nil, &got)
	if len(got.Names3D) != 1 || got.Names3D[0] != (physLayer{4, "water"}) || len(got.Nodes) != 0 {
		t.Fatalf("get_layers without a scene: %+v", got)
	}
	physFail(t, s, "set_layers", map[string]any{"edits": []any{map[string]any{"nodes": []string{"Ray"}, "mask": map[string]any{"add": []any{1}}}}}, "PRECONDITION_FAILED", "No scene is open")
	sceneUndo(t, s)
	if b, _ := os.ReadFile(godotFile); strings.Contains(string(b), "water") {
		t.Fatalf("project.godot keeps the name after undo:\n%s", b)
	}
}
