package pluginhost

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"time"

	plugin "github.com/hashicorp/go-plugin"
	"google.golang.org/grpc"

	"github.com/godot-mcp/godot-mcp/host/envelope"
	"github.com/godot-mcp/godot-mcp/host/safety"
	"github.com/godot-mcp/godot-mcp/internal/pluginproto"
	"github.com/godot-mcp/godot-mcp/internal/rawjson"
)

// This file is the host's one boundary with the generated protobuf types.

// toolsetPlugin is the go-plugin client half of a toolset.
type toolsetPlugin struct {
	plugin.NetRPCUnsupportedPlugin
}

// toolsetConn is what Dispense returns.
type toolsetConn struct {
	client pluginproto.ToolsetClient
	broker *plugin.GRPCBroker
}

func (toolsetPlugin) GRPCServer(*plugin.GRPCBroker, *grpc.Server) error {
	return errors.New("the host does not serve toolsets; toolsets are built with package sdk")
}

func (toolsetPlugin) GRPCClient(_ context.Context, broker *plugin.GRPCBroker, conn *grpc.ClientConn) (any, error) {
	return &toolsetConn{client: pluginproto.NewToolsetClient(conn), broker: broker}, nil
}

// hostServer serves the Host service to one plugin.
type hostServer struct {
	pluginproto.UnimplementedHostServer
	svc    HostServices
	logger *slog.Logger
	gate   *safety.Gate
}

// Send sends a command the gate allows for the call it serves; a refused
// one is answered ok=false without reaching the editor.
func (h *hostServer) Send(ctx context.Context, req *pluginproto.SendRequest) (*pluginproto.SendResponse, error) {
	params := json.RawMessage(req.GetParamsJson())
	if len(params) == 0 {
		params = json.RawMessage("{}")
	}
	params, refusal := h.gate.Check(req.GetCallId(), req.GetCommand(), params, h.svc.EditorCommand)
	if refusal != nil {
		return responseToProto(envelope.Failure("", refusal)), nil
	}
	timeout := time.Duration(max(req.GetTimeoutMs(), 0)) * time.Millisecond
	return responseToProto(h.svc.Send(ctx, req.GetCommand(), params, timeout)), nil
}

// SendStream serves Sends arriving as messages on one stream, each as the
// unary Send would.
func (h *hostServer) SendStream(stream pluginproto.Host_SendStreamServer) error {
	return pluginproto.ServeMux(stream,
		func(r *pluginproto.SendStreamRequest) (uint64, bool, int64) {
			return r.GetSeq(), r.GetCancel(), r.GetDeadlineMs()
		},
		func(ctx context.Context, seq uint64, r *pluginproto.SendStreamRequest) *pluginproto.SendStreamResponse {
			resp, _ := h.Send(ctx, r.GetSend())
			return &pluginproto.SendStreamResponse{Seq: seq, Response: resp}
		})
}

func (h *hostServer) Progress(ctx context.Context, req *pluginproto.ProgressRequest) (*pluginproto.ProgressResponse, error) {
	if req.GetToken() != "" {
		h.svc.Progress(ctx, req.GetToken(), req.GetProgress(), req.GetTotal(), req.GetMessage())
	}
	return &pluginproto.ProgressResponse{}, nil
}

func (h *hostServer) Log(ctx context.Context, req *pluginproto.LogRequest) (*pluginproto.LogResponse, error) {
	level, msg, args := logFromProto(req)
	h.logger.Log(ctx, level, msg, args...)
	if cl, ok := h.svc.(CallLogger); ok && req.GetCallId() != "" && !safety.GateMade(req.GetCallId()) {
		attrs := make([]slog.Attr, 0, len(args))
		for _, a := range args {
			if attr, isAttr := a.(slog.Attr); isAttr && attr.Key != "tool" {
				attrs = append(attrs, attr)
			}
		}
		cl.LogCall(ctx, req.GetCallId(), level, msg, attrs)
	}
	return &pluginproto.LogResponse{}, nil
}

func logFromProto(req *pluginproto.LogRequest) (slog.Level, string, []any) {
	args := make([]any, 0, len(req.GetAttrs()))
	for _, a := range req.GetAttrs() {
		if a.GetKey() == "toolset" {
			continue // the host's logger already names the toolset
		}
		args = append(args, slog.String(a.GetKey(), a.GetValue()))
	}
	return slog.Level(req.GetLevel()), req.GetMessage(), args
}

func responseToProto(r envelope.Response) *pluginproto.SendResponse {
	return &pluginproto.SendResponse{
		Id: r.ID, Ok: r.OK, ResultJson: r.Result,
		Error: string(r.Error), Hint: r.Hint, Required: r.Required,
	}
}

