package projectfiles

import (
	"encoding/json"
	"errors"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"testing/fstest"

	"github.com/godot-mcp/godot-mcp/host/pluginhost"
	"github.com/godot-mcp/godot-mcp/internal/nolinks"
)

// manifestAt reads the manifest file in dir as JSON.
func manifestAt(t *testing.T, dir string) map[string]any {
	t.Helper()
	var m map[string]any
	if err := json.Unmarshal([]byte(readFile(t, filepath.Join(dir, ManifestFile))), &m); err != nil {
		t.Fatal(err)
	}
	return m
}

// A project whose addon was installed before the one manifest format (its
// .install-manifest.json) upgrades in place: files it installed and nobody
// changed are updated, a changed one is refused, and once the install goes
// through the project has the one manifest and no old one.
func TestAddonUpgradesFromTheOldManifest(t *testing.T) {
	proj := newProject(t, minimalProject)
	dir := filepath.Join(proj, "addons", "godot_mcp")
	old := map[string]string{"plugin.gd": "old plugin\n", "gone.gd": "old gone\n", "mine.gd": "old mine\n"}
	files := map[string]string{}
	for p, c := range old {
		writeFile(t, filepath.Join(dir, p), c)
		files[p] = sum([]byte(c))
	}
	legacy, _ := json.Marshal(map[string]any{"version": "0.9", "files": files})
	writeFile(t, filepath.Join(dir, legacyAddonManifest), string(legacy))
	writeFile(t, filepath.Join(dir, "mine.gd"), "the user's edit\n")
	src := fstest.MapFS{"plugin.gd": {Data: []byte("new plugin\n")}, "mine.gd": {Data: []byte("new mine\n")}}

	_, err := installAddon(AddonOptions{ProjectDir: proj}, src, "1.0")
	var conflict *ConflictError
	if !errors.As(err, &conflict) || len(conflict.Files) != 1 || conflict.Files[0].Reason != "modified since godot-mcp installed it" {
		t.Fatalf("the user's edit under the old manifest: %v", err)
	}
	if readFile(t, filepath.Join(dir, "mine.gd")) != "the user's edit\n" || readFile(t, filepath.Join(dir, "plugin.gd")) != "old plugin\n" {
		t.Fatal("a refused install changed files")
	}

	writeFile(t, filepath.Join(dir, "mine.gd"), "old mine\n") // the user moves the edit away
	rep, err := installAddon(AddonOptions{ProjectDir: proj}, src, "1.0")
	if err != nil {
		t.Fatal(err)
	}
	got := ops(rep)
	if got["addons/godot_mcp/plugin.gd"] != OpUpdate || got["addons/godot_mcp/mine.gd"] != OpUpdate || got["addons/godot_mcp/gone.gd"] != OpRemove {
		t.Fatalf("upgrade from the old manifest: %v", got)
	}
	if _, err := os.Stat(filepath.Join(dir, legacyAddonManifest)); !os.IsNotExist(err) {
		t.Fatalf("the old manifest is still there (%v)", err)
	}
	m := manifestAt(t, dir)
	if m["format"] != float64(ManifestFormat) || m["owner"] != AddonOwner || m["version"] != "1.0" {
		t.Fatalf("the new manifest: %v", m)
	}
	if am, err := AddonManifest(proj); err != nil || am.Version != "1.0" || am.Files["plugin.gd"] != sum([]byte("new plugin\n")) {
		t.Fatalf("AddonManifest = %+v, %v", am, err)
	}
}

// A toolset folder stamped before the one format ({toolset, version,
// files}) upgrades: its owner is read from "toolset", and the new stamp is
// the one format.
func TestEditorCodeUpgradesFromTheOldStamp(t *testing.T) {
	proj := project(t)
	dir := EditorCodeDir(proj, "hello")
	writeFile(t, filepath.Join(dir, "handlers.gd"), "one")
	old, _ := json.Marshal(map[string]any{"toolset": "hello", "version": "v1", "files": map[string]string{"handlers.gd": sum([]byte("one"))}})
	writeFile(t, filepath.Join(dir, ManifestFile), string(old))
	if st, err := ReadManifest(proj, "hello"); err != nil || st.Owner != "hello" || st.Version != "v1" {
		t.Fatalf("the old stamp reads as %+v, %v", st, err)
	}
	if changed, e := InstallEditorCode(proj, "hello", "v2", files("two")); e != nil || !changed {
		t.Fatalf("upgrade: %v %+v", changed, e)
	}
	m := manifestAt(t, dir)
	if m["format"] != float64(ManifestFormat) || m["owner"] != "hello" || m["version"] != "v2" || m["toolset"] != nil {
		t.Fatalf("the new stamp: %v", m)
	}
	if read(t, filepath.Join(dir, "handlers.gd")) != "two" {
		t.Fatal("not upgraded")
	}
}

