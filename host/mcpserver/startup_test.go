package mcpserver

import (
	"context"
	"testing"
	"time"

	"github.com/mark3labs/mcp-go/mcp"
)

// Requests that depend on the toolsets enabled at start wait for them
// (HoldUntil); the core tools do not.
func TestListsWaitForToolsetsEnabledAtStart(t *testing.T) {
	ts := newFakeToolsets("scene")
	s := New(Options{Config: testConfig(), Bridge: &stubBridge{}, Toolsets: ts})
	ready := make(chan struct{})
	s.HoldUntil(ready)
	c := newClient(t, s) // the handshake does not wait

	listed := make(chan map[string]bool, 1)
	go func() {
		out := map[string]bool{}
		if res, err := c.ListTools(context.Background(), mcp.ListToolsRequest{}); err == nil {
			for _, tool := range res.Tools {
				out[tool.Name] = true
			}
		}
		listed <- out
	}()
	called := make(chan *mcp.CallToolResult, 1)
	go func() {
		req := mcp.CallToolRequest{}
		req.Params.Name, req.Params.Arguments = "godot_scene_edit", map[string]any{"path": "x"}
		res, err := c.CallTool(context.Background(), req)
		if err != nil {
			res = mcp.NewToolResultError(err.Error())
		}
		called <- res
	}()
	start := time.Now()
	if res := call(t, c, "godot_list_toolsets", nil); res.IsError || time.Since(start) > time.Second {
		t.Fatalf("a core tool waited for the start: %+v after %v", res, time.Since(start))
	}
	select {
	case <-listed:
		t.Fatal("tools/list answered before the default toolsets were enabled")
	case <-called:
		t.Fatal("a call to a tool of a default toolset answered before it was enabled")
	case <-time.After(200 * time.Millisecond):
	}
	if err := s.EnableToolset(context.Background(), "scene"); err != nil {
		t.Fatal(err)
	}
	close(ready)
	select {
	case tools := <-listed:
		if !tools["godot_scene_edit"] {
			t.Fatalf("the default toolset's tools are not in the first tools/list: %v", tools)
		}
	case <-time.After(5 * time.Second):
		t.Fatal("tools/list still waiting after the start")
	}
	select {
	case res := <-called:
		if res.IsError {
			t.Fatalf("the held call failed: %+v", res)
		}
	case <-time.After(5 * time.Second):
		t.Fatal("the held call never ran")
	}
}

func TestServerInfoPluginDir(t *testing.T) {
	cfg := testConfig()
	cfg.PluginDir = "/plugins"
	s := New(Options{Config: cfg, Bridge: &stubBridge{}, SkippedPlugins: []SkippedPlugin{{File: "Bad-Name", Reason: "not a toolset name"}}})
	var info ServerInfo
	structured(t, call(t, newClient(t, s), "godot_get_server_info", nil), &info)
	if info.PluginDir.Path != "/plugins" || len(info.PluginDir.Skipped) != 1 || info.PluginDir.Skipped[0] != (SkippedPlugin{File: "Bad-Name", Reason: "not a toolset name"}) {
		t.Fatalf("plugin_dir = %+v", info.PluginDir)
	}
}
