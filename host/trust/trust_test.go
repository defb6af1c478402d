package trust

import (
	"encoding/json"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
	"time"

	"github.com/godot-mcp/godot-mcp/sdk/contract"
)

func writeExe(t *testing.T, path, content string) {
	t.Helper()
	if err := os.WriteFile(path, []byte(content), 0o755); err != nil {
		t.Fatal(err)
	}
}

// Trust on first use: an enable pins the executable, a describe does not;
// a changed executable is refused until trusted again.
func TestTrustOnFirstUse(t *testing.T) {
	s := &Store{ConfigDir: t.TempDir()}
	exe := filepath.Join(t.TempDir(), "hello")
	writeExe(t, exe, "v1")
	if err := s.Check("hello", exe, false); err != nil {
		t.Fatalf("describe before any pin: %v", err)
	}
	if s.Pinned(exe) != "" {
		t.Fatal("a describe pinned the executable")
	}
	if err := s.Check("hello", exe, true); err != nil {
		t.Fatalf("first enable: %v", err)
	}
	sum, _ := Sum(exe)
	if s.Pinned(exe) != sum || len(sum) != 64 {
		t.Fatalf("pinned %q, file %q", s.Pinned(exe), sum)
	}
	var onDisk file
	raw, err := os.ReadFile(filepath.Join(s.ConfigDir, "godot-mcp", "trusted-plugins.json"))
	if err != nil || json.Unmarshal(raw, &onDisk) != nil || onDisk.Plugins[exe].SHA256 != sum || onDisk.Plugins[exe].Name != "hello" {
		t.Fatalf("trust file: %s %v", raw, err)
	}
	if err := s.Check("hello", exe, true); err != nil {
		t.Fatalf("same executable: %v", err)
	}

	writeExe(t, exe, "v2")
	for _, record := range []bool{false, true} {
		err := s.Check("hello", exe, record)
		if err == nil || err.Code != contract.PreconditionFailed || err.Required != contract.RequirePluginTrusted ||
			!strings.Contains(err.Hint, "godot-mcp toolset trust hello") {
			t.Fatalf("changed executable (record %v): %+v", record, err)
		}
	}
	if _, err := s.Trust("hello", exe); err != nil {
		t.Fatal(err)
	}
	if err := s.Check("hello", exe, true); err != nil {
		t.Fatalf("after trust: %v", err)
	}
}

// The trust file is never written through a link planted in its place.
func TestTrustFileFollowsNoLink(t *testing.T) {
	cfg := t.TempDir()
	elsewhere := filepath.Join(t.TempDir(), "victim")
	writeExe(t, elsewhere, "keep")
	os.MkdirAll(filepath.Join(cfg, "godot-mcp"), 0o700)
	if err := os.Symlink(elsewhere, filepath.Join(cfg, "godot-mcp", "trusted-plugins.json")); err != nil {
		t.Fatal(err)
	}
	s := &Store{ConfigDir: cfg}
	exe := filepath.Join(t.TempDir(), "hello")
	writeExe(t, exe, "v1")
	if _, err := s.Trust("hello", exe); err == nil {
		t.Fatal("trusted through a link")
	}
	if err := s.Check("hello", exe, true); err == nil || err.Code != contract.PreconditionFailed {
		t.Fatalf("check with a linked trust file: %+v", err)
	}
	if raw, _ := os.ReadFile(elsewhere); string(raw) != "keep" {
		t.Fatalf("the link's target was written: %q", raw)
	}
}

// A file rewritten in place with the same size is hashed again (the
// remembered hash is per file version).
func TestRewrittenFileIsHashedAgain(t *testing.T) {
	s := &Store{ConfigDir: t.TempDir()}
	exe := filepath.Join(t.TempDir(), "hello")
	writeExe(t, exe, "v1")
	if err := s.Check("hello", exe, true); err != nil {
		t.Fatal(err)
	}
	f, err := os.OpenFile(exe, os.O_WRONLY, 0)
	if err != nil {
		t.Fatal(err)
	}
	f.WriteString("v2") // same size, same inode
	f.Close()
	if err := s.Check("hello", exe, true); err == nil || err.Required != contract.RequirePluginTrusted {
		t.Fatalf("a file rewritten in place passed: %+v", err)
	}
}

// An old file's hash is remembered; rewriting it in place (same size and
// inode) is still seen.
func TestRememberedHashFollowsTheFile(t *testing.T) {
	s := &Store{ConfigDir: t.TempDir()}
	exe := filepath.Join(t.TempDir(), "hello")
	writeExe(t, exe, "v1")
	old := time.Now().Add(-time.Hour)
	os.Chtimes(exe, old, old)
	time.Sleep(2100 * time.Millisecond) // past the change-time guard
	if err := s.Check("hello", exe, true); err != nil {
		t.Fatal(err)
	}
	if len(s.sums) != 1 && runtime.GOOS == "linux" {
		t.Fatalf("hash not remembered: %v", s.sums)
	}
	f, _ := os.OpenFile(exe, os.O_WRONLY, 0)
	f.WriteString("v2")
	f.Close()
	os.Chtimes(exe, old, old) // mtime put back: the change time still moves
	if err := s.Check("hello", exe, true); err == nil || err.Required != contract.RequirePluginTrusted {
		t.Fatalf("a file rewritten in place with its mtime put back passed: %+v", err)
	}
}
