package sdk

import (
	"context"
	"encoding/json"
	"errors"
	"log/slog"
	"reflect"
	"strings"
	"testing"

	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"

	"github.com/godot-mcp/godot-mcp/internal/pluginproto"
	"github.com/godot-mcp/godot-mcp/sdk/internal/sdkhook"
)

func TestDescribeToProto(t *testing.T) {
	got := describeToProto(sdkhook.Description{
		Name: "s", Version: "1", Description: "d", MinGodot: "4.3",
		Tools: []sdkhook.ToolInfo{{
			Name: "t", Title: "T", Description: "D", InputSchema: json.RawMessage(`{"type":"object"}`), OutputSchema: json.RawMessage(`{"type":"object","properties":{}}`),
			Safety: "destructive", DryRun: true, Confirm: true, Preconditions: []string{"active_scene"},
		}},
	})
	if got.GetName() != "s" || got.GetVersion() != "1" || got.GetDescription() != "d" || got.GetMinGodot() != "4.3" || len(got.GetTools()) != 1 {
		t.Fatalf("got %v", got)
	}
	tool := got.GetTools()[0]
	if tool.GetName() != "t" || tool.GetTitle() != "T" || tool.GetDescription() != "D" || tool.GetInputSchema() != `{"type":"object"}` ||
		tool.GetOutputSchema() != `{"type":"object","properties":{}}` || tool.GetSafety() != "destructive" || !tool.GetDryRun() || !tool.GetConfirm() ||
		!reflect.DeepEqual(tool.GetPreconditions(), []string{"active_scene"}) {
		t.Fatalf("tool %v", tool)
	}
}

func TestRequestFromProto(t *testing.T) {
	got := requestFromProto(&pluginproto.CallRequest{Tool: "t", ArgumentsJson: []byte(`{"a":1}`), DryRun: true, Confirm: true, ProgressToken: "p"})
	want := sdkhook.Request{Tool: "t", Arguments: json.RawMessage(`{"a":1}`), DryRun: true, Confirm: true, ProgressToken: "p"}
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("got %+v want %+v", got, want)
	}
}

func TestResultToProto(t *testing.T) {
	cases := []struct {
		name string
		in   sdkhook.Result
		want *pluginproto.CallResponse
	}{
		{"result", sdkhook.Result{Structured: json.RawMessage(`{"a":1}`), Content: []sdkhook.Content{{Type: "image", Data: []byte{1}, MimeType: "image/png"}, {Type: "text", Text: "x"}}},
			&pluginproto.CallResponse{StructuredJson: []byte(`{"a":1}`), Content: []*pluginproto.Content{{Type: "image", Data: []byte{1}, MimeType: "image/png"}, {Type: "text", Text: "x"}}}},
		{"sdk error", sdkhook.Result{Err: PreconditionFailed(RequireConfirm, "confirm it")},
			&pluginproto.CallResponse{Error: &pluginproto.Error{Code: "PRECONDITION_FAILED", Hint: "confirm it", Required: "confirm"}}},
		{"plain error", sdkhook.Result{Err: errors.New("boom")},
			&pluginproto.CallResponse{Error: &pluginproto.Error{Code: "INTERNAL_ERROR", Hint: "boom. Retry; if it persists, check the godot-mcp server log (stderr)."}}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			got := resultToProto(tc.in)
			if string(got.GetStructuredJson()) != string(tc.want.GetStructuredJson()) || len(got.GetContent()) != len(tc.want.GetContent()) ||
				got.GetError().GetCode() != tc.want.GetError().GetCode() || got.GetError().GetHint() != tc.want.GetError().GetHint() ||
				got.GetError().GetRequired() != tc.want.GetError().GetRequired() {
				t.Fatalf("got %v\nwant %v", got, tc.want)
			}
			for i, c := range got.GetContent() {
				w := tc.want.GetContent()[i]
				if c.GetType() != w.GetType() || c.GetText() != w.GetText() || string(c.GetData()) != string(w.GetData()) || c.GetMimeType() != w.GetMimeType() {
					t.Errorf("content %d: %v want %v", i, c, w)
				}
			}
		})
	}
}

func TestSendResultFromProto(t *testing.T) {
	cases := []struct {
		name     string
		in       *pluginproto.SendResponse
		wantRes  string
		wantCode ErrorCode
		wantReq  string
		wantHint string
	}{
		{"ok", &pluginproto.SendResponse{Ok: true, ResultJson: []byte(`{"x":1}`)}, `{"x":1}`, "", "", ""},
		{"ok without result", &pluginproto.SendResponse{Ok: true}, `{}`, "", "", ""},
		{"failure", &pluginproto.SendResponse{Error: "BRIDGE_DISCONNECTED", Hint: "no editor", Required: "bridge_connected"}, "", CodeBridgeDisconnected, "bridge_connected", "no editor"},
		{"unknown code", &pluginproto.SendResponse{Error: "WAT", Hint: "h"}, "", CodeInternalError, "", `unknown error code "WAT"`},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			res, err := sendResultFromProto("cmd_x", tc.in)
			if tc.wantCode == "" {
				if err != nil || string(res) != tc.wantRes {
					t.Fatalf("got %s, %v", res, err)
				}
				return
			}
			e := AsError(err)
			if res != nil || e == nil || e.Code != tc.wantCode || e.Required != tc.wantReq || !strings.Contains(e.Hint, tc.wantHint) {
				t.Fatalf("got %s, %+v", res, e)
			}
		})
	}
}

func TestTransportError(t *testing.T) {
	expired, cancel := context.WithTimeout(context.Background(), 0)
	defer cancel()
	cancelled, cancel2 := context.WithCancel(context.Background())
	cancel2()
	cases := []struct {
		name string
		ctx  context.Context
		err  error
		code ErrorCode
		hint string
	}{
		{"deadline", expired, status.Error(codes.DeadlineExceeded, "x"), CodeTimeout, "deadline"},
		{"cancelled", cancelled, status.Error(codes.Canceled, "x"), CodeInternalError, "cancelled"},
		{"host gone", context.Background(), status.Error(codes.Unavailable, "conn closed"), CodeInternalError, "did not take cmd_x: conn closed"},
	}
	for _, tc := range cases {
		if e := transportError(tc.ctx, "cmd_x", tc.err); e.Code != tc.code || !strings.Contains(e.Hint, tc.hint) {
			t.Errorf("%s: %+v", tc.name, e)
		}
	}
}

func TestLogToProto(t *testing.T) {
	got := logToProto(slog.LevelError, "m", []slog.Attr{slog.Int("n", 3), slog.String("s", "v")})
	if got.GetLevel() != 8 || got.GetMessage() != "m" || len(got.GetAttrs()) != 2 ||
		got.GetAttrs()[0].GetKey() != "n" || got.GetAttrs()[0].GetValue() != "3" || got.GetAttrs()[1].GetValue() != "v" {
		t.Fatalf("got %v", got)
	}
}
