package main

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/godot-mcp/godot-mcp/host/config"
	"github.com/godot-mcp/godot-mcp/host/envelope"
	"github.com/godot-mcp/godot-mcp/host/fakeaddon"
)

var binPath string

func TestMain(m *testing.M) {
	dir, err := os.MkdirTemp("", "godot-mcp-bin")
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	binPath = filepath.Join(dir, "godot-mcp")
	build := exec.Command("go", "build", "-race", "-o", binPath, ".")
	build.Stdout, build.Stderr = os.Stderr, os.Stderr
	if err := build.Run(); err != nil {
		fmt.Fprintln(os.Stderr, "building godot-mcp:", err)
		os.Exit(1)
	}
	code := m.Run()
	os.RemoveAll(dir)
	os.Exit(code)
}

// proc is the real binary speaking MCP over stdio.
type proc struct {
	t      *testing.T
	cmd    *exec.Cmd
	stdin  io.WriteCloser
	lines  chan []byte
	mu     sync.Mutex
	stdout [][]byte
	stderr *syncBuffer
	nextID int
}

type syncBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (s *syncBuffer) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Write(p)
}

func (s *syncBuffer) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.String()
}

func startBinary(t *testing.T, env ...string) *proc {
	t.Helper()
	cmd := exec.Command(binPath)
	cmd.Env = append(os.Environ(), "GODOT_MCP_BRIDGE_URL=ws://127.0.0.1:0", "GODOT_MCP_LOG_LEVEL=debug",
		"GODOT_MCP_PLUGIN_DIR="+t.TempDir())
	cmd.Env = append(cmd.Env, env...)
	stdin, err := cmd.StdinPipe()
	if err != nil {
		t.Fatal(err)
	}
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	p := &proc{t: t, cmd: cmd, stdin: stdin, lines: make(chan []byte, 1000), stderr: &syncBuffer{}}
	cmd.Stderr = p.stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	go func() {
		sc := bufio.NewScanner(stdout)
		sc.Buffer(make([]byte, 1<<20), 64<<20)
		for sc.Scan() {
			line := append([]byte(nil), sc.Bytes()...)
			p.mu.Lock()
			p.stdout = append(p.stdout, line)
			p.mu.Unlock()
			p.lines <- line
		}
		close(p.lines)
	}()
	t.Cleanup(func() {
		stdin.Close()
		done := make(chan struct{})
		go func() { cmd.Wait(); close(done) }()
		select {
		case <-done:
		case <-time.After(10 * time.Second):
			cmd.Process.Kill()
			<-done
			t.Errorf("godot-mcp did not exit after stdin closed")
		}
		if t.Failed() {
			t.Logf("stderr:\n%s", p.stderr.String())
		}
	})
	return p
}

// request sends a JSON-RPC request and returns its response, collecting
// notifications seen on the way.
func (p *proc) request(method string, params any) (json.RawMessage, []string) {
	p.t.Helper()
	p.nextID++
	id := p.nextID
	msg, _ := json.Marshal(map[string]any{"jsonrpc": "2.0", "id": id, "method": method, "params": params})
	if _, err := p.stdin.Write(append(msg, '\n')); err != nil {
		p.t.Fatal(err)
	}
	var notes []string
	deadline := time.After(30 * time.Second)
	for {
		select {
		case line, ok := <-p.lines:
			if !ok {
				p.t.Fatalf("stdout closed waiting for %s", method)
			}
			var m struct {
				ID     *int            `json:"id"`
				Method string          `json:"method"`
				Result json.RawMessage `json:"result"`
				Error  json.RawMessage `json:"error"`
			}
			if err := json.Unmarshal(line, &m); err != nil {
				p.t.Fatalf("non-JSON on stdout: %q", line)
			}
			if m.ID == nil {
				notes = append(notes, m.Method)
				continue
			}
			if *m.ID != id {
				continue
			}
			if m.Error != nil {
				p.t.Fatalf("%s: JSON-RPC error %s", method, m.Error)
			}
			return m.Result, notes
		case <-deadline:
			p.t.Fatalf("no answer to %s", method)
		}
	}
}

