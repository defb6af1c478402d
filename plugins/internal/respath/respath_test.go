package respath

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/godot-mcp/godot-mcp/sdk"
)

func TestClean(t *testing.T) {
	ok := map[string]string{
		"res://a.gd":         "res://a.gd",
		"res://dir/./b.gd":   "res://dir/b.gd",
		"res://dir//c.gd":    "res://dir/c.gd",
		"res://":             "res://",
		"res://x/y/z.tscn":   "res://x/y/z.tscn",
		"res://name..gd":     "res://name..gd",
		"res://.godot/x.cfg": "res://.godot/x.cfg",
	}
	for in, want := range ok {
		got, err := Clean(in)
		if err != nil || got != want {
			t.Errorf("Clean(%q) = %q, %v; want %q", in, got, err, want)
		}
	}
	for _, bad := range []string{"/etc/passwd", "res://../secret", "res://a/../../b", "user://x", "C:\\x", "res://a\\..\\b", "res:///etc/passwd", "a.gd", ""} {
		_, err := Clean(bad)
		var e *sdk.Error
		if !errors.As(err, &e) || e.Code != sdk.CodeValidationError {
			t.Errorf("Clean(%q) = %v; want VALIDATION_ERROR", bad, err)
		}
	}
}

// Inside follows links for real: relative, absolute and chained links that
// leave the project are refused; one that stays inside is fine.
func TestInside(t *testing.T) {
	base := t.TempDir()
	dir := filepath.Join(base, "project")
	outside := filepath.Join(base, "outside")
	for _, d := range []string{filepath.Join(dir, "sub", "deep"), filepath.Join(dir, "c"), outside} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	for _, f := range []string{filepath.Join(dir, "sub", "in.tscn"), filepath.Join(outside, "out.tscn")} {
		if err := os.WriteFile(f, []byte("x"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	links := map[string]string{
		"rel":            "../outside",
		"abs":            outside,
		"chain1":         "chain2",
		"chain2":         "../outside",
		"alias":          "sub",
		"sub/deep/up":    "../../c",
		"c/esc":          "../../outside",
		"filelink.tscn":  filepath.Join(outside, "out.tscn"),
		"aliasfile.tscn": "sub/in.tscn",
		"loop1":          "loop2",
		"loop2":          "loop1",
	}
	for l, target := range links {
		if err := os.Symlink(target, filepath.Join(dir, filepath.FromSlash(l))); err != nil {
			t.Skipf("symlinks unavailable: %v", err)
		}
	}
	for bad, link := range map[string]string{
		"rel/out.tscn": "res://rel (", "abs/out.tscn": "res://abs (", "chain1/out.tscn": "res://chain1 (",
		"sub/deep/up/esc/out.tscn": "res://sub/deep/up/esc (", "filelink.tscn": "res://filelink.tscn (",
	} {
		err := Inside(dir, filepath.Join(dir, filepath.FromSlash(bad)), "res://"+bad)
		if e := sdk.AsError(err); err == nil || e.Code != sdk.CodeValidationError || !strings.Contains(e.Hint, "symbolic link "+link) {
			t.Errorf("Inside(%s) = %v, want VALIDATION_ERROR naming the symbolic link %s", bad, err, link)
		}
	}
	if err := Inside(dir, filepath.Join(dir, "loop1", "x.tscn"), "res://loop1/x.tscn"); sdk.AsError(err) == nil || sdk.AsError(err).Code != sdk.CodeValidationError {
		t.Errorf("a loop of links: %v, want VALIDATION_ERROR", err)
	}
	if err := Inside(dir, filepath.Join(dir, "sub", "missing.tscn"), "res://sub/missing.tscn"); err != nil {
		t.Errorf("a missing file: %v, want nil (the caller reports it)", err)
	}
	for _, good := range []string{"sub/in.tscn", "alias/in.tscn", "aliasfile.tscn"} {
		if err := Inside(dir, filepath.Join(dir, filepath.FromSlash(good)), "res://"+good); err != nil {
			t.Errorf("Inside(%s) = %v, want nil", good, err)
		}
	}
}
