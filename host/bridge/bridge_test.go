package bridge_test

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"math/rand/v2"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/coder/websocket"

	"github.com/godot-mcp/godot-mcp/host/bridge"
	"github.com/godot-mcp/godot-mcp/host/envelope"
	"github.com/godot-mcp/godot-mcp/sdk/contract"
	"github.com/godot-mcp/godot-mcp/sdk/sdktest/fakeaddon"
)

func quote(s string) string {
	b, _ := envelope.Marshal(s)
	return string(b)
}

func frameIndex(frames [][]byte, want string) int {
	for i, f := range frames {
		if string(f) == want {
			return i
		}
	}
	return -1
}

// TestWireBytes pins the exact bytes of every envelope shape the bridge sends.
func TestWireBytes(t *testing.T) {
	ctx := testCtx(t)
	b := start(t, func(o *bridge.Options) {
		o.EnabledToolsets = func() []string { return []string{"scene", "scripts"} }
	})
	a := connect(t, b)
	a.Handle("cmd_create_node", fakeaddon.Echo)

	r := b.Send(ctx, "cmd_create_node", map[string]any{"parent_path": ".", "node_type": "Node2D", "name": "Player"}, 2*time.Second)
	if !r.OK {
		t.Fatalf("Send: %+v", r)
	}
	if got, want := string(r.Result), `{"name":"Player","node_type":"Node2D","parent_path":"."}`; got != want {
		t.Errorf("result = %s, want %s", got, want)
	}
	b.PushToolsets([]string{"scene"})
	if _, err := a.WaitPush(ctx, envelope.CmdToolsetsUpdate); err != nil {
		t.Fatal(err)
	}
	if err := b.Push("cmd_custom_push", json.RawMessage(`{"x":1}`)); err != nil {
		t.Fatal(err)
	}
	if _, err := a.WaitPush(ctx, "cmd_custom_push"); err != nil {
		t.Fatal(err)
	}

	want := []string{
		`{"id":"hello","ok":true,"result":{"accepted":true,"server_version":"2026.11.29-test","contract_version":2}}`,
		`{"command":"cmd_server_hello","params":{"server_version":"2026.11.29-test","contract_version":2,"min_compatible_contract":2,"enabled_toolsets":["scene","scripts"]}}`,
		`{"id":"1","command":"cmd_create_node","params":{"name":"Player","node_type":"Node2D","parent_path":"."}}`,
		`{"command":"cmd_toolsets_update","params":{"enabled_toolsets":["scene"]}}`,
		`{"command":"cmd_custom_push","params":{"x":1}}`,
	}
	frames := a.Frames()
	if len(frames) != len(want) {
		t.Fatalf("got %d frames, want %d:\n%s", len(frames), len(want), frames)
	}
	for i := range want {
		if string(frames[i]) != want[i] {
			t.Errorf("frame %d:\n got %s\nwant %s", i, frames[i], want[i])
		}
	}

	t.Run("editor ping answer", func(t *testing.T) {
		if err := a.Ping(ctx); err != nil {
			t.Fatal(err)
		}
		if frameIndex(a.Frames(), `{"id":"a1","ok":true,"result":{"pong":true}}`) < 0 {
			t.Errorf("pong frame not found in %s", a.Frames())
		}
	})

	t.Run("PEER_REPLACED notice", func(t *testing.T) {
		connect(t, b, fakeaddon.WithHello(envelope.EditorHello{ProjectDir: "/other"}))
		n, err := a.WaitNotice(ctx)
		if err != nil {
			t.Fatal(err)
		}
		<-a.Done()
		frames := a.Frames()
		last := string(frames[len(frames)-1])
		if want := `{"ok":false,"error":"PEER_REPLACED","hint":` + quote(n.Hint) + `}`; last != want {
			t.Errorf("notice:\n got %s\nwant %s", last, want)
		}
		if n.Hint == "" {
			t.Error("notice has no hint")
		}
	})

	t.Run("refused hello answer", func(t *testing.T) {
		tb := start(t, func(o *bridge.Options) { o.Token = "right-token" })
		raw := connect(t, tb, fakeaddon.WithoutHello())
		if err := raw.SendRaw(ctx, []byte(`{"id":"h-7","command":"cmd_editor_hello","params":{"project_dir":"/p","token":"wrong"}}`)); err != nil {
			t.Fatal(err)
		}
		<-raw.Done()
		frames := raw.Frames()
		if len(frames) != 1 {
			t.Fatalf("frames = %s", frames)
		}
		var resp envelope.Response
		if err := json.Unmarshal(frames[0], &resp); err != nil {
			t.Fatal(err)
		}
		if want := `{"id":"h-7","ok":false,"error":"VALIDATION_ERROR","hint":` + quote(resp.Hint) + `}`; string(frames[0]) != want {
			t.Errorf("refusal:\n got %s\nwant %s", frames[0], want)
		}
		if got := raw.CloseStatus(); got != websocket.StatusPolicyViolation {
			t.Errorf("close status = %v, want 1008", got)
		}
	})
}

// TestConcurrentSends sends 1,000 commands at once to an editor answering in
// random order; each answer must reach its own caller.
func TestConcurrentSends(t *testing.T) {
	ctx := testCtx(t)
	b := start(t)
	a := connect(t, b)
	a.Handle("cmd_echo", func(ctx context.Context, params json.RawMessage) (any, *contract.Error) {
		select {
		case <-time.After(time.Duration(rand.IntN(20)) * time.Millisecond):
		case <-ctx.Done():
		}
		return params, nil
	})

	const n = 1000
	var wg sync.WaitGroup
	errs := make(chan string, n)
	for i := range n {
		wg.Add(1)
		go func() {
			defer wg.Done()
			tag := strconv.Itoa(i) + "-" + strings.Repeat("x", rand.IntN(64))
			r := b.Send(ctx, "cmd_echo", map[string]any{"n": i, "tag": tag}, 10*time.Second)
			if !r.OK {
				errs <- fmt.Sprintf("send %d: %+v", i, r)
				return
			}
			var got struct {
				N   int    `json:"n"`
				Tag string `json:"tag"`
			}
			if err := json.Unmarshal(r.Result, &got); err != nil || got.N != i || got.Tag != tag {
				errs <- fmt.Sprintf("send %d got %s (cross-talk)", i, r.Result)
			}
		}()
	}
	wg.Wait()
	close(errs)
	for e := range errs {
		t.Error(e)
	}
	ids := map[string]bool{}
	for _, c := range a.Received() {
		if ids[c.ID] {
			t.Errorf("id %s used twice", c.ID)
		}
		ids[c.ID] = true
	}
	if len(ids) != n {
		t.Errorf("editor received %d commands, want %d", len(ids), n)
	}
}

