package mcpserver

import (
	"bufio"
	"context"
	"fmt"
	"io"
	"log/slog"
	"net"
	"net/http"
	"runtime"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/godot-mcp/godot-mcp/host/config"
)

// httpHost serves s over streamable HTTP on a loopback port until cleanup.
func httpHost(t *testing.T, cfg config.Config, logs io.Writer) string {
	t.Helper()
	opts := Options{Config: cfg, Bridge: &stubBridge{}}
	if logs != nil {
		opts.Logger = newTestLogger(logs)
	}
	s := New(opts)
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- s.ServeHTTP(ctx, ln) }()
	t.Cleanup(func() {
		cancel()
		select {
		case <-done:
		case <-time.After(10 * time.Second):
			t.Error("ServeHTTP did not return")
		}
	})
	return ln.Addr().String()
}

const initBody = `{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"t","version":"1"}}}`

func post(t *testing.T, addr, session, body string) *http.Response {
	t.Helper()
	req, _ := http.NewRequest(http.MethodPost, "http://"+addr+"/mcp", strings.NewReader(body))
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "application/json, text/event-stream")
	if session != "" {
		req.Header.Set("Mcp-Session-Id", session)
		req.Header.Set("Mcp-Protocol-Version", "2025-11-25")
	}
	resp, err := (&http.Client{Timeout: 10 * time.Second}).Do(req)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { resp.Body.Close() })
	return resp
}

func initialize(t *testing.T, addr string) string {
	t.Helper()
	resp := post(t, addr, "", initBody)
	_, _ = io.Copy(io.Discard, resp.Body)
	id := resp.Header.Get("Mcp-Session-Id")
	if resp.StatusCode != 200 || id == "" {
		t.Fatalf("initialize: %d, session %q", resp.StatusCode, id)
	}
	return id
}

func do(t *testing.T, method, addr, session string) int {
	t.Helper()
	req, _ := http.NewRequest(method, "http://"+addr+"/mcp", nil)
	req.Header.Set("Accept", "text/event-stream")
	req.Header.Set("Mcp-Protocol-Version", "2025-11-25")
	if session != "" {
		req.Header.Set("Mcp-Session-Id", session)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	resp, err := http.DefaultClient.Do(req.WithContext(ctx))
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	return resp.StatusCode
}

// countingReader yields n bytes of a JSON string body without holding them.
type countingReader struct{ n, sent int64 }

func (r *countingReader) Read(p []byte) (int, error) {
	if r.sent >= r.n {
		return 0, io.EOF
	}
	if int64(len(p)) > r.n-r.sent {
		p = p[:r.n-r.sent]
	}
	for i := range p {
		p[i] = ' '
	}
	r.sent += int64(len(p))
	return len(p), nil
}

// TestHTTPBodyBounded (issue 14, M7): a body beyond MaxHTTPBody is answered
// 413 without being held: a 256 MiB POST allocates a fraction of its size.
func TestHTTPBodyBounded(t *testing.T) {
	addr := httpHost(t, testConfig(), nil)
	session := initialize(t, addr)
	runtime.GC()
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	const size = 256 << 20
	req, _ := http.NewRequest(http.MethodPost, "http://"+addr+"/mcp", io.MultiReader(strings.NewReader(`{"jsonrpc":"2.0","id":3,"method":"ping","params":{"pad":"`), &countingReader{n: size}, strings.NewReader(`"}}`)))
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "application/json, text/event-stream")
	req.Header.Set("Mcp-Session-Id", session)
	resp, err := (&http.Client{Timeout: 60 * time.Second}).Do(req)
	if err != nil {
		// The server may close while the client still writes.
		if !strings.Contains(err.Error(), "reset") && !strings.Contains(err.Error(), "broken pipe") {
			t.Fatal(err)
		}
	} else {
		body, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		if resp.StatusCode != http.StatusRequestEntityTooLarge || !strings.Contains(string(body), "MiB") {
			t.Fatalf("a %d MiB body: %d %s, want 413", size>>20, resp.StatusCode, body)
		}
	}
	runtime.ReadMemStats(&after)
	if grew := after.TotalAlloc - before.TotalAlloc; grew > 200<<20 {
		t.Errorf("a %d MiB body made the server allocate %d MiB", size>>20, grew>>20)
	}
	if r := post(t, addr, session, `{"jsonrpc":"2.0","id":4,"method":"ping"}`); r.StatusCode != 200 {
		t.Fatalf("ping after the big body: %d", r.StatusCode)
	}
}

