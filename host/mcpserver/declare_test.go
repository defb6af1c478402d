package mcpserver

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"testing"

	"github.com/godot-mcp/godot-mcp/sdk/contract"
)

// Precondition names are checked when a tool is declared: the host refuses
// to serve a toolset tool with a typo (as sdk.NewTool panics on one), and a
// core tool with one would make New panic.
func TestAddToolsRefusesUnknownPreconditions(t *testing.T) {
	s := New(Options{Bridge: &stubBridge{}})
	exec := func(context.Context, Call) Result { return OK(map[string]any{}) }
	err := s.AddTools(Tool{Def: ToolDef{Name: "godot_x_look", Toolset: "x", Class: contract.ReadOnly, Description: "d",
		InputSchema: json.RawMessage(`{"type":"object"}`), Preconditions: []string{"active_scen"}}, Exec: exec})
	if err == nil || !strings.Contains(err.Error(), `unknown precondition "active_scen"`) || !strings.Contains(err.Error(), "active_scene") {
		t.Fatalf("AddTools with a misspelt precondition: %v", err)
	}
	for _, def := range s.Surface() {
		if def.Name == "godot_x_look" {
			t.Fatal("the refused tool is served")
		}
	}
	defer func() {
		if recover() == nil {
			t.Error("a core tool declaring an unknown precondition did not panic")
		}
	}()
	coreTool[NoArgs, NoArgs]("godot_bad", "Bad", contract.ReadOnly, []string{"bridge_conected"}, "d", false,
		func(context.Context, Call, NoArgs) Result { return OK(NoArgs{}) })
}

// An input schema keyword the one validator does not enforce is refused
// when the tool is declared, never silently ignored.
func TestAddToolsRefusesUnenforcedSchemaKeywords(t *testing.T) {
	s := New(Options{Bridge: &stubBridge{}})
	err := s.AddTools(Tool{Def: ToolDef{Name: "godot_x_look", Toolset: "x", Class: contract.ReadOnly, Description: "d",
		InputSchema: json.RawMessage(`{"type":"object","properties":{"p":{"type":"string","pattern":"^a"}}}`)},
		Exec: func(context.Context, Call) Result { return OK(map[string]any{}) }})
	if err == nil || !strings.Contains(err.Error(), `"pattern"`) {
		t.Fatalf("AddTools with a pattern keyword: %v", err)
	}
}

// A core tool's input cannot declare the host-owned dry_run or confirm, as
// an SDK tool's cannot (sdk.NewTool panics alike).
func TestCoreToolRefusesReservedInputFields(t *testing.T) {
	type in struct {
		Confirm bool `json:"confirm,omitempty"`
	}
	defer func() {
		if r := recover(); r == nil || !strings.Contains(fmt.Sprint(r), `"confirm"`) {
			t.Errorf("recovered %v, want a panic naming confirm", r)
		}
	}()
	coreTool[in, NoArgs]("godot_bad", "Bad", contract.Mutating, nil, "d", true,
		func(context.Context, Call, in) Result { return OK(NoArgs{}) })
}
