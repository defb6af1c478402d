// Package hosttest runs the real godot-mcp binary as a child process and
// speaks MCP to it over stdio, for tests and benchmarks.
package hosttest

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"runtime"
	"sync"
	"testing"
	"time"

	"github.com/godot-mcp/godot-mcp/host/envelope"
)

// Build compiles cmd/godot-mcp into dir and returns the binary's path.
// race builds it with the race detector.
func Build(dir string, race bool) (string, error) {
	bin := filepath.Join(dir, "godot-mcp")
	return bin, BuildPackage("./cmd/godot-mcp", bin, race)
}

// BuildEchoToolset compiles the test toolset internal/testing/echotoolset into
// dir/echo (a plugin dir holding it offers the "echo" toolset).
func BuildEchoToolset(dir string) (string, error) {
	bin := filepath.Join(dir, "echo")
	return bin, BuildPackage("./internal/testing/echotoolset", bin, false)
}

// BuildProbeToolset compiles the test toolset internal/testing/probetoolset once
// and copies it into dir under each of names: each copy is a third-party
// toolset of that name (tools server_info, node, x_env, env, spawn).
func BuildProbeToolset(dir string, names ...string) error {
	bin := filepath.Join(dir, ".probetoolset")
	if err := BuildPackage("./internal/testing/probetoolset", bin, false); err != nil {
		return err
	}
	data, err := os.ReadFile(bin)
	if err != nil {
		return err
	}
	for _, n := range names {
		if err := os.WriteFile(filepath.Join(dir, n), data, 0o755); err != nil {
			return err
		}
	}
	return os.Remove(bin)
}

// EchoCommands is the command table of the echo toolset's editor side, for
// fakeaddon.WithCommands: cmd_echo_echo (read_only) and cmd_echo_wipe
// (destructive).
func EchoCommands() map[string]envelope.CommandInfo {
	return map[string]envelope.CommandInfo{
		"cmd_echo_echo": {Class: "read_only", Owner: "echo"},
		"cmd_echo_wipe": {Class: "destructive", Owner: "echo"},
	}
}

// BuildRogueToolset compiles the test toolset internal/testing/roguetoolset into
// dir/rogue (a plugin dir holding it offers the "rogue" toolset).
func BuildRogueToolset(dir string) (string, error) {
	bin := filepath.Join(dir, "rogue")
	return bin, BuildPackage("./internal/testing/roguetoolset", bin, false)
}

// RogueCommands is the command table the rogue toolset's editor side
// would declare, for fakeaddon.WithCommands.
func RogueCommands() map[string]envelope.CommandInfo {
	return map[string]envelope.CommandInfo{
		"cmd_rogue_peek":   {Class: "read_only", Owner: "rogue"},
		"cmd_rogue_edit":   {Class: "mutating", DryRun: true, Owner: "rogue"},
		"cmd_rogue_save":   {Class: "mutating", Owner: "rogue"},
		"cmd_rogue_delete": {Class: "destructive", DryRun: true, Owner: "rogue"},
	}
}

// BuildPackage builds a package of this module (path relative to its root)
// into out as `make build` does: with the grpcnotrace tag and, unless race,
// CGO_ENABLED=0 (a static binary maps no libc: about 1.5-2 MB less RSS a
// process; the race detector needs cgo).
func BuildPackage(pkg, out string, race bool) error {
	_, file, _, _ := runtime.Caller(0)
	root := filepath.Join(filepath.Dir(file), "..", "..", "..")
	args := []string{"build", "-tags", "grpcnotrace", "-o", out}
	if race {
		args = append(args, "-race")
	}
	cmd := exec.Command("go", append(args, pkg)...)
	cmd.Dir = root
	if !race {
		cmd.Env = append(os.Environ(), "CGO_ENABLED=0")
	}
	var buf bytes.Buffer
	cmd.Stdout, cmd.Stderr = &buf, &buf
	if err := cmd.Run(); err != nil {
		return fmt.Errorf("building %s: %v\n%s", pkg, err, buf.String())
	}
	return nil
}

