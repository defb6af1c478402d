package sdk

import (
	"bytes"
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"time"
)

var update = flag.Bool("update", false, "rewrite testdata/*.golden")

// The types below cover every mapping the package documentation lists.

type scalars struct {
	S   string  `json:"s" description:"A string, with a comma."`
	B   bool    `json:"b"`
	I   int     `json:"i" jsonschema:"minimum=1,maximum=10,default=5"`
	I8  int8    `json:"i8,omitempty"`
	U   uint32  `json:"u"`
	F   float64 `json:"f"`
	F32 float32 `json:"f32,omitzero"`
}

type enums struct {
	Mode  string  `json:"mode" jsonschema:"enum=fast|slow,default=fast"`
	Level int     `json:"level" jsonschema:"enum=1|2|3"`
	Ratio float64 `json:"ratio" jsonschema:"enum=0.5|1"`
	Name  string  `json:"name" jsonschema:"minLength=1,maxLength=64,format=uri"`
	Must  *string `json:"must" jsonschema:"required"`
	Maybe string  `json:"maybe" jsonschema:"optional"`
}

type Vec2 struct {
	X float64 `json:"x"`
	Y float64 `json:"y"`
}

type Base struct {
	ID   string `json:"id" description:"Embedded field."`
	Kind string `json:"kind"`
}

type Extra struct {
	Note string `json:"note"`
}

type composite struct {
	Base
	*Extra
	Kind     string            `json:"kind" description:"Shadows Base.kind."`
	Position Vec2              `json:"position"`
	Offset   *Vec2             `json:"offset"`
	Tags     []string          `json:"tags,omitempty" jsonschema:"minItems=1,maxItems=8"`
	Grid     [2][3]int         `json:"grid"`
	Props    map[string]any    `json:"props"`
	Counts   map[string]int    `json:"counts,omitempty"`
	Raw      json.RawMessage   `json:"raw"`
	Any      any               `json:"any"`
	Blob     []byte            `json:"blob,omitempty"`
	When     time.Time         `json:"when"`
	Count    int64             `json:"count,string"`
	Nested   struct{ A int }   `json:"nested"`
	Skipped  string            `json:"-"`
	hidden   string            //lint:ignore U1000 proves unexported fields are skipped
	Named    map[int]Vec2      `json:"named,omitempty"`
	Labels   map[string]string `json:"labels,omitempty"`
}

type TreeNode struct {
	Name     string      `json:"name"`
	Children []TreeNode  `json:"children"`
	Parent   *TreeNode   `json:"parent,omitempty"`
	Meta     *TreeMeta   `json:"meta,omitempty"`
	Siblings []*TreeNode `json:"siblings,omitempty"`
}

type TreeMeta struct {
	Depth int `json:"depth"`
}

type treeOut struct {
	Root  TreeNode `json:"root"`
	Total int      `json:"total"`
}

func TestSchemaGolden(t *testing.T) {
	cases := []struct {
		name string
		typ  reflect.Type
	}{
		{"empty", reflect.TypeFor[struct{}]()},
		{"scalars", reflect.TypeFor[scalars]()},
		{"enums", reflect.TypeFor[enums]()},
		{"composite", reflect.TypeFor[composite]()},
		{"tree_root", reflect.TypeFor[TreeNode]()},
		{"tree_out", reflect.TypeFor[treeOut]()},
		{"map_root", reflect.TypeFor[map[string]Vec2]()},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			s, err := generateSchema(tc.typ)
			if err != nil {
				t.Fatal(err)
			}
			raw, err := json.Marshal(s)
			if err != nil {
				t.Fatal(err)
			}
			var pretty bytes.Buffer
			if err := json.Indent(&pretty, raw, "", "  "); err != nil {
				t.Fatal(err)
			}
			pretty.WriteByte('\n')
			golden(t, filepath.Join("testdata", "schema_"+tc.name+".golden"), pretty.Bytes())
		})
	}
}

