package pluginhost

import (
	"bytes"
	"encoding/json"
	"log/slog"
	"reflect"
	"strings"
	"testing"

	"github.com/godot-mcp/godot-mcp/host/envelope"
	"github.com/godot-mcp/godot-mcp/internal/pluginproto"
)

const objSchema = `{"type":"object","properties":{}}`

func protoTool(mod func(*pluginproto.Tool)) *pluginproto.Tool {
	t := &pluginproto.Tool{Name: "t", Safety: "read_only", InputSchema: objSchema, OutputSchema: objSchema}
	if mod != nil {
		mod(t)
	}
	return t
}

func TestInfoFromProto(t *testing.T) {
	good := &pluginproto.DescribeResponse{
		Name: "scene", Version: "1", Description: "d", MinGodot: "4.3", SdkVersion: "v0.1.0",
		Tools: []*pluginproto.Tool{{
			Name: "create_node", Title: "Create", Description: "Creates.", InputSchema: objSchema, OutputSchema: objSchema,
			Safety: "destructive", DryRun: true, Confirm: true, Preconditions: []string{"active_scene"},
			DestructiveWhen: []string{"overwrite", "count>1"}, RunsCode: true,
		}},
	}
	info, err := infoFromProto(good)
	if err != nil {
		t.Fatal(err)
	}
	want := ToolsetInfo{
		Name: "scene", Version: "1", Description: "d", MinGodot: "4.3", SDKVersion: "v0.1.0",
		Tools: []ToolInfo{{
			Name: "create_node", Title: "Create", Description: "Creates.",
			InputSchema: json.RawMessage(objSchema), OutputSchema: json.RawMessage(objSchema),
			Safety: "destructive", DryRun: true, Confirm: true, Preconditions: []string{"active_scene"},
			DestructiveWhen: []string{"overwrite", "count>1"}, RunsCode: true,
		}},
	}
	if !reflect.DeepEqual(info, want) {
		t.Fatalf("info = %+v\nwant %+v", info, want)
	}

	cases := []struct {
		name string
		desc *pluginproto.DescribeResponse
		want string
	}{
		{"bad toolset name", &pluginproto.DescribeResponse{Name: "Scene", Tools: []*pluginproto.Tool{protoTool(nil)}}, `toolset name "Scene"`},
		{"no tools", &pluginproto.DescribeResponse{Name: "s"}, "declares no tools"},
		{"bad tool name", &pluginproto.DescribeResponse{Name: "s", Tools: []*pluginproto.Tool{protoTool(func(t *pluginproto.Tool) { t.Name = "do-it" })}}, `tool name "do-it"`},
		{"duplicate", &pluginproto.DescribeResponse{Name: "s", Tools: []*pluginproto.Tool{protoTool(nil), protoTool(nil)}}, `two tools are named "t"`},
		{"bad safety", &pluginproto.DescribeResponse{Name: "s", Tools: []*pluginproto.Tool{protoTool(func(t *pluginproto.Tool) { t.Safety = "harmless" })}}, `unknown safety class "harmless"`},
		{"bad destructive_when", &pluginproto.DescribeResponse{Name: "s", Tools: []*pluginproto.Tool{protoTool(func(t *pluginproto.Tool) { t.DestructiveWhen = []string{"count >= 2"} })}}, `destructive_when "count >= 2"`},
		{"input not JSON", &pluginproto.DescribeResponse{Name: "s", Tools: []*pluginproto.Tool{protoTool(func(t *pluginproto.Tool) { t.InputSchema = "" })}}, "input schema: not a JSON object"},
		{"output not an object", &pluginproto.DescribeResponse{Name: "s", Tools: []*pluginproto.Tool{protoTool(func(t *pluginproto.Tool) { t.OutputSchema = `{"type":"string"}` })}}, `output schema: root "type" must be "object"`},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			if _, err := infoFromProto(tc.desc); err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Fatalf("err = %v, want %q", err, tc.want)
			}
		})
	}
}

