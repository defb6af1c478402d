// Package mcpserver wires the MCP surface (mcp-go): the core tools, the
// tools proxied to toolset plugins, the safety pipeline every call goes
// through, result shaping, and the stdio and streamable HTTP transports.
package mcpserver

import (
	"bytes"
	"context"
	"crypto/rand"
	"encoding/json"
	"fmt"
	"log/slog"
	"slices"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"
	"unicode/utf8"

	"github.com/mark3labs/mcp-go/mcp"
	"github.com/mark3labs/mcp-go/server"

	"github.com/godot-mcp/godot-mcp/host/bridge"
	"github.com/godot-mcp/godot-mcp/host/buildinfo"
	"github.com/godot-mcp/godot-mcp/host/config"
	"github.com/godot-mcp/godot-mcp/host/envelope"
	"github.com/godot-mcp/godot-mcp/host/safety"
	"github.com/godot-mcp/godot-mcp/internal/rawjson"
	"github.com/godot-mcp/godot-mcp/internal/schema"
	"github.com/godot-mcp/godot-mcp/sdk/contract"
)

// Bridge is what the MCP server needs of the editor bridge.
type Bridge interface {
	Send(ctx context.Context, command string, params any, timeout time.Duration) envelope.Response
	Status() bridge.Status
	PushToolsets(enabled []string)
}

// Approver decides whether a confirmed destructive call may run. A nil
// *contract.Error means approved.
type Approver func(ctx context.Context, tool string, args json.RawMessage) *contract.Error

// Options configure a Server.
type Options struct {
	Config   config.Config
	Bridge   Bridge
	Toolsets Toolsets // nil: no toolsets known
	Approver Approver // nil: approve (GODOT_MCP_APPROVAL=auto)
	Logger   *slog.Logger
	// SkippedPlugins are the plugin-directory files not served as toolsets
	// (godot_get_server_info reports them).
	SkippedPlugins []SkippedPlugin
	// Builtins are the built-in toolsets' declarations, known without
	// starting their plugins: the server's instructions list them.
	Builtins []ToolsetSummary
}

// Server is the godot-mcp MCP server.
type Server struct {
	cfg      config.Config
	bridge   Bridge
	toolsets Toolsets
	approve  Approver
	// approvals are the elicited questions awaiting an answer.
	approvals approvalLedger
	log       *slog.Logger
	mcp       *server.MCPServer
	skipped   []SkippedPlugin
	builtins  []ToolsetSummary
	// addMu serializes AddTools, which registers with mcp-go before it
	// publishes in tools (see AddTools).
	addMu sync.Mutex
	// compiled caches compileInput by input schema: a toolset enabled
	// again (or after "all" was disabled) compiles nothing twice.
	compiled sync.Map // string(input schema) -> *schema.Schema

	// starting, when set, closes once the toolsets enabled at start are
	// (see HoldUntil).
	starting atomic.Pointer[hold]
	// clientProfileOnce enables the first known client's profile (profiles.go).
	clientProfileOnce sync.Once

	mu    sync.RWMutex
	tools map[string]*registered

	toolsetLocks sync.Map // toolset name → *sync.Mutex (lockToolset)

	errors errorFeed // the sessions' cursors in the editor's error feed (errorfeed.go)

	contentMu sync.Mutex // guards content (toolsets' resources and prompts)
	content   contentRegistry

	progMu   sync.Mutex
	progress map[string]progressTarget

	fastServed   atomic.Uint64 // tools/call requests ServeStdio served itself (tests read it)
	spliceOnce   sync.Once
	splicePrefix string
	spliceSeq    atomic.Uint64
}

type progressTarget struct {
	ctx   context.Context
	token mcp.ProgressToken
	// last is the place of the call's last notification in its stream's
	// deliveryLedger (0: none sent through one).
	last *atomic.Int64
}

