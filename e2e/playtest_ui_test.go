package e2e

import (
	"fmt"
	"math"
	"strings"
	"testing"
)

// Start frozen and the UI tools (issue 22, items 4 and 5) against a real editor
// and testdata/game/ui_playtest.tscn: buttons (Secret hidden, Locked disabled,
// Under covered by a ColorRect), a LineEdit, a slider, an ItemList, a scroll
// container and a world marker, seen through a Camera2D offset by (100, 50)
// and, when the game has a window, the canvas_items stretch mode at half
// size (the scale and offset are read back, as the editor may size an
// embedded game's window). The game prints
// what it was given; the tests read that output, not only the tools' answers:
// a click that the mapping put in the wrong place would not reach the button.

type ptControl struct {
	Path       string             `json:"path"`
	Class      string             `json:"class"`
	Text       string             `json:"text"`
	Rect       map[string]float64 `json:"rect"`
	ScreenRect map[string]float64 `json:"screen_rect"`
	Visible    bool               `json:"visible"`
	Disabled   bool               `json:"disabled"`
	Focused    bool               `json:"focused"`
	Items      []struct {
		Text string `json:"text"`
	} `json:"items"`
}

type ptControls struct {
	Controls  []ptControl        `json:"controls"`
	Count     int                `json:"count"`
	Truncated bool               `json:"truncated"`
	Focus     string             `json:"focus"`
	Window    map[string]float64 `json:"window"`
}

type ptInteract struct {
	Action string `json:"action"`
	Target *struct {
		Path  string             `json:"path"`
		Point map[string]float64 `json:"point"`
	} `json:"target"`
	Hovered   string  `json:"hovered"`
	Focus     string  `json:"focus"`
	TextAfter *string `json:"text_after"`
	Frames    int     `json:"frames"`
	Frozen    bool    `json:"frozen"`
}

type ptStarted struct {
	ptStep
	Started *struct {
		Scene        string `json:"scene"`
		PID          int    `json:"pid"`
		OutputCursor int    `json:"output_cursor"`
	} `json:"started"`
}

func TestPlaytestUIAndStartFrozen(t *testing.T) {
	for _, windowed := range []bool{false, true} {
		name := "headless"
		if windowed {
			name = "window"
		}
		t.Run(name, func(t *testing.T) { playtestUI(t, windowed) })
	}
}

