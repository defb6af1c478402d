package sdk

import (
	"context"
	"encoding/json"
	"fmt"
	"log/slog"
	"os"
	"sync"
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
		SdkVersion: sdkVersion(),
	}
	for _, t := range d.Tools {
		out.Tools = append(out.Tools, &pluginproto.Tool{
			Name: t.Name, Title: t.Title, Description: t.Description,
			InputSchema: string(t.InputSchema), OutputSchema: string(t.OutputSchema),
			Safety: t.Safety, DryRun: t.DryRun, Confirm: t.Confirm,
			Preconditions: t.Preconditions,
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
	return sdkhook.ResourceRequest{URI: r.GetUri(), Template: r.GetUriTemplate(), Params: r.GetParams()}
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
	client  pluginproto.HostClient
	streams sendStreams
}

func newGRPCBackend(client pluginproto.HostClient) *grpcBackend {
	return &grpcBackend{client: client, streams: sendStreams{client: client}}
}

func (b *grpcBackend) Send(ctx context.Context, command string, params json.RawMessage, timeout time.Duration) (json.RawMessage, error) {
	req := &pluginproto.SendRequest{Command: command, ParamsJson: params, TimeoutMs: timeout.Milliseconds()}
	resp, sent, err := b.streams.send(ctx, req)
	if !sent { // no stream to this host: one unary call
		resp, err = b.client.Send(ctx, req)
	}
	if err != nil {
		return nil, transportError(ctx, command, err)
	}
	return sendResultFromProto(command, resp)
}

// close ends the Send stream (the host answers what is in flight no more).
func (b *grpcBackend) close() { b.streams.close() }

// sendStreams carries Sends on one Host.SendStream, opened on first use and
// reopened after it breaks; a host without SendStream gets unary Sends.
type sendStreams struct {
	client pluginproto.HostClient

	mu      sync.Mutex // guards the fields below and stream.Send
	stream  pluginproto.Host_SendStreamClient
	cancel  context.CancelFunc // ends stream
	unary   bool               // the host has no SendStream
	closed  bool
	seq     uint64
	pending map[uint64]chan streamAnswer
}

type streamAnswer struct {
	resp  *pluginproto.SendResponse
	err   error
	unary bool // the host turned the stream down: send it unary
}

// send sends req on the stream and waits for its answer. sent is false
// when req did not reach the host that way and must go as a unary call.
func (s *sendStreams) send(ctx context.Context, req *pluginproto.SendRequest) (resp *pluginproto.SendResponse, sent bool, err error) {
	s.mu.Lock()
	if s.unary || s.closed {
		s.mu.Unlock()
		return nil, false, nil
	}
	if s.stream == nil {
		sctx, cancel := context.WithCancel(context.Background())
		st, err := s.client.SendStream(sctx)
		if err != nil {
			cancel()
			s.mu.Unlock()
			return nil, false, nil
		}
		s.stream, s.cancel, s.pending = st, cancel, map[uint64]chan streamAnswer{}
		go s.receive(st)
	}
	s.seq++
	seq := s.seq
	ch := make(chan streamAnswer, 1)
	s.pending[seq] = ch
	msg := &pluginproto.SendStreamRequest{Seq: seq, Send: req}
	if d, ok := ctx.Deadline(); ok {
		msg.DeadlineMs = max(time.Until(d).Milliseconds(), 1)
	}
	st := s.stream
	// A failed Send means the stream ended; its reason (Unimplemented from
	// a host without SendStream, or a broken link) reaches ch from receive.
	_ = st.Send(msg)
	s.mu.Unlock()
	select {
	case a := <-ch:
		if a.unary {
			return nil, false, nil
		}
		return a.resp, true, a.err
	case <-ctx.Done():
		s.mu.Lock()
		if s.stream == st {
			_ = st.Send(&pluginproto.SendStreamRequest{Seq: seq, Cancel: true})
		}
		delete(s.pending, seq)
		s.mu.Unlock()
		return nil, true, ctx.Err()
	}
}

// receive hands answers to their senders until the stream ends.
func (s *sendStreams) receive(st pluginproto.Host_SendStreamClient) {
	for {
		a, err := st.Recv()
		if err != nil {
			s.broken(st, err)
			return
		}
		s.mu.Lock()
		ch := s.pending[a.GetSeq()]
		delete(s.pending, a.GetSeq())
		s.mu.Unlock()
		if ch != nil {
			ch <- streamAnswer{resp: a.GetResponse()}
		}
	}
}

// broken fails the Sends waiting on st (or hands them to unary calls when
// the host has no SendStream) and lets the next Send open a new stream.
func (s *sendStreams) broken(st pluginproto.Host_SendStreamClient, err error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.stream != st {
		return
	}
	unimplemented := status.Code(err) == codes.Unimplemented
	if unimplemented {
		s.unary = true
	}
	for seq, ch := range s.pending {
		ch <- streamAnswer{err: err, unary: unimplemented}
		delete(s.pending, seq)
	}
	s.cancel()
	s.stream, s.cancel = nil, nil
}

func (s *sendStreams) close() {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.closed = true
	if s.cancel != nil {
		s.cancel()
	}
}

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

func (noHost) Send(_ context.Context, command string, _ json.RawMessage, _ time.Duration) (json.RawMessage, error) {
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
