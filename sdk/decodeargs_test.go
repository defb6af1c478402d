package sdk

import (
	"encoding/json"
	"reflect"
	"strings"
	"testing"
)

type stepIn struct {
	Type   string `json:"type" jsonschema:"minLength=1"`
	Mode   string `json:"mode,omitempty" jsonschema:"enum=fast|safe,default=safe"`
	Index  *int   `json:"index,omitempty" jsonschema:"minimum=0"`
	Parent string `json:"parent,omitempty" jsonschema:"default=."`
}

func TestDecodeArgsDecodesValidArgsWithDefaults(t *testing.T) {
	in, err := DecodeArgs[stepIn](json.RawMessage(`{"type":"Node2D","index":2}`))
	if err != nil {
		t.Fatal(err)
	}
	two := 2
	if want := (stepIn{Type: "Node2D", Mode: "safe", Index: &two, Parent: "."}); !reflect.DeepEqual(in, want) {
		t.Fatalf("decoded %+v, want %+v (declared defaults filled in)", in, want)
	}
}

// Each refusal is what encoding/json alone let through, worded as the host
// words a single call's (validateArguments is the host's engine).
func TestDecodeArgsRefusesWhatTheSchemaRefuses(t *testing.T) {
	for _, tc := range []struct{ args, want string }{
		{`{"type":"Node2D","mode":"slow"}`, "arguments.mode: "},
		{`{"type":"Node2D","index":-1}`, "arguments.index: "},
		{`{"type":""}`, "arguments.type: "},
		{`{}`, "arguments.type: required field is missing"},
		{`{"type":"Node2D","dry_run":true}`, "dry_run"},
		{`{"type":"Node2D","mode":"slow","index":-1}`, "arguments.index: "},
	} {
		var plain stepIn
		if tc.args != `{}` && !strings.Contains(tc.args, "dry_run") {
			if err := json.Unmarshal([]byte(tc.args), &plain); err != nil {
				t.Fatalf("%s: encoding/json refuses it already (%v): not a schema check", tc.args, err)
			}
		}
		_, err := DecodeArgs[stepIn](json.RawMessage(tc.args))
		e := AsError(err)
		if err == nil || e.Code != CodeValidationError || !strings.Contains(e.Hint, tc.want) {
			t.Errorf("%s: %v, want VALIDATION_ERROR naming %q", tc.args, err, tc.want)
			continue
		}
		s, _ := generateInputSchema(reflect.TypeFor[stepIn]())
		_, single := validateArguments(s, json.RawMessage(tc.args))
		if single == nil || single.Hint != e.Hint {
			t.Errorf("%s: DecodeArgs says %q, a single call's validation %v", tc.args, e.Hint, single)
		}
	}
	_, err := DecodeArgs[stepIn](json.RawMessage(`{"type":"Node2D","mode":"slow","index":-1}`))
	if h := AsError(err).Hint; !strings.Contains(h, "arguments.mode") || !strings.Contains(h, "arguments.index") {
		t.Errorf("two bad fields: %q, want both named", h)
	}
}

func TestDecodeArgsEmptyIsAnEmptyObject(t *testing.T) {
	type opt struct {
		N int `json:"n,omitempty" jsonschema:"default=3"`
	}
	for _, args := range []string{``, `null`, ` {} `} {
		in, err := DecodeArgs[opt](json.RawMessage(args))
		if err != nil || in.N != 3 {
			t.Errorf("%q: %+v, %v; want the defaults", args, in, err)
		}
	}
}
