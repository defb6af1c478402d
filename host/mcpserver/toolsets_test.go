package mcpserver

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http/httptest"
	"sort"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/mark3labs/mcp-go/client"
	"github.com/mark3labs/mcp-go/client/transport"
	"github.com/mark3labs/mcp-go/mcp"

	"github.com/godot-mcp/godot-mcp/sdk/contract"
)

// ToolOwner makes fakeToolsets name the toolset of its tools.
func (f *fakeToolsets) ToolOwner(_ context.Context, tool string) (string, bool) {
	for _, n := range f.names {
		if tool == "godot_"+n+"_delete" || tool == "godot_"+n+"_edit" {
			return n, true
		}
	}
	return "", false
}

// countListChanged counts notifications/tools/list_changed seen by c.
func countListChanged(c *client.Client) *atomic.Int32 {
	var n atomic.Int32
	c.OnNotification(func(note mcp.JSONRPCNotification) {
		if note.Method == "notifications/tools/list_changed" {
			n.Add(1)
		}
	})
	return &n
}

// settle gives notifications sent during a call time to arrive.
func settle() { time.Sleep(200 * time.Millisecond) }

func TestEnableSeveralToolsetsAtOnce(t *testing.T) {
	ts := newFakeToolsets("scene", "scripts", "project")
	b := &stubBridge{}
	c := newClient(t, New(Options{Config: testConfig(), Bridge: b, Toolsets: ts}))
	changed := countListChanged(c)

	var en EnableResult
	structured(t, call(t, c, "godot_enable_toolset", map[string]any{"names": []string{"scene", "scripts"}}), &en)
	settle()
	if en.AlreadyEnabled || en.Toolset != nil || len(en.Toolsets) != 2 || en.Toolsets[0].Name != "scene" || en.Toolsets[1].Name != "scripts" ||
		!en.Toolsets[0].Enabled || !en.Toolsets[1].Enabled {
		t.Fatalf("enable scene, scripts: %+v", en)
	}
	if want := "godot_scene_delete,godot_scene_edit,godot_scripts_delete,godot_scripts_edit"; strings.Join(en.Tools, ",") != want {
		t.Errorf("tools = %v, want %s", en.Tools, want)
	}
	if got := changed.Load(); got != 1 {
		t.Errorf("%d notifications/tools/list_changed for one enable of two toolsets, want 1", got)
	}
	listed := toolNames(t, c)
	for _, name := range []string{"godot_scene_edit", "godot_scripts_edit"} {
		if _, ok := listed[name]; !ok {
			t.Errorf("%s not listed after enable", name)
		}
	}
	if len(b.pushed) != 1 || strings.Join(b.pushed[0], ",") != "scene,scripts" {
		t.Errorf("the editor is told once, with both: %v", b.pushed)
	}

	// all: the one toolset left, one more notification.
	structured(t, call(t, c, "godot_enable_toolset", map[string]any{"name": "all"}), &en)
	settle()
	if en.AlreadyEnabled || len(en.Toolsets) != 3 || changed.Load() != 2 {
		t.Fatalf("enable all: %+v, %d notifications", en, changed.Load())
	}
	if _, ok := toolNames(t, c)["godot_project_edit"]; !ok {
		t.Error("godot_project_edit not listed after enabling all")
	}
	// all again: nothing changes, no notification.
	structured(t, call(t, c, "godot_enable_toolset", map[string]any{"names": []string{"all"}}), &en)
	settle()
	if !en.AlreadyEnabled || changed.Load() != 2 || len(en.Tools) != 6 {
		t.Fatalf("enable all twice: %+v, %d notifications", en, changed.Load())
	}
	// One name keeps the single-toolset answer.
	structured(t, call(t, c, "godot_enable_toolset", map[string]any{"name": "scene"}), &en)
	if en.Toolset == nil || en.Toolset.Name != "scene" || !en.AlreadyEnabled || len(en.Toolsets) != 1 {
		t.Fatalf("enable one: %+v", en)
	}
}

func TestEnableSeveralToolsetsAllOrNothing(t *testing.T) {
	ts := newFakeToolsets("scene", "scripts", "project")
	ts.failEnable = map[string]*contract.Error{"project": contract.Precondition(contract.RequireGodotVersion, "project needs Godot 4.5")}
	b := &stubBridge{}
	c := newClient(t, New(Options{Config: testConfig(), Bridge: b, Toolsets: ts}))
	changed := countListChanged(c)

	e := wantError(t, call(t, c, "godot_enable_toolset", map[string]any{"names": []string{"scene", "nope"}}), contract.ValidationError, "")
	if !strings.Contains(e.Hint, `"nope"`) || !strings.Contains(e.Hint, "scene, scripts, project") && !strings.Contains(e.Hint, "project, scene, scripts") {
		t.Errorf("unknown name: %q", e.Hint)
	}
	e = wantError(t, call(t, c, "godot_enable_toolset", map[string]any{"names": []string{"scene", "scripts", "project"}}), contract.PreconditionFailed, contract.RequireGodotVersion)
	if !strings.Contains(e.Hint, "project needs Godot 4.5") || !strings.Contains(e.Hint, "project") {
		t.Errorf("failing toolset: %q", e.Hint)
	}
	e = wantError(t, call(t, c, "godot_enable_toolset", map[string]any{"name": "all"}), contract.PreconditionFailed, contract.RequireGodotVersion)
	if !strings.Contains(e.Hint, "scene, scripts") {
		t.Errorf("all with a failing toolset should name the others to enable: %q", e.Hint)
	}
	settle()
	if got := ts.Enabled(); len(got) != 0 {
		t.Errorf("a refused enable left toolsets enabled: %v", got)
	}
	if _, ok := toolNames(t, c)["godot_scene_edit"]; ok || changed.Load() != 0 || len(b.pushed) != 0 {
		t.Errorf("a refused enable changed the tools (list_changed %d, pushed %v)", changed.Load(), b.pushed)
	}

	wantError(t, call(t, c, "godot_enable_toolset", map[string]any{}), contract.ValidationError, "")
	e = wantError(t, call(t, c, "godot_enable_toolset", map[string]any{"name": "scene", "names": []string{"scripts"}}), contract.ValidationError, "")
	if !strings.Contains(e.Hint, "names") {
		t.Errorf("name and names: %q", e.Hint)
	}
}

