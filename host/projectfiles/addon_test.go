package projectfiles

import (
	"encoding/json"
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"testing/fstest"

	"github.com/godot-mcp/godot-mcp/addon"
)

const minimalProject = `; Engine configuration file.
config_version=5

[application]

config/name="Demo"
`

// newProject makes a temp dir with project.godot (content) and returns its path.
func newProject(t *testing.T, content string) string {
	t.Helper()
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "project.godot"), []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
	return dir
}

func readFile(t *testing.T, p string) string {
	t.Helper()
	b, err := os.ReadFile(p)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

func writeFile(t *testing.T, p, content string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
}

// ops maps each reported path to its op.
func ops(r Report) map[string]Op {
	m := map[string]Op{}
	for _, a := range r.Actions {
		m[a.Path] = a.Op
	}
	return m
}

var v1 = fstest.MapFS{
	"plugin.cfg":          {Data: []byte("[plugin]\nversion=\"1\"\n")},
	"plugin.gd":           {Data: []byte("@tool\nextends EditorPlugin\n")},
	"old.gd":              {Data: []byte("# only in v1\n")},
	"handlers/core.gd":    {Data: []byte("# core v1\n")},
	"handlers/retired.gd": {Data: []byte("# retired in v2\n")},
}

var v2 = fstest.MapFS{
	"plugin.cfg":       {Data: []byte("[plugin]\nversion=\"2\"\n")},
	"plugin.gd":        {Data: []byte("@tool\nextends EditorPlugin\n")},
	"handlers/core.gd": {Data: []byte("# core v2\n")},
	"new.gd":           {Data: []byte("# new in v2\n")},
}

func TestRefusesADirectoryWithoutProjectGodot(t *testing.T) {
	for _, dir := range []string{t.TempDir(), filepath.Join(t.TempDir(), "missing"), ""} {
		_, err := InstallAddon(AddonOptions{ProjectDir: dir})
		if !errors.Is(err, ErrNotAProject) {
			t.Fatalf("Install(%q) error = %v, want ErrNotAProject", dir, err)
		}
		if !strings.Contains(err.Error(), "project.godot") {
			t.Errorf("error %q does not mention project.godot", err)
		}
	}
}

func TestFreshInstallThenRerunIsIdempotent(t *testing.T) {
	dir := newProject(t, minimalProject)
	rep, err := InstallAddon(AddonOptions{ProjectDir: dir})
	if err != nil {
		t.Fatal(err)
	}
	err = fs.WalkDir(addon.FS, ".", func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		want, _ := fs.ReadFile(addon.FS, p)
		if got := readFile(t, filepath.Join(dir, "addons", "godot_mcp", filepath.FromSlash(p))); got != string(want) {
			t.Errorf("%s differs from the embedded file", p)
		}
		if op := ops(rep)["addons/godot_mcp/"+p]; op != OpCreate {
			t.Errorf("%s: op %q, want create", p, op)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	var m Manifest
	if err := json.Unmarshal([]byte(readFile(t, filepath.Join(dir, "addons", "godot_mcp", ManifestFile))), &m); err != nil {
		t.Fatalf("manifest: %v", err)
	}
	if m.Version != addon.Version || m.Files["plugin.gd"] == "" {
		t.Errorf("manifest = %+v, want version %s and plugin.gd's hash", m, addon.Version)
	}
	if readFile(t, filepath.Join(dir, "project.godot")) != minimalProject {
		t.Error("project.godot changed without Enable")
	}

	again, err := InstallAddon(AddonOptions{ProjectDir: dir})
	if err != nil {
		t.Fatal(err)
	}
	if again.Changed() {
		t.Errorf("second install changed things: %v", again.Actions)
	}
	for _, a := range again.Actions {
		if a.Op != OpUnchanged {
			t.Errorf("second install: %v", a)
		}
	}
}

func TestDryRunWritesNothing(t *testing.T) {
	dir := newProject(t, minimalProject)
	rep, err := InstallAddon(AddonOptions{ProjectDir: dir, DryRun: true, Enable: true})
	if err != nil {
		t.Fatal(err)
	}
	if !rep.DryRun || !rep.Changed() {
		t.Fatalf("dry run report = %+v", rep)
	}
	if ops(rep)["project.godot"] != OpEnable {
		t.Errorf("dry run does not plan to enable: %v", rep.Actions)
	}
	if _, err := os.Stat(filepath.Join(dir, "addons")); !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("dry run created addons/: %v", err)
	}
	if readFile(t, filepath.Join(dir, "project.godot")) != minimalProject {
		t.Error("dry run changed project.godot")
	}
}

func TestUpgradeUpdatesAndRemovesStaleFiles(t *testing.T) {
	tests := []struct {
		name     string
		tamper   func(t *testing.T, addonDir string)
		force    bool
		wantOps  map[string]Op
		wantErr  string
		kept     []string // files that must still exist afterwards
		gone     []string // files that must be gone afterwards
		unwanted []string // ops that must not appear (paths)
	}{
		{
			name: "clean upgrade",
			wantOps: map[string]Op{
				"addons/godot_mcp/plugin.cfg":          OpUpdate,
				"addons/godot_mcp/plugin.gd":           OpUnchanged,
				"addons/godot_mcp/handlers/core.gd":    OpUpdate,
				"addons/godot_mcp/new.gd":              OpCreate,
				"addons/godot_mcp/old.gd":              OpRemove,
				"addons/godot_mcp/old.gd.uid":          OpRemove,
				"addons/godot_mcp/handlers/retired.gd": OpRemove,
			},
			gone: []string{"old.gd", "old.gd.uid", "handlers/retired.gd"},
		},
		{
			name: "a modified stale file is kept",
			tamper: func(t *testing.T, d string) {
				writeFile(t, filepath.Join(d, "old.gd"), "# my edits\n")
			},
			wantOps: map[string]Op{"addons/godot_mcp/old.gd": OpKeep, "addons/godot_mcp/handlers/retired.gd": OpRemove},
			kept:    []string{"old.gd", "old.gd.uid"},
		},
		{
			name: "a modified installed file is refused",
			tamper: func(t *testing.T, d string) {
				writeFile(t, filepath.Join(d, "handlers", "core.gd"), "# my edits\n")
			},
			wantErr: "modified since godot-mcp installed it",
			kept:    []string{"old.gd", "handlers/retired.gd"},
		},
		{
			name: "a foreign file is refused",
			tamper: func(t *testing.T, d string) {
				writeFile(t, filepath.Join(d, "new.gd"), "# someone else's\n")
			},
			wantErr: "not installed by godot-mcp",
		},
		{
			name: "force overwrites a modified file and removes modified stale ones",
			tamper: func(t *testing.T, d string) {
				writeFile(t, filepath.Join(d, "handlers", "core.gd"), "# my edits\n")
				writeFile(t, filepath.Join(d, "old.gd"), "# my edits\n")
			},
			force:   true,
			wantOps: map[string]Op{"addons/godot_mcp/handlers/core.gd": OpOverwrite, "addons/godot_mcp/old.gd": OpRemove},
			gone:    []string{"old.gd"},
		},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			dir := newProject(t, minimalProject)
			addonDir := filepath.Join(dir, "addons", "godot_mcp")
			if _, err := installAddon(AddonOptions{ProjectDir: dir}, v1, "1"); err != nil {
				t.Fatal(err)
			}
			writeFile(t, filepath.Join(addonDir, "old.gd.uid"), "uid://abc\n") // what Godot 4.4 adds
			if tc.tamper != nil {
				tc.tamper(t, addonDir)
			}
			before := snapshot(t, addonDir)
			rep, err := installAddon(AddonOptions{ProjectDir: dir, Force: tc.force}, v2, "2")
			if tc.wantErr != "" {
				var ce *ConflictError
				if !errors.As(err, &ce) || !strings.Contains(err.Error(), tc.wantErr) || !strings.Contains(err.Error(), "--force") {
					t.Fatalf("error = %v, want a ConflictError mentioning %q and --force", err, tc.wantErr)
				}
				if after := snapshot(t, addonDir); after != before {
					t.Errorf("a refused install changed files:\nbefore %s\nafter  %s", before, after)
				}
			} else if err != nil {
				t.Fatal(err)
			}
			got := ops(rep)
			for p, want := range tc.wantOps {
				if got[p] != want {
					t.Errorf("%s: op %q, want %q (all: %v)", p, got[p], want, rep.Actions)
				}
			}
			for _, p := range tc.kept {
				if _, err := os.Stat(filepath.Join(addonDir, p)); err != nil {
					t.Errorf("%s should still exist: %v", p, err)
				}
			}
			for _, p := range tc.gone {
				if _, err := os.Stat(filepath.Join(addonDir, p)); !errors.Is(err, fs.ErrNotExist) {
					t.Errorf("%s should be gone: %v", p, err)
				}
			}
			if tc.wantErr == "" {
				if got := readFile(t, filepath.Join(addonDir, "handlers", "core.gd")); got != "# core v2\n" {
					t.Errorf("handlers/core.gd = %q after upgrade", got)
				}
				// Once upgraded, a re-run is a no-op.
				again, err := installAddon(AddonOptions{ProjectDir: dir}, v2, "2")
				if err != nil {
					t.Fatal(err)
				}
				for _, a := range again.Actions {
					if a.Op != OpUnchanged && a.Op != OpKeep {
						t.Errorf("re-run after upgrade: %v", a)
					}
				}
			}
		})
	}
}

