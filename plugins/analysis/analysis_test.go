package analysis_test

import (
	"context"
	"os"
	"path/filepath"
	"reflect"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/godot-mcp/godot-mcp/plugins/analysis"
	"github.com/godot-mcp/godot-mcp/sdk"
	"github.com/godot-mcp/godot-mcp/sdk/sdktest"
)

// copyFixture copies testdata/fixture (a project with exactly one unused
// file, one preload cycle, one connection to a missing method and one
// dangling NodePath; see its README.md) to a temporary project.
func copyFixture(t *testing.T) string {
	t.Helper()
	dir := t.TempDir()
	err := filepath.WalkDir("testdata/fixture", func(p string, d os.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel("testdata/fixture", p)
		if d.IsDir() {
			return os.MkdirAll(filepath.Join(dir, rel), 0o755)
		}
		b, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		return os.WriteFile(filepath.Join(dir, rel), b, 0o644)
	})
	if err != nil {
		t.Fatal(err)
	}
	return dir
}

func call(t *testing.T, h *sdktest.Harness, tool string, args map[string]any, out any) *sdktest.Result {
	t.Helper()
	res, err := h.Call(context.Background(), tool, args)
	if err != nil {
		t.Fatal(err)
	}
	if out != nil {
		if res.Err != nil {
			t.Fatalf("%s: %+v", tool, res.Err)
		}
		if err := res.Decode(out); err != nil {
			t.Fatal(err)
		}
	}
	return res
}

type unusedOut struct {
	Files []struct {
		Path   string `json:"path"`
		Bytes  int64  `json:"bytes"`
		Kind   string `json:"kind"`
		Reason string `json:"reason"`
	} `json:"files"`
	TotalBytes   int64 `json:"total_bytes"`
	Total        int   `json:"total"`
	FilesScanned int   `json:"files_scanned"`
	LinksSkipped int   `json:"links_skipped"`
}

func (u unusedOut) paths() []string {
	var out []string
	for _, f := range u.Files {
		out = append(out, f.Path+" "+f.Reason)
	}
	return out
}

type connection struct {
	Scene, Signal, From, To, Method, Status, Note string
	Line                                          int
}

type signalsOut struct {
	Connections []connection `json:"connections"`
	Flagged     int          `json:"flagged"`
	Unverified  int          `json:"unverified"`
	Total       int          `json:"total"`
	Truncated   bool         `json:"truncated"`
	NextCursor  string       `json:"next_cursor"`
}

type issue struct {
	File, Kind, Severity, Detail string
	Line                         int
}

type integrityOut struct {
	Issues       []issue `json:"issues"`
	FilesChecked int     `json:"files_checked"`
	Errors       int     `json:"errors"`
	Warnings     int     `json:"warnings"`
}

type cyclesOut struct {
	Cycles []struct {
		Text  string `json:"text"`
		Steps []struct {
			File, Via string
			Line      int
		} `json:"steps"`
		Kinds    []string `json:"kinds"`
		LoadOnly bool     `json:"load_only"`
		Files    int      `json:"files"`
	} `json:"cycles"`
	Total int `json:"total"`
}

