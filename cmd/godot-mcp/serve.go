package main

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net"
	"net/http"
	"sync"
	"time"

	"github.com/godot-mcp/godot-mcp/host/app"
	"github.com/godot-mcp/godot-mcp/host/attach"
	"github.com/godot-mcp/godot-mcp/host/buildinfo"
	"github.com/godot-mcp/godot-mcp/host/config"
	"github.com/godot-mcp/godot-mcp/host/mcpserver"
	"github.com/godot-mcp/godot-mcp/internal/rawjson"
)

// attachWait bounds how long a server whose bridge port is taken looks for
// the owner's attach file: the owner publishes it once it has started
// (after its default toolsets). takeoverWait is the bound after an owner
// exited: its attached servers race to take over, the losers attaching to
// the winner.
const (
	attachWait   = 5 * time.Second
	takeoverWait = 10 * time.Second
)

// serveOrAttach serves MCP as the bridge's owner, or, when another
// godot-mcp server owns the bridge port, through it (stdio only): see
// host/attach. When that owner exits, this server takes the bridge over
// (or attaches to whichever attached server took it) and goes on serving
// its client in the same session; calls in flight at that moment are
// answered with a JSON-RPC error (attach.OwnerGoneCode).
func serveOrAttach(ctx context.Context, cfg config.Config, log *slog.Logger, opts app.Options, stdin io.Reader, stdout, stderr io.Writer) error {
	var lines *attach.Lines           // the client's input, once this server has attached
	var resume *attach.OwnerGoneError // the session to resume after a takeover
	for {
		a, err := startOrFindOwner(ctx, cfg, log, opts, resume != nil)
		if err != nil {
			return err
		}
		if a.app != nil {
			if resume == nil {
				return serveOwner(ctx, cfg, log, a.app, stdin, stdout, stderr)
			}
			log.Warn("took over the editor bridge from the server that exited; toolsets it had enabled are not enabled here",
				"previous_owner_pid", resume.Owner.PID, "bridge", a.app.Bridge.URL())
			in, out := resumeSession(lines, resume, stdout)
			return serveOwner(ctx, cfg, log, a.app, in, out, stderr)
		}
		if cfg.Transport == "http" {
			return fmt.Errorf("the bridge port of %s is taken by another godot-mcp server (pid %d); an HTTP server cannot attach to it: set GODOT_MCP_BRIDGE_URL to another port", cfg.BridgeURL, a.owner.PID)
		}
		if own := approvalPolicy(cfg); own != "auto" && own != a.owner.Policy {
			owner := a.owner.Policy
			if owner == "" {
				owner = "unknown (an older godot-mcp)"
			}
			return fmt.Errorf("this server's approval policy (%s) differs from that of the godot-mcp server that owns the editor bridge %s (pid %d: %s); attached, its own policy would not apply, so it does not attach. "+
				"Give both servers the same GODOT_MCP_APPROVAL, GODOT_MCP_APPROVAL_SCOPE and GODOT_MCP_APPROVAL_URL, or give this one a bridge of its own (GODOT_MCP_BRIDGE_URL, and the addon's godot_mcp/bridge_url)",
				own, a.owner.BridgeURL, a.owner.PID, owner)
		}
		log.Info("another godot-mcp server owns the editor bridge: serving this client through it",
			"owner_pid", a.owner.PID, "owner_version", a.owner.Version, "bridge", a.owner.BridgeURL)
		if lines == nil {
			lines = attach.NewLines(stdin)
		}
		px := &attach.Proxy{Info: a.owner, Lines: lines, Out: stdout, Log: log.With("component", "attach")}
		if resume != nil {
			px.Init, px.Initialized = resume.Init, resume.Initialized
		}
		err = px.Run(ctx)
		var gone *attach.OwnerGoneError
		if !errors.As(err, &gone) {
			return err
		}
		log.Warn("the godot-mcp server this one was attached to exited; taking over the editor bridge or attaching to the new owner",
			"owner_pid", gone.Owner.PID, "err", gone.Err)
		resume = gone
	}
}

type ownerOrApp struct {
	app   *app.App
	owner attach.Info
}

// startOrFindOwner binds the bridge (an App), or finds the live server
// that owns its port. takeover: the previous owner just exited, its port
// may still be held for a moment.
func startOrFindOwner(ctx context.Context, cfg config.Config, log *slog.Logger, opts app.Options, takeover bool) (ownerOrApp, error) {
	started := time.Now()
	deadline := started.Add(attachWait)
	if takeover {
		deadline = started.Add(takeoverWait)
	}
	for {
		a, err := app.Start(ctx, opts)
		if err == nil {
			return ownerOrApp{app: a}, nil
		}
		if !bridgeTaken(err) || attach.BridgePort(cfg.BridgeURL) == "" {
			return ownerOrApp{}, err
		}
		info, ferr := attach.Find(ctx, cfg.BridgeURL)
		if ferr == nil {
			return ownerOrApp{owner: info}, nil
		}
		// A missing file: the owner may still be starting. A stale one
		// (the owner is gone, something else holds the port) is given a
		// moment only during a takeover, when the port changes hands.
		if time.Now().After(deadline) || (!takeover && !errors.Is(ferr, attach.ErrNoFile) && time.Since(started) > 2*time.Second) {
			return ownerOrApp{}, fmt.Errorf("%w; and no godot-mcp server to attach to: %v", err, ferr)
		}
		log.Debug("bridge port taken, waiting for its owner's attach file", "err", ferr)
		select {
		case <-ctx.Done():
			return ownerOrApp{}, ctx.Err()
		case <-time.After(100 * time.Millisecond):
		}
	}
}

