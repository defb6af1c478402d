// Package pluginrpc carries the plugin model (internal/plugmodel) over
// hashicorp/go-plugin's gRPC transport, both ways, as go-plugin's KV
// example does: Plugin serves a plugmodel.Toolset in the plugin process
// and hands the host a *Client that implements plugmodel.Toolset too; the
// host's plugmodel.Host is served back to the plugin over the GRPCBroker
// (Toolset.Setup) and reached there through a client implementing
// plugmodel.Host. The SDK (package sdk) and the host (host/pluginhost) both
// use it; neither sees a protobuf type.
//
// Calls and editor commands travel as messages on one long-lived stream each
// (Toolset.CallStream, Host.SendStream; see pluginproto.Mux).
package pluginrpc

import (
	"context"
	"errors"

	plugin "github.com/hashicorp/go-plugin"
	"google.golang.org/grpc"

	"github.com/godot-mcp/godot-mcp/internal/pluginproto"
	"github.com/godot-mcp/godot-mcp/internal/plugmodel"
)

// Plugin is the go-plugin plugin of a toolset. In the plugin process Impl
// is the toolset served; the host leaves it nil and dispenses a *Client.
type Plugin struct {
	plugin.NetRPCUnsupportedPlugin
	Impl plugmodel.Toolset
}

// GRPCServer serves Impl.
func (p *Plugin) GRPCServer(broker *plugin.GRPCBroker, s *grpc.Server) error {
	if p.Impl == nil {
		return errors.New("pluginrpc: no toolset to serve")
	}
	pluginproto.RegisterToolsetServer(s, &server{impl: p.Impl, broker: broker})
	return nil
}

// GRPCClient returns the host's *Client of the plugin's toolset.
func (p *Plugin) GRPCClient(_ context.Context, broker *plugin.GRPCBroker, conn *grpc.ClientConn) (any, error) {
	return newClient(pluginproto.NewToolsetClient(conn), broker), nil
}

var _ plugmodel.Toolset = (*Client)(nil)