func TestFixtureFindsExactlyWhatWasPlanted(t *testing.T) {
	dir := copyFixture(t)
	// A link out of the project: never followed, its file never listed.
	outside := t.TempDir()
	os.WriteFile(filepath.Join(outside, "secret.png"), []byte("x"), 0o644)
	if err := os.Symlink(outside, filepath.Join(dir, "linked")); err != nil {
		t.Fatal(err)
	}
	// The project folder itself may be reached through a link.
	viaLink := filepath.Join(t.TempDir(), "project-link")
	if err := os.Symlink(dir, viaLink); err != nil {
		t.Fatal(err)
	}
	t.Setenv("GODOT_MCP_PROJECT_DIR", viaLink)
	h := sdktest.Start(t, analysis.Toolset())

	var u unusedOut
	call(t, h, "unused_files", nil, &u)
	if got := u.paths(); !reflect.DeepEqual(got, []string{"res://art/unused.png unreferenced"}) || u.Files[0].Bytes != 69 || u.Files[0].Kind != "texture" || u.TotalBytes != 69 || u.Total != 1 {
		t.Fatalf("unused_files: %+v", u)
	}
	if u.LinksSkipped != 1 || u.FilesScanned != 27 {
		t.Fatalf("links_skipped %d files_scanned %d, want 1 and 27", u.LinksSkipped, u.FilesScanned)
	}
	call(t, h, "unused_files", map[string]any{"transitive": true}, &u)
	if got := u.paths(); !reflect.DeepEqual(got, []string{"res://art/unused.png unreferenced"}) {
		t.Fatalf("transitive: %v", got)
	}
	call(t, h, "unused_files", map[string]any{"include_addons": true}, &u)
	if got := u.paths(); !reflect.DeepEqual(got, []string{"res://addons/tool/leftover.png unreferenced", "res://art/unused.png unreferenced"}) {
		t.Fatalf("include_addons: %v", got)
	}

	var c cyclesOut
	call(t, h, "cycles", nil, &c)
	if len(c.Cycles) != 1 || c.Total != 1 {
		t.Fatalf("cycles: %+v", c)
	}
	cy := c.Cycles[0]
	if cy.Text != "res://cycle/a.gd -preload-> res://cycle/b.gd -preload-> res://cycle/a.gd" || len(cy.Steps) != 2 || cy.Steps[0].Line != 3 || cy.Steps[1].Line != 3 ||
		!reflect.DeepEqual(cy.Kinds, []string{"preload"}) || cy.LoadOnly || cy.Files != 2 {
		t.Fatalf("cycle: %+v", cy)
	}

	var s signalsOut
	call(t, h, "signals", nil, &s)
	status := map[string]string{}
	for _, x := range s.Connections {
		status[x.Scene+" "+x.From+"."+x.Signal+"->"+x.To+":"+x.Method] = x.Status
	}
	want := map[string]string{
		"res://main.tscn Button.pressed->.:_on_button_pressed":  "ok",
		"res://main.tscn Player.hit->.:_on_player_hit":          "ok", // defined by BaseMain, which main.gd extends by class_name
		"res://main.tscn Timer.timeout->.:_on_timer_timeout":    "missing_method",
		"res://main.tscn Button.pressed->Player/Sprite:hide":    "unverified", // a built-in method cannot be known offline
		"res://main.tscn Player.died->Player:_on_died":          "ok",         // the instanced scene's script
		"res://ui/menu.tscn Start.pressed->.:_on_start_pressed": "ok",         // a built-in script
	}
	if !reflect.DeepEqual(status, want) || s.Flagged != 1 || s.Unverified != 1 || s.Total != 6 {
		t.Fatalf("signals: %+v", s)
	}
	call(t, h, "signals", map[string]any{"only_problems": true}, &s)
	if len(s.Connections) != 1 || s.Connections[0].Line != 30 || s.Connections[0].Method != "_on_timer_timeout" || !strings.Contains(s.Connections[0].Note, "res://main.gd") {
		t.Fatalf("only_problems: %+v", s)
	}
	for _, x := range s.Connections {
		if x.Status == "unverified" && !strings.Contains(x.Note, "cannot be checked offline") {
			t.Fatalf("an unverified connection should say why: %+v", x)
		}
	}

	var in integrityOut
	call(t, h, "scene_integrity", nil, &in)
	if len(in.Issues) != 1 || in.Errors != 1 || in.Warnings != 0 || in.FilesChecked != 6 {
		t.Fatalf("scene_integrity: %+v", in)
	}
	if is := in.Issues[0]; is.File != "res://main.tscn" || is.Line != 26 || is.Kind != "dangling_node_path" || !strings.Contains(is.Detail, `"Ghost"`) {
		t.Fatalf("dangling NodePath: %+v", is)
	}

	var st struct {
		Files  int `json:"files"`
		Scenes struct {
			Count, Nodes, Connections int
		} `json:"scenes"`
		Scripts struct {
			Count         int `json:"count"`
			WithClassName int `json:"with_class_name"`
		} `json:"scripts"`
		ByKind        []struct{ Kind string } `json:"by_kind"`
		LargestScenes []struct {
			Path  string
			Nodes int
		} `json:"largest_scenes"`
		LargestResources []struct{ Path, Type string } `json:"largest_resources"`
	}
	call(t, h, "stats", map[string]any{"top": 2}, &st)
	if st.Files != 22 || st.Scenes.Count != 4 || st.Scenes.Connections != 6 || st.Scripts.Count != 8 || st.Scripts.WithClassName != 1 ||
		len(st.LargestScenes) != 2 || st.LargestScenes[0].Path != "res://main.tscn" || st.LargestScenes[0].Nodes != 6 || len(st.LargestResources) != 2 {
		t.Fatalf("stats: %+v", st)
	}
}

