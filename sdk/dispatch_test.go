package sdk

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/godot-mcp/godot-mcp/internal/plugmodel"
)

// fakeBackend records what tools send to the host.
type fakeBackend struct {
	mu       sync.Mutex
	sent     []string
	params   []json.RawMessage
	progress []string
	logs     []string
	answer   func(command string, params json.RawMessage) (json.RawMessage, error)
}

func (b *fakeBackend) Send(_ context.Context, _, command string, params json.RawMessage, _ time.Duration) (json.RawMessage, error) {
	b.mu.Lock()
	b.sent = append(b.sent, command)
	b.params = append(b.params, params)
	b.mu.Unlock()
	if b.answer != nil {
		return b.answer(command, params)
	}
	return json.RawMessage(`{"ok":1}`), nil
}

func (b *fakeBackend) Progress(_ context.Context, token string, progress, total float64, message string) error {
	b.mu.Lock()
	defer b.mu.Unlock()
	b.progress = append(b.progress, fmt.Sprintf("%s %v/%v %s", token, progress, total, message))
	return nil
}

func (b *fakeBackend) Log(_ context.Context, level slog.Level, message string, attrs []slog.Attr) error {
	b.mu.Lock()
	defer b.mu.Unlock()
	var parts []string
	for _, a := range attrs {
		parts = append(parts, a.String())
	}
	b.logs = append(b.logs, fmt.Sprintf("%s %s %s", level, message, strings.Join(parts, " ")))
	return nil
}

type moveIn struct {
	Node   string   `json:"node" description:"Path of the node."`
	To     Vec2     `json:"to"`
	Mode   string   `json:"mode,omitempty" jsonschema:"enum=local|global,default=local"`
	Steps  int8     `json:"steps,omitempty" jsonschema:"minimum=1,maximum=100"`
	Tags   []string `json:"tags,omitempty"`
	Offset *Vec2    `json:"offset,omitempty"`
}

type moveOut struct {
	Moved  string `json:"moved"`
	Mode   string `json:"mode"`
	DryRun bool   `json:"dry_run"`
}

func testToolset(t *testing.T) *registry {
	t.Helper()
	move := func(ctx context.Context, call *Call, in moveIn) (moveOut, error) {
		if !call.DryRun {
			if _, err := call.Host.Send(ctx, "cmd_move", in, time.Second); err != nil {
				return moveOut{}, err
			}
		}
		return moveOut{Moved: in.Node, Mode: in.Mode, DryRun: call.DryRun}, nil
	}
	ts := Toolset{
		Name: "test", Version: "1.0.0", Description: "Test tools.", MinGodot: "4.3",
		Tools: []Tool{
			NewTool("move", ToolOptions{Title: "Move", Description: "Moves a node.", Safety: Mutating, Preconditions: []string{RequireActiveScene}}, move),
			NewTool("look", ToolOptions{Safety: ReadOnly}, func(ctx context.Context, call *Call, in struct{}) (map[string]int, error) {
				call.AddText("extra text")
				call.AddImage([]byte{0x89, 'P', 'N', 'G'}, "image/png")
				call.Host.Logger().Info("looked", "count", 3)
				call.Host.Progress(ctx, 1, 2, "half")
				return map[string]int{"n": 1}, nil
			}),
			NewTool("wipe", ToolOptions{Safety: Destructive}, func(ctx context.Context, call *Call, in struct{}) (moveOut, error) {
				return moveOut{DryRun: call.DryRun}, nil
			}),
			NewTool("boom", ToolOptions{Safety: ReadOnly}, func(ctx context.Context, call *Call, in struct{ Kind string }) (struct{}, error) {
				switch in.Kind {
				case "panic":
					panic("kaboom")
				case "error":
					return struct{}{}, errors.New("disk on fire")
				case "sdk":
					return struct{}{}, fmt.Errorf("wrapped: %w", NotFound("no node /root/X; list nodes with godot_scene_get_tree"))
				case "deadline":
					return struct{}{}, fmt.Errorf("waiting: %w", context.DeadlineExceeded)
				case "badcode":
					return struct{}{}, &Error{Code: "OOPS", Hint: "made up"}
				case "send":
					_, err := call.Host.Send(ctx, "cmd_fail", nil, 0)
					return struct{}{}, err
				case "params":
					_, err := call.Host.Send(ctx, "cmd_x", []int{1}, 0)
					return struct{}{}, err
				}
				return struct{}{}, nil
			}),
			NewTool("nilout", ToolOptions{Safety: ReadOnly}, func(context.Context, *Call, struct{}) (*moveOut, error) {
				return nil, nil
			}),
		},
	}
	r, err := newRegistry(ts)
	if err != nil {
		t.Fatal(err)
	}
	return r
}

