package export

import (
	"os"
	"reflect"
	"strings"
	"testing"
)

func readFixture(t *testing.T) string {
	t.Helper()
	b, err := os.ReadFile("testdata/export_presets.cfg")
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// A file the editor wrote comes back byte for byte: multi-line strings,
// a Dictionary over several lines, a key Godot has and this toolset does
// not know, a Color.
func TestCfgRoundTripIsExact(t *testing.T) {
	text := readFixture(t)
	f, err := parseCfg(text)
	if err != nil {
		t.Fatal(err)
	}
	if got := f.String(); got != text {
		t.Fatalf("round trip differs:\n--- got\n%s\n--- want\n%s", got, text)
	}
	if len(f.sections) != 4 {
		t.Fatalf("%d sections", len(f.sections))
	}
	s := f.section("preset.0.options")
	raw, _ := s.get("ssh_remote_deploy/run_script")
	v, err := unquote(raw)
	if err != nil || !strings.Contains(v, "\nexport DISPLAY=:0\n") || !strings.Contains(v, `unzip -o -q "{temp_dir}/{archive_name}"`) {
		t.Fatalf("run_script decodes to %q (%v)", v, err)
	}
	if raw, _ := f.section("preset.0").get("some_future_key"); raw != "{\n\"a\": 1,\n\"b\": [2, 3]\n}" {
		t.Fatalf("multi-line dictionary kept as %q", raw)
	}
	files, ok := decodeStrings(mustGet(t, f.section("preset.1"), "export_files"))
	if !ok || !reflect.DeepEqual(files, []string{"res://main.tscn", `res://level "2".tscn`}) {
		t.Fatalf("export_files %q %v", files, ok)
	}
}

func mustGet(t *testing.T, s *cfgSection, k string) string {
	t.Helper()
	v, ok := s.get(k)
	if !ok {
		t.Fatalf("no %s", k)
	}
	return v
}

// Setting a key changes its line in place; a new key goes at the end of
// its section; everything else stays.
func TestCfgSetKeepsOrderAndTheRest(t *testing.T) {
	text := readFixture(t)
	f, _ := parseCfg(text)
	f.section("preset.0").set("export_path", quote("out/g.x86_64"))
	f.section("preset.0.options").set("shader_baker/enabled", "true")
	got := f.String()
	want := strings.Replace(text, `export_path="build/linux/game.x86_64"`, `export_path="out/g.x86_64"`, 1)
	want = strings.Replace(want, "rm -rf \\\"{temp_dir}\\\"\"\n", "rm -rf \\\"{temp_dir}\\\"\"\nshader_baker/enabled=true\n", 1)
	if got != want {
		t.Fatalf("got:\n%s", got)
	}
}

func TestCfgValues(t *testing.T) {
	for _, tc := range []struct {
		v    any
		typ  string
		want string
	}{
		{true, "bool", "true"},
		{float64(3), "int", "3"},
		{float64(3), "float", "3.0"},
		{0.5, "float", "0.5"},
		{"a \"b\" \\ c\nd", "string", "\"a \\\"b\\\" \\\\ c\nd\""},
		{[]any{"x", "y z"}, "strings", `PackedStringArray("x", "y z")`},
		{[]any{}, "strings", `PackedStringArray()`},
		{float64(7), "", "7"},
		{"Color(1, 0.5, 0, 1)", "other", "Color(1, 0.5, 0, 1)"},
	} {
		got, err := encodeAs(tc.v, tc.typ)
		if err != nil || got != tc.want {
			t.Errorf("encodeAs(%#v, %s) = %q, %v; want %q", tc.v, tc.typ, got, err, tc.want)
		}
		if tc.typ == "string" || tc.typ == "strings" {
			back, ok := decodeValue(got)
			if !ok || !reflect.DeepEqual(normalize(back), normalize(tc.v)) {
				t.Errorf("decodeValue(%q) = %#v", got, back)
			}
		}
	}
	for _, tc := range []struct {
		v   any
		typ string
	}{{"s", "other"}, {"Color(1)\n[preset.9]", "other"}, {"Color(1))(", "other"}, {"Color(1) (2)", "other"}, {"Color((1)", "other"}, {"yes", "bool"}, {1.5, "int"}, {true, "string"}, {[]any{1.0}, "strings"}, {map[string]any{}, ""}} {
		if got, err := encodeAs(tc.v, tc.typ); err == nil {
			t.Errorf("encodeAs(%#v, %s) = %q, want an error", tc.v, tc.typ, got)
		}
	}
	if v, ok := decodeValue("Color(0, 0, 0, 1)"); ok || v != "Color(0, 0, 0, 1)" {
		t.Errorf("a Color decodes to %#v %v", v, ok)
	}
	if s, _ := unquote(`"\u00e9\t\\"`); s != "é\t\\" {
		t.Errorf("unquote escapes: %q", s)
	}
}

func normalize(v any) any {
	if l, ok := v.([]any); ok {
		out := make([]string, len(l))
		for i, x := range l {
			out[i] = x.(string)
		}
		return out
	}
	return v
}

func TestCfgParseErrors(t *testing.T) {
	for _, text := range []string{
		"[preset.0\nname=\"x\"\n",
		"[preset.0]\n\nname=\"x\n",
		"[preset.0]\n\nname\n",
		"[preset.0]\n\nfiles=PackedStringArray(\"a\"\n",
		"[preset.0]\n\nname=\n",
	} {
		if _, err := parseCfg(text); err == nil {
			t.Errorf("parseCfg(%q) has no error", text)
		}
	}
	// Keys before a section, comments, CRLF and a quoted key are read.
	f, err := parseCfg("; top\nk=1\r\n[s]\n\n\"a b\"=\"c\"\n# note\n")
	if err != nil {
		t.Fatal(err)
	}
	if v, _ := f.sections[1].get("a b"); v != `"c"` {
		t.Fatalf("%+v", f.sections)
	}
	if encodeKey("a b") != `"a b"` || encodeKey("binary_format/architecture") != "binary_format/architecture" {
		t.Fatal("encodeKey")
	}
}

func TestTemplateVersion(t *testing.T) {
	for in, want := range map[string]string{
		"4.4.1.stable.official.49a5bc7b6":  "4.4.1.stable",
		"4.8.dev.custom_build.0123abcd":    "4.8.dev",
		"4.3.stable.mono.official.77dcf97": "4.3.stable.mono",
		"4.5.beta3.official":               "4.5.beta3",
		"garbage":                          "",
	} {
		if got := templateVersion(in); got != want {
			t.Errorf("templateVersion(%q) = %q, want %q", in, got, want)
		}
	}
	if got := tpzName("4.4.1.stable"); got != "Godot_v4.4.1-stable_export_templates.tpz" {
		t.Error(got)
	}
	if got := tpzName("4.3.stable.mono"); got != "Godot_v4.3-stable_mono_export_templates.tpz" {
		t.Error(got)
	}
}

func TestTemplateFiles(t *testing.T) {
	lin, _ := findPlatform("Linux")
	if got := lin.templates(map[string]string{"binary_format/architecture": `"arm64"`}, false); !reflect.DeepEqual(got, []string{"linux_release.arm64"}) {
		t.Error(got)
	}
	if got := lin.templates(nil, true); !reflect.DeepEqual(got, []string{"linux_debug.x86_64"}) {
		t.Error(got)
	}
	web, _ := findPlatform("Web")
	if got := web.templates(map[string]string{"variant/thread_support": "true"}, false); !reflect.DeepEqual(got, []string{"web_release.zip"}) {
		t.Error(got)
	}
	if got := web.templates(nil, true); !reflect.DeepEqual(got, []string{"web_nothreads_debug.zip"}) {
		t.Error(got)
	}
	win, _ := findPlatform("Windows Desktop")
	if got := win.templates(nil, false); !reflect.DeepEqual(got, []string{"windows_release_x86_64.exe"}) {
		t.Error(got)
	}
}
