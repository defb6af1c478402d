package playtest_test

import (
	"testing"

	playtestpkg "github.com/godot-mcp/godot-mcp/plugins/playtest"
	"github.com/godot-mcp/godot-mcp/sdk"
	"github.com/godot-mcp/godot-mcp/sdk/sdktest"
)

// editorCommands are the editor commands the playtest tools send, with the class
// (and dry_run) the shipped handlers.gd must declare for each: the host's
// gate holds each tool to these classes.
var editorCommands = []sdktest.EditorCommand{
	{Name: "cmd_playtest_controls", Class: sdk.Runtime},
	{Name: "cmd_playtest_digest", Class: sdk.Runtime},
	{Name: "cmd_playtest_eval", Class: sdk.Runtime},
	{Name: "cmd_playtest_interact", Class: sdk.Runtime},
	{Name: "cmd_playtest_record", Class: sdk.Runtime},
	{Name: "cmd_playtest_step", Class: sdk.Runtime},
	{Name: "cmd_playtest_wait_for", Class: sdk.Runtime},
	{Name: "cmd_playtest_watch", Class: sdk.Runtime},
}

// The shipped editor code declares exactly those commands, with those
// classes, and ships every file it preloads.
func TestEditorCodeDeclaresCommands(t *testing.T) {
	sdktest.CheckEditorCode(t, playtestpkg.Toolset(), editorCommands)
}
