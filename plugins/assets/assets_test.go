package assets

import (
	"bytes"
	"context"
	"encoding/base64"
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/godot-mcp/godot-mcp/sdk"
	"github.com/godot-mcp/godot-mcp/sdk/sdktest"
)

// The commands the tools send, with the class handlers.gd must declare.
var commands = []sdktest.EditorCommand{
	{Name: "cmd_assets_import", Class: sdk.Mutating, DryRun: true},
	{Name: "cmd_assets_status", Class: sdk.ReadOnly},
	{Name: "cmd_assets_finish", Class: sdk.Mutating, DryRun: true},
	{Name: "cmd_assets_get_options", Class: sdk.ReadOnly},
	{Name: "cmd_assets_set_options", Class: sdk.Mutating, DryRun: true},
}

func start(t *testing.T) *sdktest.Harness {
	t.Helper()
	pollInterval = 10 * time.Millisecond
	return sdktest.Start(t, Toolset())
}

// root makes an import root holding files and sets GODOT_MCP_IMPORT_ROOTS to it.
func root(t *testing.T, files map[string][]byte) string {
	t.Helper()
	dir := t.TempDir()
	for name, b := range files {
		p := filepath.Join(dir, name)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, b, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	t.Setenv(ImportRootsEnv, dir)
	return dir
}

func TestEditorCodeDeclaresCommands(t *testing.T) {
	sdktest.CheckEditorCode(t, Toolset(), commands, "handlers.gd", "common.gd", "importing.gd", "options.gd")
}

// Without GODOT_MCP_IMPORT_ROOTS nothing outside the project is read: the
// call is refused naming the variable and the editor gets nothing.
func TestImportRefusedWithoutRoots(t *testing.T) {
	t.Setenv(ImportRootsEnv, "")
	h := start(t)
	dir := t.TempDir()
	os.WriteFile(filepath.Join(dir, "a.png"), []byte("png"), 0o644)
	h.MustFail(t, "import", map[string]any{"files": []string{filepath.Join(dir, "a.png")}, "to": "res://art"}, sdk.CodePreconditionFailed, ImportRootsEnv+" is not set")
	if len(h.Commands()) != 0 {
		t.Fatalf("the editor was sent %v", h.Commands())
	}
}

// A file outside the roots, a link escaping a root (as the file or as a
// folder on the way), a relative path and a folder are refused before the
// editor is asked anything.
func TestImportPathsRefused(t *testing.T) {
	outside := t.TempDir()
	os.WriteFile(filepath.Join(outside, "secret.png"), []byte("secret"), 0o644)
	r := root(t, map[string][]byte{"ok.png": []byte("png"), "sub/x.png": []byte("x")})
	if err := os.Symlink(filepath.Join(outside, "secret.png"), filepath.Join(r, "link.png")); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(outside, filepath.Join(r, "linkdir")); err != nil {
		t.Fatal(err)
	}
	h := start(t)
	for _, c := range []struct {
		file string
		code sdk.ErrorCode
		hint string
	}{
		{filepath.Join(outside, "secret.png"), sdk.CodePreconditionFailed, "outside the directories the user allows in the server's " + ImportRootsEnv},
		{filepath.Join(r, "link.png"), sdk.CodePreconditionFailed, "does not follow links"},
		{filepath.Join(r, "linkdir", "secret.png"), sdk.CodePreconditionFailed, "does not follow links"},
		{filepath.Join(r, "sub", "..", "..", filepath.Base(outside), "secret.png"), sdk.CodePreconditionFailed, ImportRootsEnv},
		{"ok.png", sdk.CodeValidationError, "not an absolute path"},
		{filepath.Join(r, "sub"), sdk.CodeValidationError, "not a regular file"},
		{filepath.Join(r, "nope.png"), sdk.CodeResourceNotFound, "does not exist"},
	} {
		h.MustFail(t, "import", map[string]any{"files": []string{filepath.Join(r, "ok.png"), c.file}, "to": "res://art"}, c.code, c.hint)
	}
	h.MustFail(t, "import", map[string]any{"files": []string{filepath.Join(r, "ok.png")}, "to": "res://../x"}, sdk.CodeValidationError, "to")
	if len(h.Commands()) != 0 {
		t.Fatalf("the editor was sent %v", h.Commands())
	}
}

// The files' bytes reach the editor; the tool polls until the editor has
// imported them (reporting progress), keeps the change as one undo action and
// answers each file's type, UID and .import path.
func TestImportWaitsAndKeeps(t *testing.T) {
	png := []byte("\x89PNG fake")
	wav := []byte("RIFF fake")
	r := root(t, map[string][]byte{"hero.png": png, "sfx/hit.wav": wav})
	h := start(t)
	h.Addon().HandleResult("cmd_assets_import", map[string]any{"folder": "res://art", "created_folder": true, "paths": []string{"res://art/hero.png", "res://art/hit.wav"},
		"overwrote": []string{}, "token": "7", "log_mark": 12, "ready": false, "written": []string{"res://art/hero.png", "res://art/hit.wav"}, "removed": []string{}})
	var polls atomic.Int32
	h.Addon().Handle("cmd_assets_status", func(_ context.Context, _ json.RawMessage) (any, *sdk.Error) {
		if polls.Add(1) < 3 {
			return map[string]any{"scanning": true, "progress": 0.5, "done": false, "files": []any{
				map[string]any{"path": "res://art/hero.png", "status": "pending"}, map[string]any{"path": "res://art/hit.wav", "status": "pending"}}}, nil
		}
		return map[string]any{"scanning": false, "progress": 1, "done": true, "files": []any{
			map[string]any{"path": "res://art/hero.png", "type": "CompressedTexture2D", "uid": "uid://abc", "status": "imported", "import_path": "res://art/hero.png.import", "importer": "texture"},
			map[string]any{"path": "res://art/hit.wav", "type": "AudioStreamWAV", "uid": "uid://def", "status": "imported", "import_path": "res://art/hit.wav.import", "importer": "wav"}}}, nil
	})
	h.Addon().HandleResult("cmd_assets_finish", map[string]any{"kept": true, "rolled_back": false, "undoable": true})
	res := h.MustCall(t, "import", map[string]any{"files": []string{filepath.Join(r, "hero.png"), filepath.Join(r, "sfx", "hit.wav")}, "to": "res://art/"}, sdktest.ProgressToken("p"))
	if res.Err != nil {
		t.Fatal(res.Err)
	}
	var out ImportOut
	if err := res.Decode(&out); err != nil {
		t.Fatal(err)
	}
	if len(out.Files) != 2 || out.Files[0].UID != "uid://abc" || out.Files[1].Type != "AudioStreamWAV" || out.Files[0].Source != filepath.Join(r, "hero.png") ||
		out.Files[1].ImportPath != "res://art/hit.wav.import" || !out.Undoable || !out.CreatedFolder {
		t.Fatalf("got %s", res.Structured)
	}
	p := h.LastParams(t, "cmd_assets_import")
	if p["folder"] != "res://art" || p["overwrite"] != false || p["dry_run"] != false {
		t.Fatalf("import params %v", p)
	}
	files := p["files"].([]any)
	for i, want := range [][]byte{png, wav} {
		f := files[i].(map[string]any)
		got, _ := base64.StdEncoding.DecodeString(f["data"].(string))
		if !bytes.Equal(got, want) || f["name"] != []string{"hero.png", "hit.wav"}[i] {
			t.Fatalf("file %d sent as %v", i, f)
		}
	}
	if sp := h.LastParams(t, "cmd_assets_status"); sp["log_mark"] != float64(12) {
		t.Fatalf("status params %v", sp)
	}
	if fp := h.LastParams(t, "cmd_assets_finish"); fp["keep"] != true || fp["token"] != "7" {
		t.Fatalf("finish params %v", fp)
	}
	if len(h.Progress()) == 0 {
		t.Fatal("no progress while the editor imported")
	}
}

// A file the importer refuses makes the whole import roll back, and the
// answer carries the importer's message.
func TestImportFailureRollsBack(t *testing.T) {
	r := root(t, map[string][]byte{"bad.png": []byte("not a png"), "good.png": []byte("png")})
	h := start(t)
	h.Addon().HandleResult("cmd_assets_import", map[string]any{"folder": "res://art", "paths": []string{"res://art/good.png", "res://art/bad.png"}, "token": "1", "log_mark": 0})
	h.Addon().HandleResult("cmd_assets_status", map[string]any{"done": true, "files": []any{
		map[string]any{"path": "res://art/good.png", "status": "imported"},
		map[string]any{"path": "res://art/bad.png", "status": "failed", "message": "ERROR: Error loading image: res://art/bad.png"}}})
	h.Addon().HandleResult("cmd_assets_finish", map[string]any{"kept": false, "rolled_back": true})
	h.MustFail(t, "import", map[string]any{"files": []string{filepath.Join(r, "good.png"), filepath.Join(r, "bad.png")}, "to": "res://art"},
		sdk.CodeValidationError, "Error loading image: res://art/bad.png")
	if fp := h.LastParams(t, "cmd_assets_finish"); fp["keep"] != false {
		t.Fatalf("finish params %v", fp)
	}
	res := h.MustCall(t, "import", map[string]any{"files": []string{filepath.Join(r, "bad.png")}, "to": "res://art"})
	if !strings.Contains(res.Err.Hint, "rolled back: nothing was left") {
		t.Fatalf("%+v", res.Err)
	}
}

// The editor never finishing in time: TIMEOUT, the files are kept (the
// editor goes on importing them).
func TestImportTimeout(t *testing.T) {
	r := root(t, map[string][]byte{"a.png": []byte("png")})
	h := start(t)
	h.Addon().HandleResult("cmd_assets_import", map[string]any{"folder": "res://art", "paths": []string{"res://art/a.png"}, "token": "3", "log_mark": 0})
	h.Addon().HandleResult("cmd_assets_status", map[string]any{"scanning": true, "done": false, "files": []any{map[string]any{"path": "res://art/a.png", "status": "pending"}}})
	h.Addon().HandleResult("cmd_assets_finish", map[string]any{"kept": true})
	h.MustFail(t, "import", map[string]any{"files": []string{filepath.Join(r, "a.png")}, "to": "res://art", "timeout_ms": 1000}, sdk.CodeTimeout, "res://art/a.png")
	if fp := h.LastParams(t, "cmd_assets_finish"); fp["keep"] != true {
		t.Fatalf("finish params %v", fp)
	}
}

// A dry run reads the files and asks the editor what would be written, and
// nothing else; overwrite needs confirm.
func TestImportDryRunAndOverwrite(t *testing.T) {
	r := root(t, map[string][]byte{"a.png": []byte("png")})
	h := start(t)
	h.Addon().HandleResult("cmd_assets_import", map[string]any{"folder": "res://art", "paths": []string{"res://art/a.png"}, "overwrote": []string{"res://art/a.png"}})
	res := h.MustCall(t, "import", map[string]any{"files": []string{filepath.Join(r, "a.png")}, "to": "res://art"}, sdktest.DryRun())
	if res.Err != nil {
		t.Fatal(res.Err)
	}
	sdktest.AssertJSON(t, res.Structured, `{"folder":"res://art","created_folder":false,"files":[{"path":"res://art/a.png","source":`+
		strings.ReplaceAll(mustJSON(filepath.Join(r, "a.png")), `\`, `\\`)+`,"type":"","uid":"","status":"pending"}],"overwrote":["res://art/a.png"],"undoable":false,"duration_ms":`+
		mustJSON(mustDecode(t, res.Structured)["duration_ms"])+`,"dry_run":true}`)
	if !slices.Equal(h.Commands(), []string{"cmd_assets_import"}) || h.LastParams(t, "cmd_assets_import")["dry_run"] != true {
		t.Fatalf("sent %v", h.Commands())
	}
	h.MustFail(t, "import", map[string]any{"files": []string{filepath.Join(r, "a.png")}, "to": "res://art", "overwrite": true}, sdk.CodePreconditionFailed, "confirm")
}

func mustJSON(v any) string {
	b, _ := json.Marshal(v)
	return string(b)
}

func mustDecode(t *testing.T, b []byte) map[string]any {
	var m map[string]any
	if err := json.Unmarshal(b, &m); err != nil {
		t.Fatal(err)
	}
	return m
}

// get_import_options passes the cleaned path and answers what the editor
// read; a bad path never reaches it.
func TestGetOptions(t *testing.T) {
	h := start(t)
	h.Addon().HandleResult("cmd_assets_get_options", map[string]any{"path": "res://a.png", "type": "CompressedTexture2D", "uid": "uid://x", "status": "imported",
		"import_path": "res://a.png.import", "importer": "texture", "metadata": "import_dock", "defaults_source": "the importer's own defaults",
		"options": []any{map[string]any{"name": "compress/mode", "type": "int", "value": 0, "default": 0, "enum": []any{map[string]any{"value": 0, "name": "Lossless"}}, "visible": true}}})
	res := h.MustCall(t, "get_import_options", map[string]any{"path": "res://a.png", "prefix": "compress/"})
	var out GetOptionsOut
	if err := res.Decode(&out); err != nil || len(out.Options) != 1 || out.Options[0].Name != "compress/mode" || out.Importer != "texture" || out.UID != "uid://x" {
		t.Fatalf("%s %v", res.Structured, err)
	}
	if p := h.LastParams(t, "cmd_assets_get_options"); p["prefix"] != "compress/" || p["path"] != "res://a.png" {
		t.Fatalf("params %v", p)
	}
	h.MustFail(t, "get_import_options", map[string]any{"path": "res://../a.png"}, sdk.CodeValidationError, "path")
	h.Addon().HandleError("cmd_assets_get_options", sdk.NotFound("'res://b.png' is not an imported file"))
	h.MustFail(t, "get_import_options", map[string]any{"path": "res://b.png"}, sdk.CodeResourceNotFound, "not an imported file")
}

// set_import_options sends the options as given (the editor checks them
// against the importer's list) and passes its refusals on unchanged.
func TestSetOptions(t *testing.T) {
	h := start(t)
	h.Addon().HandleResult("cmd_assets_set_options", map[string]any{"path": "res://a.png", "importer": "texture", "type": "CompressedTexture2D", "uid": "uid://x", "status": "imported",
		"import_path": "res://a.png.import", "undoable": true, "changes": []any{map[string]any{"name": "compress/normal_map", "from": 0, "to": 1, "now": 1}}})
	res := h.MustCall(t, "set_import_options", map[string]any{"path": "res://a.png", "options": map[string]any{"compress/normal_map": "Enable"}})
	var out SetOptionsOut
	if err := res.Decode(&out); err != nil || len(out.Changes) != 1 || out.Changes[0].Now != float64(1) || !out.Undoable {
		t.Fatalf("%s %v", res.Structured, err)
	}
	if p := h.LastParams(t, "cmd_assets_set_options"); p["options"].(map[string]any)["compress/normal_map"] != "Enable" || p["dry_run"] != false {
		t.Fatalf("params %v", p)
	}
	res = h.MustCall(t, "set_import_options", map[string]any{"path": "res://a.png", "options": map[string]any{"compress/normal_map": 1}}, sdktest.DryRun())
	if res.Err != nil || h.LastParams(t, "cmd_assets_set_options")["dry_run"] != true || !strings.Contains(string(res.Structured), `"dry_run":true`) {
		t.Fatalf("%+v %s", res.Err, res.Structured)
	}
	h.MustFail(t, "set_import_options", map[string]any{"path": "res://a.png", "options": map[string]any{}}, sdk.CodeValidationError, "options")
	h.Addon().HandleError("cmd_assets_set_options", sdk.Validation("'compress/mod' is not an option of the texture importer. Did you mean 'compress/mode'?"))
	h.MustFail(t, "set_import_options", map[string]any{"path": "res://a.png", "options": map[string]any{"compress/mod": 1}}, sdk.CodeValidationError, "Did you mean 'compress/mode'?")
}

// The allowed directory itself may be reached through a link (the user named
// it so): a file is found by the link's path and by the real one.
func TestRootThroughLink(t *testing.T) {
	real := t.TempDir()
	os.WriteFile(filepath.Join(real, "a.png"), []byte("A"), 0o644)
	link := filepath.Join(t.TempDir(), "art")
	if err := os.Symlink(real, link); err != nil {
		t.Fatal(err)
	}
	t.Setenv(ImportRootsEnv, "relative/ignored"+string(filepath.ListSeparator)+link)
	for _, p := range []string{filepath.Join(link, "a.png"), filepath.Join(real, "a.png")} {
		got, err := readSources([]string{p})
		if err != nil || len(got) != 1 || string(got[0].Data) != "A" || got[0].Name != "a.png" {
			t.Fatalf("%s: %+v %v", p, got, err)
		}
	}
	big := make([]byte, maxFileBytes+1)
	os.WriteFile(filepath.Join(real, "big.png"), big, 0o644)
	if _, err := readSources([]string{filepath.Join(link, "big.png")}); err == nil || !strings.Contains(sdk.AsError(err).Hint, "32 MiB") {
		t.Fatalf("a file over the limit: %v", err)
	}
}
