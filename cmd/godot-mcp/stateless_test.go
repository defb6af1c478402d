package main

import (
	"encoding/json"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/godot-mcp/godot-mcp/internal/testing/hosttest"
)

// #28.7: a client of MCP 2026-07-28 (no initialize; protocol version and
// capabilities in every request's _meta) discovers the server, lists and
// calls tools, enables a toolset and learns of the change through its
// subscriptions/listen stream, each change notification tagged with the
// subscription's id; before it subscribed, no change notification reaches
// it (the revision makes every notification opt-in).
func TestBinaryStatelessClientListsCallsAndSubscribes(t *testing.T) {
	p := startBinary(t)
	meta := map[string]any{
		"io.modelcontextprotocol/protocolVersion":    "2026-07-28",
		"io.modelcontextprotocol/clientCapabilities": map[string]any{},
		"io.modelcontextprotocol/clientInfo":         map[string]any{"name": "stateless-test", "version": "1"},
	}
	with := func(params map[string]any) map[string]any {
		params["_meta"] = meta
		return params
	}

	raw, _ := p.Request("server/discover", with(map[string]any{}))
	var disc struct {
		SupportedVersions []string `json:"supportedVersions"`
		Capabilities      struct {
			Tools *struct {
				ListChanged bool `json:"listChanged"`
			} `json:"tools"`
		} `json:"capabilities"`
	}
	if err := json.Unmarshal(raw, &disc); err != nil || !slices.Contains(disc.SupportedVersions, "2026-07-28") || disc.Capabilities.Tools == nil || !disc.Capabilities.Tools.ListChanged {
		t.Fatalf("server/discover: %s", raw)
	}
	tools := func() map[string]bool {
		raw, _ := p.Request("tools/list", with(map[string]any{}))
		var list struct {
			Tools []struct {
				Name string `json:"name"`
			} `json:"tools"`
		}
		json.Unmarshal(raw, &list)
		names := map[string]bool{}
		for _, tool := range list.Tools {
			names[tool.Name] = true
		}
		return names
	}
	if names := tools(); !names["godot_enable_toolset"] || names["godot_audio_get_buses"] {
		t.Fatalf("first tools/list: %v", names)
	}
	callTool := func(name string, args map[string]any) string {
		raw, _ := p.Request("tools/call", with(map[string]any{"name": name, "arguments": args}))
		var res struct {
			IsError bool `json:"isError"`
		}
		json.Unmarshal(raw, &res)
		if res.IsError {
			t.Fatalf("%s: %s", name, raw)
		}
		return string(raw)
	}
	if out := callTool("godot_list_toolsets", map[string]any{}); !strings.Contains(out, `\"audio\"`) {
		t.Fatalf("godot_list_toolsets: %s", out)
	}

	// Not subscribed: the change is served, but not announced.
	callTool("godot_enable_toolset", map[string]any{"name": "audio"})
	if names := tools(); !names["godot_audio_get_buses"] {
		t.Fatalf("tools/list after enabling audio lacks its tools: %v", names)
	}
	if n := changeNotes(p, nil); len(n) > 0 {
		t.Fatalf("a stateless client that never subscribed was sent %v", n)
	}

	sub := p.Post("subscriptions/listen", with(map[string]any{"notifications": map[string]any{"toolsListChanged": true}}))
	waitLine(t, p, func(m line) bool {
		return m.Method == "notifications/subscriptions/acknowledged" && m.subscription() == sub
	}, "the subscription's acknowledgement")
	callTool("godot_disable_toolset", map[string]any{"name": "audio"})
	waitLine(t, p, func(m line) bool {
		return m.Method == "notifications/tools/list_changed" && m.subscription() == sub
	}, "tools/list_changed tagged with the subscription's id")
	if names := tools(); names["godot_audio_get_buses"] {
		t.Fatalf("tools/list after disabling audio still has its tools")
	}
	// Every change notification went to the subscription, none untagged.
	if bad := changeNotes(p, func(m line) bool { return m.subscription() != sub }); len(bad) > 0 {
		t.Fatalf("change notifications outside the subscription: %v", bad)
	}
}

// An earlier-revision client (initialize handshake) keeps receiving
// tools/list_changed as before, untagged.
func TestBinaryHandshakeClientStillGetsListChanged(t *testing.T) {
	p := startBinary(t)
	p.Initialize()
	p.CallTool("godot_enable_toolset", map[string]any{"name": "audio"})
	waitLine(t, p, func(m line) bool { return m.Method == "notifications/tools/list_changed" && m.subscription() == 0 }, "an untagged tools/list_changed")
}

type line struct {
	Method string `json:"method"`
	Params struct {
		Meta map[string]any `json:"_meta"`
	} `json:"params"`
}

// subscription is the subscriptionId the line is tagged with (0: none).
func (m line) subscription() int {
	v, _ := m.Params.Meta["io.modelcontextprotocol/subscriptionId"].(float64)
	return int(v)
}

func lines(p *hosttest.Proc) []line {
	var out []line
	for _, s := range p.Stdout() {
		var m line
		if json.Unmarshal([]byte(s), &m) == nil && m.Method != "" {
			out = append(out, m)
		}
	}
	return out
}

// changeNotes lists the list_changed notifications written so far that
// match keep (all when nil).
func changeNotes(p *hosttest.Proc, keep func(line) bool) []string {
	var out []string
	for _, m := range lines(p) {
		if strings.HasSuffix(m.Method, "/list_changed") && (keep == nil || keep(m)) {
			out = append(out, m.Method)
		}
	}
	return out
}

func waitLine(t *testing.T, p *hosttest.Proc, match func(line) bool, what string) {
	t.Helper()
	deadline := time.Now().Add(20 * time.Second)
	for time.Now().Before(deadline) {
		for _, m := range lines(p) {
			if match(m) {
				return
			}
		}
		time.Sleep(20 * time.Millisecond)
	}
	t.Fatalf("never saw %s; stdout:\n%s", what, strings.Join(p.Stdout(), "\n"))
}
