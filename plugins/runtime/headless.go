package runtime

import (
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"
	"unicode/utf8"

	"github.com/godot-mcp/godot-mcp/plugins/internal/respath"
	"github.com/godot-mcp/godot-mcp/sdk"
)

// Environment variables run_headless reads.
const (
	godotBinEnv     = "GODOT_BIN"
	projectDirEnv   = "GODOT_MCP_PROJECT_DIR"
	headlessDirsEnv = "GODOT_MCP_HEADLESS_DIRS" // other directories the user allows (host/config)
)

// HeadlessIn says what to run.
type HeadlessIn struct {
	Scene           string   `json:"scene,omitempty" description:"res:// scene to run; with neither scene nor script the project's main scene runs"`
	Script          string   `json:"script,omitempty" description:"res:// script to run instead of a scene (godot --script): it must extend SceneTree or MainLoop and should call quit()"`
	ProjectDir      string   `json:"project_dir,omitempty" description:"absolute path of the Godot project (the folder with project.godot); default: GODOT_MCP_PROJECT_DIR, else the connected editor's project"`
	TimeoutMs       int      `json:"timeout_ms,omitempty" jsonschema:"minimum=1000,maximum=600000,default=30000" description:"kill the process after this long (timed_out: true)"`
	QuitAfterFrames int      `json:"quit_after_frames,omitempty" jsonschema:"minimum=0,maximum=1000000" description:"make Godot quit by itself after this many frames (--quit-after)"`
	Args            []string `json:"args,omitempty" jsonschema:"maxItems=64" description:"user arguments passed after --, read in the game with OS.get_cmdline_user_args()"`
	MaxOutputBytes  int      `json:"max_output_bytes,omitempty" jsonschema:"minimum=1024,maximum=4194304,default=65536" description:"keep at most this much output (the start and the end; the middle is cut)"`
}

// HeadlessError is an error or warning Godot printed.
type HeadlessError struct {
	Severity string       `json:"severity" description:"error or warning"`
	Message  string       `json:"message" description:"the text after ERROR: / SCRIPT ERROR: / WARNING:"`
	File     string       `json:"file,omitempty" description:"the innermost script frame when Godot printed a backtrace, else the reported location"`
	Line     int          `json:"line,omitempty"`
	Function string       `json:"function,omitempty"`
	Stack    []StackFrame `json:"stack,omitempty" description:"the GDScript backtrace, innermost first, when printed"`
}

// HeadlessOut is the finished run.
type HeadlessOut struct {
	ExitCode        *int            `json:"exit_code" description:"the process exit code; null when it was killed (timed_out) or ended by a signal"`
	Signal          string          `json:"signal,omitempty" description:"how the process ended when a signal ended it"`
	TimedOut        bool            `json:"timed_out" description:"the time limit ended the run; a game without quit() always ends this way"`
	DurationMs      int64           `json:"duration_ms"`
	Output          string          `json:"output" description:"stdout and stderr as they came, colour codes removed"`
	OutputBytes     int64           `json:"output_bytes" description:"how much the process printed in all"`
	Truncated       bool            `json:"truncated" description:"the middle of the output was cut to max_output_bytes"`
	Errors          []HeadlessError `json:"errors" description:"errors and warnings found in the whole output (at most 100)"`
	ErrorsTruncated bool            `json:"errors_truncated,omitempty"`
	Command         []string        `json:"command" description:"the command that ran"`
	ProjectDir      string          `json:"project_dir"`
}

// maxHeadlessErrors bounds HeadlessOut.Errors.
const maxHeadlessErrors = 100