var safetyClasses = map[string]bool{"read_only": true, "mutating": true, "destructive": true, "runtime": true}

// infoFromProto converts and checks a plugin's description, so a plugin not
// built with the SDK cannot hand the host a malformed tool.
func infoFromProto(d *pluginproto.DescribeResponse) (ToolsetInfo, error) {
	info := ToolsetInfo{
		Name: d.GetName(), Version: d.GetVersion(), Description: d.GetDescription(),
		MinGodot: d.GetMinGodot(), SDKVersion: d.GetSdkVersion(),
	}
	if !toolNameRE.MatchString(info.Name) {
		return info, fmt.Errorf("toolset name %q is not lower case letters, digits and '_'", info.Name)
	}
	if info.Name == ReservedToolsetName {
		return info, fmt.Errorf("the toolset name %q is reserved: cmd_%s_* are the addon's own commands (cmd_ext_load, cmd_ext_unload)", info.Name, info.Name)
	}
	if len(d.GetTools()) == 0 {
		return info, errors.New("the toolset declares no tools")
	}
	if err := editorFilesFromProto(d, &info); err != nil {
		return info, err
	}
	seen := map[string]bool{}
	for _, t := range d.GetTools() {
		ti := ToolInfo{
			Name: t.GetName(), Title: t.GetTitle(), Description: t.GetDescription(),
			InputSchema: json.RawMessage(t.GetInputSchema()), OutputSchema: json.RawMessage(t.GetOutputSchema()),
			Safety: t.GetSafety(), DryRun: t.GetDryRun(), Confirm: t.GetConfirm(),
			Preconditions: t.GetPreconditions(), DestructiveWhen: t.GetDestructiveWhen(), RunsCode: t.GetRunsCode(),
		}
		if !toolNameRE.MatchString(ti.Name) {
			return info, fmt.Errorf("tool name %q is not lower case letters, digits and '_'", ti.Name)
		}
		if seen[ti.Name] {
			return info, fmt.Errorf("two tools are named %q", ti.Name)
		}
		seen[ti.Name] = true
		if !safetyClasses[ti.Safety] {
			return info, fmt.Errorf("tool %q: unknown safety class %q", ti.Name, ti.Safety)
		}
		if _, err := safety.ParseConditions(ti.DestructiveWhen); err != nil {
			return info, fmt.Errorf("tool %q: %w", ti.Name, err)
		}
		if err := checkObjectSchema(ti.InputSchema); err != nil {
			return info, fmt.Errorf("tool %q: input schema: %w", ti.Name, err)
		}
		if err := checkObjectSchema(ti.OutputSchema); err != nil {
			return info, fmt.Errorf("tool %q: output schema: %w", ti.Name, err)
		}
		info.Tools = append(info.Tools, ti)
	}
	for _, r := range d.GetResources() {
		if r.GetUri() == "" || r.GetName() == "" {
			return info, fmt.Errorf("a resource needs a URI and a name (got %q, %q)", r.GetUri(), r.GetName())
		}
		info.Resources = append(info.Resources, ResourceInfo{URI: r.GetUri(), Name: r.GetName(), Title: r.GetTitle(), Description: r.GetDescription(), MimeType: r.GetMimeType()})
	}
	for _, r := range d.GetResourceTemplates() {
		if r.GetUriTemplate() == "" || r.GetName() == "" {
			return info, fmt.Errorf("a resource template needs a URI template and a name (got %q, %q)", r.GetUriTemplate(), r.GetName())
		}
		info.ResourceTemplates = append(info.ResourceTemplates, ResourceInfo{URI: r.GetUriTemplate(), Name: r.GetName(), Title: r.GetTitle(), Description: r.GetDescription(), MimeType: r.GetMimeType()})
	}
	prompts := map[string]bool{}
	for _, p := range d.GetPrompts() {
		if !toolNameRE.MatchString(p.GetName()) {
			return info, fmt.Errorf("prompt name %q is not lower case letters, digits and '_'", p.GetName())
		}
		if prompts[p.GetName()] {
			return info, fmt.Errorf("two prompts are named %q", p.GetName())
		}
		prompts[p.GetName()] = true
		pi := PromptInfo{Name: p.GetName(), Title: p.GetTitle(), Description: p.GetDescription()}
		for _, a := range p.GetArguments() {
			pi.Arguments = append(pi.Arguments, PromptArgument{Name: a.GetName(), Description: a.GetDescription(), Required: a.GetRequired()})
		}
		info.Prompts = append(info.Prompts, pi)
	}
	return info, nil
}

