package sdk

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"runtime/debug"
	"sort"
	"strings"
	"sync/atomic"

	"github.com/godot-mcp/godot-mcp/internal/inproc"
	"github.com/godot-mcp/godot-mcp/internal/plugmodel"
	"github.com/godot-mcp/godot-mcp/internal/rawjson"
	"github.com/godot-mcp/godot-mcp/sdk/contract"
	"github.com/godot-mcp/godot-mcp/sdk/internal/sdkhook"
)

func init() {
	sdkhook.NewToolset = func(ts any) (plugmodel.Toolset, error) {
		t, ok := ts.(Toolset)
		if !ok {
			if p, isPtr := ts.(*Toolset); isPtr && p != nil {
				t, ok = *p, true
			}
		}
		if !ok {
			return nil, fmt.Errorf("not an sdk.Toolset: %T", ts)
		}
		return newRegistry(t)
	}
	inproc.NewToolset = sdkhook.NewToolset
}

// registry is a validated Toolset and its dispatcher: the toolset as the
// host sees it (plugmodel.Toolset), served over gRPC by Serve or used
// in-process (sdktest, the host's in-process toolsets).
type registry struct {
	ts    Toolset
	tools map[string]*toolDef
	names []string
	// editorFiles and editorVersion are ts.EditorCode, read once.
	editorFiles   []plugmodel.EditorFile
	editorVersion string
	// backend is the host's services, set by Setup.
	backend atomic.Pointer[plugmodel.Host]
}

var _ plugmodel.Toolset = (*registry)(nil)

// newRegistry checks a Toolset once, before it serves.
func newRegistry(ts Toolset) (*registry, error) {
	if !nameRE.MatchString(ts.Name) {
		return nil, fmt.Errorf("toolset name %q must be lower case letters, digits and '_', starting with a letter", ts.Name)
	}
	if ts.MinGodot != "" && !validGodotVersion(ts.MinGodot) {
		return nil, fmt.Errorf("toolset %q: MinGodot %q is not a version like \"4.3\" or \"4.2.1\"", ts.Name, ts.MinGodot)
	}
	if ts.MaxTestedGodot != "" && !validGodotVersion(ts.MaxTestedGodot) {
		return nil, fmt.Errorf("toolset %q: MaxTestedGodot %q is not a version like \"4.8\" or \"4.4.1\"", ts.Name, ts.MaxTestedGodot)
	}
	if len(ts.Tools) == 0 {
		return nil, fmt.Errorf("toolset %q has no tools", ts.Name)
	}
	if err := checkKeywords(ts); err != nil {
		return nil, err
	}
	if err := checkResources(ts); err != nil {
		return nil, err
	}
	r := &registry{ts: ts, tools: map[string]*toolDef{}}
	var err error
	if r.editorFiles, r.editorVersion, err = readEditorCode(ts); err != nil {
		return nil, err
	}
	for i, t := range ts.Tools {
		if t == nil {
			return nil, fmt.Errorf("toolset %q: Tools[%d] is nil", ts.Name, i)
		}
		d := t.def()
		if _, dup := r.tools[d.name]; dup {
			return nil, fmt.Errorf("toolset %q: two tools are named %q", ts.Name, d.name)
		}
		r.tools[d.name] = d
		r.names = append(r.names, d.name)
	}
	return r, nil
}

// Limits of Toolset.Keywords: they go into the server's instructions,
// which have a byte budget shared by every toolset.
const (
	maxKeywords   = 12
	maxKeywordLen = 40
)

func checkKeywords(ts Toolset) error {
	if len(ts.Keywords) > maxKeywords {
		return fmt.Errorf("toolset %q: %d Keywords, at most %d", ts.Name, len(ts.Keywords), maxKeywords)
	}
	for _, k := range ts.Keywords {
		if strings.TrimSpace(k) == "" || len(k) > maxKeywordLen || strings.ContainsAny(k, "\r\n") {
			return fmt.Errorf("toolset %q: keyword %q must be 1 to %d characters on one line", ts.Name, k, maxKeywordLen)
		}
	}
	return nil
}

