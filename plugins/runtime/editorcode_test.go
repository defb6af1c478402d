package runtime_test

import (
	"testing"

	runtimepkg "github.com/godot-mcp/godot-mcp/plugins/runtime"
	"github.com/godot-mcp/godot-mcp/sdk"
	"github.com/godot-mcp/godot-mcp/sdk/sdktest"
)

// editorCommands are the editor commands the runtime tools send, with the class
// (and dry_run) the shipped handlers.gd must declare for each: the host's
// gate holds each tool to these classes.
var editorCommands = []sdktest.EditorCommand{
	{Name: "cmd_runtime_call_method", Class: sdk.Runtime},
	{Name: "cmd_runtime_check", Class: sdk.ReadOnly},
	{Name: "cmd_runtime_get_errors", Class: sdk.ReadOnly},
	{Name: "cmd_runtime_get_node", Class: sdk.ReadOnly},
	{Name: "cmd_runtime_get_output", Class: sdk.ReadOnly},
	{Name: "cmd_runtime_get_performance", Class: sdk.ReadOnly},
	{Name: "cmd_runtime_get_status", Class: sdk.ReadOnly},
	{Name: "cmd_runtime_get_tree", Class: sdk.ReadOnly},
	{Name: "cmd_runtime_input", Class: sdk.Runtime},
	{Name: "cmd_runtime_pause", Class: sdk.Runtime},
	{Name: "cmd_runtime_play", Class: sdk.Runtime},
	{Name: "cmd_runtime_screenshot", Class: sdk.ReadOnly},
	{Name: "cmd_runtime_set_probe", Class: sdk.Mutating},
	{Name: "cmd_runtime_set_properties", Class: sdk.Runtime},
	{Name: "cmd_runtime_stop", Class: sdk.Runtime},
}

// The shipped editor code declares exactly those commands, with those
// classes, and ships every file it preloads.
func TestEditorCodeDeclaresCommands(t *testing.T) {
	sdktest.CheckEditorCode(t, runtimepkg.Toolset(), editorCommands)
}
