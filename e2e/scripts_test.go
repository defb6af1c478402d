package e2e

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/godot-mcp/godot-mcp/host/bridge"
	"github.com/godot-mcp/godot-mcp/host/buildinfo"
	"github.com/godot-mcp/godot-mcp/host/envelope"
	"github.com/godot-mcp/godot-mcp/sdk/contract"
)

// fileSession is a host and an editor on a fresh copy of the sample project
// whose output may contain the script errors a test provokes on purpose: an
// error line is accepted when it or its "at:" line mentions one of allowed
// (res:// paths). Every other SCRIPT ERROR / Parse Error fails the test.
func fileSession(t *testing.T, allowed ...string) *session {
	t.Helper()
	project := newProject(t)
	h := startHostT(t, "ws://127.0.0.1:0")
	e, err := startEditor(project, h.url)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		e.kill()
		var unexpected []string
		for _, l := range scriptErrors(e.out.String()) {
			ok := false
			for _, a := range allowed {
				if strings.Contains(l, a) {
					ok = true
				}
			}
			if !ok {
				unexpected = append(unexpected, l)
			}
		}
		if len(unexpected) > 0 {
			t.Errorf("the editor printed %d unexpected script error(s):\n%s\n--- full output ---\n%s", len(unexpected), strings.Join(unexpected, "\n"), e.out.String())
		} else if t.Failed() {
			t.Logf("editor output:\n%s", e.out.String())
		}
	})
	waitEditor(t, h, e)
	return &session{host: h, editor: e, project: project}
}

func enableToolsets(t *testing.T, s *session, names ...string) {
	t.Helper()
	for _, n := range names {
		s.host.mustCall(t, "godot_enable_toolset", map[string]any{"name": n}, nil)
	}
}

type scriptError struct {
	Path    string `json:"path"`
	Line    int    `json:"line"`
	Column  int    `json:"column"`
	Message string `json:"message"`
	Kind    string `json:"kind"`
}

type scriptWrite struct {
	Path          string        `json:"path"`
	Created       bool          `json:"created"`
	Valid         bool          `json:"valid"`
	Errors        []scriptError `json:"errors"`
	ClassName     string        `json:"class_name"`
	UID           string        `json:"uid"`
	Persisted     bool          `json:"persisted"`
	Undoable      bool          `json:"undoable"`
	RescanPending bool          `json:"rescan_pending"`
	Indent        string        `json:"indent"`
	LineEnding    string        `json:"line_ending"`
}

type validation struct {
	Valid        bool          `json:"valid"`
	Checked      int           `json:"checked"`
	InvalidFiles []string      `json:"invalid_files"`
	Errors       []scriptError `json:"errors"`
}

// enemySource has a class_name, tabs, and a function to break and repair.
const enemySource = "class_name Enemy\nextends Node2D\n## An enemy written by the e2e suite.\n\n@export var speed: float = 80.0\n\n\nfunc hit(damage: int) -> int:\n\treturn damage * 2\n"

// fileCheckScript loads scenes in a fresh headless Godot (not the editor)
// and prints, for each node, its type, script path and script class, and
// for each CollisionShape2D its shape's path and size, as one JSON line.
const fileCheckScript = `extends SceneTree

func _initialize() -> void:
	var out := {}
	for path in OS.get_cmdline_user_args():
		var ps: PackedScene = load(path)
		if ps == null:
			out[path] = null
			continue
		var root: Node = ps.instantiate()
		var nodes := {}
		for n in [root] + root.find_children("*", "", true, false):
			var e := {"type": n.get_class()}
			var s: Script = n.get_script()
			if s != null:
				e["script"] = s.resource_path
				e["script_class"] = str(s.get_global_name())
			if n is CollisionShape2D and n.shape != null:
				e["shape_path"] = n.shape.resource_path
				e["shape_size"] = [n.shape.size.x, n.shape.size.y]
			nodes[str(root.get_path_to(n))] = e
		out[path] = nodes
		root.free()
	print("SCENE_CHECK " + JSON.stringify(out))
	quit()
`

type fileCheckNode struct {
	Type        string    `json:"type"`
	Script      string    `json:"script"`
	ScriptClass string    `json:"script_class"`
	ShapePath   string    `json:"shape_path"`
	ShapeSize   []float64 `json:"shape_size"`
}

// loadScenesFresh loads scenes of project in a new headless Godot process.
func loadScenesFresh(t *testing.T, project string, scenes ...string) map[string]map[string]fileCheckNode {
	t.Helper()
	rest := headlessPrint(t, project, fileCheckScript, "SCENE_CHECK", scenes...)
	var got map[string]map[string]fileCheckNode
	if err := json.Unmarshal([]byte(rest), &got); err != nil {
		t.Fatalf("bad JSON from the scene check: %v\n%s", err, rest)
	}
	return got
}

