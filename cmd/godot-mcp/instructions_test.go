package main

import (
	"encoding/json"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/godot-mcp/godot-mcp/host/mcpserver"
	"github.com/godot-mcp/godot-mcp/plugins"
	"github.com/godot-mcp/godot-mcp/sdk"
)

// The instructions a client reads at initialize name every toolset, the
// built-in ones from their declarations and an installed third-party one
// from its plugin, with their search words, and stay within the budget.
// Claude Code keeps only their first 2,048 characters: every toolset is
// named there, with its first search word, and so is how to enable them.
func TestInstructionsNameEveryToolset(t *testing.T) {
	dir := t.TempDir()
	build := exec.Command("go", "build", "-o", filepath.Join(dir, "hello"), ".")
	build.Dir = filepath.Join("..", "..", "examples", "toolset-hello")
	if out, err := build.CombinedOutput(); err != nil {
		t.Fatalf("building the example toolset: %v\n%s", err, out)
	}
	p := startBinary(t, "GODOT_MCP_PLUGIN_DIR="+dir)
	raw, _ := p.Request("initialize", map[string]any{
		"protocolVersion": "2025-11-25", "capabilities": map[string]any{},
		"clientInfo": map[string]any{"name": "claude-code", "version": "2.0.0"},
	})
	var init struct {
		Instructions string `json:"instructions"`
	}
	if err := json.Unmarshal(raw, &init); err != nil {
		t.Fatal(err)
	}
	text := init.Instructions
	if len(text) > mcpserver.InstructionsBudget {
		t.Errorf("instructions are %d bytes, budget %d", len(text), mcpserver.InstructionsBudget)
	}
	t.Logf("instructions: %d bytes", len(text))
	head, detail, ok := strings.Cut(text, "\nToolsets in detail")
	if !ok || len(head) > mcpserver.InstructionsHeadBudget || !strings.Contains(head, `godot_enable_toolset {"names": ["scene", "scripts"]}`) {
		t.Fatalf("the first part (what Claude Code keeps, %d bytes) is over %d bytes or does not say how to enable toolsets:\n%s", len(head), mcpserver.InstructionsHeadBudget, head)
	}
	for _, ts := range append(plugins.Builtins(), sdk.Toolset{Name: "hello", Keywords: []string{"greeting"}}) {
		if l := lineStarting(head, "- "+ts.Name+": "); len(ts.Keywords) == 0 || !strings.HasPrefix(l, "- "+ts.Name+": "+ts.Keywords[0]) {
			t.Errorf("the first %d bytes do not name %s with its first search word: %q", mcpserver.InstructionsHeadBudget, ts.Name, l)
		}
	}
	for _, ts := range plugins.Builtins() {
		line := lineStarting(detail, "- "+ts.Name+": ")
		if line == "" {
			t.Errorf("toolset %s is not listed:\n%s", ts.Name, text)
			continue
		}
		if len(ts.Keywords) == 0 {
			t.Errorf("built-in toolset %s declares no Keywords", ts.Name)
		}
		for _, k := range ts.Keywords {
			if !strings.Contains(line, k) {
				t.Errorf("%s's line lacks its keyword %q: %s", ts.Name, k, line)
			}
		}
	}
	if line := lineStarting(detail, "- hello: "); !strings.Contains(line, "greets the open project") || !strings.Contains(line, "greeting, example toolset") {
		t.Errorf("the third-party toolset's line: %q\n%s", line, text)
	}
	for _, want := range []string{`{"names": ["scene", "scripts"]}`, "godot://docs/<toolset>", "godot://tool/{name}", "PRECONDITION_FAILED"} {
		if !strings.Contains(text, want) {
			t.Errorf("instructions lack %q", want)
		}
	}
	p.AssertOnlyJSONRPC()
}

func lineStarting(text, prefix string) string {
	for _, l := range strings.Split(text, "\n") {
		if strings.HasPrefix(l, prefix) {
			return l
		}
	}
	return ""
}
