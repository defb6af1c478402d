// Package scripts is the built-in scripts toolset: GDScript files.
package scripts

import (
	"context"
	"fmt"
	"time"

	"github.com/godot-mcp/godot-mcp/plugins/internal/respath"
	"github.com/godot-mcp/godot-mcp/sdk"
)

// ReadIn selects a script and optionally a line range.
type ReadIn struct {
	Path      string `json:"path" description:"res:// path of the script"`
	StartLine int    `json:"start_line,omitempty" jsonschema:"minimum=1" description:"first line to return (1-based, default 1)"`
	EndLine   int    `json:"end_line,omitempty" jsonschema:"minimum=1" description:"last line to return (inclusive, default: the last line)"`
}

// ReadOut is the script's source (or the requested lines).
type ReadOut struct {
	Path      string `json:"path"`
	Source    string `json:"source"`
	StartLine int    `json:"start_line"`
	EndLine   int    `json:"end_line"`
	LineCount int    `json:"line_count" description:"lines in the whole file"`
}

func read(ctx context.Context, call *sdk.Call, in ReadIn) (ReadOut, error) {
	p, err := respath.Clean(in.Path)
	if err != nil {
		return ReadOut{}, err
	}
	if in.EndLine != 0 && in.StartLine > in.EndLine {
		return ReadOut{}, sdk.Validation(fmt.Sprintf("start_line %d is after end_line %d", in.StartLine, in.EndLine))
	}
	return sdk.Send[ReadOut](ctx, call.Host, "cmd_scripts_read",
		map[string]any{"path": p, "start_line": in.StartLine, "end_line": in.EndLine}, 10*time.Second)
}

// Toolset is the scripts toolset.
func Toolset() sdk.Toolset {
	return sdk.Toolset{
		Name:        "scripts",
		Version:     "0.1.0",
		Description: "GDScript files: list, read, write, patch and validate scripts, attach them to nodes.",
		MinGodot:    "4.4",
		Tools: []sdk.Tool{
			sdk.NewTool("read", sdk.ToolOptions{
				Title:         "Read a script",
				Description:   "A script's source, whole or a line range, with the file's total line count.",
				Safety:        sdk.ReadOnly,
				Preconditions: []string{"bridge_connected"},
			}, read),
		},
	}
}
