package bench

import (
	"bytes"
	"net"
	"strings"
	"testing"
	"time"

	"github.com/godot-mcp/godot-mcp/internal/testing/hosttest"
)

// attachedChain starts an owner with the echo toolset on a fixed bridge
// port and an editor connected, then a second server on the same bridge
// URL, which attaches to the owner (host/attach); the returned client
// drives the second one.
func attachedChain(tb testing.TB) *hosttest.LineClient {
	tb.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		tb.Fatal(err)
	}
	_, port, _ := net.SplitHostPort(ln.Addr().String())
	ln.Close()
	env := []string{"GODOT_MCP_PLUGIN_DIR=" + pluginDir, "GODOT_MCP_DEFAULT_TOOLSETS=echo",
		"GODOT_MCP_BRIDGE_URL=ws://127.0.0.1:" + port, "XDG_RUNTIME_DIR=" + tb.TempDir()}
	owner := hosttest.StartLineClient(tb, binPath, env...)
	echoAddon(tb, owner.BridgeURL())
	deadline := time.Now().Add(10 * time.Second)
	for !strings.Contains(owner.Stderr(), "attach here") && time.Now().Before(deadline) {
		time.Sleep(10 * time.Millisecond)
	}
	c := hosttest.StartLineClient(tb, binPath, env...)
	deadline = time.Now().Add(10 * time.Second)
	for !strings.Contains(c.Stderr(), "serving this client through it") && time.Now().Before(deadline) {
		time.Sleep(10 * time.Millisecond)
	}
	if !strings.Contains(c.Stderr(), "serving this client through it") {
		tb.Fatalf("the second server did not attach:\n%s", c.Stderr())
	}
	return c
}

// BenchmarkAttachedFullChain is BenchmarkFullChain through a second server
// attached to the owner: client → proxy (stdio) → owner (loopback HTTP) →
// plugin → bridge → fake addon.
func BenchmarkAttachedFullChain(b *testing.B) {
	c := attachedChain(b)
	args := map[string]any{"payload": strings.Repeat("x", 64)}
	mustCallLine(b, c, "godot_echo_echo", args)
	for b.Loop() {
		mustCallLine(b, c, "godot_echo_echo", args)
	}
}

// BenchmarkAttachedPayload8MiB is BenchmarkPayload8MiB through an attached server.
func BenchmarkAttachedPayload8MiB(b *testing.B) {
	c := attachedChain(b)
	payload := strings.Repeat("y", 8<<20)
	args := map[string]any{"payload": payload}
	for b.Loop() {
		r := mustCallLine(b, c, "godot_echo_echo", args)
		if len(r.Structured) < 8<<20 || !bytes.Contains(r.Structured[:64], []byte(`"payload":"yyyy`)) {
			b.Fatalf("payload lost: %d bytes back", len(r.Structured))
		}
	}
}
