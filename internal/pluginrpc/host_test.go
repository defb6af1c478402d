package pluginrpc

import (
	"context"
	"encoding/json"
	"fmt"
	"log/slog"
	"net"
	"path/filepath"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"google.golang.org/grpc"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/credentials/insecure"
	"google.golang.org/grpc/status"

	"github.com/godot-mcp/godot-mcp/internal/pluginproto"
	"github.com/godot-mcp/godot-mcp/internal/plugmodel"
	"github.com/godot-mcp/godot-mcp/sdk/contract"
)

// streamHost answers SendStream; cmd_block waits until its Send's context
// ends and reports why.
type streamHost struct {
	pluginproto.UnimplementedHostServer
	streamed  atomic.Int64
	mu        sync.Mutex
	deadlines []time.Duration
	ended     chan error
}

func (h *streamHost) SendStream(stream pluginproto.Host_SendStreamServer) error {
	return pluginproto.ServeMux(stream,
		func(r *pluginproto.SendStreamRequest) (uint64, bool, int64) {
			return r.GetSeq(), r.GetCancel(), r.GetDeadlineMs()
		},
		func(ctx context.Context, seq uint64, r *pluginproto.SendStreamRequest) *pluginproto.SendStreamResponse {
			h.streamed.Add(1)
			h.mu.Lock()
			h.deadlines = append(h.deadlines, time.Duration(r.GetDeadlineMs())*time.Millisecond)
			h.mu.Unlock()
			if r.GetSend().GetCommand() == "cmd_block" {
				<-ctx.Done()
				h.ended <- ctx.Err()
			}
			if r.GetSend().GetCallId() != "c1" {
				return &pluginproto.SendStreamResponse{Seq: seq, Response: &pluginproto.SendResponse{Ok: false, Error: "VALIDATION_ERROR", Hint: "no call id: " + r.GetSend().GetCallId()}}
			}
			return &pluginproto.SendStreamResponse{Seq: seq, Response: &pluginproto.SendResponse{Ok: true, ResultJson: []byte(`{"via":"stream"}`)}}
		})
}

func serveHost(t *testing.T, srv pluginproto.HostServer) *hostClient {
	t.Helper()
	sock := filepath.Join(t.TempDir(), "host.sock")
	ln, err := net.Listen("unix", sock)
	if err != nil {
		t.Fatal(err)
	}
	s := grpc.NewServer(pluginproto.ServerOptions()...)
	pluginproto.RegisterHostServer(s, srv)
	go s.Serve(ln)
	t.Cleanup(s.Stop)
	conn, err := grpc.NewClient("unix://"+sock, append(pluginproto.DialOptions(), grpc.WithTransportCredentials(insecure.NewCredentials()))...)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { conn.Close() })
	b := newHostClient(pluginproto.NewHostClient(conn))
	t.Cleanup(b.close)
	return b
}

// Sends go on the stream, concurrently, with the call's deadline; a
// cancelled call cancels its Send on the host.
func TestSendStream(t *testing.T) {
	h := &streamHost{ended: make(chan error, 1)}
	b := serveHost(t, h)
	var wg sync.WaitGroup
	for range 20 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
			defer cancel()
			raw, err := b.Send(ctx, "c1", "cmd_x", json.RawMessage(`{}`), time.Second)
			if err != nil || string(raw) != `{"via":"stream"}` {
				t.Errorf("send: %s, %v", raw, err)
			}
		}()
	}
	wg.Wait()
	if h.streamed.Load() != 20 {
		t.Fatalf("streamed %d; want 20", h.streamed.Load())
	}
	h.mu.Lock()
	for _, d := range h.deadlines {
		if d <= 4*time.Second || d > 5*time.Second {
			t.Errorf("the host saw a deadline of %v, want the call's 5 s", d)
		}
	}
	h.mu.Unlock()

	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() {
		_, err := b.Send(ctx, "c1", "cmd_block", json.RawMessage(`{}`), time.Second)
		done <- err
	}()
	for h.streamed.Load() != 21 {
		time.Sleep(time.Millisecond)
	}
	cancel()
	select {
	case err := <-done:
		if e := contract.AsError(err); err == nil || e.Code != contract.InternalError {
			t.Fatalf("cancelled Send returned %v", err)
		}
	case <-time.After(5 * time.Second):
		t.Fatal("a cancelled Send did not return")
	}
	select {
	case err := <-h.ended:
		if err != context.Canceled {
			t.Fatalf("the host's Send ended with %v, want context.Canceled", err)
		}
	case <-time.After(5 * time.Second):
		t.Fatal("the cancellation did not reach the host")
	}
	// The stream still serves after a cancellation.
	if raw, err := b.Send(context.Background(), "c1", "cmd_x", json.RawMessage(`{}`), time.Second); err != nil || string(raw) != `{"via":"stream"}` {
		t.Fatalf("send after a cancel: %s, %v", raw, err)
	}
}