// errorFromProto converts a plugin's error, refusing unknown codes.
func errorFromProto(toolset string, e *pluginproto.Error) *envelope.Error {
	code := envelope.ErrorCode(e.GetCode())
	if !code.Valid() {
		return envelope.Errorf(envelope.InternalError,
			"Toolset '%s' answered with an unknown error code %q (hint: %s). This is a bug in the toolset.", toolset, e.GetCode(), e.GetHint())
	}
	return &envelope.Error{Code: code, Hint: e.GetHint(), Required: e.GetRequired()}
}

// contentFromProto converts one content item, refusing unknown types.
func contentFromProto(toolset string, c *pluginproto.Content) (Content, *envelope.Error) {
	switch c.GetType() {
	case "text", "image", "audio":
	case "resource":
		if c.GetUri() == "" {
			return Content{}, envelope.Errorf(envelope.InternalError,
				"Toolset '%s' returned an embedded resource without a URI. This is a bug in the toolset.", toolset)
		}
	default:
		return Content{}, envelope.Errorf(envelope.InternalError,
			"Toolset '%s' returned a content item of unknown type %q. This is a bug in the toolset.", toolset, c.GetType())
	}
	return Content{Type: c.GetType(), Text: c.GetText(), MimeType: c.GetMimeType(), Data: c.GetData(), URI: c.GetUri()}, nil
}

func resourceResultFromProto(toolset string, r *pluginproto.ReadResourceResponse) ResourceResult {
	if e := r.GetError(); e != nil {
		return ResourceResult{Err: errorFromProto(toolset, e)}
	}
	if len(r.GetContents()) == 0 {
		return ResourceResult{Err: envelope.Errorf(envelope.InternalError,
			"Toolset '%s' read a resource with no contents. This is a bug in the toolset.", toolset)}
	}
	var out ResourceResult
	for _, c := range r.GetContents() {
		rc := ResourceContents{URI: c.GetUri(), MimeType: c.GetMimeType()}
		switch b := c.GetBody().(type) {
		case *pluginproto.ResourceContents_Blob:
			rc.Blob, rc.Binary = b.Blob, true
		case *pluginproto.ResourceContents_Text:
			rc.Text = b.Text
		}
		out.Contents = append(out.Contents, rc)
	}
	return out
}

func promptResultFromProto(toolset string, r *pluginproto.GetPromptResponse) PromptResult {
	if e := r.GetError(); e != nil {
		return PromptResult{Err: errorFromProto(toolset, e)}
	}
	out := PromptResult{Description: r.GetDescription()}
	for _, m := range r.GetMessages() {
		if m.GetRole() != "user" && m.GetRole() != "assistant" {
			return PromptResult{Err: envelope.Errorf(envelope.InternalError,
				"Toolset '%s' returned a prompt message with role %q. This is a bug in the toolset.", toolset, m.GetRole())}
		}
		c, err := contentFromProto(toolset, m.GetContent())
		if err != nil {
			return PromptResult{Err: err}
		}
		out.Messages = append(out.Messages, PromptMessage{Role: m.GetRole(), Content: c})
	}
	return out
}

// checkObjectSchema requires a JSON Schema whose root is an object, as MCP
// requires of inputSchema and outputSchema.
func checkObjectSchema(raw json.RawMessage) error {
	var s struct {
		Type any `json:"type"`
	}
	if err := json.Unmarshal(raw, &s); err != nil {
		return fmt.Errorf("not a JSON object: %v", err)
	}
	if s.Type != "object" {
		return fmt.Errorf(`root "type" must be "object", got %v`, s.Type)
	}
	return nil
}

// resultFromProto converts a plugin's answer, refusing malformed ones.
func resultFromProto(toolset string, r *pluginproto.CallResponse) CallResult {
	if e := r.GetError(); e != nil {
		return CallResult{Err: errorFromProto(toolset, e)}
	}
	structured := json.RawMessage(r.GetStructuredJson())
	if len(structured) == 0 || structured[0] != '{' || !rawjson.Valid(structured) {
		return CallResult{Err: envelope.Errorf(envelope.InternalError,
			"Toolset '%s' returned a result that is not a JSON object. This is a bug in the toolset.", toolset)}
	}
	res := CallResult{Structured: structured}
	for _, c := range r.GetContent() {
		item, err := contentFromProto(toolset, c)
		if err != nil {
			return CallResult{Err: err}
		}
		res.Content = append(res.Content, item)
	}
	return res
}
