package e2e

import (
	"fmt"
	"math"
	"strings"
	"testing"
	"time"
)

// Playtesting at the agent's pace (issue 22) against a real editor and the
// playtest scene of testdata/game (playtest.tscn: a body falling 2 px per
// physics tick, a player moving 1 px per tick while Right is held, a line at
// y = 200, a Go button). The game counts its own ticks and prints what
// happened at which tick; the tests hold the tools to that account.

type ptEval struct {
	Value  any    `json:"value"`
	Type   string `json:"type"`
	Mode   string `json:"mode"`
	Node   string `json:"node"`
	Frames int64  `json:"frames"`
	Frozen bool   `json:"frozen"`
}

type ptStep struct {
	Unit             string         `json:"unit"`
	Stepped          int            `json:"stepped"`
	PhysicsTicks     int            `json:"physics_ticks"`
	ProcessFrames    int            `json:"process_frames"`
	GameTimeMs       float64        `json:"game_time_ms"`
	WallMs           int64          `json:"wall_ms"`
	Frozen           bool           `json:"frozen"`
	Held             *bool          `json:"held"`
	Expired          string         `json:"expired"`
	Values           map[string]any `json:"values"`
	ReleasedAtEnd    []string       `json:"released_at_end"`
	InputsNotReached int            `json:"inputs_not_reached"`
}

type ptWait struct {
	Held         bool           `json:"held"`
	Until        string         `json:"until"`
	Expired      string         `json:"expired"`
	Frame        int64          `json:"frame"`
	FramesWaited int            `json:"frames_waited"`
	GameTimeMs   float64        `json:"game_time_ms"`
	WallMs       int64          `json:"wall_ms"`
	Values       map[string]any `json:"values"`
}

type ptWatch struct {
	Samples []struct {
		Frame      int     `json:"frame"`
		GameTimeMs float64 `json:"game_time_ms"`
		Values     []any   `json:"values"`
	} `json:"samples"`
	FramesWatched int    `json:"frames_watched"`
	Truncated     bool   `json:"truncated"`
	TruncatedBy   string `json:"truncated_by"`
	Bytes         int    `json:"bytes"`
}

func ptEvalOf(t *testing.T, s *session, code string) ptEval {
	t.Helper()
	var out ptEval
	s.host.mustCall(t, "godot_playtest_eval", map[string]any{"code": code}, &out)
	return out
}

func ptNum(t *testing.T, s *session, code string) float64 {
	t.Helper()
	return rtNum(t, ptEvalOf(t, s, code).Value)
}

func ptStepOf(t *testing.T, s *session, args map[string]any) ptStep {
	t.Helper()
	var out ptStep
	s.host.mustCall(t, "godot_playtest_step", args, &out)
	return out
}

// ptSession plays the playtest scene with the runtime toolset enabled.
func ptSession(t testing.TB) (*session, rtPlay) {
	t.Helper()
	saved := rtErrorsAllowed
	// The errors raised on purpose: a snippet that does not compile or fails, and
	// playtest.gd's explode().
	rtErrorsAllowed = append(append([]string(nil), saved...), "res://godot_mcp_eval_", "res://playtest.gd")
	t.Cleanup(func() { rtErrorsAllowed = saved })
	s := rtSession(t, false)
	s.host.mustCall(t, "godot_enable_toolset", map[string]any{"name": "runtime"}, nil)
	s.host.mustCall(t, "godot_enable_toolset", map[string]any{"name": "playtest"}, nil)
	rtWaitStatus(t, s, "the probe autoload to be registered", func(st rtStatus) bool { return st.ProbeRegistered })
	var run rtPlay
	s.host.mustCall(t, "godot_runtime_play", map[string]any{"scene": "res://playtest.tscn"}, &run)
	if !run.Playing || !run.ProbeConnected {
		t.Fatalf("play: %+v", run)
	}
	rtWaitLog(t, s, "godot_runtime_get_output", run.OutputCursor, "playtest: ready", rtTextIs("playtest: ready"))
	return s, run
}

