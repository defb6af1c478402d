package sdk

import (
	"context"
	"encoding/json"
	"fmt"
	"log/slog"
	"os"
	"time"

	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"

	"github.com/godot-mcp/godot-mcp/internal/pluginproto"
	"github.com/godot-mcp/godot-mcp/sdk/internal/sdkhook"
)

// This file is the SDK's one boundary with the generated protobuf types.

func describeToProto(d sdkhook.Description) *pluginproto.DescribeResponse {
	out := &pluginproto.DescribeResponse{
		Name: d.Name, Version: d.Version, Description: d.Description, MinGodot: d.MinGodot,
		SdkVersion: sdkVersion(), EditorVersion: d.EditorVersion,
	}
	for _, f := range d.EditorFiles {
		out.EditorFiles = append(out.EditorFiles, &pluginproto.EditorFile{Path: f.Path, Content: f.Content})
	}
	for _, t := range d.Tools {
		out.Tools = append(out.Tools, &pluginproto.Tool{
			Name: t.Name, Title: t.Title, Description: t.Description,
			InputSchema: string(t.InputSchema), OutputSchema: string(t.OutputSchema),
			Safety: t.Safety, DryRun: t.DryRun, Confirm: t.Confirm,
			Preconditions: t.Preconditions, DestructiveWhen: t.DestructiveWhen, RunsCode: t.RunsCode,
		})
	}
	for _, r := range d.Resources {
		out.Resources = append(out.Resources, &pluginproto.Resource{Uri: r.URI, Name: r.Name, Title: r.Title, Description: r.Description, MimeType: r.MimeType})
	}
	for _, r := range d.ResourceTemplates {
		out.ResourceTemplates = append(out.ResourceTemplates, &pluginproto.ResourceTemplate{UriTemplate: r.URI, Name: r.Name, Title: r.Title, Description: r.Description, MimeType: r.MimeType})
	}
	for _, p := range d.Prompts {
		pp := &pluginproto.Prompt{Name: p.Name, Title: p.Title, Description: p.Description}
		for _, a := range p.Arguments {
			pp.Arguments = append(pp.Arguments, &pluginproto.PromptArgument{Name: a.Name, Description: a.Description, Required: a.Required})
		}
		out.Prompts = append(out.Prompts, pp)
	}
	return out
}

func errorToProto(err error) *pluginproto.Error {
	e := AsError(err)
	return &pluginproto.Error{Code: string(e.Code), Hint: e.Hint, Required: e.Required}
}

func contentToProto(c sdkhook.Content) *pluginproto.Content {
	return &pluginproto.Content{Type: c.Type, Text: c.Text, Data: c.Data, MimeType: c.MimeType, Uri: c.URI}
}

func resourceRequestFromProto(r *pluginproto.ReadResourceRequest) sdkhook.ResourceRequest {
	return sdkhook.ResourceRequest{URI: r.GetUri(), Template: r.GetUriTemplate(), Params: r.GetParams(), CallID: r.GetCallId()}
}

func resourceResultToProto(r sdkhook.ResourceResult) *pluginproto.ReadResourceResponse {
	if r.Err != nil {
		return &pluginproto.ReadResourceResponse{Error: errorToProto(r.Err)}
	}
	out := &pluginproto.ReadResourceResponse{}
	for _, c := range r.Contents {
		pc := &pluginproto.ResourceContents{Uri: c.URI, MimeType: c.MimeType}
		if c.Binary {
			pc.Body = &pluginproto.ResourceContents_Blob{Blob: c.Blob}
		} else {
			pc.Body = &pluginproto.ResourceContents_Text{Text: c.Text}
		}
		out.Contents = append(out.Contents, pc)
	}
	return out
}

func promptResultToProto(r sdkhook.PromptResult) *pluginproto.GetPromptResponse {
	if r.Err != nil {
		return &pluginproto.GetPromptResponse{Error: errorToProto(r.Err)}
	}
	out := &pluginproto.GetPromptResponse{Description: r.Description}
	for _, m := range r.Messages {
		out.Messages = append(out.Messages, &pluginproto.PromptMessage{Role: m.Role, Content: contentToProto(m.Content)})
	}
	return out
}

func requestFromProto(r *pluginproto.CallRequest) sdkhook.Request {
	return sdkhook.Request{
		Tool: r.GetTool(), Arguments: json.RawMessage(r.GetArgumentsJson()),
		DryRun: r.GetDryRun(), Confirm: r.GetConfirm(), ProgressToken: r.GetProgressToken(), CallID: r.GetCallId(),
	}
}

func resultToProto(r sdkhook.Result) *pluginproto.CallResponse {
	if r.Err != nil {
		return &pluginproto.CallResponse{Error: errorToProto(r.Err)}
	}
	out := &pluginproto.CallResponse{StructuredJson: r.Structured}
	for _, c := range r.Content {
		out.Content = append(out.Content, contentToProto(c))
	}
	return out
}

