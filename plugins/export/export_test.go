//go:build unix

package export_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/godot-mcp/godot-mcp/plugins/export"
	"github.com/godot-mcp/godot-mcp/sdk"
	"github.com/godot-mcp/godot-mcp/sdk/sdktest"
)

// project is a project directory with the fixture's export_presets.cfg,
// made the project of the tools (GODOT_MCP_PROJECT_DIR).
func project(t *testing.T, withPresets bool) string {
	t.Helper()
	dir := filepath.Join(t.TempDir(), "game")
	os.MkdirAll(dir, 0o755)
	os.WriteFile(filepath.Join(dir, "project.godot"), []byte("config_version=5\n"), 0o644)
	if withPresets {
		b, err := os.ReadFile("testdata/export_presets.cfg")
		if err != nil {
			t.Fatal(err)
		}
		os.WriteFile(filepath.Join(dir, "export_presets.cfg"), b, 0o644)
	}
	t.Setenv("GODOT_MCP_PROJECT_DIR", dir)
	t.Setenv("GODOT_MCP_EXPORT_ROOTS", "")
	return dir
}

// fakeGodot is a GODOT_BIN: --version prints a version; --export-*
// PRESET PATH writes PATH (and PATH.sh for a release) unless FAIL is set,
// printing progress; --main-pack prints the pack's marker. Every call's
// arguments are appended to calls.txt.
func fakeGodot(t *testing.T) (calls string) {
	t.Helper()
	dir := t.TempDir()
	calls = filepath.Join(dir, "calls.txt")
	script := `#!/bin/sh
echo "$@" >> ` + calls + `
case "$1" in
--version) echo "4.4.1.stable.official.49a5bc7b6"; exit 0 ;;
esac
if [ "$1" = "--headless" ] && [ "$2" = "--main-pack" ]; then
  echo "Godot Engine v4.4.1.stable.official"
  cat "$3" | head -c 200; echo
  if [ -n "$GAME_HANGS" ]; then echo "still running"; sleep 30; fi
  if [ -n "$GAME_ERROR" ]; then
    echo "SCRIPT ERROR: Invalid call. Nonexistent function 'boom'." >&2
    echo "          at: _ready (res://main.gd:4)" >&2
  fi
  exit 0
fi
preset="$5"; out="$6"
echo "[  10% ] savepack | Setting up..."
if [ -n "$FAIL" ]; then
  echo "ERROR: Cannot export project with preset \"$preset\" due to configuration errors:" >&2
  echo "Invalid export path: /x/y" >&2
  echo "" >&2
  echo "   at: _fs_changed (editor/editor_node.cpp:1065)" >&2
  echo "ERROR: Project export for preset \"$preset\" failed." >&2
  echo "   at: _fs_changed (editor/editor_node.cpp:1453)" >&2
  exit 1
fi
echo "[  50% ] savepack | Storing File: res://main.tscn"
printf "PCKDATA %s" "$preset" > "$out"
if [ "$4" = "--export-release" ]; then printf "#!/bin/sh" > "$out.sh"; fi
echo "WARNING: a harmless warning"
echo "   at: f (editor/x.cpp:1)"
exit 0
`
	bin := filepath.Join(dir, "godot")
	if err := os.WriteFile(bin, []byte(script), 0o755); err != nil {
		t.Fatal(err)
	}
	t.Setenv("GODOT_BIN", bin)
	return calls
}

func start(t *testing.T) *sdktest.Harness { return sdktest.Start(t, export.Toolset()) }

