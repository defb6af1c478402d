package analysis

import (
	"reflect"
	"sort"
	"strings"
	"testing"
)

func TestParseGDScript(t *testing.T) {
	src := "@tool\nclass_name Player extends \"res://base.gd\"\n" + // 1-2
		"## doc: preload(\"res://in_comment.gd\")\n" + // 3
		"const A = preload(\"a.gd\") # preload(\"res://also_comment.gd\")\n" + // 4
		"const S = \"\"\"many\n\"lines\" res://in_triple.png\n\"\"\"\n" + // 5-7
		"var r = r\"res://raw.png\\d\"\nvar q = 'res://single.tres'\n" + // 8-9
		"var sn = &\"name\"\nvar np = ^\"Node/Path\"\n" + // 10-11
		"func _ready() -> void:\n\tvar x = load(\"res://scenes/%s.tscn\" % name)\n\tvar f = func(): pass\n" + // 12-14
		"@rpc(\"any_peer\") func remote_call():\n\tpass\n" + // 15-16
		"static func make() -> Player:\n\treturn null\n" + // 17-18
		"class Inner extends Node:\n\tfunc inner_only():\n\t\tpass\n" + // 19-21
		"func \u00e9t\u00e9():\n\tpass\n" // 22-23
	s := parseGDScript(src)
	if s.className != "Player" || s.extends != "res://base.gd" || !s.extendsPath || s.extendsLine != 2 {
		t.Fatalf("class %q extends %q path %v line %d", s.className, s.extends, s.extendsPath, s.extendsLine)
	}
	var funcs []string
	for f := range s.funcs {
		funcs = append(funcs, f)
	}
	sort.Strings(funcs)
	if want := []string{"_ready", "make", "remote_call", "\u00e9t\u00e9"}; !reflect.DeepEqual(funcs, want) {
		t.Fatalf("funcs %v, want %v", funcs, want)
	}
	var refs []string
	for _, r := range s.refs {
		refs = append(refs, r.kind+" "+r.text+" "+itoa(r.line))
	}
	want := []string{
		"extends res://base.gd 2",
		"preload a.gd 4",
		"load res://scenes/%s.tscn 13",
		"text res://in_triple.png 6",
		"text res://raw.png 8",
		"text res://single.tres 9",
	}
	if !reflect.DeepEqual(refs, want) {
		t.Fatalf("refs\n%v\nwant\n%v", refs, want)
	}
}

func itoa(n int) string {
	b := []byte{}
	if n == 0 {
		return "0"
	}
	for n > 0 {
		b = append([]byte{byte('0' + n%10)}, b...)
		n /= 10
	}
	return string(b)
}

func TestScanRefs(t *testing.T) {
	got := scanRefs("a \"res://my dir/x.png\" b res://y.tres, (res://z.gd) uid://abc123xyz; myres://no 'res://q.json'\nres://next_line.txt.", 1)
	var out []string
	for _, r := range got {
		out = append(out, r.text+"@"+itoa(r.line))
	}
	want := []string{"res://my dir/x.png@1", "res://y.tres@1", "res://z.gd@1", "uid://abc123xyz@1", "res://q.json@1", "res://next_line.txt@2"}
	if !reflect.DeepEqual(out, want) {
		t.Fatalf("%v\nwant %v", out, want)
	}
}

func TestMatchn(t *testing.T) {
	for _, c := range []struct {
		s, p string
		want bool
	}{
		{"data/a.json", "*.json", true},
		{"res://data/sub/a.JSON", "*.json", true},
		{"data/a.json", "data/*", true},
		{"other/a.json", "data/*", false},
		{"a.txt", "?.txt", true},
		{"ab.txt", "?.txt", false},
		{"x", "", false},
	} {
		if got := matchn(c.s, c.p); got != c.want {
			t.Errorf("matchn(%q, %q) = %v", c.s, c.p, got)
		}
	}
}

// FuzzGDScript: any text lexes without a panic and every reference found
// is on a line of it.
func FuzzGDScript(f *testing.F) {
	f.Add("extends \"res://a.gd\"\nconst A = preload('b.gd')\n\"\"\"x\nres://c.png\"\"\"\nfunc f():\n\tload(r\"res://d\\\")")
	f.Add("r\"\\'\"''' \n#\"res://x\n\"res://y")
	f.Fuzz(func(t *testing.T, src string) {
		lines := 1 + strings.Count(src, "\n")
		s := parseGDScript(src)
		for _, r := range s.refs {
			if r.line < 1 || r.line > lines {
				t.Fatalf("ref %q on line %d of %d", r.text, r.line, lines)
			}
		}
	})
}
