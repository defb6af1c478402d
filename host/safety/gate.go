package safety

import (
	"crypto/rand"
	"encoding/json"
	"fmt"
	"log/slog"
	"strings"
	"sync"

	"github.com/godot-mcp/godot-mcp/host/envelope"
	"github.com/godot-mcp/godot-mcp/sdk/contract"
)

// Lookup finds a command in the connected editor's command table: declared
// is false when the editor does not declare it; err is set when no editor
// is connected (the failure a send would answer).
type Lookup func(command string) (info envelope.CommandInfo, declared bool, err *contract.Error)

// Gate binds one toolset's editor commands to its live calls: a command is
// sent only for a call that is still running, and only when CheckSend
// allows it for that call. A refused command also fails its call: the
// toolset cannot swallow the refusal and answer ok.
type Gate struct {
	toolset string
	log     *slog.Logger

	mu    sync.Mutex
	calls map[string]*liveCall
}

type liveCall struct {
	call    SendCall
	refusal *contract.Error // the first refused command's
}

// NewGate returns the gate of toolset; refusals are logged to log (nil
// discards them).
func NewGate(toolset string, log *slog.Logger) *Gate {
	if log == nil {
		log = slog.New(slog.DiscardHandler)
	}
	return &Gate{toolset: toolset, log: log, calls: map[string]*liveCall{}}
}

// Begin registers a running call under id (a fresh id when id is empty or
// already running) and returns the id to hand the toolset, and end, which
// ends the call and returns the refusal of the first command it sent that
// was refused (nil when none was). Call end exactly once.
func (g *Gate) Begin(id string, call SendCall) (callID string, end func() *contract.Error) {
	call.Toolset = g.toolset
	g.mu.Lock()
	defer g.mu.Unlock()
	if _, taken := g.calls[id]; id == "" || taken {
		id = gateIDPrefix + rand.Text()
		for g.calls[id] != nil {
			id = gateIDPrefix + rand.Text()
		}
	}
	lc := &liveCall{call: call}
	g.calls[id] = lc
	return id, func() *contract.Error {
		g.mu.Lock()
		defer g.mu.Unlock()
		if g.calls[id] == lc {
			delete(g.calls, id)
		}
		return lc.refusal
	}
}

// gateIDPrefix starts the ids Begin makes up (followed by 128 random
// bits, like the MCP server's own call ids): a call cannot guess another's
// (#24.8).
const gateIDPrefix = "gate-"

// Live reports whether id is a call of this toolset that is still running:
// the only calls its log records may reach (#24.8). A toolset cannot reach
// another toolset's calls, or a call that has ended.
func (g *Gate) Live(id string) bool {
	if id == "" {
		return false
	}
	g.mu.Lock()
	defer g.mu.Unlock()
	return g.calls[id] != nil
}

// LiveProgress reports whether token is the progress token of a call of
// this toolset that is still running (#24.8).
func (g *Gate) LiveProgress(token string) bool {
	if token == "" {
		return false
	}
	g.mu.Lock()
	defer g.mu.Unlock()
	for _, lc := range g.calls {
		if lc.call.ProgressToken == token {
			return true
		}
	}
	return false
}

// GateMade reports whether id is one Begin made up (for a call the host
// gave no id, e.g. a resource read): no MCP request is known by it.
func GateMade(id string) bool { return strings.HasPrefix(id, gateIDPrefix) }

// Check decides one command the toolset sends for callID: it returns the
// params to send (see CheckSend) or the failure to answer instead. A
// command for a call that is not running, and one CheckSend refuses, are
// logged; the latter also fails its call (see Begin).
func (g *Gate) Check(callID, command string, params json.RawMessage, lookup Lookup) (json.RawMessage, *contract.Error) {
	g.mu.Lock()
	lc := g.calls[callID]
	var call SendCall
	if lc != nil {
		call = lc.call
	}
	g.mu.Unlock()
	if lc == nil {
		what := fmt.Sprintf("a call that has ended (id %q)", callID)
		if callID == "" {
			what = "no call (the command carries no call id: is the toolset built with an SDK older than the server? rebuild it)"
		}
		e := contract.Errorf(contract.ValidationError,
			"Toolset '%s' sent '%s' for %s: a toolset sends editor commands only while the call they serve runs. Nothing was sent to the editor. This is a bug in toolset '%s': report it to its author, or disable it with godot_disable_toolset.",
			g.toolset, command, what, g.toolset)
		g.log.Warn("refused a toolset's editor command outside its call", "toolset", g.toolset, "command", command, "call_id", callID)
		return nil, e
	}
	info, declared, lerr := lookup(command)
	if lerr != nil {
		return nil, lerr
	}
	out, refusal := CheckSend(call, command, info, declared, params)
	if refusal == nil {
		return out, nil
	}
	g.log.Warn("refused a toolset's editor command", "toolset", g.toolset, "tool", call.Tool, "class", string(call.Class),
		"dry_run", call.DryRun, "command", command, "command_class", info.Class, "declared", declared, "code", string(refusal.Code), "hint", refusal.Hint)
	g.mu.Lock()
	if lc.refusal == nil {
		lc.refusal = refusal
	}
	g.mu.Unlock()
	return nil, refusal
}
