package godotengines

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// fake is a script that answers --version like a Godot binary.
func fake(t *testing.T, dir, version string) string {
	t.Helper()
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	p := filepath.Join(dir, "godot")
	if err := os.WriteFile(p, []byte("#!/bin/sh\necho "+version+"\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	return p
}

func TestFindOrderAndSkips(t *testing.T) {
	tmp := t.TempDir()
	a := fake(t, filepath.Join(tmp, "a"), "4.4.1.stable.custom_build.839e971")
	b := fake(t, filepath.Join(tmp, "b"), "4.8.dev.custom_build.171f543")
	three := fake(t, filepath.Join(tmp, "c"), "3.5.stable")
	t.Setenv("PATH", "/usr/bin:/bin")

	// GODOT_BINS wins, keeps its order, names each engine once and says why
	// one cannot be used.
	t.Setenv("GODOT_BINS", strings.Join([]string{b, a, b, three, filepath.Join(tmp, "nope")}, string(os.PathListSeparator)))
	t.Setenv("GODOT_BIN", a)
	all := Find()
	if len(all) != 4 || all[0].Path != b || all[1].Path != a || all[0].Label() != "4.8.dev" || all[1].Label() != "4.4.1.stable" {
		t.Fatalf("GODOT_BINS: %+v", all)
	}
	if !strings.Contains(all[2].Skip, "is Godot 3.5.stable") || !strings.Contains(all[3].Skip, "not an executable") {
		t.Fatalf("skips: %+v", all[2:])
	}
	if ok, why := Usable(all); len(ok) != 2 || why != "" {
		t.Fatalf("usable: %+v %q", ok, why)
	}

	// Else the engine cache, in name order.
	t.Setenv("GODOT_BINS", "")
	t.Setenv("GODOT_BIN", "")
	cache := filepath.Join(tmp, "cache")
	fake(t, filepath.Join(cache, "4.8-dev"), "4.8.dev.custom_build.171f543")
	fake(t, filepath.Join(cache, "4.4.1"), "4.4.1.stable")
	t.Setenv("GODOT_MCP_ENGINES_DIR", cache)
	all = Find()
	if len(all) != 2 || all[0].Label() != "4.4.1.stable" || all[1].Label() != "4.8.dev" || !strings.HasPrefix(all[0].From, "cache") {
		t.Fatalf("cache: %+v", all)
	}

	// Nothing: a sentence saying where engines are looked for.
	t.Setenv("GODOT_MCP_ENGINES_DIR", filepath.Join(tmp, "empty"))
	if ok, why := Usable(Find()); len(ok) != 0 || !strings.Contains(why, "no Godot 4 binary found") || !strings.Contains(why, "GODOT_BINS") {
		t.Fatalf("none: %+v %q", ok, why)
	}
}

func TestFrameworkDir(t *testing.T) {
	t.Setenv("XDG_CACHE_HOME", "/c")
	t.Setenv("GODOT_MCP_TEST_GUT_DIR", "")
	if got := FrameworkDir("GODOT_MCP_TEST_GUT_DIR", "gut"); got != "/c/godot-mcp/frameworks/gut/addons/gut" {
		t.Fatalf("cache default: %s", got)
	}
	t.Setenv("GODOT_MCP_TEST_GUT_DIR", "/mine/addons/gut")
	if got := FrameworkDir("GODOT_MCP_TEST_GUT_DIR", "gut"); got != "/mine/addons/gut" {
		t.Fatalf("env: %s", got)
	}
}
