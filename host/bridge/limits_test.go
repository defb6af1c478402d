package bridge_test

import (
	"bufio"
	"context"
	"encoding/json"
	"io"
	"net"
	"net/http"
	"runtime"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/coder/websocket"

	"github.com/godot-mcp/godot-mcp/host/bridge"
	"github.com/godot-mcp/godot-mcp/sdk/contract"
	"github.com/godot-mcp/godot-mcp/sdk/sdktest/fakeaddon"
)

// stranger opens a WebSocket to the bridge and never says hello.
func stranger(ctx context.Context, url string) (*websocket.Conn, error) {
	c, resp, err := websocket.Dial(ctx, url, nil)
	if resp != nil && resp.Body != nil {
		resp.Body.Close()
	}
	return c, err
}

// flood runs a stranger without the token against the bridge at addr:
// ws silent WebSockets and tcp silent TCP sockets, each reopened as soon
// as the bridge drops it, until the returned stop is called.
func flood(ctx context.Context, url string, ws, tcp int) (stop func()) {
	addr := strings.TrimPrefix(url, "ws://")
	var wg sync.WaitGroup
	done := make(chan struct{})
	loop := func(once func()) {
		defer wg.Done()
		for {
			select {
			case <-done:
				return
			default:
			}
			once()
		}
	}
	for i := 0; i < ws; i++ {
		wg.Add(1)
		go loop(func() {
			c, err := stranger(ctx, url)
			if err != nil {
				time.Sleep(10 * time.Millisecond)
				return
			}
			rctx, rcancel := context.WithCancel(ctx)
			go func() {
				select {
				case <-done:
				case <-rctx.Done():
				}
				rcancel()
			}()
			_, _, _ = c.Read(rctx) // returns when the bridge drops it
			rcancel()
			_ = c.CloseNow()
		})
	}
	for i := 0; i < tcp; i++ {
		wg.Add(1)
		go loop(func() {
			c, err := net.Dial("tcp", addr)
			if err != nil {
				time.Sleep(10 * time.Millisecond)
				return
			}
			finished := make(chan struct{})
			go func() {
				select {
				case <-done:
				case <-finished:
				}
				_ = c.Close()
			}()
			_, _ = c.Read(make([]byte, 1))
			close(finished)
		})
	}
	return func() { close(done); wg.Wait() }
}

// editorTries dials n times with the token and counts the accepted ones.
func editorTries(ctx context.Context, t *testing.T, b *bridge.Bridge, token string, n int) int {
	ok := 0
	for i := 0; i < n; i++ {
		dctx, dcancel := context.WithTimeout(ctx, 5*time.Second)
		a, err := fakeaddon.Dial(dctx, b.URL(), fakeaddon.WithToken(token))
		dcancel()
		if err != nil {
			t.Logf("editor try %d: %v", i+1, err)
			continue
		}
		if err := b.Ping(ctx); err == nil {
			ok++
		}
		_ = a.Close()
	}
	return ok
}

// TestStrangersCannotLockOutTheEditor (issue 14, M5): a local process
// without the token holds 128 pre-hello connections (the finding's 64 slots
// twice over: silent WebSockets and silent TCP sockets) and keeps reopening
// them; the editor connects at its first try, every time.
func TestStrangersCannotLockOutTheEditor(t *testing.T) {
	const token = "s3cret"
	b := start(t, func(o *bridge.Options) { o.Token = token; o.HelloTimeout = 3 * time.Second })
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	stop := flood(ctx, b.URL(), 64, 64)
	defer stop()
	time.Sleep(300 * time.Millisecond) // let the stranger fill the slots
	if ok := editorTries(ctx, t, b, token, 10); ok != 10 {
		t.Fatalf("the editor connected %d of 10 tries", ok)
	}
}

// TestStrangersChurningThePool (issue 14, M5): a stranger with twice as many
// sockets as there are slots, each reopened at once when evicted, so the
// pool turns over constantly; the oldest-first eviction still lets the
// editor in on most tries (it needs its connection to live only until its
// hello, a few milliseconds).
func TestStrangersChurningThePool(t *testing.T) {
	defer bridge.SetMaxConns(36)()
	const token = "s3cret"
	b := start(t, func(o *bridge.Options) { o.Token = token; o.HelloTimeout = 3 * time.Second })
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	stop := flood(ctx, b.URL(), 36, 36)
	defer stop()
	time.Sleep(300 * time.Millisecond)
	ok := editorTries(ctx, t, b, token, 20)
	t.Logf("the editor connected %d of 20 tries with 72 churning sockets on 36 slots", ok)
	if ok < 5 { // 14 of 20 measured under -race on 2 busy cores
		t.Fatalf("the editor connected %d of 20 tries", ok)
	}
}

