package sdk

import (
	"context"
	"encoding/json"
	"log/slog"
	"sync"
	"testing"

	"github.com/godot-mcp/godot-mcp/internal/pluginproto"
	"github.com/godot-mcp/godot-mcp/sdk/internal/sdkhook"
)

// callIDBackend records the call id each log record carried.
type callIDBackend struct {
	fakeBackend
	mu  sync.Mutex
	ids []string
}

func (b *callIDBackend) Log(ctx context.Context, level slog.Level, message string, attrs []slog.Attr) error {
	b.mu.Lock()
	b.ids = append(b.ids, sdkhook.CallID(ctx)+" "+message)
	b.mu.Unlock()
	return nil
}

func TestLogRecordsCarryTheCallID(t *testing.T) {
	r, err := newRegistry(Toolset{Name: "logs", Tools: []Tool{
		NewTool("talk", ToolOptions{Safety: ReadOnly}, func(ctx context.Context, call *Call, _ struct{}) (struct{}, error) {
			call.Host.Logger().Info("plain")
			call.Host.Logger().With("k", "v").WarnContext(ctx, "with attrs")
			return struct{}{}, nil
		}),
	}})
	if err != nil {
		t.Fatal(err)
	}
	b := &callIDBackend{}
	for _, id := range []string{"c7", ""} {
		if res := r.Call(context.Background(), sdkhook.Request{Tool: "talk", Arguments: json.RawMessage(`{}`), CallID: id}, b); res.Err != nil {
			t.Fatal(res.Err)
		}
	}
	want := []string{"c7 plain", "c7 with attrs", " plain", " with attrs"}
	if len(b.ids) != len(want) {
		t.Fatalf("log records = %q", b.ids)
	}
	for i := range want {
		if b.ids[i] != want[i] {
			t.Errorf("record %d = %q, want %q", i, b.ids[i], want[i])
		}
	}
	if got := requestFromProto(&pluginproto.CallRequest{Tool: "talk", CallId: "c9"}); got.CallID != "c9" {
		t.Errorf("requestFromProto lost the call id: %+v", got)
	}
}
