package mcpserver

import (
	"context"
	"encoding/json"
	"fmt"
	"testing"

	"github.com/mark3labs/mcp-go/client"
	"github.com/mark3labs/mcp-go/mcp"
)

// godot_get_server_info reports the protocol revision negotiated with the
// calling client, not the newest one the server knows.
func TestServerInfoReportsNegotiatedProtocol(t *testing.T) {
	for _, version := range []string{"2025-06-18", "2025-11-25"} {
		s := New(Options{Config: testConfig(), Bridge: &stubBridge{}})
		c, err := client.NewInProcessClient(s.MCP())
		if err != nil {
			t.Fatal(err)
		}
		if err := c.Start(context.Background()); err != nil {
			t.Fatal(err)
		}
		req := mcp.InitializeRequest{}
		req.Params.ProtocolVersion = version
		req.Params.ClientInfo = mcp.Implementation{Name: "test", Version: "1"}
		if _, err := c.Initialize(context.Background(), req); err != nil {
			t.Fatal(err)
		}
		var info ServerInfo
		structured(t, call(t, c, "godot_get_server_info", nil), &info)
		if info.MCPProtocolVersion != version {
			t.Errorf("in-process client of %s: mcp_protocol_version = %q", version, info.MCPProtocolVersion)
		}
		c.Close()
	}
	// stdio, with its own handshake.
	s := New(Options{Config: testConfig(), Bridge: &stubBridge{}})
	ss := startStdio(t, s) // initializes with 2025-11-25
	ss.send(`{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"godot_get_server_info","arguments":{}}}`)
	resp, _ := ss.wait("1")
	sc, _ := json.Marshal(resp["result"].(map[string]any)["structuredContent"])
	var info ServerInfo
	json.Unmarshal(sc, &info)
	if info.MCPProtocolVersion != "2025-11-25" {
		t.Errorf("stdio client of 2025-11-25: mcp_protocol_version = %q", info.MCPProtocolVersion)
	}
	// A 2026-07-28 request declares its revision itself.
	ss.send(`{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"_meta":{"io.modelcontextprotocol/clientCapabilities":{},"io.modelcontextprotocol/clientInfo":{"name":"t","version":"1"},"io.modelcontextprotocol/protocolVersion":"2026-07-28"},"name":"godot_get_server_info","arguments":{}}}`)
	resp, _ = ss.wait("2")
	sc, _ = json.Marshal(resp["result"].(map[string]any)["structuredContent"])
	info = ServerInfo{}
	json.Unmarshal(sc, &info)
	if info.MCPProtocolVersion != "2026-07-28" {
		t.Errorf("2026-07-28 request: mcp_protocol_version = %q (%s)", info.MCPProtocolVersion, fmt.Sprint(resp))
	}
}
