package bridge

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"sync/atomic"
	"time"

	"github.com/coder/websocket"

	"github.com/godot-mcp/godot-mcp/host/envelope"
	"github.com/godot-mcp/godot-mcp/sdk/contract"
)

// outQueue is the number of frames that may wait for the writer goroutine.
const outQueue = 256

// detachReason says why a peer stopped serving Sends.
type detachReason int

const (
	detachLost detachReason = iota
	detachReplaced
	detachClosed
)

// waiter is one in-flight Send.
type waiter struct {
	ch      chan envelope.Response // buffered 1; receives exactly one value
	command string
}

// outFrame is a frame queued for the writer. id is set for commands with a
// waiter, so a command abandoned before it reached the wire is not sent.
type outFrame struct {
	id   string
	data []byte
}

type closeRequest struct {
	notice []byte
	code   websocket.StatusCode
	reason string
}

// peer is one accepted editor connection.
type peer struct {
	b    *Bridge
	conn *websocket.Conn
	info PeerInfo

	ctx    context.Context
	cancel context.CancelFunc

	out        chan outFrame
	closeCh    chan closeRequest // capacity 1: the first close request wins
	done       chan struct{}     // closed on detach
	writerDone chan struct{}
	finished   chan struct{} // closed when the connection is fully torn down

	mu       sync.Mutex
	waiters  map[string]*waiter
	detached bool

	commands   atomic.Pointer[map[string]envelope.CommandInfo] // the editor's command table
	extensions atomic.Pointer[map[string]string]               // loaded extensions -> version
}

func newPeer(b *Bridge, conn *websocket.Conn, info PeerInfo) *peer {
	ctx, cancel := context.WithCancel(b.baseCtx)
	p := &peer{
		b:          b,
		conn:       conn,
		info:       info,
		ctx:        ctx,
		cancel:     cancel,
		out:        make(chan outFrame, outQueue),
		closeCh:    make(chan closeRequest, 1),
		done:       make(chan struct{}),
		writerDone: make(chan struct{}),
		finished:   make(chan struct{}),
		waiters:    make(map[string]*waiter),
	}
	table := info.commands
	p.info.commands = nil
	p.commands.Store(&table)
	exts := info.extensions
	if exts == nil {
		exts = map[string]string{}
	}
	p.info.extensions = nil
	p.extensions.Store(&exts)
	return p
}

// register parks a waiter for id; false once the peer is detached.
func (p *peer) register(id, command string) (*waiter, bool) {
	w := &waiter{ch: make(chan envelope.Response, 1), command: command}
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.detached {
		return nil, false
	}
	p.waiters[id] = w
	return w, true
}

// pending reports whether id still has a waiter.
func (p *peer) pending(id string) bool {
	p.mu.Lock()
	defer p.mu.Unlock()
	_, ok := p.waiters[id]
	return ok
}

// take removes and returns id's waiter, or nil.
func (p *peer) take(id string) *waiter {
	p.mu.Lock()
	defer p.mu.Unlock()
	w := p.waiters[id]
	if w != nil {
		delete(p.waiters, id)
	}
	return w
}

// abandon gives up on id with failure e. If an answer (or a detach failure)
// won the race, that answer is returned instead.
func (p *peer) abandon(id string, w *waiter, e *contract.Error) envelope.Response {
	if p.take(id) != nil {
		return envelope.Failure(id, e)
	}
	return <-w.ch // whoever took the waiter delivers to it
}

// resolve delivers an answer to its waiter; false for unknown ids.
func (p *peer) resolve(r envelope.Response) bool {
	w := p.take(r.ID)
	if w == nil {
		return false
	}
	w.ch <- r
	return true
}

// fail resolves id's waiter with a failure built from its command name.
func (p *peer) fail(id string, mk func(command string) *contract.Error) bool {
	w := p.take(id)
	if w == nil {
		return false
	}
	w.ch <- envelope.Failure(id, mk(w.command))
	return true
}

// detach stops the peer from serving Sends and fails every waiter with
// BRIDGE_DISCONNECTED. Only the first call has an effect.
func (p *peer) detach(reason detachReason) {
	p.mu.Lock()
	if p.detached {
		p.mu.Unlock()
		return
	}
	p.detached = true
	ws := p.waiters
	p.waiters = nil
	close(p.done)
	p.mu.Unlock()
	for id, w := range ws {
		w.ch <- envelope.Failure(id, disconnectError(reason, w.command))
	}
}

func disconnectError(reason detachReason, command string) *contract.Error {
	var hint string
	switch reason {
	case detachReplaced:
		hint = fmt.Sprintf("A new editor connection replaced the one '%s' was sent on; it may or may not have run. Check the editor state, then retry.", command)
	case detachClosed:
		hint = fmt.Sprintf("The bridge shut down while '%s' was in flight; it may or may not have run in the editor. Restart the server, then check the editor state.", command)
	default:
		hint = fmt.Sprintf("The editor disconnected while '%s' was in flight; it may or may not have run. Wait for the addon to reconnect (it retries automatically), check the editor state, then retry.", command)
	}
	return &contract.Error{Code: contract.BridgeDisconnected, Hint: hint, Required: contract.RequireBridgeConnected}
}

