package e2e

import (
	"context"
	"encoding/json"
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
		if err != nil || len(res.Contents) == 0 {
			return // not served (a fixture tool): nothing to check
		}
		tc, isText := res.Contents[0].(mcp.TextResourceContents)
		var c struct {
			OutputSchema json.RawMessage `json:"output_schema"`
		}
		var parsed *schema.Schema
		if isText && json.Unmarshal([]byte(tc.Text), &c) == nil && len(c.OutputSchema) > 0 {
			var perr error
			if parsed, perr = schema.Parse(c.OutputSchema); perr != nil {
				t.Logf("%s: its output schema is not checked here (%v)", name, perr)
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
