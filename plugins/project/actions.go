package project

import (
	"context"
	"encoding/json"
	"fmt"
	"math"
	"strings"

	"github.com/godot-mcp/godot-mcp/sdk"
)

// EventIn is one event of an input action as a tool takes it, in the JSON
// shape documented in docs/project.md (served as godot://docs/project). type
// selects which other fields apply:
//
//	key:           keycode, physical_keycode and/or key_label (usually one); ctrl, shift, alt, meta, command_or_control; location
//	mouse_button:  button; double_click; ctrl, shift, alt, meta, command_or_control
//	joypad_button: button
//	joypad_motion: axis; axis_value or direction
//
// device applies to all.
type EventIn struct {
	Type             string   `json:"type" jsonschema:"enum=key|mouse_button|joypad_button|joypad_motion" description:"key, mouse_button, joypad_button or joypad_motion"`
	Keycode          string   `json:"keycode,omitempty" description:"key: the logical key by name (follows the keyboard layout), e.g. \"Space\", \"A\", \"Escape\", \"F1\", \"Up\", or with modifiers \"Ctrl+S\""`
	PhysicalKeycode  string   `json:"physical_keycode,omitempty" description:"key: the key at this position on a US QWERTY keyboard, whatever the layout (e.g. \"W\" for WASD movement)"`
	KeyLabel         string   `json:"key_label,omitempty" description:"key: the label printed on the key"`
	Location         string   `json:"location,omitempty" jsonschema:"enum=any|left|right" description:"key: which of two keys (left/right Shift, Ctrl, ...); default any"`
	Button           any      `json:"button,omitempty" description:"mouse_button: left, right, middle, wheel_up/down/left/right, xbutton1/2; joypad_button: a, b, x, y, back, guide, start, left/right_stick, left/right_shoulder, dpad_up/down/left/right, misc1, paddle1..4, touchpad; or the index"`
	DoubleClick      bool     `json:"double_click,omitempty" description:"mouse_button: only a double click"`
	Axis             any      `json:"axis,omitempty" description:"joypad_motion: left_x, left_y, right_x, right_y, trigger_left, trigger_right, or the axis index (integer)"`
	AxisValue        *float64 `json:"axis_value,omitempty" description:"joypad_motion: -1 (left/up) or 1 (right/down), or any non-zero value in -1..1"`
	Direction        string   `json:"direction,omitempty" jsonschema:"enum=positive|negative" description:"joypad_motion: shorthand for axis_value 1 (positive: right/down) or -1 (negative: left/up)"`
	Ctrl             bool     `json:"ctrl,omitempty" description:"key, mouse_button: Ctrl must be held"`
	Shift            bool     `json:"shift,omitempty"`
	Alt              bool     `json:"alt,omitempty"`
	Meta             bool     `json:"meta,omitempty" description:"Meta (Cmd/Windows key)"`
	CommandOrControl bool     `json:"command_or_control,omitempty" description:"key, mouse_button: Cmd on macOS, Ctrl elsewhere (instead of ctrl/meta)"`
	Device           *int     `json:"device,omitempty" description:"the device index; -1 (default) is every device"`
}

// InputEvent is one event of an input action as the tools answer it: the
// fields of EventIn, plus what the editor writes (text, and class for an
// event the input map editor does not offer).
type InputEvent struct {
	EventIn
	Type  string `json:"type" jsonschema:"enum=key|mouse_button|joypad_button|joypad_motion|other" description:"key, mouse_button, joypad_button or joypad_motion (other: an event class the input map editor does not offer, listed but not settable)"`
	Class string `json:"class,omitempty" description:"the InputEvent class of a type other event"`
	Text  string `json:"text,omitempty" description:"how the editor shows the event, e.g. \"Space (Physical)\""`
}

// ActionState is an action's deadzone and events.
type ActionState struct {
	Deadzone float64      `json:"deadzone"`
	Events   []InputEvent `json:"events"`
}

