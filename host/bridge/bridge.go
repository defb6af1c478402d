// Package bridge is the host's WebSocket listener for the Godot editor addon.
//
// The server listens and the editor dials out (spec: bridge.md). One
// authenticated editor is active at a time; a newer accepted connection
// replaces the old one. Every command the host sends gets a fresh id and a
// waiter; Send always resolves to an envelope.Response — the editor's answer
// or a synthesized TIMEOUT / BRIDGE_DISCONNECTED / VALIDATION_ERROR failure.
package bridge

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net"
	"net/http"
	"net/url"
	"strconv"
	"sync"
	"sync/atomic"
	"time"
	"unicode/utf8"

	"github.com/coder/websocket"

	"github.com/godot-mcp/godot-mcp/host/envelope"
	"github.com/godot-mcp/godot-mcp/internal/connlimit"
	"github.com/godot-mcp/godot-mcp/internal/logcap"
	"github.com/godot-mcp/godot-mcp/sdk/contract"
)

// Defaults used when the corresponding Options field is zero.
const (
	DefaultURL          = "ws://127.0.0.1:9080"
	DefaultHelloTimeout = 3 * time.Second
	DefaultSendTimeout  = 30 * time.Second
	DefaultWriteTimeout = 30 * time.Second
	DefaultPingTimeout  = 5 * time.Second
)

// ReadLimit is the per-message limit handed to the WebSocket library. It is
// twice envelope.MaxFrameBytes: frames between the two are read in a stream,
// dropped and answered to their waiter (when the id can be salvaged) while the
// link stays up; only a frame beyond ReadLimit makes the library close the
// link (status 1009). Memory held per frame never exceeds MaxFrameBytes+1.
const ReadLimit = 2 * envelope.MaxFrameBytes

// Close statuses the bridge uses.
const (
	// StatusPeerReplaced closes a peer that a newer editor connection replaced.
	StatusPeerReplaced websocket.StatusCode = 4000
)

// HelloReadLimit is the per-message limit before a valid cmd_editor_hello.
// A hello is a few hundred bytes (a project path, two versions, a token);
// a bigger first frame closes the connection (1009) before it is buffered.
// ReadLimit applies once the hello is accepted.
const HelloReadLimit = 64 << 10

// maxPendingHandshakes bounds connections that have not said hello yet
// (TCP sockets before their upgrade request, WebSockets before their
// hello). When they are all taken, the next connection evicts the oldest
// (see internal/connlimit), so a silent or slow stranger cannot keep the
// editor out: it would have to open this many connections within the few
// milliseconds between the editor's connect and its hello. Each costs a
// socket, a goroutine and at most HelloReadLimit of buffer, and is dropped
// after HelloTimeout anyway.
const maxPendingHandshakes = 256

// maxConns is the bridge's connection limit: the pending handshakes plus
// the authenticated editor (and one being replaced), lowered when the file
// limit is low (connlimit.Budget keeps fdReserve descriptors free).
var maxConns = connlimit.Budget(maxPendingHandshakes+4, fdReserve, 16)

// fdReserve is the number of descriptors kept free of listeners for the
// editor link, plugin processes and files.
const fdReserve = 512

// maxHeaderBytes bounds the upgrade request's headers; Godot sends a few
// hundred bytes.
const maxHeaderBytes = 16 << 10

// warnEvery is how often a warning that strangers can repeat (a refused
// handshake, an evicted connection) is logged at most, per kind.
const warnEvery = 10 * time.Second

// ErrNotConnected is returned by Push when no editor is connected.
var ErrNotConnected = errors.New("bridge: no Godot editor is connected")

// ErrClosed is returned after Close.
var ErrClosed = errors.New("bridge: closed")

// Options configures a Bridge.
type Options struct {
	// URL is the listen URL, e.g. "ws://127.0.0.1:9080". Port 0 picks an
	// ephemeral port (see Bridge.URL). Empty means DefaultURL.
	URL string
	// Token is GODOT_MCP_BRIDGE_TOKEN; "" disables the handshake check.
	// It is never logged.
	Token string
	// ServerVersion is reported in the hello answer and cmd_server_hello.
	ServerVersion string
	// Logger receives the bridge's logs; nil discards them.
	Logger *slog.Logger
	// HelloTimeout is how long a new connection may take to send
	// cmd_editor_hello (default DefaultHelloTimeout).
	HelloTimeout time.Duration
	// WriteTimeout bounds a single frame write to the editor (default
	// DefaultWriteTimeout). A write that exceeds it drops the connection.
	WriteTimeout time.Duration
	// EnabledToolsets feeds cmd_server_hello; nil means an empty list.
	EnabledToolsets func() []string
	// OnPeerChange, when set, is called on connect (connected=true, also when
	// a new editor replaces the old one) and disconnect (connected=false).
	// Calls are made in order from one goroutine, never under the bridge's
	// locks; the callback may call Status or Send but must not call Close.
	OnPeerChange func(connected bool, peer *PeerInfo)
}

