package e2e

import (
	"context"
	"net"
	"strings"
	"testing"
	"time"
)

// startAttachedHostT starts a godot-mcp whose bridge port another server
// owns: it attaches (docs/multi-client.md) and never listens itself, so
// unlike startHost it does not wait for a bridge URL in its log.
func startAttachedHostT(t *testing.T, bridgeURL string, env ...string) *host {
	t.Helper()
	h := &host{stderr: &syncBuffer{}, url: bridgeURL}
	ctx, cancel := context.WithTimeout(context.Background(), callTimeout)
	defer cancel()
	if err := h.launch(ctx, bridgeURL, "godot-mcp-e2e-attached", env); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		h.stop()
		if t.Failed() {
			t.Logf("attached godot-mcp stderr:\n%s", h.stderr.String())
		}
	})
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