// Action is one input action.
type Action struct {
	Name     string       `json:"name"`
	Deadzone float64      `json:"deadzone"`
	Events   []InputEvent `json:"events"`
	Builtin  bool         `json:"builtin" description:"a built-in ui_* action (it can be changed but not removed)"`
}

// ListActionsIn filters and pages the input map.
type ListActionsIn struct {
	Filter         string `json:"filter,omitempty" description:"case-insensitive part of the action name"`
	IncludeBuiltin bool   `json:"include_builtin,omitempty" description:"also list the built-in ui_* actions"`
	Limit          int    `json:"limit,omitempty" jsonschema:"minimum=1,maximum=2000" description:"most actions to return (default 100)"`
	Cursor         string `json:"cursor,omitempty" description:"next_cursor of the previous page"`
}

// ListActionsOut is one page of actions, in project.godot order.
type ListActionsOut struct {
	Actions    []Action `json:"actions"`
	Total      int      `json:"total" description:"actions matching the filter (all pages)"`
	Truncated  bool     `json:"truncated"`
	NextCursor string   `json:"next_cursor,omitempty"`
}

func listActions(ctx context.Context, call *sdk.Call, in ListActionsIn) (ListActionsOut, error) {
	if err := checkCursor(in.Cursor); err != nil {
		return ListActionsOut{}, err
	}
	if in.Limit == 0 {
		in.Limit = 100
	}
	params := struct {
		Filter         string `json:"filter"`
		IncludeBuiltin bool   `json:"include_builtin"`
		Limit          int    `json:"limit"`
		Cursor         string `json:"cursor"`
	}{in.Filter, in.IncludeBuiltin, in.Limit, in.Cursor}
	out, err := sdk.Send[ListActionsOut](ctx, call.Host, "cmd_project_list_actions", params, readTimeout)
	if err != nil {
		return ListActionsOut{}, err
	}
	out.Actions = nonNil(out.Actions)
	for i := range out.Actions {
		out.Actions[i].Events = nonNil(out.Actions[i].Events)
	}
	return out, nil
}

// SetActionIn creates or changes one action.
type SetActionIn struct {
	Name         string     `json:"name" description:"the action name, e.g. jump (no / : = \\ or \")"`
	Events       *[]EventIn `json:"events,omitempty" jsonschema:"maxItems=64" description:"the action's complete new event list (replaces the old one; [] clears it)"`
	AddEvents    []EventIn  `json:"add_events,omitempty" jsonschema:"maxItems=64" description:"events to append (an event the action already has is refused)"`
	RemoveEvents []EventIn  `json:"remove_events,omitempty" jsonschema:"maxItems=64" description:"events to take out, as listed without text and class; each must match an existing event"`
	Deadzone     *float64   `json:"deadzone,omitempty" jsonschema:"minimum=0,maximum=1" description:"how far an analog input must move to count (default 0.2 for new actions)"`
}

// SetActionOut reports the action before and after.
type SetActionOut struct {
	Name       string       `json:"name"`
	Created    bool         `json:"created"`
	Builtin    bool         `json:"builtin"`
	Old        *ActionState `json:"old" description:"null when created"`
	New        ActionState  `json:"new"`
	Changed    bool         `json:"changed" description:"false when the action already was exactly this"`
	DryRun     bool         `json:"dry_run"`
	Persisted  bool         `json:"persisted" description:"project.godot was saved and read back with this action"`
	Undoable   bool         `json:"undoable"`
	UndoAction string       `json:"undo_action,omitempty"`
}

