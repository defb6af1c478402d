package e2e

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"
)

// ---- tilemap toolset e2e: TileSet authoring, reading and painting in a real editor ----

// tilemapSession is an editor of its own with the scene and tilemap toolsets
// enabled and a new scene res://level.tscn open: a Node2D root with a
// TileMapLayer "Ground" and a legacy TileMap "Old".
func tilemapSession(t testing.TB) *session {
	t.Helper()
	s := newSession(t)
	for _, ts := range []string{"scene", "tilemap"} {
		s.host.mustCall(t, "godot_enable_toolset", map[string]any{"name": ts}, nil)
	}
	s.host.mustCall(t, "godot_scene_create", map[string]any{"path": "res://level.tscn", "root_type": "Node2D", "root_name": "Level"}, nil)
	s.host.mustCall(t, "godot_scene_create_node", map[string]any{"type": "TileMapLayer", "name": "Ground"}, nil)
	s.host.mustCall(t, "godot_scene_create_node", map[string]any{"type": "TileMap", "name": "Old"}, nil)
	return s
}

// tilesetSpec: icon.svg (16x16) cut into 8x8 tiles (a 2x2 atlas). Tile [0,0]
// is the grass interior (all four sides grass), [1,0] an isolated grass tile
// (no side peers), with a collision square and custom data on [0,0].
var tilesetSpec = map[string]any{
	"new":                map[string]any{"tile_size": []int{8, 8}},
	"atlases":            []any{map[string]any{"texture": "res://icon.svg"}},
	"physics_layers":     []any{map[string]any{"collision_layer": 2}},
	"custom_data_layers": []any{map[string]any{"name": "damage", "type": "int"}},
	"terrain_sets":       []any{map[string]any{"mode": "sides", "terrains": []any{map[string]any{"name": "grass", "color": "#00ff00"}}}},
	"tiles": []any{
		map[string]any{"atlas": []int{0, 0}, "terrain_set": 0, "terrain": 0,
			"peering":   map[string]any{"right_side": 0, "bottom_side": 0, "left_side": 0, "top_side": 0},
			"collision": []any{map[string]any{}}, "custom_data": map[string]any{"damage": 3}},
		map[string]any{"atlas": []int{1, 0}, "terrain_set": 0, "terrain": 0},
	},
}

func withArgs(base map[string]any, kv ...any) map[string]any {
	out := map[string]any{}
	for k, v := range base {
		out[k] = v
	}
	for i := 0; i+1 < len(kv); i += 2 {
		out[kv[i].(string)] = kv[i+1]
	}
	return out
}

type tmCell struct {
	X      int    `json:"x"`
	Y      int    `json:"y"`
	Source int    `json:"source"`
	Atlas  [2]int `json:"atlas"`
	Alt    int    `json:"alt"`
}

type tmCells struct {
	Total      int                      `json:"total"`
	Returned   int                      `json:"returned"`
	Truncated  bool                     `json:"truncated"`
	NextCursor string                   `json:"next_cursor"`
	Cells      []tmCell                 `json:"cells"`
	UsedRect   struct{ X, Y, W, H int } `json:"used_rect"`
}

func tmGetCells(t testing.TB, s *session, args map[string]any) tmCells {
	t.Helper()
	var out tmCells
	s.host.mustCall(t, "godot_tilemap_get_cells", withArgs(map[string]any{"layer": "Ground"}, flatten(args)...), &out)
	return out
}

func flatten(m map[string]any) []any {
	var out []any
	for k, v := range m {
		out = append(out, k, v)
	}
	return out
}

func (c tmCells) at(x, y int) *tmCell {
	for i := range c.Cells {
		if c.Cells[i].X == x && c.Cells[i].Y == y {
			return &c.Cells[i]
		}
	}
	return nil
}

type tmPaint struct {
	Layer     string `json:"layer"`
	Written   int    `json:"written"`
	Changed   bool   `json:"changed"`
	UsedCells int    `json:"used_cells"`
	sceneEdit
}

// tilemapCheckScript loads a scene in a fresh headless Godot and prints its
// TileMapLayer "Ground": the TileSet's path and make-up, and the cells asked for.
const tilemapCheckScript = `extends SceneTree

func _initialize() -> void:
	var args: PackedStringArray = OS.get_cmdline_user_args()
	var packed: PackedScene = load(args[0]) as PackedScene
	var root: Node = packed.instantiate()
	var l: TileMapLayer = root.get_node("Ground") as TileMapLayer
	var out: Dictionary = {"cells": l.get_used_cells().size(), "at": {}}
	for i: int in range(1, args.size()):
		var p: PackedStringArray = args[i].split(",")
		var v: Vector2i = Vector2i(int(p[0]), int(p[1]))
		out["at"][args[i]] = [l.get_cell_source_id(v), l.get_cell_atlas_coords(v).x, l.get_cell_atlas_coords(v).y]
	var ts: TileSet = l.tile_set
	if ts != null:
		var src: TileSetAtlasSource = ts.get_source(ts.get_source_id(0)) as TileSetAtlasSource
		var td: TileData = src.get_tile_data(Vector2i(0, 0), 0)
		out["tileset"] = {"path": ts.resource_path, "tile_size": [ts.tile_size.x, ts.tile_size.y], "tiles": src.get_tiles_count(),
			"texture": src.texture.resource_path, "terrain_sets": ts.get_terrain_sets_count(), "mode": ts.get_terrain_set_mode(0),
			"terrain": ts.get_terrain_name(0, 0), "collision_layer": ts.get_physics_layer_collision_layer(0),
			"polygons": td.get_collision_polygons_count(0), "points": td.get_collision_polygon_points(0, 0).size() if td.get_collision_polygons_count(0) > 0 else 0,
			"damage": td.get_custom_data("damage"), "peer_right": td.get_terrain_peering_bit(TileSet.CELL_NEIGHBOR_RIGHT_SIDE)}
	root.free()
	print("TILE_CHECK " + JSON.stringify(out))
	quit()
`

