package sdk

import (
	"context"
	"strings"
	"testing"
	"testing/fstest"
)

func editorToolset(code fstest.MapFS) Toolset {
	return Toolset{Name: "hello", Tools: []Tool{
		NewTool("hi", ToolOptions{Safety: ReadOnly}, func(context.Context, *Call, struct{}) (struct{}, error) { return struct{}{}, nil }),
	}, EditorCode: code}
}

func TestEditorCodeTravelsInDescribe(t *testing.T) {
	code := fstest.MapFS{
		"handlers.gd":     {Data: []byte("@tool\nextends RefCounted\n")},
		"lib/helper.gd":   {Data: []byte("@tool\n")},
		"lib/icons/a.svg": {Data: []byte("<svg/>")},
	}
	r, err := newRegistry(editorToolset(code))
	if err != nil {
		t.Fatal(err)
	}
	d := r.describe()
	var paths []string
	for _, f := range d.EditorFiles {
		paths = append(paths, f.Path)
	}
	if got := strings.Join(paths, ","); got != "handlers.gd,lib/helper.gd,lib/icons/a.svg" {
		t.Fatalf("editor files = %s", got)
	}
	if string(d.EditorFiles[0].Content) != "@tool\nextends RefCounted\n" || len(d.EditorVersion) != 16 {
		t.Fatalf("content/version wrong: %q %q", d.EditorFiles[0].Content, d.EditorVersion)
	}
	v1 := d.EditorVersion
	code["handlers.gd"] = &fstest.MapFile{Data: []byte("@tool\nextends RefCounted\n# v2\n")}
	r2, err := newRegistry(editorToolset(code))
	if err != nil {
		t.Fatal(err)
	}
	if v2 := r2.describe().EditorVersion; v2 == v1 {
		t.Fatalf("a changed file kept the version %s", v1)
	}
	plain := editorToolset(nil)
	plain.EditorCode = nil
	r3, err := newRegistry(plain)
	if err != nil {
		t.Fatal(err)
	}
	if d := r3.describe(); len(d.EditorFiles) != 0 || d.EditorVersion != "" {
		t.Fatalf("a toolset without editor code describes files: %v", d)
	}
}

func TestEditorCodeRefused(t *testing.T) {
	for name, tc := range map[string]struct {
		code fstest.MapFS
		want string
	}{
		"no handlers": {fstest.MapFS{"editor/handlers.gd": {Data: []byte("x")}}, "no handlers.gd at its root"},
		"binary":      {fstest.MapFS{"handlers.gd": {Data: []byte("x")}, "evil.so": {Data: []byte("x")}}, "evil.so: only"},
	} {
		if _, err := newRegistry(editorToolset(tc.code)); err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: err = %v, want %q", name, err, tc.want)
		}
	}
}

// Game code travels with the editor code under game/, in the same version
// stamp; a toolset may ship game code alone.
func TestGameCodeTravelsUnderGame(t *testing.T) {
	ts := editorToolset(fstest.MapFS{"handlers.gd": {Data: []byte("@tool\n")}})
	ts.GameCode = fstest.MapFS{"game.gd": {Data: []byte("extends RefCounted\n")}, "lib/util.gd": {Data: []byte("extends RefCounted\n")}}
	r, err := newRegistry(ts)
	if err != nil {
		t.Fatal(err)
	}
	d := r.describe()
	var paths []string
	for _, f := range d.EditorFiles {
		paths = append(paths, f.Path)
	}
	if got := strings.Join(paths, ","); got != "game/game.gd,game/lib/util.gd,handlers.gd" {
		t.Fatalf("files = %s", got)
	}
	v1 := d.EditorVersion
	ts.GameCode = fstest.MapFS{"game.gd": {Data: []byte("extends RefCounted\n# v2\n")}, "lib/util.gd": {Data: []byte("extends RefCounted\n")}}
	r2, err := newRegistry(ts)
	if err != nil {
		t.Fatal(err)
	}
	if r2.describe().EditorVersion == v1 {
		t.Fatal("a changed game file kept the version")
	}
	only := editorToolset(nil)
	only.EditorCode = nil
	only.GameCode = fstest.MapFS{"game.gd": {Data: []byte("extends RefCounted\n")}}
	r3, err := newRegistry(only)
	if err != nil {
		t.Fatal(err)
	}
	if d := r3.describe(); len(d.EditorFiles) != 1 || d.EditorFiles[0].Path != "game/game.gd" || d.EditorVersion == "" {
		t.Fatalf("game code alone = %+v", d.EditorFiles)
	}
}

func TestGameCodeRefused(t *testing.T) {
	handlers := fstest.MapFS{"handlers.gd": {Data: []byte("@tool\n")}}
	for name, tc := range map[string]struct {
		name   string
		editor fstest.MapFS
		game   fstest.MapFS
		want   string
	}{
		"no game.gd":             {"hello", handlers, fstest.MapFS{"game/game.gd": {Data: []byte("x")}}, "GameCode has no game.gd at its root"},
		"editor code in game/":   {"hello", fstest.MapFS{"handlers.gd": {Data: []byte("x")}, "game/x.gd": {Data: []byte("x")}}, fstest.MapFS{"game.gd": {Data: []byte("x")}}, "EditorCode has game/x.gd"},
		"binary game file":       {"hello", nil, fstest.MapFS{"game.gd": {Data: []byte("x")}, "lib.so": {Data: []byte("x")}}, "lib.so: only"},
		"the probe's own prefix": {"godot_mcp", nil, fstest.MapFS{"game.gd": {Data: []byte("x")}}, "the runtime probe's own message prefix"},
	} {
		ts := editorToolset(tc.editor)
		ts.Name = tc.name
		if tc.editor == nil {
			ts.EditorCode = nil
		}
		ts.GameCode = tc.game
		if _, err := newRegistry(ts); err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: err = %v, want %q", name, err, tc.want)
		}
	}
}
