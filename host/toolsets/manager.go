// Package toolsets is the registry and gate of toolset plugins: which
// toolsets exist (built-in or third-party), which are enabled (one
// server-global set), their running plugins, and crash recovery. It alone
// decides a plugin's life and what the agent is told when one fails;
// host/pluginhost runs the plugin and reports what happened.
//
// Files: manager.go (the Manager, its options, stopping plugins),
// listing.go (descriptions, the listing, served names), enable.go (enable,
// disable, the editor's version), calls.go (tool calls, restarts, hangs),
// content.go (resources and prompts), lifecycle.go (lazy starts, idle
// stops, trust), failure.go (the failure wording).
package toolsets

import (
	"cmp"
	"context"
	"log/slog"
	"os"
	"sync"
	"sync/atomic"
	"time"

	"github.com/godot-mcp/godot-mcp/host/mcpserver"
	"github.com/godot-mcp/godot-mcp/host/pluginhost"
	"github.com/godot-mcp/godot-mcp/internal/plugmodel"
	"github.com/godot-mcp/godot-mcp/sdk/contract"
)

// Plugin is a running toolset, as the manager programs against it: the
// plugin model's operations (describe, call, read a resource, get a
// prompt; see plugmodel.Toolset), plus its life. *pluginhost.Plugin
// implements it for a plugin process and for a toolset in this process
// alike. An operation's result is the toolset's answer; its error, when
// it got none, says what happened (a *pluginhost.Failure), and the
// manager words it for the agent (failure.go).
type Plugin interface {
	Info() plugmodel.ToolsetInfo
	Call(ctx context.Context, req plugmodel.CallRequest) (plugmodel.CallResult, error)
	ReadResource(ctx context.Context, req plugmodel.ResourceRequest) (plugmodel.ResourceResult, error)
	GetPrompt(ctx context.Context, req plugmodel.PromptRequest) (plugmodel.PromptResult, error)
	Exited() bool
	Stop(ctx context.Context) error
}

var _ Plugin = (*pluginhost.Plugin)(nil)

// Launcher starts a plugin.
type Launcher func(ctx context.Context, spec pluginhost.Spec) (Plugin, error)

// Toolset states reported by godot_list_toolsets.
const (
	StateStopped      = "stopped"      // not enabled
	StateDescribing   = "describing"   // not enabled; its plugin is being started to read its description
	StateStarting     = "starting"     // being enabled
	StateRunning      = "running"      // enabled, plugin up
	StateIdle         = "idle"         // enabled, no process: it starts on the next call (Options.Lazy, Options.IdleStop)
	StateCrashed      = "crashed"      // enabled, plugin died or hung; restarts on the next call (after a backoff)
	StateFailed       = "failed"       // could not be started or described (last_error); retried when its executable changes or it is enabled by name
	StateIncompatible = "incompatible" // needs a newer Godot than the connected editor (last_error)
)

// Restart backoff after a crash.
const (
	minBackoff = 500 * time.Millisecond
	maxBackoff = 10 * time.Second
)

// Default time limits (see Options).
const (
	DefaultDescribeTimeout = 5 * time.Second
	DefaultStartTimeout    = 10 * time.Second
	DefaultListWait        = 2 * time.Second
)

