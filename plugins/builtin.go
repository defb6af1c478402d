// Package plugins lists the built-in toolsets, each served by the godot-mcp
// binary re-executed as `godot-mcp toolset serve NAME`.
package plugins

import (
	"github.com/godot-mcp/godot-mcp/plugins/analysis"
	"github.com/godot-mcp/godot-mcp/plugins/animation"
	"github.com/godot-mcp/godot-mcp/plugins/assets"
	"github.com/godot-mcp/godot-mcp/plugins/audio"
	"github.com/godot-mcp/godot-mcp/plugins/debugger"
	"github.com/godot-mcp/godot-mcp/plugins/diagnostics"
	"github.com/godot-mcp/godot-mcp/plugins/export"
	"github.com/godot-mcp/godot-mcp/plugins/material"
	"github.com/godot-mcp/godot-mcp/plugins/navigation"
	"github.com/godot-mcp/godot-mcp/plugins/particles"
	"github.com/godot-mcp/godot-mcp/plugins/physics"
	"github.com/godot-mcp/godot-mcp/plugins/playtest"
	"github.com/godot-mcp/godot-mcp/plugins/project"
	"github.com/godot-mcp/godot-mcp/plugins/resources"
	"github.com/godot-mcp/godot-mcp/plugins/runtime"
	"github.com/godot-mcp/godot-mcp/plugins/scene"
	"github.com/godot-mcp/godot-mcp/plugins/scripts"
	"github.com/godot-mcp/godot-mcp/plugins/shader"
	"github.com/godot-mcp/godot-mcp/plugins/tests"
	"github.com/godot-mcp/godot-mcp/plugins/tilemap"
	"github.com/godot-mcp/godot-mcp/plugins/ui"
	visualshader "github.com/godot-mcp/godot-mcp/plugins/visual_shader"
	"github.com/godot-mcp/godot-mcp/plugins/world"
	"github.com/godot-mcp/godot-mcp/sdk"
)

// Builtins returns the built-in toolsets in listing order.
func Builtins() []sdk.Toolset {
	return []sdk.Toolset{scene.Toolset(), scripts.Toolset(), resources.Toolset(), project.Toolset(), runtime.Toolset(),
		tests.Toolset(),
		diagnostics.Toolset(),
		animation.Toolset(),
		tilemap.Toolset(),
		debugger.Toolset(),
		audio.Toolset(),
		shader.Toolset(),
		physics.Toolset(),
		ui.Toolset(),
		playtest.Toolset(),
		export.Toolset(),
		analysis.Toolset(),
		particles.Toolset(),
		assets.Toolset(),
		world.Toolset(),
		navigation.Toolset(),
		material.Toolset(),
		visualshader.Toolset(),
	}
}

// Names returns the built-in toolset names in listing order.
func Names() []string {
	var out []string
	for _, ts := range Builtins() {
		out = append(out, ts.Name)
	}
	return out
}

// Lookup finds a built-in toolset by name.
func Lookup(name string) (sdk.Toolset, bool) {
	for _, ts := range Builtins() {
		if ts.Name == name {
			return ts, true
		}
	}
	return sdk.Toolset{}, false
}