// TestHTTPSlowBodyDropped (issue 14, M6): a body that trickles is cut off
// after httpBodyTimeout instead of holding its connection forever.
func TestHTTPSlowBodyDropped(t *testing.T) {
	t.Cleanup(setVar(&httpBodyTimeout, 300*time.Millisecond))
	addr := httpHost(t, testConfig(), nil)
	c, err := net.Dial("tcp", addr)
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	fmt.Fprintf(c, "POST /mcp HTTP/1.1\r\nHost: %s\r\nContent-Type: application/json\r\nContent-Length: 1000\r\n\r\n{", addr)
	_ = c.SetReadDeadline(time.Now().Add(5 * time.Second))
	start := time.Now()
	resp, err := http.ReadResponse(bufio.NewReader(c), nil)
	if err == nil {
		resp.Body.Close()
		if resp.StatusCode != http.StatusRequestTimeout {
			t.Fatalf("slow body: %d, want 408", resp.StatusCode)
		}
	} else if ne, ok := err.(net.Error); ok && ne.Timeout() {
		t.Fatal("a stalled body held its connection for 5 s")
	}
	if waited := time.Since(start); waited > 3*time.Second {
		t.Fatalf("cut after %s", waited)
	}
}

// TestHTTPIdleConnectionsBounded (issue 14, M6): thousands of idle sockets
// do not pile up: at most httpMaxConns stay open, idle keep-alive ones are
// closed after httpIdleTimeout, and a real client is still served.
func TestHTTPIdleConnectionsBounded(t *testing.T) {
	t.Cleanup(setVar(&httpMaxConns, 32))
	t.Cleanup(setVar(&httpIdleTimeout, 300*time.Millisecond))
	addr := httpHost(t, testConfig(), nil)
	var socks []net.Conn
	for i := 0; i < 300; i++ {
		c, err := net.Dial("tcp", addr)
		if err != nil {
			t.Fatal(err)
		}
		socks = append(socks, c)
	}
	defer func() {
		for _, c := range socks {
			c.Close()
		}
	}()
	session := initialize(t, addr)
	if r := post(t, addr, session, `{"jsonrpc":"2.0","id":2,"method":"tools/list"}`); r.StatusCode != 200 {
		t.Fatalf("tools/list with 300 idle sockets: %d", r.StatusCode)
	}
	open := 0
	for _, c := range socks {
		_ = c.SetReadDeadline(time.Now().Add(20 * time.Millisecond))
		if _, err := c.Read(make([]byte, 1)); err != nil {
			if ne, ok := err.(net.Error); ok && ne.Timeout() {
				open++
			}
		}
	}
	if open > 32 {
		t.Errorf("%d of 300 idle sockets still open, limit 32", open)
	}

	// A keep-alive connection idle between requests is closed.
	c, err := net.Dial("tcp", addr)
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	fmt.Fprintf(c, "POST /mcp HTTP/1.1\r\nHost: %s\r\nContent-Type: application/json\r\nAccept: application/json, text/event-stream\r\nContent-Length: %d\r\n\r\n%s", addr, len(initBody), initBody)
	br := bufio.NewReader(c)
	resp, err := http.ReadResponse(br, nil)
	if err != nil {
		t.Fatal(err)
	}
	_, _ = io.Copy(io.Discard, resp.Body)
	_ = c.SetReadDeadline(time.Now().Add(5 * time.Second))
	if _, err := br.ReadByte(); err == nil {
		t.Fatal("unexpected bytes")
	} else if ne, ok := err.(net.Error); ok && ne.Timeout() {
		t.Fatal("an idle keep-alive connection was held for 5 s")
	}
}

// TestHTTPStreamsCapped (issue 14, M6): standalone SSE streams are capped;
// one more is refused with 503 and Retry-After.
func TestHTTPStreamsCapped(t *testing.T) {
	t.Cleanup(setVar(&httpMaxStreams, 3))
	addr := httpHost(t, testConfig(), nil)
	var cancels []context.CancelFunc
	defer func() {
		for _, c := range cancels {
			c()
		}
	}()
	var wg sync.WaitGroup
	for i := 0; i < 3; i++ {
		session := initialize(t, addr)
		ctx, cancel := context.WithCancel(context.Background())
		cancels = append(cancels, cancel)
		req, _ := http.NewRequestWithContext(ctx, http.MethodGet, "http://"+addr+"/mcp", nil)
		req.Header.Set("Accept", "text/event-stream")
		req.Header.Set("Mcp-Session-Id", session)
		req.Header.Set("Mcp-Protocol-Version", "2025-11-25")
		resp, err := http.DefaultClient.Do(req)
		if err != nil || resp.StatusCode != 200 {
			t.Fatalf("stream %d: %v %v", i, err, resp)
		}
		wg.Add(1)
		go func() { defer wg.Done(); _, _ = io.Copy(io.Discard, resp.Body); resp.Body.Close() }()
	}
	session := initialize(t, addr)
	req, _ := http.NewRequest(http.MethodGet, "http://"+addr+"/mcp", nil)
	req.Header.Set("Accept", "text/event-stream")
	req.Header.Set("Mcp-Session-Id", session)
	req.Header.Set("Mcp-Protocol-Version", "2025-11-25")
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusServiceUnavailable || resp.Header.Get("Retry-After") == "" {
		t.Fatalf("a 4th stream: %d (Retry-After %q), want 503", resp.StatusCode, resp.Header.Get("Retry-After"))
	}
	for _, c := range cancels {
		c()
	}
	wg.Wait()
}

