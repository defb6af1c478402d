package main

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"strings"
	"testing"
	"time"

	"github.com/godot-mcp/godot-mcp/internal/testing/hosttest"
	"github.com/godot-mcp/godot-mcp/sdk/contract"
	"github.com/godot-mcp/godot-mcp/sdk/sdktest/fakeaddon"
)

var binPath string

func TestMain(m *testing.M) {
	dir, err := os.MkdirTemp("", "godot-mcp-bin")
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	binPath, err = hosttest.Build(dir, true)
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	code := m.Run()
	os.RemoveAll(dir)
	os.Exit(code)
}

func startBinary(t *testing.T, env ...string) *hosttest.Proc {
	t.Helper()
	return hosttest.Start(t, binPath, env...)
}

// call calls a tool and returns its result.
func call(p *hosttest.Proc, name string, args map[string]any) hosttest.ToolResult {
	r, _ := p.CallTool(name, args)
	return r
}

func TestBinaryStdioTranscript(t *testing.T) {
	p := startBinary(t)
	p.Initialize()

	raw, _ := p.Request("tools/list", map[string]any{})
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

	r := call(p, "godot_get_server_info", nil)
	var info struct {
		Version         string `json:"version"`
		ContractVersion int    `json:"contract_version"`
		Bridge          struct {
			Connected bool `json:"connected"`
			Listening bool `json:"listening"`
		} `json:"bridge"`
	}
	if r.IsError || json.Unmarshal(r.StructuredContent, &info) != nil || info.ContractVersion != 2 || !info.Bridge.Listening || info.Bridge.Connected {
		t.Fatalf("server info: %+v %s", r, r.StructuredContent)
	}

	// No editor yet: a clean BRIDGE_DISCONNECTED, not a hang.
	r = call(p, "godot_get_editor_state", nil)
	var e contract.Error
	json.Unmarshal(r.StructuredContent, &e)
	if !r.IsError || e.Code != contract.BridgeDisconnected || e.Required != "bridge_connected" {
		t.Fatalf("without editor: %+v", r)
	}

	// An editor dials in; the same call now reaches it.
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	addon, err := fakeaddon.Dial(ctx, p.BridgeURL())
	if err != nil {
		t.Fatal(err)
	}
	defer addon.Close()
	addon.HandleResult("cmd_get_editor_state", map[string]any{"project_dir": "/tmp/game", "open_scenes": []any{}, "active_scene": nil, "selection": []any{}})
	r = call(p, "godot_get_editor_state", nil)
	if r.IsError || !strings.Contains(string(r.StructuredContent), "/tmp/game") {
		t.Fatalf("with editor: %+v", r)
	}
	if cmds := addon.Received(); len(cmds) != 1 || cmds[0].Command != "cmd_get_editor_state" {
		t.Fatalf("editor received %+v", cmds)
	}
	// The editor's version, and whether it is one the e2e matrix proves.
	var tested struct {
		Bridge struct {
			Peer struct {
				GodotVersion string `json:"godot_version"`
				GodotTested  bool   `json:"godot_tested"`
				GodotNote    string `json:"godot_note"`
			} `json:"peer"`
		} `json:"bridge"`
	}
	json.Unmarshal(call(p, "godot_get_server_info", nil).StructuredContent, &tested)
	if tested.Bridge.Peer.GodotVersion != "4.4.1.stable" || !tested.Bridge.Peer.GodotTested ||
		!strings.Contains(tested.Bridge.Peer.GodotNote, "is tested (the e2e suite runs on 4.4, 4.8)") {
		t.Fatalf("server info with the editor: %+v", tested)
	}
	// Every built-in toolset says the range the matrix proves (each one
	// described: on a starved machine a description may time out, and then
	// the toolset says nothing of itself yet).
	var sets struct {
		Toolsets []struct {
			Name      string `json:"name"`
			State     string `json:"state"`
			Version   string `json:"version"`
			MinGodot  string `json:"min_godot"`
			MaxTested string `json:"max_tested_godot"`
		} `json:"toolsets"`
	}
	for deadline := time.Now().Add(60 * time.Second); ; time.Sleep(200 * time.Millisecond) {
		json.Unmarshal(call(p, "godot_list_toolsets", nil).StructuredContent, &sets)
		describing := false
		for _, ts := range sets.Toolsets {
			describing = describing || ts.State == "describing"
		}
		if !describing || time.Now().After(deadline) {
			break
		}
	}
	described := 0
	for _, ts := range sets.Toolsets {
		if ts.Version == "" {
			continue
		}
		described++
		if ts.MinGodot != "4.4" || ts.MaxTested != "4.8" {
			t.Errorf("toolset %s: min_godot %q, max_tested_godot %q; want 4.4 and 4.8", ts.Name, ts.MinGodot, ts.MaxTested)
		}
	}
	if described == 0 {
		t.Fatalf("list_toolsets: no toolset described itself: %+v", sets)
	}
	p.AssertOnlyJSONRPC()
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
	p.Initialize()
	url := p.BridgeURL()
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
	// #24.2: today's addon proves the token, and the server proves it back.
	if _, err := fakeaddon.Dial(ctx, url, fakeaddon.WithTokenProof("wrong-"+token)); err == nil {
		t.Fatal("a wrong token proof accepted")
	}
	a, err = fakeaddon.Dial(ctx, url, fakeaddon.WithTokenProof(token))
	if err != nil {
		t.Fatalf("the right token proof: %v", err)
	}
	a.Close()
	call(p, "godot_get_server_info", nil)
	if strings.Contains(p.Stderr(), token) {
		t.Fatal("the bridge token appears in the log")
	}
	p.AssertOnlyJSONRPC()
}