// validGodotVersion accepts "4", "4.3", "4.3.1".
func validGodotVersion(v string) bool {
	parts := strings.Split(v, ".")
	if len(parts) > 3 {
		return false
	}
	for _, p := range parts {
		if p == "" || strings.Trim(p, "0123456789") != "" {
			return false
		}
	}
	return true
}

// Setup implements plugmodel.Toolset: host serves every later call.
func (r *registry) Setup(_ context.Context, cfg plugmodel.HostConfig) error {
	if cfg.Host == nil {
		return fmt.Errorf("toolset %q: Setup without host services", r.ts.Name)
	}
	r.backend.Store(&cfg.Host)
	return nil
}

// host is the host's services (noHost before Setup).
func (r *registry) host() plugmodel.Host {
	if h := r.backend.Load(); h != nil {
		return *h
	}
	return noHost{}
}

// Describe implements plugmodel.Toolset.
func (r *registry) Describe(context.Context) (plugmodel.ToolsetInfo, error) {
	return r.describe(), nil
}

func (r *registry) describe() plugmodel.ToolsetInfo {
	d := plugmodel.ToolsetInfo{Name: r.ts.Name, Version: r.ts.Version, Description: r.ts.Description, MinGodot: r.ts.MinGodot, MaxTestedGodot: r.ts.MaxTestedGodot,
		Keywords: r.ts.Keywords, SDKVersion: sdkVersion(), EditorFiles: r.editorFiles, EditorVersion: r.editorVersion}
	for _, name := range r.names {
		t := r.tools[name]
		d.Tools = append(d.Tools, plugmodel.ToolInfo{Name: t.name, InputSchema: t.inSchemaJSON, OutputSchema: t.outSchemaJSON, ToolMeta: t.meta()})
	}
	for _, res := range r.ts.Resources {
		d.Resources = append(d.Resources, plugmodel.ResourceInfo{URI: res.URI, Name: res.Name, Title: res.Title, Description: res.Description, MimeType: res.MIMEType})
	}
	for _, res := range r.ts.ResourceTemplates {
		d.ResourceTemplates = append(d.ResourceTemplates, plugmodel.ResourceInfo{URI: res.URITemplate, Name: res.Name, Title: res.Title, Description: res.Description, MimeType: res.MIMEType})
	}
	for _, p := range r.ts.Prompts {
		d.Prompts = append(d.Prompts, plugmodel.PromptInfo{Name: p.Name, Title: p.Title, Description: p.Description,
			Arguments: append([]plugmodel.PromptArgument(nil), p.Arguments...)})
	}
	return d
}

// Call implements plugmodel.Toolset. It never panics and never fails with a
// Go error: every failure is an *Error in the result.
func (r *registry) Call(ctx context.Context, req plugmodel.CallRequest) (plugmodel.CallResult, error) {
	return r.call(ctx, req, r.host()), nil
}

func (r *registry) call(ctx context.Context, req plugmodel.CallRequest, backend plugmodel.Host) (res plugmodel.CallResult) {
	t := r.tools[req.Tool]
	if t == nil {
		known := append([]string(nil), r.names...)
		sort.Strings(known)
		return failure(NotFound(fmt.Sprintf("toolset %q has no tool %q (tools: %s)", r.ts.Name, req.Tool, strings.Join(known, ", "))))
	}
	req = liftFlags(req)
	// The host enforces these too; refusing here as well means a toolset
	// never acts when a preview was asked for or confirmation is missing.
	if req.DryRun && !t.dryRun() {
		return failure(Validation(fmt.Sprintf("tool %q has no dry_run preview; call it without dry_run", t.name)))
	}
	if t.confirm() && !req.Confirm && !req.DryRun {
		return failure(PreconditionFailed(RequireConfirm, fmt.Sprintf("tool %q is destructive: call it again with confirm: true (preview first with dry_run: true)", t.name)))
	}
	// The host validated the arguments against the tool's input schema (and
	// filled in defaults) before calling: they are decoded, not checked again.
	args, tree, derr := decodeArguments(req.Arguments)
	if derr != nil {
		return failure(derr)
	}
	if cond, ok := t.destructiveCall(args); ok && !req.Confirm && !req.DryRun {
		return failure(PreconditionFailed(RequireConfirm, fmt.Sprintf("tool %q with %s destroys or overwrites: call it again with confirm: true (preview first with dry_run: true)", t.name, cond)))
	}
	host := newCallHostForCall(backend, req.ProgressToken, req.CallID, r.ts.Name, t.name)
	host.result = t.outType
	call := &Call{Tool: t.name, DryRun: req.DryRun, Confirm: req.Confirm, Host: host}
	defer func() {
		if p := recover(); p != nil {
			host.Logger().Error("tool panicked", "panic", fmt.Sprint(p), "stack", string(debug.Stack()))
			res = failure(Internal(fmt.Sprintf("tool %q of toolset %q panicked: %v; this is a bug in the toolset (the stack is in the server log)", t.name, r.ts.Name, p)))
		}
	}()
	out, err := t.invoke(ctx, call, args, tree)
	if err != nil {
		e := AsError(err)
		if e.Code == CodeInternalError {
			host.Logger().Warn("tool failed", "error", err)
		}
		return failure(e)
	}
	res.Structured = out
	res.Content = call.takeContent()
	return res
}

