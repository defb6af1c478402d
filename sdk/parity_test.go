package sdk_test

import (
	"context"
	"encoding/json"
	"errors"
	"log/slog"
	"os/exec"
	"path/filepath"
	"reflect"
	"sync"
	"testing"
	"time"

	hclog "github.com/hashicorp/go-hclog"
	plugin "github.com/hashicorp/go-plugin"

	"github.com/godot-mcp/godot-mcp/host/envelope"
	"github.com/godot-mcp/godot-mcp/host/pluginhost"
	"github.com/godot-mcp/godot-mcp/internal/pluginproto"
	"github.com/godot-mcp/godot-mcp/internal/pluginrpc"
	"github.com/godot-mcp/godot-mcp/internal/plugmodel"
	"github.com/godot-mcp/godot-mcp/internal/testing/paritytoolset"
	"github.com/godot-mcp/godot-mcp/sdk/contract"
	"github.com/godot-mcp/godot-mcp/sdk/internal/sdkhook"
)

// buildParity builds the fixture's plugin executable.
func buildParity(t *testing.T) string {
	t.Helper()
	bin := filepath.Join(t.TempDir(), paritytoolset.Name)
	out, err := exec.Command("go", "build", "-o", bin, "github.com/godot-mcp/godot-mcp/internal/testing/paritytoolset/cmd/paritytoolset").CombinedOutput()
	if err != nil {
		t.Fatalf("building the fixture: %v\n%s", err, out)
	}
	return bin
}

// dialPlugin starts bin as a go-plugin plugin and dispenses its toolset:
// the host's gRPC client, with nothing of host/pluginhost around it.
func dialPlugin(t *testing.T, bin string) plugmodel.Toolset {
	t.Helper()
	client := plugin.NewClient(&plugin.ClientConfig{
		HandshakeConfig:  pluginproto.Handshake,
		Plugins:          plugin.PluginSet{pluginproto.PluginName: &pluginrpc.Plugin{}},
		Cmd:              exec.Command(bin),
		AllowedProtocols: []plugin.Protocol{plugin.ProtocolGRPC},
		GRPCDialOptions:  pluginproto.DialOptions(),
		Logger:           hclog.NewNullLogger(),
	})
	t.Cleanup(client.Kill)
	rpc, err := client.Client()
	if err != nil {
		t.Fatal(err)
	}
	raw, err := rpc.Dispense(pluginproto.PluginName)
	if err != nil {
		t.Fatal(err)
	}
	ts, ok := raw.(plugmodel.Toolset)
	if !ok {
		t.Fatalf("dispensed %T, not a plugmodel.Toolset", raw)
	}
	return ts
}

// recHost is a plugmodel.Host that answers every command with its params
// and records what was sent, with the call id.
type recHost struct {
	mu   sync.Mutex
	sent []string
}

func (h *recHost) Send(_ context.Context, callID, command string, params json.RawMessage, _ time.Duration) (json.RawMessage, error) {
	h.mu.Lock()
	h.sent = append(h.sent, callID+" "+command+" "+string(params))
	h.mu.Unlock()
	if command != "cmd_parity_echo" {
		return nil, contract.Errorf(contract.ValidationError, "unknown command %s", command)
	}
	return json.RawMessage(`{"got":` + string(params) + `}`), nil
}

func (h *recHost) Progress(context.Context, string, float64, float64, string) error { return nil }

func (h *recHost) Log(context.Context, slog.Level, string, []slog.Attr) error { return nil }

// answers runs the same requests against ts and lists what it answered.
func answers(t *testing.T, ts plugmodel.Toolset, host *recHost) []any {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	if err := ts.Setup(ctx, plugmodel.HostConfig{Host: host, HostVersion: "test", ContractVersion: 1}); err != nil {
		t.Fatal(err)
	}
	info, err := ts.Describe(ctx)
	if err != nil {
		t.Fatal(err)
	}
	info.SDKVersion = "" // the build's stamp: a test binary has none
	out := []any{info}
	for _, req := range []plugmodel.CallRequest{
		{Tool: "echo", Arguments: json.RawMessage(`{"text":"hi","count":2}`), CallID: "c1", ProgressToken: "p"},
		{Tool: "echo", Arguments: json.RawMessage(`{"text":1}`), CallID: "c2"},             // validation error
		{Tool: "echo", Arguments: json.RawMessage(`{"count":"x","more":1}`), CallID: "c3"}, // several bad fields
		{Tool: "echo", Arguments: json.RawMessage(`[1]`), CallID: "c4"},
		{Tool: "move", DryRun: true, CallID: "c5"},
		{Tool: "echo", DryRun: true, Arguments: json.RawMessage(`{"text":"x"}`), CallID: "c6"}, // no preview
		{Tool: "fail", CallID: "c7"},
		{Tool: "nope", CallID: "c8"},
	} {
		res, err := ts.Call(ctx, req)
		if err != nil {
			t.Fatalf("call %s: %v", req.CallID, err)
		}
		out = append(out, res)
	}
	for _, req := range []plugmodel.ResourceRequest{
		{URI: "parity://info", CallID: "r1"},
		{URI: "parity://item/7", Template: "parity://item/{id}", Params: map[string]string{"id": "7"}, CallID: "r2"},
		{URI: "parity://nope", CallID: "r3"},
	} {
		res, err := ts.ReadResource(ctx, req)
		if err != nil {
			t.Fatalf("read %s: %v", req.URI, err)
		}
		out = append(out, res)
	}
	for _, req := range []plugmodel.PromptRequest{
		{Name: "hello", Arguments: map[string]string{"who": "Ada"}, CallID: "p1"},
		{Name: "hello", CallID: "p2"}, // missing argument
		{Name: "nope", CallID: "p3"},
	} {
		res, err := ts.GetPrompt(ctx, req)
		if err != nil {
			t.Fatalf("prompt %s: %v", req.Name, err)
		}
		out = append(out, res)
	}
	host.mu.Lock()
	defer host.mu.Unlock()
	return append(out, host.sent)
}

