package pluginrpc

import (
	"encoding/json"
	"log/slog"

	"github.com/godot-mcp/godot-mcp/internal/pluginproto"
	"github.com/godot-mcp/godot-mcp/internal/plugmodel"
	"github.com/godot-mcp/godot-mcp/sdk/contract"
)

// This file is the one boundary between the model (internal/plugmodel) and
// the generated protobuf types, both directions. It converts and checks
// nothing else: what a host accepts from a plugin is host/pluginhost's
// business.

func infoToProto(d plugmodel.ToolsetInfo) *pluginproto.DescribeResponse {
	out := &pluginproto.DescribeResponse{
		Name: d.Name, Version: d.Version, Description: d.Description, MinGodot: d.MinGodot,
		SdkVersion: d.SDKVersion, EditorVersion: d.EditorVersion, MaxTestedGodot: d.MaxTestedGodot, Keywords: d.Keywords,
	}
	for _, f := range d.EditorFiles {
		out.EditorFiles = append(out.EditorFiles, &pluginproto.EditorFile{Path: f.Path, Content: f.Content})
	}
	for _, t := range d.Tools {
		out.Tools = append(out.Tools, toolToProto(t))
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

func infoFromProto(d *pluginproto.DescribeResponse) plugmodel.ToolsetInfo {
	info := plugmodel.ToolsetInfo{
		Name: d.GetName(), Version: d.GetVersion(), Description: d.GetDescription(),
		MinGodot: d.GetMinGodot(), SDKVersion: d.GetSdkVersion(), EditorVersion: d.GetEditorVersion(),
		MaxTestedGodot: d.GetMaxTestedGodot(),
		Keywords:       d.GetKeywords(),
	}
	for _, f := range d.GetEditorFiles() {
		info.EditorFiles = append(info.EditorFiles, plugmodel.EditorFile{Path: f.GetPath(), Content: f.GetContent()})
	}
	for _, t := range d.GetTools() {
		info.Tools = append(info.Tools, toolFromProto(t))
	}
	for _, r := range d.GetResources() {
		info.Resources = append(info.Resources, plugmodel.ResourceInfo{URI: r.GetUri(), Name: r.GetName(), Title: r.GetTitle(), Description: r.GetDescription(), MimeType: r.GetMimeType()})
	}
	for _, r := range d.GetResourceTemplates() {
		info.ResourceTemplates = append(info.ResourceTemplates, plugmodel.ResourceInfo{URI: r.GetUriTemplate(), Name: r.GetName(), Title: r.GetTitle(), Description: r.GetDescription(), MimeType: r.GetMimeType()})
	}
	for _, p := range d.GetPrompts() {
		pi := plugmodel.PromptInfo{Name: p.GetName(), Title: p.GetTitle(), Description: p.GetDescription()}
		for _, a := range p.GetArguments() {
			pi.Arguments = append(pi.Arguments, plugmodel.PromptArgument{Name: a.GetName(), Description: a.GetDescription(), Required: a.GetRequired()})
		}
		info.Prompts = append(info.Prompts, pi)
	}
	return info
}

// toolToProto sends a tool's metadata as one JSON document (meta_json),
// and also in the frozen fields hosts that predate meta_json read.
func toolToProto(t plugmodel.ToolInfo) *pluginproto.Tool {
	meta, err := json.Marshal(t.ToolMeta)
	if err != nil {
		meta = nil // a ToolMeta of strings, bools and string lists always marshals
	}
	return &pluginproto.Tool{
		Name: t.Name, InputSchema: string(t.InputSchema), OutputSchema: string(t.OutputSchema), MetaJson: string(meta),
		Title: t.Title, Description: t.Description, Safety: string(t.Safety), DryRun: t.DryRun, Confirm: t.Confirm,
		Preconditions: t.Preconditions, DestructiveWhen: t.DestructiveWhen, RunsCode: t.RunsCode,
	}
}

// toolFromProto reads meta_json; a plugin built before it existed sent
// only the frozen fields. A meta_json that does not parse leaves the
// metadata empty (no safety class), which the host refuses by name.
func toolFromProto(t *pluginproto.Tool) plugmodel.ToolInfo {
	info := plugmodel.ToolInfo{Name: t.GetName(), InputSchema: json.RawMessage(t.GetInputSchema()), OutputSchema: json.RawMessage(t.GetOutputSchema())}
	if m := t.GetMetaJson(); m != "" {
		var meta contract.ToolMeta
		if json.Unmarshal([]byte(m), &meta) == nil {
			info.ToolMeta = meta
		}
		return info
	}
	info.ToolMeta = contract.ToolMeta{
		Title: t.GetTitle(), Description: t.GetDescription(), Safety: contract.Class(t.GetSafety()), DryRun: t.GetDryRun(), Confirm: t.GetConfirm(),
		Preconditions: t.GetPreconditions(), DestructiveWhen: t.GetDestructiveWhen(), RunsCode: t.GetRunsCode(),
	}
	return info
}

func errorToProto(e *contract.Error) *pluginproto.Error {
	if e == nil {
		return nil
	}
	return &pluginproto.Error{Code: string(e.Code), Hint: e.Hint, Required: e.Required}
}

// errorFromProto keeps the code as sent, known or not (the host checks it).
func errorFromProto(e *pluginproto.Error) *contract.Error {
	if e == nil {
		return nil
	}
	return &contract.Error{Code: contract.ErrorCode(e.GetCode()), Hint: e.GetHint(), Required: e.GetRequired()}
}

func contentToProto(c plugmodel.Content) *pluginproto.Content {
	return &pluginproto.Content{Type: c.Type, Text: c.Text, Data: c.Data, MimeType: c.MimeType, Uri: c.URI}
}

func contentFromProto(c *pluginproto.Content) plugmodel.Content {
	return plugmodel.Content{Type: c.GetType(), Text: c.GetText(), Data: c.GetData(), MimeType: c.GetMimeType(), URI: c.GetUri()}
}

func callToProto(r plugmodel.CallRequest) *pluginproto.CallRequest {
	return &pluginproto.CallRequest{
		Tool: r.Tool, ArgumentsJson: r.Arguments, DryRun: r.DryRun, Confirm: r.Confirm,
		ProgressToken: r.ProgressToken, CallId: r.CallID,
	}
}

func callFromProto(r *pluginproto.CallRequest) plugmodel.CallRequest {
	return plugmodel.CallRequest{
		Tool: r.GetTool(), Arguments: json.RawMessage(r.GetArgumentsJson()),
		DryRun: r.GetDryRun(), Confirm: r.GetConfirm(), ProgressToken: r.GetProgressToken(), CallID: r.GetCallId(),
	}
}

func resultToProto(r plugmodel.CallResult) *pluginproto.CallResponse {
	if r.Err != nil {
		return &pluginproto.CallResponse{Error: errorToProto(r.Err)}
	}
	out := &pluginproto.CallResponse{StructuredJson: r.Structured}
	if len(r.Content) > 0 {
		out.Content = make([]*pluginproto.Content, len(r.Content))
		for i, c := range r.Content {
			out.Content[i] = contentToProto(c)
		}
	}
	return out
}

func resultFromProto(r *pluginproto.CallResponse) plugmodel.CallResult {
	if e := r.GetError(); e != nil {
		return plugmodel.CallResult{Err: errorFromProto(e)}
	}
	out := plugmodel.CallResult{Structured: json.RawMessage(r.GetStructuredJson())}
	if n := len(r.GetContent()); n > 0 {
		out.Content = make([]plugmodel.Content, n)
		for i, c := range r.GetContent() {
			out.Content[i] = contentFromProto(c)
		}
	}
	return out
}

func resourceRequestToProto(r plugmodel.ResourceRequest) *pluginproto.ReadResourceRequest {
	return &pluginproto.ReadResourceRequest{Uri: r.URI, UriTemplate: r.Template, Params: r.Params, CallId: r.CallID}
}

func resourceRequestFromProto(r *pluginproto.ReadResourceRequest) plugmodel.ResourceRequest {
	return plugmodel.ResourceRequest{URI: r.GetUri(), Template: r.GetUriTemplate(), Params: r.GetParams(), CallID: r.GetCallId()}
}

func resourceResultToProto(r plugmodel.ResourceResult) *pluginproto.ReadResourceResponse {
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

func resourceResultFromProto(r *pluginproto.ReadResourceResponse) plugmodel.ResourceResult {
	if e := r.GetError(); e != nil {
		return plugmodel.ResourceResult{Err: errorFromProto(e)}
	}
	var out plugmodel.ResourceResult
	for _, c := range r.GetContents() {
		rc := plugmodel.ResourceContents{URI: c.GetUri(), MimeType: c.GetMimeType()}
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

func promptRequestToProto(r plugmodel.PromptRequest) *pluginproto.GetPromptRequest {
	return &pluginproto.GetPromptRequest{Name: r.Name, Arguments: r.Arguments, CallId: r.CallID}
}

func promptRequestFromProto(r *pluginproto.GetPromptRequest) plugmodel.PromptRequest {
	return plugmodel.PromptRequest{Name: r.GetName(), Arguments: r.GetArguments(), CallID: r.GetCallId()}
}

func promptResultToProto(r plugmodel.PromptResult) *pluginproto.GetPromptResponse {
	if r.Err != nil {
		return &pluginproto.GetPromptResponse{Error: errorToProto(r.Err)}
	}
	out := &pluginproto.GetPromptResponse{Description: r.Description}
	for _, m := range r.Messages {
		out.Messages = append(out.Messages, &pluginproto.PromptMessage{Role: m.Role, Content: contentToProto(m.Content)})
	}
	return out
}

func promptResultFromProto(r *pluginproto.GetPromptResponse) plugmodel.PromptResult {
	if e := r.GetError(); e != nil {
		return plugmodel.PromptResult{Err: errorFromProto(e)}
	}
	out := plugmodel.PromptResult{Description: r.GetDescription()}
	for _, m := range r.GetMessages() {
		out.Messages = append(out.Messages, plugmodel.PromptMessage{Role: m.GetRole(), Content: contentFromProto(m.GetContent())})
	}
	return out
}

func logToProto(level slog.Level, message string, attrs []slog.Attr) *pluginproto.LogRequest {
	req := &pluginproto.LogRequest{Level: int32(level), Message: message}
	for _, a := range attrs {
		req.Attrs = append(req.Attrs, &pluginproto.LogAttr{Key: a.Key, Value: a.Value.Resolve().String()})
	}
	return req
}

func logFromProto(req *pluginproto.LogRequest) (slog.Level, string, []slog.Attr) {
	attrs := make([]slog.Attr, 0, len(req.GetAttrs()))
	for _, a := range req.GetAttrs() {
		attrs = append(attrs, slog.String(a.GetKey(), a.GetValue()))
	}
	return slog.Level(req.GetLevel()), req.GetMessage(), attrs
}
