// Package toolsets is the registry and gate of toolset plugins: which
// toolsets exist (built-in or third-party), which are enabled (one
// server-global set), their running plugins, and crash recovery.
package toolsets

import (
	"context"
	"fmt"
	"log/slog"
	"sort"
	"strings"
	"sync"
	"time"

	"github.com/godot-mcp/godot-mcp/host/envelope"
	"github.com/godot-mcp/godot-mcp/host/mcpserver"
	"github.com/godot-mcp/godot-mcp/host/pluginhost"
	"github.com/godot-mcp/godot-mcp/host/safety"
)

// Plugin is a running toolset plugin (implemented by *pluginhost.Plugin).
type Plugin interface {
	Info() pluginhost.ToolsetInfo
	Call(ctx context.Context, req pluginhost.CallRequest) pluginhost.CallResult
	Exited() bool
	Stop(ctx context.Context) error
}

// contentPlugin is a Plugin that also serves resources and prompts
// (*pluginhost.Plugin does; test fakes need not).
type contentPlugin interface {
	ReadResource(ctx context.Context, uri, template string, params map[string]string) pluginhost.ResourceResult
	GetPrompt(ctx context.Context, name string, args map[string]string) pluginhost.PromptResult
}

// Launcher starts a plugin.
type Launcher func(ctx context.Context, spec pluginhost.Spec) (Plugin, error)

// Toolset states reported by godot_list_toolsets.
const (
	StateStopped = "stopped"
	StateRunning = "running"
	StateCrashed = "crashed"
)

// Restart backoff after a crash.
const (
	minBackoff = 500 * time.Millisecond
	maxBackoff = 10 * time.Second
)

// Options configure a Manager.
type Options struct {
	Specs  []pluginhost.Spec // built-ins first, then discovered third-party toolsets
	Launch Launcher
	Logger *slog.Logger
	// CallTimeout bounds one tool call inside a plugin (default 2 min).
	CallTimeout time.Duration
	// Unqualified is test-only (GODOT_MCP_CONFORMANCE_FIXTURE): the toolset
	// of this name serves its tools and prompts under their own names, not
	// godot_<toolset>_<name>, so that the MCP conformance suite can call its
	// fixtures by the names it expects. Names that start with "godot_" stay
	// qualified, so it can never shadow a core tool. Empty: off.
	Unqualified string
}

type entry struct {
	spec pluginhost.Spec

	mu        sync.Mutex // serializes start/stop of this toolset
	info      *pluginhost.ToolsetInfo
	enabled   bool
	plugin    Plugin
	state     string
	lastErr   string
	backoff   time.Duration
	restartAt time.Time
}

// Manager implements mcpserver.Toolsets.
type Manager struct {
	launch      Launcher
	log         *slog.Logger
	callTimeout time.Duration
	unqualified string
	order       []string
	entries     map[string]*entry
	builtins    []string        // names of the built-in toolsets
	core        map[string]bool // names of the core tools
}

// New builds a Manager. Specs with duplicate names keep the first (built-ins win).
func New(opts Options) *Manager {
	m := &Manager{launch: opts.Launch, log: opts.Logger, callTimeout: opts.CallTimeout, unqualified: opts.Unqualified, entries: map[string]*entry{}}
	if m.log == nil {
		m.log = slog.New(slog.DiscardHandler)
	}
	if m.callTimeout == 0 {
		m.callTimeout = 2 * time.Minute
	}
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
	return m
}

// nameConflict says why e's names would take names that are not its own,
// or "": a third-party toolset named <builtin>_… (its tool x would be served
// as godot_<builtin>_…_x, a name of the built-in's), or a tool or prompt
// whose served name is a core tool's. Other toolsets' names are refused when
// served (mcpserver.AddTools, AddPrompts), so the first one enabled keeps
// them. Caller holds e.mu.
func (m *Manager) nameConflict(e *entry) string {
	if !e.spec.BuiltIn {
		for _, b := range m.builtins {
			if strings.HasPrefix(e.spec.Name, b+"_") {
				return fmt.Sprintf("toolset name %q starts with %q, the built-in toolset's name: its tools' names (godot_%s_<tool>) would take the built-in's. Rename the executable", e.spec.Name, b+"_", e.spec.Name)
			}
		}
	}
	if e.info == nil {
		return ""
	}
	for _, t := range e.info.Tools {
		if n := m.servedName(e, t.Name); m.core[n] {
			return fmt.Sprintf("tool %q would be served as %s, a core tool's name. Rename the toolset or the tool", t.Name, n)
		}
	}
	return ""
}

func (m *Manager) status(e *entry) mcpserver.ToolsetStatus {
	st := mcpserver.ToolsetStatus{Name: e.spec.Name, BuiltIn: e.spec.BuiltIn, Enabled: e.enabled, State: e.state, LastError: e.lastErr}
	if !e.spec.BuiltIn {
		st.Path = e.spec.Path
	}
	if e.info != nil {
		st.Description, st.Version, st.MinGodot, st.ToolCount = e.info.Description, e.info.Version, e.info.MinGodot, len(e.info.Tools)
	}
	if c := m.nameConflict(e); c != "" {
		st.LastError = "cannot be enabled: " + c
	}
	return st
}