// PeerInfo describes the connected editor, as it introduced itself.
type PeerInfo struct {
	ProjectDir   string
	GodotVersion string
	AddonVersion string
	// GodotExecutable is the editor's executable as its hello reported it
	// (untrusted: internal/godotexe checks it before anything runs it).
	GodotExecutable string
	RemoteAddr      string
	ConnectedAt     time.Time

	commands   map[string]envelope.CommandInfo // the hello's command table, handed to the peer
	extensions map[string]string               // the hello's loaded extensions, handed to the peer
}

// Status is a snapshot of the bridge.
type Status struct {
	Listening bool
	URL       string
	Connected bool
	Peer      *PeerInfo
}

// Bridge is the WebSocket listener the editor addon connects to.
type Bridge struct {
	opts      Options
	log       *slog.Logger
	host      string // listen host as configured (no brackets)
	port      string
	tokenHash [32]byte

	nonceMu    sync.Mutex // guards nonces (freshNonce)
	nonces     map[string]struct{}
	nonceOrder []string

	nextID atomic.Uint64

	baseCtx    context.Context
	baseCancel context.CancelFunc
	wg         sync.WaitGroup // serve loop + connection handlers

	mu        sync.Mutex
	started   bool
	closed    bool
	url       string
	srv       *http.Server
	peer      *peer
	connCh    chan struct{} // closed while a peer is active
	closedCh  chan struct{}
	conns     *connlimit.Limiter
	warn      *logcap.Limiter
	events    []peerEvent
	eventSig  chan struct{}
	eventDone chan struct{}
	eventStop chan struct{}
}

type peerEvent struct {
	connected bool
	info      PeerInfo
}

// New validates opts and returns an unstarted Bridge.
//
// The URL must be ws:// with an explicit host: a loopback address,
// "localhost", or a specific address or name (never a wildcard such as
// 0.0.0.0). A non-loopback host requires a Token, because the bridge would
// otherwise accept any process on the network.
func New(opts Options) (*Bridge, error) {
	if opts.URL == "" {
		opts.URL = DefaultURL
	}
	u, err := url.Parse(opts.URL)
	if err != nil {
		return nil, fmt.Errorf("bridge: invalid GODOT_MCP_BRIDGE_URL %q: %w", opts.URL, err)
	}
	if u.Scheme != "ws" {
		return nil, fmt.Errorf("bridge: GODOT_MCP_BRIDGE_URL %q must use ws:// (the bridge does not terminate TLS)", opts.URL)
	}
	if u.User != nil || u.RawQuery != "" || u.Fragment != "" || (u.Path != "" && u.Path != "/") {
		return nil, fmt.Errorf("bridge: GODOT_MCP_BRIDGE_URL %q must be ws://host:port with no path, query or credentials", opts.URL)
	}
	host, port := u.Hostname(), u.Port()
	if host == "" {
		return nil, fmt.Errorf("bridge: GODOT_MCP_BRIDGE_URL %q has no host; use e.g. %s", opts.URL, DefaultURL)
	}
	if port == "" {
		return nil, fmt.Errorf("bridge: GODOT_MCP_BRIDGE_URL %q has no port; use e.g. %s", opts.URL, DefaultURL)
	}
	if n, err := strconv.Atoi(port); err != nil || n < 0 || n > 65535 {
		return nil, fmt.Errorf("bridge: GODOT_MCP_BRIDGE_URL %q has an invalid port", opts.URL)
	}
	if ip := net.ParseIP(host); ip != nil && ip.IsUnspecified() {
		return nil, fmt.Errorf("bridge: GODOT_MCP_BRIDGE_URL %q binds a wildcard address; name the interface explicitly (e.g. 127.0.0.1)", opts.URL)
	}
	if !isLoopbackHost(host) && opts.Token == "" {
		return nil, fmt.Errorf("bridge: GODOT_MCP_BRIDGE_URL %q is not a loopback address; set GODOT_MCP_BRIDGE_TOKEN on both sides to expose the bridge", opts.URL)
	}
	if opts.HelloTimeout <= 0 {
		opts.HelloTimeout = DefaultHelloTimeout
	}
	if opts.WriteTimeout <= 0 {
		opts.WriteTimeout = DefaultWriteTimeout
	}
	logger := opts.Logger
	if logger == nil {
		logger = slog.New(slog.DiscardHandler)
	}
	b := &Bridge{
		opts:     opts,
		log:      logger.With("component", "bridge"),
		host:     host,
		port:     port,
		connCh:   make(chan struct{}),
		closedCh: make(chan struct{}),
		eventSig: make(chan struct{}, 1),
		warn:     logcap.NewLimiter(warnEvery),
	}
	b.conns = connlimit.New(maxConns, func(remote net.Addr, why connlimit.Reason) {
		if why == connlimit.Evicted {
			b.warn.Warn(b.log, "closed the oldest connection that had not said hello, to make room (many connections without a hello: is a local process probing the bridge?)", "remote", remote.String())
		} else {
			b.warn.Warn(b.log, "refused a connection: every slot is taken", "remote", remote.String())
		}
	})
	if opts.Token != "" {
		b.tokenHash = hashToken(opts.Token)
	}
	b.url = "ws://" + net.JoinHostPort(host, port)
	b.baseCtx, b.baseCancel = context.WithCancel(context.Background())
	return b, nil
}