func TestListAndGetPresets(t *testing.T) {
	project(t, true)
	h := start(t)
	var list struct {
		Exists  bool
		Presets []struct {
			Name, Platform string
			ExportPath     string   `json:"export_path"`
			Features       []string `json:"features"`
			OptionCount    int      `json:"option_count"`
			ExportFiles    []string `json:"export_files"`
		}
		Platforms []string
	}
	if err := h.MustCall(t, "list_presets", nil).Decode(&list); err != nil {
		t.Fatal(err)
	}
	if !list.Exists || len(list.Presets) != 2 || list.Presets[0].Name != "Linux" || list.Presets[0].OptionCount != 14 ||
		list.Presets[1].Platform != "Web" || strings.Join(list.Presets[1].Features, ",") != "demo,web" || len(list.Presets[1].ExportFiles) != 2 {
		t.Fatalf("%+v", list)
	}
	var got struct {
		Index   int
		Options []struct {
			Name  string
			Value any
			Type  string
		}
	}
	if err := h.MustCall(t, "get_preset", map[string]any{"name": "Web"}).Decode(&got); err != nil {
		t.Fatal(err)
	}
	last := got.Options[len(got.Options)-1]
	if got.Index != 1 || last.Name != "progressive_web_app/background_color" || last.Type != "other" || last.Value != "Color(0, 0, 0, 1)" {
		t.Fatalf("%+v", got)
	}
	h.MustFail(t, "get_preset", map[string]any{"name": "Linx"}, sdk.CodeResourceNotFound, `did you mean "Linux"`)
}

// A new preset is written the way the editor writes one, after the others,
// which stay byte for byte.
func TestCreatePreset(t *testing.T) {
	dir := project(t, true)
	before, _ := os.ReadFile(filepath.Join(dir, "export_presets.cfg"))
	h := start(t)
	args := map[string]any{"name": "Linux PCK", "create": true, "platform": "Linux", "export_path": "build/game.pck",
		"features": []string{"pck"}, "options": map[string]any{"binary_format/architecture": "arm64", "binary_format/embed_pck": true}}
	// dry run: nothing written
	res := h.MustCall(t, "set_preset", args, sdktest.DryRun())
	if res.Err != nil || !strings.Contains(string(res.Structured), `"written":false`) {
		t.Fatalf("%s %v", res.Structured, res.Err)
	}
	if now, _ := os.ReadFile(filepath.Join(dir, "export_presets.cfg")); string(now) != string(before) {
		t.Fatal("dry_run wrote the file")
	}
	res = h.MustCall(t, "set_preset", args)
	if res.Err != nil || !strings.Contains(string(res.Structured), `"written":true`) || !strings.Contains(string(res.Structured), `"index":2`) {
		t.Fatalf("%s %v", res.Structured, res.Err)
	}
	after, _ := os.ReadFile(filepath.Join(dir, "export_presets.cfg"))
	want := string(before) + `
[preset.2]

name="Linux PCK"
platform="Linux"
runnable=false
advanced_options=false
dedicated_server=false
custom_features="pck"
export_filter="all_resources"
include_filter=""
exclude_filter=""
export_path="build/game.pck"
patches=PackedStringArray()
encryption_include_filters=""
encryption_exclude_filters=""
seed=0
encrypt_pck=false
encrypt_directory=false
script_export_mode=2

[preset.2.options]

custom_template/debug=""
custom_template/release=""
binary_format/architecture="arm64"
binary_format/embed_pck=true
`
	if string(after) != want {
		t.Fatalf("file:\n%s", after)
	}
	h.MustFail(t, "set_preset", args, sdk.CodeValidationError, `a preset named "Linux PCK" exists`)
}

func TestCreatePresetInAProjectWithoutPresets(t *testing.T) {
	dir := project(t, false)
	h := start(t)
	h.MustFail(t, "get_preset", map[string]any{"name": "Linux"}, sdk.CodeResourceNotFound, "has no export presets")
	res := h.MustCall(t, "set_preset", map[string]any{"name": "Linux", "create": true, "platform": "Linux"})
	if res.Err != nil {
		t.Fatal(res.Err)
	}
	b, _ := os.ReadFile(filepath.Join(dir, "export_presets.cfg"))
	if !strings.HasPrefix(string(b), "[preset.0]\n\nname=\"Linux\"\nplatform=\"Linux\"\n") || !strings.HasSuffix(string(b), "[preset.0.options]\n\ncustom_template/debug=\"\"\ncustom_template/release=\"\"\n") {
		t.Fatalf("%s", b)
	}
}

