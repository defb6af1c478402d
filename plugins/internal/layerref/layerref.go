// Package layerref checks the layer references of the physics and
// navigation toolsets: layer numbers 1..32 or layer names, and set/add/remove
// edits of a node's layer bits, turned into the params their editor code
// takes (ints and strings).
package layerref

import (
	"encoding/json"
	"fmt"
	"strings"

	"github.com/godot-mcp/godot-mcp/sdk"
)

// Kind words the hints for one toolset's layers.
type Kind struct {
	// NumberHint follows "<where>[i] = n: " for a number out of 1..32.
	NumberHint string
	// Example is a name in the example of a good list ([1, "Example"]).
	Example string
}

// Refs checks layer references and turns them into params: ints and
// strings; where names the field for hints. nil stays nil.
func Refs(k Kind, where string, raw []json.RawMessage) ([]any, error) {
	if raw == nil {
		return nil, nil
	}
	out := make([]any, 0, len(raw))
	for i, r := range raw {
		var n float64
		if err := json.Unmarshal(r, &n); err == nil {
			if n != float64(int(n)) || n < 1 || n > 32 {
				return nil, sdk.Validation(fmt.Sprintf("%s[%d] = %v: %s", where, i, n, k.NumberHint))
			}
			out = append(out, int(n))
			continue
		}
		var s string
		if err := json.Unmarshal(r, &s); err != nil {
			return nil, sdk.Validation(fmt.Sprintf("%s[%d] = %s: give a layer number (1..32) or a layer name, e.g. [1, %q]", where, i, r, k.Example))
		}
		if s = strings.TrimSpace(s); s == "" {
			return nil, sdk.Validation(fmt.Sprintf("%s[%d] is an empty name: give a layer number (1..32) or a layer name", where, i))
		}
		out = append(out, s)
	}
	return out, nil
}

// Edit checks a set/add/remove edit of layer bits (all nil: no edit, nil
// params) and turns it into {set?, add?, remove?} params.
func Edit(k Kind, where string, set, add, remove []json.RawMessage) (map[string]any, error) {
	if set == nil && add == nil && remove == nil {
		return nil, sdk.Validation(where + ": give set, add or remove (layer numbers or names)")
	}
	m := map[string]any{}
	for _, f := range []struct {
		key string
		raw []json.RawMessage
	}{{"set", set}, {"add", add}, {"remove", remove}} {
		r, err := Refs(k, where+"."+f.key, f.raw)
		if err != nil {
			return nil, err
		}
		if r != nil {
			m[f.key] = r
		}
	}
	return m, nil
}
