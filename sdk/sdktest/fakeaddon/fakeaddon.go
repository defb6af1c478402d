// Package fakeaddon plays the Godot editor addon in tests: a real WebSocket
// client that dials the host's bridge, says cmd_editor_hello, answers
// commands with canned handlers and records every frame it receives, byte
// for byte.
//
//	a, err := fakeaddon.Dial(ctx, b.URL())
//	a.HandleResult("cmd_get_scene_tree", map[string]any{"root": "Main"})
//	a.Handle("cmd_echo", fakeaddon.Echo)
//	a.Silence("cmd_slow") // never answered: drives timeouts
//
// Unknown commands are answered INTERNAL_ERROR exactly as the real addon
// does; cmd_ping is answered {pong: true} unless overridden. Handlers run
// concurrently, one goroutine per command.
//
// Like the real addon, the hello carries a command table (each command's
// class): by default the real addon's own, read from its embedded handler
// files (AddonCommands), so the host holds toolsets to the classes the
// editor really declares. WithCommands adds commands (an extension's) to
// the hello; Declare adds them later, as an extension loading would.
package fakeaddon

import (
	"context"
	"crypto/hmac"
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"net/http"
	"os"
	"path/filepath"
	"strconv"
	"sync"
	"sync/atomic"
	"time"

	"github.com/coder/websocket"

	"github.com/godot-mcp/godot-mcp/host/envelope"
	"github.com/godot-mcp/godot-mcp/sdk/contract"
)

// HelloID is the id the fake addon gives its cmd_editor_hello.
const HelloID = "hello"

// readLimit matches the bridge: twice the largest frame either side accepts.
const readLimit = 2 * envelope.MaxFrameBytes

// DefaultProjectDir is DefaultHello's project_dir. It is a placeholder:
// Dial sends instead a fresh project directory of its own (with a
// project.godot, removed by Close), so that a toolset's editor code can be
// installed into it and loaded (cmd_ext_load) as in a real project.
// ProjectDir reports it.
const DefaultProjectDir = "/tmp/fakeaddon/project"

// CmdErrorFeed is the real addon's error feed, which the host reads after
// every tool call from an editor that declares it (host/mcpserver
// errorfeed.go). DefaultHello leaves it out, so that a fake editor receives
// only the commands its test sends; declare it (WithCommands) and answer
// it to fake the editor's errors.
const CmdErrorFeed = "cmd_error_feed"

// DefaultHello is the cmd_editor_hello sent unless WithHello replaces it;
// its command table is the real core addon's (AddonCommands) but
// CmdErrorFeed, its project_dir DefaultProjectDir.
func DefaultHello() envelope.EditorHello {
	commands := AddonCommands()
	delete(commands, CmdErrorFeed)
	return envelope.EditorHello{
		ProjectDir:   DefaultProjectDir,
		GodotVersion: "4.4.1.stable",
		AddonVersion: "fakeaddon",
		Commands:     commands,
	}
}

type config struct {
	hello    envelope.EditorHello
	extra    map[string]envelope.CommandInfo
	token    string
	tokenSet bool
	proof    string // WithTokenProof's token
	proofSet bool
	header   http.Header
	host     string
	noHello  bool
}

// Option configures Dial.
type Option func(*config)

// WithToken puts t in the hello's token field (GODOT_MCP_BRIDGE_TOKEN).
func WithToken(t string) Option {
	return func(c *config) { c.token, c.tokenSet = t, true }
}

// WithTokenProof authenticates as today's addon does (#24.2): the hello
// carries a fresh nonce and a proof of t (envelope.HelloProof), never t
// itself, and Dial fails with *UnprovenServerError when the answer's
// server_proof is not the server's proof of t.
func WithTokenProof(t string) Option {
	return func(c *config) { c.proof, c.proofSet = t, true }
}

// UnprovenServerError is Dial's error when the server accepted a hello
// sent WithTokenProof without proving it knows the token: it may be any
// program that took the bridge port.
type UnprovenServerError struct{ ServerProof string }

func (e *UnprovenServerError) Error() string {
	return fmt.Sprintf("fakeaddon: the server did not prove it knows the bridge token (server_proof %q)", e.ServerProof)
}

// WithHello replaces the whole cmd_editor_hello params. A WithToken option
// still overrides its token.
func WithHello(h envelope.EditorHello) Option {
	return func(c *config) { c.hello = h }
}

