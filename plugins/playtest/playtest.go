// Package playtest is the built-in playtest toolset: playtesting the running
// game at the agent's pace. eval runs code in the live game; step freezes it
// and advances it by exact physics ticks or process frames (with an input
// timeline, or until a predicate holds); wait_for blocks until a predicate
// holds; watch samples values over frames; record writes the input the game
// receives to a file that step replays. It drives the game through the
// runtime toolset's probe and link, so it needs runtime enabled too; it is a
// toolset of its own so that its descriptions are paid for only by an agent
// that playtests (docs/playtest.md).
package playtest

import (
	"context"
	"embed"
	"fmt"
	"github.com/godot-mcp/godot-mcp/plugins/internal/timeline"
	"regexp"
	"strings"
	"time"

	"github.com/godot-mcp/godot-mcp/plugins/internal/engines"
	"github.com/godot-mcp/godot-mcp/plugins/internal/respath"
	"github.com/godot-mcp/godot-mcp/sdk"
)

// editorSlack is added to a time limit the editor enforces itself.
const editorSlack = 10 * time.Second

var bridgeOnly = []string{sdk.RequireBridgeConnected}

//go:embed editor
var editorFiles embed.FS

// Toolset is the playtest toolset.
func Toolset() sdk.Toolset {
	return sdk.Toolset{
		Name:           "playtest",
		Version:        "0.1.0",
		Description:    "Playtesting the running game at the agent's pace: eval code in the live game, freeze and step it exactly (input timeline, step until), wait for a condition, watch values over frames, record input and replay it. Needs the runtime toolset enabled.",
		Keywords:       []string{"eval", "freeze", "step frames", "physics ticks", "wait for", "watch values", "playtest", "record input", "replay"},
		MinGodot:       engines.MinGodot,
		MaxTestedGodot: engines.MaxTestedGodot,
		EditorCode:     sdk.Subdir(editorFiles, "editor"),
		Tools: []sdk.Tool{
			sdk.NewTool("eval", sdk.ToolOptions{
				Title: "Evaluate in the live game",
				Description: "Runs a GDScript expression or statements (await allowed) in the running game, also paused or frozen; answers the value (godot://docs/values shapes). " +
					"A compile or script error is VALIDATION_ERROR with Godot's message, line and stack; a loop past timeout_ms is cut (TIMEOUT).",
				Safety:        sdk.Runtime,
				RunsCode:      true,
				Preconditions: bridgeOnly,
			}, eval),
			sdk.NewTool("step", sdk.ToolOptions{
				Title: "Freeze and step game time",
				Description: "Freezes the game and advances it exactly count physics ticks or process frames, or until a predicate holds, with an input timeline (or a recording's replay) inside; held inputs are released at the end. " +
					"Leaves it frozen (then: resume; count 0 only freezes). Answers ticks, frames, game and wall time, report values. play first starts a scene frozen before its first frame. Game code sees GodotMcpProbe.frozen/.stepping.",
				Safety:        sdk.Runtime,
				RunsCode:      true,
				Preconditions: bridgeOnly,
			}, step),
			sdk.NewTool("wait_for", sdk.ToolOptions{
				Title: "Wait for a condition",
				Description: "Blocks until a predicate on the running game holds, bounded by max_frames and timeout_ms. " +
					"Answers held, the frame, and the report values; when a bound expires first, held false, which bound, and the last values seen.",
				Safety:        sdk.Runtime,
				RunsCode:      true,
				Preconditions: bridgeOnly,
			}, waitFor),
			sdk.NewTool("watch", sdk.ToolOptions{
				Title:         "Watch values over frames",
				Description:   "Samples expressions every N process frames of the running game: one timeline (frame, game time, values), bounded by max_samples and max_bytes.",
				Safety:        sdk.Runtime,
				RunsCode:      true,
				Preconditions: bridgeOnly,
			}, watch),
			sdk.NewTool("controls", sdk.ToolOptions{
				Title:         "List live Controls",
				Description:   "Lists the running game's Controls: path, class, text, rect (viewport and screen pixels), visible, disabled, focused, ItemList/Tree rows.",
				Safety:        sdk.Runtime,
				Preconditions: bridgeOnly,
			}, controls),
			sdk.NewTool("interact", sdk.ToolOptions{
				Title: "Click, hover, drag, scroll, type",
				Description: "Clicks, double-clicks, hovers, drags, scrolls or types into a LineEdit/TextEdit at a Control (node path or visible text, ItemList/Tree rows too) or a Node2D/Node3D, resolved through stretch and camera. " +
					"Missing: RESOURCE_NOT_FOUND; hidden, disabled, clipped or covered: PRECONDITION_FAILED with candidates, nothing sent. A frozen game runs just the gesture's frames.",
				Safety:        sdk.Runtime,
				Preconditions: bridgeOnly,
			}, interact),
			sdk.NewTool("record", sdk.ToolOptions{
				Title: "Record the game's input",
				Description: "start records the input the running game receives (a person's or the agent's) at the tick it arrives, and checkpoint values; stop saves it as JSON, discard drops it; a stopped game saves it too. " +
					"Replay: godot_playtest_step replay (with play, from a frozen start).",
				Safety:          sdk.Runtime,
				RunsCode:        true,
				DestructiveWhen: []string{"overwrite"},
				Preconditions:   bridgeOnly,
			}, record),
			sdk.NewTool("digest", sdk.ToolOptions{
				Title:         "Scene at a glance",
				Description:   "The live scene without a screenshot: nodes of interest (bodies, moving, scripted, in groups) with position and velocity, and the visible UI texts.",
				Safety:        sdk.Runtime,
				Preconditions: bridgeOnly,
			}, digest),
		},
	}
}

