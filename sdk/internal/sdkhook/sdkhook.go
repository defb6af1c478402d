// Package sdkhook connects package sdk to package sdk/sdktest without adding
// test-only API to sdk: sdk installs its dispatcher here in an init function,
// and sdktest calls it. Nothing outside this module can import it.
package sdkhook

import (
	"context"
	"encoding/json"
	"log/slog"
	"time"
)

// Backend is what a running toolset needs from the host: the editor bridge,
// progress notifications and the log.
type Backend interface {
	// Send returns the editor's result, or an *sdk.Error (as error) when the
	// editor answered ok:false or the command could not be delivered (or
	// the host refused it). callID is the host's id of the call the command
	// serves (Request.CallID, ResourceRequest.CallID, GetPrompt's callID).
	Send(ctx context.Context, callID, command string, params json.RawMessage, timeout time.Duration) (json.RawMessage, error)
	Progress(ctx context.Context, token string, progress, total float64, message string) error
	Log(ctx context.Context, level slog.Level, message string, attrs []slog.Attr) error
}

// Request is one tool call.
type Request struct {
	Tool          string
	Arguments     json.RawMessage
	DryRun        bool
	Confirm       bool
	ProgressToken string
	// CallID is the host's id of the call, passed back with its log
	// records (see WithCallID) and its editor commands (Backend.Send).
	CallID string
}

type callIDKey struct{}

// WithCallID tags ctx with the id of the tool call that is logging, for
// Backend.Log.
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

// Content is one extra content item of a result.
type Content struct {
	Type     string // "text", "image", "audio" or "resource"
	Text     string
	Data     []byte
	MimeType string
	URI      string // for "resource"
}

// Result is a tool call's outcome. Err is an *sdk.Error or nil.
type Result struct {
	Structured json.RawMessage
	Content    []Content
	Err        error
}

// ToolInfo is one tool's declared metadata.
type ToolInfo struct {
	Name, Title, Description  string
	InputSchema, OutputSchema json.RawMessage
	Safety                    string
	DryRun, Confirm           bool
	Preconditions             []string
	DestructiveWhen           []string
	RunsCode                  bool
}

// ResourceInfo is one resource's (or, with a template URI, one resource
// template's) declared metadata.
type ResourceInfo struct {
	URI, Name, Title, Description, MimeType string
}

// PromptArgument is one prompt argument.
type PromptArgument struct {
	Name, Description string
	Required          bool
}

// PromptInfo is one prompt's declared metadata.
type PromptInfo struct {
	Name, Title, Description string
	Arguments                []PromptArgument
}

// Description is what Describe answers.
type Description struct {
	Name, Version, Description, MinGodot string
	Tools                                []ToolInfo
	Resources, ResourceTemplates         []ResourceInfo
	Prompts                              []PromptInfo
	// EditorFiles is the toolset's editor code; EditorVersion its stamp.
	EditorFiles   []EditorFile
	EditorVersion string
}

// EditorFile is one file of a toolset's editor code, by slash path.
type EditorFile struct {
	Path    string
	Content []byte
}

// ResourceRequest is one resources/read; Template and Params are set when URI
// matched a template.
type ResourceRequest struct {
	URI, Template string
	Params        map[string]string
	// CallID is the host's id of the read, passed back with its editor
	// commands (Backend.Send).
	CallID string
}

// ResourceContents is the content of one resource: Text, or Blob when Binary.
type ResourceContents struct {
	URI, MimeType, Text string
	Blob                []byte
	Binary              bool
}

// ResourceResult is a read's outcome. Err is an *sdk.Error or nil.
type ResourceResult struct {
	Contents []ResourceContents
	Err      error
}

// PromptMessage is one message of a rendered prompt.
type PromptMessage struct {
	Role    string
	Content Content
}

// PromptResult is a prompts/get outcome. Err is an *sdk.Error or nil.
type PromptResult struct {
	Description string
	Messages    []PromptMessage
	Err         error
}

// Dispatcher runs one validated toolset.
type Dispatcher interface {
	Describe() Description
	Call(ctx context.Context, req Request, host Backend) Result
	ReadResource(ctx context.Context, req ResourceRequest, host Backend) ResourceResult
	// callID is the host's id of the request, passed back with its editor
	// commands (Backend.Send).
	GetPrompt(ctx context.Context, name, callID string, args map[string]string, host Backend) PromptResult
}

// NewDispatcher validates an sdk.Toolset (passed as any) and returns its
// dispatcher. Package sdk sets it in init.
var NewDispatcher func(toolset any) (Dispatcher, error)
