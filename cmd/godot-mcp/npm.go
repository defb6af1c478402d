package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
)

// The npm packages (tools/npm builds them): a launcher, godot-mcp, whose
// optional dependencies are one package per platform, @godot-mcp/OS-CPU,
// each holding this binary as bin/godot-mcp (tools/release builds them).
const (
	npmLauncherName = "godot-mcp"
	npmScope        = "@godot-mcp/"
)

// npmPackage is the name of the per-platform npm package this binary (at
// self) is part of, or "".
func npmPackage(self string) string {
	if filepath.Base(filepath.Dir(self)) != "bin" {
		return ""
	}
	data, err := os.ReadFile(filepath.Join(filepath.Dir(filepath.Dir(self)), "package.json"))
	if err != nil {
		return ""
	}
	var p struct {
		Name string `json:"name"`
	}
	if json.Unmarshal(data, &p) != nil || !strings.HasPrefix(p.Name, npmScope) {
		return ""
	}
	return p.Name
}
