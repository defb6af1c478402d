// Package pluginhost is the host side of the toolset plugin protocol: it
// starts a toolset executable as a hashicorp/go-plugin subprocess (Launch),
// serves it the host's services (the editor bridge, progress, the log) over
// the GRPCBroker, describes it and calls its tools. It reaches the plugin
// through the one model interface, plugmodel.Toolset (internal/pluginrpc's
// gRPC client), and serves a toolset that runs in this process (the SDK's
// registry) the same way (Open): same checks, same safety gate.
//
// What it guarantees, whatever the plugin does:
//   - nothing from the plugin reaches the host's stdout (the MCP channel): the
//     plugin's stdout and stderr, and go-plugin's own logs, go to the slog
//     logger; the plugin's stdin is /dev/null, never the host's;
//   - the plugin runs in a process group of its own, and stopping or killing
//     it kills the group: children it left behind do not outlive it;
//   - the plugin dies with the host (Pdeathsig SIGTERM on Linux, on which
//     the SDK kills its process group; the SDK also polls its parent pid);
//   - gRPC messages of up to 64 MiB (plus framing) pass both ways;
//   - a call that gets no answer (a crash, a hang, a cancelled context, an
//     answer over the message limit) fails with a *Failure that says what
//     happened (how the process ended, which limit), and Exited reports a
//     dead plugin so that the caller can restart it.
//
// The plugin host reports facts and writes no words for the agent: restart
// policy and the failure wording the agent sees live with the caller
// (host/toolsets).
package pluginhost

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"os/exec"
	"sync"
	"sync/atomic"
	"time"

	hclog "github.com/hashicorp/go-hclog"
	plugin "github.com/hashicorp/go-plugin"
	"github.com/hashicorp/go-plugin/runner"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"

	"github.com/godot-mcp/godot-mcp/host/buildinfo"
	"github.com/godot-mcp/godot-mcp/host/envelope"
	"github.com/godot-mcp/godot-mcp/host/safety"
	"github.com/godot-mcp/godot-mcp/internal/logcap"
	"github.com/godot-mcp/godot-mcp/internal/pluginproto"
	"github.com/godot-mcp/godot-mcp/internal/pluginrpc"
	"github.com/godot-mcp/godot-mcp/internal/plugmodel"
	"github.com/godot-mcp/godot-mcp/sdk/contract"
)

// HostServices is what the host lends a plugin: the editor bridge and
// progress notifications. Log records go to the logger given to Launch.
type HostServices interface {
	// Send sends command to the editor and waits at most timeout (0: the
	// bridge's default). It always returns a Response. The plugin host
	// calls it only for commands its gate allowed (see EditorCommand).
	Send(ctx context.Context, command string, params json.RawMessage, timeout time.Duration) envelope.Response
	// EditorCommand looks command up in the connected editor's command
	// table (declared false: the editor does not declare it); err is the
	// failure a Send would answer when no editor is connected.
	EditorCommand(command string) (info envelope.CommandInfo, declared bool, err *contract.Error)
	// Progress forwards a progress notification for the call that carried
	// token (never empty).
	Progress(ctx context.Context, token string, progress, total float64, message string)
}

// CallLogger is optionally implemented by HostServices: it receives the log
// records of a tool call (CallRequest.CallID), to forward them to the
// calling client. The records go to the host's log either way.
type CallLogger interface {
	LogCall(ctx context.Context, callID string, level slog.Level, message string, attrs []slog.Attr)
}

// Spec says how to start one toolset.
type Spec struct {
	// Name is the toolset's name. The plugin must describe itself with the
	// same name; for a third-party plugin it is the executable's file name.
	Name string
	// Path is the executable; Args its arguments.
	Path string
	Args []string
	// BuiltIn marks a toolset served by the host binary itself
	// (Path = os.Executable(), Args = {"toolset", "serve", Name}).
	BuiltIn bool
}

// ToolsetInfo and EditorFile are the model's (internal/plugmodel), named
// here for the packages that install editor code (host/projectfiles).
type (
	ToolsetInfo = plugmodel.ToolsetInfo
	EditorFile  = plugmodel.EditorFile
)

// Plugin is one running toolset: a plugin process (Launch) or a toolset in
// this process (Open). Either way the host reaches it through the one
// model interface, plugmodel.Toolset, and holds it to the same checks and
// the same safety gate.
type Plugin struct {
	spec    Spec
	logger  *slog.Logger
	client  *plugin.Client             // nil for an in-process toolset
	proc    atomic.Pointer[procRunner] // set once go-plugin runs it
	conn    plugmodel.Toolset
	closer  func() // ends conn's streams (nil: nothing to end)
	info    plugmodel.ToolsetInfo
	classes map[string]contract.Class // tool name -> its declared class
	gate    *safety.Gate              // binds the plugin's editor commands to its live calls

	broken   atomic.Bool // the connection failed; the process is being killed
	stopOnce sync.Once
}

