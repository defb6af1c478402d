package sdk

import (
	"context"
	"fmt"
	"runtime/debug"
	"sort"
	"strings"

	"github.com/godot-mcp/godot-mcp/sdk/internal/sdkhook"
)

func init() {
	sdkhook.NewDispatcher = func(ts any) (sdkhook.Dispatcher, error) {
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
}

// registry is a validated Toolset and its dispatcher.
type registry struct {
	ts    Toolset
	tools map[string]*toolDef
	names []string
}

// newRegistry checks a Toolset once, before it serves.
func newRegistry(ts Toolset) (*registry, error) {
	if !nameRE.MatchString(ts.Name) {
		return nil, fmt.Errorf("toolset name %q must be lower case letters, digits and '_', starting with a letter", ts.Name)
	}
	if ts.MinGodot != "" && !validGodotVersion(ts.MinGodot) {
		return nil, fmt.Errorf("toolset %q: MinGodot %q is not a version like \"4.3\" or \"4.2.1\"", ts.Name, ts.MinGodot)
	}
	if len(ts.Tools) == 0 {
		return nil, fmt.Errorf("toolset %q has no tools", ts.Name)
	}
	r := &registry{ts: ts, tools: map[string]*toolDef{}}
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

// Describe implements sdkhook.Dispatcher.
func (r *registry) Describe() sdkhook.Description {
	d := sdkhook.Description{Name: r.ts.Name, Version: r.ts.Version, Description: r.ts.Description, MinGodot: r.ts.MinGodot}
	for _, name := range r.names {
		t := r.tools[name]
		d.Tools = append(d.Tools, sdkhook.ToolInfo{
			Name: t.name, Title: t.opts.Title, Description: t.opts.Description,
			InputSchema: t.inSchemaJSON, OutputSchema: t.outSchemaJSON,
			Safety: string(t.opts.Safety), DryRun: t.dryRun(), Confirm: t.confirm(),
			Preconditions: t.opts.Preconditions,
		})
	}
	return d
}

// Call implements sdkhook.Dispatcher. It never panics and never returns a
// bare Go error: every failure is an *Error in the Result.
func (r *registry) Call(ctx context.Context, req sdkhook.Request, backend sdkhook.Backend) (res sdkhook.Result) {
	t := r.tools[req.Tool]
	if t == nil {
		known := append([]string(nil), r.names...)
		sort.Strings(known)
		return failure(NotFound(fmt.Sprintf("toolset %q has no tool %q (tools: %s)", r.ts.Name, req.Tool, strings.Join(known, ", "))))
	}
	// The host enforces these too; refusing here as well means a toolset
	// never acts when a preview was asked for or confirmation is missing.
	if req.DryRun && !t.dryRun() {
		return failure(Validation(fmt.Sprintf("tool %q has no dry_run preview; call it without dry_run", t.name)))
	}
	if t.confirm() && !req.Confirm && !req.DryRun {
		return failure(PreconditionFailed(RequireConfirm, fmt.Sprintf("tool %q is destructive: call it again with confirm: true (preview first with dry_run: true)", t.name)))
	}
	args, verr := validateArguments(t.inSchema, req.Arguments)
	if verr != nil {
		return failure(verr)
	}
	host := newCallHost(backend, req.ProgressToken, r.ts.Name, t.name)
	call := &Call{Tool: t.name, DryRun: req.DryRun, Confirm: req.Confirm, Host: host}
	defer func() {
		if p := recover(); p != nil {
			host.logger.Error("tool panicked", "panic", fmt.Sprint(p), "stack", string(debug.Stack()))
			res = failure(Internal(fmt.Sprintf("tool %q of toolset %q panicked: %v; this is a bug in the toolset (the stack is in the server log)", t.name, r.ts.Name, p)))
		}
	}()
	out, err := t.invoke(ctx, call, args)
	if err != nil {
		e := AsError(err)
		if e.Code == CodeInternalError {
			host.logger.Warn("tool failed", "error", err)
		}
		return failure(e)
	}
	res.Structured = out
	for _, c := range call.takeContent() {
		res.Content = append(res.Content, sdkhook.Content{Type: c.typ, Text: c.text, Data: c.data, MimeType: c.mime})
	}
	return res
}

func failure(e *Error) sdkhook.Result { return sdkhook.Result{Err: e} }

// errorFromResult is the *Error of a Result, or nil.
func errorFromResult(r sdkhook.Result) *Error {
	if r.Err == nil {
		return nil
	}
	return AsError(r.Err)
}
