package hosttest

import (
	"encoding/json"
	"strings"
	"testing"
	"time"
)

// BuiltinToolsets are the toolsets the binary ships, in tools/list budget order.
var BuiltinToolsets = []string{"scene", "scripts", "resources", "project", "runtime", "tests", "diagnostics", "animation", "tilemap", "debugger", "audio", "shader", "physics", "ui", "playtest", "export", "analysis", "particles", "assets", "world", "navigation", "material", "visual_shader"}

// ToolsList starts bin with the given toolsets enabled at start
// (GODOT_MCP_DEFAULT_TOOLSETS: "" for the core alone, "all", or a comma
// list), waits (bounded) until every one of them serves its tools, and
// returns the process and its tools/list result as sent on the wire.
func ToolsList(tb testing.TB, bin, toolsets string) (*Proc, json.RawMessage) {
	tb.Helper()
	p := Start(tb, bin, "GODOT_MCP_DEFAULT_TOOLSETS="+toolsets)
	p.Initialize()
	want := strings.Split(toolsets, ",")
	if toolsets == "all" {
		want = BuiltinToolsets
	}
	if toolsets == "" {
		want = nil
	}
	deadline := time.Now().Add(30 * time.Second)
	for {
		raw, _ := p.Request("tools/list", map[string]any{})
		var list struct {
			Tools []struct {
				Name string `json:"name"`
			} `json:"tools"`
		}
		if err := json.Unmarshal(raw, &list); err != nil {
			tb.Fatalf("tools/list: %v", err)
		}
		missing := ""
		for _, ts := range want {
			found := false
			for _, t := range list.Tools {
				found = found || strings.HasPrefix(t.Name, "godot_"+ts+"_")
			}
			if !found {
				missing = ts
			}
		}
		if missing == "" {
			return p, raw
		}
		if time.Now().After(deadline) {
			tb.Fatalf("toolset %s never served its tools:\n%s", missing, p.Stderr())
		}
		time.Sleep(50 * time.Millisecond)
	}
}
