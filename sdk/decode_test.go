package sdk

import (
	"context"
	"encoding/json"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/godot-mcp/godot-mcp/internal/plugmodel"
	"github.com/godot-mcp/godot-mcp/internal/rawjson"
)

type decodeName string

type decodeInner struct {
	Name  string             `json:"name"`
	Score float32            `json:"score,omitempty"`
	Tags  []decodeName       `json:"tags"`
	Next  *decodeInner       `json:"next,omitempty"`
	Attrs map[decodeName]int `json:"attrs"`
}

type decodeAll struct {
	S       string             `json:"s"`
	B       bool               `json:"b,omitempty"`
	I       int                `json:"i"`
	I8      int8               `json:"i8"`
	U16     uint16             `json:"u16"`
	F64     float64            `json:"f64"`
	P       *string            `json:"p"`
	L       []int              `json:"l"`
	M       map[string]float64 `json:"m"`
	A       any                `json:"a"`
	N       *decodeInner       `json:"n"`
	NS      []decodeInner      `json:"ns"`
	Named   decodeName         `json:"named"`
	NoTag   string
	Skipped string `json:"-"`
	hidden  int
}

// Types Unmarshal must leave to encoding/json.
type (
	decodeBytes    struct{ B []byte }
	decodeEmbedded struct {
		decodeInner
		X int `json:"x"`
	}
	decodeStringOpt struct {
		N int `json:"n,string"`
	}
	decodeTime struct{ T time.Time }
	decodeRaw  struct{ R json.RawMessage }
)

// decodeDup has two fields tagged "a" (encoding/json ignores both); built
// at run time so that vet does not flag the tags.
var decodeDup = reflect.StructOf([]reflect.StructField{
	{Name: "A", Type: reflect.TypeFor[int](), Tag: `json:"a"`},
	{Name: "B", Type: reflect.TypeFor[int](), Tag: `json:"a"`},
})

var decodeSeeds = []string{
	`{"s":"x","b":true,"i":-3,"i8":127,"u16":65535,"f64":1.5e3,"p":"q","l":[1,2],"m":{"a":1,"b":null},"a":{"k":[1,"s",null,true,{"z":2.5}]},"n":{"name":"n","score":2,"tags":["t"],"next":{"name":"deep"},"attrs":{"x":1}},"ns":[{"name":"a"},{}],"named":"nm","NoTag":"nt"}`,
	`{}`, `null`, `[]`, `"s"`, `{"l":[]}`, `{"l":null}`, `{"m":{}}`, `{"p":null}`, `{"a":null}`, `{"n":null}`,
	`{"S":"case folded"}`, `{"s":"a","s":"b"}`, `{"s":"a","S":"b"}`, `{"i":1.5}`, `{"i":1e2}`, `{"i8":128}`, `{"u16":-1}`,
	`{"i":"1"}`, `{"s":1}`, `{"b":"true"}`, `{"f64":1e400}`, `{"a":1e400}`, `{"unknown":1}`, `{"Skipped":"x"}`, `{"hidden":1}`,
	`{"s":"\u00e9\ud800 \\n"}`, "{\"s\":\"\xff\"}", `{"n":{"score":1e39}}`, `{"n":{"attrs":{"k":1.0}}}`, `{"ns":[null]}`,
	`{"l":[1,null,3]}`, `{"n":{"tags":null}}`,
}

// FuzzUnmarshal: Unmarshal decodes exactly as json.Unmarshal does, and
// the tree path NewTool uses agrees whenever it takes the value.
func FuzzUnmarshal(f *testing.F) {
	for _, s := range decodeSeeds {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		var want decodeAll
		wantErr := json.Unmarshal(data, &want)
		var got decodeAll
		gotErr := Unmarshal(data, &got)
		if (gotErr != nil) != (wantErr != nil) {
			t.Fatalf("Unmarshal(%q) err = %v, encoding/json err = %v", data, gotErr, wantErr)
		}
		if got.hidden != 0 {
			t.Fatalf("Unmarshal(%q) set an unexported field", data)
		}
		if wantErr == nil && !reflect.DeepEqual(got, want) {
			t.Fatalf("Unmarshal(%q):\n got  %#v\n want %#v", data, got, want)
		}
		tree, err := rawjson.Decode(data, true)
		if err != nil {
			return
		}
		var viaTree decodeAll
		if decodeTree(tree, &viaTree) {
			if wantErr != nil {
				t.Fatalf("decodeTree took %q, which encoding/json refuses: %v", data, wantErr)
			}
			if !reflect.DeepEqual(viaTree, want) {
				t.Fatalf("decodeTree(%q):\n got  %#v\n want %#v", data, viaTree, want)
			}
		}
	})
}