func golden(t *testing.T, path string, got []byte) {
	t.Helper()
	if *update {
		if err := os.WriteFile(path, got, 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (run go test -update to create it)", err)
	}
	if !bytes.Equal(got, want) {
		t.Errorf("%s differs (run go test ./sdk -update if the change is intended):\n--- got\n%s", path, got)
	}
}

func TestSchemaErrors(t *testing.T) {
	type badKey struct {
		A string `json:"a" jsonschema:"description=nope"`
	}
	type badEnum struct {
		A int `json:"a" jsonschema:"enum=x|y"`
	}
	type badMin struct {
		A int `json:"a" jsonschema:"minimum=low"`
	}
	type badChan struct {
		C chan int `json:"c"`
	}
	type badFunc struct {
		F func() `json:"f"`
	}
	type badMapKey struct {
		M map[Vec2]int `json:"m"`
	}
	type badBoolEnum struct {
		B bool `json:"b" jsonschema:"enum=true"`
	}
	type badNoValue struct {
		A string `json:"a" jsonschema:"enum"`
	}
	cases := []struct {
		name string
		typ  reflect.Type
		want string
	}{
		{"unknown tag key", reflect.TypeFor[badKey](), `unknown jsonschema tag key "description"`},
		{"enum of wrong type", reflect.TypeFor[badEnum](), `enum value "x" is not an integer`},
		{"minimum not a number", reflect.TypeFor[badMin](), `minimum="low" is not a number`},
		{"channel", reflect.TypeFor[badChan](), "chan values have no JSON form"},
		{"func", reflect.TypeFor[badFunc](), "func values have no JSON form"},
		{"struct map key", reflect.TypeFor[badMapKey](), "map keys must be strings or integers"},
		{"bool enum", reflect.TypeFor[badBoolEnum](), "does not fit a boolean"},
		{"tag without value", reflect.TypeFor[badNoValue](), `"enum" needs a value`},
		{"string root", reflect.TypeFor[string](), "is not a JSON object type"},
		{"slice root", reflect.TypeFor[[]Vec2](), "is not a JSON object type"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			_, err := generateSchema(tc.typ)
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Fatalf("error = %v, want it to contain %q", err, tc.want)
			}
		})
	}
}

func TestNewToolPanicsOnBadDefinitions(t *testing.T) {
	type badTag struct {
		A string `json:"a" jsonschema:"requird"`
	}
	fn := func(context.Context, *Call, struct{}) (struct{}, error) { return struct{}{}, nil }
	cases := []struct {
		name string
		make func()
		want string
	}{
		{"bad name", func() { NewTool("Bad-Name", ToolOptions{Safety: ReadOnly}, fn) }, "must be lower case"},
		{"no safety", func() { NewTool("t", ToolOptions{}, fn) }, "Safety must be one of"},
		{"unknown precondition", func() {
			NewTool("t", ToolOptions{Safety: Mutating, Preconditions: []string{RequireBridgeConnected, "active_scen"}}, fn)
		}, `Preconditions: unknown name "active_scen" (known: active_scene, confirm, bridge_connected, runtime_probe, game_not_breaked, godot_version, project_dir, godot_binary)`},
		{"bad input tag", func() {
			NewTool("t", ToolOptions{Safety: ReadOnly}, func(context.Context, *Call, badTag) (struct{}, error) { return struct{}{}, nil })
		}, `input type: sdk.badTag.A: unknown jsonschema tag key "requird"`},
		{"reserved dry_run", func() {
			NewTool("t", ToolOptions{Safety: Mutating}, func(context.Context, *Call, reservedDryRun) (struct{}, error) { return struct{}{}, nil })
		}, `input field "dry_run" (sdk.reservedDryRun.Preview) is reserved: the host owns dry_run and confirm; read Call.DryRun and Call.Confirm instead`},
		{"reserved confirm", func() {
			NewTool("t", ToolOptions{Safety: Destructive}, func(context.Context, *Call, reservedConfirm) (struct{}, error) { return struct{}{}, nil })
		}, `input field "confirm" (sdk.reservedConfirm.Confirm) is reserved`},
		{"non-object output", func() {
			NewTool("t", ToolOptions{Safety: ReadOnly}, func(context.Context, *Call, struct{}) (string, error) { return "", nil })
		}, "output type: string is not a JSON object type"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			defer func() {
				p := recover()
				if p == nil || !strings.Contains(p.(string), tc.want) {
					t.Fatalf("panic = %v, want it to contain %q", p, tc.want)
				}
			}()
			tc.make()
		})
	}
}

type reservedDryRun struct {
	Path    string `json:"path"`
	Preview bool   `json:"dry_run,omitempty"`
}