type tileCheck struct {
	Cells   int              `json:"cells"`
	At      map[string][]int `json:"at"`
	TileSet *struct {
		Path           string  `json:"path"`
		TileSize       []int   `json:"tile_size"`
		Tiles          int     `json:"tiles"`
		Texture        string  `json:"texture"`
		TerrainSets    int     `json:"terrain_sets"`
		Mode           int     `json:"mode"`
		Terrain        string  `json:"terrain"`
		CollisionLayer int     `json:"collision_layer"`
		Polygons       int     `json:"polygons"`
		Points         int     `json:"points"`
		Damage         float64 `json:"damage"`
		PeerRight      int     `json:"peer_right"`
	} `json:"tileset"`
}

// loadTilesHeadless reads scene's Ground layer back through a new headless
// Godot (not the editor that wrote it); cells are "x,y" to report.
func loadTilesHeadless(t testing.TB, project, scene string, cells ...string) tileCheck {
	t.Helper()
	script := filepath.Join(t.TempDir(), "tile_check.gd")
	if err := os.WriteFile(script, []byte(tilemapCheckScript), 0o644); err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	args := append([]string{"--headless", "--path", project, "--script", script, "--", scene}, cells...)
	cmd := exec.CommandContext(ctx, suite.godot, args...)
	cmd.Env = append(godotEnv(), "GODOT_MCP_BRIDGE_URL=ws://127.0.0.1:1")
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("headless load: %v\n%s", err, out)
	}
	checkEditorOutput(t, "headless tile check", string(out))
	for _, line := range strings.Split(string(out), "\n") {
		if rest, ok := strings.CutPrefix(strings.TrimSpace(line), "TILE_CHECK "); ok {
			var got tileCheck
			if err := json.Unmarshal([]byte(rest), &got); err != nil {
				t.Fatalf("bad JSON: %v\n%s", err, rest)
			}
			return got
		}
	}
	t.Fatalf("no TILE_CHECK line:\n%s", out)
	return tileCheck{}
}

func tmFail(t *testing.T, s *session, tool string, args map[string]any, code string, hintHas ...string) {
	t.Helper()
	sceneFail(t, s, "godot_tilemap_"+tool, args, code, hintHas...)
}

