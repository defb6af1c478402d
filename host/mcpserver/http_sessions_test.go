package mcpserver

import (
	"net/http"
	"testing"
)

// TestHTTPSessionsPerSpec (issue 15, B2): a terminated and a never-issued
// Mcp-Session-Id get 404 on every method; a live one is served.
func TestHTTPSessionsPerSpec(t *testing.T) {
	addr := httpHost(t, testConfig(), nil)
	live := initialize(t, addr)
	list := `{"jsonrpc":"2.0","id":2,"method":"tools/list"}`
	if r := post(t, addr, live, list); r.StatusCode != 200 {
		t.Fatalf("tools/list on a live session: %d", r.StatusCode)
	}
	gone := initialize(t, addr)
	if c := do(t, http.MethodDelete, addr, gone); c != 200 {
		t.Fatalf("DELETE of a live session: %d", c)
	}
	never := "mcp-session-6f1c2b0e-3d4a-4f5b-8c7d-9e0f1a2b3c4d"
	for _, id := range []string{gone, never} {
		if r := post(t, addr, id, list); r.StatusCode != 404 {
			t.Errorf("POST with session %s: %d, want 404", id, r.StatusCode)
		}
		if c := do(t, http.MethodGet, addr, id); c != 404 {
			t.Errorf("GET with session %s: %d, want 404", id, c)
		}
		if c := do(t, http.MethodDelete, addr, id); c != 404 {
			t.Errorf("DELETE with session %s: %d, want 404", id, c)
		}
	}
	if r := post(t, addr, live, list); r.StatusCode != 200 {
		t.Fatalf("the live session after the others: %d", r.StatusCode)
	}
}

// Live sessions are bounded: beyond the cap the least recently used is
// forgotten (its client gets 404 and initializes again).
func TestSessionIDsBounded(t *testing.T) {
	s := newSessionIDs(2)
	a, b := s.Generate(), s.Generate()
	if !s.known(a) { // a is now the most recently used
		t.Fatal("a fresh id is unknown")
	}
	c := s.Generate()
	if s.known(b) || !s.known(a) || !s.known(c) {
		t.Fatalf("after a third id: a=%v b=%v c=%v, want b forgotten", s.known(a), s.known(b), s.known(c))
	}
	if _, err := s.Terminate(a); err != nil || s.known(a) {
		t.Fatal("a terminated id is still served")
	}
}
