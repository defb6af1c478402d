// Package app assembles a running godot-mcp host: the bridge, the toolset
// manager with its plugins, and the MCP server. cmd/godot-mcp serves it over
// a transport; tests run it in-process.
package app

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/godot-mcp/godot-mcp/host/bridge"
	"github.com/godot-mcp/godot-mcp/host/buildinfo"
	"github.com/godot-mcp/godot-mcp/host/config"
	"github.com/godot-mcp/godot-mcp/host/envelope"
	"github.com/godot-mcp/godot-mcp/host/mcpserver"
	"github.com/godot-mcp/godot-mcp/host/pluginhost"
	"github.com/godot-mcp/godot-mcp/host/profile"
	"github.com/godot-mcp/godot-mcp/host/projectfiles"
	"github.com/godot-mcp/godot-mcp/host/toolsets"
	"github.com/godot-mcp/godot-mcp/host/trust"
	"github.com/godot-mcp/godot-mcp/internal/plugmodel"
	"github.com/godot-mcp/godot-mcp/sdk/contract"
)

// Options configure an App.
type Options struct {
	Config config.Config
	Logger *slog.Logger
	// Self is the godot-mcp executable serving the built-in toolsets
	// (`Self toolset serve NAME`); empty means no built-ins.
	Self string
	// Builtins are the built-in toolsets' declarations (names, descriptions
	// and keywords, known without starting their plugins).
	Builtins []mcpserver.ToolsetSummary
	// BuiltinInfo reads the built-in toolsets' full descriptions in this
	// process (in the background, once): listing or enabling them starts
	// no plugin (the first call does). Nil: they are described by starting
	// their plugins.
	BuiltinInfo func() map[string]plugmodel.ToolsetInfo
}

// App is a started host.
type App struct {
	Bridge   *bridge.Bridge
	Toolsets *toolsets.Manager
	Server   *mcpserver.Server
	log      *slog.Logger

	stopDefaults context.CancelFunc
	defaults     sync.WaitGroup // enabling GODOT_MCP_DEFAULT_TOOLSETS
}

// hostServices lends plugins the bridge and progress notifications.
type hostServices struct{ app *App }

func (h hostServices) Send(ctx context.Context, command string, params json.RawMessage, timeout time.Duration) envelope.Response {
	return h.app.Bridge.Send(ctx, command, params, timeout)
}

func (h hostServices) EditorCommand(command string) (envelope.CommandInfo, bool, *contract.Error) {
	return h.app.Bridge.Command(command)
}

func (h hostServices) Progress(_ context.Context, token string, progress, total float64, message string) {
	if s := h.app.Server; s != nil {
		s.Progress(token, progress, total, message)
	}
}

func (h hostServices) LogCall(_ context.Context, callID string, level slog.Level, message string, attrs []slog.Attr) {
	if s := h.app.Server; s != nil {
		s.LogCall(callID, level, message, attrs)
	}
}

// Start binds the bridge, discovers toolsets, builds the MCP server and
// enables GODOT_MCP_DEFAULT_TOOLSETS. Close releases everything.
func Start(ctx context.Context, opts Options) (*App, error) {
	cfg := opts.Config
	log := opts.Logger
	if log == nil {
		log = slog.New(slog.DiscardHandler)
	}
	a := &App{log: log}
	br, err := bridge.New(bridge.Options{
		URL:           cfg.BridgeURL,
		Token:         cfg.BridgeToken,
		ServerVersion: buildinfo.Version,
		Logger:        log.With("component", "bridge"),
		EnabledToolsets: func() []string {
			if a.Toolsets == nil {
				return []string{}
			}
			return a.Toolsets.Enabled()
		},
		OnPeerChange: a.peerChanged,
	})
	if err != nil {
		return nil, err
	}
	if err := br.Start(ctx); err != nil {
		return nil, fmt.Errorf("bridge: %w", err)
	}
	a.Bridge = br
	log.Info("bridge listening", "url", br.URL())

	var specs []pluginhost.Spec
	if opts.Self != "" {
		names := make([]string, len(opts.Builtins))
		for i, b := range opts.Builtins {
			names[i] = b.Name
		}
		specs = toolsets.BuiltinSpecs(opts.Self, names)
	}
	var skipped []mcpserver.SkippedPlugin
	if cfg.PluginDir != "" {
		found, err := pluginhost.Discover(cfg.PluginDir)
		if err != nil {
			log.Warn("some plugin-dir entries were skipped", "dir", cfg.PluginDir, "err", err)
			var se *pluginhost.SkippedError
			if errors.As(err, &se) {
				for _, f := range se.Skipped {
					skipped = append(skipped, mcpserver.SkippedPlugin{File: f.File, Reason: f.Reason})
				}
			} else {
				skipped = append(skipped, mcpserver.SkippedPlugin{File: cfg.PluginDir, Reason: err.Error()})
			}
		}
		// A third-party toolset named like a built-in would never be
		// served (built-ins win): say so where the user looks.
		taken := map[string]bool{}
		for _, s := range specs {
			taken[s.Name] = true
		}
		for _, f := range found {
			if taken[f.Name] {
				log.Warn("plugin-dir toolset named like a built-in; skipped", "name", f.Name, "path", f.Path)
				skipped = append(skipped, mcpserver.SkippedPlugin{File: filepath.Base(f.Path),
					Reason: fmt.Sprintf("the name %s is taken by the built-in toolset %s, which is served instead; rename the executable to give the toolset a name of its own", f.Name, f.Name)})
				continue
			}
			taken[f.Name] = true
			specs = append(specs, f)
		}
	}
	svc := hostServices{app: a}
	pluginLog := log.With("component", "plugin")
	unqualified := ""
	if cfg.ConformanceFixture {
		unqualified = "conformance" // test-only: see config GODOT_MCP_CONFORMANCE_FIXTURE
		log.Warn("GODOT_MCP_CONFORMANCE_FIXTURE is set: toolset 'conformance' serves unqualified tool and prompt names (for the MCP conformance suite only)")
	}
	var pins toolsets.Trust
	if cfg.PluginPinning {
		store, err := trust.Default()
		if err != nil {
			log.Warn("third-party toolsets are not pinned", "err", err)
		} else {
			pins = store
		}
	}
	a.Toolsets = toolsets.New(toolsets.Options{
		Specs: specs,
		Launch: func(ctx context.Context, spec pluginhost.Spec) (toolsets.Plugin, error) {
			return pluginhost.Launch(ctx, spec, svc, pluginLog.With("toolset", spec.Name))
		},
		Logger:      log.With("component", "toolsets"),
		CallTimeout: cfg.CallTimeout,
		Unqualified: unqualified,
		EditorCode:  &projectfiles.Installer{Bridge: br, ProjectDir: cfg.ProjectDir, Log: log.With("component", "extinstall")},
		BuiltinInfo: opts.BuiltinInfo,
		Lazy:        !cfg.EagerToolsets,
		IdleStop:    cfg.ToolsetIdle,
		Trust:       pins,
	})
	// Third-party toolsets describe themselves now, for the instructions
	// the client reads at initialize.
	a.Toolsets.DescribeThirdParty()
	var builtins []mcpserver.ToolsetSummary
	if opts.Self != "" {
		builtins = opts.Builtins
	}
	a.Server = mcpserver.New(mcpserver.Options{Config: cfg, Bridge: br, Toolsets: a.Toolsets, Logger: log, SkippedPlugins: skipped, Builtins: builtins})
	if err := a.enableDefaults(ctx, startToolsets(cfg)); err != nil {
		a.Close()
		return nil, err
	}
	return a, nil
}