// New builds the server and registers the core tools.
func New(opts Options) *Server {
	log := opts.Logger
	if log == nil {
		log = slog.New(slog.DiscardHandler)
	}
	if opts.Approver == nil && opts.Config.Approval == "webhook" {
		opts.Approver = WebhookApprover(opts.Config.ApprovalURL, opts.Config.ApprovalTimeout)
	}
	s := &Server{
		cfg:      opts.Config,
		bridge:   opts.Bridge,
		toolsets: opts.Toolsets,
		approve:  opts.Approver,
		log:      log,
		tools:    map[string]*registered{},
		content:  newContentRegistry(),
		progress: map[string]progressTarget{},
		skipped:  opts.SkippedPlugins,
		builtins: opts.Builtins,
	}
	hooks := &server.Hooks{}
	hooks.AddBeforeCallTool(s.redirectDisabledTool)
	hooks.AddBeforeAny(s.awaitStart)
	hooks.AddAfterInitialize(s.startClientProfile)
	hooks.AddAfterInitialize(s.setInstructions)
	hooks.AddAfterDiscover(s.setDiscoverInstructions)
	s.mcp = server.NewMCPServer("godot-mcp", buildinfo.Version,
		server.WithHooks(hooks),
		server.WithToolFilter(hideUnavailableTool),
		server.WithToolCapabilities(true),
		// The core serves guides, the editor state, the class reference and
		// workflow prompts (guidance.go); toolsets may add their own
		// (content.go), so both lists change as toolsets are enabled. No
		// resources/subscribe: nothing announces that a resource changed.
		server.WithResourceCapabilities(false, true),
		server.WithPromptCapabilities(true),
		// Toolsets' log records of a call reach the calling client (LogCall).
		server.WithLogging(),
		server.WithRecovery(),
		// Rewritten for each initialize and discover (setInstructions),
		// with the third-party toolsets known by then.
		server.WithInstructions(buildInstructions(opts.Builtins, "")),
	)
	if err := s.AddTools(coreTools(s)...); err != nil {
		panic(err) // a core tool with a broken schema is a programming error caught by every test
	}
	s.mcp.AddTool(mcp.Tool{Name: unavailableTool, InputSchema: mcp.ToolInputSchema{Type: "object"}}, s.answerDisabledTool)
	if err := s.AddResources(s.coreResources()...); err != nil {
		panic(err)
	}
	if err := s.AddPrompts(corePrompts()...); err != nil {
		panic(err)
	}
	return s
}

// ToolOwners is implemented by Toolsets that can name the toolset of a tool
// that is not served (its toolset is not enabled).
type ToolOwners interface {
	ToolOwner(ctx context.Context, tool string) (toolset string, ok bool)
}

// unavailableTool is the hidden tool that answers calls of a tool whose
// toolset is not enabled. mcp-go answers an unknown name with a JSON-RPC
// "tool not found" before any handler runs; the before-call hook (which
// every transport goes through) renames such a call to this tool, which
// tells the agent which toolset to enable. A name no tool can have (tool
// names are godot_*); never listed.
const unavailableTool = "godot-mcp/toolset-not-enabled"

// hideUnavailableTool keeps unavailableTool out of tools/list. mcp-go also
// filters the one tool a call resolves to; that check must let it through.
func hideUnavailableTool(_ context.Context, tools []mcp.Tool) []mcp.Tool {
	if len(tools) == 1 {
		return tools // a call's check (tools/list always holds the core tools too)
	}
	out := tools[:0:0]
	for _, t := range tools {
		if t.Name != unavailableTool {
			out = append(out, t)
		}
	}
	return out
}

// redirectDisabledTool sends a call of a tool that is not served, but that
// a known toolset would serve once enabled, to unavailableTool.
func (s *Server) redirectDisabledTool(ctx context.Context, _ any, req *mcp.CallToolRequest) {
	name := req.Params.Name
	if name == unavailableTool {
		req.Params.Name = "" // only reachable by redirection
		return
	}
	s.mu.RLock()
	_, served := s.tools[name]
	s.mu.RUnlock()
	if served {
		return
	}
	toolset, ok := s.builtinOwner(name)
	if !ok {
		owners, isOwners := s.toolsets.(ToolOwners)
		if !isOwners {
			return
		}
		if toolset, ok = owners.ToolOwner(ctx, name); !ok {
			return
		}
	}
	req.Params.Name = unavailableTool
	req.Params.Arguments = map[string]any{"tool": name, "toolset": toolset}
}

