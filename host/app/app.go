// Package app assembles a running godot-mcp host: the bridge, the toolset
// manager with its plugins, and the MCP server. cmd/godot-mcp serves it over
// a transport; tests run it in-process.
package app

import (
	"context"
	"encoding/json"
	"fmt"
	"log/slog"
	"time"

	"github.com/godot-mcp/godot-mcp/host/bridge"
	"github.com/godot-mcp/godot-mcp/host/config"
	"github.com/godot-mcp/godot-mcp/host/contract"
	"github.com/godot-mcp/godot-mcp/host/envelope"
	"github.com/godot-mcp/godot-mcp/host/mcpserver"
	"github.com/godot-mcp/godot-mcp/host/pluginhost"
	"github.com/godot-mcp/godot-mcp/host/toolsets"
)

// Options configure an App.
type Options struct {
	Config config.Config
	Logger *slog.Logger
	// Self is the godot-mcp executable serving the built-in toolsets
	// (`Self toolset serve NAME`); empty means no built-ins.
	Self string
	// Builtins are the built-in toolset names.
	Builtins []string
}

// App is a started host.
type App struct {
	Bridge   *bridge.Bridge
	Toolsets *toolsets.Manager
	Server   *mcpserver.Server
	log      *slog.Logger
}

// hostServices lends plugins the bridge and progress notifications.
type hostServices struct{ app *App }

func (h hostServices) Send(ctx context.Context, command string, params json.RawMessage, timeout time.Duration) envelope.Response {
	return h.app.Bridge.Send(ctx, command, params, timeout)
}

func (h hostServices) EditorCommand(command string) (envelope.CommandInfo, bool, *envelope.Error) {
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
		ServerVersion: contract.Version,
		Logger:        log.With("component", "bridge"),
		EnabledToolsets: func() []string {
			if a.Toolsets == nil {
				return []string{}
			}
			return a.Toolsets.Enabled()
		},
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
		specs = toolsets.BuiltinSpecs(opts.Self, opts.Builtins)
	}
	if cfg.PluginDir != "" {
		found, err := pluginhost.Discover(cfg.PluginDir)
		if err != nil {
			log.Warn("some plugin-dir entries were skipped", "dir", cfg.PluginDir, "err", err)
		}
		specs = append(specs, found...)
	}
	svc := hostServices{app: a}
	pluginLog := log.With("component", "plugin")
	unqualified := ""
	if cfg.ConformanceFixture {
		unqualified = "conformance" // test-only: see config GODOT_MCP_CONFORMANCE_FIXTURE
		log.Warn("GODOT_MCP_CONFORMANCE_FIXTURE is set: toolset 'conformance' serves unqualified tool and prompt names (for the MCP conformance suite only)")
	}
	a.Toolsets = toolsets.New(toolsets.Options{
		Specs: specs,
		Launch: func(ctx context.Context, spec pluginhost.Spec) (toolsets.Plugin, error) {
			return pluginhost.Launch(ctx, spec, svc, pluginLog.With("toolset", spec.Name))
		},
		Logger:      log.With("component", "toolsets"),
		CallTimeout: cfg.CallTimeout,
		Unqualified: unqualified,
	})
	a.Server = mcpserver.New(mcpserver.Options{Config: cfg, Bridge: br, Toolsets: a.Toolsets, Logger: log})
	if err := a.enableDefaults(ctx, cfg.DefaultToolsets); err != nil {
		a.Close()
		return nil, err
	}
	return a, nil
}

// enableDefaults enables GODOT_MCP_DEFAULT_TOOLSETS ("all" or names).
func (a *App) enableDefaults(ctx context.Context, names []string) error {
	if len(names) == 1 && names[0] == "all" {
		names = nil
		for _, st := range a.Toolsets.List(ctx) {
			names = append(names, st.Name)
		}
	}
	for _, name := range names {
		if err := a.Server.EnableToolset(ctx, name); err != nil {
			return fmt.Errorf("GODOT_MCP_DEFAULT_TOOLSETS: %s", err.Hint)
		}
	}
	return nil
}

// Close stops every plugin and the bridge.
func (a *App) Close() {
	if a.Toolsets != nil {
		a.Toolsets.Close()
	}
	if a.Bridge != nil {
		a.Bridge.Close()
	}
}
