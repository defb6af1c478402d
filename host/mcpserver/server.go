// Package mcpserver wires the MCP surface (mcp-go): the core tools, the
// tools proxied to toolset plugins, the safety pipeline every call goes
// through, result shaping, and the stdio and streamable HTTP transports.
//
// Files by concern: server.go (the Server and its start), registry.go (the
// tools served), call.go (the call pipeline), progress.go,
// disabledtools.go (calls of tools not served), core.go, core_types.go and
// core_toolsets.go (the core tools), content.go (resources and prompts),
// stdio*.go, http*.go and delivery.go (the transports).
package mcpserver

import (
	"context"
	"encoding/json"
	"log/slog"
	"sync"
	"sync/atomic"
	"time"

	"github.com/mark3labs/mcp-go/mcp"
	"github.com/mark3labs/mcp-go/server"

	"github.com/godot-mcp/godot-mcp/host/bridge"
	"github.com/godot-mcp/godot-mcp/host/buildinfo"
	"github.com/godot-mcp/godot-mcp/host/config"
	"github.com/godot-mcp/godot-mcp/host/envelope"
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
	if err := s.AddTools(s.mustCoreTools()...); err != nil {
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
