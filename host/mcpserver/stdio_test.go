package mcpserver

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/mark3labs/mcp-go/client"
	"github.com/mark3labs/mcp-go/client/transport"
	"github.com/mark3labs/mcp-go/mcp"

	"github.com/godot-mcp/godot-mcp/sdk/contract"
)

// stdioSession runs ServeStdio on pipes and speaks raw JSON-RPC lines to it.
type stdioSession struct {
	t     *testing.T
	in    *io.PipeWriter
	lines chan map[string]any
	done  chan error
}

func startStdio(t *testing.T, s *Server) *stdioSession {
	t.Helper()
	inR, inW := io.Pipe()
	outR, outW := io.Pipe()
	ss := &stdioSession{t: t, in: inW, lines: make(chan map[string]any, 100), done: make(chan error, 1)}
	go func() {
		ss.done <- s.ServeStdio(context.Background(), inR, outW, io.Discard)
		outW.Close()
	}()
	go func() {
		sc := bufio.NewScanner(outR)
		sc.Buffer(nil, 64<<20)
		for sc.Scan() {
			var m map[string]any
			if err := json.Unmarshal(sc.Bytes(), &m); err != nil {
				t.Errorf("stdout line is not JSON: %q", sc.Bytes())
				continue
			}
			ss.lines <- m
		}
		close(ss.lines)
	}()
	t.Cleanup(func() {
		inW.Close()
		select {
		case err := <-ss.done:
			if err != nil {
				t.Errorf("ServeStdio: %v", err)
			}
		case <-time.After(10 * time.Second):
			t.Error("ServeStdio did not return after stdin closed")
		}
	})
	ss.send(`{"jsonrpc":"2.0","id":"init","method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"t","version":"1"}}}`)
	ss.wait("init")
	ss.send(`{"jsonrpc":"2.0","method":"notifications/initialized"}`)
	return ss
}

func (ss *stdioSession) send(line string) {
	ss.t.Helper()
	if _, err := io.WriteString(ss.in, line+"\n"); err != nil {
		ss.t.Fatal(err)
	}
}

// wait returns the response with id (its JSON form, as a string or number
// text) and the notifications seen before it.
func (ss *stdioSession) wait(id string) (map[string]any, []map[string]any) {
	ss.t.Helper()
	var notes []map[string]any
	deadline := time.After(10 * time.Second)
	for {
		select {
		case m, ok := <-ss.lines:
			if !ok {
				ss.t.Fatalf("stdout closed waiting for %s", id)
			}
			rid, has := m["id"]
			if !has {
				notes = append(notes, m)
				continue
			}
			if fmt.Sprint(rid) == id {
				return m, notes
			}
		case <-deadline:
			ss.t.Fatalf("no response %s", id)
		}
	}
}

// echoTool answers with its arguments, reports progress when asked, and
// blocks until cancelled when told to.
func echoTool(s **Server) Tool {
	return Tool{
		Def: ToolDef{Name: "godot_t_echo", Toolset: "t", InputSchema: json.RawMessage(`{"type":"object","properties":{"text":{"type":"string"},"block":{"type":"boolean"},"fail":{"type":"boolean"}}}`), ToolMeta: contract.ToolMeta{Description: "echo", Safety: contract.ReadOnly}},
		Exec: func(ctx context.Context, call Call) Result {
			var in struct {
				Text  string `json:"text"`
				Block bool   `json:"block"`
				Fail  bool   `json:"fail"`
			}
			json.Unmarshal(call.Arguments, &in)
			if call.ProgressToken != "" {
				(*s).Progress(call.ProgressToken, 1, 2, "half")
			}
			if in.Block {
				<-ctx.Done()
				return Fail(contract.Errorf(contract.Timeout, "stopped: %v", context.Cause(ctx)))
			}
			if in.Fail {
				return Fail(contract.Precondition(contract.RequireActiveScene, "open a scene"))
			}
			return Result{Structured: json.RawMessage(fmt.Sprintf(`{"text":%q,"html":"<&>"}`, in.Text)),
				Content: []Content{{Type: "image", MimeType: "image/png", Data: []byte{1, 2, 3}}}}
		},
	}
}