// An edit changes only its lines.
func TestEditPresetChangesOnlyItsLines(t *testing.T) {
	dir := project(t, true)
	before, _ := os.ReadFile(filepath.Join(dir, "export_presets.cfg"))
	h := start(t)
	res := h.MustCall(t, "set_preset", map[string]any{"name": "Linux", "runnable": false, "include_filter": "*.json, data/*",
		"options": map[string]any{"binary_format/architecture": "arm64", "ssh_remote_deploy/port": nil}})
	if res.Err != nil {
		t.Fatal(res.Err)
	}
	var out struct{ Changed []string }
	res.Decode(&out)
	if strings.Join(out.Changed, ",") != "runnable,include_filter,options/binary_format/architecture,options/ssh_remote_deploy/port" {
		t.Fatalf("changed %v", out.Changed)
	}
	after, _ := os.ReadFile(filepath.Join(dir, "export_presets.cfg"))
	want := strings.Replace(string(before), "runnable=true\nadvanced_options", "runnable=false\nadvanced_options", 1)
	want = strings.Replace(want, `include_filter=""`, `include_filter="*.json, data/*"`, 1)
	want = strings.Replace(want, `binary_format/architecture="x86_64"`, `binary_format/architecture="arm64"`, 1)
	want = strings.Replace(want, "ssh_remote_deploy/port=\"22\"\n", "", 1)
	if string(after) != want {
		t.Fatalf("file:\n%s", after)
	}
}

func TestPresetBadInput(t *testing.T) {
	dir := project(t, true)
	before, _ := os.ReadFile(filepath.Join(dir, "export_presets.cfg"))
	h := start(t)
	h.MustFail(t, "set_preset", map[string]any{"name": "X", "create": true, "platform": "Linx"}, sdk.CodeValidationError, `did you mean "Linux"`)
	h.MustFail(t, "set_preset", map[string]any{"name": "Linux", "options": map[string]any{"binary_format/architecure": "arm64"}},
		sdk.CodeValidationError, `did you mean "binary_format/architecture"`)
	h.MustFail(t, "set_preset", map[string]any{"name": "Linux", "options": map[string]any{"architecture": "arm64"}},
		sdk.CodeValidationError, `did you mean "binary_format/architecture"`)
	h.MustFail(t, "set_preset", map[string]any{"name": "Linux", "options": map[string]any{"binary_format/embed_pck": "yes"}},
		sdk.CodeValidationError, "option binary_format/embed_pck: want true or false")
	h.MustFail(t, "set_preset", map[string]any{"name": "Linux", "platform": "Web"}, sdk.CodeValidationError, "cannot change")
	h.MustFail(t, "set_preset", map[string]any{"name": "Linux", "features": []string{"a,b"}}, sdk.CodeValidationError, "feature")
	h.MustFail(t, "set_preset", map[string]any{"name": "Linux", "export_files": []string{"res://a.tscn"}}, sdk.CodeValidationError, "export_filter")
	h.MustFail(t, "set_preset", map[string]any{"name": "Linux", "options": map[string]any{"keystore/release_password": "hunter2"}, "allow_unknown_options": true},
		sdk.CodeValidationError, "export_credentials.cfg")
	// Outside Linux and Web the list is partial: an unknown name can be forced.
	h.MustFail(t, "set_preset", map[string]any{"name": "Web", "options": map[string]any{"html/new_thing": true}}, sdk.CodeValidationError, "html/new_thing")
	if after, _ := os.ReadFile(filepath.Join(dir, "export_presets.cfg")); string(after) != string(before) {
		t.Fatal("a refused edit wrote the file")
	}
	h.MustCall(t, "set_preset", map[string]any{"name": "Win", "create": true, "platform": "Windows Desktop"})
	before, _ = os.ReadFile(filepath.Join(dir, "export_presets.cfg"))
	h.MustFail(t, "set_preset", map[string]any{"name": "Win", "options": map[string]any{"application/new_thing": true}}, sdk.CodeValidationError, "allow_unknown_options")
	if after, _ := os.ReadFile(filepath.Join(dir, "export_presets.cfg")); string(after) != string(before) {
		t.Fatal("a refused edit wrote the file")
	}
	if res := h.MustCall(t, "set_preset", map[string]any{"name": "Web", "options": map[string]any{"html/new_thing": true}, "allow_unknown_options": true}); res.Err != nil {
		t.Fatal(res.Err)
	}
	if after, _ := os.ReadFile(filepath.Join(dir, "export_presets.cfg")); !strings.Contains(string(after), "progressive_web_app/background_color=Color(0, 0, 0, 1)\nhtml/new_thing=true\n\n[preset.2]") {
		t.Fatalf("%s", after)
	}
}

