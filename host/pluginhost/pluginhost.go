// Package pluginhost is the host side of the toolset plugin protocol: it
// starts a toolset executable as a hashicorp/go-plugin subprocess, serves it
// the host's services (the editor bridge, progress, the log) over the
// GRPCBroker, describes it and calls its tools.
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
//   - Call never returns a Go error: a crash, a hang or a cancelled context
//     becomes an INTERNAL_ERROR or TIMEOUT result with a hint, and Exited
//     reports a dead plugin so that the caller can restart it.
//
// Restart policy lives with the caller (host/toolsets).
package pluginhost

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"os/exec"
	"regexp"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	hclog "github.com/hashicorp/go-hclog"
	plugin "github.com/hashicorp/go-plugin"
	"github.com/hashicorp/go-plugin/runner"
	"google.golang.org/grpc"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"

	"github.com/godot-mcp/godot-mcp/host/contract"
	"github.com/godot-mcp/godot-mcp/host/envelope"
	"github.com/godot-mcp/godot-mcp/host/safety"
	"github.com/godot-mcp/godot-mcp/internal/pluginproto"
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
	EditorCommand(command string) (info envelope.CommandInfo, declared bool, err *envelope.Error)
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

// ToolInfo is one tool's declared metadata.
type ToolInfo struct {
	Name, Title, Description  string
	InputSchema, OutputSchema json.RawMessage
	// Safety is "read_only", "mutating", "destructive" or "runtime".
	Safety string
	// DryRun: the tool takes dry_run. Confirm: it refuses without confirm.
	DryRun, Confirm bool
	Preconditions   []string
	// DestructiveWhen: conditions on the arguments that make one call
	// destructive (see safety.Condition). RunsCode: the tool can make code run.
	DestructiveWhen []string
	RunsCode        bool
}

// ResourceInfo is one declared resource; for a resource template, URI is
// the RFC 6570 template.
type ResourceInfo struct {
	URI, Name, Title, Description, MimeType string
}

// PromptArgument is one argument of a prompt.
type PromptArgument struct {
	Name, Description string
	Required          bool
}

// PromptInfo is one declared prompt.
type PromptInfo struct {
	Name, Title, Description string
	Arguments                []PromptArgument
}

// ToolsetInfo is what a plugin says about itself.
type ToolsetInfo struct {
	Name, Version, Description, MinGodot string
	Tools                                []ToolInfo
	// Resources, ResourceTemplates and Prompts are optional.
	Resources, ResourceTemplates []ResourceInfo
	Prompts                      []PromptInfo
	// SDKVersion is the godot-mcp module version the plugin was built
	// with, when known.
	SDKVersion string
	// EditorFiles is the toolset's editor code (installed into
	// res://addons/godot_mcp_ext/<Name>/ on enable) and EditorVersion its
	// stamp; both empty when the toolset ships none.
	EditorFiles   []EditorFile
	EditorVersion string
}

// EditorFile is one file of a toolset's editor code: a clean, relative,
// slash-separated path and its bytes.
type EditorFile struct {
	Path    string
	Content []byte
}

// CallRequest is one tool call.
type CallRequest struct {
	Tool          string
	Arguments     json.RawMessage
	DryRun        bool
	Confirm       bool
	ProgressToken string
	// CallID is the host's id of the call; the plugin tags the call's log
	// records with it (see CallLogger).
	CallID string
}

// Content is one content item: "text", "image", "audio", or "resource" (an
// embedded resource: URI, MimeType, and Text or, when binary, Data).
type Content struct {
	Type, Text, MimeType string
	Data                 []byte
	URI                  string
}

// CallResult is a call's outcome: Structured (a JSON object) and Content, or Err.
type CallResult struct {
	Structured json.RawMessage
	Content    []Content
	Err        *envelope.Error
}