func setAction(ctx context.Context, call *sdk.Call, in SetActionIn) (SetActionOut, error) {
	if err := checkActionName(in.Name); err != nil {
		return SetActionOut{}, err
	}
	if in.Events != nil && (len(in.AddEvents) > 0 || len(in.RemoveEvents) > 0) {
		return SetActionOut{}, sdk.Validation("events replaces the whole list; do not combine it with add_events/remove_events")
	}
	if in.Events != nil {
		if err := checkEvents("events", *in.Events); err != nil {
			return SetActionOut{}, err
		}
	}
	if err := checkEvents("add_events", in.AddEvents); err != nil {
		return SetActionOut{}, err
	}
	if err := checkEvents("remove_events", in.RemoveEvents); err != nil {
		return SetActionOut{}, err
	}
	params := map[string]any{
		"name":          in.Name,
		"add_events":    nonNil(in.AddEvents),
		"remove_events": nonNil(in.RemoveEvents),
		"dry_run":       call.DryRun,
	}
	if in.Events != nil {
		params["events"] = nonNil(*in.Events)
	}
	if in.Deadzone != nil {
		params["deadzone"] = *in.Deadzone
	}
	out, err := sdk.Send[SetActionOut](ctx, call.Host, "cmd_project_set_action", params, editTimeout)
	if err != nil {
		return SetActionOut{}, err
	}
	out.New.Events = nonNil(out.New.Events)
	if out.Old != nil {
		out.Old.Events = nonNil(out.Old.Events)
	}
	return out, nil
}

// RemoveActionIn names the action to remove.
type RemoveActionIn struct {
	Name string `json:"name" description:"the action name"`
}

// RemoveActionOut reports what was removed.
type RemoveActionOut struct {
	Name       string      `json:"name"`
	Removed    ActionState `json:"removed" description:"the action as it was"`
	DryRun     bool        `json:"dry_run"`
	Persisted  bool        `json:"persisted" description:"project.godot was saved and no longer has the action"`
	Undoable   bool        `json:"undoable"`
	UndoAction string      `json:"undo_action,omitempty"`
}

func removeAction(ctx context.Context, call *sdk.Call, in RemoveActionIn) (RemoveActionOut, error) {
	if err := checkActionName(in.Name); err != nil {
		return RemoveActionOut{}, err
	}
	params := map[string]any{"name": in.Name, "dry_run": call.DryRun}
	out, err := sdk.Send[RemoveActionOut](ctx, call.Host, "cmd_project_remove_action", params, editTimeout)
	if err != nil {
		return RemoveActionOut{}, err
	}
	out.Removed.Events = nonNil(out.Removed.Events)
	return out, nil
}

// checkActionName applies the editor's own rule for action names.
func checkActionName(name string) error {
	switch {
	case name == "":
		return sdk.Validation("name: give the action name, e.g. jump")
	case strings.TrimSpace(name) != name:
		return sdk.Validation(fmt.Sprintf("name: %q has leading or trailing spaces", name))
	case strings.ContainsAny(name, "/:=\\\"\n\r\t"):
		return sdk.Validation(fmt.Sprintf("name: %q is not a valid action name: it cannot contain / : = \\ \" or control characters (the editor's rule)", name))
	}
	return nil
}

// checkEvents checks each event's shape: the fields of its type and only those.
// Names (keys, buttons, axes) are resolved by the editor, which knows them.
func checkEvents(field string, events []EventIn) error {
	for i, e := range events {
		if err := checkEvent(fmt.Sprintf("%s[%d]", field, i), e); err != nil {
			return err
		}
	}
	return nil
}

