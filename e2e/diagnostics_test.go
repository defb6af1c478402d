package e2e

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// The broken project of the diagnostics tests: a script that does not
// parse, a @tool script that errors in the editor (in _ready, when its scene
// is opened) and a scene whose texture does not exist.
var brokenFiles = map[string]string{
	"broken.gd":        "extends Node\n\nfunc _ready() -> void:\n\tprint(\"a\"\n",
	"tool_err.gd":      "@tool\nextends Node\n\nfunc _ready() -> void:\n\tvar n: Node = null\n\tn.get_name()\n",
	"tool_scene.tscn":  "[gd_scene load_steps=2 format=3]\n\n[ext_resource type=\"Script\" path=\"res://tool_err.gd\" id=\"1_t\"]\n\n[node name=\"ToolRoot\" type=\"Node\"]\nscript = ExtResource(\"1_t\")\n",
	"missing_dep.tscn": "[gd_scene load_steps=2 format=3]\n\n[ext_resource type=\"Texture2D\" path=\"res://gone/missing.png\" id=\"1_m\"]\n\n[node name=\"Root\" type=\"Node2D\"]\n\n[node name=\"S\" type=\"Sprite2D\" parent=\".\"]\ntexture = ExtResource(\"1_m\")\n",
	"uses_broken.tscn": "[gd_scene load_steps=2 format=3]\n\n[ext_resource type=\"Script\" path=\"res://broken.gd\" id=\"1_b\"]\n\n[node name=\"Root\" type=\"Node\"]\nscript = ExtResource(\"1_b\")\n",
}

