// Package toolsets is the registry and gate of toolset plugins: which
// toolsets exist (built-in or third-party), which are enabled (one
// server-global set), their running plugins, and crash recovery.
package toolsets

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"log/slog"
	"os"
	"slices"
	"sort"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/godot-mcp/godot-mcp/host/envelope"
	"github.com/godot-mcp/godot-mcp/host/mcpserver"
	"github.com/godot-mcp/godot-mcp/host/pluginhost"
	"github.com/godot-mcp/godot-mcp/host/safety"
	"github.com/godot-mcp/godot-mcp/internal/plugmodel"
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
	// it (host/extinstall); nil: such toolsets run without (tests).
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
// project and loaded in the editor (implemented by *extinstall.Installer).
type EditorCode interface {
	// Ensure installs and loads info's editor code if the editor does not
	// run its current version; an error refuses the enable or the call.
	Ensure(ctx context.Context, info plugmodel.ToolsetInfo) *envelope.Error
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

// nameConflict says why e's names, as described by info (nil: not yet
// described), would take names that are not its own, or "": a third-party
// toolset named <builtin>_… (its tool x would be served as
// godot_<builtin>_…_x, a name of the built-in's), or a tool whose served
// name is a core tool's. Other toolsets' names are refused when served
// (mcpserver.AddTools, AddPrompts), so the first one enabled keeps them.
func (m *Manager) nameConflict(e *entry, info *plugmodel.ToolsetInfo) string {
	if !e.spec.BuiltIn {
		for _, b := range m.builtins {
			if strings.HasPrefix(e.spec.Name, b+"_") {
				return fmt.Sprintf("toolset name %q starts with %q, the built-in toolset's name: its tools' names (godot_%s_<tool>) would take the built-in's. Rename the executable", e.spec.Name, b+"_", e.spec.Name)
			}
		}
	}
	if info == nil {
		return ""
	}
	for _, t := range info.Tools {
		if n := m.servedName(e, t.Name); m.core[n] {
			return fmt.Sprintf("tool %q would be served as %s, a core tool's name. Rename the toolset or the tool", t.Name, n)
		}
	}
	return ""
}

// status reports e. Caller holds e.mu.
func (m *Manager) status(e *entry) mcpserver.ToolsetStatus {
	if e.plugin != nil && e.plugin.Exited() && e.state == StateRunning {
		e.state = StateCrashed
	}
	st := mcpserver.ToolsetStatus{Name: e.spec.Name, BuiltIn: e.spec.BuiltIn, Enabled: e.enabled, State: e.state, LastError: e.lastErr}
	if !e.spec.BuiltIn {
		st.Path = e.spec.Path
		if m.trust != nil {
			st.SHA256 = m.trust.Pinned(e.spec.Path)
		}
	}
	if e.info != nil {
		st.Description, st.Version, st.MinGodot, st.MaxTested, st.ToolCount = e.info.Description, e.info.Version, e.info.MinGodot, e.info.MaxTestedGodot, len(e.info.Tools)
		st.Keywords = e.info.Keywords
		if len(e.info.EditorFiles) > 0 {
			ec := &mcpserver.EditorCodeStatus{Folder: "res://addons/godot_mcp_ext/" + e.info.Name + "/", Version: e.info.EditorVersion}
			for _, f := range e.info.EditorFiles {
				ec.Files = append(ec.Files, f.Path)
			}
			st.EditorCode = ec
		}
	}
	if c := m.nameConflict(e, e.info); c != "" {
		st.LastError = "cannot be enabled: " + c
	}
	return st
}

// startCtx bounds a plugin start by timeout, ctx and the manager's life.
func (m *Manager) startCtx(ctx context.Context, timeout time.Duration) (context.Context, context.CancelFunc) {
	ctx, cancel := context.WithTimeout(ctx, timeout)
	stop := context.AfterFunc(m.ctx, cancel)
	return ctx, func() { stop(); cancel() }
}

// describeLater starts reading e's description in the background when it
// is unknown or its executable changed, unless a failure for this very
// executable is cached. It returns the channel that closes when the
// describe in flight ends, or nil when none is.
func (m *Manager) describeLater(e *entry) <-chan struct{} {
	stamp := stampOf(e.spec.Path)
	e.mu.Lock()
	defer e.mu.Unlock()
	switch {
	case e.describing != nil:
		return e.describing
	case e.static:
		return nil // described in this process
	case m.ctx.Err() != nil, e.enabled, e.plugin != nil, e.state == StateStarting:
		return nil // a running plugin describes itself; a start is under way
	case e.failed && stamp == e.failStamp:
		return nil // cached failure
	case e.info != nil && !e.failed && stamp == e.infoStamp:
		return nil // known
	}
	done := make(chan struct{})
	e.describing = done
	if !e.enabled {
		e.state = StateDescribing
	}
	m.bg.Add(1)
	go m.describe(e, stamp, done)
	return done
}

// describe starts e's plugin, reads its description and stops it.
func (m *Manager) describe(e *entry, stamp fileStamp, done chan struct{}) {
	defer m.bg.Done()
	var p Plugin
	var err error
	if perr := m.checkTrust(e, false); perr != nil {
		err = errors.New(perr.Hint)
	} else {
		ctx, cancel := m.startCtx(context.Background(), m.describeTimeout)
		p, err = m.launch(ctx, e.spec)
		cancel()
	}
	var info plugmodel.ToolsetInfo
	if err == nil {
		info = p.Info()
		defer m.release(p) // after the description is recorded: List need not wait for the stop
	}
	e.mu.Lock()
	defer e.mu.Unlock()
	e.describing = nil
	close(done)
	if err != nil {
		if m.ctx.Err() != nil {
			err = errors.New("the server is shutting down")
		}
		m.log.Warn("could not describe toolset", "name", e.spec.Name, "path", e.spec.Path, "err", err)
		e.failed, e.failStamp, e.lastErr = true, stamp, startWords(err)
		if e.state == StateDescribing {
			e.state = StateFailed
		}
		return
	}
	if e.plugin == nil { // an enabled plugin's own description wins
		e.info, e.infoStamp = &info, stamp
	}
	wasFailed := e.failed
	if wasFailed {
		e.failed, e.lastErr = false, ""
	}
	if e.state == StateDescribing || (wasFailed && e.state == StateFailed) {
		e.state = StateStopped
	}
}

// List reports every known toolset. It reads (in the background, in
// parallel) the descriptions of toolsets never seen or whose executable
// changed, waits for them at most ListWait, and reports the rest as
// "describing".
func (m *Manager) List(ctx context.Context) []mcpserver.ToolsetStatus {
	return m.list(ctx, m.listWait)
}

// ThirdParty reports the third-party toolsets as List does, without
// starting the built-in toolsets' plugins (the server's instructions know
// their declarations already): it waits at most wait for descriptions.
func (m *Manager) ThirdParty(ctx context.Context, wait time.Duration) []mcpserver.ToolsetStatus {
	return m.listWhere(ctx, wait, func(e *entry) bool { return !e.spec.BuiltIn })
}

// DescribeThirdParty starts reading the third-party toolsets'
// descriptions in the background (the server does at start, so that they
// are known when a client initializes).
func (m *Manager) DescribeThirdParty() {
	for _, name := range m.order {
		if e := m.entries[name]; !e.spec.BuiltIn {
			m.describeLater(e)
		}
	}
}

// list is List waiting at most wait for the descriptions being read.
func (m *Manager) list(ctx context.Context, wait time.Duration) []mcpserver.ToolsetStatus {
	return m.listWhere(ctx, wait, func(*entry) bool { return true })
}

// listWhere is list of the toolsets keep accepts.
func (m *Manager) listWhere(ctx context.Context, wait time.Duration, keep func(*entry) bool) []mcpserver.ToolsetStatus {
	m.loadStatic()
	var pending []<-chan struct{}
	for _, name := range m.order {
		if e := m.entries[name]; keep(e) {
			if ch := m.describeLater(e); ch != nil {
				pending = append(pending, ch)
			}
		}
	}
	if len(pending) > 0 {
		timer := time.NewTimer(wait)
	wait:
		for _, ch := range pending {
			select {
			case <-ch:
			case <-timer.C:
				break wait
			case <-ctx.Done():
				break wait
			}
		}
		timer.Stop()
	}
	out := make([]mcpserver.ToolsetStatus, 0, len(m.order))
	for _, name := range m.order {
		e := m.entries[name]
		if !keep(e) {
			continue
		}
		e.mu.Lock()
		out = append(out, m.status(e))
		e.mu.Unlock()
	}
	return out
}

// Status reports one toolset as List does, without describing anything.
func (m *Manager) Status(name string) (mcpserver.ToolsetStatus, bool) {
	m.loadStatic()
	e, ok := m.entries[name]
	if !ok {
		return mcpserver.ToolsetStatus{}, false
	}
	e.mu.Lock()
	defer e.mu.Unlock()
	return m.status(e), true
}

// Names lists every known toolset, built-ins first.
func (m *Manager) Names() []string { return slices.Clone(m.order) }

// Enabled lists the enabled toolsets, sorted.
func (m *Manager) Enabled() []string {
	var out []string
	for _, name := range m.order {
		e := m.entries[name]
		e.mu.Lock()
		if e.enabled {
			out = append(out, name)
		}
		e.mu.Unlock()
	}
	sort.Strings(out)
	if out == nil {
		out = []string{}
	}
	return out
}

// ToolOwner names the toolset that serves tool (the name agents see),
// enabled or not (mcpserver.ToolOwners). Toolsets never described yet are
// described first, as godot_list_toolsets does.
func (m *Manager) ToolOwner(ctx context.Context, tool string) (string, bool) {
	// Waits out the descriptions still being read, up to their own bound
	// rather than List's: right after start every toolset is being described
	// at once (fourteen plugin processes on a busy 2-CPU box took more than
	// List's 2 s), and a call of a disabled toolset's tool must still be told
	// which toolset to enable, not that the tool does not exist.
	m.list(ctx, m.describeTimeout)
	for _, name := range m.order {
		e := m.entries[name]
		e.mu.Lock()
		found := false
		if e.info != nil {
			for _, t := range e.info.Tools {
				if m.servedName(e, t.Name) == tool {
					found = true
					break
				}
			}
		}
		e.mu.Unlock()
		if found {
			return name, true
		}
	}
	return "", false
}

// Enable starts the toolset's plugin, installs its editor code and returns
// its tools. It retries a toolset whose start or describe failed before.
func (m *Manager) Enable(ctx context.Context, name, godotVersion string) (mcpserver.EnableOutcome, *envelope.Error) {
	return m.enable(ctx, name, godotVersion, true)
}

// EnableStaged is Enable without installing the toolset's editor code: the
// caller installs it (InstallEditorCode) once it accepted every toolset it
// enables together, or takes the toolset back with AbortStaged.
func (m *Manager) EnableStaged(ctx context.Context, name, godotVersion string) (mcpserver.EnableOutcome, *envelope.Error) {
	return m.enable(ctx, name, godotVersion, false)
}

// InstallEditorCode has the editor run the enabled toolset's editor code.
func (m *Manager) InstallEditorCode(ctx context.Context, name string) *envelope.Error {
	e, ok := m.entries[name]
	if !ok {
		return envelope.Errorf(envelope.ValidationError, "Unknown toolset %q.", name)
	}
	e.mu.Lock()
	info := e.info
	e.mu.Unlock()
	if info == nil {
		return nil
	}
	if perr := m.ensureEditorCode(ctx, *info); perr != nil {
		perr.Hint = fmt.Sprintf("Toolset %q was not enabled: %s", name, perr.Hint)
		return perr
	}
	return nil
}

// AbortStaged disables a toolset enabled by EnableStaged whose editor code
// was not installed: its editor code, in the project or the editor from
// before, is left as it is.
func (m *Manager) AbortStaged(ctx context.Context, name string) {
	_, _ = m.disable(ctx, name, false)
}

func (m *Manager) enable(ctx context.Context, name, godotVersion string, editorCode bool) (mcpserver.EnableOutcome, *envelope.Error) {
	m.loadStatic()
	e, ok := m.entries[name]
	if !ok {
		return mcpserver.EnableOutcome{}, envelope.Errorf(envelope.ValidationError, "Unknown toolset %q.", name)
	}
	e.op.Lock()
	defer e.op.Unlock()
	e.mu.Lock()
	if e.enabled {
		defer e.mu.Unlock()
		return mcpserver.EnableOutcome{Tools: m.tools(e), Resources: m.resources(e), Prompts: m.prompts(e), AlreadyEnabled: true}, nil
	}
	if c := m.nameConflict(e, nil); c != "" {
		e.mu.Unlock()
		return mcpserver.EnableOutcome{}, envelope.Errorf(envelope.ValidationError, "Toolset %q cannot be enabled: %s.", name, c)
	}
	dead := m.detach(e) // normally nil: a disabled toolset has no plugin
	prev := e.state
	stamp := stampOf(e.spec.Path)
	known := m.knownInfo(e, stamp)
	if !known {
		e.state = StateStarting
	}
	e.mu.Unlock()
	m.release(dead)

	// The executable must be the one the user trusted (recorded now on
	// first use), whether it starts now or on the first call.
	if perr := m.checkTrust(e, true); perr != nil {
		e.mu.Lock()
		e.state, e.lastErr = StateFailed, perr.Hint
		e.mu.Unlock()
		return mcpserver.EnableOutcome{}, perr
	}
	if known {
		return m.enableLazy(ctx, e, godotVersion, editorCode)
	}
	sctx, cancel := m.startCtx(ctx, m.startTimeout)
	p, err := m.launch(sctx, e.spec)
	cancel()
	if err != nil {
		e.mu.Lock()
		e.state, e.lastErr, e.failed, e.failStamp = StateFailed, startWords(err), true, stamp
		e.mu.Unlock()
		return mcpserver.EnableOutcome{}, startFailedWords(e.spec, err)
	}
	info := p.Info()
	if m.ctx.Err() != nil {
		m.release(p)
		e.mu.Lock()
		e.state = prev
		e.mu.Unlock()
		return mcpserver.EnableOutcome{}, envelope.Errorf(envelope.InternalError, "The server is shutting down; toolset %q was not enabled.", name)
	}
	if c := m.nameConflict(e, &info); c != "" {
		m.release(p)
		e.mu.Lock()
		e.info, e.infoStamp, e.state = &info, stamp, prev
		e.mu.Unlock()
		return mcpserver.EnableOutcome{}, envelope.Errorf(envelope.ValidationError, "Toolset %q cannot be enabled: %s.", name, c)
	}
	if editorCode { // else the caller installs it (InstallEditorCode)
		if perr := m.ensureEditorCode(ctx, info); perr != nil {
			m.release(p)
			e.mu.Lock()
			e.info, e.infoStamp, e.state = &info, stamp, prev
			e.mu.Unlock()
			perr.Hint = fmt.Sprintf("Toolset %q was not enabled: %s", name, perr.Hint)
			return mcpserver.EnableOutcome{}, perr
		}
	}
	e.mu.Lock()
	// Checked under e.mu against the editor connected now: an editor that
	// connected during the start is either seen here or sees this toolset
	// enabled (EditorChanged).
	if v := m.godot.Load(); v != nil && *v != "" {
		godotVersion = *v
	}
	if reason := incompatible(name, info.MinGodot, godotVersion); reason != "" {
		e.info, e.infoStamp, e.failed = &info, stamp, false
		e.state, e.lastErr = StateIncompatible, reason
		e.mu.Unlock()
		m.release(p)
		return mcpserver.EnableOutcome{}, envelope.Precondition(envelope.RequireGodotVersion, reason+" Open the project in a newer Godot.")
	}
	defer e.mu.Unlock()
	e.plugin, e.info, e.infoStamp = p, &info, stamp
	e.enabled, e.state, e.lastErr, e.backoff, e.failed = true, StateRunning, "", 0, false
	e.lastUsed = time.Now()
	m.armIdle(e)
	return mcpserver.EnableOutcome{Tools: m.tools(e), Resources: m.resources(e), Prompts: m.prompts(e)}, nil
}

// incompatible explains why a toolset needing minGodot cannot run with the
// editor's godot version ("" when it can, or either is unknown).
func incompatible(name, minGodot, godot string) string {
	if minGodot == "" || godot == "" || !versionBelow(godot, minGodot) {
		return ""
	}
	return fmt.Sprintf("Toolset %q needs Godot %s or newer; the connected editor is %s.", name, minGodot, godot)
}

// Disable stops the toolset's plugin, removes its editor code and returns
// the tool names to remove.
func (m *Manager) Disable(ctx context.Context, name string) (mcpserver.DisableOutcome, *envelope.Error) {
	return m.disable(ctx, name, true)
}

func (m *Manager) disable(ctx context.Context, name string, editorCode bool) (mcpserver.DisableOutcome, *envelope.Error) {
	e, ok := m.entries[name]
	if !ok {
		return mcpserver.DisableOutcome{}, envelope.Errorf(envelope.ValidationError, "Unknown toolset %q.", name)
	}
	e.op.Lock()
	defer e.op.Unlock()
	e.mu.Lock()
	if !e.enabled {
		e.mu.Unlock()
		return mcpserver.DisableOutcome{AlreadyDisabled: true}, nil
	}
	out := m.removed(e)
	e.enabled, e.state = false, StateStopped
	p := m.detach(e)
	info := e.info
	e.mu.Unlock()
	m.release(p)
	if editorCode && info != nil && m.editorCode != nil && len(info.EditorFiles) > 0 {
		if note := m.editorCode.Remove(ctx, *info); note != "" {
			out.Notes = append(out.Notes, note)
		}
	}
	return out, nil
}

// removed lists what disabling e takes away. Caller holds e.mu.
func (m *Manager) removed(e *entry) mcpserver.DisableOutcome {
	var out mcpserver.DisableOutcome
	if e.info != nil {
		for _, t := range e.info.Tools {
			out.RemovedTools = append(out.RemovedTools, m.servedName(e, t.Name))
		}
		for _, r := range append(append([]plugmodel.ResourceInfo(nil), e.info.Resources...), e.info.ResourceTemplates...) {
			out.RemovedResources = append(out.RemovedResources, r.URI)
		}
		for _, p := range e.info.Prompts {
			out.RemovedPrompts = append(out.RemovedPrompts, m.servedName(e, p.Name))
		}
	}
	return out
}

// EditorChanged applies min_godot to the editor that just connected
// (godotVersion; "" when it disconnected): every enabled toolset that
// needs a newer Godot is disabled (state incompatible, with the reason in
// last_error), and what they served is returned for the caller to remove.
// Toolsets refused for an older editor before are cleared for a new enough
// one. It waits on no plugin start: a toolset being enabled meanwhile is
// checked by Enable itself.
func (m *Manager) EditorChanged(godotVersion string) mcpserver.DisableOutcome {
	m.godot.Store(&godotVersion)
	var all mcpserver.DisableOutcome
	if godotVersion == "" {
		return all
	}
	for _, name := range m.order {
		e := m.entries[name]
		e.mu.Lock()
		var p Plugin
		if e.info != nil {
			reason := incompatible(name, e.info.MinGodot, godotVersion)
			switch {
			case reason != "" && e.enabled:
				out := m.removed(e)
				all.RemovedTools = append(all.RemovedTools, out.RemovedTools...)
				all.RemovedResources = append(all.RemovedResources, out.RemovedResources...)
				all.RemovedPrompts = append(all.RemovedPrompts, out.RemovedPrompts...)
				e.enabled, e.state, e.lastErr = false, StateIncompatible, reason
				p = m.detach(e)
				m.log.Warn("toolset disabled: the connected editor is too old", "name", name, "min_godot", e.info.MinGodot, "godot", godotVersion)
			case reason == "" && e.state == StateIncompatible:
				e.state, e.lastErr = StateStopped, ""
			}
		}
		e.mu.Unlock()
		if p != nil {
			// Stopped in the background: the caller removes the tools now.
			m.bg.Add(1)
			go func() {
				defer m.bg.Done()
				m.release(p)
			}()
		}
	}
	return all
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

// tools converts the toolset's declared tools into host tools. Caller holds e.mu.
func (m *Manager) tools(e *entry) []mcpserver.Tool {
	if e.servedFor != e.info || e.served == nil {
		e.served, e.servedFor = m.convertTools(e), e.info
	}
	return slices.Clone(e.served)
}

// convertTools is tools without the cache.
func (m *Manager) convertTools(e *entry) []mcpserver.Tool {
	out := make([]mcpserver.Tool, 0, len(e.info.Tools))
	for _, t := range e.info.Tools {
		def := mcpserver.ToolDef{
			Name: m.servedName(e, t.Name), Title: t.Title, Description: t.Description, Toolset: e.spec.Name,
			Class: safety.Class(t.Safety), Preconditions: t.Preconditions,
			InputSchema: t.InputSchema, OutputSchema: mcpserver.OpenSchema(t.OutputSchema),
			Preview: t.DryRun, DestructiveWhen: t.DestructiveWhen, RunsCode: t.RunsCode,
		}
		out = append(out, mcpserver.Tool{Def: def, Exec: m.executor(e, t.Name)})
	}
	return out
}

// running returns the live plugin, restarting a crashed one (with backoff).
func (m *Manager) running(ctx context.Context, e *entry) (Plugin, *envelope.Error) {
	p, perr := m.live(e)
	if p != nil || perr != nil {
		return p, perr
	}
	// Restart, serialized with enable and disable of this toolset.
	e.op.Lock()
	defer e.op.Unlock()
	if p, perr := m.live(e); p != nil || perr != nil {
		return p, perr // restarted by another call meanwhile, or disabled
	}
	if perr := m.checkTrust(e, true); perr != nil {
		e.mu.Lock()
		e.lastErr = perr.Hint
		e.mu.Unlock()
		return nil, perr
	}
	e.mu.Lock()
	first := e.state == StateIdle // started by use, not after a crash
	e.mu.Unlock()
	verb := "restarted"
	if first {
		verb = "started"
	}
	sctx, cancel := m.startCtx(ctx, m.startTimeout)
	p, err := m.launch(sctx, e.spec)
	cancel()
	e.mu.Lock()
	defer e.mu.Unlock()
	if err != nil {
		m.crashed(e, startWords(err))
		return nil, restartFailedWords(e.spec.Name, verb, err, m.comesBack(e))
	}
	if !e.enabled || m.ctx.Err() != nil {
		go m.release(p)
		return nil, envelope.Precondition(envelope.RequireToolsetEnabled, fmt.Sprintf("Toolset %q was disabled. Call godot_enable_toolset first.", e.spec.Name))
	}
	if e.info != nil && !sameSurface(*e.info, p.Info()) {
		go m.release(p)
		e.lastErr = "its executable changed since it was enabled: it now declares other tools"
		return nil, envelope.Errorf(envelope.InternalError, "Toolset %q changed on disk since it was enabled (it now declares other tools, resources or prompts); its tools were not run. Disable and enable it again to serve the new ones.", e.spec.Name)
	}
	m.log.Info("toolset "+verb, "name", e.spec.Name, "pid", pidOf(p))
	e.plugin, e.state, e.lastErr = p, StateRunning, ""
	return p, nil
}

// live returns e's running plugin; (nil, nil) means it must be
// (re)started now; an error means not now (disabled, or in its backoff).
func (m *Manager) live(e *entry) (Plugin, *envelope.Error) {
	e.mu.Lock()
	if !e.enabled {
		e.mu.Unlock()
		return nil, envelope.Precondition(envelope.RequireToolsetEnabled, fmt.Sprintf("Toolset %q is disabled. Call godot_enable_toolset first.", e.spec.Name))
	}
	if e.plugin != nil && !e.plugin.Exited() {
		defer e.mu.Unlock()
		return e.plugin, nil
	}
	var dead Plugin
	if e.plugin != nil { // it died since the last call
		if e.state == StateRunning {
			e.state, e.lastErr = StateCrashed, "the plugin process exited"
		}
		dead = m.detach(e)
	}
	wait := time.Until(e.restartAt)
	why := e.lastErr
	e.mu.Unlock()
	m.release(dead) // releases the dead plugin's client and broker
	if wait > 0 {
		return nil, envelope.Errorf(envelope.InternalError, "Toolset %q crashed (%s) and restarts in %s; retry after that.", e.spec.Name, why, roundUp(wait))
	}
	return nil, nil
}

// crashed records a crash and schedules the next restart. Caller holds e.mu.
func (m *Manager) crashed(e *entry, why string) {
	e.state, e.lastErr = StateCrashed, why
	if e.backoff == 0 {
		e.backoff = minBackoff
	} else {
		e.backoff = min(2*e.backoff, maxBackoff)
	}
	e.restartAt = time.Now().Add(e.backoff)
}

// comesBack says when e's plugin can restart: "in 1s" or "now". Caller holds e.mu.
func (m *Manager) comesBack(e *entry) string {
	if wait := time.Until(e.restartAt); wait > 0 {
		return "in " + roundUp(wait).String()
	}
	return "now"
}

// roundUp rounds d up to 100 ms, so that "retry in" never says 0s.
func roundUp(d time.Duration) time.Duration {
	const step = 100 * time.Millisecond
	return (d + step - 1) / step * step
}

// servedName is the name agents see for a tool or prompt of e.
func (m *Manager) servedName(e *entry, name string) string {
	if m.unqualified != "" && e.spec.Name == m.unqualified && !strings.HasPrefix(name, "godot_") {
		return name
	}
	return QualifiedName(e.spec.Name, name)
}

// QualifiedName is the name agents see for a toolset's tool: godot_<toolset>_<tool>.
func QualifiedName(toolset, tool string) string { return "godot_" + toolset + "_" + tool }

// executor calls tool (the plugin's own, unqualified name) in e's plugin.
func (m *Manager) executor(e *entry, tool string) mcpserver.Executor {
	return func(ctx context.Context, call mcpserver.Call) mcpserver.Result {
		defer m.use(e)()
		p, perr := m.running(ctx, e)
		if perr != nil {
			return mcpserver.Fail(perr)
		}
		if perr := m.ensureEditorCode(ctx, p.Info()); perr != nil {
			perr.Hint = fmt.Sprintf("%s was not run: %s", call.Tool, perr.Hint)
			return mcpserver.Fail(perr)
		}
		ctx, cancel := context.WithTimeout(ctx, m.callTimeout)
		defer cancel()
		ctx, stopped := m.watchStopped(ctx, p)
		res, err := p.Call(ctx, plugmodel.CallRequest{
			Tool: tool, Arguments: call.Arguments, DryRun: call.DryRun, Confirm: call.Confirm, ProgressToken: call.ProgressToken, CallID: call.CallID,
		})
		fail := asFailure(e.spec.Name, call.Tool, err)
		if fail != nil {
			fail.Op = call.Tool // the name the agent called
		}
		timedOut := ctx.Err() == context.DeadlineExceeded
		frozen := stopped()
		hung := (res.Err != nil || fail != nil) && (timedOut || frozen)
		e.mu.Lock()
		ours := e.plugin == p // false: disabled or replaced by the host meanwhile
		crashed := ours && p.Exited()
		var gone Plugin
		switch {
		case crashed:
			m.crashed(e, exitedWhy(call.Tool, fail))
			gone = m.detach(e)
		case ours && hung:
			// Hung: kill it so that a later call gets a fresh plugin.
			why := hungWhy(call.Tool, m.callTimeout)
			if frozen {
				why = frozenWhy(call.Tool)
			}
			m.crashed(e, why)
			gone = m.detach(e)
		}
		back := m.comesBack(e)
		e.mu.Unlock()
		switch {
		case !ours && (res.Err != nil || fail != nil):
			res.Err = disabledDuringWords(e.spec.Name, call.Tool)
		case crashed:
			m.release(gone) // releases the dead plugin's client and broker
			res.Err = crashedWords(e.spec.Name, call.Tool, fail, back, true)
		case gone != nil && frozen:
			m.kill(gone)
			res.Err = frozenWords(e.spec.Name, call.Tool, back)
		case gone != nil:
			m.kill(gone)
			res.Err = hungWords(e.spec.Name, call.Tool, m.callTimeout, back)
		case fail != nil:
			res.Err = failureWords(fail)
		}
		return res
	}
}

// stoppedPoll is how often a call checks that its plugin is not stopped;
// stoppedPolls checks in a row must see it stopped.
const (
	stoppedPoll  = 250 * time.Millisecond
	stoppedPolls = 4
)

// watchStopped ends ctx when p's process stays stopped (SIGSTOP, a
// debugger) for about a second: a frozen plugin never answers, and without
// this the call would wait out the whole call timeout. stopped reports,
// after the call, whether that is why ctx ended.
func (m *Manager) watchStopped(ctx context.Context, p Plugin) (context.Context, func() bool) {
	withPid, ok := p.(interface{ Pid() int })
	if !ok || withPid.Pid() <= 0 {
		return ctx, func() bool { return false }
	}
	pid := withPid.Pid()
	ctx, cancel := context.WithCancelCause(ctx)
	errStopped := errors.New("the plugin process is stopped")
	// A timer, not a goroutine with a ticker: a call that answers within
	// stoppedPoll (nearly all) starts no goroutine for the watch (each one
	// is a thread wake-up on a sub-millisecond call).
	var (
		mu   sync.Mutex // guards t and seen
		t    *time.Timer
		seen int
	)
	tick := func() {
		mu.Lock()
		defer mu.Unlock()
		if ctx.Err() != nil {
			return
		}
		if !processStopped(pid) {
			seen = 0
		} else if seen++; seen >= stoppedPolls {
			cancel(errStopped)
			return
		}
		t.Reset(stoppedPoll)
	}
	mu.Lock()
	t = time.AfterFunc(stoppedPoll, tick)
	mu.Unlock()
	return ctx, func() bool {
		mu.Lock()
		t.Stop()
		mu.Unlock()
		stopped := errors.Is(context.Cause(ctx), errStopped)
		cancel(nil)
		return stopped
	}
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

// SurfaceFromInfo describes a toolset for the contract surface, with the
// same schemas the host serves.
func SurfaceFromInfo(info plugmodel.ToolsetInfo) mcpserver.SurfaceToolset {
	e := &entry{spec: pluginhost.Spec{Name: info.Name}, info: &info}
	var m Manager
	st := mcpserver.SurfaceToolset{Name: info.Name, Description: info.Description, MinGodot: info.MinGodot, MaxTested: info.MaxTestedGodot}
	for _, t := range m.tools(e) {
		st.Tools = append(st.Tools, t.Def)
	}
	return st
}

// ensureEditorCode has the editor run info's editor code (nil when the
// toolset ships none or no installer is configured).
func (m *Manager) ensureEditorCode(ctx context.Context, info plugmodel.ToolsetInfo) *envelope.Error {
	if m.editorCode == nil || len(info.EditorFiles) == 0 {
		return nil
	}
	return m.editorCode.Ensure(ctx, info)
}
