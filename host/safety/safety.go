// Package safety enforces each tool's declared safety class in the host, so
// that no toolset can declare its way around dry_run, confirm or a
// precondition.
package safety

import (
	"encoding/json"
	"fmt"

	"github.com/godot-mcp/godot-mcp/host/envelope"
)

// Class is a tool's safety class.
type Class string

// The four classes of the tool surface.
const (
	ReadOnly    Class = "read_only"
	Mutating    Class = "mutating"
	Destructive Class = "destructive"
	Runtime     Class = "runtime"
)

// Valid reports whether c is a known class.
func (c Class) Valid() bool {
	switch c {
	case ReadOnly, Mutating, Destructive, Runtime:
		return true
	}
	return false
}

// TakesDryRun reports whether tools of this class accept `dry_run`.
func (c Class) TakesDryRun() bool { return c == Mutating || c == Destructive }

// NeedsConfirm reports whether tools of this class refuse without `confirm: true`.
func (c Class) NeedsConfirm() bool { return c == Destructive }

// Annotations are the four MCP tool hints derived from a class.
type Annotations struct {
	ReadOnly, Destructive, Idempotent, OpenWorld bool
}

// Annotations derives every MCP hint from the class; nothing is left to a library default.
func (c Class) Annotations() Annotations {
	switch c {
	case ReadOnly:
		return Annotations{ReadOnly: true, Idempotent: true}
	case Mutating:
		return Annotations{}
	case Destructive:
		return Annotations{Destructive: true}
	default: // Runtime acts on a running game, outside the project files.
		return Annotations{OpenWorld: true}
	}
}

// Preconditions are the names a tool may declare (ToolDef.Preconditions,
// sdk.ToolOptions.Preconditions); the host refuses to serve a tool that
// declares any other. The host checks bridge_connected and project_dir
// itself before the call (and lists godot_binary tools as unavailable
// when no Godot is found; the tool checks it when it starts Godot); the editor command checks active_scene,
// runtime_probe, game_not_breaked and godot_version as part of its work (no
// round trip of its own); confirm is the class rule (CheckCall).
var Preconditions = []string{
	envelope.RequireActiveScene, envelope.RequireConfirm, envelope.RequireBridgeConnected, envelope.RequireRuntimeProbe,
	envelope.RequireGameNotBreaked, envelope.RequireGodotVersion, envelope.RequireProjectDir, envelope.RequireGodotBinary,
}

// Flags are the safety arguments the host reads from a call.
type Flags struct {
	DryRun  bool
	Confirm bool
}

// ReadFlags pulls `dry_run` and `confirm` out of the arguments object.
// A present but non-boolean value is a VALIDATION_ERROR.
func ReadFlags(args map[string]json.RawMessage) (Flags, *envelope.Error) {
	var f Flags
	for name, dst := range map[string]*bool{"dry_run": &f.DryRun, "confirm": &f.Confirm} {
		raw, ok := args[name]
		if !ok || string(raw) == "null" {
			continue
		}
		if err := json.Unmarshal(raw, dst); err != nil {
			return Flags{}, envelope.Errorf(envelope.ValidationError, "`%s` must be true or false, got %s.", name, raw)
		}
	}
	return f, nil
}

// Check applies the class rules to a call: a destructive call that is not a
// dry run needs confirm; dry_run on a class that has no preview is refused.
func Check(tool string, c Class, f Flags) *envelope.Error {
	if f.DryRun && !c.TakesDryRun() {
		return envelope.Errorf(envelope.ValidationError, "%s is %s and has no dry_run preview; call it without dry_run.", tool, c)
	}
	if c.NeedsConfirm() && !f.DryRun && !f.Confirm {
		return envelope.Precondition(envelope.RequireConfirm,
			fmt.Sprintf("%s is destructive: call it again with confirm: true to proceed, or with dry_run: true to preview the effect first.", tool))
	}
	return nil
}

// InjectFlags adds the `dry_run` / `confirm` properties the class implies to an
// input schema (a JSON object schema). The host owns these, whatever the tool declared.
func InjectFlags(schema json.RawMessage, c Class) (json.RawMessage, error) {
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
	props["dry_run"] = map[string]any{"type": "boolean", "description": "preview: change nothing"}
	if c.NeedsConfirm() {
		props["confirm"] = map[string]any{"type": "boolean", "description": "true to run it (destructive; not with dry_run)"}
	}
	s["properties"] = props
	return json.Marshal(s)
}
