package pluginhost

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/godot-mcp/godot-mcp/host/envelope"
	"github.com/godot-mcp/godot-mcp/internal/plugmodel"
	"github.com/godot-mcp/godot-mcp/sdk/contract"
)

// testPlugin is the path of testdata/testplugin, built once by TestMain.
var testPlugin string

func TestMain(m *testing.M) {
	if os.Getenv(hostModeEnv) != "" {
		runAsHost() // a child process standing in for godot-mcp; never returns
	}
	dir, err := os.MkdirTemp("", "pluginhost-test")
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	testPlugin = filepath.Join(dir, "testplugin")
	build := exec.Command("go", "build", "-o", testPlugin, "./testdata/testplugin")
	build.Stdout, build.Stderr = os.Stderr, os.Stderr
	if err := build.Run(); err != nil {
		fmt.Fprintln(os.Stderr, "building the test plugin:", err)
		os.Exit(1)
	}
	code := m.Run()
	_ = os.RemoveAll(dir)
	os.Exit(code)
}

// fakeServices is a HostServices that records what plugins ask for.
type fakeServices struct {
	mu       sync.Mutex
	commands []envelope.Command
	progress []string
	answer   func(ctx context.Context, command string, params json.RawMessage) envelope.Response
	table    map[string]envelope.CommandInfo // nil: testCommands
}

func (f *fakeServices) Send(ctx context.Context, command string, params json.RawMessage, _ time.Duration) envelope.Response {
	f.mu.Lock()
	f.commands = append(f.commands, envelope.Command{Command: command, Params: params})
	answer := f.answer
	f.mu.Unlock()
	if answer != nil {
		return answer(ctx, command, params)
	}
	return envelope.Response{ID: "1", OK: true, Result: json.RawMessage(`{"echoed":` + string(params) + `}`)}
}

// testCommands is the command table fakeServices declares by default.
var testCommands = map[string]envelope.CommandInfo{
	"cmd_testplugin_echo":    {Class: "read_only", Owner: "testplugin"},
	"cmd_testplugin_started": {Class: "read_only", Owner: "testplugin"},
	"cmd_testplugin_delete":  {Class: "destructive", Owner: "testplugin", DryRun: true},
}

func (f *fakeServices) EditorCommand(command string) (envelope.CommandInfo, bool, *contract.Error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	table := f.table
	if table == nil {
		table = testCommands
	}
	info, ok := table[command]
	return info, ok, nil
}

func (f *fakeServices) Progress(_ context.Context, token string, progress, total float64, message string) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.progress = append(f.progress, fmt.Sprintf("%s %v/%v %s", token, progress, total, message))
}

func (f *fakeServices) sent() []envelope.Command {
	f.mu.Lock()
	defer f.mu.Unlock()
	return append([]envelope.Command(nil), f.commands...)
}

// logBuffer collects slog output safely across goroutines.
type logBuffer struct {
	mu  sync.Mutex
	buf bytes.Buffer
}

func (l *logBuffer) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.buf.Write(p)
}

func (l *logBuffer) String() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.buf.String()
}

func testSpec() Spec { return Spec{Name: "testplugin", Path: testPlugin} }

// launch starts the test plugin and stops it at the end of the test.
func launch(t testing.TB, svc HostServices) (*Plugin, *logBuffer) {
	t.Helper()
	logs := &logBuffer{}
	logger := slog.New(slog.NewTextHandler(logs, &slog.HandlerOptions{Level: slog.LevelDebug}))
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	p, err := Launch(ctx, testSpec(), svc, logger)
	if err != nil {
		t.Fatalf("Launch: %v", err)
	}
	t.Cleanup(func() {
		ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
		defer cancel()
		_ = p.Stop(ctx)
	})
	return p, logs
}

