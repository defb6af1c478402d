package e2e

import (
	"context"
	"encoding/json"
	"strings"
	"sync"
	"testing"

	"github.com/mark3labs/mcp-go/mcp"

	"github.com/godot-mcp/godot-mcp/internal/schema"
)

// contracts caches each tool's full output schema (godot://tool/{name}),
// parsed; a nil entry is a tool whose schema the validator cannot parse.
var contracts sync.Map // tool name -> *schema.Schema

// checkContract fails the test when a successful result from the real editor
// does not match the tool's full output schema (its contract, which clients
// that validate, like those on the TypeScript SDK, hold it to).
func (h *host) checkContract(t testing.TB, name string, raw json.RawMessage) {
	t.Helper()
	s, ok := contracts.Load(name)
	if !ok {
		ctx, cancel := context.WithTimeout(context.Background(), callTimeout)
		defer cancel()
		var req mcp.ReadResourceRequest
		req.Params.URI = "godot://tool/" + name
		res, err := h.c.ReadResource(ctx, req)
		// Our tools (godot_*) all have a contract; only the suite's fixture
		// toolset (e2e_*) has none to check.
		ours := strings.HasPrefix(name, "godot_")
		if err != nil || len(res.Contents) == 0 {
			if ours {
				t.Errorf("%s: its contract godot://tool/%s cannot be read (%v): the result goes unchecked", name, name, err)
			}
			return
		}
		tc, isText := res.Contents[0].(mcp.TextResourceContents)
		var c struct {
			OutputSchema json.RawMessage `json:"output_schema"`
		}
		var parsed *schema.Schema
		if !isText || json.Unmarshal([]byte(tc.Text), &c) != nil || len(c.OutputSchema) == 0 {
			if ours {
				t.Errorf("%s: godot://tool/%s has no output_schema: the result goes unchecked", name, name)
			}
		} else {
			var perr error
			if parsed, perr = schema.Parse(c.OutputSchema); perr != nil {
				t.Errorf("%s: its output schema does not parse (%v): the result goes unchecked", name, perr)
			}
		}
		s, _ = contracts.LoadOrStore(name, parsed)
	}
	parsed, _ := s.(*schema.Schema)
	if parsed == nil {
		return
	}
	if _, _, err := schema.Validate(parsed, raw); err != nil {
		t.Errorf("%s: the real editor's result does not match the tool's contract (godot://tool/%s): %v\n%s", name, name, err, raw)
	}
}