// defaultsInParallel is how many toolsets enabled at start are started at
// once.
const defaultsInParallel = 4

// startToolsets are the toolsets the user chose to enable at start:
// GODOT_MCP_PROFILE's, then GODOT_MCP_DEFAULT_TOOLSETS ("all" stands for
// every toolset).
func startToolsets(cfg config.Config) []string {
	var names []string
	if p, ok := profile.Lookup(cfg.Profile); ok {
		names = p.Toolsets
		if names == nil {
			names = []string{mcpserver.AllToolsets}
		}
	}
	return append(slices.Clone(names), cfg.DefaultToolsets...)
}

// enableDefaults enables GODOT_MCP_PROFILE and GODOT_MCP_DEFAULT_TOOLSETS ("all" or names) in
// the background, so that the MCP handshake is answered at once; until they
// are enabled the server holds the requests that depend on them (see
// mcpserver.Server.HoldUntil). An unknown name fails the start; a toolset
// that fails to start is logged and listed as failed.
func (a *App) enableDefaults(ctx context.Context, names []string) error {
	if slices.Contains(names, mcpserver.AllToolsets) {
		names = a.Toolsets.Names()
	}
	var uniq []string
	for _, name := range names {
		if !slices.Contains(a.Toolsets.Names(), name) {
			return fmt.Errorf("GODOT_MCP_PROFILE / GODOT_MCP_DEFAULT_TOOLSETS: unknown toolset %q; known toolsets: %s", name, strings.Join(a.Toolsets.Names(), ", "))
		}
		if !slices.Contains(uniq, name) {
			uniq = append(uniq, name)
		}
	}
	names = uniq
	if len(names) == 0 {
		return nil
	}
	ctx, a.stopDefaults = context.WithCancel(ctx)
	ready := make(chan struct{})
	a.Server.HoldUntil(ready)
	a.defaults.Add(1)
	go func() {
		defer a.defaults.Done()
		defer close(ready)
		// Plugins start a few at a time: one after another, fifteen of
		// them outlast the hold on a loaded machine (CI saw tools/list
		// answered with nine), all at once they starve each other's
		// handshakes.
		sem := make(chan struct{}, defaultsInParallel)
		var wg sync.WaitGroup
		for _, name := range names {
			wg.Add(1)
			sem <- struct{}{}
			go func() {
				defer func() { <-sem; wg.Done() }()
				if err := a.Server.EnableToolset(ctx, name); err != nil {
					a.log.Error("GODOT_MCP_DEFAULT_TOOLSETS: a toolset could not be enabled", "toolset", name, "err", err.Hint)
				}
			}()
		}
		wg.Wait()
	}()
	return nil
}

// peerChanged applies min_godot when an editor connects: toolsets enabled
// before (GODOT_MCP_DEFAULT_TOOLSETS, or with no editor) that need a newer
// Godot are disabled, their tools removed, and the editor told.
func (a *App) peerChanged(connected bool, peer *bridge.PeerInfo) {
	if a.Toolsets == nil || a.Server == nil {
		return
	}
	godot := ""
	if connected && peer != nil {
		godot = peer.GodotVersion
	}
	out := a.Toolsets.EditorChanged(godot)
	if len(out.RemovedTools)+len(out.RemovedResources)+len(out.RemovedPrompts) == 0 {
		return
	}
	a.Server.RemoveTools(out.RemovedTools...)
	a.Server.RemoveResources(out.RemovedResources...)
	a.Server.RemovePrompts(out.RemovedPrompts...)
	a.Bridge.PushToolsets(a.Toolsets.Enabled())
}

// Close stops every plugin and the bridge.
func (a *App) Close() {
	if a.stopDefaults != nil {
		a.stopDefaults()
		a.defaults.Wait()
	}
	if a.Toolsets != nil {
		a.Toolsets.Close()
	}
	if a.Bridge != nil {
		a.Bridge.Close()
	}
}