// waitFor polls cond until it holds or the deadline passes.
func waitFor(t testing.TB, within time.Duration, what string, cond func() bool) {
	t.Helper()
	deadline := time.Now().Add(within)
	for !cond() {
		if time.Now().After(deadline) {
			t.Fatalf("timed out after %s waiting for %s", within, what)
		}
		time.Sleep(10 * time.Millisecond)
	}
}

func TestLaunchDescribes(t *testing.T) {
	p, _ := launch(t, &fakeServices{})
	info := p.Info()
	if info.Name != "testplugin" || info.Version != "1.2.3" || info.MinGodot != "4.2" || info.Description == "" {
		t.Fatalf("info = %+v", info)
	}
	tools := map[string]plugmodel.ToolInfo{}
	for _, tl := range info.Tools {
		tools[tl.Name] = tl
	}
	echo, wipe := tools["echo"], tools["wipe"]
	if echo.Title != "Echo" || echo.Safety != "read_only" || echo.DryRun || echo.Confirm {
		t.Errorf("echo = %+v", echo)
	}
	if !strings.Contains(string(echo.InputSchema), `"text":{"type":"string","description":"Sent to the editor as cmd_echo's params.text."}`) {
		t.Errorf("echo input schema = %s", echo.InputSchema)
	}
	if !json.Valid(echo.OutputSchema) {
		t.Errorf("echo output schema = %s", echo.OutputSchema)
	}
	if wipe.Safety != "destructive" || !wipe.DryRun || !wipe.Confirm || len(wipe.Preconditions) != 1 || wipe.Preconditions[0] != "active_scene" {
		t.Errorf("wipe = %+v", wipe)
	}
	if p.Pid() <= 0 || p.Exited() {
		t.Errorf("pid %d exited %v", p.Pid(), p.Exited())
	}
	if p.Spec().Path != testPlugin {
		t.Errorf("spec = %+v", p.Spec())
	}
}

func TestCallRoundTrip(t *testing.T) {
	svc := &fakeServices{}
	p, logs := launch(t, svc)
	ctx := context.Background()

	res := answer(p.Call(ctx, plugmodel.CallRequest{Tool: "echo", Arguments: json.RawMessage(`{"text":"hi"}`), ProgressToken: "tok-1"}))
	if res.Err != nil {
		t.Fatalf("echo: %v", res.Err)
	}
	if want := `{"echo":{"echoed":{"text":"hi"}},"len":24}`; string(res.Structured) != want {
		t.Errorf("structured = %s, want %s", res.Structured, want)
	}
	if got := svc.sent(); len(got) != 1 || got[0].Command != "cmd_testplugin_echo" || string(got[0].Params) != `{"text":"hi"}` {
		t.Errorf("the host was asked %+v", got)
	}
	if len(svc.progress) != 1 || svc.progress[0] != "tok-1 1/1 echoed" {
		t.Errorf("progress = %q", svc.progress)
	}
	waitFor(t, 5*time.Second, "the plugin's log record", func() bool {
		return strings.Contains(logs.String(), `msg=echoed toolset=testplugin tool=echo bytes=24`)
	})

	cases := []struct {
		name         string
		req          plugmodel.CallRequest
		answer       *contract.Error
		wantCode     contract.ErrorCode
		wantRequired string
		wantHint     string
	}{
		{"editor failure", plugmodel.CallRequest{Tool: "echo", Arguments: json.RawMessage(`{"text":"x"}`)},
			contract.Precondition(contract.RequireActiveScene, "Open a scene."), contract.PreconditionFailed, "active_scene", "Open a scene."},
		{"no editor", plugmodel.CallRequest{Tool: "echo", Arguments: json.RawMessage(`{"text":"x"}`)},
			&contract.Error{Code: contract.BridgeDisconnected, Hint: "No editor.", Required: contract.RequireBridgeConnected}, contract.BridgeDisconnected, "bridge_connected", "No editor."},
		// The host validates arguments before it calls (mcpserver); a
		// plugin handed arguments that do not fit still refuses them.
		{"arguments that do not fit", plugmodel.CallRequest{Tool: "echo", Arguments: json.RawMessage(`{"text":1}`)},
			nil, contract.ValidationError, "", `arguments do not fit tool "echo"`},
		{"panic in a tool", plugmodel.CallRequest{Tool: "panic"}, nil, contract.InternalError, "", "panicked: tool bug"},
		{"destructive without confirm", plugmodel.CallRequest{Tool: "wipe"}, nil, contract.PreconditionFailed, "confirm", "confirm: true"},
		{"unknown tool", plugmodel.CallRequest{Tool: "nope"}, nil, contract.ResourceNotFound, "", `has no tool "nope"`},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			svc.mu.Lock()
			svc.answer = func(context.Context, string, json.RawMessage) envelope.Response {
				if tc.answer != nil {
					return envelope.Failure("2", tc.answer)
				}
				return envelope.Response{OK: true, Result: json.RawMessage(`{}`)}
			}
			svc.mu.Unlock()
			res := answer(p.Call(ctx, tc.req))
			if res.Err == nil || res.Err.Code != tc.wantCode || res.Err.Required != tc.wantRequired || !strings.Contains(res.Err.Hint, tc.wantHint) {
				t.Fatalf("err = %+v, want %s/%q containing %q", res.Err, tc.wantCode, tc.wantRequired, tc.wantHint)
			}
			if res.Structured != nil {
				t.Errorf("failed call has a result %s", res.Structured)
			}
		})
	}
	// The plugin survived the panic.
	if res := answer(p.Call(ctx, plugmodel.CallRequest{Tool: "wipe", DryRun: true})); res.Err != nil || string(res.Structured) != `{"text":"dry_run=true confirm=false"}` {
		t.Fatalf("after a panic: %+v", res)
	}
	res = answer(p.Call(ctx, plugmodel.CallRequest{Tool: "image"}))
	if res.Err != nil || len(res.Content) != 2 || res.Content[0].Type != "image" || res.Content[0].MimeType != "image/png" ||
		string(res.Content[0].Data) != "\x89PNG\r\n" || res.Content[1].Text != "a caption" {
		t.Fatalf("image: %+v", res)
	}
}

