package main

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/godot-mcp/godot-mcp/host/mcpserver"
	"github.com/godot-mcp/godot-mcp/internal/testing/hosttest"
	"github.com/godot-mcp/godot-mcp/sdk/contract"
)

// pluginProcs lists the host's live child processes (every toolset plugin, a
// built-in's `godot-mcp toolset serve NAME` or a third-party executable).
func pluginProcs(host int) []string {
	var out []string
	for _, c := range hosttest.Children(host) {
		out = append(out, strings.Join(c.Cmdline, " "))
	}
	return out
}

// settledPlugins waits until the host's children have not changed for
// half a second (a process being started would show up) and returns them.
func settledPlugins(host int) []string {
	last := pluginProcs(host)
	for stable := time.Now(); time.Since(stable) < 500*time.Millisecond; time.Sleep(50 * time.Millisecond) {
		if now := pluginProcs(host); strings.Join(now, "\n") != strings.Join(last, "\n") {
			last, stable = now, time.Now()
		}
	}
	return last
}

// Listing every toolset starts no process: the built-ins are described
// from the host binary's own registry.
func TestBinaryListingToolsetsStartsNoProcess(t *testing.T) {
	p := startBinary(t)
	p.Initialize()
	list := listToolsets(t, p)
	if len(list) < 15 {
		t.Fatalf("%d toolsets listed", len(list))
	}
	for name, ts := range list {
		if !ts.BuiltIn || ts.ToolCount == 0 || ts.Description == "" || ts.Version == "" || ts.State != "stopped" {
			t.Errorf("%s listed as %+v", name, ts)
		}
	}
	p.ToolNames() // tools/list too
	if got := settledPlugins(p.Cmd.Process.Pid); len(got) != 0 {
		t.Fatalf("listing started plugin processes: %q", got)
	}
}

// Enabling every toolset serves all their tools at once and starts no
// process; one call then starts exactly one plugin, its toolset's.
func TestBinaryEnableAllThenOneCallStartsOnePlugin(t *testing.T) {
	p := startBinary(t)
	p.Initialize()
	addon := dialAddon(t, p)
	addon.HandleResult("cmd_scene_list_open", map[string]any{"scenes": []any{}, "active": ""})
	if r := call(p, "godot_enable_toolset", map[string]any{"name": "all"}); r.IsError {
		t.Fatalf("enable all: %s", r.StructuredContent)
	}
	tools := p.ToolNames()
	for _, want := range []string{"godot_scene_list_open", "godot_scripts_read", "godot_physics_check", "godot_playtest_step"} {
		if !tools[want] {
			t.Errorf("%s not served after enabling all", want)
		}
	}
	if got := settledPlugins(p.Cmd.Process.Pid); len(got) != 0 {
		t.Fatalf("enabling started plugin processes: %q", got)
	}
	if r := call(p, "godot_scene_list_open", nil); r.IsError {
		t.Fatalf("godot_scene_list_open: %s", r.StructuredContent)
	}
	got := settledPlugins(p.Cmd.Process.Pid)
	if len(got) != 1 || !strings.HasSuffix(got[0], "toolset serve scene") {
		t.Fatalf("after one call of scene the plugins are %q, want scene's alone", got)
	}
	if st := listToolsets(t, p); st["scene"].State != "running" || st["scripts"].State != "idle" || !st["scripts"].Enabled {
		t.Fatalf("scene %+v, scripts %+v", st["scene"], st["scripts"])
	}
}

// A toolset idle for GODOT_MCP_TOOLSET_IDLE is stopped, and its next call
// starts it again and answers.
func TestBinaryIdleStoppedToolsetAnswersItsNextCall(t *testing.T) {
	p := startBinary(t, "GODOT_MCP_TOOLSET_IDLE=1s")
	p.Initialize()
	addon := dialAddon(t, p)
	addon.HandleResult("cmd_scene_list_open", map[string]any{"scenes": []any{}, "active": ""})
	call(p, "godot_enable_toolset", map[string]any{"name": "scene"})
	if r := call(p, "godot_scene_list_open", nil); r.IsError {
		t.Fatalf("first call: %s", r.StructuredContent)
	}
	first := pluginPid(t, p.Cmd.Process.Pid, "scene")
	gone(t, first, "the idle scene plugin")
	if st := listToolsets(t, p)["scene"]; st.State != "idle" || !st.Enabled {
		t.Fatalf("scene after its idle stop: %+v", st)
	}
	start := time.Now()
	if r := call(p, "godot_scene_list_open", nil); r.IsError {
		t.Fatalf("the call after the idle stop: %s", r.StructuredContent)
	}
	t.Logf("the call that restarted the idle toolset took %v", time.Since(start).Round(time.Millisecond))
	if again := pluginPid(t, p.Cmd.Process.Pid, "scene"); again == first {
		t.Fatal("same plugin pid after the idle stop")
	}
	if !strings.Contains(p.Stderr(), "toolset stopped after being idle") {
		t.Error("the idle stop was not logged")
	}
}