// WithHeader adds an HTTP header to the upgrade request; "Host" overrides
// the request's Host. Use it to test the bridge's Origin and Host guards.
func WithHeader(k, v string) Option {
	return func(c *config) {
		if http.CanonicalHeaderKey(k) == "Host" {
			c.host = v
			return
		}
		c.header.Add(k, v)
	}
}

// WithCommands adds commands to the hello's command table (replacing
// entries of the same name), e.g. a third-party toolset's editor commands.
func WithCommands(table map[string]envelope.CommandInfo) Option {
	return func(c *config) {
		if c.extra == nil {
			c.extra = map[string]envelope.CommandInfo{}
		}
		for k, v := range table {
			c.extra[k] = v
		}
	}
}

// Command is a command table entry of class (read_only, mutating,
// destructive or runtime) owned by owner ("core" or a toolset's name);
// dryRun says it takes dry_run.
func Command(class, owner string, dryRun bool) envelope.CommandInfo {
	return envelope.CommandInfo{Class: class, Owner: owner, DryRun: dryRun}
}

// WithoutHello connects but sends nothing: Dial returns right after the
// upgrade.
func WithoutHello() Option {
	return func(c *config) { c.noHello = true }
}

// HandlerFunc answers one command: a result (marshalled to JSON; nil means
// {}) or a failure. ctx ends when the addon closes.
type HandlerFunc func(ctx context.Context, params json.RawMessage) (any, *contract.Error)

// Echo is a HandlerFunc whose result is the command's params.
func Echo(_ context.Context, params json.RawMessage) (any, *contract.Error) {
	return params, nil
}

// DialError is a failed WebSocket upgrade, e.g. the bridge's 403 for a
// request carrying Origin.
type DialError struct {
	URL        string
	StatusCode int // HTTP status of the refusal; 0 when none was received
	Err        error
}

func (e *DialError) Error() string {
	if e.StatusCode != 0 {
		return fmt.Sprintf("fakeaddon: dial %s refused with HTTP %d: %v", e.URL, e.StatusCode, e.Err)
	}
	return fmt.Sprintf("fakeaddon: dial %s: %v", e.URL, e.Err)
}

func (e *DialError) Unwrap() error { return e.Err }

// HelloRefusedError is returned by Dial when the bridge refused the hello.
// It unwraps to the answer's *contract.Error.
type HelloRefusedError struct {
	Response    envelope.Response    // the bridge's answer (zero if none came)
	CloseStatus websocket.StatusCode // how the bridge closed the link; -1 if unknown
}

func (e *HelloRefusedError) Error() string {
	if e.Response.Error == "" {
		return fmt.Sprintf("fakeaddon: connection closed before the hello was answered (close status %d)", e.CloseStatus)
	}
	return fmt.Sprintf("fakeaddon: hello refused: %s: %s (close status %d)", e.Response.Error, e.Response.Hint, e.CloseStatus)
}

func (e *HelloRefusedError) Unwrap() error {
	if err := e.Response.Err(); err != nil {
		return err
	}
	return nil
}

// Addon is one fake editor connection.
type Addon struct {
	url       string
	conn      *websocket.Conn
	transport *http.Transport
	ctx       context.Context
	cancel    context.CancelFunc
	done      chan struct{}
	wg        sync.WaitGroup // handler goroutines
	closeOnce sync.Once
	delay     atomic.Int64
	nextID    atomic.Uint64

	mu          sync.Mutex
	changed     chan struct{} // closed and replaced whenever something is recorded
	handlers    map[string]HandlerFunc
	silenced    map[string]bool
	frames      [][]byte
	received    []envelope.Command
	pushes      []envelope.Command
	notices     []envelope.Response
	requests    map[string]chan envelope.Response
	cursors     map[string]int
	readErr     error
	helloAnswer envelope.Response
	commands    map[string]envelope.CommandInfo // the table the editor declared
	extensions  map[string]string               // loaded extension folders -> stamp version
	extCommands map[string][]string             // loaded extension folder -> the commands it declared
	projectDir  string
	tempProject string // the project directory Dial made (DefaultProjectDir), removed by Close
}

