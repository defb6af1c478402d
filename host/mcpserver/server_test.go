package mcpserver

import (
	"context"
	"encoding/json"
	"errors"
	"flag"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/mark3labs/mcp-go/client"
	"github.com/mark3labs/mcp-go/mcp"

	"github.com/godot-mcp/godot-mcp/host/bridge"
	"github.com/godot-mcp/godot-mcp/host/buildinfo"
	"github.com/godot-mcp/godot-mcp/host/config"
	"github.com/godot-mcp/godot-mcp/host/envelope"
	"github.com/godot-mcp/godot-mcp/sdk/contract"
)

var update = flag.Bool("update", false, "rewrite golden files")

// stubBridge records commands and answers from a table.
type stubBridge struct {
	mu        sync.Mutex
	connected bool
	peer      *bridge.PeerInfo
	sent      []envelope.Command
	answers   map[string]envelope.Response
	pushed    [][]string
}

func (b *stubBridge) Send(_ context.Context, command string, params any, _ time.Duration) envelope.Response {
	raw, _ := json.Marshal(params)
	b.mu.Lock()
	defer b.mu.Unlock()
	b.sent = append(b.sent, envelope.Command{Command: command, Params: raw})
	if !b.connected {
		return envelope.Failure("", &contract.Error{Code: contract.BridgeDisconnected, Required: contract.RequireBridgeConnected, Hint: "no editor"})
	}
	if r, ok := b.answers[command]; ok {
		return r
	}
	return envelope.Failure("", contract.Errorf(contract.InternalError, "no answer for %s", command))
}

func (b *stubBridge) Status() bridge.Status {
	b.mu.Lock()
	defer b.mu.Unlock()
	return bridge.Status{Listening: true, URL: "ws://127.0.0.1:9080", Connected: b.connected, Peer: b.peer}
}

func (b *stubBridge) PushToolsets(enabled []string) {
	b.mu.Lock()
	defer b.mu.Unlock()
	b.pushed = append(b.pushed, enabled)
}

func (b *stubBridge) commands() []envelope.Command {
	b.mu.Lock()
	defer b.mu.Unlock()
	return append([]envelope.Command(nil), b.sent...)
}

func testConfig() config.Config {
	cfg, _, err := config.Load(func(string) (string, bool) { return "", false }, nil)
	if err != nil {
		panic(err)
	}
	return cfg
}

func newClient(t *testing.T, s *Server) *client.Client {
	t.Helper()
	c, err := client.NewInProcessClient(s.MCP())
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	if err := c.Start(ctx); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { c.Close() })
	req := mcp.InitializeRequest{}
	req.Params.ProtocolVersion = mcp.LATEST_PROTOCOL_VERSION
	req.Params.ClientInfo = mcp.Implementation{Name: "test", Version: "1"}
	if _, err := c.Initialize(ctx, req); err != nil {
		t.Fatal(err)
	}
	return c
}

func call(t *testing.T, c *client.Client, name string, args map[string]any) *mcp.CallToolResult {
	t.Helper()
	req := mcp.CallToolRequest{}
	req.Params.Name = name
	req.Params.Arguments = args
	res, err := c.CallTool(context.Background(), req)
	if err != nil {
		t.Fatalf("%s: JSON-RPC error %v (tools must fail as isError results)", name, err)
	}
	return res
}

// structured decodes a result's structuredContent.
func structured(t *testing.T, res *mcp.CallToolResult, into any) {
	t.Helper()
	raw, err := json.Marshal(res.StructuredContent)
	if err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(raw, into); err != nil {
		t.Fatalf("structuredContent %s: %v", raw, err)
	}
}

