//go:build unix

package runtime_test

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"reflect"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	rt "github.com/godot-mcp/godot-mcp/plugins/runtime"
	"github.com/godot-mcp/godot-mcp/sdk"
)

// fakeGodot writes an executable that plays Godot: it prints its arguments
// and what the script body says, then exits.
func fakeGodot(t *testing.T, body string) string {
	t.Helper()
	dir := t.TempDir()
	p := filepath.Join(dir, "godot")
	script := "#!/bin/sh\necho \"ARGS: $*\"\n" + body + "\n"
	if err := os.WriteFile(p, []byte(script), 0o755); err != nil {
		t.Fatal(err)
	}
	return p
}

// allowTempDirs lets run_headless run the temporary test projects (the
// user's GODOT_MCP_HEADLESS_DIRS), which are not the server's project.
func allowTempDirs(t *testing.T) {
	t.Setenv("GODOT_MCP_HEADLESS_DIRS", os.TempDir())
}

func sampleProject(t *testing.T) string {
	t.Helper()
	dir := t.TempDir()
	for name, text := range map[string]string{
		"project.godot": "config_version=5\n",
		"main.tscn":     "[gd_scene format=3]\n",
		"tools/run.gd":  "extends SceneTree\n",
	} {
		p := filepath.Join(dir, filepath.FromSlash(name))
		os.MkdirAll(filepath.Dir(p), 0o755)
		if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

func TestRunHeadlessWithoutAnEditor(t *testing.T) {
	godot := fakeGodot(t, `
echo "a line"
echo "SCRIPT ERROR: Invalid call. Nonexistent function 'foo'." >&2
echo "          at: _ready (res://main.gd:12)" >&2
echo "USER ERROR: boom" >&2
echo "   at: push_error (core/variant/variant_utility.cpp:1098)" >&2
echo "   GDScript backtrace (most recent call first):" >&2
echo "       [0] explode (res://player.gd:30)" >&2
echo "       [1] _ready (res://main.gd:5)" >&2
printf '\033[1;33mWARNING:\033[0m careful\n' >&2
echo "     at: thing (scene/main/node.cpp:10)" >&2
echo "done"
exit 3`)
	t.Setenv("GODOT_BIN", godot)
	allowTempDirs(t)
	t.Setenv("GODOT_MCP_PROJECT_DIR", "")
	project := sampleProject(t)
	h := start(t)
	res, err := h.Call(context.Background(), "run_headless", map[string]any{
		"project_dir": project, "scene": "res://main.tscn", "quit_after_frames": 10, "args": []string{"--level", "2"},
	})
	if err != nil {
		t.Fatal(err)
	}
	var out rt.HeadlessOut
	decode(t, res, &out)
	if n := len(h.Addon().Received()); n != 0 {
		t.Fatalf("run_headless with project_dir sent %d commands to the editor", n)
	}
	if out.ExitCode == nil || *out.ExitCode != 3 || out.TimedOut {
		t.Fatalf("exit %v timed_out %v", out.ExitCode, out.TimedOut)
	}
	wantArgs := "ARGS: --headless --path " + project + " res://main.tscn --quit-after 10 -- --level 2"
	if !strings.Contains(out.Output, wantArgs) || !strings.Contains(out.Output, "done") {
		t.Fatalf("output:\n%s\nwant %q", out.Output, wantArgs)
	}
	if strings.Contains(out.Output, "\x1b[") {
		t.Fatalf("colour codes left in the output: %q", out.Output)
	}
	want := []rt.HeadlessError{
		{Severity: "error", Message: "Invalid call. Nonexistent function 'foo'.", File: "res://main.gd", Line: 12, Function: "_ready"},
		{Severity: "error", Message: "boom", File: "res://player.gd", Line: 30, Function: "explode",
			Stack: []rt.StackFrame{{File: "res://player.gd", Line: 30, Function: "explode"}, {File: "res://main.gd", Line: 5, Function: "_ready"}}},
		{Severity: "warning", Message: "careful", File: "scene/main/node.cpp", Line: 10, Function: "thing"},
	}
	if !reflect.DeepEqual(out.Errors, want) {
		t.Fatalf("errors:\n%+v\nwant\n%+v", out.Errors, want)
	}
	if out.Command[0] != godot || out.ProjectDir != project {
		t.Fatalf("command %v project %s", out.Command, out.ProjectDir)
	}
}

func TestRunHeadlessScriptAndMainScene(t *testing.T) {
	t.Setenv("GODOT_BIN", fakeGodot(t, "exit 0"))
	allowTempDirs(t)
	project := sampleProject(t)
	t.Setenv("GODOT_MCP_PROJECT_DIR", project)
	cases := []struct {
		args map[string]any
		want string
	}{
		{map[string]any{"script": "res://tools/run.gd"}, "ARGS: --headless --path " + project + " --script res://tools/run.gd\n"},
		{map[string]any{}, "ARGS: --headless --path " + project + "\n"},
	}
	for _, tc := range cases {
		h := start(t)
		res, err := h.Call(context.Background(), "run_headless", tc.args)
		if err != nil {
			t.Fatal(err)
		}
		var out rt.HeadlessOut
		decode(t, res, &out)
		if out.Output != tc.want || out.ExitCode == nil || *out.ExitCode != 0 || len(out.Errors) != 0 || out.Errors == nil {
			t.Fatalf("%+v", out)
		}
	}
}

func TestRunHeadlessTimeLimitKillsTheProcessGroup(t *testing.T) {
	pidFile := filepath.Join(t.TempDir(), "child.pid")
	// A child that would outlive its parent unless the whole group is killed.
	allowTempDirs(t)
	t.Setenv("GODOT_BIN", fakeGodot(t, `sleep 60 &
echo $! > `+pidFile+`
echo started
sleep 60`))
	h := start(t)
	res, err := h.Call(context.Background(), "run_headless", map[string]any{"project_dir": sampleProject(t), "timeout_ms": 1000})
	if err != nil {
		t.Fatal(err)
	}
	var out rt.HeadlessOut
	decode(t, res, &out)
	if !out.TimedOut || out.ExitCode != nil || !strings.Contains(out.Output, "started") {
		t.Fatalf("%+v", out)
	}
	if out.DurationMs > 10000 {
		t.Fatalf("took %d ms", out.DurationMs)
	}
	if !strings.Contains(string(res.Structured), `"exit_code":null`) {
		t.Fatalf("exit_code must be null when killed: %s", res.Structured)
	}
	raw, err := os.ReadFile(pidFile)
	if err != nil {
		t.Fatal(err)
	}
	pid, err := strconv.Atoi(strings.TrimSpace(string(raw)))
	if err != nil {
		t.Fatal(err)
	}
	// The background child was killed with the group (a zombie until init
	// reaps it, so poll until it is gone).
	deadline := time.Now().Add(10 * time.Second)
	for {
		err := syscall.Kill(pid, 0)
		if errors.Is(err, syscall.ESRCH) {
			return
		}
		if time.Now().After(deadline) {
			syscall.Kill(pid, syscall.SIGKILL)
			t.Fatalf("the child %d of the killed process is still running", pid)
		}
		time.Sleep(50 * time.Millisecond)
	}
}

func TestRunHeadlessOutputIsBounded(t *testing.T) {
	// 200 KiB of output with an error in the middle.
	allowTempDirs(t)
	t.Setenv("GODOT_BIN", fakeGodot(t, `i=0
while [ $i -lt 2000 ]; do echo "line $i xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx"; i=$((i+1)); if [ $i -eq 1000 ]; then echo "ERROR: in the middle" >&2; fi; done`))
	h := start(t)
	res, err := h.Call(context.Background(), "run_headless", map[string]any{"project_dir": sampleProject(t), "max_output_bytes": 4096})
	if err != nil {
		t.Fatal(err)
	}
	var out rt.HeadlessOut
	decode(t, res, &out)
	if !out.Truncated || len(out.Output) > 4096+100 || out.OutputBytes < 190000 {
		t.Fatalf("truncated=%v len=%d total=%d", out.Truncated, len(out.Output), out.OutputBytes)
	}
	if !strings.Contains(out.Output, "line 1999") || !strings.Contains(out.Output, "ARGS:") || !strings.Contains(out.Output, "bytes cut") {
		t.Fatalf("the start and the end must be kept:\n%s", out.Output)
	}
	if len(out.Errors) != 1 || out.Errors[0].Message != "in the middle" {
		t.Fatalf("errors in the cut middle must still be found: %+v", out.Errors)
	}
}

func TestRunHeadlessPreconditions(t *testing.T) {
	project := sampleProject(t)
	t.Run("no godot", func(t *testing.T) {
		t.Setenv("GODOT_BIN", filepath.Join(t.TempDir(), "missing-godot"))
		allowTempDirs(t)
		h := start(t)
		res, _ := h.Call(context.Background(), "run_headless", map[string]any{"project_dir": project})
		if res.Err == nil || res.Err.Code != sdk.CodePreconditionFailed || !strings.Contains(res.Err.Hint, "GODOT_BIN") {
			t.Fatalf("%+v", res.Err)
		}
	})
	t.Setenv("GODOT_BIN", fakeGodot(t, "exit 0"))
	allowTempDirs(t)
	t.Setenv("GODOT_MCP_PROJECT_DIR", "")
	t.Run("no project and no editor project", func(t *testing.T) {
		h := start(t) // the fake editor has no cmd_get_editor_state handler
		res, _ := h.Call(context.Background(), "run_headless", nil)
		if res.Err == nil || res.Err.Code != sdk.CodePreconditionFailed || res.Err.Required != sdk.RequireProjectDir {
			t.Fatalf("%+v", res.Err)
		}
	})
	t.Run("the editor's project", func(t *testing.T) {
		h := start(t)
		h.Addon().HandleResult("cmd_get_editor_state", map[string]any{"project_dir": project})
		res, _ := h.Call(context.Background(), "run_headless", nil)
		var out rt.HeadlessOut
		decode(t, res, &out)
		if out.ProjectDir != project {
			t.Fatalf("%+v", out)
		}
	})
	t.Run("relative project_dir", func(t *testing.T) {
		h := start(t)
		res, _ := h.Call(context.Background(), "run_headless", map[string]any{"project_dir": "game"})
		if res.Err == nil || res.Err.Code != sdk.CodeValidationError {
			t.Fatalf("%+v", res.Err)
		}
	})
	t.Run("not a project", func(t *testing.T) {
		h := start(t)
		res, _ := h.Call(context.Background(), "run_headless", map[string]any{"project_dir": t.TempDir()})
		if res.Err == nil || res.Err.Code != sdk.CodeResourceNotFound || !strings.Contains(res.Err.Hint, "project.godot") {
			t.Fatalf("%+v", res.Err)
		}
	})
	t.Run("missing scene", func(t *testing.T) {
		h := start(t)
		res, _ := h.Call(context.Background(), "run_headless", map[string]any{"project_dir": project, "scene": "res://nope.tscn"})
		if res.Err == nil || res.Err.Code != sdk.CodeResourceNotFound || !strings.Contains(res.Err.Hint, "res://nope.tscn") {
			t.Fatalf("%+v", res.Err)
		}
	})
}

// run_headless runs only the project: a project_dir elsewhere (or a link to
// elsewhere) is refused before Godot starts, unless GODOT_MCP_HEADLESS_DIRS
// lists a directory that holds it.
func TestRunHeadlessStaysInTheProject(t *testing.T) {
	ran := filepath.Join(t.TempDir(), "ran")
	t.Setenv("GODOT_BIN", fakeGodot(t, "touch "+ran))
	project, other := sampleProject(t), sampleProject(t)
	t.Setenv("GODOT_MCP_PROJECT_DIR", project)
	t.Setenv("GODOT_MCP_HEADLESS_DIRS", "")
	link := filepath.Join(t.TempDir(), "link")
	if err := os.Symlink(other, link); err != nil {
		t.Fatal(err)
	}
	h := start(t)
	for _, dir := range []string{other, link, filepath.Dir(project), "/"} {
		res, _ := h.Call(context.Background(), "run_headless", map[string]any{"project_dir": dir})
		if res.Err == nil || res.Err.Code != sdk.CodePreconditionFailed || !strings.Contains(res.Err.Hint, "GODOT_MCP_HEADLESS_DIRS") {
			t.Errorf("project_dir %s: %+v %s", dir, res.Err, res.Structured)
		}
		if _, err := os.Stat(ran); err == nil {
			t.Fatalf("Godot ran for project_dir %s", dir)
		}
	}
	for _, args := range []map[string]any{nil, {"project_dir": project}} {
		res, _ := h.Call(context.Background(), "run_headless", args)
		var out rt.HeadlessOut
		decode(t, res, &out)
		if out.ProjectDir != project {
			t.Fatalf("%v: %+v", args, out)
		}
	}
	t.Setenv("GODOT_MCP_HEADLESS_DIRS", "/nonexistent"+string(filepath.ListSeparator)+filepath.Dir(other))
	res, _ := h.Call(context.Background(), "run_headless", map[string]any{"project_dir": other})
	var out rt.HeadlessOut
	decode(t, res, &out)
	if out.ProjectDir != other {
		t.Fatalf("allowed directory: %+v", out)
	}
}