func TestResourcesAndPromptsRoundTrip(t *testing.T) {
	svc := &fakeServices{}
	p, _ := launch(t, svc)
	ctx := context.Background()
	info := p.Info()
	if len(info.Resources) != 1 || info.Resources[0] != (plugmodel.ResourceInfo{URI: "test://editor/echo", Name: "editor_echo", Description: "Round trip through the editor.", MimeType: "application/json"}) {
		t.Errorf("resources = %+v", info.Resources)
	}
	if len(info.ResourceTemplates) != 1 || info.ResourceTemplates[0].URI != "test://blob/{n}" {
		t.Errorf("templates = %+v", info.ResourceTemplates)
	}
	if len(info.Prompts) != 1 || info.Prompts[0].Name != "review" || len(info.Prompts[0].Arguments) != 1 || !info.Prompts[0].Arguments[0].Required {
		t.Errorf("prompts = %+v", info.Prompts)
	}

	res := answerRes(p.ReadResource(ctx, plugmodel.ResourceRequest{URI: "test://editor/echo", Template: "", Params: nil}))
	if res.Err != nil || len(res.Contents) != 1 || res.Contents[0].URI != "test://editor/echo" || res.Contents[0].Binary ||
		res.Contents[0].Text != `{"echoed":{"uri":"test://editor/echo"}}` {
		t.Fatalf("read = %+v", res)
	}
	res = answerRes(p.ReadResource(ctx, plugmodel.ResourceRequest{URI: "test://blob/7", Template: "test://blob/{n}", Params: map[string]string{"n": "7"}}))
	if res.Err != nil || len(res.Contents) != 1 || !res.Contents[0].Binary || string(res.Contents[0].Blob) != "blob 7" {
		t.Fatalf("read template = %+v", res)
	}
	if res := answerRes(p.ReadResource(ctx, plugmodel.ResourceRequest{URI: "test://nope", Template: "", Params: nil})); res.Err == nil || res.Err.Code != contract.ResourceNotFound {
		t.Errorf("unknown resource: %+v", res)
	}
	svc.mu.Lock()
	svc.answer = func(context.Context, string, json.RawMessage) envelope.Response {
		return envelope.Failure("3", &contract.Error{Code: contract.BridgeDisconnected, Hint: "No editor.", Required: contract.RequireBridgeConnected})
	}
	svc.mu.Unlock()
	if res := answerRes(p.ReadResource(ctx, plugmodel.ResourceRequest{URI: "test://editor/echo", Template: "", Params: nil})); res.Err == nil || res.Err.Code != contract.BridgeDisconnected || res.Err.Hint != "No editor." {
		t.Errorf("editor failure: %+v", res)
	}

	pr := answerPrompt(p.GetPrompt(ctx, plugmodel.PromptRequest{Name: "review", Arguments: map[string]string{"path": "res://a.gd"}}))
	if pr.Err != nil || pr.Description != "review res://a.gd" || len(pr.Messages) != 2 ||
		pr.Messages[0].Content.Text != "Review res://a.gd" || pr.Messages[1].Content.Type != "audio" || string(pr.Messages[1].Content.Data) != "RIFF" {
		t.Fatalf("prompt = %+v", pr)
	}
	if pr := answerPrompt(p.GetPrompt(ctx, plugmodel.PromptRequest{Name: "review", Arguments: nil})); pr.Err == nil || pr.Err.Code != contract.ValidationError {
		t.Errorf("missing argument: %+v", pr)
	}
}

