package main

import (
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"log/slog"
	"os"
	"strings"

	"github.com/godot-mcp/godot-mcp/host/app"
	"github.com/godot-mcp/godot-mcp/host/buildinfo"
	"github.com/godot-mcp/godot-mcp/host/config"
	"github.com/godot-mcp/godot-mcp/host/pluginhost"
	"github.com/godot-mcp/godot-mcp/host/projectfiles"
	"github.com/godot-mcp/godot-mcp/host/trust"
	"github.com/godot-mcp/godot-mcp/plugins"
	"github.com/godot-mcp/godot-mcp/sdk"
	"github.com/godot-mcp/godot-mcp/sdk/contract"
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
		_, err := fmt.Fprintln(stdout, versionLine())
		return err
	case "contract":
		return printContract(ctx, inv.Config, stdout)
	case "toolset":
		if len(args) == 3 && args[1] == "trust" {
			return trustCommand(inv.Config, args[2], stdout)
		}
		if len(args) != 3 || args[1] != "serve" {
			return errors.New("usage: godot-mcp toolset serve NAME, or godot-mcp toolset trust NAME")
		}
		ts, ok := plugins.Lookup(args[2])
		if !ok {
			return fmt.Errorf("no built-in toolset %q (built-ins: %s)", args[2], strings.Join(plugins.Names(), ", "))
		}
		sdk.Serve(ts)
		return nil
	case "addon":
		return addonCommand(args[1:], stdout, stderr)
	case "setup":
		return setupCommand(args[1:], stdout, stderr)
	case "doctor":
		return doctorCommand(ctx, inv.Config, args[1:], stdout, stderr)
	case "help":
		config.WriteUsage(stdout)
		return nil
	default:
		return fmt.Errorf("unknown command %q (try godot-mcp --help)", strings.Join(args, " "))
	}
}

// versionLine is what `godot-mcp version` and --version print.
func versionLine() string {
	return fmt.Sprintf("godot-mcp %s (contract %d, min compatible %d)", buildinfo.Version, contract.ContractVersion, contract.MinCompatibleContract)
}

func newLogger(w io.Writer, level string) *slog.Logger {
	var l slog.Level
	_ = l.UnmarshalText([]byte(level))
	return slog.New(slog.NewTextHandler(w, &slog.HandlerOptions{Level: l}))
}

// serve runs the MCP server until the client goes away or ctx ends.
func serve(ctx context.Context, cfg config.Config, stdin io.Reader, stdout, stderr io.Writer) error {
	if err := cfg.CheckHTTPBind(); err != nil {
		return err
	}
	log := newLogger(stderr, cfg.LogLevel)
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	self, err := os.Executable()
	if err != nil {
		return err
	}
	// Toolset plugins inherit the environment: let them see --project and
	// --godot-bin too.
	if cfg.ProjectDir != "" {
		os.Setenv("GODOT_MCP_PROJECT_DIR", cfg.ProjectDir)
	}
	if cfg.GodotBin != "" {
		os.Setenv("GODOT_BIN", cfg.GodotBin)
	}
	builtins := plugins.Builtins()
	return serveOrAttach(ctx, cfg, log, app.Options{Config: cfg, Logger: log, Self: self, Builtins: builtinSummaries(builtins...), BuiltinInfo: builtinInfos(log, builtins)}, stdin, stdout, stderr)
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
	var opts projectfiles.AddonOptions
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
	report, err := projectfiles.InstallAddon(opts)
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

// trustCommand implements `godot-mcp toolset trust NAME`: it pins the
// third-party toolset NAME (in the plugin dir) to its executable as it is
// now, so that a server refusing a changed executable (required:
// plugin_trusted) runs it on the next enable.
func trustCommand(cfg config.Config, name string, stdout io.Writer) error {
	if _, ok := plugins.Lookup(name); ok {
		return fmt.Errorf("%q is a built-in toolset: built-ins are the godot-mcp binary itself and are not pinned", name)
	}
	specs, _ := pluginhost.Discover(cfg.PluginDir) // files it skips cannot be enabled either
	var names []string
	for _, spec := range specs {
		if spec.Name != name {
			names = append(names, spec.Name)
			continue
		}
		store, err := trust.Default()
		if err != nil {
			return err
		}
		old := store.Pinned(spec.Path)
		pin, err := store.Trust(name, spec.Path)
		if err != nil {
			return fmt.Errorf("trusting %s: %w", spec.Path, err)
		}
		switch old {
		case "":
			_, err = fmt.Fprintf(stdout, "trusted %s (%s): sha256 %s, recorded in %s\n", name, spec.Path, pin.SHA256, store.Path())
		case pin.SHA256:
			_, err = fmt.Fprintf(stdout, "%s (%s) was already trusted: sha256 %s\n", name, spec.Path, pin.SHA256)
		default:
			_, err = fmt.Fprintf(stdout, "trusted %s (%s): sha256 %s (was %s), recorded in %s; enable it again to run it\n", name, spec.Path, pin.SHA256, old, store.Path())
		}
		return err
	}
	found := "it has no toolsets"
	if len(names) > 0 {
		found = "it has: " + strings.Join(names, ", ")
	}
	return fmt.Errorf("no third-party toolset %q in the plugin dir %s (GODOT_MCP_PLUGIN_DIR); %s", name, cfg.PluginDir, found)
}
