package hosttest

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"os/exec"
	"strconv"
	"sync"
	"testing"
	"time"

	"github.com/godot-mcp/godot-mcp/internal/rawjson"
)

// LineClient is the real binary driven by a minimal MCP client: JSON-RPC
// lines over stdio, safe for concurrent callers, that decodes only a
// response's envelope. Benchmarks use it so that they measure the server
// rather than a Go client library (mcp-go's client re-encodes and decodes
// every result several times: about 200 µs a small call, seconds for 8 MiB).
type LineClient struct {
	tb     testing.TB
	Cmd    *exec.Cmd
	stderr *syncBuffer

	wmu   sync.Mutex
	stdin io.WriteCloser

	mu      sync.Mutex
	nextID  int
	pending map[string]chan []byte
	closed  bool
}

// LineResult is a tools/call result: the raw structuredContent and isError;
// for a failed call, Structured is the error object of its text content.
type LineResult struct {
	Structured json.RawMessage
	IsError    bool
}

// StartLineClient launches bin like StartClient and performs the handshake.
func StartLineClient(tb testing.TB, bin string, env ...string) *LineClient {
	tb.Helper()
	cmd := exec.Command(bin)
	cmd.Env = serverEnv(tb, "info", env)
	c := &LineClient{tb: tb, Cmd: cmd, stderr: &syncBuffer{}, pending: map[string]chan []byte{}}
	cmd.Stderr = c.stderr
	var err error
	if c.stdin, err = cmd.StdinPipe(); err != nil {
		tb.Fatal(err)
	}
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		tb.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		tb.Fatal(err)
	}
	go c.readLoop(stdout)
	tb.Cleanup(func() {
		c.stdin.Close()
		done := make(chan struct{})
		go func() { cmd.Wait(); close(done) }()
		select {
		case <-done:
		case <-time.After(10 * time.Second):
			cmd.Process.Kill()
			<-done
			tb.Errorf("godot-mcp did not exit after stdin closed")
		}
	})
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	if _, err := c.Request(ctx, "initialize", map[string]any{
		"protocolVersion": "2025-11-25", "capabilities": map[string]any{},
		"clientInfo": map[string]any{"name": "hosttest-line", "version": "1"},
	}); err != nil {
		tb.Fatalf("initialize: %v\n%s", err, c.stderr.String())
	}
	c.write([]byte(`{"jsonrpc":"2.0","method":"notifications/initialized"}` + "\n"))
	return c
}

func (c *LineClient) readLoop(stdout io.Reader) {
	r := bufio.NewReaderSize(stdout, 64<<10)
	for {
		line, err := r.ReadBytes('\n')
		if len(line) > 0 {
			c.dispatch(line)
		}
		if err != nil {
			break
		}
	}
	c.mu.Lock()
	c.closed = true
	for id, ch := range c.pending {
		close(ch)
		delete(c.pending, id)
	}
	c.mu.Unlock()
}

func (c *LineClient) dispatch(line []byte) {
	msg, err := rawjson.Object(line)
	if err != nil {
		return
	}
	id, ok := rawjson.Get(msg, "id")
	if !ok {
		return // a notification
	}
	c.mu.Lock()
	ch := c.pending[string(id)]
	delete(c.pending, string(id))
	c.mu.Unlock()
	if ch != nil {
		ch <- line
	}
}

func (c *LineClient) write(line []byte) error {
	c.wmu.Lock()
	defer c.wmu.Unlock()
	_, err := c.stdin.Write(line)
	return err
}

// Stderr returns the server's log so far.
func (c *LineClient) Stderr() string { return c.stderr.String() }

// BridgeURL reads the actual bridge URL from the server's log.
func (c *LineClient) BridgeURL() string {
	c.tb.Helper()
	return waitBridgeURL(c.tb, c.stderr)
}

// Request sends a request and returns its raw result; a JSON-RPC error is
// returned as err.
func (c *LineClient) Request(ctx context.Context, method string, params any) (json.RawMessage, error) {
	rawParams, err := json.Marshal(params)
	if err != nil {
		return nil, err
	}
	c.mu.Lock()
	if c.closed {
		c.mu.Unlock()
		return nil, fmt.Errorf("%s: the server's stdout is closed", method)
	}
	c.nextID++
	id := strconv.Itoa(c.nextID)
	ch := make(chan []byte, 1)
	c.pending[id] = ch
	c.mu.Unlock()

	line := make([]byte, 0, len(rawParams)+len(method)+64)
	line = append(line, `{"jsonrpc":"2.0","id":`...)
	line = append(line, id...)
	line = append(line, `,"method":`...)
	line = strconv.AppendQuote(line, method)
	line = append(line, `,"params":`...)
	line = append(line, rawParams...)
	line = append(line, "}\n"...)
	if err := c.write(line); err != nil {
		return nil, err
	}
	select {
	case resp, ok := <-ch:
		if !ok {
			return nil, fmt.Errorf("%s: the server's stdout closed before its answer", method)
		}
		msg, err := rawjson.Object(resp)
		if err != nil {
			return nil, err
		}
		if e, ok := rawjson.Get(msg, "error"); ok {
			return nil, fmt.Errorf("%s: JSON-RPC error %s", method, e)
		}
		result, _ := rawjson.Get(msg, "result")
		return result, nil
	case <-ctx.Done():
		c.mu.Lock()
		delete(c.pending, id)
		c.mu.Unlock()
		return nil, ctx.Err()
	}
}

// Call calls a tool.
func (c *LineClient) Call(ctx context.Context, name string, args map[string]any) (LineResult, error) {
	if args == nil {
		args = map[string]any{}
	}
	raw, err := c.Request(ctx, "tools/call", map[string]any{"name": name, "arguments": args})
	if err != nil {
		return LineResult{}, err
	}
	res, err := rawjson.Object(raw)
	if err != nil {
		return LineResult{}, err
	}
	var out LineResult
	out.Structured, _ = rawjson.Get(res, "structuredContent")
	isErr, _ := rawjson.Get(res, "isError")
	out.IsError = string(isErr) == "true"
	if out.IsError {
		var r struct {
			Content []struct {
				Text string `json:"text"`
			} `json:"content"`
		}
		if json.Unmarshal(raw, &r) == nil && len(r.Content) > 0 {
			out.Structured = ErrorObject(r.Content[0].Text)
		}
	}
	return out, nil
}
