package mcpserver

import (
	"encoding/base64"
	"encoding/json"
	"io"
	"log"
)

func encodeBase64(b []byte) string { return base64.StdEncoding.EncodeToString(b) }

func newStdLogger(w io.Writer) *log.Logger {
	if w == nil {
		w = io.Discard
	}
	return log.New(w, "mcp: ", log.LstdFlags)
}

// OpenSchema lets every object of an output schema accept unknown
// properties (see OutputSchemaFor). Invalid JSON is returned unchanged.
func OpenSchema(raw json.RawMessage) json.RawMessage {
	if len(raw) == 0 {
		return raw
	}
	var s any
	if err := json.Unmarshal(raw, &s); err != nil {
		return raw
	}
	openObjects(s)
	out, err := json.Marshal(s)
	if err != nil {
		return raw
	}
	return out
}

// OutputSchemaFor generates T's schema for use as an outputSchema: objects
// accept unknown properties, because results grow additively and clients
// must ignore fields they do not know.
func OutputSchemaFor[T any]() json.RawMessage {
	return OpenSchema(SchemaFor[T]())
}

func openObjects(v any) {
	switch t := v.(type) {
	case map[string]any:
		if ap, ok := t["additionalProperties"]; ok {
			if b, isBool := ap.(bool); isBool && !b {
				delete(t, "additionalProperties")
			}
		}
		// A `true` sub-schema (any value) is valid JSON Schema, but some
		// clients' checkers expect an object: say the same with {}.
		if props, ok := t["properties"].(map[string]any); ok {
			for k, p := range props {
				if b, isBool := p.(bool); isBool && b {
					props[k] = map[string]any{}
				}
			}
		}
		for _, child := range t {
			openObjects(child)
		}
	case []any:
		for _, child := range t {
			openObjects(child)
		}
	}
}