func newEchoServer(t *testing.T) *Server {
	t.Helper()
	s := New(Options{Config: testConfig(), Bridge: &stubBridge{connected: true}})
	if err := s.AddTools(echoTool(&s)); err != nil {
		t.Fatal(err)
	}
	return s
}

// The fast path answers exactly what mcp-go answers for the same request.
func TestStdioFastPathMatchesMCPGo(t *testing.T) {
	s := newEchoServer(t)
	ss := startStdio(t, s)
	big := strings.Repeat("b", maxTextFallback+10)
	requests := []string{
		`{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"godot_t_echo","arguments":{"text":"hi \u00e9"}}}`,
		`{"jsonrpc":"2.0","id":"s-2","method":"tools/call","params":{"name":"godot_t_echo"}}`,
		`{"jsonrpc":"2.0","id":3,"method":"tools/call","params":{"name":"godot_t_echo","arguments":null}}`,
		`{"jsonrpc":"2.0","id":4,"method":"tools/call","params":{"name":"godot_t_echo","arguments":{"fail":true}}}`,
		`{"jsonrpc":"2.0","id":5,"method":"tools/call","params":{"name":"godot_t_echo","arguments":{"text":7}}}`,
		`{"jsonrpc":"2.0","id":6,"method":"tools/call","params":{"name":"godot_t_echo","arguments":{"text":"x","dry_run":"yes"}}}`,
		`{"jsonrpc":"2.0","id":7,"method":"tools/call","params":{"name":"godot_t_echo","arguments":[1]}}`,
		`{"jsonrpc":"2.0","id":8,"method":"tools/call","params":{"name":"godot_t_echo","arguments":{"text":"` + big + `"}}}`,
		`{"jsonrpc":"2.0","id":9,"method":"tools/call","params":{"name":"godot_get_server_info","arguments":{}}}`,
		`{"jsonrpc":"2.0","id":10,"method":"tools/call","params":{"name":"godot_no_such_tool","arguments":{"a":1}}}`,
		// A client of the 2026-07-28 revision: protocol metadata on every request.
		`{"jsonrpc":"2.0","id":11,"method":"tools/call","params":{"_meta":{"io.modelcontextprotocol/clientCapabilities":{},"io.modelcontextprotocol/clientInfo":{"name":"t","version":"1"},"io.modelcontextprotocol/protocolVersion":"2026-07-28"},"arguments":{"text":"modern"},"name":"godot_t_echo"}}`,
		`{"jsonrpc":"2.0","id":12,"method":"tools/call","params":{"_meta":{"io.modelcontextprotocol/clientCapabilities":{},"io.modelcontextprotocol/protocolVersion":"2026-07-28"},"arguments":{"text":"` + big + `"},"name":"godot_t_echo"}}`,
		`{"jsonrpc":"2.0","id":13,"method":"tools/call","params":{"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28"},"arguments":{"text":"no capabilities"},"name":"godot_t_echo"}}`,
	}
	for i, req := range requests {
		id := fmt.Sprint(i + 1)
		if i == 1 {
			id = "s-2"
		}
		ss.send(req)
		fast, _ := ss.wait(id)
		want := mcpGoAnswer(t, s, req)
		if !reflect.DeepEqual(normalize(fast), normalize(want)) {
			t.Errorf("request %s:\nfast path: %.400v\nmcp-go:    %.400v", id, fast, want)
		}
	}
	if got := s.fastServed.Load(); got != uint64(len(requests)) {
		t.Fatalf("the fast path served %d of %d calls", got, len(requests))
	}
}

