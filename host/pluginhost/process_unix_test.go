//go:build unix

package pluginhost

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"os/exec"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/godot-mcp/godot-mcp/internal/plugmodel"
	"github.com/godot-mcp/godot-mcp/internal/testing/hosttest"
	"golang.org/x/sys/unix"
)

func killPid(pid int) error { return syscall.Kill(pid, syscall.SIGKILL) }

func dup2(from, to int) error { return unix.Dup2(from, to) }

// processAlive reports whether pid runs (zombies count as gone).
func processAlive(pid int) bool {
	if pid <= 0 {
		return false
	}
	if err := syscall.Kill(pid, 0); err != nil {
		return false
	}
	stat, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid))
	if err != nil {
		return !os.IsNotExist(err) // no /proc (macOS): trust kill(0)
	}
	// The state follows the parenthesised command name.
	if i := bytes.LastIndexByte(stat, ')'); i >= 0 && i+2 < len(stat) {
		return stat[i+2] != 'Z'
	}
	return true
}

// childPids lists this process's living children (Linux; nil elsewhere).
func childPids(testing.TB) []int {
	var out []int
	for _, c := range hosttest.Children(os.Getpid()) {
		out = append(out, c.PID)
	}
	return out
}

// TestPluginOutputNeverReachesStdout redirects this process's real stdout
// (file descriptor 1) while a plugin prints to its stdout and stderr: the
// prints must arrive in the log, and fd 1 must stay empty. It also checks
// the plugin's stdin is not the host's.
func TestPluginOutputNeverReachesStdout(t *testing.T) {
	r, w, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	inR, inW, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	saved, err := syscall.Dup(1)
	if err != nil {
		t.Fatal(err)
	}
	savedStdin := os.Stdin
	captured := make(chan []byte, 1)
	go func() {
		b, _ := io.ReadAll(r)
		captured <- b
	}()
	_, _ = inW.WriteString("HOST-STDIN-SECRET\n") // what an MCP client would send
	os.Stdin = inR
	if err := dup2(int(w.Fd()), 1); err != nil {
		t.Fatal(err)
	}
	restore := func() {
		_ = dup2(saved, 1)
		_ = syscall.Close(saved)
		_ = w.Close()
		os.Stdin = savedStdin
	}
	restored := false
	defer func() {
		if !restored {
			restore()
		}
	}()

	p, logs := launch(t, &fakeServices{})
	print := answer(p.Call(context.Background(), plugmodel.CallRequest{Tool: "print"}))
	stdin := answer(p.Call(context.Background(), plugmodel.CallRequest{Tool: "stdin"}))
	// The plugin's output reaches the host's log asynchronously (go-plugin
	// streams it): wait for it before stopping the plugin, which may drop
	// lines still in flight on a loaded machine.
	markers := []string{"stream=stdout line=PLUGIN-STDOUT-MARKER", "stream=stderr line=PLUGIN-STDERR-MARKER"}
	for deadline := time.Now().Add(10 * time.Second); time.Now().Before(deadline); time.Sleep(20 * time.Millisecond) {
		if l := logs.String(); strings.Contains(l, markers[0]) && strings.Contains(l, markers[1]) {
			break
		}
	}
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	_ = p.Stop(ctx)

	restore()
	restored = true
	_ = inW.Close()
	out := <-captured

	if print.Err != nil || stdin.Err != nil {
		t.Fatalf("calls failed: %v %v", print.Err, stdin.Err)
	}
	if len(out) != 0 {
		t.Fatalf("the host's stdout received %q", out)
	}
	for _, marker := range markers {
		if !strings.Contains(logs.String(), marker) {
			t.Errorf("log lacks %q:\n%s", marker, logs.String())
		}
	}
	var got struct {
		Text string `json:"text"`
	}
	_ = json.Unmarshal(stdin.Structured, &got)
	if got.Text != `"" <nil>` {
		t.Errorf("the plugin's stdin gave %s, want immediate EOF (/dev/null)", got.Text)
	}
}

// hostModeEnv makes the test binary act as a host: launch the test plugin,
// print its pid, and wait to be killed.
const hostModeEnv = "PLUGINHOST_TEST_HOST_MODE"

func runAsHost() {
	p, err := Launch(context.Background(), Spec{Name: "testplugin", Path: os.Getenv(hostModeEnv)}, &fakeServices{}, nil)
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	fmt.Println(p.Pid())
	select {}
}

// TestPluginDiesWithTheHost kills a host process with SIGKILL and expects
// its plugin to go too (Pdeathsig on Linux, the SDK's watchdog elsewhere).
func TestPluginDiesWithTheHost(t *testing.T) {
	self, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	host := exec.Command(self, "-test.run=^$")
	host.Env = append(os.Environ(), hostModeEnv+"="+testPlugin)
	host.Stderr = os.Stderr
	stdout, err := host.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := host.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = host.Process.Kill(); _ = host.Wait() })
	line, err := bufio.NewReader(stdout).ReadString('\n')
	if err != nil {
		t.Fatalf("reading the plugin pid: %v", err)
	}
	pid, err := strconv.Atoi(strings.TrimSpace(line))
	if err != nil || !processAlive(pid) {
		t.Fatalf("plugin pid %q alive=%v", line, processAlive(pid))
	}
	t.Cleanup(func() { _ = syscall.Kill(pid, syscall.SIGKILL) })
	if err := host.Process.Signal(syscall.SIGKILL); err != nil {
		t.Fatal(err)
	}
	_ = host.Wait()
	waitFor(t, 5*time.Second, fmt.Sprintf("orphaned plugin pid %d to exit", pid), func() bool { return !processAlive(pid) })
}
