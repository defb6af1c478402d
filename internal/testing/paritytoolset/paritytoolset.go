// Package paritytoolset is a test fixture: a small toolset with a tool
// that sends an editor command, one that fails, a resource, a resource
// template and a prompt, served in-process and as a plugin process
// (cmd/paritytoolset) by the tests that check the two give the same answers.
package paritytoolset

import (
	"context"
	"encoding/json"
	"time"

	"github.com/godot-mcp/godot-mcp/sdk"
)

// Name is the toolset's name.
const Name = "parity"

type echoIn struct {
	Text  string `json:"text" description:"Sent to the editor."`
	Count int    `json:"count,omitempty"`
}

type echoOut struct {
	Editor json.RawMessage `json:"editor"`
	Count  int             `json:"count"`
}

type nothing struct{}

// Toolset returns the fixture toolset.
func Toolset() sdk.Toolset {
	return sdk.Toolset{
		Name: Name, Version: "0.0.1", Description: "The model parity fixture.", MinGodot: "4.2",
		Tools: []sdk.Tool{
			sdk.NewTool("echo", sdk.ToolOptions{Title: "Echo", Description: "Sends cmd_parity_echo.", Safety: sdk.ReadOnly},
				func(ctx context.Context, call *sdk.Call, in echoIn) (echoOut, error) {
					res, err := call.Host.Send(ctx, "cmd_parity_echo", in, 5*time.Second)
					if err != nil {
						return echoOut{}, err
					}
					call.AddText("echoed " + in.Text)
					call.AddImage([]byte{1, 2, 3}, "image/png")
					return echoOut{Editor: res, Count: in.Count}, nil
				}),
			sdk.NewTool("move", sdk.ToolOptions{Description: "Previews a move.", Safety: sdk.Mutating, Preconditions: []string{sdk.RequireActiveScene}},
				func(ctx context.Context, call *sdk.Call, in nothing) (map[string]bool, error) {
					return map[string]bool{"dry_run": call.DryRun}, nil
				}),
			sdk.NewTool("fail", sdk.ToolOptions{Safety: sdk.ReadOnly},
				func(ctx context.Context, call *sdk.Call, in nothing) (nothing, error) {
					return nothing{}, sdk.NotFound("nothing to find")
				}),
		},
		Resources: []sdk.Resource{{
			URI: "parity://info", Name: "info", Title: "Info", Description: "Asks the editor.", MIMEType: "application/json",
			Read: func(ctx context.Context, req *sdk.ResourceRequest) ([]sdk.ResourceContents, error) {
				res, err := req.Host.Send(ctx, "cmd_parity_echo", map[string]string{"uri": req.URI}, 0)
				if err != nil {
					return nil, err
				}
				return []sdk.ResourceContents{{MIMEType: "application/json", Text: string(res)}}, nil
			},
		}},
		ResourceTemplates: []sdk.ResourceTemplate{{
			URITemplate: "parity://item/{id}", Name: "item", MIMEType: "application/octet-stream",
			Read: func(ctx context.Context, req *sdk.ResourceRequest) ([]sdk.ResourceContents, error) {
				return []sdk.ResourceContents{{Blob: []byte("item " + req.Params["id"])}}, nil
			},
		}},
		Prompts: []sdk.Prompt{{
			Name: "hello", Title: "Hello", Description: "Greets.", Arguments: []sdk.PromptArgument{{Name: "who", Description: "Whom", Required: true}},
			Get: func(ctx context.Context, req *sdk.PromptRequest) (*sdk.PromptResult, error) {
				return &sdk.PromptResult{Description: "hello " + req.Arguments["who"], Messages: []sdk.PromptMessage{
					{Role: sdk.RoleUser, Content: sdk.TextContent("Say hello to " + req.Arguments["who"])},
					{Role: sdk.RoleAssistant, Content: sdk.EmbeddedResource(sdk.ResourceContents{URI: "parity://info", MIMEType: "text/plain", Text: "hi"})},
				}}, nil
			},
		}},
	}
}
