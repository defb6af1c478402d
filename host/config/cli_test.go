package config

import (
	"bytes"
	"errors"
	"flag"
	"strings"
	"testing"
)

// Flags after `serve` are parsed like flags before it.
func TestServeParsesItsFlags(t *testing.T) {
	c, rest, err := Load(env(nil), []string{"serve", "--transport", "http", "--http-port", "9191"})
	if err != nil {
		t.Fatal(err)
	}
	if c.Transport != "http" || c.HTTPPort != 9191 || strings.Join(rest, " ") != "serve" {
		t.Fatalf("serve --transport http --http-port 9191: transport %q port %d rest %v", c.Transport, c.HTTPPort, rest)
	}
	c, rest, err = Load(env(nil), []string{"--log-level", "debug", "serve", "--transport=http"})
	if err != nil || c.Transport != "http" || c.LogLevel != "debug" || strings.Join(rest, " ") != "serve" {
		t.Fatalf("flags on both sides of serve: %+v %v %v", c, rest, err)
	}
	if _, _, err := Load(env(nil), []string{"serve", "--transport", "grpc"}); err == nil || !strings.Contains(err.Error(), "GODOT_MCP_TRANSPORT") {
		t.Errorf("serve --transport grpc: %v", err)
	}
	if _, _, err := Load(env(nil), []string{"serve", "http"}); err == nil || !strings.Contains(err.Error(), `"http"`) {
		t.Errorf("serve with an extra argument: %v", err)
	}
	if _, _, err := Load(env(nil), []string{"serve", "--nope"}); err == nil || !strings.Contains(err.Error(), "-nope") || !strings.Contains(err.Error(), "--help") {
		t.Errorf("serve --nope: %v", err)
	}
}

// --help and --version are requests, not errors: Load reports them (the
// caller prints them on stdout).
func TestHelpAndVersionFlags(t *testing.T) {
	for _, args := range [][]string{{"--help"}, {"-h"}, {"serve", "--help"}} {
		if _, _, err := Load(env(nil), args); !errors.Is(err, flag.ErrHelp) {
			t.Errorf("%v: err %v", args, err)
		}
	}
	for _, args := range [][]string{{"--version"}, {"-version"}} {
		if _, _, err := Load(env(nil), args); !errors.Is(err, ErrVersion) {
			t.Errorf("%v: err %v", args, err)
		}
	}
	var out bytes.Buffer
	WriteUsage(&out)
	for _, want := range []string{"--version", "--help", "GODOT_BIN", "serve [flags]"} {
		if !strings.Contains(out.String(), want) {
			t.Errorf("usage lacks %s", want)
		}
	}
}

func TestGodotBin(t *testing.T) {
	c, _, err := Load(env(map[string]string{"GODOT_BIN": "/opt/godot/godot4"}), nil)
	if err != nil || c.GodotBin != "/opt/godot/godot4" {
		t.Fatalf("GODOT_BIN: %q %v", c.GodotBin, err)
	}
	c, _, err = Load(env(map[string]string{"GODOT_BIN": "/opt/godot/godot4"}), []string{"--godot-bin", "/usr/bin/godot"})
	if err != nil || c.GodotBin != "/usr/bin/godot" {
		t.Fatalf("--godot-bin: %q %v", c.GodotBin, err)
	}
	if !strings.Contains(Markdown(), "`GODOT_BIN`") {
		t.Error("docs/env-vars.md lacks GODOT_BIN")
	}
}
