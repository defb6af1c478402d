package e2e

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"runtime"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/mark3labs/mcp-go/client"
	"github.com/mark3labs/mcp-go/client/transport"
	"github.com/mark3labs/mcp-go/mcp"

	"github.com/godot-mcp/godot-mcp/host/buildinfo"
	"github.com/godot-mcp/godot-mcp/host/projectfiles"
	"github.com/godot-mcp/godot-mcp/internal/testing/godotengines"
	"github.com/godot-mcp/godot-mcp/sdk"
)

// Bounds of the slow steps. The CI machine has 2 cores; a cold editor start
// with a first import takes tens of seconds there.
const (
	importTimeout  = 120 * time.Second
	connectTimeout = 90 * time.Second
	callTimeout    = 30 * time.Second
	buildTimeout   = 10 * time.Minute
)

// suite holds what TestMain prepared once for every test.
var suite struct {
	godot        string // Godot binary
	godotVersion string // `godot --version`
	root         string // repository root
	work         string // scratch dir of this run
	hostBin      string // godot-mcp built from this tree
	pluginDir    string // holds the e2e toolset ("e2e")
	xdg          []string
	template     string // the sample project, addon installed and imported
	importLog    string // what the import printed
}

func TestMain(m *testing.M) {
	os.Exit(runMain(m))
}

func runMain(m *testing.M) int {
	if os.Getenv(listOnlyEnv) != "" {
		return m.Run()
	}
	godot, version, why := findGodot()
	if why != "" {
		fmt.Fprintf(os.Stderr, "e2e: skipped: 0 of %s ran: %s\n", countTests(), why)
		return 0
	}
	// tools/testsummary keys this run's results by the engine named here.
	fmt.Printf("e2e: engine: %s %s\n", (godotengines.Engine{Version: version}).Label(), godot)
	if err := prepare(godot, version); err != nil {
		fmt.Fprintln(os.Stderr, "e2e: setup failed:", err)
		cleanupSuite()
		return 1
	}
	code := m.Run()
	for i := len(closers) - 1; i >= 0; i-- {
		closers[i]()
	}
	cleanupSuite()
	return code
}

// listOnlyEnv makes TestMain only run m.Run (for countTests' -test.list).
const listOnlyEnv = "GODOT_MCP_E2E_LIST_ONLY"

// countTests is how many tests the suite has, for the line of a skipped run
// ("0 of 66 ran"): the test binary run again with -test.list.
func countTests() string {
	cmd := exec.Command(os.Args[0], "-test.list", ".")
	cmd.Env = append(os.Environ(), listOnlyEnv+"=1")
	out, err := cmd.Output()
	if err != nil {
		return "?"
	}
	n := 0
	for _, l := range strings.Split(string(out), "\n") {
		if strings.HasPrefix(l, "Test") {
			n++
		}
	}
	return strconv.Itoa(n)
}

func cleanupSuite() {
	if suite.work != "" && os.Getenv("E2E_KEEP") == "" {
		os.RemoveAll(suite.work)
	}
}

// findGodot returns the Godot 4 binary of this run and its version, or why
// there is none. tools/e2erun (make test) runs the suite once per engine
// with GODOT_BIN naming it; run directly, the suite takes the first engine
// internal/testing/godotengines finds (GODOT_BINS, GODOT_BIN, the engine
// cache, PATH) and says which.
func findGodot() (bin, version, why string) {
	if why := os.Getenv("GODOT_MCP_E2E_NO_ENGINE"); why != "" {
		return "", "", why
	}
	all := godotengines.Find()
	usable, why := godotengines.Usable(all)
	if len(usable) == 0 {
		return "", "", why
	}
	if len(usable) > 1 {
		fmt.Fprintf(os.Stderr, "e2e: %d engines found, this run uses %s; `make test` (tools/e2erun) runs the suite on each\n", len(usable), usable[0].Path)
	}
	return usable[0].Path, usable[0].Version, ""
}

