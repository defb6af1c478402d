package mcpserver

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"reflect"
	"strings"
	"testing"
)

// httpSession opens an MCP session on h and returns a poster for it.
func httpSession(t *testing.T, h http.Handler, token string) func(body string) (map[string]any, int) {
	t.Helper()
	session := ""
	post := func(body string) (map[string]any, int) {
		req := httptest.NewRequest(http.MethodPost, "http://127.0.0.1/mcp", strings.NewReader(body))
		req.Header.Set("Content-Type", "application/json")
		req.Header.Set("Accept", "application/json, text/event-stream")
		if token != "" {
			req.Header.Set("Authorization", "Bearer "+token)
		}
		if session != "" {
			req.Header.Set("Mcp-Session-Id", session)
			req.Header.Set("Mcp-Protocol-Version", "2025-11-25")
		}
		rec := httptest.NewRecorder()
		h.ServeHTTP(rec, req)
		if s := rec.Header().Get("Mcp-Session-Id"); s != "" {
			session = s
		}
		data := rec.Body.Bytes()
		if strings.HasPrefix(rec.Header().Get("Content-Type"), "text/event-stream") {
			var last []byte
			sc := bufio.NewScanner(bytes.NewReader(data))
			sc.Buffer(nil, 64<<20)
			for sc.Scan() {
				if l := sc.Bytes(); bytes.HasPrefix(l, []byte("data: ")) {
					last = append([]byte(nil), l[6:]...)
				}
			}
			data = last
		}
		var m map[string]any
		if len(bytes.TrimSpace(data)) > 0 {
			if err := json.Unmarshal(data, &m); err != nil {
				t.Fatalf("answer %.200q: %v", data, err)
			}
		}
		return m, rec.Code
	}
	if _, code := post(`{"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"t","version":"1"}}}`); code != 200 || session == "" {
		t.Fatalf("initialize: HTTP %d, session %q", code, session)
	}
	post(`{"jsonrpc":"2.0","method":"notifications/initialized"}`)
	return post
}

// The attach endpoint answers tools/call exactly as the plain streamable
// HTTP handler does, raw arguments in and spliced results out, and wants
// its token before anything else.
func TestAttachHandlerMatchesStreamableHTTP(t *testing.T) {
	s := newEchoServer(t)
	attached := httpSession(t, s.AttachHTTPHandler(HTTPGuard{Protect: true, Token: "tok"}, nil), "tok")
	plain := httpSession(t, s.GuardedHTTPHandler(HTTPGuard{Protect: true}), "")
	big := strings.Repeat("b", 3<<20)
	requests := []string{
		`{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"godot_t_echo","arguments":{"text":"hi \u00e9"}}}`,
		`{"jsonrpc":"2.0","id":"s-2","method":"tools/call","params":{"name":"godot_t_echo"}}`,
		`{"jsonrpc":"2.0","id":4,"method":"tools/call","params":{"name":"godot_t_echo","arguments":{"fail":true}}}`,
		`{"jsonrpc":"2.0","id":5,"method":"tools/call","params":{"name":"godot_t_echo","arguments":{"text":7}}}`,
		`{"jsonrpc":"2.0","id":7,"method":"tools/call","params":{"name":"godot_t_echo","arguments":[1]}}`,
		`{"jsonrpc":"2.0","id":8,"method":"tools/call","params":{"name":"godot_t_echo","arguments":{"text":"` + big + `"}}}`,
		`{"jsonrpc":"2.0","id":9,"method":"tools/call","params":{"name":"godot_get_server_info","arguments":{}}}`,
		`{"jsonrpc":"2.0","id":10,"method":"tools/call","params":{"name":"godot_no_such_tool","arguments":{"a":1}}}`,
		`{"jsonrpc":"2.0","id":11,"method":"tools/list"}`,
	}
	before, fastBefore := s.fastServed.Load(), attachFastServed.Load()
	for i, req := range requests {
		got, gcode := attached(req)
		want, wcode := plain(req)
		if gcode != wcode || !reflect.DeepEqual(normalize(got), normalize(want)) {
			t.Errorf("request %d: attach HTTP %d %.300v\nplain HTTP %d %.300v", i, gcode, got, wcode, want)
		}
	}
	if got := s.fastServed.Load(); got != before {
		t.Fatalf("the stdio counter moved: %d", got-before)
	}
	if got := attachFastServed.Load() - fastBefore; got != uint64(len(requests)-1) {
		t.Fatalf("the attach endpoint served %d of %d tools/call with raw arguments", got, len(requests)-1)
	}
	// The big echo came back whole through the splice.
	r, _ := attached(requests[5])
	sc, _ := r["result"].(map[string]any)["structuredContent"].(map[string]any)
	if text, _ := sc["text"].(string); text != big {
		t.Fatalf("big result: %d bytes", len(text))
	}

	for _, auth := range []string{"", "Bearer nope"} {
		req := httptest.NewRequest(http.MethodPost, "http://127.0.0.1/mcp", strings.NewReader(requests[0]))
		if auth != "" {
			req.Header.Set("Authorization", auth)
		}
		rec := httptest.NewRecorder()
		s.AttachHTTPHandler(HTTPGuard{Protect: true, Token: "tok"}, nil).ServeHTTP(rec, req)
		if rec.Code != http.StatusUnauthorized {
			t.Errorf("%s: HTTP %d", fmt.Sprint(auth), rec.Code)
		}
	}
}

// #24.13: over HTTP (and so the attach endpoint) too, a prompt argument
// that is not a string is refused naming it, without Go's unmarshal text.
func TestHTTPPromptNumberArgument(t *testing.T) {
	s := newEchoServer(t)
	for name, h := range map[string]http.Handler{
		"http":   s.GuardedHTTPHandler(HTTPGuard{Protect: true}),
		"attach": s.AttachHTTPHandler(HTTPGuard{Protect: true, Token: "tok"}, nil),
	} {
		token := ""
		if name == "attach" {
			token = "tok"
		}
		post := httpSession(t, h, token)
		m, _ := post(`{"jsonrpc":"2.0","id":7,"method":"prompts/get","params":{"name":"godot_start_2d_scene","arguments":{"path":5}}}`)
		e, _ := m["error"].(map[string]any)
		msg, _ := e["message"].(string)
		if e["code"] != float64(-32602) || m["id"] != float64(7) || !strings.Contains(msg, `"path"`) || strings.Contains(msg, "unmarshal") {
			t.Errorf("%s: %v", name, m)
		}
		if m, _ := post(`{"jsonrpc":"2.0","id":8,"method":"prompts/get","params":{"name":"godot_start_2d_scene","arguments":{"path":"res://a.tscn"}}}`); m["result"] == nil {
			t.Errorf("%s: a valid prompts/get after: %v", name, m)
		}
	}
}