func runHeadless(ctx context.Context, call *sdk.Call, in HeadlessIn) (HeadlessOut, error) {
	if in.Scene != "" && in.Script != "" {
		return HeadlessOut{}, sdk.Validation("give scene or script, not both")
	}
	var target []string
	switch {
	case in.Scene != "":
		p, err := respath.Clean(in.Scene)
		if err != nil {
			return HeadlessOut{}, err
		}
		if !strings.HasSuffix(p, ".tscn") && !strings.HasSuffix(p, ".scn") {
			return HeadlessOut{}, sdk.Validation(fmt.Sprintf("scene %q is not a scene file (.tscn or .scn); run a script with script", in.Scene))
		}
		target = []string{p}
	case in.Script != "":
		p, err := respath.Clean(in.Script)
		if err != nil {
			return HeadlessOut{}, err
		}
		if !strings.HasSuffix(p, ".gd") {
			return HeadlessOut{}, sdk.Validation(fmt.Sprintf("script %q is not a GDScript file (.gd)", in.Script))
		}
		target = []string{"--script", p}
	}
	for i, a := range in.Args {
		if strings.ContainsRune(a, 0) {
			return HeadlessOut{}, sdk.Validation(fmt.Sprintf("args[%d] contains a NUL character", i))
		}
	}
	if in.TimeoutMs == 0 {
		in.TimeoutMs = 30000
	}
	if in.MaxOutputBytes == 0 {
		in.MaxOutputBytes = 65536
	}
	godot, err := findGodot()
	if err != nil {
		return HeadlessOut{}, err
	}
	dir, err := projectDir(ctx, call, in.ProjectDir)
	if err != nil {
		return HeadlessOut{}, err
	}
	for _, p := range []string{in.Scene, in.Script} {
		if p == "" {
			continue
		}
		clean, _ := respath.Clean(p)
		file := filepath.Join(dir, filepath.FromSlash(strings.TrimPrefix(clean, "res://")))
		if err := respath.Inside(dir, file, clean); err != nil {
			return HeadlessOut{}, err
		}
		if _, serr := os.Stat(file); serr != nil {
			return HeadlessOut{}, sdk.NotFound(fmt.Sprintf("%s does not exist in the project %s", clean, dir))
		}
	}
	args := []string{"--headless", "--path", dir}
	args = append(args, target...)
	if in.QuitAfterFrames > 0 {
		args = append(args, "--quit-after", strconv.Itoa(in.QuitAfterFrames))
	}
	if len(in.Args) > 0 {
		args = append(append(args, "--"), in.Args...)
	}
	return execGodot(ctx, godot, dir, args, time.Duration(in.TimeoutMs)*time.Millisecond, in.MaxOutputBytes)
}

// secretEnv are the server's secret variables (host/config marks them; a
// test checks the two lists agree). The host already keeps them from its
// plugins; a game, which runs the project's code, never gets them either.
var secretEnv = []string{"GODOT_MCP_BRIDGE_TOKEN", "GODOT_MCP_AUTH_TOKEN", "GODOT_MCP_APPROVAL_URL"}

// gameEnv is env without the server's secrets and the plugin handshake's
// variables (the game is no plugin).
func gameEnv(env []string) []string {
	out := make([]string, 0, len(env))
	for _, kv := range env {
		k, _, _ := strings.Cut(kv, "=")
		if slices.Contains(secretEnv, k) || strings.HasPrefix(k, "PLUGIN_") || k == "GODOT_MCP_PLUGIN" {
			continue
		}
		out = append(out, kv)
	}
	return out
}

// findGodot finds Godot the way the e2e suite does: GODOT_BIN, else godot on PATH.
func findGodot() (string, error) {
	if bin := os.Getenv(godotBinEnv); bin != "" {
		p, err := exec.LookPath(bin)
		if err != nil {
			return "", sdk.PreconditionFailed("", fmt.Sprintf("%s=%s is not an executable (%v); point it at a Godot 4 binary", godotBinEnv, bin, err))
		}
		return p, nil
	}
	p, err := exec.LookPath("godot")
	if err != nil {
		return "", sdk.PreconditionFailed("", fmt.Sprintf("no Godot binary: set %s to a Godot 4 executable, or put one named godot on the PATH of the godot-mcp server", godotBinEnv))
	}
	return p, nil
}

// projectDir resolves the project to run: the argument, GODOT_MCP_PROJECT_DIR,
// else the connected editor's project. A project_dir argument must be that
// project (or inside a directory of GODOT_MCP_HEADLESS_DIRS): a game runs
// arbitrary code, so an agent cannot point it at any folder on the machine.
func projectDir(ctx context.Context, call *sdk.Call, given string) (string, error) {
	if given == "" {
		return knownProjectDir(ctx, call)
	}
	if !filepath.IsAbs(given) {
		return "", sdk.Validation(fmt.Sprintf("project_dir %q must be an absolute path", given))
	}
	real, err := filepath.EvalSymlinks(filepath.Clean(given))
	if err != nil {
		return "", sdk.NotFound(fmt.Sprintf("project_dir %s has no project.godot; give the folder of a Godot project", given))
	}
	for _, allowed := range filepath.SplitList(os.Getenv(headlessDirsEnv)) {
		if allowed == "" || !filepath.IsAbs(allowed) {
			continue
		}
		if a, err := filepath.EvalSymlinks(filepath.Clean(allowed)); err == nil && within(real, a) {
			return checkProjectDir(given, "project_dir")
		}
	}
	known, kerr := knownProjectDir(ctx, call)
	if kerr == nil {
		if k, err := filepath.EvalSymlinks(known); err == nil && k == real {
			return checkProjectDir(given, "project_dir")
		}
	}
	project := "no project is known"
	if kerr == nil {
		project = "the project is " + known
	}
	return "", sdk.PreconditionFailed("", fmt.Sprintf("project_dir %s is not the project (%s): run_headless runs only the project, "+
		"unless the user lists other directories in the server's %s. Leave project_dir out to run the project.", given, project, headlessDirsEnv))
}

