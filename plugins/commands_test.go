package plugins_test

import (
	"bytes"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"sort"
	"strings"
	"testing"

	"github.com/godot-mcp/godot-mcp/host/safety"
	"github.com/godot-mcp/godot-mcp/plugins"
	"github.com/godot-mcp/godot-mcp/sdk/sdktest/fakeaddon"
)

// Every editor command a built-in toolset's code names is one the editor
// declares, and is the toolset's own (cmd_<toolset>_*, declared by its
// shipped editor code, or still by the core addon for a toolset that ships
// none) or a public core command: the built-ins obey the rule third-party
// toolsets are held to. (The class of each send is checked at
// run time, in sdktest and in the real host, which also catch a command
// sent through another package's helper.) Helpers under plugins/internal,
// shared by toolsets, may name public core commands only.
func TestBuiltinsSendOnlyTheirOwnCommands(t *testing.T) {
	cmdRE := regexp.MustCompile(`"(cmd_[a-z0-9_]+)"`)
	for _, ts := range plugins.Builtins() {
		name := ts.Name
		table := fakeaddon.AddonCommands()
		if ts.EditorCode != nil {
			own, err := fakeaddon.ParseCommands(ts.EditorCode, name)
			if err != nil {
				t.Fatalf("%s: %v", name, err)
			}
			for c, info := range own {
				if prev, dup := table[c]; dup {
					t.Errorf("%s: %s is declared by its editor code and by the core addon (%s)", name, c, prev.Owner)
				}
				table[c] = info
			}
		}
		files, err := filepath.Glob(filepath.Join(name, "*.go"))
		if err != nil || len(files) == 0 {
			t.Fatalf("%s: no sources (%v)", name, err)
		}
		seen := map[string]bool{}
		for _, f := range files {
			if strings.HasSuffix(f, "_test.go") {
				continue
			}
			src, err := os.ReadFile(f)
			if err != nil {
				t.Fatal(err)
			}
			for _, m := range cmdRE.FindAllStringSubmatch(string(src), -1) {
				seen[m[1]] = true
			}
		}
		var names []string
		for c := range seen {
			names = append(names, c)
		}
		sort.Strings(names)
		for _, c := range names {
			info, ok := table[c]
			switch {
			case !ok:
				t.Errorf("toolset %s names %s, which the addon does not declare", name, c)
			case safety.PublicCoreCommands[c]:
				if info.Owner != "core" || info.Class != "read_only" {
					t.Errorf("public core command %s is declared %+v", c, info)
				}
			case !strings.HasPrefix(c, safety.CommandPrefix(name)) || info.Owner != name:
				t.Errorf("toolset %s names %s (owned by %s): outside its namespace", name, c, info.Owner)
			}
		}
	}
}

