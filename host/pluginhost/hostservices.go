package pluginhost

import (
	"context"
	"encoding/json"
	"log/slog"
	"time"

	"github.com/godot-mcp/godot-mcp/host/safety"
	"github.com/godot-mcp/godot-mcp/internal/logcap"
	"github.com/godot-mcp/godot-mcp/internal/plugmodel"
)

// gatedHost is the host's services as one toolset sees them
// (plugmodel.Host): its editor commands pass the safety gate first.
type gatedHost struct {
	svc    HostServices
	logger *slog.Logger
	gate   *safety.Gate
	warn   *logcap.Limiter // a rogue toolset can repeat its attempts at will
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

// Progress forwards a progress notification only for a running call of
// this toolset that carried the token: a toolset cannot send progress
// to another toolset's call, another client's, or a call that ended
// (#24.8).
func (h *gatedHost) Progress(ctx context.Context, token string, progress, total float64, message string) error {
	if token == "" {
		return nil
	}
	if !h.gate.LiveProgress(token) {
		h.warn.Warn(h.logger, "dropped a toolset's progress notification for a call that is not one of its running calls", "token_len", len(token))
		return nil
	}
	h.svc.Progress(ctx, token, progress, total, message)
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
	if callID == "" || safety.GateMade(callID) {
		return nil
	}
	if !h.gate.Live(callID) {
		// Only a running call of this toolset hears from it (#24.8).
		h.warn.Warn(h.logger, "kept a toolset's log record from the clients: it names a call that is not one of its running calls", "call_id_len", len(callID))
		return nil
	}
	if cl, ok := h.svc.(CallLogger); ok {
		cl.LogCall(ctx, callID, level, message, callAttrs)
	}
	return nil
}