// Dial connects to the bridge at url, sends cmd_editor_hello and waits for
// the answer. An HTTP refusal is a *DialError; a refused hello is a
// *HelloRefusedError (after the bridge closed the link, so its close status
// is known).
func Dial(ctx context.Context, url string, opts ...Option) (*Addon, error) {
	cfg := config{hello: DefaultHello(), header: http.Header{}}
	for _, o := range opts {
		o(&cfg)
	}
	if cfg.tokenSet {
		cfg.hello.Token = cfg.token
	}
	if cfg.proofSet {
		var b [32]byte
		_, _ = rand.Read(b[:])
		cfg.hello.Nonce = hex.EncodeToString(b[:])
		cfg.hello.TokenProof = envelope.HelloProof(cfg.proof, "editor", cfg.hello.Nonce)
	}
	var tempProject string
	if cfg.hello.ProjectDir == DefaultProjectDir {
		dir, err := newProject()
		if err != nil {
			return nil, err
		}
		tempProject, cfg.hello.ProjectDir = dir, dir
	}
	if len(cfg.extra) > 0 {
		table := make(map[string]envelope.CommandInfo, len(cfg.hello.Commands)+len(cfg.extra))
		for k, v := range cfg.hello.Commands {
			table[k] = v
		}
		for k, v := range cfg.extra {
			table[k] = v
		}
		cfg.hello.Commands = table
	}
	tr := &http.Transport{} // no proxy, no shared idle pool
	conn, resp, err := websocket.Dial(ctx, url, &websocket.DialOptions{
		HTTPClient: &http.Client{Transport: tr},
		HTTPHeader: cfg.header,
		Host:       cfg.host,
	})
	if err != nil {
		tr.CloseIdleConnections()
		removeProject(tempProject)
		de := &DialError{URL: url, Err: err}
		if resp != nil {
			de.StatusCode = resp.StatusCode
		}
		return nil, de
	}
	conn.SetReadLimit(readLimit)
	actx, cancel := context.WithCancel(context.Background())
	a := &Addon{
		url:         url,
		conn:        conn,
		transport:   tr,
		ctx:         actx,
		cancel:      cancel,
		done:        make(chan struct{}),
		changed:     make(chan struct{}),
		handlers:    map[string]HandlerFunc{envelope.CmdPing: pong},
		projectDir:  cfg.hello.ProjectDir,
		silenced:    map[string]bool{},
		requests:    map[string]chan envelope.Response{},
		cursors:     map[string]int{},
		commands:    cfg.hello.Commands,
		extCommands: map[string][]string{},
		tempProject: tempProject,
	}
	a.extensions = map[string]string{}
	for k, v := range cfg.hello.Extensions {
		a.extensions[k] = v
	}
	a.handlers[cmdExtLoad] = a.extLoad
	a.handlers[cmdExtUnload] = a.extUnload
	go a.readLoop()
	if cfg.noHello {
		return a, nil
	}
	answer, err := a.request(ctx, HelloID, envelope.CmdEditorHello, cfg.hello)
	if err != nil {
		// The bridge closed without answering (or ctx ended).
		status := a.waitClosed(ctx)
		_ = a.CloseNow()
		if ctx.Err() != nil {
			return nil, fmt.Errorf("fakeaddon: waiting for the hello answer: %w", ctx.Err())
		}
		return nil, &HelloRefusedError{CloseStatus: status}
	}
	if !answer.OK {
		status := a.waitClosed(ctx)
		_ = a.CloseNow()
		return nil, &HelloRefusedError{Response: answer, CloseStatus: status}
	}
	if cfg.proofSet {
		var r struct {
			ServerProof string `json:"server_proof"`
		}
		_ = json.Unmarshal(answer.Result, &r)
		if !hmac.Equal([]byte(r.ServerProof), []byte(envelope.HelloProof(cfg.proof, "server", cfg.hello.Nonce))) {
			_ = a.CloseNow()
			return nil, &UnprovenServerError{ServerProof: r.ServerProof}
		}
	}
	a.mu.Lock()
	a.helloAnswer = answer
	a.mu.Unlock()
	return a, nil
}

// waitClosed waits (bounded) for the server to close the link and returns
// the close status.
func (a *Addon) waitClosed(ctx context.Context) websocket.StatusCode {
	t := time.NewTimer(5 * time.Second)
	defer t.Stop()
	select {
	case <-a.done:
	case <-ctx.Done():
	case <-t.C:
	}
	return a.CloseStatus()
}

func pong(context.Context, json.RawMessage) (any, *contract.Error) {
	return map[string]bool{"pong": true}, nil
}

// URL is the bridge URL this addon dialled.
func (a *Addon) URL() string { return a.url }

// Hello returns the bridge's answer to cmd_editor_hello (zero with
// WithoutHello).
func (a *Addon) Hello() envelope.Response {
	a.mu.Lock()
	defer a.mu.Unlock()
	return a.helloAnswer
}

