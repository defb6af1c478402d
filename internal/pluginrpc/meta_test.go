package pluginrpc

import (
	"encoding/json"
	"reflect"
	"testing"

	"google.golang.org/protobuf/proto"

	"github.com/godot-mcp/godot-mcp/internal/pluginproto"
	"github.com/godot-mcp/godot-mcp/internal/plugmodel"
	"github.com/godot-mcp/godot-mcp/internal/testing/filled"
	"github.com/godot-mcp/godot-mcp/sdk/contract"
)

// Every tool attribute (every field of contract.ToolMeta, those added later
// included) crosses the wire and comes back as it was, with no code here
// naming it: a new attribute needs no change of the protocol.
func TestEveryToolAttributeCrossesTheWire(t *testing.T) {
	want := plugmodel.ToolInfo{Name: "t", InputSchema: json.RawMessage(`{"type":"object"}`), OutputSchema: json.RawMessage(`{"type":"object"}`), ToolMeta: filled.Value[contract.ToolMeta]()}
	b, err := proto.Marshal(infoToProto(plugmodel.ToolsetInfo{Name: "s", Tools: []plugmodel.ToolInfo{want}}))
	if err != nil {
		t.Fatal(err)
	}
	var d pluginproto.DescribeResponse
	if err := proto.Unmarshal(b, &d); err != nil {
		t.Fatal(err)
	}
	got := infoFromProto(&d).Tools
	if len(got) != 1 || !reflect.DeepEqual(got[0], want) {
		t.Fatalf("tool after the wire:\n got %+v\nwant %+v", got, want)
	}
}

// A plugin built before meta_json existed sends the attributes field by
// field; the host still reads them. And a plugin of today still fills those
// fields, for hosts that predate meta_json.
func TestToolAttributesOfPluginsBeforeMetaJSON(t *testing.T) {
	old := &pluginproto.Tool{Name: "t", Title: "T", Description: "D", Safety: "mutating", DryRun: true, Confirm: true,
		Preconditions: []string{"active_scene"}, DestructiveWhen: []string{"overwrite"}, RunsCode: true, InputSchema: `{"type":"object"}`}
	want := contract.ToolMeta{Title: "T", Description: "D", Safety: contract.Mutating, DryRun: true, Confirm: true,
		Preconditions: []string{"active_scene"}, DestructiveWhen: []string{"overwrite"}, RunsCode: true}
	if got := toolFromProto(old); !reflect.DeepEqual(got.ToolMeta, want) {
		t.Errorf("read from the frozen fields:\n got %+v\nwant %+v", got.ToolMeta, want)
	}
	sent := toolToProto(plugmodel.ToolInfo{Name: "t", ToolMeta: want})
	sent.MetaJson = ""
	if got := toolFromProto(sent); !reflect.DeepEqual(got.ToolMeta, want) {
		t.Errorf("a host that reads only the frozen fields would see:\n got %+v\nwant %+v", got.ToolMeta, want)
	}
}
