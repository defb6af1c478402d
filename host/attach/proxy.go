package attach

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"strings"
	"sync"
	"time"

	"github.com/godot-mcp/godot-mcp/internal/rawjson"
)

// Proxy serves one MCP client (its stdio) through an owner's endpoint.
type Proxy struct {
	Info  Info
	Lines *Lines    // the client's messages
	Out   io.Writer // the client's stdout; only whole JSON-RPC messages are written
	Log   *slog.Logger
	// Init, when set, is the client's initialize request, already answered
	// by an earlier server: Run opens its session on the owner with it and
	// does not answer it again (re-attaching after the previous owner
	// exited). Initialized says the client also sent
	// notifications/initialized.
	Init        []byte
	Initialized bool

	client *http.Client
	out    *msgWriter

	mu          sync.Mutex // guards the session fields
	sessionID   string
	protocol    string
	streamOnce  sync.Once
	reinitMu    sync.Mutex
	initialized bool

	goneOnce sync.Once
	gone     chan struct{}
	goneErr  error
	wg       sync.WaitGroup
}

// OwnerGoneError is Run's answer when the owner went away: its attach
// endpoint stopped answering. The client's calls in flight were answered
// with a JSON-RPC error; the messages it has not sent yet are still in
// Lines. Init and Initialized let the next server resume the session.
type OwnerGoneError struct {
	Owner       Info
	Init        []byte
	Initialized bool
	Err         error
}

func (e *OwnerGoneError) Error() string {
	return fmt.Sprintf("the godot-mcp server this one was attached to (pid %d, bridge %s) is gone: %v", e.Owner.PID, e.Owner.BridgeURL, e.Err)
}

func (e *OwnerGoneError) Unwrap() error { return e.Err }

// OwnerGoneCode is the JSON-RPC error code of a call the owner did not
// answer because it exited (in the implementation-defined server range).
const OwnerGoneCode = -32001

// Run relays until the client's input ends (nil, or the read error), ctx
// ends (nil), or the owner goes away (*OwnerGoneError).
func (p *Proxy) Run(ctx context.Context) error {
	if p.Log == nil {
		p.Log = slog.New(slog.DiscardHandler)
	}
	p.client = HTTPClient(p.Info)
	defer p.client.CloseIdleConnections()
	p.out = &msgWriter{w: p.Out}
	p.gone = make(chan struct{})
	ctx, cancel := context.WithCancel(ctx)
	defer func() {
		cancel()
		p.wg.Wait()
	}()

	if p.Init != nil {
		if err := p.initialize(ctx, p.Init, nil); err != nil {
			return p.goneError(err, cancel)
		}
		if p.Initialized {
			p.forward(ctx, []byte(`{"jsonrpc":"2.0","method":"notifications/initialized"}`), nil)
			p.startStream(ctx)
		}
	}
	for {
		select {
		case <-ctx.Done():
			p.closeSession()
			return nil
		case <-p.gone:
			return p.goneError(p.goneErr, cancel)
		case <-p.Lines.Done():
			cancel()
			p.wg.Wait()
			p.closeSession()
			return p.Lines.Err()
		case line := <-p.Lines.C():
			p.handle(ctx, line)
		}
	}
}

// goneWait bounds how long Run waits, once the owner is gone, for the
// calls in flight to end by themselves.
const goneWait = 2 * time.Second

