// Package plugmodel is the one declaration of the toolset plugin model: what
// a toolset says about itself (its tools, resources, prompts, editor code),
// a call and its result, a resource read, a prompt and its messages, and the
// two interfaces the ends of the plugin protocol program against:
//
//   - Toolset is a toolset as the host sees it. It is implemented by the
//     gRPC client of a plugin process (internal/pluginrpc) and by the SDK's
//     in-process registry (package sdk), as go-plugin's KV example and
//     Vault's logical.Backend are: the host cannot tell them apart.
//   - Host is what a toolset sends back through: editor commands, progress
//     and log records. It is implemented by the host (host/pluginhost, with
//     its safety gate) and by the gRPC client of the host's services.
//
// The host (host/pluginhost, host/toolsets, host/mcpserver) and the SDK's
// plumbing use these types directly; the SDK's public API (sdk.Toolset,
// sdk.Call, sdk.Content …) keeps its own names and shapes and converts at
// its edge. Nothing here is public API. Errors are *contract.Error, the
// host's and the editor's one error (sdk.Error is an alias of it).
package plugmodel

import (
	"context"
	"encoding/json"
	"log/slog"
	"time"

	"github.com/godot-mcp/godot-mcp/sdk/contract"
)

// ToolsetInfo is what a toolset says about itself (Toolset.Describe).
type ToolsetInfo struct {
	Name, Version, Description, MinGodot string
	// Keywords are the words an agent would search for to find the
	// toolset (class names, features); optional.
	Keywords []string
	Tools    []ToolInfo
	// Resources, ResourceTemplates and Prompts are optional.
	Resources, ResourceTemplates []ResourceInfo
	Prompts                      []PromptInfo
	// SDKVersion is the godot-mcp module version the plugin was built
	// with, when known.
	SDKVersion string
	// EditorFiles is the toolset's editor code (installed into
	// res://addons/godot_mcp_ext/<Name>/ on enable) and EditorVersion its
	// stamp; both empty when the toolset ships none.
	EditorFiles   []EditorFile
	EditorVersion string
	// MaxTestedGodot is the newest Godot version the toolset was tested
	// with ("4.8"); "" when not said.
	MaxTestedGodot string
}

// ToolInfo is one tool's declared metadata.
type ToolInfo struct {
	Name                      string
	InputSchema, OutputSchema json.RawMessage
	// ToolMeta is the rest of what the tool declares (title, description,
	// safety class, dry_run, confirm, preconditions, destructive_when,
	// runs_code, ...): carried as one document, never field by field.
	contract.ToolMeta
}

// ResourceInfo is one declared resource; for a resource template, URI is
// the RFC 6570 template.
type ResourceInfo struct {
	URI, Name, Title, Description, MimeType string
}

// PromptInfo is one declared prompt (tagged for the contract surface).
type PromptInfo struct {
	Name        string           `json:"name"`
	Title       string           `json:"title"`
	Description string           `json:"description"`
	Arguments   []PromptArgument `json:"arguments"`
}

// PromptArgument is one argument of a prompt.
type PromptArgument struct {
	Name        string `json:"name"`
	Description string `json:"description"`
	Required    bool   `json:"required,omitempty"`
}

// EditorFile is one file of a toolset's editor code: a clean, relative,
// slash-separated path and its bytes.
type EditorFile struct {
	Path    string
	Content []byte
}

// CallRequest is one tool call.
type CallRequest struct {
	// Tool is the toolset's own (unqualified) name of the tool.
	Tool string
	// Arguments is the arguments object (dry_run and confirm are flags).
	Arguments     json.RawMessage
	DryRun        bool
	Confirm       bool
	ProgressToken string
	// CallID is the host's id of the call; the toolset passes it back with
	// the call's editor commands and log records (Host).
	CallID string
}

// Content is one content item: "text", "image", "audio", or "resource" (an
// embedded resource: URI, MimeType, and Text or, when binary, Data).
type Content struct {
	Type     string
	Text     string
	Data     []byte
	MimeType string
	URI      string
}

// CallResult is a call's outcome: Structured (a JSON object) and Content, or Err.
type CallResult struct {
	Structured json.RawMessage
	Content    []Content
	Err        *contract.Error
}

// ResourceRequest is one resources/read; Template and Params are set when
// URI matched one of the toolset's resource templates.
type ResourceRequest struct {
	URI, Template string
	Params        map[string]string
	// CallID is the host's id of the read (see CallRequest.CallID).
	CallID string
}

// ResourceContents is the content of one resource: Text, or Blob when Binary.
type ResourceContents struct {
	URI, MimeType, Text string
	Blob                []byte
	Binary              bool
}

// ResourceResult is a read's outcome: Contents, or Err.
type ResourceResult struct {
	Contents []ResourceContents
	Err      *contract.Error
}

// PromptRequest is one prompts/get of the toolset's prompt Name (its own,
// unqualified name).
type PromptRequest struct {
	Name      string
	Arguments map[string]string
	// CallID is the host's id of the request (see CallRequest.CallID).
	CallID string
}

// PromptMessage is one message of a rendered prompt: Role "user" or
// "assistant" and one content item.
type PromptMessage struct {
	Role    string
	Content Content
}

// PromptResult is a rendered prompt, or Err.
type PromptResult struct {
	Description string
	Messages    []PromptMessage
	Err         *contract.Error
}

// Toolset is one toolset as the host programs against it, in a plugin
// process (over gRPC) or in-process. Failures of the toolset itself are in
// the results' Err; a Go error means the toolset could not be reached (its
// process crashed, the connection broke, ctx ended). Setup is called once,
// before anything else.
type Toolset interface {
	// Setup hands the toolset the host's services, for the life of the toolset.
	Setup(ctx context.Context, cfg HostConfig) error
	Describe(ctx context.Context) (ToolsetInfo, error)
	Call(ctx context.Context, req CallRequest) (CallResult, error)
	ReadResource(ctx context.Context, req ResourceRequest) (ResourceResult, error)
	GetPrompt(ctx context.Context, req PromptRequest) (PromptResult, error)
}

// HostConfig is what Toolset.Setup hands a toolset.
type HostConfig struct {
	Host Host
	// HostVersion is the host's build version (for logs) and
	// ContractVersion its contract_version.
	HostVersion     string
	ContractVersion int32
}

// Host is what a toolset sends back through during a call, a read or a
// prompt (callID is the request's CallID).
type Host interface {
	// Send sends command to the editor and waits at most timeout (0: the
	// host's default). It returns the editor's result, or an
	// *contract.Error (as error) when the editor answered ok:false, the
	// command could not be delivered or the host refused it.
	Send(ctx context.Context, callID, command string, params json.RawMessage, timeout time.Duration) (json.RawMessage, error)
	// Progress reports progress of the call that carried token (never empty).
	Progress(ctx context.Context, token string, progress, total float64, message string) error
	// Log writes one record to the host's log; a record of a call (see
	// WithCallID) also reaches the calling client.
	Log(ctx context.Context, level slog.Level, message string, attrs []slog.Attr) error
}

type callIDKey struct{}

// WithCallID tags ctx with the id of the call that is logging, for Host.Log.
func WithCallID(ctx context.Context, id string) context.Context {
	if id == "" {
		return ctx
	}
	return context.WithValue(ctx, callIDKey{}, id)
}

// CallID is the call id WithCallID put in ctx, or "".
func CallID(ctx context.Context) string {
	id, _ := ctx.Value(callIDKey{}).(string)
	return id
}
