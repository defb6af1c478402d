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
	"path/filepath"
	"runtime"
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
// require and the owner's probe (which answers GET /attach), on a Unix
// socket in the attach directory (bridge-PORT.sock, 0600), and writes the
// attach file of bridgeURL's port. handler serves the streamable HTTP MCP
// handler at /mcp and probe at /attach, both behind the same Host/Origin
// and token checks. The token is 32 random bytes; the file is readable by
// the user alone; the directory is the user's own and closed to others
// (checkDir): no other user can listen where attaching servers connect.
func Publish(bridgeURL, version, policy string, handler func(token string, probe http.Handler) http.Handler, log *slog.Logger) (*Published, error) {
	if log == nil {
		log = slog.New(slog.DiscardHandler)
	}
	path, err := Path(bridgeURL)
	if err != nil {
		return nil, err
	}
	if err := ensureDir(filepath.Dir(path)); err != nil {
		return nil, err
	}
	var b [32]byte
	if _, err := rand.Read(b[:]); err != nil {
		return nil, err
	}
	token := hex.EncodeToString(b[:])
	sock := socketPath(path)
	if len(sock) > maxSocketPath {
		return nil, fmt.Errorf("attach: the socket path %s is longer than %d bytes; set XDG_RUNTIME_DIR to a shorter directory of your own", sock, maxSocketPath)
	}
	// This server holds the bridge port: a socket left there is a dead
	// owner's. Only a socket is removed.
	if st, err := os.Lstat(sock); err == nil {
		if st.Mode().Type() != os.ModeSocket && runtime.GOOS != "windows" { // Windows may not type it
			return nil, fmt.Errorf("attach: %s is not a socket (%v); remove it", sock, st.Mode().Type())
		}
		_ = os.Remove(sock)
	}
	ln, err := net.Listen("unix", sock)
	if err != nil {
		return nil, fmt.Errorf("attach: %w", err)
	}
	if err := os.Chmod(sock, 0o600); err != nil && runtime.GOOS != "windows" {
		ln.Close()
		return nil, fmt.Errorf("attach: %w", err)
	}
	p := &Published{
		Info: Info{URL: endpointURL, Socket: sock, Token: token, PID: os.Getpid(), BridgeURL: bridgeURL, Version: version, Policy: policy},
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

// HTTPClient is an HTTP client for info's endpoint: every connection goes
// to its socket (to the URL's TCP address when there is none: only tests
// build such an Info).
func HTTPClient(info Info) *http.Client {
	return &http.Client{Transport: transport(info)}
}

func transport(info Info) *http.Transport {
	t := &http.Transport{
		MaxIdleConnsPerHost: 64,
		IdleConnTimeout:     90 * time.Second,
		DisableCompression:  true, // local: gzip would cost more than it saves
	}
	if info.Socket != "" {
		sock := info.Socket
		t.DialContext = func(ctx context.Context, _, _ string) (net.Conn, error) {
			var d net.Dialer
			return d.DialContext(ctx, "unix", sock)
		}
	}
	return t
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

// endpointURL is the attach endpoint's URL as HTTP sees it: the
// connection goes to the socket (Info.Socket); the Host is loopback for
// the endpoint's Host guard.
const endpointURL = "http://localhost/mcp"

// Find reads the attach file of bridgeURL's port and checks that its owner
// answers, on the socket in the attach directory, with the token.
// ErrNoFile: no server published one; another error: the file is stale
// (nothing in it is trusted then) or unusable.
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
	client := HTTPClient(info)
	defer client.CloseIdleConnections()
	resp, err := client.Do(req)
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