func TestLargePayloadsBothWays(t *testing.T) {
	const size = 8 << 20
	svc := &fakeServices{}
	svc.answer = func(_ context.Context, _ string, params json.RawMessage) envelope.Response {
		// Answer with something as large again.
		return envelope.Response{OK: true, Result: json.RawMessage(`{"blob":"` + strings.Repeat("y", size) + `","got":` + fmt.Sprint(len(params)) + `}`)}
	}
	p, _ := launch(t, svc)
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	text := strings.Repeat("z", size)
	res := answer(p.Call(ctx, plugmodel.CallRequest{Tool: "echo", Arguments: json.RawMessage(`{"text":"` + text + `"}`)}))
	if res.Err != nil {
		t.Fatalf("8 MiB echo: %v", res.Err)
	}
	if got := svc.sent(); len(got) != 1 || len(got[0].Params) != size+11 {
		t.Fatalf("the host received %d commands, params of %d bytes", len(got), len(got[0].Params))
	}
	var out struct {
		Echo struct {
			Blob string `json:"blob"`
			Got  int    `json:"got"`
		} `json:"echo"`
	}
	if err := json.Unmarshal(res.Structured, &out); err != nil || len(out.Echo.Blob) != size || out.Echo.Got != size+11 {
		t.Fatalf("8 MiB answer: %d bytes, got=%d, %v", len(out.Echo.Blob), out.Echo.Got, err)
	}
	res = answer(p.Call(ctx, plugmodel.CallRequest{Tool: "big", Arguments: json.RawMessage(fmt.Sprintf(`{"bytes":%d}`, 32<<20))}))
	if res.Err != nil || len(res.Structured) != 32<<20+11 {
		t.Fatalf("32 MiB result: %v, %d bytes", res.Err, len(res.Structured))
	}
}

