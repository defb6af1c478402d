package main

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/godot-mcp/godot-mcp/plugins"
)

// A built-in toolset ships its editor code the way a third party's does.
// Enabled at start, before any editor is connected
// (GODOT_MCP_DEFAULT_TOOLSETS), its first call once an editor is there
// installs the code into the project (res://addons/godot_mcp_ext/scene/,
// version-stamped), has the editor load it (cmd_ext_load), and runs; the
// next call finds it loaded and goes straight through.
func TestBuiltinEditorCodeInstalledOnFirstCall(t *testing.T) {
	p := startBinary(t, "GODOT_MCP_DEFAULT_TOOLSETS=scene")
	p.Initialize()
	a := dialEditor(t, p.BridgeURL(), "")
	a.HandleResult("cmd_scene_list_open", map[string]any{"scenes": []any{}, "active": ""})
	if _, ok := a.Commands()["cmd_scene_list_open"]; ok {
		t.Fatal("the core addon declares cmd_scene_list_open: the scene toolset's commands must come with its editor code")
	}

	if r := call(p, "godot_scene_list_open", nil); r.IsError {
		t.Fatalf("first call: %s", r.StructuredContent)
	}
	got := a.Received()
	if len(got) != 2 || got[0].Command != "cmd_ext_load" || got[1].Command != "cmd_scene_list_open" {
		t.Fatalf("the editor received %+v, want cmd_ext_load then cmd_scene_list_open", got)
	}
	var load struct{ Prefix string }
	if json.Unmarshal(got[0].Params, &load); load.Prefix != "scene" {
		t.Fatalf("cmd_ext_load %s", got[0].Params)
	}
	if info, ok := a.Commands()["cmd_scene_delete_node"]; !ok || info.Owner != "scene" || info.Class != "destructive" || !info.DryRun {
		t.Fatalf("after the load the editor declares cmd_scene_delete_node = %+v %v", info, ok)
	}

	// What was installed is the toolset's editor code, file for file, with a stamp.
	ts, _ := plugins.Lookup("scene")
	dir := filepath.Join(a.ProjectDir(), "addons", "godot_mcp_ext", "scene")
	n := 0
	err := fs.WalkDir(ts.EditorCode, ".", func(path string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		want, _ := fs.ReadFile(ts.EditorCode, path)
		have, err := os.ReadFile(filepath.Join(dir, filepath.FromSlash(path)))
		if err != nil || !bytes.Equal(have, want) {
			t.Errorf("%s in the project differs from the toolset's (%v)", path, err)
		}
		n++
		return nil
	})
	if err != nil || n < 2 {
		t.Fatalf("walked %d files: %v", n, err)
	}
	if _, err := os.Stat(filepath.Join(dir, ".godot_mcp_stamp.json")); err != nil {
		t.Fatal(err)
	}
	if a.Extensions()["scene"] == "" {
		t.Fatalf("the editor loaded %v", a.Extensions())
	}

	if r := call(p, "godot_scene_list_open", nil); r.IsError {
		t.Fatalf("second call: %s", r.StructuredContent)
	}
	if got := a.Received(); len(got) != 3 || got[2].Command != "cmd_scene_list_open" {
		t.Fatalf("the second call sent %+v, want only cmd_scene_list_open", got[2:])
	}
}

// #24.6: a cloned project planted a stamp and either a link where the
// installer used to write its temporary file (and at the file), or a stamp
// entry leading out of the folder (of a file whose content is known):
// enabling the toolset is refused, saying why, and the file outside is
// neither written nor removed.
func TestBinaryEditorCodeFollowsNoPlantedLink(t *testing.T) {
	for _, plant := range []string{"link", "stamp path"} {
		t.Run(plant, func(t *testing.T) {
			p := startBinary(t)
			p.Initialize()
			a := dialEditor(t, p.BridgeURL(), "")
			outsideDir := t.TempDir()
			outside := filepath.Join(outsideDir, "bashrc")
			const content = "# my shell\n"
			os.WriteFile(outside, []byte(content), 0o644)
			dir := filepath.Join(a.ProjectDir(), "addons", "godot_mcp_ext", "scene")
			os.MkdirAll(dir, 0o755)
			files := map[string]string{}
			want := "a path outside its folder"
			if plant == "link" {
				ts, _ := plugins.Lookup("scene")
				var first string
				fs.WalkDir(ts.EditorCode, ".", func(path string, d fs.DirEntry, err error) error {
					if err == nil && !d.IsDir() && first == "" {
						first = path
					}
					return err
				})
				link := filepath.Join(dir, filepath.FromSlash(first))
				os.MkdirAll(filepath.Dir(link), 0o755)
				os.Symlink(outside, link+".godot_mcp_tmp")
				os.Symlink(outside, link)
				want = link + " is a symbolic link"
			} else {
				rel, _ := filepath.Rel(dir, outside)
				h := sha256.Sum256([]byte(content))
				files[filepath.ToSlash(rel)] = hex.EncodeToString(h[:])
			}
			stamp, _ := json.Marshal(map[string]any{"toolset": "scene", "version": "0", "files": files})
			os.WriteFile(filepath.Join(dir, ".godot_mcp_stamp.json"), stamp, 0o644)

			r := call(p, "godot_enable_toolset", map[string]any{"names": []string{"scene"}})
			if !r.IsError || !strings.Contains(string(r.StructuredContent), "toolset_editor_code") || !strings.Contains(string(r.StructuredContent), want) {
				t.Fatalf("enable: %s", r.StructuredContent)
			}
			if b, err := os.ReadFile(outside); string(b) != content {
				t.Fatalf("the file outside was changed or removed: %q %v", b, err)
			}
			if entries, _ := os.ReadDir(outsideDir); len(entries) != 1 {
				t.Fatalf("written outside: %v", entries)
			}
		})
	}
}
