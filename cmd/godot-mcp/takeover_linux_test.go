package main

import (
	"bufio"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/godot-mcp/godot-mcp/internal/testing/hosttest"
)

// #24.2: another local user cannot win the takeover. An owner and an
// attached server share a bridge port; a process of another uid (65534,
// which cannot read the attach file) waits for the owner to die, then
// binds the bridge port and the owner's attach endpoint as fast as it can,
// answers the probe as the dead owner and the client's calls with an
// injected result. Before the fix (a loopback TCP endpoint) it got the
// attach token and answered the attached server's client. Now the
// endpoint is a Unix socket in the 0700 attach directory: the impostor
// cannot bind it, never sees the token, and the attached client is never
// answered by it (the attached server takes the bridge over, or, when the
// impostor holds the bridge port, exits saying it is taken).
func TestBinaryAnotherUserCannotWinTheTakeover(t *testing.T) {
	if os.Geteuid() != 0 {
		t.Skip("needs root to run the impostor as another uid (syscall.Credential uid 65534)")
	}
	bin := filepath.Join(worldDir(t), "impostor")
	if err := hosttest.BuildPackage("./internal/testing/impostor", bin, false); err != nil {
		t.Fatal(err)
	}
	os.Chmod(bin, 0o755)

	port := freePort(t)
	runDir := t.TempDir()
	env := []string{"GODOT_MCP_BRIDGE_URL=ws://127.0.0.1:" + port, "XDG_RUNTIME_DIR=" + runDir}
	owner := startBinary(t, env...)
	owner.Initialize()
	waitLog(t, owner, "other godot-mcp servers for this bridge attach here")
	attached := startBinary(t, env...)
	attached.Initialize()
	waitLog(t, attached, "another godot-mcp server owns the editor bridge")
	if r := call(attached, "godot_get_server_info", nil); r.IsError {
		t.Fatalf("before: %s", r.StructuredContent)
	}

	// What another user learns from /proc: the ports and the socket path
	// the owner listens on (here read from the file, as root), its pid.
	data, err := os.ReadFile(filepath.Join(runDir, "godot-mcp", "bridge-"+port+".json"))
	if err != nil {
		t.Fatal(err)
	}
	var file map[string]any
	json.Unmarshal(data, &file)
	endpoint := "tcp:" + strings.TrimSuffix(strings.TrimPrefix(file["url"].(string), "http://"), "/mcp")
	if sock, _ := file["socket"].(string); sock != "" {
		endpoint = "unix:" + sock
	}
	imp := exec.Command(bin, "-bridge", "127.0.0.1:"+port, "-endpoint", endpoint, "-pid", strconv.Itoa(owner.Cmd.Process.Pid))
	imp.SysProcAttr = &syscall.SysProcAttr{Credential: &syscall.Credential{Uid: 65534, Gid: 65534}}
	out, err := imp.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := imp.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { imp.Process.Kill(); imp.Wait() })
	var mu sync.Mutex
	var events []string
	ready := make(chan struct{})
	go func() {
		sc := bufio.NewScanner(out)
		for sc.Scan() {
			mu.Lock()
			events = append(events, sc.Text())
			mu.Unlock()
			if strings.HasPrefix(sc.Text(), "READY") {
				close(ready)
			}
		}
	}()
	select {
	case <-ready:
	case <-time.After(10 * time.Second):
		t.Fatal("the impostor did not start")
	}
	seen := func() string {
		mu.Lock()
		defer mu.Unlock()
		return strings.Join(events, "\n")
	}

	owner.Cmd.Process.Signal(syscall.SIGKILL)
	owner.Cmd.Wait()
	time.Sleep(500 * time.Millisecond) // the impostor takes what it can
	before := len(attached.Stdout())
	attached.Post("tools/call", map[string]any{"name": "godot_get_server_info", "arguments": map[string]any{}})

	// The attached server either serves the call itself (it took the
	// bridge over) or exits (the impostor holds the bridge port).
	exited := func() bool { // a zombie: Wait is the cleanup's
		stat, err := os.ReadFile("/proc/" + strconv.Itoa(attached.Cmd.Process.Pid) + "/stat")
		_, after, _ := strings.Cut(string(stat), ") ")
		return err != nil || strings.HasPrefix(after, "Z")
	}
	for deadline, answered := time.Now().Add(25*time.Second), false; !answered && !exited() && time.Now().Before(deadline); {
		time.Sleep(50 * time.Millisecond)
		for _, l := range attached.Stdout()[before:] {
			answered = answered || strings.Contains(l, `"id":3`)
		}
	}
	events1 := seen()
	t.Logf("impostor:\n%s", events1)
	for _, l := range attached.Stdout() {
		if strings.Contains(l, "INJECTED") {
			t.Errorf("another user answered the attached server's client: %s", l)
		}
	}
	if strings.Contains(events1, "GOT-TOKEN") {
		t.Error("another user received the attach token")
	}
	if strings.Contains(events1, "\nENDPOINT\n") || strings.HasSuffix(events1, "\nENDPOINT") {
		t.Error("another user listens where attaching servers connect")
	}
	if !strings.Contains(events1, "ENDPOINT-REFUSED") {
		t.Errorf("the impostor was not refused the endpoint:\n%s", events1)
	}
	switch {
	case exited():
		if !strings.Contains(attached.Stderr(), "no godot-mcp server to attach to") {
			t.Errorf("the attached server exited without saying why:\n%s", attached.Stderr())
		}
	case !strings.Contains(attached.Stderr(), "took over the editor bridge"):
		t.Errorf("the attached server neither took the bridge over nor exited:\n%s", attached.Stderr())
	}
}

// worldDir is a temporary directory every user can enter (t.TempDir's
// are 0700), for a program another uid runs.
func worldDir(t *testing.T) string {
	t.Helper()
	dir, err := os.MkdirTemp("", "godot-mcp-impostor-")
	if err != nil {
		t.Fatal(err)
	}
	os.Chmod(dir, 0o755)
	t.Cleanup(func() { os.RemoveAll(dir) })
	return dir
}
