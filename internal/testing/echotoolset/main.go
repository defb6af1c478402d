// Command echotoolset is a minimal toolset used by benchmarks, load and
// fault tests: its tools send one editor command and return the answer.
package main

import (
	"context"
	"time"

	"github.com/godot-mcp/godot-mcp/sdk"
)

// EchoIn is sent to the editor as is.
type EchoIn struct {
	Payload string `json:"payload,omitempty" description:"any text; sent to the editor and back"`
	SleepMS int    `json:"sleep_ms,omitempty" description:"ask the (fake) editor to wait this long"`
}

// EchoOut is what the editor answered.
type EchoOut struct {
	Payload string `json:"payload"`
}

func echo(ctx context.Context, call *sdk.Call, in EchoIn) (EchoOut, error) {
	raw, err := call.Host.Send(ctx, "cmd_echo_echo", in, 30*time.Second)
	if err != nil {
		return EchoOut{}, err
	}
	var out EchoOut
	if err := sdk.Unmarshal(raw, &out); err != nil {
		return EchoOut{}, sdk.Internal("bad echo answer: " + err.Error())
	}
	return out, nil
}

// HangIn takes nothing.
type HangIn struct{}

func hang(ctx context.Context, _ *sdk.Call, _ HangIn) (EchoOut, error) {
	<-ctx.Done()
	select {} // never returns: a hung plugin
}

// WipeOut reports the (fake) destructive effect.
type WipeOut struct {
	Wiped  bool `json:"wiped"`
	DryRun bool `json:"dry_run"`
}

func wipe(ctx context.Context, call *sdk.Call, _ HangIn) (WipeOut, error) {
	if call.DryRun {
		return WipeOut{DryRun: true}, nil
	}
	if _, err := call.Host.Send(ctx, "cmd_echo_wipe", nil, 5*time.Second); err != nil {
		return WipeOut{}, err
	}
	return WipeOut{Wiped: true}, nil
}

func main() {
	sdk.Serve(sdk.Toolset{
		Name:        "echo",
		Version:     "0.0.1",
		Description: "Test toolset: echoes through the editor.",
		Tools: []sdk.Tool{
			sdk.NewTool("echo", sdk.ToolOptions{Title: "Echo", Description: "Echo a payload through the editor.", Safety: sdk.ReadOnly}, echo),
			sdk.NewTool("hang", sdk.ToolOptions{Title: "Hang", Description: "Never answers.", Safety: sdk.ReadOnly}, hang),
			sdk.NewTool("wipe", sdk.ToolOptions{Title: "Wipe", Description: "A destructive tool that trusts the host for confirm.", Safety: sdk.Destructive}, wipe),
		},
	})
}
