package pluginrpc

import (
	"encoding/json"
	"log/slog"
	"reflect"
	"testing"

	"github.com/godot-mcp/godot-mcp/internal/plugmodel"
	"github.com/godot-mcp/godot-mcp/sdk/contract"
)

// Every field of every model type crosses the wire and comes back as it
// was: a field added to the model but not to the conversion fails here.
func TestModelRoundTrips(t *testing.T) {
	info := plugmodel.ToolsetInfo{
		Name: "s", Version: "1", Description: "d", MinGodot: "4.3", SDKVersion: "v0.1", Keywords: []string{"Node2D", "tile map"},
		Tools:             []plugmodel.ToolInfo{{Name: "t", InputSchema: json.RawMessage(`{"type":"object"}`), OutputSchema: json.RawMessage(`{"type":"object","properties":{}}`), ToolMeta: contract.ToolMeta{Title: "T", Description: "D", Safety: "destructive", DryRun: true, Confirm: true, Preconditions: []string{"active_scene"}, DestructiveWhen: []string{"overwrite"}, RunsCode: true}}},
		Resources:         []plugmodel.ResourceInfo{{URI: "x://a", Name: "a", Title: "A", Description: "the a", MimeType: "text/plain"}},
		ResourceTemplates: []plugmodel.ResourceInfo{{URI: "x://b/{n}", Name: "b", Title: "B", Description: "the bs", MimeType: "application/json"}},
		Prompts:           []plugmodel.PromptInfo{{Name: "p", Title: "P", Description: "pd", Arguments: []plugmodel.PromptArgument{{Name: "q", Description: "qd", Required: true}}}},
		EditorFiles:       []plugmodel.EditorFile{{Path: "handlers.gd", Content: []byte("@tool\n")}},
		EditorVersion:     "abc",
	}
	if got := infoFromProto(infoToProto(info)); !reflect.DeepEqual(got, info) {
		t.Errorf("info:\n got %+v\nwant %+v", got, info)
	}
	call := plugmodel.CallRequest{Tool: "t", Arguments: json.RawMessage(`{"a":1}`), DryRun: true, Confirm: true, ProgressToken: "p", CallID: "c"}
	if got := callFromProto(callToProto(call)); !reflect.DeepEqual(got, call) {
		t.Errorf("call: %+v", got)
	}
	content := []plugmodel.Content{{Type: "image", Data: []byte{1}, MimeType: "image/png"}, {Type: "resource", URI: "x://a", Text: "t", MimeType: "text/plain"}}
	for _, res := range []plugmodel.CallResult{
		{Structured: json.RawMessage(`{"a":1}`), Content: content},
		{Err: contract.Precondition("confirm", "confirm it")},
		{Err: &contract.Error{Code: "UNKNOWN", Hint: "kept for the host to refuse"}},
	} {
		if got := resultFromProto(resultToProto(res)); !reflect.DeepEqual(got, res) {
			t.Errorf("result:\n got %+v\nwant %+v", got, res)
		}
	}
	rr := plugmodel.ResourceRequest{URI: "x://b/1", Template: "x://b/{n}", Params: map[string]string{"n": "1"}, CallID: "c"}
	if got := resourceRequestFromProto(resourceRequestToProto(rr)); !reflect.DeepEqual(got, rr) {
		t.Errorf("resource request: %+v", got)
	}
	for _, res := range []plugmodel.ResourceResult{
		{Contents: []plugmodel.ResourceContents{{URI: "x://a", MimeType: "text/plain", Text: "hi"}, {URI: "x://b", Blob: []byte{0, 1}, Binary: true}}},
		{Err: contract.Errorf(contract.ResourceNotFound, "no")},
	} {
		if got := resourceResultFromProto(resourceResultToProto(res)); !reflect.DeepEqual(got, res) {
			t.Errorf("resource result:\n got %+v\nwant %+v", got, res)
		}
	}
	pr := plugmodel.PromptRequest{Name: "p", Arguments: map[string]string{"q": "1"}, CallID: "c"}
	if got := promptRequestFromProto(promptRequestToProto(pr)); !reflect.DeepEqual(got, pr) {
		t.Errorf("prompt request: %+v", got)
	}
	for _, res := range []plugmodel.PromptResult{
		{Description: "d", Messages: []plugmodel.PromptMessage{{Role: "user", Content: content[0]}, {Role: "assistant", Content: content[1]}}},
		{Err: contract.Errorf(contract.ValidationError, "no")},
	} {
		if got := promptResultFromProto(promptResultToProto(res)); !reflect.DeepEqual(got, res) {
			t.Errorf("prompt result:\n got %+v\nwant %+v", got, res)
		}
	}
	level, msg, attrs := logFromProto(logToProto(slog.LevelError, "m", []slog.Attr{slog.Int("n", 3), slog.String("s", "v")}))
	if level != slog.LevelError || msg != "m" || len(attrs) != 2 || attrs[0].String() != "n=3" || attrs[1].String() != "s=v" {
		t.Errorf("log: %v %q %v", level, msg, attrs)
	}
}
