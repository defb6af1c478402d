package plugins_test

import (
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
	"testing"

	"github.com/godot-mcp/godot-mcp/host/safety"
	"github.com/godot-mcp/godot-mcp/plugins"
	"github.com/godot-mcp/godot-mcp/sdk/sdktest/fakeaddon"
)

// Every editor command a built-in toolset's code names is one the addon
// declares, and is the toolset's own (cmd_<toolset>_*, owned by it in the
// addon's table) or a public core command: the built-ins obey the rule
// third-party toolsets are held to. (The class of each send is checked at
// run time, in sdktest and in the real host, which also catch a command
// sent through another package's helper.) Helpers under plugins/internal,
// shared by toolsets, may name public core commands only.
func TestBuiltinsSendOnlyTheirOwnCommands(t *testing.T) {
	table := fakeaddon.AddonCommands()
	// A toolset's own commands are declared by the editor code it ships.
	for _, ts := range plugins.Builtins() {
		if ts.EditorCode == nil {
			continue
		}
		own, err := fakeaddon.ParseCommands(ts.EditorCode, ts.Name)
		if err != nil {
			t.Fatalf("%s: %v", ts.Name, err)
		}
		for c, info := range own {
			table[c] = info
		}
	}
	cmdRE := regexp.MustCompile(`"(cmd_[a-z0-9_]+)"`)
	for _, name := range plugins.Names() {
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
