package scene_test

import (
	"testing"

	scenepkg "github.com/godot-mcp/godot-mcp/plugins/scene"
	"github.com/godot-mcp/godot-mcp/sdk"
	"github.com/godot-mcp/godot-mcp/sdk/sdktest"
)

// editorCommands are the editor commands the scene tools send, with the class
// (and dry_run) the shipped handlers.gd must declare for each: the host's
// gate holds each tool to these classes.
var editorCommands = []sdktest.EditorCommand{
	{Name: "cmd_scene_batch", Class: sdk.Mutating, DryRun: true},
	{Name: "cmd_scene_call_method", Class: sdk.Mutating, DryRun: true},
	{Name: "cmd_scene_close", Class: sdk.Destructive, DryRun: true},
	{Name: "cmd_scene_connect_signal", Class: sdk.Mutating, DryRun: true},
	{Name: "cmd_scene_create", Class: sdk.Mutating, DryRun: true},
	{Name: "cmd_scene_create_node", Class: sdk.Mutating, DryRun: true},
	{Name: "cmd_scene_delete_node", Class: sdk.Destructive, DryRun: true},
	{Name: "cmd_scene_disconnect_signal", Class: sdk.Mutating, DryRun: true},
	{Name: "cmd_scene_duplicate_node", Class: sdk.Mutating, DryRun: true},
	{Name: "cmd_scene_extract_branch", Class: sdk.Mutating, DryRun: true},
	{Name: "cmd_scene_find_nodes", Class: sdk.ReadOnly},
	{Name: "cmd_scene_get_node", Class: sdk.ReadOnly},
	{Name: "cmd_scene_get_tree", Class: sdk.ReadOnly},
	{Name: "cmd_scene_instantiate", Class: sdk.Mutating, DryRun: true},
	{Name: "cmd_scene_list_open", Class: sdk.ReadOnly},
	{Name: "cmd_scene_move_node", Class: sdk.Mutating, DryRun: true},
	{Name: "cmd_scene_open", Class: sdk.Mutating, DryRun: true},
	{Name: "cmd_scene_reload", Class: sdk.Destructive, DryRun: true},
	{Name: "cmd_scene_rename_node", Class: sdk.Mutating, DryRun: true},
	{Name: "cmd_scene_save", Class: sdk.Mutating, DryRun: true},
	{Name: "cmd_scene_select", Class: sdk.Mutating, DryRun: true},
	{Name: "cmd_scene_set_editable_children", Class: sdk.Mutating, DryRun: true},
	{Name: "cmd_scene_set_groups", Class: sdk.Mutating, DryRun: true},
	{Name: "cmd_scene_set_properties", Class: sdk.Mutating, DryRun: true},
}

// The shipped editor code declares exactly those commands, with those
// classes, and ships every file it preloads.
func TestEditorCodeDeclaresCommands(t *testing.T) {
	sdktest.CheckEditorCode(t, scenepkg.Toolset(), editorCommands)
}
