// Package conformance runs three real third-party MCP clients against the
// godot-mcp binary: the official MCP conformance suite over streamable HTTP
// (tools/conformance/run.sh, with the "conformance" fixture toolset), the
// MCP Inspector's CLI over stdio, and the official TypeScript SDK v1 client
// over stdio (tools/conformance/sdkclient.mjs). All come from npm, pinned in
// tools/conformance/package.json with Node 22; without npm the tests skip.
package conformance

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/godot-mcp/godot-mcp/internal/testing/hosttest"
)

// toolsDir is tools/conformance in this checkout.
func toolsDir(t *testing.T) string {
	t.Helper()
	_, file, _, _ := runtime.Caller(0)
	return filepath.Join(filepath.Dir(file), "..", "tools", "conformance")
}

func needNPM(t *testing.T) {
	t.Helper()
	if _, err := exec.LookPath("npm"); err != nil {
		t.Skip("npm not found: skipping the MCP conformance suite, the Inspector CLI and TypeScript SDK client tests (install Node and npm to run them)")
	}
	if testing.Short() {
		t.Skip("-short: skipping the MCP conformance suite, the Inspector CLI and TypeScript SDK client tests")
	}
}

var (
	binOnce sync.Once
	binPath string
	binErr  error
)

// hostBinary builds cmd/godot-mcp once per test binary.
func hostBinary(t *testing.T) string {
	t.Helper()
	binOnce.Do(func() {
		dir, err := os.MkdirTemp("", "godot-mcp-conformance")
		if err != nil {
			binErr = err
			return
		}
		binPath = filepath.Join(dir, "godot-mcp")
		binErr = hosttest.BuildPackage("./cmd/godot-mcp", binPath, false)
	})
	if binErr != nil {
		t.Fatal(binErr)
	}
	return binPath
}

func TestMain(m *testing.M) {
	// Third-party toolsets are pinned in the user's config dir: this
	// run's own, never the developer's.
	cfg, err := os.MkdirTemp("", "godot-mcp-conformance-config")
	if err == nil {
		os.Setenv("XDG_CONFIG_HOME", cfg)
	}
	code := m.Run()
	if cfg != "" {
		_ = os.RemoveAll(cfg)
	}
	if binPath != "" {
		_ = os.RemoveAll(filepath.Dir(binPath))
	}
	os.Exit(code)
}

// run runs a script of tools/conformance and returns its stdout and stderr;
// exit code 3 is the scripts' "cannot run here" (npm or Node 22 missing).
func run(t *testing.T, timeout time.Duration, env []string, script string, args ...string) (string, string, error) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), timeout)
	defer cancel()
	cmd := exec.CommandContext(ctx, "bash", append([]string{filepath.Join(toolsDir(t), script)}, args...)...)
	cmd.Env = append(os.Environ(), env...)
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	err := cmd.Run()
	if ee, ok := err.(*exec.ExitError); ok && ee.ExitCode() == 3 {
		t.Skipf("%s cannot run here: %s", script, strings.TrimSpace(stderr.String()))
	}
	if ctx.Err() != nil {
		t.Fatalf("%s did not finish within %s:\n%s\n%s", script, timeout, stdout.String(), stderr.String())
	}
	return stdout.String(), stderr.String(), err
}

// TestConformanceSuite runs every released server scenario of both suite
// versions, the pinned stable and the newest prerelease; scenarios listed in
// tools/conformance/expected-failures.txt (and -next.txt) may fail (and
// must, or the list is stale).
func TestConformanceSuite(t *testing.T) {
	needNPM(t)
	out, errOut, err := run(t, 8*time.Minute, []string{"GODOT_MCP_BIN=" + hostBinary(t)}, "run.sh")
	if err != nil {
		t.Fatalf("the MCP conformance suite failed: %v\n%s\n%s", err, out, errOut)
	}
	runs := strings.Split(out, "== MCP conformance ")[1:]
	if len(runs) != 2 {
		t.Fatalf("want a stable and a prerelease run, got %d:\n%s", len(runs), out)
	}
	for _, r := range runs {
		version, _, _ := strings.Cut(r, "\n")
		summary := r
		if i := strings.Index(r, "=== SUMMARY ==="); i >= 0 {
			summary = r[i:]
		}
		if !strings.Contains(summary, "✓ tools-call-simple-text") || !strings.Contains(summary, "✓ prompts-get-with-args") {
			t.Fatalf("%s passed without running the fixture scenarios:\n%s", version, summary)
		}
		if strings.Contains(version, "(next)") && !strings.Contains(summary, "✓ server-session-lifecycle") {
			t.Errorf("%s: server-session-lifecycle did not pass:\n%s", version, summary)
		}
		t.Logf("%s\n%s", version, summary)
	}
}

