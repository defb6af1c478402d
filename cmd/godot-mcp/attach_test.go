package main

import (
	"context"
	"encoding/json"
	"errors"
	"net"
	"net/http"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"testing"
	"time"

	"github.com/godot-mcp/godot-mcp/host/attach"
	"github.com/godot-mcp/godot-mcp/internal/testing/hosttest"
	"github.com/godot-mcp/godot-mcp/sdk/contract"
	"github.com/godot-mcp/godot-mcp/sdk/sdktest/fakeaddon"
)

// freePort is a loopback port nothing listens on right now.
func freePort(t *testing.T) string {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	_, port, _ := net.SplitHostPort(ln.Addr().String())
	return port
}

// waitLog waits (bounded) for the process's log to contain want.
func waitLog(t *testing.T, p *hosttest.Proc, want string) {
	t.Helper()
	deadline := time.Now().Add(20 * time.Second)
	for time.Now().Before(deadline) {
		if strings.Contains(p.Stderr(), want) {
			return
		}
		time.Sleep(20 * time.Millisecond)
	}
	t.Fatalf("log never said %q:\n%s", want, p.Stderr())
}

func dialEditor(t *testing.T, url, projectDir string) *fakeaddon.Addon {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	var a *fakeaddon.Addon
	var err error
	for ctx.Err() == nil { // after a takeover the port changes hands: retry
		if a, err = fakeaddon.Dial(ctx, url); err == nil {
			break
		}
		time.Sleep(50 * time.Millisecond)
	}
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { a.Close() })
	a.HandleResult("cmd_get_editor_state", map[string]any{"project_dir": projectDir, "open_scenes": []any{}, "active_scene": nil, "selection": []any{}})
	return a
}

func editorState(t *testing.T, p *hosttest.Proc) (string, *contract.Error) {
	t.Helper()
	r := call(p, "godot_get_editor_state", nil)
	if r.IsError {
		var e contract.Error
		if err := json.Unmarshal(r.StructuredContent, &e); err != nil {
			t.Fatalf("unreadable error: %+v", r)
		}
		return "", &e
	}
	var st struct {
		ProjectDir string `json:"project_dir"`
	}
	json.Unmarshal(r.StructuredContent, &st)
	return st.ProjectDir, nil
}

