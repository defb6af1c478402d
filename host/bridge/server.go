package bridge

import (
	"context"
	"crypto/hmac"
	"crypto/sha256"
	"crypto/subtle"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"net"
	"net/http"
	"strings"
	"sync/atomic"
	"time"

	"github.com/coder/websocket"

	"github.com/godot-mcp/godot-mcp/host/envelope"
	"github.com/godot-mcp/godot-mcp/internal/connlimit"
	"github.com/godot-mcp/godot-mcp/internal/logcap"
	"github.com/godot-mcp/godot-mcp/sdk/contract"
)

// HelloResult is the result of an accepted cmd_editor_hello.
type HelloResult struct {
	Accepted        bool   `json:"accepted"`
	ServerVersion   string `json:"server_version"`
	ContractVersion int    `json:"contract_version"`
	// ServerProof answers the hello's nonce when the bridge has a token:
	// envelope.HelloProof(token, "server", nonce). The addon talks to no
	// server that cannot give it (#24.2).
	ServerProof string `json:"server_proof,omitempty"`
}

// serveHTTP guards the handshake, upgrades, authenticates and serves one
// editor connection for its whole life.
func (b *Bridge) serveHTTP(w http.ResponseWriter, r *http.Request) {
	// A browser page always sends Origin; Godot's WebSocketPeer never does.
	// websocket.Accept's own origin check would let DNS rebinding through.
	if origin, ok := r.Header["Origin"]; ok {
		b.warn.Warn(b.log, "refused a bridge handshake carrying an Origin header (browser pages may not drive the editor)",
			"origin", logcap.Value(strings.Join(origin, ",")), "remote", r.RemoteAddr)
		http.Error(w, "godot-mcp bridge: requests with an Origin header are refused", http.StatusForbidden)
		return
	}
	if !b.hostAllowed(r.Host) {
		b.warn.Warn(b.log, "refused a bridge handshake for a foreign Host (possible DNS rebinding)", "host", logcap.Value(r.Host), "remote", r.RemoteAddr)
		http.Error(w, "godot-mcp bridge: foreign Host refused", http.StatusMisdirectedRequest)
		return
	}

	// Connections before their hello are bounded by the listener's
	// connlimit.Limiter (the oldest is evicted when all slots are taken).
	b.mu.Lock()
	if b.closed {
		b.mu.Unlock()
		http.Error(w, "godot-mcp bridge: unavailable", http.StatusServiceUnavailable)
		return
	}
	b.wg.Add(1)
	b.mu.Unlock()
	defer b.wg.Done()

	// Origin and Host were checked above.
	conn, err := websocket.Accept(w, r, &websocket.AcceptOptions{InsecureSkipVerify: true})
	if err != nil {
		b.log.Debug("websocket upgrade failed", "err", err, "remote", r.RemoteAddr)
		return
	}
	// Until a valid hello, a frame may be a hello's size only.
	conn.SetReadLimit(HelloReadLimit)
	info, answer, ok := b.handshake(conn, r.RemoteAddr)
	if !ok {
		return
	}
	conn.SetReadLimit(ReadLimit)
	connlimit.Settle(r.Context()) // the editor's connection is never evicted
	b.runPeer(newPeer(b, conn, info), answer)
}