func TestKillMidCall(t *testing.T) {
	for _, how := range []string{"kill -9", "os.Exit"} {
		t.Run(how, func(t *testing.T) {
			started := make(chan struct{}, 1)
			svc := &fakeServices{answer: func(_ context.Context, command string, _ json.RawMessage) envelope.Response {
				if command == "cmd_testplugin_started" {
					started <- struct{}{}
				}
				return envelope.Response{OK: true, Result: json.RawMessage(`{}`)}
			}}
			p, logs := launch(t, svc)
			type outcome struct {
				res     plugmodel.CallResult
				err     error
				elapsed time.Duration
			}
			done := make(chan outcome, 1)
			go func() {
				var req plugmodel.CallRequest
				if how == "kill -9" {
					req = plugmodel.CallRequest{Tool: "block"}
				} else {
					req = plugmodel.CallRequest{Tool: "exit", Arguments: json.RawMessage(`{}`)}
					started <- struct{}{}
				}
				begin := time.Now()
				res, err := p.Call(context.Background(), req)
				done <- outcome{res, err, time.Since(begin)}
			}()
			<-started
			var killedAt time.Time
			if how == "kill -9" {
				killedAt = time.Now()
				if err := killPid(p.Pid()); err != nil {
					t.Fatal(err)
				}
			}
			var o outcome
			select {
			case o = <-done:
			case <-time.After(10 * time.Second):
				t.Fatal("the call did not return after the plugin died")
			}
			if !killedAt.IsZero() && time.Since(killedAt) > 3*time.Second {
				t.Errorf("the call took %s to fail after the kill", time.Since(killedAt))
			}
			// The fact, for host/toolsets to word: it crashed, and how its
			// process ended.
			f := failure(t, o.err)
			if f == nil || f.Kind != Crashed || f.Toolset != "testplugin" || !f.Exit.Known() {
				t.Fatalf("result = %+v, failure %v (after %s)", o.res, o.err, o.elapsed)
			}
			wantExit := "killed by signal SIGKILL"
			if how == "os.Exit" {
				wantExit = "exited with code 3"
			}
			if f.Exit.String() != wantExit {
				t.Errorf("the crash says the process %s, want %s", f.Exit, wantExit)
			}
			if !p.Exited() {
				t.Error("Exited() is false after the crash")
			}
			again, err := p.Call(context.Background(), plugmodel.CallRequest{Tool: "echo", Arguments: json.RawMessage(`{"text":"x"}`)})
			if f := failure(t, err); f == nil || f.Kind != NotRunning || f.Exit.String() != wantExit {
				t.Errorf("a call to the dead plugin: %+v, %v", again, err)
			}
			waitFor(t, 5*time.Second, "the process exit in the log", func() bool {
				return strings.Contains(logs.String(), "plugin process exited")
			})
		})
	}
}

func TestDeadlineAndCancel(t *testing.T) {
	svc := &fakeServices{}
	p, _ := launch(t, svc)

	ctx, cancel := context.WithTimeout(context.Background(), 300*time.Millisecond)
	defer cancel()
	res, err := p.Call(ctx, plugmodel.CallRequest{Tool: "block"})
	// Either side may notice the deadline first: the host (no answer in
	// time: TimedOut) or the plugin (its tool returned ctx.Err(): TIMEOUT).
	if f := failure(t, err); (f == nil || f.Kind != TimedOut) && (res.Err == nil || res.Err.Code != contract.Timeout) {
		t.Fatalf("deadline: %+v, %v", res, err)
	}

	ctx2, cancel2 := context.WithCancel(context.Background())
	go func() {
		waitFor(t, 5*time.Second, "the second block call", func() bool { return len(svc.sent()) >= 2 })
		cancel2()
	}()
	res, err = p.Call(ctx2, plugmodel.CallRequest{Tool: "block"})
	if f := failure(t, err); f == nil || f.Kind != Cancelled || f.Op != "block" {
		t.Fatalf("cancel: %+v, %v", res, err)
	}
	// A slow call is not a crash: the plugin still serves.
	if p.Exited() {
		t.Fatal("Exited() after a timeout")
	}
	if res := answer(p.Call(context.Background(), plugmodel.CallRequest{Tool: "echo", Arguments: json.RawMessage(`{"text":"still here"}`)})); res.Err != nil {
		t.Fatalf("after timeout: %v", res.Err)
	}
}