// mcpGoAnswer is mcp-go's response to line, decoded.
func mcpGoAnswer(t *testing.T, s *Server, line string) map[string]any {
	t.Helper()
	resp := s.MCP().HandleMessage(context.Background(), json.RawMessage(line))
	raw, err := json.Marshal(resp)
	if err != nil {
		t.Fatal(err)
	}
	var m map[string]any
	if err := json.Unmarshal(raw, &m); err != nil {
		t.Fatal(err)
	}
	return m
}

// normalize drops what legitimately differs between two runs of one call:
// server_info's uptime and counters.
func normalize(m map[string]any) map[string]any {
	raw, _ := json.Marshal(m)
	var out map[string]any
	json.Unmarshal(raw, &out)
	if r, ok := out["result"].(map[string]any); ok {
		if sc, ok := r["structuredContent"].(map[string]any); ok {
			if _, isInfo := sc["server_version"]; isInfo {
				r["structuredContent"] = "server info"
				r["content"] = "server info"
			}
		}
	}
	return out
}

// What the fast path must not take goes to mcp-go, which answers it.
func TestStdioOtherRequestsGoToMCPGo(t *testing.T) {
	s := newEchoServer(t)
	ss := startStdio(t, s)
	ss.send(`{"jsonrpc":"2.0","id":1,"method":"tools/list"}`)
	if resp, _ := ss.wait("1"); resp["result"] == nil {
		t.Fatalf("tools/list: %v", resp)
	}
	// Keys encoding/json would match case-insensitively: read by mcp-go alone.
	ss.send(`{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"godot_t_echo","Arguments":{"text":"folded"}}}`)
	if resp, _ := ss.wait("2"); resp["result"] == nil {
		t.Fatalf("case-folded arguments: %v", resp)
	}
	ss.send(`{"jsonrpc":"2.0","id":3,"method":"tools/call","Params":{"name":"godot_t_echo"}}`)
	if resp, _ := ss.wait("3"); resp == nil {
		t.Fatal("case-folded params: no answer")
	}
	ss.send(`{"jsonrpc":"2.0","id":4,"method":"tools/call","params":{"name":"godot_t_echo"`)
	if resp, _ := ss.wait("<nil>"); resp["error"] == nil {
		t.Fatalf("broken line: %v", resp)
	}
	if got := s.fastServed.Load(); got != 0 {
		t.Fatalf("the fast path took %d calls it must leave to mcp-go", got)
	}
}

// Progress reaches the client through the session (mcp-go sends
// notifications from its own goroutine, so it may trail the answer).
func TestStdioFastPathProgress(t *testing.T) {
	s := newEchoServer(t)
	ss := startStdio(t, s)
	ss.send(`{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"godot_t_echo","arguments":{"text":"p"},"_meta":{"progressToken":"tok-1"}}}`)
	resp, notes := ss.wait("1")
	if resp["result"] == nil || s.fastServed.Load() != 1 {
		t.Fatalf("response %v (fast calls %d)", resp, s.fastServed.Load())
	}
	if len(notes) == 0 {
		select {
		case m := <-ss.lines:
			notes = append(notes, m)
		case <-time.After(5 * time.Second):
		}
	}
	if len(notes) != 1 || notes[0]["method"] != "notifications/progress" {
		t.Fatalf("notifications: %v", notes)
	}
	p := notes[0]["params"].(map[string]any)
	if p["progressToken"] != "tok-1" || p["progress"] != 1.0 || p["total"] != 2.0 || p["message"] != "half" {
		t.Fatalf("progress: %v", p)
	}
}

