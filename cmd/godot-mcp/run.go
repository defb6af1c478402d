package main

import (
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"log/slog"
	"net"
	"os"
	"strings"
	"time"

	"github.com/godot-mcp/godot-mcp/host/addoninstall"
	"github.com/godot-mcp/godot-mcp/host/bridge"
	"github.com/godot-mcp/godot-mcp/host/config"
	"github.com/godot-mcp/godot-mcp/host/contract"
	"github.com/godot-mcp/godot-mcp/host/envelope"
	"github.com/godot-mcp/godot-mcp/host/mcpserver"
	"github.com/godot-mcp/godot-mcp/host/pluginhost"
	"github.com/godot-mcp/godot-mcp/host/toolsets"
	"github.com/godot-mcp/godot-mcp/plugins"
	"github.com/godot-mcp/godot-mcp/sdk"
)

// invocation is a parsed command line: settings plus the subcommand words.
type invocation struct {
	Config config.Config
	Args   []string
}

// run executes one godot-mcp command with injectable stdio.
func run(ctx context.Context, inv invocation, stdin io.Reader, stdout, stderr io.Writer) error {
	args := inv.Args
	if len(args) == 0 {
		return serve(ctx, inv.Config, stdin, stdout, stderr)
	}
	switch args[0] {
	case "serve":
		return serve(ctx, inv.Config, stdin, stdout, stderr)
	case "version":
		_, err := fmt.Fprintf(stdout, "godot-mcp %s (contract %d, min compatible %d)\n", contract.Version, contract.ContractVersion, contract.MinCompatibleContract)
		return err
	case "contract":
		return printContract(ctx, inv.Config, stdout)
	case "toolset":
		if len(args) != 3 || args[1] != "serve" {
			return errors.New("usage: godot-mcp toolset serve NAME")
		}
		ts, ok := plugins.Lookup(args[2])
		if !ok {
			return fmt.Errorf("no built-in toolset %q (built-ins: %s)", args[2], strings.Join(plugins.Names(), ", "))
		}
		sdk.Serve(ts)
		return nil
	case "addon":
		return addonCommand(args[1:], stdout, stderr)
	case "help":
		config.WriteUsage(stdout)
		return nil
	default:
		return fmt.Errorf("unknown command %q (try godot-mcp --help)", strings.Join(args, " "))
	}
}

func newLogger(w io.Writer, level string) *slog.Logger {
	var l slog.Level
	_ = l.UnmarshalText([]byte(level))
	return slog.New(slog.NewTextHandler(w, &slog.HandlerOptions{Level: l}))
}

// hostServices lends plugins the bridge and progress notifications.
type hostServices struct {
	bridge *bridge.Bridge
	srv    func() *mcpserver.Server
}

func (h hostServices) Send(ctx context.Context, command string, params json.RawMessage, timeout time.Duration) envelope.Response {
	return h.bridge.Send(ctx, command, params, timeout)
}

func (h hostServices) Progress(_ context.Context, token string, progress, total float64, message string) {
	if s := h.srv(); s != nil {
		s.Progress(token, progress, total, message)
	}
}

// toolsetSpecs lists the built-in toolsets and the third-party ones found in the plugin dir.
func toolsetSpecs(cfg config.Config, log *slog.Logger) ([]pluginhost.Spec, error) {
	self, err := os.Executable()
	if err != nil {
		return nil, err
	}
	specs := toolsets.BuiltinSpecs(self, plugins.Names())
	if cfg.PluginDir != "" {
		found, err := pluginhost.Discover(cfg.PluginDir)
		if err != nil {
			log.Warn("cannot read the plugin dir", "dir", cfg.PluginDir, "err", err)
		}
		specs = append(specs, found...)
	}
	return specs, nil
}