// within reports whether path is dir or inside it (both cleaned, absolute).
func within(path, dir string) bool {
	rel, err := filepath.Rel(dir, path)
	return err == nil && rel != ".." && !strings.HasPrefix(rel, ".."+string(filepath.Separator)) && !filepath.IsAbs(rel)
}

func checkProjectDir(dir, from string) (string, error) {
	if !filepath.IsAbs(dir) {
		return "", sdk.Validation(fmt.Sprintf("%s %q must be an absolute path", from, dir))
	}
	dir = filepath.Clean(dir)
	if _, err := os.Stat(filepath.Join(dir, "project.godot")); err != nil {
		return "", sdk.NotFound(fmt.Sprintf("%s %s has no project.godot; give the folder of a Godot project", from, dir))
	}
	return dir, nil
}

// knownProjectDir is the project: GODOT_MCP_PROJECT_DIR, else the connected editor's.
func knownProjectDir(ctx context.Context, call *sdk.Call) (string, error) {
	check := checkProjectDir
	if env := os.Getenv(projectDirEnv); env != "" {
		return check(env, projectDirEnv)
	}
	type editorState struct {
		ProjectDir string `json:"project_dir"`
	}
	st, err := sdk.Send[editorState](ctx, call.Host, "cmd_get_editor_state", nil, quickTimeout)
	if err == nil && st.ProjectDir != "" {
		return check(st.ProjectDir, "the editor's project")
	}
	return "", sdk.PreconditionFailed(sdk.RequireProjectDir, fmt.Sprintf("no project to run: pass project_dir (the absolute folder with project.godot), set %s for the server, or connect an editor", projectDirEnv))
}

func execGodot(ctx context.Context, godot, dir string, args []string, timeout time.Duration, maxOutput int) (HeadlessOut, error) {
	out := HeadlessOut{Command: append([]string{godot}, args...), ProjectDir: dir}
	capt := newCapture(maxOutput)
	cmd := exec.Command(godot, args...)
	cmd.Dir = dir
	cmd.Env = gameEnv(os.Environ())
	cmd.Stdout = capt
	cmd.Stderr = capt
	cmd.WaitDelay = 2 * time.Second
	ownProcessGroup(cmd)
	start := time.Now()
	if err := cmd.Start(); err != nil {
		return HeadlessOut{}, sdk.Internal(fmt.Sprintf("starting %s failed: %v", godot, err))
	}
	done := make(chan error, 1)
	go func() { done <- cmd.Wait() }()
	timer := time.NewTimer(timeout)
	defer timer.Stop()
	var waitErr error
	select {
	case waitErr = <-done:
	case <-timer.C:
		out.TimedOut = true
		killProcessGroup(cmd)
		waitErr = <-done
	case <-ctx.Done():
		killProcessGroup(cmd)
		<-done
		return HeadlessOut{}, ctx.Err()
	}
	out.DurationMs = time.Since(start).Milliseconds()
	capt.finish()
	out.Output, out.OutputBytes, out.Truncated = capt.text()
	out.Errors, out.ErrorsTruncated = capt.errors()
	var exitErr *exec.ExitError
	if waitErr != nil && !errors.As(waitErr, &exitErr) && !errors.Is(waitErr, exec.ErrWaitDelay) {
		return HeadlessOut{}, sdk.Internal(fmt.Sprintf("waiting for %s failed: %v", godot, waitErr))
	}
	if st := cmd.ProcessState; st != nil && !out.TimedOut {
		if code := st.ExitCode(); code >= 0 {
			out.ExitCode = &code
		} else {
			out.Signal = st.String()
		}
	}
	return out, nil
}

// capture keeps the start and the end of a process's output and parses every
// line for errors on the way, so errors in a cut middle are still reported.
type capture struct {
	mu      sync.Mutex
	headMax int
	tailMax int
	head    []byte
	tail    []byte
	total   int64
	line    []byte
	parser  errorParser
}

const maxLineBytes = 64 << 10

func newCapture(maxBytes int) *capture {
	return &capture{headMax: maxBytes / 4, tailMax: maxBytes - maxBytes/4}
}

func (c *capture) Write(p []byte) (int, error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.total += int64(len(p))
	rest := p
	if room := c.headMax - len(c.head); room > 0 {
		n := min(room, len(rest))
		c.head = append(c.head, rest[:n]...)
		rest = rest[n:]
	}
	if len(rest) > 0 {
		c.tail = append(c.tail, rest...)
		if len(c.tail) > 2*c.tailMax {
			c.tail = append([]byte(nil), c.tail[len(c.tail)-c.tailMax:]...)
		}
	}
	for _, b := range p {
		if b == '\n' {
			c.parser.feed(stripANSI(string(c.line)))
			c.line = c.line[:0]
			continue
		}
		if len(c.line) < maxLineBytes {
			c.line = append(c.line, b)
		}
	}
	return len(p), nil
}

