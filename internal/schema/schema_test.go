package schema

import (
	"encoding/json"
	"reflect"
	"strings"
	"testing"
)

type vec struct {
	X float64 `json:"x"`
	Y float64 `json:"y"`
}

type node struct {
	Name     string  `json:"name"`
	Children []*node `json:"children,omitempty"`
}

type args struct {
	Node    string         `json:"node" description:"Path of the node."`
	To      vec            `json:"to"`
	From    *vec           `json:"from,omitempty"`
	Mode    string         `json:"mode,omitempty" jsonschema:"enum=local|global,default=local"`
	Level   int            `json:"level,omitempty" jsonschema:"enum=1|2|3"`
	Steps   int8           `json:"steps,omitempty" jsonschema:"minimum=1,maximum=100"`
	Tags    []string       `json:"tags" jsonschema:"maxItems=2"`
	Props   map[string]int `json:"props,omitempty"`
	Tree    *node          `json:"tree,omitempty"`
	Label   string         `json:"label,omitempty" jsonschema:"minLength=1,maxLength=3"`
	Lenient any            `json:"lenient,omitempty"`
}

// The host validates a toolset's schema as it travels: generated, encoded,
// sent, parsed. The parsed schema must validate exactly as the generated one.
func TestParsedSchemaValidatesAsTheGenerated(t *testing.T) {
	gen, err := ForInput(reflect.TypeFor[args]())
	if err != nil {
		t.Fatal(err)
	}
	parsed, err := Parse(gen.JSON())
	if err != nil {
		t.Fatalf("Parse(%s): %v", gen.JSON(), err)
	}
	if string(parsed.JSON()) != string(gen.JSON()) {
		t.Errorf("round trip changed the schema:\n%s\n%s", gen.JSON(), parsed.JSON())
	}
	for _, in := range []string{
		`{"node":"a","to":{"x":1,"y":2},"tags":[]}`,
		`{"node":5,"to":{"x":"1"},"tags":null,"mode":"sideways","level":4,"steps":0,"props":{"a":"b"},"tree":{"name":"r","children":[{"name":1}]},"label":"","extra":1}`,
		`{"to":{"x":1,"y":2},"tags":["a","b","c"],"steps":2.0,"from":null,"level":2,"label":"abcd"}`,
		`[1]`, `{"node":`, `{} {}`, ``, `null`,
	} {
		outG, _, errG := Validate(gen, json.RawMessage(in))
		outP, _, errP := Validate(parsed, json.RawMessage(in))
		if string(outG) != string(outP) || (errG == nil) != (errP == nil) || (errG != nil && errG.Error() != errP.Error()) {
			t.Errorf("%s:\ngenerated: %s %v\nparsed:    %s %v", in, outG, errG, outP, errP)
		}
	}
}

// One refusal names every bad field, with what it expected.
func TestValidateNamesEveryBadField(t *testing.T) {
	s, err := ForInput(reflect.TypeFor[args]())
	if err != nil {
		t.Fatal(err)
	}
	_, _, err = Validate(s, json.RawMessage(`{"node":5,"to":{"x":"1"},"tags":null,"mode":"sideways","level":4,"steps":0,"extra":1}`))
	ae, ok := err.(*ArgumentError)
	if !ok {
		t.Fatalf("err = %v, want *ArgumentError", err)
	}
	for _, want := range []string{
		"arguments.node: expected string, got integer 5",
		`arguments.to.x: expected number, got string "1"`,
		"arguments.to.y: required field is missing (expected number)",
		"arguments.tags: expected array, got null null",
		`arguments.mode: "sideways" is not one of "local", "global"`,
		"arguments.level: 4 is not one of 1, 2, 3",
		"arguments.steps: 0 is below the minimum 1",
		"arguments.extra: unknown field (known fields: node, to, from, mode, level, steps, tags, props, tree, label, lenient)",
	} {
		if !strings.Contains(ae.Hint, want) {
			t.Errorf("hint %q lacks %q", ae.Hint, want)
		}
	}
	if len(ae.Problems) != MaxProblems || !strings.HasSuffix(ae.Hint, "(more problems not listed).") {
		t.Errorf("%d problems listed (%q), want the first %d and a note", len(ae.Problems), ae.Hint, MaxProblems)
	}
}

// Defaults are filled in and integral numbers of integer fields become
// integers, so the tool decodes what the host validated.
func TestValidateNormalises(t *testing.T) {
	s, _ := ForInput(reflect.TypeFor[args]())
	out, _, err := Validate(s, json.RawMessage(`{"node":"a","to":{"x":1,"y":2},"tags":[],"steps":2.0}`))
	if err != nil {
		t.Fatal(err)
	}
	var got args
	if err := json.Unmarshal(out, &got); err != nil || got.Mode != "local" || got.Steps != 2 {
		t.Fatalf("normalised %s → %+v (%v)", out, got, err)
	}
}

func TestParseRefusesWhatItDoesNotEnforce(t *testing.T) {
	for _, raw := range []string{
		`{"type":"object","properties":{"p":{"type":"string","pattern":"^a"}}}`,
		`{"type":"object","oneOf":[{"type":"object"}]}`,
		`{"type":"object","properties":{"n":{"type":"number","exclusiveMinimum":0}}}`,
		`{"type":"thing"}`,
	} {
		if _, err := Parse(json.RawMessage(raw)); err == nil {
			t.Errorf("Parse(%s) accepted a keyword the validator ignores", raw)
		}
	}
	if _, err := Parse(json.RawMessage(`{"type":"object","title":"T","$schema":"https://json-schema.org/draft/2020-12/schema","properties":{"a":{"type":"string","examples":["x"]}}}`)); err != nil {
		t.Errorf("annotations refused: %v", err)
	}
}
