package projectfiles

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/godot-mcp/godot-mcp/host/envelope"
	"github.com/godot-mcp/godot-mcp/host/pluginhost"
	"github.com/godot-mcp/godot-mcp/sdk/contract"
)

func files(handlers string) []pluginhost.EditorFile {
	return []pluginhost.EditorFile{{Path: "handlers.gd", Content: []byte(handlers)}, {Path: "lib/util.gd", Content: []byte("@tool\n")}}
}

func read(t *testing.T, p string) string {
	t.Helper()
	b, err := os.ReadFile(p)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

func project(t *testing.T) string {
	t.Helper()
	proj := t.TempDir()
	if err := os.WriteFile(filepath.Join(proj, "project.godot"), []byte("config_version=5\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	return proj
}

func TestInstallUpgradeRemove(t *testing.T) {
	proj := project(t)
	dir := EditorCodeDir(proj, "hello")
	changed, e := InstallEditorCode(proj, "hello", "v1", files("one"))
	if e != nil || !changed {
		t.Fatalf("install: %v %v", changed, e)
	}
	if read(t, filepath.Join(dir, "handlers.gd")) != "one" || read(t, filepath.Join(dir, "lib", "util.gd")) != "@tool\n" {
		t.Fatal("files not written")
	}
	st, _ := ReadManifest(proj, "hello")
	if st == nil || st.Version != "v1" || len(st.Files) != 2 {
		t.Fatalf("stamp = %+v", st)
	}
	if changed, e := InstallEditorCode(proj, "hello", "v1", files("one")); changed || e != nil {
		t.Fatalf("a second install of the same version wrote: %v %v", changed, e)
	}
	// Upgrade: a new version replaces the files; one it no longer ships goes.
	if _, e := InstallEditorCode(proj, "hello", "v2", files("two")[:1]); e != nil {
		t.Fatal(e)
	}
	if read(t, filepath.Join(dir, "handlers.gd")) != "two" {
		t.Fatal("not upgraded")
	}
	if _, err := os.Stat(filepath.Join(dir, "lib", "util.gd")); !os.IsNotExist(err) {
		t.Fatal("a file the new version dropped is still there")
	}
	// The user edits a file: an upgrade is refused, the edit kept.
	if err := os.WriteFile(filepath.Join(dir, "handlers.gd"), []byte("mine"), 0o644); err != nil {
		t.Fatal(err)
	}
	_, e = InstallEditorCode(proj, "hello", "v3", files("three"))
	if e == nil || e.Code != contract.PreconditionFailed || e.Required != RequireEditorCode || !strings.Contains(e.Hint, "res://addons/godot_mcp_ext/hello/handlers.gd") || !strings.Contains(e.Hint, "not overwritten") {
		t.Fatalf("edited upgrade = %+v", e)
	}
	if read(t, filepath.Join(dir, "handlers.gd")) != "mine" {
		t.Fatal("the user's edit was overwritten")
	}
	// Remove keeps the edited file and a Godot-generated sidecar of ours goes.
	_ = os.WriteFile(filepath.Join(dir, "handlers.gd.uid"), []byte("uid://x"), 0o644)
	kept, err := RemoveEditorCode(proj, "hello")
	if err != nil || len(kept) != 1 || kept[0] != "handlers.gd" {
		t.Fatalf("remove = %v %v", kept, err)
	}
	if _, err := os.Stat(filepath.Join(dir, ManifestFile)); !os.IsNotExist(err) {
		t.Fatal("stamp left")
	}
	// Clean removal leaves no folder.
	_ = os.RemoveAll(dir)
	_, _ = InstallEditorCode(proj, "hello", "v1", files("one"))
	if kept, err := RemoveEditorCode(proj, "hello"); err != nil || len(kept) != 0 {
		t.Fatalf("remove = %v %v", kept, err)
	}
	if _, err := os.Stat(dir); !os.IsNotExist(err) {
		t.Fatal("the folder is left")
	}
}

func TestInstallRefusesAFolderItDidNotInstall(t *testing.T) {
	if _, e := InstallEditorCode(t.TempDir(), "hello", "v1", files("one")); e == nil || !strings.Contains(e.Hint, "not a Godot project") {
		t.Fatalf("installed into a folder that is not a project: %+v", e)
	}
	proj := project(t)
	dir := EditorCodeDir(proj, "hello")
	_ = os.MkdirAll(dir, 0o755)
	_ = os.WriteFile(filepath.Join(dir, "handlers.gd"), []byte("hand-copied"), 0o644)
	_, e := InstallEditorCode(proj, "hello", "v1", files("one"))
	if e == nil || e.Required != RequireEditorCode || !strings.Contains(e.Hint, "was not installed by godot-mcp") {
		t.Fatalf("e = %+v", e)
	}
	if read(t, filepath.Join(dir, "handlers.gd")) != "hand-copied" {
		t.Fatal("overwritten")
	}
	if kept, err := RemoveEditorCode(proj, "hello"); err != nil || kept != nil || read(t, filepath.Join(dir, "handlers.gd")) != "hand-copied" {
		t.Fatal("Remove touched a folder it did not install")
	}
}

type fakeBridge struct {
	connected bool
	dir       string
	exts      map[string]string
	sent      []string
	answer    func(command string, params any) envelope.Response
}

func (f *fakeBridge) Extensions() (map[string]string, string, bool) {
	if !f.connected {
		return nil, "", false
	}
	return f.exts, f.dir, true
}

func (f *fakeBridge) Send(_ context.Context, command string, params any, _ time.Duration) envelope.Response {
	f.sent = append(f.sent, command)
	return f.answer(command, params)
}

func TestEnsureLoadsAndChecksTheVersion(t *testing.T) {
	proj := project(t)
	info := pluginhost.ToolsetInfo{Name: "hello", EditorVersion: "v1", EditorFiles: files("one")}
	loaded := "v1"
	fb := &fakeBridge{connected: true, dir: proj, exts: map[string]string{}}
	fb.answer = func(command string, _ any) envelope.Response {
		if command == CmdUnload {
			return envelope.Response{OK: true, Result: json.RawMessage(`{}`)}
		}
		st, _ := ReadManifest(proj, "hello")
		if st == nil {
			return envelope.Response{Error: contract.ResourceNotFound, Hint: "no folder"}
		}
		b, _ := json.Marshal(loadResult{Prefix: "hello", Version: loaded})
		return envelope.Response{OK: true, Result: b}
	}
	in := &Installer{Bridge: fb}
	if e := in.Ensure(context.Background(), info); e != nil {
		t.Fatal(e)
	}
	if len(fb.sent) != 1 || fb.sent[0] != CmdLoad {
		t.Fatalf("sent %v", fb.sent)
	}
	// The editor reports it loaded: nothing more is sent.
	fb.exts["hello"] = "v1"
	if e := in.Ensure(context.Background(), info); e != nil || len(fb.sent) != 1 {
		t.Fatalf("%v %v", e, fb.sent)
	}
	// The editor loaded another version than the toolset's: refused, precisely.
	fb.exts["hello"] = "old"
	loaded = "old"
	info.EditorVersion, info.EditorFiles = "v2", files("two")
	e := in.Ensure(context.Background(), info)
	if e == nil || e.Required != RequireEditorCode || !strings.Contains(e.Hint, `version "old"`) {
		t.Fatalf("stale = %+v", e)
	}
	// The editor cannot load it: refused with the editor's reason.
	fb.answer = func(string, any) envelope.Response {
		return envelope.Response{Error: contract.PreconditionFailed, Hint: "'res://addons/godot_mcp_ext/hello/handlers.gd' has errors; open it in the script editor"}
	}
	if e := in.Ensure(context.Background(), info); e == nil || !strings.Contains(e.Hint, "has errors") {
		t.Fatalf("broken = %+v", e)
	}
	// Without an editor and a project dir: nothing to do yet (the first call
	// with an editor installs it); with GODOT_MCP_PROJECT_DIR it installs
	// there and sends nothing.
	fb.connected = false
	n := len(fb.sent)
	if e := in.Ensure(context.Background(), info); e != nil || len(fb.sent) != n {
		t.Fatalf("no project = %+v %v", e, fb.sent)
	}
	other := project(t)
	in.ProjectDir = other
	if e := in.Ensure(context.Background(), info); e != nil || len(fb.sent) != n {
		t.Fatalf("project dir = %+v %v", e, fb.sent)
	}
	if st, _ := ReadManifest(other, "hello"); st == nil || st.Version != "v2" {
		t.Fatalf("not installed into GODOT_MCP_PROJECT_DIR: %+v", st)
	}
	in.ProjectDir = ""
	// Remove unloads and deletes.
	fb.connected = true
	fb.exts["hello"] = "v2"
	fb.answer = func(string, any) envelope.Response { return envelope.Response{OK: true, Result: json.RawMessage(`{}`)} }
	if note := in.Remove(context.Background(), info); note != "" {
		t.Fatal(note)
	}
	if fb.sent[len(fb.sent)-1] != CmdUnload {
		t.Fatalf("sent %v", fb.sent)
	}
	if _, err := os.Stat(EditorCodeDir(proj, "hello")); !os.IsNotExist(err) {
		t.Fatal("files left")
	}
}

// #24.6: a cloned project plants links and a stamp in the toolset's
// folder. No link is followed and no stamp path leads out of the folder,
// on install, upgrade and remove; the file outside keeps its content.
func TestInstallFollowsNoLinkAndNoStampPath(t *testing.T) {
	const content = "the user's file\n"
	stamp := func(t *testing.T, dir string, files map[string]string) {
		t.Helper()
		b, _ := json.Marshal(Manifest{Owner: "hello", Version: "v0", Files: files})
		_ = os.MkdirAll(dir, 0o755)
		if err := os.WriteFile(filepath.Join(dir, ManifestFile), b, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	cases := []struct {
		name  string
		plant func(t *testing.T, proj, dir, outside string)
		link  string // the link the refusal names, relative to the project; "" for a stamp path
	}{
		{"temp file link", func(t *testing.T, proj, dir, outside string) {
			stamp(t, dir, map[string]string{})
			_ = os.Symlink(outside, filepath.Join(dir, "handlers.gd.godot_mcp_tmp"))
			_ = os.Symlink(outside, filepath.Join(dir, ".handlers.gd.tmp"))
		}, ""},
		{"file link", func(t *testing.T, proj, dir, outside string) {
			stamp(t, dir, map[string]string{})
			_ = os.Symlink(outside, filepath.Join(dir, "handlers.gd"))
		}, "addons/godot_mcp_ext/hello/handlers.gd"},
		{"folder link", func(t *testing.T, proj, dir, outside string) {
			stamp(t, dir, map[string]string{})
			_ = os.Symlink(filepath.Dir(outside), filepath.Join(dir, "lib"))
		}, "addons/godot_mcp_ext/hello/lib"},
		{"addons link", func(t *testing.T, proj, dir, outside string) {
			other := filepath.Join(filepath.Dir(outside), "elsewhere")
			stamp(t, filepath.Join(other, "godot_mcp_ext", "hello"), map[string]string{})
			_ = os.Symlink(other, filepath.Join(proj, "addons"))
		}, "addons"},
		{"stamp link", func(t *testing.T, proj, dir, outside string) {
			_ = os.MkdirAll(dir, 0o755)
			_ = os.Symlink(outside, filepath.Join(dir, ManifestFile))
		}, "addons/godot_mcp_ext/hello/" + ManifestFile},
		{"stamp path out", func(t *testing.T, proj, dir, outside string) {
			rel, _ := filepath.Rel(dir, outside)
			stamp(t, dir, map[string]string{filepath.ToSlash(rel): sum([]byte(content))})
		}, ""},
		{"stamp path absolute", func(t *testing.T, proj, dir, outside string) {
			stamp(t, dir, map[string]string{outside: sum([]byte(content))})
		}, ""},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			proj := project(t)
			outside := filepath.Join(t.TempDir(), "bashrc")
			if err := os.WriteFile(outside, []byte(content), 0o644); err != nil {
				t.Fatal(err)
			}
			dir := EditorCodeDir(proj, "hello")
			tc.plant(t, proj, dir, outside)
			check := func(step string) {
				t.Helper()
				if b, err := os.ReadFile(outside); err != nil || string(b) != content {
					t.Fatalf("%s: the file outside is %q (%v)", step, b, err)
				}
				if entries, _ := os.ReadDir(filepath.Dir(outside)); len(entries) > 2 {
					t.Fatalf("%s: written outside: %v", step, entries)
				}
			}
			_, e := InstallEditorCode(proj, "hello", "v1", files("one"))
			check("install")
			if tc.link != "" {
				if e == nil || e.Required != RequireEditorCode || !strings.Contains(e.Hint, filepath.Join(proj, filepath.FromSlash(tc.link))+" is a symbolic link") {
					t.Fatalf("install = %+v", e)
				}
			} else if tc.name != "temp file link" && (e == nil || !strings.Contains(e.Hint, "outside")) {
				t.Fatalf("install = %+v", e)
			}
			_, _ = RemoveEditorCode(proj, "hello")
			check("remove")
		})
	}
}
