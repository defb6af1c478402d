package attach

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"
)

func runDir(t *testing.T) string {
	t.Helper()
	d := t.TempDir()
	t.Setenv("XDG_RUNTIME_DIR", d)
	return filepath.Join(d, "godot-mcp")
}

func echoMCP(token string, probe http.Handler) http.Handler {
	mux := http.NewServeMux()
	mux.Handle("/attach", probe)
	mux.Handle("/", http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if !validBearer(r.Header.Get("Authorization"), token) {
			http.Error(w, "unauthorized", http.StatusUnauthorized)
			return
		}
		w.WriteHeader(http.StatusAccepted)
	}))
	return mux
}

func TestPublishWritesAUserOnlyFileAndFindChecksTheOwner(t *testing.T) {
	dir := runDir(t)
	const bridge = "ws://127.0.0.1:39123"
	if _, err := Find(context.Background(), bridge); !errors.Is(err, ErrNoFile) {
		t.Fatalf("before publishing: %v, want ErrNoFile", err)
	}
	pub, err := Publish(bridge, "test", "auto", echoMCP, nil)
	if err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(dir, "bridge-39123.json")
	st, err := os.Stat(path)
	if err != nil || st.Mode().Perm() != 0o600 {
		t.Fatalf("attach file: %v %v", st, err)
	}
	info, err := Find(context.Background(), "ws://localhost:39123")
	if err != nil || info.PID != os.Getpid() || info.Token == "" || info.Socket != filepath.Join(dir, "bridge-39123.sock") {
		t.Fatalf("Find: %+v %v", info, err)
	}
	if st, err := os.Lstat(info.Socket); err != nil || st.Mode().Type() != os.ModeSocket || st.Mode().Perm() != 0o600 {
		t.Fatalf("socket: %v %v", st, err)
	}

	// The endpoint wants the token.
	for _, auth := range []string{"", "Bearer wrong"} {
		req, _ := http.NewRequest(http.MethodGet, strings.TrimSuffix(info.URL, "/mcp")+"/attach", nil)
		if auth != "" {
			req.Header.Set("Authorization", auth)
		}
		resp, err := HTTPClient(info).Do(req)
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		if resp.StatusCode != http.StatusUnauthorized {
			t.Fatalf("probe with %q: HTTP %d", auth, resp.StatusCode)
		}
	}

	// Closing withdraws the file; a stale one (an owner killed) is told apart.
	data, _ := os.ReadFile(path)
	pub.Close()
	if _, err := os.Stat(path); !errors.Is(err, os.ErrNotExist) {
		t.Fatalf("file left after Close: %v", err)
	}
	os.WriteFile(path, data, 0o600)
	if _, err := Find(context.Background(), bridge); err == nil || errors.Is(err, ErrNoFile) || !strings.Contains(err.Error(), "does not answer") {
		t.Fatalf("stale file: %v", err)
	}
}

func TestFindRefusesAFileOthersCanRead(t *testing.T) {
	dir := runDir(t)
	os.MkdirAll(dir, 0o700)
	path := filepath.Join(dir, "bridge-39124.json")
	os.WriteFile(path, []byte(`{"url":"http://localhost/mcp","socket":"x","token":"t","pid":1}`), 0o644)
	os.Chmod(path, 0o644)
	if _, err := Find(context.Background(), "ws://127.0.0.1:39124"); err == nil || !strings.Contains(err.Error(), "other users") {
		t.Fatalf("world-readable file: %v", err)
	}
	// An attach file of a godot-mcp before #24.2 names a TCP endpoint,
	// which another user could take once its owner died.
	os.Chmod(path, 0o600)
	os.WriteFile(path, []byte(`{"url":"http://127.0.0.1:1/mcp","token":"t","pid":1}`), 0o600)
	if _, err := Find(context.Background(), "ws://127.0.0.1:39124"); err == nil || !strings.Contains(err.Error(), "names no socket") {
		t.Fatalf("TCP endpoint: %v", err)
	}
	// The socket is the one next to the file, whatever the file says.
	os.WriteFile(path, []byte(`{"url":"http://localhost/mcp","socket":"/tmp/elsewhere.sock","token":"t","pid":1}`), 0o600)
	if _, err := Find(context.Background(), "ws://127.0.0.1:39124"); err == nil || !strings.Contains(err.Error(), filepath.Join(dir, "bridge-39124.sock")) {
		t.Fatalf("a socket elsewhere: %v", err)
	}
	// A link is not an attach file.
	os.Remove(path)
	os.Symlink(filepath.Join(t.TempDir(), "x.json"), path)
	if _, err := Find(context.Background(), "ws://127.0.0.1:39124"); err == nil || !strings.Contains(err.Error(), "not a regular file") {
		t.Fatalf("a link: %v", err)
	}
}

