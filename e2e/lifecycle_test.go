package e2e

import (
	"strings"
	"testing"
	"time"
)

// backoffCap is the addon's longest wait between two dials.
const backoffCap = 5 * time.Second

// reconnectSlack covers what comes on top of the backoff: a frame of the
// editor (up to 100 ms when unfocused), the hello round trip, and the poll.
const reconnectSlack = 3 * time.Second

const connectedLine = "godot_mcp: connected to the godot-mcp server"

// waitConnectedLines waits (bounded) until the editor has said n times that
// it connected.
func waitConnectedLines(t *testing.T, e *editor, n int) {
	t.Helper()
	for wait := time.Now().Add(15 * time.Second); len(grepLines(e.out.String(), connectedLine)) < n && time.Now().Before(wait); {
		time.Sleep(50 * time.Millisecond)
	}
}

// The host goes away and comes back on the same port: the editor reconnects
// by itself, after a short outage and after one long enough for its backoff
// to reach the cap, and the tools work again.
func TestHostRestart(t *testing.T) {
	project := newProject(t)
	h := startHostT(t, "ws://127.0.0.1:0")
	url := h.url
	e := startEditorT(t, project, url)
	first := waitEditor(t, h, e)
	// The host logs the editor as soon as it accepts the hello; stopping it
	// before the addon has read the answer would make Godot drop that answer
	// together with the close frame (it does so with frames that arrive with a
	// close), and the addon would rightly never call itself connected. Wait
	// for the addon's own word before each stop.
	waitConnectedLines(t, e, 1)

	for i, outage := range []time.Duration{0, 12 * time.Second} {
		h.stop()
		// The editor notices and keeps dialing; leave the port closed for
		// the outage (the backoff doubles from 500 ms to its 5 s cap).
		time.Sleep(outage)
		h = startHostT(t, url)
		if h.url != url {
			t.Fatalf("the new host listens on %s, want %s", h.url, url)
		}
		restarted := time.Now()
		info := waitEditor(t, h, e)
		took := time.Since(restarted)
		t.Logf("outage %v: the editor reconnected %v after the host came back", outage, took.Round(time.Millisecond))
		if took > backoffCap+reconnectSlack {
			t.Errorf("outage %v: the editor took %v to reconnect; its backoff should be capped at %v", outage, took, backoffCap)
		}
		if !info.Bridge.Peer.ConnectedAt.After(first.Bridge.Peer.ConnectedAt) {
			t.Errorf("connected_at %v is not after the first connection's %v", info.Bridge.Peer.ConnectedAt, first.Bridge.Peer.ConnectedAt)
		}
		var st editorState
		h.mustCall(t, "godot_get_editor_state", nil, &st)
		if !sameDir(st.ProjectDir, project) {
			t.Errorf("after reconnecting, editor state is for %q", st.ProjectDir)
		}
		waitConnectedLines(t, e, i+2)
	}
	out := e.out.String()
	if n := len(grepLines(out, connectedLine)); n != 3 {
		t.Errorf("the editor said it connected %d times, want 3 (start + 2 host restarts):\n%s", n, out)
	}
	// No line per dial attempt: the 12 s outage alone is about six attempts.
	if n := len(grepLines(out, "godot_mcp:")); n > 6 {
		t.Errorf("the addon printed %d lines for 3 connections and 2 losses; it must not log every retry:\n%s", n, out)
	}
}

// The editor is killed and started again: the host notices the loss, then
// sees the new editor, and the tools work again.
func TestEditorRestart(t *testing.T) {
	project := newProject(t)
	h := startHostT(t, "ws://127.0.0.1:0")
	e := startEditorT(t, project, h.url)
	first := waitEditor(t, h, e)

	e.kill()
	ctx := ctxFor(t, 30*time.Second)
	for {
		info, err := h.serverInfo(ctx)
		if err != nil {
			t.Fatal(err)
		}
		if !info.Bridge.Connected {
			break
		}
		if ctx.Err() != nil {
			t.Fatal("the host still shows the killed editor as connected")
		}
		time.Sleep(100 * time.Millisecond)
	}
	r, err := h.call(ctx, "godot_get_editor_state", nil)
	if err != nil {
		t.Fatal(err)
	}
	if !r.IsError || r.failure().Error != "BRIDGE_DISCONNECTED" {
		t.Errorf("editor state without an editor: %s, want BRIDGE_DISCONNECTED", r.Raw)
	}

	e2 := startEditorT(t, project, h.url)
	info := waitEditor(t, h, e2)
	if !info.Bridge.Peer.ConnectedAt.After(first.Bridge.Peer.ConnectedAt) {
		t.Errorf("the new peer's connected_at %v is not after the old one's %v", info.Bridge.Peer.ConnectedAt, first.Bridge.Peer.ConnectedAt)
	}
	var st editorState
	h.mustCall(t, "godot_get_editor_state", nil, &st)
	if !sameDir(st.ProjectDir, project) {
		t.Errorf("editor state is for %q, want %q", st.ProjectDir, project)
	}
}