// Node paths of the running game, as the runtime toolset takes them.
const nodePathHelp = "absolute (\"/root/Main/Player\") or relative to the current scene (\"Player\", \".\" for the scene itself)"

func checkNodePath(where, p string, required bool) error {
	if p == "" && required {
		return sdk.Validation(fmt.Sprintf("%s is required: a node path, %s", where, nodePathHelp))
	}
	if strings.ContainsAny(p, "\x00") {
		return sdk.Validation(fmt.Sprintf("%s contains a NUL character", where))
	}
	return nil
}

func nonNil[T any](s []T) []T {
	if s == nil {
		return []T{}
	}
	return s
}

// Vec2 is a position or offset in window pixels.
type Vec2 = timeline.Vec2

// Bounds shared by the game and these tools.
const (
	maxExpressions  = 16
	maxWindowFrames = 36_000
	maxEvalMs       = 60_000
	maxTimelineLen  = 500
)

// EvalIn is code to run in the live game.
type EvalIn struct {
	Code      string `json:"code" description:"an expression (node.position.y) or statements (return gives the value). node, tree, root, scene and the autoloads are bound"`
	Node      string `json:"node,omitempty" description:"bound as node (default the current scene)"`
	Mode      string `json:"mode,omitempty" jsonschema:"enum=auto|expression|snippet,default=auto" description:"auto: an expression when it parses as one"`
	TimeoutMs int    `json:"timeout_ms,omitempty" jsonschema:"minimum=100,maximum=60000,default=5000" description:"a loop past it is cut"`
}

// EvalOut is the value the code produced.
type EvalOut struct {
	Value      any    `json:"value" description:"the result in the JSON shapes of godot://docs/values (null when a snippet returns nothing)"`
	Type       string `json:"type" description:"its Godot type (the class for objects)"`
	Mode       string `json:"mode" description:"expression or snippet: how the code ran"`
	Node       string `json:"node" description:"absolute path of the node bound as node"`
	DurationMs int64  `json:"duration_ms" description:"wall time it ran"`
	Frames     int64  `json:"frames" description:"process frames that passed while it ran (a snippet that awaits)"`
	Frozen     bool   `json:"frozen" description:"the game is frozen by godot_playtest_step"`
}

func eval(ctx context.Context, call *sdk.Call, in EvalIn) (EvalOut, error) {
	if strings.TrimSpace(in.Code) == "" {
		return EvalOut{}, sdk.Validation("code is empty: give an expression (node.position.y) or statements (return gives the value)")
	}
	if len(in.Code) > 64*1024 {
		return EvalOut{}, sdk.Validation("code is over 64 KiB; keep eval to small snippets")
	}
	if err := checkNodePath("node", in.Node, false); err != nil {
		return EvalOut{}, err
	}
	if in.Mode == "" {
		in.Mode = "auto"
	}
	if in.TimeoutMs == 0 {
		in.TimeoutMs = 5000
	}
	if in.TimeoutMs < 100 || in.TimeoutMs > maxEvalMs {
		return EvalOut{}, sdk.Validation(fmt.Sprintf("timeout_ms must be 100..%d", maxEvalMs))
	}
	timeout := time.Duration(in.TimeoutMs)*time.Millisecond + 2*editorSlack
	return sdk.Send[EvalOut](ctx, call.Host, "cmd_playtest_eval", in, timeout)
}

// Predicate is a condition on the live game; exactly one kind.
type Predicate struct {
	Expression   string `json:"expression,omitempty" description:"a GDScript Expression (no statements) that is truthy; node is its self; tree, root, scene and the autoloads are bound"`
	Signal       string `json:"signal,omitempty" description:"node emitted it"`
	NodeAppears  string `json:"node_appears,omitempty" description:"a node exists at this path"`
	NodeLeaves   string `json:"node_leaves,omitempty" description:"no node exists at this path"`
	Group        string `json:"group,omitempty" description:"its node count is within count_at_least/most"`
	CountAtLeast *int   `json:"count_at_least,omitempty" jsonschema:"minimum=0"`
	CountAtMost  *int   `json:"count_at_most,omitempty" jsonschema:"minimum=0"`
}