func TestSharedHelpersSendOnlyPublicCommands(t *testing.T) {
	cmdRE := regexp.MustCompile(`"(cmd_[a-z0-9_]+)"`)
	err := filepath.WalkDir("internal", func(p string, d os.DirEntry, err error) error {
		if err != nil || d.IsDir() || !strings.HasSuffix(p, ".go") || strings.HasSuffix(p, "_test.go") {
			return err
		}
		src, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		for _, m := range cmdRE.FindAllStringSubmatch(string(src), -1) {
			if !safety.PublicCoreCommands[m[1]] {
				t.Errorf("%s names %s: a helper shared by toolsets may send public core commands only", p, m[1])
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
}

// A built-in toolset's editor code is its own, shipped the way a third
// party's is: a handlers.gd index at the root of its EditorCode declaring
// only cmd_<toolset>_* commands, none of them also in the core addon.
func TestBuiltinsShipTheirEditorCode(t *testing.T) {
	core := fakeaddon.AddonCommands()
	for _, ts := range plugins.Builtins() {
		if ts.EditorCode == nil {
			continue // a Go-only toolset
		}
		own, err := fakeaddon.ParseCommands(ts.EditorCode, ts.Name)
		if err != nil {
			t.Fatalf("%s: %v", ts.Name, err)
		}
		if len(own) == 0 {
			t.Errorf("%s: its editor code declares no command", ts.Name)
		}
		for c := range own {
			if !strings.HasPrefix(c, safety.CommandPrefix(ts.Name)) {
				t.Errorf("%s: its editor code declares %s, outside its namespace", ts.Name, c)
			}
			if info, dup := core[c]; dup {
				t.Errorf("%s: %s is also declared by the core addon (owner %s)", ts.Name, c, info.Owner)
			}
		}
		if _, err := fs.Stat(ts.EditorCode, "handlers.gd"); err != nil {
			t.Errorf("%s: no handlers.gd at the root of its editor code: %v", ts.Name, err)
		}
	}
	for _, name := range []string{"scene", "scripts", "resources", "project", "runtime"} {
		ts, _ := plugins.Lookup(name)
		if ts.EditorCode == nil {
			t.Errorf("%s ships no editor code", name)
		}
		for c, info := range core {
			if info.Owner == name || strings.HasPrefix(c, safety.CommandPrefix(name)) {
				t.Errorf("the core addon still declares %s (owner %s)", c, info.Owner)
			}
		}
	}
}

// No GDScript file of the addon or of a toolset's editor code comes near
// 1,000 lines (docs/addon.md: split by command family well before).
func TestGDScriptFilesStaySmall(t *testing.T) {
	const limit = 1000
	n := 0
	eachGDScript(t, []string{"../addon", ".", "../examples"}, func(_, p string, b []byte) {
		n++
		if lines := bytes.Count(b, []byte("\n")); lines >= limit {
			t.Errorf("%s has %d lines; split it by command family (at most %d)", p, lines, limit-1)
		}
	})
	if n < 10 {
		t.Fatalf("only %d .gd files found", n)
	}
}

// Engine differences are told apart in addon/lib/compat.gd only
// (docs/godot-versions.md): no other GDScript file reads the engine's
// version numbers or calls an API whose answer differs between engines
// where compat.gd has the one right answer.
func TestEngineDifferencesOnlyInCompat(t *testing.T) {
	banned := map[string]string{
		"EditorInterface.get_open_scenes()": "Compat.open_scenes() (4.8 does not update it after save_scene_as)",
		`get_version_info()["minor"]`:       "Compat.has(feature) or Compat.at_least(version)",
		`get_version_info().get("minor"`:    "Compat.has(feature) or Compat.at_least(version)",
		`get_version_info()["major"]`:       "Compat.has(feature) or Compat.at_least(version)",
		`get_version_info().get("major"`:    "Compat.has(feature) or Compat.at_least(version)",
	}
	eachGDScript(t, []string{"../addon", ".", "../examples"}, func(_, p string, b []byte) {
		if strings.HasSuffix(filepath.ToSlash(p), "addon/lib/compat.gd") {
			return
		}
		for s, use := range banned {
			if bytes.Contains(b, []byte(s)) {
				t.Errorf("%s uses %s: use %s", p, s, use)
			}
		}
	})
}

// Extension code (the toolsets' editor code and the examples) preloads only
// the core addon's documented GDScript API (addon/lib/README.md), and every
// file of that API exists and is documented for authors. The runtime halves
// still in the core addon are reached by the built-in toolsets that own
// them, until they ship them themselves (#25 item 5).
func TestExtensionsPreloadOnlyTheAPI(t *testing.T) {
	index, err := os.ReadFile("../addon/lib/README.md")
	if err != nil {
		t.Fatal(err)
	}
	api := map[string]bool{}
	for _, m := range regexp.MustCompile("(?m)^- `(res://addons/godot_mcp/[^`]+)`$").FindAllSubmatch(index, -1) {
		api[string(m[1])] = true
	}
	if len(api) < 10 {
		t.Fatalf("addon/lib/README.md lists %d scripts; expected the API list", len(api))
	}
	guide, err := os.ReadFile("../docs/plugin-authoring.md")
	if err != nil {
		t.Fatal(err)
	}
	for p := range api {
		if _, err := os.Stat(filepath.Join("../addon", strings.TrimPrefix(p, "res://addons/godot_mcp/"))); err != nil {
			t.Errorf("addon/lib/README.md lists %s, which the addon does not have", p)
		}
		if !bytes.Contains(guide, []byte(strings.TrimPrefix(p, "res://addons/godot_mcp/"))) {
			t.Errorf("%s is API but docs/plugin-authoring.md does not describe it", p)
		}
	}
	owners := map[string][]string{ // runtime halves still in the core (#25 item 5)
		"res://addons/godot_mcp/runtime/debugger_plugin.gd": {"runtime", "debugger", "playtest", "navigation"},
		"res://addons/godot_mcp/runtime/probe.gd":           {"runtime", "playtest"},
		"res://addons/godot_mcp/runtime/playtest.gd":        {"playtest"},
		"res://addons/godot_mcp/runtime/playtest_record.gd": {"playtest"},
	}
	ref := regexp.MustCompile(`\b(?:pre)?load\("(res://addons/godot_mcp/[^"]+)"\)`)
	n := 0
	eachGDScript(t, []string{".", "../examples"}, func(root, p string, b []byte) {
		toolset := strings.SplitN(filepath.ToSlash(p), "/", 2)[0]
		for _, m := range ref.FindAllSubmatch(b, -1) {
			n++
			target := string(m[1])
			if api[target] || (root == "." && slices.Contains(owners[target], toolset)) {
				continue
			}
			t.Errorf("%s loads %s, which is not the core addon's API (addon/lib/README.md)", p, target)
		}
	})
	if n < 20 {
		t.Fatalf("only %d loads of the core addon found in extension code", n)
	}
}

// Godot's debugger panels (ScriptEditorDebugger, not public API) are hooked
// in one place, the core's lib/debugger_feed.gd: the runtime and debugger
// toolsets and the error feed subscribe to it (#25 item 5), so two scripts
// never connect to the same signals and an engine change is handled once.
func TestOneHookOfTheDebuggerPanels(t *testing.T) {
	hook := regexp.MustCompile(`"ScriptEditorDebugger"|connect\("(debug_data|stack_frame_selected)"`)
	var hooks []string
	eachGDScript(t, []string{".", "../addon", "../examples"}, func(_, p string, b []byte) {
		if hook.Match(b) {
			hooks = append(hooks, filepath.ToSlash(p))
		}
	})
	if !slices.Equal(hooks, []string{"../addon/lib/debugger_feed.gd"}) {
		t.Errorf("scripts that hook the debugger panels: %q, want only ../addon/lib/debugger_feed.gd", hooks)
	}
}

// eachGDScript calls fn with every .gd file under roots (the root it was
// found under, its path, its source), in walk order.
func eachGDScript(t *testing.T, roots []string, fn func(root, path string, src []byte)) {
	t.Helper()
	for _, root := range roots {
		err := filepath.WalkDir(root, func(p string, d os.DirEntry, err error) error {
			if err != nil || d.IsDir() || !strings.HasSuffix(p, ".gd") {
				return err
			}
			b, err := os.ReadFile(p)
			if err != nil {
				return err
			}
			fn(root, p, b)
			return nil
		})
		if err != nil {
			t.Fatal(err)
		}
	}
}
