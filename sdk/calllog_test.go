package sdk

import (
	"context"
	"encoding/json"
	"log/slog"
	"sync"
	"testing"
	"time"

	"github.com/godot-mcp/godot-mcp/internal/plugmodel"
)

// callIDBackend records the call id each log record carried.
type callIDBackend struct {
	fakeBackend
	mu  sync.Mutex
	ids []string
}

func (b *callIDBackend) Log(ctx context.Context, level slog.Level, message string, attrs []slog.Attr) error {
	b.mu.Lock()
	b.ids = append(b.ids, plugmodel.CallID(ctx)+" "+message)
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
		if res := r.call(context.Background(), plugmodel.CallRequest{Tool: "talk", Arguments: json.RawMessage(`{}`), CallID: id}, b); res.Err != nil {
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
}

// sendIDBackend records the call id each Send carried.
type sendIDBackend struct {
	fakeBackend
	mu   sync.Mutex
	sent []string
}

func (b *sendIDBackend) Send(_ context.Context, callID, command string, _ json.RawMessage, _ time.Duration) (json.RawMessage, error) {
	b.mu.Lock()
	b.sent = append(b.sent, callID+" "+command)
	b.mu.Unlock()
	return json.RawMessage(`{}`), nil
}

// Every editor command carries the id of the call whose Host sent it, also
// when the toolset keeps the Host past its call (the host then refuses it),
// and resource reads and prompts carry theirs.
func TestSendsCarryTheCallID(t *testing.T) {
	var kept Host
	r, err := newRegistry(Toolset{Name: "ids", Tools: []Tool{
		NewTool("peek", ToolOptions{Safety: ReadOnly}, func(ctx context.Context, call *Call, _ struct{}) (struct{}, error) {
			kept = call.Host
			_, err := call.Host.Send(ctx, "cmd_ids_peek", nil, 0)
			return struct{}{}, err
		}),
	}, Resources: []Resource{{URI: "ids://r", Name: "r", Read: func(ctx context.Context, req *ResourceRequest) ([]ResourceContents, error) {
		_, err := req.Host.Send(ctx, "cmd_ids_read", nil, 0)
		return []ResourceContents{{Text: "x"}}, err
	}}}, Prompts: []Prompt{{Name: "p", Get: func(ctx context.Context, req *PromptRequest) (*PromptResult, error) {
		_, err := req.Host.Send(ctx, "cmd_ids_prompt", nil, 0)
		return &PromptResult{Messages: []PromptMessage{{Role: RoleUser, Content: TextContent("x")}}}, err
	}}}})
	if err != nil {
		t.Fatal(err)
	}
	b := &sendIDBackend{}
	ctx := context.Background()
	if res := r.call(ctx, plugmodel.CallRequest{Tool: "peek", Arguments: json.RawMessage(`{}`), CallID: "c1"}, b); res.Err != nil {
		t.Fatal(res.Err)
	}
	_, _ = kept.Send(ctx, "cmd_ids_late", nil, 0)
	if res := r.readResource(ctx, plugmodel.ResourceRequest{URI: "ids://r", CallID: "r2"}, b); res.Err != nil {
		t.Fatal(res.Err)
	}
	if res := r.getPrompt(ctx, "p", "r3", nil, b); res.Err != nil {
		t.Fatal(res.Err)
	}
	want := []string{"c1 cmd_ids_peek", "c1 cmd_ids_late", "r2 cmd_ids_read", "r3 cmd_ids_prompt"}
	if len(b.sent) != len(want) {
		t.Fatalf("sent = %q, want %q", b.sent, want)
	}
	for i := range want {
		if b.sent[i] != want[i] {
			t.Errorf("send %d = %q, want %q", i, b.sent[i], want[i])
		}
	}
}
