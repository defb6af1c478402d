package pluginhost

import (
	"context"
	"errors"
	"io"
	"os"
	"os/exec"
	"strconv"
	"sync"
	"sync/atomic"
	"time"

	"github.com/hashicorp/go-plugin/runner"

	"github.com/godot-mcp/godot-mcp/host/config"
)

// pipeGrace is how long the plugin's stdout and stderr stay open after the
// plugin exited, for its last lines, when something else still holds them.
const pipeGrace = time.Second

// procRunner starts a plugin process for go-plugin. go-plugin's own runner
// hands the plugin the host's stdin (the MCP channel); this one gives it
// /dev/null and asks the kernel to kill it with the host (see setProcAttr).
//
// The plugin leads a process group of its own: whatever it starts (a shell
// script's commands, a forked helper) is killed with it. Its stdout and
// stderr are pipes the runner owns: go-plugin reads them until EOF, and
// waits for that EOF before it reaps the plugin and before its Kill returns,
// so a descendant that escaped the group and holds them open would stall
// both forever; the runner closes them shortly after the plugin exited.
type procRunner struct {
	cmd            *exec.Cmd
	stdout, stderr *pipeReader
	outW, errW     *os.File
	pid            atomic.Int64

	process atomic.Pointer[os.Process] // set once started
	exited  chan struct{}              // closed once the plugin is reaped and its group killed
	waitErr error                      // the plugin's exit, valid after exited
	reaped  atomic.Bool
	killed  atomic.Bool // Kill was called: a Start still under way kills what it started
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
	outR, outW, err := os.Pipe()
	if err != nil {
		return nil, err
	}
	errR, errW, err := os.Pipe()
	if err != nil {
		outR.Close()
		outW.Close()
		return nil, err
	}
	cmd.Stdout, cmd.Stderr = outW, errW
	return &procRunner{
		cmd: cmd, stdout: newPipeReader(outR), stderr: newPipeReader(errR), outW: outW, errW: errW,
		exited: make(chan struct{}),
	}, nil
}

func (r *procRunner) Start(context.Context) error {
	err := r.cmd.Start()
	// The child has its own copies of the write ends now (or never will).
	r.outW.Close()
	r.errW.Close()
	if err != nil {
		r.stdout.close()
		r.stderr.close()
		close(r.exited)
		r.reaped.Store(true)
		return err
	}
	r.pid.Store(int64(r.cmd.Process.Pid))
	r.process.Store(r.cmd.Process)
	go r.reap()
	if r.killed.Load() {
		_ = r.Kill(context.Background())
	}
	return nil
}

// reap waits for the plugin, kills what is left of its process group, and
// closes its pipes once they are drained or pipeGrace has passed.
func (r *procRunner) reap() {
	r.waitErr = r.cmd.Wait()
	killGroup(r.Pid())
	r.reaped.Store(true)
	close(r.exited)
	grace := time.NewTimer(pipeGrace)
	defer grace.Stop()
	for _, p := range []*pipeReader{r.stdout, r.stderr} {
		select {
		case <-p.eof:
		case <-grace.C:
		}
	}
	r.stdout.close()
	r.stderr.close()
}

// Diagnose adds nothing to go-plugin's error for a plugin that did not
// complete the handshake: Launch reports it as a StartError (its kind says
// what happened) and host/toolsets says what to check.
func (r *procRunner) Diagnose(context.Context) string { return "" }

func (r *procRunner) Stdout() io.ReadCloser { return r.stdout }
func (r *procRunner) Stderr() io.ReadCloser { return r.stderr }
func (r *procRunner) Name() string          { return r.cmd.Path }
func (r *procRunner) ID() string            { return strconv.FormatInt(r.pid.Load(), 10) }
func (r *procRunner) Pid() int              { return int(r.pid.Load()) }

// Wait returns the plugin's exit status once it is reaped.
func (r *procRunner) Wait(context.Context) error {
	<-r.exited
	return r.waitErr
}

// Kill SIGKILLs the plugin and its process group. It does not wait.
func (r *procRunner) Kill(context.Context) error {
	r.killed.Store(true)
	proc := r.process.Load()
	if proc == nil || r.reaped.Load() {
		return nil // not started (yet: Start checks killed), or gone with its group (see reap)
	}
	killGroup(r.Pid())
	if err := proc.Kill(); err != nil && !errors.Is(err, os.ErrProcessDone) {
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

// pipeReader is the read end of a plugin's stdout or stderr. Closing it
// ends a blocked Read with io.EOF, which is what go-plugin waits for.
type pipeReader struct {
	f       *os.File
	eof     chan struct{}
	eofOnce sync.Once
	closeMu sync.Once
}

func newPipeReader(f *os.File) *pipeReader { return &pipeReader{f: f, eof: make(chan struct{})} }

func (p *pipeReader) Read(b []byte) (int, error) {
	n, err := p.f.Read(b)
	if err != nil {
		p.eofOnce.Do(func() { close(p.eof) })
		if errors.Is(err, os.ErrClosed) {
			err = io.EOF
		}
	}
	return n, err
}

// Close is go-plugin's; the runner closes the pipe itself (see reap).
func (p *pipeReader) Close() error { return nil }

func (p *pipeReader) close() { p.closeMu.Do(func() { p.f.Close() }) }
