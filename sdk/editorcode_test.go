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