func TestStopLeavesNoProcess(t *testing.T) {
	cases := []struct {
		name string
		stop func(p *Plugin) error
	}{
		{"Stop", func(p *Plugin) error {
			ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
			defer cancel()
			return p.Stop(ctx)
		}},
		{"Stop with an expired context", func(p *Plugin) error {
			ctx, cancel := context.WithCancel(context.Background())
			cancel()
			if err := p.Stop(ctx); !errors.Is(err, context.Canceled) {
				return fmt.Errorf("Stop = %v, want context.Canceled", err)
			}
			return nil
		}},
		{"Kill", func(p *Plugin) error { p.Kill(); return nil }},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			p, _ := launch(t, &fakeServices{})
			pid := p.Pid()
			if !processAlive(pid) {
				t.Fatalf("plugin pid %d is not alive after Launch", pid)
			}
			if err := tc.stop(p); err != nil {
				t.Fatal(err)
			}
			waitFor(t, 5*time.Second, fmt.Sprintf("pid %d to be gone", pid), func() bool { return !processAlive(pid) })
			if kids := childPids(t); len(kids) != 0 {
				t.Errorf("child processes left: %v", kids)
			}
			if !p.Exited() {
				t.Error("Exited() is false after stopping")
			}
		})
	}
}

func TestLaunchFailures(t *testing.T) {
	script := filepath.Join(t.TempDir(), "notaplugin")
	if err := os.WriteFile(script, []byte("#!/bin/sh\necho 'I am not a plugin' >&2\nexit 1\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	cases := []struct {
		name string
		spec Spec
		env  map[string]string
		want string
	}{
		{"missing executable", Spec{Name: "gone", Path: filepath.Join(t.TempDir(), "gone")}, nil, "no such file"},
		{"not a plugin", Spec{Name: "notaplugin", Path: script}, nil, "I am not a plugin"},
		{"name mismatch", Spec{Name: "other", Path: testPlugin}, nil, `the plugin calls itself "testplugin", not "other"`},
		{"invalid toolset", Spec{Name: "testplugin", Path: testPlugin}, map[string]string{"TESTPLUGIN_NAME": "Bad Name"}, `toolset name "Bad Name" must be lower case`},
		{"stdout before serve", Spec{Name: "testplugin", Path: testPlugin}, map[string]string{"TESTPLUGIN_STDOUT_EARLY": "1"}, "Unrecognized remote plugin message: this is not a handshake"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			for k, v := range tc.env {
				t.Setenv(k, v)
			}
			ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
			defer cancel()
			p, err := Launch(ctx, tc.spec, &fakeServices{}, nil)
			if err == nil {
				_ = p.Stop(ctx)
				t.Fatal("Launch succeeded")
			}
			t.Logf("Launch: %v", err)
			if !strings.Contains(err.Error(), tc.want) {
				t.Fatalf("error %q does not contain %q", err, tc.want)
			}
			if p != nil {
				t.Fatal("Launch returned a plugin with its error")
			}
			waitFor(t, 5*time.Second, "no child process left", func() bool { return len(childPids(t)) == 0 })
		})
	}
}

