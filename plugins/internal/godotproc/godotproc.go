// Package godotproc runs a separate Godot process for a toolset: it finds
// the binary (GODOT_BIN, else the connected editor's executable, else godot on PATH) and the project (an argument,
// GODOT_MCP_PROJECT_DIR, else the connected editor's), starts Godot in a
// process group of its own with a time limit (the whole group is killed when
// over), hands every output line to a callback while it runs, and parses
// Godot's error blocks (SCRIPT ERROR / ERROR / WARNING with "at:" and a
// GDScript backtrace) into file:line errors.
package godotproc

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/godot-mcp/godot-mcp/internal/godotexe"
	"github.com/godot-mcp/godot-mcp/sdk"
	"github.com/godot-mcp/godot-mcp/sdk/contract"
)

// Environment variables read here.
const (
	GodotBinEnv     = "GODOT_BIN"
	ProjectDirEnv   = "GODOT_MCP_PROJECT_DIR"
	HeadlessDirsEnv = "GODOT_MCP_HEADLESS_DIRS" // other directories the user allows (host/config)
)

// quickTimeout bounds the editor-state read that finds the editor's project.
const quickTimeout = 5 * time.Second

// ChildEnv is env without the server's secrets (contract.SecretEnv: a Godot
// process, which runs the project's code, never gets them) and the plugin handshake's
// variables (Godot is no plugin).
func ChildEnv(env []string) []string {
	out := make([]string, 0, len(env))
	for _, kv := range env {
		k, _, _ := strings.Cut(kv, "=")
		if slices.Contains(contract.SecretEnv, k) || strings.HasPrefix(k, "PLUGIN_") || k == "GODOT_MCP_PLUGIN" {
			continue
		}
		out = append(out, kv)
	}
	return out
}

// FindGodot finds Godot: GODOT_BIN, else the connected editor's own
// executable (its editor state's godot_executable, when internal/godotexe
// accepts it: the same Godot the project is edited with), else godot on PATH.
func FindGodot(ctx context.Context, call *sdk.Call) (string, error) {
	if bin := os.Getenv(GodotBinEnv); bin != "" {
		p, err := exec.LookPath(bin)
		if err != nil {
			return "", sdk.PreconditionFailed(sdk.RequireGodotBinary, fmt.Sprintf("%s=%s is not an executable (%v); point it at a Godot 4 binary", GodotBinEnv, bin, err))
		}
		return p, nil
	}
	editor := "no editor is connected"
	if call != nil && call.Host != nil {
		type editorState struct {
			GodotExecutable string `json:"godot_executable"`
		}
		st, err := sdk.Send[editorState](ctx, call.Host, "cmd_get_editor_state", nil, quickTimeout)
		if err == nil {
			p, err := godotexe.Check(st.GodotExecutable)
			if err == nil {
				return p, nil
			}
			editor = err.Error()
		}
	}
	p, err := exec.LookPath("godot")
	if err != nil {
		return "", sdk.PreconditionFailed(sdk.RequireGodotBinary, fmt.Sprintf("no Godot binary: %s is not set, %s (its executable is the fallback), and no godot is on the PATH of the godot-mcp server; set %s to a Godot 4 executable", GodotBinEnv, editor, GodotBinEnv))
	}
	return p, nil
}

// ProjectDir resolves the project to run: the argument, GODOT_MCP_PROJECT_DIR,
// else the connected editor's project. A project_dir argument must be that
// project (or inside a directory of GODOT_MCP_HEADLESS_DIRS): Godot runs the
// project's code, so an agent cannot point it at any folder on the machine.
// what names the tool in the refusal ("run_headless runs only the project").
func ProjectDir(ctx context.Context, call *sdk.Call, given, what string) (string, error) {
	if given == "" {
		return KnownProjectDir(ctx, call)
	}
	if !filepath.IsAbs(given) {
		return "", sdk.Validation(fmt.Sprintf("project_dir %q must be an absolute path", given))
	}
	real, err := filepath.EvalSymlinks(filepath.Clean(given))
	if err != nil {
		return "", sdk.NotFound(fmt.Sprintf("project_dir %s has no project.godot; give the folder of a Godot project", given))
	}
	for _, allowed := range filepath.SplitList(os.Getenv(HeadlessDirsEnv)) {
		if allowed == "" || !filepath.IsAbs(allowed) {
			continue
		}
		if a, err := filepath.EvalSymlinks(filepath.Clean(allowed)); err == nil && Within(real, a) {
			return checkProjectDir(given, "project_dir")
		}
	}
	known, kerr := KnownProjectDir(ctx, call)
	if kerr == nil {
		if k, err := filepath.EvalSymlinks(known); err == nil && k == real {
			return checkProjectDir(given, "project_dir")
		}
	}
	project := "no project is known"
	if kerr == nil {
		project = "the project is " + known
	}
	return "", sdk.PreconditionFailed("", fmt.Sprintf("project_dir %s is not the project (%s): %s runs only the project, "+
		"unless the user lists other directories in the server's %s. Leave project_dir out to use the project.", given, project, what, HeadlessDirsEnv))
}

