package e2e

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

type fileRefs struct {
	Path  string `json:"path"`
	Count int    `json:"count"`
}

// usesBoxScene is a scene that uses res://data/box.tres through its UID and
// path, written straight to disk as a user (or git) would.
func usesBoxScene(uid string) string {
	return `[gd_scene load_steps=2 format=3]

[ext_resource type="Shape2D" uid="` + uid + `" path="res://data/box.tres" id="1_box"]

[node name="Arena" type="Node2D"]

[node name="Wall" type="StaticBody2D" parent="."]

[node name="Shape" type="CollisionShape2D" parent="Wall"]
shape = ExtResource("1_box")
`
}

// A .tres is created with typed properties, changed, used by a scene,
// protected from deletion while used, and moved: the scene's reference is
// rewritten, the UID kept, and a fresh headless Godot loads the scene with
// the moved resource and its values. Undo puts the file back.
func TestResourcesCreateSetMove(t *testing.T) {
	s := fileSession(t)
	editorStateWithScene(t, s)
	enableToolsets(t, s, "resources")

	var created struct {
		Path          string         `json:"path"`
		UID           string         `json:"uid"`
		Created       bool           `json:"created"`
		Properties    map[string]any `json:"properties"`
		Persisted     bool           `json:"persisted"`
		RescanPending bool           `json:"rescan_pending"`
	}
	s.host.mustCall(t, "godot_resources_create", map[string]any{
		"path": "res://data/box.tres", "type": "RectangleShape2D", "properties": map[string]any{"size": map[string]any{"x": 10, "y": 20}},
	}, &created)
	if !created.Created || !created.Persisted || created.RescanPending || !strings.HasPrefix(created.UID, "uid://") {
		t.Fatalf("create: %+v", created)
	}
	// A value that does not fit is refused, naming the property; nothing changes.
	if e := s.host.mustFail(t, "godot_resources_set_properties", map[string]any{"path": "res://data/box.tres", "properties": map[string]any{"size": "big", "colour": 1}}); e.Error != "VALIDATION_ERROR" || !strings.Contains(e.Hint, "size") || !strings.Contains(e.Hint, "colour") {
		t.Fatalf("bad values: %+v", e)
	}
	var set struct {
		Changes []struct {
			Property string         `json:"property"`
			Old      map[string]any `json:"old"`
			New      map[string]any `json:"new"`
		} `json:"changes"`
		Persisted bool `json:"persisted"`
	}
	s.host.mustCall(t, "godot_resources_set_properties", map[string]any{"path": "res://data/box.tres", "properties": map[string]any{"size": map[string]any{"x": 64, "y": 32}}}, &set)
	if len(set.Changes) != 1 || set.Changes[0].Old["x"] != 10.0 || set.Changes[0].New["x"] != 64.0 || !set.Persisted {
		t.Fatalf("set_properties: %+v", set)
	}
	var read struct {
		Type       string         `json:"type"`
		UID        string         `json:"uid"`
		Properties map[string]any `json:"properties"`
	}
	s.host.mustCall(t, "godot_resources_read", map[string]any{"path": "res://data/box.tres"}, &read)
	if size, _ := read.Properties["size"].(map[string]any); read.Type != "RectangleShape2D" || read.UID != created.UID || size["x"] != 64.0 || size["y"] != 32.0 {
		t.Fatalf("read: %+v", read)
	}

	// A scene that uses it appears on disk; the editor is told by a rescan.
	if err := os.WriteFile(filepath.Join(s.project, "arena.tscn"), []byte(usesBoxScene(created.UID)), 0o644); err != nil {
		t.Fatal(err)
	}
	var rescan struct {
		RescanPending bool `json:"rescan_pending"`
	}
	s.host.mustCall(t, "godot_resources_rescan", map[string]any{}, &rescan)
	if rescan.RescanPending {
		t.Fatal("rescan did not finish")
	}
	var deps struct {
		Dependents         []fileRefs `json:"dependents"`
		DependentsComplete bool       `json:"dependents_complete"`
	}
	s.host.mustCall(t, "godot_resources_get_dependencies", map[string]any{"path": "res://data/box.tres"}, &deps)
	if len(deps.Dependents) != 1 || deps.Dependents[0].Path != "res://arena.tscn" || !deps.DependentsComplete {
		t.Fatalf("dependents: %+v", deps)
	}
	if e := s.host.mustFail(t, "godot_resources_delete", map[string]any{"path": "res://data/box.tres", "confirm": true}); e.Error != "PRECONDITION_FAILED" || !strings.Contains(e.Hint, "res://arena.tscn") {
		t.Fatalf("delete of a used file: %+v", e)
	}

	var moved struct {
		UpdatedRefs   []fileRefs `json:"updated_refs"`
		UID           string     `json:"uid"`
		Persisted     bool       `json:"persisted"`
		Undoable      bool       `json:"undoable"`
		RescanPending bool       `json:"rescan_pending"`
	}
	s.host.mustCall(t, "godot_resources_move", map[string]any{"from": "res://data/box.tres", "to": "res://shapes/box.tres"}, &moved)
	if len(moved.UpdatedRefs) != 1 || moved.UpdatedRefs[0].Path != "res://arena.tscn" || moved.UID != created.UID || !moved.Persisted || moved.RescanPending {
		t.Fatalf("move: %+v", moved)
	}
	var uid struct {
		Path   string `json:"path"`
		Exists bool   `json:"exists"`
	}
	s.host.mustCall(t, "godot_resources_resolve_uid", map[string]any{"ref": created.UID}, &uid)
	if uid.Path != "res://shapes/box.tres" || !uid.Exists {
		t.Fatalf("resolve_uid after the move: %+v", uid)
	}
	text, err := os.ReadFile(filepath.Join(s.project, "arena.tscn"))
	if err != nil || !strings.Contains(string(text), `path="res://shapes/box.tres"`) || !strings.Contains(string(text), created.UID) {
		t.Fatalf("arena.tscn after the move:\n%s", text)
	}
	got := loadScenesFresh(t, s.project, "res://arena.tscn")
	if n := got["res://arena.tscn"]["Wall/Shape"]; n.ShapePath != "res://shapes/box.tres" || len(n.ShapeSize) != 2 || n.ShapeSize[0] != 64 || n.ShapeSize[1] != 32 {
		t.Fatalf("arena.tscn in a fresh Godot: %+v", got)
	}

	// Listing and searching see the moved file.
	var list struct {
		Entries []struct{ Path, Type, UID string }
	}
	s.host.mustCall(t, "godot_resources_list", map[string]any{"types": []string{"Shape2D"}}, &list)
	var paths []string
	for _, e := range list.Entries {
		paths = append(paths, e.Path)
	}
	if strings.Join(paths, ",") != "res://shape.tres,res://shapes/box.tres" {
		t.Fatalf("list of Shape2D files: %v", paths)
	}
	var found struct {
		Matches []struct {
			Path string
			Line int
		}
	}
	s.host.mustCall(t, "godot_resources_search", map[string]any{"query": "shapes/box.tres"}, &found)
	if len(found.Matches) != 1 || found.Matches[0].Path != "res://arena.tscn" || found.Matches[0].Line != 3 {
		t.Fatalf("search: %+v", found)
	}

	// The move is one undo action in the global history, reached while the
	// main scene stays open.
	var undo struct {
		Performed int      `json:"performed"`
		Actions   []string `json:"actions"`
		History   string   `json:"history"`
	}
	s.host.mustCall(t, "godot_undo", map[string]any{"history": "global"}, &undo)
	if undo.Performed != 1 || undo.History != "global" || !strings.Contains(strings.Join(undo.Actions, ""), "move res://data/box.tres") {
		t.Fatalf("undo: %+v", undo)
	}
	if _, err := os.Stat(filepath.Join(s.project, "data", "box.tres")); err != nil {
		t.Fatalf("undo did not bring box.tres back: %v", err)
	}
	text, _ = os.ReadFile(filepath.Join(s.project, "arena.tscn"))
	if !strings.Contains(string(text), `path="res://data/box.tres"`) {
		t.Fatalf("undo did not restore arena.tscn:\n%s", text)
	}
	got = loadScenesFresh(t, s.project, "res://arena.tscn")
	if n := got["res://arena.tscn"]["Wall/Shape"]; n.ShapePath != "res://data/box.tres" {
		t.Fatalf("arena.tscn after undo: %+v", got)
	}

	// With force, a used file can go; the answer names who used it.
	var del struct {
		Deleted      []string   `json:"deleted"`
		ReferencedBy []fileRefs `json:"referenced_by"`
		Undoable     bool       `json:"undoable"`
	}
	s.host.mustCall(t, "godot_resources_delete", map[string]any{"path": "res://data/box.tres", "force": true, "confirm": true}, &del)
	if len(del.Deleted) != 1 || len(del.ReferencedBy) != 1 || !del.Undoable {
		t.Fatalf("forced delete: %+v", del)
	}
	if _, err := os.Stat(filepath.Join(s.project, "data", "box.tres")); !os.IsNotExist(err) {
		t.Fatalf("box.tres still there: %v", err)
	}
}