// prepare builds the host and the e2e toolset and imports the sample project
// once; tests copy the imported project.
func prepare(godot, version string) error {
	suite.godot, suite.godotVersion = godot, version
	wd, err := os.Getwd()
	if err != nil {
		return err
	}
	suite.root = filepath.Dir(wd)
	if suite.work, err = os.MkdirTemp("", "godot-mcp-e2e-"); err != nil {
		return err
	}
	for _, d := range []string{"config", "data", "cache"} {
		p := filepath.Join(suite.work, "xdg", d)
		if err := os.MkdirAll(p, 0o755); err != nil {
			return err
		}
		suite.xdg = append(suite.xdg, "XDG_"+strings.ToUpper(d)+"_HOME="+p)
	}
	suite.hostBin = filepath.Join(suite.work, "bin", "godot-mcp")
	suite.pluginDir = filepath.Join(suite.work, "plugins")
	if err := goBuild(suite.hostBin, "./cmd/godot-mcp"); err != nil {
		return err
	}
	if err := goBuild(filepath.Join(suite.pluginDir, "e2e"), "./e2e/testdata/e2etoolset"); err != nil {
		return err
	}
	suite.template = filepath.Join(suite.work, "template", "project")
	if err := copyTree(filepath.Join(wd, "testdata", "project"), suite.template); err != nil {
		return err
	}
	if _, err := projectfiles.InstallAddon(projectfiles.AddonOptions{ProjectDir: suite.template, Enable: true}); err != nil {
		return fmt.Errorf("installing the addon: %w", err)
	}
	log, err := importProject(suite.template)
	suite.importLog = log
	if err != nil {
		return fmt.Errorf("%w\n%s", err, log)
	}
	return nil
}

func goBuild(out, pkg string) error {
	ctx, cancel := context.WithTimeout(context.Background(), buildTimeout)
	defer cancel()
	cmd := exec.CommandContext(ctx, "go", "build", "-o", out, pkg)
	cmd.Dir = suite.root
	if b, err := cmd.CombinedOutput(); err != nil {
		return fmt.Errorf("go build %s: %v\n%s", pkg, err, b)
	}
	return nil
}

// importProject runs `godot --headless --import`, killed after importTimeout.
func importProject(dir string) (string, error) {
	var out syncBuffer
	cmd := exec.Command(suite.godot, "--headless", "--import", "--path", dir)
	// Nobody listens there: the addon (enabled already) must not reach a
	// real godot-mcp server of the developer's while importing.
	cmd.Env = append(godotEnv(), "GODOT_MCP_BRIDGE_URL=ws://127.0.0.1:1")
	cmd.Stdout, cmd.Stderr = &out, &out
	cmd.SysProcAttr = procAttr()
	if err := cmd.Start(); err != nil {
		return "", err
	}
	done := make(chan error, 1)
	go func() { done <- cmd.Wait() }()
	select {
	case err := <-done:
		if err != nil {
			return out.String(), fmt.Errorf("godot --import: %v", err)
		}
	case <-time.After(importTimeout):
		syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL)
		<-done
		return out.String(), fmt.Errorf("godot --import did not finish within %v", importTimeout)
	}
	if _, err := os.Stat(filepath.Join(dir, ".godot")); err != nil {
		return out.String(), fmt.Errorf("godot --import left no .godot directory: %v", err)
	}
	return out.String(), nil
}

// godotEnv is the environment of every process the suite starts: the
// developer's own godot-mcp settings are dropped, and Godot's settings and
// caches live in the run's scratch dir.
func godotEnv() []string {
	var env []string
	for _, kv := range os.Environ() {
		if strings.HasPrefix(kv, "GODOT_MCP_") || strings.HasPrefix(kv, "XDG_CONFIG_HOME=") ||
			strings.HasPrefix(kv, "XDG_DATA_HOME=") || strings.HasPrefix(kv, "XDG_CACHE_HOME=") {
			continue
		}
		env = append(env, kv)
	}
	// The latency tests wait the boost out between measurements: keep it short.
	return append(append(env, suite.xdg...), "GODOT_MCP_BOOST_HOLD_MS=1000")
}