// builtinOwner names the built-in toolset that serves tool, from the
// declarations known without starting a plugin (Options.Builtins).
func (s *Server) builtinOwner(tool string) (string, bool) {
	for _, b := range s.builtins {
		if slices.Contains(b.Tools, tool) {
			return b.Name, true
		}
	}
	return "", false
}

func (s *Server) answerDisabledTool(ctx context.Context, req mcp.CallToolRequest) (*mcp.CallToolResult, error) {
	args := req.GetArguments()
	tool, _ := args["tool"].(string)
	toolset, _ := args["toolset"].(string)
	out := shape(Fail(contract.Precondition(contract.RequireToolsetEnabled, fmt.Sprintf(
		"%s belongs to the toolset %q, which is not enabled. Call godot_enable_toolset with {\"names\":[%q]} (or {\"name\":\"all\"}), then call %s again.",
		tool, toolset, toolset, tool))))
	s.attachErrors(ctx, out)
	return out, nil
}

// startWait bounds how long a request waits for the toolsets enabled at
// start; a toolset that comes up later is announced with
// notifications/tools/list_changed as usual. It stays under Codex's
// default startup timeout (10 s for the handshake and the first
// tools/list), past which Codex drops the server, and Codex never reads a
// later list.
const startWait = 8 * time.Second

// HoldUntil makes the requests whose answer depends on the toolsets enabled
// at start (GODOT_MCP_DEFAULT_TOOLSETS) wait until ready closes: the lists
// of tools, resources and prompts, reading a resource or a prompt, and
// calls to a tool not (yet) served. The MCP handshake, ping and the core
// tools never wait, so enabling toolsets at start does not delay them.
func (s *Server) HoldUntil(ready <-chan struct{}) { s.holdUntil(ready, startWait) }

// hold is what requests wait for: ready closes, or wait passes.
type hold struct {
	ready <-chan struct{}
	wait  time.Duration
}

func (s *Server) holdUntil(ready <-chan struct{}, wait time.Duration) {
	s.starting.Store(&hold{ready: ready, wait: wait})
}

// awaitStart is a before-any hook: see HoldUntil.
func (s *Server) awaitStart(ctx context.Context, _ any, method mcp.MCPMethod, message any) {
	h := s.starting.Load()
	if h == nil {
		return
	}
	switch method {
	case mcp.MethodToolsList, mcp.MethodResourcesList, mcp.MethodResourcesTemplatesList, mcp.MethodResourcesRead,
		mcp.MethodPromptsList, mcp.MethodPromptsGet:
	case mcp.MethodToolsCall:
		if req, ok := message.(*mcp.CallToolRequest); ok {
			s.mu.RLock()
			_, served := s.tools[req.Params.Name]
			s.mu.RUnlock()
			if served {
				return
			}
		}
	default:
		return
	}
	timer := time.NewTimer(h.wait)
	defer timer.Stop()
	select {
	case <-h.ready:
		s.starting.CompareAndSwap(h, nil)
	case <-ctx.Done():
	case <-timer.C:
	}
}

// MCP exposes the underlying mcp-go server (for transports and tests).
func (s *Server) MCP() *server.MCPServer { return s.mcp }

// Tool pairs a definition with its executor.
type Tool struct {
	Def  ToolDef
	Exec Executor
}

// NameTakenError is AddTools' refusal of a tool name that another toolset
// (or the core) already serves: names are never taken over.
type NameTakenError struct {
	Tool, Toolset, Owner string
}

func (e *NameTakenError) Error() string {
	owner := "toolset " + strconv.Quote(e.Owner)
	if e.Owner == CoreToolset {
		owner = "the core"
	}
	return fmt.Sprintf("tool %s of toolset %q is already served by %s", e.Tool, e.Toolset, owner)
}

