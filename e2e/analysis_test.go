package e2e

import (
	"path/filepath"
	"reflect"
	"strings"
	"testing"
)

// analysisFixture copies plugins/analysis/testdata/fixture: exactly one
// unused file, one preload cycle, one connection to a missing method and
// one dangling NodePath (its README.md says which).
func analysisFixture(t *testing.T) string {
	t.Helper()
	project := filepath.Join(t.TempDir(), "fixture")
	if err := copyTree(filepath.Join(suite.root, "plugins", "analysis", "testdata", "fixture"), project); err != nil {
		t.Fatal(err)
	}
	return project
}

// TestAnalysisFixture calls every analysis tool through the host on the
// fixture (no editor: the toolset reads the files) and checks that each
// finds exactly what was planted and nothing else.
func TestAnalysisFixture(t *testing.T) {
	project := analysisFixture(t)
	h := startHostT(t, "ws://127.0.0.1:0", "GODOT_MCP_PROJECT_DIR="+project)
	h.mustCall(t, "godot_enable_toolset", map[string]any{"name": "analysis"}, nil)

	var unused struct {
		Files []struct {
			Path, Kind, Reason string
			Bytes              int64
		} `json:"files"`
		Total        int `json:"total"`
		FilesScanned int `json:"files_scanned"`
	}
	h.mustCall(t, "godot_analysis_unused_files", nil, &unused)
	if unused.Total != 1 || len(unused.Files) != 1 || unused.Files[0].Path != "res://art/unused.png" || unused.Files[0].Reason != "unreferenced" || unused.Files[0].Bytes != 69 {
		t.Fatalf("unused_files: %+v", unused)
	}
	h.mustCall(t, "godot_analysis_unused_files", map[string]any{"transitive": true, "include_addons": true}, &unused)
	var got []string
	for _, f := range unused.Files {
		got = append(got, f.Path)
	}
	if !reflect.DeepEqual(got, []string{"res://addons/tool/leftover.png", "res://art/unused.png"}) {
		t.Fatalf("transitive with addons: %v", got)
	}

	var cycles struct {
		Cycles []struct {
			Text string `json:"text"`
		} `json:"cycles"`
	}
	h.mustCall(t, "godot_analysis_cycles", nil, &cycles)
	if len(cycles.Cycles) != 1 || cycles.Cycles[0].Text != "res://cycle/a.gd -preload-> res://cycle/b.gd -preload-> res://cycle/a.gd" {
		t.Fatalf("cycles: %+v", cycles)
	}

	type conn struct {
		Scene, Signal, From, To, Method, Status, Note string
		Line                                          int
	}
	var sig struct {
		Connections []conn `json:"connections"`
		Flagged     int    `json:"flagged"`
		Unverified  int    `json:"unverified"`
		Total       int    `json:"total"`
	}
	h.mustCall(t, "godot_analysis_signals", nil, &sig)
	if sig.Total != 6 || sig.Flagged != 1 || sig.Unverified != 1 {
		t.Fatalf("signals: %+v", sig)
	}
	h.mustCall(t, "godot_analysis_signals", map[string]any{"only_problems": true}, &sig)
	if len(sig.Connections) != 1 {
		t.Fatalf("only_problems: %+v", sig)
	}
	if c := sig.Connections[0]; c.Scene != "res://main.tscn" || c.Line != 30 || c.From != "Timer" || c.Signal != "timeout" || c.To != "." || c.Method != "_on_timer_timeout" || c.Status != "missing_method" {
		t.Fatalf("the missing method: %+v", c)
	}

	var integ struct {
		Issues []struct {
			File, Kind, Severity, Detail string
			Line                         int
		} `json:"issues"`
		Errors   int `json:"errors"`
		Warnings int `json:"warnings"`
	}
	h.mustCall(t, "godot_analysis_scene_integrity", nil, &integ)
	if len(integ.Issues) != 1 || integ.Errors != 1 || integ.Warnings != 0 {
		t.Fatalf("scene_integrity: %+v", integ)
	}
	if is := integ.Issues[0]; is.File != "res://main.tscn" || is.Line != 26 || is.Kind != "dangling_node_path" || !strings.Contains(is.Detail, "../Ghost") {
		t.Fatalf("the dangling NodePath: %+v", is)
	}

	var stats struct {
		Files  int `json:"files"`
		Scenes struct {
			Count       int `json:"count"`
			Connections int `json:"connections"`
		} `json:"scenes"`
		LargestScenes []struct{ Path string } `json:"largest_scenes"`
	}
	h.mustCall(t, "godot_analysis_stats", nil, &stats)
	if stats.Files != 22 || stats.Scenes.Count != 4 || stats.Scenes.Connections != 6 || len(stats.LargestScenes) != 4 || stats.LargestScenes[0].Path != "res://main.tscn" {
		t.Fatalf("stats: %+v", stats)
	}

	// A path out of the project is refused before anything is read.
	if e := h.mustFail(t, "godot_analysis_scene_integrity", map[string]any{"path": "res://../elsewhere"}); e.Error != "VALIDATION_ERROR" {
		t.Fatalf("%+v", e)
	}
}