// handshake reads and checks cmd_editor_hello. On success it returns the
// answer for runPeer to send; on refusal it answers VALIDATION_ERROR itself
// and closes with 1008, and the active peer is never touched.
func (b *Bridge) handshake(conn *websocket.Conn, remote string) (PeerInfo, []byte, bool) {
	ctx, cancel := context.WithCancel(b.baseCtx)
	defer cancel()

	var timedOut atomic.Bool
	closed := make(chan struct{})
	timer := time.AfterFunc(b.opts.HelloTimeout, func() {
		defer close(closed)
		timedOut.Store(true)
		_ = conn.Close(websocket.StatusPolicyViolation, "no cmd_editor_hello in time")
	})
	typ, data, err := readFrame(ctx, conn)
	if !timer.Stop() {
		<-closed
		b.warn.Warn(b.log, "closed a connection that sent no cmd_editor_hello in time", "timeout", b.opts.HelloTimeout, "remote", remote)
		return PeerInfo{}, nil, false
	}
	if err != nil {
		b.log.Debug("connection ended before cmd_editor_hello", "err", err, "remote", remote)
		_ = conn.CloseNow()
		return PeerInfo{}, nil, false
	}

	refuse := func(id, reason, hint string) (PeerInfo, []byte, bool) {
		// reason is a fixed phrase; token values never reach the log.
		b.warn.WarnAs(b.log, "handshake: "+reason, "refused an editor handshake", "reason", reason, "remote", remote)
		if frame, err := envelope.Marshal(envelope.Failure(id, contract.Errorf(contract.ValidationError, "%s", hint))); err == nil {
			wctx, wcancel := context.WithTimeout(ctx, b.opts.WriteTimeout)
			_ = conn.Write(wctx, websocket.MessageText, frame)
			wcancel()
		}
		_ = conn.Close(websocket.StatusPolicyViolation, reason)
		return PeerInfo{}, nil, false
	}

	if typ != websocket.MessageText {
		return refuse("", "first message not cmd_editor_hello",
			"The first message on the bridge must be a JSON text frame cmd_editor_hello {project_dir, godot_version, addon_version[, token]}. Reinstall the addon (godot-mcp addon install).")
	}
	f, derr := envelope.DecodeFrame(data)
	if derr != nil || f.Command != envelope.CmdEditorHello {
		got := "a malformed frame"
		if derr == nil {
			got = fmt.Sprintf("'%s'", f.Command)
			if f.Command == "" {
				got = "an answer"
			}
		}
		return refuse(f.ID, "first message not cmd_editor_hello",
			fmt.Sprintf("The first message on the bridge must be cmd_editor_hello {project_dir, godot_version, addon_version[, token]}, got %s. Reinstall the addon (godot-mcp addon install) so it matches the server.", got))
	}
	var hello envelope.EditorHello
	if len(f.Params) > 0 && string(f.Params) != "null" {
		if err := json.Unmarshal(f.Params, &hello); err != nil {
			return refuse(f.ID, "malformed cmd_editor_hello",
				"cmd_editor_hello params must be an object {project_dir, godot_version, addon_version[, token]}. Reinstall the addon (godot-mcp addon install).")
		}
	}
	var serverProof string
	if b.opts.Token != "" {
		switch {
		case hello.TokenProof != "":
			if !validNonce(hello.Nonce) {
				return refuse(f.ID, "malformed nonce",
					"cmd_editor_hello's nonce must be 64 to 128 hex digits, fresh for every hello. Reinstall the addon (godot-mcp addon install).")
			}
			if !hmac.Equal([]byte(hello.TokenProof), []byte(envelope.HelloProof(b.opts.Token, "editor", hello.Nonce))) {
				return refuse(f.ID, "token mismatch",
					"The bridge token does not match: set GODOT_MCP_BRIDGE_TOKEN to the same value for the server and the editor, then restart the editor.")
			}
			if !b.freshNonce(hello.Nonce) {
				return refuse(f.ID, "replayed hello",
					"This cmd_editor_hello was sent before (its nonce is not fresh): a replayed hello is refused. The addon makes a new one on every connection; reconnect.")
			}
		case hello.Token == "":
			return refuse(f.ID, "missing token",
				"The bridge requires a token: set GODOT_MCP_BRIDGE_TOKEN in the editor's environment to the server's value and restart the editor.")
		case !b.tokenMatches(hello.Token):
			return refuse(f.ID, "token mismatch",
				"The bridge token does not match: set GODOT_MCP_BRIDGE_TOKEN to the same value for the server and the editor, then restart the editor.")
		}
		if validNonce(hello.Nonce) {
			serverProof = envelope.HelloProof(b.opts.Token, "server", hello.Nonce)
		}
	}

	result, _ := envelope.Marshal(HelloResult{Accepted: true, ServerVersion: b.opts.ServerVersion, ContractVersion: contract.ContractVersion, ServerProof: serverProof})
	answer, err := envelope.Marshal(envelope.Response{ID: f.ID, OK: true, Result: result})
	if err != nil {
		b.log.Error("cannot encode the hello answer", "err", err)
		_ = conn.CloseNow()
		return PeerInfo{}, nil, false
	}
	return PeerInfo{
		ProjectDir:      hello.ProjectDir,
		GodotVersion:    hello.GodotVersion,
		AddonVersion:    hello.AddonVersion,
		GodotExecutable: hello.GodotExecutable,
		RemoteAddr:      remote,
		ConnectedAt:     time.Now(),
		commands:        cleanCommands(b.log, hello.Commands),
		extensions:      hello.Extensions,
	}, answer, true
}

// runPeer queues the hello answer and cmd_server_hello, then makes p the
// active peer (replacing any old one) and serves it until its connection
// ends. Queuing first guarantees the editor sees both before any command,
// and activating before the answer is written guarantees that an editor that
// read its hello answer can be sent commands at once.
func (b *Bridge) runPeer(p *peer, helloAnswer []byte) {
	p.out <- outFrame{data: helloAnswer}
	if hello, err := b.serverHelloFrame(); err == nil {
		p.out <- outFrame{data: hello}
	}

	b.mu.Lock()
	if b.closed {
		b.mu.Unlock()
		go p.writeLoop()
		p.detach(detachClosed)
		p.requestClose(nil, websocket.StatusGoingAway, "server shutting down")
		_ = p.readLoop()
		b.teardown(p)
		return
	}
	old := b.peer
	b.peer = p
	if old == nil {
		close(b.connCh)
	}
	b.queueEventLocked(true, p.info)
	b.mu.Unlock()
	go p.writeLoop() // only now may the hello answer reach the editor

	if old != nil {
		old.detach(detachReplaced)
		notice, _ := envelope.Marshal(envelope.Failure("", contract.Errorf(contract.PeerReplaced,
			"Another Godot editor connected to this godot-mcp server and replaced this one (one editor per server). Close the other editor, or give each editor its own server with GODOT_MCP_BRIDGE_URL.")))
		old.requestClose(notice, StatusPeerReplaced, "peer replaced")
		b.log.Info("editor connection replaced", "old_remote", old.info.RemoteAddr, "old_project_dir", logcap.Value(old.info.ProjectDir))
	}
	b.log.Info("editor connected", "project_dir", logcap.Value(p.info.ProjectDir), "godot_version", logcap.Value(p.info.GodotVersion),
		"addon_version", logcap.Value(p.info.AddonVersion), "remote", p.info.RemoteAddr)

	err := p.readLoop()

	b.mu.Lock()
	active := b.peer == p
	if active {
		b.peer = nil
		b.connCh = make(chan struct{})
		b.queueEventLocked(false, p.info)
	}
	b.mu.Unlock()
	if active {
		b.log.Info("editor disconnected", "project_dir", logcap.Value(p.info.ProjectDir), "remote", p.info.RemoteAddr,
			"status", websocket.CloseStatus(err))
	}
	b.teardown(p)
}