func TestPagingAndFilters(t *testing.T) {
	t.Setenv("GODOT_MCP_PROJECT_DIR", copyFixture(t))
	h := sdktest.Start(t, analysis.Toolset())
	var all signalsOut
	call(t, h, "signals", nil, &all)
	var got []connection
	cursor := ""
	for pages := 0; ; pages++ {
		if pages > 5 {
			t.Fatal("paging does not end")
		}
		var s signalsOut
		args := map[string]any{"limit": 4}
		if cursor != "" {
			args["cursor"] = cursor
		}
		call(t, h, "signals", args, &s)
		got = append(got, s.Connections...)
		if !s.Truncated {
			break
		}
		cursor = s.NextCursor
	}
	if !reflect.DeepEqual(got, all.Connections) {
		t.Fatalf("pages %+v\nwhole %+v", got, all.Connections)
	}
	var s signalsOut
	call(t, h, "signals", map[string]any{"path": "res://ui"}, &s)
	if s.Total != 1 || s.Connections[0].Scene != "res://ui/menu.tscn" {
		t.Fatalf("path filter: %+v", s)
	}
	if r := call(t, h, "signals", map[string]any{"cursor": "bogus"}, nil); r.Err == nil || r.Err.Code != sdk.CodeValidationError {
		t.Fatalf("bad cursor: %+v", r.Err)
	}
	if r := call(t, h, "unused_files", map[string]any{"path": "res://../x"}, nil); r.Err == nil || r.Err.Code != sdk.CodeValidationError {
		t.Fatalf("path out of the project: %+v", r.Err)
	}
	// Another folder than the project is refused (nothing outside it is read).
	other := t.TempDir()
	os.WriteFile(filepath.Join(other, "project.godot"), []byte("config_version=5\n"), 0o644)
	if r := call(t, h, "stats", map[string]any{"project_dir": other}, nil); r.Err == nil || r.Err.Code != sdk.CodePreconditionFailed || !strings.Contains(r.Err.Hint, "GODOT_MCP_HEADLESS_DIRS") {
		t.Fatalf("another project_dir: %+v", r.Err)
	}
}