// enqueue queues a frame without a waiter (a push or an answer to the editor).
func (p *peer) enqueue(f outFrame, timeout time.Duration) error {
	t := time.NewTimer(timeout)
	defer t.Stop()
	select {
	case p.out <- f:
		return nil
	case <-p.done:
		return ErrNotConnected
	case <-t.C:
		return errors.New("bridge: the editor is not reading; write queue full")
	}
}

// requestClose asks the writer to send notice (if any) and then close the
// connection with code. It does not wait.
func (p *peer) requestClose(notice []byte, code websocket.StatusCode, reason string) {
	select {
	case p.closeCh <- closeRequest{notice: notice, code: code, reason: reason}:
	default:
	}
}

func (p *peer) write(data []byte) error {
	ctx, cancel := context.WithTimeout(p.ctx, p.b.opts.WriteTimeout)
	defer cancel()
	return p.conn.Write(ctx, websocket.MessageText, data)
}

// writeLoop is the connection's only writer after the handshake, so frames
// are never interleaved and each is one JSON object per text message.
func (p *peer) writeLoop() {
	defer close(p.writerDone)
	for {
		// A pending close request wins over queued frames.
		select {
		case req := <-p.closeCh:
			p.closeWith(req)
			return
		default:
		}
		select {
		case req := <-p.closeCh:
			p.closeWith(req)
			return
		case f := <-p.out:
			if f.id != "" && !p.pending(f.id) {
				p.b.log.Debug("command abandoned before it was written; not sent", "id", f.id)
				continue
			}
			if err := p.write(f.data); err != nil {
				if p.ctx.Err() == nil {
					p.b.log.Warn("write to the editor failed; dropping the connection", "err", err)
				}
				p.detach(detachLost)
				_ = p.conn.CloseNow()
				return
			}
		case <-p.ctx.Done():
			return
		}
	}
}

func (p *peer) closeWith(req closeRequest) {
	if req.notice != nil {
		if err := p.write(req.notice); err != nil {
			p.b.log.Debug("could not deliver the close notice", "err", err)
		}
	}
	_ = p.conn.Close(req.code, req.reason)
}

// readLoop reads frames until the connection ends.
func (p *peer) readLoop() error {
	for {
		typ, data, err := readFrame(p.ctx, p.conn)
		if err != nil {
			return err
		}
		if typ != websocket.MessageText {
			p.b.log.Warn("dropped a binary frame from the editor; the bridge speaks JSON text frames", "bytes", len(data))
			continue
		}
		p.handleFrame(data)
	}
}

func (p *peer) handleFrame(data []byte) {
	f, err := envelope.DecodeFrame(data)
	if err != nil {
		id := f.ID
		if id == "" {
			id = salvageID(data)
		}
		p.b.log.Warn("dropped a malformed frame from the editor", "err", err, "bytes", len(data), "id", id)
		if id == "" {
			return
		}
		tooLarge := errors.Is(err, envelope.ErrFrameTooLarge)
		p.fail(id, func(command string) *contract.Error {
			if tooLarge {
				return contract.Errorf(contract.InternalError,
					"The editor's answer to '%s' exceeded the %d MiB frame limit and was dropped. Ask for less data (paginate, filter, lower the resolution) and retry.",
					command, envelope.MaxFrameBytes>>20)
			}
			return contract.Errorf(contract.InternalError,
				"The editor's answer to '%s' was not a valid envelope (%v) and was dropped. Reinstall the addon (godot-mcp addon install) so it matches the server, then retry.",
				command, err)
		})
		return
	}
	if f.IsResponse() {
		if f.ID == "" {
			p.b.log.Warn("dropped an answer without id from the editor", "error", f.Error)
			return
		}
		if !p.resolve(f.Response()) {
			p.b.log.Debug("dropped an answer for an unknown or expired id", "id", f.ID)
		}
		return
	}
	p.answerEditor(f)
}

// answerEditor serves a request the editor sent to the server.
func (p *peer) answerEditor(f envelope.Frame) {
	if f.ID == "" {
		if f.Command == envelope.CmdEditorCommands {
			p.updateCommands(f.Params)
			return
		}
		p.b.log.Debug("ignored a push from the editor", "command", f.Command)
		return
	}
	var resp envelope.Response
	switch f.Command {
	case envelope.CmdPing:
		resp = envelope.Response{ID: f.ID, OK: true, Result: []byte(`{"pong":true}`)}
	case envelope.CmdEditorHello:
		resp = envelope.Failure(f.ID, contract.Errorf(contract.ValidationError,
			"This connection already said cmd_editor_hello and was accepted; send it only once, as the first message."))
	default:
		resp = envelope.Failure(f.ID, contract.Errorf(contract.InternalError,
			"The server has no handler for '%s'. Update godot-mcp or reinstall the addon (godot-mcp addon install) so both match.", f.Command))
	}
	data, err := envelope.Marshal(resp)
	if err != nil {
		p.b.log.Error("cannot encode an answer to the editor", "err", err)
		return
	}
	if err := p.enqueue(outFrame{data: data}, p.b.opts.WriteTimeout); err != nil {
		p.b.log.Debug("answer to the editor not delivered", "command", f.Command, "err", err)
	}
}
