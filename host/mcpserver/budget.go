package mcpserver

import (
	"encoding/json"
)

// This file keeps tools/list within its context budget (every built-in
// toolset enabled ≤ 90 KB, the core alone ≤ 8 KB; `make bench` reports it,
// TestToolsListBudget holds it).
//
// tools/list carries no outputSchema by default (MCP makes it optional):
// the full result schema (every nested field, required and described) is
// the tool's contract, which the agent reads as the resource
// godot://tool/{name} and docs/tool-contracts.md renders. Output schemas
// were half of tools/list, then a quarter as summaries, yet an agent reads
// the result itself and most clients never show an outputSchema to the
// model. GODOT_MCP_OUTPUT_SCHEMAS=summary serves a summary for a client
// that wants one: the result's top-level fields with their JSON types (an
// array's item type, a nullable field's null, an enum's values), nested
// objects as {"type":"object"}. A summary is weaker than the full schema,
// so a result that matches the contract always matches it.

// wireOutputSchema is the outputSchema as tools/list serves it. Invalid
// JSON is returned unchanged.
func wireOutputSchema(raw json.RawMessage) json.RawMessage {
	if len(raw) == 0 {
		return raw
	}
	var root map[string]any
	if err := json.Unmarshal(raw, &root); err != nil {
		return raw
	}
	defs, _ := root["$defs"].(map[string]any)
	out := map[string]any{"type": "object"}
	if props, ok := root["properties"].(map[string]any); ok {
		summary := make(map[string]any, len(props))
		for name, p := range props {
			summary[name] = typeSummary(p, defs, 0)
		}
		out["properties"] = summary
	}
	b, err := json.Marshal(out)
	if err != nil {
		return raw
	}
	return b
}

// typeSummary is a sub-schema reduced to its JSON type: "type" (and
// "enum"), an array's items likewise, anyOf alternatives merged into one
// type list. Anything it cannot reduce becomes {} (any value), which is
// always weaker than the original.
func typeSummary(v any, defs map[string]any, depth int) map[string]any {
	s, ok := v.(map[string]any)
	if !ok || depth > 8 {
		return map[string]any{}
	}
	if ref, ok := s["$ref"].(string); ok {
		const prefix = "#/$defs/"
		if len(ref) > len(prefix) && ref[:len(prefix)] == prefix {
			if d, ok := defs[ref[len(prefix):]]; ok {
				return typeSummary(d, defs, depth+1)
			}
		}
		return map[string]any{}
	}
	if alts, ok := s["anyOf"].([]any); ok {
		var types []any
		for _, alt := range alts {
			t, ok := typeSummary(alt, defs, depth+1)["type"]
			if !ok {
				return map[string]any{} // an alternative of any type
			}
			types = appendTypes(types, t)
		}
		return map[string]any{"type": oneOrList(types)}
	}
	out := map[string]any{}
	t, hasType := s["type"]
	if !hasType {
		return out
	}
	out["type"] = t
	if enum, ok := s["enum"]; ok {
		out["enum"] = enum
	}
	if items, ok := s["items"]; ok && hasJSONType(t, "array") {
		if it := typeSummary(items, defs, depth+1); len(it) > 0 {
			out["items"] = it
		}
	}
	return out
}

func appendTypes(list []any, t any) []any {
	add := func(x any) {
		for _, have := range list {
			if have == x {
				return
			}
		}
		list = append(list, x)
	}
	if many, ok := t.([]any); ok {
		for _, x := range many {
			add(x)
		}
	} else {
		add(t)
	}
	return list
}

func oneOrList(types []any) any {
	if len(types) == 1 {
		return types[0]
	}
	return types
}

func hasJSONType(t any, name string) bool {
	switch t := t.(type) {
	case string:
		return t == name
	case []any:
		for _, x := range t {
			if x == name {
				return true
			}
		}
	}
	return false
}
