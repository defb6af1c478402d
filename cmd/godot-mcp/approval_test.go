package main

import (
	"bytes"
	"context"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/godot-mcp/godot-mcp/sdk/contract"
	"github.com/godot-mcp/godot-mcp/sdk/sdktest/fakeaddon"
)

// denyAll is an approval webhook that refuses everything and records what it was asked.
type denyAll struct {
	srv     *httptest.Server
	mu      sync.Mutex
	tools   []string
	reasons []string // the "reason" of each request, in order
}

func newDenyAll(t *testing.T) *denyAll {
	d := &denyAll{}
	d.srv = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		var body struct {
			Tool   string `json:"tool"`
			Reason string `json:"reason"`
		}
		json.NewDecoder(r.Body).Decode(&body)
		d.mu.Lock()
		d.tools = append(d.tools, body.Tool)
		d.reasons = append(d.reasons, body.Reason)
		d.mu.Unlock()
		w.Header().Set("Content-Type", "application/json")
		w.Write([]byte(`{"approved": false, "reason": "deny-all test webhook"}`))
	}))
	t.Cleanup(d.srv.Close)
	return d
}

func (d *denyAll) asked() []string {
	d.mu.Lock()
	defer d.mu.Unlock()
	return append([]string(nil), d.tools...)
}

// editorAnswersEverything makes the fake editor answer the commands these
// tests may reach with an empty success, so that only the host's gates can
// stop a call.
func editorAnswersEverything(a *fakeaddon.Addon, project string) {
	a.HandleResult("cmd_get_editor_state", map[string]any{"project_dir": project, "godot_version": "4.4.1.stable"})
	for _, c := range []string{"cmd_scene_batch", "cmd_project_remove_autoload", "cmd_project_add_autoload", "cmd_resources_create",
		"cmd_scene_save", "cmd_undo", "cmd_scripts_write", "cmd_scene_delete_node"} {
		a.HandleResult(c, map[string]any{})
	}
}

func sentToEditor(a *fakeaddon.Addon, command string) bool {
	for _, c := range a.Received() {
		if c.Command == command {
			return true
		}
	}
	return false
}

// With a deny-all webhook, nothing that destroys or overwrites reaches the
// editor: a batch with delete steps, removing an autoload, overwriting a
// file with create/save, undoing many actions. Each asks the webhook once
// and is refused; without confirm each is refused before any webhook call.
func TestBinaryApprovalCoversEveryDestructiveCall(t *testing.T) {
	hook := newDenyAll(t)
	p := startBinary(t, "GODOT_MCP_APPROVAL=webhook", "GODOT_MCP_APPROVAL_URL="+hook.srv.URL,
		"GODOT_MCP_DEFAULT_TOOLSETS=scene,project,resources")
	p.Initialize()
	addon := dialAddon(t, p)
	editorAnswersEverything(addon, t.TempDir())

	cases := []struct {
		tool, command string
		args          map[string]any
	}{
		{"godot_scene_batch", "cmd_scene_batch", map[string]any{"steps": []any{
			map[string]any{"tool": "delete_node", "args": map[string]any{"node": "Player"}},
			map[string]any{"tool": "delete_node", "args": map[string]any{"node": "Enemy"}}}}},
		{"godot_project_remove_autoload", "cmd_project_remove_autoload", map[string]any{"name": "Game"}},
		{"godot_resources_create", "cmd_resources_create", map[string]any{"path": "res://theme.tres", "type": "Theme", "overwrite": true}},
		{"godot_scene_save", "cmd_scene_save", map[string]any{"path": "res://other.tscn", "overwrite": true}},
		{"godot_undo", "cmd_undo", map[string]any{"count": 100}},
	}
	for _, tc := range cases {
		t.Run(tc.tool, func(t *testing.T) {
			before := len(hook.asked())
			r := call(p, tc.tool, tc.args)
			if e := errorOf(r); !r.IsError || e.Code != contract.PreconditionFailed || e.Required != contract.RequireConfirm {
				t.Errorf("without confirm: %s, want PRECONDITION_FAILED required confirm", r.StructuredContent)
			}
			if n := len(hook.asked()); n != before {
				t.Errorf("the webhook was asked about an unconfirmed call")
			}
			confirmed := map[string]any{"confirm": true}
			for k, v := range tc.args {
				confirmed[k] = v
			}
			r = call(p, tc.tool, confirmed)
			if e := errorOf(r); !r.IsError || e.Code != contract.ApprovalDenied {
				t.Errorf("confirmed, deny-all webhook: %s, want APPROVAL_DENIED", r.StructuredContent)
			}
			if asked := hook.asked(); len(asked) != before+1 || asked[len(asked)-1] != tc.tool {
				t.Errorf("webhook asked %v, want one more call for %s", asked, tc.tool)
			} else if hook.reasons[before] != "destructive" {
				t.Errorf("webhook asked about %s for the reason %q", tc.tool, hook.reasons[before])
			}
			if sentToEditor(addon, tc.command) {
				t.Errorf("%s reached the editor although the webhook refused", tc.command)
			}
			// A dry run changes nothing and needs neither confirm nor approval.
			dry := map[string]any{"dry_run": true}
			for k, v := range tc.args {
				dry[k] = v
			}
			call(p, tc.tool, dry)
			if n := len(hook.asked()); n != before+1 {
				t.Errorf("the webhook was asked about a dry run")
			}
		})
	}
	p.AssertOnlyJSONRPC()
}