// AddTools registers tools (replacing same-named ones of the same toolset)
// and notifies clients with notifications/tools/list_changed. A name that
// another toolset or the core serves is refused with *NameTakenError, and
// nothing is added.
func (s *Server) AddTools(tools ...Tool) error {
	staged := make([]*registered, 0, len(tools))
	served := make([]server.ServerTool, 0, len(tools))
	seen := make(map[string]bool, len(tools))
	for _, t := range tools {
		def := t.Def
		if seen[def.Name] {
			return fmt.Errorf("tool %s is declared twice", def.Name)
		}
		seen[def.Name] = true
		if !def.Class.Valid() {
			return fmt.Errorf("tool %s: unknown safety class %q", def.Name, def.Class)
		}
		decl, err := safetyTool(def)
		if err != nil {
			return fmt.Errorf("tool %s: %w", def.Name, err)
		}
		for _, p := range def.Preconditions {
			if !slices.Contains(contract.Preconditions, p) {
				return fmt.Errorf("tool %s: unknown precondition %q (known: %s)", def.Name, p, strings.Join(contract.Preconditions, ", "))
			}
		}
		input, err := safety.InjectFlagsFor(def.InputSchema, decl)
		if err != nil {
			return fmt.Errorf("tool %s: %w", def.Name, err)
		}
		def.InputSchema = input
		resolved, err := s.compileCached(input)
		if err != nil {
			return fmt.Errorf("tool %s: %w", def.Name, err)
		}
		reg := &registered{def: def, decl: decl, input: resolved, exec: t.Exec}
		staged = append(staged, reg)
		served = append(served, server.ServerTool{Tool: mcpTool(def, s.cfg.OutputSchemaSummary), Handler: s.handler(reg)})
	}
	s.addMu.Lock()
	defer s.addMu.Unlock()
	s.mu.RLock()
	for _, r := range staged {
		if old, taken := s.tools[r.def.Name]; taken && old.def.Toolset != r.def.Toolset {
			s.mu.RUnlock()
			return &NameTakenError{Tool: r.def.Name, Toolset: r.def.Toolset, Owner: old.def.Toolset}
		}
	}
	s.mu.RUnlock()
	// mcp-go first: the start hold (awaitStart) lets a call through as soon
	// as its tool is in s.tools, and mcp-go must find it then; published the
	// other way round, a call in between was answered "tool not found"
	// (TestBinaryApprovalScope, once enabling stopped starting a process).
	s.mcp.AddTools(served...)
	s.mu.Lock()
	for _, r := range staged {
		s.tools[r.def.Name] = r
	}
	s.mu.Unlock()
	return nil
}

// compileCached is compileInput, once per distinct schema.
func (s *Server) compileCached(input json.RawMessage) (*schema.Schema, error) {
	if c, ok := s.compiled.Load(string(input)); ok {
		return c.(*schema.Schema), nil
	}
	c, err := compileInput(input)
	if err == nil {
		s.compiled.Store(string(input), c)
	}
	return c, err
}

// toolsOf keeps the names that toolset serves (disabling one toolset never
// removes another's tool, nor a core tool).
func (s *Server) toolsOf(toolset string, names []string) []string {
	s.mu.RLock()
	defer s.mu.RUnlock()
	var out []string
	for _, n := range names {
		if r, ok := s.tools[n]; ok && r.def.Toolset == toolset {
			out = append(out, n)
		}
	}
	return out
}

// RemoveTools unregisters tools by name and notifies clients.
func (s *Server) RemoveTools(names ...string) {
	if len(names) == 0 {
		return
	}
	s.mu.Lock()
	for _, n := range names {
		delete(s.tools, n)
	}
	s.mu.Unlock()
	s.mcp.DeleteTools(names...)
}

// Surface lists every registered tool, sorted by name.
func (s *Server) Surface() []ToolDef {
	s.mu.RLock()
	defer s.mu.RUnlock()
	return sortedDefs(s.tools)
}

func boolPtr(b bool) *bool { return &b }

