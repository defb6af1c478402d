package mcpserver

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/godot-mcp/godot-mcp/host/envelope"
)

// A script class's constants hold any value (const MAX_SPEED := 400.0, a
// string, a Vector2): godot_describe_class answers them as the editor sent
// them, where an integer-only field refused the whole answer; and what the
// editor says of a script class, its enums, methods and arguments reaches
// the agent (a field the result type lacked was dropped).
func TestDescribeClassScriptConstantsOfAnyType(t *testing.T) {
	b := &stubBridge{connected: true, answers: map[string]envelope.Response{
		"cmd_describe_class": {ID: "1", OK: true, Result: json.RawMessage(`{"class_name":"Player","inherits":["Node2D"],"is_script_class":true,"script_path":"res://player.gd",` +
			`"methods":[{"name":"f","return_type":"void","args":[{"name":"a","type":"int","default":2}],"is_static":false,"is_virtual":false,"is_vararg":true}],` +
			`"properties":[{"name":"mode","type":"int","hint":2,"hint_string":"A,B","enum":"Mode"}],` +
			`"enums":[{"name":"Flags","values":{"A":1,"B":2},"is_bitfield":true}],` +
			`"constants":[{"name":"MAX_SPEED","value":400.0},{"name":"NAME","value":"hero"},{"name":"START","value":{"type":"Vector2","x":1,"y":2}},{"name":"LIVES","value":3}]}`)},
	}}
	c := newClient(t, New(Options{Config: testConfig(), Bridge: b}))
	r := call(t, c, "godot_describe_class", map[string]any{"class_name": "Player"})
	if r.IsError {
		t.Fatalf("describe_class: %#v", r.Content)
	}
	got, _ := json.Marshal(r.StructuredContent)
	for _, want := range []string{`{"name":"MAX_SPEED","value":400}`, `{"name":"NAME","value":"hero"}`, `"value":{"type":"Vector2","x":1,"y":2}`, `{"name":"LIVES","value":3}`,
		`"is_script_class":true`, `"script_path":"res://player.gd"`, `"is_vararg":true`, `"args":[{"default":2,"name":"a","type":"int"}]`, `"enum":"Mode"`, `"is_bitfield":true`} {
		if !strings.Contains(string(got), want) {
			t.Errorf("the answer lacks %s: %s", want, got)
		}
	}
}
