package pluginrpc

import (
	"context"
	"errors"

	plugin "github.com/hashicorp/go-plugin"
	"google.golang.org/grpc"

	"github.com/godot-mcp/godot-mcp/internal/pluginproto"
	"github.com/godot-mcp/godot-mcp/internal/plugmodel"
)

// Client is a plugin process's toolset seen from the host: a
// plugmodel.Toolset over gRPC. Its errors are gRPC's (status codes), for the
// host to explain.
type Client struct {
	toolset pluginproto.ToolsetClient
	broker  *plugin.GRPCBroker
	calls   *pluginproto.Mux[pluginproto.CallStreamRequest, pluginproto.CallStreamResponse]
}

func newClient(tc pluginproto.ToolsetClient, broker *plugin.GRPCBroker) *Client {
	return &Client{toolset: tc, broker: broker, calls: &pluginproto.Mux[pluginproto.CallStreamRequest, pluginproto.CallStreamResponse]{
		Open: tc.CallStream,
		Cancel: func(seq uint64) *pluginproto.CallStreamRequest {
			return &pluginproto.CallStreamRequest{Seq: seq, Cancel: true}
		},
		Seq: (*pluginproto.CallStreamResponse).GetSeq,
	}}
}

// Setup serves host to the plugin over the broker, for the plugin's life,
// and tells the plugin where to find it.
func (c *Client) Setup(ctx context.Context, cfg plugmodel.HostConfig) error {
	id := c.broker.NextId()
	go c.broker.AcceptAndServe(id, func(opts []grpc.ServerOption) *grpc.Server {
		s := grpc.NewServer(append(opts, pluginproto.ServerOptions()...)...)
		pluginproto.RegisterHostServer(s, &hostServer{host: cfg.Host})
		return s
	})
	_, err := c.toolset.Setup(ctx, &pluginproto.SetupRequest{HostBrokerId: id, HostVersion: cfg.HostVersion, ContractVersion: cfg.ContractVersion})
	return err
}

// Describe asks the plugin for its description.
func (c *Client) Describe(ctx context.Context) (plugmodel.ToolsetInfo, error) {
	d, err := c.toolset.Describe(ctx, &pluginproto.DescribeRequest{})
	if err != nil {
		return plugmodel.ToolsetInfo{}, err
	}
	return infoFromProto(d), nil
}

// Call runs one tool, as a message on the call stream.
func (c *Client) Call(ctx context.Context, req plugmodel.CallRequest) (plugmodel.CallResult, error) {
	call := callToProto(req)
	answer, err := c.calls.Do(ctx, func(seq uint64, deadlineMs int64) *pluginproto.CallStreamRequest {
		return &pluginproto.CallStreamRequest{Seq: seq, Call: call, DeadlineMs: deadlineMs}
	})
	if err != nil {
		return plugmodel.CallResult{}, err
	}
	if answer.GetResponse() == nil {
		return plugmodel.CallResult{}, errors.New("the plugin answered a call with no response")
	}
	return resultFromProto(answer.GetResponse()), nil
}

// ReadResource reads one resource.
func (c *Client) ReadResource(ctx context.Context, req plugmodel.ResourceRequest) (plugmodel.ResourceResult, error) {
	resp, err := c.toolset.ReadResource(ctx, resourceRequestToProto(req))
	if err != nil {
		return plugmodel.ResourceResult{}, err
	}
	return resourceResultFromProto(resp), nil
}

// GetPrompt renders one prompt.
func (c *Client) GetPrompt(ctx context.Context, req plugmodel.PromptRequest) (plugmodel.PromptResult, error) {
	resp, err := c.toolset.GetPrompt(ctx, promptRequestToProto(req))
	if err != nil {
		return plugmodel.PromptResult{}, err
	}
	return promptResultFromProto(resp), nil
}

// Close ends the call stream: calls waiting on it fail, later ones too.
func (c *Client) Close() { c.calls.Close() }