// Two servers on one bridge URL: the second attaches to the first, both
// clients see the tools and drive the one editor, toolset state is shared;
// when the first is killed the second takes the bridge over, says so, and
// serves its client on in the same session.
func TestBinaryTwoServersOneEditor(t *testing.T) {
	port := freePort(t)
	runDir := t.TempDir()
	env := []string{"GODOT_MCP_BRIDGE_URL=ws://127.0.0.1:" + port, "XDG_RUNTIME_DIR=" + runDir}

	first := startBinary(t, env...)
	first.Initialize()
	url := first.BridgeURL()
	waitLog(t, first, "other godot-mcp servers for this bridge attach here")

	file := filepath.Join(runDir, "godot-mcp", "bridge-"+port+".json")
	st, err := os.Stat(file)
	if err != nil {
		t.Fatal(err)
	}
	if st.Mode().Perm() != 0o600 {
		t.Fatalf("attach file mode %v, want 0600", st.Mode().Perm())
	}
	if dst, _ := os.Stat(filepath.Dir(file)); dst.Mode().Perm() != 0o700 {
		t.Fatalf("attach dir mode %v, want 0700", dst.Mode().Perm())
	}

	second := startBinary(t, env...)
	second.Initialize()
	waitLog(t, second, "another godot-mcp server owns the editor bridge")
	if strings.Contains(second.Stderr(), "bridge listening") {
		t.Fatalf("the second server bound a bridge of its own:\n%s", second.Stderr())
	}

	editor := dialEditor(t, url, "/tmp/game")
	for name, p := range map[string]*hosttest.Proc{"first": first, "second": second} {
		if names := p.ToolNames(); !names["godot_get_editor_state"] || !names["godot_enable_toolset"] {
			t.Fatalf("%s: tools/list lacks the core tools: %v", name, names)
		}
		if dir, e := editorState(t, p); e != nil || dir != "/tmp/game" {
			t.Fatalf("%s: editor state %q %+v", name, dir, e)
		}
	}
	if n := len(editor.Received()); n != 2 {
		t.Fatalf("the editor received %d commands, want 2 (one per client)", n)
	}

	// Toolset state is the owner's, shared by every client.
	if r := call(second, "godot_enable_toolset", map[string]any{"name": "scene"}); r.IsError {
		t.Fatalf("enable scene through the attached server: %+v", r)
	}
	if !first.ToolNames()["godot_scene_get_tree"] || !second.ToolNames()["godot_scene_get_tree"] {
		t.Fatal("a toolset enabled by one client is not listed by both")
	}
	// The attached client hears of a change the owner's client made.
	if r := call(first, "godot_disable_toolset", map[string]any{"name": "scene"}); r.IsError {
		t.Fatalf("disable scene: %+v", r)
	}
	heard := false
	for deadline := time.Now().Add(10 * time.Second); !heard && time.Now().Before(deadline); {
		_, notes := second.Request("ping", map[string]any{})
		for _, n := range notes {
			heard = heard || n == "notifications/tools/list_changed"
		}
		time.Sleep(20 * time.Millisecond)
	}
	if !heard || second.ToolNames()["godot_scene_get_tree"] {
		t.Fatal("the attached client was not told that the tool list changed")
	}

	// A call in flight when the owner dies gets a JSON-RPC error that says so.
	block := make(chan struct{})
	defer close(block)
	editor.Handle("cmd_get_editor_state", func(ctx context.Context, _ json.RawMessage) (any, *contract.Error) {
		select {
		case <-block:
		case <-ctx.Done():
		}
		return nil, contract.Errorf(contract.InternalError, "unreachable")
	})
	type answer struct{ result, rpcErr json.RawMessage }
	inflight := make(chan answer, 1)
	go func() {
		r, e, _ := second.Try("tools/call", map[string]any{"name": "godot_get_editor_state", "arguments": map[string]any{}})
		inflight <- answer{r, e}
	}()
	deadline := time.Now().Add(10 * time.Second)
	for len(editor.Received()) < 3 && time.Now().Before(deadline) {
		time.Sleep(10 * time.Millisecond)
	}
	if err := first.Cmd.Process.Signal(syscall.SIGKILL); err != nil {
		t.Fatal(err)
	}
	var got answer
	select {
	case got = <-inflight:
	case <-time.After(20 * time.Second):
		t.Fatal("the call in flight was never answered")
	}
	var rpcErr struct {
		Code    int    `json:"code"`
		Message string `json:"message"`
	}
	if json.Unmarshal(got.rpcErr, &rpcErr); rpcErr.Code != attach.OwnerGoneCode || !strings.Contains(rpcErr.Message, "exited during this call") ||
		!strings.Contains(rpcErr.Message, strconv.Itoa(first.Cmd.Process.Pid)) {
		t.Fatalf("call in flight: result %s error %s", got.result, got.rpcErr)
	}

	// The second server took the bridge over: it says so, its client's
	// session goes on (no new initialize), the tool list changed (the
	// first server's toolsets are gone), and the editor, once it dials
	// again, answers it.
	waitLog(t, second, "took over the editor bridge")
	if names := second.ToolNames(); !names["godot_get_editor_state"] || names["godot_scene_get_tree"] {
		t.Fatalf("after the takeover: %v", names)
	}
	if _, e := editorState(t, second); e == nil || e.Code != contract.BridgeDisconnected {
		t.Fatalf("before the editor reconnects: %+v", e)
	}
	dialEditor(t, url, "/tmp/game2")
	if dir, e := editorState(t, second); e != nil || dir != "/tmp/game2" {
		t.Fatalf("after the editor reconnected: %q %+v", dir, e)
	}
	second.AssertOnlyJSONRPC()
	first.AssertOnlyJSONRPC()

	// A third server now attaches to the second.
	third := startBinary(t, env...)
	third.Initialize()
	waitLog(t, third, "another godot-mcp server owns the editor bridge")
	if dir, e := editorState(t, third); e != nil || dir != "/tmp/game2" {
		t.Fatalf("third: %q %+v", dir, e)
	}

	// The second exits cleanly (SIGTERM): its attach file goes with it and
	// the third takes over.
	if err := second.Cmd.Process.Signal(syscall.SIGTERM); err != nil {
		t.Fatal(err)
	}
	waitLog(t, third, "took over the editor bridge")
	if err := second.Cmd.Wait(); err != nil || strings.Contains(second.Stderr(), "godot-mcp: ") {
		t.Fatalf("the second did not exit cleanly on SIGTERM: %v\n%s", err, second.Stderr())
	}
	dialEditor(t, url, "/tmp/game3")
	if dir, e := editorState(t, third); e != nil || dir != "/tmp/game3" {
		t.Fatalf("third after the takeover: %q %+v", dir, e)
	}
	third.AssertOnlyJSONRPC()
	if os.Getenv("DUMP") != "" {
		t.Logf("second:\n%s\nthird:\n%s", second.Stderr(), third.Stderr())
	}
}