// Editor code keeps the stricter rule of the two installers: a file a new
// version ships where the user put one of their own is refused, not
// overwritten.
func TestEditorCodeKeepsAFileItDidNotInstall(t *testing.T) {
	proj := project(t)
	dir := EditorCodeDir(proj, "hello")
	if _, e := InstallEditorCode(proj, "hello", "v1", []pluginhost.EditorFile{{Path: "handlers.gd", Content: []byte("one")}}); e != nil {
		t.Fatal(e)
	}
	writeFile(t, filepath.Join(dir, "lib", "util.gd"), "the user's helper")
	_, e := InstallEditorCode(proj, "hello", "v2", files("two"))
	if e == nil || e.Required != RequireEditorCode || !strings.Contains(e.Hint, "lib/util.gd") || !strings.Contains(e.Hint, "did not install") {
		t.Fatalf("install over the user's file: %+v", e)
	}
	if read(t, filepath.Join(dir, "lib", "util.gd")) != "the user's helper" || read(t, filepath.Join(dir, "handlers.gd")) != "one" {
		t.Fatal("a refused install changed files")
	}
}

// Files are replaced atomically (a new file renamed into place, never
// rewritten in place): a reader that opened the old version reads it whole.
func TestInstallsReplaceFilesAtomically(t *testing.T) {
	proj := project(t)
	dir := EditorCodeDir(proj, "hello")
	if _, e := InstallEditorCode(proj, "hello", "v1", files("version one")); e != nil {
		t.Fatal(e)
	}
	f, err := os.Open(filepath.Join(dir, "handlers.gd"))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	if _, e := InstallEditorCode(proj, "hello", "v2", files("version two, longer")); e != nil {
		t.Fatal(e)
	}
	if b, _ := io.ReadAll(f); string(b) != "version one" {
		t.Fatalf("the open old file reads %q: it was rewritten in place", b)
	}
	if read(t, filepath.Join(dir, "handlers.gd")) != "version two, longer" {
		t.Fatal("not replaced")
	}
	entries, _ := os.ReadDir(dir)
	for _, e := range entries {
		if strings.Contains(e.Name(), "tmp") {
			t.Errorf("a temporary file was left: %s", e.Name())
		}
	}
}

// A link planted at the file the addon installs, or at a folder on its
// way, is refused before anything is written; the target outside keeps its
// content.
func TestAddonFollowsNoPlantedLink(t *testing.T) {
	src := fstest.MapFS{"plugin.gd": {Data: []byte("new plugin\n")}, "lib/util.gd": {Data: []byte("util\n")}}
	cases := []struct {
		name  string
		plant func(t *testing.T, proj, outsideDir string) string // returns the planted link, relative to the project
	}{
		{"at the target file", func(t *testing.T, proj, outsideDir string) string {
			writeFile(t, filepath.Join(proj, "addons", "godot_mcp", "keep"), "")
			mustLink(t, filepath.Join(outsideDir, "victim"), filepath.Join(proj, "addons", "godot_mcp", "plugin.gd"))
			return "addons/godot_mcp/plugin.gd"
		}},
		{"at a folder inside the addon", func(t *testing.T, proj, outsideDir string) string {
			writeFile(t, filepath.Join(proj, "addons", "godot_mcp", "keep"), "")
			mustLink(t, outsideDir, filepath.Join(proj, "addons", "godot_mcp", "lib"))
			return "addons/godot_mcp/lib"
		}},
		{"at the addon folder", func(t *testing.T, proj, outsideDir string) string {
			writeFile(t, filepath.Join(proj, "addons", "keep"), "")
			mustLink(t, outsideDir, filepath.Join(proj, "addons", "godot_mcp"))
			return "addons/godot_mcp"
		}},
		{"at addons", func(t *testing.T, proj, outsideDir string) string {
			mustLink(t, outsideDir, filepath.Join(proj, "addons"))
			return "addons"
		}},
	}
	for _, tc := range cases {
		for _, force := range []bool{false, true} {
			t.Run(tc.name, func(t *testing.T) {
				proj := newProject(t, minimalProject)
				outsideDir := t.TempDir()
				writeFile(t, filepath.Join(outsideDir, "victim"), "the user's file\n")
				link := tc.plant(t, proj, outsideDir)
				_, err := installAddon(AddonOptions{ProjectDir: proj, Force: force}, src, "1.0")
				var le *nolinks.LinkError
				if !errors.As(err, &le) || le.Path != filepath.Join(proj, filepath.FromSlash(link)) {
					t.Fatalf("force=%v: install = %v, want a refusal naming %s", force, err, link)
				}
				entries, _ := os.ReadDir(outsideDir)
				if len(entries) != 1 || readFile(t, filepath.Join(outsideDir, "victim")) != "the user's file\n" {
					t.Fatalf("force=%v: written outside: %v", force, entries)
				}
			})
		}
	}
}

func mustLink(t *testing.T, target, link string) {
	t.Helper()
	if err := os.Symlink(target, link); err != nil {
		t.Fatal(err)
	}
}
