package toolsets

import (
	"context"
	"testing"

	"github.com/godot-mcp/godot-mcp/host/mcpserver"
)

var _ mcpserver.ToolOwners = (*Manager)(nil)

func TestToolOwnerNamesTheToolsetOfATool(t *testing.T) {
	l := &fakeLauncher{}
	m := newManager(l, 0)
	for tool, want := range map[string]string{"godot_scene_do": "scene", "godot_hello_do": "hello"} {
		if got, ok := m.ToolOwner(context.Background(), tool); !ok || got != want {
			t.Errorf("ToolOwner(%s) = %q %v, want %q", tool, got, ok, want)
		}
	}
	for _, tool := range []string{"godot_scene_nope", "do", "godot_nope_do"} {
		if got, ok := m.ToolOwner(context.Background(), tool); ok {
			t.Errorf("ToolOwner(%s) = %q, want none", tool, got)
		}
	}
	if l.count() != 2 {
		t.Errorf("described %d times; descriptions must be cached", l.count())
	}
	if len(m.Enabled()) != 0 {
		t.Error("ToolOwner enabled a toolset")
	}
}