// DefaultStartTimeout bounds Launch when ctx has no deadline.
const DefaultStartTimeout = 30 * time.Second

// Launch starts the plugin, completes the go-plugin handshake, serves it the
// host services and describes it. ctx bounds the start-up only. On error the
// process is gone.
func Launch(ctx context.Context, spec Spec, svc HostServices, logger *slog.Logger) (p *Plugin, err error) {
	if logger == nil {
		logger = slog.New(slog.DiscardHandler)
	}
	if svc == nil {
		return nil, errors.New("pluginhost: nil HostServices")
	}
	plog := logger.With("toolset", spec.Name)
	startTimeout := DefaultStartTimeout
	if dl, ok := ctx.Deadline(); ok {
		startTimeout = max(time.Until(dl), time.Millisecond)
	}
	tail := &tailBuffer{max: 4 << 10}
	p = &Plugin{spec: spec, logger: plog, gate: safety.NewGate(spec.Name, plog)}
	p.client = plugin.NewClient(&plugin.ClientConfig{
		HandshakeConfig:  pluginproto.Handshake,
		Plugins:          plugin.PluginSet{pluginproto.PluginName: &pluginrpc.Plugin{}},
		AllowedProtocols: []plugin.Protocol{plugin.ProtocolGRPC},
		RunnerFunc: func(_ hclog.Logger, cmd *exec.Cmd, _ string) (runner.Runner, error) {
			r, err := newProcRunner(spec, cmd.Env)
			if err == nil {
				p.proc.Store(r)
			}
			return r, err
		},
		Logger:          newHCLogger(plog),
		Stderr:          tail, // raw stderr lines, also parsed into Logger by go-plugin
		SyncStdout:      newLineLogger(plog, "stdout"),
		SyncStderr:      newLineLogger(plog, "stderr"),
		GRPCDialOptions: pluginproto.DialOptions(),
		StartTimeout:    startTimeout,
	})
	defer func() {
		if err != nil {
			p.client.Kill()
			var se *StartError
			if !errors.As(err, &se) {
				se = &StartError{Kind: StartFailed, Err: err}
			}
			se.Toolset, se.Path, se.Output = spec.Name, spec.Path, tail.String()
			err, p = se, nil
		}
	}()
	// go-plugin's handshake wait knows only its StartTimeout: a ctx that
	// ends first kills the plugin, which ends the wait.
	self := p
	stopKill := context.AfterFunc(ctx, func() {
		if r := self.proc.Load(); r != nil {
			_ = r.Kill(context.Background())
		}
	})
	defer stopKill()
	rpc, err := p.client.Client()
	if err != nil {
		switch ctx.Err() {
		case context.Canceled:
			return p, &StartError{Kind: StartCancelled, Err: err}
		case context.DeadlineExceeded: // killed by stopKill rather than timed out by go-plugin
			return p, &StartError{Kind: HandshakeTimeout, Timeout: startTimeout, Err: err}
		}
		kind := handshakeKind(err)
		if kind == StartFailed || kind == HandshakeInvalid {
			err = fmt.Errorf("start: %w", err)
		}
		return p, &StartError{Kind: kind, Timeout: startTimeout, Err: err}
	}
	raw, err := rpc.Dispense(pluginproto.PluginName)
	if err != nil {
		return p, fmt.Errorf("dispense: %w", err)
	}
	conn, ok := raw.(*pluginrpc.Client)
	if !ok {
		return p, fmt.Errorf("dispense: unexpected %T", raw)
	}
	p.conn, p.closer = conn, conn.Close
	ctx, cancel := context.WithTimeout(ctx, startTimeout)
	defer cancel()
	if err := p.open(ctx, svc); err != nil {
		return p, err
	}
	plog.Debug("toolset plugin started", "pid", p.Pid(), "version", p.info.Version, "tools", len(p.info.Tools))
	return p, nil
}

// Open serves ts, a toolset that runs in this process (such as the SDK's
// registry), as Launch serves a plugin process: the same Setup, the same
// checks of its description and answers, the same gate on the editor
// commands it sends. spec.Name is the name ts must describe itself with;
// Path and Args are unused.
func Open(ctx context.Context, spec Spec, ts plugmodel.Toolset, svc HostServices, logger *slog.Logger) (*Plugin, error) {
	if logger == nil {
		logger = slog.New(slog.DiscardHandler)
	}
	if svc == nil {
		return nil, errors.New("pluginhost: nil HostServices")
	}
	plog := logger.With("toolset", spec.Name)
	p := &Plugin{spec: spec, logger: plog, gate: safety.NewGate(spec.Name, plog), conn: ts}
	if err := p.open(ctx, svc); err != nil {
		return nil, &StartError{Kind: StartFailed, Toolset: spec.Name, Err: err}
	}
	return p, nil
}