func (p *Predicate) check(where string) error {
	var kinds []string
	for _, k := range []struct {
		name string
		set  bool
	}{{"expression", p.Expression != ""}, {"signal", p.Signal != ""}, {"node_appears", p.NodeAppears != ""}, {"node_leaves", p.NodeLeaves != ""}, {"group", p.Group != ""}} {
		if k.set {
			kinds = append(kinds, k.name)
		}
	}
	if len(kinds) != 1 {
		return sdk.Validation(fmt.Sprintf("%s takes exactly one of expression, signal, node_appears, node_leaves, group (got %d: %s)", where, len(kinds), strings.Join(kinds, ", ")))
	}
	if (p.CountAtLeast != nil || p.CountAtMost != nil) && p.Group == "" {
		return sdk.Validation(where + ": count_at_least and count_at_most belong to a group predicate")
	}
	if p.Group != "" && p.CountAtLeast == nil && p.CountAtMost == nil {
		return sdk.Validation(where + ": a group predicate needs count_at_least and/or count_at_most, e.g. {\"group\": \"enemies\", \"count_at_most\": 0}")
	}
	for _, path := range []string{p.NodeAppears, p.NodeLeaves} {
		if err := checkNodePath(where, path, false); err != nil {
			return err
		}
	}
	return nil
}

func checkExpressions(where string, list []string, required bool) error {
	if required && len(list) == 0 {
		return sdk.Validation(where + " is empty: give 1 to 16 expressions, e.g. [\"position.y\", \"velocity\"]")
	}
	if len(list) > maxExpressions {
		return sdk.Validation(fmt.Sprintf("%s has %d expressions; at most %d", where, len(list), maxExpressions))
	}
	for i, e := range list {
		if strings.TrimSpace(e) == "" {
			return sdk.Validation(fmt.Sprintf("%s[%d] is empty", where, i))
		}
	}
	return nil
}

// TimedInput is one input of a step's timeline, at a frame of the window.
type TimedInput = timeline.TimedInput

// StepIn freezes the game and advances it by a counted window.
type StepIn struct {
	Unit      string       `json:"unit,omitempty" jsonschema:"enum=physics_ticks|process_frames" description:"what count counts (default physics_ticks, or the replay's)"`
	Count     *int         `json:"count,omitempty" jsonschema:"minimum=0,maximum=36000" description:"ticks/frames to advance; with until the most (default 600)"`
	Until     *Predicate   `json:"until,omitempty" description:"stop once it holds"`
	Inputs    []TimedInput `json:"inputs,omitempty" jsonschema:"maxItems=500" description:"input timeline inside the window"`
	Report    []string     `json:"report,omitempty" jsonschema:"maxItems=16" description:"expressions to answer at the end"`
	Then      string       `json:"then,omitempty" jsonschema:"enum=freeze|resume,default=freeze"`
	Node      string       `json:"node,omitempty" description:"bound as node and emitter of until.signal (default the current scene)"`
	TimeoutMs int          `json:"timeout_ms,omitempty" jsonschema:"minimum=100,maximum=600000" description:"wall-time bound (default 10 s + 100 ms per tick)"`
	Play      string       `json:"play,omitempty" description:"first (re)start this scene (main, current, res://...) frozen before its first frame"`
	Replay    string       `json:"replay,omitempty" description:"a recording (godot_playtest_record) as inputs, count and unit; answers divergence of its checkpoints"`
}

// StepOut says what the window did.
type StepOut struct {
	Unit             string         `json:"unit"`
	Stepped          int            `json:"stepped" description:"ticks/frames advanced"`
	PhysicsTicks     int            `json:"physics_ticks" description:"physics ticks the game ran in the window"`
	ProcessFrames    int            `json:"process_frames" description:"process frames the game ran in the window"`
	GameTimeMs       float64        `json:"game_time_ms" description:"game time the window advanced (scaled by time_scale)"`
	WallMs           int64          `json:"wall_ms" description:"real time the call took in the game"`
	Frozen           bool           `json:"frozen" description:"the game is frozen now"`
	Until            string         `json:"until,omitempty" description:"the predicate, when one was given"`
	Held             *bool          `json:"held,omitempty" description:"the predicate held (stepped is where)"`
	Expired          string         `json:"expired" description:"why it stopped without the predicate: count, wall_time; empty otherwise"`
	Values           map[string]any `json:"values" description:"report expression -> value at the end (godot://docs/values shapes; {error} when it failed)"`
	ReleasedAtEnd    []string       `json:"released_at_end" description:"inputs still held when the window ended, released then"`
	InputsNotReached int            `json:"inputs_not_reached" description:"timeline events after the window's end, never sent"`
	Frame            int64          `json:"frame" description:"the game's process frame counter now"`
	PhysicsFrame     int64          `json:"physics_frame" description:"the game's physics frame counter now"`
	Started          *Started       `json:"started,omitempty" description:"the game play started"`
	Replay           string         `json:"replay,omitempty"`
	Checked          *int           `json:"checkpoints_checked,omitempty" description:"replay: the recording's checkpoints evaluated"`
	Divergence       *[]Divergence  `json:"divergence,omitempty" description:"replay: the checkpoints whose value differs from the recording ({error} replayed: not reached)"`
}

