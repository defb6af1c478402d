package mcpserver

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net"
	"net/http"
	"strconv"
	"sync/atomic"
	"time"

	"github.com/mark3labs/mcp-go/mcp"
	"github.com/mark3labs/mcp-go/server"

	"github.com/godot-mcp/godot-mcp/host/envelope"
	"github.com/godot-mcp/godot-mcp/internal/logcap"
)

// MaxHTTPBody is the largest request body the HTTP transport reads: the
// bridge's frame limit, since a tool call's arguments travel to the editor
// in one frame. A larger body is answered 413 without being buffered.
const MaxHTTPBody = envelope.MaxFrameBytes

// Limits of the HTTP transport (variables so that tests can shorten them).
var (
	// httpMaxConns is the most connections held at once (lowered to fit
	// the file limit, see connlimit.Budget).
	httpMaxConns = 256
	// httpMaxStreams is the most standalone SSE streams (GET) at once.
	httpMaxStreams = 32
	// httpMaxSessions is the most live sessions; the least recently used
	// is forgotten beyond it (its client gets 404 and starts a new one).
	httpMaxSessions = 1024
	// httpHeaderTimeout bounds reading a request's headers.
	httpHeaderTimeout = 10 * time.Second
	// httpIdleTimeout closes a keep-alive connection idle that long.
	httpIdleTimeout = 60 * time.Second
	// httpBodyTimeout bounds reading a request's body (408 beyond it).
	httpBodyTimeout = 60 * time.Second
	// httpHeartbeat is the interval of pings on a standalone SSE stream.
	httpHeartbeat = 30 * time.Second
)

const (
	httpMaxHeaderBytes = 64 << 10
	// fdReserve descriptors are kept free of HTTP connections for the
	// editor link, plugin processes (pipes, gRPC sockets) and files.
	fdReserve = 512
	// Bodies over bigBody are read by at most maxBigBodies requests at a
	// time (the others wait), so that concurrent large posts cannot hold
	// more than maxBigBodies * MaxHTTPBody.
	bigBody      = 1 << 20
	maxBigBodies = 4
	// warnEvery is how often a warning that strangers can repeat is
	// logged at most, per kind.
	warnEvery = 10 * time.Second
)

// httpLimits bounds what one request may hold: its body (size, time,
// concurrency of large ones), standalone streams, and which session ids
// are served.
type httpLimits struct {
	sessions *sessionIDs
	log      *slog.Logger
	warn     *logcap.Limiter
	big      chan struct{}
	streams  atomic.Int64
}

func newHTTPLimits(sessions *sessionIDs, log *slog.Logger) *httpLimits {
	return &httpLimits{sessions: sessions, log: log, warn: logcap.NewLimiter(warnEvery), big: make(chan struct{}, maxBigBodies)}
}

func (l *httpLimits) wrap(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		legacy := !mcp.IsModernProtocol(r.Header.Get(mcp.HeaderProtocolVersion))
		switch r.Method {
		case http.MethodPost:
			release, ok := l.readBody(w, r)
			if !ok {
				return
			}
			defer release()
		case http.MethodGet, http.MethodDelete:
			// mcp-go validates the session of a POST only.
			if id := r.Header.Get(server.HeaderKeySessionID); legacy && id != "" && !l.sessions.known(id) {
				http.Error(w, "Invalid session ID: unknown or terminated; start a new session with initialize", http.StatusNotFound)
				return
			}
			if legacy && r.Method == http.MethodDelete && r.Header.Get(server.HeaderKeySessionID) == "" {
				http.Error(w, "DELETE needs the Mcp-Session-Id of the session to terminate", http.StatusBadRequest)
				return
			}
			if r.Method == http.MethodGet {
				if n := l.streams.Add(1); n > int64(httpMaxStreams) {
					l.streams.Add(-1)
					l.warn.Warn(l.log, "refused an SSE stream: too many open", "limit", httpMaxStreams, "remote", r.RemoteAddr)
					w.Header().Set("Retry-After", "5")
					http.Error(w, fmt.Sprintf("too many open streams (limit %d); retry later", httpMaxStreams), http.StatusServiceUnavailable)
					return
				}
				defer l.streams.Add(-1)
			}
		}
		next.ServeHTTP(w, r)
	})
}