func TestPlaytestEvalStepWaitWatch(t *testing.T) {
	s, run := ptSession(t)
	cursor := run.OutputCursor

	// Freeze first: everything below runs at the agent's pace.
	fr := ptStepOf(t, s, map[string]any{"count": 0})
	if !fr.Frozen || fr.Stepped != 0 {
		t.Fatalf("freeze: %+v", fr)
	}
	if st := rtStatusOf(t, s); !st.Paused {
		t.Fatalf("frozen but not paused: %+v", st)
	}

	t.Run("eval", func(t *testing.T) {
		e := ptEvalOf(t, s, "ticks")
		if e.Mode != "expression" || e.Type != "int" || e.Node != "/root/Playtest" || !e.Frozen {
			t.Fatalf("%+v", e)
		}
		ticks := rtNum(t, e.Value)
		// The body falls 2 px per tick from y = 0: the game's own counter agrees.
		if y := ptNum(t, s, "body.position.y"); math.Abs(y-2*ticks) > 1e-3 {
			t.Fatalf("body y %v after %v ticks", y, ticks)
		}
		// The node binding, and a value in the godot://docs/values shapes.
		var pos ptEval
		s.host.mustCall(t, "godot_playtest_eval", map[string]any{"code": "position", "node": "Player"}, &pos)
		if m, ok := pos.Value.(map[string]any); !ok || rtNum(t, m["x"]) != 100 || rtNum(t, m["y"]) != 220 || pos.Type != "Vector2" {
			t.Fatalf("%+v", pos)
		}
		// Statements change the game: seen by another tool and in the game's output.
		sn := ptEvalOf(t, s, "node.presses = 41\nprint(\"playtest: eval says hi\")\nvar total := 0\nfor i in range(3):\n\ttotal += i\nreturn total + node.presses")
		if sn.Mode != "snippet" || rtNum(t, sn.Value) != 44 {
			t.Fatalf("%+v", sn)
		}
		if n := rtLiveNode(t, s, "/root/Playtest", "presses"); rtNum(t, n.Properties["presses"]) != 41 {
			t.Fatalf("presses not changed: %+v", n)
		}
		rtWaitLog(t, s, "godot_runtime_get_output", cursor, "the eval's print", rtTextIs("playtest: eval says hi"))
		// await works while frozen (process_frame is emitted while paused).
		aw := ptEvalOf(t, s, "await tree.process_frame\nawait tree.process_frame\nreturn \"later\"")
		if aw.Value != "later" || aw.Frames < 2 {
			t.Fatalf("await: %+v", aw)
		}
	})

	t.Run("eval errors", func(t *testing.T) {
		e := s.host.mustFail(t, "godot_playtest_eval", map[string]any{"code": "var a := 1\nvar b := a +\nreturn b"})
		if e.Error != "VALIDATION_ERROR" || !strings.Contains(e.Hint, "does not compile") || !strings.Contains(e.Hint, "line 2") {
			t.Fatalf("parse error: %+v", e)
		}
		e = s.host.mustFail(t, "godot_playtest_eval", map[string]any{"code": "1 +", "mode": "expression"})
		if e.Error != "VALIDATION_ERROR" || !strings.Contains(e.Hint, "line 1") {
			t.Fatalf("expression parse error: %+v", e)
		}
		e = s.host.mustFail(t, "godot_playtest_eval", map[string]any{"code": "var d := {}\nprint(\"playtest: before the error\")\nreturn d[\"nope\"]"})
		if e.Error != "VALIDATION_ERROR" || !strings.Contains(e.Hint, "script error at line 3") || !strings.Contains(e.Hint, "nope") {
			t.Fatalf("runtime error: %+v", e)
		}
		// A script error in game code the expression calls names the game's line.
		e = s.host.mustFail(t, "godot_playtest_eval", map[string]any{"code": "explode()"})
		if e.Error != "VALIDATION_ERROR" || !strings.Contains(e.Hint, "res://playtest.gd:") || !strings.Contains(e.Hint, "explode") {
			t.Fatalf("error in called code: %+v", e)
		}
		// The game went on after each: not stopped in the debugger, still answering.
		if st := rtStatusOf(t, s); st.Breaked {
			t.Fatalf("left stopped in the debugger: %+v", st)
		}
		if v := ptNum(t, s, "1 + 1"); v != 2 {
			t.Fatal(v)
		}
		// Endless loops are cut at the time limit, block and one-line alike.
		for _, code := range []string{"var n := 0\nwhile true:\n\tn += 1", "while true: pass"} {
			started := time.Now()
			e = s.host.mustFail(t, "godot_playtest_eval", map[string]any{"code": code, "timeout_ms": 300})
			took := time.Since(started)
			if e.Error != "TIMEOUT" || !strings.Contains(e.Hint, "cut in the loop at line") || took > 5*time.Second {
				t.Fatalf("%q: %+v after %s", code, e, took)
			}
		}
		if v := ptNum(t, s, "2 * 3"); v != 6 {
			t.Fatal(v)
		}
		e = s.host.mustFail(t, "godot_playtest_eval", map[string]any{"code": "1", "node": "Bdy"})
		if e.Error != "RESOURCE_NOT_FOUND" || !strings.Contains(e.Hint, "/root/Playtest/Body") {
			t.Fatalf("unknown node: %+v", e)
		}
	})

	t.Run("frozen steps are exact", func(t *testing.T) {
		ptEvalOf(t, s, "node.body.position.y = 0.0")
		t0 := ptNum(t, s, "ticks")
		st := ptStepOf(t, s, map[string]any{"count": 10, "report": []string{"ticks", "body.position.y"}})
		if st.Stepped != 10 || st.PhysicsTicks != 10 || !st.Frozen || st.Expired != "" {
			t.Fatalf("%+v", st)
		}
		if math.Abs(st.GameTimeMs-10*1000.0/60) > 0.5 {
			t.Errorf("game time %v ms for 10 ticks", st.GameTimeMs)
		}
		// The game's own counter and the body agree: exactly 10 ticks' worth.
		if got := rtNum(t, st.Values["ticks"]); got != t0+10 {
			t.Fatalf("game ticks %v, want %v", got, t0+10)
		}
		if y := rtNum(t, st.Values["body.position.y"]); math.Abs(y-20) > 1e-3 {
			t.Fatalf("body y %v after 10 ticks from 0, want 20", y)
		}
		// Frozen: nothing moves while the agent thinks.
		time.Sleep(300 * time.Millisecond)
		if got := ptNum(t, s, "ticks"); got != t0+10 {
			t.Fatalf("the game ran on while frozen: ticks %v", got)
		}
	})

	t.Run("digest", func(t *testing.T) {
		type digest struct {
			Nodes []struct {
				Path     string    `json:"path"`
				Position []float64 `json:"position"`
				Moving   bool      `json:"moving"`
			} `json:"nodes"`
			Texts []struct {
				Path string `json:"path"`
				Text string `json:"text"`
			} `json:"texts"`
			Frozen bool `json:"frozen"`
		}
		var d digest
		s.host.mustCall(t, "godot_playtest_digest", nil, &d)
		ptStepOf(t, s, map[string]any{"count": 5})
		s.host.mustCall(t, "godot_playtest_digest", nil, &d)
		moving := map[string]bool{}
		for _, n := range d.Nodes {
			moving[n.Path] = n.Moving
		}
		// The body fell 10 px since the last digest; the player stood still (and is
		// neither scripted nor a body, so it is left out); the scene is scripted.
		if !moving["/root/Playtest/Body"] || moving["/root/Playtest"] || !d.Frozen {
			t.Fatalf("%+v", d)
		}
		if _, ok := moving["/root/Playtest/Player"]; ok {
			t.Fatalf("a still, unscripted node listed: %+v", d)
		}
		if len(d.Texts) != 1 || d.Texts[0].Text != "Go" || d.Texts[0].Path != "/root/Playtest/Go" {
			t.Fatalf("texts %+v", d.Texts)
		}
	})

	t.Run("input timeline", func(t *testing.T) {
		out := cursor
		t0 := ptNum(t, s, "ticks")
		x0 := ptNum(t, s, "player.position.x")
		st := ptStepOf(t, s, map[string]any{"count": 20, "inputs": []any{
			map[string]any{"at": 5, "type": "key", "key": "Right", "state": "press"},
		}, "report": []string{"player.position.x", "moved_at"}})
		if st.Stepped != 20 || len(st.ReleasedAtEnd) != 1 || !strings.Contains(st.ReleasedAtEnd[0], "Right") {
			t.Fatalf("%+v", st)
		}
		// Pressed from the window's tick 5 (the game's tick t0+6) to its end: 15 ticks.
		if x := rtNum(t, st.Values["player.position.x"]); x != x0+15 {
			t.Fatalf("player x %v, want %v", x, x0+15)
		}
		want := fmt.Sprintf("playtest: player moved at tick %d", int(t0)+6)
		rtWaitLog(t, s, "godot_runtime_get_output", out, want, rtTextIs(want))
		// Released at the end: another tick does not move the player.
		ptStepOf(t, s, map[string]any{"count": 3})
		if x := ptNum(t, s, "player.position.x"); x != x0+15 {
			t.Fatalf("the key stayed held: x %v", x)
		}
	})

	t.Run("step until", func(t *testing.T) {
		ptEvalOf(t, s, "node.body.position.y = 100.0")
		t0 := ptNum(t, s, "ticks")
		st := ptStepOf(t, s, map[string]any{"until": map[string]any{"expression": "body.position.y >= 150"}, "report": []string{"body.position.y", "ticks"}})
		if st.Held == nil || !*st.Held || st.Stepped != 25 || !st.Frozen {
			t.Fatalf("%+v", st)
		}
		if y := rtNum(t, st.Values["body.position.y"]); math.Abs(y-150) > 1e-3 {
			t.Fatalf("stopped at y %v", y)
		}
		if got := rtNum(t, st.Values["ticks"]); got != t0+25 {
			t.Fatalf("game ticks %v, want %v", got, t0+25)
		}
		// A bound that expires first says so.
		st = ptStepOf(t, s, map[string]any{"count": 3, "until": map[string]any{"expression": "false"}})
		if st.Held == nil || *st.Held || st.Stepped != 3 || st.Expired != "count" {
			t.Fatalf("%+v", st)
		}
		// Process frames too.
		st = ptStepOf(t, s, map[string]any{"unit": "process_frames", "count": 5})
		if st.Stepped != 5 || st.ProcessFrames != 5 || !st.Frozen {
			t.Fatalf("%+v", st)
		}
	})

	t.Run("wait for the line", func(t *testing.T) {
		out := rtStatusOf(t, s).OutputCursor
		e := s.host.mustFail(t, "godot_playtest_wait_for", map[string]any{"until": map[string]any{"signal": "crossed"}})
		if e.Error != "PRECONDITION_FAILED" || !strings.Contains(e.Hint, "frozen") {
			t.Fatalf("waiting on a frozen game: %+v", e)
		}
		e = s.host.mustFail(t, "godot_playtest_step", map[string]any{"count": 1, "until": map[string]any{"signal": "crosed"}})
		if e.Error != "VALIDATION_ERROR" || !strings.Contains(e.Hint, "crossed") {
			t.Fatalf("unknown signal: %+v", e)
		}
		ptEvalOf(t, s, "node.body.position.y = 100.0")
		res := ptStepOf(t, s, map[string]any{"count": 0, "then": "resume"})
		if res.Frozen {
			t.Fatalf("%+v", res)
		}
		var w ptWait
		s.host.mustCall(t, "godot_playtest_wait_for", map[string]any{"until": map[string]any{"signal": "crossed"}, "report": []string{"crossed_at", "body.position.y"}}, &w)
		if !w.Held || w.Expired != "" || w.WallMs <= 0 {
			t.Fatalf("%+v", w)
		}
		_, line, _ := rtWaitLog(t, s, "godot_runtime_get_output", out, "the crossing", rtTextIs("playtest: crossed at tick"))
		var tick int
		var y float64
		if _, err := fmt.Sscanf(line.Text, "playtest: crossed at tick %d y=%f", &tick, &y); err != nil {
			t.Fatal(err)
		}
		if got := rtNum(t, w.Values["crossed_at"]); int(got) != tick {
			t.Fatalf("wait_for reported crossed_at %v, the game says tick %d", got, tick)
		}
		if got := rtNum(t, w.Values["body.position.y"]); got < 200 || got > 204 {
			t.Fatalf("body y %v when it held", got)
		}
		// Expiry reports the last values seen, not a bare timeout.
		s.host.mustCall(t, "godot_playtest_wait_for", map[string]any{"until": map[string]any{"expression": "body.position.y < 0"}, "max_frames": 10, "report": []string{"body.position.y"}}, &w)
		if w.Held || w.Expired != "frames" || w.FramesWaited != 10 || rtNum(t, w.Values["body.position.y"]) <= 200 {
			t.Fatalf("%+v", w)
		}
	})

	t.Run("watch a falling body", func(t *testing.T) {
		var w ptWatch
		s.host.mustCall(t, "godot_playtest_watch", map[string]any{"expressions": []string{"body.position.y", "ticks"}, "frames": 30}, &w)
		if len(w.Samples) != 31 || w.FramesWatched != 30 || w.Truncated {
			t.Fatalf("%d samples, %+v", len(w.Samples), w)
		}
		prev := -1.0
		for i, smp := range w.Samples {
			y := rtNum(t, smp.Values[0])
			if y < prev {
				t.Fatalf("sample %d: y %v after %v: not monotonic", i, y, prev)
			}
			prev = y
		}
		first, last := w.Samples[0], w.Samples[len(w.Samples)-1]
		dy := rtNum(t, last.Values[0]) - rtNum(t, first.Values[0])
		dticks := rtNum(t, last.Values[1]) - rtNum(t, first.Values[1])
		if dy <= 0 || math.Abs(dy-2*dticks) > 1e-3 || last.GameTimeMs <= 0 {
			t.Fatalf("moved %v over %v ticks, game time %v", dy, dticks, last.GameTimeMs)
		}
		s.host.mustCall(t, "godot_playtest_watch", map[string]any{"expressions": []string{"body.position.y"}, "frames": 100, "max_samples": 5}, &w)
		if len(w.Samples) != 5 || !w.Truncated || w.TruncatedBy != "max_samples" {
			t.Fatalf("%+v", w)
		}
	})

	t.Run("disabling the toolset unfreezes", func(t *testing.T) {
		ptStepOf(t, s, map[string]any{"count": 0})
		s.host.mustCall(t, "godot_disable_toolset", map[string]any{"name": "playtest"}, nil)
		deadline := time.Now().Add(15 * time.Second)
		for !strings.Contains(s.editor.out.String(), "playtest: frozen_changed false") {
			if time.Now().After(deadline) {
				t.Fatalf("the game never said it was unfrozen:\n%s", s.editor.out.String())
			}
			time.Sleep(100 * time.Millisecond)
		}
	})
}