// #24.2: an attach directory other users may write to, or that another
// user created, is refused by the owner and by an attaching server (whoever
// writes there can pose as the owner); one others may only read is made
// 0700.
func TestAttachDirectoryMustBeTheUsers(t *testing.T) {
	dir := runDir(t)
	const bridge = "ws://127.0.0.1:39125"
	os.MkdirAll(dir, 0o700)
	os.Chmod(dir, 0o777)
	if _, err := Publish(bridge, "test", "auto", echoMCP, nil); err == nil || !strings.Contains(err.Error(), "may be written by other users") {
		t.Fatalf("Publish in a 0777 directory: %v", err)
	}
	if _, err := Find(context.Background(), bridge); err == nil || errors.Is(err, ErrNoFile) || !strings.Contains(err.Error(), "may be written by other users") {
		t.Fatalf("Find in a 0777 directory: %v", err)
	}
	os.Chmod(dir, 0o755)
	pub, err := Publish(bridge, "test", "auto", echoMCP, nil)
	if err != nil {
		t.Fatalf("Publish in a 0755 directory: %v", err)
	}
	pub.Close()
	if st, _ := os.Stat(dir); st.Mode().Perm() != 0o700 {
		t.Fatalf("the directory was left %v", st.Mode().Perm())
	}
	if os.Geteuid() != 0 {
		t.Log("not root: a directory of another user is tested only as root (chown)")
		return
	}
	if err := os.Chown(dir, 65534, 65534); err != nil {
		t.Fatal(err)
	}
	if _, err := Publish(bridge, "test", "auto", echoMCP, nil); err == nil || !strings.Contains(err.Error(), "belongs to another user (uid 65534") {
		t.Fatalf("Publish in another user's directory: %v", err)
	}
	if _, err := Find(context.Background(), bridge); err == nil || !strings.Contains(err.Error(), "belongs to another user") {
		t.Fatalf("Find in another user's directory: %v", err)
	}
}

func TestBridgePort(t *testing.T) {
	for url, want := range map[string]string{"ws://127.0.0.1:9080": "9080", "ws://127.0.0.1:0": "", "ws://127.0.0.1": "", "::bad": ""} {
		if got := BridgePort(url); got != want {
			t.Errorf("BridgePort(%q) = %q, want %q", url, got, want)
		}
	}
}

func TestReadEvents(t *testing.T) {
	stream := "event: message\nid: 1\ndata: {\"a\":1}\n\n: comment\ndata: {\"b\":\ndata: 2}\r\n\r\ndata: {\"c\":3}"
	var got []string
	if err := readEvents(strings.NewReader(stream), func(m []byte) { got = append(got, string(m)) }); err != nil {
		t.Fatal(err)
	}
	want := []string{`{"a":1}`, "{\"b\":\n2}", `{"c":3}`}
	if strings.Join(got, "|") != strings.Join(want, "|") {
		t.Fatalf("events %q, want %q", got, want)
	}
}

// fakeOwner is a streamable HTTP endpoint in miniature: initialize opens
// a session, tools/call answers (as an event stream), and the first call
// after expire is refused 404 (the session ended).
type fakeOwner struct {
	mu       sync.Mutex
	sessions int
	expire   bool
	inits    int
	block    chan struct{} // tools/call waits for it when set
	started  chan struct{}
	// impostor: another process answers the probe (it is not pid 42);
	// cut: tools/call's connection is closed without an answer.
	impostor, cut bool
}

