package navigation

import (
	"context"
	"encoding/json"
	"strings"
	"testing"

	"github.com/mark3labs/mcp-go/mcp"
)

// The toolset's tools/list share stays under the per-toolset budget (16 KB).
func TestToolsListShare(t *testing.T) {
	h := start(t)
	res, err := h.Client().ListTools(context.Background(), mcp.ListToolsRequest{})
	if err != nil {
		t.Fatal(err)
	}
	total := 0
	for _, tl := range res.Tools {
		if strings.HasPrefix(tl.Name, "godot_navigation_") {
			b, _ := json.Marshal(tl)
			total += len(b)
		}
	}
	if total == 0 || total >= 16000 {
		t.Fatalf("tools/list share %d bytes, budget 16000", total)
	}
}