// inspector runs the inspector's CLI against the binary over stdio and
// decodes its JSON answer.
func inspector(t *testing.T, plugins string, into any, args ...string) {
	t.Helper()
	inspectorEnv(t, plugins, nil, into, args...)
}

// inspectorEnv is inspector with extra KEY=VALUE settings for the server.
func inspectorEnv(t *testing.T, plugins string, env []string, into any, args ...string) {
	t.Helper()
	cli := []string{
		"-e", "GODOT_MCP_BRIDGE_URL=ws://127.0.0.1:0",
		"-e", "GODOT_MCP_PLUGIN_DIR=" + plugins,
	}
	for _, kv := range env {
		cli = append(cli, "-e", kv)
	}
	cli = append(append(cli, hostBinary(t)), args...)
	out, errOut, err := run(t, 3*time.Minute, []string{"MCP_CATALOG_PATH=" + filepath.Join(t.TempDir(), "catalog.json")}, "inspector.sh", cli...)
	// Exit status 5 is the inspector's "the tool returned isError:true"; the
	// result is printed all the same, and the callers check isError.
	if ee, ok := err.(*exec.ExitError); ok && ee.ExitCode() == 5 {
		err = nil
	}
	if err != nil {
		t.Fatalf("inspector %s: %v\n%s\n%s", strings.Join(args, " "), err, out, errOut)
	}
	// stdout is the answer, one JSON document; the host's log is on stderr.
	if err := json.Unmarshal([]byte(out), into); err != nil {
		t.Fatalf("the inspector's answer is not the expected JSON: %v\nstdout:\n%s\nstderr:\n%s", err, out, errOut)
	}
}

// TestInspectorCLIOverStdio uses the MCP Inspector as a second real client:
// it starts the binary over stdio, lists the tools and calls
// godot_get_server_info.
func TestInspectorCLIOverStdio(t *testing.T) {
	needNPM(t)
	plugins := t.TempDir() // no third-party toolsets from the user's config dir

	var list struct {
		Tools []struct {
			Name        string          `json:"name"`
			Description string          `json:"description"`
			InputSchema json.RawMessage `json:"inputSchema"`
			Annotations struct {
				ReadOnlyHint *bool `json:"readOnlyHint"`
			} `json:"annotations"`
		} `json:"tools"`
	}
	inspector(t, plugins, &list, "--method", "tools/list")
	tools := map[string]bool{}
	for _, tl := range list.Tools {
		tools[tl.Name] = true
		if tl.Description == "" || len(tl.InputSchema) == 0 || tl.Annotations.ReadOnlyHint == nil {
			t.Errorf("tool %s lacks a description, input schema or annotations", tl.Name)
		}
	}
	for _, want := range []string{"godot_get_server_info", "godot_list_toolsets", "godot_enable_toolset", "godot_get_editor_state"} {
		if !tools[want] {
			t.Errorf("tools/list lacks %s (got %v)", want, tools)
		}
	}

	var call struct {
		IsError           bool `json:"isError"`
		StructuredContent struct {
			Name            string `json:"name"`
			ContractVersion int    `json:"contract_version"`
			Transport       string `json:"transport"`
			Bridge          struct {
				Listening bool `json:"listening"`
				Connected bool `json:"connected"`
			} `json:"bridge"`
			Toolsets []struct {
				Name string `json:"name"`
			} `json:"toolsets"`
		} `json:"structuredContent"`
		Content []struct {
			Type string `json:"type"`
			Text string `json:"text"`
		} `json:"content"`
	}
	inspector(t, plugins, &call, "--method", "tools/call", "--tool-name", "godot_get_server_info")
	info := call.StructuredContent
	if call.IsError || info.Name != "godot-mcp" || info.ContractVersion != 2 || info.Transport != "stdio" || !info.Bridge.Listening || info.Bridge.Connected {
		t.Errorf("godot_get_server_info = %+v (isError %v)", info, call.IsError)
	}
	if len(info.Toolsets) == 0 {
		t.Errorf("godot_get_server_info lists no toolsets")
	}
	if len(call.Content) == 0 || call.Content[0].Type != "text" || !json.Valid([]byte(call.Content[0].Text)) {
		t.Errorf("the text fallback is not the structured result: %+v", call.Content)
	}
}
