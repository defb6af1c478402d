package scripts_test

import (
	"testing"

	scriptspkg "github.com/godot-mcp/godot-mcp/plugins/scripts"
	"github.com/godot-mcp/godot-mcp/sdk"
	"github.com/godot-mcp/godot-mcp/sdk/sdktest"
)

// editorCommands are the editor commands the scripts tools send, with the class
// (and dry_run) the shipped handlers.gd must declare for each: the host's
// gate holds each tool to these classes.
var editorCommands = []sdktest.EditorCommand{
	{Name: "cmd_scripts_attach", Class: sdk.Mutating, DryRun: true},
	{Name: "cmd_scripts_detach", Class: sdk.Mutating, DryRun: true},
	{Name: "cmd_scripts_get_symbols", Class: sdk.ReadOnly},
	{Name: "cmd_scripts_list", Class: sdk.ReadOnly},
	{Name: "cmd_scripts_read", Class: sdk.ReadOnly},
	{Name: "cmd_scripts_validate", Class: sdk.ReadOnly},
	{Name: "cmd_scripts_write", Class: sdk.Mutating, DryRun: true},
}

// The shipped editor code declares exactly those commands, with those
// classes, and ships every file it preloads.
func TestEditorCodeDeclaresCommands(t *testing.T) {
	sdktest.CheckEditorCode(t, scriptspkg.Toolset(), editorCommands)
}
