package rawjson

import (
	"bytes"
	"encoding/json"
	"reflect"
	"strings"
	"testing"
)

// cases covers the grammar's corners; the fuzz targets start from them.
var cases = []string{
	`{}`, `[]`, `""`, `0`, `-0`, `1.5e+3`, `-12.25E-2`, `true`, `false`, `null`,
	` {"a": 1, "b": [true, false, null], "c": {"d": "e"}} `,
	`{"a":1,"a":2}`,
	`"plain ascii that is long enough to take the eight-byte path"`,
	`"esc \" \\ \/ \b \f \n \r \t end"`,
	`"\u00e9\u4e2d\ud83d\ude00 pair, lone \ud800 x \udc00 y \ud800\u0041"`,
	"\"invalid utf8 \xff\xfe here and split \xe2\x82\"",
	"\"\xed\xa0\x80 encoded surrogate\"",
	`{"k\u0065y": "v"}`,
	`[1,2,3,[4,[5,{"x":[]}]]]`,
	`1e400`, `-`, `01`, `1.`, `.5`, `1e`, `1e+`, `+1`, `tru`, `nul`, `{"a"}`, `{"a":}`, `{,}`, `[1,]`, `[,1]`,
	`{"a":1,}`, `"unterminated`, "\"ctrl \x01 char\"", `"\x"`, `"\u12"`, `"\u12g4"`, `{} {}`, `[] x`, ``, `   `,
	`{"a":1}garbage`, `{"a" 1}`, `{1:2}`, `["a" "b"]`,
	`"12345678\"90"`, `"1234567\\"`, "\"1234567\x1f\"",
}

func TestValidMatchesEncodingJSON(t *testing.T) {
	for _, c := range cases {
		if got, want := Valid([]byte(c)), json.Valid([]byte(c)); got != want {
			t.Errorf("Valid(%q) = %v, encoding/json says %v", c, got, want)
		}
	}
}

func TestDecodeMatchesEncodingJSON(t *testing.T) {
	for _, c := range cases {
		checkDecode(t, []byte(c))
	}
}

func TestObjectSplitsMembers(t *testing.T) {
	members, err := Object([]byte(` { "name" : "godot_echo" , "arguments":{"payload": "x\"y"}, "n": [1, 2] } `))
	if err != nil {
		t.Fatal(err)
	}
	want := []Member{{"name", []byte(`"godot_echo"`)}, {"arguments", []byte(`{"payload": "x\"y"}`)}, {"n", []byte(`[1, 2]`)}}
	if !reflect.DeepEqual(members, want) {
		t.Fatalf("Object = %q, want %q", members, want)
	}
	if v, ok := Get(members, "n"); !ok || string(v) != `[1, 2]` {
		t.Errorf("Get(n) = %q, %v", v, ok)
	}
	if _, ok := Get(members, "missing"); ok {
		t.Error("Get found a member that is not there")
	}
	if _, err := Object([]byte(`[1]`)); err != ErrNotObject {
		t.Errorf("Object of an array: err = %v, want ErrNotObject", err)
	}
	if _, err := Object([]byte(`{"a":1} x`)); err == nil {
		t.Error("Object accepted data after the object")
	}
}

func TestDecodeUseNumber(t *testing.T) {
	v, err := Decode([]byte(`{"n": 12345678901234567890, "f": -1.5e3}`), true)
	if err != nil {
		t.Fatal(err)
	}
	m := v.(map[string]any)
	if m["n"] != json.Number("12345678901234567890") || m["f"] != json.Number("-1.5e3") {
		t.Errorf("UseNumber decode = %#v", m)
	}
}

func TestDepthLimit(t *testing.T) {
	deep := strings.Repeat("[", maxDepth+1) + strings.Repeat("]", maxDepth+1)
	if Valid([]byte(deep)) {
		t.Error("Valid accepted nesting past the limit")
	}
	if _, err := Decode([]byte(deep), false); err == nil {
		t.Error("Decode accepted nesting past the limit")
	}
	ok := strings.Repeat("[", maxDepth) + strings.Repeat("]", maxDepth)
	if !Valid([]byte(ok)) || !json.Valid([]byte(ok)) {
		t.Error("nesting at the limit rejected")
	}
}