// The presets file is never read or written through a link.
func TestPresetsFileLinkRefused(t *testing.T) {
	dir := project(t, false)
	outside := filepath.Join(t.TempDir(), "elsewhere.cfg")
	os.WriteFile(outside, []byte("[preset.0]\n\nname=\"x\"\n"), 0o644)
	os.Symlink(outside, filepath.Join(dir, "export_presets.cfg"))
	h := start(t)
	h.MustFail(t, "list_presets", nil, sdk.CodePreconditionFailed, "symbolic link")
	h.MustFail(t, "set_preset", map[string]any{"name": "L", "create": true, "platform": "Linux"}, sdk.CodePreconditionFailed, "symbolic link")
	if b, _ := os.ReadFile(outside); string(b) != "[preset.0]\n\nname=\"x\"\n" {
		t.Fatalf("the linked file changed: %s", b)
	}
}

func TestCheckTemplates(t *testing.T) {
	project(t, true)
	fakeGodot(t)
	data := t.TempDir()
	t.Setenv("XDG_DATA_HOME", data)
	h := start(t)
	tdir := filepath.Join(data, "godot", "export_templates", "4.4.1.stable")
	res := h.MustFail(t, "check_templates", map[string]any{"preset": "Linux"}, sdk.CodePreconditionFailed, "missing linux_debug.x86_64, linux_release.x86_64 in "+tdir)
	if res.Err.Required != "export_templates" || !strings.Contains(res.Err.Hint, "Godot_v4.4.1-stable_export_templates.tpz") {
		t.Fatalf("%+v", res.Err)
	}
	os.MkdirAll(tdir, 0o755)
	os.WriteFile(filepath.Join(tdir, "linux_release.x86_64"), []byte("0123456789"), 0o755)
	h.MustFail(t, "check_templates", map[string]any{"preset": "Linux"}, sdk.CodePreconditionFailed, "missing linux_debug.x86_64 in")
	var out struct {
		Dir          string
		GodotVersion string `json:"godot_version"`
		Files        []struct {
			Name    string
			Present bool
			Size    int64
		}
	}
	if err := h.MustCall(t, "check_templates", map[string]any{"preset": "Linux", "mode": "release"}).Decode(&out); err != nil {
		t.Fatal(err)
	}
	if out.Dir != tdir || out.GodotVersion != "4.4.1.stable.official.49a5bc7b6" || len(out.Files) != 1 || !out.Files[0].Present || out.Files[0].Size != 10 {
		t.Fatalf("%+v", out)
	}
	os.WriteFile(filepath.Join(tdir, "version.txt"), []byte("4.3.stable\n"), 0o644)
	h.MustFail(t, "check_templates", map[string]any{"preset": "Linux", "mode": "release"}, sdk.CodePreconditionFailed, "the templates there are 4.3.stable, not 4.4.1.stable")
	h.MustFail(t, "check_templates", map[string]any{"preset": "Web", "mode": "debug"}, sdk.CodePreconditionFailed, "missing web_nothreads_debug.zip")
}

