// Command godot-mcp is an MCP server that drives a live Godot 4 editor.
package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"os/signal"
	"syscall"

	"github.com/godot-mcp/godot-mcp/host/config"
)

func main() {
	cfg, rest, err := config.Load(os.LookupEnv, os.Args[1:])
	switch {
	case errors.Is(err, flag.ErrHelp):
		config.WriteUsage(os.Stdout)
		os.Exit(0)
	case errors.Is(err, config.ErrVersion):
		fmt.Fprintln(os.Stdout, versionLine())
		os.Exit(0)
	}
	// A built-in toolset (`toolset serve NAME`) reads no server setting, and
	// its environment lacks the server's secrets (GODOT_MCP_APPROVAL=webhook
	// without its URL is fine there).
	toolset := len(rest) > 0 && rest[0] == "toolset"
	if err != nil && !toolset {
		fmt.Fprintln(os.Stderr, "godot-mcp:", err)
		os.Exit(2)
	}
	// stdin and stdout belong to MCP alone: keep the real ones for the
	// transport, give everything else (plugins, stray prints) harmless ones.
	// A built-in toolset (`toolset serve`) keeps its stdout: go-plugin's
	// handshake is written there.
	var stdin io.Reader = os.Stdin
	stdout := os.Stdout
	restoreStdin := func() {}
	if !toolset {
		if err := nonDumpable(); err != nil {
			fmt.Fprintln(os.Stderr, "godot-mcp: warning: could not make the process non-dumpable (same-user processes can read its secrets from /proc):", err)
		}
		stdin, restoreStdin = pollableStdin(os.Stdin)
		if devnull, err := os.Open(os.DevNull); err == nil {
			os.Stdin = devnull
		}
		os.Stdout = os.Stderr
	}

	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	err = run(ctx, invocation{Config: cfg, Args: rest}, stdin, stdout, os.Stderr)
	restoreStdin()
	if err != nil {
		if errors.Is(err, errDoctorFailed) {
			os.Exit(1) // the report said it all
		}
		fmt.Fprintln(os.Stderr, "godot-mcp:", err)
		os.Exit(1)
	}
}