func TestSendTimeout(t *testing.T) {
	ctx := testCtx(t)
	b := start(t)
	a := connect(t, b)
	a.Silence("cmd_hang")

	t0 := time.Now()
	r := b.Send(ctx, "cmd_hang", nil, 50*time.Millisecond)
	took := time.Since(t0)
	if r.OK || r.Error != contract.Timeout {
		t.Fatalf("got %+v, want TIMEOUT", r)
	}
	if !strings.Contains(r.Hint, "cmd_hang") || !strings.Contains(r.Hint, "50ms") {
		t.Errorf("hint should name the command and the timeout: %q", r.Hint)
	}
	if took < 50*time.Millisecond || took > time.Second {
		t.Errorf("timed out after %v, want ~50ms", took)
	}
	// The link is fine afterwards.
	if err := b.Ping(ctx); err != nil {
		t.Fatalf("Ping after timeout: %v", err)
	}

	t.Run("late answer is dropped", func(t *testing.T) {
		release := make(chan struct{})
		a.Handle("cmd_slow", func(ctx context.Context, _ json.RawMessage) (any, *contract.Error) {
			<-release
			return map[string]bool{"late": true}, nil
		})
		r := b.Send(ctx, "cmd_slow", nil, 20*time.Millisecond)
		if r.Error != contract.Timeout {
			t.Fatalf("got %+v, want TIMEOUT", r)
		}
		close(release)
		// The late answer must not leak into the next Send.
		a.HandleResult("cmd_next", map[string]int{"v": 2})
		r = b.Send(ctx, "cmd_next", nil, 2*time.Second)
		if !r.OK || string(r.Result) != `{"v":2}` {
			t.Fatalf("next Send got %+v", r)
		}
	})

	t.Run("zero timeout means default", func(t *testing.T) {
		a.HandleResult("cmd_quick", nil)
		if r := b.Send(ctx, "cmd_quick", nil, 0); !r.OK || string(r.Result) != `{}` {
			t.Fatalf("got %+v", r)
		}
	})
}

func TestSendCancelled(t *testing.T) {
	b := start(t)
	a := connect(t, b)
	a.Silence("cmd_hang")

	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Millisecond)
	defer cancel()
	r := b.Send(ctx, "cmd_hang", nil, 10*time.Second)
	if r.Error != contract.Timeout || !strings.Contains(r.Hint, "cancelled") || !strings.Contains(r.Hint, "cmd_hang") {
		t.Fatalf("got %+v, want TIMEOUT saying cancelled", r)
	}

	done, cancel2 := context.WithCancel(context.Background())
	cancel2()
	t0 := time.Now()
	if r := b.Send(done, "cmd_hang", nil, 10*time.Second); r.Error != contract.Timeout {
		t.Fatalf("already-cancelled ctx: %+v", r)
	}
	if time.Since(t0) > 500*time.Millisecond {
		t.Error("already-cancelled Send did not return at once")
	}
}

func TestSendWithoutPeer(t *testing.T) {
	ctx := testCtx(t)
	b := start(t)
	t0 := time.Now()
	r := b.Send(ctx, "cmd_anything", nil, 10*time.Second)
	if took := time.Since(t0); took > 50*time.Millisecond {
		t.Errorf("Send without peer took %v, want immediate", took)
	}
	if r.OK || r.Error != contract.BridgeDisconnected || r.Required != contract.RequireBridgeConnected {
		t.Fatalf("got %+v", r)
	}
	if !strings.Contains(r.Hint, b.URL()) {
		t.Errorf("hint should say where the addon must connect: %q", r.Hint)
	}
	if err := b.Push("cmd_x", nil); !errors.Is(err, bridge.ErrNotConnected) {
		t.Errorf("Push: %v", err)
	}
	b.PushToolsets([]string{"scene"}) // no-op, no panic
	var e *contract.Error
	if err := b.Ping(ctx); !errors.As(err, &e) || e.Code != contract.BridgeDisconnected {
		t.Errorf("Ping: %v", err)
	}
}

// TestDropMidFlight: the editor vanishes with 50 commands pending; every
// caller learns within 100 ms.
func TestDropMidFlight(t *testing.T) {
	for _, tc := range []struct {
		name string
		drop func(*fakeaddon.Addon) error
	}{
		{"crash", (*fakeaddon.Addon).CloseNow},
		{"close handshake", (*fakeaddon.Addon).Close},
	} {
		t.Run(tc.name, func(t *testing.T) {
			ctx := testCtx(t)
			b := start(t)
			a := connect(t, b)
			a.Silence("cmd_hang")

			const n = 50
			type result struct {
				r  envelope.Response
				at time.Time
			}
			results := make(chan result, n)
			for range n {
				go func() {
					r := b.Send(ctx, "cmd_hang", nil, 30*time.Second)
					results <- result{r, time.Now()}
				}()
			}
			eventually(t, "50 pending commands", func() bool { return len(a.Received()) == n })

			t0 := time.Now()
			_ = tc.drop(a)
			for range n {
				res := <-results
				if res.r.Error != contract.BridgeDisconnected || res.r.Required != contract.RequireBridgeConnected {
					t.Fatalf("got %+v", res.r)
				}
				if !strings.Contains(res.r.Hint, "cmd_hang") {
					t.Errorf("hint should name the command: %q", res.r.Hint)
				}
				if d := res.at.Sub(t0); d > 100*time.Millisecond {
					t.Errorf("waiter released after %v, want < 100ms", d)
				}
			}
			eventually(t, "disconnected status", func() bool { return !b.Status().Connected })
		})
	}
}

