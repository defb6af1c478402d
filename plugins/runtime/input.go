package runtime

import (
	"context"
	"fmt"
	"strings"
	"time"

	"github.com/godot-mcp/godot-mcp/sdk"
)

// Vec2 is a position or offset in window pixels.
type Vec2 struct {
	X float64 `json:"x"`
	Y float64 `json:"y"`
}

// InputStep is one step of an input sequence.
type InputStep struct {
	Type        string   `json:"type" jsonschema:"enum=action|key|mouse_button|mouse_motion|wait" description:"what this step does"`
	Action      string   `json:"action,omitempty" description:"type action: an input action of the project's input map, e.g. jump"`
	Key         string   `json:"key,omitempty" description:"type key: a Godot key name, e.g. A, Space, Enter, Escape, Left, F1"`
	Button      string   `json:"button,omitempty" jsonschema:"enum=left|right|middle|wheel_up|wheel_down|wheel_left|wheel_right|xbutton1|xbutton2" description:"type mouse_button (default left)"`
	State       string   `json:"state,omitempty" jsonschema:"enum=tap|press|release" description:"action, key, mouse_button: tap (default): press, hold, release; press: hold until a release step or the end; release"`
	Strength    *float64 `json:"strength,omitempty" jsonschema:"minimum=0,maximum=1" description:"action: how far pressed (default 1)"`
	Modifiers   []string `json:"modifiers,omitempty" jsonschema:"maxItems=4" description:"key, mouse_button, mouse_motion: any of shift, ctrl, alt, meta"`
	Position    *Vec2    `json:"position,omitempty" description:"mouse_button: where (default: the current mouse position); mouse_motion: where to move"`
	Relative    *Vec2    `json:"relative,omitempty" description:"mouse_motion: how far to move (default: position minus the current position)"`
	DoubleClick bool     `json:"double_click,omitempty" description:"mouse_button: mark the press as a double click"`
	HoldFrames  int      `json:"hold_frames,omitempty" jsonschema:"minimum=1,maximum=600" description:"tap: frames to hold, counted in both process and physics frames (default 2)"`
	HoldMs      int      `json:"hold_ms,omitempty" jsonschema:"minimum=0,maximum=60000" description:"tap: also hold at least this long"`
	Frames      int      `json:"frames,omitempty" jsonschema:"minimum=0,maximum=36000" description:"wait: frames to wait"`
	Ms          int      `json:"ms,omitempty" jsonschema:"minimum=0,maximum=60000" description:"wait: milliseconds to wait (real time, not scaled by time_scale)"`
}

// InputIn is a timed input sequence.
type InputIn struct {
	Steps []InputStep `json:"steps" jsonschema:"minItems=1,maxItems=500" description:"applied in order inside the game's frame loop; steps without a wait between them happen in the same frame"`
}

// InputOut reports what was played.
type InputOut struct {
	Applied       int      `json:"applied" description:"steps carried out"`
	Total         int      `json:"total" description:"steps in the sequence"`
	Frames        int64    `json:"frames" description:"game frames the sequence took"`
	DurationMs    int64    `json:"duration_ms"`
	ReleasedAtEnd []string `json:"released_at_end" description:"inputs a press step left held, released when the sequence ended"`
}

// Bounds of one sequence, so that its time limit stays sensible.
const (
	maxSequenceMs     = 120_000
	maxSequenceFrames = 36_000
)

var modifierNames = map[string]bool{"shift": true, "ctrl": true, "alt": true, "meta": true}

// checkSteps validates a sequence and estimates how long it takes.
func checkSteps(steps []InputStep) (time.Duration, error) {
	var ms, frames int
	for i, s := range steps {
		where := fmt.Sprintf("steps[%d]", i)
		bad := func(format string, args ...any) error {
			return sdk.Validation(where + ": " + fmt.Sprintf(format, args...) + "; nothing was sent")
		}
		for _, m := range s.Modifiers {
			if !modifierNames[m] {
				return 0, bad("modifier %q is not one of shift, ctrl, alt, meta", m)
			}
		}
		pressable := s.Type == "action" || s.Type == "key" || s.Type == "mouse_button"
		if !pressable && (s.State != "" || s.HoldFrames != 0 || s.HoldMs != 0) {
			return 0, bad("state, hold_frames and hold_ms apply to action, key and mouse_button steps only")
		}
		if s.Type != "wait" && (s.Frames != 0 || s.Ms != 0) {
			return 0, bad("frames and ms belong to wait steps; use hold_frames/hold_ms to hold a tap")
		}
		if s.State != "" && s.State != "tap" && (s.HoldFrames != 0 || s.HoldMs != 0) {
			return 0, bad("hold_frames and hold_ms apply to taps (state tap)")
		}
		if (s.Action != "" || s.Strength != nil) && s.Type != "action" {
			return 0, bad("action and strength belong to action steps (type: action)")
		}
		if s.Key != "" && s.Type != "key" {
			return 0, bad("key belongs to key steps (type: key)")
		}
		if (s.Button != "" || s.DoubleClick) && s.Type != "mouse_button" {
			return 0, bad("button and double_click belong to mouse_button steps")
		}
		if s.Relative != nil && s.Type != "mouse_motion" {
			return 0, bad("relative belongs to mouse_motion steps")
		}
		if s.Position != nil && s.Type != "mouse_motion" && s.Type != "mouse_button" {
			return 0, bad("position belongs to mouse_button and mouse_motion steps")
		}
		if len(s.Modifiers) > 0 && (s.Type == "action" || s.Type == "wait") {
			return 0, bad("modifiers apply to key and mouse steps")
		}
		switch s.Type {
		case "action":
			if strings.TrimSpace(s.Action) == "" {
				return 0, bad("an action step needs action (an input map action name, e.g. jump)")
			}
		case "key":
			if strings.TrimSpace(s.Key) == "" {
				return 0, bad("a key step needs key (a Godot key name, e.g. A, Space, Enter, Left)")
			}
		case "mouse_motion":
			if s.Position == nil && s.Relative == nil {
				return 0, bad("a mouse_motion step needs position and/or relative")
			}
		case "wait":
			if s.Frames == 0 && s.Ms == 0 {
				return 0, bad("a wait step needs frames or ms")
			}
		}
		ms += s.Ms + s.HoldMs
		frames += s.Frames
		if pressable && (s.State == "" || s.State == "tap") {
			hold := s.HoldFrames
			if hold == 0 {
				hold = 2
			}
			frames += hold
		}
	}
	if ms > maxSequenceMs {
		return 0, sdk.Validation(fmt.Sprintf("the sequence waits and holds %d ms in all; at most %d ms per call (split it)", ms, maxSequenceMs))
	}
	if frames > maxSequenceFrames {
		return 0, sdk.Validation(fmt.Sprintf("the sequence waits and holds %d frames in all; at most %d per call (split it)", frames, maxSequenceFrames))
	}
	// Frames at the game's rate: allow 50 ms each (20 fps) before calling it stuck.
	return 10*time.Second + time.Duration(ms)*time.Millisecond + time.Duration(frames)*50*time.Millisecond, nil
}

func sendInput(ctx context.Context, call *sdk.Call, in InputIn) (InputOut, error) {
	budget, err := checkSteps(in.Steps)
	if err != nil {
		return InputOut{}, err
	}
	params := map[string]any{"steps": in.Steps, "timeout_ms": budget.Milliseconds()}
	out, err := sdk.Send[InputOut](ctx, call.Host, "cmd_runtime_input", params, budget+editorSlack)
	out.ReleasedAtEnd = nonNil(out.ReleasedAtEnd)
	return out, err
}