func (p *Proxy) goneError(err error, cancel context.CancelFunc) error {
	// Calls in flight end with the endpoint; wait for their answers (each
	// writes its own error) so that none is written after Run returns. The
	// event stream, or a connection some other process holds open, would
	// not end by itself: after goneWait everything is cancelled (a call
	// cancelled so answers that the owner is gone). Waiting without
	// cancelling hung the proxy for good (#24.3).
	done := make(chan struct{})
	go func() {
		p.wg.Wait()
		close(done)
	}()
	select {
	case <-done:
	case <-time.After(goneWait):
		cancel()
		<-done
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	return &OwnerGoneError{Owner: p.Info, Init: p.Init, Initialized: p.initialized, Err: err}
}

func (p *Proxy) markGone(err error) {
	p.goneOnce.Do(func() {
		p.goneErr = err
		close(p.gone)
	})
}

func (p *Proxy) isGone() bool {
	select {
	case <-p.gone:
		return true
	default:
		return false
	}
}

// handle sends one client message on its way.
func (p *Proxy) handle(ctx context.Context, line []byte) {
	line = bytes.TrimSpace(line)
	var id []byte
	method := ""
	if msg, err := rawjson.Object(line); err == nil {
		if raw, ok := rawjson.Get(msg, "id"); ok && string(raw) != "null" {
			id = raw
		}
		if raw, ok := rawjson.Get(msg, "method"); ok {
			_ = json.Unmarshal(raw, &method)
		}
	}
	switch {
	case method == "initialize" && id != nil:
		// Synchronous: every later message needs the session it opens.
		p.mu.Lock()
		p.Init = append([]byte(nil), line...)
		p.mu.Unlock()
		if err := p.initialize(ctx, line, id); err != nil && ctx.Err() == nil {
			// The client was answered with an error: nothing to resume.
			p.mu.Lock()
			p.Init = nil
			p.mu.Unlock()
			p.markGone(err)
		}
	case method == "notifications/initialized":
		p.mu.Lock()
		p.initialized = true
		p.mu.Unlock()
		p.wg.Add(1)
		go func() {
			defer p.wg.Done()
			p.forward(ctx, line, nil)
			p.startStream(ctx)
		}()
	default:
		if method == "" {
			id = nil // a response to the owner's request: nothing comes back
		}
		p.wg.Add(1)
		go func() {
			defer p.wg.Done()
			p.forward(ctx, line, id)
		}()
	}
}

// post sends one message to the owner's endpoint.
func (p *Proxy) post(ctx context.Context, line []byte) (*http.Response, string, error) {
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, p.Info.URL, bytes.NewReader(line))
	if err != nil {
		return nil, "", err
	}
	p.mu.Lock()
	session, protocol := p.sessionID, p.protocol
	p.mu.Unlock()
	p.headers(req, session, protocol)
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "application/json, text/event-stream")
	resp, err := p.client.Do(req)
	return resp, session, err
}

func (p *Proxy) headers(req *http.Request, session, protocol string) {
	req.Header.Set("Authorization", "Bearer "+p.Info.Token)
	if session != "" {
		req.Header.Set("Mcp-Session-Id", session)
	}
	if protocol != "" {
		req.Header.Set("Mcp-Protocol-Version", protocol)
	}
}

// initialize opens the session with an initialize request; with id the
// answer goes to the client, without it (a replay) it is dropped.
func (p *Proxy) initialize(ctx context.Context, line, id []byte) error {
	p.mu.Lock()
	p.sessionID, p.protocol = "", ""
	p.mu.Unlock()
	resp, _, err := p.post(ctx, line)
	if err != nil {
		if id != nil && ctx.Err() == nil {
			p.writeGone(id, err)
		}
		return err
	}
	defer resp.Body.Close()
	var answer []byte
	err = p.relayBody(resp, func(msg []byte) {
		if answer == nil && sameID(msg, line) {
			answer = msg
			return
		}
		p.out.write(msg)
	})
	if err == nil && answer == nil {
		err = fmt.Errorf("the owner answered initialize with HTTP %d and no answer", resp.StatusCode)
	}
	if err != nil {
		if id != nil && ctx.Err() == nil {
			p.writeGone(id, err)
		}
		return err
	}
	var r struct {
		Result struct {
			ProtocolVersion string `json:"protocolVersion"`
		} `json:"result"`
	}
	_ = json.Unmarshal(answer, &r)
	p.mu.Lock()
	p.sessionID = resp.Header.Get("Mcp-Session-Id")
	p.protocol = r.Result.ProtocolVersion
	p.mu.Unlock()
	if id != nil {
		p.out.write(answer)
	}
	return nil
}

// forward posts a message and relays what comes back. id is the request's
// (nil for notifications and responses); a request always gets an answer.
func (p *Proxy) forward(ctx context.Context, line, id []byte) {
	for attempt := 0; ; attempt++ {
		resp, session, err := p.post(ctx, line)
		if err != nil {
			p.failed(ctx, id, err)
			return
		}
		if resp.StatusCode == http.StatusNotFound && session != "" && attempt == 0 {
			// The owner ended this session (idle expiry): open a new one with
			// the client's initialize request and send the message again.
			resp.Body.Close()
			if err := p.reopen(ctx, session); err != nil {
				if ctx.Err() == nil && id != nil {
					p.writeGone(id, err)
				}
				return
			}
			continue
		}
		answered := false
		// A JSON body is the answer itself; in an event stream the answer
		// is the event that is a response with the request's id.
		single := !strings.HasPrefix(resp.Header.Get("Content-Type"), "text/event-stream")
		err = p.relayBody(resp, func(msg []byte) {
			if id != nil && !answered && (single || sameID(msg, line)) {
				answered = true
			}
			p.out.write(msg)
		})
		resp.Body.Close()
		if answered {
			return
		}
		var refused *statusError
		if err == nil || errors.As(err, &refused) {
			// The owner answered, so it is there: a refusal (4xx, 5xx) is
			// not its exit.
			if err == nil {
				err = fmt.Errorf("the owner answered HTTP %d with no JSON-RPC answer", resp.StatusCode)
			}
			if id != nil && ctx.Err() == nil {
				p.Log.Warn("the godot-mcp server this one is attached to refused a request", "owner_pid", p.Info.PID, "err", err)
				p.out.write(errorMessage(id, -32603, "godot-mcp (attached): "+err.Error(), nil))
			}
			return
		}
		// The answer was cut off.
		p.failed(ctx, id, err)
		return
	}
}

