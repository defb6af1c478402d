package safety

import (
	"encoding/json"
	"fmt"
	"strconv"
	"strings"

	"github.com/godot-mcp/godot-mcp/sdk/contract"
)

// Tool is what the host's safety pipeline knows of one tool.
type Tool struct {
	Name  string
	Class contract.Class
	// DestructiveWhen: conditions that make one call of a non-destructive
	// tool destructive (see contract.Condition).
	DestructiveWhen []contract.Condition
	// RunsCode: the tool can make code run (writes a script, registers an
	// autoload, starts a game); counted under the approval scope "code".
	RunsCode bool
}

// destructiveCondition returns the first DestructiveWhen condition the call meets.
func (t Tool) destructiveCondition(args map[string]json.RawMessage) (contract.Condition, bool) {
	for _, c := range t.DestructiveWhen {
		if c.Holds(args) {
			return c, true
		}
	}
	return contract.Condition{}, false
}

// Destructive reports whether this call destroys or overwrites: the tool's
// class says so, one of its DestructiveWhen conditions holds, or the caller
// confirmed it (confirm: true is what a tool such as a batch with a
// delete step asks for before it destroys anything).
func (t Tool) Destructive(args map[string]json.RawMessage, f Flags) bool {
	if t.Class == contract.Destructive || f.Confirm {
		return true
	}
	_, ok := t.destructiveCondition(args)
	return ok
}

// CheckCall applies Check, and refuses a call that a DestructiveWhen
// condition makes destructive unless it is confirmed or a dry run.
func CheckCall(t Tool, args map[string]json.RawMessage, f Flags) *contract.Error {
	if err := Check(t.Name, t.Class, f); err != nil {
		return err
	}
	if f.DryRun || f.Confirm {
		return nil
	}
	if c, ok := t.destructiveCondition(args); ok {
		what := "`" + c.Arg + ": true`"
		if c.Above != nil {
			what = fmt.Sprintf("`%s` above %s", c.Arg, strconv.FormatFloat(*c.Above, 'f', -1, 64))
		}
		return contract.Precondition(contract.RequireConfirm,
			fmt.Sprintf("%s with %s destroys or overwrites: call it again with confirm: true to proceed, or with dry_run: true to preview the effect first.", t.Name, what))
	}
	return nil
}

// Scope says which calls the approver (GODOT_MCP_APPROVAL) is asked about.
// Destructive calls always are; Writes adds every other mutating call, Code
// every call of a tool that can make code run.
type Scope struct {
	Writes, Code bool
}

// The approval scope's words (GODOT_MCP_APPROVAL_SCOPE).
const (
	ScopeDestructive = "destructive"
	ScopeWrites      = "writes"
	ScopeCode        = "code"
	ScopeAll         = "all"
)

// ParseScope reads a comma-separated GODOT_MCP_APPROVAL_SCOPE: destructive
// (always included), writes, code, or all.
func ParseScope(s string) (Scope, error) {
	var sc Scope
	for _, w := range strings.Split(s, ",") {
		switch strings.ToLower(strings.TrimSpace(w)) {
		case "", ScopeDestructive:
		case ScopeWrites:
			sc.Writes = true
		case ScopeCode:
			sc.Code = true
		case ScopeAll:
			sc.Writes, sc.Code = true, true
		default:
			return Scope{}, fmt.Errorf("%q: want a comma-separated list of destructive, writes, code (or all)", w)
		}
	}
	return sc, nil
}

func (s Scope) String() string {
	words := []string{ScopeDestructive}
	if s.Writes {
		words = append(words, ScopeWrites)
	}
	if s.Code {
		words = append(words, ScopeCode)
	}
	return strings.Join(words, ",")
}

// Why a call needs approval.
const (
	ReasonDestructive = "destructive"
	ReasonWrite       = "write"
	ReasonCode        = "code"
)

// ApprovalReason says why this call must go through the approver, or ""
// when it need not. A dry run changes nothing and never needs approval.
func ApprovalReason(t Tool, args map[string]json.RawMessage, f Flags, s Scope) string {
	switch {
	case f.DryRun:
		return ""
	case t.Destructive(args, f):
		return ReasonDestructive
	case s.Code && t.RunsCode:
		return ReasonCode
	case s.Writes && t.Class == contract.Mutating:
		return ReasonWrite
	}
	return ""
}

// InjectFlagsFor is InjectFlags for a tool: a tool with DestructiveWhen
// conditions also gets `confirm`, which such calls need.
func InjectFlagsFor(schema json.RawMessage, t Tool) (json.RawMessage, error) {
	if len(t.DestructiveWhen) == 0 || t.Class == contract.Destructive {
		return InjectFlags(schema, t.Class)
	}
	out, err := InjectFlags(schema, t.Class)
	if err != nil {
		return nil, err
	}
	var s map[string]any
	if err := json.Unmarshal(out, &s); err != nil {
		return nil, fmt.Errorf("input schema: %w", err)
	}
	props, _ := s["properties"].(map[string]any)
	if props == nil {
		props = map[string]any{}
	}
	conds := make([]string, len(t.DestructiveWhen))
	for i, c := range t.DestructiveWhen {
		conds[i] = c.String()
	}
	if _, declared := props[contract.ArgConfirm]; !declared {
		props[contract.ArgConfirm] = map[string]any{"type": "boolean", "description": "true when the call destroys or overwrites (" + strings.Join(conds, ", ") + "); not with dry_run"}
	}
	s["properties"] = props
	return json.Marshal(s)
}
