package main

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/godot-mcp/godot-mcp/host/mcpserver"
	"github.com/godot-mcp/godot-mcp/host/profile"
	"github.com/godot-mcp/godot-mcp/plugins"
)

// profileCounts are each profile's tool count with the core tools, from the
// built-in toolsets' declarations.
func profileCounts(t *testing.T) map[string]int {
	t.Helper()
	tools := map[string]int{}
	all := len(mcpserver.CoreToolNames())
	for _, ts := range plugins.Builtins() {
		tools[ts.Name] = len(ts.Tools)
		all += len(ts.Tools)
	}
	out := map[string]int{}
	for _, p := range profile.Profiles {
		if p.Toolsets == nil {
			out[p.Name] = all
			continue
		}
		n := len(mcpserver.CoreToolNames())
		for _, ts := range p.Toolsets {
			c, ok := tools[ts]
			if !ok {
				t.Fatalf("profile %s names %q, not a built-in toolset (%v)", p.Name, ts, plugins.Names())
			}
			n += c
		}
		out[p.Name] = n
	}
	return out
}

// Every client's profile exists and stays under the client's tool cap.
func TestClientProfilesFitTheirCaps(t *testing.T) {
	counts := profileCounts(t)
	for _, c := range profile.Clients {
		n, ok := counts[c.Profile]
		if !ok {
			t.Errorf("%s: unknown profile %q", c.Name, c.Profile)
			continue
		}
		if c.ToolCap > 0 && n > c.ToolCap {
			t.Errorf("%s takes at most %d tools; its profile %s has %d", c.Name, c.ToolCap, c.Profile, n)
		}
	}
	if !slices.Equal(profile.Names(), []string{"minimal", "2d", "3d", "world3d", "playtest", "all"}) {
		t.Errorf("profiles: %v (docs and tool descriptions name these)", profile.Names())
	}
}

func TestClientsDoc(t *testing.T) {
	path := filepath.Join("..", "..", "docs", "clients.md")
	doc, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	const begin, end = "<!-- profiles:begin (generated from host/profile by `make docs`) -->\n", "<!-- profiles:end -->"
	before, rest, ok1 := strings.Cut(string(doc), begin)
	_, after, ok2 := strings.Cut(rest, end)
	if !ok1 || !ok2 {
		t.Fatalf("docs/clients.md lacks the generated section markers")
	}
	want := before + begin + profile.Markdown(profileCounts(t)) + end + after
	if *update {
		if err := os.WriteFile(path, []byte(want), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	if string(doc) != want {
		t.Fatal("docs/clients.md is stale: run `make docs`")
	}
}