// Every tilemap tool against a real editor: a TileSet is created (a dry run
// first writes nothing), read back, assigned to a layer; cells are filled,
// erased, set and terrain-painted; a paint is one undo action (undo, redo);
// a legacy TileMap and a bad tile are refused; the saved scene and .tres are
// read back by a fresh headless Godot.
func TestTilemapAuthorPaintUndo(t *testing.T) {
	s := tilemapSession(t)
	h := s.host

	// ---- build_tileset ----
	var created struct {
		Path    string `json:"path"`
		Layer   string `json:"layer"`
		Tiles   int    `json:"tiles"`
		Sources []struct {
			ID       int    `json:"id"`
			Tiles    int    `json:"tiles"`
			GridSize [2]int `json:"grid_size"`
		} `json:"sources"`
		TerrainSets int `json:"terrain_sets"`
		sceneEdit
	}
	h.mustCall(t, "godot_tilemap_build_tileset", withArgs(tilesetSpec, "path", "res://tiles.tres", "layer", "Ground", "dry_run", true), &created)
	if !created.DryRun || created.Tiles != 4 {
		t.Fatalf("dry run: %+v", created)
	}
	if _, err := os.Stat(filepath.Join(s.project, "tiles.tres")); !os.IsNotExist(err) {
		t.Fatalf("the dry run wrote tiles.tres: %v", err)
	}
	tmFail(t, s, "build_tileset", withArgs(tilesetSpec, "path", "res://t2.tres", "tiles", []any{map[string]any{"atlas": []int{0, 0}, "custom_data": map[string]any{"dammage": 1}}}),
		"VALIDATION_ERROR", "Did you mean 'damage'")
	tmFail(t, s, "build_tileset", withArgs(tilesetSpec, "path", "res://t2.tres", "atlases", []any{map[string]any{"texture": "res://nope.png"}}), "RESOURCE_NOT_FOUND", "nope.png")
	h.mustCall(t, "godot_tilemap_build_tileset", withArgs(tilesetSpec, "path", "res://tiles.tres", "layer", "Ground"), &created)
	if created.Path != "res://tiles.tres" || created.Layer != "Ground" || created.Tiles != 4 || len(created.Sources) != 1 || created.Sources[0].GridSize != [2]int{2, 2} || !created.Undoable || !created.Persisted {
		t.Fatalf("build_tileset new: %+v", created)
	}
	tmFail(t, s, "build_tileset", withArgs(tilesetSpec, "path", "res://tiles.tres"), "VALIDATION_ERROR", "never overwrites")
	// create_tiles: opaque skips the transparent (rounded) corners of icon.svg.
	var opaque struct {
		Tiles int `json:"tiles"`
	}
	h.mustCall(t, "godot_tilemap_build_tileset", map[string]any{"path": "res://px.tres", "new": map[string]any{"tile_size": []int{1, 1}}, "dry_run": true,
		"atlases": []any{map[string]any{"texture": "res://icon.svg", "create_tiles": "opaque"}}}, &opaque)
	if opaque.Tiles < 200 || opaque.Tiles >= 256 {
		t.Fatalf("create_tiles opaque on a 16x16 rounded square made %d 1x1 tiles, want fewer than 256 (corners are transparent)", opaque.Tiles)
	}

	// ---- get_tileset, list_layers ----
	var ts struct {
		Path      string `json:"path"`
		TileSize  [2]int `json:"tile_size"`
		TileShape string `json:"tile_shape"`
		Sources   []struct {
			Texture string `json:"texture"`
			Tiles   []struct {
				Atlas             [2]int                     `json:"atlas"`
				TerrainSet        int                        `json:"terrain_set"`
				Terrain           int                        `json:"terrain"`
				Peering           map[string]int             `json:"peering"`
				CollisionPolygons []int                      `json:"collision_polygons"`
				CustomData        map[string]json.RawMessage `json:"custom_data"`
			} `json:"tiles"`
		} `json:"sources"`
		TerrainSets []struct {
			Mode     string `json:"mode"`
			Terrains []struct {
				Name string `json:"name"`
			} `json:"terrains"`
		} `json:"terrain_sets"`
		PhysicsLayers []struct {
			CollisionLayer int `json:"collision_layer"`
		} `json:"physics_layers"`
		CustomDataLayers []struct {
			Name string `json:"name"`
			Type string `json:"type"`
		} `json:"custom_data_layers"`
	}
	h.mustCall(t, "godot_tilemap_get_tileset", map[string]any{"layer": "Ground"}, &ts)
	if ts.Path != "res://tiles.tres" || ts.TileSize != [2]int{8, 8} || ts.TileShape != "square" || len(ts.Sources) != 1 || len(ts.Sources[0].Tiles) != 4 ||
		len(ts.TerrainSets) != 1 || ts.TerrainSets[0].Mode != "sides" || ts.TerrainSets[0].Terrains[0].Name != "grass" ||
		len(ts.PhysicsLayers) != 1 || ts.PhysicsLayers[0].CollisionLayer != 2 || len(ts.CustomDataLayers) != 1 || ts.CustomDataLayers[0].Type != "int" {
		t.Fatalf("get_tileset: %+v", ts)
	}
	t0 := ts.Sources[0].Tiles[0]
	if t0.Atlas != [2]int{0, 0} || t0.TerrainSet != 0 || t0.Peering["top_side"] != 0 || len(t0.Peering) != 4 || len(t0.CollisionPolygons) != 1 || t0.CollisionPolygons[0] != 1 || string(t0.CustomData["damage"]) != "3" {
		t.Fatalf("tile [0,0]: %+v", t0)
	}
	h.mustCall(t, "godot_tilemap_get_tileset", map[string]any{"path": "res://tiles.tres"}, &ts)
	var layers struct {
		Layers []struct {
			Path    string `json:"path"`
			TileSet *struct {
				Path string `json:"path"`
			} `json:"tile_set"`
		} `json:"layers"`
		Legacy []struct {
			Path string `json:"path"`
			Hint string `json:"hint"`
		} `json:"legacy"`
	}
	h.mustCall(t, "godot_tilemap_list_layers", nil, &layers)
	if len(layers.Layers) != 1 || layers.Layers[0].Path != "Ground" || layers.Layers[0].TileSet == nil || layers.Layers[0].TileSet.Path != "res://tiles.tres" ||
		len(layers.Legacy) != 1 || layers.Legacy[0].Path != "Old" || !strings.Contains(layers.Legacy[0].Hint, "TileMapLayer") {
		t.Fatalf("list_layers: %+v", layers)
	}

	// ---- refusals ----
	tmFail(t, s, "paint", map[string]any{"layer": "Old", "erase": [][2]int{{0, 0}}}, "PRECONDITION_FAILED", "TileMap node", "Extract TileMap layers")
	tmFail(t, s, "get_cells", map[string]any{"layer": "Grond"}, "RESOURCE_NOT_FOUND", "Did you mean 'Ground'")
	tmFail(t, s, "paint", map[string]any{"layer": "Ground", "set": []any{map[string]any{"tile": map[string]any{"source": 0, "atlas": []int{5, 5}}, "cells": [][2]int{{0, 0}}}}},
		"VALIDATION_ERROR", "no tile at atlas [5,5]")
	tmFail(t, s, "paint", map[string]any{"layer": "Ground", "terrain": []any{map[string]any{"mode": "path", "terrain_set": 0, "terrain": 0, "cells": [][2]int{{0, 0}, {5, 5}}}}},
		"VALIDATION_ERROR", "not a neighbour")

	// ---- paint: a dry run changes nothing ----
	fill := map[string]any{"layer": "Ground",
		"fill":  []any{map[string]any{"rect": map[string]int{"x": 0, "y": 0, "w": 10, "h": 10}, "tile": map[string]any{"source": 0, "atlas": []int{1, 1}}}},
		"erase": [][2]int{{0, 0}},
		"set":   []any{map[string]any{"tile": map[string]any{"source": 0, "atlas": []int{0, 1}}, "cells": [][2]int{{20, 20}}}},
	}
	var p tmPaint
	h.mustCall(t, "godot_tilemap_paint", withArgs(fill, "dry_run", true), &p)
	if !p.DryRun || p.UsedCells != 100 || !p.Changed || p.Undoable {
		t.Fatalf("dry run: %+v", p)
	}
	if c := tmGetCells(t, s, nil); c.Total != 0 {
		t.Fatalf("the dry run painted %d cells", c.Total)
	}
	h.mustCall(t, "godot_tilemap_paint", fill, &p)
	if p.UsedCells != 100 || p.Written != 102 || !p.Changed || !p.Undoable || !p.Persisted {
		t.Fatalf("paint: %+v", p)
	}
	c := tmGetCells(t, s, map[string]any{"limit": 60})
	if c.Total != 100 || c.Returned != 60 || !c.Truncated || c.NextCursor == "" || c.at(0, 0) != nil || c.at(1, 0) == nil || c.at(1, 0).Atlas != [2]int{1, 1} {
		t.Fatalf("get_cells page 1: total %d returned %d truncated %v cursor %q", c.Total, c.Returned, c.Truncated, c.NextCursor)
	}
	c2 := tmGetCells(t, s, map[string]any{"limit": 60, "cursor": c.NextCursor})
	if c2.Returned != 40 || c2.Truncated || c2.at(20, 20) == nil || c2.at(20, 20).Atlas != [2]int{0, 1} {
		t.Fatalf("get_cells page 2: %+v", c2)
	}
	if r := tmGetCells(t, s, map[string]any{"rect": map[string]int{"x": 0, "y": 0, "w": 2, "h": 2}}); r.Total != 3 {
		t.Fatalf("rect 2x2 has %d cells, want 3", r.Total)
	}
	// A pattern copied from the layer (the 2x2 corner, its (0,0) erased) stamps (60,60):
	// its empty cell erases what the fill (applied first) put there.
	h.mustCall(t, "godot_tilemap_paint", map[string]any{"layer": "Ground",
		"fill":     []any{map[string]any{"rect": map[string]int{"x": 60, "y": 60, "w": 1, "h": 1}, "tile": map[string]any{"source": 0}}},
		"patterns": []any{map[string]any{"at": []int{60, 60}, "copy": map[string]int{"x": 0, "y": 0, "w": 2, "h": 2}}}}, &p)
	pc := tmGetCells(t, s, map[string]any{"rect": map[string]int{"x": 60, "y": 60, "w": 2, "h": 2}})
	if p.Written != 5 || pc.Total != 3 || pc.at(60, 60) != nil || pc.at(61, 61) == nil || pc.at(61, 61).Atlas != [2]int{1, 1} {
		t.Fatalf("pattern copy: %+v, cells %+v", p, pc)
	}
	sceneUndo(t, s)
	// One undo action: undo takes all of it back, redo brings it again.
	u := sceneUndo(t, s)
	if len(u.Actions) != 1 || !strings.Contains(u.Actions[0], "paint tiles") {
		t.Fatalf("undo: %+v", u)
	}
	if c := tmGetCells(t, s, nil); c.Total != 0 {
		t.Fatalf("after undo %d cells", c.Total)
	}
	sceneRedo(t, s)
	if c := tmGetCells(t, s, nil); c.Total != 100 {
		t.Fatalf("after redo %d cells", c.Total)
	}

	// ---- terrains: the engine's matching ----
	var block [][2]int
	for y := 30; y < 33; y++ {
		for x := 30; x < 33; x++ {
			block = append(block, [2]int{x, y})
		}
	}
	h.mustCall(t, "godot_tilemap_paint", map[string]any{"layer": "Ground", "terrain": []any{
		map[string]any{"terrain_set": 0, "terrain": 0, "cells": block},
		map[string]any{"terrain_set": 0, "terrain": 0, "cells": [][2]int{{40, 40}}, "ignore_empty_terrains": false},
		map[string]any{"mode": "path", "terrain_set": 0, "terrain": 0, "cells": [][2]int{{50, 50}, {51, 50}, {52, 50}}},
	}}, &p)
	if p.Written != 13 || !p.Undoable {
		t.Fatalf("terrain paint: %+v", p)
	}
	all := tmGetCells(t, s, map[string]any{"limit": 10000})
	if mid := all.at(31, 31); mid == nil || mid.Atlas != [2]int{0, 0} {
		t.Fatalf("the 3x3 terrain block's centre is %+v, want the interior tile [0,0]", mid)
	}
	if lone := all.at(40, 40); lone == nil || lone.Atlas != [2]int{1, 0} {
		t.Fatalf("the lone terrain cell is %+v, want the isolated tile [1,0]", lone)
	}
	for x := 50; x < 53; x++ {
		if pc := all.at(x, 50); pc == nil || pc.Source != 0 {
			t.Fatalf("path cell %d,50 is %+v", x, pc)
		}
	}

	// ---- saved, and read back by a fresh Godot ----
	h.mustCall(t, "godot_scene_save", nil, nil)
	got := loadTilesHeadless(t, s.project, "res://level.tscn", "0,0", "1,0", "20,20", "31,31", "40,40")
	if got.Cells != all.Total || got.At["0,0"][0] != -1 || fmt.Sprint(got.At["1,0"]) != "[0 1 1]" || fmt.Sprint(got.At["20,20"]) != "[0 0 1]" ||
		fmt.Sprint(got.At["31,31"]) != "[0 0 0]" || fmt.Sprint(got.At["40,40"]) != "[0 1 0]" {
		t.Fatalf("saved cells: %+v (editor had %d)", got, all.Total)
	}
	tsc := got.TileSet
	if tsc == nil || tsc.Path != "res://tiles.tres" || tsc.Tiles != 4 || tsc.Texture != "res://icon.svg" || tsc.TerrainSets != 1 || tsc.Mode != 2 ||
		tsc.Terrain != "grass" || tsc.CollisionLayer != 2 || tsc.Polygons != 1 || tsc.Points != 4 || tsc.Damage != 3 || tsc.PeerRight != 0 {
		t.Fatalf("saved TileSet: %+v", tsc)
	}
}

