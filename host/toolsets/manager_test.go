package toolsets

import (
	"context"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/godot-mcp/godot-mcp/host/mcpserver"
	"github.com/godot-mcp/godot-mcp/host/pluginhost"
	"github.com/godot-mcp/godot-mcp/internal/plugmodel"
	"github.com/godot-mcp/godot-mcp/sdk/contract"
)

type fakePlugin struct {
	info    plugmodel.ToolsetInfo
	exited  atomic.Bool
	stopped atomic.Bool
	fail    atomic.Pointer[pluginhost.Failure]
	call    func(ctx context.Context, req plugmodel.CallRequest) plugmodel.CallResult
}

func (p *fakePlugin) Info() plugmodel.ToolsetInfo { return p.info }
func (p *fakePlugin) Exited() bool                { return p.exited.Load() || p.stopped.Load() }
func (p *fakePlugin) Stop(context.Context) error  { p.stopped.Store(true); return nil }

func (p *fakePlugin) ReadResource(context.Context, plugmodel.ResourceRequest) (plugmodel.ResourceResult, error) {
	return plugmodel.ResourceResult{Err: contract.Errorf(contract.ResourceNotFound, "the fake serves no resources")}, nil
}

func (p *fakePlugin) GetPrompt(context.Context, plugmodel.PromptRequest) (plugmodel.PromptResult, error) {
	return plugmodel.PromptResult{Err: contract.Errorf(contract.ResourceNotFound, "the fake serves no prompts")}, nil
}

// Call answers with p.call's result, or fails with the failure p.call
// stored in p.fail (as pluginhost reports a call that got no answer).
func (p *fakePlugin) Call(ctx context.Context, req plugmodel.CallRequest) (plugmodel.CallResult, error) {
	res := p.call(ctx, req)
	if f := p.fail.Swap(nil); f != nil {
		return plugmodel.CallResult{}, f
	}
	return res, nil
}

type fakeLauncher struct {
	mu       sync.Mutex
	launches int
	byName   map[string]int
	fail     error
	minGodot string
	call     func(p *fakePlugin, ctx context.Context, req plugmodel.CallRequest) plugmodel.CallResult
	last     *fakePlugin
}

func (l *fakeLauncher) launch(_ context.Context, spec pluginhost.Spec) (Plugin, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.launches++
	if l.byName == nil {
		l.byName = map[string]int{}
	}
	l.byName[spec.Name]++
	if l.fail != nil {
		return nil, l.fail
	}
	p := &fakePlugin{info: plugmodel.ToolsetInfo{Name: spec.Name, Version: "1", Description: "d", MinGodot: l.minGodot,
		Tools: []plugmodel.ToolInfo{{Name: "do", InputSchema: json.RawMessage(`{"type":"object"}`), OutputSchema: json.RawMessage(`{"type":"object","properties":{"a":{"type":"object","additionalProperties":false}},"additionalProperties":false}`), ToolMeta: contract.ToolMeta{Safety: "read_only"}}}}}
	p.call = func(ctx context.Context, req plugmodel.CallRequest) plugmodel.CallResult {
		if l.call != nil {
			return l.call(p, ctx, req)
		}
		return plugmodel.CallResult{Structured: json.RawMessage(`{"tool":"` + req.Tool + `"}`)}
	}
	l.last = p
	return p, nil
}

func (l *fakeLauncher) count() int {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.launches
}

func newManager(l *fakeLauncher, timeout time.Duration) *Manager {
	return New(Options{
		Specs:       []pluginhost.Spec{{Name: "scene", BuiltIn: true}, {Name: "hello", Path: "/plugins/hello"}, {Name: "scene", Path: "/plugins/scene"}},
		Launch:      l.launch,
		CallTimeout: timeout,
	})
}

func TestListDescribesAndDedups(t *testing.T) {
	l := &fakeLauncher{}
	m := newManager(l, 0)
	list := m.List(context.Background())
	if len(list) != 2 || list[0].Name != "scene" || !list[0].BuiltIn || list[1].Path != "/plugins/hello" || list[0].Path != "" {
		t.Fatalf("list: %+v", list)
	}
	if list[0].ToolCount != 1 || list[0].State != StateStopped || list[0].Enabled {
		t.Fatalf("scene: %+v", list[0])
	}
	m.List(context.Background())
	if l.count() != 2 {
		t.Fatalf("described %d times; descriptions must be cached", l.count())
	}
}