func wantError(t *testing.T, res *mcp.CallToolResult, code contract.ErrorCode, required string) contract.Error {
	t.Helper()
	if !res.IsError {
		t.Fatalf("want isError %s, got success %+v", code, res.StructuredContent)
	}
	if res.StructuredContent != nil {
		t.Errorf("an error result carries structuredContent %+v: it would not match the tool's outputSchema", res.StructuredContent)
	}
	if len(res.Content) != 1 {
		t.Fatalf("want one content item (the error object), got %+v", res.Content)
	}
	var e contract.Error
	if err := json.Unmarshal([]byte(mcp.GetTextFromContent(res.Content[0])), &e); err != nil {
		t.Fatalf("the text content is not the error object: %v: %+v", err, res.Content)
	}
	if e.Code != code || e.Required != required {
		t.Fatalf("want %s required=%q, got %+v", code, required, e)
	}
	if strings.TrimSpace(e.Hint) == "" {
		t.Fatalf("error %s has no hint", code)
	}
	if len(res.Content) == 0 {
		t.Fatal("error result has no text fallback")
	}
	return e
}

func TestServerInfoWithoutEditor(t *testing.T) {
	s := New(Options{Config: testConfig(), Bridge: &stubBridge{}})
	c := newClient(t, s)
	res := call(t, c, "godot_get_server_info", nil)
	if res.IsError {
		t.Fatalf("error: %+v", res.Content)
	}
	var info ServerInfo
	structured(t, res, &info)
	if info.ContractVersion != 2 || info.MinCompatibleContract != 2 || info.Version != buildinfo.Version {
		t.Fatalf("versions: %+v", info)
	}
	if info.Bridge.Connected || info.Bridge.Peer != nil || info.Bridge.URL == "" {
		t.Fatalf("bridge: %+v", info.Bridge)
	}
	if info.MCPProtocolVersion == "" || info.Toolsets == nil {
		t.Fatalf("info: %+v", info)
	}
	// The text fallback carries the same JSON.
	text := res.Content[0].(mcp.TextContent).Text
	var again ServerInfo
	if err := json.Unmarshal([]byte(text), &again); err != nil || again.Version != info.Version {
		t.Fatalf("text fallback %q", text)
	}
}

func TestServerInfoVersionNotice(t *testing.T) {
	b := &stubBridge{connected: true, peer: &bridge.PeerInfo{ProjectDir: "/p", GodotVersion: "4.4.1.stable", AddonVersion: "2020.01.01"}}
	c := newClient(t, New(Options{Config: testConfig(), Bridge: b}))
	var info ServerInfo
	structured(t, call(t, c, "godot_get_server_info", nil), &info)
	if info.Bridge.Peer == nil || info.Bridge.Peer.GodotVersion != "4.4.1.stable" || info.ProjectDir != "/p" {
		t.Fatalf("peer: %+v", info.Bridge)
	}
	if !strings.Contains(info.VersionNotice, "2020.01.01") {
		t.Fatalf("want a version notice naming the addon version, got %q", info.VersionNotice)
	}
	b.mu.Lock()
	b.peer.AddonVersion = buildinfo.Version
	b.mu.Unlock()
	info = ServerInfo{}
	structured(t, call(t, c, "godot_get_server_info", nil), &info)
	if info.VersionNotice != "" {
		t.Fatalf("matching versions still noticed: %q", info.VersionNotice)
	}
}

func TestEditorToolsNeedBridge(t *testing.T) {
	b := &stubBridge{}
	c := newClient(t, New(Options{Config: testConfig(), Bridge: b}))
	for _, tool := range []string{"godot_get_editor_state", "godot_undo", "godot_redo"} {
		wantError(t, call(t, c, tool, nil), contract.BridgeDisconnected, contract.RequireBridgeConnected)
	}
	if n := len(b.commands()); n != 0 {
		t.Fatalf("a tool reached the bridge without an editor: %d commands", n)
	}
}

func TestEditorStateIsOneCommand(t *testing.T) {
	state := EditorState{ProjectDir: "/p", GodotVersion: "4.4.1", OpenScenes: []OpenScene{{Path: "res://main.tscn", Active: true}},
		ActiveScene: &ActiveScene{Path: "res://main.tscn", RootName: "Main", RootType: "Node2D"}, Selection: []string{}}
	ok, _ := envelope.Success("1", state)
	b := &stubBridge{connected: true, answers: map[string]envelope.Response{"cmd_get_editor_state": ok}}
	c := newClient(t, New(Options{Config: testConfig(), Bridge: b}))
	var got EditorState
	res := call(t, c, "godot_get_editor_state", nil)
	structured(t, res, &got)
	if got.ActiveScene == nil || got.ActiveScene.RootType != "Node2D" || len(got.OpenScenes) != 1 {
		t.Fatalf("state: %+v", got)
	}
	cmds := b.commands()
	if len(cmds) != 1 || cmds[0].Command != "cmd_get_editor_state" || string(cmds[0].Params) != "{}" {
		t.Fatalf("want exactly one cmd_get_editor_state with {} params, got %+v", cmds)
	}
}