// failed handles a request whose exchange with the owner broke (err): the
// owner is taken for gone only when it does not answer its probe; a
// request (id) is answered either way.
func (p *Proxy) failed(ctx context.Context, id []byte, err error) {
	if ctx.Err() != nil {
		if id != nil && p.isGone() {
			p.writeGone(id, p.goneErr) // cancelled after the owner went away
		}
		return
	}
	if perr := probe(ctx, p.Info); perr == nil {
		if id != nil {
			p.out.write(errorMessage(id, -32603, "godot-mcp (attached): the request to the server this one is attached to failed: "+err.Error()+"; it still runs, retry", nil))
		}
		return
	}
	p.markGone(err)
	if id != nil {
		p.writeGone(id, err)
	}
}

// statusError is an HTTP refusal from the owner (no JSON-RPC answer).
type statusError struct {
	code int
	body string
}

func (e *statusError) Error() string {
	return fmt.Sprintf("the owner answered HTTP %d: %s", e.code, e.body)
}

// reopen replaces the session the owner ended by a new one.
func (p *Proxy) reopen(ctx context.Context, stale string) error {
	p.reinitMu.Lock()
	defer p.reinitMu.Unlock()
	p.mu.Lock()
	current, init, initialized := p.sessionID, p.Init, p.initialized
	p.mu.Unlock()
	if current != stale {
		return nil // another call reopened it already
	}
	if init == nil {
		return errors.New("the owner ended the session before it was initialized")
	}
	p.Log.Info("the owner ended this client's session; opening a new one", "owner_pid", p.Info.PID)
	if err := p.initialize(ctx, init, nil); err != nil {
		return err
	}
	if initialized {
		resp, _, err := p.post(ctx, []byte(`{"jsonrpc":"2.0","method":"notifications/initialized"}`))
		if err != nil {
			return err
		}
		resp.Body.Close()
	}
	return nil
}

// relayBody hands each JSON-RPC message of a POST or GET answer to emit:
// a JSON body is one message, an event stream one per event.
func (p *Proxy) relayBody(resp *http.Response, emit func([]byte)) error {
	ct := resp.Header.Get("Content-Type")
	switch {
	case strings.HasPrefix(ct, "text/event-stream"):
		return readEvents(resp.Body, emit)
	case resp.StatusCode == http.StatusAccepted || resp.StatusCode == http.StatusNoContent:
		return nil
	default:
		body, err := io.ReadAll(io.LimitReader(resp.Body, 1<<30))
		if err != nil {
			return err
		}
		body = bytes.TrimSpace(body)
		if len(body) > 0 && body[0] == '{' && rawjson.Valid(body) {
			emit(body)
			return nil
		}
		if resp.StatusCode >= 300 {
			return &statusError{resp.StatusCode, truncate(string(body), 200)}
		}
		return nil
	}
}

// startStream opens the GET event stream once: the owner's notifications
// (tools/list_changed) and requests that belong to no call.
func (p *Proxy) startStream(ctx context.Context) {
	p.streamOnce.Do(func() {
		p.wg.Add(1)
		go func() {
			defer p.wg.Done()
			p.stream(ctx)
		}()
	})
}

func (p *Proxy) stream(ctx context.Context) {
	failures := 0
	for ctx.Err() == nil && !p.isGone() {
		p.mu.Lock()
		session, protocol := p.sessionID, p.protocol
		p.mu.Unlock()
		req, err := http.NewRequestWithContext(ctx, http.MethodGet, p.Info.URL, nil)
		if err != nil {
			return
		}
		p.headers(req, session, protocol)
		req.Header.Set("Accept", "text/event-stream")
		resp, err := p.client.Do(req)
		if err == nil {
			if resp.StatusCode == http.StatusMethodNotAllowed {
				resp.Body.Close()
				return // the owner offers no stream
			}
			if resp.StatusCode == http.StatusOK {
				failures = 0
				_ = readEvents(resp.Body, p.out.write) // how it ended is asked of the owner below
			}
			resp.Body.Close()
		}
		if ctx.Err() != nil {
			return
		}
		// The stream ended: the owner is gone, or it ended the session
		// (the next call reopens it), or the connection dropped.
		if perr := probe(ctx, p.Info); perr != nil {
			p.markGone(perr)
			return
		}
		failures++
		select {
		case <-ctx.Done():
			return
		case <-p.gone:
			return
		case <-time.After(time.Duration(min(failures, 20)) * 50 * time.Millisecond):
		}
	}
}