// Proc is the real binary speaking MCP over stdio.
type Proc struct {
	tb     testing.TB
	Cmd    *exec.Cmd
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

// Start runs bin with an ephemeral bridge port, an empty plugin dir and
// debug logs, plus env (later entries win). It stops the process in Cleanup.
func Start(tb testing.TB, bin string, env ...string) *Proc {
	tb.Helper()
	cmd := exec.Command(bin)
	cmd.Env = serverEnv(tb, "debug", env)
	stdin, err := cmd.StdinPipe()
	if err != nil {
		tb.Fatal(err)
	}
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		tb.Fatal(err)
	}
	p := &Proc{tb: tb, Cmd: cmd, stdin: stdin, lines: make(chan []byte, 1000), stderr: &syncBuffer{}}
	cmd.Stderr = p.stderr
	if err := cmd.Start(); err != nil {
		tb.Fatal(err)
	}
	go func() {
		sc := bufio.NewScanner(stdout)
		sc.Buffer(make([]byte, 1<<20), 128<<20)
		for sc.Scan() {
			line := append([]byte(nil), sc.Bytes()...)
			p.mu.Lock()
			p.stdout = append(p.stdout, line)
			p.mu.Unlock()
			p.lines <- line
		}
		close(p.lines)
	}()
	tb.Cleanup(func() {
		stdin.Close()
		done := make(chan struct{})
		go func() { cmd.Wait(); close(done) }()
		select {
		case <-done:
		case <-time.After(10 * time.Second):
			cmd.Process.Kill()
			<-done
			tb.Errorf("godot-mcp did not exit after stdin closed")
		}
		if tb.Failed() {
			tb.Logf("stderr:\n%s", p.stderr.String())
		}
	})
	return p
}

// Stdout returns the lines the server wrote to stdout so far.
func (p *Proc) Stdout() []string {
	p.mu.Lock()
	defer p.mu.Unlock()
	out := make([]string, len(p.stdout))
	for i, l := range p.stdout {
		out[i] = string(l)
	}
	return out
}

// Stderr returns everything the server logged so far.
func (p *Proc) Stderr() string { return p.stderr.String() }

// Request sends a JSON-RPC request and returns its result, with the
// notifications seen before the answer. A JSON-RPC error fails the test.
func (p *Proc) Request(method string, params any) (json.RawMessage, []string) {
	p.tb.Helper()
	result, rpcErr, notes := p.Try(method, params)
	if rpcErr != nil {
		p.tb.Fatalf("%s: JSON-RPC error %s", method, rpcErr)
	}
	return result, notes
}

// Try sends a JSON-RPC request and returns its result or its JSON-RPC
// error object, with the notifications seen before the answer.
func (p *Proc) Try(method string, params any) (result, rpcErr json.RawMessage, notes []string) {
	p.tb.Helper()
	p.nextID++
	id := p.nextID
	msg, _ := json.Marshal(map[string]any{"jsonrpc": "2.0", "id": id, "method": method, "params": params})
	if _, err := p.stdin.Write(append(msg, '\n')); err != nil {
		p.tb.Fatal(err)
	}
	deadline := time.After(60 * time.Second)
	for {
		select {
		case line, ok := <-p.lines:
			if !ok {
				p.tb.Fatalf("stdout closed waiting for %s", method)
			}
			var m struct {
				ID     *int            `json:"id"`
				Method string          `json:"method"`
				Result json.RawMessage `json:"result"`
				Error  json.RawMessage `json:"error"`
			}
			if err := json.Unmarshal(line, &m); err != nil {
				p.tb.Fatalf("non-JSON on stdout: %q", line)
			}
			if m.ID == nil {
				notes = append(notes, m.Method)
				continue
			}
			if *m.ID != id {
				continue
			}
			if m.Error != nil {
				return nil, m.Error, notes
			}
			return m.Result, nil, notes
		case <-deadline:
			p.tb.Fatalf("no answer to %s", method)
			return nil, nil, notes
		}
	}
}

// Post sends a JSON-RPC request and does not wait for its answer (a later
// Request skips it). It returns the request's id.
func (p *Proc) Post(method string, params any) int {
	p.tb.Helper()
	p.nextID++
	msg, _ := json.Marshal(map[string]any{"jsonrpc": "2.0", "id": p.nextID, "method": method, "params": params})
	if _, err := p.stdin.Write(append(msg, '\n')); err != nil {
		p.tb.Fatal(err)
	}
	return p.nextID
}

// Stop closes the server's stdin (end of the MCP session) and waits up to
// 10 s for it to exit.
func (p *Proc) Stop() {
	p.tb.Helper()
	p.stdin.Close()
	done := make(chan struct{})
	go func() { p.Cmd.Wait(); close(done) }()
	select {
	case <-done:
	case <-time.After(10 * time.Second):
		p.tb.Fatal("godot-mcp did not exit after stdin closed")
	}
}

