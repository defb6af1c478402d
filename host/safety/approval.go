package safety

import (
	"encoding/json"
	"fmt"
	"regexp"
	"strconv"
	"strings"

	"github.com/godot-mcp/godot-mcp/host/envelope"
)

// Condition is one entry of a tool's DestructiveWhen: a condition on one
// call's arguments under which that call destroys or overwrites though the
// tool's class does not say so. Written "overwrite" (a boolean argument that
// is true) or "count>1" (a number argument above a bound).
type Condition struct {
	Arg   string
	Above *float64 // nil: Arg is a boolean that must be true
}

var conditionRE = regexp.MustCompile(`^([a-z][a-z0-9_]{0,63})(?:>(-?[0-9]+(?:\.[0-9]+)?))?$`)

// ParseCondition reads "name" or "name>N".
func ParseCondition(s string) (Condition, error) {
	m := conditionRE.FindStringSubmatch(s)
	if m == nil {
		return Condition{}, fmt.Errorf("destructive_when %q: want an argument name (a boolean that is true) or name>N (a number above N)", s)
	}
	c := Condition{Arg: m[1]}
	if m[2] != "" {
		n, err := strconv.ParseFloat(m[2], 64)
		if err != nil {
			return Condition{}, fmt.Errorf("destructive_when %q: %v", s, err)
		}
		c.Above = &n
	}
	return c, nil
}

// ParseConditions reads every entry of a DestructiveWhen list.
func ParseConditions(list []string) ([]Condition, error) {
	var out []Condition
	for _, s := range list {
		c, err := ParseCondition(s)
		if err != nil {
			return nil, err
		}
		out = append(out, c)
	}
	return out, nil
}

func (c Condition) String() string {
	if c.Above == nil {
		return c.Arg
	}
	return c.Arg + ">" + strconv.FormatFloat(*c.Above, 'f', -1, 64)
}

// Holds reports whether the call's arguments meet the condition.
func (c Condition) Holds(args map[string]json.RawMessage) bool {
	raw, ok := args[c.Arg]
	if !ok {
		return false
	}
	if c.Above == nil {
		var b bool
		return json.Unmarshal(raw, &b) == nil && b
	}
	var n float64
	return json.Unmarshal(raw, &n) == nil && n > *c.Above
}

// Tool is what the host's safety pipeline knows of one tool.
type Tool struct {
	Name  string
	Class Class
	// DestructiveWhen: conditions that make one call of a non-destructive
	// tool destructive (see Condition).
	DestructiveWhen []Condition
	// RunsCode: the tool can make code run (writes a script, registers an
	// autoload, starts a game); counted under the approval scope "code".
	RunsCode bool
}

// destructiveCondition returns the first DestructiveWhen condition the call meets.
func (t Tool) destructiveCondition(args map[string]json.RawMessage) (Condition, bool) {
	for _, c := range t.DestructiveWhen {
		if c.Holds(args) {
			return c, true
		}
	}
	return Condition{}, false
}

// Destructive reports whether this call destroys or overwrites: the tool's
// class says so, one of its DestructiveWhen conditions holds, or the caller
// confirmed it (confirm: true is what a tool such as a batch with a
// delete step asks for before it destroys anything).
func (t Tool) Destructive(args map[string]json.RawMessage, f Flags) bool {
	if t.Class == Destructive || f.Confirm {
		return true
	}
	_, ok := t.destructiveCondition(args)
	return ok
}

// CheckCall applies Check, and refuses a call that a DestructiveWhen
// condition makes destructive unless it is confirmed or a dry run.
func CheckCall(t Tool, args map[string]json.RawMessage, f Flags) *envelope.Error {
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
		return envelope.Precondition(envelope.RequireConfirm,
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
	case s.Writes && t.Class == Mutating:
		return ReasonWrite
	}
	return ""
}

// InjectFlagsFor is InjectFlags for a tool: a tool with DestructiveWhen
// conditions also gets `confirm`, which such calls need.
func InjectFlagsFor(schema json.RawMessage, t Tool) (json.RawMessage, error) {
	if len(t.DestructiveWhen) == 0 || t.Class == Destructive {
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
	if _, declared := props["confirm"]; !declared {
		props["confirm"] = map[string]any{"type": "boolean", "description": "true when the call destroys or overwrites (" + strings.Join(conds, ", ") + "); not with dry_run"}
	}
	s["properties"] = props
	return json.Marshal(s)
}
