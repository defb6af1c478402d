package pluginproto

import (
	"context"
	"sync"
	"time"

	"google.golang.org/grpc"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"

	"github.com/godot-mcp/godot-mcp/internal/workers"
)

// Mux carries calls as messages on one bidirectional stream instead of a
// unary RPC each: on a loopback link between processes a message on an open
// stream costs about half a unary call. The stream is opened on first use
// and again after it breaks; answers are matched to calls by seq, in any
// order.
type Mux[Req, Resp any] struct {
	// Open opens the stream (e.g. HostClient.SendStream).
	Open func(ctx context.Context, opts ...grpc.CallOption) (grpc.BidiStreamingClient[Req, Resp], error)
	// Cancel builds the message that cancels call seq.
	Cancel func(seq uint64) *Req
	// Seq reads an answer's seq.
	Seq func(*Resp) uint64

	mu      sync.Mutex // guards the fields below and stream.Send
	stream  grpc.BidiStreamingClient[Req, Resp]
	end     context.CancelFunc // ends stream
	closed  bool
	seq     uint64
	pending map[uint64]chan muxAnswer[Resp]
}

type muxAnswer[Resp any] struct {
	resp *Resp
	err  error
}

// errMuxClosed answers calls made after Close.
var errMuxClosed = status.Error(codes.Unavailable, "the stream is closed")

// Do sends the message build makes (given the call's seq and the time left
// to ctx's deadline in ms, 0 for none) and waits for its answer or for ctx.
// err is the stream's failure (a gRPC status) or ctx's error.
func (m *Mux[Req, Resp]) Do(ctx context.Context, build func(seq uint64, deadlineMs int64) *Req) (*Resp, error) {
	m.mu.Lock()
	if m.closed {
		m.mu.Unlock()
		return nil, errMuxClosed
	}
	if m.stream == nil {
		sctx, end := context.WithCancel(context.Background())
		st, err := m.Open(sctx)
		if err != nil {
			end()
			m.mu.Unlock()
			return nil, err
		}
		m.stream, m.end, m.pending = st, end, map[uint64]chan muxAnswer[Resp]{}
		go m.receive(st)
	}
	m.seq++
	seq := m.seq
	ch := make(chan muxAnswer[Resp], 1)
	m.pending[seq] = ch
	var deadlineMs int64
	if d, ok := ctx.Deadline(); ok {
		deadlineMs = max(time.Until(d).Milliseconds(), 1)
	}
	st := m.stream
	// A failed Send means the stream ended; why reaches ch from receive.
	_ = st.Send(build(seq, deadlineMs))
	m.mu.Unlock()
	select {
	case a := <-ch:
		return a.resp, a.err
	case <-ctx.Done():
		m.mu.Lock()
		if m.stream == st {
			_ = st.Send(m.Cancel(seq))
		}
		delete(m.pending, seq)
		m.mu.Unlock()
		return nil, ctx.Err()
	}
}

// receive hands answers to their callers until the stream ends.
func (m *Mux[Req, Resp]) receive(st grpc.BidiStreamingClient[Req, Resp]) {
	for {
		a, err := st.Recv()
		if err != nil {
			m.broken(st, err)
			return
		}
		m.mu.Lock()
		ch := m.pending[m.Seq(a)]
		delete(m.pending, m.Seq(a))
		m.mu.Unlock()
		if ch != nil {
			ch <- muxAnswer[Resp]{resp: a}
		}
	}
}

// broken fails the calls waiting on st and lets the next call open a new one.
func (m *Mux[Req, Resp]) broken(st grpc.BidiStreamingClient[Req, Resp], err error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	if m.stream != st {
		return
	}
	for seq, ch := range m.pending {
		ch <- muxAnswer[Resp]{err: err}
		delete(m.pending, seq)
	}
	m.end()
	m.stream, m.end = nil, nil
}

// Close ends the stream; calls waiting on it fail, and later ones.
func (m *Mux[Req, Resp]) Close() {
	m.mu.Lock()
	defer m.mu.Unlock()
	m.closed = true
	if m.end != nil {
		m.end()
	}
}

// ServeMux answers the calls arriving on stream, each on its own goroutine
// (as gRPC runs unary calls; the goroutines are kept for the next calls, see
// workers) under a context that ends at the call's
// deadline, on its cancel message, or when the stream ends. parse reads a
// message's seq, whether it is a cancellation and its deadline in ms (0:
// none); handle answers one call, with an answer carrying the same seq. It
// returns when the stream ends, after every call has answered or given up.
func ServeMux[Req, Resp any](stream grpc.BidiStreamingServer[Req, Resp], parse func(*Req) (seq uint64, cancel bool, deadlineMs int64), handle func(ctx context.Context, seq uint64, req *Req) *Resp) error {
	ctx := stream.Context()
	var (
		mu       sync.Mutex // guards inflight and stream.Send
		inflight = map[uint64]*context.CancelFunc{}
		wg       sync.WaitGroup
		pool     = workers.New() // calls run on kept goroutines (see package workers)
	)
	defer func() {
		mu.Lock()
		for _, cancel := range inflight {
			(*cancel)()
		}
		mu.Unlock()
		wg.Wait()
		pool.Stop()
	}()
	for {
		req, err := stream.Recv()
		if err != nil {
			return nil // the caller closed the stream, or it broke: its calls are cancelled
		}
		seq, isCancel, deadlineMs := parse(req)
		if isCancel {
			mu.Lock()
			if cancel := inflight[seq]; cancel != nil {
				(*cancel)()
			}
			mu.Unlock()
			continue
		}
		var callCtx context.Context
		var cancel context.CancelFunc
		if deadlineMs > 0 {
			callCtx, cancel = context.WithTimeout(ctx, time.Duration(deadlineMs)*time.Millisecond)
		} else {
			callCtx, cancel = context.WithCancel(ctx)
		}
		slot := &cancel
		mu.Lock()
		if old := inflight[seq]; old != nil {
			(*old)() // a reused seq: the caller gave up on the old call
		}
		inflight[seq] = slot
		mu.Unlock()
		wg.Add(1)
		pool.Run(func() {
			defer wg.Done()
			resp := handle(callCtx, seq, req)
			mu.Lock()
			defer mu.Unlock()
			if inflight[seq] == slot {
				delete(inflight, seq)
			}
			cancel()
			_ = stream.Send(resp)
		})
	}
}