func (f *fakeOwner) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	if r.URL.Path == "/attach" {
		pid := 42
		if f.impostor {
			pid = 7
		}
		json.NewEncoder(w).Encode(map[string]any{"pid": pid})
		return
	}
	if f.cut && r.Method == http.MethodPost {
		body, _ := io.ReadAll(r.Body)
		if bytes.Contains(body, []byte(`"tools/call"`)) {
			conn, _, _ := w.(http.Hijacker).Hijack()
			conn.Close()
			return
		}
		r.Body = io.NopCloser(bytes.NewReader(body))
	}
	if r.Method == http.MethodGet {
		w.Header().Set("Content-Type", "text/event-stream")
		w.WriteHeader(http.StatusOK)
		w.(http.Flusher).Flush()
		<-r.Context().Done()
		return
	}
	if r.Method != http.MethodPost {
		return
	}
	body, _ := io.ReadAll(r.Body)
	var m struct {
		ID     json.RawMessage `json:"id"`
		Method string          `json:"method"`
	}
	json.Unmarshal(body, &m)
	f.mu.Lock()
	switch {
	case m.Method == "initialize":
		f.sessions++
		f.inits++
		w.Header().Set("Mcp-Session-Id", "s"+string(rune('0'+f.sessions)))
		f.mu.Unlock()
		w.Header().Set("Content-Type", "application/json")
		w.Write([]byte(`{"jsonrpc":"2.0","id":` + string(m.ID) + `,"result":{"protocolVersion":"2025-11-25"}}` + "\n"))
		return
	case r.Header.Get("Mcp-Session-Id") != "s"+string(rune('0'+f.sessions)):
		f.mu.Unlock()
		http.Error(w, "no such session", http.StatusNotFound)
		return
	case f.expire:
		f.expire = false
		f.sessions++ // the current session ends
		f.mu.Unlock()
		http.Error(w, "Session terminated", http.StatusNotFound)
		return
	}
	block, started := f.block, f.started
	f.mu.Unlock()
	if m.ID == nil {
		w.WriteHeader(http.StatusAccepted)
		return
	}
	if block != nil {
		close(started)
		<-block
	}
	w.Header().Set("Content-Type", "text/event-stream")
	w.Write([]byte("event: message\ndata: {\"jsonrpc\":\"2.0\",\"method\":\"notifications/progress\"}\n\n"))
	w.Write([]byte("event: message\ndata: {\"jsonrpc\":\"2.0\",\"id\":" + string(m.ID) + ",\"result\":{\"ok\":true}}\n\n"))
}

type lockedBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (l *lockedBuffer) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.Write(p)
}

func (l *lockedBuffer) lines() []string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return strings.Split(strings.TrimSpace(l.b.String()), "\n")
}

func waitLines(t *testing.T, out *lockedBuffer, n int) []string {
	t.Helper()
	deadline := time.Now().Add(5 * time.Second)
	for time.Now().Before(deadline) {
		if l := out.lines(); len(l) >= n && l[0] != "" {
			return l
		}
		time.Sleep(5 * time.Millisecond)
	}
	t.Fatalf("want %d lines, got %q", n, out.lines())
	return nil
}

const initLine = `{"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"t","version":"1"}}}` + "\n"

func TestProxyReopensAnEndedSessionWithoutTheClientNoticing(t *testing.T) {
	owner := &fakeOwner{}
	srv := httptest.NewServer(owner)
	defer srv.Close()
	in, inw := io.Pipe()
	out := &lockedBuffer{}
	p := &Proxy{Info: Info{URL: srv.URL + "/mcp", Token: "t", PID: 42}, Lines: NewLines(in), Out: out}
	done := make(chan error, 1)
	go func() { done <- p.Run(context.Background()) }()

	inw.Write([]byte(initLine + `{"jsonrpc":"2.0","method":"notifications/initialized"}` + "\n"))
	waitLines(t, out, 1)
	owner.mu.Lock()
	owner.expire = true
	owner.mu.Unlock()
	inw.Write([]byte(`{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"x"}}` + "\n"))
	lines := waitLines(t, out, 3)
	if len(lines) != 3 || !strings.Contains(lines[0], `"id":0`) || !strings.Contains(lines[1], "progress") || !strings.Contains(lines[2], `"id":1,"result"`) {
		t.Fatalf("client saw %q", lines)
	}
	owner.mu.Lock()
	inits := owner.inits
	owner.mu.Unlock()
	if inits != 2 {
		t.Fatalf("the owner saw %d initialize requests, want 2 (one replayed)", inits)
	}
	inw.Close()
	if err := <-done; err != nil {
		t.Fatalf("Run after the input ended: %v", err)
	}
}

