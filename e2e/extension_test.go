package e2e

import (
	"context"
	"encoding/json"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/godot-mcp/godot-mcp/host/pluginhost"
	"github.com/godot-mcp/godot-mcp/host/projectfiles"
	builtin "github.com/godot-mcp/godot-mcp/plugins"
)

// The hello template, from a plugin directory, in the real editor: its
// editor code (editor/handlers.gd, cmd_hello_wave) is listed before it is
// enabled, installed into the project on enable with a version stamp and
// loaded without a plugin toggle, its tool runs the toolset's own editor
// command, and disable unloads and removes it. Enabled again, it comes
// back; a file the user changed is kept on disable and said so.
func TestHelloTemplateShipsEditorCode(t *testing.T) {
	plugins := t.TempDir()
	ctx, cancel := context.WithTimeout(context.Background(), buildTimeout)
	defer cancel()
	build := exec.CommandContext(ctx, "go", "build", "-o", filepath.Join(plugins, "hello"), ".")
	build.Dir = filepath.Join(suite.root, "examples", "toolset-hello")
	if b, err := build.CombinedOutput(); err != nil {
		t.Fatalf("building examples/toolset-hello: %v\n%s", err, b)
	}
	s := newSession(t, "GODOT_MCP_PLUGIN_DIR="+plugins)
	h := s.host
	dir := filepath.Join(s.project, "addons", "godot_mcp_ext", "hello")

	type editorCode struct {
		Folder  string   `json:"folder"`
		Version string   `json:"version"`
		Files   []string `json:"files"`
	}
	type status struct {
		Name       string      `json:"name"`
		EditorCode *editorCode `json:"editor_code"`
	}
	var list struct {
		Toolsets []status `json:"toolsets"`
	}
	h.mustCall(t, "godot_list_toolsets", nil, &list)
	i := slices.IndexFunc(list.Toolsets, func(s status) bool { return s.Name == "hello" })
	if i < 0 || list.Toolsets[i].EditorCode == nil || list.Toolsets[i].EditorCode.Folder != "res://addons/godot_mcp_ext/hello/" || !slices.Equal(list.Toolsets[i].EditorCode.Files, []string{"game/game.gd", "handlers.gd"}) {
		t.Fatalf("godot_list_toolsets does not show hello's editor code: %+v", list.Toolsets)
	}
	if _, err := os.Stat(dir); !os.IsNotExist(err) {
		t.Fatalf("editor code installed before enable: %v", err)
	}

	wave := func() string {
		t.Helper()
		var out struct {
			Wave string `json:"wave"`
		}
		h.mustCall(t, "godot_hello_wave", map[string]any{"to": "e2e"}, &out)
		return out.Wave
	}
	if _, err := os.Stat(filepath.Join(s.project, "addons", "godot_mcp_ext", ".gdignore")); err != nil {
		t.Errorf("cmd_ext_load did not keep the extensions out of the editor's file system: %v", err)
	}
	for round := 1; round <= 3; round++ {
		h.mustCall(t, "godot_enable_toolset", map[string]any{"name": "hello"}, nil)
		src, err := os.ReadFile(filepath.Join(dir, "handlers.gd"))
		if err != nil || !strings.Contains(string(src), "cmd_hello_wave") {
			t.Fatalf("round %d: handlers.gd not installed: %v", round, err)
		}
		stamp, err := os.ReadFile(filepath.Join(dir, ".godot_mcp_stamp.json"))
		if err != nil || !strings.Contains(string(stamp), list.Toolsets[i].EditorCode.Version) {
			t.Fatalf("round %d: stamp %s %v", round, stamp, err)
		}
		if got := wave(); got != "Hello from the Godot editor, e2e!" {
			t.Fatalf("round %d: wave = %q", round, got)
		}
		if round == 2 {
			break
		}
		var dis struct {
			Notes []string `json:"notes"`
		}
		h.mustCall(t, "godot_disable_toolset", map[string]any{"name": "hello"}, &dis)
		if _, err := os.Stat(dir); !os.IsNotExist(err) || len(dis.Notes) != 0 {
			t.Fatalf("disable left the editor code: %v %v", err, dis.Notes)
		}
	}

	// The user edits the installed handler: disable keeps it and says so.
	p := filepath.Join(dir, "handlers.gd")
	if err := os.WriteFile(p, []byte("@tool\nextends RefCounted\n# my edit\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	var dis struct {
		Notes []string `json:"notes"`
	}
	h.mustCall(t, "godot_disable_toolset", map[string]any{"name": "hello"}, &dis)
	if len(dis.Notes) != 1 || !strings.Contains(dis.Notes[0], "res://addons/godot_mcp_ext/hello/handlers.gd") {
		t.Fatalf("disable notes = %v", dis.Notes)
	}
	if b, err := os.ReadFile(p); err != nil || !strings.Contains(string(b), "my edit") {
		t.Fatalf("the user's edit is gone: %v", err)
	}
	// Enabling over it is refused, naming the file, and nothing is written.
	e := h.mustFail(t, "godot_enable_toolset", map[string]any{"name": "hello"})
	if e.Error != "PRECONDITION_FAILED" || e.Required != "toolset_editor_code" || !strings.Contains(e.Hint, "was not installed by godot-mcp") {
		t.Fatalf("enable over an edited folder = %+v", e)
	}
}

// An upgrade in the real editor: the project holds an older version of
// hello's editor code (installed by godot-mcp, loaded when the editor
// started, reported in the hello). Enabling the new build replaces the files
// and the editor reloads the script in place — no plugin toggle — so the tool
// runs the new handler.
func TestHelloEditorCodeUpgradesInPlace(t *testing.T) {
	plugins := t.TempDir()
	ctx, cancel := context.WithTimeout(context.Background(), buildTimeout)
	defer cancel()
	build := exec.CommandContext(ctx, "go", "build", "-o", filepath.Join(plugins, "hello"), ".")
	build.Dir = filepath.Join(suite.root, "examples", "toolset-hello")
	if b, err := build.CombinedOutput(); err != nil {
		t.Fatalf("building examples/toolset-hello: %v\n%s", err, b)
	}
	project := newProject(t)
	old := `@tool
extends RefCounted

var _router: RefCounted = null


func setup(router: RefCounted) -> void:
	_router = router


func get_commands() -> Dictionary:
	return {"cmd_hello_wave": {"class": "read_only", "run": _wave}}


func _wave(_params: Dictionary) -> Dictionary:
	return _router.call("ok", {"wave": "old wave", "scene": ""})
`
	if _, e := projectfiles.InstallEditorCode(project, "hello", "old", []pluginhost.EditorFile{{Path: "handlers.gd", Content: []byte(old)}}); e != nil {
		t.Fatal(e)
	}
	h := startHostT(t, "ws://127.0.0.1:0", "GODOT_MCP_PLUGIN_DIR="+plugins)
	e := startEditorT(t, project, h.url)
	waitEditor(t, h, e)

	h.mustCall(t, "godot_enable_toolset", map[string]any{"name": "hello"}, nil)
	var out struct {
		Wave string `json:"wave"`
	}
	h.mustCall(t, "godot_hello_wave", map[string]any{"to": "e2e"}, &out)
	if out.Wave != "Hello from the Godot editor, e2e!" {
		t.Fatalf("after the upgrade the editor still runs the old handler: wave = %q\n%s", out.Wave, strings.Join(grepLines(h.stderr.String(), "editor code"), "\n"))
	}
	st, err := projectfiles.ReadManifest(project, "hello")
	if err != nil || st == nil || st.Version == "old" {
		t.Fatalf("stamp = %+v %v", st, err)
	}
}

// A built-in toolset ships its editor code the way a third party's does.
// Enabled at start (GODOT_MCP_DEFAULT_TOOLSETS), before the editor
// connects, its first call once the editor is there installs the code into
// the project (res://addons/godot_mcp_ext/scene/, version-stamped), has the
// editor load it without a plugin toggle, and runs: nothing of the scene
// toolset is in the core addon any more.
func TestSceneEditorCodeInstalledOnFirstCall(t *testing.T) {
	s := newSession(t, "GODOT_MCP_DEFAULT_TOOLSETS=scene")
	if _, err := os.Stat(filepath.Join(s.project, "addons", "godot_mcp", "handlers", "scene_handlers.gd")); !os.IsNotExist(err) {
		t.Fatalf("the core addon still holds the scene handlers: %v", err)
	}
	var tree struct {
		Nodes []struct {
			Path string `json:"path"`
		} `json:"nodes"`
	}
	s.host.mustCall(t, "godot_scene_get_tree", map[string]any{"scene": "res://main.tscn"}, &tree)
	if len(tree.Nodes) < 2 || tree.Nodes[0].Path != "." {
		t.Fatalf("get_tree on the first call: %+v", tree)
	}
	dir := filepath.Join(s.project, "addons", "godot_mcp_ext", "scene")
	for _, f := range []string{"handlers.gd", "common.gd", "tree.gd", projectfiles.ManifestFile} {
		if _, err := os.Stat(filepath.Join(dir, f)); err != nil {
			t.Errorf("%s: %v", f, err)
		}
	}
	s.host.mustCall(t, "godot_scene_list_open", nil, nil)
}

// installEditorCode copies a built-in toolset's editor code into project's
// res://addons/godot_mcp_ext/<name>/, as the server does on enable, for a
// test that drives the editor through a bare bridge (no server, so nothing
// installs it); the addon loads it when the editor starts.
func installEditorCode(t testing.TB, project, name string) {
	t.Helper()
	ts, ok := builtin.Lookup(name)
	if !ok || ts.EditorCode == nil {
		t.Fatalf("toolset %s ships no editor code", name)
	}
	dir := filepath.Join(project, "addons", "godot_mcp_ext", name)
	err := fs.WalkDir(ts.EditorCode, ".", func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		b, err := fs.ReadFile(ts.EditorCode, p)
		if err != nil {
			return err
		}
		target := filepath.Join(dir, filepath.FromSlash(p))
		if err := os.MkdirAll(filepath.Dir(target), 0o755); err != nil {
			return err
		}
		return os.WriteFile(target, b, 0o644)
	})
	if err != nil {
		t.Fatal(err)
	}
}

