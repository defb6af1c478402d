// Package faults proves the host keeps working when things go wrong: plugins
// killed or hung, editors dropping mid-call, hosts restarting, toolsets
// flapping under load, slow editors. Each test counts goroutines and plugin
// processes before and after, bounds every wait, and checks the next call works.
package faults

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/mark3labs/mcp-go/client"
	"github.com/mark3labs/mcp-go/client/transport"
	"github.com/mark3labs/mcp-go/mcp"

	"github.com/godot-mcp/godot-mcp/host/app"
	"github.com/godot-mcp/godot-mcp/host/config"
	"github.com/godot-mcp/godot-mcp/internal/testing/hosttest"
	"github.com/godot-mcp/godot-mcp/sdk/contract"
	"github.com/godot-mcp/godot-mcp/sdk/sdktest/fakeaddon"
)

var pluginDir string

func TestMain(m *testing.M) {
	dir, err := os.MkdirTemp("", "godot-mcp-faults")
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	pluginDir = filepath.Join(dir, "plugins")
	os.Mkdir(pluginDir, 0o755)
	// Third-party toolsets are pinned in the user's config dir: this
	// run's own, never the developer's.
	os.Setenv("XDG_CONFIG_HOME", filepath.Join(dir, "config"))
	if _, err := hosttest.BuildEchoToolset(pluginDir); err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	code := m.Run()
	os.RemoveAll(dir)
	os.Exit(code)
}

type host struct {
	app    *app.App
	c      *client.Client
	served chan error
}

func cfgFor(t *testing.T, url string, env map[string]string) config.Config {
	t.Helper()
	vals := map[string]string{"GODOT_MCP_BRIDGE_URL": url, "GODOT_MCP_PLUGIN_DIR": pluginDir, "GODOT_MCP_DEFAULT_TOOLSETS": "echo"}
	for k, v := range env {
		vals[k] = v
	}
	cfg, _, err := config.Load(func(k string) (string, bool) { v, ok := vals[k]; return v, ok }, nil)
	if err != nil {
		t.Fatal(err)
	}
	return cfg
}

// startHost runs a host in-process (plugins are real subprocesses) and an
// MCP client that speaks to it over stdio pipes, so that every call takes
// the transport agents use (ServeStdio and its fast path).
func startHost(t *testing.T, cfg config.Config) *host {
	t.Helper()
	a, err := app.Start(context.Background(), app.Options{Config: cfg})
	if err != nil {
		t.Fatal(err)
	}
	inR, inW := io.Pipe()   // client → host
	outR, outW := io.Pipe() // host → client
	served := make(chan error, 1)
	go func() {
		served <- a.Server.ServeStdio(context.Background(), inR, outW, io.Discard)
		outW.Close()
	}()
	c := client.NewClient(transport.NewIO(outR, inW, nil))
	if err := c.Start(context.Background()); err != nil {
		t.Fatal(err)
	}
	req := mcp.InitializeRequest{}
	req.Params.ProtocolVersion = mcp.LATEST_PROTOCOL_VERSION
	req.Params.ClientInfo = mcp.Implementation{Name: "faults", Version: "1"}
	if _, err := c.Initialize(context.Background(), req); err != nil {
		t.Fatal(err)
	}
	h := &host{app: a, c: c, served: served}
	t.Cleanup(func() { h.stop(t) })
	return h
}

func (h *host) stop(t *testing.T) {
	if h.c != nil {
		h.c.Close() // closes the host's stdin: ServeStdio returns
		h.c = nil
		select {
		case err := <-h.served:
			if err != nil {
				t.Errorf("ServeStdio: %v", err)
			}
		case <-time.After(15 * time.Second):
			t.Error("ServeStdio did not return after its stdin closed")
		}
	}
	if h.app != nil {
		h.app.Close()
		h.app = nil
	}
}

type result struct {
	isError bool
	err     contract.Error
	raw     json.RawMessage
	rpcErr  error
}

