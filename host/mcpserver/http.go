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
	"strings"
	"time"

	"github.com/mark3labs/mcp-go/server"

	"github.com/godot-mcp/godot-mcp/host/config"
	"github.com/godot-mcp/godot-mcp/internal/connlimit"
	"github.com/godot-mcp/godot-mcp/internal/logcap"
)

// HTTPGuard wraps an MCP HTTP handler with the spec's defences:
// DNS-rebinding protection (foreign Host → 421, foreign Origin → 403) and
// bearer authentication (missing or wrong → 401).
type HTTPGuard struct {
	// Protect turns on the Host/Origin checks.
	Protect bool
	// AllowedHosts are extra hostnames (besides loopback) accepted in Host and Origin.
	AllowedHosts []string
	// Token, when non-empty, is the required bearer token.
	Token string
	// Log receives refusals (values cut short, each kind at most once per
	// 10 s); nil discards them.
	Log *slog.Logger
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
	log := g.Log
	if log == nil {
		log = slog.New(slog.DiscardHandler)
	}
	warn := logcap.NewLimiter(warnEvery)
	tokenHash := sha256.Sum256([]byte(g.Token))
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
			auth := r.Header.Get("Authorization")
			const prefix = "Bearer "
			ok := len(auth) > len(prefix) && strings.EqualFold(auth[:len(prefix)], prefix)
			if ok {
				// Hashing first keeps the compare's time independent of
				// the token's length.
				got := sha256.Sum256([]byte(auth[len(prefix):]))
				ok = subtle.ConstantTimeCompare(got[:], tokenHash[:]) == 1
			}
			if !ok {
				w.Header().Set("WWW-Authenticate", `Bearer realm="godot-mcp"`)
				refuse(w, r, http.StatusUnauthorized, "unauthorized: send Authorization: Bearer <GODOT_MCP_AUTH_TOKEN>",
					"bearer", "refused an HTTP request: missing or wrong bearer token")
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
	sessions := newSessionIDs(httpMaxSessions)
	h := server.NewStreamableHTTPServer(s.mcp,
		server.WithEndpointPath("/mcp"),
		// Our guard answers foreign hosts with 421 before this handler runs.
		server.WithDisableLocalhostProtection(true),
		server.WithStreamableHTTPLogger(s.log),
		server.WithSessionIdManager(sessions),
		// A standalone stream's dead client is noticed at the next write.
		server.WithHeartbeatInterval(httpHeartbeat),
	)
	mux := http.NewServeMux()
	mux.Handle("/mcp", newHTTPLimits(sessions, s.log).wrap(h))
	g := NewHTTPGuard(s.cfg)
	g.Log = s.log
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