func mcpTool(def ToolDef, outputSummary bool) mcp.Tool {
	a := def.Class.Annotations()
	if len(def.DestructiveWhen) > 0 {
		a.Destructive = true // some calls destroy or overwrite
	}
	t := mcp.Tool{
		Name:           def.Name,
		Title:          def.Title,
		Description:    def.Description,
		RawInputSchema: def.InputSchema,
		// The title is the tool's own (above): annotations.title would
		// repeat it. readOnlyHint and openWorldHint are always explicit;
		// destructiveHint and idempotentHint mean something only for a tool
		// that is not read-only (MCP), so only such tools carry them,
		// destructiveHint always (a client that took a missing one for
		// false would under-warn) and idempotentHint when true (false is
		// the default).
		Annotations: mcp.ToolAnnotation{
			ReadOnlyHint:  boolPtr(a.ReadOnly),
			OpenWorldHint: boolPtr(a.OpenWorld),
		},
	}
	if outputSummary {
		t.RawOutputSchema = wireOutputSchema(def.OutputSchema)
	}
	if !a.ReadOnly {
		t.Annotations.DestructiveHint = boolPtr(a.Destructive)
		if a.Idempotent {
			t.Annotations.IdempotentHint = boolPtr(true)
		}
	}
	return t
}

// handler is the one pipeline every tool call goes through: validate,
// safety class, preconditions, approval, execute, shape. mcp-go calls it for
// every transport; on stdio the raw arguments and the raw structured result
// travel beside mcp-go (stdio.go).
func (s *Server) handler(reg *registered) server.ToolHandlerFunc {
	return func(ctx context.Context, req mcp.CallToolRequest) (*mcp.CallToolResult, error) {
		stdio := stdioCallFrom(ctx)
		rawArgs := []byte("{}")
		switch {
		case stdio != nil && stdio.args != nil:
			rawArgs = stdio.args // as read by ServeStdio; mcp-go saw {}
		case req.Params.Arguments != nil:
			var err error
			if rawArgs, err = json.Marshal(req.Params.Arguments); err != nil {
				return shape(Fail(contract.Errorf(contract.ValidationError, "Arguments of %s could not be read: %v", reg.def.Name, err))), nil
			}
		}
		start := time.Now()
		res, pending := s.run(ctx, reg, rawArgs, req)
		if pending != nil {
			s.log.Debug("tool waits for approval", "tool", reg.def.Name)
			return pending, nil // waiting for the user's approval (elicitation)
		}
		if res.Err != nil {
			s.log.Debug("tool failed", "tool", reg.def.Name, "code", res.Err.Code, "took", time.Since(start))
		} else {
			s.log.Debug("tool ok", "tool", reg.def.Name, "took", time.Since(start))
		}
		out := shape(res)
		s.attachErrors(ctx, out)
		if stdio != nil {
			stdio.deferStructured(out)
		}
		return out, nil
	}
}

// run applies every host-side gate, then the executor. A non-nil
// *mcp.CallToolResult is an input-required answer (approval pending).
func (s *Server) run(ctx context.Context, reg *registered, rawArgs json.RawMessage, req mcp.CallToolRequest) (Result, *mcp.CallToolResult) {
	def := reg.def
	rawArgs, args, verr := validateArgs(def.Name, reg.input, rawArgs)
	if verr != nil {
		return Fail(verr), nil
	}
	flags, verr := safety.ReadFlags(args)
	if verr != nil {
		return Fail(verr), nil
	}
	if verr := safety.CheckCall(reg.decl, args, flags); verr != nil {
		return Fail(verr), nil
	}
	if verr := s.checkPreconditions(def); verr != nil {
		return Fail(verr), nil
	}
	if flags.DryRun && !def.Preview {
		return OK(map[string]any{
			"dry_run":   true,
			"tool":      def.Name,
			"arguments": json.RawMessage(rawArgs),
			"note":      "This tool has no preview of its own: nothing was changed. Call it without dry_run to apply.",
		}), nil
	}
	// Approval: every call that destroys or overwrites, and what the
	// operator's GODOT_MCP_APPROVAL_SCOPE adds (writes, code).
	if reason := safety.ApprovalReason(reg.decl, args, flags, s.cfg.ApprovalScope); reason != "" {
		s.log.Debug("tool call needs approval", "tool", def.Name, "reason", reason)
		ctx := withApprovalReason(ctx, reason)
		if s.cfg.Approval == "elicit" {
			pending, aerr := s.elicitApproval(ctx, req, def.Name, rawArgs)
			if aerr != nil {
				return Fail(aerr), nil
			}
			if pending != nil {
				return Result{}, pending
			}
		}
		if s.approve != nil {
			if aerr := s.approve(ctx, def.Name, rawArgs); aerr != nil {
				return Fail(aerr), nil
			}
		}
	}
	// dry_run and confirm belong to the host: they travel as Call flags, and
	// the tool receives only its own arguments.
	toolArgs := rawArgs
	if _, hasDry := args[contract.ArgDryRun]; hasDry || args[contract.ArgConfirm] != nil {
		for _, name := range contract.ReservedArgs {
			delete(args, name)
		}
		var err error
		if toolArgs, err = json.Marshal(args); err != nil {
			return Fail(contract.Errorf(contract.InternalError, "could not re-encode the arguments of %s: %v", def.Name, err)), nil
		}
	}
	call := Call{Tool: def.Name, Arguments: toolArgs, DryRun: flags.DryRun, Confirm: flags.Confirm}
	var progressToken mcp.ProgressToken
	if req.Params.Meta != nil {
		progressToken = req.Params.Meta.ProgressToken
	}
	call.CallID = s.trackProgress(ctx, progressToken)
	defer s.finishCall(ctx, call.CallID)
	if progressToken != nil {
		call.ProgressToken = call.CallID
	}
	return reg.exec(ctx, call), nil
}