// checkDecode compares Decode with json.Unmarshal into an any.
func checkDecode(t *testing.T, data []byte) {
	t.Helper()
	var want any
	wantErr := json.Unmarshal(data, &want)
	got, gotErr := Decode(data, false)
	if (gotErr != nil) != (wantErr != nil) {
		t.Fatalf("Decode(%q) err = %v, encoding/json err = %v", data, gotErr, wantErr)
	}
	if wantErr == nil && !reflect.DeepEqual(got, want) {
		t.Fatalf("Decode(%q) = %#v, encoding/json gives %#v", data, got, want)
	}
	var wantN any
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.UseNumber()
	errN := dec.Decode(&wantN)
	if errN == nil && dec.More() {
		errN = errTrailing
	} else if errN == nil {
		// json.Decoder tolerates trailing whitespace only.
		if rest, _ := readAll(dec); len(bytes.TrimSpace(rest)) > 0 {
			errN = errTrailing
		}
	}
	gotN, gotErrN := Decode(data, true)
	if (gotErrN != nil) != (errN != nil) {
		t.Fatalf("Decode(%q, useNumber) err = %v, json.Decoder err = %v", data, gotErrN, errN)
	}
	if errN == nil && !reflect.DeepEqual(gotN, wantN) {
		t.Fatalf("Decode(%q, useNumber) = %#v, json.Decoder gives %#v", data, gotN, wantN)
	}
}

var errTrailing = &SyntaxError{msg: "trailing data"}

func readAll(dec *json.Decoder) ([]byte, error) {
	var buf bytes.Buffer
	_, err := buf.ReadFrom(dec.Buffered())
	return buf.Bytes(), err
}

func FuzzValid(f *testing.F) {
	for _, c := range cases {
		f.Add([]byte(c))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		if got, want := Valid(data), json.Valid(data); got != want {
			t.Fatalf("Valid(%q) = %v, encoding/json says %v", data, got, want)
		}
	})
}

func FuzzDecode(f *testing.F) {
	for _, c := range cases {
		f.Add([]byte(c))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		checkDecode(t, data)
	})
}

func FuzzObject(f *testing.F) {
	for _, c := range cases {
		f.Add([]byte(c))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		members, err := Object(data)
		var want map[string]json.RawMessage
		wantErr := json.Unmarshal(data, &want)
		if wantErr == nil && want == nil {
			wantErr = ErrNotObject // `null` decodes into a nil map
		}
		if (err != nil) != (wantErr != nil) {
			t.Fatalf("Object(%q) err = %v, encoding/json err = %v", data, err, wantErr)
		}
		if err != nil {
			return
		}
		if len(want) == 0 && len(members) > 0 {
			t.Fatalf("Object(%q) = %q, encoding/json found no members", data, members)
		}
		for k, v := range want {
			got, ok := Get(members, k)
			if !ok || !bytes.Equal(got, v) {
				t.Fatalf("Object(%q): member %q = %q, encoding/json gives %q", data, k, got, v)
			}
		}
	})
}

// large is a tool call's worth of base64-like text in an object.
var large = []byte(`{"payload":"` + strings.Repeat("iVBORw0KGgoAAAANSUhEUgAA", 8<<20/24) + `","n":1}`)

func BenchmarkValid8MiB(b *testing.B) {
	b.SetBytes(int64(len(large)))
	for b.Loop() {
		if !Valid(large) {
			b.Fatal("invalid")
		}
	}
}

// BenchmarkEncodingJSONValid8MiB is the baseline for BenchmarkValid8MiB.
func BenchmarkEncodingJSONValid8MiB(b *testing.B) {
	b.SetBytes(int64(len(large)))
	for b.Loop() {
		if !json.Valid(large) {
			b.Fatal("invalid")
		}
	}
}

func BenchmarkDecode8MiB(b *testing.B) {
	b.SetBytes(int64(len(large)))
	for b.Loop() {
		if _, err := Decode(large, false); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkEncodingJSONDecode8MiB is the baseline for BenchmarkDecode8MiB.
func BenchmarkEncodingJSONDecode8MiB(b *testing.B) {
	b.SetBytes(int64(len(large)))
	for b.Loop() {
		var v any
		if err := json.Unmarshal(large, &v); err != nil {
			b.Fatal(err)
		}
	}
}
