package main

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/godot-mcp/godot-mcp/host/profile"
	"github.com/godot-mcp/godot-mcp/sdk/contract"
)

// initializeAs performs the handshake as the named client and returns the
// instructions it was given.
func initializeAs(t *testing.T, p interface {
	Request(string, any) (json.RawMessage, []string)
	Notify(string)
}, client string) string {
	t.Helper()
	raw, _ := p.Request("initialize", map[string]any{
		"protocolVersion": "2025-11-25", "capabilities": map[string]any{},
		"clientInfo": map[string]any{"name": client, "version": "1.0.0"},
	})
	var init struct {
		Instructions string `json:"instructions"`
	}
	if err := json.Unmarshal(raw, &init); err != nil {
		t.Fatalf("initialize: %v: %s", err, raw)
	}
	p.Notify("notifications/initialized")
	return init.Instructions
}

// A Codex-like client never re-reads tools/list after
// notifications/tools/list_changed: it gets its profile at start, so its
// one tools/list already holds the profile's tools, and it calls one.
// Enabling more tells it that its client will not list them and how to
// call them by name, which works.
func TestCodexLikeClientStartsWithItsProfile(t *testing.T) {
	p := startBinary(t)
	text := initializeAs(t, p, "codex-mcp-client")
	if !strings.Contains(text, "Your client (Codex) does not re-read tools/list") || !strings.Contains(text, "the profile 2d") {
		t.Errorf("instructions for Codex:\n%s", text)
	}
	names := p.ToolNames() // the one tools/list this client makes
	want, _ := profile.Lookup("2d")
	for _, ts := range want.Toolsets {
		found := false
		for n := range names {
			found = found || strings.HasPrefix(n, "godot_"+ts+"_")
		}
		if !found {
			t.Errorf("the first tools/list has no tool of %s (profile 2d): %v", ts, names)
		}
	}
	if names["godot_debugger_get_state"] {
		t.Error("the debugger toolset is not in the 2d profile, yet listed")
	}

	a := dialEditor(t, p.BridgeURL(), "")
	a.HandleResult("cmd_scene_list_open", map[string]any{"scenes": []any{}, "active": ""})
	if r := call(p, "godot_scene_list_open", nil); r.IsError {
		t.Fatalf("a tool of the profile: %s", r.StructuredContent)
	}

	r := call(p, "godot_enable_toolset", map[string]any{"name": "debugger"})
	var res struct {
		Tools      []string `json:"tools"`
		ClientNote string   `json:"client_note"`
	}
	if r.IsError || json.Unmarshal(r.StructuredContent, &res) != nil {
		t.Fatalf("enable debugger: %s", r.StructuredContent)
	}
	for _, want := range []string{"Your client (Codex) does not re-read tools/list", "by their exact names", "godot://tool/{name}", "GODOT_MCP_DEFAULT_TOOLSETS="} {
		if !strings.Contains(res.ClientNote, want) {
			t.Errorf("client_note lacks %q: %q", want, res.ClientNote)
		}
	}
	// Called by name, without listing again: served.
	r = call(p, "godot_debugger_get_state", nil)
	if e := errorOf(r); r.IsError && e.Required == contract.RequireToolsetEnabled {
		t.Fatalf("a tool enabled after start, called by name: %s", r.StructuredContent)
	}
	p.AssertOnlyJSONRPC()
}

// The user's choice wins over the client's profile: GODOT_MCP_PROFILE=none
// starts a Codex client with the core tools alone; a profile is then
// enabled in one call.
func TestProfileSettingOverridesTheClientsAndEnableByProfile(t *testing.T) {
	p := startBinary(t, "GODOT_MCP_PROFILE=none")
	initializeAs(t, p, "codex-mcp-client")
	for n := range p.ToolNames() {
		if strings.Count(n, "_") > 1 && !strings.HasPrefix(n, "godot_get_") && !strings.HasPrefix(n, "godot_list_") &&
			!strings.HasSuffix(n, "_toolset") && n != "godot_describe_class" {
			t.Errorf("GODOT_MCP_PROFILE=none, yet %s is listed", n)
		}
	}
	r := call(p, "godot_enable_toolset", map[string]any{"profile": "playtest"})
	var res struct {
		Toolsets []struct {
			Name    string `json:"name"`
			Enabled bool   `json:"enabled"`
		} `json:"toolsets"`
		ClientNote string `json:"client_note"`
	}
	if r.IsError || json.Unmarshal(r.StructuredContent, &res) != nil {
		t.Fatalf("enable playtest: %s", r.StructuredContent)
	}
	want, _ := profile.Lookup("playtest")
	if len(res.Toolsets) != len(want.Toolsets) {
		t.Errorf("enabled %+v, want %v", res.Toolsets, want.Toolsets)
	}
	if !strings.Contains(res.ClientNote, "GODOT_MCP_PROFILE=playtest") {
		t.Errorf("client_note should name the profile to start with: %q", res.ClientNote)
	}
	r = call(p, "godot_enable_toolset", map[string]any{"profile": "4d"})
	if e := errorOf(r); !r.IsError || e.Code != contract.ValidationError || !strings.Contains(e.Hint, "minimal, 2d, 3d, world3d, playtest, all") {
		t.Errorf("unknown profile: %s", r.StructuredContent)
	}
	p.AssertOnlyJSONRPC()
}