func (c *capture) finish() {
	c.mu.Lock()
	defer c.mu.Unlock()
	if len(c.line) > 0 {
		c.parser.feed(stripANSI(string(c.line)))
		c.line = nil
	}
	c.parser.flush()
}

// text returns the kept output (valid UTF-8, colour codes removed), the total
// byte count and whether the middle was cut.
func (c *capture) text() (string, int64, bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	tail := c.tail
	if len(tail) > c.tailMax {
		tail = tail[len(tail)-c.tailMax:]
	}
	kept := int64(len(c.head) + len(tail))
	if kept >= c.total {
		return clean(string(c.head) + string(tail)), c.total, false
	}
	head := trimRunes(string(c.head), false)
	end := trimRunes(string(tail), true)
	return clean(head) + fmt.Sprintf("\n…[%d bytes cut]…\n", c.total-kept) + clean(end), c.total, true
}

func (c *capture) errors() ([]HeadlessError, bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	errs := c.parser.found
	if errs == nil {
		errs = []HeadlessError{}
	}
	return errs, c.parser.dropped > 0
}

// trimRunes drops a rune cut in half at the end (or, with atStart, the start).
func trimRunes(s string, atStart bool) string {
	if atStart {
		for len(s) > 0 && !utf8.RuneStart(s[0]) {
			s = s[1:]
		}
		return s
	}
	for i := 0; i < utf8.UTFMax && len(s) > 0; i++ {
		r, size := utf8.DecodeLastRuneInString(s)
		if r != utf8.RuneError || size > 1 {
			break
		}
		s = s[:len(s)-1]
	}
	return s
}

var ansiRE = regexp.MustCompile("\x1b\\[[0-9;]*[A-Za-z]")

func stripANSI(s string) string { return ansiRE.ReplaceAllString(s, "") }

func clean(s string) string { return strings.ToValidUTF8(stripANSI(s), "\uFFFD") }

// errorParser reads Godot's error blocks:
//
//	SCRIPT ERROR: Invalid call. Nonexistent function 'foo' in base 'Node2D'.
//	          at: _ready (res://main.gd:12)
//	USER ERROR: boom
//	   at: push_error (core/variant/variant_utility.cpp:1098)
//	   GDScript backtrace (most recent call first):
//	       [0] explode (res://main.gd:30)
type errorParser struct {
	found   []HeadlessError
	cur     *HeadlessError
	dropped int
}

var (
	errStartRE = regexp.MustCompile(`^\s*(?:USER )?(?:SCRIPT )?(ERROR|WARNING):\s*(.*)$`)
	errAtRE    = regexp.MustCompile(`^\s+at:\s*(.*?)\s*\((.*):(\d+)\)\s*$`)
	errFrameRE = regexp.MustCompile(`^\s+\[\d+\]\s*(.*?)\s*\((.*):(\d+)\)\s*$`)
)

func (p *errorParser) feed(line string) {
	line = strings.TrimRight(line, "\r")
	if m := errStartRE.FindStringSubmatch(line); m != nil {
		p.flush()
		sev := "error"
		if m[1] == "WARNING" {
			sev = "warning"
		}
		p.cur = &HeadlessError{Severity: sev, Message: m[2]}
		return
	}
	if p.cur == nil {
		return
	}
	if m := errAtRE.FindStringSubmatch(line); m != nil && p.cur.File == "" {
		n, _ := strconv.Atoi(m[3])
		p.cur.Function, p.cur.File, p.cur.Line = m[1], m[2], n
		return
	}
	if m := errFrameRE.FindStringSubmatch(line); m != nil {
		n, _ := strconv.Atoi(m[3])
		p.cur.Stack = append(p.cur.Stack, StackFrame{File: m[2], Line: n, Function: m[1]})
		return
	}
	if strings.Contains(line, "backtrace") && strings.HasPrefix(line, " ") {
		return
	}
	p.flush()
}

func (p *errorParser) flush() {
	if p.cur == nil {
		return
	}
	e := *p.cur
	p.cur = nil
	e.Message = strings.ToValidUTF8(e.Message, "\uFFFD")
	if len(e.Stack) > 0 {
		e.File, e.Line, e.Function = e.Stack[0].File, e.Stack[0].Line, e.Stack[0].Function
	}
	if len(p.found) >= maxHeadlessErrors {
		p.dropped++
		return
	}
	p.found = append(p.found, e)
}
