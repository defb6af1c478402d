package main

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"log/slog"
	"net"
	"strings"

	"github.com/godot-mcp/godot-mcp/host/bridge"
	"github.com/godot-mcp/godot-mcp/host/config"
	"github.com/godot-mcp/godot-mcp/host/contract"
	"github.com/godot-mcp/godot-mcp/host/mcpserver"
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
		return printContract(inv.Config, stdout)
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

// serve runs the MCP server until the client goes away or ctx ends.
func serve(ctx context.Context, cfg config.Config, stdin io.Reader, stdout, stderr io.Writer) error {
	if err := cfg.CheckHTTPBind(); err != nil {
		return err
	}
	log := newLogger(stderr, cfg.LogLevel)
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()

	var srv *mcpserver.Server
	br, err := bridge.New(bridge.Options{
		URL:           cfg.BridgeURL,
		Token:         cfg.BridgeToken,
		ServerVersion: contract.Version,
		Logger:        log.With("component", "bridge"),
		EnabledToolsets: func() []string {
			return nil
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

	srv = mcpserver.New(mcpserver.Options{Config: cfg, Bridge: br, Logger: log})

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

// printContract prints the whole tool surface as JSON.
func printContract(cfg config.Config, stdout io.Writer) error {
	surface := buildSurface(cfg)
	enc := json.NewEncoder(stdout)
	enc.SetIndent("", "  ")
	return enc.Encode(surface)
}
