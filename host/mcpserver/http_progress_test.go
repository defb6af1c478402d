package mcpserver

import (
	"context"
	"fmt"
	"net/http/httptest"
	"runtime"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/mark3labs/mcp-go/client"
	"github.com/mark3labs/mcp-go/client/transport"
	"github.com/mark3labs/mcp-go/mcp"
)

// A progress notification sent right before a tool returns reaches an HTTP
// client, every time, before the answer (on both protocol eras: a
// 2025-06-18 session's answer waits for it through the session's ledger). mcp-go's per-request forwarder
// drops a notification it has taken off the queue but not yet written when
// the answer is written first; on a loaded machine that lost the last
// progress of the conformance suite's test_tool_with_progress. The busy
// goroutines make the forwarder wait for a CPU, as load does.
func TestHTTPProgressSentLastIsNotLost(t *testing.T) {
	// The 2025-06-18 revision keeps a session (one queue for all its
	// requests), the newest one a queue per request: both lose it.
	for _, version := range []string{"2025-06-18", mcp.LATEST_PROTOCOL_VERSION} {
		t.Run(version, func(t *testing.T) { progressNotLost(t, version) })
	}
}

// progressClient is an HTTP client of the echo server, initialized on
// protocol version, that counts the progress notifications it receives.
func progressClient(t *testing.T, version string) (context.Context, *client.Client, *atomic.Int64) {
	t.Helper()
	s := newEchoServer(t)
	srv := httptest.NewServer(s.GuardedHTTPHandler(HTTPGuard{}))
	t.Cleanup(srv.Close)
	tr, err := transport.NewStreamableHTTP(srv.URL + "/mcp")
	if err != nil {
		t.Fatal(err)
	}
	c := client.NewClient(tr)
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	t.Cleanup(cancel)
	if err := c.Start(ctx); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { c.Close() })
	got := new(atomic.Int64)
	c.OnNotification(func(n mcp.JSONRPCNotification) {
		if n.Method == "notifications/progress" {
			got.Add(1)
		}
	})
	init := mcp.InitializeRequest{}
	init.Params.ProtocolVersion = version
	init.Params.ClientInfo = mcp.Implementation{Name: "t", Version: "1"}
	if _, err := c.Initialize(ctx, init); err != nil {
		t.Fatal(err)
	}
	return ctx, c, got
}

func progressNotLost(t *testing.T, version string) {
	ctx, c, got := progressClient(t, version)
	var stop atomic.Bool
	defer stop.Store(true)
	for range runtime.NumCPU() {
		go func() {
			for !stop.Load() { // busy, on purpose
			}
		}()
	}
	const calls = 100
	for i := range calls {
		req := mcp.CallToolRequest{}
		req.Params.Name = "godot_t_echo"
		req.Params.Arguments = map[string]any{"text": "x"}
		req.Params.Meta = &mcp.Meta{ProgressToken: fmt.Sprint("tok-", i)}
		if _, err := c.CallTool(ctx, req); err != nil {
			t.Fatalf("call %d: %v", i, err)
		}
		// Before its answer: a client that reads the call's stream up to
		// the answer (the conformance suite) sees nothing later.
		if n := got.Load(); n != int64(i+1) {
			t.Fatalf("call %d answered with %d of its %d progress notifications received", i, n, i+1)
		}
	}
}

// Concurrent calls with progress in one 2025-06-18 session share its
// ledger: none of them waits out deliveryWait for a notification another
// request's stream took (each answer comes well before that bound), and
// every call's progress reaches the client.
func TestHTTPSessionConcurrentProgressNeverStalls(t *testing.T) {
	ctx, c, got := progressClient(t, "2025-06-18")
	const workers, each = 8, 10
	errs := make(chan error, workers*each)
	var wg sync.WaitGroup
	for w := range workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range each {
				req := mcp.CallToolRequest{}
				req.Params.Name = "godot_t_echo"
				req.Params.Arguments = map[string]any{"text": "x"}
				req.Params.Meta = &mcp.Meta{ProgressToken: fmt.Sprint("tok-", w, "-", i)}
				start := time.Now()
				if _, err := c.CallTool(ctx, req); err != nil {
					errs <- err
					return
				}
				if d := time.Since(start); d >= deliveryWait {
					errs <- fmt.Errorf("a call took %v: it waited for a notification that was never written", d)
				}
			}
		}()
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Error(err)
	}
	deadline := time.Now().Add(5 * time.Second)
	for got.Load() < workers*each && time.Now().Before(deadline) {
		time.Sleep(10 * time.Millisecond)
	}
	if n := got.Load(); n != workers*each {
		t.Errorf("%d of %d calls' progress notifications reached the client", n, workers*each)
	}
}