// call calls a tool as the host does: the arguments are validated first
// (the host's one validation pass, with the engine the SDK generated the
// schema with), and only valid, default-filled arguments reach the toolset.
func call(t *testing.T, r *registry, b plugmodel.Host, req plugmodel.CallRequest) plugmodel.CallResult {
	t.Helper()
	if tool := r.tools[req.Tool]; tool != nil {
		req = liftFlags(req) // the host owns dry_run and confirm
		args, verr := validateArguments(tool.inSchema, req.Arguments)
		if verr != nil {
			return failure(verr)
		}
		req.Arguments = args
	}
	return r.call(context.Background(), req, b)
}

func TestValidationErrors(t *testing.T) {
	r := testToolset(t)
	cases := []struct {
		name string
		args string
		want []string // substrings of the hint
	}{
		{"missing required", `{"to":{"x":1,"y":2}}`, []string{"arguments.node: required field is missing (expected string: Path of the node.)"}},
		{"wrong type", `{"node":5,"to":{"x":1,"y":2}}`, []string{"arguments.node: expected string, got integer 5"}},
		{"nested", `{"node":"/a","to":{"x":"1"}}`, []string{"arguments.to.x: expected number, got string \"1\"", "arguments.to.y: required field is missing"}},
		{"enum", `{"node":"/a","to":{"x":1,"y":2},"mode":"sideways"}`, []string{`arguments.mode: "sideways" is not one of "local", "global"`}},
		{"unknown field", `{"node":"/a","to":{"x":1,"y":2},"speed":3}`, []string{"arguments.speed: unknown field (known fields: node, to, mode, steps, tags, offset)"}},
		{"array item", `{"node":"/a","to":{"x":1,"y":2},"tags":["a",2]}`, []string{"arguments.tags[1]: expected string, got integer 2"}},
		{"float for int", `{"node":"/a","to":{"x":1,"y":2},"steps":1.5}`, []string{"arguments.steps: expected integer, got number 1.5"}},
		{"below minimum", `{"node":"/a","to":{"x":1,"y":2},"steps":0}`, []string{"arguments.steps: 0 is below the minimum 1"}},
		{"overflow", `{"node":"/a","to":{"x":1,"y":2},"steps":1000}`, []string{"arguments.steps: 1000 is above the maximum 100"}},
		{"not an object", `[1,2]`, []string{"arguments: expected object, got array"}},
		{"not JSON", `{"node":`, []string{"arguments are not valid JSON"}},
		{"two values", `{} {}`, []string{"a single JSON object"}},
		{"null for required object", `{"node":"/a","to":null}`, []string{"arguments.to: expected object, got null null"}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			b := &fakeBackend{}
			res := call(t, r, b, plugmodel.CallRequest{Tool: "move", Arguments: json.RawMessage(tc.args)})
			e := res.Err
			if e == nil || e.Code != CodeValidationError {
				t.Fatalf("result = %+v, want VALIDATION_ERROR", res)
			}
			for _, w := range tc.want {
				if !strings.Contains(e.Hint, w) {
					t.Errorf("hint %q does not contain %q", e.Hint, w)
				}
			}
			if len(b.sent) != 0 {
				t.Errorf("the tool ran despite invalid arguments: sent %v", b.sent)
			}
		})
	}
}