// TestHTTPRefusalsClosedAndLoggedShort (issue 14, M6 and L10): a refused
// request closes its connection, the stranger's values are logged cut
// short, and a burst of refusals is logged once.
func TestHTTPRefusalsClosedAndLoggedShort(t *testing.T) {
	logs := &syncBuffer{}
	cfg := testConfig()
	cfg.AuthToken = "s3cret"
	addr := httpHost(t, cfg, logs)
	c, err := net.Dial("tcp", addr)
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	origin := "http://" + strings.Repeat("o", 30000)
	req := fmt.Sprintf("POST /mcp HTTP/1.1\r\nHost: 127.0.0.1\r\nOrigin: %s\r\nContent-Type: application/json\r\nContent-Length: 2\r\n\r\n{}", origin)
	_, _ = io.WriteString(c, req+req)
	_ = c.SetReadDeadline(time.Now().Add(5 * time.Second))
	br := bufio.NewReader(c)
	resp, err := http.ReadResponse(br, nil)
	if err != nil {
		t.Fatal(err)
	}
	_, _ = io.Copy(io.Discard, resp.Body)
	if resp.StatusCode != http.StatusForbidden {
		t.Fatalf("foreign Origin: %d", resp.StatusCode)
	}
	if _, err := http.ReadResponse(br, nil); err == nil {
		t.Fatal("a refused connection served another request")
	}
	for i := 0; i < 50; i++ {
		req, _ := http.NewRequest(http.MethodPost, "http://"+addr+"/mcp", strings.NewReader("{}"))
		req.Header.Set("Authorization", "Bearer wrong-"+strings.Repeat("x", i))
		if resp, err := http.DefaultClient.Do(req); err == nil {
			resp.Body.Close()
			// The first maxAuthFailures are refused; then the address is
			// blocked (TestHTTPWrongTokensAreRateLimited).
			want := http.StatusUnauthorized
			if i >= maxAuthFailures {
				want = http.StatusTooManyRequests
			}
			if resp.StatusCode != want {
				t.Fatalf("wrong bearer %d: %d, want %d", i, resp.StatusCode, want)
			}
		}
	}
	out := logs.String()
	for _, line := range strings.Split(out, "\n") {
		if len(line) > 2048 {
			t.Errorf("a %d-byte log line: %.200s", len(line), line)
		}
	}
	if !strings.Contains(out, "refused") {
		t.Errorf("refusals are not logged:\n%s", out)
	}
	if n := strings.Count(out, "wrong bearer"); n < 1 || n > 3 {
		t.Errorf("%d log lines for 50 wrong bearer tokens", n)
	}
}

// TestHTTPWildcardBindsWhatWasAsked (issue 14, L10): 0.0.0.0 binds IPv4
// only, not the dual-stack [::].
func TestHTTPWildcardBindsWhatWasAsked(t *testing.T) {
	cfg := testConfig()
	cfg.HTTPHost, cfg.HTTPPort = "0.0.0.0", 0
	ln, err := ListenHTTP(context.Background(), cfg)
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	if a := ln.Addr().(*net.TCPAddr); a.IP.To4() == nil {
		t.Fatalf("0.0.0.0 bound %s", ln.Addr())
	}
}

func setVar[T any](p *T, v T) func() {
	old := *p
	*p = v
	return func() { *p = old }
}

type syncBuffer struct {
	mu  sync.Mutex
	buf strings.Builder
}

func (b *syncBuffer) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.Write(p)
}

func (b *syncBuffer) String() string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.String()
}

func newTestLogger(w io.Writer) *slog.Logger {
	return slog.New(slog.NewTextHandler(w, &slog.HandlerOptions{Level: slog.LevelDebug}))
}
