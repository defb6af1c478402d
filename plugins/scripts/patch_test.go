package scripts

import (
	"strings"
	"testing"

	"github.com/godot-mcp/godot-mcp/sdk"
)

func TestDetectStyle(t *testing.T) {
	cases := []struct {
		name, src   string
		eol, indent string
	}{
		{"tabs lf", "extends Node\n\nfunc f():\n\tpass\n", "lf", "tabs"},
		{"spaces 4", "extends Node\nfunc f():\n    if x:\n        pass\n", "lf", "4 spaces"},
		{"spaces 2 crlf", "func f():\r\n  if x:\r\n    pass\r\n", "crlf", "2 spaces"},
		{"no indentation", "extends Node\n", "lf", "none"},
		{"mostly lf", "a\r\nb\nc\nd\n\te\n", "lf", "tabs"},
	}
	for _, c := range cases {
		st := detectStyle(c.src)
		if st.eolName() != c.eol || st.indentName() != c.indent {
			t.Errorf("%s: got %s/%s, want %s/%s", c.name, st.eolName(), st.indentName(), c.eol, c.indent)
		}
	}
}

func TestApplyEdits(t *testing.T) {
	tabs := "extends Node\n\nfunc _ready() -> void:\n\tvar x := 1\n\tprint(x)\n"
	cases := []struct {
		name      string
		src       string
		edits     []Edit
		want      string
		line      int
		converted bool
	}{
		{"plain", tabs, []Edit{{Old: "\tprint(x)\n", New: "\tprint(x + 1)\n"}}, "extends Node\n\nfunc _ready() -> void:\n\tvar x := 1\n\tprint(x + 1)\n", 5, false},
		{"spaces in new become tabs", tabs, []Edit{{Old: "\tprint(x)\n", New: "    if x:\n        print(x)\n"}},
			"extends Node\n\nfunc _ready() -> void:\n\tvar x := 1\n\tif x:\n\t\tprint(x)\n", 5, true},
		{"anchor written with spaces still matches a tab file", tabs, []Edit{{Old: "    var x := 1", New: "    var x := 2"}},
			"extends Node\n\nfunc _ready() -> void:\n\tvar x := 2\n\tprint(x)\n", 4, true},
		{"tabs in new become spaces", "func f():\n    pass\n", []Edit{{Old: "    pass\n", New: "\tif a:\n\t\tpass\n"}},
			"func f():\n    if a:\n        pass\n", 2, true},
		{"crlf kept", "func f():\r\n\tpass\r\n", []Edit{{Old: "\tpass\n", New: "\tprint(1)\n\tpass\n"}},
			"func f():\r\n\tprint(1)\r\n\tpass\r\n", 2, false},
		{"sequential edits see earlier ones", tabs, []Edit{{Old: "var x := 1", New: "var y := 1"}, {Old: "print(x)", New: "print(y)"}},
			"extends Node\n\nfunc _ready() -> void:\n\tvar y := 1\n\tprint(y)\n", 5, false},
		{"delete", tabs, []Edit{{Old: "\tprint(x)\n", New: ""}}, "extends Node\n\nfunc _ready() -> void:\n\tvar x := 1\n", 5, false},
		{"alignment spaces after tabs kept", tabs, []Edit{{Old: "\tprint(x)", New: "\tprint(x,\n\t      x)"}},
			"extends Node\n\nfunc _ready() -> void:\n\tvar x := 1\n\tprint(x,\n\t      x)\n", 5, false},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			got, applied, _, err := applyEdits(c.src, c.edits)
			if err != nil {
				t.Fatal(err)
			}
			if got != c.want {
				t.Fatalf("got  %q\nwant %q", got, c.want)
			}
			last := applied[len(applied)-1]
			if last.Line != c.line || last.IndentConverted != c.converted {
				t.Fatalf("applied %+v, want line %d converted %v", applied, c.line, c.converted)
			}
		})
	}
}

// An anchor that matches zero or several times changes nothing and says how
// often it matched and where its first line occurs.
func TestAnchorsMustMatchOnce(t *testing.T) {
	src := "func a():\n\tpass\n\nfunc b():\n\tpass\n"
	cases := []struct {
		name  string
		edits []Edit
		hint  []string
	}{
		{"twice", []Edit{{Old: "\tpass\n", New: "\treturn\n"}}, []string{"edits[0].old matches 2 times", "line(s) 2, 5"}},
		{"never", []Edit{{Old: "func c():", New: "func d():"}}, []string{"edits[0].old matches 0 times"}},
		{"second edit fails after the first", []Edit{{Old: "func a():", New: "func z():"}, {Old: "func a():", New: "x"}}, []string{"edits[1].old matches 0 times"}},
		{"empty anchor", []Edit{{Old: "", New: "x"}}, []string{"edits[0].old is empty"}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			_, _, _, err := applyEdits(src, c.edits)
			e := sdk.AsError(err)
			if e == nil || e.Code != sdk.CodeValidationError {
				t.Fatalf("got %v", err)
			}
			for _, h := range c.hint {
				if !strings.Contains(e.Hint, h) {
					t.Fatalf("hint %q lacks %q", e.Hint, h)
				}
			}
		})
	}
}

func TestReindentUnits(t *testing.T) {
	st := textStyle{eol: "\n", tabs: true, spaceUnit: 4, hasIndents: true}
	cases := []struct{ in, want string }{
		{"        deep", "\t\tdeep"}, // a lone 8-space line is two levels
		{"  a\n    b", "\ta\n\t\tb"}, // 2-space unit
		{"\talready", "\talready"},   // tabs untouched
		{"\t   align", "\t   align"}, // alignment after a tab untouched
		{"     five", "\t five"},     // remainder kept as spaces
		{"\n    \nx", "\n    \nx"},   // blank lines untouched
		{"none", "none"},
	}
	for _, c := range cases {
		if got, _ := reindent(c.in, st); got != c.want {
			t.Errorf("reindent(%q) = %q, want %q", c.in, got, c.want)
		}
	}
}
