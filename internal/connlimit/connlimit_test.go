package connlimit_test

import (
	"io"
	"net"
	"net/http"
	"sync/atomic"
	"testing"
	"time"

	"github.com/godot-mcp/godot-mcp/internal/connlimit"
)

// serve runs an http.Server on loopback behind a Limiter of max connections.
func serve(t *testing.T, max int, h http.Handler) (*connlimit.Limiter, string, *atomic.Int64) {
	t.Helper()
	var drops atomic.Int64
	l := connlimit.New(max, func(net.Addr, connlimit.Reason) { drops.Add(1) })
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	srv := &http.Server{Handler: h, ReadHeaderTimeout: 20 * time.Second}
	l.Install(srv)
	go func() { _ = srv.Serve(l.Listener(ln)) }()
	t.Cleanup(func() { _ = srv.Close() })
	return l, ln.Addr().String(), &drops
}

func dialIdle(t *testing.T, addr string, n int) []net.Conn {
	t.Helper()
	var cs []net.Conn
	for i := 0; i < n; i++ {
		c, err := net.Dial("tcp", addr)
		if err != nil {
			t.Fatal(err)
		}
		cs = append(cs, c)
		t.Cleanup(func() { _ = c.Close() })
	}
	return cs
}

func get(addr string) (int, error) {
	c := &http.Client{Timeout: 3 * time.Second, Transport: &http.Transport{DisableKeepAlives: true}}
	resp, err := c.Get("http://" + addr + "/")
	if err != nil {
		return 0, err
	}
	_, _ = io.Copy(io.Discard, resp.Body)
	resp.Body.Close()
	return resp.StatusCode, nil
}

func eventually(t *testing.T, what string, cond func() bool) {
	t.Helper()
	deadline := time.Now().Add(5 * time.Second)
	for !cond() {
		if time.Now().After(deadline) {
			t.Fatalf("timed out waiting for %s", what)
		}
		time.Sleep(5 * time.Millisecond)
	}
}

// Silent sockets filling every slot do not keep a real request out: it
// evicts the oldest of them.
func TestSilentConnectionsAreEvicted(t *testing.T) {
	l, addr, drops := serve(t, 8, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {}))
	idle := dialIdle(t, addr, 8)
	eventually(t, "8 tracked connections", func() bool { return l.Len() == 8 })
	for i := 0; i < 20; i++ {
		code, err := get(addr)
		if err != nil || code != 200 {
			t.Fatalf("request %d with every slot held by silent sockets: %d, %v", i, code, err)
		}
	}
	if l.Len() > l.Max() {
		t.Fatalf("%d connections open, limit %d", l.Len(), l.Max())
	}
	if drops.Load() == 0 {
		t.Fatal("no connection was evicted")
	}
	// The oldest silent socket is the one that was closed first.
	_ = idle[0].SetReadDeadline(time.Now().Add(3 * time.Second))
	if _, err := idle[0].Read(make([]byte, 1)); err == nil {
		t.Fatal("the oldest silent socket is still open")
	}
}

// Busy connections are never evicted; a newcomer is refused instead, and
// the limit is never exceeded.
func TestBusyConnectionsAreKept(t *testing.T) {
	release := make(chan struct{})
	var served atomic.Int64
	l, addr, _ := serve(t, 4, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		served.Add(1)
		<-release
	}))
	results := make(chan error, 4)
	for i := 0; i < 4; i++ {
		go func() {
			_, err := get(addr)
			results <- err
		}()
	}
	eventually(t, "4 requests in their handlers", func() bool { return served.Load() == 4 })
	if _, err := get(addr); err == nil {
		t.Fatal("a fifth connection was served while 4 requests held every slot")
	}
	close(release)
	for i := 0; i < 4; i++ {
		if err := <-results; err != nil {
			t.Fatalf("a busy request was cut: %v", err)
		}
	}
	eventually(t, "slots freed", func() bool { return l.Len() == 0 })
	if code, err := get(addr); err != nil || code != 200 {
		t.Fatalf("after the busy requests ended: %d, %v", code, err)
	}
}

// A hijacked connection is evictable until settled.
func TestSettledHijackIsKept(t *testing.T) {
	hijacked := make(chan net.Conn, 8)
	l, addr, _ := serve(t, 2, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path == "/settle" {
			connlimit.Settle(r.Context())
		}
		c, _, err := http.NewResponseController(w).Hijack()
		if err == nil {
			hijacked <- c
		}
	}))
	raw := func(path string) net.Conn {
		c, err := net.Dial("tcp", addr)
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { _ = c.Close() })
		_, _ = io.WriteString(c, "GET "+path+" HTTP/1.1\r\nHost: x\r\n\r\n")
		return c
	}
	settled := raw("/settle")
	<-hijacked
	raw("/plain")
	<-hijacked
	// Full: a third connection evicts the unsettled hijack, not the settled one.
	raw("/plain")
	<-hijacked
	_ = settled.SetReadDeadline(time.Now().Add(200 * time.Millisecond))
	if _, err := settled.Read(make([]byte, 1)); err == nil || !isTimeout(err) {
		t.Fatalf("the settled connection was closed: %v", err)
	}
	if l.Len() != 2 {
		t.Fatalf("%d tracked, want 2", l.Len())
	}
}

func isTimeout(err error) bool {
	ne, ok := err.(net.Error)
	return ok && ne.Timeout()
}

func TestBudget(t *testing.T) {
	lim := connlimit.FileLimit()
	if lim == 0 {
		t.Skip("no RLIMIT_NOFILE here")
	}
	n := connlimit.Budget(1<<30, 512, 16)
	if int64(n) > (int64(lim)-512)/3 && n != 16 {
		t.Fatalf("budget %d leaves no reserve under limit %d", n, lim)
	}
	if got := connlimit.Budget(10, 512, 4); got > 10 {
		t.Fatalf("budget %d above want", got)
	}
}
