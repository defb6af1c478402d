package runtime

import (
	"context"
	"fmt"
	"strings"
	"time"

	"github.com/godot-mcp/godot-mcp/plugins/internal/respath"
	"github.com/godot-mcp/godot-mcp/sdk"
)

// StackFrame is one frame of a script stack, innermost first.
type StackFrame struct {
	File     string `json:"file" description:"res:// path of the script"`
	Line     int    `json:"line"`
	Function string `json:"function"`
}

// PlayIn says what to play and how.
type PlayIn struct {
	Scene     string `json:"scene,omitempty" jsonschema:"default=main" description:"\"main\" (the project's main scene), \"current\" (the scene being edited) or a res:// path of a .tscn/.scn"`
	Display   string `json:"display,omitempty" jsonschema:"enum=auto|window|headless,default=auto" description:"headless: no window or renderer (no screenshots); auto: headless when the editor is"`
	TimeoutMs int    `json:"timeout_ms,omitempty" jsonschema:"minimum=1000,maximum=300000,default=20000" description:"how long to wait for the game's probe to report in"`
}

// PlayOut is the started game session.
type PlayOut struct {
	Playing        bool   `json:"playing"`
	Scene          string `json:"scene" description:"res:// path of the played scene"`
	PID            int    `json:"pid" description:"the game's process id"`
	SessionID      int    `json:"session_id" description:"the editor's debugger session"`
	ProbeConnected bool   `json:"probe_connected"`
	Paused         bool   `json:"paused"`
	Headless       bool   `json:"headless" description:"the game runs without a display (no screenshots)"`
	Restarted      bool   `json:"restarted" description:"a game was already running and was stopped first"`
	OutputCursor   int    `json:"output_cursor" description:"pass as since to get_output to read this run from its start"`
	ErrorsCursor   int    `json:"errors_cursor" description:"pass as since to get_errors to read this run's errors"`
	StartupMs      int    `json:"startup_ms" description:"from the play request to the probe's report (or to the stop in the debugger)"`
	Break
	Note string `json:"note,omitempty" description:"when the game is stopped in the debugger before its probe reported in: why, where, and how to go on"`
}

// Break says whether and why the game is stopped in the debugger. The reasons are
// godot_debugger_get_state's.
type Break struct {
	Breaked      bool         `json:"breaked" description:"the game is stopped in the debugger"`
	BreakReason  string       `json:"break_reason" description:"why it stopped: breakpoint, step (a debugger step landed), breakpoint_keyword (a breakpoint statement), script_error or break_request (godot_debugger_break, the editor's Pause button); empty when not stopped"`
	BreakMessage string       `json:"break_message" description:"the script error's message, when break_reason is script_error"`
	BreakStack   []StackFrame `json:"break_stack" description:"the script stack where it stopped, innermost first ([] between frames or before it arrived)"`
}

func (b *Break) fill() {
	if b.BreakStack == nil {
		b.BreakStack = []StackFrame{}
	}
}

func play(ctx context.Context, call *sdk.Call, in PlayIn) (PlayOut, error) {
	switch in.Scene {
	case "", "main", "current":
	default:
		p, err := respath.Clean(in.Scene)
		if err != nil {
			return PlayOut{}, sdk.Validation(fmt.Sprintf("scene must be \"main\", \"current\" or a res:// scene path: %s", sdk.AsError(err).Hint))
		}
		if !strings.HasSuffix(p, ".tscn") && !strings.HasSuffix(p, ".scn") {
			return PlayOut{}, sdk.Validation(fmt.Sprintf("scene %q is not a scene file (.tscn or .scn)", in.Scene))
		}
		in.Scene = p
	}
	if in.Scene == "" {
		in.Scene = "main"
	}
	if in.Display == "" {
		in.Display = "auto"
	}
	if in.TimeoutMs == 0 {
		in.TimeoutMs = 20000
	}
	timeout := time.Duration(in.TimeoutMs)*time.Millisecond + stopTimeout
	out, err := sdk.Send[PlayOut](ctx, call.Host, "cmd_runtime_play", in, timeout)
	out.fill()
	return out, err
}

// StopIn takes no arguments.
type StopIn struct{}

// StopOut reports what was stopped.
type StopOut struct {
	WasPlaying   bool   `json:"was_playing" description:"a game was running"`
	Stopped      bool   `json:"stopped" description:"no game runs now"`
	Scene        string `json:"scene" description:"the scene that was playing"`
	OutputCursor int    `json:"output_cursor" description:"the output cursor after the stop"`
}

func stop(ctx context.Context, call *sdk.Call, _ StopIn) (StopOut, error) {
	return sdk.Send[StopOut](ctx, call.Host, "cmd_runtime_stop", nil, stopTimeout)
}

// StatusIn takes no arguments.
type StatusIn struct{}

// StatusOut describes the game session, if any.
type StatusOut struct {
	Playing         bool    `json:"playing"`
	Scene           string  `json:"scene" description:"res:// path of the played scene, empty when not playing"`
	SessionID       int     `json:"session_id" description:"the editor's debugger session of the game, -1 when none"`
	PID             int     `json:"pid" description:"the game's process id, 0 when unknown"`
	ProbeConnected  bool    `json:"probe_connected" description:"the game-side probe reported in"`
	ProbeRegistered bool    `json:"probe_registered" description:"the probe autoload is in project.godot, so the next game started from the editor has it"`
	RuntimeEnabled  bool    `json:"runtime_enabled" description:"the editor heard from the server that the runtime toolset is enabled"`
	ProbeResponding *bool   `json:"probe_responding,omitempty" description:"the probe answered this status request (absent when not asked)"`
	Paused          bool    `json:"paused"`
	TimeScale       float64 `json:"time_scale"`
	Break
	Headless      bool     `json:"headless"`
	ProcessFrames *int64   `json:"process_frames,omitempty" description:"frames the game has processed (when the probe answered)"`
	FPS           *float64 `json:"fps,omitempty"`
	Frozen        bool     `json:"frozen,omitempty" description:"the game is frozen by the playtest toolset (godot_playtest_step): it advances only when stepped"`
	Stepping      bool     `json:"stepping,omitempty" description:"a godot_playtest_step window is advancing it now"`
	OutputCursor  int      `json:"output_cursor" description:"the cursor get_output would continue from now"`
	ErrorsCursor  int      `json:"errors_cursor" description:"the cursor get_errors would continue from now"`
}

func status(ctx context.Context, call *sdk.Call, _ StatusIn) (StatusOut, error) {
	out, err := sdk.Send[StatusOut](ctx, call.Host, "cmd_runtime_get_status", nil, quickTimeout)
	out.fill()
	return out, err
}