// newProject copies the imported sample project into a fresh directory.
func newProject(t testing.TB) string {
	t.Helper()
	dir := filepath.Join(t.TempDir(), "project")
	if err := copyTree(suite.template, dir); err != nil {
		t.Fatal(err)
	}
	return dir
}

// copyTree copies a directory, keeping modification times (so the editor
// does not reimport what the template already imported).
func copyTree(src, dst string) error {
	return filepath.WalkDir(src, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(src, path)
		target := filepath.Join(dst, rel)
		info, err := d.Info()
		if err != nil {
			return err
		}
		if d.IsDir() {
			return os.MkdirAll(target, 0o755)
		}
		if !info.Mode().IsRegular() {
			return nil
		}
		data, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		if err := os.WriteFile(target, data, info.Mode().Perm()); err != nil {
			return err
		}
		return os.Chtimes(target, info.ModTime(), info.ModTime())
	})
}

// ---- processes ----

type syncBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (s *syncBuffer) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Write(p)
}

func (s *syncBuffer) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.String()
}

func (s *syncBuffer) Len() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Len()
}

// since returns what was written from offset on.
func (s *syncBuffer) since(offset int) string {
	s.mu.Lock()
	defer s.mu.Unlock()
	if offset > s.b.Len() {
		return ""
	}
	return string(s.b.Bytes()[offset:])
}

// editor is a headless Godot editor process.
type editor struct {
	project string
	cmd     *exec.Cmd
	out     *syncBuffer
	exited  chan struct{}
}

// startEditor opens project in a headless editor whose addon dials url.
func startEditor(project, url string, env ...string) (*editor, error) {
	e := &editor{project: project, out: &syncBuffer{}, exited: make(chan struct{})}
	e.cmd = exec.Command(suite.godot, "--headless", "--editor", "--path", project)
	e.cmd.Env = append(godotEnv(), "GODOT_MCP_BRIDGE_URL="+url)
	e.cmd.Env = append(e.cmd.Env, env...)
	e.cmd.Stdout, e.cmd.Stderr = e.out, e.out
	e.cmd.SysProcAttr = procAttr()
	if err := e.cmd.Start(); err != nil {
		return nil, err
	}
	go func() { e.cmd.Wait(); close(e.exited) }()
	return e, nil
}

// startEditorT starts an editor that is killed when the test ends; its
// whole output is checked for script errors then.
func startEditorT(t testing.TB, project, url string, env ...string) *editor {
	t.Helper()
	e, err := startEditor(project, url, env...)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		e.kill()
		checkEditorOutput(t, "editor "+filepath.Base(filepath.Dir(project)), e.out.String())
	})
	return e
}

func (e *editor) pid() int { return e.cmd.Process.Pid }

// kill ends the editor and anything it started (SIGKILL to its process group).
func (e *editor) kill() {
	select {
	case <-e.exited:
		return
	default:
	}
	syscall.Kill(-e.cmd.Process.Pid, syscall.SIGKILL)
	select {
	case <-e.exited:
	case <-time.After(30 * time.Second):
	}
}

func (e *editor) running() bool {
	select {
	case <-e.exited:
		return false
	default:
		return true
	}
}

var scriptErrorRE = regexp.MustCompile(`SCRIPT ERROR|Parse Error`)

// addonErrorRE marks an engine error raised in our addon or a toolset's
// editor code: Godot names the script in the lines after "ERROR:".
var addonErrorRE = regexp.MustCompile(`res://addons/godot_mcp`)