// checkPreconditions checks the preconditions the host can check without
// asking anyone: bridge_connected and project_dir. godot_binary is the
// tool's own to check, when it starts Godot (after checking its arguments
// and its project), so that it reports those first; the host only lists
// such tools as unavailable (unavailable.go). The editor-side ones
// (active_scene, runtime_probe, game_not_breaked, godot_version) cost no
// round trip of their own: the editor command the tool sends checks them as
// part of its work and answers PRECONDITION_FAILED with required; confirm
// is the class rule (safety.CheckCall).
func (s *Server) checkPreconditions(def ToolDef) *contract.Error {
	for _, p := range def.Preconditions {
		switch p {
		case contract.RequireBridgeConnected:
			if st := s.bridge.Status(); !st.Connected {
				// Same answer the bridge gives for a send without a peer.
				return &contract.Error{Code: contract.BridgeDisconnected, Required: contract.RequireBridgeConnected, Hint: bridgeHint(st)}
			}
		case contract.RequireProjectDir:
			if s.projectDir() == "" {
				return contract.Precondition(contract.RequireProjectDir, "No Godot project is known: connect an editor, or set GODOT_MCP_PROJECT_DIR.")
			}
		}
	}
	return nil
}

func bridgeHint(st bridge.Status) string {
	return fmt.Sprintf("No Godot editor is connected to the bridge at %s. Open the project in Godot 4 with the godot_mcp addon enabled "+
		"(install it with `godot-mcp addon install --project DIR --enable`); it connects by itself.", st.URL)
}

func (s *Server) projectDir() string {
	if s.cfg.ProjectDir != "" {
		return s.cfg.ProjectDir
	}
	if st := s.bridge.Status(); st.Peer != nil {
		return st.Peer.ProjectDir
	}
	return ""
}

// shape turns a Result into an MCP tool result: structuredContent plus a
// text fallback, or an isError result whose only content is the error
// object {error, hint, required?} as JSON text (ErrorText). A failure
// carries no structuredContent: it would not match the tool's outputSchema,
// and clients that check it (the TypeScript SDK v1, so Claude Code and the
// Inspector) would throw the answer away.
func shape(r Result) *mcp.CallToolResult {
	if r.Err != nil {
		return &mcp.CallToolResult{
			Content: []mcp.Content{mcp.NewTextContent(ErrorText(r.Err))},
			IsError: true,
		}
	}
	structured := r.Structured
	if len(structured) == 0 {
		structured = json.RawMessage("{}")
	}
	structured, err := cleanStructured(structured)
	if err != nil {
		return shape(Fail(err))
	}
	out := &mcp.CallToolResult{
		Content:           []mcp.Content{mcp.NewTextContent(textFallback(structured))},
		StructuredContent: structured,
	}
	for _, c := range r.Content {
		out.Content = append(out.Content, mcpContent(c))
	}
	return out
}