type reservedConfirm struct {
	Confirm bool `json:"confirm"`
}

type sharedIn struct {
	From   Vec2            `json:"from"`
	To     *Vec2           `json:"to"`
	Path   []Vec2          `json:"path"`
	ByName map[string]Vec2 `json:"by_name,omitempty"`
}

// A named struct used more than once is written once under $defs, and
// arguments are still checked against it wherever it is used.
func TestSharedStructsGoToDefs(t *testing.T) {
	s, err := generateSchema(reflect.TypeFor[sharedIn]())
	if err != nil {
		t.Fatal(err)
	}
	raw, _ := json.Marshal(s)
	if n := strings.Count(string(raw), `"x":{"type":"number"}`); n != 1 {
		t.Errorf("Vec2 written %d times: %s", n, raw)
	}
	if n := strings.Count(string(raw), `"$ref":"#/$defs/Vec2"`); n != 4 {
		t.Errorf("%d references to Vec2: %s", n, raw)
	}
	for _, tc := range []struct{ args, problem string }{
		{`{"from":{"x":1,"y":2},"to":null,"path":[{"x":1,"y":"2"}]}`, "path[0].y: expected number"},
		{`{"from":{"x":1},"to":null,"path":[]}`, "from.y: required field is missing"},
		{`{"from":{"x":1,"y":2},"to":{"x":1,"y":2,"z":3},"path":[]}`, "to"},
		{`{"from":{"x":1,"y":2},"to":null,"path":[],"by_name":{"a":{"x":true,"y":1}}}`, "by_name.a.x"},
	} {
		_, verr := validateArguments(s, json.RawMessage(tc.args))
		if verr == nil || !strings.Contains(verr.Error(), tc.problem) {
			t.Errorf("%s: %v, want %q", tc.args, verr, tc.problem)
		}
	}
	if _, verr := validateArguments(s, json.RawMessage(`{"from":{"x":1,"y":2},"to":{"x":0,"y":0},"path":[{"x":3,"y":4}]}`)); verr != nil {
		t.Errorf("valid arguments refused: %v", verr)
	}
}

// A required slice of an input is an array, never null: an agent that sends
// null for it is told so before the tool runs. Optional slices and outputs
// (a nil slice encodes as null) stay nullable.
func TestRequiredInputSliceIsNotNullable(t *testing.T) {
	type item struct {
		Tags []string `json:"tags"`
	}
	type in struct {
		Paths []string `json:"paths"`
		Extra []string `json:"extra,omitempty"`
		Items []item   `json:"items" jsonschema:"minItems=1"`
	}
	tool := NewTool("t", ToolOptions{Safety: ReadOnly}, func(context.Context, *Call, in) (in, error) { return in{}, nil }).def()
	var s struct {
		Properties map[string]struct {
			Type  any `json:"type"`
			Items struct {
				Properties map[string]struct {
					Type any `json:"type"`
				} `json:"properties"`
			} `json:"items"`
		} `json:"properties"`
	}
	if err := json.Unmarshal(tool.inSchemaJSON, &s); err != nil {
		t.Fatal(err)
	}
	if got := s.Properties["paths"].Type; got != "array" {
		t.Errorf("input paths: type %v, want array", got)
	}
	if got := s.Properties["items"].Type; got != "array" {
		t.Errorf("input items: type %v, want array", got)
	}
	if got := s.Properties["items"].Items.Properties["tags"].Type; got != "array" {
		t.Errorf("input items[].tags: type %v, want array", got)
	}
	if got := fmt.Sprint(s.Properties["extra"].Type); got != "[array null]" {
		t.Errorf("optional input extra: type %v, want [array null]", got)
	}
	if err := json.Unmarshal(tool.outSchemaJSON, &s); err != nil {
		t.Fatal(err)
	}
	if got := fmt.Sprint(s.Properties["paths"].Type); got != "[array null]" {
		t.Errorf("output paths: type %v, want [array null] (a nil slice encodes as null)", got)
	}
	if _, err := validateArguments(tool.inSchema, json.RawMessage(`{"paths":null,"items":[{"tags":[]}]}`)); err == nil || !strings.Contains(err.Hint, "paths") {
		t.Errorf("paths: null was not refused: %v", err)
	}
}
