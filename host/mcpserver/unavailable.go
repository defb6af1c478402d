package mcpserver

import (
	"fmt"
	"os/exec"
	"slices"
	"sort"

	"github.com/godot-mcp/godot-mcp/internal/godotexe"
	"github.com/godot-mcp/godot-mcp/sdk/contract"
)

// This file says which tools cannot work in this setup, before an agent
// calls them: today, the tools that start a separate Godot (headless runs,
// test runs, the project check, shader compiles) when no Godot binary is
// found. godot_get_server_info lists them; a call of one is refused by the
// tool itself with the same required (plugins/internal/godotproc).

// UnavailableTool is a tool that cannot work in this setup.
type UnavailableTool struct {
	Tool     string `json:"tool"`
	Toolset  string `json:"toolset"`
	Required string `json:"required" description:"the precondition it lacks, as a call of it would answer (godot_binary: no Godot executable for a separate Godot process)"`
	Hint     string `json:"hint" description:"what is missing and how to fix it"`
}

// godotBinary finds Godot as the headless tools do
// (plugins/internal/godotproc): GODOT_BIN, else the connected editor's own
// executable (when internal/godotexe accepts it), else godot on PATH. When
// none is found, hint says what is missing and how to fix it.
func (s *Server) godotBinary() (path, hint string) {
	if bin := s.cfg.GodotBin; bin != "" {
		p, err := exec.LookPath(bin)
		if err != nil {
			return "", fmt.Sprintf("GODOT_BIN=%s is not an executable (%v). Point GODOT_BIN at a Godot 4 executable in the MCP server's environment, then restart the client.", bin, err)
		}
		return p, ""
	}
	editor := "no editor is connected"
	if st := s.bridge.Status(); st.Peer != nil {
		p, err := godotexe.Check(st.Peer.GodotExecutable)
		if err == nil {
			return p, ""
		}
		editor = err.Error()
	}
	p, err := exec.LookPath("godot")
	if err != nil {
		return "", "No Godot binary: GODOT_BIN is not set, " + editor + " (its executable is the fallback), and no godot is on the PATH of the godot-mcp server. " +
			"Set GODOT_BIN to a Godot 4 executable in the MCP server's environment (its env in the client's config), then restart the client."
	}
	return p, ""
}

// unavailableTools lists the tools, served or of a built-in toolset not
// enabled, that cannot work now, sorted by name.
func (s *Server) unavailableTools() []UnavailableTool {
	out := []UnavailableTool{}
	if _, hint := s.godotBinary(); hint != "" {
		seen := map[string]bool{}
		add := func(tool, toolset string, pre []string) {
			if seen[tool] || !slices.Contains(pre, contract.RequireGodotBinary) {
				return
			}
			seen[tool] = true
			out = append(out, UnavailableTool{Tool: tool, Toolset: toolset, Required: contract.RequireGodotBinary, Hint: hint})
		}
		s.mu.RLock()
		for name, reg := range s.tools {
			add(name, reg.def.Toolset, reg.def.Preconditions)
		}
		s.mu.RUnlock()
		for _, b := range s.builtins {
			for tool, pre := range b.ToolPreconditions {
				add(tool, b.Name, pre)
			}
		}
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Tool < out[j].Tool })
	return out
}