func TestUnmarshalTakesPlainTypesOnly(t *testing.T) {
	if !fastDecodable(reflect.TypeFor[decodeAll]()) {
		t.Fatal("decodeAll should take the fast path")
	}
	for _, typ := range []reflect.Type{
		reflect.TypeFor[decodeBytes](), reflect.TypeFor[decodeEmbedded](), reflect.TypeFor[decodeStringOpt](),
		reflect.TypeFor[decodeTime](), reflect.TypeFor[decodeRaw](), decodeDup,
		reflect.TypeFor[[2]int](), reflect.TypeFor[map[int]string](), reflect.TypeFor[chan int](),
	} {
		if fastDecodable(typ) {
			t.Errorf("%v must be left to encoding/json", typ)
		}
	}
	// Each of them still decodes, through encoding/json.
	var b decodeBytes
	if err := Unmarshal([]byte(`{"B":"aGk="}`), &b); err != nil || string(b.B) != "hi" {
		t.Errorf("[]byte field: %q, %v", b.B, err)
	}
	var s decodeStringOpt
	if err := Unmarshal([]byte(`{"n":"12"}`), &s); err != nil || s.N != 12 {
		t.Errorf(",string field: %d, %v", s.N, err)
	}
}

// Decoding into a value that holds data merges, as encoding/json does.
func TestUnmarshalMergesIntoExistingValues(t *testing.T) {
	v := decodeAll{S: "kept", M: map[string]float64{"old": 1}}
	if err := Unmarshal([]byte(`{"i":2,"m":{"new":2}}`), &v); err != nil {
		t.Fatal(err)
	}
	if v.S != "kept" || v.I != 2 || v.M["old"] != 1 || v.M["new"] != 2 {
		t.Fatalf("merge: %+v", v)
	}
}

// A tool's input is filled from the validated tree (defaults included),
// and from encoding/json for types the tree path does not take.
func TestToolInputFromTree(t *testing.T) {
	type plain struct {
		Text  string `json:"text"`
		Count int    `json:"count,omitempty" jsonschema:"default=4"`
	}
	type timed struct {
		At time.Time `json:"at"`
	}
	var gotPlain plain
	var gotTimed timed
	r, err := newRegistry(Toolset{Name: "d", Tools: []Tool{
		NewTool("plain", ToolOptions{Title: "P", Description: "p", Safety: ReadOnly}, func(_ context.Context, _ *Call, in plain) (struct{}, error) {
			gotPlain = in
			return struct{}{}, nil
		}),
		NewTool("timed", ToolOptions{Title: "T", Description: "t", Safety: ReadOnly}, func(_ context.Context, _ *Call, in timed) (struct{}, error) {
			gotTimed = in
			return struct{}{}, nil
		}),
	}})
	if err != nil {
		t.Fatal(err)
	}
	if res := call(t, r, &fakeBackend{}, plugmodel.CallRequest{Tool: "plain", Arguments: json.RawMessage(`{"text":"hi"}`)}); res.Err != nil {
		t.Fatal(res.Err)
	}
	if gotPlain != (plain{Text: "hi", Count: 4}) {
		t.Fatalf("plain input: %+v", gotPlain)
	}
	if res := call(t, r, &fakeBackend{}, plugmodel.CallRequest{Tool: "timed", Arguments: json.RawMessage(`{"at":"2026-12-01T08:00:00Z"}`)}); res.Err != nil {
		t.Fatal(res.Err)
	}
	if gotTimed.At.Hour() != 8 {
		t.Fatalf("timed input: %+v", gotTimed)
	}
}

func BenchmarkUnmarshal8MiB(b *testing.B) {
	data := []byte(`{"s":"` + strings.Repeat("y", 8<<20) + `","i":3}`)
	b.SetBytes(int64(len(data)))
	for b.Loop() {
		var v decodeAll
		if err := Unmarshal(data, &v); err != nil || len(v.S) != 8<<20 {
			b.Fatal(err)
		}
	}
}

// BenchmarkEncodingJSONUnmarshal8MiB is the baseline for BenchmarkUnmarshal8MiB.
func BenchmarkEncodingJSONUnmarshal8MiB(b *testing.B) {
	data := []byte(`{"s":"` + strings.Repeat("y", 8<<20) + `","i":3}`)
	b.SetBytes(int64(len(data)))
	for b.Loop() {
		var v decodeAll
		if err := json.Unmarshal(data, &v); err != nil || len(v.S) != 8<<20 {
			b.Fatal(err)
		}
	}
}
