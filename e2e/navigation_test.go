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

// ---- navigation toolset e2e: regions, bake, layers, agents, links, paths, in a real editor ----

type navLayer struct {
	N    int    `json:"n"`
	Name string `json:"name"`
}

type navNode struct {
	Path      string         `json:"path"`
	Class     string         `json:"class"`
	Kind      string         `json:"kind"`
	LayerBits uint32         `json:"layer_bits"`
	Layers    []navLayer     `json:"layers"`
	Polygons  int            `json:"polygons"`
	Vertices  int            `json:"vertices"`
	Settings  map[string]any `json:"settings"`
}

type navGet struct {
	Names3D         []navLayer `json:"names_3d"`
	Regions         []navNode  `json:"regions"`
	Agents          []navNode  `json:"agents"`
	Links           []navNode  `json:"links"`
	DebugNavigation bool       `json:"debug_navigation"`
}

func (g navGet) region(path string) *navNode {
	for i := range g.Regions {
		if g.Regions[i].Path == path {
			return &g.Regions[i]
		}
	}
	return nil
}

type navConfigure struct {
	Node    navNode `json:"node"`
	Created bool    `json:"created"`
	Changes []struct {
		Property string `json:"property"`
		Old      any    `json:"old"`
		New      any    `json:"new"`
	} `json:"changes"`
	Warnings []string `json:"warnings"`
	sceneEdit
}

type navBake struct {
	Region   string `json:"region"`
	Polygons int    `json:"polygons"`
	Vertices int    `json:"vertices"`
	Before   struct {
		Polygons int `json:"polygons"`
	} `json:"before"`
	sceneEdit
}

type navPath struct {
	Points          [][]float64 `json:"points"`
	Length          float64     `json:"length"`
	Straight        float64     `json:"straight"`
	Reached         bool        `json:"reached"`
	Regions         any         `json:"regions"`
	DebugNavigation bool        `json:"debug_navigation"`
}

// navBuildScene makes res://nav.tscn: a Node3D root World with
//
//	Nav    NavigationRegion3D (made by the tool), holding
//	  Floor  MeshInstance3D, a 20x20 PlaneMesh at y=0
//	  Wall   MeshInstance3D, a 2x2x12 BoxMesh at (0,1,0): a wall across the floor's middle, 12 long in z
//	Empty  NavigationRegion3D with nothing under it
//	Bot    CharacterBody3D
func navBuildScene(t *testing.T, s *session) {
	t.Helper()
	h := s.host
	h.mustCall(t, "godot_scene_create", map[string]any{"path": "res://nav.tscn", "root_type": "Node3D", "root_name": "World"}, nil)
	var c navConfigure
	h.mustCall(t, "godot_navigation_region", map[string]any{"parent": ".", "name": "Nav", "geometry": "mesh_instances", "agent_radius": 0.5, "cell_size": 0.25, "cell_height": 0.25}, &c)
	if !c.Created || c.Node.Path != "Nav" || c.Node.Class != "NavigationRegion3D" || !c.Undoable {
		t.Fatalf("region: %+v", c)
	}
	for _, n := range []map[string]any{
		{"type": "MeshInstance3D", "name": "Floor", "parent": "Nav", "properties": map[string]any{"mesh": map[string]any{"type": "PlaneMesh", "properties": map[string]any{"size": map[string]any{"x": 20, "y": 20}}}}},
		{"type": "MeshInstance3D", "name": "Wall", "parent": "Nav", "properties": map[string]any{"mesh": map[string]any{"type": "BoxMesh", "properties": map[string]any{"size": map[string]any{"x": 2, "y": 2, "z": 12}}},
			"position": map[string]any{"x": 0, "y": 1, "z": 0}}},
		{"type": "CharacterBody3D", "name": "Bot"},
	} {
		h.mustCall(t, "godot_scene_create_node", n, nil)
	}
	h.mustCall(t, "godot_navigation_region", map[string]any{"parent": ".", "name": "Empty"}, &c)
}

func navSession(t *testing.T) *session {
	t.Helper()
	s := newSession(t)
	for _, ts := range []string{"scene", "navigation"} {
		s.host.mustCall(t, "godot_enable_toolset", map[string]any{"name": ts}, nil)
	}
	navBuildScene(t, s)
	return s
}

func navFail(t *testing.T, s *session, tool string, args map[string]any, code string, hintHas ...string) {
	t.Helper()
	sceneFail(t, s, "godot_navigation_"+tool, args, code, hintHas...)
}

