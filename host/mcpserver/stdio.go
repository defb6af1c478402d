package mcpserver

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"sync"
	"time"

	"github.com/mark3labs/mcp-go/mcp"
	"github.com/mark3labs/mcp-go/server"

	"github.com/godot-mcp/godot-mcp/host/envelope"
	"github.com/godot-mcp/godot-mcp/host/safety"
	"github.com/godot-mcp/godot-mcp/internal/rawjson"
)

// ServeStdio serves MCP over newline-delimited JSON-RPC on in/out until in
// closes or ctx ends.
//
// mcp-go's stdio server handles the session: the handshake, lists,
// notifications, answers to the server's own requests. Plain tools/call
// requests, the hot path, are served here directly: mcp-go decodes every
// message five to eight times (as a response to each kind of server request,
// as a request, for protocol metadata, then the call) and re-encodes the
// result, which for a multi-megabyte script or image costs seconds. A call
// takes the fast path only when it carries nothing but name, arguments and
// a progress token, names a registered tool and cannot need elicitation;
// anything else goes to mcp-go unchanged.
func (s *Server) ServeStdio(ctx context.Context, in io.Reader, out io.Writer, errLog io.Writer) error {
	w := &lineWriter{w: out}
	stdio := server.NewStdioServer(s.mcp)
	stdio.SetErrorLogger(newStdLogger(errLog))
	// Tool calls wait on the editor, not the CPU: let many be in flight
	// (mcp-go's default is 5 workers, which would queue a busy agent's calls).
	server.WithWorkerPoolSize(100)(stdio)
	server.WithQueueSize(10000)(stdio)
	// The session's context (it carries the client session that progress,
	// log and approval notifications are sent through) is what fast calls
	// run under.
	session := make(chan context.Context, 1)
	stdio.SetContextFunc(func(c context.Context) context.Context {
		select {
		case session <- c:
		default:
		}
		return c
	})
	pr, pw := io.Pipe()
	listened := make(chan error, 1)
	go func() {
		err := stdio.Listen(ctx, pr, w)
		pr.CloseWithError(errors.New("the MCP session ended"))
		listened <- err
	}()

	fast := &fastCalls{s: s, w: w, inflight: map[string]context.CancelFunc{}}
	var sessionCtx context.Context
	select {
	case sessionCtx = <-session:
	case err := <-listened:
		return err
	}
	fast.ctx = sessionCtx

	reader := bufio.NewReaderSize(in, 64<<10)
	var readErr error
	for {
		line, err := reader.ReadBytes('\n')
		if len(line) > 0 && !fast.serve(line) {
			if _, werr := pw.Write(line); werr != nil {
				break // mcp-go stopped reading: the session is over
			}
		}
		if err != nil {
			if err != io.EOF {
				readErr = err
			}
			break
		}
	}
	pw.Close()
	err := <-listened
	fast.cancelAll()
	fast.wg.Wait()
	fast.workers.stop()
	if readErr != nil && err == nil {
		err = readErr
	}
	return err
}

// lineWriter serializes whole messages: mcp-go and the fast path each write
// one message (with its newline) per Write call.
type lineWriter struct {
	mu sync.Mutex
	w  io.Writer
}

func (l *lineWriter) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.w.Write(p)
}

// fastCalls serves plain tools/call requests without mcp-go.
type fastCalls struct {
	s   *Server
	w   io.Writer
	ctx context.Context // the stdio session's
	wg  sync.WaitGroup

	mu       sync.Mutex
	inflight map[string]context.CancelFunc // by the request id's JSON

	workers workerPool
}

// workerPool runs calls on goroutines that outlive them: a fresh goroutine
// per call costs a stack that grows (copying) on every call, a measurable
// share of a sub-millisecond tool call. Idle workers wait for more work
// for a while, then exit, so an idle server holds none.
type workerPool struct {
	work chan func()
	done chan struct{}
	once sync.Once
}

func (p *workerPool) init() {
	p.once.Do(func() {
		p.work = make(chan func())
		p.done = make(chan struct{})
	})
}

// stop ends the idle workers; busy ones end after their call.
func (p *workerPool) stop() {
	p.init()
	close(p.done)
}

// workerIdle is how long an idle worker waits for more work.
const workerIdle = 10 * time.Second

func (p *workerPool) run(fn func()) {
	p.init()
	select {
	case p.work <- fn: // an idle worker takes it
	default:
		go p.worker(fn)
	}
}

func (p *workerPool) worker(fn func()) {
	idle := time.NewTimer(workerIdle)
	defer idle.Stop()
	for {
		fn()
		idle.Reset(workerIdle)
		select {
		case fn = <-p.work:
		case <-idle.C:
			return
		case <-p.done:
			return
		}
	}
}

