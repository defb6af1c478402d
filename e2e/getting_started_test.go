package e2e

import (
	"bytes"
	"context"
	"encoding/json"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"
)

// savedLabelRE is the Hello label's header in the saved main.tscn.
var savedLabelRE = regexp.MustCompile(`\[node name="Hello" type="Label" parent="\."( unique_id=\d+)?\]`)

// runGodotMCP runs the built binary with args (a CLI command, not a server)
// and returns its stdout and exit code.
func runGodotMCP(t *testing.T, env []string, args ...string) (string, int) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, suite.hostBin, args...)
	cmd.Env = append(godotEnv(), env...)
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	err := cmd.Run()
	code := 0
	if ee, ok := err.(*exec.ExitError); ok {
		code = ee.ExitCode()
	} else if err != nil {
		t.Fatal(err)
	}
	if code != 0 {
		t.Logf("godot-mcp %s: exit %d\nstdout:\n%s\nstderr:\n%s", strings.Join(args, " "), code, stdout.String(), stderr.String())
	}
	return stdout.String(), code
}

// TestGettingStarted follows docs/getting-started.md: a new project, the
// addon installed, the client config, the editor, doctor, and the first
// session (create a scene, add a node, save, play, read the output, stop).
func TestGettingStarted(t *testing.T) {
	// 2. A project with the addon.
	project := filepath.Join(t.TempDir(), "hello")
	os.MkdirAll(project, 0o755)
	if err := os.WriteFile(filepath.Join(project, "project.godot"), []byte("config_version=5\n\n[application]\n\nconfig/name=\"Hello\"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if out, code := runGodotMCP(t, nil, "addon", "install", "--project", project, "--enable"); code != 0 || !strings.Contains(out, "installed") {
		t.Fatalf("addon install: %s", out)
	}
	if log, err := importProject(project); err != nil {
		t.Fatalf("%v\n%s", err, log)
	}

	// 3. The client config: what a client would start.
	out, code := runGodotMCP(t, nil, "setup", "print", "--project", project)
	var cfg struct {
		MCPServers map[string]struct {
			Command string            `json:"command"`
			Env     map[string]string `json:"env"`
		} `json:"mcpServers"`
	}
	if code != 0 || json.Unmarshal([]byte(out), &cfg) != nil {
		t.Fatalf("setup print: %s", out)
	}
	entry := cfg.MCPServers["godot"]
	if bin, _ := filepath.Abs(suite.hostBin); entry.Command != bin || entry.Env["GODOT_MCP_PROJECT_DIR"] != project {
		t.Fatalf("setup print: %+v", entry)
	}

	// 4. The editor, the server (as the client starts it) and doctor.
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	bridgeURL := "ws://" + ln.Addr().String()
	ln.Close()
	doctorEnv := []string{"GODOT_MCP_BRIDGE_URL=" + bridgeURL, "GODOT_BIN=" + suite.godot}
	h := startHostT(t, bridgeURL, "GODOT_MCP_PROJECT_DIR="+entry.Env["GODOT_MCP_PROJECT_DIR"])
	e := startEditorT(t, project, h.url)
	waitEditor(t, h, e)
	out, code = runGodotMCP(t, doctorEnv, "doctor", "--project", project)
	if code != 0 || !strings.Contains(out, "all checks passed.") || !strings.Contains(out, "ok    editor: connected: project ") {
		t.Fatalf("doctor: exit %d\n%s", code, out)
	}

	// 5. The first session.
	var info serverInfo
	h.mustCall(t, "godot_get_server_info", nil, &info)
	if !info.Bridge.Connected {
		t.Fatalf("server info: %s", describeBridge(info))
	}
	h.mustCall(t, "godot_enable_toolset", map[string]any{"names": []string{"scene", "runtime"}}, nil)
	h.mustCall(t, "godot_scene_create", map[string]any{"path": "res://main.tscn", "root_type": "Node2D"}, nil)
	h.mustCall(t, "godot_scene_create_node", map[string]any{"type": "Label", "name": "Hello",
		"properties": map[string]any{"text": "Hello from the agent", "position": map[string]any{"x": 100, "y": 100}}}, nil)
	h.mustCall(t, "godot_scene_save", map[string]any{}, nil)
	saved, err := os.ReadFile(filepath.Join(project, "main.tscn"))
	// Godot 4.5+ adds unique_id=N to each node's header (docs/godot-versions.md).
	if err != nil || !savedLabelRE.Match(saved) || !bytes.Contains(saved, []byte(`text = "Hello from the agent"`)) {
		t.Fatalf("main.tscn after save (%v):\n%s", err, saved)
	}
	var run rtPlay
	h.mustCall(t, "godot_runtime_play", map[string]any{"scene": "res://main.tscn", "display": "headless", "timeout_ms": 60000}, &run)
	if !run.Playing || run.Scene != "res://main.tscn" {
		t.Fatalf("play: %+v", run)
	}
	var page rtLog
	h.mustCall(t, "godot_runtime_get_output", map[string]any{"since": run.OutputCursor}, &page)
	if len(page.Entries) == 0 || page.Entries[0].Kind != "session" || !strings.Contains(page.Entries[0].Text, "game started") {
		t.Fatalf("output: %+v", page.Entries)
	}
	h.mustCall(t, "godot_runtime_stop", nil, nil)
	var status struct {
		Playing bool `json:"playing"`
	}
	h.mustCall(t, "godot_runtime_get_status", nil, &status)
	if status.Playing {
		t.Fatal("still playing after stop")
	}
}
