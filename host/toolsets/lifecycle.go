package toolsets

import (
	"context"
	"fmt"
	"slices"
	"time"

	"github.com/godot-mcp/godot-mcp/host/mcpserver"
	"github.com/godot-mcp/godot-mcp/internal/plugmodel"
	"github.com/godot-mcp/godot-mcp/sdk/contract"
)

// Processes follow use: a toolset enabled with a known description
// (Options.Lazy) has its tools served at once and its plugin started by its
// first call; a plugin that served no call for Options.IdleStop is stopped
// and started again, transparently, by the next one.

// Trust pins third-party executables (implemented by *trust.Store).
type Trust interface {
	// Check refuses (PRECONDITION_FAILED, required plugin_trusted) the
	// executable at path (of toolset name) when its SHA-256 is not the one
	// pinned for it. With no pin yet, record pins it (trust on first use:
	// an enable) and otherwise it passes unpinned (a describe).
	Check(name, path string, record bool) *contract.Error
	// Pinned is the SHA-256 pinned for the executable at path ("" when none).
	Pinned(path string) string
}

// loadStatic gives the built-in toolsets their in-process descriptions
// (Options.BuiltinInfo), once; every caller waits for the first.
func (m *Manager) loadStatic() {
	m.staticOnce.Do(func() {
		if m.builtinInfo == nil {
			return
		}
		infos := m.builtinInfo()
		for _, name := range m.builtins {
			info, ok := infos[name]
			if !ok {
				continue
			}
			e := m.entries[name]
			e.mu.Lock()
			if e.info == nil && e.plugin == nil && e.describing == nil {
				e.info, e.static = &info, true
			}
			e.mu.Unlock()
		}
	})
}

// checkTrust applies the pin of a third-party toolset (built-ins are the
// host binary itself and are not pinned).
func (m *Manager) checkTrust(e *entry, record bool) *contract.Error {
	if m.trust == nil || e.spec.BuiltIn {
		return nil
	}
	return m.trust.Check(e.spec.Name, e.spec.Path, record)
}

// knownInfo reports whether e's description is known for the executable
// stamp and may be served without starting its plugin (Options.Lazy).
// Caller holds e.mu.
func (m *Manager) knownInfo(e *entry, stamp fileStamp) bool {
	if !m.lazy || e.info == nil {
		return false
	}
	return e.static || (!e.failed && stamp == e.infoStamp && stamp != fileStamp{})
}

// enableLazy enables e from its known description without starting its
// plugin: the first call starts it. Caller holds e.op.
func (m *Manager) enableLazy(ctx context.Context, e *entry, godotVersion string, editorCode bool) (mcpserver.EnableOutcome, *contract.Error) {
	e.mu.Lock()
	info := *e.info
	e.mu.Unlock()
	name := e.spec.Name
	if c := m.nameConflict(e, &info); c != "" {
		return mcpserver.EnableOutcome{}, contract.Errorf(contract.ValidationError, "Toolset %q cannot be enabled: %s.", name, c)
	}
	if m.ctx.Err() != nil {
		return mcpserver.EnableOutcome{}, contract.Errorf(contract.InternalError, "The server is shutting down; toolset %q was not enabled.", name)
	}
	// The editor code is installed now: the editor runs it, not the plugin.
	if editorCode {
		if perr := m.ensureEditorCode(ctx, info); perr != nil {
			perr.Hint = fmt.Sprintf("Toolset %q was not enabled: %s", name, perr.Hint)
			return mcpserver.EnableOutcome{}, perr
		}
	}
	e.mu.Lock()
	defer e.mu.Unlock()
	if v := m.godot.Load(); v != nil && *v != "" {
		godotVersion = *v
	}
	if reason := incompatible(name, info.MinGodot, godotVersion); reason != "" {
		e.state, e.lastErr = StateIncompatible, reason
		return mcpserver.EnableOutcome{}, contract.Precondition(contract.RequireGodotVersion, reason+" Open the project in a newer Godot.")
	}
	e.enabled, e.state, e.lastErr, e.backoff, e.failed = true, StateIdle, "", 0, false
	e.restartAt = time.Time{}
	return mcpserver.EnableOutcome{Tools: m.tools(e), Resources: m.resources(e), Prompts: m.prompts(e)}, nil
}

