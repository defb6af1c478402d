package sdk

import (
	"io/fs"
	"strings"
	"testing"
	"testing/fstest"
)

func TestSubdirRootsTheDirectory(t *testing.T) {
	fsys := fstest.MapFS{"editor/handlers.gd": {Data: []byte("@tool\n")}, "editor/lib/a.gd": {Data: []byte("a")}}
	sub := Subdir(fsys, "editor")
	if b, err := fs.ReadFile(sub, "handlers.gd"); err != nil || string(b) != "@tool\n" {
		t.Fatalf("handlers.gd at the root: %q, %v", b, err)
	}
	if _, err := fs.Stat(sub, "lib/a.gd"); err != nil {
		t.Fatalf("lib/a.gd: %v", err)
	}
}

func TestSubdirPanicsOnABadDirectory(t *testing.T) {
	fsys := fstest.MapFS{"editor/handlers.gd": {Data: []byte("@tool\n")}}
	for _, dir := range []string{"editr", "editor/handlers.gd", "../editor", ""} {
		func() {
			defer func() {
				p := recover()
				if p == nil {
					t.Errorf("Subdir(%q) did not panic", dir)
					return
				}
				if !strings.Contains(p.(string), "sdk.Subdir(") {
					t.Errorf("Subdir(%q) panicked with %v, want a message naming sdk.Subdir", dir, p)
				}
			}()
			Subdir(fsys, dir)
		}()
	}
}
