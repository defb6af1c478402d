package toolsets

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/godot-mcp/godot-mcp/host/mcpserver"
	"github.com/godot-mcp/godot-mcp/host/pluginhost"
	"github.com/godot-mcp/godot-mcp/internal/plugmodel"
	"github.com/godot-mcp/godot-mcp/sdk/contract"
)

// builtinInfo is what the fake launcher's plugins describe, as the host
// would read it in-process.
func builtinInfo(name string) plugmodel.ToolsetInfo {
	return plugmodel.ToolsetInfo{Name: name, Version: "1", Description: "d",
		Tools: []plugmodel.ToolInfo{{Name: "do", InputSchema: json.RawMessage(`{"type":"object"}`), ToolMeta: contract.ToolMeta{Safety: "read_only"}}}}
}

func infos(list ...plugmodel.ToolsetInfo) func() map[string]plugmodel.ToolsetInfo {
	return func() map[string]plugmodel.ToolsetInfo {
		out := map[string]plugmodel.ToolsetInfo{}
		for _, info := range list {
			out[info.Name] = info
		}
		return out
	}
}

func lazyManager(l *fakeLauncher, idle time.Duration) *Manager {
	return New(Options{
		Specs:       []pluginhost.Spec{{Name: "scene", BuiltIn: true}, {Name: "scripts", BuiltIn: true}},
		Launch:      l.launch,
		BuiltinInfo: infos(builtinInfo("scene"), builtinInfo("scripts")),
		Lazy:        true,
		IdleStop:    idle,
	})
}

func stateOf(t *testing.T, m *Manager, name string) string {
	t.Helper()
	st, ok := m.Status(name)
	if !ok {
		t.Fatalf("no toolset %q", name)
	}
	return st.State
}

// Built-ins are listed from their in-process description, enabled without
// a plugin, and started by their first call.
func TestLazyEnableStartsOnFirstCall(t *testing.T) {
	l := &fakeLauncher{}
	m := lazyManager(l, 0)
	defer m.Close()
	list := m.List(context.Background())
	if len(list) != 2 || list[0].ToolCount != 1 || list[0].Description != "d" || l.count() != 0 {
		t.Fatalf("list: %+v, launches %d", list, l.count())
	}
	out, err := m.Enable(context.Background(), "scene", "")
	if err != nil || len(out.Tools) != 1 || l.count() != 0 {
		t.Fatalf("enable: %+v %v, launches %d", out, err, l.count())
	}
	if _, err := m.Enable(context.Background(), "scripts", ""); err != nil {
		t.Fatal(err)
	}
	if s := stateOf(t, m, "scene"); s != StateIdle {
		t.Fatalf("state after a lazy enable: %s", s)
	}
	res := out.Tools[0].Exec(context.Background(), mcpserver.Call{Tool: "godot_scene_do", Arguments: json.RawMessage(`{}`)})
	if res.Err != nil || string(res.Structured) != `{"tool":"do"}` {
		t.Fatalf("first call: %+v", res.Err)
	}
	if l.count() != 1 || l.byName["scene"] != 1 {
		t.Fatalf("launches after one call: %v", l.byName)
	}
	if s := stateOf(t, m, "scene"); s != StateRunning {
		t.Fatalf("state after the first call: %s", s)
	}
	out.Tools[0].Exec(context.Background(), mcpserver.Call{Tool: "godot_scene_do", Arguments: json.RawMessage(`{}`)})
	if l.count() != 1 {
		t.Fatalf("a second call started another plugin: %d launches", l.count())
	}
}

// A plugin idle for IdleStop is stopped; its next call starts it again.
func TestIdlePluginStopsAndComesBack(t *testing.T) {
	l := &fakeLauncher{}
	m := lazyManager(l, 100*time.Millisecond)
	defer m.Close()
	out, _ := m.Enable(context.Background(), "scene", "")
	call := func() mcpserver.Result {
		return out.Tools[0].Exec(context.Background(), mcpserver.Call{Tool: "godot_scene_do", Arguments: json.RawMessage(`{}`)})
	}
	if res := call(); res.Err != nil {
		t.Fatal(res.Err)
	}
	first := l.last
	deadline := time.Now().Add(5 * time.Second)
	for stateOf(t, m, "scene") != StateIdle {
		if time.Now().After(deadline) {
			t.Fatalf("not stopped after being idle: %s", stateOf(t, m, "scene"))
		}
		time.Sleep(20 * time.Millisecond)
	}
	if !first.stopped.Load() {
		t.Fatal("the idle plugin was not stopped")
	}
	if res := call(); res.Err != nil {
		t.Fatalf("call after the idle stop: %v", res.Err)
	}
	if l.count() != 2 || stateOf(t, m, "scene") != StateRunning {
		t.Fatalf("launches %d, state %s", l.count(), stateOf(t, m, "scene"))
	}
}

