package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/godot-mcp/godot-mcp/internal/testing/hosttest"
)

// gone waits up to 10 s for pid to end; a process still there is killed so
// that a failing test leaves nothing behind.
func gone(t *testing.T, pid int, what string) {
	t.Helper()
	deadline := time.Now().Add(10 * time.Second)
	for hosttest.Alive(pid) {
		if time.Now().After(deadline) {
			syscall.Kill(pid, syscall.SIGKILL)
			t.Errorf("%s (pid %d) outlived it", what, pid)
			return
		}
		time.Sleep(20 * time.Millisecond)
	}
}

func spawnedChild(t *testing.T, p *hosttest.Proc) int {
	t.Helper()
	r := call(p, "godot_probe_spawn", nil)
	var out struct {
		PID int `json:"pid"`
	}
	if r.IsError || json.Unmarshal(r.StructuredContent, &out) != nil || out.PID == 0 {
		t.Fatalf("spawn: %s", r.StructuredContent)
	}
	t.Cleanup(func() { syscall.Kill(out.PID, syscall.SIGKILL) })
	if !hosttest.Alive(out.PID) {
		t.Fatal("the spawned child is not running")
	}
	return out.PID
}

// What a plugin starts and leaves running ends with the plugin: when the
// toolset is disabled, when the host exits, and when the host is killed (the
// plugin gets SIGTERM from the kernel and the SDK ends its process group).
func TestBinaryPluginChildrenDieWithThePlugin(t *testing.T) {
	dir := t.TempDir()
	if err := hosttest.BuildProbeToolset(dir, "probe"); err != nil {
		t.Fatal(err)
	}
	t.Run("disable", func(t *testing.T) {
		p := startBinary(t, "GODOT_MCP_PLUGIN_DIR="+dir, "GODOT_MCP_DEFAULT_TOOLSETS=probe")
		p.Initialize()
		child := spawnedChild(t, p)
		if r := call(p, "godot_disable_toolset", map[string]any{"name": "probe"}); r.IsError {
			t.Fatalf("disable: %s", r.StructuredContent)
		}
		gone(t, child, "a child of the disabled toolset")
	})
	t.Run("host exit", func(t *testing.T) {
		p := startBinary(t, "GODOT_MCP_PLUGIN_DIR="+dir, "GODOT_MCP_DEFAULT_TOOLSETS=probe")
		p.Initialize()
		child := spawnedChild(t, p)
		p.Stop()
		gone(t, child, "a child of a toolset of the exited host")
	})
	t.Run("host killed", func(t *testing.T) {
		p := startBinary(t, "GODOT_MCP_PLUGIN_DIR="+dir, "GODOT_MCP_DEFAULT_TOOLSETS=probe")
		p.Initialize()
		child := spawnedChild(t, p)
		p.Cmd.Process.Kill() // SIGKILL: the host cleans nothing up
		gone(t, child, "a child of a toolset of the killed host")
	})
}

// A run_headless game dies with the runtime plugin, even when the host is
// killed (SIGKILL) in the middle of the run: nothing is left with ppid 1
// waiting for a time limit that died with the plugin.
func TestBinaryHeadlessGameDiesWithTheHost(t *testing.T) {
	project := t.TempDir()
	os.WriteFile(filepath.Join(project, "project.godot"), []byte("config_version=5\n"), 0o644)
	godot := filepath.Join(t.TempDir(), "godot")
	os.WriteFile(godot, []byte("#!/bin/sh\nexec sleep 300\n"), 0o755)
	p := startBinary(t, "GODOT_MCP_DEFAULT_TOOLSETS=runtime", "GODOT_BIN="+godot, "GODOT_MCP_PROJECT_DIR="+project)
	p.Initialize()
	p.Post("tools/call", map[string]any{"name": "godot_runtime_run_headless", "arguments": map[string]any{"timeout_ms": 600000}})
	plugin := pluginPid(t, p.Cmd.Process.Pid, "runtime") // started by the call
	game := hosttest.WaitChild(t, plugin, "the game", func(c hosttest.Child) bool {
		return strings.Contains(strings.Join(c.Cmdline, " "), "sleep 300")
	})
	t.Cleanup(func() { syscall.Kill(game, syscall.SIGKILL) })
	p.Cmd.Process.Kill()
	gone(t, plugin, "the runtime plugin of the killed host")
	gone(t, game, "the run_headless game of the killed host")
}
