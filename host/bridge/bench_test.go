package bridge_test

import (
	"context"
	"encoding/json"
	"errors"
	"net"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/coder/websocket"

	"github.com/godot-mcp/godot-mcp/sdk/sdktest/fakeaddon"
)

// benchPayload is the params of one benchmark command (about 1 KiB).
var benchPayload = json.RawMessage(`{"data":"` + strings.Repeat("x", 1000) + `"}`)

// BenchmarkBridgeRoundTrip measures Send → fake addon (echo) → answer.
// Compare with BenchmarkRawEcho, the same message size over a bare
// coder/websocket echo on loopback: the ratio is the bridge's overhead.
func BenchmarkBridgeRoundTrip(b *testing.B) {
	br := start(b)
	a := connect(b, br)
	a.Handle("cmd_echo", fakeaddon.Echo)
	ctx := context.Background()
	b.SetBytes(int64(len(benchPayload)))
	b.ReportAllocs()
	b.ResetTimer()
	for b.Loop() {
		if r := br.Send(ctx, "cmd_echo", benchPayload, 10*time.Second); !r.OK {
			b.Fatalf("Send: %+v", r)
		}
	}
}

// BenchmarkRawEcho is the baseline: one text message out and back over a
// plain coder/websocket connection on loopback.
func BenchmarkRawEcho(b *testing.B) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		b.Fatal(err)
	}
	srv := &http.Server{Handler: http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		c, err := websocket.Accept(w, r, nil)
		if err != nil {
			return
		}
		defer c.CloseNow()
		for {
			typ, data, err := c.Read(context.Background())
			if err != nil {
				return
			}
			if err := c.Write(context.Background(), typ, data); err != nil {
				return
			}
		}
	})}
	go func() {
		if err := srv.Serve(ln); err != nil && !errors.Is(err, http.ErrServerClosed) {
			b.Error(err)
		}
	}()
	b.Cleanup(func() { _ = srv.Close() })

	ctx := context.Background()
	c, _, err := websocket.Dial(ctx, "ws://"+ln.Addr().String(), nil)
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() { _ = c.Close(websocket.StatusNormalClosure, "") })
	// Same bytes as the bridge's command frame.
	msg := []byte(`{"id":"1","command":"cmd_echo","params":` + string(benchPayload) + `}`)
	b.SetBytes(int64(len(benchPayload)))
	b.ReportAllocs()
	b.ResetTimer()
	for b.Loop() {
		if err := c.Write(ctx, websocket.MessageText, msg); err != nil {
			b.Fatal(err)
		}
		if _, _, err := c.Read(ctx); err != nil {
			b.Fatal(err)
		}
	}
}
