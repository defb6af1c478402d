package e2e

import (
	"strings"
	"testing"
	"time"
)

// #28.9: runtime_input cut off by a debugger stop says which steps ran and
// that the inputs it held were released; the sequence does not go on when
// the game runs again, and the next sequence is not refused as "still running".
func TestRuntimeInputCutOffByDebuggerStop(t *testing.T) {
	s := dbgSession(t)
	dbgPlay(t, s, "res://main.tscn", nil)
	rtWaitStatus(t, s, "the probe", func(st rtStatus) bool { return st.ProbeConnected })

	done := make(chan toolResult, 1)
	go func() {
		r, err := s.host.call(ctxFor(t, callTimeout), "godot_runtime_input", map[string]any{"steps": []any{
			map[string]any{"type": "action", "action": "jump", "state": "press"},
			map[string]any{"type": "wait", "ms": 8000},
			map[string]any{"type": "action", "action": "jump", "state": "release"},
		}})
		if err != nil {
			t.Error(err)
		}
		done <- r
	}()
	time.Sleep(1500 * time.Millisecond)
	var brk dbgState
	s.host.mustCall(t, "godot_debugger_break", nil, &brk)
	if !brk.Stopped {
		t.Fatalf("break: %+v", brk)
	}
	var r toolResult
	select {
	case r = <-done:
	case <-time.After(20 * time.Second):
		t.Fatal("runtime_input did not answer after the debugger stop")
	}
	e := r.failure()
	if !r.IsError || e.Error != "PRECONDITION_FAILED" || e.Required != "game_not_breaked" ||
		!strings.Contains(e.Hint, "cut off by a debugger stop after 2 of 3 steps") ||
		!strings.Contains(e.Hint, "Held inputs released: action jump") || !strings.Contains(e.Hint, "paused in the debugger on request") {
		t.Fatalf("input cut off: %s", r.Text)
	}
	s.host.mustCall(t, "godot_debugger_continue", map[string]any{"wait_ms": 0}, nil)
	var pressed struct {
		Result any `json:"result"`
	}
	s.host.mustCall(t, "godot_runtime_call_method", map[string]any{"path": ".", "method": "is_jump_pressed"}, &pressed)
	if pressed.Result != false {
		t.Fatalf("jump still pressed after the cut-off sequence: %+v", pressed)
	}
	var in struct {
		Applied int `json:"applied"`
	}
	s.host.mustCall(t, "godot_runtime_input", map[string]any{"steps": []any{map[string]any{"type": "action", "action": "jump"}}}, &in)
	if in.Applied != 1 {
		t.Fatalf("the next sequence: %+v", in)
	}
	s.host.mustCall(t, "godot_runtime_stop", nil, nil)
}