func TestIdenticalUntrackedFileIsAdopted(t *testing.T) {
	dir := newProject(t, minimalProject)
	writeFile(t, filepath.Join(dir, "addons", "godot_mcp", "plugin.gd"), "@tool\nextends EditorPlugin\n")
	rep, err := installAddon(AddonOptions{ProjectDir: dir}, v2, "2")
	if err != nil {
		t.Fatal(err)
	}
	if op := ops(rep)["addons/godot_mcp/plugin.gd"]; op != OpUnchanged {
		t.Errorf("identical file: op %q, want unchanged", op)
	}
}

// snapshot lists every file under dir with its content, for before/after checks.
func snapshot(t *testing.T, dir string) string {
	t.Helper()
	var b strings.Builder
	err := filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		rel, _ := filepath.Rel(dir, p)
		b.WriteString(rel + "=" + readFile(t, p) + ";")
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return b.String()
}

func TestInstallEnablePreservesProjectGodot(t *testing.T) {
	const withPlugins = "; Engine configuration file.\r\n" +
		"config_version=5\r\n" +
		"\r\n" +
		"[application]\r\n" +
		"\r\n" +
		"config/name=\"Demo\"\r\n" +
		"\r\n" +
		"[editor_plugins]\r\n" +
		"\r\n" +
		"enabled=PackedStringArray(\"res://addons/gut/plugin.cfg\", \"res://addons/dialogic/plugin.cfg\")\r\n" +
		"\r\n" +
		"[input]\r\n" +
		"\r\n" +
		"jump={\r\n" +
		"\"deadzone\": 0.5,\r\n" +
		"\"events\": []\r\n" +
		"}\r\n"
	dir := newProject(t, withPlugins)
	rep, err := InstallAddon(AddonOptions{ProjectDir: dir, Enable: true})
	if err != nil {
		t.Fatal(err)
	}
	if ops(rep)["project.godot"] != OpEnable {
		t.Fatalf("actions %v do not enable", rep.Actions)
	}
	want := strings.Replace(withPlugins,
		`"res://addons/dialogic/plugin.cfg")`,
		`"res://addons/dialogic/plugin.cfg", "res://addons/godot_mcp/plugin.cfg")`, 1)
	if got := readFile(t, filepath.Join(dir, "project.godot")); got != want {
		t.Errorf("project.godot =\n%q\nwant\n%q", got, want)
	}
	again, err := InstallAddon(AddonOptions{ProjectDir: dir, Enable: true})
	if err != nil {
		t.Fatal(err)
	}
	if again.Changed() || ops(again)["project.godot"] != OpUnchanged {
		t.Errorf("second enable: %v", again.Actions)
	}
	if got := readFile(t, filepath.Join(dir, "project.godot")); got != want {
		t.Error("second enable changed project.godot")
	}
}

