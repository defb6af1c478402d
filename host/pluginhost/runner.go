package pluginhost

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"strconv"
	"sync/atomic"

	"github.com/hashicorp/go-plugin/runner"

	"github.com/godot-mcp/godot-mcp/host/config"
)

// procRunner starts a plugin process for go-plugin. go-plugin's own runner
// hands the plugin the host's stdin (the MCP channel); this one gives it
// /dev/null, a process group of its own, and asks the kernel to kill it
// with the host (see setProcAttr).
type procRunner struct {
	cmd    *exec.Cmd
	stdout io.ReadCloser
	stderr io.ReadCloser
	pid    atomic.Int64
}

var _ runner.Runner = (*procRunner)(nil)

func newProcRunner(spec Spec, env []string) (*procRunner, error) {
	if spec.Path == "" {
		return nil, errors.New("no executable path")
	}
	cmd := exec.Command(spec.Path, spec.Args...)
	// The host's secrets (the HTTP and bridge tokens, the approval URL) stay
	// in the host: a plugin, and any game it starts, never sees them.
	cmd.Env = config.ScrubEnv(env)
	cmd.Stdin = nil // /dev/null: the host's stdin belongs to MCP
	setProcAttr(cmd)
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		return nil, err
	}
	stderr, err := cmd.StderrPipe()
	if err != nil {
		return nil, err
	}
	return &procRunner{cmd: cmd, stdout: stdout, stderr: stderr}, nil
}

func (r *procRunner) Start(context.Context) error {
	if err := r.cmd.Start(); err != nil {
		return err
	}
	r.pid.Store(int64(r.cmd.Process.Pid))
	return nil
}

func (r *procRunner) Diagnose(context.Context) string {
	return fmt.Sprintf("%s did not complete the godot-mcp plugin handshake: check that it is a toolset built with the godot-mcp SDK (sdk.Serve) for this OS and architecture, and that it prints nothing to stdout before sdk.Serve", r.cmd.Path)
}

func (r *procRunner) Stdout() io.ReadCloser { return r.stdout }
func (r *procRunner) Stderr() io.ReadCloser { return r.stderr }
func (r *procRunner) Name() string          { return r.cmd.Path }
func (r *procRunner) ID() string            { return strconv.FormatInt(r.pid.Load(), 10) }
func (r *procRunner) Pid() int              { return int(r.pid.Load()) }

func (r *procRunner) Wait(context.Context) error { return r.cmd.Wait() }

// Kill ends the plugin and everything left in its process group.
func (r *procRunner) Kill(context.Context) error {
	if r.cmd.Process == nil {
		return nil
	}
	r.KillGroup()
	if err := r.cmd.Process.Kill(); err != nil && !errors.Is(err, os.ErrProcessDone) {
		return err
	}
	return nil
}

// KillGroup SIGKILLs the processes of the plugin's process group: the
// children it started and left behind (a child that made a group or session
// of its own is out of reach).
func (r *procRunner) KillGroup() {
	if pid := r.Pid(); pid > 0 {
		killGroup(pid)
	}
}

func (r *procRunner) PluginToHost(network, addr string) (string, string, error) {
	return network, addr, nil
}

func (r *procRunner) HostToPlugin(network, addr string) (string, string, error) {
	return network, addr, nil
}