func TestPeerReplacement(t *testing.T) {
	ctx := testCtx(t)
	b := start(t)
	old := connect(t, b, fakeaddon.WithHello(envelope.EditorHello{ProjectDir: "/old", GodotVersion: "4.3.stable", AddonVersion: "1"}))
	old.Silence("cmd_hang")
	pending := make(chan envelope.Response, 1)
	go func() { pending <- b.Send(ctx, "cmd_hang", nil, 30*time.Second) }()
	if _, err := old.WaitCommand(ctx, "cmd_hang"); err != nil {
		t.Fatal(err)
	}

	cur := connect(t, b, fakeaddon.WithHello(envelope.EditorHello{ProjectDir: "/new", GodotVersion: "4.4.1.stable", AddonVersion: "2"}))
	cur.HandleResult("cmd_where", map[string]string{"who": "new"})

	r := <-pending
	if r.Error != contract.BridgeDisconnected || !strings.Contains(r.Hint, "replaced") {
		t.Errorf("old waiter got %+v, want BRIDGE_DISCONNECTED (replaced)", r)
	}
	n, err := old.WaitNotice(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if n.Error != contract.PeerReplaced || n.ID != "" {
		t.Errorf("notice = %+v", n)
	}
	select {
	case <-old.Done():
	case <-ctx.Done():
		t.Fatal("old connection not closed")
	}
	if got := old.CloseStatus(); got != bridge.StatusPeerReplaced {
		t.Errorf("old close status = %v, want 4000", got)
	}
	if !strings.Contains(old.Err().Error(), "peer replaced") {
		t.Errorf("close reason: %v", old.Err())
	}
	frames := old.Frames()
	if !strings.Contains(string(frames[len(frames)-1]), "PEER_REPLACED") {
		t.Errorf("the notice must be the last frame before close: %s", frames[len(frames)-1])
	}

	r = b.Send(ctx, "cmd_where", nil, 2*time.Second)
	if !r.OK || string(r.Result) != `{"who":"new"}` {
		t.Fatalf("Send after replacement: %+v", r)
	}
	st := b.Status()
	if !st.Connected || st.Peer.ProjectDir != "/new" || st.Peer.GodotVersion != "4.4.1.stable" || st.Peer.AddonVersion != "2" {
		t.Errorf("status = %+v / %+v", st, st.Peer)
	}
	if len(cur.Notices()) != 0 {
		t.Errorf("new peer got notices: %+v", cur.Notices())
	}
}

func TestToken(t *testing.T) {
	const token = "correct-horse-battery-staple"
	for _, tc := range []struct {
		name    string
		opts    []fakeaddon.Option
		refused bool
		reason  string
	}{
		{"accepted", []fakeaddon.Option{fakeaddon.WithToken(token)}, false, ""},
		{"wrong", []fakeaddon.Option{fakeaddon.WithToken("correct-horse-battery-stapler")}, true, "token mismatch"},
		{"missing", nil, true, "missing token"},
		{"empty", []fakeaddon.Option{fakeaddon.WithToken("")}, true, "missing token"},
		// #24.2: today's addon proves the token and checks the server's proof.
		{"proof accepted, server proven", []fakeaddon.Option{fakeaddon.WithTokenProof(token)}, false, ""},
		{"wrong proof", []fakeaddon.Option{fakeaddon.WithTokenProof("correct-horse-battery-stapler")}, true, "token mismatch"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			ctx := testCtx(t)
			logs := &logBuffer{}
			b := start(t, func(o *bridge.Options) { o.Token = token; o.Logger = logs.logger() })
			a, err := fakeaddon.Dial(ctx, b.URL(), tc.opts...)
			if !tc.refused {
				if err != nil {
					t.Fatalf("Dial: %v", err)
				}
				t.Cleanup(func() { _ = a.Close() })
				if err := b.Ping(ctx); err != nil {
					t.Fatal(err)
				}
				return
			}
			var refused *fakeaddon.HelloRefusedError
			if !errors.As(err, &refused) {
				t.Fatalf("Dial error = %v, want HelloRefusedError", err)
			}
			var e *contract.Error
			if !errors.As(err, &e) || e.Code != contract.ValidationError || !strings.Contains(e.Hint, "GODOT_MCP_BRIDGE_TOKEN") {
				t.Errorf("refusal = %+v", refused.Response)
			}
			if refused.CloseStatus != websocket.StatusPolicyViolation {
				t.Errorf("close status = %v, want 1008", refused.CloseStatus)
			}
			if b.Status().Connected {
				t.Error("a refused editor became the peer")
			}
			if !strings.Contains(logs.String(), tc.reason) {
				t.Errorf("log should say %q:\n%s", tc.reason, logs)
			}
		})
	}
}