// Plugin is one running toolset plugin.
type Plugin struct {
	spec    Spec
	logger  *slog.Logger
	client  *plugin.Client
	proc    atomic.Pointer[procRunner] // set once go-plugin runs it
	toolset pluginproto.ToolsetClient
	calls   *pluginproto.Mux[pluginproto.CallStreamRequest, pluginproto.CallStreamResponse]
	info    ToolsetInfo
	classes map[string]safety.Class // tool name -> its declared class
	gate    *safety.Gate            // binds the plugin's editor commands to its live calls

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
		Plugins:          plugin.PluginSet{pluginproto.PluginName: &toolsetPlugin{}},
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
			if t := tail.String(); t != "" {
				err = fmt.Errorf("%w; the plugin's last output: %s", err, t)
			}
			err = fmt.Errorf("toolset %q (%s): %w", spec.Name, spec.Path, err)
			p = nil
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
			return p, errors.New("start: cancelled")
		case context.DeadlineExceeded: // killed by stopKill rather than timed out by go-plugin
			err = errors.New("timeout while waiting for plugin to start")
		}
		return p, startFailure(err, startTimeout)
	}
	raw, err := rpc.Dispense(pluginproto.PluginName)
	if err != nil {
		return p, fmt.Errorf("dispense: %w", err)
	}
	conn := raw.(*toolsetConn)
	p.toolset = conn.client
	p.calls = &pluginproto.Mux[pluginproto.CallStreamRequest, pluginproto.CallStreamResponse]{
		Open: conn.client.CallStream,
		Cancel: func(seq uint64) *pluginproto.CallStreamRequest {
			return &pluginproto.CallStreamRequest{Seq: seq, Cancel: true}
		},
		Seq: (*pluginproto.CallStreamResponse).GetSeq,
	}

	// The host services, served once over the broker for the plugin's life.
	hostID := conn.broker.NextId()
	go conn.broker.AcceptAndServe(hostID, func(opts []grpc.ServerOption) *grpc.Server {
		s := grpc.NewServer(append(opts, pluginproto.ServerOptions()...)...)
		pluginproto.RegisterHostServer(s, &hostServer{svc: svc, logger: plog, gate: p.gate})
		return s
	})
	ctx, cancel := context.WithTimeout(ctx, startTimeout)
	defer cancel()
	if _, err := p.toolset.Setup(ctx, &pluginproto.SetupRequest{
		HostBrokerId: hostID, HostVersion: contract.Version, ContractVersion: contract.ContractVersion,
	}); err != nil {
		return p, fmt.Errorf("setup: %w", err)
	}
	desc, err := p.toolset.Describe(ctx, &pluginproto.DescribeRequest{})
	if err != nil {
		return p, fmt.Errorf("describe: %w", err)
	}
	info, err := infoFromProto(desc)
	if err != nil {
		return p, fmt.Errorf("invalid description: %w", err)
	}
	if info.Name != spec.Name {
		return p, fmt.Errorf("the plugin calls itself %q, not %q: a third-party toolset's executable must be named after its toolset", info.Name, spec.Name)
	}
	p.info = info
	p.classes = make(map[string]safety.Class, len(info.Tools))
	for _, t := range info.Tools {
		p.classes[t.Name] = safety.Class(t.Safety)
	}
	plog.Debug("toolset plugin started", "pid", p.Pid(), "version", info.Version, "tools", len(info.Tools))
	return p, nil
}

// Spec returns the spec the plugin was launched from.
func (p *Plugin) Spec() Spec { return p.spec }

// Info returns the plugin's description, as read at Launch.
func (p *Plugin) Info() ToolsetInfo { return p.info }

// Pid is the plugin's process id (0 if it never started).
func (p *Plugin) Pid() int {
	if r := p.proc.Load(); r != nil {
		return r.Pid()
	}
	return 0
}

// Exited reports whether the plugin can serve no more calls: its process
// exited, or its connection broke (then the process is being killed).
func (p *Plugin) Exited() bool { return p.broken.Load() || p.client.Exited() }