// Handle installs h for command, replacing any previous handler (including
// the default cmd_ping one) and clearing Silence for it.
func (a *Addon) Handle(command string, h HandlerFunc) {
	a.mu.Lock()
	defer a.mu.Unlock()
	a.handlers[command] = h
	delete(a.silenced, command)
}

// HandleResult answers command with result every time.
func (a *Addon) HandleResult(command string, result any) {
	a.Handle(command, func(context.Context, json.RawMessage) (any, *contract.Error) { return result, nil })
}

// HandleError answers command with the failure e every time.
func (a *Addon) HandleError(command string, e *contract.Error) {
	a.Handle(command, func(context.Context, json.RawMessage) (any, *contract.Error) { return nil, e })
}

// Silence makes the addon record command but never answer it.
func (a *Addon) Silence(command string) {
	a.mu.Lock()
	defer a.mu.Unlock()
	a.silenced[command] = true
}

// Delay holds every answer back by d (a slow editor); 0 turns it off.
func (a *Addon) Delay(d time.Duration) { a.delay.Store(int64(d)) }

// Frames returns the exact bytes of every frame received, in order.
func (a *Addon) Frames() [][]byte {
	a.mu.Lock()
	defer a.mu.Unlock()
	return append([][]byte(nil), a.frames...)
}

// Received returns the commands (frames with an id) received, in order,
// whether answered or not.
func (a *Addon) Received() []envelope.Command {
	a.mu.Lock()
	defer a.mu.Unlock()
	return append([]envelope.Command(nil), a.received...)
}

// Pushes returns the fire-and-forget commands (no id) received, in order,
// e.g. cmd_server_hello and cmd_toolsets_update.
func (a *Addon) Pushes() []envelope.Command {
	a.mu.Lock()
	defer a.mu.Unlock()
	return append([]envelope.Command(nil), a.pushes...)
}

// Notices returns the response-shaped frames that answered none of the
// addon's own requests, e.g. the PEER_REPLACED notice.
func (a *Addon) Notices() []envelope.Response {
	a.mu.Lock()
	defer a.mu.Unlock()
	return append([]envelope.Response(nil), a.notices...)
}

// WaitCommand returns the next command named command: each call for the
// same name returns the following one, in arrival order.
func (a *Addon) WaitCommand(ctx context.Context, command string) (envelope.Command, error) {
	return a.next(ctx, "command "+command, "c:"+command, func() []envelope.Command { return a.received }, command)
}

// WaitPush returns the next push named command, like WaitCommand.
func (a *Addon) WaitPush(ctx context.Context, command string) (envelope.Command, error) {
	return a.next(ctx, "push "+command, "p:"+command, func() []envelope.Command { return a.pushes }, command)
}

// WaitNotice returns the next notice (see Notices).
func (a *Addon) WaitNotice(ctx context.Context) (envelope.Response, error) {
	var out envelope.Response
	err := a.await(ctx, "a notice", func() bool {
		i := a.cursors["n"]
		if i < len(a.notices) {
			out = a.notices[i]
			a.cursors["n"] = i + 1
			return true
		}
		return false
	})
	return out, err
}

// ServerHello waits for the cmd_server_hello push and decodes it. It does
// not consume it for WaitPush.
func (a *Addon) ServerHello(ctx context.Context) (envelope.ServerHello, error) {
	var raw json.RawMessage
	err := a.await(ctx, "push "+envelope.CmdServerHello, func() bool {
		for _, p := range a.pushes {
			if p.Command == envelope.CmdServerHello {
				raw = p.Params
				return true
			}
		}
		return false
	})
	if err != nil {
		return envelope.ServerHello{}, err
	}
	var h envelope.ServerHello
	if err := json.Unmarshal(raw, &h); err != nil {
		return h, fmt.Errorf("fakeaddon: cmd_server_hello params: %w", err)
	}
	return h, nil
}

func (a *Addon) next(ctx context.Context, what, cursor string, list func() []envelope.Command, command string) (envelope.Command, error) {
	var out envelope.Command
	err := a.await(ctx, what, func() bool {
		want := a.cursors[cursor]
		seen := 0
		for _, c := range list() {
			if c.Command != command {
				continue
			}
			if seen == want {
				out = c
				a.cursors[cursor] = want + 1
				return true
			}
			seen++
		}
		return false
	})
	return out, err
}