func TestExportPack(t *testing.T) {
	dir := project(t, true)
	calls := fakeGodot(t)
	h := start(t)
	args := map[string]any{"preset": "Linux", "mode": "pack", "path": "build/game.pck"}
	// dry run: nothing runs, nothing is written
	if res := h.MustCall(t, "export", args, sdktest.DryRun()); res.Err != nil || !strings.Contains(string(res.Structured), `"dry_run":true`) {
		t.Fatalf("%s %v", res.Structured, res.Err)
	}
	if _, err := os.Stat(filepath.Join(dir, "build")); err == nil {
		t.Fatal("dry_run made the build folder")
	}
	res := h.MustCall(t, "export", args, sdktest.ProgressToken("p"))
	var out struct {
		Path      string
		Artifacts []struct {
			Path, Res string
			Size      int64
		}
		Warnings []struct{ Message string }
	}
	if err := res.Decode(&out); err != nil {
		t.Fatal(err)
	}
	pck := filepath.Join(dir, "build", "game.pck")
	if out.Path != pck || len(out.Artifacts) != 1 || out.Artifacts[0].Res != "res://build/game.pck" || out.Artifacts[0].Size != int64(len("PCKDATA Linux")) ||
		len(out.Warnings) != 1 || out.Warnings[0].Message != "a harmless warning" {
		t.Fatalf("%s", res.Structured)
	}
	if b, _ := os.ReadFile(pck); string(b) != "PCKDATA Linux" {
		t.Fatalf("pck: %q", b)
	}
	// The hidden working folder is gone.
	if ents, _ := os.ReadDir(filepath.Join(dir, "build")); len(ents) != 1 {
		t.Fatalf("build holds %v", ents)
	}
	prog := h.Progress()
	var msgs []string
	for _, p := range prog {
		msgs = append(msgs, p.Message)
	}
	if !strings.Contains(strings.Join(msgs, "|"), "Storing File: res://main.tscn") {
		t.Fatalf("progress %v", msgs)
	}
	c, _ := os.ReadFile(calls)
	if !strings.Contains(string(c), "--headless --path "+dir+" --export-pack Linux "+filepath.Join(dir, "build", ".godot-mcp-export-")) {
		t.Fatalf("calls: %s", c)
	}
	// again: the file exists
	h.MustFail(t, "export", args, sdk.CodeValidationError, "overwrite: true")
	args["overwrite"] = true
	if res := h.MustCall(t, "export", args, sdktest.Confirm()); res.Err != nil || !strings.Contains(string(res.Structured), `"overwrote":["`+pck+`"]`) {
		t.Fatalf("%s %v", res.Structured, res.Err)
	}
	// a path from the preset: build/linux/game.x86_64 becomes .pck
	res = h.MustCall(t, "export", map[string]any{"preset": "Linux", "mode": "pack"})
	if res.Err != nil || !strings.Contains(string(res.Structured), `"res":"res://build/linux/game.pck"`) {
		t.Fatalf("%s %v", res.Structured, res.Err)
	}
	h.MustFail(t, "export", map[string]any{"preset": "Linux", "mode": "pack", "path": "build/game.exe"}, sdk.CodeValidationError, ".pck or a .zip")
	h.MustFail(t, "export", map[string]any{"preset": "Nope", "mode": "pack"}, sdk.CodeResourceNotFound, "the presets")
}

func TestExportFailureSaysWhy(t *testing.T) {
	dir := project(t, true)
	fakeGodot(t)
	t.Setenv("FAIL", "1")
	h := start(t)
	h.MustFail(t, "export", map[string]any{"preset": "Linux", "mode": "pack", "path": "build/game.pck"}, sdk.CodePreconditionFailed,
		`Godot said: Cannot export project with preset "Linux" due to configuration errors: Invalid export path: /x/y | Project export for preset "Linux" failed.`)
	if _, err := os.Stat(filepath.Join(dir, "build")); err == nil {
		t.Fatal("a failed export left the build folder it made")
	}
}

// A full export without templates is refused before Godot exports, with
// the files' names.
func TestExportWithoutTemplatesRefused(t *testing.T) {
	project(t, true)
	calls := fakeGodot(t)
	t.Setenv("XDG_DATA_HOME", t.TempDir())
	h := start(t)
	res := h.MustFail(t, "export", map[string]any{"preset": "Linux", "mode": "release", "path": "build/game.x86_64"}, sdk.CodePreconditionFailed, "missing linux_release.x86_64 in")
	if res.Err.Required != "export_templates" {
		t.Fatalf("%+v", res.Err)
	}
	if c, _ := os.ReadFile(calls); strings.Contains(string(c), "--export") {
		t.Fatalf("Godot exported: %s", c)
	}
}