// Without the runtime toolset, and with it but no game, every playtest tool
// refuses with runtime_probe and says what to do.
func TestPlaytestNoGame(t *testing.T) {
	s := rtSession(t, false)
	s.host.mustCall(t, "godot_enable_toolset", map[string]any{"name": "playtest"}, nil)
	e := s.host.mustFail(t, "godot_playtest_eval", map[string]any{"code": "1"})
	if e.Error != "PRECONDITION_FAILED" || e.Required != "runtime_probe" || !strings.Contains(e.Hint, "godot_enable_toolset runtime") {
		t.Fatalf("without runtime: %+v", e)
	}
	s.host.mustCall(t, "godot_enable_toolset", map[string]any{"name": "runtime"}, nil)
	for name, args := range map[string]map[string]any{
		"godot_playtest_eval":     {"code": "1"},
		"godot_playtest_step":     {"count": 1},
		"godot_playtest_wait_for": {"until": map[string]any{"expression": "true"}},
		"godot_playtest_watch":    {"expressions": []string{"1"}},
		"godot_playtest_controls": {},
		"godot_playtest_interact": {"action": "click", "text": "Go"},
		"godot_playtest_digest":   {},
	} {
		e = s.host.mustFail(t, name, args)
		if e.Error != "PRECONDITION_FAILED" || e.Required != "runtime_probe" || !strings.Contains(e.Hint, "godot_runtime_play") {
			t.Errorf("%s: %+v", name, e)
		}
	}
}
