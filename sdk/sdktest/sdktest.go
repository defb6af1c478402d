// Package sdktest runs a toolset in-process for tests, through the real
// host: the MCP server (host/mcpserver) serves the toolset's tools, an MCP
// client calls them, and their editor commands go through a real bridge to
// a fake editor that the test scripts.
//
//	func TestGreet(t *testing.T) {
//		h := sdktest.Start(t, hello.Toolset())
//		h.Addon().HandleResult("cmd_hello_greet", map[string]any{"printed": true})
//		res, err := h.Call(context.Background(), "greet", map[string]any{"node": "/root/Main"})
//		if err != nil || res.Err != nil {
//			t.Fatal(err, res.Err)
//		}
//		// res.Structured is the tool's JSON result;
//		// h.Addon().Received() lists the commands the editor got.
//	}
//
// A call takes the path it takes in production: the host validates the
// arguments against the tool's input schema (once, naming every bad field),
// reads dry_run and confirm (the host owns them: a DryRun() call sends
// dry_run: true as an agent would), applies the tool's safety class and
// DestructiveWhen conditions, checks the host-side preconditions
// (bridge_connected, project_dir; the editor checks active_scene and the
// others in the command itself) and shapes the result as an MCP client
// receives it. The editor commands a call sends are held to the host's
// rules (host/safety's gate): a command must belong to the toolset
// (cmd_<toolset>_*) or be a public core command, be declared by the editor,
// and fit the tool's class; during a dry run, dry_run: true is set on
// commands that take it. Only the plugin process and its gRPC hop are left
// out. The fake editor declares the real addon's commands and the
// toolset's own as its EditorCode declares them (each "cmd_x": {"class":
// ..., "run": ...} entry of its .gd files); Declare adds or overrides one.
//
// Client returns the MCP client itself, for tests that list tools or call
// the host's core tools (godot_get_editor_state, ...) end to end.
package sdktest

import (
	"bytes"
	"context"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"log/slog"
	"sort"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/mark3labs/mcp-go/client"
	"github.com/mark3labs/mcp-go/mcp"

	"github.com/godot-mcp/godot-mcp/host/bridge"
	"github.com/godot-mcp/godot-mcp/host/config"
	"github.com/godot-mcp/godot-mcp/host/envelope"
	"github.com/godot-mcp/godot-mcp/host/mcpserver"
	"github.com/godot-mcp/godot-mcp/host/safety"
	"github.com/godot-mcp/godot-mcp/internal/plugmodel"
	"github.com/godot-mcp/godot-mcp/sdk"
	"github.com/godot-mcp/godot-mcp/sdk/contract"
	"github.com/godot-mcp/godot-mcp/sdk/internal/sdkhook"
	"github.com/godot-mcp/godot-mcp/sdk/sdktest/fakeaddon"
)

// Harness is one toolset served by the real MCP server in-process, against
// a fake editor.
type Harness struct {
	t      testing.TB
	ts     sdk.Toolset
	reg    plugmodel.Toolset // the SDK's registry: the toolset as the host sees it
	info   plugmodel.ToolsetInfo
	bridge *bridge.Bridge
	addon  *fakeaddon.Addon
	editor *Editor
	gate   *safety.Gate
	server *mcpserver.Server
	client *client.Client
	served map[string]string // tool -> the name agents call it by

	mu       sync.Mutex
	logs     []LogRecord
	progress []ProgressEvent
	tokens   map[string]string // host-scoped progress token -> the caller's
}

// LogRecord is one record a tool logged through Host.Logger.
type LogRecord struct {
	Level   slog.Level
	Message string
	Attrs   map[string]string
}

// ProgressEvent is one Host.Progress notification.
type ProgressEvent struct {
	Token           string
	Progress, Total float64
	Message         string
}

// ToolInfo is a tool's declared metadata, as the host sees it: its name,
// schemas and attributes (Title, Description, Safety, DryRun, Confirm,
// Preconditions, DestructiveWhen, RunsCode, ...: contract.ToolMeta).
type ToolInfo struct {
	Name                      string
	InputSchema, OutputSchema json.RawMessage
	contract.ToolMeta
}

// Content is one extra content item of a result (Call.AddText,
// Call.AddImage, Call.AddContent): Type "text", "image", "audio" or
// "resource", Text, Data, MimeType, and URI (the embedded resource's). It
// is the host's content item.
type Content = plugmodel.Content

// Result is a tool call's outcome as an agent receives it: Structured and
// Content, or Err.
type Result struct {
	Structured json.RawMessage
	Content    []Content
	Err        *sdk.Error
}

