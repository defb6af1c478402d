package bench

import (
	"strings"
	"testing"

	"github.com/godot-mcp/godot-mcp/internal/testing/hosttest"
	"github.com/mark3labs/mcp-go/mcp"
)

func mcpListTools() mcp.ListToolsRequest { return mcp.ListToolsRequest{} }

// childPid finds host's child process whose executable is named name.
func childPid(tb testing.TB, host int, name string) int {
	tb.Helper()
	return hosttest.WaitChild(tb, host, name, func(c hosttest.Child) bool {
		return strings.HasSuffix(c.Cmdline[0], "/"+name)
	})
}