// The instructions read the third-party toolsets alone: their plugins are
// described, the built-ins' are not started.
func TestThirdPartyDescribesOnlyThirdParty(t *testing.T) {
	l := &fakeLauncher{}
	m := newManager(l, 0)
	m.DescribeThirdParty()
	list := m.ThirdParty(context.Background(), 5*time.Second)
	if len(list) != 1 || list[0].Name != "hello" || list[0].Description != "d" || list[0].BuiltIn {
		t.Fatalf("third party: %+v", list)
	}
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.byName["scene"] != 0 || l.byName["hello"] != 1 {
		t.Fatalf("launches: %v", l.byName)
	}
}

func TestEnableCallDisable(t *testing.T) {
	l := &fakeLauncher{}
	m := newManager(l, 0)
	out, err := m.Enable(context.Background(), "scene", "4.4.1.stable")
	if err != nil || len(out.Tools) != 1 || out.Tools[0].Def.Name != "godot_scene_do" {
		t.Fatalf("enable: %+v %v", out, err)
	}
	// Output schemas are opened for additive fields.
	if string(out.Tools[0].Def.OutputSchema) != `{"properties":{"a":{"type":"object"}},"type":"object"}` {
		t.Fatalf("output schema not opened: %s", out.Tools[0].Def.OutputSchema)
	}
	res := out.Tools[0].Exec(context.Background(), mcpserver.Call{Tool: "godot_scene_do", Arguments: json.RawMessage(`{}`)})
	if res.Err != nil || string(res.Structured) != `{"tool":"do"}` {
		t.Fatalf("the plugin must be called with its own tool name: %+v", res)
	}
	if got := m.Enabled(); len(got) != 1 || got[0] != "scene" {
		t.Fatalf("enabled: %v", got)
	}
	again, _ := m.Enable(context.Background(), "scene", "")
	if !again.AlreadyEnabled {
		t.Fatal("second enable not reported")
	}
	dis, err := m.Disable(context.Background(), "scene")
	if err != nil || len(dis.RemovedTools) != 1 || dis.RemovedTools[0] != "godot_scene_do" {
		t.Fatalf("disable: %+v %v", dis, err)
	}
	if !l.last.stopped.Load() {
		t.Fatal("plugin not stopped on disable")
	}
	res = out.Tools[0].Exec(context.Background(), mcpserver.Call{Tool: "godot_scene_do"})
	if res.Err == nil {
		t.Fatal("a disabled toolset's tool ran")
	}
}

func TestMinGodotGate(t *testing.T) {
	l := &fakeLauncher{minGodot: "4.4"}
	m := newManager(l, 0)
	_, err := m.Enable(context.Background(), "scene", "4.3.0.stable")
	if err == nil || err.Code != contract.PreconditionFailed || err.Required != contract.RequireGodotVersion {
		t.Fatalf("want godot_version precondition, got %v", err)
	}
	if len(m.Enabled()) != 0 || !l.last.stopped.Load() {
		t.Fatal("refused toolset left enabled or running")
	}
	if _, err := m.Enable(context.Background(), "scene", "4.4.1.stable"); err != nil {
		t.Fatal(err)
	}
	for have, want := range map[[2]string]bool{{"4.3", "4.4"}: true, {"4.4", "4.4"}: false, {"4.10.0", "4.4"}: false, {"3.9", "4.0"}: true, {"weird", "4.4"}: false} {
		if versionBelow(have[0], have[1]) != want {
			t.Errorf("versionBelow(%s, %s) != %v", have[0], have[1], want)
		}
	}
}

func TestLaunchFailure(t *testing.T) {
	l := &fakeLauncher{fail: errors.New("exec format error")}
	m := newManager(l, 0)
	_, err := m.Enable(context.Background(), "hello", "")
	if err == nil || err.Code != contract.InternalError {
		t.Fatalf("got %v", err)
	}
	if st := m.List(context.Background()); st[1].LastError == "" {
		t.Fatalf("the failure is not visible in the listing: %+v", st[1])
	}
}