// Divergence is a checkpoint whose replayed value differs from the recorded one.
type Divergence struct {
	At       int    `json:"at"`
	Expr     string `json:"expr"`
	Node     string `json:"node,omitempty"`
	Recorded any    `json:"recorded"`
	Replayed any    `json:"replayed"`
}

// Started is the game a step with play started.
type Started struct {
	Scene        string `json:"scene"`
	PID          int    `json:"pid"`
	Restarted    bool   `json:"restarted"`
	Headless     bool   `json:"headless"`
	OutputCursor int    `json:"output_cursor"`
	ErrorsCursor int    `json:"errors_cursor"`
}

func step(ctx context.Context, call *sdk.Call, in StepIn) (StepOut, error) {
	if in.Until != nil {
		if err := in.Until.check("until"); err != nil {
			return StepOut{}, err
		}
	}
	if err := checkExpressions("report", in.Report, false); err != nil {
		return StepOut{}, err
	}
	if err := checkNodePath("node", in.Node, false); err != nil {
		return StepOut{}, err
	}
	if in.Replay != "" {
		p, err := recordingPath(in.Replay, "replay")
		if err != nil {
			return StepOut{}, err
		}
		in.Replay = p
		if len(in.Inputs) > 0 {
			return StepOut{}, sdk.Validation("give replay or inputs, not both: a replay takes its inputs from the recording")
		}
	}
	count := 0
	if in.Count != nil {
		count = *in.Count
	} else if in.Until != nil {
		count = 600
	}
	if count < 0 || count > maxWindowFrames {
		return StepOut{}, sdk.Validation(fmt.Sprintf("count must be 0..%d", maxWindowFrames))
	}
	if len(in.Inputs) > maxTimelineLen {
		return StepOut{}, sdk.Validation(fmt.Sprintf("inputs has %d entries; at most %d", len(in.Inputs), maxTimelineLen))
	}
	for i, s := range in.Inputs {
		if s.At > count && count > 0 {
			return StepOut{}, sdk.Validation(fmt.Sprintf("inputs[%d].at is %d, beyond the window of %d; nothing was run", i, s.At, count))
		}
		if s.Type == "" {
			return StepOut{}, sdk.Validation(fmt.Sprintf("inputs[%d].type is required: action, key, mouse_button or mouse_motion", i))
		}
	}
	if in.Play != "" {
		p, err := scenePath(in.Play)
		if err != nil {
			return StepOut{}, err
		}
		in.Play = p
	}
	if in.Unit == "" && in.Replay == "" {
		in.Unit = "physics_ticks"
	}
	if in.Then == "" {
		in.Then = "freeze"
	}
	timeoutGiven := in.TimeoutMs != 0
	if !timeoutGiven {
		in.TimeoutMs = min(10000+count*100, 600000)
	}
	params := map[string]any{"unit": in.Unit, "count": count, "then": in.Then, "timeout_ms": in.TimeoutMs}
	if in.Replay != "" {
		// The recording's own count, unit and time bound unless given.
		params["replay"] = in.Replay
		if in.Unit == "" {
			delete(params, "unit")
		}
		if in.Count == nil {
			delete(params, "count")
		}
		if !timeoutGiven && in.Count == nil {
			delete(params, "timeout_ms")
			in.TimeoutMs = 600000
		}
	}
	if in.Until != nil {
		params["until"] = in.Until
	}
	if len(in.Inputs) > 0 {
		params["inputs"] = in.Inputs
	}
	if len(in.Report) > 0 {
		params["report"] = in.Report
	}
	if in.Node != "" {
		params["node"] = in.Node
	}
	wait := time.Duration(in.TimeoutMs)*time.Millisecond + 2*editorSlack
	if in.Play != "" {
		params["play"] = in.Play
		wait += playTimeout
	}
	out, err := sdk.Send[StepOut](ctx, call.Host, "cmd_playtest_step", params, wait)
	if out.Values == nil {
		out.Values = map[string]any{}
	}
	out.ReleasedAtEnd = nonNil(out.ReleasedAtEnd)
	if out.Replay != "" && out.Divergence == nil {
		out.Divergence = &[]Divergence{}
	}
	return out, err
}