func TestUndoRedoArguments(t *testing.T) {
	ok, _ := envelope.Success("1", UndoResult{Requested: 2, Performed: 2, Actions: []string{"a", "b"}})
	b := &stubBridge{connected: true, answers: map[string]envelope.Response{"cmd_undo": ok, "cmd_redo": ok}}
	c := newClient(t, New(Options{Config: testConfig(), Bridge: b}))

	call(t, c, "godot_undo", map[string]any{"count": 2, "dry_run": true})
	call(t, c, "godot_redo", nil)
	cmds := b.commands()
	if len(cmds) != 2 {
		t.Fatalf("commands: %+v", cmds)
	}
	if cmds[0].Command != "cmd_undo" || string(cmds[0].Params) != `{"count":2,"dry_run":true,"history":"auto"}` {
		t.Fatalf("undo sent %s %s", cmds[0].Command, cmds[0].Params)
	}
	if cmds[1].Command != "cmd_redo" || string(cmds[1].Params) != `{"count":1,"dry_run":false,"history":"auto"}` {
		t.Fatalf("redo sent %s %s", cmds[1].Command, cmds[1].Params)
	}
	wantError(t, call(t, c, "godot_undo", map[string]any{"count": 1000, "confirm": true}), contract.ValidationError, "")
	// Undoing more than one action discards work: it needs confirm, like a destructive tool.
	wantError(t, call(t, c, "godot_undo", map[string]any{"count": 2}), contract.PreconditionFailed, contract.RequireConfirm)
	wantError(t, call(t, c, "godot_undo", map[string]any{"count": "two"}), contract.ValidationError, "")
	wantError(t, call(t, c, "godot_undo", map[string]any{"bogus": 1}), contract.ValidationError, "")
	wantError(t, call(t, c, "godot_undo", map[string]any{"history": "everything"}), contract.ValidationError, "")
	if len(b.commands()) != 2 {
		t.Fatal("invalid arguments reached the editor")
	}
}

func TestEditorErrorsPassThrough(t *testing.T) {
	fail := envelope.Failure("1", &contract.Error{Code: contract.ResourceNotFound, Hint: "No class 'Node2', did you mean Node2D?"})
	b := &stubBridge{connected: true, answers: map[string]envelope.Response{"cmd_describe_class": fail}}
	c := newClient(t, New(Options{Config: testConfig(), Bridge: b}))
	e := wantError(t, call(t, c, "godot_describe_class", map[string]any{"class_name": "Node2"}), contract.ResourceNotFound, "")
	if !strings.Contains(e.Hint, "Node2D") {
		t.Fatalf("hint lost: %q", e.Hint)
	}
	wantError(t, call(t, c, "godot_describe_class", nil), contract.ValidationError, "")
}

func TestUnknownToolsetRefusedWithKnownNames(t *testing.T) {
	c := newClient(t, New(Options{Config: testConfig(), Bridge: &stubBridge{}}))
	for _, tool := range []string{"godot_enable_toolset", "godot_disable_toolset"} {
		e := wantError(t, call(t, c, tool, map[string]any{"name": "nope"}), contract.ValidationError, "")
		if !strings.Contains(e.Hint, "nope") || !strings.Contains(e.Hint, "godot_list_toolsets") {
			t.Fatalf("hint: %q", e.Hint)
		}
	}
	ts := newFakeToolsets("scene", "scripts")
	c = newClient(t, New(Options{Config: testConfig(), Bridge: &stubBridge{}, Toolsets: ts}))
	e := wantError(t, call(t, c, "godot_enable_toolset", map[string]any{"name": "nope"}), contract.ValidationError, "")
	if !strings.Contains(e.Hint, "scene, scripts") {
		t.Fatalf("hint does not list the known toolsets: %q", e.Hint)
	}
}