func TestValidArgumentsReachTheTool(t *testing.T) {
	r := testToolset(t)
	cases := []struct {
		name     string
		args     string
		wantOut  string
		wantSent string
	}{
		{"default applied", `{"node":"/a","to":{"x":1,"y":2.5}}`, `{"moved":"/a","mode":"local","dry_run":false}`, `{"node":"/a","to":{"x":1,"y":2.5},"mode":"local"}`},
		{"explicit enum", `{"node":"/b","to":{"x":1,"y":2},"mode":"global","steps":3}`, `{"moved":"/b","mode":"global","dry_run":false}`, `{"node":"/b","to":{"x":1,"y":2},"mode":"global","steps":3}`},
		{"integral float for int", `{"node":"/c","to":{"x":1,"y":2},"steps":2.0}`, `{"moved":"/c","mode":"local","dry_run":false}`, `{"node":"/c","to":{"x":1,"y":2},"mode":"local","steps":2}`},
		{"null optional pointer", `{"node":"/d","to":{"x":1,"y":2},"offset":null,"tags":null}`, `{"moved":"/d","mode":"local","dry_run":false}`, `{"node":"/d","to":{"x":1,"y":2},"mode":"local"}`},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			b := &fakeBackend{}
			res := call(t, r, b, plugmodel.CallRequest{Tool: "move", Arguments: json.RawMessage(tc.args)})
			if res.Err != nil {
				t.Fatalf("unexpected error %v", res.Err)
			}
			if string(res.Structured) != tc.wantOut {
				t.Errorf("structured = %s, want %s", res.Structured, tc.wantOut)
			}
			if len(b.params) != 1 || string(b.params[0]) != tc.wantSent {
				t.Errorf("sent params = %s, want %s", b.params, tc.wantSent)
			}
		})
	}
}

func TestToolFailures(t *testing.T) {
	r := testToolset(t)
	b := &fakeBackend{answer: func(command string, _ json.RawMessage) (json.RawMessage, error) {
		return nil, &Error{Code: CodePreconditionFailed, Hint: "open a scene first", Required: RequireActiveScene}
	}}
	cases := []struct {
		kind         string
		wantCode     ErrorCode
		wantRequired string
		wantHint     string
	}{
		{"panic", CodeInternalError, "", `tool "boom" of toolset "test" panicked: kaboom`},
		{"error", CodeInternalError, "", "disk on fire"},
		{"sdk", CodeResourceNotFound, "", "no node /root/X"},
		{"deadline", CodeTimeout, "", "deadline exceeded"},
		{"badcode", CodeInternalError, "", `unknown error code "OOPS"`},
		{"send", CodePreconditionFailed, RequireActiveScene, "open a scene first"},
		{"params", CodeInternalError, "", "params must encode to a JSON object"},
	}
	for _, tc := range cases {
		t.Run(tc.kind, func(t *testing.T) {
			res := call(t, r, b, plugmodel.CallRequest{Tool: "boom", Arguments: json.RawMessage(`{"Kind":"` + tc.kind + `"}`)})
			e := res.Err
			if e == nil {
				t.Fatalf("no error, result %s", res.Structured)
			}
			if e.Code != tc.wantCode || e.Required != tc.wantRequired || !strings.Contains(e.Hint, tc.wantHint) {
				t.Errorf("error = %+v, want code %s required %q hint containing %q", e, tc.wantCode, tc.wantRequired, tc.wantHint)
			}
			if res.Structured != nil {
				t.Errorf("a failed call carries a result: %s", res.Structured)
			}
		})
	}
	// The toolset still serves after a panic.
	if res := call(t, r, b, plugmodel.CallRequest{Tool: "boom", Arguments: json.RawMessage(`{"Kind":"fine"}`)}); res.Err != nil {
		t.Fatalf("after a panic: %v", res.Err)
	}
	if !strings.Contains(strings.Join(b.logs, "\n"), "tool panicked") {
		t.Errorf("the panic was not logged through the host: %q", b.logs)
	}
}

func TestSafetyRefusals(t *testing.T) {
	r := testToolset(t)
	cases := []struct {
		name         string
		req          plugmodel.CallRequest
		wantCode     ErrorCode
		wantRequired string
		wantOut      string
	}{
		{"dry run of a read-only tool", plugmodel.CallRequest{Tool: "look", DryRun: true}, CodeValidationError, "", ""},
		{"destructive without confirm", plugmodel.CallRequest{Tool: "wipe"}, CodePreconditionFailed, RequireConfirm, ""},
		{"destructive dry run", plugmodel.CallRequest{Tool: "wipe", DryRun: true}, "", "", `{"moved":"","mode":"","dry_run":true}`},
		{"destructive confirmed", plugmodel.CallRequest{Tool: "wipe", Confirm: true}, "", "", `{"moved":"","mode":"","dry_run":false}`},
		{"mutating dry run", plugmodel.CallRequest{Tool: "move", DryRun: true, Arguments: json.RawMessage(`{"node":"/a","to":{"x":0,"y":0}}`)}, "", "", `{"moved":"/a","mode":"local","dry_run":true}`},
		{"unknown tool", plugmodel.CallRequest{Tool: "nope"}, CodeResourceNotFound, "", ""},
		{"nil result", plugmodel.CallRequest{Tool: "nilout"}, CodeInternalError, "", ""},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			b := &fakeBackend{}
			res := call(t, r, b, tc.req)
			e := res.Err
			switch {
			case tc.wantCode == "" && e != nil:
				t.Fatalf("unexpected error %v", e)
			case tc.wantCode != "" && (e == nil || e.Code != tc.wantCode || e.Required != tc.wantRequired):
				t.Fatalf("error = %v, want %s (required %q)", e, tc.wantCode, tc.wantRequired)
			case tc.wantOut != "" && string(res.Structured) != tc.wantOut:
				t.Fatalf("structured = %s, want %s", res.Structured, tc.wantOut)
			}
			if tc.req.DryRun && len(b.sent) != 0 {
				t.Errorf("a dry run sent %v to the editor", b.sent)
			}
		})
	}
}

