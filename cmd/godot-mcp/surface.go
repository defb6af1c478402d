package main

import (
	"github.com/godot-mcp/godot-mcp/host/config"
	"github.com/godot-mcp/godot-mcp/host/mcpserver"
)

// buildSurface assembles the contract surface: core tools plus every built-in toolset.
func buildSurface(_ config.Config) mcpserver.Surface {
	return mcpserver.NewSurface(builtinSurface()...)
}

// builtinSurface describes the built-in toolsets without starting them.
func builtinSurface() []mcpserver.SurfaceToolset {
	return nil
}
