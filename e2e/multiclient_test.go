package e2e

import (
	"context"
	"net"
	"os/exec"
	"strings"
	"testing"
	"time"

	"github.com/mark3labs/mcp-go/client"
	"github.com/mark3labs/mcp-go/client/transport"
	"github.com/mark3labs/mcp-go/mcp"

	"github.com/godot-mcp/godot-mcp/host/contract"
)

// startAttachedHostT starts a godot-mcp whose bridge port another server
// owns: it attaches (docs/multi-client.md) and never listens itself, so
// unlike startHost it does not wait for a bridge URL in its log.
func startAttachedHostT(t *testing.T, bridgeURL string, env ...string) *host {
	t.Helper()
	h := &host{stderr: &syncBuffer{}, url: bridgeURL}
	hostEnv := append([]string{"GODOT_MCP_BRIDGE_URL=" + bridgeURL, "GODOT_MCP_PLUGIN_DIR=" + suite.pluginDir}, env...)
	tr := transport.NewStdioWithOptions(suite.hostBin, hostEnv, nil,
		transport.WithCommandFunc(func(_ context.Context, command string, env, args []string) (*exec.Cmd, error) {
			cmd := exec.Command(command, args...)
			cmd.Env = append(godotEnv(), env...)
			cmd.Stderr = h.stderr
			cmd.SysProcAttr = procAttr()
			h.cmd = cmd
			return cmd, nil
		}))
	ctx, cancel := context.WithTimeout(context.Background(), callTimeout)
	defer cancel()
	if err := tr.Start(ctx); err != nil {
		t.Fatal(err)
	}
	h.c = client.NewClient(tr)
	t.Cleanup(func() {
		h.stop()
		if t.Failed() {
			t.Logf("attached godot-mcp stderr:\n%s", h.stderr.String())
		}
	})
	var init mcp.InitializeRequest
	init.Params.ProtocolVersion = contract.MCPProtocolVersion
	init.Params.ClientInfo = mcp.Implementation{Name: "godot-mcp-e2e-attached", Version: "1"}
	if _, err := h.c.Initialize(ctx, init); err != nil {
		t.Fatalf("MCP initialize: %v", err)
	}
	return h
}

func waitStderr(t *testing.T, h *host, want string, within time.Duration) {
	t.Helper()
	deadline := time.Now().Add(within)
	for !strings.Contains(h.stderr.String(), want) {
		if time.Now().After(deadline) {
			t.Fatalf("godot-mcp never logged %q:\n%s", want, h.stderr.String())
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// Two servers, one real editor: the second attaches to the first, both
// drive the editor and share the toolsets; when the first is killed the
// second takes the bridge over and the addon reconnects to it by itself.
func TestTwoServersOneEditor(t *testing.T) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	url := "ws://" + ln.Addr().String()
	ln.Close()
	runDir := "XDG_RUNTIME_DIR=" + t.TempDir()

	first := startHostT(t, url, runDir)
	project := newProject(t)
	e := startEditorT(t, project, first.url)
	waitEditor(t, first, e)
	waitStderr(t, first, "attach here", 10*time.Second)

	second := startAttachedHostT(t, url, runDir)
	waitStderr(t, second, "another godot-mcp server owns the editor bridge", 10*time.Second)
	for name, h := range map[string]*host{"first": first, "second": second} {
		var st editorState
		h.mustCall(t, "godot_get_editor_state", nil, &st)
		if !sameDir(st.ProjectDir, project) {
			t.Fatalf("%s: editor state of %q, want %q", name, st.ProjectDir, project)
		}
	}
	second.mustCall(t, "godot_enable_toolset", map[string]any{"name": "scene"}, nil)
	first.mustCall(t, "godot_scene_list_open", nil, nil) // enabled by the other client

	first.stop() // SIGKILL to its process group
	waitStderr(t, second, "took over the editor bridge", 20*time.Second)
	ctx, cancel := context.WithTimeout(context.Background(), connectTimeout)
	defer cancel()
	if _, err := second.waitPeer(ctx, func(i serverInfo) bool { return sameDir(i.Bridge.Peer.ProjectDir, project) }); err != nil {
		t.Fatalf("the editor never reconnected to the server that took over: %v\n%s", err, e.out.String())
	}
	var st editorState
	second.mustCall(t, "godot_get_editor_state", nil, &st)
	if !sameDir(st.ProjectDir, project) {
		t.Fatalf("after the takeover: %q", st.ProjectDir)
	}
}