// #24.2: the server proves the token to the editor, never learning it
// from the hello: a bridge without the token (any program on the port)
// gives no proof the editor accepts; a proof is good for one hello only
// (a hello an impostor captured cannot be replayed to the real server);
// a malformed nonce is refused.
func TestHelloProofsBothWays(t *testing.T) {
	const token = "correct-horse-battery-staple"
	ctx := testCtx(t)
	a := connect(t, start(t, func(o *bridge.Options) { o.Token = token }), fakeaddon.WithTokenProof(token))
	var got bridge.HelloResult
	if err := json.Unmarshal(a.Hello().Result, &got); err != nil || got.ServerProof == "" {
		t.Fatalf("hello answer %s", a.Hello().Result)
	}
	// A bridge that does not know the token (another program holding the
	// port) accepts anything: the editor finds no proof and leaves.
	_, err := fakeaddon.Dial(ctx, start(t).URL(), fakeaddon.WithTokenProof(token))
	var unproven *fakeaddon.UnprovenServerError
	if !errors.As(err, &unproven) {
		t.Fatalf("a bridge without the token: %v, want UnprovenServerError", err)
	}
	// Replay: the same nonce and proof again.
	b := start(t, func(o *bridge.Options) { o.Token = token })
	nonce := strings.Repeat("ab", 32)
	hello := fakeaddon.DefaultHello()
	hello.Nonce, hello.TokenProof = nonce, envelope.HelloProof(token, "editor", nonce)
	first, err := fakeaddon.Dial(ctx, b.URL(), fakeaddon.WithHello(hello))
	if err != nil {
		t.Fatalf("first hello: %v", err)
	}
	first.Close()
	var refused *fakeaddon.HelloRefusedError
	if _, err := fakeaddon.Dial(ctx, b.URL(), fakeaddon.WithHello(hello)); !errors.As(err, &refused) || !strings.Contains(refused.Response.Hint, "not fresh") {
		t.Fatalf("a replayed hello: %v", err)
	}
	hello.Nonce = "short"
	hello.TokenProof = envelope.HelloProof(token, "editor", hello.Nonce)
	if _, err := fakeaddon.Dial(ctx, b.URL(), fakeaddon.WithHello(hello)); !errors.As(err, &refused) || !strings.Contains(refused.Response.Hint, "nonce") {
		t.Fatalf("a short nonce: %v", err)
	}
	// The proofs are the documented HMAC (the addon computes the same with
	// HMACContext): HMAC-SHA256("k", "godot-mcp editor\nn").
	if p := envelope.HelloProof("k", "editor", "n"); p != "1855b2a1a4c80e704a28cc94c61103a8e09e6860b30d181ce8a1392caba90ff9" {
		t.Fatalf("HelloProof = %q", p)
	}
}

// TestRefusedCannotDisplace: a bad handshake never disturbs the
// authenticated editor.
func TestRefusedCannotDisplace(t *testing.T) {
	ctx := testCtx(t)
	const token = "s3cret"
	b := start(t, func(o *bridge.Options) { o.Token = token })
	good := connect(t, b, fakeaddon.WithToken(token), fakeaddon.WithHello(envelope.EditorHello{ProjectDir: "/good"}))
	good.HandleResult("cmd_who", map[string]string{"who": "good"})

	attempts := [][]fakeaddon.Option{
		{fakeaddon.WithToken("wrong")},
		{},
		{fakeaddon.WithHeader("Origin", "http://evil.example")},
		{fakeaddon.WithHeader("Host", "evil.example")},
	}
	for i, opts := range attempts {
		if _, err := fakeaddon.Dial(ctx, b.URL(), opts...); err == nil {
			t.Fatalf("attempt %d was accepted", i)
		}
	}
	// A connection whose first message is not a hello.
	raw := connect(t, b, fakeaddon.WithoutHello())
	if err := raw.SendRaw(ctx, []byte(`{"id":"1","ok":true,"result":{}}`)); err != nil {
		t.Fatal(err)
	}
	<-raw.Done()

	if r := b.Send(ctx, "cmd_who", nil, 2*time.Second); !r.OK || string(r.Result) != `{"who":"good"}` {
		t.Fatalf("Send: %+v", r)
	}
	if st := b.Status(); st.Peer == nil || st.Peer.ProjectDir != "/good" {
		t.Errorf("status = %+v", st)
	}
	if len(good.Notices()) != 0 {
		t.Errorf("good editor got notices: %+v", good.Notices())
	}
	select {
	case <-good.Done():
		t.Fatal("good editor was disconnected")
	default:
	}
}

func TestHandshakeGuards(t *testing.T) {
	b := start(t)
	port := b.URL()[strings.LastIndex(b.URL(), ":")+1:]
	for _, tc := range []struct {
		name   string
		opts   []fakeaddon.Option
		status int // 0: accepted
	}{
		{"no origin", nil, 0},
		{"origin", []fakeaddon.Option{fakeaddon.WithHeader("Origin", "http://evil.example")}, 403},
		{"null origin", []fakeaddon.Option{fakeaddon.WithHeader("Origin", "null")}, 403},
		{"loopback origin", []fakeaddon.Option{fakeaddon.WithHeader("Origin", "http://127.0.0.1:"+port)}, 403},
		{"foreign host", []fakeaddon.Option{fakeaddon.WithHeader("Host", "evil.example:"+port)}, 421},
		{"rebinding host", []fakeaddon.Option{fakeaddon.WithHeader("Host", "localhost.evil.example")}, 421},
		{"lan host", []fakeaddon.Option{fakeaddon.WithHeader("Host", "192.168.1.10:"+port)}, 421},
		{"localhost", []fakeaddon.Option{fakeaddon.WithHeader("Host", "localhost:"+port)}, 0},
		{"localhost no port", []fakeaddon.Option{fakeaddon.WithHeader("Host", "LOCALHOST")}, 0},
		{"127/8", []fakeaddon.Option{fakeaddon.WithHeader("Host", "127.8.9.10")}, 0},
		{"ipv6 loopback", []fakeaddon.Option{fakeaddon.WithHeader("Host", "[::1]:"+port)}, 0},
	} {
		t.Run(tc.name, func(t *testing.T) {
			ctx := testCtx(t)
			a, err := fakeaddon.Dial(ctx, b.URL(), tc.opts...)
			if tc.status == 0 {
				if err != nil {
					t.Fatalf("refused: %v", err)
				}
				_ = a.Close()
				return
			}
			var de *fakeaddon.DialError
			if !errors.As(err, &de) || de.StatusCode != tc.status {
				t.Fatalf("err = %v, want HTTP %d", err, tc.status)
			}
		})
	}
}

