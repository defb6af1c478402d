package pluginhost

import (
	"context"
	"encoding/json"
	"log/slog"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/godot-mcp/godot-mcp/host/safety"
	"github.com/godot-mcp/godot-mcp/internal/logcap"
	"github.com/godot-mcp/godot-mcp/internal/plugmodel"
	"github.com/godot-mcp/godot-mcp/sdk/contract"
)

const objSchema = `{"type":"object","properties":{}}`

func modelTool(mod func(*plugmodel.ToolInfo)) plugmodel.ToolInfo {
	t := plugmodel.ToolInfo{Name: "t", InputSchema: json.RawMessage(objSchema), OutputSchema: json.RawMessage(objSchema), ToolMeta: contract.ToolMeta{Safety: "read_only"}}
	if mod != nil {
		mod(&t)
	}
	return t
}

func desc(mod func(*plugmodel.ToolsetInfo)) plugmodel.ToolsetInfo {
	d := plugmodel.ToolsetInfo{Name: "s", Tools: []plugmodel.ToolInfo{modelTool(nil)}}
	if mod != nil {
		mod(&d)
	}
	return d
}

func TestCheckInfo(t *testing.T) {
	good := []plugmodel.ToolsetInfo{
		{
			Name: "scene", Version: "1", Description: "d", MinGodot: "4.3", SDKVersion: "v0.1.0",
			Tools: []plugmodel.ToolInfo{{Name: "create_node", InputSchema: json.RawMessage(objSchema), OutputSchema: json.RawMessage(objSchema), ToolMeta: contract.ToolMeta{Title: "Create", Description: "Creates.", Safety: "destructive", DryRun: true, Confirm: true, Preconditions: []string{"active_scene"}, DestructiveWhen: []string{"overwrite", "count>1"}, RunsCode: true}}},
		},
		desc(func(d *plugmodel.ToolsetInfo) {
			d.Resources = []plugmodel.ResourceInfo{{URI: "a://b", Name: "b", Title: "B", Description: "d", MimeType: "text/plain"}}
			d.ResourceTemplates = []plugmodel.ResourceInfo{{URI: "a://{x}", Name: "x"}}
			d.Prompts = []plugmodel.PromptInfo{{Name: "p", Description: "d", Arguments: []plugmodel.PromptArgument{{Name: "a", Required: true}}}}
		}),
		desc(func(d *plugmodel.ToolsetInfo) {
			d.EditorVersion = "abc123"
			d.EditorFiles = []plugmodel.EditorFile{{Path: "handlers.gd", Content: []byte("x")}, {Path: "lib/a.gd", Content: []byte("x")}}
		}),
		desc(func(d *plugmodel.ToolsetInfo) { // game code only (sdk.Toolset.GameCode)
			d.EditorVersion = "abc124"
			d.EditorFiles = []plugmodel.EditorFile{{Path: "game/game.gd", Content: []byte("x")}}
		}),
	}
	for _, d := range good {
		if err := checkInfo(d); err != nil {
			t.Errorf("%s: %v", d.Name, err)
		}
	}
	editor := func(version string, paths ...string) func(*plugmodel.ToolsetInfo) {
		return func(d *plugmodel.ToolsetInfo) {
			d.EditorVersion = version
			for _, p := range paths {
				d.EditorFiles = append(d.EditorFiles, plugmodel.EditorFile{Path: p, Content: []byte("x")})
			}
		}
	}
	tool := func(mod func(*plugmodel.ToolInfo)) func(*plugmodel.ToolsetInfo) {
		return func(d *plugmodel.ToolsetInfo) { d.Tools = []plugmodel.ToolInfo{modelTool(mod)} }
	}
	cases := []struct {
		name string
		mod  func(*plugmodel.ToolsetInfo)
		want string
	}{
		{"bad toolset name", func(d *plugmodel.ToolsetInfo) { d.Name = "Scene" }, `toolset name "Scene"`},
		{"reserved name", func(d *plugmodel.ToolsetInfo) { d.Name = "ext" }, `"ext" is reserved`},
		{"no tools", func(d *plugmodel.ToolsetInfo) { d.Tools = nil }, "declares no tools"},
		{"bad tool name", tool(func(t *plugmodel.ToolInfo) { t.Name = "do-it" }), `tool name "do-it"`},
		{"duplicate", func(d *plugmodel.ToolsetInfo) { d.Tools = append(d.Tools, modelTool(nil)) }, `two tools are named "t"`},
		{"bad safety", tool(func(t *plugmodel.ToolInfo) { t.Safety = "harmless" }), `unknown safety class "harmless"`},
		{"bad destructive_when", tool(func(t *plugmodel.ToolInfo) { t.DestructiveWhen = []string{"count >= 2"} }), `destructive_when "count >= 2"`},
		{"input not JSON", tool(func(t *plugmodel.ToolInfo) { t.InputSchema = nil }), "input schema: not a JSON object"},
		{"output not an object", tool(func(t *plugmodel.ToolInfo) { t.OutputSchema = json.RawMessage(`{"type":"string"}`) }), `output schema: root "type" must be "object"`},
		{"resource without uri", func(d *plugmodel.ToolsetInfo) { d.Resources = []plugmodel.ResourceInfo{{Name: "b"}} }, "needs a URI"},
		{"template without name", func(d *plugmodel.ToolsetInfo) { d.ResourceTemplates = []plugmodel.ResourceInfo{{URI: "a://{x}"}} }, "needs a URI template and a name"},
		{"bad prompt name", func(d *plugmodel.ToolsetInfo) { d.Prompts = []plugmodel.PromptInfo{{Name: "P!"}} }, `prompt name "P!"`},
		{"duplicate prompt", func(d *plugmodel.ToolsetInfo) { d.Prompts = []plugmodel.PromptInfo{{Name: "p"}, {Name: "p"}} }, "two prompts"},
		{"escaping editor file", editor("v", "../evil.gd", "handlers.gd"), `"../evil.gd" is not a clean relative path`},
		{"absolute editor file", editor("v", "/abs.gd", "handlers.gd"), `"/abs.gd" is not a clean`},
		{"unclean editor file", editor("v", "a/./b.gd", "handlers.gd"), `is not a clean`},
		{"hidden editor file", editor("v", ".stamp.json", "handlers.gd"), `is not a clean`},
		{"no handlers.gd", editor("v", "lib.gd"), "no handlers.gd"},
		{"game code without game.gd", editor("v", "handlers.gd", "game/lib.gd"), "no game/game.gd"},
		{"no editor version", editor("", "handlers.gd"), "editor code version"},
		{"duplicate editor file", editor("v", "handlers.gd", "handlers.gd"), "two editor files"},
		{"version without files", editor("v"), "but no editor files"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			if err := checkInfo(desc(tc.mod)); err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Fatalf("err = %v, want %q", err, tc.want)
			}
		})
	}
}