// Start binds the listener and serves in the background. It returns once the
// port is bound (an error if it is busy). ctx bounds the bind only; use Close
// to stop the bridge.
func (b *Bridge) Start(ctx context.Context) error {
	b.mu.Lock()
	defer b.mu.Unlock()
	if b.closed {
		return ErrClosed
	}
	if b.started {
		return errors.New("bridge: already started")
	}
	var lc net.ListenConfig
	ln, err := lc.Listen(ctx, "tcp", net.JoinHostPort(b.host, b.port))
	if err != nil {
		return fmt.Errorf("bridge: cannot listen on %s (is another godot-mcp server running? set GODOT_MCP_BRIDGE_URL to another port): %w", b.url, err)
	}
	_, port, _ := net.SplitHostPort(ln.Addr().String())
	b.port = port
	b.url = "ws://" + net.JoinHostPort(b.host, port)
	b.srv = &http.Server{
		Handler: http.HandlerFunc(b.serveHTTP),
		// The whole pre-hello life of a connection is bounded: its upgrade
		// request within HelloTimeout, then its hello within HelloTimeout.
		ReadHeaderTimeout: b.opts.HelloTimeout,
		MaxHeaderBytes:    maxHeaderBytes,
		ErrorLog:          slog.NewLogLogger(b.log.Handler(), slog.LevelDebug),
		BaseContext:       func(net.Listener) context.Context { return b.baseCtx },
	}
	// The bridge serves WebSocket upgrades only: every other answer (a
	// refusal) closes its connection.
	b.srv.SetKeepAlivesEnabled(false)
	b.conns.Install(b.srv)
	b.started = true
	b.wg.Add(1)
	go func() {
		defer b.wg.Done()
		if err := b.srv.Serve(b.conns.Listener(ln)); err != nil && !errors.Is(err, http.ErrServerClosed) {
			b.log.Error("bridge listener stopped", "err", err)
		}
	}()
	if b.opts.OnPeerChange != nil {
		b.eventDone = make(chan struct{})
		b.eventStop = make(chan struct{})
		go b.dispatchEvents()
	}
	b.log.Info("bridge listening", "url", b.url, "auth", b.opts.Token != "")
	return nil
}

// URL returns the listen URL; after Start an ephemeral port is resolved.
func (b *Bridge) URL() string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.url
}

// Status reports whether the bridge listens and which editor is connected.
func (b *Bridge) Status() Status {
	b.mu.Lock()
	defer b.mu.Unlock()
	s := Status{Listening: b.started && !b.closed, URL: b.url}
	if b.peer != nil {
		info := b.peer.info
		s.Connected = true
		s.Peer = &info
	}
	return s
}

// WaitConnected blocks until an editor is connected, ctx ends (ctx.Err()) or
// the bridge is closed (ErrClosed).
func (b *Bridge) WaitConnected(ctx context.Context) error {
	b.mu.Lock()
	if b.closed {
		b.mu.Unlock()
		return ErrClosed
	}
	if b.peer != nil {
		b.mu.Unlock()
		return nil
	}
	ch := b.connCh
	b.mu.Unlock()
	select {
	case <-ch:
		return nil
	case <-b.closedCh:
		return ErrClosed
	case <-ctx.Done():
		return ctx.Err()
	}
}