// waiterHandlers is an extension whose command starts a filesystem scan and
// awaits until the scan has ended (and a few frames more): a handler paused
// in an await while the editor's file system processes what it found.
const waiterHandlers = `@tool
extends RefCounted

const Helper := preload("helper.gd")

var _router: RefCounted = null
var _calls: int = 0


func setup(router: RefCounted) -> void:
	_router = router


func get_commands() -> Dictionary:
	return {"cmd_waiter_wait": {"class": "read_only", "run": _wait}}


func _wait(_params: Dictionary) -> Dictionary:
	_calls += 1
	var before: String = Helper.word()
	var fs: EditorFileSystem = EditorInterface.get_resource_filesystem()
	var tree: SceneTree = Engine.get_main_loop() as SceneTree
	while fs.is_scanning():
		await tree.process_frame
	fs.scan()
	var frames: int = await _until_scanned(fs, tree)
	frames += await Helper.frames(tree, 5)
	return _router.call("ok", {"before": before, "after": Helper.word(), "calls": _calls, "frames": frames})


func _until_scanned(fs: EditorFileSystem, tree: SceneTree) -> int:
	var frames: int = 0
	while fs.is_scanning() or frames < 30:
		await tree.process_frame
		frames += 1
	return frames
`

// An installed extension's scripts are not reloaded under a running handler:
// the server installs a toolset's editor code into the project while the
// editor runs and has it loaded (cmd_ext_load); a handler of it that awaits
// (in nested calls, across two of its files) while the editor scans the file
// system (godot_resources_rescan, the editor regaining focus, …) finishes and
// answers, the editor prints no script error and its file system never
// processes the extension's scripts. Before the fix, each scan found them as
// new, its script-documentation update reloaded the cached scripts in place
// ("update_script_paths_documentation: step 0: handlers.gd"), and the paused
// handler resumed into recompiled code: "Internal script error! Opcode: 1",
// then the editor crashed (signal 11).
func TestExtensionScriptsSurviveAScan(t *testing.T) {
	s, err := startBridgeSession()
	if err != nil {
		t.Fatal(err)
	}
	mark := s.editor.out.Len()
	t.Cleanup(func() { checkEditorOutput(t, "editor", s.editor.out.since(mark)) })
	files := []pluginhost.EditorFile{
		{Path: "handlers.gd", Content: []byte(waiterHandlers)},
		{Path: "helper.gd", Content: []byte("@tool\nextends RefCounted\n\nstatic var loaded: int = Time.get_ticks_usec()\n\n\nstatic func word() -> String:\n\treturn \"same %d\" % loaded\n\n\nstatic func frames(tree: SceneTree, n: int) -> int:\n\tfor i: int in range(n):\n\t\tawait tree.process_frame\n\treturn n\n")},
	}
	if _, e := projectfiles.InstallEditorCode(s.project, "waiter", "1", files); e != nil {
		t.Fatal(e)
	}
	r := s.send(t, "cmd_ext_load", map[string]any{"prefix": "waiter"})
	if !r.OK {
		t.Fatalf("cmd_ext_load: %+v", r)
	}
	if _, err := os.Stat(filepath.Join(s.project, "addons", "godot_mcp_ext", ".gdignore")); err != nil {
		t.Errorf("cmd_ext_load did not keep the extensions out of the editor's file system: %v", err)
	}
	for round := 1; round <= 3; round++ {
		r = s.send(t, "cmd_waiter_wait", map[string]any{})
		var got struct {
			Before string `json:"before"`
			After  string `json:"after"`
			Calls  int    `json:"calls"`
		}
		if r.OK {
			_ = json.Unmarshal(r.Result, &got)
		}
		if !r.OK || !strings.HasPrefix(got.Before, "same") || got.After != got.Before || got.Calls != round {
			t.Fatalf("round %d: cmd_waiter_wait = %+v (%+v)\n--- editor output ---\n%s", round, r, got, s.editor.out.since(mark))
		}
	}
	reloaded := regexp.MustCompile(`update_script_paths_documentation: step \d+: (handlers|helper)\.gd`)
	if m := reloaded.FindAllString(s.editor.out.since(mark), -1); len(m) > 0 {
		t.Errorf("the editor's file system reloaded the extension's scripts (%d times):\n%s", len(m), strings.Join(m, "\n"))
	}
}
