package sdk

import (
	"context"
	"errors"
	"fmt"
	"os"
	"runtime/debug"
	"sync"
	"time"

	hclog "github.com/hashicorp/go-hclog"
	plugin "github.com/hashicorp/go-plugin"
	"google.golang.org/grpc"

	"github.com/godot-mcp/godot-mcp/internal/pluginproto"
	"github.com/godot-mcp/godot-mcp/sdk/internal/sdkhook"
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
		Plugins:         plugin.PluginSet{pluginproto.PluginName: &toolsetPlugin{dispatcher: reg}},
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

// toolsetPlugin is the go-plugin side of a toolset: server half only.
type toolsetPlugin struct {
	plugin.NetRPCUnsupportedPlugin
	dispatcher sdkhook.Dispatcher
}

func (p *toolsetPlugin) GRPCServer(broker *plugin.GRPCBroker, s *grpc.Server) error {
	pluginproto.RegisterToolsetServer(s, &toolsetServer{dispatcher: p.dispatcher, broker: broker})
	return nil
}

func (p *toolsetPlugin) GRPCClient(context.Context, *plugin.GRPCBroker, *grpc.ClientConn) (any, error) {
	return nil, errors.New("the toolset plugin has no client side in the SDK; the host uses host/pluginhost")
}

// toolsetServer serves the Toolset gRPC service.
type toolsetServer struct {
	pluginproto.UnimplementedToolsetServer
	dispatcher sdkhook.Dispatcher
	broker     *plugin.GRPCBroker

	mu   sync.Mutex
	host *grpcBackend
	conn *grpc.ClientConn
}

func (s *toolsetServer) Setup(_ context.Context, req *pluginproto.SetupRequest) (*pluginproto.SetupResponse, error) {
	conn, err := s.broker.DialWithOptions(req.GetHostBrokerId(), pluginproto.DialOptions()...)
	if err != nil {
		return nil, fmt.Errorf("dial the host services (broker id %d): %w", req.GetHostBrokerId(), err)
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.host != nil {
		s.host.close()
	}
	if s.conn != nil {
		_ = s.conn.Close()
	}
	s.conn = conn
	s.host = newGRPCBackend(pluginproto.NewHostClient(conn))
	return &pluginproto.SetupResponse{}, nil
}

func (s *toolsetServer) Describe(context.Context, *pluginproto.DescribeRequest) (*pluginproto.DescribeResponse, error) {
	return describeToProto(s.dispatcher.Describe()), nil
}

func (s *toolsetServer) backend() sdkhook.Backend {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.host == nil {
		return noHost{}
	}
	return s.host
}

func (s *toolsetServer) Call(ctx context.Context, req *pluginproto.CallRequest) (*pluginproto.CallResponse, error) {
	return resultToProto(s.dispatcher.Call(ctx, requestFromProto(req), s.backend())), nil
}

// CallStream runs calls arriving as messages on one stream, each as Call
// would.
func (s *toolsetServer) CallStream(stream pluginproto.Toolset_CallStreamServer) error {
	return pluginproto.ServeMux(stream,
		func(r *pluginproto.CallStreamRequest) (uint64, bool, int64) {
			return r.GetSeq(), r.GetCancel(), r.GetDeadlineMs()
		},
		func(ctx context.Context, seq uint64, r *pluginproto.CallStreamRequest) *pluginproto.CallStreamResponse {
			resp, _ := s.Call(ctx, r.GetCall())
			return &pluginproto.CallStreamResponse{Seq: seq, Response: resp}
		})
}

func (s *toolsetServer) ReadResource(ctx context.Context, req *pluginproto.ReadResourceRequest) (*pluginproto.ReadResourceResponse, error) {
	return resourceResultToProto(s.dispatcher.ReadResource(ctx, resourceRequestFromProto(req), s.backend())), nil
}

func (s *toolsetServer) GetPrompt(ctx context.Context, req *pluginproto.GetPromptRequest) (*pluginproto.GetPromptResponse, error) {
	return promptResultToProto(s.dispatcher.GetPrompt(ctx, req.GetName(), req.GetCallId(), req.GetArguments(), s.backend())), nil
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