// GODOT_MCP_APPROVAL_SCOPE: by default adding an autoload or writing a
// script is not asked about; with "code" it is (and refused by the deny-all
// webhook), and so is run_headless; with "writes" every mutating call is.
func TestBinaryApprovalScope(t *testing.T) {
	project := t.TempDir()
	os.WriteFile(filepath.Join(project, "project.godot"), []byte("config_version=5\n"), 0o644)
	codeCalls := []struct {
		tool, command string
		args          map[string]any
	}{
		{"godot_project_add_autoload", "cmd_project_add_autoload", map[string]any{"name": "Game", "path": "res://game.gd"}},
		{"godot_scripts_write", "cmd_scripts_write", map[string]any{"path": "res://tool.gd", "source": "@tool\nextends Node\n"}},
	}
	for _, scope := range []string{"", "code", "writes", "destructive,code", "all"} {
		t.Run("scope="+scope, func(t *testing.T) {
			hook := newDenyAll(t)
			env := []string{"GODOT_MCP_APPROVAL=webhook", "GODOT_MCP_APPROVAL_URL=" + hook.srv.URL,
				"GODOT_MCP_DEFAULT_TOOLSETS=project,scripts,runtime", "GODOT_MCP_APPROVAL_SCOPE=" + scope,
				"GODOT_BIN=/bin/true", "GODOT_MCP_PROJECT_DIR=" + project}
			p := startBinary(t, env...)
			p.Initialize()
			addon := dialAddon(t, p)
			editorAnswersEverything(addon, project)
			code := strings.Contains(scope, "code") || scope == "all"
			writes := strings.Contains(scope, "writes") || scope == "all"
			for _, c := range codeCalls {
				r := call(p, c.tool, c.args)
				denied := r.IsError && errorOf(r).Code == contract.ApprovalDenied
				if denied != (code || writes) {
					t.Errorf("%s: %s (approval asked: %v, want %v)", c.tool, r.StructuredContent, denied, code || writes)
				}
				if sentToEditor(addon, c.command) == denied {
					t.Errorf("%s reached the editor: %v, denied: %v", c.command, sentToEditor(addon, c.command), denied)
				}
			}
			r := call(p, "godot_runtime_run_headless", map[string]any{"timeout_ms": 1000})
			denied := r.IsError && errorOf(r).Code == contract.ApprovalDenied
			if denied != code {
				t.Errorf("run_headless: %s (approval asked: %v, want %v)", r.StructuredContent, denied, code)
			}
			hook.mu.Lock()
			for i, tool := range hook.tools {
				want := "code"
				if !code {
					want = "write"
				}
				if tool == "godot_runtime_run_headless" {
					want = "code"
				}
				if hook.reasons[i] != want {
					t.Errorf("the webhook was asked about %s for the reason %q, want %q", tool, hook.reasons[i], want)
				}
			}
			hook.mu.Unlock()
			if !denied && r.IsError {
				t.Errorf("run_headless of the project failed: %s", r.StructuredContent)
			}
		})
	}
}

// #24.7: a server configured with an approval policy does not attach to
// an owner whose policy differs (its own would silently not apply): it
// exits saying so and what to do. The same policy attaches.
func TestBinaryAttachKeepsTheApprovalPolicy(t *testing.T) {
	port := freePort(t)
	runDir := t.TempDir()
	env := []string{"GODOT_MCP_BRIDGE_URL=ws://127.0.0.1:" + port, "XDG_RUNTIME_DIR=" + runDir}
	owner := startBinary(t, env...)
	owner.Initialize()
	waitLog(t, owner, "other godot-mcp servers for this bridge attach here")

	strict := append(env, "GODOT_MCP_APPROVAL=webhook", "GODOT_MCP_APPROVAL_URL=http://127.0.0.1:1/deny-all", "GODOT_MCP_APPROVAL_SCOPE=all")
	out, errOut, code := runBinaryStdin(t, strict, `{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"t","version":"1"}}}`+"\n")
	if code == 0 || !strings.Contains(errOut, "approval") || !strings.Contains(errOut, "does not attach") || strings.Contains(errOut, "deny-all") {
		t.Fatalf("a stricter server attached: exit %d\nstdout: %s\nstderr: %s", code, out, errOut)
	}

	// Both strict alike: the second attaches.
	port2 := freePort(t)
	env2 := append([]string{"GODOT_MCP_BRIDGE_URL=ws://127.0.0.1:" + port2, "XDG_RUNTIME_DIR=" + runDir}, strict[2:]...)
	owner2 := startBinary(t, env2...)
	owner2.Initialize()
	waitLog(t, owner2, "other godot-mcp servers for this bridge attach here")
	attached := startBinary(t, env2...)
	attached.Initialize()
	waitLog(t, attached, "another godot-mcp server owns the editor bridge")
	if r := call(attached, "godot_get_server_info", nil); r.IsError {
		t.Fatalf("same policy: %s", r.StructuredContent)
	}
}

// runBinaryStdin is runBinary with input on stdin (then closed).
func runBinaryStdin(t *testing.T, env []string, stdin string, args ...string) (string, string, int) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	cmd := exec.CommandContext(ctx, binPath, args...)
	cmd.Env = append(append(os.Environ(), "GODOT_MCP_PLUGIN_DIR="+t.TempDir()), env...)
	cmd.Stdin = strings.NewReader(stdin)
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	err := cmd.Run()
	code := 0
	if ee, ok := err.(*exec.ExitError); ok {
		code = ee.ExitCode()
	} else if err != nil {
		t.Fatal(err)
	}
	return stdout.String(), stderr.String(), code
}
