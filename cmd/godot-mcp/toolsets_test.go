package main

import (
	"context"
	"encoding/json"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/godot-mcp/godot-mcp/internal/testing/hosttest"
	"github.com/godot-mcp/godot-mcp/sdk/contract"

	"github.com/godot-mcp/godot-mcp/sdk/sdktest/fakeaddon"
)

func dialAddon(t *testing.T, p *hosttest.Proc) *fakeaddon.Addon {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	a, err := fakeaddon.Dial(ctx, p.BridgeURL())
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { a.Close() })
	return a
}

func errorOf(r hosttest.ToolResult) contract.Error {
	var e contract.Error
	json.Unmarshal(r.StructuredContent, &e)
	return e
}

func TestBinaryEnableCallDisable(t *testing.T) {
	p := startBinary(t)
	p.Initialize()
	addon := dialAddon(t, p)
	addon.HandleResult("cmd_scene_list_open", map[string]any{"scenes": []any{map[string]any{"path": "res://main.tscn", "dirty": false, "active": true}}, "active": "res://main.tscn"})

	if p.ToolNames()["godot_scene_list_open"] {
		t.Fatal("scene tools listed before enable")
	}
	r, notes := p.CallTool("godot_enable_toolset", map[string]any{"name": "scene"})
	if r.IsError {
		t.Fatalf("enable: %s", r.StructuredContent)
	}
	// The list_changed notification may arrive just before or after the answer.
	if !contains(notes, "notifications/tools/list_changed") {
		r2, more := p.CallTool("godot_get_server_info", nil)
		_ = r2
		if !contains(more, "notifications/tools/list_changed") {
			t.Fatalf("no notifications/tools/list_changed after enable (saw %v %v)", notes, more)
		}
	}
	if !p.ToolNames()["godot_scene_list_open"] {
		t.Fatal("scene tools not listed after enable")
	}
	push, err := addon.WaitPush(ctxT(t), "cmd_toolsets_update")
	if err != nil || !strings.Contains(string(push.Params), `"scene"`) {
		t.Fatalf("editor not told of the enabled toolsets: %v %s", err, push.Params)
	}
	r = call(p, "godot_scene_list_open", nil)
	if r.IsError || !strings.Contains(string(r.StructuredContent), "res://main.tscn") {
		t.Fatalf("proxied call: %+v %s", r, r.StructuredContent)
	}
	if _, err := addon.WaitCommand(ctxT(t), "cmd_scene_list_open"); err != nil {
		t.Fatal("the fake editor never received cmd_scene_list_open")
	}
	r = call(p, "godot_disable_toolset", map[string]any{"name": "scene"})
	if r.IsError {
		t.Fatalf("disable: %s", r.StructuredContent)
	}
	if p.ToolNames()["godot_scene_list_open"] {
		t.Fatal("scene tools still listed after disable")
	}
	p.AssertOnlyJSONRPC()
}

func TestBinaryMinGodotGate(t *testing.T) {
	p := startBinary(t)
	p.Initialize()
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	hello := fakeaddon.DefaultHello()
	hello.GodotVersion = "4.2.2.stable"
	a, err := fakeaddon.Dial(ctx, p.BridgeURL(), fakeaddon.WithHello(hello))
	if err != nil {
		t.Fatal(err)
	}
	defer a.Close()
	r := call(p, "godot_enable_toolset", map[string]any{"name": "scene"})
	if e := errorOf(r); !r.IsError || e.Code != contract.PreconditionFailed || e.Required != "godot_version" {
		t.Fatalf("want PRECONDITION_FAILED godot_version, got %s", r.StructuredContent)
	}
	if p.ToolNames()["godot_scene_list_open"] {
		t.Fatal("a refused toolset's tools are listed")
	}
}

func TestBinaryPluginKilledMidCall(t *testing.T) {
	p := startBinary(t)
	p.Initialize()
	addon := dialAddon(t, p)
	addon.Silence("cmd_scene_list_open") // the call stays in flight
	call(p, "godot_enable_toolset", map[string]any{"name": "scene"})

	done := make(chan hosttest.ToolResult, 1)
	go func() { done <- call(p, "godot_scene_list_open", nil) }()
	if _, err := addon.WaitCommand(ctxT(t), "cmd_scene_list_open"); err != nil {
		t.Fatal(err)
	}
	pid := pluginPid(t, p.Cmd.Process.Pid, "scene") // started by the call
	start := time.Now()
	syscall.Kill(pid, syscall.SIGKILL)
	var r hosttest.ToolResult
	select {
	case r = <-done:
	case <-time.After(10 * time.Second):
		t.Fatal("the call hung after its plugin was killed")
	}
	if e := errorOf(r); !r.IsError || e.Code != contract.InternalError || !strings.Contains(e.Hint, "scene") {
		t.Fatalf("want INTERNAL_ERROR naming the toolset, got %s", r.StructuredContent)
	}
	t.Logf("failed %v after the kill", time.Since(start))

	var list struct {
		Toolsets []struct {
			Name, State string
		} `json:"toolsets"`
	}
	json.Unmarshal(call(p, "godot_list_toolsets", nil).StructuredContent, &list)
	for _, ts := range list.Toolsets {
		if ts.Name == "scene" && ts.State != "crashed" {
			t.Fatalf("scene state %q, want crashed", ts.State)
		}
	}
	// The next call (after the backoff) restarts it and works.
	addon.HandleResult("cmd_scene_list_open", map[string]any{"scenes": []any{}, "active": ""})
	deadline := time.Now().Add(15 * time.Second)
	for {
		r = call(p, "godot_scene_list_open", nil)
		if !r.IsError {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("no working restart: %s", r.StructuredContent)
		}
		time.Sleep(200 * time.Millisecond)
	}
	if newPid := pluginPid(t, p.Cmd.Process.Pid, "scene"); newPid == pid {
		t.Fatal("same pid after a restart")
	}
	p.AssertOnlyJSONRPC()
}

func TestBinaryNoOrphanPlugins(t *testing.T) {
	// Eager: enabling starts the plugins (by default the first call does).
	p := startBinary(t, "GODOT_MCP_EAGER_TOOLSETS=true")
	p.Initialize()
	call(p, "godot_enable_toolset", map[string]any{"name": "scene"})
	call(p, "godot_enable_toolset", map[string]any{"name": "scripts"})
	pids := []int{pluginPid(t, p.Cmd.Process.Pid, "scene"), pluginPid(t, p.Cmd.Process.Pid, "scripts")}
	p.Cmd.Process.Kill() // SIGKILL: the host gets no chance to clean up
	deadline := time.Now().Add(10 * time.Second)
	for _, pid := range pids {
		for hosttest.Alive(pid) {
			if time.Now().After(deadline) {
				t.Fatalf("plugin %d outlived the killed host", pid)
			}
			time.Sleep(20 * time.Millisecond)
		}
	}
}

func ctxT(t *testing.T) context.Context {
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	t.Cleanup(cancel)
	return ctx
}

func contains(xs []string, x string) bool {
	for _, s := range xs {
		if s == x {
			return true
		}
	}
	return false
}

// pluginPid finds the child of host running `toolset serve name`.
func pluginPid(t *testing.T, host int, name string) int {
	t.Helper()
	return hosttest.WaitChild(t, host, "toolset "+name, func(c hosttest.Child) bool {
		return strings.Contains(strings.Join(c.Cmdline, " "), "toolset serve "+name)
	})
}