func (h *host) call(ctx context.Context, name string, args map[string]any) result {
	req := mcp.CallToolRequest{}
	req.Params.Name = name
	req.Params.Arguments = args
	res, err := h.c.CallTool(ctx, req)
	if err != nil {
		return result{rpcErr: err}
	}
	raw, _ := json.Marshal(res.StructuredContent)
	r := result{isError: res.IsError, raw: raw}
	if res.IsError && len(res.Content) > 0 {
		// A failed call's error object is its JSON text content.
		if tc, ok := res.Content[0].(mcp.TextContent); ok {
			r.raw = json.RawMessage(tc.Text)
			json.Unmarshal(r.raw, &r.err)
		}
	}
	return r
}

func (h *host) mustEcho(t *testing.T, payload string) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	r := h.call(ctx, "godot_echo_echo", map[string]any{"payload": payload})
	if r.rpcErr != nil || r.isError || !strings.Contains(string(r.raw), payload) {
		t.Fatalf("echo %q: %+v %s", payload, r, r.raw)
	}
}

func dial(t *testing.T, url string) *fakeaddon.Addon {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	a, err := fakeaddon.Dial(ctx, url, fakeaddon.WithCommands(hosttest.EchoCommands()))
	if err != nil {
		t.Fatal(err)
	}
	a.Handle("cmd_echo_echo", func(ctx context.Context, params json.RawMessage) (any, *contract.Error) {
		var in struct {
			Payload string `json:"payload"`
			SleepMS int    `json:"sleep_ms"`
		}
		json.Unmarshal(params, &in)
		if in.SleepMS > 0 {
			select {
			case <-time.After(time.Duration(in.SleepMS) * time.Millisecond):
			case <-ctx.Done():
			}
		}
		return map[string]any{"payload": in.Payload}, nil
	})
	t.Cleanup(func() { a.Close() })
	return a
}

// leakCheck records goroutines and child processes now and, at cleanup,
// waits (bounded) for both to come back down.
func leakCheck(t *testing.T) {
	t.Helper()
	g0, p0 := runtime.NumGoroutine(), children()
	t.Cleanup(func() {
		deadline := time.Now().Add(15 * time.Second)
		for {
			g, p := runtime.NumGoroutine(), children()
			if g <= g0+2 && p <= p0 {
				return
			}
			if time.Now().After(deadline) {
				buf := make([]byte, 1<<20)
				n := runtime.Stack(buf, true)
				t.Errorf("leak: goroutines %d → %d, child processes %d → %d\n%s", g0, g, p0, p, buf[:n])
				return
			}
			time.Sleep(50 * time.Millisecond)
		}
	})
}

func TestPluginKilledMidCall(t *testing.T) {
	leakCheck(t)
	h := startHost(t, cfgFor(t, "ws://127.0.0.1:0", nil))
	dial(t, h.app.Bridge.URL())
	h.mustEcho(t, "warm")
	pid := pluginPid(t)
	done := make(chan result, 1)
	go func() {
		done <- h.call(context.Background(), "godot_echo_echo", map[string]any{"payload": "x", "sleep_ms": 10000})
	}()
	time.Sleep(200 * time.Millisecond)
	syscall.Kill(pid, syscall.SIGKILL)
	select {
	case r := <-done:
		if !r.isError || r.err.Code != contract.InternalError {
			t.Fatalf("want INTERNAL_ERROR, got %+v", r)
		}
	case <-time.After(5 * time.Second):
		t.Fatal("call hung after its plugin was killed")
	}
	eventuallyEcho(t, h)
}

func eventuallyEcho(t *testing.T, h *host) {
	t.Helper()
	deadline := time.Now().Add(20 * time.Second)
	for {
		r := h.call(context.Background(), "godot_echo_echo", map[string]any{"payload": "again"})
		if r.rpcErr == nil && !r.isError {
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("the next call never worked: %+v %s", r, r.raw)
		}
		time.Sleep(100 * time.Millisecond)
	}
}