// ---- 10,000 cells in one call ----

// grid100 is the 100x100 block of cells at origin.
func grid100(ox, oy int) [][2]int {
	cells := make([][2]int, 0, 10000)
	for y := range 100 {
		for x := range 100 {
			cells = append(cells, [2]int{ox + x, oy + y})
		}
	}
	return cells
}

func setCells(atlas [2]int, cells [][2]int) map[string]any {
	return map[string]any{"layer": "Ground", "set": []any{map[string]any{"tile": map[string]any{"source": 0, "atlas": atlas}, "cells": cells}}}
}

// 10,000 cells (each named, not a fill) are one call and one undo action;
// the saved scene holds them all.
func TestTilemapPaint10000OneUndo(t *testing.T) {
	s := tilemapSession(t)
	h := s.host
	h.mustCall(t, "godot_tilemap_build_tileset", withArgs(tilesetSpec, "layer", "Ground"), nil)
	// Assigning the new (embedded) TileSet is one undo action.
	sceneUndo(t, s)
	tmFail(t, s, "paint", setCells([2]int{1, 1}, [][2]int{{0, 0}}), "PRECONDITION_FAILED", "has no TileSet")
	sceneRedo(t, s)
	var p tmPaint
	start := time.Now()
	h.mustCall(t, "godot_tilemap_paint", setCells([2]int{1, 1}, grid100(0, 0)), &p)
	t.Logf("10,000 cells in one paint call: %v", time.Since(start))
	if p.UsedCells != 10000 || p.Written != 10000 || !p.Undoable {
		t.Fatalf("paint: %+v", p)
	}
	u := sceneUndo(t, s)
	if len(u.Actions) != 1 {
		t.Fatalf("undo: %+v", u)
	}
	if c := tmGetCells(t, s, map[string]any{"limit": 1}); c.Total != 0 {
		t.Fatalf("after one undo %d cells remain", c.Total)
	}
	sceneRedo(t, s)
	h.mustCall(t, "godot_scene_save", nil, nil)
	got := loadTilesHeadless(t, s.project, "res://level.tscn", "99,99")
	if got.Cells != 10000 || fmt.Sprint(got.At["99,99"]) != "[0 1 1]" {
		t.Fatalf("saved: %+v", got)
	}
	// Embedded TileSet: saved with the scene.
	if got.TileSet == nil || !strings.HasPrefix(got.TileSet.Path, "res://level.tscn::") {
		t.Fatalf("embedded TileSet: %+v", got.TileSet)
	}
}

var benchTiles benchEditor