func TestCrashRestartsWithBackoff(t *testing.T) {
	l := &fakeLauncher{}
	l.call = func(p *fakePlugin, ctx context.Context, req plugmodel.CallRequest) plugmodel.CallResult {
		if l.byName["scene"] == 1 {
			p.exited.Store(true) // dies mid-call
			p.fail.Store(&pluginhost.Failure{Kind: pluginhost.Crashed, Toolset: "scene", Op: req.Tool, Exit: pluginhost.Exit{Exited: true, Code: -1, Signal: "SIGSEGV"}})
			return plugmodel.CallResult{}
		}
		return plugmodel.CallResult{Structured: json.RawMessage(`{}`)}
	}
	m := newManager(l, 0)
	out, _ := m.Enable(context.Background(), "scene", "")
	exec := out.Tools[0].Exec
	res := exec(context.Background(), mcpserver.Call{Tool: "godot_scene_do"})
	// The agent is told what happened (and how the process ended), that
	// the next call restarts it and when, and that the tool may have run.
	if res.Err == nil || res.Err.Code != contract.InternalError {
		t.Fatalf("crash: %+v", res)
	}
	for _, want := range []string{`Toolset "scene" crashed during godot_scene_do`, "killed by signal SIGSEGV", "the next call restarts it (possible in 500ms)", "may have partly run"} {
		if !strings.Contains(res.Err.Hint, want) {
			t.Errorf("the crash hint does not say %q: %s", want, res.Err.Hint)
		}
	}
	if st := m.List(context.Background()); st[0].State != StateCrashed || !strings.Contains(st[0].LastError, "killed by signal SIGSEGV during godot_scene_do") {
		t.Fatalf("state %s (%s), want crashed saying how", st[0].State, st[0].LastError)
	}
	// Within the backoff: refused with a hint saying when.
	if res := exec(context.Background(), mcpserver.Call{}); res.Err == nil {
		t.Fatal("restarted inside the backoff window")
	}
	time.Sleep(minBackoff + 50*time.Millisecond)
	if res := exec(context.Background(), mcpserver.Call{}); res.Err != nil {
		t.Fatalf("after backoff: %v", res.Err)
	}
	l.mu.Lock()
	scene := l.byName["scene"]
	l.mu.Unlock()
	if scene != 2 {
		t.Fatalf("scene launched %d times, want 2 (start + one restart)", scene)
	}
	if st := m.List(context.Background()); st[0].State != StateRunning {
		t.Fatalf("state %s after restart", st[0].State)
	}
}

func TestHungPluginIsKilled(t *testing.T) {
	l := &fakeLauncher{}
	l.call = func(p *fakePlugin, ctx context.Context, req plugmodel.CallRequest) plugmodel.CallResult {
		if l.count() == 1 {
			<-ctx.Done() // hangs until the host gives up
			return plugmodel.CallResult{Err: contract.Errorf(contract.Timeout, "deadline")}
		}
		return plugmodel.CallResult{Structured: json.RawMessage(`{}`)}
	}
	m := newManager(l, 100*time.Millisecond)
	out, _ := m.Enable(context.Background(), "scene", "")
	start := time.Now()
	res := out.Tools[0].Exec(context.Background(), mcpserver.Call{})
	if res.Err == nil || res.Err.Code != contract.Timeout || time.Since(start) > 2*time.Second {
		t.Fatalf("hang: want TIMEOUT, got %+v after %v", res, time.Since(start))
	}
	if !strings.Contains(res.Err.Hint, "killed") || !strings.Contains(res.Err.Hint, "possible in 500ms") {
		t.Fatalf("the hint does not say the plugin was killed and when it comes back: %s", res.Err.Hint)
	}
	if !l.last.stopped.Load() {
		t.Fatal("the hung plugin was not stopped")
	}
	time.Sleep(minBackoff + 50*time.Millisecond)
	if res := out.Tools[0].Exec(context.Background(), mcpserver.Call{}); res.Err != nil {
		t.Fatalf("no working restart: %v", res.Err)
	}
}

// blockingLauncher's launches of "stuck" wait for ctx (a plugin that never
// completes the handshake); others succeed at once.
type blockingLauncher struct {
	fakeLauncher
}

func (l *blockingLauncher) launch(ctx context.Context, spec pluginhost.Spec) (Plugin, error) {
	if spec.Name == "stuck" {
		l.mu.Lock()
		l.launches++
		if l.byName == nil {
			l.byName = map[string]int{}
		}
		l.byName["stuck"]++
		l.mu.Unlock()
		<-ctx.Done()
		return nil, errors.New("it did not complete the godot-mcp plugin handshake")
	}
	return l.fakeLauncher.launch(ctx, spec)
}

