package bridge

import (
	"bytes"
	"encoding/json"

	"github.com/godot-mcp/godot-mcp/internal/rawjson"
)

// salvageID reads a top-level "id" string from the start of a frame that
// failed to decode (truncated, malformed or oversized), so only that
// command's waiter is failed. It looks at the first 4 KiB only.
func salvageID(data []byte) string {
	if len(data) > 4096 {
		data = data[:4096]
	}
	dec := json.NewDecoder(bytes.NewReader(data))
	if tok, err := dec.Token(); err != nil || tok != json.Delim('{') {
		return ""
	}
	for {
		tok, err := dec.Token()
		if err != nil {
			return ""
		}
		key, ok := tok.(string)
		if !ok {
			return ""
		}
		if key == "id" {
			tok, err := dec.Token()
			if s, ok := tok.(string); err == nil && ok {
				return s
			}
			return ""
		}
		if err := skipValue(dec); err != nil {
			return ""
		}
	}
}

func skipValue(dec *json.Decoder) error {
	depth := 0
	for {
		tok, err := dec.Token()
		if err != nil {
			return err
		}
		switch tok {
		case json.Delim('{'), json.Delim('['):
			depth++
		case json.Delim('}'), json.Delim(']'):
			depth--
		}
		if depth == 0 {
			return nil
		}
	}
}

func trimSpace(b []byte) []byte { return bytes.TrimSpace(b) }

func jsonValid(b []byte) bool { return rawjson.Valid(b) }

// jsonKind names the JSON type of a value for hints.
func jsonKind(b []byte) string {
	if len(b) == 0 {
		return "nothing"
	}
	switch b[0] {
	case '[':
		return "an array"
	case '"':
		return "a string"
	case 't', 'f':
		return "a boolean"
	case 'n':
		return "null"
	default:
		return "a number"
	}
}

func isPong(result json.RawMessage) bool {
	var r struct {
		Pong bool `json:"pong"`
	}
	return json.Unmarshal(result, &r) == nil && r.Pong
}
