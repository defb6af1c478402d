package config

import (
	"flag"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/godot-mcp/godot-mcp/sdk/contract"
)

var update = flag.Bool("update", false, "rewrite docs/env-vars.md")

func env(m map[string]string) func(string) (string, bool) {
	return func(k string) (string, bool) { v, ok := m[k]; return v, ok }
}

func TestDefaults(t *testing.T) {
	c, rest, err := Load(env(nil), nil)
	if err != nil {
		t.Fatal(err)
	}
	if c.BridgeURL != "ws://127.0.0.1:9080" || c.Transport != "stdio" || c.HTTPAddr() != "127.0.0.1:9090" ||
		c.HostOriginProtection != "auto" || c.Approval != "auto" || c.DefaultToolsets != nil || len(rest) != 0 || c.ConformanceFixture {
		t.Fatalf("defaults: %+v", c)
	}
}

func TestEnvAndFlags(t *testing.T) {
	c, rest, err := Load(env(map[string]string{
		"GODOT_MCP_BRIDGE_URL": "ws://127.0.0.1:7000", "GODOT_MCP_DEFAULT_TOOLSETS": "scene, scripts",
		"GODOT_MCP_TRANSPORT": "HTTP", "GODOT_MCP_CONFORMANCE_FIXTURE": "true",
	}), []string{"--bridge-url", "ws://127.0.0.1:7001", "contract"})
	if err != nil {
		t.Fatal(err)
	}
	if c.BridgeURL != "ws://127.0.0.1:7001" {
		t.Fatalf("flag must win over env: %s", c.BridgeURL)
	}
	if strings.Join(c.DefaultToolsets, "|") != "scene|scripts" || c.Transport != "http" || strings.Join(rest, " ") != "contract" || !c.ConformanceFixture {
		t.Fatalf("%+v %v", c, rest)
	}
}

func TestProfileChoosesStartToolsets(t *testing.T) {
	c, _, err := Load(env(nil), []string{"--profile", "2D"})
	if err != nil || c.Profile != "2d" || !c.ChoseStartToolsets() {
		t.Fatalf("--profile 2D: %+v %v", c, err)
	}
	c, _, _ = Load(env(nil), nil)
	if c.Profile != "" || c.ChoseStartToolsets() {
		t.Fatalf("unset: %+v", c)
	}
	c, _, _ = Load(env(map[string]string{"GODOT_MCP_DEFAULT_TOOLSETS": "scene"}), nil)
	if !c.ChoseStartToolsets() {
		t.Fatal("GODOT_MCP_DEFAULT_TOOLSETS is a choice of the start toolsets")
	}
}

func TestBadValuesRefused(t *testing.T) {
	for k, v := range map[string]string{
		"GODOT_MCP_TRANSPORT": "grpc", "GODOT_MCP_HTTP_PORT": "http", "GODOT_MCP_BRIDGE_URL": "http://x",
		"GODOT_MCP_APPROVAL": "maybe", "GODOT_MCP_HTTP_HOST_ORIGIN_PROTECTION": "sometimes", "GODOT_MCP_LOG_LEVEL": "loud",
		"GODOT_MCP_CONFORMANCE_FIXTURE": "yes", "GODOT_MCP_PROFILE": "4d", "GODOT_MCP_EXPORT_ROOTS": "builds", "GODOT_MCP_IMPORT_ROOTS": "art",
	} {
		if _, _, err := Load(env(map[string]string{k: v}), nil); err == nil || !strings.Contains(err.Error(), k) {
			t.Errorf("%s=%s: want an error naming the variable, got %v", k, v, err)
		}
	}
	if _, _, err := Load(env(map[string]string{"GODOT_MCP_APPROVAL": "webhook"}), nil); err == nil {
		t.Error("webhook approval without a URL accepted")
	}
}

func TestLoopback(t *testing.T) {
	for h, want := range map[string]bool{"127.0.0.1": true, "127.1.2.3": true, "::1": true, "[::1]": true, "localhost": true,
		"0.0.0.0": false, "10.0.0.1": false, "example.com": false, "": false} {
		if IsLoopbackHost(h) != want {
			t.Errorf("IsLoopbackHost(%q) != %v", h, want)
		}
	}
}

func TestEnvVarsDoc(t *testing.T) {
	path := filepath.Join("..", "..", "docs", "env-vars.md")
	if *update {
		os.WriteFile(path, []byte(Markdown()), 0o644)
	}
	got, err := os.ReadFile(path)
	if err != nil || string(got) != Markdown() {
		t.Fatal("docs/env-vars.md is stale: run `make docs`")
	}
}

// Every secret the contract names is a variable of the server's, and none
// reaches a child process's environment.
func TestSecretsAreVarsAndAreScrubbed(t *testing.T) {
	secret := 0
	for _, v := range Vars {
		if v.Secret() {
			secret++
		}
	}
	if secret != len(contract.SecretEnv) {
		t.Fatalf("%d of contract.SecretEnv %v are server variables", secret, contract.SecretEnv)
	}
	env := []string{"HOME=/h"}
	for _, k := range contract.SecretEnv {
		env = append(env, k+"=x")
	}
	if got := ScrubEnv(env); !slices.Equal(got, []string{"HOME=/h"}) {
		t.Fatalf("ScrubEnv kept %v", got)
	}
}
