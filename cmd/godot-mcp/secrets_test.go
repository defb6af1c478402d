package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/godot-mcp/godot-mcp/internal/testing/hosttest"
)

// The server's secrets never reach other code: a third-party plugin (listed
// only, or enabled) and a run_headless game that print their environment
// see none of GODOT_MCP_AUTH_TOKEN, GODOT_MCP_BRIDGE_TOKEN and
// GODOT_MCP_APPROVAL_URL, while ordinary variables still pass.
func TestBinarySecretsStayInTheHost(t *testing.T) {
	dir := t.TempDir()
	if err := hosttest.BuildProbeToolset(dir, "probe"); err != nil {
		t.Fatal(err)
	}
	project := t.TempDir()
	os.WriteFile(filepath.Join(project, "project.godot"), []byte("config_version=5\n"), 0o644)
	godot := filepath.Join(t.TempDir(), "godot")
	os.WriteFile(godot, []byte("#!/bin/sh\nenv\n"), 0o755)
	secrets := []string{"auth-secret-4711", "bridge-secret-4712", "approval-secret-4713"}
	p := startBinary(t, "GODOT_MCP_PLUGIN_DIR="+dir, "GODOT_MCP_DEFAULT_TOOLSETS=probe,runtime",
		"GODOT_MCP_AUTH_TOKEN="+secrets[0], "GODOT_MCP_BRIDGE_TOKEN="+secrets[1],
		"GODOT_MCP_APPROVAL_URL=http://u:"+secrets[2]+"@127.0.0.1:9/approve",
		"GODOT_BIN="+godot, "GODOT_MCP_PROJECT_DIR="+project, "CHILD_SEES_THIS=yes")
	p.Initialize()

	r := call(p, "godot_probe_env", nil)
	var plugin struct {
		Env []string `json:"env"`
	}
	if r.IsError || json.Unmarshal(r.StructuredContent, &plugin) != nil {
		t.Fatalf("env: %s", r.StructuredContent)
	}
	pluginEnv := strings.Join(plugin.Env, "\n")
	r = call(p, "godot_runtime_run_headless", nil)
	var game struct {
		Output string `json:"output"`
	}
	if r.IsError || json.Unmarshal(r.StructuredContent, &game) != nil {
		t.Fatalf("run_headless: %s", r.StructuredContent)
	}
	for what, env := range map[string]string{"the plugin": pluginEnv, "the game": game.Output} {
		if !strings.Contains(env, "CHILD_SEES_THIS=yes") {
			t.Errorf("%s did not get the ordinary environment:\n%s", what, env)
		}
		for _, s := range secrets {
			if strings.Contains(env, s) {
				t.Errorf("%s sees the secret %s", what, s)
			}
		}
		for _, k := range []string{"GODOT_MCP_AUTH_TOKEN", "GODOT_MCP_BRIDGE_TOKEN", "GODOT_MCP_APPROVAL_URL"} {
			if strings.Contains(env, k+"=") {
				t.Errorf("%s has %s", what, k)
			}
		}
	}
	if strings.Contains(game.Output, "GODOT_MCP_PLUGIN=") {
		t.Errorf("the game got the plugin handshake cookie")
	}
	for _, s := range secrets {
		if strings.Contains(p.Stderr(), s) {
			t.Errorf("the server logged the secret %s", s)
		}
	}
	p.AssertOnlyJSONRPC()
}