// fakeHost is a plugmodel.Host answering from a function.
type fakeHost struct {
	send func(callID, command string, params json.RawMessage) (json.RawMessage, error)
	mu   sync.Mutex
	logs []string
}

func (f *fakeHost) Send(_ context.Context, callID, command string, params json.RawMessage, _ time.Duration) (json.RawMessage, error) {
	return f.send(callID, command, params)
}

func (f *fakeHost) Progress(context.Context, string, float64, float64, string) error { return nil }

func (f *fakeHost) Log(ctx context.Context, level slog.Level, message string, attrs []slog.Attr) error {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.logs = append(f.logs, fmt.Sprintf("%s %s %s %v", plugmodel.CallID(ctx), level, message, attrs))
	return nil
}

// A Send's answer crosses the host server and the host client unchanged:
// a result, an empty result ({}), an editor failure with its required
// field, and an unknown code (refused on the plugin's side).
func TestSendAnswersCrossUnchanged(t *testing.T) {
	h := &fakeHost{send: func(callID, command string, params json.RawMessage) (json.RawMessage, error) {
		switch command {
		case "cmd_ok":
			return json.RawMessage(`{"x":1,"call":"` + callID + `","p":` + string(params) + `}`), nil
		case "cmd_empty":
			return nil, nil
		case "cmd_fail":
			return nil, contract.Precondition(contract.RequireActiveScene, "open a scene")
		}
		return nil, &contract.Error{Code: "WAT", Hint: "h"}
	}}
	b := serveHost(t, &hostServer{host: h})
	ctx := context.Background()
	if raw, err := b.Send(ctx, "c9", "cmd_ok", json.RawMessage(`{"a":2}`), 0); err != nil || string(raw) != `{"x":1,"call":"c9","p":{"a":2}}` {
		t.Fatalf("ok: %s, %v", raw, err)
	}
	if raw, err := b.Send(ctx, "c9", "cmd_empty", nil, 0); err != nil || string(raw) != `{}` {
		t.Fatalf("empty: %s, %v", raw, err)
	}
	_, err := b.Send(ctx, "c9", "cmd_fail", nil, 0)
	if e := contract.AsError(err); e == nil || e.Code != contract.PreconditionFailed || e.Required != "active_scene" || e.Hint != "open a scene" {
		t.Fatalf("fail: %+v", e)
	}
	_, err = b.Send(ctx, "c9", "cmd_wat", nil, 0)
	if e := contract.AsError(err); e == nil || e.Code != contract.InternalError || !strings.Contains(e.Hint, `unknown error code "WAT"`) {
		t.Fatalf("unknown code: %+v", e)
	}
	if err := b.Log(plugmodel.WithCallID(ctx, "c9"), slog.LevelWarn, "m", []slog.Attr{slog.Int("n", 3)}); err != nil {
		t.Fatal(err)
	}
	if len(h.logs) != 1 || h.logs[0] != "c9 WARN m [n=3]" {
		t.Fatalf("logs %q", h.logs)
	}
}

func TestTransportError(t *testing.T) {
	expired, cancel := context.WithTimeout(context.Background(), 0)
	defer cancel()
	cancelled, cancel2 := context.WithCancel(context.Background())
	cancel2()
	cases := []struct {
		name string
		ctx  context.Context
		err  error
		code contract.ErrorCode
		hint string
	}{
		{"deadline", expired, status.Error(codes.DeadlineExceeded, "x"), contract.Timeout, "deadline"},
		{"cancelled", cancelled, status.Error(codes.Canceled, "x"), contract.InternalError, "cancelled"},
		{"host gone", context.Background(), status.Error(codes.Unavailable, "conn closed"), contract.InternalError, "did not take cmd_x: conn closed"},
	}
	for _, tc := range cases {
		if e := transportError(tc.ctx, "cmd_x", tc.err); e.Code != tc.code || !strings.Contains(e.Hint, tc.hint) {
			t.Errorf("%s: %+v", tc.name, e)
		}
	}
}