// A script with a class_name is written and usable at once: a node of the
// edited scene gets it by class_name in the same flow, the scene is saved,
// and a fresh headless Godot loads the node with that script. A syntax
// error introduced by a patch comes back from Godot with the right line;
// patching it back makes the script valid again, with tabs kept.
func TestScriptsWriteAttachBreakRepair(t *testing.T) {
	s := fileSession(t, "res://enemy.gd")
	editorStateWithScene(t, s)
	enableToolsets(t, s, "scripts", "scene")

	var w scriptWrite
	s.host.mustCall(t, "godot_scripts_write", map[string]any{"path": "res://enemy.gd", "source": enemySource}, &w)
	if !w.Valid || !w.Created || w.ClassName != "Enemy" || w.RescanPending || !w.Persisted || !strings.HasPrefix(w.UID, "uid://") || len(w.Errors) != 0 {
		t.Fatalf("write: %+v", w)
	}

	// The class_name works on the very next call: the script is found by it.
	s.host.mustCall(t, "godot_scene_create_node", map[string]any{"type": "Node2D", "name": "Boss"}, nil)
	r := s.host.mustCall(t, "godot_scripts_attach", map[string]any{"node": "Boss", "script": "Enemy"}, nil)
	var attOut map[string]any
	json.Unmarshal(r.Raw, &attOut)
	if attOut["script"] != "res://enemy.gd" || attOut["class_name"] != "Enemy" || attOut["scene_dirty"] != true || attOut["persisted"] != true || attOut["undoable"] != true {
		t.Fatalf("attach: %s", r.Raw)
	}
	// A script whose base does not fit the node is refused.
	if e := s.host.mustFail(t, "godot_scripts_attach", map[string]any{"node": "Label", "script": "Enemy"}); e.Error != "VALIDATION_ERROR" || !strings.Contains(e.Hint, "extends Node2D") {
		t.Fatalf("attach to a Label: %+v", e)
	}
	s.host.mustCall(t, "godot_scene_save", map[string]any{}, nil)
	got := loadScenesFresh(t, s.project, "res://main.tscn")
	if n := got["res://main.tscn"]["Boss"]; n.Script != "res://enemy.gd" || n.ScriptClass != "Enemy" {
		t.Fatalf("saved scene, headless: %+v", got)
	}

	// Symbols come from Godot's compiler.
	var sym struct {
		Valid     bool   `json:"valid"`
		ClassName string `json:"class_name"`
		Extends   string `json:"extends"`
		Functions []struct {
			Name       string `json:"name"`
			ReturnType string `json:"return_type"`
			Line       int    `json:"line"`
			Args       []struct{ Name, Type string }
		} `json:"functions"`
		Variables []struct {
			Name     string `json:"name"`
			Type     string `json:"type"`
			Exported bool   `json:"exported"`
		} `json:"variables"`
	}
	s.host.mustCall(t, "godot_scripts_get_symbols", map[string]any{"path": "res://enemy.gd"}, &sym)
	if !sym.Valid || sym.ClassName != "Enemy" || sym.Extends != "Node2D" || len(sym.Functions) != 1 || sym.Functions[0].Name != "hit" ||
		sym.Functions[0].Line != 8 || sym.Functions[0].ReturnType != "int" || len(sym.Variables) != 1 || !sym.Variables[0].Exported || sym.Variables[0].Type != "float" {
		t.Fatalf("symbols: %+v", sym)
	}

	// Break it: the error is Godot's, on line 9, where the code starts.
	var broken scriptWrite
	s.host.mustCall(t, "godot_scripts_patch", map[string]any{"path": "res://enemy.gd", "edits": []any{
		map[string]any{"old": "\treturn damage * 2\n", "new": "\treturn damage *\n"},
	}}, &broken)
	if broken.Valid || len(broken.Errors) == 0 || broken.Errors[0].Line != 9 || broken.Errors[0].Column != 2 || broken.Errors[0].Path != "res://enemy.gd" || broken.Errors[0].Kind != "parse" {
		t.Fatalf("patch to a syntax error: %+v", broken)
	}
	var v validation
	s.host.mustCall(t, "godot_scripts_validate", map[string]any{"path": "res://enemy.gd"}, &v)
	if v.Valid || len(v.Errors) == 0 || v.Errors[0].Line != 9 || len(v.InvalidFiles) != 1 {
		t.Fatalf("validate broken: %+v", v)
	}
	// An anchor that matches twice is refused and nothing changes.
	if e := s.host.mustFail(t, "godot_scripts_patch", map[string]any{"path": "res://enemy.gd", "edits": []any{
		map[string]any{"old": "damage", "new": "dmg"},
	}}); e.Error != "VALIDATION_ERROR" || !strings.Contains(e.Hint, "matches 2 times") {
		t.Fatalf("ambiguous anchor: %+v", e)
	}

	// Repair it, writing the new line with spaces: the file keeps its tabs.
	var fixed scriptWrite
	s.host.mustCall(t, "godot_scripts_patch", map[string]any{"path": "res://enemy.gd", "edits": []any{
		map[string]any{"old": "    return damage *\n", "new": "    return damage * 2\n"},
	}}, &fixed)
	if !fixed.Valid || len(fixed.Errors) != 0 || fixed.Indent != "tabs" || fixed.LineEnding != "lf" {
		t.Fatalf("repair: %+v", fixed)
	}
	disk, err := os.ReadFile(filepath.Join(s.project, "enemy.gd"))
	if err != nil || string(disk) != enemySource {
		t.Fatalf("enemy.gd on disk = %q (%v), want the original text", disk, err)
	}
	s.host.mustCall(t, "godot_scripts_validate", map[string]any{"all": true}, &v)
	if !v.Valid || v.Checked < 2 {
		t.Fatalf("validate all: %+v", v)
	}
}

