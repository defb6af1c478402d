package mcpserver

import (
	"context"
	"crypto/subtle"
	"errors"
	"net"
	"net/http"
	"net/url"
	"strings"
	"time"

	"github.com/mark3labs/mcp-go/server"

	"github.com/godot-mcp/godot-mcp/host/config"
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

// Wrap applies the guard to next.
func (g HTTPGuard) Wrap(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if g.Protect {
			if !g.hostAllowed(r.Host) {
				http.Error(w, "misdirected request: Host "+r.Host+" is not served here", http.StatusMisdirectedRequest)
				return
			}
			if origin := r.Header.Get("Origin"); origin != "" {
				u, err := url.Parse(origin)
				if err != nil || u.Host == "" || !g.hostAllowed(u.Host) {
					http.Error(w, "forbidden: cross-origin requests are refused", http.StatusForbidden)
					return
				}
			}
		}
		if g.Token != "" {
			auth := r.Header.Get("Authorization")
			const prefix = "Bearer "
			if len(auth) <= len(prefix) || !strings.EqualFold(auth[:len(prefix)], prefix) ||
				subtle.ConstantTimeCompare([]byte(auth[len(prefix):]), []byte(g.Token)) != 1 {
				w.Header().Set("WWW-Authenticate", `Bearer realm="godot-mcp"`)
				http.Error(w, "unauthorized: send Authorization: Bearer <GODOT_MCP_AUTH_TOKEN>", http.StatusUnauthorized)
				return
			}
		}
		next.ServeHTTP(w, r)
	})
}

// HTTPHandler is the guarded streamable HTTP handler, served at /mcp.
func (s *Server) HTTPHandler() http.Handler {
	return s.GuardedHTTPHandler(NewHTTPGuard(s.cfg))
}

// GuardedHTTPHandler is HTTPHandler behind g instead of the configured
// guard (the attach endpoint: its own token, loopback only).
func (s *Server) GuardedHTTPHandler(g HTTPGuard) http.Handler {
	h := server.NewStreamableHTTPServer(s.mcp,
		server.WithEndpointPath("/mcp"),
		// Our guard answers foreign hosts with 421 before this handler runs.
		server.WithDisableLocalhostProtection(true),
		server.WithStreamableHTTPLogger(s.log),
	)
	mux := http.NewServeMux()
	mux.Handle("/mcp", h)
	return g.Wrap(mux)
}

// ServeHTTP listens on ln and serves the guarded MCP endpoint until ctx ends.
func (s *Server) ServeHTTP(ctx context.Context, ln net.Listener) error {
	srv := &http.Server{Handler: s.HTTPHandler(), ReadHeaderTimeout: 10 * time.Second}
	errc := make(chan error, 1)
	go func() { errc <- srv.Serve(ln) }()
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