// ReadResource implements plugmodel.Toolset. It never panics nor fails with
// a Go error: every failure is an *Error in the result.
func (r *registry) ReadResource(ctx context.Context, req plugmodel.ResourceRequest) (plugmodel.ResourceResult, error) {
	return r.readResource(ctx, req, r.host()), nil
}

func (r *registry) readResource(ctx context.Context, req plugmodel.ResourceRequest, backend plugmodel.Host) (res plugmodel.ResourceResult) {
	var read func(context.Context, *ResourceRequest) ([]ResourceContents, error)
	label := req.URI
	if req.Template != "" {
		for _, t := range r.ts.ResourceTemplates {
			if t.URITemplate == req.Template {
				read, label = t.Read, t.URITemplate
			}
		}
	} else {
		for _, rs := range r.ts.Resources {
			if rs.URI == req.URI {
				read = rs.Read
			}
		}
	}
	if read == nil {
		return plugmodel.ResourceResult{Err: NotFound(fmt.Sprintf("toolset %q has no resource %q; list them with resources/list and resources/templates/list", r.ts.Name, req.URI))}
	}
	host := newCallHostForCall(backend, "", req.CallID, r.ts.Name, "resource "+label)
	defer func() {
		if p := recover(); p != nil {
			host.Logger().Error("resource read panicked", "panic", fmt.Sprint(p), "stack", string(debug.Stack()))
			res = plugmodel.ResourceResult{Err: Internal(fmt.Sprintf("reading %s panicked in toolset %q: %v; this is a bug in the toolset (the stack is in the server log)", req.URI, r.ts.Name, p))}
		}
	}()
	contents, err := read(ctx, &ResourceRequest{URI: req.URI, Params: req.Params, Host: host})
	if err != nil {
		return plugmodel.ResourceResult{Err: AsError(err)}
	}
	if len(contents) == 0 {
		return plugmodel.ResourceResult{Err: Internal(fmt.Sprintf("reading %s returned no contents; this is a bug in toolset %q", req.URI, r.ts.Name))}
	}
	for _, c := range contents {
		hc := plugmodel.ResourceContents{URI: c.URI, MimeType: c.MIMEType, Text: c.Text, Blob: c.Blob, Binary: c.Blob != nil}
		if hc.URI == "" {
			hc.URI = req.URI
		}
		res.Contents = append(res.Contents, hc)
	}
	return res
}

// GetPrompt implements plugmodel.Toolset. It never panics nor fails with a
// Go error: every failure is an *Error in the result.
func (r *registry) GetPrompt(ctx context.Context, req plugmodel.PromptRequest) (plugmodel.PromptResult, error) {
	return r.getPrompt(ctx, req.Name, req.CallID, req.Arguments, r.host()), nil
}