func (l *blockingLauncher) launchesOf(name string) int {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.byName[name]
}

func TestStuckPluginNeverStallsOthers(t *testing.T) {
	exe := filepath.Join(t.TempDir(), "stuck")
	if err := os.WriteFile(exe, []byte("v1"), 0o755); err != nil {
		t.Fatal(err)
	}
	l := &blockingLauncher{}
	m := New(Options{
		Specs:           []pluginhost.Spec{{Name: "scene", BuiltIn: true}, {Name: "stuck", Path: exe}},
		Launch:          l.launch,
		DescribeTimeout: 600 * time.Millisecond, StartTimeout: 600 * time.Millisecond, ListWait: 100 * time.Millisecond,
	})
	defer m.Close()

	start := time.Now()
	list := m.List(context.Background())
	if d := time.Since(start); d > 400*time.Millisecond {
		t.Fatalf("List waited %v on a stuck plugin", d)
	}
	if list[0].ToolCount != 1 || list[1].State != StateDescribing {
		t.Fatalf("first list: %+v", list)
	}
	// While stuck is being described (and while it is being enabled),
	// enabling, listing and disabling scene do not wait for it.
	enabling := make(chan *contract.Error, 1)
	go func() { _, err := m.Enable(context.Background(), "stuck", ""); enabling <- err }()
	time.Sleep(50 * time.Millisecond)
	start = time.Now()
	if _, err := m.Enable(context.Background(), "scene", ""); err != nil {
		t.Fatal(err)
	}
	m.List(context.Background())
	if _, err := m.Disable(context.Background(), "scene"); err != nil {
		t.Fatal(err)
	}
	if d := time.Since(start); d > 300*time.Millisecond {
		t.Fatalf("scene enable/list/disable took %v while stuck was starting", d)
	}
	if err := <-enabling; err == nil || err.Code != contract.InternalError || !strings.Contains(err.Hint, "handshake") || !strings.Contains(err.Hint, exe) {
		t.Fatalf("enabling stuck: %v", err)
	}

	// The failure is cached: listing does not start it again...
	waitState(t, m, "stuck", StateFailed)
	n := l.launchesOf("stuck")
	for range 3 {
		if st := m.List(context.Background())[1]; st.State != StateFailed || !strings.Contains(st.LastError, "handshake") {
			t.Fatalf("stuck listed as %+v", st)
		}
	}
	if l.launchesOf("stuck") != n {
		t.Fatal("a cached failure was retried by List")
	}
	// ...until its executable changes,
	if err := os.WriteFile(exe, []byte("version 2"), 0o755); err != nil {
		t.Fatal(err)
	}
	if st := m.List(context.Background())[1]; st.State != StateDescribing {
		t.Fatalf("a changed executable is not described again: %+v", st)
	}
	waitState(t, m, "stuck", StateFailed)
	if l.launchesOf("stuck") != n+1 {
		t.Fatalf("launches of stuck: %d, want %d", l.launchesOf("stuck"), n+1)
	}
	// ...or it is enabled by name.
	if _, err := m.Enable(context.Background(), "stuck", ""); err == nil {
		t.Fatal("stuck enabled")
	}
	if l.launchesOf("stuck") != n+2 {
		t.Fatalf("enabling by name did not retry: launches %d", l.launchesOf("stuck"))
	}
}

func waitState(t *testing.T, m *Manager, name, state string) {
	t.Helper()
	deadline := time.Now().Add(5 * time.Second)
	for {
		for _, st := range m.List(context.Background()) {
			if st.Name == name && st.State == state {
				return
			}
		}
		if time.Now().After(deadline) {
			t.Fatalf("%s never reached state %s: %+v", name, state, m.List(context.Background()))
		}
		time.Sleep(10 * time.Millisecond)
	}
}