// bridgeTaken reports whether app.Start failed binding the bridge port.
func bridgeTaken(err error) bool {
	var op *net.OpError
	return errors.As(err, &op) && op.Op == "listen"
}

// serveOwner serves MCP on the configured transport as the bridge's owner,
// publishing the attach endpoint for servers started after it.
func serveOwner(ctx context.Context, cfg config.Config, log *slog.Logger, a *app.App, stdin io.Reader, stdout, stderr io.Writer) error {
	defer a.Close()
	if attach.BridgePort(a.Bridge.URL()) != "" && attach.BridgePort(cfg.BridgeURL) != "" {
		pub, err := attach.Publish(a.Bridge.URL(), buildinfo.Version, approvalPolicy(cfg), func(token string, probe http.Handler) http.Handler {
			return a.Server.AttachHTTPHandler(mcpserver.HTTPGuard{Protect: true, Token: token, NoTokenLimit: true}, probe)
		}, log.With("component", "attach"))
		if err != nil {
			log.Warn("other godot-mcp servers for this bridge cannot attach to this one", "err", err)
		} else {
			defer pub.Close()
		}
	}
	switch cfg.Transport {
	case "http":
		ln, err := mcpserver.ListenHTTP(ctx, cfg)
		if err != nil {
			return fmt.Errorf("http: %w", err)
		}
		log.Info("MCP over streamable HTTP", "url", "http://"+ln.Addr().String()+"/mcp")
		return a.Server.ServeHTTP(ctx, ln)
	default:
		err := a.Server.ServeStdio(ctx, stdin, stdout, stderr)
		if ctx.Err() != nil && errors.Is(err, context.Canceled) {
			return nil // SIGTERM or SIGINT: a clean exit
		}
		return err
	}
}

// resumeSession continues a client's session on this server after it took
// the bridge over: the client's initialize request (and initialized
// notification) are replayed, their answer is not sent again, and the
// client is told the tool list changed (the toolsets the previous owner
// had enabled are not enabled here).
func resumeSession(lines *attach.Lines, gone *attach.OwnerGoneError, stdout io.Writer) (io.Reader, io.Writer) {
	var prefix []byte
	var initID []byte
	if gone.Init != nil {
		prefix = append(append(prefix, bytes.TrimSpace(gone.Init)...), '\n')
		if m, err := rawjson.Object(gone.Init); err == nil {
			initID, _ = rawjson.Get(m, "id")
		}
		if gone.Initialized {
			prefix = append(prefix, `{"jsonrpc":"2.0","method":"notifications/initialized"}`+"\n"...)
		}
	}
	return lines.Reader(prefix, nil), &replayFilter{w: stdout, id: initID}
}

// replayFilter drops the answer to the replayed initialize request (the
// client had it from the previous owner) and says tools/list_changed in
// its place.
type replayFilter struct {
	mu      sync.Mutex
	w       io.Writer
	id      []byte
	dropped bool
}

func (f *replayFilter) Write(p []byte) (int, error) {
	f.mu.Lock()
	drop := !f.dropped && f.id != nil && isAnswerTo(p, f.id)
	if drop {
		f.dropped = true
	}
	f.mu.Unlock()
	if drop {
		if _, err := f.w.Write([]byte(`{"jsonrpc":"2.0","method":"notifications/tools/list_changed"}` + "\n")); err != nil {
			return 0, err
		}
		return len(p), nil
	}
	return f.w.Write(p)
}

func isAnswerTo(msg, id []byte) bool {
	m, err := rawjson.Object(bytes.TrimSpace(msg))
	if err != nil {
		return false
	}
	if _, ok := rawjson.Get(m, "method"); ok {
		return false
	}
	got, ok := rawjson.Get(m, "id")
	return ok && bytes.Equal(got, id)
}

// approvalPolicy words cfg's approval policy for the attach file: "auto",
// or the approver, its scope and, for a webhook, a digest of its URL (a
// secret). Equal words, equal policy.
func approvalPolicy(cfg config.Config) string {
	if cfg.Approval == "" || cfg.Approval == "auto" {
		return "auto"
	}
	p := cfg.Approval + ", scope " + cfg.ApprovalScope.String()
	if cfg.Approval == "webhook" {
		h := sha256.Sum256([]byte(cfg.ApprovalURL))
		p += ", URL sha256:" + hex.EncodeToString(h[:8])
	}
	return p
}