// open sets up p.conn with the host services, reads and checks its
// description.
func (p *Plugin) open(ctx context.Context, svc HostServices) error {
	host := &gatedHost{svc: svc, logger: p.logger, gate: p.gate, warn: logcap.NewLimiter(10 * time.Second)}
	if err := p.conn.Setup(ctx, plugmodel.HostConfig{Host: host, HostVersion: buildinfo.Version, ContractVersion: contract.ContractVersion}); err != nil {
		return fmt.Errorf("setup: %w", err)
	}
	info, err := p.conn.Describe(ctx)
	if err != nil {
		return fmt.Errorf("describe: %w", err)
	}
	if err := checkInfo(info); err != nil {
		return fmt.Errorf("invalid description: %w", err)
	}
	if info.Name != p.spec.Name {
		return fmt.Errorf("the plugin calls itself %q, not %q: a third-party toolset's executable must be named after its toolset", info.Name, p.spec.Name)
	}
	p.info = info
	p.classes = make(map[string]contract.Class, len(info.Tools))
	for _, t := range info.Tools {
		p.classes[t.Name] = contract.Class(t.Safety)
	}
	return nil
}

// Spec returns the spec the plugin was launched from.
func (p *Plugin) Spec() Spec { return p.spec }

// Info returns the plugin's description, as read at Launch.
func (p *Plugin) Info() plugmodel.ToolsetInfo { return p.info }

// Pid is the plugin's process id (0 if it never started).
func (p *Plugin) Pid() int {
	if r := p.proc.Load(); r != nil {
		return r.Pid()
	}
	return 0
}

// Exited reports whether the plugin can serve no more calls: its process
// exited, or its connection broke (then the process is being killed).
func (p *Plugin) Exited() bool { return p.broken.Load() || (p.client != nil && p.client.Exited()) }

// Kill ends the plugin at once (SIGKILL), and the children it left in its
// process group, and waits for it to be reaped.
func (p *Plugin) Kill() {
	p.broken.Store(true)
	if p.closer != nil {
		p.closer()
	}
	if p.client == nil {
		return
	}
	if r := p.proc.Load(); r != nil {
		_ = r.Kill(context.Background())
	}
	p.client.Kill()
	if r := p.proc.Load(); r != nil {
		r.KillGroup()
	}
}

// Stop asks the plugin to exit and waits for it; when ctx ends first the
// plugin is killed and ctx's error returned. Either way no process is left.
func (p *Plugin) Stop(ctx context.Context) error {
	if p.client == nil {
		p.Kill()
		return nil
	}
	done := make(chan struct{})
	go func() {
		defer close(done)
		if p.closer != nil {
			p.closer()
		}
		p.stopOnce.Do(p.client.Kill) // graceful: go-plugin's controller shutdown
	}()
	select {
	case <-done:
		p.broken.Store(true)
		if r := p.proc.Load(); r != nil {
			r.KillGroup() // what the plugin started and left running
		}
		return nil
	case <-ctx.Done():
		p.Kill()
		<-done
		return ctx.Err()
	}
}

// notRunning is the failure of a call to a plugin that exited.
func (p *Plugin) notRunning(op string) *Failure {
	return &Failure{Kind: NotRunning, Toolset: p.info.Name, Op: op, Exit: p.exit()}
}

// exit is how the plugin process ended (zero while it runs, or for a
// toolset in this process).
func (p *Plugin) exit() Exit {
	r := p.proc.Load()
	if r == nil {
		return Exit{}
	}
	select {
	case <-r.exited:
		return exitOf(r.waitErr)
	default:
		return Exit{}
	}
}

// Call runs one tool (req.Tool is the toolset's own name). The result is
// the plugin's answer (an error answer included) or the host's refusal of
// it; err, a *Failure, is a call that got no answer (the plugin crashed,
// the context ended, the answer was over the protocol's limit), and
// reports what happened for the caller to word.
func (p *Plugin) Call(ctx context.Context, req plugmodel.CallRequest) (plugmodel.CallResult, error) {
	if p.Exited() {
		return plugmodel.CallResult{}, p.notRunning(req.Tool)
	}
	if len(req.Arguments) == 0 {
		req.Arguments = json.RawMessage("{}")
	}
	// The editor commands the call sends carry its id; the gate holds them
	// to the tool's class while it runs, and refuses them once it returned.
	callID, end := p.gate.Begin(req.CallID, safety.SendCall{Tool: req.Tool, Class: p.classes[req.Tool], DryRun: req.DryRun, Confirm: req.Confirm, ProgressToken: req.ProgressToken})
	req.CallID = callID
	res, err := p.conn.Call(ctx, req)
	var fail *Failure
	if err != nil {
		fail = p.callFailure(ctx, req.Tool, err)
	} else {
		res = checkResult(p.info.Name, res)
	}
	if refusal := end(); refusal != nil {
		return plugmodel.CallResult{Err: refusal}, nil // the toolset may not answer ok after a refused command
	}
	if fail != nil {
		return plugmodel.CallResult{}, fail
	}
	return res, nil
}