func TestProxyOwnerGoneAnswersTheCallInFlightAndKeepsTheRest(t *testing.T) {
	owner := &fakeOwner{block: make(chan struct{}), started: make(chan struct{})}
	srv := httptest.NewServer(owner)
	in, inw := io.Pipe()
	out := &lockedBuffer{}
	lines := NewLines(in)
	p := &Proxy{Info: Info{URL: srv.URL + "/mcp", Token: "t", PID: 42, BridgeURL: "ws://127.0.0.1:1"}, Lines: lines, Out: out}
	done := make(chan error, 1)
	go func() { done <- p.Run(context.Background()) }()
	inw.Write([]byte(initLine + `{"jsonrpc":"2.0","method":"notifications/initialized"}` + "\n"))
	waitLines(t, out, 1)
	go inw.Write([]byte(`{"jsonrpc":"2.0","id":"call-1","method":"tools/call","params":{"name":"x"}}` + "\n"))
	<-owner.started
	srv.Listener.Close() // gone: its probe is refused from now on
	srv.CloseClientConnections()
	close(owner.block)
	srv.Close()

	var err error
	select {
	case err = <-done:
	case <-time.After(10 * time.Second):
		t.Fatal("Run did not notice the owner left")
	}
	var gone *OwnerGoneError
	if !errors.As(err, &gone) || gone.Owner.PID != 42 || !gone.Initialized || !bytes.Contains(gone.Init, []byte(`"initialize"`)) {
		t.Fatalf("Run: %v", err)
	}
	got := out.lines()
	var last struct {
		ID    string `json:"id"`
		Error struct {
			Code    int    `json:"code"`
			Message string `json:"message"`
		} `json:"error"`
	}
	json.Unmarshal([]byte(got[len(got)-1]), &last)
	if last.ID != "call-1" || last.Error.Code != OwnerGoneCode || !strings.Contains(last.Error.Message, "pid 42") {
		t.Fatalf("the call in flight got %q", got)
	}
	// A message sent after the owner left is the next server's.
	go inw.Write([]byte(`{"jsonrpc":"2.0","id":2,"method":"ping"}` + "\n"))
	select {
	case l := <-lines.C():
		if !bytes.Contains(l, []byte(`"ping"`)) {
			t.Fatalf("next message %q", l)
		}
	case <-time.After(5 * time.Second):
		t.Fatal("the rest of the input was lost")
	}
}

// #24.3: when the owner is taken for gone while its event stream stays open
// (another process answers on its endpoint), Run still returns, and the
// call in flight is answered; it used to wait for the stream forever.
func TestProxyGoneWhileTheStreamStaysOpenReturns(t *testing.T) {
	owner := &fakeOwner{impostor: true, cut: true}
	srv := httptest.NewServer(owner)
	defer srv.Close()
	in, inw := io.Pipe()
	defer inw.Close()
	out := &lockedBuffer{}
	p := &Proxy{Info: Info{URL: srv.URL + "/mcp", Token: "t", PID: 42, BridgeURL: "ws://127.0.0.1:1"}, Lines: NewLines(in), Out: out}
	done := make(chan error, 1)
	go func() { done <- p.Run(context.Background()) }()
	inw.Write([]byte(initLine + `{"jsonrpc":"2.0","method":"notifications/initialized"}` + "\n"))
	waitLines(t, out, 1)
	time.Sleep(100 * time.Millisecond) // the stream is open
	go inw.Write([]byte(`{"jsonrpc":"2.0","id":"call-1","method":"tools/call","params":{"name":"x"}}` + "\n"))
	select {
	case err := <-done:
		var gone *OwnerGoneError
		if !errors.As(err, &gone) {
			t.Fatalf("Run: %v", err)
		}
	case <-time.After(15 * time.Second):
		t.Fatal("Run hangs: the owner is gone but its stream is still waited for")
	}
	if got := out.lines(); !strings.Contains(got[len(got)-1], `"call-1"`) || !strings.Contains(got[len(got)-1], "-32001") {
		t.Fatalf("the call in flight got %q", got)
	}
}
