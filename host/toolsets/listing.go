package toolsets

// Which toolsets exist and what they are: descriptions read in the
// background, the listing, the names agents see.

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"sort"
	"strings"
	"time"

	"github.com/godot-mcp/godot-mcp/host/mcpserver"
	"github.com/godot-mcp/godot-mcp/internal/plugmodel"
)

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

// servedName is the name agents see for a tool or prompt of e.
func (m *Manager) servedName(e *entry, name string) string {
	if m.unqualified != "" && e.spec.Name == m.unqualified && !strings.HasPrefix(name, "godot_") {
		return name
	}
	return QualifiedName(e.spec.Name, name)
}

// QualifiedName is the name agents see for a toolset's tool: godot_<toolset>_<tool>.
func QualifiedName(toolset, tool string) string { return "godot_" + toolset + "_" + tool }