// Within reports whether path is dir or inside it (both cleaned, absolute).
func Within(path, dir string) bool {
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

// KnownProjectDir is the project: GODOT_MCP_PROJECT_DIR, else the connected editor's.
func KnownProjectDir(ctx context.Context, call *sdk.Call) (string, error) {
	if env := os.Getenv(ProjectDirEnv); env != "" {
		return checkProjectDir(env, ProjectDirEnv)
	}
	type editorState struct {
		ProjectDir string `json:"project_dir"`
	}
	if call != nil && call.Host != nil {
		st, err := sdk.Send[editorState](ctx, call.Host, "cmd_get_editor_state", nil, quickTimeout)
		if err == nil && st.ProjectDir != "" {
			return checkProjectDir(st.ProjectDir, "the editor's project")
		}
	}
	return "", sdk.PreconditionFailed(sdk.RequireProjectDir, fmt.Sprintf("no project: pass project_dir (the absolute folder with project.godot), set %s for the server, or connect an editor", ProjectDirEnv))
}

// Options say what to run.
type Options struct {
	Godot     string   // the binary (FindGodot)
	Dir       string   // the project directory, also the working directory
	Args      []string // Godot's arguments
	Timeout   time.Duration
	MaxOutput int // bytes of output kept (start and end); 0: 64 KiB
	// OnLine, when set, gets every output line (colour codes removed) as
	// it comes, from one goroutine at a time.
	OnLine func(line string)
	// Stdin is the process's standard input; nil: none.
	Stdin io.Reader
}

// Result is a finished run.
type Result struct {
	ExitCode        *int // nil when killed (TimedOut) or ended by a signal
	Signal          string
	TimedOut        bool
	Duration        time.Duration
	Output          string // stdout and stderr as they came, colour codes removed
	OutputBytes     int64
	Truncated       bool
	Errors          []Error // at most MaxErrors
	ErrorsTruncated bool
	Command         []string
}

// Exit says how the process ended, for messages: "exit code 3", "killed
// at its time limit", "ended by signal SIGSEGV".
func (r Result) Exit() string {
	switch {
	case r.TimedOut:
		return "killed at its time limit"
	case r.ExitCode != nil:
		return "exit code " + strconv.Itoa(*r.ExitCode)
	case r.Signal != "":
		return "ended by signal " + r.Signal
	}
	return "ended without an exit code"
}

// Run runs Godot and waits for it to end, for the time limit, or for ctx.
func Run(ctx context.Context, o Options) (Result, error) {
	if o.MaxOutput <= 0 {
		o.MaxOutput = 65536
	}
	out := Result{Command: append([]string{o.Godot}, o.Args...)}
	capt := newCapture(o.MaxOutput, o.OnLine)
	cmd := exec.Command(o.Godot, o.Args...)
	cmd.Dir = o.Dir
	cmd.Env = ChildEnv(os.Environ())
	cmd.Stdout = capt
	cmd.Stderr = capt
	cmd.Stdin = o.Stdin
	cmd.WaitDelay = 2 * time.Second
	ownProcessGroup(cmd)
	start := time.Now()
	if err := cmd.Start(); err != nil {
		return Result{}, sdk.Internal(fmt.Sprintf("starting %s failed: %v", o.Godot, err))
	}
	done := make(chan error, 1)
	go func() { done <- cmd.Wait() }()
	timer := time.NewTimer(o.Timeout)
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
		return Result{}, ctx.Err()
	}
	out.Duration = time.Since(start)
	capt.finish()
	out.Output, out.OutputBytes, out.Truncated = capt.text()
	out.Errors, out.ErrorsTruncated = capt.errors()
	var exitErr *exec.ExitError
	if waitErr != nil && !errors.As(waitErr, &exitErr) && !errors.Is(waitErr, exec.ErrWaitDelay) {
		return Result{}, sdk.Internal(fmt.Sprintf("waiting for %s failed: %v", o.Godot, waitErr))
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

// Continue is an endless "c\n": the standard input of a Godot run with -d
// (the local debugger, which makes get_stack() report lines), so that a
// script error, which breaks into that debugger, continues instead of
// waiting at its debug> prompt.
func Continue() io.Reader { return &continueReader{} }

// continueReader repeats "c\n" across reads of any size.
type continueReader struct{ n int }

func (r *continueReader) Read(p []byte) (int, error) {
	for i := range p {
		p[i] = "c\n"[r.n%2]
		r.n++
	}
	return len(p), nil
}