// scriptErrors returns each line with SCRIPT ERROR or Parse Error, with the
// line after it (Godot prints "at: file:line" there), and each engine
// "ERROR:" whose line or the two after it name a script of our addon
// (res://addons/godot_mcp*): an error our code raised (push_error, a failed
// engine call) is a bug even when the tool's answer looked right.
func scriptErrors(out string) []string {
	lines := strings.Split(out, "\n")
	var found []string
	for i, l := range lines {
		isErr := scriptErrorRE.MatchString(l)
		if !isErr && strings.HasPrefix(strings.TrimSpace(l), "ERROR:") {
			for j := i; j < len(lines) && j <= i+2; j++ {
				if j > i && strings.HasPrefix(strings.TrimSpace(lines[j]), "ERROR:") {
					break
				}
				if addonErrorRE.MatchString(lines[j]) {
					isErr = true
					break
				}
			}
		}
		if isErr {
			s := strings.TrimRight(l, "\r")
			if i+1 < len(lines) {
				s += "\n" + strings.TrimRight(lines[i+1], "\r")
			}
			found = append(found, s)
		}
	}
	return found
}

func checkEditorOutput(t testing.TB, who, out string) {
	t.Helper()
	if errs := scriptErrors(out); len(errs) > 0 {
		t.Errorf("%s printed %d script error(s):\n%s\n--- full output ---\n%s", who, len(errs), strings.Join(errs, "\n"), out)
	} else if t.Failed() || testing.Verbose() && os.Getenv("E2E_EDITOR_LOG") != "" {
		t.Logf("%s output:\n%s", who, out)
	}
}

// host is the godot-mcp binary driven over stdio by an MCP client.
type host struct {
	c      *client.Client
	cmd    *exec.Cmd
	stderr *syncBuffer
	url    string // the bridge URL it listens on
	closed bool
}

var listeningRE = regexp.MustCompile(`msg="bridge listening".*?url=(ws://[^\s"]+)`)

// startHost starts godot-mcp with its bridge on bridgeURL ("ws://127.0.0.1:0"
// for an ephemeral port), initializes an MCP session and reads the actual
// bridge URL from its log.
func startHost(bridgeURL string, env ...string) (*host, error) {
	h := &host{stderr: &syncBuffer{}}
	ctx, cancel := context.WithTimeout(context.Background(), callTimeout)
	defer cancel()
	if err := h.launch(ctx, bridgeURL, "godot-mcp-e2e", env); err != nil {
		return nil, err
	}
	for h.url == "" {
		if m := listeningRE.FindStringSubmatch(h.stderr.String()); m != nil {
			h.url = m[1]
			break
		}
		if ctx.Err() != nil {
			h.stop()
			return nil, fmt.Errorf("godot-mcp never logged its bridge URL; stderr:\n%s", h.stderr.String())
		}
		time.Sleep(20 * time.Millisecond)
	}
	return h, nil
}

// launch starts godot-mcp with the suite's plugin dir and bridgeURL (plus
// env) and initializes an MCP session as clientName; on failure nothing is
// left running.
func (h *host) launch(ctx context.Context, bridgeURL, clientName string, env []string) error {
	// Strict answers: a field the editor code sends that a tool's result type
	// lacks fails the call instead of being dropped (sdk.StrictAnswersEnv).
	hostEnv := append([]string{"GODOT_MCP_BRIDGE_URL=" + bridgeURL, "GODOT_MCP_PLUGIN_DIR=" + suite.pluginDir, sdk.StrictAnswersEnv + "=1"}, env...)
	tr := transport.NewStdioWithOptions(suite.hostBin, hostEnv, nil,
		transport.WithCommandFunc(func(_ context.Context, command string, env, args []string) (*exec.Cmd, error) {
			cmd := exec.Command(command, args...)
			cmd.Env = append(godotEnv(), env...)
			cmd.Stderr = h.stderr
			cmd.SysProcAttr = procAttr()
			h.cmd = cmd
			return cmd, nil
		}))
	if err := tr.Start(ctx); err != nil {
		return fmt.Errorf("starting godot-mcp: %w", err)
	}
	h.c = client.NewClient(tr)
	var init mcp.InitializeRequest
	init.Params.ProtocolVersion = buildinfo.MCPProtocolVersion
	init.Params.ClientInfo = mcp.Implementation{Name: clientName, Version: "1"}
	if _, err := h.c.Initialize(ctx, init); err != nil {
		h.stop()
		return fmt.Errorf("MCP initialize: %w\nstderr:\n%s", err, h.stderr.String())
	}
	return nil
}

