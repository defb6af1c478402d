package sdk

import (
	"context"
	"encoding/json"
	"net"
	"path/filepath"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"google.golang.org/grpc"
	"google.golang.org/grpc/credentials/insecure"

	"github.com/godot-mcp/godot-mcp/internal/pluginproto"
)

// unaryHost is a host of an SDK release before SendStream: Send only.
type unaryHost struct {
	pluginproto.UnimplementedHostServer
	sends atomic.Int64
}

func (h *unaryHost) Send(_ context.Context, req *pluginproto.SendRequest) (*pluginproto.SendResponse, error) {
	h.sends.Add(1)
	return &pluginproto.SendResponse{Ok: true, ResultJson: []byte(`{"via":"unary","cmd":"` + req.GetCommand() + `","call":"` + req.GetCallId() + `"}`)}, nil
}

// streamHost answers SendStream; cmd_block waits until its Send's context
// ends and reports why.
type streamHost struct {
	unaryHost
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

func serveHost(t *testing.T, srv pluginproto.HostServer) *grpcBackend {
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
	b := newGRPCBackend(pluginproto.NewHostClient(conn))
	t.Cleanup(b.close)
	return b
}

// Against a host without SendStream every Send still arrives, as unary calls.
func TestSendFallsBackToUnary(t *testing.T) {
	h := &unaryHost{}
	b := serveHost(t, h)
	for i := range 3 {
		raw, err := b.Send(context.Background(), "c1", "cmd_x", json.RawMessage(`{}`), time.Second)
		if err != nil || string(raw) != `{"via":"unary","cmd":"cmd_x","call":"c1"}` {
			t.Fatalf("send %d: %s, %v", i, raw, err)
		}
	}
	if h.sends.Load() != 3 {
		t.Fatalf("the host got %d Sends, want 3 (none lost to the stream attempt)", h.sends.Load())
	}
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
	if h.streamed.Load() != 20 || h.sends.Load() != 0 {
		t.Fatalf("streamed %d, unary %d; want 20 and 0", h.streamed.Load(), h.sends.Load())
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
		if e := AsError(err); err == nil || e.Code != CodeInternalError {
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
