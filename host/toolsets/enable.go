package toolsets

// Enabling and disabling toolsets, and the editor's Godot version they need.

import (
	"context"
	"fmt"
	"time"

	"github.com/godot-mcp/godot-mcp/host/mcpserver"
	"github.com/godot-mcp/godot-mcp/internal/plugmodel"
	"github.com/godot-mcp/godot-mcp/sdk/contract"
)

// Enable starts the toolset's plugin, installs its editor code and returns
// its tools. It retries a toolset whose start or describe failed before.
func (m *Manager) Enable(ctx context.Context, name, godotVersion string) (mcpserver.EnableOutcome, *contract.Error) {
	return m.enable(ctx, name, godotVersion, true)
}

// EnableStaged is Enable without installing the toolset's editor code: the
// caller installs it (InstallEditorCode) once it accepted every toolset it
// enables together, or takes the toolset back with AbortStaged.
func (m *Manager) EnableStaged(ctx context.Context, name, godotVersion string) (mcpserver.EnableOutcome, *contract.Error) {
	return m.enable(ctx, name, godotVersion, false)
}

// InstallEditorCode has the editor run the enabled toolset's editor code.
func (m *Manager) InstallEditorCode(ctx context.Context, name string) *contract.Error {
	e, ok := m.entries[name]
	if !ok {
		return contract.Errorf(contract.ValidationError, "Unknown toolset %q.", name)
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

func (m *Manager) enable(ctx context.Context, name, godotVersion string, editorCode bool) (mcpserver.EnableOutcome, *contract.Error) {
	m.loadStatic()
	e, ok := m.entries[name]
	if !ok {
		return mcpserver.EnableOutcome{}, contract.Errorf(contract.ValidationError, "Unknown toolset %q.", name)
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
		return mcpserver.EnableOutcome{}, contract.Errorf(contract.ValidationError, "Toolset %q cannot be enabled: %s.", name, c)
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
		return mcpserver.EnableOutcome{}, contract.Errorf(contract.InternalError, "The server is shutting down; toolset %q was not enabled.", name)
	}
	if c := m.nameConflict(e, &info); c != "" {
		m.release(p)
		e.mu.Lock()
		e.info, e.infoStamp, e.state = &info, stamp, prev
		e.mu.Unlock()
		return mcpserver.EnableOutcome{}, contract.Errorf(contract.ValidationError, "Toolset %q cannot be enabled: %s.", name, c)
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
		return mcpserver.EnableOutcome{}, contract.Precondition(contract.RequireGodotVersion, reason+" Open the project in a newer Godot.")
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
func (m *Manager) Disable(ctx context.Context, name string) (mcpserver.DisableOutcome, *contract.Error) {
	return m.disable(ctx, name, true)
}

func (m *Manager) disable(ctx context.Context, name string, editorCode bool) (mcpserver.DisableOutcome, *contract.Error) {
	e, ok := m.entries[name]
	if !ok {
		return mcpserver.DisableOutcome{}, contract.Errorf(contract.ValidationError, "Unknown toolset %q.", name)
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

// ensureEditorCode has the editor run info's editor code (nil when the
// toolset ships none or no installer is configured).
func (m *Manager) ensureEditorCode(ctx context.Context, info plugmodel.ToolsetInfo) *contract.Error {
	if m.editorCode == nil || len(info.EditorFiles) == 0 {
		return nil
	}
	return m.editorCode.Ensure(ctx, info)
}