func TestPluginHangs(t *testing.T) {
	leakCheck(t)
	h := startHost(t, cfgFor(t, "ws://127.0.0.1:0", map[string]string{"GODOT_MCP_CALL_TIMEOUT": "1s"}))
	dial(t, h.app.Bridge.URL())
	h.mustEcho(t, "warm")
	start := time.Now()
	r := h.call(context.Background(), "godot_echo_hang", nil)
	if !r.isError || r.err.Code != contract.Timeout || time.Since(start) > 5*time.Second {
		t.Fatalf("hang: want TIMEOUT, got %+v after %v", r, time.Since(start))
	}
	// The hint tells the truth: the plugin was killed, and when it comes back.
	if !strings.Contains(r.err.Hint, "killed") || !strings.Contains(r.err.Hint, "possible in") {
		t.Fatalf("hang hint: %s", r.err.Hint)
	}
	eventuallyEcho(t, h)
}

func TestEditorDisconnectsMidCallAndReconnects(t *testing.T) {
	leakCheck(t)
	h := startHost(t, cfgFor(t, "ws://127.0.0.1:0", nil))
	a := dial(t, h.app.Bridge.URL())
	done := make(chan result, 1)
	go func() {
		done <- h.call(context.Background(), "godot_echo_echo", map[string]any{"payload": "x", "sleep_ms": 10000})
	}()
	if _, err := a.WaitCommand(ctxT(t), "cmd_echo_echo"); err != nil {
		t.Fatal(err)
	}
	a.CloseNow()
	select {
	case r := <-done:
		if !r.isError || r.err.Code != contract.BridgeDisconnected {
			t.Fatalf("want BRIDGE_DISCONNECTED, got %+v", r)
		}
	case <-time.After(2 * time.Second):
		t.Fatal("call hung after the editor dropped")
	}
	dial(t, h.app.Bridge.URL())
	h.mustEcho(t, "back")
}

func TestHostRestartsWhileEditorStays(t *testing.T) {
	leakCheck(t)
	h := startHost(t, cfgFor(t, "ws://127.0.0.1:0", nil))
	url := h.app.Bridge.URL()
	a := dial(t, url)
	h.mustEcho(t, "first")
	h.stop(t)
	select {
	case <-a.Done():
	case <-time.After(5 * time.Second):
		t.Fatal("the editor did not notice the host going away")
	}
	// A new host on the same address; the editor (re)dials it.
	h2 := startHost(t, cfgFor(t, url, nil))
	dial(t, url)
	h2.mustEcho(t, "second")
}

func TestEnableDisableCyclesWithCallsInFlight(t *testing.T) {
	leakCheck(t)
	h := startHost(t, cfgFor(t, "ws://127.0.0.1:0", nil))
	dial(t, h.app.Bridge.URL())
	stop := make(chan struct{})
	var wg sync.WaitGroup
	var mu sync.Mutex
	outcomes := map[string]int{}
	for i := range 4 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for {
				select {
				case <-stop:
					return
				default:
				}
				ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
				r := h.call(ctx, "godot_echo_echo", map[string]any{"payload": strconv.Itoa(i)})
				cancel()
				key := "ok"
				switch {
				case r.rpcErr != nil && strings.Contains(r.rpcErr.Error(), "not found"):
					key = "not-listed"
				case r.rpcErr != nil:
					key = "rpc: " + r.rpcErr.Error()
				case r.isError:
					key = string(r.err.Code)
				}
				mu.Lock()
				outcomes[key]++
				mu.Unlock()
			}
		}()
	}
	for range 100 {
		ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
		if r := h.call(ctx, "godot_disable_toolset", map[string]any{"name": "echo"}); r.isError || r.rpcErr != nil {
			t.Fatalf("disable: %+v", r)
		}
		if r := h.call(ctx, "godot_enable_toolset", map[string]any{"name": "echo"}); r.isError || r.rpcErr != nil {
			t.Fatalf("enable: %+v %s", r, r.raw)
		}
		cancel()
	}
	close(stop)
	wg.Wait()
	t.Logf("outcomes of calls racing 100 enable/disable cycles: %v", outcomes)
	for k := range outcomes {
		switch k {
		case "ok", "not-listed", string(contract.PreconditionFailed): // never a false crash
		default:
			t.Errorf("unexpected outcome %q", k)
		}
	}
	if outcomes["ok"] == 0 {
		t.Fatal("no call succeeded while cycling")
	}
	h.mustEcho(t, "after")
	if n := children(); n != 1 {
		t.Fatalf("%d plugin processes after the cycles, want 1", n)
	}
}