// notifications/cancelled ends a fast call's context; many calls in flight
// are answered each under its own id.
func TestStdioFastPathCancelAndConcurrency(t *testing.T) {
	s := newEchoServer(t)
	ss := startStdio(t, s)
	ss.send(`{"jsonrpc":"2.0","id":"blocker","method":"tools/call","params":{"name":"godot_t_echo","arguments":{"block":true}}}`)
	for i := range 50 {
		ss.send(fmt.Sprintf(`{"jsonrpc":"2.0","id":%d,"method":"tools/call","params":{"name":"godot_t_echo","arguments":{"text":"n%d"}}}`, 100+i, i))
	}
	seen := map[string]bool{}
	for len(seen) < 50 {
		select {
		case m := <-ss.lines:
			id := fmt.Sprint(m["id"])
			sc := m["result"].(map[string]any)["structuredContent"].(map[string]any)
			var n int
			fmt.Sscan(id, &n)
			if sc["text"] != fmt.Sprintf("n%d", n-100) {
				t.Fatalf("response %s carries %v", id, sc)
			}
			seen[id] = true
		case <-time.After(10 * time.Second):
			t.Fatalf("only %d of 50 answers", len(seen))
		}
	}
	ss.send(`{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":"blocker","reason":"user"}}`)
	resp, _ := ss.wait("blocker")
	res := resp["result"].(map[string]any)
	if res["isError"] != true || res["structuredContent"] != nil || !strings.Contains(fmt.Sprint(res["content"]), "canceled") {
		t.Fatalf("cancelled call answered %v", res)
	}
}

// Closing stdin ends ServeStdio even with a call in flight.
func TestStdioEndsWithCallsInFlight(t *testing.T) {
	s := newEchoServer(t)
	inR, inW := io.Pipe()
	done := make(chan error, 1)
	go func() { done <- s.ServeStdio(context.Background(), inR, io.Discard, io.Discard) }()
	io.WriteString(inW, `{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"godot_t_echo","arguments":{"block":true}}}`+"\n")
	for s.fastServed.Load() == 0 {
		time.Sleep(time.Millisecond)
	}
	inW.Close()
	select {
	case err := <-done:
		if err != nil && !errors.Is(err, context.Canceled) {
			t.Fatal(err)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("ServeStdio hung on a call in flight after stdin closed")
	}
}

// mcp-go's own stdio client (what hosttest.Client and the fault tests use)
// gets the fast path for plain calls.
func TestStdioFastPathServesMCPGoClient(t *testing.T) {
	s := newEchoServer(t)
	inR, inW := io.Pipe()
	outR, outW := io.Pipe()
	done := make(chan error, 1)
	go func() {
		done <- s.ServeStdio(context.Background(), inR, outW, io.Discard)
		outW.Close()
	}()
	c := client.NewClient(transport.NewIO(outR, inW, nil))
	ctx := context.Background()
	if err := c.Start(ctx); err != nil {
		t.Fatal(err)
	}
	init := mcp.InitializeRequest{}
	init.Params.ProtocolVersion = mcp.LATEST_PROTOCOL_VERSION
	init.Params.ClientInfo = mcp.Implementation{Name: "t", Version: "1"}
	if _, err := c.Initialize(ctx, init); err != nil {
		t.Fatal(err)
	}
	req := mcp.CallToolRequest{}
	req.Params.Name = "godot_t_echo"
	req.Params.Arguments = map[string]any{"text": "via mcp-go"}
	res, err := c.CallTool(ctx, req)
	if err != nil || res.IsError {
		t.Fatalf("call: %v %+v", err, res)
	}
	c.Close()
	<-done
	if s.fastServed.Load() != 1 {
		t.Fatalf("mcp-go's client call was not served by the fast path (fast calls: %d)", s.fastServed.Load())
	}
}

// When ctx ends (SIGTERM), ServeStdio returns even though stdin stays open.
func TestStdioEndsWithContext(t *testing.T) {
	s := newEchoServer(t)
	inR, inW := io.Pipe()
	defer inW.Close()
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- s.ServeStdio(ctx, inR, io.Discard, io.Discard) }()
	io.WriteString(inW, `{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"godot_t_echo","arguments":{"block":true}}}`+"\n")
	for s.fastServed.Load() == 0 {
		time.Sleep(time.Millisecond)
	}
	cancel()
	select {
	case <-done:
	case <-time.After(10 * time.Second):
		t.Fatal("ServeStdio did not return when its context ended")
	}
}

