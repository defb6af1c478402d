package mcpserver

import (
	"bufio"
	"bytes"
	"context"
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strconv"
	"strings"
	"sync"

	"github.com/mark3labs/mcp-go/mcp"
	"github.com/mark3labs/mcp-go/server"

	"github.com/godot-mcp/godot-mcp/internal/rawjson"
	"github.com/godot-mcp/godot-mcp/internal/workers"
)

// ServeStdio serves MCP over newline-delimited JSON-RPC on in/out until in
// closes or ctx ends.
//
// mcp-go's stdio server handles the session: the handshake, lists,
// notifications (cancellation included), answers to the server's own
// requests. tools/call requests, the hot path, are read here and handed to
// mcp-go's HandleMessage directly, because its stdio layer decodes every
// line five more times (as a response to each kind of server request, then
// for the method) and re-encodes the result, which for a multi-megabyte
// script or image costs seconds. The call keeps all of mcp-go's semantics
// (protocol eras, result metadata, cancellation, approvals); only the
// megabytes do not go through it: the arguments reach the tool as the raw
// bytes read here (mcp-go sees an empty object in their place), and a raw
// structured result is spliced into the encoded answer.
func (s *Server) ServeStdio(ctx context.Context, in io.Reader, out io.Writer, errLog io.Writer) error {
	w := &lineWriter{w: out, subs: &stdioSubscriptions{}, ledger: newDeliveryLedger()}
	stdio := server.NewStdioServer(s.mcp)
	stdio.SetErrorLogger(newStdLogger(errLog))
	// mcp-go's own tool-call workers (5 by default) only see the odd
	// tools/call serve leaves to it; every other call runs on fast.workers,
	// as many at once as are in flight.
	// The session's context (it carries the client session that progress,
	// log and approval notifications are sent through) is what fast calls
	// run under.
	session := make(chan context.Context, 1)
	stdio.SetContextFunc(func(c context.Context) context.Context {
		c = withLedger(c, w.ledger)
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

	fast := &fastCalls{s: s, w: w, workers: workers.New()}
	var sessionCtx context.Context
	select {
	case sessionCtx = <-session:
	case err := <-listened:
		return err
	}
	fastCtx, cancelFast := context.WithCancel(sessionCtx)
	defer cancelFast()
	fast.ctx = fastCtx

	// Read on a goroutine of its own: when ctx ends (SIGTERM) mcp-go's
	// Listen returns while stdin may stay open, and ServeStdio must return
	// then too. The reader ends with stdin, or at its next line.
	reader := bufio.NewReaderSize(in, 64<<10)
	readDone := make(chan error, 1)
	go func() {
		for {
			line, err := readLine(reader, maxStdioLine)
			if tooLong, ok := err.(*lineTooLongError); ok {
				s.refuseLongLine(w, tooLong)
				continue
			}
			w.subs.observe(line)
			if answer := badPromptArguments(line); answer != nil {
				_, _ = w.Write(answer)
			} else if len(line) > 0 && !fast.serve(line) {
				if _, werr := pw.Write(line); werr != nil {
					readDone <- nil // mcp-go stopped reading: the session is over
					return
				}
			}
			if err != nil {
				if err == io.EOF {
					err = nil
				}
				readDone <- err
				return
			}
		}
	}()
	var err, readErr error
	select {
	case readErr = <-readDone:
		pw.Close()
		err = <-listened
	case err = <-listened:
	}
	fast.close()
	cancelFast()
	fast.wg.Wait()
	fast.workers.Stop()
	if readErr != nil && err == nil {
		err = readErr
	}
	return err
}

// lineWriter serializes whole messages: mcp-go and the fast path each write
// one message (with its newline) per Write call.
type lineWriter struct {
	mu   sync.Mutex
	w    io.Writer
	subs *stdioSubscriptions // nil: lines go out as written
	// ledger counts the call notifications written (delivery.go); nil: none.
	ledger *deliveryLedger
}

// Write writes one line (every writer here writes a whole line at a time),
// tagged or held back by the client's subscriptions (stdio_subscriptions.go).
func (l *lineWriter) Write(p []byte) (int, error) {
	lines := [][]byte{p}
	if l.subs != nil {
		lines = l.subs.rewrite(p)
	}
	l.mu.Lock()
	defer l.mu.Unlock()
	for _, line := range lines {
		if _, err := l.w.Write(line); err != nil {
			return 0, err
		}
	}
	if l.ledger != nil {
		l.ledger.observe(p)
	}
	return len(p), nil
}

// fastCalls serves tools/call requests without mcp-go's stdio layer.
type fastCalls struct {
	s   *Server
	w   io.Writer
	ctx context.Context // the stdio session's, ended when ServeStdio ends
	wg  sync.WaitGroup

	mu     sync.Mutex // orders serve's wg.Add before close's wg.Wait
	closed bool

	workers *workers.Pool
}

// close makes serve take no more calls.
func (f *fastCalls) close() {
	f.mu.Lock()
	f.closed = true
	f.mu.Unlock()
}

// sliceToolCall recognizes a plain tools/call request and cuts its
// arguments out: slim is the request with {} in their place (what mcp-go
// reads), call carries the raw arguments beside it. ok is false for any
// other message, and for calls whose keys encoding/json might read
// differently from an exact match (case variants).
func sliceToolCall(line []byte) (slim []byte, call *stdioCall, id []byte, ok bool) {
	msg, err := rawjson.Object(line)
	if err != nil || !onlyKeys(msg, "jsonrpc", "id", "method", "params") {
		return nil, nil, nil, false
	}
	jsonrpc, _ := rawjson.Get(msg, "jsonrpc")
	method, _ := rawjson.Get(msg, "method")
	id, hasID := rawjson.Get(msg, "id")
	if string(jsonrpc) != `"2.0"` || string(method) != `"tools/call"` || !hasID || len(id) == 0 ||
		(id[0] != '"' && id[0] != '-' && (id[0] < '0' || id[0] > '9')) {
		return nil, nil, nil, false
	}
	rawParams, _ := rawjson.Get(msg, "params")
	params, err := rawjson.Object(rawParams)
	if err != nil {
		return nil, nil, nil, false
	}
	for _, m := range params {
		if m.Key != "arguments" && strings.EqualFold(m.Key, "arguments") {
			return nil, nil, nil, false
		}
	}
	call = &stdioCall{}
	slim = line
	if args, ok := rawjson.Get(params, "arguments"); ok && string(args) != "null" {
		call.args = args
		// args is a subslice of line: swap it for {} in what mcp-go reads.
		start := cap(line) - cap(args)
		slim = make([]byte, 0, len(line)-len(args)+2)
		slim = append(slim, line[:start]...)
		slim = append(slim, "{}"...)
		slim = append(slim, line[start+len(args):]...)
	}
	return slim, call, id, true
}

// serve starts line as a tools/call and reports whether it did; other
// lines, and calls whose keys encoding/json might read differently from an
// exact match (case variants), are left to mcp-go's stdio server.
func (f *fastCalls) serve(line []byte) bool {
	slim, call, id, ok := sliceToolCall(line)
	if !ok {
		return false
	}
	call.token = f.s.spliceToken()
	f.mu.Lock()
	if f.closed {
		f.mu.Unlock()
		return false
	}
	f.wg.Add(1)
	f.mu.Unlock()
	f.s.fastServed.Add(1)
	f.workers.Run(func() {
		defer f.wg.Done()
		ctx := context.WithValue(f.ctx, stdioCallKey{}, call)
		out, err := encodeResponse(f.handle(ctx, slim, id), call)
		if err != nil {
			f.s.log.Error("tool call answer could not be encoded", "err", err)
			out = []byte(fmt.Sprintf(`{"jsonrpc":"2.0","id":%s,"error":{"code":%d,"message":%q}}`+"\n", id, mcp.INTERNAL_ERROR, "godot-mcp could not encode the answer: "+err.Error()))
		}
		f.w.Write(out)
	})
	return true
}

// handle is HandleMessage with the recovery mcp-go's stdio server gives.
func (f *fastCalls) handle(ctx context.Context, msg, id []byte) (resp mcp.JSONRPCMessage) {
	defer func() {
		if p := recover(); p != nil {
			f.s.log.Error("tool call panicked", "panic", fmt.Sprint(p))
			var rid any
			_ = json.Unmarshal(id, &rid)
			resp = mcp.NewJSONRPCError(mcp.NewRequestId(rid), mcp.INTERNAL_ERROR, fmt.Sprintf("internal panic: %v", p), nil)
		}
	}()
	return f.s.mcp.HandleMessage(ctx, msg)
}

// stdioCall carries one fast call's big parts around mcp-go: the raw
// arguments in, the raw structured result out.
type stdioCall struct {
	args       json.RawMessage // nil: take mcp-go's arguments
	token      string          // the placeholder the result stands in as
	structured json.RawMessage // set by the handler
}

type stdioCallKey struct{}

func stdioCallFrom(ctx context.Context) *stdioCall {
	c, _ := ctx.Value(stdioCallKey{}).(*stdioCall)
	return c
}

// deferStructured moves a raw structured result out of r into the call,
// leaving a placeholder string that encodeResponse replaces.
func (c *stdioCall) deferStructured(r *mcp.CallToolResult) {
	raw, ok := r.StructuredContent.(json.RawMessage)
	if !ok {
		return
	}
	c.structured = raw
	r.StructuredContent = json.RawMessage(strconv.Quote(c.token))
}

// spliceToken is a placeholder no result can contain by chance.
func (s *Server) spliceToken() string {
	s.spliceOnce.Do(func() {
		var b [12]byte
		_, _ = rand.Read(b[:])
		s.splicePrefix = "godot-mcp-result-" + hex.EncodeToString(b[:]) + "-"
	})
	return s.splicePrefix + strconv.FormatUint(s.spliceSeq.Add(1), 10)
}

// encodeResponse encodes mcp-go's answer as one line, with the call's raw
// structured result in place of its placeholder.
func encodeResponse(resp mcp.JSONRPCMessage, call *stdioCall) ([]byte, error) {
	b, err := json.Marshal(resp)
	if err != nil {
		return nil, err
	}
	if call.structured != nil {
		marker := []byte(`"structuredContent":` + strconv.Quote(call.token))
		i := bytes.Index(b, marker)
		if i < 0 {
			return nil, errors.New("the structured result's placeholder is missing from the answer")
		}
		out := make([]byte, 0, len(b)+len(call.structured))
		out = append(out, b[:i+len(`"structuredContent":`)]...)
		out = append(out, call.structured...)
		b = append(out, b[i+len(marker):]...)
	}
	return append(b, '\n'), nil
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