// sameSurface reports whether a plugin that started describes what e was
// enabled with (tool names and classes, resources, prompts): its tools are
// already served under that description.
func sameSurface(served, started plugmodel.ToolsetInfo) bool {
	if len(served.Tools) != len(started.Tools) || len(served.Prompts) != len(started.Prompts) ||
		len(served.Resources) != len(started.Resources) || len(served.ResourceTemplates) != len(started.ResourceTemplates) {
		return false
	}
	for i, t := range served.Tools {
		if t.Name != started.Tools[i].Name || t.Safety != started.Tools[i].Safety {
			return false
		}
	}
	for i, p := range served.Prompts {
		if p.Name != started.Prompts[i].Name {
			return false
		}
	}
	uris := func(rs []plugmodel.ResourceInfo) []string {
		var out []string
		for _, r := range rs {
			out = append(out, r.URI)
		}
		return out
	}
	return slices.Equal(uris(served.Resources), uris(started.Resources)) &&
		slices.Equal(uris(served.ResourceTemplates), uris(started.ResourceTemplates))
}

// use marks a call of e as under way (before its plugin is looked up or
// started), so that an idle stop never takes the plugin from under it; the
// returned func ends it.
func (m *Manager) use(e *entry) func() {
	e.mu.Lock()
	e.inflight++
	e.mu.Unlock()
	return func() {
		e.mu.Lock()
		defer e.mu.Unlock()
		e.inflight--
		e.lastUsed = time.Now()
		m.armIdle(e)
	}
}

// armIdle (re)starts e's idle timer. Caller holds e.mu.
func (m *Manager) armIdle(e *entry) {
	if m.idleStop <= 0 || e.inflight > 0 || e.plugin == nil {
		return
	}
	if e.idle == nil {
		e.idle = time.AfterFunc(m.idleStop, func() { m.idleCheck(e) })
		return
	}
	e.idle.Reset(m.idleStop)
}

// idleCheck stops e's plugin when it served no call for IdleStop. It holds
// e.op across the stop, so that Close and a restart wait for it.
func (m *Manager) idleCheck(e *entry) {
	e.op.Lock()
	defer e.op.Unlock()
	if m.ctx.Err() != nil {
		return
	}
	e.mu.Lock()
	if !e.enabled || e.plugin == nil || e.inflight > 0 {
		e.mu.Unlock()
		return
	}
	if wait := m.idleStop - time.Since(e.lastUsed); wait > 0 {
		e.idle.Reset(wait) // used meanwhile
		e.mu.Unlock()
		return
	}
	p := m.detach(e)
	if e.state == StateRunning {
		e.state = StateIdle
	}
	e.mu.Unlock()
	m.log.Info("toolset stopped after being idle; its next call starts it", "name", e.spec.Name, "idle", m.idleStop)
	m.release(p)
}

// pidOf is p's process id, 0 for a toolset in this process.
func pidOf(p Plugin) int {
	if withPid, ok := p.(interface{ Pid() int }); ok {
		return withPid.Pid()
	}
	return 0
}

// Changed says, for an enabled third-party toolset whose executable is not
// the one its tools were read from, what changed ("" when nothing did, or
// for a built-in, which is this binary). A changed executable that is not
// trusted is refused here (required: plugin_trusted), before anything is
// stopped. godot_enable_toolset then restarts the toolset from the new file.
func (m *Manager) Changed(name string) (string, *contract.Error) {
	m.loadStatic()
	e, ok := m.entries[name]
	if !ok {
		return "", nil
	}
	e.mu.Lock()
	enabled, builtIn, was := e.enabled, e.spec.BuiltIn || e.static, e.infoStamp
	e.mu.Unlock()
	if !enabled || builtIn || was == (fileStamp{}) {
		return "", nil
	}
	now := stampOf(e.spec.Path)
	if now == (fileStamp{}) || now == was {
		return "", nil
	}
	if err := m.checkTrust(e, false); err != nil {
		return "", err
	}
	return fmt.Sprintf("its executable %s changed (%d bytes, modified %s; was %d bytes, modified %s)",
		e.spec.Path, now.size, now.mtime.UTC().Format(time.RFC3339), was.size, was.mtime.UTC().Format(time.RFC3339)), nil
}
