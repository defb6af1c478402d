package nolinks

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// outside is a file outside the directory that links point at; it must
// never change.
func setup(t *testing.T) (dir, outside string, d *Dir) {
	t.Helper()
	base := t.TempDir()
	dir = filepath.Join(base, "project")
	os.Mkdir(dir, 0o755)
	outside = filepath.Join(base, "bashrc")
	os.WriteFile(outside, []byte("original\n"), 0o644)
	d, err := Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { d.Close() })
	return dir, outside, d
}

func unchanged(t *testing.T, outside string) {
	t.Helper()
	if b, _ := os.ReadFile(outside); string(b) != "original\n" {
		t.Fatalf("the file outside was changed: %q", b)
	}
}

func TestLinksAreRefused(t *testing.T) {
	for _, tc := range []struct{ name, link, rel string }{
		{"file", "a.json", "a.json"},
		{"dangling file", "new.json", "new.json"},
		{"directory", "sub", "sub/a.json"},
		{"deep directory", "x/sub", "x/sub/a.json"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			dir, outside, d := setup(t)
			target := outside
			if strings.HasPrefix(tc.rel, filepath.ToSlash(tc.link)+"/") {
				target = filepath.Dir(outside)
			}
			if tc.name == "dangling file" {
				target = filepath.Join(filepath.Dir(outside), "missing")
			}
			os.MkdirAll(filepath.Dir(filepath.Join(dir, tc.link)), 0o755)
			if err := os.Symlink(target, filepath.Join(dir, tc.link)); err != nil {
				t.Fatal(err)
			}
			err := d.WriteFile(tc.rel, []byte("planted\n"), 0o644)
			var le *LinkError
			if !errors.As(err, &le) || le.Path != filepath.Join(dir, tc.link) || le.Target != target {
				t.Fatalf("write: %v", err)
			}
			if !strings.Contains(err.Error(), filepath.Join(dir, tc.link)) {
				t.Fatalf("the error does not name the link: %v", err)
			}
			if _, err := d.ReadFile(tc.rel); !IsLink(err) {
				t.Fatalf("read: %v", err)
			}
			if err := d.Remove(tc.rel); !IsLink(err) {
				t.Fatalf("remove: %v", err)
			}
			unchanged(t, outside)
			if _, err := os.Stat(filepath.Join(filepath.Dir(outside), "missing")); err == nil {
				t.Fatal("a file was created through a dangling link")
			}
			if _, err := os.Lstat(filepath.Join(dir, tc.link)); err != nil {
				t.Fatalf("the link itself was removed: %v", err)
			}
		})
	}
}

func TestPathsStayInside(t *testing.T) {
	dir, outside, d := setup(t)
	for _, rel := range []string{"../bashrc", "a/../../bashrc", outside, "", ".", "a//b"} {
		if err := d.WriteFile(rel, []byte("x"), 0o644); !errors.Is(err, ErrNotLocal) {
			t.Errorf("write %q: %v", rel, err)
		}
		if err := d.Remove(rel); !errors.Is(err, ErrNotLocal) {
			t.Errorf("remove %q: %v", rel, err)
		}
	}
	unchanged(t, outside)
	if entries, _ := os.ReadDir(dir); len(entries) != 0 {
		t.Fatalf("written: %v", entries)
	}
}

func TestWriteReplacesAtomicallyWithMode(t *testing.T) {
	dir, _, d := setup(t)
	if err := d.WriteFile("a/b/c.json", []byte("one"), 0o600); err != nil {
		t.Fatal(err)
	}
	if err := d.WriteFile("a/b/c.json", []byte("two"), 0o640); err != nil {
		t.Fatal(err)
	}
	p := filepath.Join(dir, "a", "b", "c.json")
	st, err := os.Lstat(p)
	if err != nil || !st.Mode().IsRegular() || st.Mode().Perm() != 0o640 {
		t.Fatalf("%v %v", st, err)
	}
	if b, _ := d.ReadFile("a/b/c.json"); string(b) != "two" {
		t.Fatalf("content %q", b)
	}
	if entries, _ := os.ReadDir(filepath.Dir(p)); len(entries) != 1 {
		t.Fatalf("temporary files left: %v", entries)
	}
	if err := d.Remove("a/b/c.json"); err != nil {
		t.Fatal(err)
	}
	if err := d.Remove("a/b/c.json"); err != nil {
		t.Fatalf("removing a missing file: %v", err)
	}
}

// The directory itself may be reached through a link: the user chose it.
func TestTheDirectoryItselfMayBeALink(t *testing.T) {
	dir, _, _ := setup(t)
	link := filepath.Join(t.TempDir(), "link")
	os.Symlink(dir, link)
	d, err := Open(link)
	if err != nil {
		t.Fatal(err)
	}
	defer d.Close()
	if err := d.WriteFile("f", []byte("x"), 0o644); err != nil {
		t.Fatal(err)
	}
	if b, _ := os.ReadFile(filepath.Join(dir, "f")); string(b) != "x" {
		t.Fatalf("%q", b)
	}
}

func TestRenameRefusesLinks(t *testing.T) {
	dir, outside, d := setup(t)
	os.WriteFile(filepath.Join(dir, "a.pck"), []byte("new"), 0o644)
	os.Symlink(filepath.Dir(outside), filepath.Join(dir, "out"))
	if err := d.Rename("a.pck", "out/bashrc"); !IsLink(err) {
		t.Fatalf("rename into a linked directory: %v", err)
	}
	os.Symlink(outside, filepath.Join(dir, "b.pck"))
	if err := d.Rename("a.pck", "b.pck"); !IsLink(err) {
		t.Fatalf("rename over a link: %v", err)
	}
	unchanged(t, outside)
	os.Mkdir(filepath.Join(dir, "build"), 0o755)
	if err := d.Rename("a.pck", "build/a.pck"); err != nil {
		t.Fatal(err)
	}
	if b, _ := os.ReadFile(filepath.Join(dir, "build", "a.pck")); string(b) != "new" {
		t.Fatalf("moved file reads %q", b)
	}
}
