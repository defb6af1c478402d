// Package assets is the built-in assets toolset: files brought into the
// project from directories the user allows (GODOT_MCP_IMPORT_ROOTS) and
// imported by the editor, and the import options of imported files
// (.import [params]) read and set by name against the importer's own option
// list, then reimported and read back. Its editor side ships as GDScript in
// editor/ (installed into the project on enable). docs/assets.md describes
// the behaviours and limits.
package assets

import (
	"embed"

	"github.com/godot-mcp/godot-mcp/plugins/internal/engines"
	"github.com/godot-mcp/godot-mcp/sdk"
)

//go:embed editor
var editorFiles embed.FS

var connected = []string{sdk.RequireBridgeConnected}

// Toolset is the assets toolset.
func Toolset() sdk.Toolset {
	return sdk.Toolset{
		Name:           "assets",
		Version:        "0.1.0",
		Description:    "Bring outside files (images, audio, glTF, fonts, CSV) into the project from directories the user allows and import them; read and set .import options by name (texture compress/normal map, scene root type and per-node/material settings, audio loop, …) and reimport.",
		Keywords:       []string{"import", ".import", "import options", "reimport", "glTF", "texture compression", "normal map", "AudioStreamWAV", "loop", "FontFile", "CSV translation"},
		MinGodot:       engines.MinGodot,
		MaxTestedGodot: engines.MaxTestedGodot,
		EditorCode:     sdk.Subdir(editorFiles, "editor"),
		Tools: []sdk.Tool{
			sdk.NewTool("import", sdk.ToolOptions{
				Title: "Import outside files",
				Description: "Copies files from a directory of GODOT_MCP_IMPORT_ROOTS (none by default; links refused) into a res:// folder (made if missing), waits for the editor's import with progress, " +
					"and answers per file its type, UID, status and .import path. An import that fails is rolled back with the importer's message; one undo action.",
				Safety:          sdk.Mutating,
				DestructiveWhen: []string{"overwrite"},
				Preconditions:   connected,
			}, importTool),
			sdk.NewTool("get_import_options", sdk.ToolOptions{
				Title: "Read import options",
				Description: "An imported file's importer, type, UID, status and every import option by name: value, the importer's default, type and valid values (enum names, range, class), " +
					"from the editor's importer option list; _subresources holds a scene's per-node/mesh/material/animation settings.",
				Safety:        sdk.ReadOnly,
				Preconditions: connected,
			}, getOptions),
			sdk.NewTool("set_import_options", sdk.ToolOptions{
				Title: "Set import options",
				Description: "Sets import options by name (enum values by name or number; unknown names refused with did-you-mean and the valid set; types, ranges, enums checked), " +
					"reimports and reads the values back; an import that fails restores the previous .import (importer's message in the hint). _subresources merges. One undo action.",
				Safety:        sdk.Mutating,
				Preconditions: connected,
			}, setOptions),
		},
	}
}
