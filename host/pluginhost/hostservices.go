package pluginhost

import (
	"context"
	"encoding/json"
	"log/slog"
	"time"

	"github.com/godot-mcp/godot-mcp/host/safety"
	"github.com/godot-mcp/godot-mcp/internal/plugmodel"
)

// gatedHost is the host's services as one toolset sees them
// (plugmodel.Host): its editor commands pass the safety gate first.
type gatedHost struct {
	svc    HostServices
	logger *slog.Logger
	gate   *safety.Gate
}

// Send sends a command the gate allows for the call it serves; a refused
// one fails without reaching the editor.
func (h *gatedHost) Send(ctx context.Context, callID, command string, params json.RawMessage, timeout time.Duration) (json.RawMessage, error) {
	if len(params) == 0 {
		params = json.RawMessage("{}")
	}
	params, refusal := h.gate.Check(callID, command, params, h.svc.EditorCommand)
	if refusal != nil {
		return nil, refusal
	}
	resp := h.svc.Send(ctx, command, params, timeout)
	if e := resp.Err(); e != nil {
		return nil, e
	}
	if len(resp.Result) == 0 {
		return json.RawMessage("{}"), nil
	}
	return resp.Result, nil
}

func (h *gatedHost) Progress(ctx context.Context, token string, progress, total float64, message string) error {
	if token != "" {
		h.svc.Progress(ctx, token, progress, total, message)
	}
	return nil
}

// Log writes a record to the host's log and, for a record of a tool call,
// hands it to the CallLogger.
func (h *gatedHost) Log(ctx context.Context, level slog.Level, message string, attrs []slog.Attr) error {
	args := make([]any, 0, len(attrs))
	var callAttrs []slog.Attr
	for _, a := range attrs {
		if a.Key == "toolset" {
			continue // the host's logger already names the toolset
		}
		args = append(args, a)
		if a.Key != "tool" {
			callAttrs = append(callAttrs, a)
		}
	}
	h.logger.Log(ctx, level, message, args...)
	callID := plugmodel.CallID(ctx)
	if cl, ok := h.svc.(CallLogger); ok && callID != "" && !safety.GateMade(callID) {
		cl.LogCall(ctx, callID, level, message, callAttrs)
	}
	return nil
}