func TestContentProgressAndLogs(t *testing.T) {
	r := testToolset(t)
	b := &fakeBackend{}
	res := call(t, r, b, plugmodel.CallRequest{Tool: "look", ProgressToken: "tok"})
	if res.Err != nil {
		t.Fatal(res.Err)
	}
	if string(res.Structured) != `{"n":1}` {
		t.Errorf("structured = %s", res.Structured)
	}
	if len(res.Content) != 2 || res.Content[0].Text != "extra text" || res.Content[1].Type != "image" || res.Content[1].MimeType != "image/png" || string(res.Content[1].Data) != "\x89PNG" {
		t.Errorf("content = %+v", res.Content)
	}
	if len(b.progress) != 1 || b.progress[0] != "tok 1/2 half" {
		t.Errorf("progress = %q", b.progress)
	}
	if len(b.logs) != 1 || b.logs[0] != "INFO looked toolset=test tool=look count=3" {
		t.Errorf("logs = %q", b.logs)
	}
	// Without a progress token, Progress is a no-op.
	b2 := &fakeBackend{}
	call(t, r, b2, plugmodel.CallRequest{Tool: "look"})
	if len(b2.progress) != 0 {
		t.Errorf("progress without a token: %q", b2.progress)
	}
}

func TestDescribe(t *testing.T) {
	d := testToolset(t).describe()
	if d.Name != "test" || d.Version != "1.0.0" || d.MinGodot != "4.3" || len(d.Tools) != 5 {
		t.Fatalf("describe = %+v", d)
	}
	flags := map[string]string{}
	for _, tool := range d.Tools {
		flags[tool.Name] = fmt.Sprintf("%s dry_run=%v confirm=%v pre=%v", tool.Safety, tool.DryRun, tool.Confirm, tool.Preconditions)
		if !json.Valid(tool.InputSchema) || !json.Valid(tool.OutputSchema) {
			t.Errorf("%s: invalid schema JSON", tool.Name)
		}
	}
	want := map[string]string{
		"move":   "mutating dry_run=true confirm=false pre=[active_scene]",
		"look":   "read_only dry_run=false confirm=false pre=[]",
		"wipe":   "destructive dry_run=true confirm=true pre=[]",
		"boom":   "read_only dry_run=false confirm=false pre=[]",
		"nilout": "read_only dry_run=false confirm=false pre=[]",
	}
	for k, v := range want {
		if flags[k] != v {
			t.Errorf("%s: %s, want %s", k, flags[k], v)
		}
	}
}

func TestRegistryRejectsBadToolsets(t *testing.T) {
	tool := NewTool("a", ToolOptions{Safety: ReadOnly}, func(context.Context, *Call, struct{}) (struct{}, error) { return struct{}{}, nil })
	cases := []struct {
		name string
		ts   Toolset
		want string
	}{
		{"bad name", Toolset{Name: "My Tools", Tools: []Tool{tool}}, "toolset name"},
		{"no tools", Toolset{Name: "x"}, "has no tools"},
		{"duplicate", Toolset{Name: "x", Tools: []Tool{tool, tool}}, `two tools are named "a"`},
		{"nil tool", Toolset{Name: "x", Tools: []Tool{nil}}, "Tools[0] is nil"},
		{"bad min_godot", Toolset{Name: "x", MinGodot: "four", Tools: []Tool{tool}}, "MinGodot"},
		{"empty keyword", Toolset{Name: "x", Keywords: []string{" "}, Tools: []Tool{tool}}, "keyword"},
		{"two-line keyword", Toolset{Name: "x", Keywords: []string{"a\nb"}, Tools: []Tool{tool}}, "one line"},
		{"too many keywords", Toolset{Name: "x", Keywords: strings.Split("a,b,c,d,e,f,g,h,i,j,k,l,m", ","), Tools: []Tool{tool}}, "at most 12"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			if _, err := newRegistry(tc.ts); err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Fatalf("err = %v, want %q", err, tc.want)
			}
		})
	}
}

