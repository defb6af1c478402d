// Package particles is the built-in particles toolset: GPUParticles2D/3D
// (with a ParticleProcessMaterial and a draw pass) and CPUParticles2D/3D
// created from presets (fire, smoke, sparks, explosion, rain, snow, magic,
// dust), edited and read back by friendly parameter names (emission shape,
// amount, lifetime, velocity, gravity, scale and colour ramps, curves),
// converted CPU↔GPU as the editor's Convert menu does, and restarted in
// the editor. Every edit is one undo action. Its editor side ships as
// GDScript in editor/ (installed into the project on enable).
// docs/particles.md describes the presets, parameters and limits.
package particles

import (
	"embed"

	"github.com/godot-mcp/godot-mcp/plugins/internal/engines"
	"github.com/godot-mcp/godot-mcp/sdk"
)

//go:embed editor
var editorFiles embed.FS

var sceneNeeded = []string{sdk.RequireBridgeConnected, sdk.RequireActiveScene}

// Toolset is the particles toolset.
func Toolset() sdk.Toolset {
	return sdk.Toolset{
		Name:           "particles",
		Version:        "0.1.0",
		Description:    "Particle effects from presets (fire, smoke, sparks, explosion, rain, snow, magic, dust), edited and read back by parameter name, converted CPU/GPU, restarted in the editor; all undoable.",
		Keywords:       []string{"GPUParticles3D", "GPUParticles2D", "CPUParticles3D", "CPUParticles2D", "ParticleProcessMaterial", "particle effects", "fire", "smoke", "explosion", "rain", "snow", "color ramp"},
		MinGodot:       engines.MinGodot,
		MaxTestedGodot: engines.MaxTestedGodot,
		EditorCode:     sdk.Subdir(editorFiles, "editor"),
		Tools: []sdk.Tool{
			sdk.NewTool("presets", sdk.ToolOptions{
				Title:       "List particle presets and parameters",
				Description: "The presets create takes, each with its parameters (3d: metres; 2d: pixels, y down) and look, and every parameter name set and get use with what it takes. Needs no editor.",
				Safety:      sdk.ReadOnly,
			}, listPresets),
			sdk.NewTool("create", sdk.ToolOptions{
				Title: "Create particles from a preset",
				Description: "Adds a GPUParticles3D/2D (with a ParticleProcessMaterial and a draw pass quad or texture) or CPUParticles3D/2D made from a preset, " +
					"with params applied over it, in ONE undo action; answers every parameter read back. Unknown types, presets and parameters are refused with a did-you-mean.",
				Safety:        sdk.Mutating,
				Preconditions: sceneNeeded,
			}, create),
			sdk.NewTool("set", sdk.ToolOptions{
				Title: "Set particle parameters",
				Description: "Sets parameters of a particles node by name (emission shape and sizes, amount, lifetime, one_shot, explosiveness, direction, spread, velocities, gravity, " +
					"damping, scale, colour, colour ramps, curves; ranges as [min, max] or NAME_min) in ONE undo action, all or nothing; answers old and new values.",
				Safety:        sdk.Mutating,
				Preconditions: sceneNeeded,
			}, set),
			sdk.NewTool("get", sdk.ToolOptions{
				Title:         "Read particle parameters",
				Description:   "A particles node's parameters by the names set takes (ranges as [min, max], colours as #rrggbbaa, ramps as stops, curves as points), or without node every particles node of the edited scene.",
				Safety:        sdk.ReadOnly,
				Preconditions: sceneNeeded,
			}, get),
			sdk.NewTool("convert", sdk.ToolOptions{
				Title: "Convert CPU/GPU particles",
				Description: "Replaces a CPUParticles2D/3D by a GPUParticles2D/3D or the reverse, in place (name, children, groups, transform kept), as the editor's Convert menu does " +
					"(convert_from_particles), in ONE undo action; lists settings the new class cannot hold.",
				Safety:        sdk.Mutating,
				Preconditions: sceneNeeded,
			}, convert),
			sdk.NewTool("restart", sdk.ToolOptions{
				Title:         "Restart particles in the editor",
				Description:   "Previews a particles node in the editor: emitting on and restart from zero (emitting true, the default), or emitting off. A change of the saved emitting property is one undo action.",
				Safety:        sdk.Mutating,
				Preconditions: sceneNeeded,
			}, restart),
		},
	}
}
