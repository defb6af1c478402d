// Package paritytoolset is a test toolset served two ways by the tests of
// cmd/godot-mcp: in-process by sdktest, and as a plugin process (./parity)
// by the real executable, so that they can check both answer alike.
package paritytoolset

import (
	"context"
	"encoding/json"
	"time"

	"github.com/godot-mcp/godot-mcp/sdk"
)

// Command is the one editor command the toolset sends (read_only; the test's
// fake editor declares it).
const Command = "cmd_parity_look"

// CountIn has a field of each kind a bad call can get wrong.
type CountIn struct {
	Count int      `json:"count" jsonschema:"minimum=1,maximum=10" description:"how many"`
	Mode  string   `json:"mode,omitempty" jsonschema:"enum=fast|safe,default=safe"`
	Names []string `json:"names" jsonschema:"minItems=1"`
	Ratio *float64 `json:"ratio,omitempty"`
}

// Echo is what the editor answered.
type Echo struct {
	Sent json.RawMessage `json:"sent"`
}

func look(ctx context.Context, call *sdk.Call, params any) (Echo, error) {
	raw, err := call.Host.Send(ctx, Command, params, 5*time.Second)
	if err != nil {
		return Echo{}, err
	}
	return Echo{Sent: raw}, nil
}

// Toolset is the parity toolset.
func Toolset() sdk.Toolset {
	return sdk.Toolset{
		Name: "parity", Version: "0.0.1", Description: "sdktest and the real host answer alike.",
		Tools: []sdk.Tool{
			sdk.NewTool("count", sdk.ToolOptions{Description: "Sends its validated arguments.", Safety: sdk.ReadOnly},
				func(ctx context.Context, call *sdk.Call, in CountIn) (Echo, error) { return look(ctx, call, in) }),
			sdk.NewTool("send_nil", sdk.ToolOptions{Description: "Sends a typed nil map.", Safety: sdk.ReadOnly},
				func(ctx context.Context, call *sdk.Call, _ struct{}) (Echo, error) {
					var params map[string]any
					return look(ctx, call, params)
				}),
			sdk.NewTool("in_scene", sdk.ToolOptions{Description: "Needs an open scene (the editor checks).", Safety: sdk.ReadOnly,
				Preconditions: []string{sdk.RequireBridgeConnected, sdk.RequireActiveScene}},
				func(ctx context.Context, call *sdk.Call, _ struct{}) (Echo, error) { return look(ctx, call, nil) }),
			sdk.NewTool("change", sdk.ToolOptions{Description: "Mutating; overwrite destroys.", Safety: sdk.Mutating, DestructiveWhen: []string{"overwrite"}},
				func(ctx context.Context, call *sdk.Call, in struct {
					Overwrite bool `json:"overwrite,omitempty"`
				}) (Echo, error) {
					return Echo{Sent: json.RawMessage(`{}`)}, nil
				}),
			sdk.NewTool("wipe", sdk.ToolOptions{Description: "Destructive.", Safety: sdk.Destructive},
				func(ctx context.Context, call *sdk.Call, _ struct{}) (Echo, error) {
					return Echo{Sent: json.RawMessage(`{}`)}, nil
				}),
		},
	}
}
