package main

import (
	"bufio"
	"os"
	"os/exec"
	"strings"
	"syscall"
	"testing"
	"time"
)

// nonblocking reports whether the open file description behind fd (shared
// with the server's stdin) is in non-blocking mode.
func nonblocking(t *testing.T, fd int) bool {
	t.Helper()
	flags, _, errno := syscall.Syscall(syscall.SYS_FCNTL, uintptr(fd), syscall.F_GETFL, 0)
	if errno != 0 {
		t.Fatal(errno)
	}
	return flags&syscall.O_NONBLOCK != 0
}

// The server reads a pipe stdin through the runtime's poller (non-blocking
// mode, so that a call handed to a worker does not wait for the reading
// thread's P), answers over it as before, and leaves the pipe blocking again
// when it exits: a shell or parent that shares the pipe gets it back as it
// gave it.
func TestBinaryStdinPipeIsBlockingAgainAfterExit(t *testing.T) {
	// A plain blocking pipe, as a shell or an MCP client makes one (os.Pipe
	// would make it non-blocking for the test's own poller).
	var fds [2]int
	if err := syscall.Pipe2(fds[:], syscall.O_CLOEXEC); err != nil {
		t.Fatal(err)
	}
	r, w := os.NewFile(uintptr(fds[0]), "stdin-r"), os.NewFile(uintptr(fds[1]), "stdin-w")
	defer r.Close()
	cmd := exec.Command(binPath)
	cmd.Env = append(os.Environ(), "GODOT_MCP_BRIDGE_URL=ws://127.0.0.1:0", "GODOT_MCP_PLUGIN_DIR="+t.TempDir())
	cmd.Stdin = r
	out, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	if nonblocking(t, fds[0]) {
		t.Fatal("the pipe was non-blocking before the server started")
	}
	lines := bufio.NewScanner(out)
	send := func(line string) {
		if _, err := w.WriteString(line + "\n"); err != nil {
			t.Fatal(err)
		}
	}
	send(`{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"t","version":"1"}}}`)
	send(`{"jsonrpc":"2.0","method":"notifications/initialized"}`)
	send(`{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"godot_get_server_info","arguments":{}}}`)
	// The server answers requests concurrently: the two answers may come
	// in either order (and notifications between them).
	seen := map[string]bool{}
	for n := 0; n < 20 && !(seen["1"] && seen["2"]); n++ {
		if !lines.Scan() {
			t.Fatalf("answers so far %v, then none: %v", seen, lines.Err())
		}
		for _, id := range []string{"1", "2"} {
			if strings.HasPrefix(lines.Text(), `{"jsonrpc":"2.0","id":`+id+`,`) {
				seen[id] = true
			}
		}
	}
	if !seen["1"] || !seen["2"] {
		t.Fatalf("want the answers to requests 1 and 2, got %v", seen)
	}
	if !nonblocking(t, fds[0]) {
		t.Error("the server reads its stdin pipe blocking: every call waits for the reading thread's P")
	}
	w.Close()
	done := make(chan error, 1)
	go func() { done <- cmd.Wait() }()
	select {
	case err := <-done:
		if err != nil {
			t.Fatalf("exit: %v", err)
		}
	case <-time.After(10 * time.Second):
		cmd.Process.Kill()
		t.Fatal("the server did not exit when stdin closed")
	}
	if nonblocking(t, fds[0]) {
		t.Fatal("the server left its stdin pipe non-blocking after it exited")
	}
}