// A second editor (another copy of the project) takes the bridge over; the
// first one is told, stops dialing, and the host keeps the second.
func TestSecondEditorReplacesFirst(t *testing.T) {
	h := startHostT(t, "ws://127.0.0.1:0")
	a := startEditorT(t, newProject(t), h.url)
	waitEditor(t, h, a)

	mark := len(h.stderr.String())
	b := startEditorT(t, newProject(t), h.url)
	waitEditor(t, h, b)

	// Hold for longer than the addon's longest backoff: if the first editor
	// dialed again it would take the bridge back.
	hold := 2*backoffCap + 2*time.Second
	deadline := time.Now().Add(hold)
	ctx := ctxFor(t, hold+callTimeout)
	for time.Now().Before(deadline) {
		info, err := h.serverInfo(ctx)
		if err != nil {
			t.Fatal(err)
		}
		if !info.Bridge.Connected || info.Bridge.Peer == nil || !sameDir(info.Bridge.Peer.ProjectDir, b.project) {
			t.Fatalf("the bridge left the second editor: %s", describeBridge(info))
		}
		time.Sleep(250 * time.Millisecond)
	}
	log := h.stderr.String()[mark:]
	if n := len(grepLines(log, `msg="editor connected"`)); n != 1 {
		t.Errorf("after the second editor came, the host saw %d connections, want 1 (the first editor must not dial again):\n%s", n, log)
	}
	if len(grepLines(log, "editor connection replaced")) != 1 {
		t.Errorf("the host did not log the replacement:\n%s", log)
	}
	if !a.running() {
		t.Errorf("the replaced editor exited:\n%s", a.out.String())
	}
	// The first editor says so in its Output panel.
	if !strings.Contains(a.out.String(), "stops reconnecting") {
		t.Errorf("the replaced editor did not say it stopped reconnecting:\n%s", a.out.String())
	}
}

// A host with a bridge token refuses an editor with another token, and
// accepts it once the tokens match.
func TestBridgeToken(t *testing.T) {
	project := newProject(t)
	h := startHostT(t, "ws://127.0.0.1:0", "GODOT_MCP_BRIDGE_TOKEN=token-a")
	url := h.url
	e := startEditorT(t, project, url, "GODOT_MCP_BRIDGE_TOKEN=token-b")

	// Wait until the host has refused the editor at least twice (it keeps
	// retrying with backoff), checking it is never connected meanwhile.
	ctx := ctxFor(t, connectTimeout)
	for len(grepLines(h.stderr.String(), "refused an editor handshake")) < 2 {
		info, err := h.serverInfo(ctx)
		if err != nil {
			t.Fatal(err)
		}
		if info.Bridge.Connected {
			t.Fatalf("an editor with the wrong token connected: %s", describeBridge(info))
		}
		if ctx.Err() != nil {
			t.Fatalf("the host never refused the editor:\n%s\n--- editor ---\n%s", h.stderr.String(), e.out.String())
		}
		time.Sleep(100 * time.Millisecond)
	}
	if strings.Contains(h.stderr.String(), "token-b") || strings.Contains(h.stderr.String(), "token-a") {
		t.Error("the host logged a token")
	}
	if strings.Contains(e.out.String(), "token-b") || strings.Contains(e.out.String(), "token-a") {
		t.Error("the editor printed a token")
	}
	// Said once in the Output panel (not per retry), with what to fix. The
	// editor's output may trail the host's log under load: wait for it.
	refusals := grepLines(e.out.String(), "refused this editor")
	for wait := time.Now().Add(15 * time.Second); len(refusals) == 0 && time.Now().Before(wait); {
		time.Sleep(100 * time.Millisecond)
		refusals = grepLines(e.out.String(), "refused this editor")
	}
	if len(refusals) != 1 || !strings.Contains(refusals[0], "GODOT_MCP_BRIDGE_TOKEN") {
		t.Errorf("the editor should say once that it was refused and name GODOT_MCP_BRIDGE_TOKEN; it said %q:\n%s", refusals, e.out.String())
	}

	// The same editor, unchanged, is accepted by a host with its token.
	h.stop()
	h = startHostT(t, url, "GODOT_MCP_BRIDGE_TOKEN=token-b")
	restarted := time.Now()
	waitEditor(t, h, e)
	t.Logf("accepted %v after the host with the right token came up", time.Since(restarted).Round(time.Millisecond))
	var st editorState
	h.mustCall(t, "godot_get_editor_state", nil, &st)
	if !sameDir(st.ProjectDir, project) {
		t.Errorf("editor state is for %q", st.ProjectDir)
	}
}