// Options configure a Manager.
type Options struct {
	Specs  []pluginhost.Spec // built-ins first, then discovered third-party toolsets
	Launch Launcher
	Logger *slog.Logger
	// CallTimeout bounds one tool call inside a plugin (default 2 min).
	CallTimeout time.Duration
	// DescribeTimeout bounds starting a plugin to read its description,
	// which godot_list_toolsets does in the background (default
	// DefaultDescribeTimeout). StartTimeout bounds starting it to enable it
	// or to restart it after a crash (default DefaultStartTimeout).
	DescribeTimeout, StartTimeout time.Duration
	// ListWait is how long List waits for descriptions still being read
	// before it answers with what it has (default DefaultListWait).
	ListWait time.Duration
	// Unqualified is test-only (GODOT_MCP_CONFORMANCE_FIXTURE): the toolset
	// of this name serves its tools and prompts under their own names, not
	// godot_<toolset>_<name>, so that the MCP conformance suite can call its
	// fixtures by the names it expects. Names that start with "godot_" stay
	// qualified, so it can never shadow a core tool. Empty: off.
	Unqualified string
	// EditorCode installs and loads the editor code of toolsets that ship
	// it (host/projectfiles); nil: such toolsets run without (tests).
	EditorCode EditorCode
	// BuiltinInfo reads the built-in toolsets' descriptions in this
	// process (from the SDK registry): such a toolset is never started to
	// be described, and listing it starts no process. It is called once,
	// in the background from New (the handshake does not wait for it);
	// what needs the descriptions waits for it. Nil: none.
	BuiltinInfo func() map[string]plugmodel.ToolsetInfo
	// Lazy: enabling a toolset whose description is known registers its
	// tools and installs its editor code without starting its plugin; the
	// plugin starts on the first call (GODOT_MCP_EAGER_TOOLSETS turns it
	// off). False: enabling starts the plugin at once.
	Lazy bool
	// IdleStop stops a plugin that served no call for this long; its next
	// call starts it again (GODOT_MCP_TOOLSET_IDLE). 0: never.
	IdleStop time.Duration
	// Trust pins third-party executables (host/trust); nil: no pinning.
	Trust Trust
}

// EditorCode keeps a toolset's editor-side GDScript installed in the
// project and loaded in the editor (implemented by *projectfiles.Installer).
type EditorCode interface {
	// Ensure installs and loads info's editor code if the editor does not
	// run its current version; an error refuses the enable or the call.
	Ensure(ctx context.Context, info plugmodel.ToolsetInfo) *contract.Error
	// Remove unloads and deletes it; note says what was kept and why.
	Remove(ctx context.Context, info plugmodel.ToolsetInfo) (note string)
}

// fileStamp identifies a version of a toolset's executable.
type fileStamp struct {
	mtime time.Time
	size  int64
}

func stampOf(path string) fileStamp {
	fi, err := os.Stat(path)
	if err != nil {
		return fileStamp{}
	}
	return fileStamp{mtime: fi.ModTime(), size: fi.Size()}
}

// An entry is one toolset. Two locks: op serializes what starts or stops
// this toolset's plugin (enable, disable, restart) and is held across the
// start; mu guards the fields and is never held across a plugin start,
// describe or stop, so that listing, and every other toolset, never waits
// on a plugin.
type entry struct {
	spec pluginhost.Spec

	op sync.Mutex

	mu        sync.Mutex
	info      *plugmodel.ToolsetInfo
	infoStamp fileStamp // the executable info was read from
	enabled   bool
	plugin    Plugin
	state     string
	lastErr   string
	backoff   time.Duration
	restartAt time.Time
	// describing is non-nil while a background describe runs; closed when it ends.
	describing chan struct{}
	// failed: the last start or describe failed (lastErr) for the
	// executable failStamp; it is not retried until that changes or the
	// toolset is enabled by name.
	failed    bool
	failStamp fileStamp
	// static: info is the built-in's, read in this process (never described).
	static bool
	// inflight counts the calls using (or starting) the plugin; lastUsed is
	// when the last one ended; idle stops the plugin IdleStop after that.
	inflight int
	lastUsed time.Time
	idle     *time.Timer
	// served caches tools(e) for the description servedFor (each enable
	// serves the same tools: their schemas are converted once).
	served    []mcpserver.Tool
	servedFor *plugmodel.ToolsetInfo
}

// Manager implements mcpserver.Toolsets.
type Manager struct {
	launch          Launcher
	log             *slog.Logger
	callTimeout     time.Duration
	editorCode      EditorCode
	describeTimeout time.Duration
	startTimeout    time.Duration
	listWait        time.Duration
	unqualified     string
	lazy            bool
	idleStop        time.Duration
	trust           Trust
	order           []string
	entries         map[string]*entry
	builtins        []string // names of the built-in toolsets
	builtinInfo     func() map[string]plugmodel.ToolsetInfo
	staticOnce      sync.Once
	core            map[string]bool // names of the core tools

	// godot is the connected editor's Godot version ("" when none), as
	// last told by EditorChanged. Read and written under an entry's mu
	// too, see Enable.
	godot atomic.Pointer[string]

	ctx    context.Context // ends with Close: cancels starts and describes
	cancel context.CancelFunc
	bg     sync.WaitGroup // background describes and plugin stops
}

