//go:build unix

package pluginhost

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/godot-mcp/godot-mcp/internal/testing/hosttest"
)

// Executables that are not plugins fail Launch within its timeout, with a
// reason, and leave no process behind: not even a child that holds the
// plugin's stdout open (which used to hang go-plugin's Kill forever).
func TestLaunchOfBrokenExecutablesIsBounded(t *testing.T) {
	marker := fmt.Sprintf("8%d.%d", os.Getpid(), time.Now().UnixNano()%1e6)
	cases := []struct {
		name, script, reason string
		kind                 StartKind
	}{
		{"hang", "sleep " + marker + "\n", "did not complete the godot-mcp plugin handshake within", HandshakeTimeout},
		{"forker", "sleep " + marker + " &\nexit 0\n", "exited before completing the godot-mcp plugin handshake", HandshakeExited},
		{"forker_hang", "sleep " + marker + " &\nexec sleep " + marker + "\n", "did not complete the godot-mcp plugin handshake within", HandshakeTimeout},
		{"garbage", "echo 'Hello! I am not a plugin.'\nsleep " + marker + "\n", "Hello! I am not a plugin.", HandshakeInvalid},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			exe := filepath.Join(t.TempDir(), c.name)
			if err := os.WriteFile(exe, []byte("#!/bin/sh\n"+c.script), 0o755); err != nil {
				t.Fatal(err)
			}
			ctx, cancel := context.WithTimeout(context.Background(), time.Second)
			defer cancel()
			start := time.Now()
			p, err := Launch(ctx, Spec{Name: c.name, Path: exe}, &fakeServices{}, nil)
			took := time.Since(start)
			if err == nil {
				p.Kill()
				t.Fatal("a broken executable launched")
			}
			if !strings.Contains(err.Error(), c.reason) {
				t.Errorf("error %q does not say %q", err, c.reason)
			}
			var se *StartError
			if !errors.As(err, &se) || se.Kind != c.kind || se.Toolset != c.name || se.Path != exe {
				t.Errorf("error %#v is not a StartError of kind %d for %s", err, c.kind, exe)
			}
			if took > 3*time.Second {
				t.Errorf("Launch took %v with a 1 s limit", took)
			}
			if left := hosttest.Processes(func(p hosttest.Child) bool {
				return strings.Contains(strings.Join(p.Cmdline, " "), marker)
			}); len(left) > 0 {
				t.Fatalf("left behind: %+v", left)
			}
		})
	}
}
