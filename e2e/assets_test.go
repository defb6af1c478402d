package e2e

import (
	"bytes"
	"encoding/base64"
	"encoding/binary"
	"encoding/json"
	"fmt"
	"image"
	"image/color"
	"image/png"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// ---- assets toolset e2e: outside files imported, import options set, in a real editor ----

// assetPNG is a 64x64 opaque PNG.
func assetPNG(t *testing.T) []byte {
	t.Helper()
	img := image.NewNRGBA(image.Rect(0, 0, 64, 64))
	for y := 0; y < 64; y++ {
		for x := 0; x < 64; x++ {
			img.Set(x, y, color.NRGBA{uint8(x * 4), uint8(y * 4), 128, 255})
		}
	}
	var b bytes.Buffer
	if err := png.Encode(&b, img); err != nil {
		t.Fatal(err)
	}
	return b.Bytes()
}

// assetWAV is 0.1 s of a 440 Hz tone, 16-bit mono PCM at 8 kHz, no loop.
func assetWAV() []byte {
	const rate, n = 8000, 800
	var data bytes.Buffer
	for i := 0; i < n; i++ {
		binary.Write(&data, binary.LittleEndian, int16(8000*math.Sin(2*math.Pi*440*float64(i)/rate)))
	}
	var b bytes.Buffer
	b.WriteString("RIFF")
	binary.Write(&b, binary.LittleEndian, uint32(36+data.Len()))
	b.WriteString("WAVEfmt ")
	for _, v := range []any{uint32(16), uint16(1), uint16(1), uint32(rate), uint32(rate * 2), uint16(2), uint16(16)} {
		binary.Write(&b, binary.LittleEndian, v)
	}
	b.WriteString("data")
	binary.Write(&b, binary.LittleEndian, uint32(data.Len()))
	b.Write(data.Bytes())
	return b.Bytes()
}

// assetGLTF is a glTF with one node "Tri" whose mesh is a triangle using the
// material "Mat" (its buffer embedded as a data URI).
func assetGLTF() []byte {
	var buf bytes.Buffer
	for _, f := range []float32{0, 0, 0, 1, 0, 0, 0, 1, 0} {
		binary.Write(&buf, binary.LittleEndian, f)
	}
	doc := map[string]any{
		"asset":       map[string]any{"version": "2.0"},
		"scene":       0,
		"scenes":      []any{map[string]any{"nodes": []int{0}}},
		"nodes":       []any{map[string]any{"name": "Tri", "mesh": 0}},
		"meshes":      []any{map[string]any{"name": "TriMesh", "primitives": []any{map[string]any{"attributes": map[string]int{"POSITION": 0}, "material": 0}}}},
		"materials":   []any{map[string]any{"name": "Mat", "pbrMetallicRoughness": map[string]any{"baseColorFactor": []float64{0, 1, 0, 1}}}},
		"accessors":   []any{map[string]any{"bufferView": 0, "componentType": 5126, "count": 3, "type": "VEC3", "min": []float64{0, 0, 0}, "max": []float64{1, 1, 0}}},
		"bufferViews": []any{map[string]any{"buffer": 0, "byteLength": buf.Len()}},
		"buffers":     []any{map[string]any{"byteLength": buf.Len(), "uri": "data:application/octet-stream;base64," + base64.StdEncoding.EncodeToString(buf.Bytes())}},
	}
	b, _ := json.Marshal(doc)
	return b
}

type assetFile struct {
	Path       string `json:"path"`
	Source     string `json:"source"`
	Type       string `json:"type"`
	UID        string `json:"uid"`
	Status     string `json:"status"`
	Message    string `json:"message"`
	ImportPath string `json:"import_path"`
	Importer   string `json:"importer"`
}

type assetOption struct {
	Name    string          `json:"name"`
	Type    string          `json:"type"`
	Value   json.RawMessage `json:"value"`
	Default json.RawMessage `json:"default"`
	Enum    json.RawMessage `json:"enum"`
	Range   []any           `json:"range"`
	ClassOf string          `json:"class_of"`
}

// importParam is the value of key in path's .import [params], as written on disk.
func importParam(t *testing.T, project, res, key string) string {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(project, strings.TrimPrefix(res, "res://")+".import"))
	if err != nil {
		t.Fatal(err)
	}
	for _, l := range strings.Split(string(b), "\n") {
		if v, ok := strings.CutPrefix(l, key+"="); ok {
			return v
		}
	}
	t.Fatalf("%s.import has no %s:\n%s", res, key, b)
	return ""
}

