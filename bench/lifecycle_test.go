package bench

import (
	"context"
	"encoding/json"
	"testing"
	"time"

	"github.com/godot-mcp/godot-mcp/internal/testing/hosttest"
	"github.com/godot-mcp/godot-mcp/sdk/sdktest/fakeaddon"
)

// Processes follow use (issue 25 item 4): what enabling costs for one
// toolset and for all, what a call to a toolset stopped for idleness costs,
// and the memory of a host with every toolset enabled and three in use
// against the same three alone.

// lifecycleHost starts the binary with a fake editor connected (so that
// enabling installs the toolsets' editor code, as with a real editor).
func lifecycleHost(b *testing.B, env ...string) (*hosttest.Client, *fakeaddon.Addon) {
	b.Helper()
	c := hosttest.StartClient(b, binPath, append([]string{"GODOT_MCP_PLUGIN_DIR=" + pluginDir}, env...)...)
	a := echoAddon(b, c.BridgeURL())
	a.HandleResult("cmd_scene_list_open", map[string]any{"scenes": []any{}, "active": ""})
	mustCall(b, c, "godot_list_toolsets", nil) // third-party descriptions read, outside the timing
	return c, a
}

func enabledNames(b *testing.B, c *hosttest.Client) []string {
	b.Helper()
	var list struct {
		Toolsets []struct {
			Name    string `json:"name"`
			Enabled bool   `json:"enabled"`
		} `json:"toolsets"`
	}
	r := mustCall(b, c, "godot_list_toolsets", nil)
	if err := json.Unmarshal(r.StructuredContent, &list); err != nil {
		b.Fatal(err)
	}
	var out []string
	for _, ts := range list.Toolsets {
		if ts.Enabled {
			out = append(out, ts.Name)
		}
	}
	return out
}

func disableAll(b *testing.B, c *hosttest.Client) {
	b.Helper()
	for _, name := range enabledNames(b, c) {
		mustCall(b, c, "godot_disable_toolset", map[string]any{"name": name})
	}
}

// BenchmarkEnableOne: godot_enable_toolset {"name":"scene"} (editor code
// installed, no plugin started), then disabled outside the timing.
func BenchmarkEnableOne(b *testing.B) {
	c, _ := lifecycleHost(b)
	for b.Loop() {
		mustCall(b, c, "godot_enable_toolset", map[string]any{"name": "scene"})
		b.StopTimer()
		disableAll(b, c)
		b.StartTimer()
	}
}

// BenchmarkEnableAll: godot_enable_toolset {"name":"all"}; target ≤ 2×
// EnableOne in the same run.
func BenchmarkEnableAll(b *testing.B) {
	c, _ := lifecycleHost(b)
	for b.Loop() {
		mustCall(b, c, "godot_enable_toolset", map[string]any{"name": "all"})
		b.StopTimer()
		disableAll(b, c)
		b.StartTimer()
	}
}

// BenchmarkIdleRestartCall: a call to a toolset whose plugin was stopped
// for idleness (GODOT_MCP_TOOLSET_IDLE), which starts it again; the wait
// for the idle stop is outside the timing.
func BenchmarkIdleRestartCall(b *testing.B) {
	c, _ := lifecycleHost(b, "GODOT_MCP_TOOLSET_IDLE=100ms")
	mustCall(b, c, "godot_enable_toolset", map[string]any{"name": "scene"})
	host := c.Cmd.Process.Pid
	for b.Loop() {
		b.StopTimer()
		for deadline := time.Now().Add(10 * time.Second); len(hosttest.Children(host)) > 0; time.Sleep(10 * time.Millisecond) {
			if time.Now().After(deadline) {
				b.Fatal("the scene plugin was not stopped after being idle")
			}
		}
		b.StartTimer()
		mustCall(b, c, "godot_scene_list_open", nil)
	}
}

// pssMiB is the proportional memory of pid and its children.
func pssMiB(pid int) float64 {
	total := hosttest.ProcMiB(pid, "smaps_rollup", "Pss")
	for _, c := range hosttest.Children(pid) {
		total += hosttest.ProcMiB(c.PID, "smaps_rollup", "Pss")
	}
	return total
}

// threeInUse calls one tool of scene, scripts and project (whatever the
// fake editor answers: the call starts the plugin either way) and checks
// that exactly their three plugins run.
func threeInUse(b *testing.B, c *hosttest.Client) {
	b.Helper()
	for _, tool := range []struct {
		name string
		args map[string]any
	}{
		{"godot_scene_list_open", nil},
		{"godot_scripts_read", map[string]any{"path": "res://main.gd"}},
		{"godot_project_get_settings", map[string]any{"keys": []any{"application/config/name"}}},
	} {
		if _, err := c.Call(context.Background(), tool.name, tool.args); err != nil {
			b.Fatal(err)
		}
	}
	time.Sleep(500 * time.Millisecond) // let start-up garbage settle
	if n := len(hosttest.Children(c.Cmd.Process.Pid)); n != 3 {
		b.Fatalf("%d plugin processes, want 3", n)
	}
}

// BenchmarkPSSAllEnabledThreeUsed: total PSS (host and plugins) with every
// toolset enabled and three in use, over the same three enabled alone;
// each host is measured alone (two at once would share pages and halve
// each other's PSS). pss-x is the target (≤ 1.5).
func BenchmarkPSSAllEnabledThreeUsed(b *testing.B) {
	measure := func(enable map[string]any) float64 {
		c, _ := lifecycleHost(b)
		mustCall(b, c, "godot_enable_toolset", enable)
		threeInUse(b, c)
		pss := pssMiB(c.Cmd.Process.Pid)
		c.Close()
		return pss
	}
	var all, three float64
	for b.Loop() {
		all = measure(map[string]any{"name": "all"})
		three = measure(map[string]any{"names": []any{"scene", "scripts", "project"}})
	}
	b.ReportMetric(all, "all-pss-MB")
	b.ReportMetric(three, "three-pss-MB")
	b.ReportMetric(all/three, "pss-x")
}
