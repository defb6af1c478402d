package mcpserver

import (
	"encoding/json"
)

// This file keeps tools/list within its context budget (every built-in
// toolset enabled ≤ 90 KB, the core alone ≤ 8 KB; `make bench` reports it).
// A tool's outputSchema is served as its structure: types, properties,
// required, items, enums and $defs, without descriptions. The meaning of
// each result field stays in the full contract, which the agent reads as
// the resource godot://tool/{name} (and docs/tool-contracts.md renders): an
// agent reads the result itself, and most clients never show an
// outputSchema to the model, yet every byte of it is in tools/list.

// wireOutputSchema is the outputSchema as tools/list serves it: the schema
// without "description" keywords. Invalid JSON is returned unchanged.
func wireOutputSchema(raw json.RawMessage) json.RawMessage {
	if len(raw) == 0 {
		return raw
	}
	var s any
	if err := json.Unmarshal(raw, &s); err != nil {
		return raw
	}
	stripDescriptions(s)
	out, err := json.Marshal(s)
	if err != nil {
		return raw
	}
	return out
}

// stripDescriptions removes the description keyword from a schema and
// every sub-schema. It walks only schema positions, so a property named
// "description" and the values of const, enum or default are kept.
func stripDescriptions(v any) {
	s, ok := v.(map[string]any)
	if !ok {
		return
	}
	if _, isText := s["description"].(string); isText {
		delete(s, "description")
	}
	for _, key := range []string{"items", "additionalProperties", "not", "contains", "if", "then", "else", "propertyNames"} {
		stripDescriptions(s[key])
	}
	for _, key := range []string{"properties", "$defs", "definitions", "patternProperties"} {
		if m, ok := s[key].(map[string]any); ok {
			for _, sub := range m {
				stripDescriptions(sub)
			}
		}
	}
	for _, key := range []string{"anyOf", "oneOf", "allOf", "prefixItems"} {
		if list, ok := s[key].([]any); ok {
			for _, sub := range list {
				stripDescriptions(sub)
			}
		}
	}
}
