package mcpserver

import (
	"encoding/json"
	"testing"

	"github.com/godot-mcp/godot-mcp/internal/schema"
)

func TestWireOutputSchemaIsATypeSummary(t *testing.T) {
	full := `{"type":"object","properties":{
		"name":{"type":"string","description":"the name"},
		"kind":{"type":"string","enum":["a","b"],"description":"which"},
		"peer":{"anyOf":[{"$ref":"#/$defs/Peer"},{"type":"null"}],"description":"null when none"},
		"peers":{"type":["array","null"],"items":{"$ref":"#/$defs/Peer"}},
		"grid":{"type":"array","items":{"type":"array","items":{"type":"integer"}}},
		"props":{"type":"object","additionalProperties":{"type":"integer"}},
		"any":{}
	},"required":["name","peers"],"$defs":{"Peer":{"type":"object","properties":{"description":{"type":"string","description":"a field named description"}},"required":["description"]}}}`
	got := string(wireOutputSchema(json.RawMessage(full)))
	want := `{"properties":{"any":{},"grid":{"items":{"items":{"type":"integer"},"type":"array"},"type":"array"},` +
		`"kind":{"enum":["a","b"],"type":"string"},"name":{"type":"string"},"peer":{"type":["object","null"]},` +
		`"peers":{"items":{"type":"object"},"type":["array","null"]},"props":{"type":"object"}},"type":"object"}`
	if got != want {
		t.Fatalf("summary =\n%s\nwant\n%s", got, want)
	}

	// Weaker, never stricter: what matches the full schema matches the summary.
	compile := func(raw string) *schema.Schema {
		s, err := schema.Parse(json.RawMessage(raw))
		if err != nil {
			t.Fatal(err)
		}
		return s
	}
	fullR, wireR := compile(full), compile(got)
	for _, doc := range []string{
		`{"name":"x","peers":null}`,
		`{"name":"x","kind":"a","peer":{"description":"d"},"peers":[{"description":"e"}],"grid":[[1,2]],"props":{"a":1},"any":[1]}`,
	} {
		if _, _, err := schema.Validate(fullR, json.RawMessage(doc)); err != nil {
			t.Fatalf("%s does not match the full schema: %v", doc, err)
		}
		if _, _, err := schema.Validate(wireR, json.RawMessage(doc)); err != nil {
			t.Errorf("%s matches the full schema but not the summary: %v", doc, err)
		}
	}
	if string(wireOutputSchema(json.RawMessage("not json"))) != "not json" {
		t.Error("invalid JSON was changed")
	}
}