func TestResourcesAndPromptsFromProto(t *testing.T) {
	desc := &pluginproto.DescribeResponse{
		Name: "s", Tools: []*pluginproto.Tool{protoTool(nil)},
		Resources:         []*pluginproto.Resource{{Uri: "a://b", Name: "b", Title: "B", Description: "d", MimeType: "text/plain"}},
		ResourceTemplates: []*pluginproto.ResourceTemplate{{UriTemplate: "a://{x}", Name: "x"}},
		Prompts:           []*pluginproto.Prompt{{Name: "p", Description: "d", Arguments: []*pluginproto.PromptArgument{{Name: "a", Required: true}}}},
	}
	info, err := infoFromProto(desc)
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(info.Resources, []ResourceInfo{{URI: "a://b", Name: "b", Title: "B", Description: "d", MimeType: "text/plain"}}) ||
		!reflect.DeepEqual(info.ResourceTemplates, []ResourceInfo{{URI: "a://{x}", Name: "x"}}) ||
		!reflect.DeepEqual(info.Prompts, []PromptInfo{{Name: "p", Description: "d", Arguments: []PromptArgument{{Name: "a", Required: true}}}}) {
		t.Fatalf("info = %+v", info)
	}
	bad := []struct {
		name string
		mod  func(*pluginproto.DescribeResponse)
		want string
	}{
		{"resource without uri", func(d *pluginproto.DescribeResponse) { d.Resources = []*pluginproto.Resource{{Name: "b"}} }, "needs a URI"},
		{"template without name", func(d *pluginproto.DescribeResponse) {
			d.ResourceTemplates = []*pluginproto.ResourceTemplate{{UriTemplate: "a://{x}"}}
		}, "needs a URI template and a name"},
		{"bad prompt name", func(d *pluginproto.DescribeResponse) { d.Prompts = []*pluginproto.Prompt{{Name: "P!"}} }, `prompt name "P!"`},
		{"duplicate prompt", func(d *pluginproto.DescribeResponse) { d.Prompts = []*pluginproto.Prompt{{Name: "p"}, {Name: "p"}} }, "two prompts"},
	}
	for _, tc := range bad {
		t.Run(tc.name, func(t *testing.T) {
			d := &pluginproto.DescribeResponse{Name: "s", Tools: []*pluginproto.Tool{protoTool(nil)}}
			tc.mod(d)
			if _, err := infoFromProto(d); err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Fatalf("err = %v, want %q", err, tc.want)
			}
		})
	}

	reads := []struct {
		name string
		in   *pluginproto.ReadResourceResponse
		want ResourceResult
	}{
		{"text and blob", &pluginproto.ReadResourceResponse{Contents: []*pluginproto.ResourceContents{
			{Uri: "a://b", MimeType: "text/plain", Body: &pluginproto.ResourceContents_Text{Text: "t"}},
			{Uri: "a://c", Body: &pluginproto.ResourceContents_Blob{Blob: []byte{1}}}}},
			ResourceResult{Contents: []ResourceContents{{URI: "a://b", MimeType: "text/plain", Text: "t"}, {URI: "a://c", Blob: []byte{1}, Binary: true}}}},
		{"error", &pluginproto.ReadResourceResponse{Error: &pluginproto.Error{Code: "RESOURCE_NOT_FOUND", Hint: "h"}},
			ResourceResult{Err: &envelope.Error{Code: envelope.ResourceNotFound, Hint: "h"}}},
	}
	for _, tc := range reads {
		if got := resourceResultFromProto("ts", tc.in); !reflect.DeepEqual(got, tc.want) {
			t.Errorf("%s: got %+v, want %+v", tc.name, got, tc.want)
		}
	}
	if got := resourceResultFromProto("ts", &pluginproto.ReadResourceResponse{}); got.Err == nil || !strings.Contains(got.Err.Hint, "no contents") {
		t.Errorf("empty read: %+v", got)
	}

	prompts := []struct {
		name string
		in   *pluginproto.GetPromptResponse
		want PromptResult
		hint string
	}{
		{"messages", &pluginproto.GetPromptResponse{Description: "d", Messages: []*pluginproto.PromptMessage{
			{Role: "user", Content: &pluginproto.Content{Type: "text", Text: "t"}},
			{Role: "assistant", Content: &pluginproto.Content{Type: "image", Data: []byte{1}, MimeType: "image/png"}}}},
			PromptResult{Description: "d", Messages: []PromptMessage{{Role: "user", Content: Content{Type: "text", Text: "t"}}, {Role: "assistant", Content: Content{Type: "image", Data: []byte{1}, MimeType: "image/png"}}}}, ""},
		{"bad role", &pluginproto.GetPromptResponse{Messages: []*pluginproto.PromptMessage{{Role: "system", Content: &pluginproto.Content{Type: "text"}}}},
			PromptResult{}, `role "system"`},
		{"bad content", &pluginproto.GetPromptResponse{Messages: []*pluginproto.PromptMessage{{Role: "user", Content: &pluginproto.Content{Type: "video"}}}},
			PromptResult{}, `unknown type "video"`},
		{"error", &pluginproto.GetPromptResponse{Error: &pluginproto.Error{Code: "VALIDATION_ERROR", Hint: "h"}},
			PromptResult{Err: &envelope.Error{Code: envelope.ValidationError, Hint: "h"}}, ""},
	}
	for _, tc := range prompts {
		got := promptResultFromProto("ts", tc.in)
		if tc.hint != "" {
			if got.Err == nil || !strings.Contains(got.Err.Hint, tc.hint) {
				t.Errorf("%s: got %+v, want a hint with %q", tc.name, got, tc.hint)
			}
			continue
		}
		if !reflect.DeepEqual(got, tc.want) {
			t.Errorf("%s: got %+v, want %+v", tc.name, got, tc.want)
		}
	}
}