// navCheckScript loads the saved scene in a fresh headless Godot and prints
// what the test checks: the baked polygons counted from the file, layers,
// the agent's and link's settings and the project's layer names.
const navCheckScript = `extends SceneTree

func _initialize() -> void:
	var root: Node = (load(OS.get_cmdline_user_args()[0]) as PackedScene).instantiate()
	var nav: NavigationRegion3D = root.get_node("Nav")
	var nm: NavigationMesh = nav.navigation_mesh
	var out: Dictionary = {"polygons": nm.get_polygon_count(), "vertices": nm.get_vertices().size(), "cell_size": nm.cell_size,
		"geometry": nm.geometry_parsed_geometry_type, "layers": nav.navigation_layers,
		"names": [ProjectSettings.get_setting("layer_names/3d_navigation/layer_1", ""), ProjectSettings.get_setting("layer_names/3d_navigation/layer_2", "")]}
	var agent: NavigationAgent3D = root.get_node("Bot/NavigationAgent3D")
	out["agent"] = [agent.radius, agent.height, agent.path_desired_distance, agent.target_desired_distance, agent.avoidance_enabled, agent.navigation_layers]
	var link: NavigationLink3D = root.get_node("Jump")
	out["link"] = [link.start_position.x, link.end_position.z, link.bidirectional, link.navigation_layers]
	root.free()
	print("NAV_CHECK " + JSON.stringify(out))
	quit()
`

type navCheck struct {
	Polygons int      `json:"polygons"`
	Vertices int      `json:"vertices"`
	CellSize float64  `json:"cell_size"`
	Geometry int      `json:"geometry"`
	Layers   uint32   `json:"layers"`
	Names    []string `json:"names"`
	Agent    []any    `json:"agent"`
	Link     []any    `json:"link"`
}

