// Package export is the built-in export toolset: the project's export
// presets (export_presets.cfg, read and written as the editor writes it,
// unknown keys and order kept), the export templates a preset needs, a
// headless export in a separate Godot process (a whole game, or only the
// PCK/ZIP data, which needs no templates), and a bounded smoke run of an
// exported pack with --main-pack. It needs no editor. docs/export.md
// describes the behaviours and limits.
package export

import (
	"github.com/godot-mcp/godot-mcp/plugins/internal/engines"
	"github.com/godot-mcp/godot-mcp/sdk"
)

// Toolset is the export toolset.
func Toolset() sdk.Toolset {
	return sdk.Toolset{
		Name:           "export",
		Version:        "0.1.0",
		Description:    "Ship the game: export presets, export templates, headless export (whole game or PCK/ZIP), smoke-run an exported pack.",
		Keywords:       []string{"export presets", "export_presets.cfg", "export templates", "PCK", "build", "release", "ship"},
		MinGodot:       engines.MinGodot,
		MaxTestedGodot: engines.MaxTestedGodot,
		Tools: []sdk.Tool{
			sdk.NewTool("list_presets", sdk.ToolOptions{
				Title:       "List export presets",
				Description: "The project's export presets from export_presets.cfg in file order: name, platform, runnable, export_path, filters, features, option count; and the platform names set_preset accepts. Needs no editor.",
				Safety:      sdk.ReadOnly,
			}, listPresets),
			sdk.NewTool("get_preset", sdk.ToolOptions{
				Title:       "Read an export preset",
				Description: "One preset with all its platform options ([preset.N.options]) as typed values.",
				Safety:      sdk.ReadOnly,
			}, getPreset),
			sdk.NewTool("set_preset", sdk.ToolOptions{
				Title: "Create or edit an export preset",
				Description: "Creates a preset (create: true, platform) or edits one: runnable, export_path, export filter and files, include/exclude filters, features, options by name " +
					"(unknown names refused with did-you-mean; null removes). Writes export_presets.cfg as the editor does, keeping every other key and the order. " +
					"An open editor keeps the presets it read at start: restart it to see the change.",
				Safety: sdk.Mutating,
			}, setPreset),
			sdk.NewTool("check_templates", sdk.ToolOptions{
				Title: "Check export templates",
				Description: "Whether the export templates a preset's release/debug export needs are installed for this Godot version (from GODOT_BIN --version): each file with its path and size; " +
					"else PRECONDITION_FAILED (required: export_templates) naming the missing files and the directory Godot looks in.",
				Safety:        sdk.ReadOnly,
				Preconditions: []string{sdk.RequireGodotBinary},
			}, checkTemplatesTool),
			sdk.NewTool("export", sdk.ToolOptions{
				Title: "Export a preset",
				Description: "Exports a preset headless in a separate Godot (--export-release/--export-debug, or mode pack: only the .pck/.zip, which needs no templates) with a time limit and progress. " +
					"Writes only in the project or a directory of GODOT_MCP_EXPORT_ROOTS, never through links; answers the artifacts with sizes, or the exporter's errors. Missing templates are refused first.",
				Safety:          sdk.Mutating,
				DestructiveWhen: []string{"overwrite"},
				RunsCode:        true, // the editor runs the project's @tool scripts and export plugins
				Preconditions:   []string{sdk.RequireGodotBinary},
			}, exportTool),
			sdk.NewTool("smoke_run", sdk.ToolOptions{
				Title: "Smoke-run an exported pack",
				Description: "Runs an exported .pck/.zip headless with the Godot binary (--main-pack) until it quits or the time limit, in an empty working directory; " +
					"answers its output, errors with script file:line, exit code and clean.",
				Safety:        sdk.Runtime,
				RunsCode:      true,
				Preconditions: []string{sdk.RequireGodotBinary},
			}, smokeRun),
		},
	}
}