// A tool of a toolset that is not enabled answers with the toolset to
// enable, not "tool not found"; a name no toolset serves is still unknown.
func TestToolOfDisabledToolsetNamesTheToolset(t *testing.T) {
	ts := newFakeToolsets("scene", "scripts")
	s := New(Options{Config: testConfig(), Bridge: &stubBridge{}, Toolsets: ts})
	c := newClient(t, s)

	e := wantError(t, call(t, c, "godot_scene_edit", map[string]any{"path": "a"}), contract.PreconditionFailed, contract.RequireToolsetEnabled)
	for _, want := range []string{`"scene"`, "godot_enable_toolset", `{"names":["scene"]}`, "godot_scene_edit"} {
		if !strings.Contains(e.Hint, want) {
			t.Errorf("hint %q lacks %s", e.Hint, want)
		}
	}
	if ts.callCount() != 0 {
		t.Error("the disabled toolset was called")
	}
	var req mcp.CallToolRequest
	req.Params.Name = "godot_nope_edit"
	if _, err := c.CallTool(context.Background(), req); err == nil || !strings.Contains(err.Error(), "not found") {
		t.Errorf("an unknown tool: %v", err)
	}
	var names []string
	for n := range toolNames(t, c) {
		names = append(names, n)
	}
	sort.Strings(names)
	for _, n := range names {
		if !strings.HasPrefix(n, "godot_") || n == unavailableTool {
			t.Errorf("tools/list shows %s", n)
		}
	}
	if len(names) != len(s.Surface()) {
		t.Errorf("tools/list has %d tools, the surface %d: %v", len(names), len(s.Surface()), names)
	}

	call(t, c, "godot_enable_toolset", map[string]any{"name": "scene"})
	if res := call(t, c, "godot_scene_edit", map[string]any{"path": "a"}); res.IsError {
		t.Fatalf("after enable: %+v", res.Content)
	}

	// The stdio fast path answers the same.
	ss := startStdio(t, s)
	ss.send(`{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"godot_scripts_edit","arguments":{"path":"a"}}}`)
	resp, _ := ss.wait("1")
	res, _ := resp["result"].(map[string]any)
	content, _ := res["content"].([]any)
	if res["isError"] != true || len(content) != 1 {
		t.Fatalf("stdio: %v", resp)
	}
	var se contract.Error
	json.Unmarshal([]byte(fmt.Sprint(content[0].(map[string]any)["text"])), &se)
	if se.Code != contract.PreconditionFailed || se.Required != contract.RequireToolsetEnabled || !strings.Contains(se.Hint, `"scripts"`) {
		t.Errorf("stdio: %+v", se)
	}
}

// Over streamable HTTP too: a disabled toolset's tool names its toolset,
// and a failure carries its error object as text, no structuredContent.
func TestHTTPDisabledToolsetToolAndErrorShape(t *testing.T) {
	ts := newFakeToolsets("scene")
	s := New(Options{Config: testConfig(), Bridge: &stubBridge{}, Toolsets: ts})
	srv := httptest.NewServer(s.HTTPHandler())
	defer srv.Close()
	tr, err := transport.NewStreamableHTTP(srv.URL + "/mcp")
	if err != nil {
		t.Fatal(err)
	}
	c := client.NewClient(tr)
	ctx := context.Background()
	if err := c.Start(ctx); err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	req := mcp.InitializeRequest{}
	req.Params.ProtocolVersion = "2025-11-25"
	req.Params.ClientInfo = mcp.Implementation{Name: "test", Version: "1"}
	if _, err := c.Initialize(ctx, req); err != nil {
		t.Fatal(err)
	}
	e := wantError(t, call(t, c, "godot_scene_edit", map[string]any{"path": "a"}), contract.PreconditionFailed, contract.RequireToolsetEnabled)
	if !strings.Contains(e.Hint, `"scene"`) {
		t.Errorf("hint: %q", e.Hint)
	}
	wantError(t, call(t, c, "godot_get_editor_state", nil), contract.BridgeDisconnected, contract.RequireBridgeConnected)
	var info ServerInfo
	structured(t, call(t, c, "godot_get_server_info", nil), &info)
	if info.MCPProtocolVersion != "2025-11-25" {
		t.Errorf("over HTTP: mcp_protocol_version = %q", info.MCPProtocolVersion)
	}
}
