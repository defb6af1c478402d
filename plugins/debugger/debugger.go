// Package debugger is the built-in debugger toolset: breakpoints, stopping the
// running game, its call stack and variables, evaluating expressions, and
// stepping — through the editor's own debugger, so what the agent does is what
// the Debugger panel shows, and what a human sets there counts for the agent.
//
// Everything is the editor's: breakpoints are set in the script editor's
// gutter (kept across plays and passed to games at start), stops and stacks
// are the ones the editor's debugger receives, and the game needs nothing of
// this toolset. docs/debugger.md describes behaviours and limits.
package debugger

import (
	"context"
	"embed"
	"time"

	"github.com/godot-mcp/godot-mcp/plugins/internal/engines"
	"github.com/godot-mcp/godot-mcp/sdk"
)

// Bridge timeouts; the editor bounds its own waits below them, so an agent gets
// the editor's specific hint rather than a bare bridge TIMEOUT.
const (
	quickTimeout = 10 * time.Second // state, breakpoints
	readTimeout  = 20 * time.Second // variables and evaluations (the editor waits up to 5 s each)
	slack        = 15 * time.Second // added to a wait the editor enforces (timeout_ms)
)

var connected = []string{sdk.RequireBridgeConnected}

//go:embed editor
var editorFiles embed.FS

// Toolset is the debugger toolset.
func Toolset() sdk.Toolset {
	return sdk.Toolset{
		Name:           "debugger",
		Version:        "0.1.0",
		Description:    "Debug the running game: breakpoints, break now, why and where it stopped, call stack, variables, evaluate, step into/over/out and continue.",
		Keywords:       []string{"breakpoint", "call stack", "variables", "evaluate", "step over", "crash"},
		MinGodot:       engines.MinGodot,
		MaxTestedGodot: engines.MaxTestedGodot,
		EditorCode:     sdk.Subdir(editorFiles, "editor"),
		Tools: []sdk.Tool{
			sdk.NewTool("list_breakpoints", sdk.ToolOptions{
				Title:         "List breakpoints",
				Description:   "Every breakpoint the editor has (set by an agent or in the script editor), with the line's code.",
				Safety:        sdk.ReadOnly,
				Preconditions: connected,
			}, send[ListBreakpointsIn, ListBreakpointsOut]("cmd_debugger_breakpoints", quickTimeout)),
			sdk.NewTool("set_breakpoints", sdk.ToolOptions{
				Title: "Set breakpoints",
				Description: "Adds and/or removes breakpoints (clear: remove all first), all or nothing. They are the script editor's own: " +
					"a running game gets them at once, later plays keep them (also before the game starts). " +
					"A line that starts no statement is refused with the nearest lines that have code.",
				Safety:        sdk.Mutating,
				Preconditions: connected,
			}, setBreakpoints),
			sdk.NewTool("get_state", sdk.ToolOptions{
				Title: "Debugger state",
				Description: "Whether the game runs or is stopped in the debugger, why (breakpoint, step, breakpoint_keyword, script_error with its message, break_request), " +
					"where (file, line, function) and the call stack.",
				Safety:        sdk.ReadOnly,
				Preconditions: connected,
			}, send[GetStateIn, State]("cmd_debugger_state", quickTimeout)),
			sdk.NewTool("break", sdk.ToolOptions{
				Title:         "Break now",
				Description:   "Stops the running game in the debugger at the next script line it runs (or between frames when no script runs within timeout_ms) and answers where.",
				Safety:        sdk.Runtime,
				Preconditions: connected,
			}, timed[BreakIn, BreakOut]("cmd_debugger_break", func(in BreakIn) int { return in.TimeoutMs + 5000 })),
			sdk.NewTool("step", sdk.ToolOptions{
				Title: "Step",
				Description: "Moves a stopped game one step (mode into, over or out) and answers the new location once it stopped again, " +
					"or ran_on: true when it did not within timeout_ms.",
				Safety:        sdk.Runtime,
				Preconditions: connected,
			}, timed[StepIn, MoveOut]("cmd_debugger_step", func(in StepIn) int { return in.TimeoutMs })),
			sdk.NewTool("continue", sdk.ToolOptions{
				Title:         "Continue",
				Description:   "Resumes a stopped game; answers ran_on: true, or the next stop when one comes within wait_ms (a breakpoint, an error).",
				Safety:        sdk.Runtime,
				Preconditions: connected,
			}, timed[ContinueIn, MoveOut]("cmd_debugger_continue", func(in ContinueIn) int { return in.WaitMs + 5000 })),
			sdk.NewTool("get_variables", sdk.ToolOptions{
				Title: "Frame variables",
				Description: "Variables of a stack frame of the stopped game: locals, members of self, globals; values in godot://docs/values shapes, " +
					"long ones cut (truncated) and paged by name with offset/limit.",
				Safety:        sdk.ReadOnly,
				Preconditions: connected,
			}, send[VariablesIn, VariablesOut]("cmd_debugger_variables", readTimeout)),
			sdk.NewTool("evaluate", sdk.ToolOptions{
				Title: "Evaluate",
				Description: "Evaluates a GDScript expression in a frame of the stopped game (its locals, self's members and methods) and returns the value. " +
					"It runs in the game: calls can change it.",
				Safety:        sdk.Runtime,
				Preconditions: connected,
			}, send[EvaluateIn, EvaluateOut]("cmd_debugger_evaluate", readTimeout)),
		},
	}
}

// send is a tool that sends its input as the params of one editor command.
func send[In, Out any](command string, timeout time.Duration) func(context.Context, *sdk.Call, In) (Out, error) {
	return func(ctx context.Context, call *sdk.Call, in In) (Out, error) {
		return sdk.Send[Out](ctx, call.Host, command, in, timeout)
	}
}

// timed is send with a bridge timeout that grows with the wait the call asks
// the editor for (wait returns it in ms; 0 means the editor's default).
func timed[In, Out any](command string, wait func(In) int) func(context.Context, *sdk.Call, In) (Out, error) {
	return func(ctx context.Context, call *sdk.Call, in In) (Out, error) {
		ms := wait(in)
		if ms < 10000 {
			ms = 10000
		}
		return sdk.Send[Out](ctx, call.Host, command, in, time.Duration(ms)*time.Millisecond+slack)
	}
}

func setBreakpoints(ctx context.Context, call *sdk.Call, in SetBreakpointsIn) (SetBreakpointsOut, error) {
	if len(in.Add) == 0 && len(in.Remove) == 0 && !in.Clear {
		return SetBreakpointsOut{}, sdk.Validation(`nothing to do: pass add and/or remove ([{"path": "res://player.gd", "line": 12}]) or clear: true`)
	}
	p := map[string]any{"add": orEmpty(in.Add), "remove": orEmpty(in.Remove), "clear": in.Clear, "dry_run": call.DryRun}
	return sdk.Send[SetBreakpointsOut](ctx, call.Host, "cmd_debugger_set_breakpoints", p, quickTimeout)
}

func orEmpty(b []BreakpointRef) []BreakpointRef {
	if b == nil {
		return []BreakpointRef{}
	}
	return b
}
