package main

import (
	"bytes"
	"context"
	"os"
	"os/exec"
	"strings"
	"testing"
	"time"

	"github.com/godot-mcp/godot-mcp/host/buildinfo"
)

// runBinary runs the binary with args (and a loopback-only bridge) and
// returns its stdout, stderr and exit code.
func runBinary(t *testing.T, env []string, args ...string) (string, string, int) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	cmd := exec.CommandContext(ctx, binPath, args...)
	cmd.Env = append(append(os.Environ(), "GODOT_MCP_BRIDGE_URL=ws://127.0.0.1:0", "GODOT_MCP_PLUGIN_DIR="+t.TempDir()), env...)
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

func TestBinaryHelpAndVersionOnStdout(t *testing.T) {
	for _, args := range [][]string{{"--help"}, {"-h"}, {"help"}, {"serve", "--help"}} {
		out, errOut, code := runBinary(t, nil, args...)
		if code != 0 || !strings.Contains(out, "Usage:") || !strings.Contains(out, "GODOT_BIN") || errOut != "" {
			t.Errorf("%v: exit %d, stdout %d bytes, stderr %q", args, code, len(out), errOut)
		}
	}
	for _, args := range [][]string{{"--version"}, {"version"}} {
		out, errOut, code := runBinary(t, nil, args...)
		if code != 0 || !strings.HasPrefix(out, "godot-mcp "+buildinfo.Version+" ") || errOut != "" {
			t.Errorf("%v: exit %d, stdout %q, stderr %q", args, code, out, errOut)
		}
	}
}

// `serve` parses its flags: a bad value after serve is refused (before, any
// flag after serve was ignored and stdio served).
func TestBinaryServeParsesItsFlags(t *testing.T) {
	out, errOut, code := runBinary(t, nil, "serve", "--transport", "grpc")
	if code != 2 || !strings.Contains(errOut, "GODOT_MCP_TRANSPORT") || out != "" {
		t.Errorf("serve --transport grpc: exit %d, stdout %q, stderr %q", code, out, errOut)
	}
	out, errOut, code = runBinary(t, nil, "serve", "http")
	if code != 2 || !strings.Contains(errOut, `"http"`) || out != "" {
		t.Errorf("serve http: exit %d, stdout %q, stderr %q", code, out, errOut)
	}
	out, errOut, code = runBinary(t, nil, "serve", "--bogus")
	if code != 2 || !strings.Contains(errOut, "-bogus") || !strings.Contains(errOut, "--help") || out != "" {
		t.Errorf("serve --bogus: exit %d, stdout %q, stderr %q", code, out, errOut)
	}
	// serve --transport http really serves HTTP: a public bind without a
	// token is refused, which only the HTTP transport checks.
	_, errOut, code = runBinary(t, []string{"GODOT_MCP_AUTH_TOKEN="}, "serve", "--transport", "http", "--http-host", "0.0.0.0", "--http-port", "0")
	if code == 0 || !strings.Contains(errOut, "GODOT_MCP_AUTH_TOKEN") {
		t.Errorf("serve --transport http --http-host 0.0.0.0: exit %d, stderr %q", code, errOut)
	}
}

// godot_get_server_info tells the revision negotiated with this client
// (hosttest's handshake asks for 2025-11-25).
func TestBinaryServerInfoNegotiatedProtocol(t *testing.T) {
	p := startBinary(t)
	p.Initialize()
	r := call(p, "godot_get_server_info", nil)
	if r.IsError || !strings.Contains(string(r.StructuredContent), `"mcp_protocol_version":"2025-11-25"`) {
		t.Fatalf("server info: %s", r.StructuredContent)
	}
}