// TestEveryKindOfProblem plants one of each other problem the tools report.
func TestEveryKindOfProblem(t *testing.T) {
	dir := t.TempDir()
	files := map[string]string{
		"project.godot": "config_version=5\n\n[application]\n\nrun/main_scene=\"res://broken.tscn\"\n\n[autoload]\n\nL=\"*res://res_loader_user.gd\"\n",
		"broken.tscn": "[gd_scene load_steps=4 format=3]\n\n" +
			"[ext_resource type=\"Texture2D\" path=\"res://gone.png\" id=\"1_t\"]\n" + // 3
			"[ext_resource type=\"Script\" uid=\"uid://nosuchuid\" path=\"res://gone.gd\" id=\"2_s\"]\n" + // 4
			"[ext_resource type=\"Script\" uid=\"uid://stale00001\" path=\"res://ok.gd\" id=\"3_ok\"]\n\n" + // 5
			"[node name=\"Root\" type=\"Node\"]\nscript = ExtResource(\"2_s\")\n\n" + // 7, 8
			"[node name=\"Sprite\" type=\"Sprite2D\" parent=\".\"]\ntexture = ExtResource(\"9_nope\")\n\n" + // 10, 11
			"[node name=\"Lost\" type=\"Node\" parent=\"Nowhere\"]\n\n" + // 13
			"[node name=\"Ok\" type=\"Node\" parent=\".\"]\nscript = ExtResource(\"3_ok\")\n\n" +
			"[connection signal=\"ready\" from=\"Ghost\" to=\".\" method=\"_on_ghost_ready\"]\n" + // 18
			"[connection signal=\"ready\" from=\"Ok\" to=\"Ok\" method=\"_on_ok_ready\"]\n", // 19
		"ok.gd":              "extends \"res://base.gd\"\n\nfunc _on_ok_ready():\n\tpass\n",
		"base.gd":            "extends Node\n\nconst S = preload(\"res://broken.tscn\")\n",
		"lost.png.import":    "[remap]\n\nimporter=\"texture\"\nuid=\"uid://lost\"\n\n[deps]\n\nsource_file=\"res://lost.png\"\n",
		"lost.gd.uid":        "uid://lostscript\n",
		"bad.tres":           "[gd_resource type=\"Resource\" format=3]\n\n[resource]\nname = \"never closed\n",
		"loader.gd":          "extends Node\nfunc f():\n\tload(\"res://loader2.gd\")\n",
		"loader2.gd":         "extends Node\nfunc f():\n\tload(\"res://loader.gd\")\n",
		"res_loader_user.gd": "extends Node\nconst L = preload(\"res://loader.gd\")\nconst B = preload(\"res://bad.tres\")\n",
	}
	for name, body := range files {
		os.WriteFile(filepath.Join(dir, name), []byte(body), 0o644)
	}
	t.Setenv("GODOT_MCP_PROJECT_DIR", dir)
	h := sdktest.Start(t, analysis.Toolset())

	var in integrityOut
	call(t, h, "scene_integrity", nil, &in)
	var kinds []string
	for _, is := range in.Issues {
		kinds = append(kinds, is.File+":"+itoa(is.Line)+" "+is.Kind)
	}
	want := []string{
		"res://bad.tres:4 parse_error",
		"res://broken.tscn:3 broken_ext_resource",
		"res://broken.tscn:4 missing_script",
		"res://broken.tscn:5 invalid_uid",
		"res://broken.tscn:11 unknown_resource_id",
		"res://broken.tscn:13 missing_parent",
	}
	if !reflect.DeepEqual(kinds, want) || in.Warnings != 1 || in.Errors != 5 {
		t.Fatalf("issues:\n%v\nwant\n%v\n%+v", kinds, want, in)
	}

	var s signalsOut
	call(t, h, "signals", nil, &s)
	if len(s.Connections) != 2 || s.Connections[0].Status != "missing_node" || !strings.Contains(s.Connections[0].Note, `"Ghost"`) || s.Connections[1].Status != "ok" {
		t.Fatalf("signals: %+v", s)
	}

	var u unusedOut
	call(t, h, "unused_files", nil, &u)
	if got := u.paths(); !reflect.DeepEqual(got, []string{"res://lost.gd.uid orphaned_uid", "res://lost.png.import orphaned_import"}) {
		t.Fatalf("unused: %v", got)
	}

	var c cyclesOut
	call(t, h, "cycles", nil, &c)
	var texts []string
	for _, x := range c.Cycles {
		texts = append(texts, x.Text)
		if strings.Contains(x.Text, "loader") != x.LoadOnly {
			t.Fatalf("load_only of %s: %v", x.Text, x.LoadOnly)
		}
	}
	wantCycles := []string{
		"res://base.gd -preload-> res://broken.tscn -script-> res://ok.gd -extends-> res://base.gd",
		"res://loader.gd -load-> res://loader2.gd -load-> res://loader.gd",
	}
	if !reflect.DeepEqual(texts, wantCycles) {
		t.Fatalf("cycles:\n%v\nwant\n%v", texts, wantCycles)
	}
}

func itoa(n int) string { return strconv.Itoa(n) }