// serve runs the MCP server until the client goes away or ctx ends.
func serve(ctx context.Context, cfg config.Config, stdin io.Reader, stdout, stderr io.Writer) error {
	if err := cfg.CheckHTTPBind(); err != nil {
		return err
	}
	log := newLogger(stderr, cfg.LogLevel)
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()

	var srv *mcpserver.Server
	var manager *toolsets.Manager
	br, err := bridge.New(bridge.Options{
		URL:           cfg.BridgeURL,
		Token:         cfg.BridgeToken,
		ServerVersion: contract.Version,
		Logger:        log.With("component", "bridge"),
		EnabledToolsets: func() []string {
			if manager == nil {
				return []string{}
			}
			return manager.Enabled()
		},
	})
	if err != nil {
		return err
	}
	if err := br.Start(ctx); err != nil {
		return fmt.Errorf("bridge: %w", err)
	}
	defer br.Close()
	log.Info("bridge listening", "url", br.URL())

	specs, err := toolsetSpecs(cfg, log)
	if err != nil {
		return err
	}
	svc := hostServices{bridge: br, srv: func() *mcpserver.Server { return srv }}
	pluginLog := log.With("component", "plugin")
	manager = toolsets.New(toolsets.Options{
		Specs: specs,
		Launch: func(ctx context.Context, spec pluginhost.Spec) (toolsets.Plugin, error) {
			return pluginhost.Launch(ctx, spec, svc, pluginLog.With("toolset", spec.Name))
		},
		Logger: log.With("component", "toolsets"),
	})
	defer manager.Close()

	srv = mcpserver.New(mcpserver.Options{Config: cfg, Bridge: br, Toolsets: manager, Logger: log})
	if err := enableDefaults(ctx, srv, manager, cfg.DefaultToolsets); err != nil {
		return err
	}

	switch cfg.Transport {
	case "http":
		ln, err := net.Listen("tcp", cfg.HTTPAddr())
		if err != nil {
			return fmt.Errorf("http: %w", err)
		}
		log.Info("MCP over streamable HTTP", "url", "http://"+ln.Addr().String()+"/mcp")
		return srv.ServeHTTP(ctx, ln)
	default:
		return srv.ServeStdio(ctx, stdin, stdout, stderr)
	}
}

// enableDefaults enables GODOT_MCP_DEFAULT_TOOLSETS before serving.
func enableDefaults(ctx context.Context, srv *mcpserver.Server, m *toolsets.Manager, names []string) error {
	if len(names) == 1 && names[0] == "all" {
		names = nil
		for _, st := range m.List(ctx) {
			names = append(names, st.Name)
		}
	}
	for _, name := range names {
		if err := srv.EnableToolset(ctx, name); err != nil {
			return fmt.Errorf("GODOT_MCP_DEFAULT_TOOLSETS: %s", err.Hint)
		}
	}
	return nil
}

// printContract prints the whole tool surface as JSON.
func printContract(ctx context.Context, cfg config.Config, stdout io.Writer) error {
	self, err := os.Executable()
	if err != nil {
		return err
	}
	surface, err := buildSurface(ctx, self)
	if err != nil {
		return err
	}
	enc := json.NewEncoder(stdout)
	enc.SetIndent("", "  ")
	return enc.Encode(surface)
}

// addonCommand implements `godot-mcp addon install`.
func addonCommand(args []string, stdout, stderr io.Writer) error {
	if len(args) == 0 || args[0] != "install" {
		return errors.New("usage: godot-mcp addon install --project DIR [--enable] [--dry-run] [--force]")
	}
	fs := flag.NewFlagSet("addon install", flag.ContinueOnError)
	fs.SetOutput(stderr)
	var opts addoninstall.Options
	fs.StringVar(&opts.ProjectDir, "project", "", "Godot project directory (the one holding project.godot)")
	fs.BoolVar(&opts.Enable, "enable", false, "also enable the plugin in project.godot")
	fs.BoolVar(&opts.DryRun, "dry-run", false, "print what would be done, change nothing")
	fs.BoolVar(&opts.Force, "force", false, "overwrite files this installer did not write (or that were modified)")
	if err := fs.Parse(args[1:]); err != nil {
		return err
	}
	if opts.ProjectDir == "" {
		return errors.New("addon install needs --project DIR")
	}
	report, err := addoninstall.Install(opts)
	if err != nil {
		return err
	}
	verb := "installed"
	if opts.DryRun {
		verb = "would install"
	}
	fmt.Fprintf(stdout, "godot-mcp addon %s %s into %s\n", verb, report.Version, report.AddonDir)
	for _, a := range report.Actions {
		fmt.Fprintln(stdout, "  "+a.String())
	}
	return nil
}