// fakeToolsets serves one destructive and one mutating tool per toolset.
type fakeToolsets struct {
	mu         sync.Mutex
	names      []string
	enabled    map[string]bool
	calls      []Call
	failEnable map[string]*contract.Error // toolsets whose Enable fails so
}

func newFakeToolsets(names ...string) *fakeToolsets {
	return &fakeToolsets{names: names, enabled: map[string]bool{}}
}

func (f *fakeToolsets) List(context.Context) []ToolsetStatus {
	f.mu.Lock()
	defer f.mu.Unlock()
	var out []ToolsetStatus
	for _, n := range f.names {
		st := ToolsetStatus{Name: n, BuiltIn: true, State: "stopped", ToolCount: 2}
		if f.enabled[n] {
			st.Enabled, st.State = true, "running"
		}
		out = append(out, st)
	}
	return out
}

func (f *fakeToolsets) tools(name string) []Tool {
	exec := func(ctx context.Context, c Call) Result {
		f.mu.Lock()
		f.calls = append(f.calls, c)
		f.mu.Unlock()
		return OK(map[string]any{"done": true, "dry_run": c.DryRun})
	}
	schema := json.RawMessage(`{"type":"object","properties":{"path":{"type":"string"}},"additionalProperties":false}`)
	return []Tool{
		{Def: ToolDef{Name: "godot_" + name + "_delete", Toolset: name, InputSchema: schema, ToolMeta: contract.ToolMeta{Description: "Delete.", Safety: contract.Destructive}}, Exec: exec},
		{Def: ToolDef{Name: "godot_" + name + "_edit", Toolset: name, InputSchema: schema, ToolMeta: contract.ToolMeta{Description: "Edit.", Safety: contract.Mutating, DryRun: true}}, Exec: exec},
	}
}

func (f *fakeToolsets) Enable(_ context.Context, name, _ string) (EnableOutcome, *contract.Error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	if err := f.failEnable[name]; err != nil {
		return EnableOutcome{}, err
	}
	already := f.enabled[name]
	f.enabled[name] = true
	return EnableOutcome{Tools: f.tools(name), AlreadyEnabled: already}, nil
}

func (f *fakeToolsets) Disable(_ context.Context, name string) (DisableOutcome, *contract.Error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	if !f.enabled[name] {
		return DisableOutcome{AlreadyDisabled: true}, nil
	}
	delete(f.enabled, name)
	return DisableOutcome{RemovedTools: []string{"godot_" + name + "_delete", "godot_" + name + "_edit"}}, nil
}

func (f *fakeToolsets) Enabled() []string {
	f.mu.Lock()
	defer f.mu.Unlock()
	var out []string
	for _, n := range f.names {
		if f.enabled[n] {
			out = append(out, n)
		}
	}
	return out
}

func (f *fakeToolsets) callCount() int {
	f.mu.Lock()
	defer f.mu.Unlock()
	return len(f.calls)
}

func toolNames(t *testing.T, c *client.Client) map[string]mcp.Tool {
	t.Helper()
	res, err := c.ListTools(context.Background(), mcp.ListToolsRequest{})
	if err != nil {
		t.Fatal(err)
	}
	out := map[string]mcp.Tool{}
	for _, tool := range res.Tools {
		out[tool.Name] = tool
	}
	return out
}