func (p *proc) notify(method string) {
	msg, _ := json.Marshal(map[string]any{"jsonrpc": "2.0", "method": method})
	p.stdin.Write(append(msg, '\n'))
}

func (p *proc) initialize() {
	p.t.Helper()
	p.request("initialize", map[string]any{
		"protocolVersion": "2025-11-25",
		"capabilities":    map[string]any{},
		"clientInfo":      map[string]any{"name": "binary-test", "version": "1"},
	})
	p.notify("notifications/initialized")
}

type toolResult struct {
	IsError           bool            `json:"isError"`
	StructuredContent json.RawMessage `json:"structuredContent"`
	Content           []struct {
		Type string `json:"type"`
		Text string `json:"text"`
	} `json:"content"`
}

func (p *proc) callTool(name string, args map[string]any) toolResult {
	p.t.Helper()
	raw, _ := p.request("tools/call", map[string]any{"name": name, "arguments": args})
	var r toolResult
	if err := json.Unmarshal(raw, &r); err != nil {
		p.t.Fatal(err)
	}
	return r
}

// bridgeURL reads the actual bridge URL from the server's log.
func (p *proc) bridgeURL() string {
	p.t.Helper()
	re := regexp.MustCompile(`bridge listening.*url=(ws://[0-9.:]+)`)
	deadline := time.Now().Add(10 * time.Second)
	for time.Now().Before(deadline) {
		if m := re.FindStringSubmatch(p.stderr.String()); m != nil {
			return m[1]
		}
		time.Sleep(10 * time.Millisecond)
	}
	p.t.Fatalf("no bridge URL in the log:\n%s", p.stderr.String())
	return ""
}

// assertOnlyJSONRPC checks every stdout line is a JSON-RPC 2.0 message.
func (p *proc) assertOnlyJSONRPC() {
	p.t.Helper()
	p.mu.Lock()
	defer p.mu.Unlock()
	for _, line := range p.stdout {
		var m map[string]any
		if err := json.Unmarshal(line, &m); err != nil || m["jsonrpc"] != "2.0" {
			p.t.Fatalf("stdout carried something other than JSON-RPC: %q", line)
		}
	}
}

func TestBinaryStdioTranscript(t *testing.T) {
	p := startBinary(t)
	p.initialize()

	raw, _ := p.request("tools/list", map[string]any{})
	var list struct {
		Tools []struct {
			Name string `json:"name"`
		} `json:"tools"`
	}
	json.Unmarshal(raw, &list)
	names := map[string]bool{}
	for _, tool := range list.Tools {
		names[tool.Name] = true
	}
	for _, want := range []string{"godot_get_server_info", "godot_list_toolsets", "godot_enable_toolset", "godot_disable_toolset",
		"godot_get_editor_state", "godot_undo", "godot_redo", "godot_describe_class"} {
		if !names[want] {
			t.Errorf("tools/list lacks %s", want)
		}
	}

	r := p.callTool("godot_get_server_info", nil)
	var info struct {
		Version         string `json:"version"`
		ContractVersion int    `json:"contract_version"`
		Bridge          struct {
			Connected bool `json:"connected"`
			Listening bool `json:"listening"`
		} `json:"bridge"`
	}
	if r.IsError || json.Unmarshal(r.StructuredContent, &info) != nil || info.ContractVersion != 1 || !info.Bridge.Listening || info.Bridge.Connected {
		t.Fatalf("server info: %+v %s", r, r.StructuredContent)
	}

	// No editor yet: a clean BRIDGE_DISCONNECTED, not a hang.
	r = p.callTool("godot_get_editor_state", nil)
	var e envelope.Error
	json.Unmarshal(r.StructuredContent, &e)
	if !r.IsError || e.Code != envelope.BridgeDisconnected || e.Required != "bridge_connected" {
		t.Fatalf("without editor: %+v", r)
	}

	// An editor dials in; the same call now reaches it.
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	addon, err := fakeaddon.Dial(ctx, p.bridgeURL())
	if err != nil {
		t.Fatal(err)
	}
	defer addon.Close()
	addon.HandleResult("cmd_get_editor_state", map[string]any{"project_dir": "/tmp/game", "open_scenes": []any{}, "active_scene": nil, "selection": []any{}})
	r = p.callTool("godot_get_editor_state", nil)
	if r.IsError || !strings.Contains(string(r.StructuredContent), "/tmp/game") {
		t.Fatalf("with editor: %+v", r)
	}
	if cmds := addon.Received(); len(cmds) != 1 || cmds[0].Command != "cmd_get_editor_state" {
		t.Fatalf("editor received %+v", cmds)
	}
	p.assertOnlyJSONRPC()
}