// tilemapBenchSession is one editor for the tilemap benchmarks (started
// once), with the level scene and an embedded TileSet.
func tilemapBenchSession(b *testing.B) *session {
	return benchTiles.session(b, "tilebench-", func() []benchCall {
		return []benchCall{
			{"godot_enable_toolset", map[string]any{"name": "scene"}},
			{"godot_enable_toolset", map[string]any{"name": "tilemap"}},
			{"godot_scene_create", map[string]any{"path": "res://level.tscn", "root_type": "Node2D"}},
			{"godot_scene_create_node", map[string]any{"type": "TileMapLayer", "name": "Ground"}},
			{"godot_tilemap_build_tileset", withArgs(tilesetSpec, "layer", "Ground")},
			{"godot_tilemap_paint", withArgs(setCells([2]int{0, 0}, grid100(0, 0)), "dry_run", true)},
		}
	})
}

// benchPaint paints cellsPerCall cells per call, calls times per op,
// alternating two tiles so every call changes every cell.
func benchPaint(b *testing.B, calls, cellsPerCall int) {
	s := tilemapBenchSession(b)
	mark := s.editor.out.Len()
	b.Cleanup(func() { checkEditorOutput(b, "bench editor", s.editor.out.since(mark)) })
	all := grid100(0, 0)
	ctx := context.Background()
	b.ResetTimer()
	for i := range b.N {
		atlas := [2]int{i % 2, 1}
		for k := range calls {
			args := setCells(atlas, all[k*cellsPerCall:(k+1)*cellsPerCall])
			if r, err := s.host.call(ctx, "godot_tilemap_paint", args); err != nil || r.IsError {
				b.Fatalf("paint: %v %s", err, r.Raw)
			}
		}
	}
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*calls*cellsPerCall), "ns/cell")
}

// BenchmarkTilemapPaint10000Editor paints 10,000 cells with one
// godot_tilemap_paint call (one undo action), end to end: MCP → host →
// plugin → bridge → a real editor.
func BenchmarkTilemapPaint10000Editor(b *testing.B) { benchPaint(b, 1, 10000) }

// BenchmarkTilemapPaint1Editor is the baseline: one cell per call (a call's
// fixed cost).
func BenchmarkTilemapPaint1Editor(b *testing.B) { benchPaint(b, 1, 1) }

// With E2E_BENCH=1, the 10,000-cell call against 10,000 one-cell calls'
// cost estimated from the baseline:
//
//	E2E_BENCH=1 go test -count=1 -v -run TestTilemapPaintSpeedup ./e2e/
func TestTilemapPaintSpeedup(t *testing.T) {
	if os.Getenv("E2E_BENCH") == "" {
		t.Skip("set E2E_BENCH=1 to measure")
	}
	big := testing.Benchmark(func(b *testing.B) { benchPaint(b, 1, 10000) })
	one := testing.Benchmark(func(b *testing.B) { benchPaint(b, 1, 1) })
	if big.N == 0 || one.N == 0 {
		t.Fatal("a benchmark failed (see above)")
	}
	ratio := float64(one.NsPerOp()*10000) / float64(big.NsPerOp())
	t.Logf("10,000 cells: one call %v; one cell per call %v (x10,000 = %v): one call is %.0f× faster",
		time.Duration(big.NsPerOp()), time.Duration(one.NsPerOp()), time.Duration(one.NsPerOp()*10000), ratio)
	if big.NsPerOp() > int64(5*time.Second) {
		t.Errorf("a 10,000-cell paint takes %v, want under 5 s", time.Duration(big.NsPerOp()))
	}
}

// ---- GridMap ----

// meshesScene is a scene of meshes for a MeshLibrary: a box with a collision
// shape, and a sphere nested one level down (found depth first, as the editor does).
const meshesScene = `[gd_scene load_steps=4 format=3]

[sub_resource type="BoxMesh" id="BoxMesh_1"]

[sub_resource type="SphereMesh" id="SphereMesh_1"]

[sub_resource type="BoxShape3D" id="BoxShape3D_1"]

[node name="Meshes" type="Node3D"]

[node name="Box" type="MeshInstance3D" parent="."]
mesh = SubResource("BoxMesh_1")

[node name="Body" type="StaticBody3D" parent="Box"]

[node name="Shape" type="CollisionShape3D" parent="Box/Body"]
shape = SubResource("BoxShape3D_1")

[node name="Group" type="Node3D" parent="."]

[node name="Ball" type="MeshInstance3D" parent="Group"]
mesh = SubResource("SphereMesh_1")
`

const gridCheckScript = `extends SceneTree

func _initialize() -> void:
	var root: Node = (load(OS.get_cmdline_user_args()[0]) as PackedScene).instantiate()
	var g: GridMap = root.get_node("Grid") as GridMap
	var lib: MeshLibrary = g.mesh_library
	var names: Array = []
	for id: int in lib.get_item_list():
		names.append([id, lib.get_item_name(id), lib.get_item_shapes(id).size() / 2, lib.get_item_mesh(id).get_class()])
	print("GRID_CHECK " + JSON.stringify({"cells": g.get_used_cells().size(), "item_000": g.get_cell_item(Vector3i(0, 0, 0)),
		"orient_100": g.get_cell_item_orientation(Vector3i(1, 0, 0)), "item_200": g.get_cell_item(Vector3i(2, 0, 0)),
		"library": lib.resource_path, "items": names}))
	root.free()
	quit()
`