func playtestUI(t *testing.T, windowed bool) {
	s := rtSession(t, windowed)
	s.host.mustCall(t, "godot_enable_toolset", map[string]any{"name": "runtime"}, nil)
	s.host.mustCall(t, "godot_enable_toolset", map[string]any{"name": "playtest"}, nil)
	rtWaitStatus(t, s, "the probe autoload to be registered", func(st rtStatus) bool { return st.ProbeRegistered })

	// Start frozen: the scene's _ready ran, not one _process or _physics_process.
	var start ptStarted
	s.host.mustCall(t, "godot_playtest_step", map[string]any{
		"play": "res://ui_playtest.tscn", "unit": "process_frames", "count": 0, "report": []string{"frames", "ticks"},
	}, &start)
	if start.Started == nil || start.Started.Scene != "res://ui_playtest.tscn" || start.Started.PID <= 0 || !start.Frozen {
		t.Fatalf("start frozen: %+v", start)
	}
	if rtNum(t, start.Values["frames"]) != 0 || rtNum(t, start.Values["ticks"]) != 0 {
		t.Fatalf("the game ran before it was frozen: %+v", start.Values)
	}
	cursor := start.Started.OutputCursor
	rtWaitLog(t, s, "godot_runtime_get_output", cursor, "the game's ready", rtTextIs("uitest: ready frames=0 ticks=0"))
	if st := rtStatusOf(t, s); !st.Paused || !st.ProbeConnected {
		t.Fatalf("status after a frozen start: %+v", st)
	}
	// Then exactly N frames: the game's own counter says 10, and prints it at its 10th.
	st := ptStepOf(t, s, map[string]any{"unit": "process_frames", "count": 10, "report": []string{"frames", "ticks"}})
	if st.Stepped != 10 || rtNum(t, st.Values["frames"]) != 10 || !st.Frozen {
		t.Fatalf("10 frames from a frozen start: %+v", st)
	}
	rtWaitLog(t, s, "godot_runtime_get_output", cursor, "the game's 10th frame", rtTextIs("uitest: process frame 10"))
	ticks := rtNum(t, st.Values["ticks"])
	st = ptStepOf(t, s, map[string]any{"count": 5, "report": []string{"ticks"}})
	if st.PhysicsTicks != 5 || rtNum(t, st.Values["ticks"]) != ticks+5 {
		t.Fatalf("5 ticks after %v: %+v", ticks, st)
	}

	// The stretch: window pixels = viewport pixels * scale + offset (read from
	// the Start button's two rects below; 1 and 0 headless).
	scale, offX, offY := 1.0, 0.0, 0.0
	startH := 30.0 // the Start button's height (its minimum size may make it taller)

	t.Run("list controls", func(t *testing.T) {
		var l ptControls
		s.host.mustCall(t, "godot_playtest_controls", map[string]any{"text": "start"}, &l)
		if l.Count != 1 || len(l.Controls) != 1 {
			t.Fatalf("%+v", l)
		}
		c := l.Controls[0]
		// Local (110, 60) through the camera at (100, 50): viewport (10, 10).
		if c.Path != "/root/UiPlaytest/Start" || c.Class != "Button" || c.Text != "Start" || !c.Visible || c.Disabled ||
			c.Rect["x"] != 10 || c.Rect["y"] != 10 || c.Rect["w"] != 70 || c.Rect["h"] < 30 {
			t.Fatalf("%+v", c)
		}
		if c.ScreenRect == nil {
			t.Fatalf("no screen rect: %+v", c)
		}
		scale, startH = c.ScreenRect["w"]/70, c.Rect["h"]
		offX, offY = c.ScreenRect["x"]-l.Window["x"]-10*scale, c.ScreenRect["y"]-l.Window["y"]-10*scale
		t.Logf("window %+v: stretch scale %v, offset (%v, %v)", l.Window, scale, offX, offY)
		if math.Abs(c.ScreenRect["h"]/c.Rect["h"]-scale) > 0.02 || (!windowed && (scale != 1 || offX != 0 || offY != 0)) || (windowed && math.Abs(scale-1) < 0.01) {
			t.Fatalf("screen rect %+v for viewport rect %+v in window %+v", c.ScreenRect, c.Rect, l.Window)
		}
		// Hidden ones only with all; rows of the ItemList come along.
		s.host.mustCall(t, "godot_playtest_controls", map[string]any{"class": "Button"}, &l)
		for _, c := range l.Controls {
			if c.Path == "/root/UiPlaytest/Secret" {
				t.Fatalf("a hidden button listed without all: %+v", l)
			}
		}
		s.host.mustCall(t, "godot_playtest_controls", map[string]any{"class": "Button", "all": true}, &l)
		seen := map[string]ptControl{}
		for _, c := range l.Controls {
			seen[c.Path] = c
		}
		if sec, ok := seen["/root/UiPlaytest/Secret"]; !ok || sec.Visible || !seen["/root/UiPlaytest/Locked"].Disabled {
			t.Fatalf("%+v", l)
		}
		s.host.mustCall(t, "godot_playtest_controls", map[string]any{"class": "ItemList"}, &l)
		if len(l.Controls) != 1 || len(l.Controls[0].Items) != 2 || l.Controls[0].Items[1].Text != "Banana" {
			t.Fatalf("%+v", l)
		}
	})

	t.Run("click by text", func(t *testing.T) {
		var r ptInteract
		s.host.mustCall(t, "godot_playtest_interact", map[string]any{"action": "click", "text": "Start"}, &r)
		if r.Target == nil || r.Target.Path != "/root/UiPlaytest/Start" || !r.Frozen || r.Frames < 2 {
			t.Fatalf("%+v", r)
		}
		// The centre of the viewport rect (10, 10, 70, h), in window pixels.
		if math.Abs(r.Target.Point["x"]-(45*scale+offX)) > 0.5 || math.Abs(r.Target.Point["y"]-((10+startH/2)*scale+offY)) > 0.5 {
			t.Fatalf("point %+v (scale %v, offset %v,%v)", r.Target.Point, scale, offX, offY)
		}
		rtWaitLog(t, s, "godot_runtime_get_output", cursor, "the button's pressed", rtTextIs("uitest: start pressed 1"))
	})

	t.Run("refused targets", func(t *testing.T) {
		e := s.host.mustFail(t, "godot_playtest_interact", map[string]any{"action": "click", "text": "Secret"})
		if e.Error != "PRECONDITION_FAILED" || !strings.Contains(e.Hint, "hidden") || !strings.Contains(e.Hint, `"Start" (Button /root/UiPlaytest/Start)`) {
			t.Fatalf("hidden: %+v", e)
		}
		e = s.host.mustFail(t, "godot_playtest_interact", map[string]any{"action": "click", "text": "Locked"})
		if e.Error != "PRECONDITION_FAILED" || !strings.Contains(e.Hint, "disabled") {
			t.Fatalf("disabled: %+v", e)
		}
		e = s.host.mustFail(t, "godot_playtest_interact", map[string]any{"action": "click", "node": "Under"})
		if e.Error != "PRECONDITION_FAILED" || !strings.Contains(e.Hint, "covered") || !strings.Contains(e.Hint, "/root/UiPlaytest/Cover") {
			t.Fatalf("covered: %+v", e)
		}
		e = s.host.mustFail(t, "godot_playtest_interact", map[string]any{"action": "click", "text": "Strat"})
		if e.Error != "RESOURCE_NOT_FOUND" || !strings.Contains(e.Hint, `"Start"`) {
			t.Fatalf("no such text: %+v", e)
		}
		e = s.host.mustFail(t, "godot_playtest_interact", map[string]any{"action": "click", "node": "Nope"})
		if e.Error != "RESOURCE_NOT_FOUND" {
			t.Fatalf("no such node: %+v", e)
		}
		// Nothing reached those buttons: the game never said so.
		var page rtLog
		s.host.mustCall(t, "godot_runtime_get_output", map[string]any{"since": cursor}, &page)
		for _, en := range page.Entries {
			for _, bad := range []string{"secret pressed", "locked pressed", "under pressed"} {
				if strings.Contains(en.Text, bad) {
					t.Fatalf("a refused click went through: %q", en.Text)
				}
			}
		}
	})

	t.Run("type text", func(t *testing.T) {
		// No LineEdit has the focus yet: refused, naming the one there is.
		e := s.host.mustFail(t, "godot_playtest_interact", map[string]any{"action": "type_text", "value": "x"})
		if e.Error != "PRECONDITION_FAILED" || !strings.Contains(e.Hint, "LineEdit /root/UiPlaytest/Name") {
			t.Fatalf("%+v", e)
		}
		var r ptInteract
		s.host.mustCall(t, "godot_playtest_interact", map[string]any{"action": "type_text", "node": "Name", "value": "Ada"}, &r)
		if r.TextAfter == nil || *r.TextAfter != "Ada" || r.Focus != "/root/UiPlaytest/Name" {
			t.Fatalf("%+v", r)
		}
		// Into the focused one, without a target; Enter submits.
		s.host.mustCall(t, "godot_playtest_interact", map[string]any{"action": "type_text", "value": " Lovelace\n"}, &r)
		if r.TextAfter == nil || *r.TextAfter != "Ada Lovelace" {
			t.Fatalf("%+v", r)
		}
		rtWaitLog(t, s, "godot_runtime_get_output", cursor, "the LineEdit's submit", rtTextIs("uitest: name submitted Ada Lovelace"))
		if v := ptEvalOf(t, s, "get_node(\"Name\").text").Value; v != "Ada Lovelace" {
			t.Fatalf("the LineEdit holds %v", v)
		}
	})

	t.Run("rows, drag, scroll, hover, world", func(t *testing.T) {
		var r ptInteract
		s.host.mustCall(t, "godot_playtest_interact", map[string]any{"action": "double_click", "text": "Banana"}, &r)
		rtWaitLog(t, s, "godot_runtime_get_output", cursor, "the row's activation", rtTextIs("uitest: fruit activated Banana"))

		s.host.mustCall(t, "godot_playtest_interact", map[string]any{"action": "drag", "node": "Volume", "by": map[string]any{"x": 80 * scale, "y": 0}}, &r)
		_, line, _ := rtWaitLog(t, s, "godot_runtime_get_output", cursor, "the slider's drag end", rtTextIs("uitest: volume "))
		var vol int
		if _, err := fmt.Sscanf(line.Text, "uitest: volume %d", &vol); err != nil || vol < 90 {
			t.Fatalf("slider dragged to %q", line.Text)
		}

		s.host.mustCall(t, "godot_playtest_interact", map[string]any{"action": "scroll", "node": "Scroller", "amount": 3}, &r)
		if v := ptNum(t, s, "get_node(\"Scroller\").scroll_vertical"); v <= 0 {
			t.Fatalf("not scrolled: %v", v)
		}

		s.host.mustCall(t, "godot_playtest_interact", map[string]any{"action": "hover", "text": "Start"}, &r)
		if r.Hovered != "/root/UiPlaytest/Start" {
			t.Fatalf("%+v", r)
		}
		rtWaitLog(t, s, "godot_runtime_get_output", cursor, "the hover", rtTextIs("uitest: start hovered"))

		// A Node2D through the camera (and the stretch): the game sees the click on it.
		s.host.mustCall(t, "godot_playtest_interact", map[string]any{"action": "click", "node": "Marker"}, &r)
		rtWaitLog(t, s, "godot_runtime_get_output", cursor, "the world click", rtTextIs("uitest: world click at 340,250"))
		if !r.Frozen {
			t.Fatalf("not frozen again after the gesture: %+v", r)
		}
	})

	t.Run("the next play is not frozen", func(t *testing.T) {
		// Start frozen was for that launch only: a plain play runs on its own.
		var run rtPlay
		s.host.mustCall(t, "godot_runtime_play", map[string]any{"scene": "res://ui_playtest.tscn"}, &run)
		if !run.Restarted {
			t.Fatalf("%+v", run)
		}
		rtWaitLog(t, s, "godot_runtime_get_output", run.OutputCursor, "frames running by themselves", rtTextIs("uitest: process frame 10"))
	})
}