// await calls try (under a.mu) until it reports success, ctx ends or the
// connection ends.
func (a *Addon) await(ctx context.Context, what string, try func() bool) error {
	for {
		finished := isClosed(a.done) // checked first: done closes after the last frame is recorded
		a.mu.Lock()
		ok := try()
		ch := a.changed
		a.mu.Unlock()
		if ok {
			return nil
		}
		if finished {
			return fmt.Errorf("fakeaddon: connection ended (close status %d) before %s", a.CloseStatus(), what)
		}
		select {
		case <-ch:
		case <-a.done:
		case <-ctx.Done():
			return fmt.Errorf("fakeaddon: waiting for %s: %w", what, ctx.Err())
		}
	}
}

func isClosed(ch <-chan struct{}) bool {
	select {
	case <-ch:
		return true
	default:
		return false
	}
}

// SendRaw writes frame as one text message, verbatim.
func (a *Addon) SendRaw(ctx context.Context, frame []byte) error {
	return a.conn.Write(ctx, websocket.MessageText, frame)
}

// SendBinary writes frame as one binary message (the bridge drops those).
func (a *Addon) SendBinary(ctx context.Context, frame []byte) error {
	return a.conn.Write(ctx, websocket.MessageBinary, frame)
}

// Request sends an editor → server command and waits for the answer.
func (a *Addon) Request(ctx context.Context, command string, params any) (envelope.Response, error) {
	return a.request(ctx, "a"+strconv.FormatUint(a.nextID.Add(1), 10), command, params)
}

func (a *Addon) request(ctx context.Context, id, command string, params any) (envelope.Response, error) {
	if params == nil {
		params = struct{}{}
	}
	p, err := envelope.Marshal(params)
	if err != nil {
		return envelope.Response{}, fmt.Errorf("fakeaddon: params of %s: %w", command, err)
	}
	frame, err := envelope.Marshal(envelope.Command{ID: id, Command: command, Params: p})
	if err != nil {
		return envelope.Response{}, err
	}
	ch := make(chan envelope.Response, 1)
	a.mu.Lock()
	a.requests[id] = ch
	a.mu.Unlock()
	defer func() {
		a.mu.Lock()
		delete(a.requests, id)
		a.mu.Unlock()
	}()
	if err := a.conn.Write(ctx, websocket.MessageText, frame); err != nil {
		return envelope.Response{}, fmt.Errorf("fakeaddon: sending %s: %w", command, err)
	}
	select {
	case r := <-ch:
		return r, nil
	case <-a.done:
		select {
		case r := <-ch:
			return r, nil
		default:
		}
		return envelope.Response{}, fmt.Errorf("fakeaddon: connection ended (close status %d) before %s was answered", a.CloseStatus(), command)
	case <-ctx.Done():
		return envelope.Response{}, fmt.Errorf("fakeaddon: waiting for the answer to %s: %w", command, ctx.Err())
	}
}

// Ping sends cmd_ping to the server and checks it answers {pong: true}.
func (a *Addon) Ping(ctx context.Context) error {
	r, err := a.Request(ctx, envelope.CmdPing, nil)
	if err != nil {
		return err
	}
	if e := r.Err(); e != nil {
		return e
	}
	var p struct {
		Pong bool `json:"pong"`
	}
	if json.Unmarshal(r.Result, &p) != nil || !p.Pong {
		return fmt.Errorf("fakeaddon: cmd_ping answered %s, want {\"pong\":true}", r.Result)
	}
	return nil
}

// Done is closed when the connection has ended.
func (a *Addon) Done() <-chan struct{} { return a.done }

// CloseStatus is the close status the connection ended with (e.g. 4000 for
// a replaced peer, 1008 for a refused hello), or -1 if none was received.
func (a *Addon) CloseStatus() websocket.StatusCode {
	a.mu.Lock()
	defer a.mu.Unlock()
	if a.readErr == nil {
		return -1
	}
	return websocket.CloseStatus(a.readErr)
}

// Err is the error that ended the connection, nil while it is open.
func (a *Addon) Err() error {
	a.mu.Lock()
	defer a.mu.Unlock()
	return a.readErr
}

// Close closes the connection with a normal close handshake and waits for
// the addon's goroutines (handlers must honour their ctx).
func (a *Addon) Close() error {
	a.closeOnce.Do(func() { _ = a.conn.Close(websocket.StatusNormalClosure, "") })
	a.cleanup()
	return nil
}

// CloseNow drops the connection without a close handshake, like an editor
// that crashed.
func (a *Addon) CloseNow() error {
	a.closeOnce.Do(func() { _ = a.conn.CloseNow() })
	a.cleanup()
	return nil
}