// WaitForIn blocks until a predicate holds.
type WaitForIn struct {
	Until     Predicate `json:"until"`
	Report    []string  `json:"report,omitempty" jsonschema:"maxItems=16" description:"expressions to answer"`
	MaxFrames int       `json:"max_frames,omitempty" jsonschema:"minimum=1,maximum=36000,default=600"`
	TimeoutMs int       `json:"timeout_ms,omitempty" jsonschema:"minimum=100,maximum=120000,default=10000"`
	Node      string    `json:"node,omitempty" description:"bound as node and emitter of until.signal (default the current scene)"`
}

// WaitForOut says what held and when, or what was last seen.
type WaitForOut struct {
	Held           bool           `json:"held" description:"the predicate held; false: a bound expired first"`
	Until          string         `json:"until" description:"the predicate"`
	Expired        string         `json:"expired" description:"frames or wall_time when it did not hold; empty when it held"`
	Frame          int64          `json:"frame" description:"the game's process frame when it held (or gave up)"`
	FramesWaited   int            `json:"frames_waited"`
	GameTimeMs     float64        `json:"game_time_ms" description:"game time that passed while waiting"`
	WallMs         int64          `json:"wall_ms"`
	Values         map[string]any `json:"values" description:"report expression -> value when it held, or the last value seen"`
	PredicateValue any            `json:"predicate_value,omitempty" description:"the predicate's last value (expression, or a group's count)"`
	PredicateError string         `json:"predicate_error,omitempty" description:"the expression's last run-time error"`
}

func waitFor(ctx context.Context, call *sdk.Call, in WaitForIn) (WaitForOut, error) {
	if err := in.Until.check("until"); err != nil {
		return WaitForOut{}, err
	}
	if err := checkExpressions("report", in.Report, false); err != nil {
		return WaitForOut{}, err
	}
	if err := checkNodePath("node", in.Node, false); err != nil {
		return WaitForOut{}, err
	}
	if in.MaxFrames == 0 {
		in.MaxFrames = 600
	}
	if in.TimeoutMs == 0 {
		in.TimeoutMs = 10000
	}
	if in.MaxFrames < 1 || in.MaxFrames > maxWindowFrames || in.TimeoutMs < 100 || in.TimeoutMs > 120000 {
		return WaitForOut{}, sdk.Validation(fmt.Sprintf("max_frames must be 1..%d and timeout_ms 100..120000", maxWindowFrames))
	}
	out, err := sdk.Send[WaitForOut](ctx, call.Host, "cmd_playtest_wait_for", in, time.Duration(in.TimeoutMs)*time.Millisecond+2*editorSlack)
	if out.Values == nil {
		out.Values = map[string]any{}
	}
	return out, err
}

// WatchIn samples expressions over a window of frames.
type WatchIn struct {
	Expressions []string `json:"expressions" jsonschema:"minItems=1,maxItems=16" description:"GDScript Expressions; node is their self"`
	Every       int      `json:"every,omitempty" jsonschema:"minimum=1,maximum=600,default=1"`
	Frames      int      `json:"frames,omitempty" jsonschema:"minimum=1,maximum=36000,default=60" description:"process frames to watch"`
	MaxSamples  int      `json:"max_samples,omitempty" jsonschema:"minimum=1,maximum=5000,default=600"`
	MaxBytes    int      `json:"max_bytes,omitempty" jsonschema:"minimum=1024,maximum=4194304,default=262144" description:"of the timeline's JSON"`
	TimeoutMs   int      `json:"timeout_ms,omitempty" jsonschema:"minimum=100,maximum=600000" description:"wall-time bound (default 10 s + 50 ms per frame)"`
	Node        string   `json:"node,omitempty" description:"bound as node (default the current scene)"`
}

// Sample is one row of a timeline.
type Sample struct {
	Frame        int     `json:"frame" description:"frames since the watch started (0 = when it started)"`
	ProcessFrame int64   `json:"process_frame" description:"the game's process frame counter"`
	GameTimeMs   float64 `json:"game_time_ms" description:"game time since the watch started"`
	Values       []any   `json:"values" description:"one per expression, in order ({error} when it failed)"`
}

// WatchOut is the timeline.
type WatchOut struct {
	Expressions   []string `json:"expressions"`
	Every         int      `json:"every"`
	Samples       []Sample `json:"samples"`
	FramesWatched int      `json:"frames_watched"`
	GameTimeMs    float64  `json:"game_time_ms" description:"game time the window covered"`
	WallMs        int64    `json:"wall_ms"`
	Bytes         int      `json:"bytes" description:"size of the samples' JSON"`
	Truncated     bool     `json:"truncated" description:"the window was cut short"`
	TruncatedBy   string   `json:"truncated_by" description:"max_samples, max_bytes or wall_time; empty when the whole window was watched"`
}

