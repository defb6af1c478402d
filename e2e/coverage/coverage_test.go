// Package coverage holds the meta-test of the real-editor e2e suite: every
// tool the server ships has an e2e test. It runs without Godot (the suite
// itself skips without one), so a tool added without an e2e test fails
// every run.
package coverage

import (
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
	"testing"
)

// toolRE is a tool's heading in docs/tool-contracts.md, which
// TestToolContractsDoc keeps equal to what the server registers.
var toolRE = regexp.MustCompile(`(?m)^### (godot_[a-z0-9_]+)`)

// toolsets are the prefixes e2e tests build names from (ps+"set_action").
var toolsets = []string{"project", "resources", "scripts", "scene", "runtime", "tests", "diagnostics",
	"animation", "tilemap", "debugger", "shader", "ui", "audio", "physics", "playtest", "particles", "world", "assets", "navigation", "material", "visual_shader"}

func TestEveryToolHasAnE2ETest(t *testing.T) {
	doc, err := os.ReadFile(filepath.Join("..", "..", "docs", "tool-contracts.md"))
	if err != nil {
		t.Fatal(err)
	}
	tools := toolRE.FindAllStringSubmatch(string(doc), -1)
	if len(tools) < 100 {
		t.Fatalf("read %d tools from docs/tool-contracts.md; the heading format changed?", len(tools))
	}
	files, err := filepath.Glob(filepath.Join("..", "*_test.go"))
	if err != nil || len(files) == 0 {
		t.Fatalf("no e2e test files (%v)", err)
	}
	var src strings.Builder
	for _, f := range files {
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		src.Write(b)
	}
	all := src.String()
	var missing []string
	for _, m := range tools {
		if !called(all, m[1]) {
			missing = append(missing, m[1])
		}
	}
	sort.Strings(missing)
	if len(missing) > 0 {
		t.Errorf("%d tool(s) have no real-editor e2e test (no call by name in e2e/*_test.go): %s", len(missing), strings.Join(missing, ", "))
	}
}

// called says whether the e2e sources call the tool: by its full name, or
// as a toolset prefix plus its short name.
func called(src, tool string) bool {
	if strings.Contains(src, `"`+tool+`"`) {
		return true
	}
	for _, ts := range toolsets {
		if short, ok := strings.CutPrefix(tool, "godot_"+ts+"_"); ok {
			if regexp.MustCompile(`\+\s*"` + regexp.QuoteMeta(short) + `"`).MatchString(src) {
				return true
			}
		}
	}
	return false
}

// TestCalledFindsBothForms: the meta-test is not vacuous.
func TestCalledFindsBothForms(t *testing.T) {
	src := `h.mustCall(t, "godot_scene_add", nil)` + "\n" + `s.host.mustCall(t, ps+"set_action", nil)`
	if !called(src, "godot_scene_add") || !called(src, "godot_project_set_action") {
		t.Error("a call by full name or by prefix was not found")
	}
	if called(src, "godot_scene_delete") || called(src, "godot_project_remove_action") {
		t.Error("a tool not called was found")
	}
}
