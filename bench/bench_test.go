// Package bench measures the whole chain with the real binary: MCP client →
// host → toolset plugin → bridge → fake addon, plus start-up, enable
// latency, large payloads and memory. Run with `make bench`.
package bench

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/godot-mcp/godot-mcp/internal/rawjson"
	"github.com/godot-mcp/godot-mcp/internal/testing/hosttest"
	"github.com/godot-mcp/godot-mcp/sdk/contract"
	"github.com/godot-mcp/godot-mcp/sdk/sdktest/fakeaddon"
)

var (
	binPath   string
	pluginDir string
)

func TestMain(m *testing.M) {
	if os.Getenv(echoChildEnv) == "1" {
		echoChild()
		return
	}
	if sock := os.Getenv(grpcChildEnv); sock != "" {
		grpcChild(sock)
		return
	}
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

// echoChildEnv makes the test binary a line echo (RawProcessEcho's child).
const echoChildEnv = "GODOT_MCP_BENCH_ECHO_CHILD"

func echoChild() {
	r := bufio.NewReader(os.Stdin)
	for {
		line, err := r.ReadBytes('\n')
		if len(line) > 0 {
			if _, werr := os.Stdout.Write(line); werr != nil {
				return
			}
		}
		if err != nil {
			return
		}
	}
}

// BenchmarkRawProcessEcho: a 64-byte line to a child Go process and back
// over pipes, the cost of one process-boundary round trip with no protocol
// at all. A tool call crosses four (client↔host, host↔plugin twice,
// host↔editor), so FullChain can be no cheaper than four of these.
func BenchmarkRawProcessEcho(b *testing.B) {
	self, err := os.Executable()
	if err != nil {
		b.Fatal(err)
	}
	cmd := exec.Command(self)
	cmd.Env = append(os.Environ(), echoChildEnv+"=1")
	in, err := cmd.StdinPipe()
	if err != nil {
		b.Fatal(err)
	}
	out, err := cmd.StdoutPipe()
	if err != nil {
		b.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() { in.Close(); cmd.Wait() })
	r := bufio.NewReader(out)
	line := []byte(strings.Repeat("x", 63) + "\n")
	for b.Loop() {
		if _, err := in.Write(line); err != nil {
			b.Fatal(err)
		}
		if got, err := r.ReadBytes('\n'); err != nil || len(got) != len(line) {
			b.Fatalf("echo: %q, %v", got, err)
		}
	}
}

// echoAddon answers cmd_echo with its params.
func echoAddon(tb testing.TB, url string) *fakeaddon.Addon {
	tb.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	a, err := fakeaddon.Dial(ctx, url, fakeaddon.WithCommands(hosttest.EchoCommands()))
	if err != nil {
		tb.Fatal(err)
	}
	a.Handle("cmd_echo_echo", func(_ context.Context, params json.RawMessage) (any, *contract.Error) {
		// The real addon parses with Godot's C++ JSON; rawjson keeps this
		// stand-in from dominating the 8 MiB figure.
		v, err := rawjson.Decode(params, false)
		in, _ := v.(map[string]any)
		if err != nil || in == nil {
			return nil, contract.Errorf(contract.ValidationError, "cmd_echo params: %v", err)
		}
		if ms, _ := in["sleep_ms"].(float64); ms > 0 {
			time.Sleep(time.Duration(ms) * time.Millisecond)
		}
		payload, _ := in["payload"].(string)
		return map[string]any{"payload": payload}, nil
	})
	tb.Cleanup(func() { a.Close() })
	return a
}

// chain starts the host with the echo toolset enabled and an editor
// connected, driven by mcp-go's client.
func chain(tb testing.TB) (*hosttest.Client, *fakeaddon.Addon) {
	tb.Helper()
	c := hosttest.StartClient(tb, binPath, "GODOT_MCP_PLUGIN_DIR="+pluginDir, "GODOT_MCP_DEFAULT_TOOLSETS=echo")
	a := echoAddon(tb, c.BridgeURL())
	return c, a
}

// lineChain is chain driven by hosttest's minimal line client, so that the
// figures are the server's and not a client library's.
func lineChain(tb testing.TB) *hosttest.LineClient {
	tb.Helper()
	c := hosttest.StartLineClient(tb, binPath, "GODOT_MCP_PLUGIN_DIR="+pluginDir, "GODOT_MCP_DEFAULT_TOOLSETS=echo")
	echoAddon(tb, c.BridgeURL())
	return c
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

func mustCallLine(tb testing.TB, c *hosttest.LineClient, name string, args map[string]any) hosttest.LineResult {
	tb.Helper()
	r, err := c.Call(context.Background(), name, args)
	if err != nil {
		tb.Fatal(err)
	}
	if r.IsError {
		tb.Fatalf("%s: %s", name, r.Structured)
	}
	return r
}

// BenchmarkFullChain: one small tool call through every hop.
func BenchmarkFullChain(b *testing.B) {
	c := lineChain(b)
	args := map[string]any{"payload": strings.Repeat("x", 64)}
	mustCallLine(b, c, "godot_echo_echo", args)
	for b.Loop() {
		mustCallLine(b, c, "godot_echo_echo", args)
	}
}

// BenchmarkFullChainMCPGoClient is BenchmarkFullChain driven by mcp-go's
// client: what a Go agent built on mcp-go would see.
func BenchmarkFullChainMCPGoClient(b *testing.B) {
	c, _ := chain(b)
	args := map[string]any{"payload": strings.Repeat("x", 64)}
	mustCall(b, c, "godot_echo_echo", args)
	for b.Loop() {
		mustCall(b, c, "godot_echo_echo", args)
	}
}

// BenchmarkPayload8MiB: an 8 MiB payload to the editor and back through every hop.
func BenchmarkPayload8MiB(b *testing.B) {
	c := lineChain(b)
	payload := strings.Repeat("y", 8<<20)
	args := map[string]any{"payload": payload}
	for b.Loop() {
		r := mustCallLine(b, c, "godot_echo_echo", args)
		if len(r.Structured) < 8<<20 || !bytes.Contains(r.Structured[:64], []byte(`"payload":"yyyy`)) {
			b.Fatalf("payload lost: %d bytes back", len(r.Structured))
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

// BenchmarkStartupDefaultToolsets: process start to the initialize answer
// with a toolset enabled at start, which must not delay the handshake. The
// first tools/list (which waits for it) is outside the timing.
func BenchmarkStartupDefaultToolsets(b *testing.B) {
	for b.Loop() {
		c := hosttest.StartClient(b, binPath, "GODOT_MCP_DEFAULT_TOOLSETS=scene")
		b.StopTimer()
		list, err := c.ListTools(context.Background(), mcpListTools())
		if err != nil {
			b.Fatal(err)
		}
		found := false
		for _, t := range list.Tools {
			found = found || t.Name == "godot_scene_get_tree"
		}
		if !found {
			b.Fatal("the default toolset's tools are not in the first tools/list")
		}
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
