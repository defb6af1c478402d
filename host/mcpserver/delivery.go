package mcpserver

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"sync"
	"time"

	"github.com/mark3labs/mcp-go/server"
)

// A call's notifications (progress, log records) reach the client before
// its answer, on both transports, without sleeping on a guess.
//
// mcp-go (v1.2.1) queues a notification and writes it from a goroutine of
// its own, the answer from another: on stdio the two race for the pipe, and
// over streamable HTTP a request's forwarder that has taken a notification
// off the queue drops it when the answer is written first. So every stream
// a call can answer on has a deliveryLedger: the notifications sent through
// it are counted where they are queued and where the transport's writer
// writes them, and a call that sent some waits (finishCall) until the
// writer has written as many as were queued up to its last one. stdio has
// one ledger for the session (lineWriter); each HTTP request of the
// 2026-07-28 protocol one of its own (its own queue and forwarder).
//
// A 2025-06-18 HTTP session shares one queue between its requests, so a
// notification may be written on another request's stream, and a just
// answered request's forwarder may take the next call's notification and
// drop it. There the server keeps a small event store: mcp-go then stops a
// request's forwarder before writing its answer and records, not drops, what
// the forwarder holds, for a client that resumes the stream. A client that
// does not resume would still miss a notification the forwarder had not
// written when the answer came, so such a session has one ledger for all its
// streams (withRequestLedgers), and the answer waits for it as on stdio.
//
// A fix of both races in mcp-go would retire this file.
type deliveryLedger struct {
	mu      sync.Mutex
	queued  int64
	written int64
	changed chan struct{}
}

func newDeliveryLedger() *deliveryLedger {
	return &deliveryLedger{changed: make(chan struct{})}
}

// deliveryWait bounds how long an answer waits for its notifications to be
// written: a client that stopped reading cannot hold a call forever.
const deliveryWait = 5 * time.Second

type ledgerKey struct{}

func withLedger(ctx context.Context, l *deliveryLedger) context.Context {
	return context.WithValue(ctx, ledgerKey{}, l)
}

func ledgerFrom(ctx context.Context) *deliveryLedger {
	l, _ := ctx.Value(ledgerKey{}).(*deliveryLedger)
	return l
}

// send queues one notification through send and answers its place in the
// ledger's order (0 when it was not queued).
func (l *deliveryLedger) send(send func() error) (int64, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	if err := send(); err != nil {
		return 0, err
	}
	l.queued++
	return l.queued, nil
}

// observe counts the notifications a writer wrote in p (one JSON-RPC
// message, or one SSE event).
func (l *deliveryLedger) observe(p []byte) {
	if !isCallNotification(p) {
		return
	}
	l.mu.Lock()
	l.written++
	close(l.changed)
	l.changed = make(chan struct{})
	l.mu.Unlock()
}

// waitWritten blocks until the writer has written n notifications, ctx
// ends or deliveryWait passes; it reports whether they were written.
func (l *deliveryLedger) waitWritten(ctx context.Context, n int64) bool {
	timer := time.NewTimer(deliveryWait)
	defer timer.Stop()
	for {
		l.mu.Lock()
		done, changed := l.written >= n, l.changed
		l.mu.Unlock()
		if done {
			return true
		}
		select {
		case <-changed:
		case <-timer.C:
			return false
		case <-ctx.Done():
			return false
		}
	}
}

// isCallNotification tells the notifications a call sends (the only ones
// counted as queued) from every other message a writer writes.
func isCallNotification(p []byte) bool {
	return bytes.Contains(p, []byte(`"method":"notifications/progress"`)) ||
		bytes.Contains(p, []byte(`"method":"notifications/message"`))
}

// ledgerWriter counts what an HTTP request's forwarder writes. It keeps
// http.Flusher, which mcp-go needs to stream.
type ledgerWriter struct {
	http.ResponseWriter
	l *deliveryLedger
}

func (w *ledgerWriter) Write(p []byte) (int, error) {
	n, err := w.ResponseWriter.Write(p)
	if err == nil {
		w.l.observe(p)
	}
	return n, err
}

func (w *ledgerWriter) Flush() {
	if f, ok := w.ResponseWriter.(http.Flusher); ok {
		f.Flush()
	}
}

func (w *ledgerWriter) Unwrap() http.ResponseWriter { return w.ResponseWriter }

// withRequestLedgers gives each POST of the 2026-07-28 protocol (no
// Mcp-Session-Id: one ephemeral session, queue and forwarder per request)
// a ledger of its own, and every request of a 2025-06-18 session (its
// POSTs and its standalone GET stream) the session's ledger: the session
// shares one notification queue between its streams, so a call's
// notification is counted as written on whichever stream of the session
// wrote it, and the call's answer waits for it (the answer written first
// stopped the request's forwarder, and the notification then went only to
// the event store: a client that does not resume never saw it).
func withRequestLedgers(sessions *sessionIDs, next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		var l *deliveryLedger
		switch id := r.Header.Get(server.HeaderKeySessionID); {
		case id != "" && (r.Method == http.MethodPost || r.Method == http.MethodGet):
			l = sessions.ledger(id)
		case id == "" && r.Method == http.MethodPost:
			l = newDeliveryLedger()
		}
		if l == nil {
			next.ServeHTTP(w, r)
			return
		}
		next.ServeHTTP(&ledgerWriter{ResponseWriter: w, l: l}, r.WithContext(withLedger(r.Context(), l)))
	})
}

// ringEventStore is the event store of 2025-06-18 HTTP sessions (see
// deliveryLedger): the last ringEvents events of each session, so that a
// long session's progress does not pile up in memory. A client resuming
// from an event older than that is told the ID is unknown, as for any
// event the store no longer has.
type ringEventStore struct {
	mu       sync.Mutex
	seq      uint64
	sessions map[string][]ringEvent
}

type ringEvent struct {
	id, stream string
	msg        json.RawMessage
}

const ringEvents = 256

func newRingEventStore() *ringEventStore {
	return &ringEventStore{sessions: map[string][]ringEvent{}}
}

func (s *ringEventStore) StoreEvent(_ context.Context, sessionID, streamID string, message json.RawMessage) (string, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.seq++
	id := fmt.Sprint(s.seq)
	log := append(s.sessions[sessionID], ringEvent{id: id, stream: streamID, msg: append(json.RawMessage(nil), message...)})
	if len(log) > ringEvents {
		log = append(log[:0:0], log[len(log)-ringEvents:]...)
	}
	s.sessions[sessionID] = log
	return id, nil
}

func (s *ringEventStore) ReplayEventsAfter(_ context.Context, sessionID, lastEventID string, send func(eventID string, message json.RawMessage) error) (string, error) {
	s.mu.Lock()
	log := s.sessions[sessionID]
	at := -1
	for i, e := range log {
		if e.id == lastEventID {
			at = i
			break
		}
	}
	if at < 0 {
		s.mu.Unlock()
		return "", fmt.Errorf("event %q: %w", lastEventID, server.ErrUnknownEventID)
	}
	stream := log[at].stream
	var after []ringEvent
	for _, e := range log[at+1:] {
		if e.stream == stream {
			after = append(after, e)
		}
	}
	s.mu.Unlock()
	for _, e := range after {
		if err := send(e.id, e.msg); err != nil {
			return stream, err
		}
	}
	return stream, nil
}

func (s *ringEventStore) PurgeSession(_ context.Context, sessionID string) error {
	s.mu.Lock()
	delete(s.sessions, sessionID)
	s.mu.Unlock()
	return nil
}