// describe fills e.info, starting the plugin briefly when it is not running. Caller holds e.mu.
func (m *Manager) describe(ctx context.Context, e *entry) error {
	if e.info != nil {
		return nil
	}
	if e.plugin != nil {
		info := e.plugin.Info()
		e.info = &info
		return nil
	}
	p, err := m.launch(ctx, e.spec)
	if err != nil {
		e.lastErr = err.Error()
		return err
	}
	info := p.Info()
	e.info = &info
	stopCtx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	_ = p.Stop(stopCtx)
	return nil
}

// List reports every known toolset, describing (in parallel) the ones never seen yet.
func (m *Manager) List(ctx context.Context) []mcpserver.ToolsetStatus {
	var wg sync.WaitGroup
	for _, name := range m.order {
		e := m.entries[name]
		wg.Add(1)
		go func() {
			defer wg.Done()
			e.mu.Lock()
			defer e.mu.Unlock()
			if err := m.describe(ctx, e); err != nil {
				m.log.Warn("could not describe toolset", "name", name, "err", err)
			}
		}()
	}
	wg.Wait()
	out := make([]mcpserver.ToolsetStatus, 0, len(m.order))
	for _, name := range m.order {
		e := m.entries[name]
		e.mu.Lock()
		if e.plugin != nil && e.plugin.Exited() && e.state == StateRunning {
			e.state = StateCrashed
		}
		out = append(out, m.status(e))
		e.mu.Unlock()
	}
	return out
}

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

// Enable starts the toolset's plugin and returns its tools.
func (m *Manager) Enable(ctx context.Context, name, godotVersion string) (mcpserver.EnableOutcome, *envelope.Error) {
	e, ok := m.entries[name]
	if !ok {
		return mcpserver.EnableOutcome{}, envelope.Errorf(envelope.ValidationError, "Unknown toolset %q.", name)
	}
	e.mu.Lock()
	defer e.mu.Unlock()
	if e.enabled {
		return mcpserver.EnableOutcome{Tools: m.tools(e), Resources: m.resources(e), Prompts: m.prompts(e), AlreadyEnabled: true}, nil
	}
	if c := m.nameConflict(e); c != "" {
		return mcpserver.EnableOutcome{}, envelope.Errorf(envelope.ValidationError, "Toolset %q cannot be enabled: %s.", name, c)
	}
	if e.plugin == nil || e.plugin.Exited() {
		p, err := m.launch(ctx, e.spec)
		if err != nil {
			e.state, e.lastErr = StateCrashed, err.Error()
			return mcpserver.EnableOutcome{}, envelope.Errorf(envelope.InternalError,
				"Toolset %q failed to start: %v. Check the server log (stderr); for a third-party toolset, check its executable %s.", name, err, e.spec.Path)
		}
		e.plugin = p
		info := p.Info()
		e.info = &info
	}
	if c := m.nameConflict(e); c != "" {
		m.stop(e)
		return mcpserver.EnableOutcome{}, envelope.Errorf(envelope.ValidationError, "Toolset %q cannot be enabled: %s.", name, c)
	}
	if e.info.MinGodot != "" && godotVersion != "" && versionBelow(godotVersion, e.info.MinGodot) {
		m.stop(e)
		return mcpserver.EnableOutcome{}, envelope.Precondition(envelope.RequireGodotVersion,
			fmt.Sprintf("Toolset %q needs Godot %s or newer; the connected editor is %s. Open the project in a newer Godot.", name, e.info.MinGodot, godotVersion))
	}
	e.enabled, e.state, e.lastErr, e.backoff = true, StateRunning, "", 0
	return mcpserver.EnableOutcome{Tools: m.tools(e), Resources: m.resources(e), Prompts: m.prompts(e)}, nil
}

// Disable stops the toolset's plugin and returns the tool names to remove.
func (m *Manager) Disable(ctx context.Context, name string) (mcpserver.DisableOutcome, *envelope.Error) {
	e, ok := m.entries[name]
	if !ok {
		return mcpserver.DisableOutcome{}, envelope.Errorf(envelope.ValidationError, "Unknown toolset %q.", name)
	}
	e.mu.Lock()
	defer e.mu.Unlock()
	if !e.enabled {
		return mcpserver.DisableOutcome{AlreadyDisabled: true}, nil
	}
	var out mcpserver.DisableOutcome
	if e.info != nil {
		for _, t := range e.info.Tools {
			out.RemovedTools = append(out.RemovedTools, m.servedName(e, t.Name))
		}
		for _, r := range append(append([]pluginhost.ResourceInfo(nil), e.info.Resources...), e.info.ResourceTemplates...) {
			out.RemovedResources = append(out.RemovedResources, r.URI)
		}
		for _, p := range e.info.Prompts {
			out.RemovedPrompts = append(out.RemovedPrompts, m.servedName(e, p.Name))
		}
	}
	e.enabled = false
	m.stop(e)
	e.state = StateStopped
	return out, nil
}

