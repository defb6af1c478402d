package faults

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/coder/websocket"

	"github.com/godot-mcp/godot-mcp/internal/testing/hosttest"
	"github.com/godot-mcp/godot-mcp/sdk/contract"
	"github.com/godot-mcp/godot-mcp/sdk/sdktest/fakeaddon"
)

func openFDs() int {
	ents, err := os.ReadDir("/proc/self/fd")
	if err != nil {
		return -1
	}
	return len(ents)
}

// TestStrangerFloodsBothListeners (issue 14, M5 and M6): a local process
// without either token holds every pre-hello slot of the bridge (silent
// WebSockets and TCP sockets, reopened as soon as they are dropped) and
// thousands of idle connections to the HTTP transport. The host's own
// descriptors stay bounded, the editor connects at its first try, a tool
// call goes through a plugin, a toolset restarts (new process, new pipes),
// and an HTTP client is served.
func TestStrangerFloodsBothListeners(t *testing.T) {
	if openFDs() < 0 {
		t.Skip("no /proc/self/fd")
	}
	var lim syscall.Rlimit
	_ = syscall.Getrlimit(syscall.RLIMIT_NOFILE, &lim)
	idle := 2000
	if lim.Cur < 8192 {
		idle = int(lim.Cur) / 4
	}
	leakCheck(t)
	const token = "bridge-s3cret"
	h := startHost(t, cfgFor(t, "ws://127.0.0.1:0", map[string]string{"GODOT_MCP_BRIDGE_TOKEN": token}))
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	httpCtx, stopHTTP := context.WithCancel(context.Background())
	httpDone := make(chan error, 1)
	go func() { httpDone <- h.app.Server.ServeHTTP(httpCtx, ln) }()
	defer func() { stopHTTP(); <-httpDone }()
	bridgeAddr := strings.TrimPrefix(h.app.Bridge.URL(), "ws://")
	httpAddr := ln.Addr().String()
	base := openFDs()

	ctx, cancel := context.WithTimeout(context.Background(), 90*time.Second)
	defer cancel()
	stop := make(chan struct{})
	var wg sync.WaitGroup
	defer func() { close(stop); wg.Wait() }()
	// The bridge: 64 silent WebSockets and 64 silent sockets, reopened.
	for i := 0; i < 64; i++ {
		wg.Add(2)
		go func() {
			defer wg.Done()
			for {
				select {
				case <-stop:
					return
				default:
				}
				c, resp, err := websocket.Dial(ctx, h.app.Bridge.URL(), nil)
				if resp != nil && resp.Body != nil {
					resp.Body.Close()
				}
				if err != nil {
					time.Sleep(20 * time.Millisecond)
					continue
				}
				rctx, rcancel := context.WithCancel(ctx)
				go func() {
					select {
					case <-stop:
					case <-rctx.Done():
					}
					rcancel()
				}()
				_, _, _ = c.Read(rctx)
				rcancel()
				_ = c.CloseNow()
			}
		}()
		go func() {
			defer wg.Done()
			for {
				select {
				case <-stop:
					return
				default:
				}
				c, err := net.Dial("tcp", bridgeAddr)
				if err != nil {
					time.Sleep(20 * time.Millisecond)
					continue
				}
				done := make(chan struct{})
				go func() {
					select {
					case <-stop:
					case <-done:
					}
					_ = c.Close()
				}()
				_, _ = c.Read(make([]byte, 1))
				close(done)
			}
		}()
	}
	// The HTTP transport: idle sockets, held until the test ends.
	var socks []net.Conn
	defer func() {
		for _, c := range socks {
			c.Close()
		}
	}()
	for i := 0; i < idle; i++ {
		c, err := net.Dial("tcp", httpAddr)
		if err != nil {
			t.Fatalf("idle socket %d: %v", i, err)
		}
		socks = append(socks, c)
	}
	time.Sleep(500 * time.Millisecond)
	// The process holds the stranger's ends (idle + 128) and the host's:
	// the host's must stay within its limits (256 HTTP; on the bridge, the
	// stranger's 128, under its limit of 260).
	if grew := openFDs() - base; grew > idle+128+256+128+64 {
		t.Errorf("descriptors grew by %d for %d idle sockets: the host keeps them all", grew, idle)
	}

	// The editor, at its first try.
	dctx, dcancel := context.WithTimeout(ctx, 10*time.Second)
	a, err := fakeaddon.Dial(dctx, h.app.Bridge.URL(), fakeaddon.WithToken(token), fakeaddon.WithCommands(hosttest.EchoCommands()))
	dcancel()
	if err != nil {
		t.Fatalf("the editor could not connect during the flood: %v", err)
	}
	defer a.Close()
	a.Handle("cmd_echo_echo", func(_ context.Context, params json.RawMessage) (any, *contract.Error) {
		var in struct {
			Payload string `json:"payload"`
		}
		_ = json.Unmarshal(params, &in)
		return map[string]any{"payload": in.Payload}, nil
	})
	h.mustEcho(t, "during the flood")
	// A toolset restarts: a new plugin process needs pipes and a socket.
	if r := h.call(ctx, "godot_disable_toolset", map[string]any{"name": "echo"}); r.isError || r.rpcErr != nil {
		t.Fatalf("disable: %+v %s", r, r.raw)
	}
	if r := h.call(ctx, "godot_enable_toolset", map[string]any{"name": "echo"}); r.isError || r.rpcErr != nil {
		t.Fatalf("enable during the flood: %+v %s", r, r.raw)
	}
	h.mustEcho(t, "after a restart")
	// An HTTP client.
	req, _ := http.NewRequest(http.MethodPost, "http://"+httpAddr+"/mcp",
		strings.NewReader(`{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"t","version":"1"}}}`))
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "application/json, text/event-stream")
	resp, err := (&http.Client{Timeout: 10 * time.Second}).Do(req)
	if err != nil {
		t.Fatalf("an HTTP client during the flood: %v", err)
	}
	body, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	if resp.StatusCode != 200 || !strings.Contains(string(body), "godot-mcp") {
		t.Fatalf("HTTP initialize during the flood: %d %s", resp.StatusCode, body)
	}
	t.Logf("%s", fmt.Sprintf("descriptors: %d at start, %d during the flood of %d idle HTTP sockets + 128 bridge sockets", base, openFDs(), idle))
}