func TestDiscover(t *testing.T) {
	dir := t.TempDir()
	write := func(name string, mode os.FileMode) {
		if err := os.WriteFile(filepath.Join(dir, name), []byte("#!/bin/sh\n"), mode); err != nil {
			t.Fatal(err)
		}
	}
	write("hello", 0o755)
	write("alpha_2", 0o700)
	write("readme.md", 0o644)
	write(".hidden", 0o755)
	write("Bad-Name", 0o755)
	if err := os.Mkdir(filepath.Join(dir, "subdir"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(filepath.Join(dir, "hello"), filepath.Join(dir, "linked")); err != nil {
		t.Fatal(err)
	}
	specs, err := Discover(dir)
	var skipped *SkippedError
	if !errors.As(err, &skipped) || len(skipped.Skipped) != 1 || skipped.Skipped[0].File != "Bad-Name" {
		t.Fatalf("err = %v, want one skipped Bad-Name", err)
	}
	var names []string
	for _, s := range specs {
		names = append(names, s.Name)
		if s.BuiltIn || !filepath.IsAbs(s.Path) || filepath.Base(s.Path) != s.Name {
			t.Errorf("spec %+v", s)
		}
	}
	if strings.Join(names, ",") != "alpha_2,hello,linked" {
		t.Errorf("discovered %v", names)
	}
	if specs, err := Discover(filepath.Join(dir, "missing")); err != nil || specs != nil {
		t.Errorf("missing dir: %v %v", specs, err)
	}
	if d := DefaultPluginDir(); d != "" && !strings.HasSuffix(d, filepath.Join("godot-mcp", "plugins")) {
		t.Errorf("DefaultPluginDir = %s", d)
	}
	bi, err := BuiltInSpec("scene")
	if err != nil || !bi.BuiltIn || strings.Join(bi.Args, " ") != "toolset serve scene" || bi.Name != "scene" {
		t.Errorf("BuiltInSpec = %+v, %v", bi, err)
	}
}

// callLogServices also receives the log records of calls.
type callLogServices struct {
	fakeServices
	logMu sync.Mutex
	calls []string
}

func (c *callLogServices) LogCall(_ context.Context, callID string, level slog.Level, message string, attrs []slog.Attr) {
	c.logMu.Lock()
	defer c.logMu.Unlock()
	s := fmt.Sprintf("%s %s %s", callID, level, message)
	for _, a := range attrs {
		s += " " + a.String()
	}
	c.calls = append(c.calls, s)
}

func (c *callLogServices) logged() []string {
	c.logMu.Lock()
	defer c.logMu.Unlock()
	return append([]string(nil), c.calls...)
}

func TestCallLogRecordsReachTheCallLogger(t *testing.T) {
	svc := &callLogServices{}
	p, logs := launch(t, svc)
	if res := answer(p.Call(context.Background(), plugmodel.CallRequest{Tool: "echo", Arguments: json.RawMessage(`{"text":"hi"}`), CallID: "c1"})); res.Err != nil {
		t.Fatal(res.Err)
	}
	waitFor(t, 5*time.Second, "the call's log record", func() bool { return len(svc.logged()) == 1 })
	if got := svc.logged()[0]; got != "c1 INFO echoed bytes=24" {
		t.Errorf("call log = %q", got)
	}
	if !strings.Contains(logs.String(), "msg=echoed") {
		t.Errorf("the record is missing from the host log:\n%s", logs.String())
	}
	// A call without an id logs to the host only.
	if res := answer(p.Call(context.Background(), plugmodel.CallRequest{Tool: "echo", Arguments: json.RawMessage(`{"text":"hi"}`)})); res.Err != nil {
		t.Fatal(res.Err)
	}
	waitFor(t, 5*time.Second, "the second host log record", func() bool { return strings.Count(logs.String(), "msg=echoed") == 2 })
	if n := len(svc.logged()); n != 1 {
		t.Errorf("a call without an id reached the call logger: %q", svc.logged())
	}
}

// A command above the tool's class never reaches the editor, and fails the
// call even when the toolset ignores the refusal and answers ok.
func TestGateRefusesAndFailsTheCall(t *testing.T) {
	svc := &fakeServices{}
	p, logs := launch(t, svc)
	res := answer(p.Call(context.Background(), plugmodel.CallRequest{Tool: "sneak", CallID: "c1"}))
	if res.Err == nil || res.Err.Code != contract.PreconditionFailed || res.Err.Required != "command_class" {
		t.Fatalf("sneak = %+v %s", res.Err, res.Structured)
	}
	for _, want := range []string{"'testplugin'", "'sneak'", "'cmd_testplugin_delete'", "read_only"} {
		if !strings.Contains(res.Err.Hint, want) {
			t.Errorf("hint %q does not name %s", res.Err.Hint, want)
		}
	}
	if got := svc.sent(); len(got) != 0 {
		t.Fatalf("the editor received %+v", got)
	}
	if !strings.Contains(logs.String(), "refused a toolset's editor command") || !strings.Contains(logs.String(), "command=cmd_testplugin_delete") {
		t.Errorf("no log line for the refusal:\n%s", logs.String())
	}
}

// A command sent after its call returned is refused: the toolset kept
// call.Host, but the call it served is over.
func TestGateRefusesASendAfterTheCall(t *testing.T) {
	svc := &fakeServices{}
	p, logs := launch(t, svc)
	if res := answer(p.Call(context.Background(), plugmodel.CallRequest{Tool: "late", CallID: "c1"})); res.Err != nil {
		t.Fatal(res.Err)
	}
	waitFor(t, 5*time.Second, "the late send's answer", func() bool { return strings.Contains(logs.String(), "LATE-SEND:") })
	if got := svc.sent(); len(got) != 0 {
		t.Fatalf("the editor received %+v", got)
	}
	if !strings.Contains(logs.String(), "refused a toolset's editor command outside its call") || !strings.Contains(logs.String(), "has ended") {
		t.Errorf("no log line for the late send:\n%s", logs.String())
	}
}

// #25.6: a result over the plugin protocol's message limit is reported as
// such (OverLimit, with the limit and the toolset; host/toolsets words it as
// an INTERNAL_ERROR, never "crashed"), and the plugin, which did nothing
// wrong but answer too much, keeps running.
func TestOverLimitResultIsNotACrash(t *testing.T) {
	p, _ := launch(t, &fakeServices{})
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	pid := p.Pid()
	res, err := p.Call(ctx, plugmodel.CallRequest{Tool: "big", Arguments: json.RawMessage(fmt.Sprintf(`{"bytes":%d}`, 70<<20))})
	if err == nil {
		t.Fatalf("a 70 MiB result went through (%d bytes, %v)", len(res.Structured), res.Err)
	}
	if f := failure(t, err); f.Kind != OverLimit || f.Limit>>20 != 65 || f.Toolset != testSpec().Name || f.Op != "big" {
		t.Fatalf("over-limit failure: %+v", f)
	}
	if p.Exited() || p.Pid() != pid {
		t.Fatalf("the plugin was dropped after an over-limit result (exited %v, pid %d -> %d)", p.Exited(), pid, p.Pid())
	}
	if res := answer(p.Call(ctx, plugmodel.CallRequest{Tool: "big", Arguments: json.RawMessage(`{"bytes":10}`)})); res.Err != nil {
		t.Fatalf("the next call: %v", res.Err)
	}
}

// answer, answerRes and answerPrompt are a call's answer; a call that got
// no answer (a *Failure) becomes an error answer that names it, so that a
// test expecting an answer fails on it with the reason.
func answer(res plugmodel.CallResult, err error) plugmodel.CallResult {
	if err != nil {
		return plugmodel.CallResult{Err: contract.Errorf(contract.InternalError, "no answer: %v", err)}
	}
	return res
}

func answerRes(res plugmodel.ResourceResult, err error) plugmodel.ResourceResult {
	if err != nil {
		return plugmodel.ResourceResult{Err: contract.Errorf(contract.InternalError, "no answer: %v", err)}
	}
	return res
}

func answerPrompt(res plugmodel.PromptResult, err error) plugmodel.PromptResult {
	if err != nil {
		return plugmodel.PromptResult{Err: contract.Errorf(contract.InternalError, "no answer: %v", err)}
	}
	return res
}

// failure is the *Failure of a call that got no answer (nil: it answered).
func failure(t *testing.T, err error) *Failure {
	t.Helper()
	if err == nil {
		return nil
	}
	var f *Failure
	if !errors.As(err, &f) {
		t.Fatalf("a call failed with %T, not a *Failure: %v", err, err)
	}
	return f
}