// sendResultFromProto turns the host's answer envelope into a result or an *Error.
func sendResultFromProto(command string, r *pluginproto.SendResponse) (json.RawMessage, error) {
	if r.GetOk() {
		res := json.RawMessage(r.GetResultJson())
		if len(res) == 0 {
			res = json.RawMessage("{}")
		}
		return res, nil
	}
	code := ErrorCode(r.GetError())
	if !code.Valid() {
		return nil, Internal(fmt.Sprintf("the editor answered %s with an unknown error code %q (hint: %s); update the addon to match the server", command, r.GetError(), r.GetHint()))
	}
	return nil, &Error{Code: code, Hint: r.GetHint(), Required: r.GetRequired()}
}

// grpcBackend reaches the host's services over the GRPCBroker connection.
type grpcBackend struct {
	client pluginproto.HostClient
	sends  *pluginproto.Mux[pluginproto.SendStreamRequest, pluginproto.SendStreamResponse]
}

func newGRPCBackend(client pluginproto.HostClient) *grpcBackend {
	return &grpcBackend{client: client, sends: &pluginproto.Mux[pluginproto.SendStreamRequest, pluginproto.SendStreamResponse]{
		Open: client.SendStream,
		Cancel: func(seq uint64) *pluginproto.SendStreamRequest {
			return &pluginproto.SendStreamRequest{Seq: seq, Cancel: true}
		},
		Seq: (*pluginproto.SendStreamResponse).GetSeq,
	}}
}

// Send goes as a message on Host.SendStream, or as a unary Send to a host
// without it.
func (b *grpcBackend) Send(ctx context.Context, callID, command string, params json.RawMessage, timeout time.Duration) (json.RawMessage, error) {
	req := &pluginproto.SendRequest{Command: command, ParamsJson: params, TimeoutMs: timeout.Milliseconds(), CallId: callID}
	answer, sent, err := b.sends.Do(ctx, func(seq uint64, deadlineMs int64) *pluginproto.SendStreamRequest {
		return &pluginproto.SendStreamRequest{Seq: seq, Send: req, DeadlineMs: deadlineMs}
	})
	resp := answer.GetResponse()
	if !sent {
		resp, err = b.client.Send(ctx, req)
	}
	if err != nil {
		return nil, transportError(ctx, command, err)
	}
	return sendResultFromProto(command, resp)
}

// close ends the Send stream.
func (b *grpcBackend) close() { b.sends.Close() }

// transportError explains a failed call to the host itself.
func transportError(ctx context.Context, command string, err error) *Error {
	if ctx.Err() == context.DeadlineExceeded || status.Code(err) == codes.DeadlineExceeded {
		return Timeout(fmt.Sprintf("%s did not finish before the tool call's deadline", command))
	}
	if ctx.Err() == context.Canceled || status.Code(err) == codes.Canceled {
		return Internal(fmt.Sprintf("%s was cancelled: the tool call was cancelled", command))
	}
	return Internal(fmt.Sprintf("the godot-mcp host did not take %s: %v; retry, and check the server log (stderr) if it persists", command, status.Convert(err).Message()))
}

func (b *grpcBackend) Progress(ctx context.Context, token string, progress, total float64, message string) error {
	_, err := b.client.Progress(ctx, &pluginproto.ProgressRequest{Token: token, Progress: progress, Total: total, Message: message})
	return err
}

func (b *grpcBackend) Log(ctx context.Context, level slog.Level, message string, attrs []slog.Attr) error {
	req := logToProto(level, message, attrs)
	req.CallId = sdkhook.CallID(ctx)
	_, err := b.client.Log(ctx, req)
	return err
}

func logToProto(level slog.Level, message string, attrs []slog.Attr) *pluginproto.LogRequest {
	req := &pluginproto.LogRequest{Level: int32(level), Message: message}
	for _, a := range attrs {
		req.Attrs = append(req.Attrs, &pluginproto.LogAttr{Key: a.Key, Value: a.Value.Resolve().String()})
	}
	return req
}

// noHost answers before Setup, which the host always calls first.
type noHost struct{}

func (noHost) Send(_ context.Context, _, command string, _ json.RawMessage, _ time.Duration) (json.RawMessage, error) {
	return nil, Internal(fmt.Sprintf("the toolset cannot send %s: the host has not set up its services yet; this is a bug in the host", command))
}

func (noHost) Progress(context.Context, string, float64, float64, string) error { return nil }

func (noHost) Log(_ context.Context, level slog.Level, message string, attrs []slog.Attr) error {
	args := make([]any, 0, len(attrs))
	for _, a := range attrs {
		args = append(args, a)
	}
	slog.New(slog.NewJSONHandler(os.Stderr, nil)).Log(context.Background(), level, message, args...)
	return nil
}