// activePeer returns the connected peer or nil.
func (b *Bridge) activePeer() *peer {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.peer
}

// Send sends command to the editor and waits for its answer. It always
// returns a Response: the editor's own, or a synthesized failure —
// BRIDGE_DISCONNECTED (required "bridge_connected") when no editor is
// connected or the connection drops while waiting, TIMEOUT when timeout
// elapses or ctx ends, VALIDATION_ERROR when params are not a JSON object.
// params may be a json.RawMessage (sent verbatim) or nil ({}). A timeout <= 0
// means DefaultSendTimeout.
func (b *Bridge) Send(ctx context.Context, command string, params any, timeout time.Duration) envelope.Response {
	if timeout <= 0 {
		timeout = DefaultSendTimeout
	}
	if command == "" {
		return envelope.Failure("", contract.Errorf(contract.ValidationError, "Send needs a command name (e.g. 'cmd_ping')."))
	}
	raw, verr := encodeParams(command, params)
	if verr != nil {
		return envelope.Failure("", verr)
	}
	p := b.activePeer()
	if p == nil {
		return envelope.Failure("", b.notConnected(command))
	}
	id := strconv.FormatUint(b.nextID.Add(1), 10)
	w, ok := p.register(id, command)
	if !ok {
		return envelope.Failure(id, b.notConnected(command))
	}
	start := time.Now()
	timer := time.NewTimer(timeout)
	defer timer.Stop()

	out := outFrame{id: id, data: commandFrame(id, command, raw)}
	select {
	case p.out <- out:
	case r := <-w.ch: // detached while queued
		return r
	case <-timer.C:
		return p.abandon(id, w, timeoutFailure(command, timeout, false, time.Since(start)))
	case <-ctx.Done():
		return p.abandon(id, w, timeoutFailure(command, timeout, true, time.Since(start)))
	}
	select {
	case r := <-w.ch:
		return r
	case <-timer.C:
		return p.abandon(id, w, timeoutFailure(command, timeout, false, time.Since(start)))
	case <-ctx.Done():
		return p.abandon(id, w, timeoutFailure(command, timeout, true, time.Since(start)))
	}
}

// Push sends a fire-and-forget command (no id, no answer). It returns
// ErrNotConnected without an editor, and an *contract.Error when params are
// not a JSON object.
func (b *Bridge) Push(command string, params any) error {
	if command == "" {
		return contract.Errorf(contract.ValidationError, "Push needs a command name.")
	}
	raw, verr := encodeParams(command, params)
	if verr != nil {
		return verr
	}
	p := b.activePeer()
	if p == nil {
		return ErrNotConnected
	}
	return p.enqueue(outFrame{data: commandFrame("", command, raw)}, b.opts.WriteTimeout)
}

// PushToolsets tells the editor the enabled toolset set changed
// (cmd_toolsets_update). It is a no-op without an editor.
func (b *Bridge) PushToolsets(enabled []string) {
	if enabled == nil {
		enabled = []string{}
	}
	if err := b.Push(envelope.CmdToolsetsUpdate, envelope.ToolsetsUpdate{EnabledToolsets: enabled}); err != nil && !errors.Is(err, ErrNotConnected) {
		b.log.Debug("toolsets update not delivered", "err", err)
	}
}

// Ping checks the editor answers cmd_ping with {pong: true}. The timeout is
// ctx's deadline, else DefaultPingTimeout. A failure is an *contract.Error.
func (b *Bridge) Ping(ctx context.Context) error {
	timeout := DefaultPingTimeout
	if dl, ok := ctx.Deadline(); ok {
		timeout = time.Until(dl)
		if timeout <= 0 {
			return contract.Errorf(contract.Timeout, "The context for cmd_ping had already expired.")
		}
	}
	r := b.Send(ctx, envelope.CmdPing, nil, timeout)
	if e := r.Err(); e != nil {
		return e
	}
	if !isPong(r.Result) {
		return contract.Errorf(contract.InternalError, "The editor answered cmd_ping without {\"pong\": true}. Reinstall the addon (godot-mcp addon install) so it matches the server.")
	}
	return nil
}