func TestEnableDisableGatesTools(t *testing.T) {
	ts := newFakeToolsets("scene")
	b := &stubBridge{}
	c := newClient(t, New(Options{Config: testConfig(), Bridge: b, Toolsets: ts}))
	changed := make(chan struct{}, 10)
	c.OnNotification(func(n mcp.JSONRPCNotification) {
		if n.Method == "notifications/tools/list_changed" {
			changed <- struct{}{}
		}
	})
	if _, ok := toolNames(t, c)["godot_scene_edit"]; ok {
		t.Fatal("toolset tools listed before enable")
	}
	var en EnableResult
	structured(t, call(t, c, "godot_enable_toolset", map[string]any{"name": "scene"}), &en)
	if !en.Toolset.Enabled || len(en.Tools) != 2 || en.AlreadyEnabled {
		t.Fatalf("enable: %+v", en)
	}
	select {
	case <-changed:
	case <-time.After(5 * time.Second):
		t.Fatal("no notifications/tools/list_changed after enable")
	}
	if _, ok := toolNames(t, c)["godot_scene_edit"]; !ok {
		t.Fatal("tools not listed after enable")
	}
	if len(b.pushed) != 1 || strings.Join(b.pushed[0], ",") != "scene" {
		t.Fatalf("editor not told: %+v", b.pushed)
	}
	structured(t, call(t, c, "godot_enable_toolset", map[string]any{"name": "scene"}), &en)
	if !en.AlreadyEnabled {
		t.Fatal("second enable not reported as already enabled")
	}
	var dis DisableResult
	structured(t, call(t, c, "godot_disable_toolset", map[string]any{"name": "scene"}), &dis)
	if len(dis.RemovedTools) != 2 {
		t.Fatalf("disable: %+v", dis)
	}
	if _, ok := toolNames(t, c)["godot_scene_edit"]; ok {
		t.Fatal("tools still listed after disable")
	}
}

func TestHostEnforcesSafetyClass(t *testing.T) {
	ts := newFakeToolsets("scene")
	c := newClient(t, New(Options{Config: testConfig(), Bridge: &stubBridge{}, Toolsets: ts}))
	call(t, c, "godot_enable_toolset", map[string]any{"name": "scene"})

	// Destructive without confirm: refused before the toolset is called.
	wantError(t, call(t, c, "godot_scene_delete", map[string]any{"path": "a"}), contract.PreconditionFailed, contract.RequireConfirm)
	if ts.callCount() != 0 {
		t.Fatal("destructive call reached the toolset without confirm")
	}
	// dry_run on a tool that declared no preview: the host previews, nothing runs.
	res := call(t, c, "godot_scene_delete", map[string]any{"path": "a", "dry_run": true})
	var preview map[string]any
	structured(t, res, &preview)
	if res.IsError || preview["dry_run"] != true || ts.callCount() != 0 {
		t.Fatalf("host preview: %+v, calls %d", preview, ts.callCount())
	}
	// confirmed: runs.
	if res := call(t, c, "godot_scene_delete", map[string]any{"path": "a", "confirm": true}); res.IsError {
		t.Fatalf("confirmed call failed: %+v", res.Content)
	}
	// A tool with its own preview gets dry_run passed through.
	call(t, c, "godot_scene_edit", map[string]any{"path": "a", "dry_run": true})
	if ts.callCount() != 2 || !ts.calls[1].DryRun {
		t.Fatalf("calls: %+v", ts.calls)
	}
	// dry_run/confirm are in the advertised schema of the class, whatever the toolset declared.
	tools := toolNames(t, c)
	var del struct {
		Properties map[string]any `json:"properties"`
	}
	raw, _ := json.Marshal(tools["godot_scene_delete"].InputSchema)
	if len(tools["godot_scene_delete"].RawInputSchema) > 0 {
		raw = tools["godot_scene_delete"].RawInputSchema
	}
	_ = json.Unmarshal(raw, &del)
	if del.Properties["confirm"] == nil || del.Properties["dry_run"] == nil {
		t.Fatalf("destructive schema lacks confirm/dry_run: %s", raw)
	}
	// Approval denied → APPROVAL_DENIED, the toolset is not called.
	denied := New(Options{Config: testConfig(), Bridge: &stubBridge{}, Toolsets: newFakeToolsets("scene"),
		Approver: func(context.Context, string, json.RawMessage) *contract.Error {
			return contract.Errorf(contract.ApprovalDenied, "The user declined.")
		}})
	c2 := newClient(t, denied)
	call(t, c2, "godot_enable_toolset", map[string]any{"name": "scene"})
	wantError(t, call(t, c2, "godot_scene_delete", map[string]any{"path": "a", "confirm": true}), contract.ApprovalDenied, "")
}