func TestCheckAnswers(t *testing.T) {
	internal := &contract.Error{Code: contract.InternalError}
	calls := []struct {
		name string
		in   plugmodel.CallResult
		want plugmodel.CallResult
		hint string // for errors: a substring of the hint
	}{
		{"result with content",
			plugmodel.CallResult{Structured: json.RawMessage(`{"a":1}`), Content: []plugmodel.Content{{Type: "image", Data: []byte{1, 2}, MimeType: "image/png"}, {Type: "text", Text: "t"}}},
			plugmodel.CallResult{Structured: json.RawMessage(`{"a":1}`), Content: []plugmodel.Content{{Type: "image", Data: []byte{1, 2}, MimeType: "image/png"}, {Type: "text", Text: "t"}}}, ""},
		{"error",
			plugmodel.CallResult{Err: &contract.Error{Code: contract.PreconditionFailed, Hint: "h", Required: "confirm"}},
			plugmodel.CallResult{Err: &contract.Error{Code: contract.PreconditionFailed, Hint: "h", Required: "confirm"}}, ""},
		{"unknown code", plugmodel.CallResult{Err: &contract.Error{Code: "NOPE", Hint: "h"}}, plugmodel.CallResult{Err: internal}, `unknown error code "NOPE"`},
		{"empty result", plugmodel.CallResult{}, plugmodel.CallResult{Err: internal}, "not a JSON object"},
		{"array result", plugmodel.CallResult{Structured: json.RawMessage(`[1]`)}, plugmodel.CallResult{Err: internal}, "not a JSON object"},
		{"broken JSON", plugmodel.CallResult{Structured: json.RawMessage(`{"a":`)}, plugmodel.CallResult{Err: internal}, "not a JSON object"},
		{"unknown content type", plugmodel.CallResult{Structured: json.RawMessage(`{}`), Content: []plugmodel.Content{{Type: "video"}}}, plugmodel.CallResult{Err: internal}, `unknown type "video"`},
		{"audio and embedded resources",
			plugmodel.CallResult{Structured: json.RawMessage(`{}`), Content: []plugmodel.Content{{Type: "audio", Data: []byte{3}, MimeType: "audio/wav"}, {Type: "resource", URI: "a://b", MimeType: "text/plain", Text: "t"}}},
			plugmodel.CallResult{Structured: json.RawMessage(`{}`), Content: []plugmodel.Content{{Type: "audio", Data: []byte{3}, MimeType: "audio/wav"}, {Type: "resource", URI: "a://b", MimeType: "text/plain", Text: "t"}}}, ""},
		{"embedded resource without a URI", plugmodel.CallResult{Structured: json.RawMessage(`{}`), Content: []plugmodel.Content{{Type: "resource", Text: "t"}}}, plugmodel.CallResult{Err: internal}, "without a URI"},
	}
	for _, tc := range calls {
		t.Run(tc.name, func(t *testing.T) {
			got := checkResult("ts", tc.in)
			if tc.hint != "" {
				if got.Err == nil || got.Err.Code != tc.want.Err.Code || !strings.Contains(got.Err.Hint, tc.hint) || !strings.Contains(got.Err.Hint, "'ts'") {
					t.Fatalf("got %+v, want %s with %q", got, tc.want.Err.Code, tc.hint)
				}
				return
			}
			if !reflect.DeepEqual(got, tc.want) {
				t.Fatalf("got %+v\nwant %+v", got, tc.want)
			}
		})
	}
	if got := checkResourceResult("ts", plugmodel.ResourceResult{}); got.Err == nil || !strings.Contains(got.Err.Hint, "no contents") {
		t.Errorf("empty read: %+v", got)
	}
	if got := checkResourceResult("ts", plugmodel.ResourceResult{Err: &contract.Error{Code: "NOPE"}}); got.Err == nil || got.Err.Code != contract.InternalError {
		t.Errorf("unknown code in a read: %+v", got)
	}
	for _, tc := range []struct {
		name string
		in   plugmodel.PromptResult
		hint string
	}{
		{"bad role", plugmodel.PromptResult{Messages: []plugmodel.PromptMessage{{Role: "system", Content: plugmodel.Content{Type: "text"}}}}, `role "system"`},
		{"bad content", plugmodel.PromptResult{Messages: []plugmodel.PromptMessage{{Role: "user", Content: plugmodel.Content{Type: "video"}}}}, `unknown type "video"`},
		{"unknown code", plugmodel.PromptResult{Err: &contract.Error{Code: "NOPE"}}, `unknown error code "NOPE"`},
	} {
		if got := checkPromptResult("ts", tc.in); got.Err == nil || !strings.Contains(got.Err.Hint, tc.hint) {
			t.Errorf("%s: got %+v, want a hint with %q", tc.name, got, tc.hint)
		}
	}
	ok := plugmodel.PromptResult{Description: "d", Messages: []plugmodel.PromptMessage{{Role: "user", Content: plugmodel.Content{Type: "text", Text: "t"}}, {Role: "assistant", Content: plugmodel.Content{Type: "image", Data: []byte{1}, MimeType: "image/png"}}}}
	if got := checkPromptResult("ts", ok); !reflect.DeepEqual(got, ok) {
		t.Errorf("good prompt: %+v", got)
	}
}