func watch(ctx context.Context, call *sdk.Call, in WatchIn) (WatchOut, error) {
	if err := checkExpressions("expressions", in.Expressions, true); err != nil {
		return WatchOut{}, err
	}
	if err := checkNodePath("node", in.Node, false); err != nil {
		return WatchOut{}, err
	}
	if in.Every == 0 {
		in.Every = 1
	}
	if in.Frames == 0 {
		in.Frames = 60
	}
	if in.MaxSamples == 0 {
		in.MaxSamples = 600
	}
	if in.MaxBytes == 0 {
		in.MaxBytes = 262144
	}
	if in.TimeoutMs == 0 {
		in.TimeoutMs = min(10000+in.Frames*50, 600000)
	}
	out, err := sdk.Send[WatchOut](ctx, call.Host, "cmd_playtest_watch", in, time.Duration(in.TimeoutMs)*time.Millisecond+2*editorSlack)
	out.Expressions = nonNil(out.Expressions)
	out.Samples = nonNil(out.Samples)
	for i := range out.Samples {
		out.Samples[i].Values = nonNil(out.Samples[i].Values)
	}
	return out, err
}

// playTimeout bounds starting a game for a step's play (the runtime play's default
// wait for its probe plus its stop of a running game).
const playTimeout = 30 * time.Second

// scenePath checks a step's play: main, current or a res:// scene file.
func scenePath(s string) (string, error) {
	if s == "main" || s == "current" {
		return s, nil
	}
	p, err := respath.Clean(s)
	if err != nil {
		return "", sdk.Validation(fmt.Sprintf("play must be \"main\", \"current\" or a res:// scene path: %s", sdk.AsError(err).Hint))
	}
	if !strings.HasSuffix(p, ".tscn") && !strings.HasSuffix(p, ".scn") {
		return "", sdk.Validation(fmt.Sprintf("play %q is not a scene file (.tscn or .scn)", s))
	}
	return p, nil
}

// ControlsIn filters the live Controls.
type ControlsIn struct {
	Text  string `json:"text,omitempty" description:"contained in the text, any case"`
	Class string `json:"class,omitempty" description:"this class or a subclass"`
	Under string `json:"under,omitempty" description:"only under this node path"`
	All   bool   `json:"all,omitempty" description:"hidden controls too"`
	Max   int    `json:"max,omitempty" jsonschema:"minimum=1,maximum=2000,default=200"`
}

// Rect is a rectangle in pixels.
type Rect struct {
	X float64 `json:"x"`
	Y float64 `json:"y"`
	W float64 `json:"w"`
	H float64 `json:"h"`
}

// Row is a row of an ItemList or a Tree.
type Row struct {
	Text string `json:"text"`
	Rect Rect   `json:"rect"`
}

// Control is one live Control.
type Control struct {
	Path       string `json:"path"`
	Class      string `json:"class"`
	Text       string `json:"text"`
	Rect       Rect   `json:"rect" description:"viewport (canvas) pixels, cameras applied"`
	ScreenRect *Rect  `json:"screen_rect,omitempty" description:"screen pixels (stretch and window position applied)"`
	Visible    bool   `json:"visible"`
	Disabled   bool   `json:"disabled"`
	Focused    bool   `json:"focused"`
	Items      []Row  `json:"items,omitempty"`
}

// ControlsOut lists them.
type ControlsOut struct {
	Controls  []Control `json:"controls"`
	Count     int       `json:"count" description:"how many matched"`
	Truncated bool      `json:"truncated"`
	Focus     string    `json:"focus" description:"the control with the keyboard focus"`
	Window    Rect      `json:"window" description:"the game window on screen"`
}

func controls(ctx context.Context, call *sdk.Call, in ControlsIn) (ControlsOut, error) {
	if err := checkNodePath("under", in.Under, false); err != nil {
		return ControlsOut{}, err
	}
	if in.Max == 0 {
		in.Max = 200
	}
	if in.Max < 1 || in.Max > 2000 {
		return ControlsOut{}, sdk.Validation("max must be 1..2000")
	}
	out, err := sdk.Send[ControlsOut](ctx, call.Host, "cmd_playtest_controls", in, 0)
	out.Controls = nonNil(out.Controls)
	return out, err
}

// Target is a Control by node path or visible text, or a Node2D/Node3D by path.
type Target struct {
	Node string `json:"node,omitempty" description:"a node path"`
	Text string `json:"text,omitempty" description:"the visible text of a control or ItemList/Tree row"`
}

