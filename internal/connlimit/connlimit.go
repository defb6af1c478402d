// Package connlimit caps the connections an http.Server holds, so that
// strangers cannot exhaust file descriptors or lock out the client that
// matters (the editor on the bridge, the agent on the HTTP transport).
//
// A Limiter wraps the server's listener and watches its connections' states.
// At most Max connections are open at once. When a new connection arrives
// and the limit is reached, the connection that has waited longest without
// doing anything useful is closed to make room: one that has not sent a
// request yet (StateNew), one idle between requests (StateIdle), or one
// hijacked (a WebSocket) that has not been settled as authenticated. A
// connection in the middle of a request, or settled, is never evicted; when
// every connection is such, the new one is refused (closed at once).
//
// So a silent or slow stranger holding sockets delays nobody: the next
// connection evicts the oldest of its sockets. Only Max connections that are
// all busy or authenticated refuse newcomers.
package connlimit

import (
	"context"
	"net"
	"net/http"
	"sync"
	"time"
)

// Reason says why a connection was dropped.
type Reason int

const (
	// Evicted: an idle or unauthenticated connection closed to make room.
	Evicted Reason = iota
	// Refused: a new connection closed because every slot is busy.
	Refused
)

// Limiter tracks the connections of one listener.
type Limiter struct {
	max    int
	onDrop func(remote net.Addr, why Reason)

	mu    sync.Mutex
	conns map[*Conn]struct{}
}

// New returns a Limiter for at most max connections. onDrop, when set, is
// called (outside the limiter's lock) for each evicted or refused connection.
func New(max int, onDrop func(remote net.Addr, why Reason)) *Limiter {
	if max < 1 {
		max = 1
	}
	return &Limiter{max: max, onDrop: onDrop, conns: map[*Conn]struct{}{}}
}

// Max is the connection limit.
func (l *Limiter) Max() int { return l.max }

// Len is the number of open connections.
func (l *Limiter) Len() int {
	l.mu.Lock()
	defer l.mu.Unlock()
	return len(l.conns)
}

// Conn is a tracked connection.
type Conn struct {
	net.Conn
	l         *Limiter
	state     http.ConnState // guarded by l.mu
	since     time.Time      // last state change, guarded by l.mu
	settled   bool           // guarded by l.mu
	closeOnce sync.Once
	closeErr  error
}

// Close closes the connection and frees its slot.
func (c *Conn) Close() error {
	c.closeOnce.Do(func() {
		c.l.mu.Lock()
		delete(c.l.conns, c)
		c.l.mu.Unlock()
		c.closeErr = c.Conn.Close()
	})
	return c.closeErr
}

func (c *Conn) evictableLocked() bool {
	if c.settled {
		return false
	}
	switch c.state {
	case http.StateNew, http.StateIdle, http.StateHijacked:
		return true
	}
	return false
}

// Listener wraps ln so that accepted connections are tracked.
func (l *Limiter) Listener(ln net.Listener) net.Listener { return &listener{Listener: ln, l: l} }

type listener struct {
	net.Listener
	l *Limiter
}

func (ln *listener) Accept() (net.Conn, error) {
	for {
		c, err := ln.Listener.Accept()
		if err != nil {
			return nil, err
		}
		tc := &Conn{Conn: c, l: ln.l, state: http.StateNew, since: time.Now()}
		victim, ok := ln.l.admit(tc)
		if victim != nil {
			_ = victim.Close()
			ln.l.dropped(victim.RemoteAddr(), Evicted)
		}
		if ok {
			return tc, nil
		}
		_ = c.Close()
		ln.l.dropped(c.RemoteAddr(), Refused)
	}
}

// admit registers c, choosing a victim to evict when the limit is reached.
// It reports false when there is no room and nothing to evict.
func (l *Limiter) admit(c *Conn) (victim *Conn, ok bool) {
	l.mu.Lock()
	defer l.mu.Unlock()
	if len(l.conns) >= l.max {
		for o := range l.conns {
			if o.evictableLocked() && (victim == nil || o.since.Before(victim.since)) {
				victim = o
			}
		}
		if victim == nil {
			return nil, false
		}
		delete(l.conns, victim) // its slot is c's from now on
	}
	l.conns[c] = struct{}{}
	return victim, true
}

func (l *Limiter) dropped(remote net.Addr, why Reason) {
	if l.onDrop != nil {
		l.onDrop(remote, why)
	}
}

// ConnState is the http.Server.ConnState hook; Install sets it.
func (l *Limiter) ConnState(c net.Conn, s http.ConnState) {
	tc, ok := c.(*Conn)
	if !ok {
		return
	}
	l.mu.Lock()
	tc.state = s
	tc.since = time.Now()
	l.mu.Unlock()
}

type connKey struct{}

// ConnContext is the http.Server.ConnContext hook; Install sets it.
func (l *Limiter) ConnContext(ctx context.Context, c net.Conn) context.Context {
	if tc, ok := c.(*Conn); ok {
		return context.WithValue(ctx, connKey{}, tc)
	}
	return ctx
}

// Install sets srv's ConnState and ConnContext hooks (keeping any set).
func (l *Limiter) Install(srv *http.Server) {
	prevState, prevCtx := srv.ConnState, srv.ConnContext
	srv.ConnState = func(c net.Conn, s http.ConnState) {
		l.ConnState(c, s)
		if prevState != nil {
			prevState(c, s)
		}
	}
	srv.ConnContext = func(ctx context.Context, c net.Conn) context.Context {
		if prevCtx != nil {
			ctx = prevCtx(ctx, c)
		}
		return l.ConnContext(ctx, c)
	}
}

// Settle marks the connection serving ctx's request as authenticated: it is
// never evicted. It reports whether ctx belongs to a tracked connection.
func Settle(ctx context.Context) bool {
	tc, ok := ctx.Value(connKey{}).(*Conn)
	if !ok {
		return false
	}
	tc.l.mu.Lock()
	tc.settled = true
	tc.l.mu.Unlock()
	return true
}

// Budget returns how many connections a listener may hold so that reserve
// descriptors stay free for everything else (the editor link, plugin pipes
// and sockets, project files): min(want, (FileLimit()-reserve)/3), at least
// floor. A third, so that two listeners (the bridge and the HTTP transport)
// together still leave a third of the rest besides the reserve. An
// unreadable limit gives want.
func Budget(want, reserve, floor int) int {
	lim := FileLimit()
	if lim == 0 {
		return want
	}
	n := want
	if avail := int64(lim) - int64(reserve); avail/3 < int64(n) {
		n = int(avail / 3)
	}
	if n < floor {
		n = floor
	}
	return n
}