func TestOversizedFrameDropped(t *testing.T) {
	if testing.Short() {
		t.Skip("moves 64 MiB over loopback")
	}
	// 64 MiB under the race detector on a busy 2-core machine can take
	// well over the usual 10 s.
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	b := start(t)
	a := connect(t, b)
	a.Silence("cmd_big")
	pending := make(chan envelope.Response, 1)
	go func() { pending <- b.Send(ctx, "cmd_big", nil, 30*time.Second) }()
	cmd, err := a.WaitCommand(ctx, "cmd_big")
	if err != nil {
		t.Fatal(err)
	}

	head := `{"id":"` + cmd.ID + `","ok":true,"result":"`
	tail := `"}`
	frame := make([]byte, envelope.MaxFrameBytes+1)
	copy(frame, head)
	for i := len(head); i < len(frame)-len(tail); i++ {
		frame[i] = 'x'
	}
	copy(frame[len(frame)-len(tail):], tail)
	if err := a.SendRaw(ctx, frame); err != nil {
		t.Fatal(err)
	}
	r := <-pending
	if r.Error != contract.InternalError || !strings.Contains(r.Hint, "64 MiB") || !strings.Contains(r.Hint, "cmd_big") {
		t.Fatalf("got %+v, want INTERNAL_ERROR about the frame limit", r)
	}
	if err := b.Ping(ctx); err != nil {
		t.Fatalf("link did not survive: %v", err)
	}
	select {
	case <-a.Done():
		t.Fatal("connection closed")
	default:
	}
}

func TestMalformedFramesDropped(t *testing.T) {
	for _, tc := range []struct {
		name        string
		frame       string // ID is replaced by the pending command's id
		binary      bool
		failsWaiter bool
	}{
		{"not json", `hello there`, false, false},
		{"array", `[1,2,3]`, false, false},
		{"string", `"ID"`, false, false},
		{"empty", ``, false, false},
		{"no kind", `{"id":"ID"}`, false, true},
		{"truncated", `{"id":"ID","ok":true,"result":{"a":`, false, true},
		{"wrong type", `{"id":"ID","ok":"yes"}`, false, true},
		{"id not first", `{"ok":true,"id":"ID","result":[1,}`, false, true},
		{"no id", `{"ok":true,"result":{}}`, false, false},
		{"unknown id", `{"id":"424242","ok":true,"result":{}}`, false, false},
		{"numeric id", `{"id":7,"ok":true}`, false, false},
		{"binary", `{"id":"ID","ok":true,"result":{}}`, true, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			ctx := testCtx(t)
			b := start(t)
			a := connect(t, b)
			a.Silence("cmd_wait")
			pending := make(chan envelope.Response, 1)
			go func() { pending <- b.Send(ctx, "cmd_wait", nil, 10*time.Second) }()
			cmd, err := a.WaitCommand(ctx, "cmd_wait")
			if err != nil {
				t.Fatal(err)
			}
			frame := []byte(strings.ReplaceAll(tc.frame, "ID", cmd.ID))
			if tc.binary {
				err = a.SendBinary(ctx, frame)
			} else {
				err = a.SendRaw(ctx, frame)
			}
			if err != nil {
				t.Fatal(err)
			}
			if tc.failsWaiter {
				r := <-pending
				if r.Error != contract.InternalError || !strings.Contains(r.Hint, "cmd_wait") {
					t.Fatalf("got %+v, want INTERNAL_ERROR naming cmd_wait", r)
				}
			} else {
				// The waiter is untouched: a proper answer still reaches it.
				if err := b.Ping(ctx); err != nil {
					t.Fatal(err)
				}
				select {
				case r := <-pending:
					t.Fatalf("waiter resolved by a dropped frame: %+v", r)
				default:
				}
				if err := a.SendRaw(ctx, []byte(`{"id":"`+cmd.ID+`","ok":true,"result":{"fine":true}}`)); err != nil {
					t.Fatal(err)
				}
				if r := <-pending; !r.OK || string(r.Result) != `{"fine":true}` {
					t.Fatalf("got %+v", r)
				}
			}
			if err := b.Ping(ctx); err != nil {
				t.Fatalf("link did not survive: %v", err)
			}
		})
	}
}

func TestEditorAnswers(t *testing.T) {
	ctx := testCtx(t)
	b := start(t)
	a := connect(t, b)

	t.Run("unknown command in the addon", func(t *testing.T) {
		r := b.Send(ctx, "cmd_not_there", nil, 2*time.Second)
		want := "The addon has no handler for 'cmd_not_there'. Reinstall the addon (godot-mcp addon install) so it matches the server."
		if r.Error != contract.InternalError || r.Hint != want {
			t.Fatalf("got %+v", r)
		}
	})
	t.Run("structured failure passes through", func(t *testing.T) {
		a.HandleError("cmd_make", contract.Precondition(contract.RequireActiveScene, "Open a scene first."))
		r := b.Send(ctx, "cmd_make", nil, 2*time.Second)
		if r.OK || r.Error != contract.PreconditionFailed || r.Required != "active_scene" || r.Hint != "Open a scene first." {
			t.Fatalf("got %+v", r)
		}
	})
	t.Run("unknown error code", func(t *testing.T) {
		a.HandleError("cmd_odd", &contract.Error{Code: "WEIRD_CODE", Hint: "x"})
		r := b.Send(ctx, "cmd_odd", nil, 2*time.Second)
		if e := r.Err(); e == nil || e.Code != contract.InternalError || !strings.Contains(e.Hint, "WEIRD_CODE") {
			t.Fatalf("got %+v / %v", r, r.Err())
		}
	})
	t.Run("handler panic", func(t *testing.T) {
		a.Handle("cmd_boom", func(context.Context, json.RawMessage) (any, *contract.Error) { panic("kaboom") })
		r := b.Send(ctx, "cmd_boom", nil, 2*time.Second)
		if r.Error != contract.InternalError || !strings.Contains(r.Hint, "kaboom") {
			t.Fatalf("got %+v", r)
		}
	})
	t.Run("slow editor", func(t *testing.T) {
		a.Delay(60 * time.Millisecond)
		defer a.Delay(0)
		t0 := time.Now()
		if err := b.Ping(ctx); err != nil {
			t.Fatal(err)
		}
		if d := time.Since(t0); d < 60*time.Millisecond {
			t.Errorf("answer came after %v, Delay not applied", d)
		}
		if r := b.Send(ctx, envelope.CmdPing, nil, 10*time.Millisecond); r.Error != contract.Timeout {
			t.Errorf("got %+v, want TIMEOUT", r)
		}
	})
	t.Run("bad pong", func(t *testing.T) {
		a.HandleResult(envelope.CmdPing, map[string]bool{"pong": false})
		defer a.HandleResult(envelope.CmdPing, map[string]bool{"pong": true})
		if err := b.Ping(ctx); err == nil {
			t.Fatal("Ping accepted pong:false")
		}
	})
}