// Decode unmarshals the structured result into v.
func (r *Result) Decode(v any) error {
	if r.Err != nil {
		return r.Err
	}
	return json.Unmarshal(r.Structured, v)
}

// CallOption sets a flag of a call: DryRun, Confirm or ProgressToken.
type CallOption struct{ apply func(*callConfig) }

type callConfig struct {
	dryRun, confirm bool
	token           string
}

// DryRun asks for a preview: the call carries dry_run: true.
func DryRun() CallOption { return CallOption{func(c *callConfig) { c.dryRun = true }} }

// Confirm confirms a destructive call: the call carries confirm: true.
func Confirm() CallOption { return CallOption{func(c *callConfig) { c.confirm = true }} }

// ProgressToken makes the call carry a progress token: Host.Progress
// reports under it (see Harness.Progress).
func ProgressToken(token string) CallOption {
	return CallOption{func(c *callConfig) { c.token = token }}
}

// StartOption configures Start.
type StartOption struct{ apply func(*startConfig) }

type startConfig struct {
	commands map[string]envelope.CommandInfo
}

// Declare makes the fake editor declare command, one of the toolset's own
// editor commands (cmd_<toolset>_*), with class; dryRun says it takes
// dry_run. Its GDScript declares the same in get_commands().
func Declare(command string, class sdk.Safety, dryRun bool) StartOption {
	return StartOption{func(c *startConfig) {
		c.commands[command] = envelope.CommandInfo{Class: string(class), DryRun: dryRun}
	}}
}

// StartHost is Start: the harness always runs the real host.
func StartHost(t testing.TB, ts sdk.Toolset, opts ...StartOption) *Harness {
	t.Helper()
	return Start(t, ts, opts...)
}

