package mcpserver

// Progress notifications of the calls under way.

import (
	"context"
	"crypto/rand"
	"strings"
	"sync/atomic"

	"github.com/mark3labs/mcp-go/mcp"
)

type progressTarget struct {
	ctx   context.Context
	token mcp.ProgressToken
	// last is the place of the call's last notification in its stream's
	// deliveryLedger (0: none sent through one).
	last *atomic.Int64
}

// trackProgress maps a call (and its client progress token, nil when the
// client asked for none) to a host-scoped opaque id that toolsets report
// progress and log records against.
func (s *Server) trackProgress(ctx context.Context, tok mcp.ProgressToken) string {
	id := "p" + rand.Text() // unguessable: another call cannot aim at it (#24.8)
	s.progMu.Lock()
	s.progress[id] = progressTarget{ctx: ctx, token: tok, last: new(atomic.Int64)}
	s.progMu.Unlock()
	return id
}

func (s *Server) untrackProgress(id string) progressTarget {
	s.progMu.Lock()
	t := s.progress[id]
	delete(s.progress, id)
	s.progMu.Unlock()
	return t
}

// finishCall ends a call's tracking. When the call sent notifications
// through a deliveryLedger, its answer waits until the transport has
// written them (delivery.go).
func (s *Server) finishCall(ctx context.Context, id string) {
	t := s.untrackProgress(id)
	if t.last == nil || t.last.Load() == 0 {
		return
	}
	if l := ledgerFrom(ctx); l != nil && !l.waitWritten(ctx, t.last.Load()) {
		s.log.Debug("answering before the call's notifications were written", "waited", deliveryWait)
	}
}

// notify sends one of a call's notifications, counted in the ledger of the
// stream the call answers on when it has one.
func (s *Server) notify(t progressTarget, send func() error) error {
	l := ledgerFrom(t.ctx)
	if l == nil {
		return send()
	}
	n, err := l.send(send)
	if err == nil {
		t.last.Store(n)
	}
	return err
}

// Progress sends notifications/progress for a host-scoped token; unknown or
// finished tokens are ignored.
func (s *Server) Progress(token string, progress, total float64, message string) {
	s.progMu.Lock()
	t, ok := s.progress[token]
	s.progMu.Unlock()
	if !ok || t.token == nil {
		return
	}
	params := map[string]any{"progressToken": t.token, "progress": progress}
	if total > 0 {
		params["total"] = total
	}
	if message = strings.TrimSpace(message); message != "" {
		params["message"] = message
	}
	if err := s.notify(t, func() error {
		return s.mcp.SendNotificationToClient(t.ctx, "notifications/progress", params)
	}); err != nil {
		s.log.Debug("progress notification dropped", "err", err)
	}
}
