package main

import (
	"context"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"testing"

	"github.com/godot-mcp/godot-mcp/host/mcpserver"
	"github.com/godot-mcp/godot-mcp/host/profile"
)

var (
	// A tool name, not a path segment (res://addons/godot_mcp_ext/).
	toolNameRE = regexp.MustCompile(`(?:^|[^a-z0-9_/])(godot_[a-z0-9_]*[a-z0-9])`)
	profileRE  = regexp.MustCompile(`"profile": "([^"]*)"`)
	guideRE    = regexp.MustCompile(`godot://docs/([a-z0-9_]+)`)
)

// Every tool a skill names is a tool of the contract (the core tools and
// every built-in toolset's, as their plugins describe them), every profile
// it enables exists, and every guide it points to is served: a renamed
// tool fails this test instead of leaving a skill that sends agents astray.
func TestSkillsNameOnlyToolsThatExist(t *testing.T) {
	surface, err := buildSurface(context.Background(), binPath)
	if err != nil {
		t.Fatal(err)
	}
	tools := map[string]bool{}
	for _, ts := range surface.Toolsets {
		for _, tool := range ts.Tools {
			tools[tool.Name] = true
		}
	}
	skills, err := mcpserver.Skills()
	if err != nil {
		t.Fatal(err)
	}
	for _, sk := range skills {
		named := 0
		for _, m := range toolNameRE.FindAllStringSubmatch(sk.Body, -1) {
			name := m[1]
			named++
			if !tools[name] {
				t.Errorf("skill %s names %s, which no toolset serves", sk.Name, name)
			}
		}
		if named == 0 {
			t.Errorf("skill %s names no tool", sk.Name)
		}
		for _, m := range profileRE.FindAllStringSubmatch(sk.Body, -1) {
			if !slices.Contains(profile.Names(), m[1]) {
				t.Errorf("skill %s enables the profile %q, which does not exist (%v)", sk.Name, m[1], profile.Names())
			}
		}
		for _, m := range guideRE.FindAllStringSubmatch(sk.Body, -1) {
			if _, err := os.Stat(filepath.Join("..", "..", "docs", m[1]+".md")); err != nil {
				t.Errorf("skill %s points to godot://docs/%s, which is not a guide", sk.Name, m[1])
			}
		}
	}
}
