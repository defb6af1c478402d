package bridge_test

import (
	"bytes"
	"context"
	"encoding/json"
	"testing"
	"time"

	"github.com/godot-mcp/godot-mcp/host/bridge"
	"github.com/godot-mcp/godot-mcp/host/envelope"
	"github.com/godot-mcp/godot-mcp/sdk/sdktest/fakeaddon"
)

// idPlaceholder in a fuzz input is replaced by the id of the command that is
// pending when the frame is sent, so inputs can aim at the live waiter.
const idPlaceholder = "$ID"

// fuzzMaxFrame bounds generated frames. The bridge's 64 MiB limit (and the
// link drop past ReadLimit) is covered by the package's oversized-frame
// tests; generating such frames would make every iteration slow.
const fuzzMaxFrame = 1 << 20

// fuzzRotate is how many iterations one fake addon connection serves before
// it is replaced by a fresh one, which bounds what it records.
const fuzzRotate = 500

// fuzzLink is one bridge and its connected fake addon, shared by the
// iterations of one fuzz process.
type fuzzLink struct {
	b     *bridge.Bridge
	a     *fakeaddon.Addon
	count int
}

// FuzzBridgeFrames sends an arbitrary text frame from the editor while a
// Send is pending. The bridge must not panic and must keep the link; the
// pending Send resolves to an answer carrying its id (the frame's, when the
// frame answered it, else the proper answer sent right after); and a
// following Send with a proper answer succeeds.
//
// The seed corpus lives in testdata/fuzz/FuzzBridgeFrames; "$ID" in an
// input stands for the pending command's id.
func FuzzBridgeFrames(f *testing.F) {
	l := &fuzzLink{b: start(f)}
	l.a = l.dial(f)
	f.Cleanup(func() { _ = l.a.Close() })

	f.Fuzz(func(t *testing.T, frame []byte) {
		if len(frame) > fuzzMaxFrame {
			t.Skip("frame larger than the fuzz bound")
		}
		l.ensure(t)
		ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
		defer cancel()

		pending := make(chan envelope.Response, 1)
		const pendingTimeout = 5 * time.Second
		sent := time.Now()
		go func() { pending <- l.b.Send(ctx, "cmd_fuzz_pending", nil, pendingTimeout) }()
		cmd, err := l.a.WaitCommand(ctx, "cmd_fuzz_pending")
		if err != nil {
			t.Fatalf("the pending command never reached the addon: %v", err)
		}
		id := cmd.ID

		raw := bytes.ReplaceAll(frame, []byte(idPlaceholder), []byte(id))
		if err := l.a.SendRaw(ctx, raw); err != nil {
			t.Fatalf("SendRaw(%q): %v", raw, err)
		}
		answer, _ := envelope.Marshal(envelope.Response{ID: id, OK: true, Result: json.RawMessage(`{"answered":"properly"}`)})
		if err := l.a.SendRaw(ctx, answer); err != nil {
			t.Fatalf("the link dropped after the frame %q: SendRaw of the proper answer: %v", raw, err)
		}

		r := <-pending
		if r.ID != id {
			t.Fatalf("frame %q: the pending Send (id %s) resolved to %+v", raw, id, r)
		}
		// The frame may answer the pending command itself (with any code
		// and hint: the editor's answer is passed through verbatim), but
		// the bridge must not lose the proper answer that followed it.
		if waited := time.Since(sent); waited >= pendingTimeout {
			t.Fatalf("frame %q: the pending Send waited %s for an answer that was sent: %+v", raw, waited, r)
		}
		if e := r.Err(); (e == nil) != r.OK || e != nil && !e.Code.Valid() {
			t.Fatalf("frame %q: the pending Send resolved to %+v, whose Err() is %+v", raw, r, e)
		}

		echo := l.b.Send(ctx, "cmd_fuzz_echo", json.RawMessage(`{"after":"fuzz"}`), 5*time.Second)
		if !echo.OK || string(echo.Result) != `{"after":"fuzz"}` {
			t.Fatalf("frame %q: the next Send failed: %+v", raw, echo)
		}
		select {
		case <-l.a.Done():
			t.Fatalf("frame %q: the bridge closed the link (%v)", raw, l.a.Err())
		default:
		}
		if !l.b.Status().Connected {
			t.Fatalf("frame %q: the bridge reports no editor connected", raw)
		}
	})
}

// dial connects a fresh fake addon that leaves cmd_fuzz_pending unanswered
// (the fuzzer answers it) and echoes cmd_fuzz_echo.
func (l *fuzzLink) dial(t testing.TB) *fakeaddon.Addon {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	a, err := fakeaddon.Dial(ctx, l.b.URL())
	if err != nil {
		t.Fatalf("Dial: %v", err)
	}
	a.Silence("cmd_fuzz_pending")
	a.Handle("cmd_fuzz_echo", fakeaddon.Echo)
	return a
}

// ensure replaces the addon every fuzzRotate iterations, and after a
// failed iteration dropped the link, so one failure does not cascade into
// every later input.
func (l *fuzzLink) ensure(t *testing.T) {
	t.Helper()
	l.count++
	dropped := false
	select {
	case <-l.a.Done():
		dropped = true
	default:
	}
	if !dropped && l.count%fuzzRotate != 0 {
		return
	}
	old := l.a
	l.a = l.dial(t) // active as soon as its hello is answered; replaces old
	_ = old.Close()
}