// A MeshLibrary is built from a scene of meshes and assigned to a GridMap
// (undoable); cells are set by name and id and erased in one undo action;
// the saved scene and .tres are read back by a fresh headless Godot.
func TestTilemapGridMap(t *testing.T) {
	s := newSession(t)
	h := s.host
	if err := os.WriteFile(filepath.Join(s.project, "meshes.tscn"), []byte(meshesScene), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, ts := range []string{"scene", "tilemap"} {
		h.mustCall(t, "godot_enable_toolset", map[string]any{"name": ts}, nil)
	}
	h.mustCall(t, "godot_scene_create", map[string]any{"path": "res://world.tscn", "root_type": "Node3D", "root_name": "World"}, nil)
	h.mustCall(t, "godot_scene_create_node", map[string]any{"type": "GridMap", "name": "Grid"}, nil)

	tmFail(t, s, "gridmap_set_cells", map[string]any{"gridmap": "Grid", "set": []any{map[string]any{"item": 0, "cells": [][3]int{{0, 0, 0}}}}}, "PRECONDITION_FAILED", "no MeshLibrary")
	tmFail(t, s, "gridmap_build_library", map[string]any{"scene": "res://meshes.tscn", "gridmap": "Gird"}, "RESOURCE_NOT_FOUND", "Did you mean 'Grid'")
	var lib struct {
		Path    string `json:"path"`
		GridMap string `json:"gridmap"`
		Items   []struct {
			ID     int    `json:"id"`
			Name   string `json:"name"`
			Shapes int    `json:"shapes"`
		} `json:"items"`
		sceneEdit
	}
	h.mustCall(t, "godot_tilemap_gridmap_build_library", map[string]any{"scene": "res://meshes.tscn", "path": "res://lib.tres", "gridmap": "Grid", "dry_run": true}, &lib)
	if _, err := os.Stat(filepath.Join(s.project, "lib.tres")); !lib.DryRun || !os.IsNotExist(err) {
		t.Fatalf("dry run %+v wrote lib.tres (%v)", lib, err)
	}
	h.mustCall(t, "godot_tilemap_gridmap_build_library", map[string]any{"scene": "res://meshes.tscn", "path": "res://lib.tres", "gridmap": "Grid"}, &lib)
	if lib.Path != "res://lib.tres" || lib.GridMap != "Grid" || len(lib.Items) != 2 || lib.Items[0].Name != "Box" || lib.Items[0].Shapes != 1 || lib.Items[1].Name != "Ball" || !lib.Undoable {
		t.Fatalf("build_library: %+v", lib)
	}
	// Undoing the assignment leaves the GridMap without a library again.
	sceneUndo(t, s)
	tmFail(t, s, "gridmap_set_cells", map[string]any{"gridmap": "Grid", "set": []any{map[string]any{"item": 0, "cells": [][3]int{{0, 0, 0}}}}}, "PRECONDITION_FAILED", "no MeshLibrary")
	sceneRedo(t, s)

	tmFail(t, s, "gridmap_set_cells", map[string]any{"gridmap": "Grid", "set": []any{map[string]any{"name": "Bal", "cells": [][3]int{{0, 0, 0}}}}}, "VALIDATION_ERROR", "Did you mean 'Ball'")
	var set struct {
		Written   int  `json:"written"`
		UsedCells int  `json:"used_cells"`
		Changed   bool `json:"changed"`
		sceneEdit
	}
	args := map[string]any{"gridmap": "Grid", "set": []any{
		map[string]any{"name": "Box", "cells": [][3]int{{0, 0, 0}, {2, 0, 0}, {3, 0, 0}}},
		map[string]any{"item": lib.Items[1].ID, "orientation": 10, "cells": [][3]int{{1, 0, 0}}},
	}, "erase": [][3]int{{2, 0, 0}}}
	h.mustCall(t, "godot_tilemap_gridmap_set_cells", withArgs(args, "dry_run", true), &set)
	var cells struct {
		Total int `json:"total"`
		Cells []struct {
			X, Y, Z     int
			Item        int    `json:"item"`
			Name        string `json:"name"`
			Orientation int    `json:"orientation"`
		} `json:"cells"`
		Truncated  bool   `json:"truncated"`
		NextCursor string `json:"next_cursor"`
	}
	h.mustCall(t, "godot_tilemap_gridmap_get_cells", map[string]any{"gridmap": "Grid"}, &cells)
	if !set.DryRun || set.UsedCells != 3 || cells.Total != 0 {
		t.Fatalf("dry run %+v left %d cells", set, cells.Total)
	}
	h.mustCall(t, "godot_tilemap_gridmap_set_cells", args, &set)
	if set.Written != 5 || set.UsedCells != 3 || !set.Undoable {
		t.Fatalf("set_cells: %+v", set)
	}
	h.mustCall(t, "godot_tilemap_gridmap_get_cells", map[string]any{"gridmap": "Grid", "limit": 2}, &cells)
	if cells.Total != 3 || len(cells.Cells) != 2 || !cells.Truncated || cells.Cells[1].Name != "Ball" || cells.Cells[1].Orientation != 10 {
		t.Fatalf("get_cells: %+v", cells)
	}
	sceneUndo(t, s)
	h.mustCall(t, "godot_tilemap_gridmap_get_cells", map[string]any{"gridmap": "Grid"}, &cells)
	if cells.Total != 0 {
		t.Fatalf("after undo %d cells", cells.Total)
	}
	sceneRedo(t, s)
	var layers struct {
		GridMaps []struct {
			Path        string `json:"path"`
			MeshLibrary string `json:"mesh_library"`
			Items       int    `json:"items"`
			Cells       int    `json:"cells"`
		} `json:"gridmaps"`
	}
	h.mustCall(t, "godot_tilemap_list_layers", nil, &layers)
	if len(layers.GridMaps) != 1 || layers.GridMaps[0].MeshLibrary != "res://lib.tres" || layers.GridMaps[0].Items != 2 || layers.GridMaps[0].Cells != 3 {
		t.Fatalf("list_layers: %+v", layers)
	}

	h.mustCall(t, "godot_scene_save", nil, nil)
	script := filepath.Join(t.TempDir(), "grid_check.gd")
	if err := os.WriteFile(script, []byte(gridCheckScript), 0o644); err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(suite.godot, "--headless", "--path", s.project, "--script", script, "--", "res://world.tscn")
	cmd.Env = append(godotEnv(), "GODOT_MCP_BRIDGE_URL=ws://127.0.0.1:1")
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("headless: %v\n%s", err, out)
	}
	checkEditorOutput(t, "headless grid check", string(out))
	_, rest, ok := strings.Cut(string(out), "GRID_CHECK ")
	if !ok {
		t.Fatalf("no GRID_CHECK:\n%s", out)
	}
	var got struct {
		Cells     int     `json:"cells"`
		Item000   int     `json:"item_000"`
		Orient100 int     `json:"orient_100"`
		Item200   int     `json:"item_200"`
		Library   string  `json:"library"`
		Items     [][]any `json:"items"`
	}
	if err := json.Unmarshal([]byte(strings.SplitN(rest, "\n", 2)[0]), &got); err != nil {
		t.Fatal(err)
	}
	if got.Cells != 3 || got.Item000 != lib.Items[0].ID || got.Orient100 != 10 || got.Item200 != -1 || got.Library != "res://lib.tres" ||
		fmt.Sprint(got.Items) != fmt.Sprintf("[[%d Box 1 BoxMesh] [%d Ball 0 SphereMesh]]", lib.Items[0].ID, lib.Items[1].ID) {
		t.Fatalf("saved GridMap: %+v", got)
	}
}

