package mcpserver

// The tool registry: the tools served (core and toolsets'), added and
// removed as toolsets are enabled and disabled, with their compiled schemas.

import (
	"encoding/json"
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/mark3labs/mcp-go/mcp"
	"github.com/mark3labs/mcp-go/server"

	"github.com/godot-mcp/godot-mcp/host/safety"
	"github.com/godot-mcp/godot-mcp/internal/schema"
	"github.com/godot-mcp/godot-mcp/sdk/contract"
)

// Tool pairs a definition with its executor.
type Tool struct {
	Def  ToolDef
	Exec Executor
}

// NameTakenError is AddTools' refusal of a tool name that another toolset
// (or the core) already serves: names are never taken over.
type NameTakenError struct {
	Tool, Toolset, Owner string
}

func (e *NameTakenError) Error() string {
	owner := "toolset " + strconv.Quote(e.Owner)
	if e.Owner == CoreToolset {
		owner = "the core"
	}
	return fmt.Sprintf("tool %s of toolset %q is already served by %s", e.Tool, e.Toolset, owner)
}

// AddTools registers tools (replacing same-named ones of the same toolset)
// and notifies clients with notifications/tools/list_changed. A name that
// another toolset or the core serves is refused with *NameTakenError, and
// nothing is added.
func (s *Server) AddTools(tools ...Tool) error {
	staged := make([]*registered, 0, len(tools))
	served := make([]server.ServerTool, 0, len(tools))
	seen := make(map[string]bool, len(tools))
	for _, t := range tools {
		def := t.Def
		if seen[def.Name] {
			return fmt.Errorf("tool %s is declared twice", def.Name)
		}
		seen[def.Name] = true
		if !def.Safety.Valid() {
			return fmt.Errorf("tool %s: unknown safety class %q", def.Name, def.Safety)
		}
		decl, err := safetyTool(def)
		if err != nil {
			return fmt.Errorf("tool %s: %w", def.Name, err)
		}
		for _, p := range def.Preconditions {
			if !slices.Contains(contract.Preconditions, p) {
				return fmt.Errorf("tool %s: unknown precondition %q (known: %s)", def.Name, p, strings.Join(contract.Preconditions, ", "))
			}
		}
		input, err := safety.InjectFlagsFor(def.InputSchema, decl)
		if err != nil {
			return fmt.Errorf("tool %s: %w", def.Name, err)
		}
		def.InputSchema = input
		resolved, err := s.compileCached(input)
		if err != nil {
			return fmt.Errorf("tool %s: %w", def.Name, err)
		}
		reg := &registered{def: def, decl: decl, input: resolved, exec: t.Exec}
		staged = append(staged, reg)
		served = append(served, server.ServerTool{Tool: mcpTool(def, s.cfg.OutputSchemaSummary), Handler: s.handler(reg)})
	}
	s.addMu.Lock()
	defer s.addMu.Unlock()
	s.mu.RLock()
	for _, r := range staged {
		if old, taken := s.tools[r.def.Name]; taken && old.def.Toolset != r.def.Toolset {
			s.mu.RUnlock()
			return &NameTakenError{Tool: r.def.Name, Toolset: r.def.Toolset, Owner: old.def.Toolset}
		}
	}
	s.mu.RUnlock()
	// mcp-go first: the start hold (awaitStart) lets a call through as soon
	// as its tool is in s.tools, and mcp-go must find it then; published the
	// other way round, a call in between was answered "tool not found"
	// (TestBinaryApprovalScope, once enabling stopped starting a process).
	s.mcp.AddTools(served...)
	s.mu.Lock()
	for _, r := range staged {
		s.tools[r.def.Name] = r
	}
	s.mu.Unlock()
	return nil
}

// compileCached is compileInput, once per distinct schema.
func (s *Server) compileCached(input json.RawMessage) (*schema.Schema, error) {
	if c, ok := s.compiled.Load(string(input)); ok {
		return c.(*schema.Schema), nil
	}
	c, err := compileInput(input)
	if err == nil {
		s.compiled.Store(string(input), c)
	}
	return c, err
}

// toolsOf keeps the names that toolset serves (disabling one toolset never
// removes another's tool, nor a core tool).
func (s *Server) toolsOf(toolset string, names []string) []string {
	s.mu.RLock()
	defer s.mu.RUnlock()
	var out []string
	for _, n := range names {
		if r, ok := s.tools[n]; ok && r.def.Toolset == toolset {
			out = append(out, n)
		}
	}
	return out
}

// RemoveTools unregisters tools by name and notifies clients.
func (s *Server) RemoveTools(names ...string) {
	if len(names) == 0 {
		return
	}
	s.mu.Lock()
	for _, n := range names {
		delete(s.tools, n)
	}
	s.mu.Unlock()
	s.mcp.DeleteTools(names...)
}

// Surface lists every registered tool, sorted by name.
func (s *Server) Surface() []ToolDef {
	s.mu.RLock()
	defer s.mu.RUnlock()
	return sortedDefs(s.tools)
}

func boolPtr(b bool) *bool { return &b }

func mcpTool(def ToolDef, outputSummary bool) mcp.Tool {
	a := def.Safety.Annotations()
	if len(def.DestructiveWhen) > 0 {
		a.Destructive = true // some calls destroy or overwrite
	}
	t := mcp.Tool{
		Name:           def.Name,
		Title:          def.Title,
		Description:    def.Description,
		RawInputSchema: def.InputSchema,
		// The title is the tool's own (above): annotations.title would
		// repeat it. readOnlyHint and openWorldHint are always explicit;
		// destructiveHint and idempotentHint mean something only for a tool
		// that is not read-only (MCP), so only such tools carry them,
		// destructiveHint always (a client that took a missing one for
		// false would under-warn) and idempotentHint when true (false is
		// the default).
		Annotations: mcp.ToolAnnotation{
			ReadOnlyHint:  boolPtr(a.ReadOnly),
			OpenWorldHint: boolPtr(a.OpenWorld),
		},
	}
	if outputSummary {
		t.RawOutputSchema = wireOutputSchema(def.OutputSchema)
	}
	if !a.ReadOnly {
		t.Annotations.DestructiveHint = boolPtr(a.Destructive)
		if a.Idempotent {
			t.Annotations.IdempotentHint = boolPtr(true)
		}
	}
	return t
}