func TestEditorToServerRequests(t *testing.T) {
	ctx := testCtx(t)
	b := start(t)
	a := connect(t, b)

	if err := a.Ping(ctx); err != nil {
		t.Fatalf("addon → server ping: %v", err)
	}
	r, err := a.Request(ctx, "cmd_weird", map[string]int{"x": 1})
	if err != nil {
		t.Fatal(err)
	}
	if r.Error != contract.InternalError || !strings.Contains(r.Hint, "no handler for 'cmd_weird'") {
		t.Errorf("got %+v", r)
	}
	r, err = a.Request(ctx, envelope.CmdEditorHello, fakeaddon.DefaultHello())
	if err != nil {
		t.Fatal(err)
	}
	if r.Error != contract.ValidationError {
		t.Errorf("second hello: %+v", r)
	}
	// A push from the editor needs no answer and harms nothing.
	if err := a.SendRaw(ctx, []byte(`{"command":"cmd_editor_event","params":{}}`)); err != nil {
		t.Fatal(err)
	}
	if err := b.Ping(ctx); err != nil {
		t.Fatal(err)
	}
}

func TestServerHello(t *testing.T) {
	for _, tc := range []struct {
		name    string
		enabled func() []string
		want    []string
		raw     string
	}{
		{"nil func", nil, []string{}, `"enabled_toolsets":[]`},
		{"nil list", func() []string { return nil }, []string{}, `"enabled_toolsets":[]`},
		{"some", func() []string { return []string{"scene", "runtime"} }, []string{"scene", "runtime"}, `"enabled_toolsets":["scene","runtime"]`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			ctx := testCtx(t)
			b := start(t, func(o *bridge.Options) { o.EnabledToolsets = tc.enabled })
			a := connect(t, b)
			h, err := a.ServerHello(ctx)
			if err != nil {
				t.Fatal(err)
			}
			if h.ServerVersion != testVersion || h.ContractVersion != 2 || h.MinCompatibleContract != 2 {
				t.Errorf("hello = %+v", h)
			}
			if fmt.Sprint(h.EnabledToolsets) != fmt.Sprint(tc.want) {
				t.Errorf("enabled = %v, want %v", h.EnabledToolsets, tc.want)
			}
			if !strings.Contains(string(a.Frames()[1]), tc.raw) {
				t.Errorf("frame %s lacks %s", a.Frames()[1], tc.raw)
			}
			var hello bridge.HelloResult
			if err := json.Unmarshal(a.Hello().Result, &hello); err != nil || !hello.Accepted || hello.ServerVersion != testVersion || hello.ContractVersion != 2 {
				t.Errorf("hello answer = %s", a.Hello().Result)
			}
		})
	}
}

func TestPushes(t *testing.T) {
	ctx := testCtx(t)
	b := start(t)
	a := connect(t, b)

	b.PushToolsets([]string{"scene", "scripts"})
	b.PushToolsets(nil)
	p1, err := a.WaitPush(ctx, envelope.CmdToolsetsUpdate)
	if err != nil {
		t.Fatal(err)
	}
	p2, err := a.WaitPush(ctx, envelope.CmdToolsetsUpdate)
	if err != nil {
		t.Fatal(err)
	}
	if string(p1.Params) != `{"enabled_toolsets":["scene","scripts"]}` || string(p2.Params) != `{"enabled_toolsets":[]}` {
		t.Errorf("pushes = %s, %s", p1.Params, p2.Params)
	}
	if p1.ID != "" {
		t.Errorf("push carries an id: %q", p1.ID)
	}
	if len(a.Received()) != 0 {
		t.Errorf("pushes counted as commands: %+v", a.Received())
	}
	var e *contract.Error
	if err := b.Push("cmd_x", []int{1}); !errors.As(err, &e) || e.Code != contract.ValidationError {
		t.Errorf("Push with array params: %v", err)
	}
}

func TestParams(t *testing.T) {
	ctx := testCtx(t)
	b := start(t)
	a := connect(t, b)
	a.Handle("cmd_p", fakeaddon.Echo)
	var nilPtr *struct{ A int }
	for _, tc := range []struct {
		name   string
		params any
		wire   string // exact params bytes on the wire; "" → VALIDATION_ERROR
	}{
		{"nil", nil, `{}`},
		{"typed nil pointer", nilPtr, `{}`},
		{"empty raw", json.RawMessage(nil), `{}`},
		{"raw verbatim", json.RawMessage(`{"a": 1,  "b":[true]}`), `{"a": 1,  "b":[true]}`},
		{"struct", struct {
			Path string `json:"path"`
		}{"res://a&b<c>.tscn"}, `{"path":"res://a&b<c>.tscn"}`},
		{"map", map[string]int{"z": 1, "a": 2}, `{"a":2,"z":1}`},
		{"raw array", json.RawMessage(`[1]`), ""},
		{"raw invalid", json.RawMessage(`{"a":`), ""},
		{"slice", []string{"a"}, ""},
		{"string", "x", ""},
		{"unmarshalable", map[string]any{"c": make(chan int)}, ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			r := b.Send(ctx, "cmd_p", tc.params, 2*time.Second)
			if tc.wire == "" {
				if r.Error != contract.ValidationError || !strings.Contains(r.Hint, "cmd_p") {
					t.Fatalf("got %+v, want VALIDATION_ERROR", r)
				}
				return
			}
			if !r.OK {
				t.Fatalf("got %+v", r)
			}
			frames := a.Frames()
			last := string(frames[len(frames)-1])
			recv := a.Received()
			want := `{"id":"` + recv[len(recv)-1].ID + `","command":"cmd_p","params":` + tc.wire + `}`
			if frameIndex(frames, want) < 0 {
				t.Errorf("wire frame %s not found (last %s)", want, last)
			}
		})
	}
	if r := b.Send(ctx, "", nil, time.Second); r.Error != contract.ValidationError {
		t.Errorf("empty command: %+v", r)
	}
}