// Whole-game exports move every file Godot wrote into place.
func TestExportReleaseMovesEveryArtifact(t *testing.T) {
	dir := project(t, true)
	fakeGodot(t)
	data := t.TempDir()
	t.Setenv("XDG_DATA_HOME", data)
	tdir := filepath.Join(data, "godot", "export_templates", "4.4.1.stable")
	os.MkdirAll(tdir, 0o755)
	os.WriteFile(filepath.Join(tdir, "linux_release.x86_64"), []byte("x"), 0o755)
	h := start(t)
	res := h.MustCall(t, "export", map[string]any{"preset": "Linux", "path": "build/game.x86_64"})
	if res.Err != nil || !strings.Contains(string(res.Structured), `"res":"res://build/game.x86_64"`) || !strings.Contains(string(res.Structured), `"res":"res://build/game.x86_64.sh"`) {
		t.Fatalf("%s %v", res.Structured, res.Err)
	}
	// a second export would replace game.x86_64.sh too: refused, nothing moved
	os.Remove(filepath.Join(dir, "build", "game.x86_64"))
	h.MustFail(t, "export", map[string]any{"preset": "Linux", "path": "build/game.x86_64"}, sdk.CodeValidationError, "game.x86_64.sh, which exists")
	if _, err := os.Stat(filepath.Join(dir, "build", "game.x86_64")); err == nil {
		t.Fatal("a refused export moved the binary into place")
	}
}

// Export writes only inside the project or a directory the user allows,
// and never through a link.
func TestExportStaysWhereAllowed(t *testing.T) {
	dir := project(t, true)
	fakeGodot(t)
	outside := t.TempDir()
	h := start(t)
	h.MustFail(t, "export", map[string]any{"preset": "Linux", "mode": "pack", "path": filepath.Join(outside, "g.pck")}, sdk.CodePreconditionFailed, "GODOT_MCP_EXPORT_ROOTS")
	h.MustFail(t, "export", map[string]any{"preset": "Linux", "mode": "pack", "path": "../g.pck"}, sdk.CodePreconditionFailed, "outside the project")
	os.Symlink(outside, filepath.Join(dir, "build"))
	h.MustFail(t, "export", map[string]any{"preset": "Linux", "mode": "pack", "path": "build/g.pck"}, sdk.CodePreconditionFailed, "symbolic link")
	if ents, _ := os.ReadDir(outside); len(ents) != 0 {
		t.Fatalf("written outside: %v", ents)
	}
	t.Setenv("GODOT_MCP_EXPORT_ROOTS", outside)
	res := h.MustCall(t, "export", map[string]any{"preset": "Linux", "mode": "pack", "path": filepath.Join(outside, "dist", "g.pck")})
	if res.Err != nil {
		t.Fatal(res.Err)
	}
	if b, _ := os.ReadFile(filepath.Join(outside, "dist", "g.pck")); string(b) != "PCKDATA Linux" {
		t.Fatalf("%q", b)
	}
	if strings.Contains(string(res.Structured), `"res"`) {
		t.Fatalf("an artifact outside the project has a res:// path: %s", res.Structured)
	}
}

func TestSmokeRun(t *testing.T) {
	dir := project(t, true)
	calls := fakeGodot(t)
	os.MkdirAll(filepath.Join(dir, "build", "linux"), 0o755)
	os.WriteFile(filepath.Join(dir, "build", "linux", "game.pck"), []byte("MARKER-42"), 0o644)
	h := start(t)
	var out struct {
		Output   string
		ExitCode *int `json:"exit_code"`
		Clean    bool
		Errors   []struct {
			Message, File string
			Line          int
		}
	}
	if err := h.MustCall(t, "smoke_run", map[string]any{"preset": "Linux"}).Decode(&out); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(out.Output, "MARKER-42") || out.ExitCode == nil || *out.ExitCode != 0 || !out.Clean || len(out.Errors) != 0 {
		t.Fatalf("%+v", out)
	}
	if c, _ := os.ReadFile(calls); !strings.Contains(string(c), "--headless --main-pack "+filepath.Join(dir, "build", "linux", "game.pck")) {
		t.Fatalf("%s", c)
	}
	t.Setenv("GAME_ERROR", "1")
	if err := h.MustCall(t, "smoke_run", map[string]any{"pack": "res://build/linux/game.pck"}).Decode(&out); err != nil {
		t.Fatal(err)
	}
	if out.Clean || len(out.Errors) != 1 || out.Errors[0].File != "res://main.gd" || out.Errors[0].Line != 4 {
		t.Fatalf("%+v", out)
	}
	// A game that never quits is stopped at the limit: normal, clean.
	t.Setenv("GAME_ERROR", "")
	t.Setenv("GAME_HANGS", "1")
	var hung struct {
		Output   string
		ExitCode *int `json:"exit_code"`
		TimedOut bool `json:"timed_out"`
		Clean    bool
	}
	if err := h.MustCall(t, "smoke_run", map[string]any{"preset": "Linux", "timeout_ms": 1000}).Decode(&hung); err != nil {
		t.Fatal(err)
	}
	if !hung.TimedOut || hung.ExitCode != nil || !hung.Clean || !strings.Contains(hung.Output, "still running") {
		t.Fatalf("%+v", hung)
	}
	h.MustFail(t, "smoke_run", map[string]any{"pack": "build/none.pck"}, sdk.CodeResourceNotFound, "does not exist")
	h.MustFail(t, "smoke_run", map[string]any{"pack": "/etc/passwd.pck"}, sdk.CodePreconditionFailed, "GODOT_MCP_EXPORT_ROOTS")
	h.MustFail(t, "smoke_run", map[string]any{}, sdk.CodeValidationError, "give pack")
	outside := filepath.Join(t.TempDir(), "x.pck")
	os.WriteFile(outside, []byte("evil"), 0o644)
	os.Symlink(outside, filepath.Join(dir, "build", "l.pck"))
	h.MustFail(t, "smoke_run", map[string]any{"pack": "build/l.pck"}, sdk.CodePreconditionFailed, "symbolic link")
}

