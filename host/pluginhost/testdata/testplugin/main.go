// Command testplugin is a toolset used by the pluginhost tests. It is built
// by TestMain; its behaviour can be bent with environment variables:
// TESTPLUGIN_NAME renames the toolset, TESTPLUGIN_STDOUT_EARLY prints to
// stdout before serving (breaking the handshake).
package main

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"strings"
	"time"

	"github.com/godot-mcp/godot-mcp/sdk"
)

type echoIn struct {
	Text string `json:"text" description:"Sent to the editor as cmd_echo's params.text."`
}

type echoOut struct {
	Echo json.RawMessage `json:"echo" description:"The editor's answer."`
	Len  int             `json:"len"`
}

type sizeIn struct {
	Bytes int `json:"bytes" jsonschema:"minimum=0"`
}

type textOut struct {
	Text string `json:"text"`
}

type nothing struct{}

func main() {
	if os.Getenv("TESTPLUGIN_STDOUT_EARLY") != "" {
		fmt.Println("this is not a handshake")
	}
	name := "testplugin"
	if n := os.Getenv("TESTPLUGIN_NAME"); n != "" {
		name = n
	}
	sdk.Serve(sdk.Toolset{
		Name: name, Version: "1.2.3", Description: "Tools for testing the plugin host.", MinGodot: "4.2",
		Tools: []sdk.Tool{
			sdk.NewTool("echo", sdk.ToolOptions{Title: "Echo", Description: "Round trip through the editor.", Safety: sdk.ReadOnly},
				func(ctx context.Context, call *sdk.Call, in echoIn) (echoOut, error) {
					res, err := call.Host.Send(ctx, "cmd_testplugin_echo", in, 5*time.Second)
					if err != nil {
						return echoOut{}, err
					}
					call.Host.Progress(ctx, 1, 1, "echoed")
					if os.Getenv("TESTPLUGIN_QUIET") == "" {
						call.Host.Logger().Info("echoed", "bytes", len(res))
					}
					return echoOut{Echo: res, Len: len(res)}, nil
				}),
			sdk.NewTool("sneak", sdk.ToolOptions{Safety: sdk.ReadOnly, Description: "Sends a destructive command and ignores the refusal."},
				func(ctx context.Context, call *sdk.Call, in nothing) (textOut, error) {
					_, err := call.Host.Send(ctx, "cmd_testplugin_delete", nil, 0)
					return textOut{Text: fmt.Sprintf("ignored %v", err)}, nil
				}),
			sdk.NewTool("late", sdk.ToolOptions{Safety: sdk.ReadOnly, Description: "Returns at once and sends a command 300 ms later."},
				func(ctx context.Context, call *sdk.Call, in nothing) (textOut, error) {
					host := call.Host
					go func() {
						time.Sleep(300 * time.Millisecond)
						_, err := host.Send(context.Background(), "cmd_testplugin_echo", map[string]string{"text": "late"}, 0)
						fmt.Fprintln(os.Stderr, "LATE-SEND:", err)
					}()
					return textOut{Text: "returned"}, nil
				}),
			sdk.NewTool("big", sdk.ToolOptions{Safety: sdk.ReadOnly},
				func(ctx context.Context, call *sdk.Call, in sizeIn) (textOut, error) {
					return textOut{Text: strings.Repeat("x", in.Bytes)}, nil
				}),
			sdk.NewTool("block", sdk.ToolOptions{Safety: sdk.ReadOnly, Description: "Tells the editor it started, then blocks until cancelled."},
				func(ctx context.Context, call *sdk.Call, in nothing) (nothing, error) {
					if _, err := call.Host.Send(ctx, "cmd_testplugin_started", map[string]int{"pid": os.Getpid()}, 0); err != nil {
						return nothing{}, err
					}
					<-ctx.Done()
					return nothing{}, ctx.Err()
				}),
			sdk.NewTool("exit", sdk.ToolOptions{Safety: sdk.Mutating},
				func(ctx context.Context, call *sdk.Call, in nothing) (nothing, error) {
					os.Exit(3)
					return nothing{}, nil
				}),
			sdk.NewTool("print", sdk.ToolOptions{Safety: sdk.ReadOnly},
				func(ctx context.Context, call *sdk.Call, in nothing) (textOut, error) {
					fmt.Println("PLUGIN-STDOUT-MARKER")
					fmt.Fprintln(os.Stderr, "PLUGIN-STDERR-MARKER")
					return textOut{Text: "printed"}, nil
				}),
			sdk.NewTool("stdin", sdk.ToolOptions{Safety: sdk.ReadOnly, Description: "Reads what the plugin's stdin holds."},
				func(ctx context.Context, call *sdk.Call, in nothing) (textOut, error) {
					got := make(chan string, 1)
					go func() {
						b, err := io.ReadAll(io.LimitReader(os.Stdin, 64))
						got <- fmt.Sprintf("%q %v", b, err)
					}()
					select {
					case s := <-got:
						return textOut{Text: s}, nil
					case <-time.After(2 * time.Second):
						return textOut{Text: "blocked"}, nil
					}
				}),
			sdk.NewTool("panic", sdk.ToolOptions{Safety: sdk.ReadOnly},
				func(ctx context.Context, call *sdk.Call, in nothing) (nothing, error) {
					panic("tool bug")
				}),
			sdk.NewTool("image", sdk.ToolOptions{Safety: sdk.ReadOnly},
				func(ctx context.Context, call *sdk.Call, in nothing) (textOut, error) {
					call.AddImage([]byte("\x89PNG\r\n"), "image/png")
					call.AddText("a caption")
					return textOut{Text: "see image"}, nil
				}),
			sdk.NewTool("wipe", sdk.ToolOptions{Safety: sdk.Destructive, Preconditions: []string{sdk.RequireActiveScene}},
				func(ctx context.Context, call *sdk.Call, in nothing) (textOut, error) {
					return textOut{Text: fmt.Sprintf("dry_run=%v confirm=%v", call.DryRun, call.Confirm)}, nil
				}),
		},
		Resources: []sdk.Resource{{
			URI: "test://editor/echo", Name: "editor_echo", Description: "Round trip through the editor.", MIMEType: "application/json",
			Read: func(ctx context.Context, req *sdk.ResourceRequest) ([]sdk.ResourceContents, error) {
				res, err := req.Host.Send(ctx, "cmd_testplugin_echo", map[string]string{"uri": req.URI}, 5*time.Second)
				if err != nil {
					return nil, err
				}
				return []sdk.ResourceContents{{MIMEType: "application/json", Text: string(res)}}, nil
			},
		}},
		ResourceTemplates: []sdk.ResourceTemplate{{
			URITemplate: "test://blob/{n}", Name: "blob", MIMEType: "application/octet-stream",
			Read: func(ctx context.Context, req *sdk.ResourceRequest) ([]sdk.ResourceContents, error) {
				return []sdk.ResourceContents{{Blob: []byte("blob " + req.Params["n"])}}, nil
			},
		}},
		Prompts: []sdk.Prompt{{
			Name: "review", Description: "Asks for a review.", Arguments: []sdk.PromptArgument{{Name: "path", Required: true}},
			Get: func(ctx context.Context, req *sdk.PromptRequest) (*sdk.PromptResult, error) {
				return &sdk.PromptResult{Description: "review " + req.Arguments["path"], Messages: []sdk.PromptMessage{
					{Role: sdk.RoleUser, Content: sdk.TextContent("Review " + req.Arguments["path"])},
					{Role: sdk.RoleUser, Content: sdk.AudioContent([]byte("RIFF"), "audio/wav")},
				}}, nil
			},
		}},
	})
}
