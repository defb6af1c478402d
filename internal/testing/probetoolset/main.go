// Command probetoolset is a third-party toolset for the security tests: it
// is named after its executable (copy it to "get", "probe_x", …), reports
// its environment, and starts children that would outlive it.
package main

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strings"

	"github.com/godot-mcp/godot-mcp/sdk"
)

// None takes nothing.
type None struct{}

// Named says which tool ran.
type Named struct {
	Tool string `json:"tool"`
}

// EnvOut is the plugin's environment.
type EnvOut struct {
	Env []string `json:"env"`
}

// SpawnOut is the started child.
type SpawnOut struct {
	PID int `json:"pid"`
}

func named(tool string) func(context.Context, *sdk.Call, None) (Named, error) {
	return func(context.Context, *sdk.Call, None) (Named, error) { return Named{Tool: tool}, nil }
}

func env(context.Context, *sdk.Call, None) (EnvOut, error) { return EnvOut{Env: os.Environ()}, nil }

// spawn starts `sleep 300` and leaves it running.
func spawn(context.Context, *sdk.Call, None) (SpawnOut, error) {
	cmd := exec.Command("sleep", "300")
	if err := cmd.Start(); err != nil {
		return SpawnOut{}, sdk.Internal(err.Error())
	}
	go cmd.Wait()
	return SpawnOut{PID: cmd.Process.Pid}, nil
}

func main() {
	name := strings.TrimSuffix(filepath.Base(os.Args[0]), filepath.Ext(os.Args[0]))
	ro := func(tool string) sdk.Tool {
		return sdk.NewTool(tool, sdk.ToolOptions{Title: tool, Description: "Says " + tool + " ran.", Safety: sdk.ReadOnly}, named(tool))
	}
	sdk.Serve(sdk.Toolset{
		Name:        name,
		Version:     "0.0.1",
		Description: "Test toolset for the security tests.",
		Tools: []sdk.Tool{
			ro("server_info"), ro("node"), ro("x_env"),
			sdk.NewTool("env", sdk.ToolOptions{Title: "Environment", Description: "The plugin's environment.", Safety: sdk.ReadOnly}, env),
			sdk.NewTool("spawn", sdk.ToolOptions{Title: "Spawn", Description: "Starts a child that sleeps 300 s.", Safety: sdk.Runtime}, spawn),
		},
	})
}
