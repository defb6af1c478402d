package mcpserver

// A call of a tool that is not served: a disabled toolset's tool is
// answered with the toolset to enable.

import (
	"context"
	"fmt"
	"slices"

	"github.com/mark3labs/mcp-go/mcp"

	"github.com/godot-mcp/godot-mcp/sdk/contract"
)

// ToolOwners is implemented by Toolsets that can name the toolset of a tool
// that is not served (its toolset is not enabled).
type ToolOwners interface {
	ToolOwner(ctx context.Context, tool string) (toolset string, ok bool)
}

// unavailableTool is the hidden tool that answers calls of a tool whose
// toolset is not enabled. mcp-go answers an unknown name with a JSON-RPC
// "tool not found" before any handler runs; the before-call hook (which
// every transport goes through) renames such a call to this tool, which
// tells the agent which toolset to enable. A name no tool can have (tool
// names are godot_*); never listed.
const unavailableTool = "godot-mcp/toolset-not-enabled"

// hideUnavailableTool keeps unavailableTool out of tools/list. mcp-go also
// filters the one tool a call resolves to; that check must let it through.
func hideUnavailableTool(_ context.Context, tools []mcp.Tool) []mcp.Tool {
	if len(tools) == 1 {
		return tools // a call's check (tools/list always holds the core tools too)
	}
	out := tools[:0:0]
	for _, t := range tools {
		if t.Name != unavailableTool {
			out = append(out, t)
		}
	}
	return out
}

// redirectDisabledTool sends a call of a tool that is not served, but that
// a known toolset would serve once enabled, to unavailableTool.
func (s *Server) redirectDisabledTool(ctx context.Context, _ any, req *mcp.CallToolRequest) {
	name := req.Params.Name
	if name == unavailableTool {
		req.Params.Name = "" // only reachable by redirection
		return
	}
	s.mu.RLock()
	_, served := s.tools[name]
	s.mu.RUnlock()
	if served {
		return
	}
	toolset, ok := s.builtinOwner(name)
	if !ok {
		owners, isOwners := s.toolsets.(ToolOwners)
		if !isOwners {
			return
		}
		if toolset, ok = owners.ToolOwner(ctx, name); !ok {
			return
		}
	}
	req.Params.Name = unavailableTool
	req.Params.Arguments = map[string]any{"tool": name, "toolset": toolset}
}

// builtinOwner names the built-in toolset that serves tool, from the
// declarations known without starting a plugin (Options.Builtins).
func (s *Server) builtinOwner(tool string) (string, bool) {
	for _, b := range s.builtins {
		if slices.Contains(b.Tools, tool) {
			return b.Name, true
		}
	}
	return "", false
}

func (s *Server) answerDisabledTool(ctx context.Context, req mcp.CallToolRequest) (*mcp.CallToolResult, error) {
	args := req.GetArguments()
	tool, _ := args["tool"].(string)
	toolset, _ := args["toolset"].(string)
	out := shape(Fail(contract.Precondition(contract.RequireToolsetEnabled, fmt.Sprintf(
		"%s belongs to the toolset %q, which is not enabled. Call godot_enable_toolset with {\"names\":[%q]} (or {\"name\":\"all\"}), then call %s again.",
		tool, toolset, toolset, tool))))
	s.attachErrors(ctx, out)
	return out, nil
}
