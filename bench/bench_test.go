// Package bench measures the whole chain with the real binary: MCP client →
// host → toolset plugin → bridge → fake addon, plus start-up, enable
// latency, large payloads and memory. Run with `make bench`.
package bench

import (
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/godot-mcp/godot-mcp/host/envelope"
	"github.com/godot-mcp/godot-mcp/host/fakeaddon"
	"github.com/godot-mcp/godot-mcp/internal/hosttest"
)

var (
	binPath   string
	pluginDir string
)

func TestMain(m *testing.M) {
	flag.Parse()
	if flag.Lookup("test.bench").Value.String() == "" {
		os.Exit(m.Run()) // no benchmarks asked for: don't build anything
	}
	dir, err := os.MkdirTemp("", "godot-mcp-bench")
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	pluginDir = filepath.Join(dir, "plugins")
	os.Mkdir(pluginDir, 0o755)
	if binPath, err = hosttest.Build(dir, false); err == nil {
		_, err = hosttest.BuildEchoToolset(pluginDir)
	}
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	code := m.Run()
	os.RemoveAll(dir)
	os.Exit(code)
}

// echoAddon answers cmd_echo with its params.
func echoAddon(tb testing.TB, url string) *fakeaddon.Addon {
	tb.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	a, err := fakeaddon.Dial(ctx, url)
	if err != nil {
		tb.Fatal(err)
	}
	a.Handle("cmd_echo", func(_ context.Context, params json.RawMessage) (any, *envelope.Error) {
		var in struct {
			Payload string `json:"payload"`
			SleepMS int    `json:"sleep_ms"`
		}
		json.Unmarshal(params, &in)
		if in.SleepMS > 0 {
			time.Sleep(time.Duration(in.SleepMS) * time.Millisecond)
		}
		return map[string]any{"payload": in.Payload}, nil
	})
	tb.Cleanup(func() { a.Close() })
	return a
}

// chain starts the host with the echo toolset enabled and an editor connected.
func chain(tb testing.TB) (*hosttest.Client, *fakeaddon.Addon) {
	tb.Helper()
	c := hosttest.StartClient(tb, binPath, "GODOT_MCP_PLUGIN_DIR="+pluginDir, "GODOT_MCP_DEFAULT_TOOLSETS=echo")
	a := echoAddon(tb, c.BridgeURL())
	return c, a
}

func mustCall(tb testing.TB, c *hosttest.Client, name string, args map[string]any) hosttest.ToolResult {
	tb.Helper()
	r, err := c.Call(context.Background(), name, args)
	if err != nil {
		tb.Fatal(err)
	}
	if r.IsError {
		tb.Fatalf("%s: %s", name, r.StructuredContent)
	}
	return r
}

// BenchmarkFullChain: one small tool call through every hop.
func BenchmarkFullChain(b *testing.B) {
	c, _ := chain(b)
	args := map[string]any{"payload": strings.Repeat("x", 64)}
	mustCall(b, c, "godot_echo_echo", args)
	b.ResetTimer()
	for b.Loop() {
		mustCall(b, c, "godot_echo_echo", args)
	}
}

// BenchmarkPayload8MiB: an 8 MiB payload to the editor and back through every hop.
func BenchmarkPayload8MiB(b *testing.B) {
	c, _ := chain(b)
	payload := strings.Repeat("y", 8<<20)
	args := map[string]any{"payload": payload}
	for b.Loop() {
		r := mustCall(b, c, "godot_echo_echo", args)
		if len(r.StructuredContent) < 8<<20 {
			b.Fatalf("payload lost: %d bytes back", len(r.StructuredContent))
		}
	}
}

// BenchmarkEnableToolset: godot_enable_toolset until its tools are callable, then disable.
func BenchmarkEnableToolset(b *testing.B) {
	c := hosttest.StartClient(b, binPath, "GODOT_MCP_PLUGIN_DIR="+pluginDir)
	echoAddon(b, c.BridgeURL())
	mustCall(b, c, "godot_list_toolsets", nil) // describe once, outside the timing
	for b.Loop() {
		mustCall(b, c, "godot_enable_toolset", map[string]any{"name": "echo"})
		mustCall(b, c, "godot_echo_echo", map[string]any{"payload": "x"})
		b.StopTimer()
		mustCall(b, c, "godot_disable_toolset", map[string]any{"name": "echo"})
		b.StartTimer()
	}
}

// BenchmarkStartup: process start to the first tools/list answer.
func BenchmarkStartup(b *testing.B) {
	for b.Loop() {
		c := hosttest.StartClient(b, binPath)
		if _, err := c.ListTools(context.Background(), mcpListTools()); err != nil {
			b.Fatal(err)
		}
		b.StopTimer()
		c.Close()
		b.StartTimer()
	}
}

// BenchmarkHostRSS reports the host's resident memory after 1,000 calls.
func BenchmarkHostRSS(b *testing.B) {
	c, _ := chain(b)
	for range 1000 {
		mustCall(b, c, "godot_echo_echo", map[string]any{"payload": "x"})
	}
	rss := hosttest.RSSMiB(c.Cmd.Process.Pid)
	for b.Loop() {
	}
	b.ReportMetric(rss, "rss-MB")
}

// BenchmarkPluginRSS reports an idle plugin's resident memory.
func BenchmarkPluginRSS(b *testing.B) {
	c, _ := chain(b)
	mustCall(b, c, "godot_echo_echo", map[string]any{"payload": "x"})
	pid := childPid(b, c.Cmd.Process.Pid, "echo")
	time.Sleep(200 * time.Millisecond)
	rss := hosttest.RSSMiB(pid)
	for b.Loop() {
	}
	b.ReportMetric(rss, "rss-MB")
}