func (b *Bridge) teardown(p *peer) {
	p.detach(detachLost)
	p.cancel()
	<-p.writerDone
	_ = p.conn.CloseNow()
	close(p.finished)
}

func (b *Bridge) serverHelloFrame() ([]byte, error) {
	var enabled []string
	if b.opts.EnabledToolsets != nil {
		enabled = b.opts.EnabledToolsets()
	}
	if enabled == nil {
		enabled = []string{}
	}
	params, err := envelope.Marshal(envelope.ServerHello{
		ServerVersion:         b.opts.ServerVersion,
		ContractVersion:       contract.ContractVersion,
		MinCompatibleContract: contract.MinCompatibleContract,
		EnabledToolsets:       enabled,
	})
	if err != nil {
		return nil, err
	}
	return commandFrame("", envelope.CmdServerHello, params), nil
}

// queueEventLocked records a peer change for OnPeerChange; b.mu is held so
// events are ordered exactly as the state changed.
func (b *Bridge) queueEventLocked(connected bool, info PeerInfo) {
	if b.opts.OnPeerChange == nil || b.eventDone == nil {
		return
	}
	b.events = append(b.events, peerEvent{connected: connected, info: info})
	b.signalEvents()
}

func (b *Bridge) signalEvents() {
	select {
	case b.eventSig <- struct{}{}:
	default:
	}
}

// dispatchEvents calls OnPeerChange in order, outside the bridge's locks.
func (b *Bridge) dispatchEvents() {
	defer close(b.eventDone)
	for {
		select {
		case <-b.eventSig:
			b.deliverEvents()
		case <-b.eventStop:
			b.deliverEvents()
			return
		}
	}
}

func (b *Bridge) deliverEvents() {
	b.mu.Lock()
	evs := b.events
	b.events = nil
	b.mu.Unlock()
	for _, ev := range evs {
		info := ev.info
		b.opts.OnPeerChange(ev.connected, &info)
	}
}

// hostAllowed accepts loopback Hosts (127.0.0.0/8, ::1, localhost, with or
// without port) and the explicitly configured listen host.
func (b *Bridge) hostAllowed(hostHeader string) bool {
	host := hostHeader
	if h, _, err := net.SplitHostPort(hostHeader); err == nil {
		host = h
	} else {
		host = strings.TrimSuffix(strings.TrimPrefix(host, "["), "]")
	}
	if host == "" {
		return false
	}
	if isLoopbackHost(host) {
		return true
	}
	return strings.EqualFold(host, b.host)
}

func isLoopbackHost(host string) bool {
	if strings.EqualFold(host, "localhost") {
		return true
	}
	ip := net.ParseIP(host)
	return ip != nil && ip.IsLoopback()
}

// validNonce accepts 64 to 128 hex digits (the addon sends 64).
func validNonce(n string) bool {
	if len(n) < 64 || len(n) > 128 {
		return false
	}
	_, err := hex.DecodeString(n)
	return err == nil
}

// maxNonces bounds the nonces a bridge remembers against a replayed
// hello (a proof an impostor on the port captured, sent on to this
// server); the oldest is forgotten first.
const maxNonces = 4096

// freshNonce records n and reports whether it was not seen before.
func (b *Bridge) freshNonce(n string) bool {
	b.nonceMu.Lock()
	defer b.nonceMu.Unlock()
	if _, seen := b.nonces[n]; seen {
		return false
	}
	if b.nonces == nil {
		b.nonces = map[string]struct{}{}
	}
	if len(b.nonceOrder) >= maxNonces {
		delete(b.nonces, b.nonceOrder[0])
		b.nonceOrder = b.nonceOrder[1:]
	}
	b.nonces[n] = struct{}{}
	b.nonceOrder = append(b.nonceOrder, n)
	return true
}

func hashToken(t string) [32]byte { return sha256.Sum256([]byte(t)) }

// tokenMatches compares in constant time; hashing first hides the length.
func (b *Bridge) tokenMatches(t string) bool {
	h := hashToken(t)
	return subtle.ConstantTimeCompare(h[:], b.tokenHash[:]) == 1
}