// A bridge port held by a program that is not godot-mcp: the server exits
// with one line saying so, nothing on stdout.
func TestBinaryBridgePortTakenByAnotherProgram(t *testing.T) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	start := time.Now()
	out, errOut, code := runBinary(t, []string{"GODOT_MCP_BRIDGE_URL=ws://" + ln.Addr().String(), "XDG_RUNTIME_DIR=" + t.TempDir()})
	if code != 1 || out != "" || !strings.Contains(errOut, "cannot listen on ws://"+ln.Addr().String()) ||
		!strings.Contains(errOut, "no godot-mcp server to attach to") {
		t.Fatalf("exit %d, stdout %q, stderr:\n%s", code, out, errOut)
	}
	if d := time.Since(start); d > 15*time.Second {
		t.Fatalf("took %v to give up", d)
	}
}

// #24.13: the attach endpoint's GET /attach checks Host and Origin like
// its /mcp (docs/multi-client.md): a browser page reached through DNS
// rebinding, or a cross-origin one, gets nothing, even with the token.
func TestBinaryAttachProbeChecksHostAndOrigin(t *testing.T) {
	port := freePort(t)
	runDir := t.TempDir()
	owner := startBinary(t, "GODOT_MCP_BRIDGE_URL=ws://127.0.0.1:"+port, "XDG_RUNTIME_DIR="+runDir)
	owner.Initialize()
	waitLog(t, owner, "other godot-mcp servers for this bridge attach here")
	data, err := os.ReadFile(filepath.Join(runDir, "godot-mcp", "bridge-"+port+".json"))
	if err != nil {
		t.Fatal(err)
	}
	var info attach.Info
	json.Unmarshal(data, &info)
	probe := strings.TrimSuffix(info.URL, "/mcp") + "/attach"
	get := func(host, origin string) int {
		req, _ := http.NewRequest(http.MethodGet, probe, nil)
		req.Header.Set("Authorization", "Bearer "+info.Token)
		if host != "" {
			req.Host = host
		}
		if origin != "" {
			req.Header.Set("Origin", origin)
		}
		resp, err := attach.HTTPClient(info).Do(req)
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		return resp.StatusCode
	}
	if code := get("", ""); code != http.StatusOK {
		t.Fatalf("the owner's probe answered %d", code)
	}
	if code := get("evil.example:80", ""); code != http.StatusMisdirectedRequest {
		t.Errorf("a foreign Host got %d, want 421", code)
	}
	if code := get("", "http://evil.example"); code != http.StatusForbidden {
		t.Errorf("a foreign Origin got %d, want 403", code)
	}
}

// #24.3: wrong bearer tokens sent to the owner's attach endpoint (by any
// local process) neither block the attached servers nor make them believe
// the owner exited: an attached client's calls go on, nothing tells it
// the owner is gone, and a new server still attaches.
func TestBinaryWrongAttachTokensHarmNobody(t *testing.T) {
	port := freePort(t)
	runDir := t.TempDir()
	env := []string{"GODOT_MCP_BRIDGE_URL=ws://127.0.0.1:" + port, "XDG_RUNTIME_DIR=" + runDir}
	owner := startBinary(t, env...)
	owner.Initialize()
	waitLog(t, owner, "other godot-mcp servers for this bridge attach here")
	attached := startBinary(t, env...)
	attached.Initialize()
	waitLog(t, attached, "another godot-mcp server owns the editor bridge")
	if r := call(attached, "godot_get_server_info", nil); r.IsError {
		t.Fatalf("before: %s", r.StructuredContent)
	}

	data, err := os.ReadFile(filepath.Join(runDir, "godot-mcp", "bridge-"+port+".json"))
	if err != nil {
		t.Fatal(err)
	}
	var info attach.Info
	json.Unmarshal(data, &info)
	for i := 0; i < 30; i++ {
		for _, path := range []string{"/mcp", "/attach"} {
			req, _ := http.NewRequest(http.MethodPost, strings.TrimSuffix(info.URL, "/mcp")+path, strings.NewReader(`{}`))
			req.Header.Set("Authorization", "Bearer wrong")
			if resp, err := attach.HTTPClient(info).Do(req); err == nil {
				resp.Body.Close()
			}
		}
	}

	done := make(chan string, 1)
	go func() {
		res, rpcErr, _ := attached.Try("tools/call", map[string]any{"name": "godot_get_server_info", "arguments": map[string]any{}})
		if rpcErr != nil || strings.Contains(string(res), `"isError":true`) {
			done <- string(res) + string(rpcErr)
		}
		done <- ""
	}()
	select {
	case got := <-done:
		if got != "" {
			t.Fatalf("after wrong tokens: %s", got)
		}
	case <-time.After(20 * time.Second):
		t.Fatalf("the attached server hangs after wrong tokens to the owner:\n%s", attached.Stderr())
	}
	if strings.Contains(attached.Stderr(), "went away") || strings.Contains(attached.Stderr(), "is gone") {
		t.Fatalf("the attached server believed the owner exited:\n%s", attached.Stderr())
	}
	third := startBinary(t, env...)
	third.Initialize()
	waitLog(t, third, "another godot-mcp server owns the editor bridge")
	if r := call(third, "godot_get_server_info", nil); r.IsError {
		t.Fatalf("a new server: %s", r.StructuredContent)
	}
}