// TestPreHelloFrameCapped (issue 14, M5): a connection that has not said
// hello cannot make the bridge buffer a big frame: anything beyond
// bridge.HelloReadLimit closes it with 1009 before it is read, and 32 such
// connections leave the heap about where it was.
func TestPreHelloFrameCapped(t *testing.T) {
	b := start(t)
	ctx := testCtx(t)
	c, err := stranger(ctx, b.URL())
	if err != nil {
		t.Fatal(err)
	}
	defer c.CloseNow()
	big := []byte(`{"id":"1","command":"cmd_editor_hello","params":{"project_dir":"` + strings.Repeat("a", 1<<20) + `"}}`)
	_ = c.Write(ctx, websocket.MessageText, big)
	_, _, err = c.Read(ctx)
	if got := websocket.CloseStatus(err); got != websocket.StatusMessageTooBig {
		t.Fatalf("a 1 MiB pre-hello frame: close status %v (%v), want 1009", got, err)
	}

	// Memory: 32 strangers each start an 8 MiB frame.
	runtime.GC()
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	huge := make([]byte, 8<<20)
	for i := range huge {
		huge[i] = 'a'
	}
	var wg sync.WaitGroup
	for i := 0; i < 32; i++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			c, err := stranger(ctx, b.URL())
			if err != nil {
				return
			}
			defer c.CloseNow()
			w, err := c.Writer(ctx, websocket.MessageText)
			if err != nil {
				return
			}
			_, _ = w.Write(huge)
		}()
	}
	wg.Wait()
	runtime.ReadMemStats(&after)
	if grew := int64(after.HeapAlloc) - int64(before.HeapAlloc); grew > 64<<20 {
		t.Errorf("heap grew by %d MiB for 32 stalled pre-hello frames", grew>>20)
	}
}

// A frame the size of a real hello with a long project path still works,
// and after the hello the full frame limit applies again.
func TestHelloLimitThenFullLimit(t *testing.T) {
	b := start(t)
	ctx := testCtx(t)
	h := fakeaddon.DefaultHello()
	h.ProjectDir = "/" + strings.Repeat("p", 4000)
	a := connect(t, b, fakeaddon.WithHello(h))
	a.Handle("cmd_big", func(context.Context, json.RawMessage) (any, *contract.Error) {
		return map[string]string{"blob": strings.Repeat("x", 4<<20)}, nil
	})
	r := b.Send(ctx, "cmd_big", nil, 20*time.Second)
	if !r.OK || len(r.Result) < 4<<20 {
		t.Fatalf("a 4 MiB answer after hello: ok=%v err=%v len=%d", r.OK, r.Error, len(r.Result))
	}
}

// TestNoKeepAliveAfterRefusal (issue 14, M6): a refused handshake closes the
// TCP connection; it cannot be kept for more requests.
func TestNoKeepAliveAfterRefusal(t *testing.T) {
	b := start(t)
	c, err := net.Dial("tcp", strings.TrimPrefix(b.URL(), "ws://"))
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	_ = c.SetDeadline(time.Now().Add(5 * time.Second))
	req := "GET / HTTP/1.1\r\nHost: 127.0.0.1\r\nOrigin: http://evil.example\r\n\r\n"
	if _, err := io.WriteString(c, req+req); err != nil {
		t.Fatal(err)
	}
	br := bufio.NewReader(c)
	resp, err := http.ReadResponse(br, nil)
	if err != nil {
		t.Fatal(err)
	}
	_, _ = io.Copy(io.Discard, resp.Body)
	if resp.StatusCode != http.StatusForbidden {
		t.Fatalf("status %d, want 403", resp.StatusCode)
	}
	if _, err := http.ReadResponse(br, nil); err == nil {
		t.Fatal("the connection served a second request after a refusal")
	} else if ne, ok := err.(net.Error); ok && ne.Timeout() {
		t.Fatal("the connection stayed open after a refusal")
	}
}

// TestStrangerValuesTruncatedInLogs (issue 14, L10): an Origin header or a
// hello field from a stranger is logged cut short, and a refusal repeated
// many times is logged a few times, not once each.
func TestStrangerValuesTruncatedInLogs(t *testing.T) {
	logs := &logBuffer{}
	b := start(t, func(o *bridge.Options) { o.Token = "s3cret"; o.Logger = logs.logger() })
	ctx := testCtx(t)
	_, _ = fakeaddon.Dial(ctx, b.URL(), fakeaddon.WithHeader("Origin", "http://"+strings.Repeat("o", 12000)))
	h := fakeaddon.DefaultHello()
	h.ProjectDir = "/" + strings.Repeat("d", 30000)
	h.Token = "s3cret"
	a, err := fakeaddon.Dial(ctx, b.URL(), fakeaddon.WithHello(h))
	if err != nil {
		t.Fatal(err)
	}
	_ = a.Close()
	for i := 0; i < 50; i++ {
		_, _ = fakeaddon.Dial(ctx, b.URL(), fakeaddon.WithToken("wrong"))
	}
	for _, line := range strings.Split(logs.String(), "\n") {
		if len(line) > 2048 {
			t.Errorf("a %d-byte log line: %.200s...", len(line), line)
		}
	}
	if n := strings.Count(logs.String(), "refused an editor handshake"); n > 3 {
		t.Errorf("%d log lines for 50 wrong tokens in a burst", n)
	}
	if !strings.Contains(logs.String(), "editor connected") {
		t.Error("the editor's connection was not logged")
	}
}
