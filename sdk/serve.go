package sdk

import (
	"fmt"
	"os"
	"runtime/debug"
	"time"

	hclog "github.com/hashicorp/go-hclog"
	plugin "github.com/hashicorp/go-plugin"
	"google.golang.org/grpc"

	"github.com/godot-mcp/godot-mcp/internal/pluginproto"
	"github.com/godot-mcp/godot-mcp/internal/pluginrpc"
)

// Serve runs ts as a godot-mcp plugin and blocks until the host stops it.
// Call it from main and do nothing else there:
//
//	func main() { sdk.Serve(mytoolset.Toolset()) }
//
// The executable is started by the host (never by hand: run by hand, it says
// so and exits). Serve exits the process if ts is invalid, and when the host
// process goes away. Anything the toolset prints to stdout or stderr ends up
// in the host's log; use Call.Host.Logger() for real logging. When it
// exits because the host is gone or on SIGTERM, it ends the processes it
// started in its process group too.
func Serve(ts Toolset) {
	reg, err := newRegistry(ts)
	if err != nil {
		fmt.Fprintf(os.Stderr, "godot-mcp toolset: %v\n", err)
		os.Exit(1)
	}
	exitOnTerm(ts.Name)
	if ppid := os.Getppid(); ppid > 1 { // 1: started by init, nothing to watch
		watchParent(500*time.Millisecond, func() bool { return parentGone(ppid) }, func() {
			fmt.Fprintf(os.Stderr, "godot-mcp toolset %s: the host process is gone; exiting\n", ts.Name)
			exitWithGroup(0)
		})
	}
	plugin.Serve(&plugin.ServeConfig{
		HandshakeConfig: pluginproto.Handshake,
		Plugins:         plugin.PluginSet{pluginproto.PluginName: &pluginrpc.Plugin{Impl: reg}},
		GRPCServer: func(opts []grpc.ServerOption) *grpc.Server {
			return grpc.NewServer(append(opts, pluginproto.ServerOptions()...)...)
		},
		Logger: hclog.New(&hclog.LoggerOptions{
			Name:       "toolset." + ts.Name,
			Output:     os.Stderr, // go-plugin forwards these JSON lines to the host's log
			JSONFormat: true,
			Level:      hclog.Info,
		}),
	})
}

// watchParent calls exit once gone reports the parent process gone, checking
// every interval. Pdeathsig covers Linux hosts; this covers the rest, and
// hosts killed in ways Pdeathsig misses.
func watchParent(interval time.Duration, gone func() bool, exit func()) {
	go func() {
		t := time.NewTicker(interval)
		defer t.Stop()
		for range t.C {
			if gone() {
				exit()
				return
			}
		}
	}()
}

// sdkVersion is the version of this module in the plugin binary, if known.
func sdkVersion() string {
	info, ok := debug.ReadBuildInfo()
	if !ok {
		return ""
	}
	const mod = "github.com/godot-mcp/godot-mcp"
	if info.Main.Path == mod {
		return info.Main.Version
	}
	for _, d := range info.Deps {
		if d.Path == mod {
			return d.Version
		}
	}
	return ""
}
