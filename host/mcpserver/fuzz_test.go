package mcpserver

import (
	"bytes"
	"encoding/json"
	"testing"

	"github.com/godot-mcp/godot-mcp/host/safety"
	"github.com/godot-mcp/godot-mcp/internal/schema"
	"github.com/godot-mcp/godot-mcp/sdk/contract"
)

// fuzzTool is one input schema under fuzz, compiled as the host compiles it.
type fuzzTool struct {
	def      ToolDef
	resolved *schema.Schema
	props    map[string]bool // declared properties
	closed   bool            // additionalProperties: false
}

// fuzzTools returns the real core tools (sorted by name, input schemas with
// the host-injected dry_run/confirm) followed by a synthetic destructive
// tool, so that confirm handling is fuzzed too (the core has no
// destructive tool).
func fuzzTools(t testing.TB) []fuzzTool {
	t.Helper()
	defs := New(Options{}).Surface()
	destructive, err := safety.InjectFlags(json.RawMessage(
		`{"type":"object","properties":{"path":{"type":"string"}},"required":["path"],"additionalProperties":false}`), contract.Destructive)
	if err != nil {
		t.Fatal(err)
	}
	defs = append(defs, ToolDef{Name: "fuzz_delete_file", Toolset: "fuzz", InputSchema: destructive, ToolMeta: contract.ToolMeta{Safety: contract.Destructive}})
	out := make([]fuzzTool, 0, len(defs))
	for _, d := range defs {
		r, err := compileInput(d.InputSchema)
		if err != nil {
			t.Fatalf("%s: %v", d.Name, err)
		}
		var s struct {
			Properties           map[string]json.RawMessage `json:"properties"`
			AdditionalProperties *bool                      `json:"additionalProperties"`
		}
		if err := json.Unmarshal(d.InputSchema, &s); err != nil {
			t.Fatalf("%s: %v", d.Name, err)
		}
		ft := fuzzTool{def: d, resolved: r, props: map[string]bool{}, closed: s.AdditionalProperties != nil && !*s.AdditionalProperties}
		for k := range s.Properties {
			ft.props[k] = true
		}
		out = append(out, ft)
	}
	return out
}

// FuzzValidateArgs feeds arbitrary bytes as the arguments of a tool (picked
// by index) through the host's argument pipeline: validateArgs, then
// safety.ReadFlags and safety.Check. The seed corpus lives in
// testdata/fuzz/FuzzValidateArgs (index i picks tool i modulo the count:
// 0 describe_class … 7 undo, 8 the synthetic destructive tool).
//
// Properties:
//   - nothing panics;
//   - validateArgs returns either arguments or a VALIDATION_ERROR with a hint;
//   - accepted arguments are a JSON object (the raw input is an object, or
//     empty/null meaning {}), hold no property the schema forbids, and
//     re-encode to an object that is accepted again;
//   - for classes that take dry_run (the schema declares the flags as
//     booleans) ReadFlags never refuses arguments the schema accepted;
//   - Check refuses a destructive call without confirm or dry_run with a
//     PRECONDITION_FAILED naming confirm, and never refuses a read-only
//     call whose closed schema (no dry_run) accepted it.
func FuzzValidateArgs(f *testing.F) {
	tools := fuzzTools(f)
	f.Fuzz(func(t *testing.T, pick uint8, raw []byte) {
		tool := tools[int(pick)%len(tools)]
		name := tool.def.Name
		_, args, verr := validateArgs(name, tool.resolved, raw)
		if verr != nil {
			if args != nil {
				t.Fatalf("%s(%q): both arguments and an error", name, raw)
			}
			if verr.Code != contract.ValidationError || verr.Hint == "" {
				t.Fatalf("%s(%q): refused with %+v; want VALIDATION_ERROR with a hint", name, raw, verr)
			}
			return
		}
		if args == nil {
			t.Fatalf("%s(%q): accepted, but the arguments are nil", name, raw)
		}
		trimmed := bytes.TrimSpace(raw)
		if len(trimmed) != 0 && string(trimmed) != "null" && trimmed[0] != '{' {
			t.Fatalf("%s(%q): accepted a value that is not a JSON object", name, raw)
		}
		if tool.closed {
			for k := range args {
				if !tool.props[k] {
					t.Fatalf("%s(%q): accepted the undeclared property %q (additionalProperties is false)", name, raw, k)
				}
			}
		}
		again, err := json.Marshal(args)
		if err != nil {
			t.Fatalf("%s(%q): accepted arguments do not re-encode: %v", name, raw, err)
		}
		if _, _, verr := validateArgs(name, tool.resolved, again); verr != nil {
			t.Fatalf("%s(%q): accepted, but the re-encoded %s is refused: %+v", name, raw, again, verr)
		}

		flags, ferr := safety.ReadFlags(args)
		if ferr != nil {
			if ferr.Code != contract.ValidationError || ferr.Hint == "" {
				t.Fatalf("%s(%q): ReadFlags refused with %+v; want VALIDATION_ERROR with a hint", name, raw, ferr)
			}
			if tool.def.Safety.TakesDryRun() {
				t.Fatalf("%s(%q): the schema accepted the flags but ReadFlags refused them: %+v", name, raw, ferr)
			}
			return
		}
		cerr := safety.Check(name, tool.def.Safety, flags)
		switch {
		case tool.def.Safety.NeedsConfirm() && !flags.DryRun && !flags.Confirm:
			if cerr == nil || cerr.Code != contract.PreconditionFailed || cerr.Required != contract.RequireConfirm {
				t.Fatalf("%s(%q): destructive call without confirm: Check gave %+v; want PRECONDITION_FAILED required=confirm", name, raw, cerr)
			}
		case tool.def.Safety == contract.ReadOnly && tool.closed && !tool.props["dry_run"]:
			if cerr != nil {
				t.Fatalf("%s(%q): read-only call the schema accepted was refused by Check: %+v", name, raw, cerr)
			}
		case cerr != nil && cerr.Hint == "":
			t.Fatalf("%s(%q): Check refused without a hint: %+v", name, raw, cerr)
		}
	})
}