func (a *Addon) cleanup() {
	<-a.done
	a.cancel()
	a.wg.Wait()
	a.transport.CloseIdleConnections()
	removeProject(a.tempProject)
}

// ProjectDir is the project directory the hello named (for DefaultHello,
// the one Dial made).
func (a *Addon) ProjectDir() string { return a.projectDir }

// newProject makes an empty Godot project directory for a fake editor.
func newProject() (string, error) {
	dir, err := os.MkdirTemp("", "fakeaddon-project-")
	if err != nil {
		return "", fmt.Errorf("fakeaddon: project directory: %w", err)
	}
	if err := os.WriteFile(filepath.Join(dir, "project.godot"), []byte("config_version=5\n"), 0o644); err != nil {
		_ = os.RemoveAll(dir)
		return "", fmt.Errorf("fakeaddon: project directory: %w", err)
	}
	return dir, nil
}

func removeProject(dir string) {
	if dir != "" {
		_ = os.RemoveAll(dir)
	}
}

func (a *Addon) readLoop() {
	defer close(a.done)
	for {
		_, data, err := a.conn.Read(a.ctx)
		if err != nil {
			a.mu.Lock()
			a.readErr = err
			a.notifyLocked()
			a.mu.Unlock()
			return
		}
		a.record(data)
	}
}

func (a *Addon) notifyLocked() {
	close(a.changed)
	a.changed = make(chan struct{})
}

func (a *Addon) record(data []byte) {
	a.mu.Lock()
	defer a.mu.Unlock()
	defer a.notifyLocked()
	a.frames = append(a.frames, data)
	f, err := envelope.DecodeFrame(data)
	switch {
	case err != nil:
		// Kept in Frames only.
	case f.IsResponse():
		if ch, ok := a.requests[f.ID]; ok && f.ID != "" {
			delete(a.requests, f.ID)
			ch <- f.Response()
			return
		}
		a.notices = append(a.notices, f.Response())
	case f.ID == "":
		a.pushes = append(a.pushes, envelope.Command{Command: f.Command, Params: f.Params})
	default:
		cmd := envelope.Command{ID: f.ID, Command: f.Command, Params: f.Params}
		a.received = append(a.received, cmd)
		a.wg.Add(1) // only the read loop adds, and cleanup waits for it first
		go a.serve(cmd)
	}
}

// serve answers one command like the real addon's router: a missing handler
// or a panic becomes INTERNAL_ERROR, never a dropped command.
func (a *Addon) serve(cmd envelope.Command) {
	defer a.wg.Done()
	a.mu.Lock()
	silenced := a.silenced[cmd.Command]
	h := a.handlers[cmd.Command]
	a.mu.Unlock()
	if silenced {
		return
	}
	if d := time.Duration(a.delay.Load()); d > 0 {
		t := time.NewTimer(d)
		select {
		case <-t.C:
		case <-a.ctx.Done():
			t.Stop()
			return
		}
	}
	resp := a.run(h, cmd)
	frame, err := envelope.Marshal(resp)
	if err != nil {
		frame, _ = envelope.Marshal(envelope.Failure(cmd.ID, contract.Errorf(contract.InternalError, "fakeaddon: cannot encode the answer to '%s': %v", cmd.Command, err)))
	}
	_ = a.conn.Write(a.ctx, websocket.MessageText, frame)
}

func (a *Addon) run(h HandlerFunc, cmd envelope.Command) (resp envelope.Response) {
	if h == nil {
		return envelope.Failure(cmd.ID, contract.Errorf(contract.InternalError,
			"The addon has no handler for '%s'. Reinstall the addon (godot-mcp addon install) so it matches the server.", cmd.Command))
	}
	defer func() {
		if r := recover(); r != nil {
			resp = envelope.Failure(cmd.ID, contract.Errorf(contract.InternalError, "'%s' failed inside the addon: %v", cmd.Command, r))
		}
	}()
	result, herr := h(a.ctx, cmd.Params)
	if herr != nil {
		return envelope.Failure(cmd.ID, herr)
	}
	if result == nil {
		result = json.RawMessage("{}")
	}
	r, err := envelope.Success(cmd.ID, result)
	if err != nil {
		return envelope.Failure(cmd.ID, contract.Errorf(contract.InternalError, "'%s' failed inside the addon: result is not JSON: %v", cmd.Command, err))
	}
	return r
}
