package mcpserver

import (
	"encoding/json"
	"reflect"
	"strings"
	"testing"

	"github.com/godot-mcp/godot-mcp/internal/plugmodel"
	"github.com/godot-mcp/godot-mcp/internal/testing/filled"
	"github.com/godot-mcp/godot-mcp/sdk/contract"
)

// Every attribute a toolset declares (contract.ToolMeta, those added later
// included) is served as declared and appears in the tool's contract
// (godot://tool/{name}, docs/tool-contracts.md), with no code here naming it.
func TestEveryToolAttributeIsServed(t *testing.T) {
	meta := filled.Value[contract.ToolMeta]()
	def := DefFromInfo("x", "godot_x_t", plugmodel.ToolInfo{Name: "t", InputSchema: json.RawMessage(`{"type":"object"}`), ToolMeta: meta})
	if !reflect.DeepEqual(def.ToolMeta, meta) {
		t.Fatalf("served meta:\n got %+v\nwant %+v", def.ToolMeta, meta)
	}
	raw, err := json.Marshal(def)
	if err != nil {
		t.Fatal(err)
	}
	var contractJSON map[string]any
	if err := json.Unmarshal(raw, &contractJSON); err != nil {
		t.Fatal(err)
	}
	mt := reflect.TypeFor[contract.ToolMeta]()
	for i := range mt.NumField() {
		key, _, _ := strings.Cut(mt.Field(i).Tag.Get("json"), ",")
		if v, ok := contractJSON[key]; !ok || v == nil {
			t.Errorf("the tool's contract lacks %q (ToolMeta.%s): %s", key, mt.Field(i).Name, raw)
		}
	}
}