func checkEvent(where string, e EventIn) error {
	bad := func(format string, args ...any) error {
		return sdk.Validation(where + ": " + fmt.Sprintf(format, args...) + " (see the input event shape in the resource godot://docs/project)")
	}
	var present []string
	if e.Keycode != "" {
		present = append(present, "keycode")
	}
	if e.PhysicalKeycode != "" {
		present = append(present, "physical_keycode")
	}
	if e.KeyLabel != "" {
		present = append(present, "key_label")
	}
	keyFields := len(present)
	if e.Location != "" {
		present = append(present, "location")
	}
	if e.Button != nil {
		present = append(present, "button")
	}
	if e.DoubleClick {
		present = append(present, "double_click")
	}
	if e.Axis != nil {
		present = append(present, "axis")
	}
	if e.AxisValue != nil {
		present = append(present, "axis_value")
	}
	if e.Direction != "" {
		present = append(present, "direction")
	}
	mods := e.Ctrl || e.Shift || e.Alt || e.Meta || e.CommandOrControl
	if mods {
		present = append(present, "ctrl/shift/alt/meta/command_or_control")
	}
	if e.Device != nil && *e.Device < -1 {
		return bad("device must be -1 (every device) or a device index >= 0, got %d", *e.Device)
	}
	allowed := map[string][]string{
		"key":           {"keycode", "physical_keycode", "key_label", "location", "ctrl/shift/alt/meta/command_or_control"},
		"mouse_button":  {"button", "double_click", "ctrl/shift/alt/meta/command_or_control"},
		"joypad_button": {"button"},
		"joypad_motion": {"axis", "axis_value", "direction"},
	}
	ok, known := allowed[e.Type]
	if !known {
		return bad("type must be key, mouse_button, joypad_button or joypad_motion, got %q", e.Type)
	}
	for _, f := range present {
		found := false
		for _, a := range ok {
			found = found || a == f
		}
		if !found {
			return bad("%s does not apply to a %s event", f, e.Type)
		}
	}
	switch e.Type {
	case "key":
		if keyFields == 0 {
			return bad("a key event needs keycode (the logical key, e.g. \"Space\"), physical_keycode (the key's position, e.g. \"W\") or key_label")
		}
		if e.CommandOrControl && (e.Ctrl || e.Meta) {
			return bad("command_or_control stands for Ctrl (or Cmd on macOS); do not combine it with ctrl or meta")
		}
	case "mouse_button":
		if err := checkIndexOrName("button", e.Button, 1, 127); err != nil {
			return bad("%v", err)
		}
		if e.CommandOrControl && (e.Ctrl || e.Meta) {
			return bad("command_or_control stands for Ctrl (or Cmd on macOS); do not combine it with ctrl or meta")
		}
	case "joypad_button":
		if err := checkIndexOrName("button", e.Button, 0, 127); err != nil {
			return bad("%v", err)
		}
	case "joypad_motion":
		if err := checkIndexOrName("axis", e.Axis, 0, 9); err != nil {
			return bad("%v", err)
		}
		if e.AxisValue == nil && e.Direction == "" {
			return bad("a joypad_motion event needs direction (\"positive\" or \"negative\") or axis_value (-1 or 1)")
		}
		if e.AxisValue != nil {
			v := *e.AxisValue
			if math.IsNaN(v) || v < -1 || v > 1 || v == 0 {
				return bad("axis_value must be non-zero and within -1..1, got %v", v)
			}
			if e.Direction != "" && (e.Direction == "positive") != (v > 0) {
				return bad("direction %q contradicts axis_value %v", e.Direction, v)
			}
		}
	}
	return nil
}

// checkIndexOrName accepts a non-empty name or an integer index in [lo, hi].
func checkIndexOrName(field string, v any, lo, hi int) error {
	switch x := v.(type) {
	case nil:
		return fmt.Errorf("%s is required", field)
	case string:
		if strings.TrimSpace(x) == "" {
			return fmt.Errorf("%s is empty", field)
		}
		return nil
	case float64:
		if x != math.Trunc(x) || x < float64(lo) || x > float64(hi) {
			return fmt.Errorf("%s index must be an integer from %d to %d, got %v", field, lo, hi, x)
		}
		return nil
	case json.Number:
		f, err := x.Float64()
		if err != nil {
			return fmt.Errorf("%s: %v", field, err)
		}
		return checkIndexOrName(field, f, lo, hi)
	}
	return fmt.Errorf("%s must be a name (string) or an index (integer), got %T", field, v)
}