func TestResultFromProto(t *testing.T) {
	cases := []struct {
		name string
		in   *pluginproto.CallResponse
		want CallResult
		hint string // for errors: a substring of the hint
	}{
		{"result with content",
			&pluginproto.CallResponse{StructuredJson: []byte(`{"a":1}`), Content: []*pluginproto.Content{
				{Type: "image", Data: []byte{1, 2}, MimeType: "image/png"}, {Type: "text", Text: "t"}}},
			CallResult{Structured: json.RawMessage(`{"a":1}`), Content: []Content{{Type: "image", Data: []byte{1, 2}, MimeType: "image/png"}, {Type: "text", Text: "t"}}}, ""},
		{"error",
			&pluginproto.CallResponse{Error: &pluginproto.Error{Code: "PRECONDITION_FAILED", Hint: "h", Required: "confirm"}},
			CallResult{Err: &envelope.Error{Code: envelope.PreconditionFailed, Hint: "h", Required: "confirm"}}, ""},
		{"unknown code",
			&pluginproto.CallResponse{Error: &pluginproto.Error{Code: "NOPE", Hint: "h"}},
			CallResult{Err: &envelope.Error{Code: envelope.InternalError}}, `unknown error code "NOPE"`},
		{"empty result",
			&pluginproto.CallResponse{},
			CallResult{Err: &envelope.Error{Code: envelope.InternalError}}, "not a JSON object"},
		{"array result",
			&pluginproto.CallResponse{StructuredJson: []byte(`[1]`)},
			CallResult{Err: &envelope.Error{Code: envelope.InternalError}}, "not a JSON object"},
		{"broken JSON",
			&pluginproto.CallResponse{StructuredJson: []byte(`{"a":`)},
			CallResult{Err: &envelope.Error{Code: envelope.InternalError}}, "not a JSON object"},
		{"unknown content type",
			&pluginproto.CallResponse{StructuredJson: []byte(`{}`), Content: []*pluginproto.Content{{Type: "video"}}},
			CallResult{Err: &envelope.Error{Code: envelope.InternalError}}, `unknown type "video"`},
		{"audio and embedded resources",
			&pluginproto.CallResponse{StructuredJson: []byte(`{}`), Content: []*pluginproto.Content{
				{Type: "audio", Data: []byte{3}, MimeType: "audio/wav"}, {Type: "resource", Uri: "a://b", MimeType: "text/plain", Text: "t"}}},
			CallResult{Structured: json.RawMessage(`{}`), Content: []Content{{Type: "audio", Data: []byte{3}, MimeType: "audio/wav"}, {Type: "resource", URI: "a://b", MimeType: "text/plain", Text: "t"}}}, ""},
		{"embedded resource without a URI",
			&pluginproto.CallResponse{StructuredJson: []byte(`{}`), Content: []*pluginproto.Content{{Type: "resource", Text: "t"}}},
			CallResult{Err: &envelope.Error{Code: envelope.InternalError}}, "without a URI"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			got := resultFromProto("ts", tc.in)
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
}

func TestResponseToProto(t *testing.T) {
	cases := []struct {
		in   envelope.Response
		want *pluginproto.SendResponse
	}{
		{envelope.Response{ID: "7", OK: true, Result: json.RawMessage(`{"x":1}`)},
			&pluginproto.SendResponse{Id: "7", Ok: true, ResultJson: []byte(`{"x":1}`)}},
		{envelope.Failure("8", envelope.Precondition("active_scene", "Open a scene.")),
			&pluginproto.SendResponse{Id: "8", Error: "PRECONDITION_FAILED", Hint: "Open a scene.", Required: "active_scene"}},
	}
	for _, tc := range cases {
		got := responseToProto(tc.in)
		if got.GetId() != tc.want.GetId() || got.GetOk() != tc.want.GetOk() || !bytes.Equal(got.GetResultJson(), tc.want.GetResultJson()) ||
			got.GetError() != tc.want.GetError() || got.GetHint() != tc.want.GetHint() || got.GetRequired() != tc.want.GetRequired() {
			t.Errorf("responseToProto(%+v) = %v, want %v", tc.in, got, tc.want)
		}
	}
}

func TestLogFromProto(t *testing.T) {
	level, msg, args := logFromProto(&pluginproto.LogRequest{Level: 4, Message: "m", Attrs: []*pluginproto.LogAttr{
		{Key: "toolset", Value: "spoofed"}, {Key: "tool", Value: "t"}, {Key: "n", Value: "3"},
	}})
	if level != slog.LevelWarn || msg != "m" || !reflect.DeepEqual(args, []any{slog.String("tool", "t"), slog.String("n", "3")}) {
		t.Fatalf("got %v %q %v", level, msg, args)
	}
}

func TestLineLogger(t *testing.T) {
	var buf bytes.Buffer
	w := newLineLogger(slog.New(slog.NewTextHandler(&buf, nil)), "stdout")
	for _, chunk := range []string{"one\ntw", "o\r\n", "\n", "three"} {
		if _, err := w.Write([]byte(chunk)); err != nil {
			t.Fatal(err)
		}
	}
	out := buf.String()
	if strings.Count(out, "msg=\"toolset output\"") != 2 || !strings.Contains(out, "line=one") || !strings.Contains(out, "line=two") || strings.Contains(out, "three") {
		t.Fatalf("logged:\n%s", out)
	}
}

func TestHCLogAdapter(t *testing.T) {
	var buf bytes.Buffer
	l := newHCLogger(slog.New(slog.NewTextHandler(&buf, &slog.HandlerOptions{Level: slog.LevelDebug})))
	l.Named("plugin").With("a", 1).Warn("careful", "b", 2)
	l.Trace("dropped: below debug")
	if got := buf.String(); !strings.Contains(got, `level=WARN msg=careful logger=plugin a=1 b=2`) || strings.Contains(got, "dropped") {
		t.Fatalf("logged:\n%s", got)
	}
	if !l.IsDebug() || l.IsTrace() {
		t.Errorf("IsDebug %v IsTrace %v", l.IsDebug(), l.IsTrace())
	}
}