func TestMinGodotCheckedWhenAnEditorConnects(t *testing.T) {
	l := &fakeLauncher{minGodot: "4.4"}
	m := newManager(l, 0)
	defer m.Close()
	if _, err := m.Enable(context.Background(), "scene", ""); err != nil { // no editor yet
		t.Fatal(err)
	}
	if out := m.EditorChanged("4.4.1.stable"); len(out.RemovedTools) != 0 {
		t.Fatalf("a new enough editor disabled %v", out.RemovedTools)
	}
	out := m.EditorChanged("4.3.stable")
	if len(out.RemovedTools) != 1 || out.RemovedTools[0] != "godot_scene_do" {
		t.Fatalf("removed %+v", out)
	}
	if len(m.Enabled()) != 0 {
		t.Fatal("the incompatible toolset is still enabled")
	}
	for deadline := time.Now().Add(5 * time.Second); !l.last.stopped.Load(); time.Sleep(5 * time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatal("the incompatible toolset's plugin was not stopped")
		}
	}
	st := m.List(context.Background())[0]
	if st.State != StateIncompatible || !strings.Contains(st.LastError, "needs Godot 4.4 or newer; the connected editor is 4.3.stable") {
		t.Fatalf("scene listed as %+v", st)
	}
	m.EditorChanged("4.5")
	if st := m.List(context.Background())[0]; st.State != StateStopped || st.LastError != "" {
		t.Fatalf("after a newer editor: %+v", st)
	}
}

// An editor that connects while a toolset is being enabled (with no editor
// known when the enable began) is checked all the same.
func TestMinGodotForAnEditorConnectingDuringEnable(t *testing.T) {
	l := &fakeLauncher{minGodot: "4.4"}
	gate := make(chan struct{})
	m := New(Options{Specs: []pluginhost.Spec{{Name: "scene", BuiltIn: true}}, Launch: func(ctx context.Context, spec pluginhost.Spec) (Plugin, error) {
		<-gate
		return l.launch(ctx, spec)
	}})
	defer m.Close()
	done := make(chan *contract.Error, 1)
	go func() { _, err := m.Enable(context.Background(), "scene", ""); done <- err }()
	time.Sleep(20 * time.Millisecond)
	start := time.Now()
	if out := m.EditorChanged("4.3.stable"); len(out.RemovedTools) != 0 {
		t.Fatalf("removed %v", out.RemovedTools)
	}
	if d := time.Since(start); d > 100*time.Millisecond {
		t.Fatalf("EditorChanged waited %v on a plugin start", d)
	}
	close(gate)
	if err := <-done; err == nil || err.Required != contract.RequireGodotVersion {
		t.Fatalf("enable finished after a 4.3 editor connected: %v", err)
	}
	if len(m.Enabled()) != 0 {
		t.Fatal("enabled anyway")
	}
	m.EditorChanged("") // disconnected: unknown versions never block
	if _, err := m.Enable(context.Background(), "scene", ""); err != nil {
		t.Fatalf("with no editor: %v", err)
	}
}

// A third-party toolset named <built-in>_… is refused without being started;
// one whose tool would be served under a core tool's name is refused once
// described, and stopped; both are listed with the reason.
func TestNameConflictsRefused(t *testing.T) {
	l := &fakeLauncher{}
	m := New(Options{Launch: l.launch, Specs: []pluginhost.Spec{
		{Name: "scene", BuiltIn: true, Path: "/bin/self"},
		{Name: "scene_delete", Path: "/plugins/scene_delete"},
		{Name: "get", Path: "/plugins/get"},
		{Name: "ok", Path: "/plugins/ok"},
	}})
	_, err := m.Enable(context.Background(), "scene_delete", "")
	if err == nil || err.Code != contract.ValidationError || l.byName["scene_delete"] != 0 {
		t.Fatalf("scene_delete: %+v (launched %d times)", err, l.byName["scene_delete"])
	}
	launch := m.launch
	m.launch = func(ctx context.Context, spec pluginhost.Spec) (Plugin, error) {
		p, err := launch(ctx, spec)
		if err == nil && spec.Name == "get" {
			p.(*fakePlugin).info.Tools[0].Name = "server_info" // served as godot_get_server_info
		}
		return p, err
	}
	_, err = m.Enable(context.Background(), "get", "")
	if err == nil || err.Code != contract.ValidationError || !l.last.stopped.Load() {
		t.Fatalf("get: %+v (stopped %v)", err, l.last.stopped.Load())
	}
	for _, st := range m.List(context.Background()) {
		conflict := st.Name == "scene_delete" || st.Name == "get"
		if (st.LastError != "") != conflict || st.Enabled {
			t.Errorf("%s listed as %+v", st.Name, st)
		}
	}
	if _, err := m.Enable(context.Background(), "ok", ""); err != nil {
		t.Fatalf("ok: %+v", err)
	}
}