func TestAnnotationsFromClass(t *testing.T) {
	c := newClient(t, New(Options{Config: testConfig(), Bridge: &stubBridge{}}))
	for name, tool := range toolNames(t, c) {
		a := tool.Annotations
		// readOnlyHint and openWorldHint always; destructiveHint on every
		// tool that is not read-only (the only ones it means something for).
		if a.ReadOnlyHint == nil || a.OpenWorldHint == nil || (*a.ReadOnlyHint) != (a.DestructiveHint == nil) {
			t.Fatalf("%s: annotations %+v", name, a)
		}
		destructive := a.DestructiveHint != nil && *a.DestructiveHint
		if destructive != (name == "godot_undo") || *a.OpenWorldHint || a.IdempotentHint != nil {
			t.Fatalf("%s: core tools are neither destructive (but godot_undo with count > 1), open-world nor idempotent edits: %+v", name, a)
		}
	}
	tools := toolNames(t, c)
	if !*tools["godot_get_server_info"].Annotations.ReadOnlyHint || *tools["godot_undo"].Annotations.ReadOnlyHint {
		t.Fatal("read-only hints do not follow the class")
	}
}

// TestGoldenToolsList pins the core tools/list answer (names, schemas, annotations).
func TestGoldenToolsList(t *testing.T) {
	srv := New(Options{Config: testConfig(), Bridge: &stubBridge{}})
	c := newClient(t, srv)
	res, err := c.ListTools(context.Background(), mcp.ListToolsRequest{})
	if err != nil {
		t.Fatal(err)
	}
	got, err := json.MarshalIndent(res.Tools, "", "  ")
	if err != nil {
		t.Fatal(err)
	}
	golden := filepath.Join("testdata", "tools_list.golden.json")
	if *update {
		if err := os.WriteFile(golden, append(got, '\n'), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	want, err := os.ReadFile(golden)
	if err != nil {
		t.Fatalf("%v (run `make docs` to create it)", err)
	}
	if strings.TrimSpace(string(want)) != strings.TrimSpace(string(got)) {
		t.Fatalf("tools/list drifted from %s; if intended, run `make docs` and review the diff (and contract_version)", golden)
	}
	// tools/list carries no outputSchema by default; every tool's contract
	// (godot://tool/{name}) has one.
	for _, tool := range res.Tools {
		if len(tool.RawOutputSchema) != 0 {
			t.Errorf("%s lists an outputSchema by default", tool.Name)
		}
	}
	for _, def := range srv.Surface() {
		if len(def.OutputSchema) == 0 {
			t.Errorf("%s has no output schema in its contract", def.Name)
		}
	}
}

func TestNonObjectOrInvalidUTF8ResultsAreCleaned(t *testing.T) {
	// A core tool (declared with the SDK, decoding the editor's answer)
	// refuses an answer that is not an object.
	for _, result := range []string{`3.5`, `null`, `[1]`, `"s"`} {
		resp := envelope.Response{ID: "1", OK: true, Result: json.RawMessage(result)}
		b := &stubBridge{connected: true, answers: map[string]envelope.Response{"cmd_get_editor_state": resp}}
		c := newClient(t, New(Options{Config: testConfig(), Bridge: b}))
		wantError(t, call(t, c, "godot_get_editor_state", nil), contract.InternalError, "")
	}
	// Whatever a tool's executor answers, the host sends an object with
	// valid UTF-8, or INTERNAL_ERROR.
	for _, tc := range []struct {
		result string
		ok     bool
	}{
		{`3.5`, false}, {`null`, false}, {`[1]`, false}, {`"s"`, false},
		{"{\"a\":\"\xff\"}", true},
	} {
		s := New(Options{Config: testConfig(), Bridge: &stubBridge{connected: true}})
		err := s.AddTools(Tool{Def: ToolDef{Name: "godot_x_raw", Toolset: "x", InputSchema: json.RawMessage(`{"type":"object"}`), ToolMeta: contract.ToolMeta{Safety: contract.ReadOnly, Description: "d"}},
			Exec: func(context.Context, Call) Result { return Result{Structured: json.RawMessage(tc.result)} }})
		if err != nil {
			t.Fatal(err)
		}
		res := call(t, newClient(t, s), "godot_x_raw", nil)
		if !tc.ok {
			wantError(t, res, contract.InternalError, "")
			continue
		}
		raw, _ := json.Marshal(res.StructuredContent)
		if res.IsError || string(raw) != "{\"a\":\"\uFFFD\"}" {
			t.Fatalf("%q: got %s", tc.result, raw)
		}
	}
}

// The host owns dry_run and confirm: a tool receives only its own arguments.
func TestFlagsAreNotForwardedAsArguments(t *testing.T) {
	ts := newFakeToolsets("scene")
	c := newClient(t, New(Options{Config: testConfig(), Bridge: &stubBridge{}, Toolsets: ts}))
	call(t, c, "godot_enable_toolset", map[string]any{"name": "scene"})
	call(t, c, "godot_scene_delete", map[string]any{"path": "a", "confirm": true})
	call(t, c, "godot_scene_edit", map[string]any{"path": "b", "dry_run": true})
	if ts.callCount() != 2 {
		t.Fatalf("calls: %d", ts.callCount())
	}
	for i, want := range []string{`{"path":"a"}`, `{"path":"b"}`} {
		if got := string(ts.calls[i].Arguments); got != want {
			t.Fatalf("call %d got arguments %s, want %s", i, got, want)
		}
	}
	if !ts.calls[0].Confirm || !ts.calls[1].DryRun {
		t.Fatalf("flags lost: %+v", ts.calls)
	}
}

func TestLargeResultsAreNotRepeatedAsText(t *testing.T) {
	big := strings.Repeat("x", maxTextFallback)
	ok, _ := envelope.Success("1", map[string]any{"project_dir": big})
	b := &stubBridge{connected: true, answers: map[string]envelope.Response{"cmd_get_editor_state": ok}}
	c := newClient(t, New(Options{Config: testConfig(), Bridge: b}))
	res := call(t, c, "godot_get_editor_state", nil)
	var st EditorState
	structured(t, res, &st)
	if res.IsError || st.ProjectDir != big {
		t.Fatal("the structured result lost data")
	}
	text := res.Content[0].(mcp.TextContent).Text
	if len(text) > 1000 || !strings.Contains(text, "structuredContent") {
		t.Fatalf("text fallback of a large result: %d bytes", len(text))
	}
}

// A tool name served by the core or another toolset is never taken over.
func TestAddToolsRefusesATakenName(t *testing.T) {
	s := New(Options{Config: testConfig(), Bridge: &stubBridge{}})
	tool := func(name, toolset string) Tool {
		return Tool{Def: ToolDef{Name: name, Toolset: toolset, InputSchema: json.RawMessage(`{"type":"object"}`), ToolMeta: contract.ToolMeta{Safety: contract.ReadOnly, Description: "d"}},
			Exec: func(context.Context, Call) Result { return OK(map[string]any{"toolset": toolset}) }}
	}
	var taken *NameTakenError
	if err := s.AddTools(tool("godot_get_server_info", "get")); !errors.As(err, &taken) || taken.Owner != CoreToolset {
		t.Fatalf("core name: %v", err)
	}
	if err := s.AddTools(tool("godot_a_b_c", "a")); err != nil {
		t.Fatal(err)
	}
	if err := s.AddTools(tool("godot_a_b_d", "a_b"), tool("godot_a_b_c", "a_b")); !errors.As(err, &taken) || taken.Owner != "a" {
		t.Fatalf("another toolset's name: %v", err)
	}
	for _, d := range s.Surface() {
		if d.Name == "godot_a_b_d" {
			t.Fatal("a refused batch was partly added")
		}
		if d.Name == "godot_a_b_c" && d.Toolset != "a" {
			t.Fatal("godot_a_b_c changed hands")
		}
	}
	if err := s.AddTools(tool("godot_a_b_c", "a")); err != nil {
		t.Fatalf("re-adding its own name: %v", err)
	}
}