// startHostT starts a host that is stopped when the test ends.
func startHostT(t testing.TB, bridgeURL string, env ...string) *host {
	t.Helper()
	h, err := startHost(bridgeURL, env...)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		h.stop()
		if t.Failed() {
			t.Logf("godot-mcp stderr:\n%s", h.stderr.String())
		}
	})
	return h
}

// stop closes the MCP session (the host exits when stdin closes) and then
// kills its process group, so no toolset plugin outlives it.
func (h *host) stop() {
	if h.closed {
		return
	}
	h.closed = true
	if h.c != nil {
		h.c.Close()
	}
	if h.cmd != nil && h.cmd.Process != nil {
		syscall.Kill(-h.cmd.Process.Pid, syscall.SIGKILL)
	}
}

// toolResult is a tools/call answer.
type toolResult struct {
	IsError bool
	Raw     json.RawMessage // structuredContent; for a failure, the error object of Text
	Text    string
	// Errors is the note of new editor and game errors the server attaches
	// to a result (its last text block; docs/envelope.md), "" without one.
	Errors string
}

// errorsNotePrefix starts the text block of new errors attached to a result.
const errorsNotePrefix = "godot-mcp: new in the editor or game since your previous call"

// toolError is the error object of a failed tool call.
type toolError struct {
	Error    string `json:"error"`
	Hint     string `json:"hint"`
	Required string `json:"required"`
}

func (r toolResult) decode(v any) error {
	if err := json.Unmarshal(r.Raw, v); err != nil {
		return fmt.Errorf("decoding %s: %w", r.Raw, err)
	}
	return nil
}

// failure reads the error object of a failed call: the JSON text content
// (a failed call carries no structuredContent).
func (r toolResult) failure() toolError {
	var e toolError
	json.Unmarshal([]byte(r.Text), &e)
	return e
}

// call invokes a tool and returns its result (a tool error is a result, not
// an error; a protocol failure is an error).
func (h *host) call(ctx context.Context, name string, args map[string]any) (toolResult, error) {
	var req mcp.CallToolRequest
	req.Params.Name = name
	if args == nil {
		args = map[string]any{}
	}
	req.Params.Arguments = args
	res, err := h.c.CallTool(ctx, req)
	if err != nil {
		return toolResult{}, fmt.Errorf("%s: %w", name, err)
	}
	r := toolResult{IsError: res.IsError, Raw: res.RawStructuredContent}
	if len(r.Raw) == 0 && res.StructuredContent != nil {
		r.Raw, _ = json.Marshal(res.StructuredContent)
	}
	for _, c := range res.Content {
		if tc, ok := c.(mcp.TextContent); ok {
			if strings.HasPrefix(tc.Text, errorsNotePrefix) {
				r.Errors = tc.Text // the editor's and game's new errors, attached to any result
				continue
			}
			r.Text += tc.Text
		}
	}
	if r.IsError && len(r.Raw) == 0 && json.Valid([]byte(r.Text)) {
		r.Raw = json.RawMessage(r.Text) // the error object, for messages
	}
	return r, nil
}

// mustCall calls a tool and fails the test on a protocol error or, unless
// wantError, on a tool error.
func (h *host) mustCall(t testing.TB, name string, args map[string]any, out any) toolResult {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), callTimeout)
	defer cancel()
	r, err := h.call(ctx, name, args)
	if err != nil {
		t.Fatal(err)
	}
	if r.IsError {
		t.Fatalf("%s failed: %s", name, r.Raw)
	}
	h.checkContract(t, name, r.Raw)
	if out != nil {
		if err := r.decode(out); err != nil {
			t.Fatal(err)
		}
	}
	return r
}

// mustFail calls a tool that must fail and returns its error.
func (h *host) mustFail(t testing.TB, name string, args map[string]any) toolError {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), callTimeout)
	defer cancel()
	r, err := h.call(ctx, name, args)
	if err != nil {
		t.Fatal(err)
	}
	if !r.IsError {
		t.Fatalf("%s succeeded, want a failure: %s", name, r.Raw)
	}
	return r.failure()
}