// Notify sends a JSON-RPC notification.
func (p *Proc) Notify(method string) {
	msg, _ := json.Marshal(map[string]any{"jsonrpc": "2.0", "method": method})
	p.stdin.Write(append(msg, '\n'))
}

// Initialize performs the MCP handshake.
func (p *Proc) Initialize() {
	p.tb.Helper()
	p.Request("initialize", map[string]any{
		"protocolVersion": "2025-11-25",
		"capabilities":    map[string]any{},
		"clientInfo":      map[string]any{"name": "hosttest", "version": "1"},
	})
	p.Notify("notifications/initialized")
}

// ToolResult is a tools/call result. For a failed call (IsError) the wire
// carries no structuredContent: StructuredContent then holds the error
// object {error, hint, required} read from the text content (ErrorObject).
type ToolResult struct {
	IsError           bool            `json:"isError"`
	StructuredContent json.RawMessage `json:"structuredContent"`
	Content           []struct {
		Type string `json:"type"`
		Text string `json:"text"`
	} `json:"content"`
}

// CallTool calls a tool and returns its result and the notifications seen.
func (p *Proc) CallTool(name string, args map[string]any) (ToolResult, []string) {
	p.tb.Helper()
	raw, notes := p.Request("tools/call", map[string]any{"name": name, "arguments": args})
	var r ToolResult
	if err := json.Unmarshal(raw, &r); err != nil {
		p.tb.Fatal(err)
	}
	if r.IsError && len(r.Content) > 0 {
		r.StructuredContent = ErrorObject(r.Content[0].Text)
	}
	return r, notes
}

// ToolNames lists the tools currently offered.
func (p *Proc) ToolNames() map[string]bool {
	p.tb.Helper()
	raw, _ := p.Request("tools/list", map[string]any{})
	var list struct {
		Tools []struct {
			Name string `json:"name"`
		} `json:"tools"`
	}
	json.Unmarshal(raw, &list)
	out := map[string]bool{}
	for _, tool := range list.Tools {
		out[tool.Name] = true
	}
	return out
}

var bridgeRE = regexp.MustCompile(`bridge listening.*url=(ws://[0-9.:]+)`)

// BridgeURL reads the actual bridge URL from the server's log.
func (p *Proc) BridgeURL() string {
	p.tb.Helper()
	return waitBridgeURL(p.tb, p.stderr)
}

// waitBridgeURL waits (bounded) for the server's log to name the bridge URL.
func waitBridgeURL(tb testing.TB, log *syncBuffer) string {
	tb.Helper()
	deadline := time.Now().Add(10 * time.Second)
	for time.Now().Before(deadline) {
		if m := bridgeRE.FindStringSubmatch(log.String()); m != nil {
			return m[1]
		}
		time.Sleep(10 * time.Millisecond)
	}
	tb.Fatalf("no bridge URL in the log:\n%s", log.String())
	return ""
}

// serverEnv is the environment of a started binary: an ephemeral bridge
// port, the log level, an empty plugin dir and a user config dir of its own
// (where third-party toolsets are pinned: never the developer's), then env
// (later entries win).
func serverEnv(tb testing.TB, logLevel string, env []string) []string {
	out := append(os.Environ(), "GODOT_MCP_BRIDGE_URL=ws://127.0.0.1:0", "GODOT_MCP_LOG_LEVEL="+logLevel,
		"GODOT_MCP_PLUGIN_DIR="+tb.TempDir(), "XDG_CONFIG_HOME="+tb.TempDir())
	return append(out, env...)
}

// AssertOnlyJSONRPC checks that every stdout line so far is a JSON-RPC 2.0 message.
func (p *Proc) AssertOnlyJSONRPC() {
	p.tb.Helper()
	p.mu.Lock()
	defer p.mu.Unlock()
	for _, line := range p.stdout {
		var m map[string]any
		if err := json.Unmarshal(line, &m); err != nil || m["jsonrpc"] != "2.0" {
			p.tb.Fatalf("stdout carried something other than JSON-RPC: %q", line)
		}
	}
}

// ErrorObject is the error object of a failed call's text content (the
// JSON {error, hint, required}), or nil when the text is not JSON.
func ErrorObject(text string) json.RawMessage {
	if !json.Valid([]byte(text)) {
		return nil
	}
	return json.RawMessage(text)
}
