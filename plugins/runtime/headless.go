package runtime

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"github.com/godot-mcp/godot-mcp/plugins/internal/godotproc"
	"github.com/godot-mcp/godot-mcp/plugins/internal/respath"
	"github.com/godot-mcp/godot-mcp/sdk"
)

// HeadlessIn says what to run.
type HeadlessIn struct {
	Scene           string   `json:"scene,omitempty" description:"res:// scene to run; with neither scene nor script the project's main scene runs"`
	Script          string   `json:"script,omitempty" description:"res:// script to run instead of a scene (--script): extends SceneTree or MainLoop, calls quit()"`
	ProjectDir      string   `json:"project_dir,omitempty" description:"absolute project folder (with project.godot); default: GODOT_MCP_PROJECT_DIR, else the editor's project"`
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
	godot, err := godotproc.FindGodot(ctx, call)
	if err != nil {
		return HeadlessOut{}, err
	}
	dir, err := godotproc.ProjectDir(ctx, call, in.ProjectDir, "run_headless")
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

// gameEnv is env without the server's secrets (contract.SecretEnv) and the
// plugin handshake's variables (the game is no plugin).
func gameEnv(env []string) []string { return godotproc.ChildEnv(env) }

// execGodot runs Godot (godotproc: own process group, killed with it after
// timeout) and reports the run.
func execGodot(ctx context.Context, godot, dir string, args []string, timeout time.Duration, maxOutput int) (HeadlessOut, error) {
	res, err := godotproc.Run(ctx, godotproc.Options{Godot: godot, Dir: dir, Args: args, Timeout: timeout, MaxOutput: maxOutput})
	if err != nil {
		return HeadlessOut{}, err
	}
	out := HeadlessOut{
		ExitCode: res.ExitCode, Signal: res.Signal, TimedOut: res.TimedOut, DurationMs: res.Duration.Milliseconds(),
		Output: res.Output, OutputBytes: res.OutputBytes, Truncated: res.Truncated, Errors: make([]HeadlessError, 0, len(res.Errors)),
		ErrorsTruncated: res.ErrorsTruncated, Command: res.Command, ProjectDir: dir,
	}
	for _, e := range res.Errors {
		he := HeadlessError{Severity: e.Severity, Message: e.Message, File: e.File, Line: e.Line, Function: e.Function}
		for _, f := range e.Stack {
			he.Stack = append(he.Stack, StackFrame{File: f.File, Line: f.Line, Function: f.Function})
		}
		out.Errors = append(out.Errors, he)
	}
	return out, nil
}