// Start validates ts, starts a bridge on a loopback port, connects a fake
// editor to it, serves ts's tools with the real MCP server and connects an
// in-process MCP client. Everything is stopped by t.Cleanup. An invalid
// toolset, or one the host refuses to serve, fails the test.
func Start(t testing.TB, ts sdk.Toolset, opts ...StartOption) *Harness {
	t.Helper()
	reg, err := sdkhook.NewToolset(ts)
	if err != nil {
		t.Fatalf("sdktest: invalid toolset: %v", err)
	}
	info, err := reg.Describe(context.Background())
	if err != nil {
		t.Fatalf("sdktest: describe: %v", err)
	}
	cfg := startConfig{commands: map[string]envelope.CommandInfo{}}
	for _, o := range opts {
		if o.apply != nil {
			o.apply(&cfg)
		}
	}
	if ts.EditorCode != nil {
		own, err := fakeaddon.ParseCommands(ts.EditorCode, ts.Name)
		if err != nil {
			t.Fatalf("sdktest: the toolset's editor code: %v", err)
		}
		for name, info := range own {
			if _, declared := cfg.commands[name]; !declared {
				cfg.commands[name] = info
			}
		}
	}
	for name, info := range cfg.commands {
		info.Owner = ts.Name
		cfg.commands[name] = info
	}
	b, err := bridge.New(bridge.Options{URL: "ws://127.0.0.1:0", ServerVersion: "sdktest"})
	if err != nil {
		t.Fatalf("sdktest: bridge: %v", err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	if err := b.Start(ctx); err != nil {
		t.Fatalf("sdktest: start bridge: %v", err)
	}
	t.Cleanup(func() { _ = b.Close() })
	a, err := fakeaddon.Dial(ctx, b.URL(), fakeaddon.WithCommands(cfg.commands))
	if err != nil {
		t.Fatalf("sdktest: connect the fake editor: %v", err)
	}
	t.Cleanup(func() { _ = a.Close() })
	if err := b.WaitConnected(ctx); err != nil {
		t.Fatalf("sdktest: the fake editor did not connect: %v", err)
	}
	h := &Harness{t: t, ts: ts, reg: reg, info: info, bridge: b, addon: a, editor: &Editor{a: a},
		gate: safety.NewGate(ts.Name, nil), served: map[string]string{}, tokens: map[string]string{}}
	h.server = mcpserver.New(mcpserver.Options{
		Config: config.Config{Transport: "stdio", Approval: "auto"},
		Bridge: b,
	})
	if err := reg.Setup(ctx, plugmodel.HostConfig{Host: (*backend)(h), HostVersion: "sdktest"}); err != nil {
		t.Fatalf("sdktest: setup: %v", err)
	}
	var tools []mcpserver.Tool
	for _, tool := range info.Tools {
		def := mcpserver.DefFromInfo(ts.Name, "godot_"+ts.Name+"_"+tool.Name, tool)
		h.served[tool.Name] = def.Name
		tools = append(tools, mcpserver.Tool{Def: def, Exec: h.executor(tool.Name, def.Safety)})
	}
	if err := h.server.AddTools(tools...); err != nil {
		t.Fatalf("sdktest: the host refuses to serve toolset %q: %v", ts.Name, err)
	}
	c, err := client.NewInProcessClient(h.server.MCP())
	if err != nil {
		t.Fatalf("sdktest: MCP client: %v", err)
	}
	t.Cleanup(func() { _ = c.Close() })
	if err := c.Start(ctx); err != nil {
		t.Fatalf("sdktest: start the MCP client: %v", err)
	}
	init := mcp.InitializeRequest{}
	init.Params.ProtocolVersion = mcp.LATEST_PROTOCOL_VERSION
	init.Params.ClientInfo = mcp.Implementation{Name: "sdktest", Version: "1"}
	if _, err := c.Initialize(ctx, init); err != nil {
		t.Fatalf("sdktest: initialize: %v", err)
	}
	h.client = c
	return h
}

// executor runs tool in the toolset as the host's toolset manager does:
// the call's editor commands are held to its class by the gate, and a
// refused command fails the call.
func (h *Harness) executor(tool string, class contract.Class) mcpserver.Executor {
	return func(ctx context.Context, call mcpserver.Call) mcpserver.Result {
		if cc, ok := ctx.Value(callKey{}).(*callConfig); ok && cc.token != "" && call.ProgressToken != "" {
			h.mu.Lock()
			h.tokens[call.ProgressToken] = cc.token
			h.mu.Unlock()
		}
		id, end := h.gate.Begin(call.CallID, safety.SendCall{Tool: tool, Class: class, DryRun: call.DryRun, Confirm: call.Confirm})
		res, err := h.reg.Call(ctx, plugmodel.CallRequest{Tool: tool, Arguments: call.Arguments, DryRun: call.DryRun, Confirm: call.Confirm,
			ProgressToken: call.ProgressToken, CallID: id})
		if refusal := end(); refusal != nil {
			return mcpserver.Fail(refusal)
		}
		if err != nil {
			return mcpserver.Fail(contract.AsError(err))
		}
		return res
	}
}

type callKey struct{}

// Addon is the fake editor: script its answers with Handle, HandleResult,
// HandleError or Silence, and inspect Received.
func (h *Harness) Addon() *Editor { return h.editor }

// Client is the MCP client connected to the host in-process: tools/list,
// the core tools and the toolset's tools by their served names
// (godot_<toolset>_<tool>).
func (h *Harness) Client() *client.Client { return h.client }

// ServedName is the name agents call tool by: godot_<toolset>_<tool>.
func (h *Harness) ServedName(tool string) string { return h.served[tool] }

// Tools lists the toolset's tools with their generated schemas.
func (h *Harness) Tools() []ToolInfo {
	var out []ToolInfo
	for _, t := range h.info.Tools {
		out = append(out, ToolInfo{Name: t.Name, InputSchema: t.InputSchema, OutputSchema: t.OutputSchema, ToolMeta: t.ToolMeta})
	}
	return out
}

// Call calls tool (its name within the toolset) with args through the MCP
// server, as an agent would: any value that marshals to a JSON object, a
// json.RawMessage or a string holding the JSON text, or nil for {}. A tool
// failure, including the host's refusal of bad arguments, is Result.Err;
// the error return is for a harness failure, such as args that are not
// JSON (no MCP client can send them).
func (h *Harness) Call(ctx context.Context, tool string, args any, opts ...CallOption) (*Result, error) {
	var cc callConfig
	for _, o := range opts {
		if o.apply != nil {
			o.apply(&cc)
		}
	}
	name, ok := h.served[tool]
	if !ok {
		known := make([]string, 0, len(h.served))
		for n := range h.served {
			known = append(known, n)
		}
		sort.Strings(known)
		return &Result{Err: sdk.NotFound(fmt.Sprintf("toolset %q has no tool %q (tools: %s)", h.ts.Name, tool, strings.Join(known, ", ")))}, nil
	}
	raw, err := marshalArgs(args)
	if err != nil {
		return nil, fmt.Errorf("sdktest: arguments of %s: %w", tool, err)
	}
	if cc.dryRun || cc.confirm {
		if raw, err = withFlags(raw, cc); err != nil {
			return nil, fmt.Errorf("sdktest: arguments of %s: %w", tool, err)
		}
	}
	req := mcp.CallToolRequest{}
	req.Params.Name = name
	req.Params.Arguments = raw
	if cc.token != "" {
		req.Params.Meta = &mcp.Meta{ProgressToken: cc.token}
	}
	res, err := h.client.CallTool(context.WithValue(ctx, callKey{}, &cc), req)
	if err != nil {
		return nil, fmt.Errorf("sdktest: tools/call %s: %w", name, err)
	}
	return fromMCP(res)
}

// withFlags adds dry_run / confirm to an arguments object.
func withFlags(raw json.RawMessage, cc callConfig) (json.RawMessage, error) {
	var m map[string]json.RawMessage
	if err := json.Unmarshal(raw, &m); err != nil || m == nil {
		return raw, nil // not an object: the host refuses it as it is
	}
	if cc.dryRun {
		m["dry_run"] = json.RawMessage("true")
	}
	if cc.confirm {
		m["confirm"] = json.RawMessage("true")
	}
	return json.Marshal(m)
}

// fromMCP reads a tools/call result as an agent does.
func fromMCP(res *mcp.CallToolResult) (*Result, error) {
	if res.IsError {
		if len(res.Content) == 0 {
			return nil, fmt.Errorf("sdktest: an error result without content")
		}
		text, ok := mcp.AsTextContent(res.Content[0])
		if !ok {
			return nil, fmt.Errorf("sdktest: an error result whose content is not text: %+v", res.Content[0])
		}
		var e struct {
			Error    sdk.ErrorCode `json:"error"`
			Hint     string        `json:"hint"`
			Required string        `json:"required"`
		}
		if err := json.Unmarshal([]byte(text.Text), &e); err != nil {
			return nil, fmt.Errorf("sdktest: the error text is not the error object: %q", text.Text)
		}
		return &Result{Err: &sdk.Error{Code: e.Error, Hint: e.Hint, Required: e.Required}}, nil
	}
	out := &Result{}
	items := res.Content
	// The first text item is the structured result's text form: the same
	// bytes, except for results too large to repeat.
	if len(items) > 0 {
		if text, ok := mcp.AsTextContent(items[0]); ok && json.Valid([]byte(text.Text)) && strings.HasPrefix(strings.TrimSpace(text.Text), "{") {
			out.Structured = json.RawMessage(text.Text)
			items = items[1:]
		} else if ok && res.StructuredContent != nil && strings.HasPrefix(text.Text, "The result is ") {
			items = items[1:]
		}
	}
	if out.Structured == nil {
		raw, err := json.Marshal(res.StructuredContent)
		if err != nil {
			return nil, err
		}
		out.Structured = raw
	}
	for _, item := range items {
		c, err := contentFromMCP(item)
		if err != nil {
			return nil, err
		}
		out.Content = append(out.Content, c)
	}
	return out, nil
}

func contentFromMCP(item mcp.Content) (Content, error) {
	switch c := item.(type) {
	case mcp.TextContent:
		return Content{Type: "text", Text: c.Text}, nil
	case mcp.ImageContent:
		data, err := base64.StdEncoding.DecodeString(c.Data)
		return Content{Type: "image", Data: data, MimeType: c.MIMEType}, err
	case mcp.AudioContent:
		data, err := base64.StdEncoding.DecodeString(c.Data)
		return Content{Type: "audio", Data: data, MimeType: c.MIMEType}, err
	case mcp.EmbeddedResource:
		switch r := c.Resource.(type) {
		case mcp.TextResourceContents:
			return Content{Type: "resource", Text: r.Text, MimeType: r.MIMEType, URI: r.URI}, nil
		case mcp.BlobResourceContents:
			data, err := base64.StdEncoding.DecodeString(r.Blob)
			return Content{Type: "resource", Data: data, MimeType: r.MIMEType, URI: r.URI}, err
		}
	}
	return Content{}, fmt.Errorf("sdktest: unexpected content item %T", item)
}

func marshalArgs(args any) (json.RawMessage, error) {
	var raw json.RawMessage
	switch a := args.(type) {
	case nil:
		return json.RawMessage("{}"), nil
	case json.RawMessage:
		raw = a
	case string:
		raw = json.RawMessage(a)
	default:
		var err error
		if raw, err = json.Marshal(args); err != nil {
			return nil, err
		}
	}
	if len(bytes.TrimSpace(raw)) == 0 {
		return json.RawMessage("{}"), nil
	}
	if !json.Valid(raw) {
		return nil, fmt.Errorf("not JSON (%.40s): no MCP client can send these", raw)
	}
	return raw, nil
}

// Logs returns what the tools logged through Host.Logger, in order.
func (h *Harness) Logs() []LogRecord {
	h.mu.Lock()
	defer h.mu.Unlock()
	return append([]LogRecord(nil), h.logs...)
}

// Progress returns the progress notifications sent, in order, under the
// tokens the calls carried (ProgressToken).
func (h *Harness) Progress() []ProgressEvent {
	h.mu.Lock()
	defer h.mu.Unlock()
	return append([]ProgressEvent(nil), h.progress...)
}

// backend is the Harness seen from the toolset: the host's services.
type backend Harness

func (b *backend) Send(ctx context.Context, callID, command string, params json.RawMessage, timeout time.Duration) (json.RawMessage, error) {
	params, refusal := b.gate.Check(callID, command, params, b.bridge.Command)
	if refusal != nil {
		return nil, refusal
	}
	resp := b.bridge.Send(ctx, command, params, timeout)
	if e := resp.Err(); e != nil {
		return nil, e
	}
	if len(resp.Result) == 0 {
		return json.RawMessage("{}"), nil
	}
	return resp.Result, nil
}

func (b *backend) Progress(_ context.Context, token string, progress, total float64, message string) error {
	b.server.Progress(token, progress, total, message) // to the MCP client, as the host does
	b.mu.Lock()
	defer b.mu.Unlock()
	if caller, ok := b.tokens[token]; ok {
		token = caller
	}
	b.progress = append(b.progress, ProgressEvent{Token: token, Progress: progress, Total: total, Message: message})
	return nil
}

func (b *backend) Log(_ context.Context, level slog.Level, message string, attrs []slog.Attr) error {
	rec := LogRecord{Level: level, Message: message, Attrs: map[string]string{}}
	var parts []string
	for _, a := range attrs {
		rec.Attrs[a.Key] = a.Value.Resolve().String()
		parts = append(parts, a.String())
	}
	b.mu.Lock()
	b.logs = append(b.logs, rec)
	b.mu.Unlock()
	b.t.Logf("toolset log: %s %s %s", level, message, strings.Join(parts, " "))
	return nil
}

// MustCall is Call with a 20 s deadline; a harness failure (not a tool
// error, which is in Result.Err) fails the test.
func (h *Harness) MustCall(t testing.TB, tool string, args any, opts ...CallOption) *Result {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	res, err := h.Call(ctx, tool, args, opts...)
	if err != nil {
		t.Fatal(err)
	}
	return res
}

// MustFail is MustCall for a call that must be refused: it fails t unless
// the tool answers an error with code whose hint contains hintHas.
func (h *Harness) MustFail(t testing.TB, tool string, args any, code sdk.ErrorCode, hintHas string, opts ...CallOption) *Result {
	t.Helper()
	res := h.MustCall(t, tool, args, opts...)
	if res.Err == nil || res.Err.Code != code || !strings.Contains(res.Err.Hint, hintHas) {
		t.Fatalf("%s %v: got %+v %s, want %s with %q", tool, args, res.Err, res.Structured, code, hintHas)
	}
	return res
}

// LastParams is what the fake editor received with the last command named
// command, decoded; it fails t when no such command was sent.
func (h *Harness) LastParams(t testing.TB, command string) map[string]any {
	t.Helper()
	rec := h.editor.Received()
	for i := len(rec) - 1; i >= 0; i-- {
		if rec[i].Command == command {
			var m map[string]any
			if err := json.Unmarshal(rec[i].Params, &m); err != nil {
				t.Fatal(err)
			}
			return m
		}
	}
	t.Fatalf("%s was not sent (sent %v)", command, h.Commands())
	return nil
}

// Commands lists the names of the commands the fake editor received, in order.
func (h *Harness) Commands() []string {
	var out []string
	for _, c := range h.editor.Received() {
		out = append(out, c.Command)
	}
	return out
}

// AssertJSON fails t unless got and want hold the same JSON value (key order
// and spacing do not matter).
func AssertJSON(t testing.TB, got []byte, want string) {
	t.Helper()
	norm := func(b []byte) string {
		var v any
		if err := json.Unmarshal(b, &v); err != nil {
			t.Fatalf("not JSON: %s: %v", b, err)
		}
		out, _ := json.Marshal(v)
		return string(out)
	}
	if g, w := norm(got), norm([]byte(want)); g != w {
		t.Fatalf("got  %s\nwant %s", g, w)
	}
}
