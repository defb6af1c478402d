package main

import (
	"bytes"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"sync"
	"syscall"
	"testing"
	"time"
)

// #24.9: same-user code (a plugin, a game) cannot read the host's secrets
// from /proc/<pid>/environ: the host makes itself non-dumpable. Run as
// root (who reads any process's environ), the host and the reader run as
// another user, the same one for both.
func TestBinaryHostEnvironIsNotReadable(t *testing.T) {
	var cred *syscall.Credential
	bin := binPath
	if os.Geteuid() == 0 {
		cred = &syscall.Credential{Uid: 65534, Gid: 65534}
		dir, err := os.MkdirTemp("", "godot-mcp-nobody")
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { os.RemoveAll(dir) })
		os.Chmod(dir, 0o755)
		data, err := os.ReadFile(binPath)
		if err != nil {
			t.Fatal(err)
		}
		bin = filepath.Join(dir, "godot-mcp")
		if err := os.WriteFile(bin, data, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	home := t.TempDir()
	os.Chmod(home, 0o777)
	cmd := exec.Command(bin)
	cmd.Env = []string{"HOME=" + home, "GODOT_MCP_BRIDGE_URL=ws://127.0.0.1:0", "GODOT_MCP_BRIDGE_TOKEN=sekrit-token-24-9", "GODOT_MCP_PLUGIN_DIR=" + home}
	cmd.SysProcAttr = &syscall.SysProcAttr{Credential: cred}
	stdin, _ := cmd.StdinPipe()
	stderr := &syncBuffer{}
	cmd.Stdout, cmd.Stderr = io.Discard, stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { stdin.Close(); cmd.Process.Kill(); cmd.Wait() })
	environ := "/proc/" + strconv.Itoa(cmd.Process.Pid) + "/environ"
	deadline := time.Now().Add(10 * time.Second)
	for !bytes.Contains(stderr.bytes(), []byte("bridge listening")) && time.Now().Before(deadline) {
		time.Sleep(20 * time.Millisecond)
	}
	reader := exec.Command("cat", environ)
	reader.SysProcAttr = &syscall.SysProcAttr{Credential: cred}
	out, err := reader.Output()
	if bytes.Contains(out, []byte("sekrit-token-24-9")) {
		t.Fatalf("a process of the same user read the host's environment (%v)", err)
	}
	if err == nil {
		t.Fatalf("reading %s succeeded: %q", environ, out)
	}
}

// syncBuffer is a bytes.Buffer safe for one writer and one reader.
type syncBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (s *syncBuffer) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Write(p)
}

func (s *syncBuffer) bytes() []byte {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]byte(nil), s.b.Bytes()...)
}