// ReadResource reads req.URI; req.Template and req.Params are set when the
// URI matched one of the toolset's resource templates. It fails as Call does.
func (p *Plugin) ReadResource(ctx context.Context, req plugmodel.ResourceRequest) (plugmodel.ResourceResult, error) {
	op := "resources/read " + req.URI
	if p.Exited() {
		return plugmodel.ResourceResult{}, p.notRunning(op)
	}
	callID, end := p.gate.Begin("", safety.SendCall{Tool: "resource " + req.URI, Class: contract.ReadOnly})
	req.CallID = callID
	res, err := p.conn.ReadResource(ctx, req)
	if refusal := end(); refusal != nil {
		return plugmodel.ResourceResult{Err: refusal}, nil
	}
	if err != nil {
		return plugmodel.ResourceResult{}, p.callFailure(ctx, op, err)
	}
	return checkResourceResult(p.info.Name, res), nil
}

// GetPrompt renders the toolset's prompt req.Name (its own, unqualified
// name). It fails as Call does.
func (p *Plugin) GetPrompt(ctx context.Context, req plugmodel.PromptRequest) (plugmodel.PromptResult, error) {
	op := "prompts/get " + req.Name
	if p.Exited() {
		return plugmodel.PromptResult{}, p.notRunning(op)
	}
	callID, end := p.gate.Begin("", safety.SendCall{Tool: "prompt " + req.Name, Class: contract.ReadOnly})
	req.CallID = callID
	res, err := p.conn.GetPrompt(ctx, req)
	if refusal := end(); refusal != nil {
		return plugmodel.PromptResult{Err: refusal}, nil
	}
	if err != nil {
		return plugmodel.PromptResult{}, p.callFailure(ctx, op, err)
	}
	return checkPromptResult(p.info.Name, res), nil
}

// exitGrace is how long a call whose connection failed waits for the
// plugin process to be reaped before it kills it.
const exitGrace = 2 * time.Second

// callFailure says what happened to op, which got no answer from the plugin.
func (p *Plugin) callFailure(ctx context.Context, op string, err error) *Failure {
	f := &Failure{Toolset: p.info.Name, Op: op, Err: err}
	// gRPC's own deadline timer can fire a moment before ctx's: look at both.
	code := status.Code(err)
	dl, hasDeadline := ctx.Deadline()
	switch {
	case ctx.Err() == context.DeadlineExceeded || (code == codes.DeadlineExceeded && hasDeadline && !time.Now().Before(dl.Add(-50*time.Millisecond))):
		f.Kind = TimedOut
		return f
	case ctx.Err() == context.Canceled || code == codes.Canceled:
		f.Kind = Cancelled
		return f
	case code == codes.ResourceExhausted:
		// The answer (or the request) was larger than the plugin protocol
		// carries; gRPC refused it on one side and the plugin is fine.
		p.logger.Warn("toolset message over the plugin protocol's limit", "op", op, "error", err)
		f.Kind, f.Limit = OverLimit, pluginproto.MaxMessageBytes
		return f
	}
	r := p.proc.Load()
	if p.client == nil || r == nil { // in-process: nothing crashed, the toolset failed
		p.logger.Error("in-process toolset failed during a call", "op", op, "error", err)
		f.Kind = Failed
		return f
	}
	// The connection failed: the plugin crashed or is about to be gone.
	// Wait (a bounded while) for the process to be reaped, to report how
	// it ended; kill it if it lingers with a broken connection.
	f.Kind = Crashed
	p.broken.Store(true)
	grace := time.NewTimer(exitGrace)
	defer grace.Stop()
	select {
	case <-r.exited:
		f.Exit = exitOf(r.waitErr)
	case <-grace.C:
		go p.Kill()
	}
	p.logger.Error("toolset plugin failed during a call", "op", op, "error", err, "exit", f.Exit.String())
	return f
}

// tailBuffer keeps the last max bytes written, for start-up error messages.
type tailBuffer struct {
	mu  sync.Mutex
	max int
	buf []byte
}

func (t *tailBuffer) Write(b []byte) (int, error) {
	t.mu.Lock()
	defer t.mu.Unlock()
	t.buf = append(t.buf, b...)
	if over := len(t.buf) - t.max; over > 0 {
		t.buf = append([]byte(nil), t.buf[over:]...)
	}
	return len(b), nil
}

func (t *tailBuffer) String() string {
	t.mu.Lock()
	defer t.mu.Unlock()
	return string(bytes.TrimSpace(t.buf))
}
