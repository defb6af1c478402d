package e2e

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// tinyGame is a project whose main scene prints a marker and quits.
var tinyGame = map[string]string{
	"project.godot": "config_version=5\n\n[application]\n\nconfig/name=\"Tiny Export\"\nrun/main_scene=\"res://main.tscn\"\nconfig/features=PackedStringArray(\"4.4\")\n",
	"main.tscn":     "[gd_scene load_steps=2 format=3]\n\n[ext_resource type=\"Script\" path=\"res://main.gd\" id=\"1_m\"]\n\n[node name=\"Main\" type=\"Node\"]\nscript = ExtResource(\"1_m\")\n",
	"main.gd": "extends Node\n\nfunc _ready() -> void:\n\tprint(\"TINY-EXPORT-MARKER \", 6 * 7)\n" +
		"\tprint(\"TINY-EXPORT-NOTES \", FileAccess.get_file_as_string(\"res://notes.txt\") if FileAccess.file_exists(\"res://notes.txt\") else \"none\")\n" +
		"\tget_tree().quit(0)\n",
	// not a resource: exported only through the preset's include_filter
	"notes.txt": "hello-notes",
}

// A preset is created for Linux; a fresh Godot reads the file back as
// written; the whole-game export and the template check are refused naming
// the missing template files (no templates are installed in the suite's
// data dir); a PCK is exported headless, and a fresh Godot started with
// --main-pack on it prints the game's own line.
func TestExportPresetPackAndSmokeRun(t *testing.T) {
	project := filepath.Join(t.TempDir(), "tiny")
	writeFiles(t, project, tinyGame)
	// The first export imports the project: on a loaded machine that can
	// outlast the default 2 min call limit.
	h := startHostT(t, "ws://127.0.0.1:0", "GODOT_MCP_PROJECT_DIR="+project, "GODOT_BIN="+suite.godot, "GODOT_MCP_CALL_TIMEOUT=6m")
	h.mustCall(t, "godot_enable_toolset", map[string]any{"name": "export"}, nil)

	var list struct {
		Exists  bool              `json:"exists"`
		Presets []json.RawMessage `json:"presets"`
	}
	h.mustCall(t, "godot_export_list_presets", nil, &list)
	if list.Exists || len(list.Presets) != 0 {
		t.Fatalf("a new project lists presets: %+v", list)
	}
	h.mustCall(t, "godot_export_set_preset", map[string]any{"name": "Linux", "create": true, "platform": "Linux",
		"export_path": "build/tiny.x86_64", "features": []string{"smoke"}, "options": map[string]any{"binary_format/embed_pck": false}}, nil)
	e := h.mustFail(t, "godot_export_set_preset", map[string]any{"name": "Linux", "options": map[string]any{"binary_format/architecure": "arm64"}})
	if e.Error != "VALIDATION_ERROR" || !strings.Contains(e.Hint, `did you mean "binary_format/architecture"`) {
		t.Fatalf("%+v", e)
	}

	// An edit the exporter must honour: the .txt file goes into the pack.
	h.mustCall(t, "godot_export_set_preset", map[string]any{"name": "Linux", "include_filter": "*.txt"}, nil)

	// Godot's own ConfigFile reads what was written.
	got := headlessPrint(t, project, `extends SceneTree
func _init() -> void:
	var cf := ConfigFile.new()
	var err := cf.load("res://export_presets.cfg")
	var out := {"err": err, "name": cf.get_value("preset.0", "name", ""), "platform": cf.get_value("preset.0", "platform", ""),
		"runnable": cf.get_value("preset.0", "runnable", null), "export_path": cf.get_value("preset.0", "export_path", ""),
		"features": cf.get_value("preset.0", "custom_features", ""), "patches": typeof(cf.get_value("preset.0", "patches", null)),
		"embed": cf.get_value("preset.0.options", "binary_format/embed_pck", null), "keys": cf.get_section_keys("preset.0").size()}
	print("EXPORT_CFG ", JSON.stringify(out))
	quit()
`, "EXPORT_CFG")
	var cfg struct {
		Err            int
		Name, Platform string
		ExportPath     string `json:"export_path"`
		Features       string
		Runnable       *bool
		Embed          *bool
		Patches, Keys  int
	}
	if err := json.Unmarshal([]byte(got), &cfg); err != nil {
		t.Fatalf("%s: %v", got, err)
	}
	if cfg.Err != 0 || cfg.Name != "Linux" || cfg.Platform != "Linux" || cfg.Runnable == nil || *cfg.Runnable || cfg.Features != "smoke" ||
		cfg.Patches != 34 /* TYPE_PACKED_STRING_ARRAY */ || cfg.Embed == nil || *cfg.Embed || cfg.Keys != 17 {
		t.Fatalf("Godot read back: %s", got)
	}
	// The editor's name for the export_path key is what the tool wrote.
	if !strings.Contains(got, `"export_path":"build/tiny.x86_64"`) {
		t.Fatalf("Godot read back: %s", got)
	}

	// No templates: the check and a whole-game export name the files.
	var dataHome string
	for _, kv := range suite.xdg {
		if v, ok := strings.CutPrefix(kv, "XDG_DATA_HOME="); ok {
			dataHome = v
		}
	}
	tdir := filepath.Join(dataHome, "godot", "export_templates")
	e = h.mustFail(t, "godot_export_check_templates", map[string]any{"preset": "Linux"})
	t.Logf("template check: %+v", e)
	if e.Error != "PRECONDITION_FAILED" || e.Required != "export_templates" || !strings.Contains(e.Hint, "linux_debug.x86_64") ||
		!strings.Contains(e.Hint, "linux_release.x86_64") || !strings.Contains(e.Hint, tdir+string(filepath.Separator)) {
		t.Fatalf("template check: %+v (want files in %s)", e, tdir)
	}
	e = h.mustFail(t, "godot_export_export", map[string]any{"preset": "Linux", "mode": "release"})
	if e.Error != "PRECONDITION_FAILED" || e.Required != "export_templates" || !strings.Contains(e.Hint, "missing linux_release.x86_64 in "+tdir) {
		t.Fatalf("full export: %+v", e)
	}

	// The PCK needs no templates.
	ctx, cancel := context.WithTimeout(context.Background(), 6*time.Minute)
	defer cancel()
	r, err := h.call(ctx, "godot_export_export", map[string]any{"preset": "Linux", "mode": "pack", "timeout_ms": 300000})
	if err != nil {
		t.Fatal(err)
	}
	if r.IsError {
		t.Fatalf("export failed: %s %s", r.Raw, r.Text)
	}
	var ex struct {
		Path      string `json:"path"`
		Artifacts []struct {
			Path, Res string
			Size      int64
		} `json:"artifacts"`
	}
	if err := r.decode(&ex); err != nil {
		t.Fatal(err)
	}
	t.Logf("export: %s", r.Raw)
	pck := filepath.Join(project, "build", "tiny.pck")
	st, err := os.Stat(pck)
	if err != nil || ex.Path != pck || len(ex.Artifacts) != 1 || ex.Artifacts[0].Res != "res://build/tiny.pck" || ex.Artifacts[0].Size != st.Size() || st.Size() < 100 {
		t.Fatalf("export: %s (stat %v)", r.Raw, err)
	}
	if ents, _ := os.ReadDir(filepath.Join(project, "build")); len(ents) != 1 {
		t.Fatalf("build/ holds %d entries, want only the pck", len(ents))
	}

	// Run it: a fresh Godot with --main-pack prints the game's line.
	var run struct {
		Output   string `json:"output"`
		ExitCode *int   `json:"exit_code"`
		TimedOut bool   `json:"timed_out"`
		Clean    bool   `json:"clean"`
		Errors   []struct {
			Message string `json:"message"`
		} `json:"errors"`
	}
	r, err = h.call(ctx, "godot_export_smoke_run", map[string]any{"preset": "Linux", "timeout_ms": 60000})
	if err != nil || r.IsError {
		t.Fatalf("smoke run: %v %s", err, r.Text)
	}
	r.decode(&run)
	t.Logf("smoke run: %s", r.Raw)
	if !strings.Contains(run.Output, "TINY-EXPORT-MARKER 42") || !strings.Contains(run.Output, "TINY-EXPORT-NOTES hello-notes") || run.ExitCode == nil || *run.ExitCode != 0 || run.TimedOut || !run.Clean {
		t.Fatalf("smoke run: %s", r.Raw)
	}

	// The preset is still there as written after the editor's export run.
	var p struct {
		Name       string `json:"name"`
		ExportPath string `json:"export_path"`
		Options    []struct {
			Name string `json:"name"`
		} `json:"options"`
	}
	h.mustCall(t, "godot_export_get_preset", map[string]any{"name": "Linux"}, &p)
	if p.Name != "Linux" || p.ExportPath != "build/tiny.x86_64" || len(p.Options) < 3 {
		t.Fatalf("after export: %+v", p)
	}

	// Outside the project without GODOT_MCP_EXPORT_ROOTS: refused, nothing written.
	outside := t.TempDir()
	e = h.mustFail(t, "godot_export_export", map[string]any{"preset": "Linux", "mode": "pack", "path": filepath.Join(outside, "x.pck")})
	if e.Error != "PRECONDITION_FAILED" || !strings.Contains(e.Hint, "GODOT_MCP_EXPORT_ROOTS") {
		t.Fatalf("%+v", e)
	}
	if ents, _ := os.ReadDir(outside); len(ents) != 0 {
		t.Fatalf("written outside: %v", ents)
	}
}
