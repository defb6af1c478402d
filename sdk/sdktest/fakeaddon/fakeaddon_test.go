package fakeaddon_test

import (
	"context"
	"errors"
	"fmt"
	"testing"
	"time"

	"github.com/godot-mcp/godot-mcp/host/bridge"
	"github.com/godot-mcp/godot-mcp/host/envelope"
	"github.com/godot-mcp/godot-mcp/sdk/sdktest/fakeaddon"
)

func newBridge(t testing.TB) *bridge.Bridge {
	b, err := bridge.New(bridge.Options{URL: "ws://127.0.0.1:0", ServerVersion: "test"})
	if err != nil {
		t.Fatal(err)
	}
	if err := b.Start(context.Background()); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = b.Close() })
	return b
}

func TestWaitCommandCursor(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	b := newBridge(t)
	a, err := fakeaddon.Dial(ctx, b.URL())
	if err != nil {
		t.Fatal(err)
	}
	defer a.Close()
	a.HandleResult("cmd_a", nil)
	for i := range 3 {
		if r := b.Send(ctx, "cmd_a", map[string]int{"i": i}, time.Second); !r.OK {
			t.Fatalf("Send: %+v", r)
		}
	}
	for i := range 3 {
		c, err := a.WaitCommand(ctx, "cmd_a")
		if err != nil {
			t.Fatal(err)
		}
		if want := fmt.Sprintf(`{"i":%d}`, i); string(c.Params) != want {
			t.Errorf("WaitCommand #%d = %s, want %s", i, c.Params, want)
		}
	}
	short, cancel2 := context.WithTimeout(ctx, 10*time.Millisecond)
	defer cancel2()
	if _, err := a.WaitCommand(short, "cmd_a"); !errors.Is(err, context.DeadlineExceeded) {
		t.Errorf("fourth WaitCommand: %v", err)
	}
	// ServerHello does not consume the push for WaitPush.
	if _, err := a.ServerHello(ctx); err != nil {
		t.Fatal(err)
	}
	if _, err := a.WaitPush(ctx, envelope.CmdServerHello); err != nil {
		t.Fatal(err)
	}
}

func TestWaitAfterClose(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	b := newBridge(t)
	a, err := fakeaddon.Dial(ctx, b.URL())
	if err != nil {
		t.Fatal(err)
	}
	_ = b.Close()
	if _, err := a.WaitCommand(ctx, "cmd_never"); err == nil || errors.Is(err, context.DeadlineExceeded) {
		t.Errorf("WaitCommand on a closed link should fail at once: %v", err)
	}
	if err := a.Ping(ctx); err == nil {
		t.Error("Ping on a closed link succeeded")
	}
	_ = a.Close()
	_ = a.Close() // idempotent
}

func TestDialRefusedHTTP(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	b := newBridge(t)
	_, err := fakeaddon.Dial(ctx, b.URL(), fakeaddon.WithHeader("Origin", "https://example.com"))
	var de *fakeaddon.DialError
	if !errors.As(err, &de) || de.StatusCode != 403 {
		t.Fatalf("err = %v", err)
	}
}

// Example shows a test driving the bridge against the fake addon.
func Example() {
	ctx := context.Background()
	b, _ := bridge.New(bridge.Options{URL: "ws://127.0.0.1:0"})
	_ = b.Start(ctx)
	defer b.Close()

	a, err := fakeaddon.Dial(ctx, b.URL(), fakeaddon.WithHello(envelope.EditorHello{ProjectDir: "/game"}))
	if err != nil {
		panic(err)
	}
	defer a.Close()
	a.HandleResult("cmd_get_scene", map[string]string{"root": "Main"})
	a.Silence("cmd_hang")

	r := b.Send(ctx, "cmd_get_scene", nil, time.Second)
	fmt.Println(r.OK, string(r.Result))
	r = b.Send(ctx, "cmd_nope", nil, time.Second)
	fmt.Println(r.Error)
	r = b.Send(ctx, "cmd_hang", nil, 10*time.Millisecond)
	fmt.Println(r.Error)
	fmt.Println(b.Status().Peer.ProjectDir, len(a.Received()))
	// Output:
	// true {"root":"Main"}
	// INTERNAL_ERROR
	// TIMEOUT
	// /game 3
}