// readBody reads r's body within MaxHTTPBody and httpBodyTimeout and puts
// it back as a byte reader, or answers 413/408/400 itself. release ends the
// request's hold on a large-body slot.
func (l *httpLimits) readBody(w http.ResponseWriter, r *http.Request) (release func(), ok bool) {
	release = func() {}
	if r.ContentLength > MaxHTTPBody {
		tooLarge(w)
		return release, false
	}
	rc := http.NewResponseController(w)
	_ = rc.SetReadDeadline(time.Now().Add(httpBodyTimeout))
	defer func() { _ = rc.SetReadDeadline(time.Time{}) }()
	body := http.MaxBytesReader(w, r.Body, MaxHTTPBody)
	var chunks chunkedBody
	err := chunks.readFrom(body, bigBody+1)
	if err == nil { // more than bigBody: wait for a large-body slot
		timer := time.NewTimer(httpBodyTimeout)
		defer timer.Stop()
		select {
		case l.big <- struct{}{}:
			release = func() { <-l.big }
		case <-r.Context().Done():
			return release, false
		case <-timer.C:
			w.Header().Set("Retry-After", "5")
			w.Header().Set("Connection", "close")
			http.Error(w, "the server is reading other large requests; retry later", http.StatusServiceUnavailable)
			return release, false
		}
		_ = rc.SetReadDeadline(time.Now().Add(httpBodyTimeout))
		if err = chunks.readFrom(body, MaxHTTPBody+1); err == nil {
			err = &http.MaxBytesError{Limit: MaxHTTPBody} // cannot happen: MaxBytesReader stops first
		}
	}
	if errors.Is(err, io.EOF) {
		err = nil
	}
	if err != nil {
		release()
		var tooBig *http.MaxBytesError
		var ne net.Error
		switch {
		case errors.As(err, &tooBig):
			tooLarge(w)
		case errors.As(err, &ne) && ne.Timeout():
			l.warn.Warn(l.log, "dropped a request whose body was not sent in time", "timeout", httpBodyTimeout, "remote", r.RemoteAddr)
			w.Header().Set("Connection", "close")
			http.Error(w, "request body not received within "+httpBodyTimeout.String(), http.StatusRequestTimeout)
		default:
			w.Header().Set("Connection", "close")
			http.Error(w, "cannot read the request body", http.StatusBadRequest)
		}
		return func() {}, false
	}
	data := chunks.bytes()
	r.Body = io.NopCloser(bytes.NewReader(data))
	r.ContentLength = int64(len(data))
	return release, true
}

// chunkedBody reads in fixed chunks, so that a body refused for its size
// costs its size once (a growing buffer would cost about three times).
type chunkedBody struct {
	chunks [][]byte
	n      int
}

const bodyChunk = 256 << 10

// readFrom reads until EOF (returned as io.EOF), an error, or until the
// body holds limit bytes (nil).
func (c *chunkedBody) readFrom(r io.Reader, limit int) error {
	for c.n < limit {
		if len(c.chunks) == 0 || len(c.chunks[len(c.chunks)-1]) == cap(c.chunks[len(c.chunks)-1]) {
			c.chunks = append(c.chunks, make([]byte, 0, bodyChunk))
		}
		last := c.chunks[len(c.chunks)-1]
		room := min(cap(last)-len(last), limit-c.n)
		k, err := r.Read(last[len(last) : len(last)+room])
		c.chunks[len(c.chunks)-1] = last[:len(last)+k]
		c.n += k
		if err != nil {
			return err
		}
	}
	return nil
}

func (c *chunkedBody) bytes() []byte {
	if len(c.chunks) == 1 {
		return c.chunks[0]
	}
	out := make([]byte, 0, c.n)
	for _, ch := range c.chunks {
		out = append(out, ch...)
	}
	return out
}

func tooLarge(w http.ResponseWriter) {
	w.Header().Set("Connection", "close")
	http.Error(w, "request body larger than "+strconv.Itoa(MaxHTTPBody>>20)+" MiB (the bridge's frame limit); send large content in several calls", http.StatusRequestEntityTooLarge)
}
