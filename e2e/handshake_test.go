package e2e

import (
	"encoding/json"
	"errors"
	"net"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/coder/websocket"

	"github.com/godot-mcp/godot-mcp/host/buildinfo"
	"github.com/godot-mcp/godot-mcp/host/envelope"
	"github.com/godot-mcp/godot-mcp/sdk/contract"
)

// #24.2: the real addon routes no command before its hello is accepted,
// never sends the bridge token itself, and talks only to a server that
// proves it knows the token. The test is the program on the bridge port:
// first one that does not know the token (another program that took the
// port), then one that does.
//
//   - In the hello: a nonce and a token_proof, no token.
//   - Commands sent before the hello is answered are never answered.
//   - A hello answer without the server's proof: the addon says so in the
//     Output panel, answers no command, drops the link and dials again.
//   - On the next connection, commands sent before the answer are again
//     ignored; after an answer with the right server_proof, cmd_ping is
//     answered.
func TestAddonIgnoresCommandsBeforeItsHelloIsAccepted(t *testing.T) {
	const token = "e2e-bridge-token"
	conns := make(chan *websocket.Conn)
	stop := make(chan struct{})
	srv := &http.Server{Handler: http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		c, err := websocket.Accept(w, r, &websocket.AcceptOptions{InsecureSkipVerify: true})
		if err != nil {
			return
		}
		c.SetReadLimit(64 << 20)
		select {
		case conns <- c:
		case <-stop:
			c.CloseNow()
			return
		}
		<-stop // the test owns the connection until it ends
	})}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	go srv.Serve(ln)
	t.Cleanup(func() { close(stop); srv.Close() })
	url := "ws://" + ln.Addr().String()
	e := startEditorT(t, newProject(t), url, "GODOT_MCP_BRIDGE_TOKEN="+token)

	ctx := ctxFor(t, connectTimeout+60*time.Second)
	type frame struct {
		ID      string          `json:"id"`
		Command string          `json:"command"`
		OK      *bool           `json:"ok"`
		Params  json.RawMessage `json:"params"`
		Result  json.RawMessage `json:"result"`
	}
	// A reader per connection: a websocket.Conn whose Read is cancelled
	// closes, and the test waits for frames with timeouts.
	frames := map[*websocket.Conn]chan frame{}
	accept := func() *websocket.Conn {
		t.Helper()
		select {
		case c := <-conns:
			ch := make(chan frame, 64)
			frames[c] = ch
			go func() {
				defer close(ch)
				for {
					_, data, err := c.Read(ctx)
					if err != nil {
						return
					}
					var f frame
					if json.Unmarshal(data, &f) == nil {
						ch <- f
					}
				}
			}()
			return c
		case <-ctx.Done():
			t.Fatalf("the editor never dialed %s:\n%s", url, e.out.String())
			return nil
		}
	}
	read := func(c *websocket.Conn, d time.Duration) (frame, error) {
		select {
		case f, ok := <-frames[c]:
			if !ok {
				return frame{}, errors.New("the link closed")
			}
			return f, nil
		case <-time.After(d):
			return frame{}, errors.New("no frame")
		}
	}
	send := func(c *websocket.Conn, v any) {
		t.Helper()
		data, _ := json.Marshal(v)
		if err := c.Write(ctx, websocket.MessageText, data); err != nil {
			t.Fatalf("write: %v", err)
		}
	}
	// hello accepts the next connection that says hello (one the editor
	// drops before its hello, as when the plugin reloads at start, is
	// skipped) and checks that the hello proves the token without it.
	hello := func() (*websocket.Conn, frame, envelope.EditorHello) {
		t.Helper()
		for {
			c := accept()
			f, err := read(c, 30*time.Second)
			if err != nil {
				c.CloseNow()
				continue
			}
			if f.Command != envelope.CmdEditorHello {
				t.Fatalf("first frame %+v", f)
			}
			var h envelope.EditorHello
			json.Unmarshal(f.Params, &h)
			if h.Token != "" || strings.Contains(string(f.Params), token) {
				t.Errorf("the hello carries the bridge token: %s", f.Params)
			}
			if len(h.Nonce) != 64 || h.TokenProof != envelope.HelloProof(token, "editor", h.Nonce) {
				t.Errorf("the hello's nonce %q / token_proof %q are not a proof of the token", h.Nonce, h.TokenProof)
			}
			return c, f, h
		}
	}
	// early sends commands before the hello is answered; none may be answered.
	early := func(c *websocket.Conn, tag string) {
		t.Helper()
		send(c, map[string]any{"id": tag + "-ping", "command": envelope.CmdPing, "params": map[string]any{}})
		send(c, map[string]any{"id": tag + "-state", "command": "cmd_get_editor_state", "params": map[string]any{}})
		if f, err := read(c, 3*time.Second); err == nil {
			t.Errorf("the addon answered before its hello was accepted: %+v", f)
		}
	}

	// 1. A program that does not know the token.
	c, f, _ := hello()
	early(c, "impostor-early")
	send(c, map[string]any{"id": f.ID, "ok": true, "result": map[string]any{"accepted": true, "server_version": buildinfo.Version, "contract_version": contract.ContractVersion}})
	send(c, map[string]any{"id": "impostor-after", "command": envelope.CmdPing, "params": map[string]any{}})
	for {
		f, err := read(c, 10*time.Second)
		if err != nil {
			break // the addon dropped the link
		}
		if f.ID != "" {
			t.Errorf("the addon answered a server that did not prove the token: %+v", f)
		}
	}
	c.CloseNow()
	for wait := time.Now().Add(15 * time.Second); !strings.Contains(e.out.String(), "without proving it knows GODOT_MCP_BRIDGE_TOKEN") && time.Now().Before(wait); {
		time.Sleep(100 * time.Millisecond)
	}
	if !strings.Contains(e.out.String(), "without proving it knows GODOT_MCP_BRIDGE_TOKEN") {
		t.Errorf("the editor did not say why it left:\n%s", e.out.String())
	}

	// 2. The server that knows the token: the addon dials again.
	c, f, h := hello()
	defer c.CloseNow()
	early(c, "server-early")
	send(c, map[string]any{"id": f.ID, "ok": true, "result": map[string]any{"accepted": true, "server_version": buildinfo.Version,
		"contract_version": contract.ContractVersion, "server_proof": envelope.HelloProof(token, "server", h.Nonce)}})
	send(c, map[string]any{"id": "server-after", "command": envelope.CmdPing, "params": map[string]any{}})
	for {
		f, err := read(c, 30*time.Second)
		if err != nil {
			t.Fatalf("no answer to cmd_ping after the hello was accepted: %v\n%s", err, e.out.String())
		}
		if strings.HasPrefix(f.ID, "server-early") || strings.HasPrefix(f.ID, "impostor") {
			t.Errorf("a command sent before the hello was accepted was answered: %+v", f)
		}
		if f.ID == "server-after" {
			if f.OK == nil || !*f.OK || !strings.Contains(string(f.Result), "pong") {
				t.Errorf("cmd_ping after the hello: %+v", f)
			}
			break
		}
	}
	if strings.Contains(e.out.String(), token) {
		t.Error("the editor printed the token")
	}
}
