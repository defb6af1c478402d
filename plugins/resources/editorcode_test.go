package resources_test

import (
	"testing"

	resourcespkg "github.com/godot-mcp/godot-mcp/plugins/resources"
	"github.com/godot-mcp/godot-mcp/sdk"
	"github.com/godot-mcp/godot-mcp/sdk/sdktest"
)

// editorCommands are the editor commands the resources tools send, with the class
// (and dry_run) the shipped handlers.gd must declare for each: the host's
// gate holds each tool to these classes.
var editorCommands = []sdktest.EditorCommand{
	{Name: "cmd_resources_create", Class: sdk.Mutating, DryRun: true},
	{Name: "cmd_resources_delete", Class: sdk.Destructive, DryRun: true},
	{Name: "cmd_resources_get_dependencies", Class: sdk.ReadOnly},
	{Name: "cmd_resources_list", Class: sdk.ReadOnly},
	{Name: "cmd_resources_move", Class: sdk.Mutating, DryRun: true},
	{Name: "cmd_resources_read", Class: sdk.ReadOnly},
	{Name: "cmd_resources_reimport", Class: sdk.Mutating, DryRun: true},
	{Name: "cmd_resources_rescan", Class: sdk.ReadOnly},
	{Name: "cmd_resources_resolve_uid", Class: sdk.ReadOnly},
	{Name: "cmd_resources_search", Class: sdk.ReadOnly},
	{Name: "cmd_resources_set_properties", Class: sdk.Mutating, DryRun: true},
	{Name: "cmd_resources_write_image", Class: sdk.Mutating, DryRun: true},
}

// The shipped editor code declares exactly those commands, with those
// classes, and ships every file it preloads.
func TestEditorCodeDeclaresCommands(t *testing.T) {
	sdktest.CheckEditorCode(t, resourcespkg.Toolset(), editorCommands)
}