const tilesetCheckScript = `extends SceneTree

func _initialize() -> void:
	var ts: TileSet = load(OS.get_cmdline_user_args()[0]) as TileSet
	var ids: Array = []
	for i: int in ts.get_source_count():
		ids.append(ts.get_source_id(i))
	var td: TileData = (ts.get_source(0) as TileSetAtlasSource).get_tile_data(Vector2i(1, 0), 0)
	var custom: Array = []
	for i: int in ts.get_custom_data_layers_count():
		custom.append(ts.get_custom_data_layer_name(i))
	print("TILESET_CHECK " + JSON.stringify({"sources": ids, "terrain_sets": ts.get_terrain_sets_count(), "custom": custom,
		"polygons_10": td.get_collision_polygons_count(0), "points_10": td.get_collision_polygon_points(0, 0).size() if td.get_collision_polygons_count(0) > 0 else 0,
		"kind_10": td.get_custom_data("kind") if ts.has_custom_data_layer_by_name("kind") else null}))
	quit()
`

func headlessTileSet(t *testing.T, project, path string) map[string]any {
	t.Helper()
	script := filepath.Join(t.TempDir(), "tileset_check.gd")
	if err := os.WriteFile(script, []byte(tilesetCheckScript), 0o644); err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(suite.godot, "--headless", "--path", project, "--script", script, "--", path)
	cmd.Env = append(godotEnv(), "GODOT_MCP_BRIDGE_URL=ws://127.0.0.1:1")
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("headless: %v\n%s", err, out)
	}
	checkEditorOutput(t, "headless tileset check", string(out))
	_, rest, ok := strings.Cut(string(out), "TILESET_CHECK ")
	if !ok {
		t.Fatalf("no TILESET_CHECK:\n%s", out)
	}
	var got map[string]any
	if err := json.Unmarshal([]byte(strings.SplitN(rest, "\n", 2)[0]), &got); err != nil {
		t.Fatal(err)
	}
	return got
}

// An existing .tres TileSet is edited in place as one undo action: a new
// atlas, a terrain set, a custom data layer, a collision polygon and custom
// data on an existing tile; the .tres on disk has them (fresh Godot); a
// failing edit changes nothing; undo takes the edit back, redo again.
func TestTilemapEditTileSet(t *testing.T) {
	s := tilemapSession(t)
	h := s.host
	h.mustCall(t, "godot_tilemap_build_tileset", withArgs(tilesetSpec, "path", "res://tiles.tres", "layer", "Ground"), nil)
	type tsRead struct {
		Sources []struct {
			ID    int `json:"id"`
			Tiles []struct {
				Atlas             [2]int                     `json:"atlas"`
				CollisionPolygons []int                      `json:"collision_polygons"`
				CustomData        map[string]json.RawMessage `json:"custom_data"`
			} `json:"tiles"`
		} `json:"sources"`
		TerrainSets      []any `json:"terrain_sets"`
		CustomDataLayers []any `json:"custom_data_layers"`
	}
	read := func() tsRead {
		t.Helper()
		var r tsRead
		h.mustCall(t, "godot_tilemap_get_tileset", map[string]any{"layer": "Ground"}, &r)
		return r
	}
	tile10 := func(r tsRead) (int, string) {
		for _, tl := range r.Sources[0].Tiles {
			if tl.Atlas == [2]int{1, 0} {
				return tl.CollisionPolygons[0], string(tl.CustomData["kind"])
			}
		}
		t.Fatal("no tile [1,0]")
		return 0, ""
	}
	// All or nothing: a bad tile after a good layer leaves the TileSet as it was.
	tmFail(t, s, "build_tileset", map[string]any{"layer": "Ground", "custom_data_layers": []any{map[string]any{"name": "kind", "type": "String"}},
		"tiles": []any{map[string]any{"source": 7, "atlas": []int{0, 0}}}}, "VALIDATION_ERROR", "source 7 is not an atlas source")
	if r := read(); len(r.CustomDataLayers) != 1 {
		t.Fatalf("the failed edit left %d custom data layers", len(r.CustomDataLayers))
	}
	edit := map[string]any{"path": "res://tiles.tres",
		"atlases":            []any{map[string]any{"texture": "res://icon.svg", "id": 5, "tile_size": []int{16, 16}}},
		"terrain_sets":       []any{map[string]any{"mode": "corners", "terrains": []any{map[string]any{"name": "water"}}}},
		"custom_data_layers": []any{map[string]any{"name": "kind", "type": "String"}},
		"tiles": []any{map[string]any{"source": 0, "atlas": []int{1, 0}, "collision": []any{map[string]any{"points": [][2]float64{{0, -4}, {4, 4}, {-4, 4}}}},
			"custom_data": map[string]any{"kind": "lava"}}},
	}
	var out struct {
		Sources []struct {
			ID int `json:"id"`
		} `json:"sources"`
		TerrainSets int `json:"terrain_sets"`
		sceneEdit
	}
	h.mustCall(t, "godot_tilemap_build_tileset", withArgs(edit, "dry_run", true), &out)
	if r := read(); !out.DryRun || len(out.Sources) != 2 || len(r.Sources) != 1 || len(r.TerrainSets) != 1 {
		t.Fatalf("dry run %+v changed the TileSet: %+v", out, r)
	}
	h.mustCall(t, "godot_tilemap_build_tileset", edit, &out)
	if len(out.Sources) != 2 || out.Sources[1].ID != 5 || out.TerrainSets != 2 || !out.Undoable || !out.Persisted {
		t.Fatalf("build_tileset onto: %+v", out)
	}
	r := read()
	if polys, kind := tile10(r); len(r.Sources) != 2 || len(r.TerrainSets) != 2 || len(r.CustomDataLayers) != 2 || polys != 1 || kind != `"lava"` {
		t.Fatalf("after the edit: %+v", r)
	}
	got := headlessTileSet(t, s.project, "res://tiles.tres")
	if fmt.Sprint(got["sources"]) != "[0 5]" || got["terrain_sets"] != 2.0 || fmt.Sprint(got["custom"]) != "[damage kind]" || got["polygons_10"] != 1.0 || got["points_10"] != 3.0 || got["kind_10"] != "lava" {
		t.Fatalf("the saved .tres: %v", got)
	}
	// A paint after the edit; undo both, redo both: the TileSet and the cells are back.
	var p tmPaint
	h.mustCall(t, "godot_tilemap_paint", setCells([2]int{1, 0}, [][2]int{{3, 3}}), &p)
	sceneUndo(t, s)
	u := sceneUndo(t, s)
	if !strings.Contains(strings.Join(u.Actions, ","), "edit TileSet") {
		t.Fatalf("undo: %+v", u)
	}
	r = read()
	if polys, _ := tile10(r); len(r.Sources) != 1 || len(r.TerrainSets) != 1 || len(r.CustomDataLayers) != 1 || polys != 0 {
		t.Fatalf("after undo: %+v", r)
	}
	sceneRedo(t, s)
	sceneRedo(t, s)
	r = read()
	if polys, kind := tile10(r); len(r.Sources) != 2 || len(r.TerrainSets) != 2 || polys != 1 || kind != `"lava"` {
		t.Fatalf("after redo: %+v", r)
	}
	if c := tmGetCells(t, s, nil); c.Total != 1 || c.at(3, 3) == nil || c.at(3, 3).Atlas != [2]int{1, 0} {
		t.Fatalf("cells after redo: %+v", c)
	}
}

