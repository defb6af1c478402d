package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"testing"
)

// The analysis toolset served by the binary (godot-mcp toolset serve
// analysis) answers from the files with no editor and no Godot: the fixture's
// one unused file, through MCP on stdio.
func TestBinaryAnalysisWithoutEditor(t *testing.T) {
	project := filepath.Join(t.TempDir(), "fixture")
	src := filepath.Join("..", "..", "plugins", "analysis", "testdata", "fixture")
	err := filepath.WalkDir(src, func(p string, d os.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(src, p)
		if d.IsDir() {
			return os.MkdirAll(filepath.Join(project, rel), 0o755)
		}
		b, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		return os.WriteFile(filepath.Join(project, rel), b, 0o644)
	})
	if err != nil {
		t.Fatal(err)
	}
	p := startBinary(t, "GODOT_BIN=/nonexistent/godot", "GODOT_MCP_PROJECT_DIR="+project)
	p.Initialize()
	if r := call(p, "godot_enable_toolset", map[string]any{"name": "analysis"}); r.IsError {
		t.Fatalf("enable: %s", r.StructuredContent)
	}
	r := call(p, "godot_analysis_unused_files", nil)
	var out struct {
		Files []struct {
			Path   string `json:"path"`
			Bytes  int64  `json:"bytes"`
			Reason string `json:"reason"`
		} `json:"files"`
	}
	if r.IsError || json.Unmarshal(r.StructuredContent, &out) != nil {
		t.Fatalf("unused_files: %s", r.StructuredContent)
	}
	if len(out.Files) != 1 || out.Files[0].Path != "res://art/unused.png" || out.Files[0].Bytes != 69 || out.Files[0].Reason != "unreferenced" {
		t.Fatalf("unused_files: %s", r.StructuredContent)
	}
	// The answer names every tool's problem as the fixture plants it.
	r = call(p, "godot_analysis_signals", map[string]any{"only_problems": true})
	var sig struct {
		Flagged     int `json:"flagged"`
		Connections []struct {
			Method string `json:"method"`
		} `json:"connections"`
	}
	if r.IsError || json.Unmarshal(r.StructuredContent, &sig) != nil || sig.Flagged != 1 || len(sig.Connections) != 1 || sig.Connections[0].Method != "_on_timer_timeout" {
		t.Fatalf("signals: %s", r.StructuredContent)
	}
}
