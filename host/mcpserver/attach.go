package mcpserver

import (
	"bytes"
	"context"
	"io"
	"net/http"
	"strconv"
	"sync"
	"sync/atomic"
)

// AttachHTTPHandler is the endpoint other godot-mcp servers attach through
// (host/attach): at /mcp GuardedHTTPHandler, with the stdio fast path's
// treatment of tools/call, and at /attach the owner's probe, both behind g. mcp-go's HTTP layer
// decodes a request several times and re-encodes the result, which for a
// multi-megabyte script or image costs seconds; here, as on stdio, the
// arguments reach the tool as the raw bytes posted (mcp-go sees {}), and a
// raw structured result is spliced into the answer mcp-go writes.
func (s *Server) AttachHTTPHandler(g HTTPGuard, probe http.Handler) http.Handler {
	inner := s.GuardedHTTPHandler(HTTPGuard{}) // g below checks first, before the body is read
	mux := http.NewServeMux()
	if probe != nil {
		mux.Handle("/attach", probe)
	}
	mux.Handle("/mcp", s.attachMCP(inner))
	return g.Wrap(mux)
}

func (s *Server) attachMCP(inner http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Method != http.MethodPost || r.Body == nil {
			inner.ServeHTTP(w, r)
			return
		}
		body, err := io.ReadAll(r.Body)
		if err != nil {
			http.Error(w, "reading the request: "+err.Error(), http.StatusBadRequest)
			return
		}
		slim, call, _, ok := sliceToolCall(body)
		if !ok {
			slim = body
		}
		r.Body = io.NopCloser(bytes.NewReader(slim))
		r.ContentLength = int64(len(slim))
		if !ok {
			inner.ServeHTTP(w, r)
			return
		}
		call.token = s.spliceToken()
		attachFastServed.Add(1)
		r = r.WithContext(context.WithValue(r.Context(), stdioCallKey{}, call))
		inner.ServeHTTP(&spliceWriter{ResponseWriter: w, call: call}, r)
	})
}

// attachFastServed counts the tools/call requests AttachHTTPHandler
// served with raw arguments (tests read it).
var attachFastServed atomic.Uint64

// spliceWriter puts a call's raw structured result in place of its
// placeholder as mcp-go writes the answer: one Write per message, as a
// JSON body or one server-sent event. Other messages (notifications sent
// while the tool runs) may be written from other goroutines meanwhile;
// only the answer carries the placeholder, and it is encoded after the
// handler stored the raw result, so the result is read only then.
type spliceWriter struct {
	http.ResponseWriter
	call *stdioCall
	mu   sync.Mutex
	done bool
}

func (w *spliceWriter) Write(p []byte) (int, error) {
	w.mu.Lock()
	done := w.done
	w.mu.Unlock()
	if done {
		return w.ResponseWriter.Write(p)
	}
	marker := []byte(`"structuredContent":` + strconv.Quote(w.call.token))
	i := bytes.Index(p, marker)
	if i < 0 {
		return w.ResponseWriter.Write(p)
	}
	w.mu.Lock()
	w.done = true
	w.mu.Unlock()
	head := i + len(`"structuredContent":`)
	for _, part := range [][]byte{p[:head], w.call.structured, p[i+len(marker):]} {
		if _, err := w.ResponseWriter.Write(part); err != nil {
			return 0, err
		}
	}
	return len(p), nil
}

// Flush keeps event streams streaming.
func (w *spliceWriter) Flush() {
	if f, ok := w.ResponseWriter.(http.Flusher); ok {
		f.Flush()
	}
}

// Unwrap lets http.ResponseController reach the connection.
func (w *spliceWriter) Unwrap() http.ResponseWriter { return w.ResponseWriter }
