package mcpserver

import (
	"context"
	"encoding/json"
	"strings"
	"testing"

	"github.com/godot-mcp/godot-mcp/sdk/contract"
)

// Precondition names are checked when a tool is declared: the host refuses
// to serve a toolset tool with a typo (as sdk.NewTool, which declares the
// core tools too, panics on one).
func TestAddToolsRefusesUnknownPreconditions(t *testing.T) {
	s := New(Options{Bridge: &stubBridge{}})
	exec := func(context.Context, Call) Result { return OK(map[string]any{}) }
	err := s.AddTools(Tool{Def: ToolDef{Name: "godot_x_look", Toolset: "x", InputSchema: json.RawMessage(`{"type":"object"}`), ToolMeta: contract.ToolMeta{Safety: contract.ReadOnly, Description: "d", Preconditions: []string{"active_scen"}}}, Exec: exec})
	if err == nil || !strings.Contains(err.Error(), `unknown precondition "active_scen"`) || !strings.Contains(err.Error(), "active_scene") {
		t.Fatalf("AddTools with a misspelt precondition: %v", err)
	}
	for _, def := range s.Surface() {
		if def.Name == "godot_x_look" {
			t.Fatal("the refused tool is served")
		}
	}
}

// An input schema keyword the one validator does not enforce is refused
// when the tool is declared, never silently ignored.
func TestAddToolsRefusesUnenforcedSchemaKeywords(t *testing.T) {
	s := New(Options{Bridge: &stubBridge{}})
	err := s.AddTools(Tool{Def: ToolDef{Name: "godot_x_look", Toolset: "x", InputSchema: json.RawMessage(`{"type":"object","properties":{"p":{"type":"string","pattern":"^a"}}}`), ToolMeta: contract.ToolMeta{Safety: contract.ReadOnly, Description: "d"}},
		Exec: func(context.Context, Call) Result { return OK(map[string]any{}) }})
	if err == nil || !strings.Contains(err.Error(), `"pattern"`) {
		t.Fatalf("AddTools with a pattern keyword: %v", err)
	}
}