// A call in flight keeps its plugin: the idle stop waits for it.
func TestIdleStopWaitsForCallsInFlight(t *testing.T) {
	l := &fakeLauncher{}
	release := make(chan struct{})
	l.call = func(p *fakePlugin, ctx context.Context, req plugmodel.CallRequest) plugmodel.CallResult {
		<-release
		return plugmodel.CallResult{Structured: json.RawMessage(`{}`)}
	}
	m := lazyManager(l, 50*time.Millisecond)
	defer m.Close()
	out, _ := m.Enable(context.Background(), "scene", "")
	done := make(chan mcpserver.Result, 1)
	go func() {
		done <- out.Tools[0].Exec(context.Background(), mcpserver.Call{Tool: "godot_scene_do", Arguments: json.RawMessage(`{}`)})
	}()
	time.Sleep(300 * time.Millisecond)
	if stateOf(t, m, "scene") != StateRunning {
		t.Fatalf("stopped during a call: %s", stateOf(t, m, "scene"))
	}
	close(release)
	if res := <-done; res.Err != nil {
		t.Fatal(res.Err)
	}
}

// A plugin that starts with other tools than the ones served is not used.
func TestLazyStartRefusesAChangedToolset(t *testing.T) {
	l := &fakeLauncher{}
	info := builtinInfo("scene")
	info.Tools[0].Name = "other"
	m := New(Options{Specs: []pluginhost.Spec{{Name: "scene", BuiltIn: true}}, Launch: l.launch,
		BuiltinInfo: infos(info), Lazy: true})
	defer m.Close()
	out, err := m.Enable(context.Background(), "scene", "")
	if err != nil {
		t.Fatal(err)
	}
	res := out.Tools[0].Exec(context.Background(), mcpserver.Call{Tool: "godot_scene_other", Arguments: json.RawMessage(`{}`)})
	if res.Err == nil || !strings.Contains(res.Err.Hint, "changed on disk") {
		t.Fatalf("want a refusal naming the change, got %+v", res.Err)
	}
}

type refuseTrust struct{ checks []bool }

func (r *refuseTrust) Check(name, path string, record bool) *contract.Error {
	r.checks = append(r.checks, record)
	return contract.Precondition(contract.RequirePluginTrusted, "changed: run godot-mcp toolset trust "+name)
}
func (r *refuseTrust) Pinned(string) string { return "abc" }

// An untrusted third-party executable is never started: not to describe
// it, not to enable it; built-ins are not checked.
func TestUntrustedExecutableIsNeverStarted(t *testing.T) {
	exe := filepath.Join(t.TempDir(), "hello")
	if err := os.WriteFile(exe, []byte("#!/bin/sh\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	l := &fakeLauncher{}
	tr := &refuseTrust{}
	m := New(Options{Specs: []pluginhost.Spec{{Name: "scene", BuiltIn: true}, {Name: "hello", Path: exe}}, Launch: l.launch, Trust: tr,
		BuiltinInfo: infos(builtinInfo("scene")), Lazy: true})
	defer m.Close()
	list := m.list(context.Background(), 5*time.Second)
	if list[1].State != StateFailed || !strings.Contains(list[1].LastError, "toolset trust hello") || list[1].SHA256 != "abc" {
		t.Fatalf("listed: %+v", list[1])
	}
	_, err := m.Enable(context.Background(), "hello", "")
	if err == nil || err.Code != contract.PreconditionFailed || err.Required != contract.RequirePluginTrusted {
		t.Fatalf("enable: %+v", err)
	}
	if _, err := m.Enable(context.Background(), "scene", ""); err != nil {
		t.Fatalf("a built-in is not pinned: %v", err)
	}
	if l.count() != 0 {
		t.Fatalf("%d launches", l.count())
	}
	if len(tr.checks) != 2 || tr.checks[0] || !tr.checks[1] {
		t.Fatalf("checks (record?) = %v: a describe must not pin, an enable must", tr.checks)
	}
}
