package mcpserver

import (
	"context"
	"crypto/sha256"
	"crypto/subtle"
	"errors"
	"log/slog"
	"net"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/mark3labs/mcp-go/server"

	"github.com/godot-mcp/godot-mcp/host/config"
	"github.com/godot-mcp/godot-mcp/internal/connlimit"
	"github.com/godot-mcp/godot-mcp/internal/logcap"
)

// HTTPGuard wraps an MCP HTTP handler with the spec's defences:
// DNS-rebinding protection (foreign Host → 421, foreign Origin → 403) and
// bearer authentication (missing or wrong → 401; too many wrong ones from
// one address → 429 for a while).
type HTTPGuard struct {
	// Protect turns on the Host/Origin checks.
	Protect bool
	// AllowedHosts are extra hostnames (besides loopback) accepted in Host and Origin.
	AllowedHosts []string
	// Token, when non-empty, is the required bearer token.
	Token string
	// NoTokenLimit turns off the per-address block after wrong tokens, for
	// a Token too long to guess (the attach endpoint's 256 bits): there,
	// a block would only lock out the servers that hold the token, since
	// every local process shares the loopback address (#24.3).
	NoTokenLimit bool
	// Log receives refusals (values cut short, each kind at most once per
	// 10 s); nil discards them.
	Log *slog.Logger

	now func() time.Time // the clock of the wrong-token limiter (tests)
}

// Wrong bearer tokens are limited per client address: maxAuthFailures
// within authWindow block the address for authBlock (429, every request).
const (
	maxAuthFailures = 10
	authWindow      = time.Minute
	authBlock       = time.Minute
	maxAuthClients  = 4096 // addresses tracked at most; beyond, the oldest window is dropped
)

// authLimiter counts wrong tokens per client address.
type authLimiter struct {
	mu      sync.Mutex
	now     func() time.Time
	clients map[string]*authClient
}

type authClient struct {
	failures     int
	windowStart  time.Time
	blockedUntil time.Time
	logged       bool // a warning was logged in this window
}

// blocked reports how long addr stays blocked (0: not blocked).
func (l *authLimiter) blocked(addr string) time.Duration {
	l.mu.Lock()
	defer l.mu.Unlock()
	if c := l.clients[addr]; c != nil {
		if d := c.blockedUntil.Sub(l.now()); d > 0 {
			return d
		}
	}
	return 0
}

// fail records a wrong token from addr; it reports whether to log it and
// whether addr is now blocked.
func (l *authLimiter) fail(addr string) (log, blocked bool) {
	l.mu.Lock()
	defer l.mu.Unlock()
	now := l.now()
	c := l.clients[addr]
	if c == nil || now.Sub(c.windowStart) > authWindow {
		if c == nil && len(l.clients) >= maxAuthClients {
			l.evictOldest()
		}
		c = &authClient{windowStart: now}
		l.clients[addr] = c
	}
	c.failures++
	log = !c.logged
	c.logged = true
	if c.failures >= maxAuthFailures {
		c.blockedUntil = now.Add(authBlock)
		c.failures, c.windowStart, c.logged = 0, now, false
		return true, true
	}
	return log, false
}

func (l *authLimiter) evictOldest() {
	var oldest string
	var at time.Time
	for a, c := range l.clients {
		if oldest == "" || c.windowStart.Before(at) {
			oldest, at = a, c.windowStart
		}
	}
	delete(l.clients, oldest)
}

// clientAddr is the request's remote IP (without the port).
func clientAddr(r *http.Request) string {
	if h, _, err := net.SplitHostPort(r.RemoteAddr); err == nil {
		return h
	}
	return r.RemoteAddr
}

// tokenOK compares SHA-256 digests in constant time, so neither the
// content nor the length of the token leaks through timing.
func (g HTTPGuard) tokenOK(presented string) bool {
	want := sha256.Sum256([]byte(g.Token))
	got := sha256.Sum256([]byte(presented))
	return g.Token != "" && subtle.ConstantTimeCompare(want[:], got[:]) == 1
}

