package project_test

import (
	"testing"

	projectpkg "github.com/godot-mcp/godot-mcp/plugins/project"
	"github.com/godot-mcp/godot-mcp/sdk"
	"github.com/godot-mcp/godot-mcp/sdk/sdktest"
)

// editorCommands are the editor commands the project tools send, with the class
// (and dry_run) the shipped handlers.gd must declare for each: the host's
// gate holds each tool to these classes.
var editorCommands = []sdktest.EditorCommand{
	{Name: "cmd_project_add_autoload", Class: sdk.Mutating, DryRun: true},
	{Name: "cmd_project_get_settings", Class: sdk.ReadOnly},
	{Name: "cmd_project_list_actions", Class: sdk.ReadOnly},
	{Name: "cmd_project_list_autoloads", Class: sdk.ReadOnly},
	{Name: "cmd_project_remove_action", Class: sdk.Destructive, DryRun: true},
	{Name: "cmd_project_remove_autoload", Class: sdk.Mutating, DryRun: true},
	{Name: "cmd_project_set_action", Class: sdk.Mutating, DryRun: true},
	{Name: "cmd_project_set_settings", Class: sdk.Mutating, DryRun: true},
}

// The shipped editor code declares exactly those commands, with those
// classes, and ships every file it preloads.
func TestEditorCodeDeclaresCommands(t *testing.T) {
	sdktest.CheckEditorCode(t, projectpkg.Toolset(), editorCommands)
}
