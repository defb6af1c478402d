package mcpserver

import (
	"runtime"
	"strings"
	"testing"
)

// TestStdioLongLineBounded (issue 14, M7): a line beyond maxStdioLine is not
// buffered: it is answered with a JSON-RPC error carrying its id, and the
// session goes on.
func TestStdioLongLineBounded(t *testing.T) {
	t.Cleanup(setVar(&maxStdioLine, 1<<20)) // after the session ends
	ss := startStdio(t, newEchoServer(t))
	line := []byte(`{"jsonrpc":"2.0","id":"big","method":"tools/call","params":{"name":"godot_t_echo","arguments":{"text":"` + strings.Repeat(" ", 16<<20) + `"}}}` + "\n")
	runtime.GC()
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	if _, err := ss.in.Write(line); err != nil {
		t.Fatal(err)
	}
	m, _ := ss.wait("big")
	runtime.ReadMemStats(&after)
	e, ok := m["error"].(map[string]any)
	if !ok || e["code"] != float64(-32600) || !strings.Contains(e["message"].(string), "MiB") {
		t.Fatalf("a 16 MiB line: %v, want a -32600 error naming the limit", m)
	}
	// The server held about the limit, not the line.
	if grew := after.TotalAlloc - before.TotalAlloc; grew > 12<<20 {
		t.Errorf("a 16 MiB line allocated %d MiB", grew>>20)
	}
	ss.send(`{"jsonrpc":"2.0","id":7,"method":"ping"}`)
	if m, _ := ss.wait("7"); m["error"] != nil {
		t.Fatalf("ping after the long line: %v", m)
	}
	// An id that is a number, and a line with no id in its first bytes.
	ss.send(`{"jsonrpc":"2.0","id":42,"method":"ping","params":{"pad":"` + strings.Repeat("x", 2<<20) + `"}}`)
	if m, _ := ss.wait("42"); m["error"] == nil {
		t.Fatalf("numeric id: %v", m)
	}
}