// The toolset keeps what it parsed between calls: a file changed since is
// read again, so an answer never shows a fixed problem.
func TestChangedFilesAreReadAgain(t *testing.T) {
	dir := copyFixture(t)
	old := time.Now().Add(-time.Hour)
	filepath.WalkDir(dir, func(p string, d os.DirEntry, err error) error {
		if err == nil && !d.IsDir() {
			os.Chtimes(p, old, old)
		}
		return nil
	})
	t.Setenv("GODOT_MCP_PROJECT_DIR", dir)
	h := sdktest.Start(t, analysis.Toolset())
	var s signalsOut
	call(t, h, "signals", map[string]any{"only_problems": true}, &s)
	if s.Flagged != 1 {
		t.Fatalf("before the fix: %+v", s)
	}
	// Rename the button's handler to the timer's: the same size, only
	// the modification time tells.
	main := filepath.Join(dir, "main.gd")
	src, _ := os.ReadFile(main)
	edited := strings.Replace(string(src), "func _on_button_pressed()", "func _on_timer_timeout ()", 1)
	if len(edited) != len(src) || edited == string(src) {
		t.Fatal("the edit should keep the size")
	}
	os.WriteFile(main, []byte(edited), 0o644)
	os.Chtimes(main, old.Add(time.Second), old.Add(time.Second)) // still old enough to be trusted
	call(t, h, "signals", map[string]any{"only_problems": true}, &s)
	if s.Flagged != 1 || len(s.Connections) != 1 || s.Connections[0].Method != "_on_button_pressed" {
		t.Fatalf("after the rename: %+v", s)
	}
	// A file deleted since is gone from the answers.
	os.Remove(filepath.Join(dir, "art", "unused.png"))
	var u unusedOut
	call(t, h, "unused_files", nil, &u)
	if len(u.Files) != 0 {
		t.Fatalf("after the delete: %+v", u)
	}
}

// Paths a script builds keep what they can name; an addon naming its own
// folder does not keep the addon's files.
func TestBuiltPaths(t *testing.T) {
	dir := t.TempDir()
	files := map[string]string{
		"project.godot":              "config_version=5\n\n[autoload]\n\nLoader=\"*res://loader.gd\"\n\n[editor_plugins]\n\nenabled=PackedStringArray(\"res://addons/kit/plugin.cfg\")\n",
		"loader.gd":                  "extends Node\nconst LEVELS = \"res://levels/\"\nfunc boss(n):\n\treturn load(\"res://bosses/boss_%d.tscn\" % n)\nfunc enemy(n):\n\treturn load(\"res://enemies/enemy_\" + str(n) + \".tscn\")\n",
		"levels/one.tscn":            "[gd_scene format=3]\n\n[node name=\"One\" type=\"Node\"]\n",
		"levels/deep/two.tscn":       "[gd_scene format=3]\n\n[node name=\"Two\" type=\"Node\"]\n",
		"bosses/boss_1.tscn":         "[gd_scene format=3]\n\n[node name=\"B\" type=\"Node\"]\n",
		"bosses/notes.json":          "{}\n",
		"enemies/enemy_7.tscn":       "[gd_scene format=3]\n\n[node name=\"E\" type=\"Node\"]\n",
		"addons/kit/plugin.cfg":      "[plugin]\n\nname=\"Kit\"\nscript=\"kit.gd\"\n",
		"addons/kit/kit.gd":          "@tool\nextends EditorPlugin\nconst BASE = \"res://addons/kit/\"\n",
		"addons/kit/unused_icon.png": "png",
		// Run by their framework or by hand, never referenced: not unused.
		"test/test_player.gd": "extends GutTest\nfunc test_x():\n\tpass\n",
		"test/base_test.gd":   "class_name MyTest\nextends GdUnitTestSuite\n",
		"test/test_enemy.gd":  "extends MyTest\n",
		"tools/fix_levels.gd": "@tool\nextends EditorScript\n",
		"tools/cli.gd":        "extends SceneTree\n",
		"tools/not_a_tool.gd": "extends Node\n",
	}
	for name, body := range files {
		p := filepath.Join(dir, filepath.FromSlash(name))
		os.MkdirAll(filepath.Dir(p), 0o755)
		os.WriteFile(p, []byte(body), 0o644)
	}
	t.Setenv("GODOT_MCP_PROJECT_DIR", dir)
	h := sdktest.Start(t, analysis.Toolset())
	var u unusedOut
	call(t, h, "unused_files", map[string]any{"include_addons": true}, &u)
	want := []string{"res://addons/kit/unused_icon.png unreferenced", "res://bosses/notes.json unreferenced", "res://tools/not_a_tool.gd unreferenced"}
	if got := u.paths(); !reflect.DeepEqual(got, want) {
		t.Fatalf("unused %v, want %v", got, want)
	}
	// Transitive: what a test suite uses is reached from it.
	call(t, h, "unused_files", map[string]any{"include_addons": true, "transitive": true}, &u)
	if got := u.paths(); !reflect.DeepEqual(got, want) {
		t.Fatalf("transitive %v, want %v", got, want)
	}
}