// validate checks a source text that is not on disk against the project:
// its class_name at its own path is no conflict, a syntax error has its
// line, and nothing is written.
func TestScriptsValidateSource(t *testing.T) {
	s := sharedSession(t)
	enableToolsets(t, s, "scripts")
	var v validation
	player, err := os.ReadFile(filepath.Join(s.project, "player.gd"))
	if err != nil {
		t.Fatal(err)
	}
	s.host.mustCall(t, "godot_scripts_validate", map[string]any{"path": "res://player.gd", "source": string(player) + "\n\nfunc extra() -> E2EPlayer:\n\treturn self\n"}, &v)
	if !v.Valid {
		t.Fatalf("valid source refused: %+v", v)
	}
	s.host.mustCall(t, "godot_scripts_validate", map[string]any{"source": "extends Node\n\nfunc f():\n\tvar x: int = \"text\"\n"}, &v)
	if v.Valid || len(v.Errors) == 0 || v.Errors[0].Line != 4 || !strings.Contains(v.Errors[0].Message, "String") {
		t.Fatalf("typed assignment error: %+v", v)
	}
	if _, err := os.Stat(filepath.Join(s.project, "_godot_mcp_unsaved.gd")); !os.IsNotExist(err) {
		t.Fatalf("validate wrote a file: %v", err)
	}
	var sym struct {
		ClassName string `json:"class_name"`
		Signals   []struct{ Name string }
		Enums     []struct {
			Name   string
			Values map[string]int
		}
		Constants []struct {
			Name  string
			Value any
		}
	}
	s.host.mustCall(t, "godot_scripts_get_symbols", map[string]any{"path": "res://player.gd"}, &sym)
	if sym.ClassName != "E2EPlayer" || len(sym.Signals) != 1 || sym.Signals[0].Name != "hit" || len(sym.Enums) != 1 || sym.Enums[0].Values["ANGRY"] != 1 ||
		len(sym.Constants) != 1 || sym.Constants[0].Value != 400.0 {
		t.Fatalf("player symbols: %+v", sym)
	}
	var list struct {
		Scripts []struct {
			Path      string `json:"path"`
			ClassName string `json:"class_name"`
			Extends   string `json:"extends"`
		} `json:"scripts"`
	}
	s.host.mustCall(t, "godot_scripts_list", map[string]any{"extends": "Node", "only_classes": true}, &list)
	found := false
	for _, sc := range list.Scripts {
		if sc.Path == "res://player.gd" && sc.ClassName == "E2EPlayer" {
			found = true
		}
		if strings.HasPrefix(sc.Path, "res://addons/godot_mcp/") {
			t.Errorf("the addon's own scripts are listed with only_classes: %s", sc.Path)
		}
	}
	if !found {
		t.Fatalf("list: %+v", list)
	}
	var read struct {
		Source    string `json:"source"`
		LineCount int    `json:"line_count"`
		StartLine int    `json:"start_line"`
		EndLine   int    `json:"end_line"`
	}
	s.host.mustCall(t, "godot_scripts_read", map[string]any{"path": "res://player.gd", "start_line": 1, "end_line": 2}, &read)
	if read.Source != "class_name E2EPlayer\nextends Node2D\n" || read.LineCount != strings.Count(string(player), "\n") || read.EndLine != 2 {
		t.Fatalf("read: %+v", read)
	}
}

