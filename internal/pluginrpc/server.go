package pluginrpc

import (
	"context"
	"fmt"
	"sync"

	plugin "github.com/hashicorp/go-plugin"
	"google.golang.org/grpc"

	"github.com/godot-mcp/godot-mcp/internal/pluginproto"
	"github.com/godot-mcp/godot-mcp/internal/plugmodel"
	"github.com/godot-mcp/godot-mcp/sdk/contract"
)

// server serves a plugmodel.Toolset as the Toolset gRPC service.
type server struct {
	pluginproto.UnimplementedToolsetServer
	impl   plugmodel.Toolset
	broker *plugin.GRPCBroker

	mu   sync.Mutex
	host *hostClient
	conn *grpc.ClientConn
}

func (s *server) Setup(ctx context.Context, req *pluginproto.SetupRequest) (*pluginproto.SetupResponse, error) {
	conn, err := s.broker.DialWithOptions(req.GetHostBrokerId(), pluginproto.DialOptions()...)
	if err != nil {
		return nil, fmt.Errorf("dial the host services (broker id %d): %w", req.GetHostBrokerId(), err)
	}
	host := newHostClient(pluginproto.NewHostClient(conn))
	s.mu.Lock()
	if s.host != nil {
		s.host.close()
	}
	if s.conn != nil {
		_ = s.conn.Close()
	}
	s.conn, s.host = conn, host
	s.mu.Unlock()
	if err := s.impl.Setup(ctx, plugmodel.HostConfig{Host: host, HostVersion: req.GetHostVersion(), ContractVersion: req.GetContractVersion()}); err != nil {
		return nil, err
	}
	return &pluginproto.SetupResponse{}, nil
}

func (s *server) Describe(ctx context.Context, _ *pluginproto.DescribeRequest) (*pluginproto.DescribeResponse, error) {
	d, err := s.impl.Describe(ctx)
	if err != nil {
		return nil, err
	}
	return infoToProto(d), nil
}

// CallStream runs the calls arriving as messages on one stream, each on its
// own goroutine.
func (s *server) CallStream(stream pluginproto.Toolset_CallStreamServer) error {
	return pluginproto.ServeMux(stream,
		func(r *pluginproto.CallStreamRequest) (uint64, bool, int64) {
			return r.GetSeq(), r.GetCancel(), r.GetDeadlineMs()
		},
		func(ctx context.Context, seq uint64, r *pluginproto.CallStreamRequest) *pluginproto.CallStreamResponse {
			res, err := s.impl.Call(ctx, callFromProto(r.GetCall()))
			if err != nil {
				res = plugmodel.CallResult{Err: contract.AsError(err)}
			}
			return &pluginproto.CallStreamResponse{Seq: seq, Response: resultToProto(res)}
		})
}

func (s *server) ReadResource(ctx context.Context, req *pluginproto.ReadResourceRequest) (*pluginproto.ReadResourceResponse, error) {
	res, err := s.impl.ReadResource(ctx, resourceRequestFromProto(req))
	if err != nil {
		res = plugmodel.ResourceResult{Err: contract.AsError(err)}
	}
	return resourceResultToProto(res), nil
}

func (s *server) GetPrompt(ctx context.Context, req *pluginproto.GetPromptRequest) (*pluginproto.GetPromptResponse, error) {
	res, err := s.impl.GetPrompt(ctx, promptRequestFromProto(req))
	if err != nil {
		res = plugmodel.PromptResult{Err: contract.AsError(err)}
	}
	return promptResultToProto(res), nil
}