func loadNavHeadless(t *testing.T, project, scene string) navCheck {
	t.Helper()
	script := filepath.Join(t.TempDir(), "nav_check.gd")
	if err := os.WriteFile(script, []byte(navCheckScript), 0o644); err != nil {
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
	checkEditorOutput(t, "headless navigation check", string(out))
	for _, line := range strings.Split(string(out), "\n") {
		if rest, ok := strings.CutPrefix(strings.TrimSpace(line), "NAV_CHECK "); ok {
			var got navCheck
			if err := json.Unmarshal([]byte(rest), &got); err != nil {
				t.Fatalf("bad JSON: %v\n%s", err, rest)
			}
			return got
		}
	}
	t.Fatalf("no NAV_CHECK line:\n%s", out)
	return navCheck{}
}

// A region over a floor with a wall across its middle is baked in the editor
// (a dry run changes nothing; one undo restores the unbaked mesh); the path
// between points on either side of the wall goes around it, longer than the
// straight line; empty bakes are refused with why; layers by name (with
// did-you-mean), an agent, a link and the debug drawing are set; the saved
// scene read back by a fresh Godot has the polygons.
func TestNavigationBakePathLayers(t *testing.T) {
	s := navSession(t)
	h := s.host

	// ---- bake ----
	var b navBake
	h.mustCall(t, "godot_navigation_bake", map[string]any{"region": "Nav", "dry_run": true}, &b)
	if !b.DryRun || b.Polygons == 0 || b.Undoable {
		t.Fatalf("bake dry run: %+v", b)
	}
	var g navGet
	g = navGet{}
	h.mustCall(t, "godot_navigation_get", nil, &g)
	if r := g.region("Nav"); r == nil || r.Polygons != 0 {
		t.Fatalf("the dry run baked: %+v", g)
	}
	h.mustCall(t, "godot_navigation_bake", map[string]any{"region": "Nav"}, &b)
	if b.Polygons < 2 || b.Vertices < 4 || b.Before.Polygons != 0 || !b.Undoable || !b.Persisted {
		t.Fatalf("bake: %+v", b)
	}
	g = navGet{}
	h.mustCall(t, "godot_navigation_get", nil, &g)
	if r := g.region("Nav"); r == nil || r.Polygons != b.Polygons || r.Vertices != b.Vertices {
		t.Fatalf("get after bake: %+v", g.Regions)
	}
	u := sceneUndo(t, s)
	g = navGet{}
	h.mustCall(t, "godot_navigation_get", nil, &g)
	if r := g.region("Nav"); r == nil || r.Polygons != 0 {
		t.Fatalf("undo (%v) left the bake: %+v", u.Actions, g.Regions)
	}
	sceneRedo(t, s)
	g = navGet{}
	h.mustCall(t, "godot_navigation_get", nil, &g)
	if r := g.region("Nav"); r == nil || r.Polygons != b.Polygons {
		t.Fatalf("redo: %+v", g.Regions)
	}

	// ---- empty bakes say why, and change nothing ----
	navFail(t, s, "bake", map[string]any{"region": "Empty"}, "PRECONDITION_FAILED", "no_source_geometry", "under the region 'Empty'", "nothing was changed")
	h.mustCall(t, "godot_navigation_region", map[string]any{"node": "Empty", "source_mode": "group_with_children", "source_group": "walkable"}, nil)
	navFail(t, s, "bake", map[string]any{"region": "Empty"}, "PRECONDITION_FAILED", "no node of the scene is in the group 'walkable'")
	h.mustCall(t, "godot_scene_create_node", map[string]any{"type": "MeshInstance3D", "name": "Step", "parent": "Empty",
		"properties": map[string]any{"mesh": map[string]any{"type": "PlaneMesh", "properties": map[string]any{"size": map[string]any{"x": 1, "y": 1}}}}}, nil)
	h.mustCall(t, "godot_navigation_region", map[string]any{"node": "Empty", "source_mode": "root_node", "agent_radius": 1}, nil)
	navFail(t, s, "bake", map[string]any{"region": "Empty"}, "PRECONDITION_FAILED", "agent_radius_too_large")
	navFail(t, s, "bake", map[string]any{"region": "Bot"}, "VALIDATION_ERROR", "CharacterBody3D", "Nav")
	navFail(t, s, "bake", map[string]any{"region": "Nv"}, "RESOURCE_NOT_FOUND", "Did you mean 'Nav'")

	// ---- path around the wall ----
	var p navPath
	from, to := []float64{-5, 0, 0}, []float64{5, 0, 0}
	p = navPath{}
	h.mustCall(t, "godot_navigation_path", map[string]any{"from": from, "to": to}, &p)
	if !p.Reached || len(p.Points) < 3 || p.Straight != 10 || p.Length < p.Straight+2 {
		t.Fatalf("path around the wall (straight %v): length %v, %d points %v, reached %v", p.Straight, p.Length, len(p.Points), p.Points, p.Reached)
	}
	// Every point avoids the wall (x in -1..1 for z in -6..6, widened by the agent radius).
	for _, pt := range p.Points {
		if pt[0] > -1.4 && pt[0] < 1.4 && pt[2] > -6.4 && pt[2] < 6.4 {
			t.Fatalf("path point %v is inside the wall: %v", pt, p.Points)
		}
	}
	// Along the open side (z=8) the path is straight.
	p = navPath{}
	h.mustCall(t, "godot_navigation_path", map[string]any{"from": []float64{-5, 0, 8}, "to": []float64{5, 0, 8}}, &p)
	if !p.Reached || p.Length > p.Straight+0.5 {
		t.Fatalf("open path: %+v", p)
	}

	// ---- layers by name ----
	var sl struct {
		Renamed int       `json:"renamed"`
		Changed int       `json:"changed"`
		Nodes   []navNode `json:"nodes"`
		sceneEdit
	}
	set := map[string]any{
		"names": []any{map[string]any{"dimension": "3d", "n": 1, "name": "ground"}, map[string]any{"dimension": "3d", "n": 2, "name": "water"}},
		"edits": []any{map[string]any{"nodes": []string{"Nav"}, "set": []any{"water"}}},
	}
	navFail(t, s, "set_layers", map[string]any{"names": set["names"], "edits": []any{map[string]any{"nodes": []string{"Nav"}, "set": []any{"watr"}}}},
		"VALIDATION_ERROR", "Did you mean 'water'", "ground, water")
	navFail(t, s, "set_layers", map[string]any{"edits": []any{map[string]any{"nodes": []string{"Bot"}, "add": []any{1}}}}, "VALIDATION_ERROR", "no navigation layers", "Nav")
	g = navGet{}
	h.mustCall(t, "godot_navigation_get", nil, &g)
	if len(g.Names3D) != 0 {
		t.Fatalf("a refused call named layers: %+v", g.Names3D)
	}
	h.mustCall(t, "godot_navigation_set_layers", set, &sl)
	if sl.Renamed != 2 || sl.Changed != 1 || !sl.Undoable || sl.Nodes[0].LayerBits != 2 || sl.Nodes[0].Layers[0].Name != "water" {
		t.Fatalf("set_layers: %+v", sl)
	}
	// A path restricted to "ground" finds nothing now; "water" finds it.
	p = navPath{}
	h.mustCall(t, "godot_navigation_path", map[string]any{"from": from, "to": to, "layers": []any{"ground"}}, &p)
	if p.Reached || len(p.Points) != 0 {
		t.Fatalf("path on ground only: %+v", p)
	}
	p = navPath{}
	h.mustCall(t, "godot_navigation_path", map[string]any{"from": from, "to": to, "layers": []any{"water"}}, &p)
	if !p.Reached || p.Length < p.Straight+2 {
		t.Fatalf("path on water: %+v", p)
	}
	navFail(t, s, "path", map[string]any{"from": from, "to": to, "layers": []any{"lava"}}, "VALIDATION_ERROR", "no 3D navigation layer is named 'lava'")

	// ---- agent and link ----
	var c navConfigure
	h.mustCall(t, "godot_navigation_agent", map[string]any{"parent": "Bot", "radius": 0.4, "height": 1.8, "path_desired_distance": 0.6,
		"target_desired_distance": 0.3, "avoidance": true, "layers": map[string]any{"set": []any{"ground", "water"}}, "dry_run": true}, &c)
	if !c.DryRun || !c.Created || c.Undoable {
		t.Fatalf("agent dry run: %+v", c)
	}
	g = navGet{}
	h.mustCall(t, "godot_navigation_get", nil, &g)
	if len(g.Agents) != 0 {
		t.Fatalf("the dry run added an agent: %+v", g.Agents)
	}
	h.mustCall(t, "godot_navigation_agent", map[string]any{"parent": "Bot", "radius": 0.4, "height": 1.8, "path_desired_distance": 0.6,
		"target_desired_distance": 0.3, "avoidance": true, "layers": map[string]any{"set": []any{"ground", "water"}}}, &c)
	if !c.Created || c.Node.Path != "Bot/NavigationAgent3D" || c.Node.LayerBits != 3 || !c.Undoable {
		t.Fatalf("agent: %+v", c)
	}
	navFail(t, s, "agent", map[string]any{"node": "Nav", "radius": 1}, "VALIDATION_ERROR", "not a navigation agent", "Bot/NavigationAgent3D")
	h.mustCall(t, "godot_navigation_link", map[string]any{"parent": ".", "name": "Jump", "start": []float64{-3, 0, 0}, "end": []float64{3, 0, 9},
		"bidirectional": false, "layers": map[string]any{"set": []any{2}}}, &c)
	if !c.Created || c.Node.Class != "NavigationLink3D" || c.Node.LayerBits != 2 {
		t.Fatalf("link: %+v", c)
	}
	navFail(t, s, "link", map[string]any{"node": "Jump", "start": []float64{1, 2}}, "VALIDATION_ERROR", "[x, y, z]")

	// ---- debug drawing ----
	var d struct {
		Enabled bool `json:"enabled"`
		Changed bool `json:"changed"`
		sceneEdit
	}
	h.mustCall(t, "godot_navigation_debug", map[string]any{"enabled": true}, &d)
	if !d.Enabled || !d.Changed || !d.Undoable {
		t.Fatalf("debug: %+v", d)
	}
	g = navGet{}
	h.mustCall(t, "godot_navigation_get", nil, &g)
	if !g.DebugNavigation {
		t.Fatal("debug drawing not on")
	}

	// ---- 2D: the walkable outline, an obstacle cut into it, an empty 2D bake ----
	h.mustCall(t, "godot_scene_create_node", map[string]any{"type": "Node2D", "name": "Flat"}, nil)
	navFail(t, s, "region", map[string]any{"parent": "Flat", "agent_height": 2}, "VALIDATION_ERROR", "3D setting")
	h.mustCall(t, "godot_navigation_region", map[string]any{"parent": "Flat", "name": "Ground"}, &c)
	navFail(t, s, "bake", map[string]any{"region": "Flat/Ground"}, "PRECONDITION_FAILED", "no_walkable_outline", "outline")
	h.mustCall(t, "godot_navigation_region", map[string]any{"node": "Flat/Ground", "agent_radius": 5,
		"outline": [][]float64{{0, 0}, {200, 0}, {200, 200}, {0, 200}}}, &c)
	if c.Created || c.Node.Class != "NavigationRegion2D" || !c.Undoable {
		t.Fatalf("2D region: %+v", c)
	}
	// A Polygon2D square in the middle, from (80,20) to (120,200): the way from left to right goes around it at the top.
	h.mustCall(t, "godot_scene_create_node", map[string]any{"type": "Polygon2D", "name": "Block", "parent": "Flat/Ground",
		"properties": map[string]any{"polygon": []any{map[string]any{"x": 80, "y": 40}, map[string]any{"x": 120, "y": 40}, map[string]any{"x": 120, "y": 200}, map[string]any{"x": 80, "y": 200}}}}, nil)
	var b2 navBake
	h.mustCall(t, "godot_navigation_bake", map[string]any{"region": "Flat/Ground"}, &b2)
	if b2.Polygons < 2 || !b2.Undoable {
		t.Fatalf("2D bake: %+v", b2)
	}
	p = navPath{}
	h.mustCall(t, "godot_navigation_path", map[string]any{"from": []float64{20, 150}, "to": []float64{180, 150}}, &p)
	if !p.Reached || p.Straight != 160 || p.Length < p.Straight+50 {
		t.Fatalf("2D path around the block: %+v", p)
	}

	// ---- saved, read back by a fresh Godot ----
	h.mustCall(t, "godot_scene_save", nil, nil)
	nc := loadNavHeadless(t, s.project, "res://nav.tscn")
	if nc.Polygons != b.Polygons || nc.Vertices != b.Vertices || nc.CellSize != 0.25 || nc.Geometry != 0 || nc.Layers != 2 || strings.Join(nc.Names, ",") != "ground,water" {
		t.Fatalf("saved region (bake had %d polygons): %+v", b.Polygons, nc)
	}
	near := func(v any, want float64) bool { f, ok := v.(float64); return ok && f > want-0.001 && f < want+0.001 }
	if len(nc.Agent) != 6 || !near(nc.Agent[0], 0.4) || !near(nc.Agent[1], 1.8) || !near(nc.Agent[2], 0.6) || !near(nc.Agent[3], 0.3) || nc.Agent[4] != true || nc.Agent[5] != 3.0 {
		t.Fatalf("saved agent: %v", nc.Agent)
	}
	if len(nc.Link) != 4 || nc.Link[0] != -3.0 || nc.Link[1] != 9.0 || nc.Link[2] != false || nc.Link[3] != 2.0 {
		t.Fatalf("saved link: %v", nc.Link)
	}
}

// The running game's own navigation map: the baked scene played from the
// editor (with the navigation debug drawing switched on) answers a path
// around the wall through the runtime toolset's probe, and the game reports
// that it draws navigation. Without a game the tool says how to start one.
func TestNavigationGamePath(t *testing.T) {
	s := rtSession(t, false)
	h := s.host
	for _, ts := range []string{"scene", "navigation", "runtime"} {
		h.mustCall(t, "godot_enable_toolset", map[string]any{"name": ts}, nil)
	}
	rtWaitStatus(t, s, "the probe autoload to be registered", func(st rtStatus) bool { return st.ProbeRegistered })
	navBuildScene(t, s)
	h.mustCall(t, "godot_navigation_bake", map[string]any{"region": "Nav"}, nil)
	h.mustCall(t, "godot_navigation_debug", map[string]any{"enabled": true}, nil)
	h.mustCall(t, "godot_scene_save", nil, nil)
	from, to := []float64{-5, 0, 0}, []float64{5, 0, 0}
	navFail(t, s, "game_path", map[string]any{"from": from, "to": to}, "PRECONDITION_FAILED", "godot_runtime_play")

	var run rtPlay
	h.mustCall(t, "godot_runtime_play", map[string]any{"scene": "res://nav.tscn"}, &run)
	if !run.Playing || !run.ProbeConnected {
		t.Fatalf("play: %+v", run)
	}
	defer h.mustCall(t, "godot_runtime_stop", nil, nil)
	var p navPath
	deadline := time.Now().Add(20 * time.Second)
	for {
		r, err := h.call(context.Background(), "godot_navigation_game_path", map[string]any{"from": from, "to": to})
		if err != nil {
			t.Fatal(err)
		}
		if !r.IsError {
			if err := r.decode(&p); err != nil {
				t.Fatal(err)
			}
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("game_path: %s", r.Raw)
		}
		time.Sleep(300 * time.Millisecond)
	}
	if !p.Reached || len(p.Points) < 3 || p.Straight != 10 || p.Length < p.Straight+2 || !p.DebugNavigation {
		t.Fatalf("game path around the wall: %+v", p)
	}
	navFail(t, s, "game_path", map[string]any{"from": from, "to": to, "layers": []any{"nolayer"}}, "VALIDATION_ERROR", "no 3D navigation layer is named 'nolayer'")
}

// The debug drawing in pixels: the baked scene, seen from above by a camera
// over a red unshaded floor, is played under Xvfb with the drawing off and
// then on; with it on, the navigation mesh's debug faces (cyan, translucent)
// cover the floor beside the wall, so the same pixel turns from red to a
// red-cyan blend.
func TestNavigationDebugDrawingUnderXvfb(t *testing.T) {
	if why := rtDisplayAvailable(); why != "" {
		t.Skip("navigation debug drawing: skipped: " + why)
	}
	s := rtSession(t, true)
	h := s.host
	for _, ts := range []string{"scene", "navigation", "runtime"} {
		h.mustCall(t, "godot_enable_toolset", map[string]any{"name": ts}, nil)
	}
	rtWaitStatus(t, s, "the probe autoload to be registered", func(st rtStatus) bool { return st.ProbeRegistered })
	navBuildScene(t, s)
	h.mustCall(t, "godot_scene_set_properties", map[string]any{"node": "Nav/Floor", "properties": map[string]any{
		"material_override": map[string]any{"type": "StandardMaterial3D", "properties": map[string]any{"shading_mode": 0, "albedo_color": "#ff0000"}}}}, nil)
	h.mustCall(t, "godot_scene_create_node", map[string]any{"type": "Camera3D", "name": "Eye", "properties": map[string]any{
		"position": map[string]any{"x": 0, "y": 12, "z": 0}, "rotation": map[string]any{"x": -1.5707963, "y": 0, "z": 0}, "current": true}}, nil)
	h.mustCall(t, "godot_navigation_bake", map[string]any{"region": "Nav"}, nil)
	h.mustCall(t, "godot_scene_save", nil, nil)

	shot := func(debug bool) (r, g, b uint8, edges int, name string) {
		t.Helper()
		h.mustCall(t, "godot_navigation_debug", map[string]any{"enabled": debug}, nil)
		var run rtPlay
		h.mustCall(t, "godot_runtime_play", map[string]any{"scene": "res://nav.tscn", "timeout_ms": 60000}, &run)
		defer h.mustCall(t, "godot_runtime_stop", nil, nil)
		time.Sleep(time.Second) // a few frames drawn
		img, _ := rtScreenshot(t, h, nil)
		bd := img.Bounds()
		// Left of the wall (x about -2.5 in the world), on the row through its middle.
		cr, cg, cb, _ := img.At(bd.Min.X+bd.Dx()*4/10, bd.Min.Y+bd.Dy()/2).RGBA()
		// The debug drawing outlines the navmesh polygons (light lines: green and blue well above the tinted floor).
		for y := bd.Min.Y; y < bd.Max.Y; y++ {
			for x := bd.Min.X; x < bd.Max.X; x++ {
				_, pg, pb, _ := img.At(x, y).RGBA()
				if pg>>8 > 100 && pb>>8 > 100 {
					edges++
				}
			}
		}
		return uint8(cr >> 8), uint8(cg >> 8), uint8(cb >> 8), edges, rtSavePNG(t, img, "nav-debug")
	}
	r0, g0, b0, e0, off := shot(false)
	if r0 < 200 || g0 > 40 || b0 > 40 || e0 > 0 {
		t.Fatalf("with the drawing off the floor pixel is (%d,%d,%d) and %d light pixels, want the plain red floor (saved as %s)", r0, g0, b0, e0, off)
	}
	r1, g1, b1, e1, on := shot(true)
	if int(g1) < int(g0)+20 || int(b1) < int(b0)+20 || r1 >= r0 || e1 < 50 {
		t.Fatalf("with the drawing on the floor pixel is (%d,%d,%d) (off: (%d,%d,%d)) with %d light line pixels; want the floor tinted by the debug faces and the polygons outlined (off: %s, on: %s)",
			r1, g1, b1, r0, g0, b0, e1, off, on)
	}
}