// Godot 4.4 keeps runnable per preset, one per platform: making one
// runnable clears the others of its platform.
func TestRunnableOldStyle(t *testing.T) {
	dir := project(t, true)
	h := start(t)
	h.MustCall(t, "set_preset", map[string]any{"name": "Linux 2", "create": true, "platform": "Linux"})
	if res := h.MustCall(t, "set_preset", map[string]any{"name": "Linux 2", "runnable": true}); res.Err != nil {
		t.Fatal(res.Err)
	}
	b, _ := os.ReadFile(filepath.Join(dir, "export_presets.cfg"))
	if strings.Count(string(b), "runnable=true") != 2 /* Web and Linux 2 */ || !strings.Contains(string(b), "name=\"Linux\"\nplatform=\"Linux\"\nrunnable=false\n") {
		t.Fatalf("%s", b)
	}
}

// Godot 4.7+ keeps the runnable preset of each platform in
// [runnable_presets] and writes no runnable key; such a file is edited
// the same way.
func TestRunnableNewStyle(t *testing.T) {
	dir := project(t, false)
	const file = `[runnable_presets]

Linux="A"
"Windows Desktop"="W"

[preset.0]

name="A"
platform="Linux"
dedicated_server=false
custom_features=""
export_filter="all_resources"
include_filter=""
exclude_filter=""
export_path=""

[preset.0.options]

custom_template/debug=""
`
	os.WriteFile(filepath.Join(dir, "export_presets.cfg"), []byte(file), 0o644)
	h := start(t)
	h.MustCall(t, "set_preset", map[string]any{"name": "B", "create": true, "platform": "Linux", "runnable": true})
	b, _ := os.ReadFile(filepath.Join(dir, "export_presets.cfg"))
	want := strings.Replace(file, `Linux="A"`, `Linux="B"`, 1) + `
[preset.1]

name="B"
platform="Linux"
dedicated_server=false
custom_features=""
export_filter="all_resources"
include_filter=""
exclude_filter=""
export_path=""
patches=PackedStringArray()
encryption_include_filters=""
encryption_exclude_filters=""
seed=0
encrypt_pck=false
encrypt_directory=false
script_export_mode=2

[preset.1.options]

custom_template/debug=""
custom_template/release=""
`
	if string(b) != want {
		t.Fatalf("file:\n%s", b)
	}
	var list struct {
		Presets []struct {
			Name     string
			Runnable bool
		}
	}
	h.MustCall(t, "list_presets", nil).Decode(&list)
	if len(list.Presets) != 2 || list.Presets[0].Runnable || !list.Presets[1].Runnable {
		t.Fatalf("%+v", list)
	}
	h.MustCall(t, "set_preset", map[string]any{"name": "B", "runnable": false})
	b, _ = os.ReadFile(filepath.Join(dir, "export_presets.cfg"))
	if !strings.HasPrefix(string(b), "[runnable_presets]\n\n\"Windows Desktop\"=\"W\"\n\n[preset.0]") {
		t.Fatalf("file:\n%s", b)
	}
}
