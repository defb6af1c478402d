// Package timeline is the input timeline shared by the playtest toolset
// (godot_playtest_step sends it to the running game) and the tests toolset
// (godot_tests_write_playtest writes it into a test script), so both take
// the same JSON.
package timeline

// TimedInput is one input of a timeline, at a tick/frame of the window.
type TimedInput struct {
	At         int      `json:"at" jsonschema:"minimum=0" description:"tick/frame of the window from which the game sees it"`
	Type       string   `json:"type" jsonschema:"enum=action|key|mouse_button|mouse_motion|joypad_button|joypad_motion"`
	Action     string   `json:"action,omitempty" description:"type action: an input map action"`
	Key        string   `json:"key,omitempty" description:"type key: a Godot key name (A, Space, Left)"`
	Button     string   `json:"button,omitempty" jsonschema:"enum=left|right|middle|wheel_up|wheel_down|wheel_left|wheel_right|xbutton1|xbutton2"`
	State      string   `json:"state,omitempty" jsonschema:"enum=tap|press|release" description:"tap (default): press, release hold_frames later; press: hold until released or the window ends"`
	Strength   *float64 `json:"strength,omitempty" jsonschema:"minimum=0,maximum=1" description:"action: how far pressed (default 1)"`
	Modifiers  []string `json:"modifiers,omitempty" jsonschema:"maxItems=4" description:"key and mouse: shift, ctrl, alt, meta"`
	Position   *Vec2    `json:"position,omitempty" description:"mouse: window pixels"`
	Relative   *Vec2    `json:"relative,omitempty" description:"mouse_motion: how far to move"`
	HoldFrames int      `json:"hold_frames,omitempty" jsonschema:"minimum=1,maximum=36000" description:"tap: ticks/frames to hold (default 2)"`
	Index      *int     `json:"index,omitempty" jsonschema:"minimum=0,maximum=127" description:"joypad: Godot's JoyButton or JoyAxis number"`
	Value      *float64 `json:"value,omitempty" jsonschema:"minimum=-1,maximum=1" description:"joypad_motion: axis position"`
	Device     int      `json:"device,omitempty" jsonschema:"minimum=0,maximum=15" description:"joypad number"`
}

// Vec2 is a point or an offset in window pixels.
type Vec2 struct {
	X float64 `json:"x"`
	Y float64 `json:"y"`
}
