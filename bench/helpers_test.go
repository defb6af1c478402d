package bench

import (
	"os"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/mark3labs/mcp-go/mcp"
)

func mcpListTools() mcp.ListToolsRequest { return mcp.ListToolsRequest{} }

// childPid finds host's child process whose command line ends in name.
func childPid(tb testing.TB, host int, name string) int {
	tb.Helper()
	deadline := time.Now().Add(10 * time.Second)
	for time.Now().Before(deadline) {
		entries, _ := os.ReadDir("/proc")
		for _, e := range entries {
			pid, err := strconv.Atoi(e.Name())
			if err != nil {
				continue
			}
			stat, err := os.ReadFile("/proc/" + e.Name() + "/stat")
			if err != nil {
				continue
			}
			fields := strings.Fields(string(stat[strings.LastIndexByte(string(stat), ')')+1:]))
			if len(fields) < 2 || fields[1] != strconv.Itoa(host) {
				continue
			}
			cmdline, _ := os.ReadFile("/proc/" + e.Name() + "/cmdline")
			if strings.HasSuffix(strings.TrimRight(string(cmdline), "\x00"), "/"+name) {
				return pid
			}
		}
		time.Sleep(20 * time.Millisecond)
	}
	tb.Fatalf("no child process %s", name)
	return 0
}