func TestSlowEditorWith64Callers(t *testing.T) {
	leakCheck(t)
	h := startHost(t, cfgFor(t, "ws://127.0.0.1:0", nil))
	a := dial(t, h.app.Bridge.URL())
	h.mustEcho(t, "warm")
	a.Delay(2 * time.Second)
	start := time.Now()
	var wg sync.WaitGroup
	errs := make(chan string, 64)
	for i := range 64 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			p := "c" + strconv.Itoa(i)
			r := h.call(context.Background(), "godot_echo_echo", map[string]any{"payload": p})
			if r.rpcErr != nil || r.isError || !strings.Contains(string(r.raw), `"`+p+`"`) {
				errs <- fmt.Sprintf("%s: %+v %s", p, r, r.raw)
			}
		}()
	}
	wg.Wait()
	close(errs)
	for e := range errs {
		t.Error(e)
	}
	// 64 calls each delayed 2 s are served concurrently, not one after another.
	if took := time.Since(start); took > 15*time.Second {
		t.Fatalf("64 slow calls took %v: they were serialized", took)
	}
	a.Delay(0)
	h.mustEcho(t, "fast again")
}

func ctxT(t *testing.T) context.Context {
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	t.Cleanup(cancel)
	return ctx
}

// children counts this test process's live child processes.
func children() int { return len(hosttest.Children(os.Getpid())) }

// pluginPid is the echo plugin's process.
func pluginPid(t *testing.T) int {
	t.Helper()
	return hosttest.WaitChild(t, os.Getpid(), "echo", func(c hosttest.Child) bool {
		return strings.HasSuffix(c.Cmdline[0], "/echo")
	})
}

// A plugin frozen by SIGSTOP mid-call is noticed within about a second, not
// after the whole call timeout (issue 14, L10): the call answers TIMEOUT
// saying so, and the toolset comes back on the next call.
func TestStoppedPluginIsNotWaitedOut(t *testing.T) {
	if runtime.GOOS != "linux" {
		t.Skip("stopped processes are read from /proc (Linux only)")
	}
	leakCheck(t)
	h := startHost(t, cfgFor(t, "ws://127.0.0.1:0", map[string]string{"GODOT_MCP_CALL_TIMEOUT": "60s"}))
	a := dial(t, h.app.Bridge.URL())
	h.mustEcho(t, "warm")
	plugins := hosttest.Children(os.Getpid())
	pid := 0
	for _, c := range plugins {
		if strings.Contains(strings.Join(c.Cmdline, " "), "echo") {
			pid = c.PID
		}
	}
	if pid == 0 {
		t.Fatalf("no echo plugin among %+v", plugins)
	}
	done := make(chan result, 1)
	start := time.Now()
	go func() {
		done <- h.call(context.Background(), "godot_echo_echo", map[string]any{"payload": "x", "sleep_ms": 30000})
	}()
	if _, err := a.WaitCommand(ctxT(t), "cmd_echo_echo"); err != nil {
		t.Fatal(err)
	}
	if err := syscall.Kill(pid, syscall.SIGSTOP); err != nil {
		t.Fatal(err)
	}
	defer syscall.Kill(pid, syscall.SIGCONT)
	select {
	case r := <-done:
		if !r.isError || r.err.Code != contract.Timeout || !strings.Contains(r.err.Hint, "stopped") {
			t.Fatalf("want TIMEOUT naming the stop, got %+v", r)
		}
		if d := time.Since(start); d > 10*time.Second {
			t.Fatalf("took %v", d)
		}
	case <-time.After(15 * time.Second):
		t.Fatal("the call waited on a stopped plugin")
	}
	eventuallyEcho(t, h)
}
