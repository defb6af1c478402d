// Package safety enforces each tool's declared safety class in the host, so
// that no toolset can declare its way around dry_run, confirm or a
// precondition. The classes, the precondition names, the destructive_when
// grammar and the reserved arguments are sdk/contract's.
package safety

import (
	"encoding/json"
	"fmt"

	"github.com/godot-mcp/godot-mcp/sdk/contract"
)

// Flags are the safety arguments the host reads from a call.
type Flags struct {
	DryRun  bool
	Confirm bool
}

// ReadFlags pulls `dry_run` and `confirm` out of the arguments object.
// A present but non-boolean value is a VALIDATION_ERROR.
func ReadFlags(args map[string]json.RawMessage) (Flags, *contract.Error) {
	var f Flags
	for name, dst := range map[string]*bool{contract.ArgDryRun: &f.DryRun, contract.ArgConfirm: &f.Confirm} {
		raw, ok := args[name]
		if !ok || string(raw) == "null" {
			continue
		}
		if err := json.Unmarshal(raw, dst); err != nil {
			return Flags{}, contract.Errorf(contract.ValidationError, "`%s` must be true or false, got %s.", name, raw)
		}
	}
	return f, nil
}

// Check applies the class rules to a call: a destructive call that is not a
// dry run needs confirm; dry_run on a class that has no preview is refused.
func Check(tool string, c contract.Class, f Flags) *contract.Error {
	if f.DryRun && !c.TakesDryRun() {
		return contract.Errorf(contract.ValidationError, "%s is %s and has no dry_run preview; call it without dry_run.", tool, c)
	}
	if c.NeedsConfirm() && !f.DryRun && !f.Confirm {
		return contract.Precondition(contract.RequireConfirm,
			fmt.Sprintf("%s is destructive: call it again with confirm: true to proceed, or with dry_run: true to preview the effect first.", tool))
	}
	return nil
}

// InjectFlags adds the `dry_run` / `confirm` properties the class implies to an
// input schema (a JSON object schema). The host owns these, whatever the tool declared.
func InjectFlags(schema json.RawMessage, c contract.Class) (json.RawMessage, error) {
	if !c.TakesDryRun() {
		return schema, nil
	}
	var s map[string]any
	if len(schema) == 0 {
		s = map[string]any{"type": "object"}
	} else if err := json.Unmarshal(schema, &s); err != nil {
		return nil, fmt.Errorf("input schema: %w", err)
	}
	props, _ := s["properties"].(map[string]any)
	if props == nil {
		props = map[string]any{}
	}
	props[contract.ArgDryRun] = map[string]any{"type": "boolean", "description": "preview: change nothing"}
	if c.NeedsConfirm() {
		props[contract.ArgConfirm] = map[string]any{"type": "boolean", "description": "true to run it (destructive; not with dry_run)"}
	}
	s["properties"] = props
	return json.Marshal(s)
}
