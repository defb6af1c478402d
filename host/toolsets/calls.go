package toolsets

// Calls: the tools a toolset serves, the running plugin they reach
// (restarted after a crash, with backoff), and what a call that crashed or
// hung does to it.

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"sync"
	"time"

	"github.com/godot-mcp/godot-mcp/host/mcpserver"
	"github.com/godot-mcp/godot-mcp/host/pluginhost"
	"github.com/godot-mcp/godot-mcp/internal/plugmodel"
	"github.com/godot-mcp/godot-mcp/sdk/contract"
)

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
		def := mcpserver.DefFromInfo(e.spec.Name, m.servedName(e, t.Name), t)
		out = append(out, mcpserver.Tool{Def: def, Exec: m.executor(e, t.Name)})
	}
	return out
}

// running returns the live plugin, restarting a crashed one (with backoff).
func (m *Manager) running(ctx context.Context, e *entry) (Plugin, *contract.Error) {
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
		return nil, contract.Precondition(contract.RequireToolsetEnabled, fmt.Sprintf("Toolset %q was disabled. Call godot_enable_toolset first.", e.spec.Name))
	}
	if e.info != nil && !sameSurface(*e.info, p.Info()) {
		go m.release(p)
		e.lastErr = "its executable changed since it was enabled: it now declares other tools"
		return nil, contract.Errorf(contract.InternalError, "Toolset %q changed on disk since it was enabled (it now declares other tools, resources or prompts); its tools were not run. Disable and enable it again to serve the new ones.", e.spec.Name)
	}
	m.log.Info("toolset "+verb, "name", e.spec.Name, "pid", pidOf(p))
	e.plugin, e.state, e.lastErr = p, StateRunning, ""
	return p, nil
}

// live returns e's running plugin; (nil, nil) means it must be
// (re)started now; an error means not now (disabled, or in its backoff).
func (m *Manager) live(e *entry) (Plugin, *contract.Error) {
	e.mu.Lock()
	if !e.enabled {
		e.mu.Unlock()
		return nil, contract.Precondition(contract.RequireToolsetEnabled, fmt.Sprintf("Toolset %q is disabled. Call godot_enable_toolset first.", e.spec.Name))
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
		return nil, contract.Errorf(contract.InternalError, "Toolset %q crashed (%s) and restarts in %s; retry after that.", e.spec.Name, why, roundUp(wait))
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
