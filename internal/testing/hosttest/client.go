package hosttest

import (
	"context"
	"encoding/json"
	"os"
	"os/exec"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/mark3labs/mcp-go/client"
	"github.com/mark3labs/mcp-go/client/transport"
	"github.com/mark3labs/mcp-go/mcp"
)

// Client is the real binary driven by mcp-go's stdio client, which is safe
// for concurrent callers.
type Client struct {
	*client.Client
	tb     testing.TB
	Cmd    *exec.Cmd
	stderr *syncBuffer
}

// StartClient launches bin like Start does and initializes an mcp-go client.
func StartClient(tb testing.TB, bin string, env ...string) *Client {
	tb.Helper()
	c := &Client{tb: tb, stderr: &syncBuffer{}}
	fullEnv := serverEnv(tb, "info", env)
	cli, err := client.NewStdioMCPClientWithOptions(bin, fullEnv, nil,
		transport.WithCommandStderrWriter(c.stderr),
		transport.WithCommandFunc(func(ctx context.Context, command string, env []string, args []string) (*exec.Cmd, error) {
			cmd := exec.CommandContext(ctx, command, args...)
			cmd.Env = env
			c.Cmd = cmd
			return cmd, nil
		}))
	if err != nil {
		tb.Fatal(err)
	}
	c.Client = cli
	tb.Cleanup(func() { cli.Close() })
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	req := mcp.InitializeRequest{}
	req.Params.ProtocolVersion = mcp.LATEST_PROTOCOL_VERSION
	req.Params.ClientInfo = mcp.Implementation{Name: "hosttest", Version: "1"}
	if _, err := cli.Initialize(ctx, req); err != nil {
		tb.Fatalf("initialize: %v\n%s", err, c.stderr.String())
	}
	return c
}

// Stderr returns the server's log so far.
func (c *Client) Stderr() string { return c.stderr.String() }

// BridgeURL reads the actual bridge URL from the server's log.
func (c *Client) BridgeURL() string {
	c.tb.Helper()
	return waitBridgeURL(c.tb, c.stderr)
}

// Call calls a tool; a transport or JSON-RPC error is returned as err.
func (c *Client) Call(ctx context.Context, name string, args map[string]any) (ToolResult, error) {
	req := mcp.CallToolRequest{}
	req.Params.Name = name
	req.Params.Arguments = args
	res, err := c.CallTool(ctx, req)
	if err != nil {
		return ToolResult{}, err
	}
	var out ToolResult
	out.IsError = res.IsError
	out.StructuredContent, _ = json.Marshal(res.StructuredContent)
	for _, content := range res.Content {
		if t, ok := content.(mcp.TextContent); ok {
			out.Content = append(out.Content, struct {
				Type string `json:"type"`
				Text string `json:"text"`
			}{Type: "text", Text: t.Text})
		}
	}
	if out.IsError && len(out.Content) > 0 {
		out.StructuredContent = ErrorObject(out.Content[0].Text)
	}
	return out, nil
}

// RSSMiB reads a process's resident set size in MiB from /proc.
func RSSMiB(pid int) float64 { return ProcMiB(pid, "status", "VmRSS") }

// ProcMiB reads one "Key: N kB" field of /proc/PID/file in MiB (0 when it
// cannot): e.g. ("status", "RssFile") for the resident file-backed pages
// (the binary's code and data), ("smaps_rollup", "Pss") for the
// proportional set size, which counts a page shared by n processes as 1/n.
func ProcMiB(pid int, file, key string) float64 {
	data, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/" + file)
	if err != nil {
		return 0
	}
	for _, line := range strings.Split(string(data), "\n") {
		if strings.HasPrefix(line, key+":") {
			fields := strings.Fields(line)
			if len(fields) < 2 {
				return 0
			}
			kb, _ := strconv.ParseFloat(fields[1], 64)
			return kb / 1024
		}
	}
	return 0
}

// CPUTime is a process's user plus system CPU time so far, from
// /proc/PID/stat (in clock ticks of 10 ms on Linux; 0 when it cannot read).
func CPUTime(pid int) time.Duration {
	data, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/stat")
	if err != nil {
		return 0
	}
	// The command name (field 2) may hold spaces; the fields after it are fixed.
	_, rest, ok := strings.Cut(string(data), ") ")
	if !ok {
		return 0
	}
	f := strings.Fields(rest) // f[0] is field 3 (state): utime is field 14, stime 15
	if len(f) < 13 {
		return 0
	}
	ut, _ := strconv.ParseInt(f[11], 10, 64)
	st, _ := strconv.ParseInt(f[12], 10, 64)
	return time.Duration(ut+st) * 10 * time.Millisecond
}