// closeSession ends the session on the owner (DELETE), best effort.
func (p *Proxy) closeSession() {
	p.mu.Lock()
	session, protocol := p.sessionID, p.protocol
	p.mu.Unlock()
	if session == "" || p.isGone() {
		return
	}
	ctx, cancel := context.WithTimeout(context.Background(), time.Second)
	defer cancel()
	req, err := http.NewRequestWithContext(ctx, http.MethodDelete, p.Info.URL, nil)
	if err != nil {
		return
	}
	p.headers(req, session, protocol)
	if resp, err := p.client.Do(req); err == nil {
		resp.Body.Close()
	}
}

func (p *Proxy) writeGone(id []byte, err error) {
	p.Log.Warn("the godot-mcp server this one is attached to went away during a call", "owner_pid", p.Info.PID, "err", err)
	p.out.write(errorMessage(id, OwnerGoneCode, fmt.Sprintf(
		"godot-mcp: the server this one was attached to (pid %d, bridge %s) exited during this call; whether it took effect is unknown. "+
			"Check the editor's state before calling again.", p.Info.PID, p.Info.BridgeURL), map[string]any{"owner_pid": p.Info.PID}))
}

// readEvents reads a server-sent event stream, handing each event's data
// to emit.
func readEvents(r io.Reader, emit func([]byte)) error {
	br := bufio.NewReaderSize(r, 64<<10)
	var data []byte
	for {
		line, err := br.ReadBytes('\n')
		if len(line) > 0 {
			line = bytes.TrimRight(line, "\r\n")
			switch {
			case len(line) == 0:
				if len(data) > 0 {
					emit(data)
					data = nil
				}
			case bytes.HasPrefix(line, []byte("data:")):
				v := bytes.TrimPrefix(line[5:], []byte(" "))
				if data != nil {
					data = append(data, '\n')
				}
				data = append(data, v...)
			}
		}
		if err != nil {
			if errors.Is(err, io.EOF) {
				if len(data) > 0 {
					emit(data)
				}
				return nil
			}
			return err
		}
	}
}

// sameID reports whether msg is a response (no method) whose id is line's.
func sameID(msg, line []byte) bool {
	m, err := rawjson.Object(msg)
	if err != nil {
		return false
	}
	if _, ok := rawjson.Get(m, "method"); ok {
		return false
	}
	got, ok := rawjson.Get(m, "id")
	if !ok {
		return false
	}
	l, err := rawjson.Object(line)
	if err != nil {
		return false
	}
	want, ok := rawjson.Get(l, "id")
	return ok && bytes.Equal(got, want)
}

func errorMessage(id []byte, code int, message string, data any) []byte {
	e := map[string]any{"code": code, "message": message}
	if data != nil {
		e["data"] = data
	}
	b, _ := json.Marshal(map[string]any{"jsonrpc": "2.0", "id": json.RawMessage(id), "error": e})
	return b
}

func truncate(s string, n int) string {
	if len(s) <= n {
		return s
	}
	return s[:n] + "…"
}

// msgWriter writes whole messages, one a line.
type msgWriter struct {
	mu sync.Mutex
	w  io.Writer
}

func (m *msgWriter) write(msg []byte) {
	msg = bytes.TrimSpace(msg)
	if len(msg) == 0 {
		return
	}
	if bytes.IndexByte(msg, '\n') >= 0 {
		var buf bytes.Buffer
		if json.Compact(&buf, msg) != nil {
			return // not JSON: never onto the client's stdout
		}
		msg = buf.Bytes()
	}
	m.mu.Lock()
	defer m.mu.Unlock()
	if len(msg) > 64<<10 {
		m.w.Write(msg) // no copy of a large message; the newline follows under the lock
		m.w.Write([]byte{'\n'})
		return
	}
	buf := make([]byte, 0, len(msg)+1)
	buf = append(buf, msg...)
	m.w.Write(append(buf, '\n'))
}