// makeTileSetScript writes res://scenes_tiles.tres in a headless Godot: an
// atlas source 0 (icon.svg, 8x8 tiles), a scenes-collection source 1 with
// the main scene as scene tile 7, and a 2x1 pattern of atlas tiles.
const makeTileSetScript = `extends SceneTree

func _initialize() -> void:
	var ts := TileSet.new()
	ts.tile_size = Vector2i(8, 8)
	var a := TileSetAtlasSource.new()
	a.texture = load("res://icon.svg")
	a.texture_region_size = Vector2i(8, 8)
	ts.add_source(a, 0)
	a.create_tile(Vector2i(0, 0))
	a.create_tile(Vector2i(1, 0))
	var sc := TileSetScenesCollectionSource.new()
	ts.add_source(sc, 1)
	sc.create_scene_tile(load("res://main.tscn"), 7)
	var p := TileMapPattern.new()
	p.set_cell(Vector2i(0, 0), 0, Vector2i(0, 0), 0)
	p.set_cell(Vector2i(1, 0), 0, Vector2i(1, 0), 0)
	ts.add_pattern(p)
	print("SAVED ", ResourceSaver.save(ts, "res://scenes_tiles.tres"))
	quit()
`

// Scene tiles and TileSet patterns (which these tools do not create) read
// and paint: get_tileset lists the scene tile, paint places it by its id and
// places pattern 0; the saved scene has them.
func TestTilemapSceneTilesAndPatterns(t *testing.T) {
	project := newProject(t)
	script := filepath.Join(t.TempDir(), "make_tileset.gd")
	if err := os.WriteFile(script, []byte(makeTileSetScript), 0o644); err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(suite.godot, "--headless", "--path", project, "--script", script)
	cmd.Env = append(godotEnv(), "GODOT_MCP_BRIDGE_URL=ws://127.0.0.1:1")
	if out, err := cmd.CombinedOutput(); err != nil || !strings.Contains(string(out), "SAVED 0") {
		t.Fatalf("making the TileSet: %v\n%s", err, out)
	}
	hst := startHostT(t, "ws://127.0.0.1:0")
	e := startEditorT(t, project, hst.url)
	waitEditor(t, hst, e)
	s := &session{host: hst, editor: e, project: project}
	h := s.host
	for _, ts := range []string{"scene", "tilemap"} {
		h.mustCall(t, "godot_enable_toolset", map[string]any{"name": ts}, nil)
	}
	h.mustCall(t, "godot_scene_create", map[string]any{"path": "res://level.tscn", "root_type": "Node2D", "root_name": "Level"}, nil)
	h.mustCall(t, "godot_scene_create_node", map[string]any{"type": "TileMapLayer", "name": "Ground", "properties": map[string]any{"tile_set": "res://scenes_tiles.tres"}}, nil)

	var ts struct {
		Sources []struct {
			ID     int    `json:"id"`
			Type   string `json:"type"`
			Scenes []struct {
				ID    int    `json:"id"`
				Scene string `json:"scene"`
			} `json:"scenes"`
		} `json:"sources"`
		Patterns int `json:"patterns"`
	}
	h.mustCall(t, "godot_tilemap_get_tileset", map[string]any{"layer": "Ground"}, &ts)
	if len(ts.Sources) != 2 || ts.Sources[1].Type != "scenes" || len(ts.Sources[1].Scenes) != 1 || ts.Sources[1].Scenes[0].ID != 7 || ts.Sources[1].Scenes[0].Scene != "res://main.tscn" || ts.Patterns != 1 {
		t.Fatalf("get_tileset: %+v", ts)
	}
	tmFail(t, s, "paint", map[string]any{"layer": "Ground", "set": []any{map[string]any{"tile": map[string]any{"source": 1, "alt": 3}, "cells": [][2]int{{0, 0}}}}}, "VALIDATION_ERROR", "no scene tile 3")
	tmFail(t, s, "paint", map[string]any{"layer": "Ground", "patterns": []any{map[string]any{"at": []int{0, 0}, "index": 4}}}, "VALIDATION_ERROR", "has 1 patterns")
	var p tmPaint
	h.mustCall(t, "godot_tilemap_paint", map[string]any{"layer": "Ground",
		"patterns": []any{map[string]any{"at": []int{10, 10}, "index": 0}},
		"set":      []any{map[string]any{"tile": map[string]any{"source": 1, "alt": 7}, "cells": [][2]int{{0, 0}}}}}, &p)
	if p.UsedCells != 3 || !p.Undoable {
		t.Fatalf("paint: %+v", p)
	}
	h.mustCall(t, "godot_scene_save", nil, nil)
	got := loadTilesHeadless(t, s.project, "res://level.tscn", "0,0", "10,10", "11,10")
	if got.Cells != 3 || fmt.Sprint(got.At["0,0"]) != "[1 0 0]" || fmt.Sprint(got.At["10,10"]) != "[0 0 0]" || fmt.Sprint(got.At["11,10"]) != "[0 1 0]" {
		t.Fatalf("saved: %+v", got)
	}
}
