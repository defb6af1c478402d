package attach

import (
	"context"
	"crypto/rand"
	"crypto/subtle"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"net"
	"net/http"
	"os"
	"strings"
	"time"

	"github.com/godot-mcp/godot-mcp/internal/connlimit"
	"github.com/godot-mcp/godot-mcp/internal/logcap"
)

// The attach endpoint's limits are the HTTP transport's
// (host/mcpserver/http_limits.go): any local process can connect to it, and
// must not make the owner hold sockets (descriptors) without end (#24.4).
// The connection limit shrinks with a low file limit (connlimit.Budget
// keeps fdReserve descriptors free); the connection idle the longest makes
// room for a newcomer, and a refused request closes its connection
// (mcpserver.HTTPGuard).
const (
	maxConns       = 256
	fdReserve      = 512
	headerTimeout  = 10 * time.Second
	idleTimeout    = 60 * time.Second
	maxHeaderBytes = 64 << 10
)

// Published is the owner's attach endpoint. Close withdraws it.
type Published struct {
	Info Info
	path string
	srv  *http.Server
	log  *slog.Logger
}

// Publish serves the endpoint handler builds, given the token it must
// require and the owner's probe (which answers GET /attach), on an
// ephemeral loopback port, and writes the attach file of bridgeURL's port
// (its URL is http://127.0.0.1:PORT/mcp). handler serves the streamable
// HTTP MCP handler at /mcp and probe at /attach, both behind the same
// Host/Origin and token checks. The token is 32 random bytes; the file is
// readable by the user alone.
func Publish(bridgeURL, version, policy string, handler func(token string, probe http.Handler) http.Handler, log *slog.Logger) (*Published, error) {
	if log == nil {
		log = slog.New(slog.DiscardHandler)
	}
	path, err := Path(bridgeURL)
	if err != nil {
		return nil, err
	}
	var b [32]byte
	if _, err := rand.Read(b[:]); err != nil {
		return nil, err
	}
	token := hex.EncodeToString(b[:])
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return nil, fmt.Errorf("attach: %w", err)
	}
	p := &Published{
		Info: Info{URL: "http://" + ln.Addr().String() + "/mcp", Token: token, PID: os.Getpid(), BridgeURL: bridgeURL, Version: version, Policy: policy},
		path: path,
		log:  log,
	}
	p.srv = &http.Server{
		Handler:           handler(token, http.HandlerFunc(p.probe)),
		ReadHeaderTimeout: headerTimeout,
		IdleTimeout:       idleTimeout,
		MaxHeaderBytes:    maxHeaderBytes,
		ErrorLog:          slog.NewLogLogger(log.Handler(), slog.LevelDebug),
	}
	warn := logcap.NewLimiter(10 * time.Second)
	lim := connlimit.New(connlimit.Budget(maxConns, fdReserve, 16), func(remote net.Addr, why connlimit.Reason) {
		if why == connlimit.Evicted {
			warn.Warn(log, "closed the attach connection idle the longest to make room (connection limit reached)", "remote", remote.String())
		} else {
			warn.Warn(log, "refused an attach connection: every connection is busy", "remote", remote.String())
		}
	})
	lim.Install(p.srv)
	go func() {
		if err := p.srv.Serve(lim.Listener(ln)); err != nil && !errors.Is(err, http.ErrServerClosed) {
			log.Error("attach endpoint stopped", "err", err)
		}
	}()
	if err := writeFile(path, p.Info); err != nil {
		p.srv.Close()
		return nil, fmt.Errorf("attach: writing %s: %w", path, err)
	}
	log.Info("other godot-mcp servers for this bridge attach here", "file", path, "endpoint", p.Info.URL)
	return p, nil
}

// probe answers GET /attach with the owner's pid and version, to a caller
// holding the token: how an attaching server tells a live owner from a
// stale file.
func (p *Published) probe(w http.ResponseWriter, r *http.Request) {
	if !validBearer(r.Header.Get("Authorization"), p.Info.Token) {
		w.Header().Set("WWW-Authenticate", `Bearer realm="godot-mcp-attach"`)
		http.Error(w, "unauthorized", http.StatusUnauthorized)
		return
	}
	w.Header().Set("Content-Type", "application/json")
	json.NewEncoder(w).Encode(map[string]any{"pid": p.Info.PID, "version": p.Info.Version, "bridge_url": p.Info.BridgeURL})
}

func validBearer(auth, token string) bool {
	const prefix = "Bearer "
	return len(auth) > len(prefix) && strings.EqualFold(auth[:len(prefix)], prefix) &&
		subtle.ConstantTimeCompare([]byte(auth[len(prefix):]), []byte(token)) == 1
}

// Close removes the attach file (when it is still this server's) and
// closes the endpoint: attached servers see their connections end.
func (p *Published) Close() {
	removeIfOwn(p.path, p.Info.PID, p.Info.Token)
	ctx, cancel := context.WithTimeout(context.Background(), 500*time.Millisecond)
	defer cancel()
	// Open event streams never end by themselves: Shutdown waits for the
	// short requests, Close cuts the streams.
	_ = p.srv.Shutdown(ctx)
	_ = p.srv.Close()
}

// Find reads the attach file of bridgeURL's port and checks that its owner
// answers with the token. ErrNoFile: no server published one; another
// error: the file is stale or unusable.
func Find(ctx context.Context, bridgeURL string) (Info, error) {
	path, err := Path(bridgeURL)
	if err != nil {
		return Info{}, err
	}
	info, err := readFile(path)
	if err != nil {
		return info, err
	}
	if err := probe(ctx, info); err != nil {
		return info, fmt.Errorf("attach: the server named in %s (pid %d) does not answer: %w", path, info.PID, err)
	}
	return info, nil
}

// probe checks that info's owner answers GET /attach as itself.
func probe(ctx context.Context, info Info) error {
	ctx, cancel := context.WithTimeout(ctx, 2*time.Second)
	defer cancel()
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, strings.TrimSuffix(info.URL, "/mcp")+"/attach", nil)
	if err != nil {
		return err
	}
	req.Header.Set("Authorization", "Bearer "+info.Token)
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		return err
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		return fmt.Errorf("HTTP %d", resp.StatusCode)
	}
	var got struct {
		PID int `json:"pid"`
	}
	if err := json.NewDecoder(resp.Body).Decode(&got); err != nil || got.PID != info.PID {
		return errors.New("another process answers on its endpoint")
	}
	return nil
}