// Listing and search stay bounded on a project with 10,000 files: pages of
// at most limit entries with a cursor that walks all of them exactly once,
// and search pages that stop at max_results or at the time budget and resume
// where they stopped.
func TestResourcesLargeProjectPaging(t *testing.T) {
	project := newProject(t)
	const dirs, per = 100, 100
	for d := 0; d < dirs; d++ {
		dir := filepath.Join(project, "bulk", fmt.Sprintf("d%02d", d))
		if err := os.MkdirAll(dir, 0o755); err != nil {
			t.Fatal(err)
		}
		for f := 0; f < per; f++ {
			text := fmt.Sprintf("file %d\nneedle %d\n", d*per+f, d*per+f)
			if d == dirs-1 && f == per-1 {
				text += "a rareword here\n"
			}
			if err := os.WriteFile(filepath.Join(dir, fmt.Sprintf("f%03d.txt", f)), []byte(text), 0o644); err != nil {
				t.Fatal(err)
			}
		}
	}
	h := startHostT(t, "ws://127.0.0.1:0")
	e := startEditorT(t, project, h.url)
	waitEditor(t, h, e)
	s := &session{host: h, editor: e, project: project}
	editorStateWithScene(t, s)
	enableToolsets(t, s, "resources")

	type page struct {
		Entries    []struct{ Path, Kind string }
		Truncated  bool   `json:"truncated"`
		NextCursor string `json:"next_cursor"`
	}
	seen := map[string]bool{}
	cursor := ""
	pages := 0
	for {
		var p page
		args := map[string]any{"path": "res://bulk", "limit": 5000}
		if cursor != "" {
			args["cursor"] = cursor
		}
		s.host.mustCall(t, "godot_resources_list", args, &p)
		pages++
		if len(p.Entries) > 5000 {
			t.Fatalf("page of %d entries", len(p.Entries))
		}
		for _, en := range p.Entries {
			if seen[en.Path] {
				t.Fatalf("%s listed twice", en.Path)
			}
			seen[en.Path] = true
		}
		if !p.Truncated {
			break
		}
		cursor = p.NextCursor
		if pages > 5 {
			t.Fatal("listing does not end")
		}
	}
	if len(seen) != dirs*per || pages != 2 {
		t.Fatalf("listed %d files in %d pages, want %d in 2", len(seen), pages, dirs*per)
	}

	type matches struct {
		Matches []struct {
			Path string
			Line int
		}
		Truncated  bool   `json:"truncated"`
		Reason     string `json:"reason"`
		NextCursor string `json:"next_cursor"`
	}
	var first, second matches
	s.host.mustCall(t, "godot_resources_search", map[string]any{"query": "needle", "path": "res://bulk", "max_results": 1000}, &first)
	if len(first.Matches) != 1000 || !first.Truncated || first.NextCursor == "" {
		t.Fatalf("first search page: %d matches, truncated %v, reason %q", len(first.Matches), first.Truncated, first.Reason)
	}
	s.host.mustCall(t, "godot_resources_search", map[string]any{"query": "needle", "path": "res://bulk", "max_results": 1000, "cursor": first.NextCursor}, &second)
	if len(second.Matches) == 0 || second.Matches[0].Path == first.Matches[len(first.Matches)-1].Path {
		t.Fatalf("the second page does not resume after the first: %+v", second.Matches[:1])
	}
	// A word in the very last file: pages end at max_results or the time
	// budget, and following the cursor finds it exactly once.
	var hits []string
	cursor = ""
	for i := 0; ; i++ {
		var m matches
		args := map[string]any{"query": "RAREWORD", "path": "res://bulk"}
		if cursor != "" {
			args["cursor"] = cursor
		}
		s.host.mustCall(t, "godot_resources_search", args, &m)
		for _, x := range m.Matches {
			hits = append(hits, fmt.Sprintf("%s:%d", x.Path, x.Line))
		}
		if !m.Truncated {
			break
		}
		if m.Reason != "time_budget" || i > 30 {
			t.Fatalf("page %d: reason %q", i, m.Reason)
		}
		cursor = m.NextCursor
	}
	if len(hits) != 1 || hits[0] != "res://bulk/d99/f099.txt:3" {
		t.Fatalf("rareword found at %v", hits)
	}
}

