package mcpserver

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/godot-mcp/godot-mcp/host/envelope"
)

// A script class's constants hold any value (const MAX_SPEED := 400.0, a
// string, a Vector2): godot_describe_class answers them as the editor sent
// them, where an integer-only field refused the whole answer.
func TestDescribeClassScriptConstantsOfAnyType(t *testing.T) {
	b := &stubBridge{connected: true, answers: map[string]envelope.Response{
		"cmd_describe_class": {ID: "1", OK: true, Result: json.RawMessage(`{"class_name":"Player","inherits":["Node2D"],"is_script_class":true,` +
			`"constants":[{"name":"MAX_SPEED","value":400.0},{"name":"NAME","value":"hero"},{"name":"START","value":{"type":"Vector2","x":1,"y":2}},{"name":"LIVES","value":3}]}`)},
	}}
	c := newClient(t, New(Options{Config: testConfig(), Bridge: b}))
	r := call(t, c, "godot_describe_class", map[string]any{"class_name": "Player"})
	if r.IsError {
		t.Fatalf("describe_class: %#v", r.Content)
	}
	got, _ := json.Marshal(r.StructuredContent)
	for _, want := range []string{`{"name":"MAX_SPEED","value":400}`, `{"name":"NAME","value":"hero"}`, `"value":{"type":"Vector2","x":1,"y":2}`, `{"name":"LIVES","value":3}`} {
		if !strings.Contains(string(got), want) {
			t.Errorf("constants lack %s: %s", want, got)
		}
	}
}