// serverInfo is the part of godot_get_server_info the suite reads.
type serverInfo struct {
	Version         string `json:"version"`
	ContractVersion int    `json:"contract_version"`
	ProjectDir      string `json:"project_dir"`
	Bridge          struct {
		URL       string `json:"url"`
		Listening bool   `json:"listening"`
		Connected bool   `json:"connected"`
		Peer      *struct {
			ProjectDir   string    `json:"project_dir"`
			GodotVersion string    `json:"godot_version"`
			AddonVersion string    `json:"addon_version"`
			ConnectedAt  time.Time `json:"connected_at"`
		} `json:"peer"`
	} `json:"bridge"`
	VersionNotice string `json:"version_notice"`
}

func (h *host) serverInfo(ctx context.Context) (serverInfo, error) {
	var info serverInfo
	r, err := h.call(ctx, "godot_get_server_info", nil)
	if err != nil {
		return info, err
	}
	if r.IsError {
		return info, fmt.Errorf("godot_get_server_info failed: %s", r.Raw)
	}
	return info, r.decode(&info)
}

// waitPeer polls godot_get_server_info until the bridge has a peer for which
// accept returns true, and returns that info.
func (h *host) waitPeer(ctx context.Context, accept func(serverInfo) bool) (serverInfo, error) {
	var last serverInfo
	for {
		info, err := h.serverInfo(ctx)
		if err == nil {
			last = info
			if info.Bridge.Connected && info.Bridge.Peer != nil && (accept == nil || accept(info)) {
				return info, nil
			}
		}
		select {
		case <-ctx.Done():
			return last, fmt.Errorf("no matching editor connected (last bridge state %+v): %w", describeBridge(last), ctx.Err())
		case <-time.After(100 * time.Millisecond):
		}
	}
}

func describeBridge(info serverInfo) string {
	if info.Bridge.Peer == nil {
		return fmt.Sprintf("url=%s connected=%v peer=none", info.Bridge.URL, info.Bridge.Connected)
	}
	p := info.Bridge.Peer
	return fmt.Sprintf("url=%s connected=%v peer=%s godot=%s addon=%s at=%s", info.Bridge.URL, info.Bridge.Connected,
		p.ProjectDir, p.GodotVersion, p.AddonVersion, p.ConnectedAt.Format(time.RFC3339Nano))
}

// waitEditor waits (bounded) for the editor of project to be the host's peer.
func waitEditor(t testing.TB, h *host, e *editor) serverInfo {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), connectTimeout)
	defer cancel()
	info, err := h.waitPeer(ctx, func(i serverInfo) bool { return sameDir(i.Bridge.Peer.ProjectDir, e.project) })
	if err != nil {
		t.Fatalf("the editor of %s never connected: %v\n--- editor output ---\n%s\n--- godot-mcp stderr ---\n%s",
			e.project, err, e.out.String(), h.stderr.String())
	}
	return info
}

// ---- sessions ----

// session is a host with one editor connected to it.
type session struct {
	host    *host
	editor  *editor
	project string
}

// newSession starts a host on an ephemeral port and an editor on a fresh
// copy of the sample project, both ended with the test.
func newSession(t testing.TB, hostEnv ...string) *session {
	t.Helper()
	project := newProject(t)
	h := startHostT(t, "ws://127.0.0.1:0", hostEnv...)
	e := startEditorT(t, project, h.url)
	waitEditor(t, h, e)
	return &session{host: h, editor: e, project: project}
}

// shared is the session the read-only tests share (one editor start for
// all of them); it lives until TestMain ends.
var shared struct {
	once sync.Once
	s    *session
	err  error
}