func (r *registry) getPrompt(ctx context.Context, name, callID string, args map[string]string, backend plugmodel.Host) (res plugmodel.PromptResult) {
	var prompt *Prompt
	for i := range r.ts.Prompts {
		if r.ts.Prompts[i].Name == name {
			prompt = &r.ts.Prompts[i]
		}
	}
	if prompt == nil {
		return plugmodel.PromptResult{Err: NotFound(fmt.Sprintf("toolset %q has no prompt %q; list them with prompts/list", r.ts.Name, name))}
	}
	for _, a := range prompt.Arguments {
		if _, ok := args[a.Name]; a.Required && !ok {
			return plugmodel.PromptResult{Err: Validation(fmt.Sprintf("prompt %q needs the argument %q", name, a.Name))}
		}
	}
	host := newCallHostForCall(backend, "", callID, r.ts.Name, "prompt "+name)
	defer func() {
		if p := recover(); p != nil {
			host.Logger().Error("prompt panicked", "panic", fmt.Sprint(p), "stack", string(debug.Stack()))
			res = plugmodel.PromptResult{Err: Internal(fmt.Sprintf("prompt %q of toolset %q panicked: %v; this is a bug in the toolset (the stack is in the server log)", name, r.ts.Name, p))}
		}
	}()
	out, err := prompt.Get(ctx, &PromptRequest{Name: name, Arguments: args, Host: host})
	if err != nil {
		return plugmodel.PromptResult{Err: AsError(err)}
	}
	if out == nil || len(out.Messages) == 0 {
		return plugmodel.PromptResult{Err: Internal(fmt.Sprintf("prompt %q returned no messages; this is a bug in toolset %q", name, r.ts.Name))}
	}
	res.Description = out.Description
	for _, m := range out.Messages {
		if m.Role != RoleUser && m.Role != RoleAssistant {
			return plugmodel.PromptResult{Err: Internal(fmt.Sprintf("prompt %q returned a message with role %q (want user or assistant); this is a bug in toolset %q", name, m.Role, r.ts.Name))}
		}
		if m.Content.c.Type == "" {
			return plugmodel.PromptResult{Err: Internal(fmt.Sprintf("prompt %q returned a message without content; this is a bug in toolset %q", name, r.ts.Name))}
		}
		res.Messages = append(res.Messages, plugmodel.PromptMessage{Role: m.Role, Content: m.Content.c})
	}
	return res
}

func failure(e *Error) plugmodel.CallResult { return plugmodel.CallResult{Err: e} }

// liftFlags moves dry_run and confirm found in the arguments into the
// request's flags, as the host does before it calls a toolset (so a test
// that passes them as arguments sees what an agent would).
func liftFlags(req plugmodel.CallRequest) plugmodel.CallRequest {
	if !bytes.Contains(req.Arguments, []byte(`"`+contract.ArgDryRun+`"`)) && !bytes.Contains(req.Arguments, []byte(`"`+contract.ArgConfirm+`"`)) {
		return req
	}
	var m map[string]json.RawMessage
	if json.Unmarshal(req.Arguments, &m) != nil {
		return req
	}
	for name, flag := range map[string]*bool{contract.ArgDryRun: &req.DryRun, contract.ArgConfirm: &req.Confirm} {
		raw, ok := m[name]
		if !ok {
			continue
		}
		var b bool
		if json.Unmarshal(raw, &b) != nil {
			return req // not a boolean: validation names it
		}
		*flag = *flag || b
		delete(m, name)
	}
	if args, err := json.Marshal(m); err == nil {
		req.Arguments = args
	}
	return req
}

// decodeArguments reads a call's arguments (empty or null is {}) once; the
// tree spares the tool's input a second read of megabyte arguments.
func decodeArguments(raw json.RawMessage) (json.RawMessage, any, *Error) {
	raw = bytes.TrimSpace(raw)
	if len(raw) == 0 || bytes.Equal(raw, []byte("null")) {
		raw = json.RawMessage("{}")
	}
	tree, err := rawjson.Decode(raw, true)
	if err != nil {
		return nil, nil, Validation(fmt.Sprintf("arguments are not valid JSON: %v", err))
	}
	if _, ok := tree.(map[string]any); !ok {
		return nil, nil, Validation("arguments must be a JSON object")
	}
	return raw, tree, nil
}
