package bridge_test

import (
	"context"
	"runtime"
	"strings"
	"testing"
	"time"

	"github.com/godot-mcp/godot-mcp/host/bridge"
	"github.com/godot-mcp/godot-mcp/host/envelope"
	"github.com/godot-mcp/godot-mcp/sdk/contract"
	"github.com/godot-mcp/godot-mcp/sdk/sdktest/fakeaddon"
)

// TestNoGoroutineLeak drives every lifecycle path, closes everything and
// checks the goroutine count returns to where it started.
func TestNoGoroutineLeak(t *testing.T) {
	base := runtime.NumGoroutine()
	func() {
		ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
		defer cancel()
		b, err := bridge.New(bridge.Options{URL: "ws://127.0.0.1:0", Token: "t", HelloTimeout: 50 * time.Millisecond,
			OnPeerChange: func(bool, *bridge.PeerInfo) {}})
		if err != nil {
			t.Fatal(err)
		}
		if err := b.Start(ctx); err != nil {
			t.Fatal(err)
		}
		a1, err := fakeaddon.Dial(ctx, b.URL(), fakeaddon.WithToken("t"))
		if err != nil {
			t.Fatal(err)
		}
		a1.Silence("cmd_hang")
		done := make(chan envelope.Response, 3)
		for range 3 {
			go func() { done <- b.Send(ctx, "cmd_hang", nil, 10*time.Second) }()
		}
		if r := b.Send(ctx, "cmd_hang", nil, 5*time.Millisecond); r.Error != contract.Timeout {
			t.Errorf("got %+v", r)
		}
		if _, err := fakeaddon.Dial(ctx, b.URL(), fakeaddon.WithToken("bad")); err == nil {
			t.Error("bad token accepted")
		}
		silent, err := fakeaddon.Dial(ctx, b.URL(), fakeaddon.WithoutHello())
		if err != nil {
			t.Fatal(err)
		}
		<-silent.Done()
		_ = silent.Close()

		a2, err := fakeaddon.Dial(ctx, b.URL(), fakeaddon.WithToken("t")) // replaces a1
		if err != nil {
			t.Fatal(err)
		}
		for range 3 {
			<-done
		}
		<-a1.Done()
		_ = a1.Close()
		if err := a2.Ping(ctx); err != nil {
			t.Error(err)
		}
		a2.Silence("cmd_hang")
		go func() { done <- b.Send(ctx, "cmd_hang", nil, 10*time.Second) }()
		if _, err := a2.WaitCommand(ctx, "cmd_hang"); err != nil {
			t.Fatal(err)
		}
		if err := b.Close(); err != nil {
			t.Error(err)
		}
		<-done
		_ = a2.Close()
	}()

	deadline := time.Now().Add(5 * time.Second)
	for runtime.NumGoroutine() > base {
		if time.Now().After(deadline) {
			buf := make([]byte, 1<<20)
			n := runtime.Stack(buf, true)
			t.Fatalf("%d goroutines, started with %d:\n%s", runtime.NumGoroutine(), base, relevant(string(buf[:n])))
		}
		time.Sleep(5 * time.Millisecond)
	}
}

// relevant keeps the goroutine dumps that mention this module or the
// websocket library.
func relevant(dump string) string {
	var keep []string
	for _, g := range strings.Split(dump, "\n\n") {
		if strings.Contains(g, "godot-mcp") || strings.Contains(g, "coder/websocket") || strings.Contains(g, "net/http") {
			keep = append(keep, g)
		}
	}
	return strings.Join(keep, "\n\n")
}
