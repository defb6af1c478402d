package main

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/godot-mcp/godot-mcp/host/envelope"
	"github.com/godot-mcp/godot-mcp/host/toolsets"
	"github.com/godot-mcp/godot-mcp/internal/testing/hosttest"
	"github.com/godot-mcp/godot-mcp/sdk/contract"
	"github.com/godot-mcp/godot-mcp/sdk/sdktest/fakeaddon"
)

// brokenPluginDir writes three executables that cannot be toolsets into a
// new plugin dir: one that never completes the go-plugin handshake, one that
// prints garbage, and one that forks a child holding its stdout and exits.
// It also holds an executable with an unusable name. Every process they
// start carries marker in its command line.
func brokenPluginDir(t *testing.T) (dir, marker string) {
	t.Helper()
	dir = t.TempDir()
	// A sleep duration no other process uses: its command line is the marker.
	marker = fmt.Sprintf("7%d.%d", os.Getpid(), time.Now().UnixNano()%1e6)
	scripts := map[string]string{
		"hang":     "#!/bin/sh\nsleep " + marker + "\n",
		"garbage":  "#!/bin/sh\necho 'Hello! I am not a plugin.'\nwhile :; do echo garbage; sleep 0.2; done\n",
		"forker":   "#!/bin/sh\nsleep " + marker + " &\nexit 0\n",
		"Bad-Name": "#!/bin/sh\nexit 0\n",
	}
	for name, body := range scripts {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(body), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	return dir, marker
}

// leftovers lists live processes started from the broken plugin dir.
func leftovers(dir, marker string) []hosttest.Child {
	return hosttest.Processes(func(c hosttest.Child) bool {
		line := strings.Join(c.Cmdline, " ")
		return strings.Contains(line, marker) || strings.Contains(line, dir)
	})
}

type listedToolset struct {
	Name      string `json:"name"`
	Enabled   bool   `json:"enabled"`
	State     string `json:"state"`
	LastError string `json:"last_error"`
	ToolCount int    `json:"tool_count"`
	// Read by the lifecycle tests.
	BuiltIn     bool   `json:"builtin"`
	Description string `json:"description"`
	Version     string `json:"version"`
	SHA256      string `json:"sha256"`
}

func listToolsets(t *testing.T, p *hosttest.Proc) map[string]listedToolset {
	t.Helper()
	r := call(p, "godot_list_toolsets", nil)
	if r.IsError {
		t.Fatalf("godot_list_toolsets: %s", r.StructuredContent)
	}
	var list struct {
		Toolsets []listedToolset `json:"toolsets"`
	}
	if err := json.Unmarshal(r.StructuredContent, &list); err != nil {
		t.Fatal(err)
	}
	out := map[string]listedToolset{}
	for _, ts := range list.Toolsets {
		out[ts.Name] = ts
	}
	return out
}

// timed runs fn and fails the test when it took 5 s or more.
func timed(t *testing.T, what string, fn func()) {
	t.Helper()
	start := time.Now()
	fn()
	d := time.Since(start)
	if d >= 5*time.Second {
		t.Errorf("%s took %v (want < 5 s)", what, d.Round(time.Millisecond))
	}
	t.Logf("%s: %v", what, d.Round(time.Millisecond))
}

// With a plugin dir full of broken executables, listing toolsets and
// enabling/disabling a built-in one stay fast every time, the broken ones
// are reported (state and last error, cached), and no process of theirs is
// left behind.
func TestBinaryBrokenPluginDirNeverStalls(t *testing.T) {
	dir, marker := brokenPluginDir(t)
	p := startBinary(t, "GODOT_MCP_PLUGIN_DIR="+dir)
	p.Initialize()
	dialAddon(t, p)
	broken := []string{"forker", "garbage", "hang"}

	for round := range 3 {
		var list map[string]listedToolset
		timed(t, fmt.Sprintf("round %d: godot_list_toolsets", round), func() { list = listToolsets(t, p) })
		for _, name := range broken {
			if _, ok := list[name]; !ok {
				t.Fatalf("round %d: %s not listed: %+v", round, name, list)
			}
		}
		timed(t, fmt.Sprintf("round %d: enable scene", round), func() {
			if r := call(p, "godot_enable_toolset", map[string]any{"name": "scene"}); r.IsError {
				t.Fatalf("enable scene: %s", r.StructuredContent)
			}
		})
		timed(t, fmt.Sprintf("round %d: godot_list_toolsets with scene enabled", round), func() { list = listToolsets(t, p) })
		if !list["scene"].Enabled || list["scene"].State != "idle" { // enabled, its process starts on the first call
			t.Fatalf("round %d: scene listed as %+v", round, list["scene"])
		}
		timed(t, fmt.Sprintf("round %d: disable scene", round), func() {
			if r := call(p, "godot_disable_toolset", map[string]any{"name": "scene"}); r.IsError {
				t.Fatalf("disable scene: %s", r.StructuredContent)
			}
		})
	}

	// The failures are reported with their reason, and cached: once every
	// broken toolset is failed, listing again starts none of them.
	deadline := time.Now().Add(20 * time.Second)
	var list map[string]listedToolset
	for {
		list = listToolsets(t, p)
		failed := 0
		for _, name := range broken {
			if list[name].State == "failed" && list[name].LastError != "" {
				failed++
			}
		}
		if failed == len(broken) {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("the broken toolsets are not all reported failed: %+v", list)
		}
		time.Sleep(200 * time.Millisecond)
	}
	if e := list["hang"].LastError; !strings.Contains(e, "handshake") {
		t.Errorf("hang's last_error does not say it never completed the handshake: %q", e)
	}
	if e := list["garbage"].LastError; !strings.Contains(e, "I am not a plugin") {
		t.Errorf("garbage's last_error does not quote what it printed: %q", e)
	}
	waitNoLeftovers(t, dir, marker)
	for range 3 {
		timed(t, "godot_list_toolsets with cached failures", func() { list = listToolsets(t, p) })
		if l := leftovers(dir, marker); len(l) > 0 {
			t.Fatalf("listing restarted a failed toolset: %+v", l)
		}
		if list["hang"].State != "failed" {
			t.Fatalf("hang listed as %+v after its failure was cached", list["hang"])
		}
	}

	// godot_get_server_info names the plugin dir and the skipped file.
	r := call(p, "godot_get_server_info", nil)
	var info struct {
		PluginDir struct {
			Path    string `json:"path"`
			Skipped []struct {
				File, Reason string
			} `json:"skipped"`
		} `json:"plugin_dir"`
	}
	json.Unmarshal(r.StructuredContent, &info)
	if info.PluginDir.Path != dir || len(info.PluginDir.Skipped) != 1 || info.PluginDir.Skipped[0].File != "Bad-Name" ||
		!strings.Contains(info.PluginDir.Skipped[0].Reason, "toolset name") {
		t.Errorf("server info plugin_dir = %+v (%s)", info.PluginDir, r.StructuredContent)
	}

	// Enabling a broken toolset by name retries it and fails with the reason, in bounded time.
	for _, name := range broken {
		start := time.Now()
		r := call(p, "godot_enable_toolset", map[string]any{"name": name})
		if e := errorOf(r); !r.IsError || e.Hint == "" {
			t.Fatalf("enable %s: %s", name, r.StructuredContent)
		}
		if d := time.Since(start); d > 15*time.Second {
			t.Errorf("enable %s took %v", name, d)
		}
	}
	waitNoLeftovers(t, dir, marker)
	p.AssertOnlyJSONRPC()
}

func waitNoLeftovers(t *testing.T, dir, marker string) {
	t.Helper()
	deadline := time.Now().Add(10 * time.Second)
	for {
		l := leftovers(dir, marker)
		if len(l) == 0 {
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("processes left behind by the broken plugins: %+v", l)
		}
		time.Sleep(50 * time.Millisecond)
	}
}

// A toolset enabled before any editor connected (GODOT_MCP_DEFAULT_TOOLSETS)
// is disabled when an editor older than its min_godot connects, with the
// reason in godot_list_toolsets, and the editor is told.
func TestBinaryMinGodotCheckedWhenEditorConnects(t *testing.T) {
	p := startBinary(t, "GODOT_MCP_DEFAULT_TOOLSETS=scene")
	p.Initialize()
	if !p.ToolNames()["godot_scene_list_open"] {
		t.Fatal("the default toolset's tools are not listed")
	}
	hello := fakeaddon.DefaultHello()
	hello.GodotVersion = "4.2.2.stable"
	a, err := fakeaddon.Dial(ctxT(t), p.BridgeURL(), fakeaddon.WithHello(hello))
	if err != nil {
		t.Fatal(err)
	}
	defer a.Close()
	deadline := time.Now().Add(10 * time.Second)
	for {
		scene := listToolsets(t, p)["scene"]
		if !scene.Enabled {
			if scene.State != "incompatible" || !strings.Contains(scene.LastError, "4.4") || !strings.Contains(scene.LastError, "4.2.2") {
				t.Fatalf("scene disabled but listed as %+v", scene)
			}
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("scene stayed enabled with a Godot 4.2.2 editor: %+v", scene)
		}
		time.Sleep(50 * time.Millisecond)
	}
	if p.ToolNames()["godot_scene_list_open"] {
		t.Fatal("an incompatible toolset's tools are still listed")
	}
	for {
		push, err := a.WaitPush(ctxT(t), "cmd_toolsets_update")
		if err != nil {
			t.Fatalf("the editor was not told scene is off: %v", err)
		}
		var upd envelope.ToolsetsUpdate
		json.Unmarshal(push.Params, &upd)
		if !slices.Contains(upd.EnabledToolsets, "scene") {
			break
		}
	}
	r := call(p, "godot_enable_toolset", map[string]any{"name": "scene"})
	if e := errorOf(r); !r.IsError || e.Code != contract.PreconditionFailed || e.Required != "godot_version" {
		t.Fatalf("enabling scene again: want PRECONDITION_FAILED godot_version, got %s", r.StructuredContent)
	}
}

// A default toolset that never completes the handshake delays neither the
// MCP handshake nor the core tools; the first tools/list waits for it at
// most 5 s, and it is then listed as failed.
func TestBinaryHangingDefaultToolsetDoesNotDelayTheHandshake(t *testing.T) {
	dir, marker := brokenPluginDir(t)
	start := time.Now()
	p := startBinary(t, "GODOT_MCP_PLUGIN_DIR="+dir, "GODOT_MCP_DEFAULT_TOOLSETS=hang")
	p.Initialize()
	// initialize may wait for third-party descriptions (toolsets.DefaultListWait,
	// 2 s) but never for the hanging plugin's handshake (DefaultStartTimeout,
	// 10 s): half of that leaves a loaded machine room to start the process.
	if d, limit := time.Since(start), toolsets.DefaultStartTimeout/2; d > limit {
		t.Fatalf("initialize answered after %v (over %v: it waited for the hanging plugin's handshake)", d, limit)
	}
	timed(t, "godot_get_server_info while a default toolset starts", func() { call(p, "godot_get_server_info", nil) })
	timed(t, "godot_list_toolsets while a default toolset starts", func() {
		if st := listToolsets(t, p)["hang"]; st.State != "starting" {
			t.Errorf("hang listed as %+v while it is being enabled", st)
		}
	})
	listStart := time.Now()
	tools := p.ToolNames() // waits for the default toolsets, at most 5 s
	if d := time.Since(listStart); d > 6*time.Second || !tools["godot_list_toolsets"] {
		t.Fatalf("tools/list after %v: %v", d, tools)
	}
	for deadline := time.Now().Add(15 * time.Second); ; time.Sleep(100 * time.Millisecond) {
		st := listToolsets(t, p)["hang"]
		if st.State == "failed" && !st.Enabled && strings.Contains(st.LastError, "handshake") {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("hang listed as %+v, want failed with its reason", st)
		}
	}
	waitNoLeftovers(t, dir, marker)
	p.AssertOnlyJSONRPC()
}