// #24.4: the attach endpoint bounds what strangers can hold, like the HTTP
// transport: 1,000 silent sockets leave the owner with a bounded number of
// descriptors and a server still attaches and is served; a huge header is
// refused (431).
func TestBinaryAttachEndpointBoundsConnections(t *testing.T) {
	if _, err := os.Stat("/proc/self/fd"); err != nil {
		t.Skip("needs /proc to count descriptors")
	}
	port := freePort(t)
	runDir := t.TempDir()
	env := []string{"GODOT_MCP_BRIDGE_URL=ws://127.0.0.1:" + port, "XDG_RUNTIME_DIR=" + runDir}
	owner := startBinary(t, env...)
	owner.Initialize()
	waitLog(t, owner, "other godot-mcp servers for this bridge attach here")
	data, err := os.ReadFile(filepath.Join(runDir, "godot-mcp", "bridge-"+port+".json"))
	if err != nil {
		t.Fatal(err)
	}
	var info attach.Info
	json.Unmarshal(data, &info)
	fds := func() int {
		entries, _ := os.ReadDir("/proc/" + strconv.Itoa(owner.Cmd.Process.Pid) + "/fd")
		return len(entries)
	}
	before := fds()
	var conns []net.Conn
	defer func() {
		for _, c := range conns {
			c.Close()
		}
	}()
	for i := 0; i < 1000; i++ {
		c, err := net.Dial("unix", info.Socket)
		if err != nil {
			t.Fatalf("dial %d: %v", i, err)
		}
		conns = append(conns, c)
	}
	// The owner closes all but its limit of them (the idlest first).
	var closed atomic.Int32
	var wg sync.WaitGroup
	for _, c := range conns {
		wg.Add(1)
		go func() {
			defer wg.Done()
			c.SetReadDeadline(time.Now().Add(5 * time.Second))
			if _, err := c.Read(make([]byte, 1)); !errors.Is(err, os.ErrDeadlineExceeded) {
				closed.Add(1)
			}
		}()
	}
	wg.Wait()
	if n := closed.Load(); n < 1000-300 {
		t.Errorf("1,000 silent sockets: the owner closed only %d", n)
	}
	if n := fds(); before > 0 && n-before > 400 { // /proc/PID/fd is readable (as root)
		t.Errorf("1,000 silent sockets: the owner holds %d descriptors more", n-before)
	}
	attached := startBinary(t, env...)
	attached.Initialize()
	waitLog(t, attached, "another godot-mcp server owns the editor bridge")
	if r := call(attached, "godot_get_server_info", nil); r.IsError {
		t.Fatalf("an attached server: %s", r.StructuredContent)
	}

	req, _ := http.NewRequest(http.MethodGet, strings.TrimSuffix(info.URL, "/mcp")+"/attach", nil)
	req.Header.Set("Authorization", "Bearer "+info.Token)
	req.Header.Set("X-Big", strings.Repeat("x", 1<<20))
	if resp, err := attach.HTTPClient(info).Do(req); err != nil || resp.StatusCode != http.StatusRequestHeaderFieldsTooLarge {
		t.Errorf("a 1 MiB header: %v %v", resp, err)
	} else {
		resp.Body.Close()
	}
}