func TestErrorConstructors(t *testing.T) {
	cases := []struct {
		err  *Error
		code ErrorCode
		text string
	}{
		{PreconditionFailed(RequireActiveScene, "open a scene"), CodePreconditionFailed, "PRECONDITION_FAILED (required: active_scene): open a scene"},
		{NotFound("no such node"), CodeResourceNotFound, "RESOURCE_NOT_FOUND: no such node"},
		{Validation("bad"), CodeValidationError, "VALIDATION_ERROR: bad"},
		{Internal("oops"), CodeInternalError, "INTERNAL_ERROR: oops"},
		{Timeout("slow"), CodeTimeout, "TIMEOUT: slow"},
		{ApprovalDenied("no"), CodeApprovalDenied, "APPROVAL_DENIED: no"},
		{BridgeDisconnected("no editor"), CodeBridgeDisconnected, "BRIDGE_DISCONNECTED: no editor"},
		{Errorf(CodeTimeout, "after %d s", 3), CodeTimeout, "TIMEOUT: after 3 s"},
	}
	for _, tc := range cases {
		if tc.err.Code != tc.code || tc.err.Error() != tc.text {
			t.Errorf("%+v: code %s text %q, want %s %q", tc.err, tc.err.Code, tc.err.Error(), tc.code, tc.text)
		}
	}
	if AsError(nil) != nil {
		t.Error("AsError(nil) != nil")
	}
}

func TestSendHelperDecodes(t *testing.T) {
	b := &fakeBackend{answer: func(string, json.RawMessage) (json.RawMessage, error) {
		return json.RawMessage(`{"name":"Player","count":2}`), nil
	}}
	h := newCallHostForCall(b, "", "", "t", "x")
	type answer struct {
		Name  string `json:"name"`
		Count int    `json:"count"`
	}
	got, err := Send[answer](context.Background(), h, "cmd_info", map[string]string{"a": "<&>"}, 0)
	if err != nil || got.Name != "Player" || got.Count != 2 {
		t.Fatalf("Send = %+v, %v", got, err)
	}
	if string(b.params[0]) != `{"a":"<&>"}` {
		t.Errorf("params = %s (HTML must not be escaped)", b.params[0])
	}
	_, err = Send[[]int](context.Background(), h, "cmd_info", json.RawMessage(` {"raw":true} `), 0)
	var e *Error
	if !errors.As(err, &e) || e.Code != CodeInternalError || !strings.Contains(e.Hint, "expected shape") {
		t.Fatalf("decode mismatch: %v", err)
	}
	if string(b.params[1]) != `{"raw":true}` {
		t.Errorf("raw params = %s", b.params[1])
	}
}

func TestHugeIntegralNumbersAreRefusedCheaply(t *testing.T) {
	r := testToolset(t)
	start := time.Now()
	res := r.call(context.Background(), plugmodel.CallRequest{Tool: "move", Arguments: json.RawMessage(`{"node":"/a","to":{"x":1,"y":2},"steps":1e999999999}`)}, &fakeBackend{})
	if e := res.Err; e == nil || e.Code != CodeValidationError {
		t.Fatalf("result %+v", res)
	}
	if d := time.Since(start); d > time.Second {
		t.Errorf("took %s", d)
	}
}