func TestReconnectAfterDrop(t *testing.T) {
	ctx := testCtx(t)
	b := start(t)
	a1 := connect(t, b, fakeaddon.WithHello(envelope.EditorHello{ProjectDir: "/one"}))
	if err := b.Ping(ctx); err != nil {
		t.Fatal(err)
	}
	_ = a1.CloseNow()
	eventually(t, "disconnect", func() bool { return !b.Status().Connected })
	if r := b.Send(ctx, "cmd_x", nil, time.Second); r.Error != contract.BridgeDisconnected {
		t.Fatalf("got %+v", r)
	}

	a2 := connect(t, b, fakeaddon.WithHello(envelope.EditorHello{ProjectDir: "/two"}))
	if _, err := a2.ServerHello(ctx); err != nil {
		t.Fatal(err)
	}
	a2.HandleResult("cmd_x", map[string]string{"from": "two"})
	if r := b.Send(ctx, "cmd_x", nil, 2*time.Second); !r.OK || string(r.Result) != `{"from":"two"}` {
		t.Fatalf("got %+v", r)
	}
	if st := b.Status(); st.Peer.ProjectDir != "/two" {
		t.Errorf("status = %+v", st.Peer)
	}
}

func TestHelloTimeout(t *testing.T) {
	b := start(t, func(o *bridge.Options) { o.HelloTimeout = 100 * time.Millisecond })
	a := connect(t, b, fakeaddon.WithoutHello())
	select {
	case <-a.Done():
	case <-time.After(3 * time.Second):
		t.Fatal("silent connection was not closed")
	}
	if got := a.CloseStatus(); got != websocket.StatusPolicyViolation {
		t.Errorf("close status = %v, want 1008", got)
	}
	if b.Status().Connected {
		t.Error("silent connection became the peer")
	}
}

func TestFirstMessageMustBeHello(t *testing.T) {
	for _, tc := range []struct {
		name, frame, id string
	}{
		{"ping first", `{"id":"c1","command":"cmd_ping","params":{}}`, "c1"},
		{"answer first", `{"id":"c2","ok":true}`, "c2"},
		{"garbage first", `not json`, ""},
		{"hello params not object", `{"id":"c3","command":"cmd_editor_hello","params":[1]}`, "c3"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			ctx := testCtx(t)
			b := start(t)
			a := connect(t, b, fakeaddon.WithoutHello())
			if err := a.SendRaw(ctx, []byte(tc.frame)); err != nil {
				t.Fatal(err)
			}
			<-a.Done()
			if got := a.CloseStatus(); got != websocket.StatusPolicyViolation {
				t.Errorf("close status = %v, want 1008", got)
			}
			n := a.Notices()
			if len(n) != 1 || n[0].Error != contract.ValidationError || n[0].ID != tc.id || !strings.Contains(n[0].Hint, "cmd_editor_hello") {
				t.Errorf("answer = %+v", n)
			}
			if b.Status().Connected {
				t.Error("became the peer")
			}
		})
	}
}

func TestNew(t *testing.T) {
	for _, tc := range []struct {
		url, token string
		ok         bool
	}{
		{"", "", true},
		{"ws://127.0.0.1:9080", "", true},
		{"ws://127.0.0.1:9080/", "", true},
		{"ws://localhost:0", "", true},
		{"ws://[::1]:0", "", true},
		{"ws://192.168.1.5:9080", "tok", true},
		{"ws://192.168.1.5:9080", "", false},
		{"ws://0.0.0.0:9080", "tok", false},
		{"ws://[::]:9080", "tok", false},
		{"ws://:9080", "", false},
		{"ws://127.0.0.1", "", false},
		{"ws://127.0.0.1:99999", "", false},
		{"wss://127.0.0.1:9080", "", false},
		{"http://127.0.0.1:9080", "", false},
		{"ws://127.0.0.1:9080/bridge", "", false},
		{"ws://user:pw@127.0.0.1:9080", "", false},
		{"127.0.0.1:9080", "", false},
	} {
		t.Run(tc.url, func(t *testing.T) {
			b, err := bridge.New(bridge.Options{URL: tc.url, Token: tc.token})
			if (err == nil) != tc.ok {
				t.Fatalf("err = %v, want ok=%v", err, tc.ok)
			}
			if err == nil && tc.url == "" && b.URL() != bridge.DefaultURL {
				t.Errorf("URL = %s", b.URL())
			}
		})
	}
}