// New builds a Manager. Specs with duplicate names keep the first (built-ins win).
func New(opts Options) *Manager {
	m := &Manager{launch: opts.Launch, log: opts.Logger, callTimeout: opts.CallTimeout, editorCode: opts.EditorCode, unqualified: opts.Unqualified, entries: map[string]*entry{},
		lazy: opts.Lazy, idleStop: opts.IdleStop, trust: opts.Trust,
		describeTimeout: cmp.Or(opts.DescribeTimeout, DefaultDescribeTimeout),
		startTimeout:    cmp.Or(opts.StartTimeout, DefaultStartTimeout),
		listWait:        cmp.Or(opts.ListWait, DefaultListWait),
	}
	m.ctx, m.cancel = context.WithCancel(context.Background())
	if m.log == nil {
		m.log = slog.New(slog.DiscardHandler)
	}
	if m.callTimeout == 0 {
		m.callTimeout = 2 * time.Minute
	}
	m.builtinInfo = opts.BuiltinInfo
	m.core = map[string]bool{}
	for _, n := range mcpserver.CoreToolNames() {
		m.core[n] = true
	}
	for _, s := range opts.Specs {
		if _, dup := m.entries[s.Name]; dup {
			m.log.Warn("toolset name taken; ignoring", "name", s.Name, "path", s.Path)
			continue
		}
		m.entries[s.Name] = &entry{spec: s, state: StateStopped}
		m.order = append(m.order, s.Name)
		if s.BuiltIn {
			m.builtins = append(m.builtins, s.Name)
		}
	}
	if m.builtinInfo != nil {
		go m.loadStatic() // after the entries exist
	}
	return m
}

// startCtx bounds a plugin start by timeout, ctx and the manager's life.
func (m *Manager) startCtx(ctx context.Context, timeout time.Duration) (context.Context, context.CancelFunc) {
	ctx, cancel := context.WithTimeout(ctx, timeout)
	stop := context.AfterFunc(m.ctx, cancel)
	return ctx, func() { stop(); cancel() }
}

// detach takes e's plugin away from it. Caller holds e.mu; the caller
// releases the plugin after unlocking.
func (m *Manager) detach(e *entry) Plugin {
	p := e.plugin
	e.plugin = nil
	return p
}

// release stops a plugin no entry refers to any more (nil: nothing).
func (m *Manager) release(p Plugin) {
	if p == nil {
		return
	}
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	if err := p.Stop(ctx); err != nil {
		m.log.Warn("stopping toolset", "name", p.Info().Name, "err", err)
	}
}

// kill ends a plugin no entry refers to any more at once (a hung one).
func (m *Manager) kill(p Plugin) {
	if k, ok := p.(interface{ Kill() }); ok {
		k.Kill()
		return
	}
	m.release(p)
}

// Close stops every plugin and waits for background describes.
func (m *Manager) Close() {
	m.cancel() // ends starts and describes under way
	// Every toolset stops at once: a plugin takes up to a second or two to
	// exit after its connection closes, and nine of them one after another
	// would hold the server's exit for as long.
	var wg sync.WaitGroup
	for _, name := range m.order {
		e := m.entries[name]
		wg.Add(1)
		go func() {
			defer wg.Done()
			e.op.Lock()
			defer e.op.Unlock()
			e.mu.Lock()
			p := m.detach(e)
			e.mu.Unlock()
			m.release(p)
		}()
	}
	wg.Wait()
	m.bg.Wait()
}

// BuiltinSpecs returns the specs of the built-in toolsets, served by the
// godot-mcp executable self (normally os.Executable()) re-executed as
// `godot-mcp toolset serve NAME`.
func BuiltinSpecs(self string, names []string) []pluginhost.Spec {
	specs := make([]pluginhost.Spec, len(names))
	for i, n := range names {
		specs[i] = pluginhost.Spec{Name: n, Path: self, Args: []string{"toolset", "serve", n}, BuiltIn: true}
	}
	return specs
}