// NewHTTPGuard derives the guard from the configuration:
// GODOT_MCP_HTTP_HOST_ORIGIN_PROTECTION=auto protects loopback binds.
func NewHTTPGuard(cfg config.Config) HTTPGuard {
	g := HTTPGuard{Token: cfg.AuthToken}
	switch cfg.HostOriginProtection {
	case "true":
		g.Protect = true
	case "false":
		g.Protect = false
	default:
		g.Protect = config.IsLoopbackHost(cfg.HTTPHost)
	}
	if !config.IsLoopbackHost(cfg.HTTPHost) && cfg.HTTPHost != "" && cfg.HTTPHost != "0.0.0.0" && cfg.HTTPHost != "::" {
		g.AllowedHosts = append(g.AllowedHosts, cfg.HTTPHost)
	}
	return g
}

func (g HTTPGuard) hostAllowed(host string) bool {
	if h, _, err := net.SplitHostPort(host); err == nil {
		host = h
	}
	if config.IsLoopbackHost(host) {
		return true
	}
	for _, a := range g.AllowedHosts {
		if strings.EqualFold(a, host) {
			return true
		}
	}
	return false
}

// Wrap applies the guard to next. A refused request's connection is closed
// after the answer (no keep-alive for strangers).
func (g HTTPGuard) Wrap(next http.Handler) http.Handler {
	limiter := &authLimiter{now: g.now, clients: map[string]*authClient{}}
	if limiter.now == nil {
		limiter.now = time.Now
	}
	log := g.Log
	if log == nil {
		log = slog.New(slog.DiscardHandler)
	}
	warn := logcap.NewLimiter(warnEvery)
	refuse := func(w http.ResponseWriter, r *http.Request, status int, answer, key, msg string, args ...any) {
		warn.WarnAs(log, key, msg, append(args, "remote", r.RemoteAddr)...)
		w.Header().Set("Connection", "close")
		http.Error(w, answer, status)
	}
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if g.Protect {
			if !g.hostAllowed(r.Host) {
				refuse(w, r, http.StatusMisdirectedRequest, "misdirected request: Host "+logcap.Value(r.Host)+" is not served here",
					"host", "refused an HTTP request for a foreign Host (possible DNS rebinding)", "host", logcap.Value(r.Host))
				return
			}
			if origin := r.Header.Get("Origin"); origin != "" {
				u, err := url.Parse(origin)
				if err != nil || u.Host == "" || !g.hostAllowed(u.Host) {
					refuse(w, r, http.StatusForbidden, "forbidden: cross-origin requests are refused",
						"origin", "refused a cross-origin HTTP request", "origin", logcap.Value(origin))
					return
				}
			}
		}
		if g.Token != "" {
			addr := clientAddr(r)
			if d := limiter.blocked(addr); d > 0 && !g.NoTokenLimit {
				w.Header().Set("Retry-After", strconv.Itoa(int(d.Round(time.Second)/time.Second)+1))
				w.Header().Set("Connection", "close")
				http.Error(w, "too many requests: too many wrong bearer tokens from this address; retry later", http.StatusTooManyRequests)
				return
			}
			auth := r.Header.Get("Authorization")
			const prefix = "Bearer "
			if len(auth) <= len(prefix) || !strings.EqualFold(auth[:len(prefix)], prefix) || !g.tokenOK(auth[len(prefix):]) {
				// Logged by the limiter: at most once per address and window.
				if g.NoTokenLimit {
					warn.WarnAs(log, "token", "refused an HTTP request with a missing or wrong bearer token", "remote", addr)
				} else if logIt, blocked := limiter.fail(addr); logIt {
					if blocked {
						log.Warn("refused an HTTP request with a missing or wrong bearer token; address blocked", "remote", addr, "for", authBlock)
					} else {
						log.Warn("refused an HTTP request with a missing or wrong bearer token", "remote", addr)
					}
				}
				w.Header().Set("WWW-Authenticate", `Bearer realm="godot-mcp"`)
				w.Header().Set("Connection", "close")
				http.Error(w, "unauthorized: send Authorization: Bearer <GODOT_MCP_AUTH_TOKEN>", http.StatusUnauthorized)
				return
			}
		}
		next.ServeHTTP(w, r)
	})
}