// Kill ends the plugin at once (SIGKILL), and the children it left in its
// process group, and waits for it to be reaped.
func (p *Plugin) Kill() {
	p.broken.Store(true)
	if p.calls != nil {
		p.calls.Close()
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
	done := make(chan struct{})
	go func() {
		defer close(done)
		if p.calls != nil {
			p.calls.Close()
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

// Call runs one tool. It never fails with a Go error: every failure is a
// CallResult.Err with a hint for the agent.
func (p *Plugin) Call(ctx context.Context, req CallRequest) CallResult {
	name := p.info.Name
	if p.Exited() {
		return CallResult{Err: envelope.Errorf(envelope.InternalError,
			"Toolset '%s' is not running (its process exited); it will be restarted on the next call. Retry once.", name)}
	}
	args := req.Arguments
	if len(args) == 0 {
		args = json.RawMessage("{}")
	}
	// The editor commands the call sends carry its id; the gate holds them
	// to the tool's class while it runs, and refuses them once it returned.
	callID, end := p.gate.Begin(req.CallID, safety.SendCall{Tool: req.Tool, Class: p.classes[req.Tool], DryRun: req.DryRun, Confirm: req.Confirm})
	res := p.call(ctx, req, &pluginproto.CallRequest{
		Tool: req.Tool, ArgumentsJson: args, DryRun: req.DryRun, Confirm: req.Confirm, ProgressToken: req.ProgressToken, CallId: callID,
	})
	if refusal := end(); refusal != nil {
		return CallResult{Err: refusal} // the toolset may not answer ok after a refused command
	}
	return res
}

func (p *Plugin) call(ctx context.Context, req CallRequest, call *pluginproto.CallRequest) CallResult {
	name := p.info.Name
	// A message on the plugin's CallStream; a unary Call for plugins built
	// before it.
	answer, sent, err := p.calls.Do(ctx, func(seq uint64, deadlineMs int64) *pluginproto.CallStreamRequest {
		return &pluginproto.CallStreamRequest{Seq: seq, Call: call, DeadlineMs: deadlineMs}
	})
	resp := answer.GetResponse()
	if !sent {
		resp, err = p.toolset.Call(ctx, call)
	}
	if err != nil {
		return CallResult{Err: p.callFailure(ctx, req.Tool, err)}
	}
	return resultFromProto(name, resp)
}

// ResourceContents is the content of one resource: Text, or Blob when Binary.
type ResourceContents struct {
	URI, MimeType, Text string
	Blob                []byte
	Binary              bool
}

// ResourceResult is a read's outcome: Contents, or Err.
type ResourceResult struct {
	Contents []ResourceContents
	Err      *envelope.Error
}

// PromptMessage is one message of a rendered prompt.
type PromptMessage struct {
	Role    string
	Content Content
}

// PromptResult is a rendered prompt, or Err.
type PromptResult struct {
	Description string
	Messages    []PromptMessage
	Err         *envelope.Error
}

// ReadResource reads uri; template and params are set when uri matched one
// of the plugin's resource templates. Like Call it never fails with a Go
// error.
func (p *Plugin) ReadResource(ctx context.Context, uri, template string, params map[string]string) ResourceResult {
	if p.Exited() {
		return ResourceResult{Err: envelope.Errorf(envelope.InternalError,
			"Toolset '%s' is not running (its process exited); it will be restarted on the next call. Retry once.", p.info.Name)}
	}
	callID, end := p.gate.Begin("", safety.SendCall{Tool: "resource " + uri, Class: safety.ReadOnly})
	resp, err := p.toolset.ReadResource(ctx, &pluginproto.ReadResourceRequest{Uri: uri, UriTemplate: template, Params: params, CallId: callID})
	if refusal := end(); refusal != nil {
		return ResourceResult{Err: refusal}
	}
	if err != nil {
		return ResourceResult{Err: p.callFailure(ctx, "resources/read "+uri, err)}
	}
	return resourceResultFromProto(p.info.Name, resp)
}

// GetPrompt renders the plugin's prompt name (its own, unqualified name).
// Like Call it never fails with a Go error.
func (p *Plugin) GetPrompt(ctx context.Context, name string, args map[string]string) PromptResult {
	if p.Exited() {
		return PromptResult{Err: envelope.Errorf(envelope.InternalError,
			"Toolset '%s' is not running (its process exited); it will be restarted on the next call. Retry once.", p.info.Name)}
	}
	callID, end := p.gate.Begin("", safety.SendCall{Tool: "prompt " + name, Class: safety.ReadOnly})
	resp, err := p.toolset.GetPrompt(ctx, &pluginproto.GetPromptRequest{Name: name, Arguments: args, CallId: callID})
	if refusal := end(); refusal != nil {
		return PromptResult{Err: refusal}
	}
	if err != nil {
		return PromptResult{Err: p.callFailure(ctx, "prompts/get "+name, err)}
	}
	return promptResultFromProto(p.info.Name, resp)
}

// callFailure explains a Call that got no answer from the plugin.
func (p *Plugin) callFailure(ctx context.Context, tool string, err error) *envelope.Error {
	name := p.info.Name
	// gRPC's own deadline timer can fire a moment before ctx's: look at both.
	code := status.Code(err)
	dl, hasDeadline := ctx.Deadline()
	switch {
	case ctx.Err() == context.DeadlineExceeded || (code == codes.DeadlineExceeded && hasDeadline && !time.Now().Before(dl.Add(-50*time.Millisecond))):
		return envelope.Errorf(envelope.Timeout,
			"Toolset '%s' did not finish '%s' in time. Check the editor's state before retrying: the tool may have partly run.", name, tool)
	case ctx.Err() == context.Canceled || code == codes.Canceled:
		return envelope.Errorf(envelope.InternalError,
			"The call to '%s' was cancelled before toolset '%s' answered.", tool, name)
	}
	// The connection failed: the plugin crashed or is about to be gone.
	// Wait briefly for the process to be reaped so Exited is true when we
	// return; kill it if it lingers with a broken connection.
	p.broken.Store(true)
	deadline := time.Now().Add(2 * time.Second)
	for !p.client.Exited() && time.Now().Before(deadline) {
		time.Sleep(10 * time.Millisecond)
	}
	if !p.client.Exited() {
		go p.Kill()
	}
	p.logger.Error("toolset plugin failed during a call", "tool", tool, "error", err, "exited", p.client.Exited())
	return envelope.Errorf(envelope.InternalError,
		"toolset '%s' crashed during the call; it will be restarted on the next call. Retry once; if it crashes again, check the server log (stderr).", name)
}

// startFailure explains a plugin that did not complete go-plugin's handshake.
func startFailure(err error, timeout time.Duration) error {
	const hint = "a toolset must be built with the godot-mcp SDK (sdk.Serve) for this OS and architecture, and print nothing to stdout before sdk.Serve"
	switch msg := err.Error(); {
	case strings.Contains(msg, "timeout while waiting for plugin to start"):
		return fmt.Errorf("start: it did not complete the godot-mcp plugin handshake within %s (%s)", timeout, hint)
	case strings.Contains(msg, "plugin exited before we could connect"),
		strings.Contains(msg, "Unrecognized remote plugin message: \nFailed to read any lines"):
		return fmt.Errorf("start: it exited before completing the godot-mcp plugin handshake (%s)", hint)
	}
	return fmt.Errorf("start: %w", err)
}

// toolNameRE is the name rule the SDK enforces, checked again here for
// plugins built without it.
var toolNameRE = regexp.MustCompile(`^[a-z][a-z0-9_]{0,63}$`)

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