// A call that got no answer for a reason that leaves the plugin as it was
// is worded by the manager from pluginhost's fact, and the plugin is kept.
func TestFailureWordsKeepThePlugin(t *testing.T) {
	cases := []struct {
		fail      pluginhost.Failure
		code      contract.ErrorCode
		want, not []string
	}{
		{pluginhost.Failure{Kind: pluginhost.OverLimit, Limit: 65 << 20}, contract.InternalError,
			[]string{`Toolset "scene" answered godot_scene_do with more than the plugin protocol carries (65 MiB a message)`, "keeps running", "Ask for less"}, []string{"crash"}},
		{pluginhost.Failure{Kind: pluginhost.Cancelled}, contract.InternalError,
			[]string{`The call to godot_scene_do was cancelled before toolset "scene" answered`}, []string{"crash"}},
		{pluginhost.Failure{Kind: pluginhost.Failed, Err: errors.New("boom")}, contract.InternalError,
			[]string{`Toolset "scene" failed during godot_scene_do: boom`, "server log"}, []string{"crash"}},
	}
	for _, tc := range cases {
		t.Run(tc.fail.Kind.String(), func(t *testing.T) {
			l := &fakeLauncher{}
			var called *fakePlugin
			l.call = func(p *fakePlugin, _ context.Context, req plugmodel.CallRequest) plugmodel.CallResult {
				called = p
				f := tc.fail
				f.Toolset, f.Op = "scene", req.Tool
				p.fail.Store(&f)
				return plugmodel.CallResult{}
			}
			m := newManager(l, 0)
			out, _ := m.Enable(context.Background(), "scene", "")
			res := out.Tools[0].Exec(context.Background(), mcpserver.Call{Tool: "godot_scene_do"})
			if res.Err == nil || res.Err.Code != tc.code {
				t.Fatalf("answer: %+v", res)
			}
			for _, w := range tc.want {
				if !strings.Contains(res.Err.Hint, w) {
					t.Errorf("hint does not say %q: %s", w, res.Err.Hint)
				}
			}
			for _, w := range tc.not {
				if strings.Contains(res.Err.Hint, w) {
					t.Errorf("hint says %q: %s", w, res.Err.Hint)
				}
			}
			if st, _ := m.Status("scene"); st.State != StateRunning || called.stopped.Load() || l.byName["scene"] != 1 {
				t.Errorf("the plugin was not kept: state %s, stopped %v, launches %d", st.State, called.stopped.Load(), l.byName["scene"])
			}
		})
	}
}

// A plugin that never completed its handshake is reported with what to
// check; other start failures as they are.
func TestStartWords(t *testing.T) {
	hs := &pluginhost.StartError{Kind: pluginhost.HandshakeTimeout, Toolset: "x", Path: "/p/x", Timeout: 10 * time.Second, Output: "oops"}
	got := startWords(hs)
	for _, want := range []string{`toolset "x" (/p/x)`, "did not complete the godot-mcp plugin handshake within 10s", "the plugin's last output: oops", "built with the godot-mcp SDK (sdk.Serve)"} {
		if !strings.Contains(got, want) {
			t.Errorf("%q does not say %q", got, want)
		}
	}
	garbage := &pluginhost.StartError{Kind: pluginhost.HandshakeInvalid, Toolset: "x", Path: "/p/x", Err: errors.New("start: Unrecognized remote plugin message: hello")}
	if got := startWords(garbage); !strings.Contains(got, "Unrecognized remote plugin message: hello") || !strings.Contains(got, "sdk.Serve") {
		t.Errorf("a plugin that wrote something else than the handshake: %q", got)
	}
	other := &pluginhost.StartError{Kind: pluginhost.StartFailed, Toolset: "x", Path: "/p/x", Err: errors.New(`the plugin calls itself "y", not "x"`)}
	if got := startWords(other); strings.Contains(got, "sdk.Serve") || !strings.Contains(got, `calls itself "y"`) {
		t.Errorf("a name mismatch: %q", got)
	}
}