// stop ends the plugin. Caller holds e.mu.
func (m *Manager) stop(e *entry) {
	if e.plugin == nil {
		return
	}
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	if err := e.plugin.Stop(ctx); err != nil {
		m.log.Warn("stopping toolset", "name", e.spec.Name, "err", err)
	}
	e.plugin = nil
}

// Close stops every plugin.
func (m *Manager) Close() {
	for _, name := range m.order {
		e := m.entries[name]
		e.mu.Lock()
		m.stop(e)
		e.mu.Unlock()
	}
}

// tools converts the toolset's declared tools into host tools. Caller holds e.mu.
func (m *Manager) tools(e *entry) []mcpserver.Tool {
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
	e.mu.Lock()
	defer e.mu.Unlock()
	if !e.enabled {
		return nil, envelope.Precondition(envelope.RequireToolsetEnabled, fmt.Sprintf("Toolset %q is disabled. Call godot_enable_toolset first.", e.spec.Name))
	}
	if e.plugin != nil && !e.plugin.Exited() {
		return e.plugin, nil
	}
	if e.plugin != nil { // it died since the last call
		e.state = StateCrashed
		m.stop(e) // releases the dead plugin's client and broker
	}
	if wait := time.Until(e.restartAt); wait > 0 {
		return nil, envelope.Errorf(envelope.InternalError, "Toolset %q crashed (%s) and restarts in %s; retry after that.", e.spec.Name, e.lastErr, wait.Round(100*time.Millisecond))
	}
	p, err := m.launch(ctx, e.spec)
	if err != nil {
		m.crashed(e, err.Error())
		return nil, envelope.Errorf(envelope.InternalError, "Toolset %q could not be restarted: %v. Retry later, or disable and enable it.", e.spec.Name, err)
	}
	m.log.Info("toolset restarted", "name", e.spec.Name)
	e.plugin, e.state = p, StateRunning
	return p, nil
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
		p, perr := m.running(ctx, e)
		if perr != nil {
			return mcpserver.Fail(perr)
		}
		ctx, cancel := context.WithTimeout(ctx, m.callTimeout)
		defer cancel()
		res := p.Call(ctx, pluginhost.CallRequest{
			Tool: tool, Arguments: call.Arguments, DryRun: call.DryRun, Confirm: call.Confirm, ProgressToken: call.ProgressToken, CallID: call.CallID,
		})
		e.mu.Lock()
		ours := e.plugin == p // false: disabled or replaced by the host meanwhile
		crashed := ours && p.Exited()
		if crashed {
			m.crashed(e, "the plugin process exited during "+call.Tool)
			m.stop(e) // releases the dead plugin's client and broker
		}
		e.mu.Unlock()
		if !ours && res.Err != nil {
			res.Err = envelope.Precondition(envelope.RequireToolsetEnabled, fmt.Sprintf("Toolset %q was disabled while %s ran; the call may not have completed. Enable it again and retry.", e.spec.Name, call.Tool))
		} else if crashed {
			if res.Err == nil || res.Err.Code != envelope.InternalError {
				res.Err = envelope.Errorf(envelope.InternalError, "Toolset %q crashed during %s; it restarts on the next call. Retry once.", e.spec.Name, call.Tool)
			}
		} else if ctx.Err() != nil && res.Err != nil && ctx.Err() == context.DeadlineExceeded {
			// Hung: kill it so the next call gets a fresh plugin.
			e.mu.Lock()
			if e.plugin == p {
				m.stop(e)
				m.crashed(e, "the plugin hung during "+call.Tool)
			}
			e.mu.Unlock()
			res.Err = envelope.Errorf(envelope.InternalError, "Toolset %q did not answer %s within %s and was restarted. Retry once; if it hangs again, report it.", e.spec.Name, call.Tool, m.callTimeout)
		}
		return mcpserver.Result{Structured: res.Structured, Content: convertContent(res.Content), Err: res.Err}
	}
}

func convertContent(in []pluginhost.Content) []mcpserver.Content {
	if len(in) == 0 {
		return nil
	}
	out := make([]mcpserver.Content, len(in))
	for i, c := range in {
		out[i] = mcpserver.Content{Type: c.Type, Text: c.Text, MimeType: c.MimeType, Data: c.Data, URI: c.URI}
	}
	return out
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
func SurfaceFromInfo(info pluginhost.ToolsetInfo) mcpserver.SurfaceToolset {
	e := &entry{spec: pluginhost.Spec{Name: info.Name}, info: &info}
	var m Manager
	st := mcpserver.SurfaceToolset{Name: info.Name, Description: info.Description, MinGodot: info.MinGodot}
	for _, t := range m.tools(e) {
		st.Tools = append(st.Tools, t.Def)
	}
	return st
}