// Close stops the listener, closes the editor connection (status 1001) and
// fails every pending Send with BRIDGE_DISCONNECTED. It waits for the
// bridge's goroutines to finish. Calling it again is a no-op.
func (b *Bridge) Close() error {
	b.mu.Lock()
	if b.closed {
		b.mu.Unlock()
		return nil
	}
	b.closed = true
	close(b.closedCh)
	srv := b.srv
	p := b.peer
	b.peer = nil
	if p != nil {
		b.queueEventLocked(false, p.info)
	}
	b.mu.Unlock()

	var err error
	if srv != nil {
		err = srv.Close() // closes the listener; hijacked sockets are ours to close
	}
	if p != nil {
		p.detach(detachClosed)
		p.requestClose(nil, websocket.StatusGoingAway, "server shutting down")
		select {
		case <-p.finished:
		case <-time.After(2 * time.Second):
		}
	}
	b.baseCancel() // aborts whatever is still open (pending handshakes, stuck peers)
	b.wg.Wait()
	if b.eventDone != nil {
		close(b.eventStop) // every handler is done: no further events
		<-b.eventDone
	}
	b.log.Info("bridge closed")
	return err
}

func (b *Bridge) notConnected(command string) *contract.Error {
	return &contract.Error{
		Code:     contract.BridgeDisconnected,
		Required: contract.RequireBridgeConnected,
		Hint: fmt.Sprintf("No Godot editor is connected to the bridge, so '%s' was not sent. Open the project in Godot 4 with the godot-mcp addon enabled; it dials %s and reconnects automatically. Then retry.",
			command, b.URL()),
	}
}

func timeoutFailure(command string, timeout time.Duration, cancelled bool, waited time.Duration) *contract.Error {
	if cancelled {
		return contract.Errorf(contract.Timeout,
			"'%s' was cancelled after %s (timeout %s) before the editor answered; it may still run in the editor. Check the editor state before retrying.",
			command, waited.Round(time.Millisecond), timeout)
	}
	return contract.Errorf(contract.Timeout,
		"The editor did not answer '%s' within %s. It may be busy (importing, a modal dialog, paused in the debugger); the command may still complete. Check the editor, then retry with a longer timeout.",
		command, timeout)
}

// encodeParams returns params as a JSON object.
func encodeParams(command string, params any) ([]byte, *contract.Error) {
	var raw []byte
	switch v := params.(type) {
	case nil:
		return []byte("{}"), nil
	case json.RawMessage:
		raw = v
		if len(trimSpace(raw)) == 0 {
			return []byte("{}"), nil
		}
		if !jsonValid(raw) {
			return nil, contract.Errorf(contract.ValidationError, "The params of '%s' are not valid JSON; pass a JSON object.", command)
		}
		if !utf8.Valid(raw) {
			return nil, contract.Errorf(contract.ValidationError, "The params of '%s' are not valid UTF-8; the bridge sends UTF-8 text frames only.", command)
		}
	default:
		var err error
		raw, err = envelope.Marshal(params)
		if err != nil {
			return nil, contract.Errorf(contract.ValidationError, "The params of '%s' cannot be encoded as JSON: %v. Pass a JSON object.", command, err)
		}
	}
	t := trimSpace(raw)
	if string(t) == "null" {
		return []byte("{}"), nil
	}
	if len(t) == 0 || t[0] != '{' {
		return nil, contract.Errorf(contract.ValidationError, "The params of '%s' must be a JSON object, not %s.", command, jsonKind(t))
	}
	return raw, nil
}

// commandFrame builds {"id":..,"command":..,"params":..}; params pass through
// verbatim. Without id it builds a push.
func commandFrame(id, command string, params []byte) []byte {
	name, _ := envelope.Marshal(command) // a string always encodes
	buf := make([]byte, 0, len(id)+len(name)+len(params)+32)
	buf = append(buf, '{')
	if id != "" {
		buf = append(buf, `"id":"`...)
		buf = append(buf, id...) // decimal digits, no escaping needed
		buf = append(buf, `",`...)
	}
	buf = append(buf, `"command":`...)
	buf = append(buf, name...)
	buf = append(buf, `,"params":`...)
	buf = append(buf, params...)
	buf = append(buf, '}')
	return buf
}

// readFrame reads one whole message, keeping at most MaxFrameBytes+1 bytes
// in memory; the remainder of a larger message is discarded.
func readFrame(ctx context.Context, c *websocket.Conn) (websocket.MessageType, []byte, error) {
	typ, r, err := c.Reader(ctx)
	if err != nil {
		return 0, nil, err
	}
	data, err := io.ReadAll(io.LimitReader(r, envelope.MaxFrameBytes+1))
	if err != nil {
		return 0, nil, err
	}
	if len(data) > envelope.MaxFrameBytes {
		if _, err := io.Copy(io.Discard, r); err != nil {
			return 0, nil, err
		}
	}
	return typ, data, nil
}
