//go:build unix

package godotexe

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestCheck(t *testing.T) {
	dir := t.TempDir()
	write := func(name string, mode os.FileMode) string {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, []byte("#!/bin/sh\n"), 0o600); err != nil {
			t.Fatal(err)
		}
		if err := os.Chmod(p, mode); err != nil {
			t.Fatal(err)
		}
		return p
	}
	good := write("Godot_v4.4-stable_linux.x86_64", 0o755)
	if got, err := Check(good); err != nil || got != good {
		t.Errorf("a Godot executable of the user: %q, %v", got, err)
	}
	link := filepath.Join(dir, "godot-link")
	if err := os.Symlink(good, link); err != nil {
		t.Fatal(err)
	}
	if got, err := Check(link); err != nil || got != good {
		t.Errorf("a link to it: %q, %v (want the file it names)", got, err)
	}
	for _, c := range []struct{ path, want string }{
		{"", "did not report"},
		{"godot", "not an absolute path"},
		{filepath.Join(dir, "missing-godot"), "not on this machine"},
		{dir, "not a regular file"},
		{write("sh", 0o755), "not named like Godot"},
		{write("godot-noexec", 0o644), "not executable"},
		{write("godot-shared", 0o777), "writable by other users"},
		{write("godot-group", 0o775), "writable by other users"},
	} {
		if got, err := Check(c.path); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("Check(%q) = %q, %v; want an error saying %q", c.path, got, err, c.want)
		}
	}
	// A link named godot to a program named otherwise is judged by the program.
	sh := filepath.Join(dir, "godot")
	if err := os.Symlink(filepath.Join(dir, "sh"), sh); err != nil {
		t.Fatal(err)
	}
	if _, err := Check(sh); err == nil || !strings.Contains(err.Error(), "not named like Godot") {
		t.Errorf("a godot link to sh: %v", err)
	}
}
