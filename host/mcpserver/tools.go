package mcpserver

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"sort"

	"github.com/godot-mcp/godot-mcp/host/safety"
	"github.com/godot-mcp/godot-mcp/internal/plugmodel"
	"github.com/godot-mcp/godot-mcp/internal/rawjson"
	"github.com/godot-mcp/godot-mcp/internal/schema"
	"github.com/godot-mcp/godot-mcp/sdk/contract"
)

// ToolDef is a tool as the host serves it, whoever implements it (the core or
// a toolset plugin). The host enforces Class, Preconditions and the schemas.
type ToolDef struct {
	// Name is the served name (godot_..., the toolset's prefix included).
	Name    string `json:"name"`
	Toolset string `json:"toolset"`
	// ToolMeta is what the tool declared (title, description, safety,
	// dry_run, confirm, preconditions, destructive_when, runs_code, ...),
	// as the SDK sent it. DryRun true means the implementation performs
	// dry_run itself; when false the host answers dry_run calls with its
	// own preview and never calls the implementation.
	contract.ToolMeta
	InputSchema  json.RawMessage `json:"input_schema"`
	OutputSchema json.RawMessage `json:"output_schema,omitempty"`
}

// Call is one invocation handed to an Executor after the host's checks:
// the plugin model's call request, with Tool the served name, Arguments
// the whole arguments object (dry_run/confirm included), ProgressToken the
// host-scoped token for Progress ("" when the client asked for none) and
// CallID the host-scoped id for LogCall.
type Call = plugmodel.CallRequest

// Content is an extra MCP content item: Type "text", "image", "audio" or
// "resource" (an embedded resource: URI, MimeType, Text or Data). It is the
// plugin model's, so that a toolset's content reaches the client as is.
type Content = plugmodel.Content

// Result is what an Executor returns: structured JSON (and Content), or Err.
// It is the plugin model's call result.
type Result = plugmodel.CallResult

// Executor runs a tool after the host's safety checks.
type Executor func(ctx context.Context, call Call) Result

// OK marshals v as a successful structured result.
func OK(v any) Result {
	raw, err := json.Marshal(v)
	if err != nil {
		return Fail(contract.Errorf(contract.InternalError, "could not encode the result: %v", err))
	}
	return Result{Structured: raw}
}

// Fail wraps an error as a Result.
func Fail(err *contract.Error) Result { return Result{Err: err} }

// registered is a ToolDef plus its parsed input schema and executor.
type registered struct {
	def   ToolDef
	decl  safety.Tool // what the safety pipeline checks
	input *schema.Schema
	exec  Executor
}

// SchemaFor generates a JSON Schema for T with the one schema engine
// (internal/schema) that toolsets' schemas come from too: fields without
// omitempty are required, `description:"..."` describes a field and
// `jsonschema:"..."` constrains it.
func SchemaFor[T any]() json.RawMessage { return schema.MustFor[T]().JSON() }

// InputSchemaFor is SchemaFor for a tool's arguments (a required slice is
// not nullable).
func InputSchemaFor[T any]() json.RawMessage { return schema.MustForInput[T]().JSON() }

// compileInput prepares the validator for a tool's (flag-injected) input schema.
func compileInput(raw json.RawMessage) (*schema.Schema, error) {
	s, err := schema.Parse(raw)
	if err != nil {
		return nil, fmt.Errorf("input schema: %w", err)
	}
	return s, nil
}

// validateArgs checks raw arguments (a JSON object or empty) against the
// tool's input schema, the one validation of a call: the refusal names every
// bad field with what it expected. It returns the arguments to run with
// (declared defaults filled in) and their members.
func validateArgs(tool string, s *schema.Schema, raw json.RawMessage) (json.RawMessage, map[string]json.RawMessage, *contract.Error) {
	trimmed := bytes.TrimSpace(raw)
	if len(trimmed) == 0 || string(trimmed) == "null" {
		trimmed = []byte("{}")
	}
	if trimmed[0] != '{' {
		return nil, nil, contract.Errorf(contract.ValidationError, "Arguments of %s must be a JSON object.", tool)
	}
	if s != nil {
		trimmed = applyAliases(s, trimmed)
		out, _, err := schema.Validate(s, trimmed)
		if err != nil {
			var ae *schema.ArgumentError
			if errors.As(err, &ae) {
				return nil, nil, &contract.Error{Code: contract.ValidationError, Hint: ae.Hint}
			}
			return nil, nil, contract.Errorf(contract.InternalError, "Arguments of %s: %v", tool, err)
		}
		trimmed = out
	}
	members, err := rawjson.Object(trimmed)
	if err != nil {
		return nil, nil, contract.Errorf(contract.ValidationError, "Arguments of %s are not valid JSON: %v", tool, err)
	}
	args := make(map[string]json.RawMessage, len(members))
	for _, m := range members {
		args[m.Key] = m.Value
	}
	return trimmed, args, nil
}

// safetyTool reads what host/safety needs of a definition.
func safetyTool(def ToolDef) (safety.Tool, error) {
	conds, err := contract.ParseConditions(def.DestructiveWhen)
	if err != nil {
		return safety.Tool{}, err
	}
	if len(conds) > 0 && def.Safety == contract.ReadOnly {
		return safety.Tool{}, fmt.Errorf("a read_only tool cannot be destructive_when %v", def.DestructiveWhen)
	}
	return safety.Tool{Name: def.Name, Class: def.Safety, DestructiveWhen: conds, RunsCode: def.RunsCode}, nil
}

func sortedDefs(m map[string]*registered) []ToolDef {
	out := make([]ToolDef, 0, len(m))
	for _, r := range m {
		out = append(out, r.def)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Name < out[j].Name })
	return out
}
