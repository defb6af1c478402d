// Package sdktest runs a toolset in-process for unit tests, without a host:
// its tools talk through a real bridge to a fake editor addon that the test
// scripts.
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
// Calls go through the same dispatcher as in a real plugin (argument
// validation, error mapping, panic recovery, the dry_run and confirm
// refusals), but not through gRPC and not through the host's own checks
// (declared preconditions, approval). The editor commands a call sends are
// held to the host's rules (host/safety's gate): a command must belong to
// the toolset (cmd_<toolset>_*) or be a public core command, be declared
// by the editor, and fit the tool's class; during a dry run, dry_run: true
// is set on commands that take it. The fake editor declares the real
// addon's commands; declare the toolset's own with Declare.
package sdktest

import (
	"context"
	"encoding/json"
	"fmt"
	"log/slog"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/godot-mcp/godot-mcp/host/bridge"
	"github.com/godot-mcp/godot-mcp/host/envelope"
	"github.com/godot-mcp/godot-mcp/host/fakeaddon"
	"github.com/godot-mcp/godot-mcp/host/safety"
	"github.com/godot-mcp/godot-mcp/internal/plugmodel"
	"github.com/godot-mcp/godot-mcp/sdk"
	"github.com/godot-mcp/godot-mcp/sdk/internal/sdkhook"
)

// Harness is one toolset running in-process against a fake editor.
type Harness struct {
	t      testing.TB
	ts     plugmodel.Toolset // the SDK's in-process registry
	info   plugmodel.ToolsetInfo
	bridge *bridge.Bridge
	addon  *fakeaddon.Addon
	gate   *safety.Gate
	class  map[string]safety.Class // tool -> class

	mu       sync.Mutex
	logs     []LogRecord
	progress []ProgressEvent
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

// ToolInfo is a tool's declared metadata, as the host sees it.
type ToolInfo struct {
	Name, Title, Description  string
	InputSchema, OutputSchema json.RawMessage
	Safety                    sdk.Safety
	DryRun, Confirm           bool
	Preconditions             []string
	DestructiveWhen           []string
	RunsCode                  bool
}

// Content is one extra content item of a result (Call.AddText,
// Call.AddImage, Call.AddContent): Type "text", "image", "audio" or
// "resource", Text, Data, MimeType, and URI (the embedded resource's). It
// is the host's content item, as the host receives it.
type Content = plugmodel.Content

// Result is a tool call's outcome: Structured and Content, or Err.
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
type CallOption struct{ apply func(*plugmodel.CallRequest) }

// DryRun asks for a preview (dry_run: true).
func DryRun() CallOption { return CallOption{func(r *plugmodel.CallRequest) { r.DryRun = true }} }

// Confirm confirms a destructive call (confirm: true).
func Confirm() CallOption { return CallOption{func(r *plugmodel.CallRequest) { r.Confirm = true }} }

// ProgressToken makes Host.Progress report under token (see Harness.Progress).
func ProgressToken(token string) CallOption {
	return CallOption{func(r *plugmodel.CallRequest) { r.ProgressToken = token }}
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

// Start validates ts, starts a bridge on a loopback port and connects a fake
// addon to it. Everything is stopped by t.Cleanup. An invalid toolset fails
// the test.
func Start(t testing.TB, ts sdk.Toolset, opts ...StartOption) *Harness {
	t.Helper()
	reg, err := sdkhook.NewToolset(ts)
	if err != nil {
		t.Fatalf("sdktest: invalid toolset: %v", err)
	}
	info, _ := reg.Describe(context.Background())
	cfg := startConfig{commands: map[string]envelope.CommandInfo{}}
	for _, o := range opts {
		if o.apply != nil {
			o.apply(&cfg)
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
		t.Fatalf("sdktest: connect the fake addon: %v", err)
	}
	t.Cleanup(func() { _ = a.Close() })
	if err := b.WaitConnected(ctx); err != nil {
		t.Fatalf("sdktest: the fake addon did not connect: %v", err)
	}
	h := &Harness{t: t, ts: reg, info: info, bridge: b, addon: a, gate: safety.NewGate(ts.Name, nil), class: map[string]safety.Class{}}
	if err := reg.Setup(ctx, plugmodel.HostConfig{Host: (*backend)(h), HostVersion: "sdktest"}); err != nil {
		t.Fatalf("sdktest: setup: %v", err)
	}
	for _, tool := range info.Tools {
		h.class[tool.Name] = safety.Class(tool.Safety)
	}
	return h
}

// Addon is the fake editor addon: script its answers with Handle,
// HandleResult, HandleError or Silence, and inspect Received.
func (h *Harness) Addon() *fakeaddon.Addon { return h.addon }

// Tools lists the toolset's tools with their generated schemas.
func (h *Harness) Tools() []ToolInfo {
	var out []ToolInfo
	for _, t := range h.info.Tools {
		out = append(out, ToolInfo{
			Name: t.Name, Title: t.Title, Description: t.Description,
			InputSchema: t.InputSchema, OutputSchema: t.OutputSchema,
			Safety: sdk.Safety(t.Safety), DryRun: t.DryRun, Confirm: t.Confirm,
			Preconditions: t.Preconditions, DestructiveWhen: t.DestructiveWhen, RunsCode: t.RunsCode,
		})
	}
	return out
}

// Call calls tool with args: any value that marshals to a JSON object, a
// json.RawMessage or a string holding the JSON text (to test malformed
// arguments), or nil for {}. A tool failure is Result.Err; the error return
// is for a harness failure such as args that do not marshal.
func (h *Harness) Call(ctx context.Context, tool string, args any, opts ...CallOption) (*Result, error) {
	raw, err := marshalArgs(args)
	if err != nil {
		return nil, fmt.Errorf("sdktest: arguments of %s: %w", tool, err)
	}
	req := plugmodel.CallRequest{Tool: tool, Arguments: raw}
	for _, o := range opts {
		if o.apply != nil {
			o.apply(&req)
		}
	}
	callID, end := h.gate.Begin("", safety.SendCall{Tool: tool, Class: h.class[tool], DryRun: req.DryRun, Confirm: req.Confirm})
	req.CallID = callID
	res, err := h.ts.Call(ctx, req)
	if err != nil {
		return nil, fmt.Errorf("sdktest: %s: %w", tool, err)
	}
	if refusal := end(); refusal != nil {
		res = plugmodel.CallResult{Err: refusal}
	}
	out := &Result{Structured: res.Structured, Err: res.Err}
	out.Content = res.Content
	return out, nil
}

func marshalArgs(args any) (json.RawMessage, error) {
	switch a := args.(type) {
	case nil:
		return json.RawMessage("{}"), nil
	case json.RawMessage:
		return a, nil
	case string:
		return json.RawMessage(a), nil
	}
	return json.Marshal(args)
}

// Logs returns what the tools logged through Host.Logger, in order.
func (h *Harness) Logs() []LogRecord {
	h.mu.Lock()
	defer h.mu.Unlock()
	return append([]LogRecord(nil), h.logs...)
}

// Progress returns the progress notifications sent, in order.
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
	b.mu.Lock()
	defer b.mu.Unlock()
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

// MustCall is Call with a 20 s deadline; a transport failure (not a tool
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

// Commands lists the names of the commands the fake addon received, in order.
func (h *Harness) Commands() []string {
	var out []string
	for _, c := range h.addon.Received() {
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