func TestBinaryHelpDocumentsEveryVariable(t *testing.T) {
	out, err := exec.Command(binPath, "--help").CombinedOutput()
	if err != nil {
		t.Fatalf("--help: %v\n%s", err, out)
	}
	for _, v := range []string{"GODOT_MCP_BRIDGE_URL", "GODOT_MCP_TRANSPORT", "GODOT_MCP_HTTP_HOST", "GODOT_MCP_HTTP_PORT",
		"GODOT_MCP_AUTH_TOKEN", "GODOT_MCP_HTTP_HOST_ORIGIN_PROTECTION", "GODOT_MCP_BRIDGE_TOKEN", "GODOT_MCP_PROJECT_DIR",
		"GODOT_MCP_PLUGIN_DIR", "GODOT_MCP_DEFAULT_TOOLSETS", "GODOT_MCP_APPROVAL"} {
		if !strings.Contains(string(out), v) {
			t.Errorf("--help does not document %s", v)
		}
	}
}

func TestBinaryRefusesPublicHTTPWithoutToken(t *testing.T) {
	cmd := exec.Command(binPath)
	cmd.Env = append(os.Environ(), "GODOT_MCP_TRANSPORT=http", "GODOT_MCP_HTTP_HOST=0.0.0.0", "GODOT_MCP_HTTP_PORT=0",
		"GODOT_MCP_BRIDGE_URL=ws://127.0.0.1:0", "GODOT_MCP_AUTH_TOKEN=")
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	err := cmd.Run()
	if err == nil {
		t.Fatal("started on 0.0.0.0 without GODOT_MCP_AUTH_TOKEN")
	}
	lines := strings.Split(strings.TrimSpace(stderr.String()), "\n")
	if len(lines) != 1 || !strings.Contains(lines[0], "GODOT_MCP_AUTH_TOKEN") {
		t.Fatalf("want a one-line reason naming GODOT_MCP_AUTH_TOKEN, got %q", stderr.String())
	}
	if stdout.Len() != 0 {
		t.Fatalf("stdout: %q", stdout.String())
	}
}

func TestBinaryBridgeTokenNeverLogged(t *testing.T) {
	const token = "tok-9f8e7d6c5b4a"
	p := startBinary(t, "GODOT_MCP_BRIDGE_TOKEN="+token)
	p.initialize()
	url := p.bridgeURL()
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	if _, err := fakeaddon.Dial(ctx, url, fakeaddon.WithToken("wrong-"+token)); err == nil {
		t.Fatal("wrong token accepted")
	}
	a, err := fakeaddon.Dial(ctx, url, fakeaddon.WithToken(token))
	if err != nil {
		t.Fatalf("right token refused: %v", err)
	}
	a.Close()
	p.callTool("godot_get_server_info", nil)
	if strings.Contains(p.stderr.String(), token) {
		t.Fatal("the bridge token appears in the log")
	}
	p.assertOnlyJSONRPC()
}

func testCfg(t *testing.T) config.Config {
	t.Helper()
	cfg, _, err := config.Load(func(string) (string, bool) { return "", false }, nil, io.Discard)
	if err != nil {
		t.Fatal(err)
	}
	return cfg
}
