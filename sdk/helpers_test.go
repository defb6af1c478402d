package sdk

import (
	"context"
	"encoding/json"
	"io/fs"
	"log/slog"
	"strings"
	"testing"
	"testing/fstest"
	"time"

	"github.com/godot-mcp/godot-mcp/internal/plugmodel"
)

func TestSubdirRootsTheDirectory(t *testing.T) {
	fsys := fstest.MapFS{"editor/handlers.gd": {Data: []byte("@tool\n")}, "editor/lib/a.gd": {Data: []byte("a")}}
	sub := Subdir(fsys, "editor")
	if b, err := fs.ReadFile(sub, "handlers.gd"); err != nil || string(b) != "@tool\n" {
		t.Fatalf("handlers.gd at the root: %q, %v", b, err)
	}
	if _, err := fs.Stat(sub, "lib/a.gd"); err != nil {
		t.Fatalf("lib/a.gd: %v", err)
	}
}

func TestSubdirPanicsOnABadDirectory(t *testing.T) {
	fsys := fstest.MapFS{"editor/handlers.gd": {Data: []byte("@tool\n")}}
	for _, dir := range []string{"editr", "editor/handlers.gd", "../editor", ""} {
		func() {
			defer func() {
				p := recover()
				if p == nil {
					t.Errorf("Subdir(%q) did not panic", dir)
					return
				}
				if !strings.Contains(p.(string), "sdk.Subdir(") {
					t.Errorf("Subdir(%q) panicked with %v, want a message naming sdk.Subdir", dir, p)
				}
			}()
			Subdir(fsys, dir)
		}()
	}
}

// answerHost answers every Send with answer (or err).
type answerHost struct {
	answer json.RawMessage
	err    error
}

func (h answerHost) Send(context.Context, string, any, time.Duration) (json.RawMessage, error) {
	return h.answer, h.err
}
func (answerHost) Progress(context.Context, float64, float64, string) {}
func (answerHost) Logger() *slog.Logger                               { return slog.New(slog.DiscardHandler) }

type listOut struct {
	Items      []string `json:"items"`
	Normalized int      `json:"-"`
}

func (o *listOut) Normalize() {
	o.Normalized++
	if o.Items == nil {
		o.Items = []string{}
	}
}

func TestSendNormalizesADecodedResult(t *testing.T) {
	out, err := Send[listOut](context.Background(), answerHost{answer: json.RawMessage(`{}`)}, "cmd_x_list", nil, 0)
	if err != nil {
		t.Fatal(err)
	}
	if out.Items == nil || out.Normalized != 1 {
		t.Fatalf("Normalize did not run once: items %#v, ran %d times", out.Items, out.Normalized)
	}
	b, _ := json.Marshal(out)
	if string(b) != `{"items":[]}` {
		t.Fatalf("result %s, want items as []", b)
	}
}

func TestSendDoesNotNormalizeAFailure(t *testing.T) {
	refused := Validation("no such node")
	out, err := Send[listOut](context.Background(), answerHost{err: refused}, "cmd_x_list", nil, 0)
	if AsError(err).Code != CodeValidationError || out.Normalized != 0 || out.Items != nil {
		t.Fatalf("editor refusal: out %#v, err %v; want the zero result and the refusal", out, err)
	}
	out, err = Send[listOut](context.Background(), answerHost{answer: json.RawMessage(`{"items":7}`)}, "cmd_x_list", nil, 0)
	if AsError(err).Code != CodeInternalError || !strings.Contains(err.Error(), "cmd_x_list") || out.Normalized != 0 || out.Items != nil {
		t.Fatalf("misshapen answer: out %#v, err %v; want the zero result and INTERNAL_ERROR naming the command", out, err)
	}
}

func TestParamsAreTheInputsJSONNames(t *testing.T) {
	type in struct {
		Node   string  `json:"node"`
		Scale  float64 `json:"scale,omitempty"`
		Big    int64   `json:"big"`
		Hidden string  `json:"-"`
	}
	p, err := Params(in{Node: "Player", Big: 1<<53 + 1, Hidden: "x"})
	if err != nil {
		t.Fatal(err)
	}
	if len(p) != 2 || p["node"] != "Player" {
		t.Fatalf("params %#v: want node and big only (scale omitted, Hidden not a JSON field)", p)
	}
	raw, err := encodeParams(p)
	if err != nil || string(raw) != `{"big":9007199254740993,"node":"Player"}` {
		t.Fatalf("sent %s (%v); want big exactly as given", raw, err)
	}
	p["dry_run"] = true // the map is the caller's to add to
	if empty, err := Params(nil); err != nil || empty == nil || len(empty) != 0 {
		t.Fatalf("Params(nil) = %#v, %v; want an empty map", empty, err)
	}
	if _, err := Params([]int{1}); AsError(err).Code != CodeInternalError {
		t.Fatalf("Params of a slice: %v; want INTERNAL_ERROR", err)
	}
}

// answerBackend answers every editor command with one answer.
type answerBackend struct {
	fakeBackend
	answer json.RawMessage
}

func (b *answerBackend) Send(context.Context, string, string, json.RawMessage, time.Duration) (json.RawMessage, error) {
	return b.answer, nil
}

// With GODOT_MCP_STRICT_ANSWERS=1 (the e2e suite) an editor answer that a
// tool passes on as its result (sdk.Send of its Out type) and that has a
// field Out lacks is refused, naming the command and the field; a Send of
// another type (reading a few fields) is not held to it, and without the
// setting the field is dropped as encoding/json drops it.
func TestSendStrictAnswersRefusesAnUndeclaredField(t *testing.T) {
	type partial struct {
		Items []string `json:"items"`
	}
	r, err := newRegistry(Toolset{Name: "strict", Tools: []Tool{
		NewTool("list", ToolOptions{Safety: ReadOnly}, func(ctx context.Context, call *Call, _ struct{}) (listOut, error) {
			return Send[listOut](ctx, call.Host, "cmd_strict_list", nil, 0)
		}),
		NewTool("peek", ToolOptions{Safety: ReadOnly}, func(ctx context.Context, call *Call, _ struct{}) (listOut, error) {
			p, err := Send[partial](ctx, call.Host, "cmd_strict_list", nil, 0)
			return listOut{Items: p.Items}, err
		}),
	}})
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	extra := &answerBackend{answer: json.RawMessage(`{"items":["a"],"extra":1}`)}
	run := func(tool string, b plugmodel.Host) plugmodel.CallResult {
		return r.call(ctx, plugmodel.CallRequest{Tool: tool, Arguments: json.RawMessage(`{}`), CallID: "c"}, b)
	}
	t.Setenv(StrictAnswersEnv, "")
	if res := run("list", extra); res.Err != nil || !strings.Contains(string(res.Structured), `"items":["a"]`) {
		t.Fatalf("lenient: %s, %v", res.Structured, res.Err)
	}
	t.Setenv(StrictAnswersEnv, "1")
	res := run("list", extra)
	if res.Err == nil || res.Err.Code != CodeInternalError || !strings.Contains(res.Err.Hint, `"extra"`) || !strings.Contains(res.Err.Hint, "cmd_strict_list") {
		t.Fatalf("strict: %s, %+v; want INTERNAL_ERROR naming the command and the field", res.Structured, res.Err)
	}
	if res := run("list", &answerBackend{answer: json.RawMessage(`{"items":["a"]}`)}); res.Err != nil {
		t.Fatalf("strict, every field declared: %+v", res.Err)
	}
	if res := run("peek", extra); res.Err != nil {
		t.Fatalf("strict, a partial read of another type: %+v", res.Err)
	}
}