// A failed call on the stdio fast path is an isError result with no
// structuredContent (it would not match the outputSchema, which TypeScript
// SDK v1 clients check) and the error object as its only, JSON, text.
func TestStdioErrorResultWireShape(t *testing.T) {
	s := New(Options{Config: testConfig(), Bridge: &stubBridge{}})
	if err := s.AddTools(echoTool(&s)); err != nil {
		t.Fatal(err)
	}
	ss := startStdio(t, s)
	for id, req := range map[string]string{
		"1": `{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"godot_get_editor_state","arguments":{}}}`,
		"2": `{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"godot_t_echo","arguments":{"fail":true}}}`,
		"3": `{"jsonrpc":"2.0","id":3,"method":"tools/call","params":{"name":"godot_undo","arguments":{"count":"two"}}}`,
	} {
		ss.send(req)
		resp, _ := ss.wait(id)
		res, _ := resp["result"].(map[string]any)
		if _, has := res["structuredContent"]; has || res["isError"] != true {
			t.Errorf("call %s: want isError without structuredContent, got %v", id, resp)
			continue
		}
		content, _ := res["content"].([]any)
		if len(content) != 1 {
			t.Errorf("call %s: want one content item, got %v", id, content)
			continue
		}
		item, _ := content[0].(map[string]any)
		var e contract.Error
		if item["type"] != "text" || json.Unmarshal([]byte(fmt.Sprint(item["text"])), &e) != nil || e.Code == "" || e.Hint == "" {
			t.Errorf("call %s: the text is not the error object: %v", id, item)
		}
		switch id {
		case "1":
			if e.Code != contract.BridgeDisconnected || e.Required != contract.RequireBridgeConnected {
				t.Errorf("no editor: %+v", e)
			}
		case "2":
			if e.Code != contract.PreconditionFailed || e.Required != contract.RequireActiveScene {
				t.Errorf("precondition: %+v", e)
			}
		case "3":
			if e.Code != contract.ValidationError || !strings.Contains(e.Hint, "count") {
				t.Errorf("validation: %+v", e)
			}
		}
	}
}

// A call's log record below the client's level is not sent, and the answer
// does not wait for it (mcp-go drops such a record without an error: counted
// as queued, it held every such answer for deliveryWait). The record at the
// client's level arrives before the answer.
func TestStdioLogBelowTheClientsLevelDoesNotHoldTheAnswer(t *testing.T) {
	s := New(Options{Config: testConfig(), Bridge: &stubBridge{}})
	if err := s.AddTools(Tool{
		Def: ToolDef{Name: "godot_logs_talk", Toolset: "logs", InputSchema: json.RawMessage(`{"type":"object"}`), ToolMeta: contract.ToolMeta{Description: "Logs.", Safety: contract.ReadOnly}},
		Exec: func(_ context.Context, c Call) Result {
			s.LogCall(c.CallID, slog.LevelWarn, "careful", nil)
			s.LogCall(c.CallID, slog.LevelDebug, "unwanted", nil)
			return OK(map[string]any{})
		},
	}); err != nil {
		t.Fatal(err)
	}
	ss := startStdio(t, s)
	ss.send(`{"jsonrpc":"2.0","id":"lvl","method":"logging/setLevel","params":{"level":"warning"}}`)
	ss.wait(`lvl`)
	start := time.Now()
	ss.send(`{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"godot_logs_talk","arguments":{}}}`)
	resp, notes := ss.wait("1")
	if d := time.Since(start); d >= deliveryWait {
		t.Errorf("the answer took %v: it waited for a record that was never sent", d)
	}
	if resp["result"] == nil {
		t.Fatalf("response %v", resp)
	}
	if len(notes) != 1 || notes[0]["method"] != "notifications/message" || !strings.Contains(fmt.Sprint(notes[0]["params"]), "careful") {
		t.Fatalf("notifications before the answer: %v (want only the warning)", notes)
	}
}