// serve starts line as a fast call and reports whether it did. A
// notifications/cancelled line cancels a fast call it names and is passed on
// (mcp-go ignores ids it does not know). As with mcp-go, a cancelled call
// still answers, with whatever its tool made of the cancellation.
func (f *fastCalls) serve(line []byte) bool {
	msg, err := rawjson.Object(line)
	if err != nil {
		return false
	}
	jsonrpc, _ := rawjson.Get(msg, "jsonrpc")
	method, _ := rawjson.Get(msg, "method")
	if string(jsonrpc) != `"2.0"` {
		return false
	}
	switch string(method) {
	case `"tools/call"`:
	case `"notifications/cancelled"`:
		f.cancelled(msg)
		return false
	default:
		return false
	}
	id, ok := rawjson.Get(msg, "id")
	if !ok || !onlyKeys(msg, "jsonrpc", "id", "method", "params") || (len(id) == 0 || (id[0] != '"' && id[0] != '-' && (id[0] < '0' || id[0] > '9'))) {
		return false
	}
	rawParams, _ := rawjson.Get(msg, "params")
	params, err := rawjson.Object(rawParams)
	if err != nil || !onlyKeys(params, "name", "arguments", "_meta") {
		return false
	}
	rawName, _ := rawjson.Get(params, "name")
	var name string
	if json.Unmarshal(rawName, &name) != nil {
		return false
	}
	var progressToken mcp.ProgressToken
	if rawMeta, ok := rawjson.Get(params, "_meta"); ok {
		meta, err := rawjson.Object(rawMeta)
		if err != nil || !onlyKeys(meta, "progressToken") {
			return false // protocol metadata of newer revisions: mcp-go reads it
		}
		if tok, ok := rawjson.Get(meta, "progressToken"); ok {
			if progressToken, err = rawjson.Decode(tok, false); err != nil {
				return false
			}
		}
	}
	f.s.mu.RLock()
	reg := f.s.tools[name]
	f.s.mu.RUnlock()
	if reg == nil || (reg.def.Class == safety.Destructive && f.s.cfg.Approval == "elicit") {
		return false // unknown tools get mcp-go's error; elicitation needs its round trips
	}
	args, ok := rawjson.Get(params, "arguments")
	if !ok || string(args) == "null" {
		args = []byte("{}")
	}

	key := string(id)
	ctx, cancel := context.WithCancel(f.ctx)
	f.mu.Lock()
	if _, dup := f.inflight[key]; dup {
		f.mu.Unlock()
		cancel()
		return false // a reused id in flight: let mcp-go answer it
	}
	f.inflight[key] = cancel
	f.mu.Unlock()
	f.s.fastServed.Add(1)
	f.wg.Add(1)
	f.workers.run(func() {
		defer f.wg.Done()
		defer func() {
			f.mu.Lock()
			delete(f.inflight, key)
			f.mu.Unlock()
			cancel()
		}()
		res := f.run(ctx, reg, args, progressToken)
		out, err := encodeToolResponse(id, shape(res))
		if err != nil {
			out, _ = encodeToolResponse(id, shape(Fail(envelope.Errorf(envelope.InternalError, "The result could not be encoded: %v.", err))))
		}
		f.w.Write(out)
	})
	return true
}

// run is s.call with mcp-go's panic recovery.
func (f *fastCalls) run(ctx context.Context, reg *registered, args json.RawMessage, tok mcp.ProgressToken) (res Result) {
	defer func() {
		if p := recover(); p != nil {
			f.s.log.Error("tool panicked", "tool", reg.def.Name, "panic", fmt.Sprint(p))
			res = Fail(envelope.Errorf(envelope.InternalError, "%s panicked in the server: %v. This is a bug in godot-mcp; the server log has details.", reg.def.Name, p))
		}
	}()
	res, _ = f.s.call(ctx, reg, args, tok, nil)
	return res
}

// cancelled handles notifications/cancelled for a fast call.
func (f *fastCalls) cancelled(msg []rawjson.Member) {
	rawParams, _ := rawjson.Get(msg, "params")
	params, err := rawjson.Object(rawParams)
	if err != nil {
		return
	}
	id, ok := rawjson.Get(params, "requestId")
	if !ok {
		return
	}
	f.mu.Lock()
	cancel := f.inflight[string(id)]
	f.mu.Unlock()
	if cancel != nil {
		cancel()
	}
}

func (f *fastCalls) cancelAll() {
	f.mu.Lock()
	defer f.mu.Unlock()
	for _, cancel := range f.inflight {
		cancel()
	}
}

func onlyKeys(members []rawjson.Member, allowed ...string) bool {
	for _, m := range members {
		ok := false
		for _, a := range allowed {
			if m.Key == a {
				ok = true
				break
			}
		}
		if !ok {
			return false
		}
	}
	return true
}

// encodeToolResponse writes the JSON-RPC response line for a tool result as
// mcp-go would (members in its order), splicing a raw structured result in
// as is: it was validated when shaped and can be megabytes.
func encodeToolResponse(id []byte, r *mcp.CallToolResult) ([]byte, error) {
	content, err := json.Marshal(r.Content)
	if err != nil {
		return nil, err
	}
	var structured []byte
	if raw, ok := r.StructuredContent.(json.RawMessage); ok {
		structured = raw
	} else if r.StructuredContent != nil {
		if structured, err = json.Marshal(r.StructuredContent); err != nil {
			return nil, err
		}
	}
	var b bytes.Buffer
	b.Grow(len(id) + len(content) + len(structured) + 96)
	b.WriteString(`{"jsonrpc":"2.0","id":`)
	b.Write(id)
	b.WriteString(`,"result":{"content":`)
	b.Write(content)
	if r.IsError {
		b.WriteString(`,"isError":true`)
	}
	if structured != nil {
		b.WriteString(`,"structuredContent":`)
		b.Write(structured)
	}
	b.WriteString("}}\n")
	return b.Bytes(), nil
}