// Paths out of the project are refused, including through a symbolic link
// inside the project that points outside; nothing is written there.
func TestScriptsPathsStayInTheProject(t *testing.T) {
	s := sharedSession(t)
	enableToolsets(t, s, "scripts", "resources")
	outside := t.TempDir()
	link := filepath.Join(s.project, "escape")
	if err := os.Symlink(outside, link); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { os.Remove(link) })
	for _, c := range []struct {
		tool string
		args map[string]any
		hint string
	}{
		{"godot_scripts_write", map[string]any{"path": "res://escape/evil.gd", "source": "extends Node\n"}, "symbolic link"},
		{"godot_scripts_write", map[string]any{"path": "res://../evil.gd", "source": "extends Node\n"}, ".."},
		{"godot_resources_create", map[string]any{"path": "res://escape/evil.tres", "type": "Gradient"}, "symbolic link"},
		{"godot_resources_move", map[string]any{"from": "res://shape.tres", "to": "res://escape/shape.tres"}, "symbolic link"},
		{"godot_scripts_read", map[string]any{"path": "/etc/passwd"}, "res://"},
	} {
		e := s.host.mustFail(t, c.tool, c.args)
		if e.Error != "VALIDATION_ERROR" || !strings.Contains(e.Hint, c.hint) {
			t.Errorf("%s %v: %+v, want VALIDATION_ERROR mentioning %q", c.tool, c.args, e, c.hint)
		}
	}
	if entries, _ := os.ReadDir(outside); len(entries) != 0 {
		t.Fatalf("something was written outside the project: %v", entries)
	}
	if _, err := os.Stat(filepath.Join(s.project, "shape.tres")); err != nil {
		t.Fatalf("shape.tres moved: %v", err)
	}
}

// scriptEditorExt is an extension's editor half that the unsaved-changes
// test puts into its project (res://addons/godot_mcp_ext/sedit/): it opens a
// script in the script editor and types a line into it without saving, as a
// user would.
const scriptEditorExt = `@tool
extends RefCounted


func get_commands() -> Dictionary:
	return {"cmd_sedit_type": {"class": "mutating", "run": type_line}}


func type_line(p: Dictionary) -> Dictionary:
	var scr: Script = load(str(p["path"]))
	EditorInterface.edit_script(scr)
	var ed: ScriptEditorBase = EditorInterface.get_script_editor().get_current_editor()
	if ed == null:
		return {"ok": false, "error": "INTERNAL_ERROR", "hint": "the script editor did not open the script"}
	var ce: CodeEdit = ed.get_base_editor() as CodeEdit
	ce.insert_line_at(0, str(p["line"]))
	return {"ok": true, "result": {"version": ce.get_version(), "saved_version": ce.get_saved_version()}}
`

// A script with unsaved changes in the script editor is not overwritten
// unless the call says so.
func TestScriptsUnsavedChangesProtected(t *testing.T) {
	project := newProject(t)
	ext := filepath.Join(project, "addons", "godot_mcp_ext", "sedit", "handlers.gd")
	if err := os.MkdirAll(filepath.Dir(ext), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(ext, []byte(scriptEditorExt), 0o644); err != nil {
		t.Fatal(err)
	}
	installEditorCode(t, project, "scripts") // cmd_scripts_write comes with the scripts toolset
	b, err := bridge.New(bridge.Options{URL: "ws://127.0.0.1:0", ServerVersion: buildinfo.Version})
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), connectTimeout)
	defer cancel()
	if err := b.Start(ctx); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { b.Close() })
	startEditorT(t, project, b.URL())
	if err := b.WaitConnected(ctx); err != nil {
		t.Fatal(err)
	}
	send := func(command string, params any) envelope.Response {
		t.Helper()
		c, cancel := context.WithTimeout(context.Background(), callTimeout)
		defer cancel()
		return b.Send(c, command, params, callTimeout)
	}
	if r := send("cmd_sedit_type", map[string]any{"path": "res://player.gd", "line": "# typed, not saved"}); !r.OK {
		t.Fatalf("typing into the script editor: %+v", r)
	}
	before, _ := os.ReadFile(filepath.Join(project, "player.gd"))
	newSource := "extends Node2D\n"
	r := send("cmd_scripts_write", map[string]any{"path": "res://player.gd", "source": newSource})
	if r.OK || r.Error != contract.PreconditionFailed || !strings.Contains(r.Hint, "unsaved changes") || !strings.Contains(r.Hint, "overwrite: true") {
		t.Fatalf("write over unsaved changes: %+v", r)
	}
	if after, _ := os.ReadFile(filepath.Join(project, "player.gd")); string(after) != string(before) {
		t.Fatalf("the refused write changed the file:\n%s", after)
	}
	r = send("cmd_scripts_write", map[string]any{"path": "res://player.gd", "source": newSource, "overwrite": true})
	if !r.OK {
		t.Fatalf("write with overwrite: %+v", r)
	}
	if after, _ := os.ReadFile(filepath.Join(project, "player.gd")); string(after) != newSource {
		t.Fatalf("player.gd = %q after the overwrite", after)
	}
}