// ErrorText is the text content of a failed call: the error object
// {"error": CODE, "hint": ..., "required": ...} as one line of JSON.
func ErrorText(e *contract.Error) string {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(e); err != nil {
		return `{"error":"INTERNAL_ERROR","hint":"the error could not be encoded"}`
	}
	return strings.TrimSuffix(b.String(), "\n")
}

// maxTextFallback is the largest result repeated as text next to
// structuredContent; larger ones would double what every client must parse.
const maxTextFallback = 1 << 20

// textFallback is the text form of a structured result: the JSON itself, or
// for results over maxTextFallback a note saying where the result is.
func textFallback(structured json.RawMessage) string {
	if len(structured) <= maxTextFallback {
		return string(structured)
	}
	return fmt.Sprintf("The result is %d bytes of JSON; it is in structuredContent and not repeated here.", len(structured))
}

// cleanStructured makes sure a result is a JSON object of valid UTF-8
// (invalid bytes become U+FFFD, as in the text fallback): MCP requires an
// object for structuredContent, and the editor or a plugin may send anything.
func cleanStructured(raw json.RawMessage) (json.RawMessage, *contract.Error) {
	trimmed := bytes.TrimSpace(raw)
	if len(trimmed) == 0 || trimmed[0] != '{' || !rawjson.Valid(trimmed) {
		return nil, contract.Errorf(contract.InternalError, "The editor or toolset answered with a result that is not a JSON object (%.40s). Reinstall the addon so it matches the server.", trimmed)
	}
	if utf8.Valid(trimmed) {
		return trimmed, nil
	}
	var v any
	if err := json.Unmarshal(trimmed, &v); err != nil {
		return nil, contract.Errorf(contract.InternalError, "The result could not be decoded: %v.", err)
	}
	clean, err := json.Marshal(v)
	if err != nil {
		return nil, contract.Errorf(contract.InternalError, "The result could not be re-encoded: %v.", err)
	}
	return clean, nil
}

// trackProgress maps a call (and its client progress token, nil when the
// client asked for none) to a host-scoped opaque id that toolsets report
// progress and log records against.
func (s *Server) trackProgress(ctx context.Context, tok mcp.ProgressToken) string {
	id := "p" + rand.Text() // unguessable: another call cannot aim at it (#24.8)
	s.progMu.Lock()
	s.progress[id] = progressTarget{ctx: ctx, token: tok, last: new(atomic.Int64)}
	s.progMu.Unlock()
	return id
}

func (s *Server) untrackProgress(id string) progressTarget {
	s.progMu.Lock()
	t := s.progress[id]
	delete(s.progress, id)
	s.progMu.Unlock()
	return t
}

// finishCall ends a call's tracking. When the call sent notifications
// through a deliveryLedger, its answer waits until the transport has
// written them (delivery.go).
func (s *Server) finishCall(ctx context.Context, id string) {
	t := s.untrackProgress(id)
	if t.last == nil || t.last.Load() == 0 {
		return
	}
	if l := ledgerFrom(ctx); l != nil && !l.waitWritten(ctx, t.last.Load()) {
		s.log.Debug("answering before the call's notifications were written", "waited", deliveryWait)
	}
}

// notify sends one of a call's notifications, counted in the ledger of the
// stream the call answers on when it has one.
func (s *Server) notify(t progressTarget, send func() error) error {
	l := ledgerFrom(t.ctx)
	if l == nil {
		return send()
	}
	n, err := l.send(send)
	if err == nil {
		t.last.Store(n)
	}
	return err
}

// Progress sends notifications/progress for a host-scoped token; unknown or
// finished tokens are ignored.
func (s *Server) Progress(token string, progress, total float64, message string) {
	s.progMu.Lock()
	t, ok := s.progress[token]
	s.progMu.Unlock()
	if !ok || t.token == nil {
		return
	}
	params := map[string]any{"progressToken": t.token, "progress": progress}
	if total > 0 {
		params["total"] = total
	}
	if message = strings.TrimSpace(message); message != "" {
		params["message"] = message
	}
	if err := s.notify(t, func() error {
		return s.mcp.SendNotificationToClient(t.ctx, "notifications/progress", params)
	}); err != nil {
		s.log.Debug("progress notification dropped", "err", err)
	}
}