// Moving files that the open main scene and project.godot use: an imported
// asset (with its .import sidecar), a class_name script (with its .uid), and
// a folder. References are rewritten, the class stays registered at its new
// path, and a fresh headless Godot loads the scene.
func TestResourcesMoveKeepsReferences(t *testing.T) {
	s := fileSession(t)
	editorStateWithScene(t, s)
	enableToolsets(t, s, "resources", "scripts")

	type moveOut struct {
		Moved []struct {
			From string `json:"from"`
			To   string `json:"to"`
		} `json:"moved"`
		UpdatedRefs     []fileRefs `json:"updated_refs"`
		ProjectSettings []string   `json:"project_settings"`
		RescanPending   bool       `json:"rescan_pending"`
	}
	var icon moveOut
	s.host.mustCall(t, "godot_resources_move", map[string]any{"from": "res://icon.svg", "to": "res://art/icon.svg"}, &icon)
	if len(icon.Moved) != 2 || icon.Moved[1].To != "res://art/icon.svg.import" || icon.RescanPending ||
		strings.Join(icon.ProjectSettings, ",") != "application/config/icon" || len(icon.UpdatedRefs) != 1 || icon.UpdatedRefs[0].Path != "res://main.tscn" {
		t.Fatalf("move icon: %+v", icon)
	}
	var player moveOut
	s.host.mustCall(t, "godot_resources_move", map[string]any{"from": "res://player.gd", "to": "res://actors/player.gd"}, &player)
	if len(player.Moved) != 2 || player.Moved[1].To != "res://actors/player.gd.uid" || player.RescanPending || len(player.UpdatedRefs) != 1 {
		t.Fatalf("move player.gd: %+v", player)
	}
	var list struct {
		Scripts []struct {
			Path      string `json:"path"`
			ClassName string `json:"class_name"`
		} `json:"scripts"`
	}
	s.host.mustCall(t, "godot_scripts_list", map[string]any{"class_name": "E2EPlayer"}, &list)
	if len(list.Scripts) != 1 || list.Scripts[0].Path != "res://actors/player.gd" {
		t.Fatalf("E2EPlayer after the move: %+v", list)
	}
	var folder moveOut
	s.host.mustCall(t, "godot_resources_move", map[string]any{"from": "res://actors", "to": "res://characters"}, &folder)
	if len(folder.Moved) != 2 || folder.RescanPending || len(folder.UpdatedRefs) != 1 {
		t.Fatalf("move folder: %+v", folder)
	}
	if _, err := os.Stat(filepath.Join(s.project, "actors")); !os.IsNotExist(err) {
		t.Fatalf("the old folder is still there: %v", err)
	}
	pg, _ := os.ReadFile(filepath.Join(s.project, "project.godot"))
	if !strings.Contains(string(pg), `config/icon="res://art/icon.svg"`) {
		t.Fatalf("project.godot:\n%s", pg)
	}
	got := loadScenesFresh(t, s.project, "res://main.tscn")
	if n := got["res://main.tscn"]["Player"]; n.Script != "res://characters/player.gd" || n.ScriptClass != "E2EPlayer" {
		t.Fatalf("main.tscn in a fresh Godot: %+v", got)
	}
	main, _ := os.ReadFile(filepath.Join(s.project, "main.tscn"))
	if !strings.Contains(string(main), `path="res://art/icon.svg"`) || !strings.Contains(string(main), `path="res://characters/player.gd"`) {
		t.Fatalf("main.tscn:\n%s", main)
	}
}