// InteractIn is one pointer or typing gesture.
type InteractIn struct {
	Action string  `json:"action" jsonschema:"enum=click|double_click|hover|drag|scroll|type_text"`
	Node   string  `json:"node,omitempty" description:"the target's node path"`
	Text   string  `json:"text,omitempty" description:"or its visible text"`
	Button string  `json:"button,omitempty" jsonschema:"enum=left|right|middle,default=left"`
	To     *Target `json:"to,omitempty" description:"drag: where to drop"`
	By     *Vec2   `json:"by,omitempty" description:"drag: an offset in window pixels instead"`
	Frames int     `json:"frames,omitempty" jsonschema:"minimum=1,maximum=600,default=8" description:"drag: frames the move takes"`
	Amount int     `json:"amount,omitempty" jsonschema:"minimum=-100,maximum=100,default=3" description:"scroll: wheel steps, negative up"`
	Value  string  `json:"value,omitempty" description:"type_text: the text (\n is Enter); with a target it is clicked first"`
}

// Pointed is a resolved target.
type Pointed struct {
	Path        string `json:"path"`
	Class       string `json:"class"`
	Text        string `json:"text"`
	Point       Vec2   `json:"point" description:"window pixels the events carried"`
	ScreenPoint Vec2   `json:"screen_point"`
	Rect        *Rect  `json:"rect,omitempty"`
}

// InteractOut says what was sent and where it landed.
type InteractOut struct {
	Action        string   `json:"action"`
	Target        *Pointed `json:"target,omitempty"`
	To            *Pointed `json:"to,omitempty"`
	Hovered       string   `json:"hovered" description:"the control under the pointer afterwards"`
	Focus         string   `json:"focus"`
	TextAfter     *string  `json:"text_after,omitempty" description:"type_text: the control's text afterwards"`
	Frames        int      `json:"frames" description:"process frames the gesture spanned"`
	WallMs        int64    `json:"wall_ms"`
	Frozen        bool     `json:"frozen"`
	ReleasedAtEnd []string `json:"released_at_end"`
}

func interact(ctx context.Context, call *sdk.Call, in InteractIn) (InteractOut, error) {
	switch in.Action {
	case "click", "double_click", "hover", "drag", "scroll", "type_text":
	default:
		return InteractOut{}, sdk.Validation("action must be click, double_click, hover, drag, scroll or type_text")
	}
	if in.Node != "" && in.Text != "" {
		return InteractOut{}, sdk.Validation("give the target as node or as text, not both")
	}
	if err := checkNodePath("node", in.Node, false); err != nil {
		return InteractOut{}, err
	}
	if in.Action != "type_text" && in.Node == "" && in.Text == "" {
		return InteractOut{}, sdk.Validation(in.Action + " needs a target: node (a node path) or text (the visible text of a control); godot_playtest_controls lists them")
	}
	if in.Action == "type_text" && in.Value == "" {
		return InteractOut{}, sdk.Validation("type_text needs value: the text to type")
	}
	if in.Action == "drag" && (in.To == nil || in.To.Node == "" && in.To.Text == "") && in.By == nil {
		return InteractOut{}, sdk.Validation("drag needs to ({node} or {text}) or by ({x, y} window pixels)")
	}
	if in.Frames == 0 {
		in.Frames = 8
	}
	if in.Amount == 0 {
		in.Amount = 3
	}
	if len(in.Value) > 4096 {
		return InteractOut{}, sdk.Validation("value is over 4096 bytes")
	}
	out, err := sdk.Send[InteractOut](ctx, call.Host, "cmd_playtest_interact", in, time.Duration(in.Frames)*100*time.Millisecond+2*editorSlack)
	out.ReleasedAtEnd = nonNil(out.ReleasedAtEnd)
	return out, err
}

// DigestIn says what else to include.
type DigestIn struct {
	Groups   []string `json:"groups,omitempty" jsonschema:"maxItems=16" description:"always include these groups' nodes"`
	MaxNodes int      `json:"max_nodes,omitempty" jsonschema:"minimum=1,maximum=500,default=40"`
}

// DigestNode is a node of interest.
type DigestNode struct {
	Path     string    `json:"path"`
	Class    string    `json:"class"`
	Position []float64 `json:"position"`
	Velocity []float64 `json:"velocity,omitempty"`
	Moving   bool      `json:"moving"`
	Visible  bool      `json:"visible"`
	Groups   []string  `json:"groups,omitempty"`
}

// DigestText is a visible UI text.
type DigestText struct {
	Path string `json:"path"`
	Text string `json:"text"`
}

// DigestOut is the scene at a glance.
type DigestOut struct {
	Scene     string       `json:"scene"`
	Frame     int64        `json:"frame"`
	Frozen    bool         `json:"frozen"`
	Nodes     []DigestNode `json:"nodes"`
	Total     int          `json:"total"`
	Truncated bool         `json:"truncated"`
	Texts     []DigestText `json:"texts"`
}

func digest(ctx context.Context, call *sdk.Call, in DigestIn) (DigestOut, error) {
	if len(in.Groups) > maxExpressions {
		return DigestOut{}, sdk.Validation("groups: at most 16")
	}
	if in.MaxNodes == 0 {
		in.MaxNodes = 40
	}
	out, err := sdk.Send[DigestOut](ctx, call.Host, "cmd_playtest_digest", in, 0)
	out.Nodes = nonNil(out.Nodes)
	out.Texts = nonNil(out.Texts)
	return out, err
}