// An outside PNG, WAV and glTF are imported from an allowed root with their
// types and UIDs; import options are read with the importer's defaults and
// valid values, set by name, and a fresh Godot sees them in the reimported
// resources; bad options, a failing import, links and paths outside the root
// are refused and leave nothing behind.
func TestAssetsImportAndOptions(t *testing.T) {
	root := t.TempDir()
	outside := t.TempDir()
	files := map[string][]byte{"hero.png": assetPNG(t), "hit.wav": assetWAV(), "tri.gltf": assetGLTF(), "broken.png": []byte("this is not a PNG at all")}
	for n, b := range files {
		if err := os.WriteFile(filepath.Join(root, n), b, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	os.WriteFile(filepath.Join(outside, "secret.png"), files["hero.png"], 0o644)
	if err := os.Symlink(filepath.Join(outside, "secret.png"), filepath.Join(root, "escape.png")); err != nil {
		t.Fatal(err)
	}
	s := newSession(t, "GODOT_MCP_IMPORT_ROOTS="+root, "GODOT_MCP_CALL_TIMEOUT=4m")
	h := s.host
	// A material the glTF's Mat will be replaced with.
	writeFiles(t, s.project, map[string]string{"red.tres": "[gd_resource type=\"StandardMaterial3D\" format=3]\n\n[resource]\nalbedo_color = Color(1, 0, 0, 1)\n"})
	h.mustCall(t, "godot_enable_toolset", map[string]any{"name": "resources"}, nil)
	h.mustCall(t, "godot_resources_rescan", nil, nil)
	h.mustCall(t, "godot_enable_toolset", map[string]any{"name": "assets"}, nil)

	// Refusals first: nothing may reach the project.
	e := h.mustFail(t, "godot_assets_import", map[string]any{"files": []string{filepath.Join(outside, "secret.png")}, "to": "res://imported"})
	if e.Error != "PRECONDITION_FAILED" || !strings.Contains(e.Hint, "GODOT_MCP_IMPORT_ROOTS") {
		t.Fatalf("outside the root: %+v", e)
	}
	e = h.mustFail(t, "godot_assets_import", map[string]any{"files": []string{filepath.Join(root, "escape.png")}, "to": "res://imported"})
	if e.Error != "PRECONDITION_FAILED" || !strings.Contains(e.Hint, "does not follow links") {
		t.Fatalf("a link out of the root: %+v", e)
	}
	e = h.mustFail(t, "godot_assets_import", map[string]any{"files": []string{filepath.Join(root, "hero.png"), filepath.Join(root, "broken.png")}, "to": "res://imported"})
	t.Logf("broken import: %+v", e)
	if e.Error != "VALIDATION_ERROR" || !strings.Contains(e.Hint, "res://imported/broken.png") || !strings.Contains(e.Hint, "rolled back") ||
		!strings.Contains(e.Hint, "Not a PNG file") {
		t.Fatalf("a file the importer refuses: %+v", e)
	}
	if _, err := os.Stat(filepath.Join(s.project, "imported")); !os.IsNotExist(err) {
		entries, _ := os.ReadDir(filepath.Join(s.project, "imported"))
		t.Fatalf("a failed import left res://imported behind (%v): %v", err, entries)
	}
	var dry struct {
		DryRun bool `json:"dry_run"`
	}
	h.mustCall(t, "godot_assets_import", map[string]any{"files": []string{filepath.Join(root, "hero.png")}, "to": "res://imported", "dry_run": true}, &dry)
	if _, err := os.Stat(filepath.Join(s.project, "imported")); !dry.DryRun || !os.IsNotExist(err) {
		t.Fatalf("a dry run wrote res://imported (%v)", err)
	}

	// The import.
	ctx := ctxFor(t, 4*time.Minute)
	r, err := h.call(ctx, "godot_assets_import", map[string]any{"files": []string{filepath.Join(root, "hero.png"), filepath.Join(root, "hit.wav"), filepath.Join(root, "tri.gltf")},
		"to": "res://imported", "timeout_ms": 110000})
	if err != nil || r.IsError {
		t.Fatalf("import: %v %s", err, r.Raw)
	}
	var imp struct {
		Folder        string      `json:"folder"`
		CreatedFolder bool        `json:"created_folder"`
		Files         []assetFile `json:"files"`
		Undoable      bool        `json:"undoable"`
	}
	if err := r.decode(&imp); err != nil {
		t.Fatal(err)
	}
	t.Logf("imported: %s", r.Raw)
	want := map[string]string{"res://imported/hero.png": "CompressedTexture2D", "res://imported/hit.wav": "AudioStreamWAV", "res://imported/tri.gltf": "PackedScene"}
	if len(imp.Files) != 3 || !imp.CreatedFolder || !imp.Undoable {
		t.Fatalf("import: %s", r.Raw)
	}
	uids := map[string]string{}
	for _, f := range imp.Files {
		if f.Status != "imported" || f.Type != want[f.Path] || !strings.HasPrefix(f.UID, "uid://") || f.ImportPath != f.Path+".import" {
			t.Fatalf("file %+v", f)
		}
		if _, err := os.Stat(filepath.Join(s.project, strings.TrimPrefix(f.ImportPath, "res://"))); err != nil {
			t.Fatalf("%s: %v", f.ImportPath, err)
		}
		// The UID is the one Godot wrote into the .import file.
		if got := importParamSection(t, s.project, f.Path, "uid"); got != `"`+f.UID+`"` {
			t.Fatalf("%s: uid %s, .import says %s", f.Path, f.UID, got)
		}
		uids[f.Path] = f.UID
	}
	// Importing again without overwrite is refused.
	e = h.mustFail(t, "godot_assets_import", map[string]any{"files": []string{filepath.Join(root, "hero.png")}, "to": "res://imported"})
	if e.Error != "VALIDATION_ERROR" || !strings.Contains(e.Hint, "exist already") {
		t.Fatalf("no overwrite: %+v", e)
	}

	// Options with the importer's defaults and valid values.
	var opts struct {
		Importer string        `json:"importer"`
		Metadata string        `json:"metadata"`
		Options  []assetOption `json:"options"`
	}
	r = h.mustCall(t, "godot_assets_get_import_options", map[string]any{"path": "res://imported/hero.png"}, &opts)
	t.Logf("texture options: %s", r.Raw)
	byName := map[string]assetOption{}
	for _, o := range opts.Options {
		byName[o.Name] = o
	}
	mode, ok := byName["compress/mode"]
	if opts.Importer != "texture" || opts.Metadata != "import_dock" || !ok || mode.Type != "int" || !strings.Contains(string(mode.Enum), `"name":"Lossless"`) ||
		string(mode.Default) != "0" || byName["process/size_limit"].Range == nil {
		t.Fatalf("texture options: %s", r.Raw)
	}

	// Bad options: refused with did-you-mean and the valid set, nothing changed.
	before, _ := os.ReadFile(filepath.Join(s.project, "imported", "hero.png.import"))
	e = h.mustFail(t, "godot_assets_set_import_options", map[string]any{"path": "res://imported/hero.png", "options": map[string]any{"compress/mod": 0}})
	if e.Error != "VALIDATION_ERROR" || !strings.Contains(e.Hint, "Did you mean 'compress/mode'?") || !strings.Contains(e.Hint, "mipmaps/generate") {
		t.Fatalf("unknown option: %+v", e)
	}
	e = h.mustFail(t, "godot_assets_set_import_options", map[string]any{"path": "res://imported/hero.png", "options": map[string]any{"compress/normal_map": "Enabled", "process/size_limit": -4}})
	if e.Error != "VALIDATION_ERROR" || !strings.Contains(e.Hint, "Enable (1)") || !strings.Contains(e.Hint, "process/size_limit") {
		t.Fatalf("bad values: %+v", e)
	}
	e = h.mustFail(t, "godot_assets_get_import_options", map[string]any{"path": "res://imported/nope.png"})
	if e.Error != "RESOURCE_NOT_FOUND" {
		t.Fatalf("missing file: %+v", e)
	}
	after, _ := os.ReadFile(filepath.Join(s.project, "imported", "hero.png.import"))
	if !bytes.Equal(before, after) {
		t.Fatalf("a refused set changed the .import:\n%s\n----\n%s", before, after)
	}

	// The texture: normal map, mipmaps, a size limit.
	var set struct {
		Changes []struct {
			Name string          `json:"name"`
			Now  json.RawMessage `json:"now"`
		} `json:"changes"`
		Status string `json:"status"`
		UID    string `json:"uid"`
	}
	r = h.mustCall(t, "godot_assets_set_import_options", map[string]any{"path": "res://imported/hero.png",
		"options": map[string]any{"compress/normal_map": "Enable", "mipmaps/generate": true, "process/size_limit": 16}}, &set)
	t.Logf("set: %s", r.Raw)
	if set.Status != "imported" || len(set.Changes) != 3 || set.UID != uids["res://imported/hero.png"] {
		t.Fatalf("set: %s", r.Raw)
	}
	if v := importParam(t, s.project, "res://imported/hero.png", "compress/normal_map"); v != "1" {
		t.Fatalf("compress/normal_map=%s on disk", v)
	}
	// The WAV loops forward.
	h.mustCall(t, "godot_assets_set_import_options", map[string]any{"path": "res://imported/hit.wav", "options": map[string]any{"edit/loop_mode": "Forward"}}, nil)
	if v := importParam(t, s.project, "res://imported/hit.wav", "edit/loop_mode"); v != "2" {
		t.Fatalf("edit/loop_mode=%s on disk", v)
	}
	// The change is one undo action: undo writes the previous .import back, redo the new one.
	var undo struct {
		Performed int `json:"performed"`
	}
	h.mustCall(t, "godot_undo", map[string]any{"history": "global"}, &undo)
	if v := importParam(t, s.project, "res://imported/hit.wav", "edit/loop_mode"); undo.Performed != 1 || v != "0" {
		t.Fatalf("after undo (%+v): edit/loop_mode=%s on disk", undo, v)
	}
	h.mustCall(t, "godot_redo", map[string]any{"history": "global"}, nil)
	if v := importParam(t, s.project, "res://imported/hit.wav", "edit/loop_mode"); v != "2" {
		t.Fatalf("after redo: edit/loop_mode=%s on disk", v)
	}
	// The glTF: root type and name, and its material replaced by res://red.tres.
	e = h.mustFail(t, "godot_assets_set_import_options", map[string]any{"path": "res://imported/tri.gltf", "options": map[string]any{"nodes/root_type": "Resource"}})
	if e.Error != "VALIDATION_ERROR" || !strings.Contains(e.Hint, "not a Node class") {
		t.Fatalf("root type not a node: %+v", e)
	}
	e = h.mustFail(t, "godot_assets_set_import_options", map[string]any{"path": "res://imported/tri.gltf", "options": map[string]any{"nodes/root_type": "CanvasItem"}})
	if e.Error != "VALIDATION_ERROR" || !strings.Contains(e.Hint, "cannot be instantiated") {
		t.Fatalf("root type abstract: %+v", e)
	}
	r = h.mustCall(t, "godot_assets_set_import_options", map[string]any{"path": "res://imported/tri.gltf", "options": map[string]any{
		"nodes/root_type": "StaticBody3D", "nodes/root_name": "Crate",
		"_subresources": map[string]any{"materials": map[string]any{"Mat": map[string]any{"use_external/enabled": true, "use_external/path": "res://red.tres"}}}}}, nil)
	t.Logf("gltf set: %s", r.Raw)

	got := headlessPrint(t, s.project, `extends SceneTree
func _init() -> void:
	var out := {}
	var tex: Texture2D = load("res://imported/hero.png")
	out["tex"] = tex.get_class()
	out["w"] = tex.get_width()
	out["mips"] = tex.get_image().has_mipmaps()
	var wav: AudioStream = load("res://imported/hit.wav")
	out["wav"] = wav.get_class()
	out["loop"] = wav.get("loop_mode")
	var ps: PackedScene = load("res://imported/tri.gltf")
	var n: Node = ps.instantiate()
	out["root"] = n.get_class()
	out["name"] = str(n.name)
	var mi: MeshInstance3D = null
	for c: Node in n.find_children("*", "MeshInstance3D", true, false):
		mi = c
	var mat: Material = null
	if mi != null:
		mat = mi.get_surface_override_material(0)
		if mat == null:
			mat = mi.mesh.surface_get_material(0)
	out["mat"] = mat.resource_path if mat != null else ""
	out["uid"] = ResourceUID.id_to_text(ResourceLoader.get_resource_uid("res://imported/hero.png"))
	n.free()
	print("ASSETS ", JSON.stringify(out))
	quit()
`, "ASSETS")
	var seen struct {
		Tex, Wav, Root, Name, Mat, UID string
		W, Loop                        int
		Mips                           bool
	}
	if err := json.Unmarshal([]byte(got), &seen); err != nil {
		t.Fatalf("%s: %v", got, err)
	}
	t.Logf("a fresh Godot sees %s", got)
	if seen.Tex != "CompressedTexture2D" || seen.W != 16 || !seen.Mips || seen.Wav != "AudioStreamWAV" || seen.Loop != 1 /* LOOP_FORWARD */ ||
		seen.Root != "StaticBody3D" || seen.Name != "Crate" || seen.Mat != "res://red.tres" || seen.UID != uids["res://imported/hero.png"] {
		t.Fatalf("a fresh Godot sees %s", got)
	}
}

// importParamSection is key's value in the [remap] section of path's .import.
func importParamSection(t *testing.T, project, res, key string) string {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(project, strings.TrimPrefix(res, "res://")+".import"))
	if err != nil {
		t.Fatal(err)
	}
	for _, l := range strings.Split(string(b), "\n") {
		if v, ok := strings.CutPrefix(l, key+"="); ok {
			return v
		}
	}
	return fmt.Sprintf("(no %s in %s.import)", key, res)
}

// Without GODOT_MCP_IMPORT_ROOTS nothing outside the project is read.
func TestAssetsImportRootsUnset(t *testing.T) {
	dir := t.TempDir()
	os.WriteFile(filepath.Join(dir, "a.png"), assetPNG(t), 0o644)
	s := newSession(t, "GODOT_MCP_IMPORT_ROOTS=")
	s.host.mustCall(t, "godot_enable_toolset", map[string]any{"name": "assets"}, nil)
	e := s.host.mustFail(t, "godot_assets_import", map[string]any{"files": []string{filepath.Join(dir, "a.png")}, "to": "res://imported"})
	if e.Error != "PRECONDITION_FAILED" || !strings.Contains(e.Hint, "GODOT_MCP_IMPORT_ROOTS is not set") {
		t.Fatalf("%+v", e)
	}
	if _, err := os.Stat(filepath.Join(s.project, "imported")); !os.IsNotExist(err) {
		t.Fatalf("res://imported exists: %v", err)
	}
}