// The SDK's in-process registry and the host's gRPC client of the same
// toolset in a plugin process are one interface (plugmodel.Toolset) and
// answer alike: the description, results with content, validation and
// tool errors, resources, templates, prompts, and the editor commands sent
// back with their call ids.
func TestInProcessAndPluginAnswerAlike(t *testing.T) {
	bin := buildParity(t)
	inproc, err := sdkhook.NewToolset(paritytoolset.Toolset())
	if err != nil {
		t.Fatal(err)
	}
	want := answers(t, inproc, &recHost{})
	got := answers(t, dialPlugin(t, bin), &recHost{})
	if len(got) != len(want) {
		t.Fatalf("%d answers in-process, %d over gRPC", len(want), len(got))
	}
	for i := range want {
		if !reflect.DeepEqual(got[i], want[i]) {
			t.Errorf("answer %d differs:\n  in-process %+v\n  over gRPC  %+v", i, want[i], got[i])
		}
	}
	// The answers are what they should be, not merely alike.
	if r := want[1].(plugmodel.CallResult); r.Err != nil || string(r.Structured) != `{"editor":{"got":{"text":"hi","count":2}},"count":2}` || len(r.Content) != 2 {
		t.Errorf("echo = %+v", r)
	}
	if r := want[2].(plugmodel.CallResult); r.Err == nil || r.Err.Code != contract.ValidationError {
		t.Errorf("bad echo = %+v", r)
	}
	if sent := want[len(want)-1].([]string); len(sent) != 2 || sent[0] != `c1 cmd_parity_echo {"text":"hi","count":2}` || sent[1] != `r1 cmd_parity_echo {"uri":"parity://info"}` {
		t.Errorf("sent = %q", sent)
	}
}

// hostServices is a pluginhost.HostServices declaring the fixture's command.
type hostServices struct{}

func (hostServices) Send(_ context.Context, command string, params json.RawMessage, _ time.Duration) envelope.Response {
	return envelope.Response{ID: "1", OK: true, Result: json.RawMessage(`{"got":` + string(params) + `}`)}
}

func (hostServices) EditorCommand(command string) (envelope.CommandInfo, bool, *contract.Error) {
	if command == "cmd_parity_echo" {
		return envelope.CommandInfo{Class: "read_only", Owner: paritytoolset.Name}, true, nil
	}
	return envelope.CommandInfo{}, false, nil
}

func (hostServices) Progress(context.Context, string, float64, float64, string) {}

// The host serves an in-process toolset (pluginhost.Open) as it serves the
// same toolset's plugin process (pluginhost.Launch): same description, same
// answers through the same checks and gate.
func TestHostOpensInProcessToolsetsLikePlugins(t *testing.T) {
	bin := buildParity(t)
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	spec := pluginhost.Spec{Name: paritytoolset.Name, Path: bin}
	launched, err := pluginhost.Launch(ctx, spec, hostServices{}, nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = launched.Stop(context.Background()) })
	inproc, err := sdkhook.NewToolset(paritytoolset.Toolset())
	if err != nil {
		t.Fatal(err)
	}
	opened, err := pluginhost.Open(ctx, spec, inproc, hostServices{}, nil)
	if err != nil {
		t.Fatal(err)
	}
	a, b := launched.Info(), opened.Info()
	a.SDKVersion, b.SDKVersion = "", ""
	if !reflect.DeepEqual(a, b) {
		t.Errorf("descriptions differ:\n%+v\n%+v", a, b)
	}
	for _, req := range []plugmodel.CallRequest{
		{Tool: "echo", Arguments: json.RawMessage(`{"text":"hi"}`)},
		{Tool: "echo", Arguments: json.RawMessage(`{"text":1}`)},
	} {
		x, xerr := launched.Call(ctx, req)
		y, yerr := opened.Call(ctx, req)
		if !reflect.DeepEqual(x, y) || xerr != nil || yerr != nil {
			t.Errorf("%s: launched %+v (%v), opened %+v (%v)", req.Arguments, x, xerr, y, yerr)
		}
	}
	if res, err := opened.Call(ctx, plugmodel.CallRequest{Tool: "echo", Arguments: json.RawMessage(`{"text":"hi"}`)}); res.Err != nil || err != nil {
		t.Errorf("in-process echo through the host: %+v, %v", res.Err, err)
	}
	_ = opened.Stop(ctx)
	if !opened.Exited() {
		t.Error("a stopped in-process toolset is not exited")
	}
	var fail *pluginhost.Failure
	if res, err := opened.Call(ctx, plugmodel.CallRequest{Tool: "echo"}); !errors.As(err, &fail) || fail.Kind != pluginhost.NotRunning {
		t.Errorf("call after stop: %+v, %v", res, err)
	}
}