// Installing this addon over one from before the toolsets took their editor
// code with them (scene, scripts and resources handlers inside the core
// addon) removes those handler files and their .uid files: left behind, the
// old addon's plugin.gd-style loader would register their commands as the
// core's and the toolsets' own editor code could not claim them.
func TestUpgradeRemovesHandlersThatMovedToTheirToolsets(t *testing.T) {
	proj := newProject(t, minimalProject)
	old := fstest.MapFS{}
	if err := fs.WalkDir(addon.FS, ".", func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		b, err := fs.ReadFile(addon.FS, p)
		old[p] = &fstest.MapFile{Data: b}
		return err
	}); err != nil {
		t.Fatal(err)
	}
	moved := []string{"handlers/scene_handlers.gd", "handlers/scripts_handlers.gd", "handlers/resources_handlers.gd", "handlers/project_handlers.gd", "handlers/runtime_handlers.gd"}
	for _, p := range moved {
		old[p] = &fstest.MapFile{Data: []byte("@tool\nextends RefCounted\n")}
	}
	if _, err := installAddon(AddonOptions{ProjectDir: proj}, old, "old"); err != nil {
		t.Fatal(err)
	}
	dir := filepath.Join(proj, filepath.FromSlash(addon.InstallDir))
	for _, p := range moved {
		writeFile(t, filepath.Join(dir, p+".uid"), "uid://abc\n") // as the editor writes them
	}
	rep, err := InstallAddon(AddonOptions{ProjectDir: proj})
	if err != nil {
		t.Fatal(err)
	}
	got := ops(rep)
	for _, p := range moved {
		for _, f := range []string{p, p + ".uid"} {
			if got["addons/godot_mcp/"+f] != OpRemove {
				t.Errorf("%s: %q, want remove", f, got["addons/godot_mcp/"+f])
			}
			if _, err := os.Stat(filepath.Join(dir, f)); !errors.Is(err, fs.ErrNotExist) {
				t.Errorf("%s is still there (%v)", f, err)
			}
		}
	}
	if _, err := os.Stat(filepath.Join(dir, "handlers", "core_handlers.gd")); err != nil {
		t.Errorf("core_handlers.gd: %v", err)
	}
}