// HTTPHandler is the guarded streamable HTTP handler, served at /mcp.
//
// Sessions follow the spec: the id minted at initialize is the only one
// served; a terminated (DELETE) or never-issued Mcp-Session-Id gets 404, so
// the client starts a new session. Requests are bounded (see limits).
func (s *Server) HTTPHandler() http.Handler {
	return s.GuardedHTTPHandler(NewHTTPGuard(s.cfg))
}

// GuardedHTTPHandler is HTTPHandler behind g instead of the configured
// guard (the attach endpoint: its own token, loopback only).
func (s *Server) GuardedHTTPHandler(g HTTPGuard) http.Handler {
	sessions := newSessionIDs(httpMaxSessions)
	h := server.NewStreamableHTTPServer(s.mcp,
		server.WithEndpointPath("/mcp"),
		// Our guard answers foreign hosts with 421 before this handler runs.
		server.WithDisableLocalhostProtection(true),
		server.WithStreamableHTTPLogger(s.log),
		server.WithSessionIdManager(sessions),
		// A standalone stream's dead client is noticed at the next write.
		server.WithHeartbeatInterval(httpHeartbeat),
		// Notifications are not lost between requests (delivery.go).
		server.WithEventStore(newRingEventStore()),
	)
	mux := http.NewServeMux()
	mux.Handle("/mcp", newHTTPLimits(sessions, s.log).wrap(withRequestLedgers(sessions, promptArgumentsChecked(h))))
	if g.Log == nil {
		g.Log = s.log
	}
	return g.Wrap(mux)
}

// ListenHTTP binds the HTTP transport's address. A wildcard binds what was
// asked: 0.0.0.0 IPv4 only, :: IPv6 only (Go's "tcp" would make 0.0.0.0
// the dual-stack [::]).
func ListenHTTP(ctx context.Context, cfg config.Config) (net.Listener, error) {
	network := "tcp"
	if ip := net.ParseIP(strings.Trim(cfg.HTTPHost, "[]")); ip != nil && ip.IsUnspecified() {
		network = "tcp6"
		if ip.To4() != nil {
			network = "tcp4"
		}
	}
	var lc net.ListenConfig
	return lc.Listen(ctx, network, cfg.HTTPAddr())
}

// ServeHTTP listens on ln and serves the guarded MCP endpoint until ctx ends.
//
// Connections are bounded (connlimit): at most httpMaxConns, fewer when the
// process's file limit is low, so descriptors stay free for the editor
// link and the plugins; when all are taken, the connection idle the
// longest is closed for the newcomer. Headers must arrive within
// httpHeaderTimeout and a keep-alive connection idle for httpIdleTimeout is
// closed.
func (s *Server) ServeHTTP(ctx context.Context, ln net.Listener) error {
	srv := &http.Server{
		Handler:           s.HTTPHandler(),
		ReadHeaderTimeout: httpHeaderTimeout,
		IdleTimeout:       httpIdleTimeout,
		MaxHeaderBytes:    httpMaxHeaderBytes,
		ErrorLog:          slog.NewLogLogger(s.log.Handler(), slog.LevelDebug),
	}
	warn := logcap.NewLimiter(warnEvery)
	lim := connlimit.New(connlimit.Budget(httpMaxConns, fdReserve, 16), func(remote net.Addr, why connlimit.Reason) {
		if why == connlimit.Evicted {
			warn.Warn(s.log, "closed the HTTP connection idle the longest to make room (connection limit reached)", "remote", remote.String())
		} else {
			warn.Warn(s.log, "refused an HTTP connection: every connection is busy", "remote", remote.String())
		}
	})
	lim.Install(srv)
	errc := make(chan error, 1)
	go func() { errc <- srv.Serve(lim.Listener(ln)) }()
	select {
	case <-ctx.Done():
		shutdownCtx, cancel := context.WithTimeout(context.Background(), 3*time.Second)
		defer cancel()
		_ = srv.Shutdown(shutdownCtx)
		return nil
	case err := <-errc:
		if errors.Is(err, http.ErrServerClosed) {
			return nil
		}
		return err
	}
}