func TestStartAndClose(t *testing.T) {
	ctx := testCtx(t)
	b := start(t)
	if strings.HasSuffix(b.URL(), ":0") {
		t.Errorf("URL not resolved: %s", b.URL())
	}
	if st := b.Status(); !st.Listening || st.Connected || st.URL != b.URL() {
		t.Errorf("status = %+v", st)
	}
	if err := b.Start(ctx); err == nil {
		t.Error("second Start succeeded")
	}

	busy, err := bridge.New(bridge.Options{URL: b.URL()})
	if err != nil {
		t.Fatal(err)
	}
	if err := busy.Start(ctx); err == nil {
		_ = busy.Close()
		t.Fatal("Start on a busy port succeeded")
	}
	_ = busy.Close()

	a := connect(t, b)
	a.Silence("cmd_hang")
	pending := make(chan envelope.Response, 1)
	go func() { pending <- b.Send(ctx, "cmd_hang", nil, 30*time.Second) }()
	if _, err := a.WaitCommand(ctx, "cmd_hang"); err != nil {
		t.Fatal(err)
	}
	if err := b.Close(); err != nil {
		t.Fatal(err)
	}
	if r := <-pending; r.Error != contract.BridgeDisconnected {
		t.Errorf("pending after Close: %+v", r)
	}
	<-a.Done()
	if got := a.CloseStatus(); got != websocket.StatusGoingAway {
		t.Errorf("addon saw close status %v, want 1001", got)
	}
	if r := b.Send(ctx, "cmd_x", nil, time.Second); r.Error != contract.BridgeDisconnected {
		t.Errorf("Send after Close: %+v", r)
	}
	if st := b.Status(); st.Listening || st.Connected {
		t.Errorf("status after Close = %+v", st)
	}
	if err := b.Close(); err != nil {
		t.Errorf("second Close: %v", err)
	}
	if err := b.Start(ctx); !errors.Is(err, bridge.ErrClosed) {
		t.Errorf("Start after Close: %v", err)
	}
	if _, err := fakeaddon.Dial(ctx, b.URL()); err == nil {
		t.Error("dial after Close succeeded")
	}
}

func TestWaitConnected(t *testing.T) {
	b := start(t)
	short, cancel := context.WithTimeout(context.Background(), 20*time.Millisecond)
	defer cancel()
	if err := b.WaitConnected(short); !errors.Is(err, context.DeadlineExceeded) {
		t.Errorf("without editor: %v", err)
	}

	got := make(chan error, 1)
	go func() { got <- b.WaitConnected(testCtx(t)) }()
	connect(t, b)
	if err := <-got; err != nil {
		t.Fatal(err)
	}
	if err := b.WaitConnected(testCtx(t)); err != nil {
		t.Errorf("while connected: %v", err)
	}

	b2 := start(t)
	got2 := make(chan error, 1)
	go func() { got2 <- b2.WaitConnected(testCtx(t)) }()
	_ = b2.Close()
	if err := <-got2; !errors.Is(err, bridge.ErrClosed) {
		t.Errorf("after Close: %v", err)
	}
}

func TestOnPeerChange(t *testing.T) {
	var mu sync.Mutex
	var events []string
	b := start(t, func(o *bridge.Options) {
		o.OnPeerChange = func(connected bool, p *bridge.PeerInfo) {
			mu.Lock()
			defer mu.Unlock()
			events = append(events, fmt.Sprintf("%v %s", connected, p.ProjectDir))
		}
	})
	snapshot := func() string {
		mu.Lock()
		defer mu.Unlock()
		return strings.Join(events, ", ")
	}
	a1 := connect(t, b, fakeaddon.WithHello(envelope.EditorHello{ProjectDir: "/one"}))
	a2 := connect(t, b, fakeaddon.WithHello(envelope.EditorHello{ProjectDir: "/two"}))
	<-a1.Done()
	_ = a2.Close()
	eventually(t, "disconnect of /two", func() bool { return !b.Status().Connected })
	a3 := connect(t, b, fakeaddon.WithHello(envelope.EditorHello{ProjectDir: "/three"}))
	if st := b.Status(); st.Peer == nil || st.Peer.RemoteAddr == "" || st.Peer.ConnectedAt.IsZero() {
		t.Errorf("peer info = %+v", st.Peer)
	}
	_ = b.Close()
	<-a3.Done()
	want := "true /one, true /two, false /two, true /three, false /three"
	if got := snapshot(); got != want {
		t.Errorf("events = %s\nwant     %s", got, want)
	}
}

// TestLogsNeverContainToken runs every path that touches the token with a
// debug logger and checks no token value is ever written.
func TestLogsNeverContainToken(t *testing.T) {
	ctx := testCtx(t)
	const token = "tok-SUPERSECRET-7f3a9"
	const wrong = "tok-WRONGSECRET-1b2c"
	logs := &logBuffer{}
	b := start(t, func(o *bridge.Options) { o.Token = token; o.Logger = logs.logger() })

	a := connect(t, b, fakeaddon.WithToken(token))
	_, _ = fakeaddon.Dial(ctx, b.URL(), fakeaddon.WithToken(wrong))
	_, _ = fakeaddon.Dial(ctx, b.URL())
	raw := connect(t, b, fakeaddon.WithoutHello())
	_ = raw.SendRaw(ctx, []byte(`{"id":"x","command":"cmd_editor_hello","params":{"token":`+quote(wrong)+`,"project_dir":5}}`))
	<-raw.Done()
	_, _ = a.Request(ctx, envelope.CmdEditorHello, envelope.EditorHello{Token: token})
	_ = a.SendRaw(ctx, []byte(`{"id":"99999","ok":tru`))
	if err := b.Ping(ctx); err != nil {
		t.Fatal(err)
	}
	a2 := connect(t, b, fakeaddon.WithToken(token)) // replaces a
	<-a.Done()
	_ = a2.CloseNow()
	_ = b.Close()

	out := logs.String()
	for _, secret := range []string{token, wrong} {
		if strings.Contains(out, secret) {
			t.Errorf("log contains a token value %q:\n%s", secret, out)
		}
	}
	if !strings.Contains(out, "token mismatch") || !strings.Contains(out, "missing token") {
		t.Errorf("log should record the refusals:\n%s", out)
	}
}

func TestInvalidUTF8ParamsRefused(t *testing.T) {
	b := start(t)
	a := connect(t, b)
	r := b.Send(testCtx(t), "cmd_x", json.RawMessage("{\"a\":\"\xff\"}"), time.Second)
	if r.Error != contract.ValidationError || !strings.Contains(r.Hint, "UTF-8") {
		t.Fatalf("got %+v", r)
	}
	if n := len(a.Received()); n != 0 {
		t.Fatalf("an invalid frame reached the editor (%d commands)", n)
	}
}