// A DestructiveWhen condition makes a call need confirm, in the SDK as in the
// host, and is declared in the description.
func TestDestructiveWhen(t *testing.T) {
	type SaveIn struct {
		Overwrite bool `json:"overwrite,omitempty"`
		Count     int  `json:"count,omitempty"`
	}
	type SaveOut struct {
		Saved bool `json:"saved"`
	}
	tool := NewTool("save", ToolOptions{Safety: Mutating, DestructiveWhen: []string{"overwrite", "count>1"}, RunsCode: true},
		func(_ context.Context, _ *Call, _ SaveIn) (SaveOut, error) { return SaveOut{Saved: true}, nil })
	r, err := newRegistry(Toolset{Name: "t", Version: "1", Tools: []Tool{tool}})
	if err != nil {
		t.Fatal(err)
	}
	d := r.describe().Tools[0]
	if len(d.DestructiveWhen) != 2 || !d.RunsCode {
		t.Fatalf("described as %+v", d)
	}
	for _, tc := range []struct {
		args    string
		confirm bool
		refused bool
	}{
		{`{"overwrite":true}`, false, true},
		{`{"count":2}`, false, true},
		{`{"overwrite":true}`, true, false},
		{`{"count":1}`, false, false},
		{`{}`, false, false},
	} {
		res := call(t, r, &fakeBackend{}, plugmodel.CallRequest{Tool: "save", Arguments: json.RawMessage(tc.args), Confirm: tc.confirm})
		e := res.Err
		if refused := e != nil && e.Required == RequireConfirm; refused != tc.refused {
			t.Errorf("%s confirm=%v: %v", tc.args, tc.confirm, e)
		}
	}
	for _, bad := range []ToolOptions{{Safety: Mutating, DestructiveWhen: []string{"count>=1"}}, {Safety: ReadOnly, DestructiveWhen: []string{"overwrite"}}} {
		func() {
			defer func() {
				if recover() == nil {
					t.Errorf("NewTool accepted %+v", bad)
				}
			}()
			NewTool("x", bad, func(_ context.Context, _ *Call, _ SaveIn) (SaveOut, error) { return SaveOut{}, nil })
		}()
	}
}

// A typed nil map (what a `var params map[string]any` is) or nil pointer
// sends the empty object, as an untyped nil does, not null.
func TestSendNilParamsSendsEmptyObject(t *testing.T) {
	for name, params := range map[string]any{
		"nil":         nil,
		"nil map":     map[string]any(nil),
		"nil pointer": (*moveIn)(nil),
		"empty map":   map[string]any{},
	} {
		t.Run(name, func(t *testing.T) {
			r, err := newRegistry(Toolset{Name: "test", Version: "1.0.0", Description: "Test tools.", Tools: []Tool{
				NewTool("ping", ToolOptions{Safety: ReadOnly}, func(ctx context.Context, call *Call, _ struct{}) (struct{}, error) {
					_, err := call.Host.Send(ctx, "cmd_ping", params, 0)
					return struct{}{}, err
				}),
			}})
			if err != nil {
				t.Fatal(err)
			}
			b := &fakeBackend{}
			res := call(t, r, b, plugmodel.CallRequest{Tool: "ping", Arguments: json.RawMessage(`{}`)})
			if e := res.Err; e != nil {
				t.Fatal(e)
			}
			if len(b.params) != 1 || string(b.params[0]) != "{}" {
				t.Fatalf("sent params %q, want {}", b.params)
			}
		})
	}
}

// A tool that decides per call whether it destroys declares MayDestroy: its
// schema takes confirm, and confirm (like dry_run) reaches it as a flag
// whether it came as a flag or, as the host forwards nothing else, an argument.
func TestMayDestroyTakesConfirm(t *testing.T) {
	type in struct {
		Steps []string `json:"steps"`
	}
	var got []bool
	tool := NewTool("batch", ToolOptions{Safety: Mutating, MayDestroy: true}, func(_ context.Context, call *Call, in in) (struct{}, error) {
		got = append(got, call.Confirm, call.DryRun)
		return struct{}{}, nil
	})
	if !strings.Contains(string(tool.def().inSchemaJSON), `"confirm":{"type":"boolean"`) {
		t.Fatalf("input schema %s has no confirm", tool.def().inSchemaJSON)
	}
	r, err := newRegistry(Toolset{Name: "test", Version: "1.0.0", Description: "Test tools.", Tools: []Tool{tool}})
	if err != nil {
		t.Fatal(err)
	}
	for _, req := range []plugmodel.CallRequest{
		{Tool: "batch", Arguments: json.RawMessage(`{"steps":[],"confirm":true,"dry_run":true}`)},
		{Tool: "batch", Arguments: json.RawMessage(`{"steps":[]}`), Confirm: true, DryRun: true},
	} {
		got = nil
		if e := call(t, r, &fakeBackend{}, req).Err; e != nil {
			t.Fatalf("%s: %v", req.Arguments, e)
		}
		if len(got) != 2 || !got[0] || !got[1] {
			t.Errorf("%s: Call.Confirm, Call.DryRun = %v, want true, true", req.Arguments, got)
		}
	}
}