func writeFiles(t *testing.T, project string, files map[string]string) {
	t.Helper()
	for p, body := range files {
		full := filepath.Join(project, filepath.FromSlash(p))
		os.MkdirAll(filepath.Dir(full), 0o755)
		if err := os.WriteFile(full, []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

type logEntry struct {
	Seq        int    `json:"seq"`
	Severity   string `json:"severity"`
	Message    string `json:"message"`
	File       string `json:"file"`
	Line       int    `json:"line"`
	Text       string `json:"text"`
	Dependency string `json:"dependency"`
}

type logPage struct {
	Entries    []logEntry `json:"entries"`
	NextCursor int        `json:"next_cursor"`
	HasMore    bool       `json:"has_more"`
}

func dumpLog(es []logEntry) string {
	var b strings.Builder
	for _, e := range es {
		fmt.Fprintf(&b, "  #%d %s %s:%d %q\n", e.Seq, e.Severity, e.File, e.Line, e.Message)
	}
	return b.String()
}

// waitLog reads the editor log from since until an entry matches.
func waitLog(t *testing.T, h *host, since int, what string, match func(logEntry) bool) (logEntry, int) {
	t.Helper()
	var all []logEntry
	deadline := time.Now().Add(30 * time.Second)
	for {
		var p logPage
		h.mustCall(t, "godot_diagnostics_editor_log", map[string]any{"since": since, "severity": "errors_and_warnings"}, &p)
		all = append(all, p.Entries...)
		since = p.NextCursor
		for _, e := range p.Entries {
			if match(e) {
				return e, since
			}
		}
		if time.Now().After(deadline) {
			t.Fatalf("the editor log never showed %s; errors and warnings seen:\n%s", what, dumpLog(all))
		}
		time.Sleep(300 * time.Millisecond)
	}
}

func TestDiagnosticsEditorLog(t *testing.T) {
	project := newProject(t)
	writeFiles(t, project, brokenFiles)
	h := startHostT(t, "ws://127.0.0.1:0")
	// This editor prints script errors on purpose: its output is not checked.
	e, err := startEditor(project, h.url)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(e.kill)
	waitEditor(t, h, e)
	h.mustCall(t, "godot_enable_toolset", map[string]any{"names": []string{"diagnostics", "scene"}}, nil)

	// The @tool script errors when its scene is opened in the editor.
	cursor := 0
	t.Cleanup(func() {
		if t.Failed() {
			t.Logf("editor output:\n%s", e.out.String())
		}
	})
	h.mustCall(t, "godot_scene_open", map[string]any{"path": "res://tool_scene.tscn"}, nil)
	got, cursor := waitLog(t, h, cursor, "the @tool script's error at res://tool_err.gd:6", func(e logEntry) bool {
		return e.Severity == "error" && e.File == "res://tool_err.gd" && e.Line == 6
	})
	t.Logf("@tool error: %+v", got)

	// A scene with a missing dependency, opened (the editor refuses to open it).
	h.call(ctxFor(t, callTimeout), "godot_scene_open", map[string]any{"path": "res://missing_dep.tscn"})
	got, cursor = waitLog(t, h, cursor, "the missing texture of res://missing_dep.tscn", func(e logEntry) bool {
		return e.Severity == "error" && e.File == "res://missing_dep.tscn" && e.Line == 3 && e.Dependency == "res://gone/missing.png"
	})
	t.Logf("missing dependency: %+v", got)

	// The script with a parse error was reported when the editor started
	// (Godot 4.8 no longer loads a script without class_name at start, and
	// prints nothing of it: docs/godot-versions.md).
	if engineAtLeast(4, 8) {
		t.Logf("Godot %s: no parse error at boot to read", suite.godotVersion)
	} else {
		got, _ = waitLog(t, h, 0, "the parse error at res://broken.gd:4 (at boot)", func(e logEntry) bool {
			return e.Severity == "error" && e.File == "res://broken.gd" && e.Line == 4 && strings.Contains(e.Message, "Parse Error")
		})
		t.Logf("parse error at boot: %+v", got)
	}

	// A script broken after the start shows up after a rescan.
	writeFiles(t, e.project, map[string]string{"later.gd": "extends Node\n\nvar x: int = \n"})
	var p logPage
	h.mustCall(t, "godot_diagnostics_editor_log", map[string]any{"since": cursor, "severity": "error", "rescan": true}, &p)
	found := false
	for _, e := range p.Entries {
		found = found || (e.File == "res://later.gd" && e.Line == 3 && strings.Contains(e.Message, "Parse Error"))
	}
	if !found {
		t.Fatalf("the parse error of res://later.gd:3, written after the start, is not in the log after a rescan:\n%s", dumpLog(p.Entries))
	}

	// Paging: one entry at a time walks the same entries in order.
	var p1, p2 logPage
	h.mustCall(t, "godot_diagnostics_editor_log", map[string]any{"limit": 1}, &p1)
	h.mustCall(t, "godot_diagnostics_editor_log", map[string]any{"since": p1.NextCursor, "limit": 1}, &p2)
	if len(p1.Entries) != 1 || !p1.HasMore || len(p2.Entries) != 1 || p2.Entries[0].Seq <= p1.Entries[0].Seq {
		t.Fatalf("paging: %+v then %+v", p1, p2)
	}
}

func TestDiagnosticsCheckProject(t *testing.T) {
	project := newProject(t)
	writeFiles(t, project, brokenFiles)
	writeFiles(t, project, map[string]string{"bad_uid.tscn": "[gd_scene load_steps=2 format=3]\n\n[ext_resource type=\"Script\" uid=\"uid://doesnotexist1\" path=\"res://player.gd\" id=\"1_p\"]\n\n[node name=\"Root\" type=\"Node2D\"]\nscript = ExtResource(\"1_p\")\n"})
	h := startHostT(t, "ws://127.0.0.1:0", "GODOT_MCP_PROJECT_DIR="+project)
	h.mustCall(t, "godot_enable_toolset", map[string]any{"name": "diagnostics"}, nil)
	var out struct {
		OK      bool `json:"ok_project"`
		Checked struct {
			Scripts, Scenes, Resources int
		} `json:"checked"`
		Issues []struct {
			File, Severity, Kind, Message, Dependency string
			Line                                      int
		} `json:"issues"`
		BrokenFiles []string `json:"broken_files"`
	}
	h.mustCall(t, "godot_diagnostics_check_project", map[string]any{"timeout_ms": 120000}, &out)
	dump := fmt.Sprintf("%+v", out)
	if out.OK || out.Checked.Scripts < 3 || out.Checked.Scenes < 4 {
		t.Fatalf("%s", dump)
	}
	want := map[string]bool{}
	for _, is := range out.Issues {
		switch {
		case is.File == "res://broken.gd" && is.Line == 4 && is.Kind == "parse_error":
			want["parse"] = true
		case is.File == "res://missing_dep.tscn" && is.Line == 3 && is.Kind == "missing_dependency" && is.Dependency == "res://gone/missing.png":
			want["missing"] = true
		case is.File == "res://bad_uid.tscn" && is.Line == 3 && is.Kind == "invalid_uid":
			want["uid"] = true
		case is.File == "res://main.tscn" || is.File == "res://player.gd":
			t.Errorf("a sound file reported: %+v", is)
		}
	}
	if len(want) != 3 {
		t.Fatalf("want a parse error, a missing dependency and an unknown uid, each with its line: %s", dump)
	}
	// uses_broken.tscn loads (its script is the broken file); bad_uid.tscn only warns.
	if strings.Join(out.BrokenFiles, ",") != "res://broken.gd,res://missing_dep.tscn" {
		t.Fatalf("broken files: %v", out.BrokenFiles)
	}
}
