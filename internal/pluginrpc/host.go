package pluginrpc

import (
	"context"
	"encoding/json"
	"log/slog"
	"time"

	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"

	"github.com/godot-mcp/godot-mcp/internal/pluginproto"
	"github.com/godot-mcp/godot-mcp/internal/plugmodel"
	"github.com/godot-mcp/godot-mcp/sdk/contract"
)

// hostServer serves the host's plugmodel.Host to one plugin.
type hostServer struct {
	pluginproto.UnimplementedHostServer
	host plugmodel.Host
}

// SendStream serves the Sends arriving as messages on one stream.
func (h *hostServer) SendStream(stream pluginproto.Host_SendStreamServer) error {
	return pluginproto.ServeMux(stream,
		func(r *pluginproto.SendStreamRequest) (uint64, bool, int64) {
			return r.GetSeq(), r.GetCancel(), r.GetDeadlineMs()
		},
		func(ctx context.Context, seq uint64, r *pluginproto.SendStreamRequest) *pluginproto.SendStreamResponse {
			return &pluginproto.SendStreamResponse{Seq: seq, Response: h.send(ctx, r.GetSend())}
		})
}

func (h *hostServer) send(ctx context.Context, req *pluginproto.SendRequest) *pluginproto.SendResponse {
	params := json.RawMessage(req.GetParamsJson())
	if len(params) == 0 {
		params = json.RawMessage("{}")
	}
	timeout := time.Duration(max(req.GetTimeoutMs(), 0)) * time.Millisecond
	res, err := h.host.Send(ctx, req.GetCallId(), req.GetCommand(), params, timeout)
	if err != nil {
		e := contract.AsError(err)
		return &pluginproto.SendResponse{Error: string(e.Code), Hint: e.Hint, Required: e.Required}
	}
	return &pluginproto.SendResponse{Ok: true, ResultJson: res}
}

func (h *hostServer) Progress(ctx context.Context, req *pluginproto.ProgressRequest) (*pluginproto.ProgressResponse, error) {
	if req.GetToken() != "" {
		_ = h.host.Progress(ctx, req.GetToken(), req.GetProgress(), req.GetTotal(), req.GetMessage())
	}
	return &pluginproto.ProgressResponse{}, nil
}

func (h *hostServer) Log(ctx context.Context, req *pluginproto.LogRequest) (*pluginproto.LogResponse, error) {
	level, msg, attrs := logFromProto(req)
	_ = h.host.Log(plugmodel.WithCallID(ctx, req.GetCallId()), level, msg, attrs)
	return &pluginproto.LogResponse{}, nil
}

// hostClient is the host's services seen from the plugin: a plugmodel.Host
// over the GRPCBroker connection. Its errors are *contract.Error.
type hostClient struct {
	client pluginproto.HostClient
	sends  *pluginproto.Mux[pluginproto.SendStreamRequest, pluginproto.SendStreamResponse]
}

func newHostClient(client pluginproto.HostClient) *hostClient {
	return &hostClient{client: client, sends: &pluginproto.Mux[pluginproto.SendStreamRequest, pluginproto.SendStreamResponse]{
		Open: client.SendStream,
		Cancel: func(seq uint64) *pluginproto.SendStreamRequest {
			return &pluginproto.SendStreamRequest{Seq: seq, Cancel: true}
		},
		Seq: (*pluginproto.SendStreamResponse).GetSeq,
	}}
}

// Send goes as a message on Host.SendStream.
func (b *hostClient) Send(ctx context.Context, callID, command string, params json.RawMessage, timeout time.Duration) (json.RawMessage, error) {
	req := &pluginproto.SendRequest{Command: command, ParamsJson: params, TimeoutMs: timeout.Milliseconds(), CallId: callID}
	answer, err := b.sends.Do(ctx, func(seq uint64, deadlineMs int64) *pluginproto.SendStreamRequest {
		return &pluginproto.SendStreamRequest{Seq: seq, Send: req, DeadlineMs: deadlineMs}
	})
	if err != nil {
		return nil, transportError(ctx, command, err)
	}
	r := answer.GetResponse()
	if r.GetOk() {
		res := json.RawMessage(r.GetResultJson())
		if len(res) == 0 {
			res = json.RawMessage("{}")
		}
		return res, nil
	}
	code := contract.ErrorCode(r.GetError())
	if !code.Valid() {
		return nil, contract.Errorf(contract.InternalError, "the editor answered %s with an unknown error code %q (hint: %s); update the addon to match the server", command, r.GetError(), r.GetHint())
	}
	return nil, &contract.Error{Code: code, Hint: r.GetHint(), Required: r.GetRequired()}
}

// transportError explains a Send that did not reach the host or got no answer.
func transportError(ctx context.Context, command string, err error) *contract.Error {
	if ctx.Err() == context.DeadlineExceeded || status.Code(err) == codes.DeadlineExceeded {
		return contract.Errorf(contract.Timeout, "%s did not finish before the tool call's deadline", command)
	}
	if ctx.Err() == context.Canceled || status.Code(err) == codes.Canceled {
		return contract.Errorf(contract.InternalError, "%s was cancelled: the tool call was cancelled", command)
	}
	return contract.Errorf(contract.InternalError, "the godot-mcp host did not take %s: %v; retry, and check the server log (stderr) if it persists", command, status.Convert(err).Message())
}

func (b *hostClient) Progress(ctx context.Context, token string, progress, total float64, message string) error {
	_, err := b.client.Progress(ctx, &pluginproto.ProgressRequest{Token: token, Progress: progress, Total: total, Message: message})
	return err
}

func (b *hostClient) Log(ctx context.Context, level slog.Level, message string, attrs []slog.Attr) error {
	req := logToProto(level, message, attrs)
	req.CallId = plugmodel.CallID(ctx)
	_, err := b.client.Log(ctx, req)
	return err
}

// close ends the Send stream.
func (b *hostClient) close() { b.sends.Close() }
