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
	"github.com/godot-mcp/godot-mcp/internal/pluginproto"
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
}

func (h *hostServer) Send(ctx context.Context, req *pluginproto.SendRequest) (*pluginproto.SendResponse, error) {
	params := json.RawMessage(req.GetParamsJson())
	if len(params) == 0 {
		params = json.RawMessage("{}")
	}
	timeout := time.Duration(max(req.GetTimeoutMs(), 0)) * time.Millisecond
	return responseToProto(h.svc.Send(ctx, req.GetCommand(), params, timeout)), nil
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
	if len(d.GetTools()) == 0 {
		return info, errors.New("the toolset declares no tools")
	}
	seen := map[string]bool{}
	for _, t := range d.GetTools() {
		ti := ToolInfo{
			Name: t.GetName(), Title: t.GetTitle(), Description: t.GetDescription(),
			InputSchema: json.RawMessage(t.GetInputSchema()), OutputSchema: json.RawMessage(t.GetOutputSchema()),
			Safety: t.GetSafety(), DryRun: t.GetDryRun(), Confirm: t.GetConfirm(),
			Preconditions: t.GetPreconditions(),
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
		if err := checkObjectSchema(ti.InputSchema); err != nil {
			return info, fmt.Errorf("tool %q: input schema: %w", ti.Name, err)
		}
		if err := checkObjectSchema(ti.OutputSchema); err != nil {
			return info, fmt.Errorf("tool %q: output schema: %w", ti.Name, err)
		}
		info.Tools = append(info.Tools, ti)
	}
	return info, nil
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
		code := envelope.ErrorCode(e.GetCode())
		if !code.Valid() {
			return CallResult{Err: envelope.Errorf(envelope.InternalError,
				"Toolset '%s' answered with an unknown error code %q (hint: %s). This is a bug in the toolset.", toolset, e.GetCode(), e.GetHint())}
		}
		return CallResult{Err: &envelope.Error{Code: code, Hint: e.GetHint(), Required: e.GetRequired()}}
	}
	structured := json.RawMessage(r.GetStructuredJson())
	if len(structured) == 0 || structured[0] != '{' || !json.Valid(structured) {
		return CallResult{Err: envelope.Errorf(envelope.InternalError,
			"Toolset '%s' returned a result that is not a JSON object. This is a bug in the toolset.", toolset)}
	}
	res := CallResult{Structured: structured}
	for _, c := range r.GetContent() {
		switch c.GetType() {
		case "text", "image":
		default:
			return CallResult{Err: envelope.Errorf(envelope.InternalError,
				"Toolset '%s' returned a content item of unknown type %q. This is a bug in the toolset.", toolset, c.GetType())}
		}
		res.Content = append(res.Content, Content{Type: c.GetType(), Text: c.GetText(), MimeType: c.GetMimeType(), Data: c.GetData()})
	}
	return res
}
