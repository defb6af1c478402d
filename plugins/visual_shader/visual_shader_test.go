package visualshader

import (
	"context"
	"testing"

	"github.com/godot-mcp/godot-mcp/sdk/sdktest"
)

func TestToolsListBudget(t *testing.T) {
	h := sdktest.Start(t, Toolset())
	n := 0
	for _, tl := range h.Tools() {
		_ = tl
		n++
	}
	if n != 7 {
		t.Fatalf("%d tools", n)
	}
	_ = context.Background()
}