// recordingsDir is where a recording named without a path goes.
const recordingsDir = "res://playtests/"

var recordingName = regexp.MustCompile(`^[A-Za-z0-9_-]+$`)

// recordingPath checks a recording's path: a res:// .json file, or a bare
// name for res://playtests/NAME.json.
func recordingPath(s, field string) (string, error) {
	if recordingName.MatchString(s) {
		s = recordingsDir + s + ".json"
	}
	p, err := respath.Clean(s)
	if err != nil {
		return "", sdk.Validation(fmt.Sprintf("%s must be a res:// .json path or a name (letters, digits, _ and -) for %sNAME.json: %s", field, recordingsDir, sdk.AsError(err).Hint))
	}
	if !strings.HasSuffix(p, ".json") {
		return "", sdk.Validation(fmt.Sprintf("%s %q must end in .json", field, s))
	}
	return p, nil
}

// Checkpoint is an expression recorded with its value at a tick.
type Checkpoint struct {
	At   int    `json:"at" jsonschema:"minimum=0"`
	Expr string `json:"expr"`
	Node string `json:"node,omitempty"`
}

// RecordIn starts or ends a recording.
type RecordIn struct {
	Action      string       `json:"action" jsonschema:"enum=start|stop|discard"`
	Path        string       `json:"path,omitempty" description:"res:// .json, or a name for res://playtests/NAME.json"`
	Unit        string       `json:"unit,omitempty" jsonschema:"enum=physics_ticks|process_frames,default=physics_ticks" description:"what at counts"`
	Checkpoints []Checkpoint `json:"checkpoints,omitempty" jsonschema:"maxItems=100" description:"expressions whose values are recorded at tick at"`
	Overwrite   bool         `json:"overwrite,omitempty"`
}

// CheckpointValue is a checkpoint with its recorded value.
type CheckpointValue struct {
	At    int    `json:"at"`
	Expr  string `json:"expr"`
	Node  string `json:"node,omitempty"`
	Value any    `json:"value"`
}

// RecordOut says what the recording holds.
type RecordOut struct {
	Action      string            `json:"action"`
	Path        string            `json:"path"`
	Recording   bool              `json:"recording"`
	Saved       bool              `json:"saved"`
	Unit        string            `json:"unit"`
	Frames      int               `json:"frames" description:"ticks/frames recorded"`
	Inputs      int               `json:"inputs" description:"input steps saved"`
	Checkpoints []CheckpointValue `json:"checkpoints"`
	Ended       string            `json:"ended,omitempty" description:"stop, game_stopped, released, toolset_disabled or game_unreachable"`
	Dropped     int               `json:"dropped,omitempty" description:"inputs left out (after the end, or past 20000)"`
	Skipped     int               `json:"skipped,omitempty" description:"input events of a kind a recording does not keep"`
	NotReached  []NotReached      `json:"not_reached,omitempty" description:"checkpoints placed after the frame the recording ended at"`
	Scene       string            `json:"scene,omitempty" description:"start: the scene being played, kept in the recording"`
	StartFrozen bool              `json:"started_frozen,omitempty" description:"start: the game was frozen when recording began (a replay from a frozen start repeats it exactly)"`
}

// NotReached is a checkpoint the recording ended before.
type NotReached struct {
	At   float64 `json:"at" description:"the checkpoint's frame (or tick)"`
	Expr string  `json:"expr"`
}

func record(ctx context.Context, call *sdk.Call, in RecordIn) (RecordOut, error) {
	params := map[string]any{"action": in.Action}
	switch in.Action {
	case "start":
		p, err := recordingPath(in.Path, "path")
		if err != nil {
			return RecordOut{}, err
		}
		if in.Unit == "" {
			in.Unit = "physics_ticks"
		}
		for i, c := range in.Checkpoints {
			if strings.TrimSpace(c.Expr) == "" {
				return RecordOut{}, sdk.Validation(fmt.Sprintf("checkpoints[%d].expr is empty", i))
			}
			if err := checkNodePath(fmt.Sprintf("checkpoints[%d].node", i), c.Node, false); err != nil {
				return RecordOut{}, err
			}
		}
		params["path"], params["unit"], params["checkpoints"], params["overwrite"] = p, in.Unit, nonNil(in.Checkpoints), in.Overwrite
	case "stop", "discard":
	default:
		return RecordOut{}, sdk.Validation("action must be start, stop or discard")
	}
	out, err := sdk.Send[RecordOut](ctx, call.Host, "cmd_playtest_record", params, 2*editorSlack)
	out.Checkpoints = nonNil(out.Checkpoints)
	return out, err
}