// The gated host logs a plugin's record without a spoofed toolset name,
// and hands a call's record to the CallLogger without the tool.
func TestGatedHost(t *testing.T) {
	svc := &callLogServices{}
	logs := &logBuffer{}
	gate := safety.NewGate("ts", nil)
	_, end := gate.Begin("c1", safety.SendCall{Tool: "t", Class: contract.ReadOnly})
	defer end()
	h := &gatedHost{svc: svc, logger: slog.New(slog.NewTextHandler(logs, nil)), gate: gate, warn: logcap.NewLimiter(time.Second)}
	level, ctx := slog.LevelWarn, plugmodel.WithCallID(context.Background(), "c1")
	if err := h.Log(ctx, level, "m", []slog.Attr{slog.String("toolset", "spoofed"), slog.String("tool", "t"), slog.String("n", "3")}); err != nil {
		t.Fatal(err)
	}
	if s := logs.String(); strings.Contains(s, "spoofed") || !strings.Contains(s, "tool=t n=3") {
		t.Errorf("host log = %q", s)
	}
	if got := svc.logged(); len(got) != 1 || got[0] != "c1 WARN m n=3" {
		t.Errorf("call log = %q", got)
	}
}

// #24.8: a toolset's progress and log records reach only its own running
// calls: not another toolset's (whose id it learnt), not one that ended.
func TestGatedHostReachesOnlyItsOwnRunningCalls(t *testing.T) {
	svc := &callLogServices{}
	logs := &logBuffer{}
	mine, theirs := safety.NewGate("mine", nil), safety.NewGate("theirs", nil)
	_, endTheirs := theirs.Begin("p-theirs", safety.SendCall{Tool: "delete", Class: contract.Destructive, Confirm: true, ProgressToken: "p-theirs"})
	defer endTheirs()
	_, endMine := mine.Begin("p-mine", safety.SendCall{Tool: "peek", Class: contract.ReadOnly, ProgressToken: "p-mine"})
	h := &gatedHost{svc: svc, logger: slog.New(slog.NewTextHandler(logs, nil)), gate: mine, warn: logcap.NewLimiter(time.Minute)}
	ctx := context.Background()
	for _, id := range []string{"p-theirs", "p-unknown"} {
		_ = h.Progress(ctx, id, 1, 2, "x")
		_ = h.Log(plugmodel.WithCallID(ctx, id), slog.LevelError, "x", nil)
		if _, err := h.Send(ctx, id, "cmd_testplugin_delete", nil, time.Second); err == nil {
			t.Errorf("a command under %s was sent", id)
		}
	}
	if len(svc.progress) != 0 || len(svc.logged()) != 0 || len(svc.sent()) != 0 {
		t.Fatalf("reached another toolset's call: progress %q, log %q, sent %v", svc.progress, svc.logged(), svc.sent())
	}
	if s := logs.String(); strings.Count(s, "dropped a toolset's progress notification") != 1 || strings.Count(s, "kept a toolset's log record") != 1 {
		t.Errorf("the attempts are not logged once per kind:\n%s", s)
	}
	_ = h.Progress(ctx, "p-mine", 1, 2, "mine")
	_ = h.Log(plugmodel.WithCallID(ctx, "p-mine"), slog.LevelInfo, "mine", nil)
	if len(svc.progress) != 1 || len(svc.logged()) != 1 {
		t.Fatalf("its own running call: progress %q, log %q", svc.progress, svc.logged())
	}
	endMine()
	_ = h.Progress(ctx, "p-mine", 2, 2, "late")
	_ = h.Log(plugmodel.WithCallID(ctx, "p-mine"), slog.LevelInfo, "late", nil)
	if len(svc.progress) != 1 || len(svc.logged()) != 1 {
		t.Fatalf("after its call ended: progress %q, log %q", svc.progress, svc.logged())
	}
}