// sharedSession returns the shared session; the editor's output printed
// during the test is checked for script errors when the test ends.
func sharedSession(t testing.TB) *session {
	t.Helper()
	shared.once.Do(func() {
		shared.s, shared.err = startShared()
	})
	if shared.err != nil {
		t.Fatal(shared.err)
	}
	s := shared.s
	if !s.editor.running() {
		t.Fatalf("the shared editor has exited:\n%s", s.editor.out.String())
	}
	mark := s.editor.out.Len()
	t.Cleanup(func() { checkEditorOutput(t, "shared editor", s.editor.out.since(mark)) })
	return s
}

// closers end what the shared sessions started; TestMain runs them last
// first after the tests.
var closers []func()

// scratchProject copies the imported sample project into a new directory
// of the run's scratch space (for sessions that outlive one test).
func scratchProject(prefix string) (string, error) {
	dir, err := os.MkdirTemp(suite.work, prefix)
	if err != nil {
		return "", err
	}
	project := filepath.Join(dir, "project")
	return project, copyTree(suite.template, project)
}

func startShared() (*session, error) {
	project, err := scratchProject("shared-")
	if err != nil {
		return nil, err
	}
	h, err := startHost("ws://127.0.0.1:0")
	if err != nil {
		return nil, err
	}
	e, err := startEditor(project, h.url)
	if err != nil {
		h.stop()
		return nil, err
	}
	s := &session{host: h, editor: e, project: project}
	closers = append(closers, func() { h.stop(); e.kill() })
	ctx, cancel := context.WithTimeout(context.Background(), connectTimeout)
	defer cancel()
	if _, err := h.waitPeer(ctx, func(i serverInfo) bool { return sameDir(i.Bridge.Peer.ProjectDir, project) }); err != nil {
		return nil, fmt.Errorf("the shared editor never connected: %v\n--- editor output ---\n%s\n--- godot-mcp stderr ---\n%s", err, e.out.String(), h.stderr.String())
	}
	return s, nil
}

// ---- small helpers ----

func ctxFor(t testing.TB, d time.Duration) context.Context {
	ctx, cancel := context.WithTimeout(context.Background(), d)
	t.Cleanup(cancel)
	return ctx
}

// cpuTicks is utime+stime of a process in clock ticks (/proc/PID/stat).
func cpuTicks(pid int) (int64, error) {
	b, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid))
	if err != nil {
		return 0, err
	}
	s := string(b)
	// The command name (field 2) may contain spaces; fields resume after ')'.
	i := strings.LastIndexByte(s, ')')
	if i < 0 {
		return 0, errors.New("unexpected /proc stat format")
	}
	f := strings.Fields(s[i+1:])
	// f[0] is field 3 (state); utime and stime are fields 14 and 15.
	if len(f) < 13 {
		return 0, errors.New("unexpected /proc stat format")
	}
	ut, err1 := strconv.ParseInt(f[11], 10, 64)
	st, err2 := strconv.ParseInt(f[12], 10, 64)
	if err1 != nil || err2 != nil {
		return 0, errors.New("unexpected /proc stat format")
	}
	return ut + st, nil
}

// clockTicks is USER_HZ, fixed at 100 on Linux for /proc's user-visible ticks.
const clockTicks = 100

// cpuPercent measures a process's CPU use over d (100 = one full core).
func cpuPercent(pid int, d time.Duration) (float64, error) {
	if runtime.GOOS != "linux" {
		return 0, errors.New("CPU measurement needs Linux /proc")
	}
	a, err := cpuTicks(pid)
	if err != nil {
		return 0, err
	}
	start := time.Now()
	time.Sleep(d)
	b, err := cpuTicks(pid)
	if err != nil {
		return 0, err
	}
	secs := float64(b-a) / clockTicks
	return 100 * secs / time.Since(start).Seconds(), nil
}

// grepLines returns the lines of s that contain sub.
func grepLines(s, sub string) []string {
	var out []string
	sc := bufio.NewScanner(strings.NewReader(s))
	sc.Buffer(make([]byte, 1<<20), 1<<24)
	for sc.Scan() {
		if strings.Contains(sc.Text(), sub) {
			out = append(out, sc.Text())
		}
	}
	return out
}