func sha256File(t *testing.T, path string) string {
	t.Helper()
	raw, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	sum := sha256.Sum256(raw)
	return hex.EncodeToString(sum[:])
}

// swapExecutable replaces path with a different, still working build (the
// same program with bytes appended), as an attacker or an update would.
func swapExecutable(t *testing.T, path, tag string) {
	t.Helper()
	raw, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	tmp := path + ".new"
	if err := os.WriteFile(tmp, append(raw, []byte("\x00swapped "+tag)...), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.Rename(tmp, path); err != nil {
		t.Fatal(err)
	}
}

// A third-party toolset is pinned when first enabled (its SHA-256 is shown
// by godot_list_toolsets); a swapped executable is refused with
// PRECONDITION_FAILED plugin_trusted, on enable and on the call that would
// start it, until `godot-mcp toolset trust NAME`; then it runs.
func TestBinarySwappedThirdPartyRefusedUntilTrusted(t *testing.T) {
	dir, cfg := t.TempDir(), t.TempDir()
	if err := hosttest.BuildProbeToolset(dir, "probe"); err != nil {
		t.Fatal(err)
	}
	exe := filepath.Join(dir, "probe")
	env := []string{"GODOT_MCP_PLUGIN_DIR=" + dir, "XDG_CONFIG_HOME=" + cfg}
	p := startBinary(t, append(env, "GODOT_MCP_TOOLSET_IDLE=1s")...)
	p.Initialize()
	mustProbe := func(what string) {
		t.Helper()
		if r := call(p, "godot_probe_env", nil); r.IsError {
			t.Fatalf("%s: godot_probe_env: %s", what, r.StructuredContent)
		}
	}
	refused := func(what string, r hosttest.ToolResult) {
		t.Helper()
		if e := errorOf(r); !r.IsError || e.Code != contract.PreconditionFailed || e.Required != contract.RequirePluginTrusted ||
			!strings.Contains(e.Hint, "godot-mcp toolset trust probe") {
			t.Fatalf("%s: want PRECONDITION_FAILED plugin_trusted naming the trust command, got %s", what, r.StructuredContent)
		}
	}

	if r := call(p, "godot_enable_toolset", map[string]any{"name": "probe"}); r.IsError {
		t.Fatalf("first enable: %s", r.StructuredContent)
	}
	mustProbe("trusted on first use")
	original := sha256File(t, exe)
	if st := listToolsets(t, p)["probe"]; st.SHA256 != original {
		t.Fatalf("listed sha256 %q, the executable's is %s", st.SHA256, original)
	}
	raw, err := os.ReadFile(filepath.Join(cfg, "godot-mcp", "trusted-plugins.json"))
	if err != nil || !strings.Contains(string(raw), original) {
		t.Fatalf("trust file: %s %v", raw, err)
	}

	// Swapped while disabled: enabling it is refused, and nothing runs.
	call(p, "godot_disable_toolset", map[string]any{"name": "probe"})
	swapExecutable(t, exe, "1")
	refused("enable after the swap", call(p, "godot_enable_toolset", map[string]any{"name": "probe"}))
	if p.ToolNames()["godot_probe_env"] {
		t.Fatal("a refused toolset's tools are served")
	}
	for _, c := range pluginProcs(p.Cmd.Process.Pid) {
		if strings.HasPrefix(c, exe) {
			t.Fatalf("the swapped executable runs: %s", c)
		}
	}
	if st := listToolsets(t, p)["probe"]; st.SHA256 != original || st.Enabled {
		t.Fatalf("after the refusal probe is listed as %+v", st)
	}

	out, errOut, code := runBinary(t, env, "toolset", "trust", "probe")
	if code != 0 || !strings.Contains(out, "trusted probe") || !strings.Contains(out, sha256File(t, exe)) {
		t.Fatalf("toolset trust: code %d\nstdout: %s\nstderr: %s", code, out, errOut)
	}
	if r := call(p, "godot_enable_toolset", map[string]any{"name": "probe"}); r.IsError {
		t.Fatalf("enable after trust: %s", r.StructuredContent)
	}
	mustProbe("re-trusted")

	// Swapped while enabled and idle-stopped: the call that would start it
	// is refused.
	gone(t, hosttest.WaitChild(t, p.Cmd.Process.Pid, "probe", func(c hosttest.Child) bool { return c.Cmdline[0] == exe }), "the idle probe plugin")
	swapExecutable(t, exe, "2")
	refused("the call after a swap", call(p, "godot_probe_env", nil))

	// Built-ins are not pinned, and the command says so.
	if _, errOut, code := runBinary(t, env, "toolset", "trust", "scene"); code == 0 || !strings.Contains(errOut, "not pinned") {
		t.Fatalf("toolset trust scene: code %d, %s", code, errOut)
	}
	// GODOT_MCP_PLUGIN_PINNING=off runs it unpinned.
	off := startBinary(t, append(env, "GODOT_MCP_PLUGIN_PINNING=off")...)
	off.Initialize()
	if r := call(off, "godot_enable_toolset", map[string]any{"name": "probe"}); r.IsError {
		t.Fatalf("enable with pinning off: %s", r.StructuredContent)
	}
	if r := call(off, "godot_probe_env", nil); r.IsError {
		t.Fatalf("call with pinning off: %s", r.StructuredContent)
	}
	if st := listToolsets(t, off)["probe"]; st.SHA256 != "" {
		t.Fatalf("pinning off lists a pin: %+v", st)
	}
}

// #25.6: enabling a toolset that is enabled already restarts it when its
// executable changed since (answering what changed), once the new file is
// trusted; an untrusted new file is refused and the running one stays.
func TestBinaryReEnableRestartsAChangedToolset(t *testing.T) {
	dir, cfg := t.TempDir(), t.TempDir()
	if err := hosttest.BuildProbeToolset(dir, "probe"); err != nil {
		t.Fatal(err)
	}
	exe := filepath.Join(dir, "probe")
	env := []string{"GODOT_MCP_PLUGIN_DIR=" + dir, "XDG_CONFIG_HOME=" + cfg}
	p := startBinary(t, env...)
	p.Initialize()
	enable := func() (hosttest.ToolResult, mcpserver.EnableResult) {
		r := call(p, "godot_enable_toolset", map[string]any{"name": "probe"})
		var res mcpserver.EnableResult
		json.Unmarshal(r.StructuredContent, &res)
		return r, res
	}
	if r, _ := enable(); r.IsError {
		t.Fatalf("first enable: %s", r.StructuredContent)
	}
	if r := call(p, "godot_probe_env", nil); r.IsError {
		t.Fatalf("godot_probe_env: %s", r.StructuredContent)
	}
	if r, res := enable(); r.IsError || !res.AlreadyEnabled || len(res.Restarted) != 0 {
		t.Fatalf("enabling it again, unchanged: %s", r.StructuredContent)
	}

	swapExecutable(t, exe, "v2")
	r, _ := enable()
	if e := errorOf(r); !r.IsError || e.Required != contract.RequirePluginTrusted {
		t.Fatalf("re-enable with an untrusted new executable: %s", r.StructuredContent)
	}
	if !p.ToolNames()["godot_probe_env"] {
		t.Fatal("the refused upgrade took the running toolset's tools away")
	}
	if _, errOut, code := runBinary(t, env, "toolset", "trust", "probe"); code != 0 {
		t.Fatalf("toolset trust: %s", errOut)
	}
	r, res := enable()
	if r.IsError || res.AlreadyEnabled || len(res.Restarted) != 1 || !strings.HasPrefix(res.Restarted[0], "probe: its executable "+exe+" changed") {
		t.Fatalf("re-enable after the new executable was trusted: %s", r.StructuredContent)
	}
	if r := call(p, "godot_probe_env", nil); r.IsError {
		t.Fatalf("godot_probe_env after the restart: %s", r.StructuredContent)
	}
	if st := listToolsets(t, p)["probe"]; !st.Enabled || st.SHA256 != sha256File(t, exe) {
		t.Fatalf("after the restart probe is listed as %+v; the executable's sha256 is %s", st, sha256File(t, exe))
	}
	n := 0
	for _, c := range pluginProcs(p.Cmd.Process.Pid) {
		if strings.HasPrefix(c, exe) {
			n++
		}
	}
	if n != 1 {
		t.Fatalf("%d processes of %s run after the restart, want 1", n, exe)
	}
}
