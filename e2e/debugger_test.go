package e2e

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// The debugger toolset against a real editor and a game it plays: breakpoints
// set before the game starts stop it at that line, the stack and variables are
// read, steps land where they should, continue runs on (the game's output
// shows it), and every stop says why.

// dbgScript is the game the test debugs. Line numbers matter: the test names them.
const dbgScript = `extends Node

var ticks: int = 0
var names: PackedStringArray = ["a", "b"]
var big: Array = range(100)


func _process(_delta: float) -> void:
	ticks += 1
	if ticks == 3:
		var total: int = add_up(ticks)
		print("dbg: total %d" % total)
	if ticks == 10:
		print("dbg: ran on")
	if ticks == 20:
		breakpoint
	if ticks == 30:
		var d: Dictionary = {}
		print(d["missing"])


func add_up(n: int) -> int:
	var sum: int = n * 10
	return sum


func _ready() -> void:
	print("dbg: ready")
`

// hangScript freezes its game in an endless loop from the fifth frame on.
const hangScript = `extends Node

var frames: int = 0
var spin: int = 0


func _process(_delta: float) -> void:
	frames += 1
	if frames == 5:
		while true:
			spin += 1
`

const dbgScene = `[gd_scene load_steps=2 format=3]

[ext_resource type="Script" path="res://dbg.gd" id="1"]

[node name="Dbg" type="Node"]
script = ExtResource("1")
`

type dbgFrame struct {
	Frame    int    `json:"frame"`
	File     string `json:"file"`
	Line     int    `json:"line"`
	Function string `json:"function"`
}

type dbgState struct {
	Playing   bool       `json:"playing"`
	Stopped   bool       `json:"stopped"`
	Reason    string     `json:"reason"`
	Message   string     `json:"message"`
	Location  *dbgFrame  `json:"location"`
	Stack     []dbgFrame `json:"stack"`
	From      *dbgFrame  `json:"from"`
	RanOn     bool       `json:"ran_on"`
	Steps     int        `json:"steps"`
	GameEnded bool       `json:"game_ended"`
}

type dbgVar struct {
	Name      string `json:"name"`
	Scope     string `json:"scope"`
	Type      string `json:"type"`
	Value     any    `json:"value"`
	Size      *int   `json:"size"`
	Truncated bool   `json:"truncated"`
}

type dbgVars struct {
	Variables  []dbgVar `json:"variables"`
	Variable   *dbgVar  `json:"variable"`
	Total      int      `json:"total"`
	NextOffset int      `json:"next_offset"`
	Truncated  bool     `json:"truncated"`
	Location   dbgFrame `json:"location"`
}

func dbgSession(t *testing.T) *session {
	t.Helper()
	project := rtNewGame(t)
	hangScene := strings.ReplaceAll(strings.ReplaceAll(dbgScene, "res://dbg.gd", "res://hang.gd"), `name="Dbg"`, `name="Hang"`)
	for name, text := range map[string]string{"dbg.gd": dbgScript, "dbg.tscn": dbgScene, "hang.gd": hangScript, "hang.tscn": hangScene} {
		if err := os.WriteFile(filepath.Join(project, name), []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	// The script error at ticks 30 is on purpose.
	saved := rtErrorsAllowed
	rtErrorsAllowed = append(append([]string(nil), saved...), "res://dbg.gd")
	t.Cleanup(func() { rtErrorsAllowed = saved })
	t.Cleanup(func() { rtKillGames(t, project) })
	h := startHostT(t, "ws://127.0.0.1:0")
	e := rtStartEditor(t, project, h.url, false)
	waitEditor(t, h, e)
	s := &session{host: h, editor: e, project: project}
	s.host.mustCall(t, "godot_enable_toolset", map[string]any{"names": []string{"runtime", "debugger"}}, nil)
	return s
}

// dbgPlay plays scene with the runtime toolset and decodes its answer into out
// (when not nil). A game that stops at a breakpoint before its probe reported in
// still answers ok. Right after a stop the editor sometimes reports the new game
// as gone (the runtime toolset's play, not the debugger's concern): then it plays
// once more.
func dbgPlay(t *testing.T, s *session, scene string, out any) {
	t.Helper()
	for attempt := 0; ; attempt++ {
		r, err := s.host.call(ctxFor(t, callTimeout), "godot_runtime_play", map[string]any{"scene": scene})
		if err != nil {
			t.Fatal(err)
		}
		if !r.IsError {
			if out != nil {
				if err := r.decode(out); err != nil {
					t.Fatal(err)
				}
			}
			return
		}
		if attempt == 0 && strings.Contains(r.Text, "exited while starting") {
			t.Logf("play right after a stop: %s; retrying", r.Text)
			continue
		}
		out, _ := s.host.call(ctxFor(t, callTimeout), "godot_runtime_get_output", nil)
		t.Fatalf("play %s: %s\noutput: %s", scene, r.Text, out.Text)
	}
}

func dbgState0(t *testing.T, s *session) dbgState {
	t.Helper()
	var st dbgState
	s.host.mustCall(t, "godot_debugger_get_state", nil, &st)
	return st
}

// dbgWaitStop polls get_state until the game is stopped.
func dbgWaitStop(t *testing.T, s *session, what string) dbgState {
	t.Helper()
	deadline := time.Now().Add(30 * time.Second)
	for {
		st := dbgState0(t, s)
		if st.Stopped {
			return st
		}
		if time.Now().After(deadline) {
			t.Fatalf("waiting for %s: the game never stopped: %+v", what, st)
		}
		time.Sleep(100 * time.Millisecond)
	}
}

func dbgAt(t *testing.T, what string, loc *dbgFrame, line int, function string) {
	t.Helper()
	if loc == nil || loc.File != "res://dbg.gd" || loc.Line != line || loc.Function != function {
		t.Fatalf("%s: at %+v, want res://dbg.gd:%d in %s", what, loc, line, function)
	}
}

func dbgLocal(t *testing.T, s *session, name string) any {
	t.Helper()
	var vars dbgVars
	s.host.mustCall(t, "godot_debugger_get_variables", map[string]any{"scope": "local"}, &vars)
	for _, v := range vars.Variables {
		if v.Name == name {
			return v.Value
		}
	}
	t.Fatalf("no local %s in %+v", name, vars)
	return nil
}

// dbgHintHas checks, from a runtime tool that needs a running game, that the
// game_not_breaked hint names the reason and the location, and what to do.
func dbgHintHas(t *testing.T, s *session, what string, wants ...string) {
	t.Helper()
	e := s.host.mustFail(t, "godot_runtime_get_tree", nil)
	if e.Error != "PRECONDITION_FAILED" || e.Required != "game_not_breaked" {
		t.Fatalf("%s: %+v", what, e)
	}
	for _, w := range wants {
		if !strings.Contains(e.Hint, w) {
			t.Fatalf("%s: the hint lacks %q: %s", what, w, e.Hint)
		}
	}
}

func TestDebuggerBreakpointStepContinue(t *testing.T) {
	s := dbgSession(t)

	t.Run("no game", func(t *testing.T) {
		if st := dbgState0(t, s); st.Playing || st.Stopped {
			t.Fatalf("%+v", st)
		}
		e := s.host.mustFail(t, "godot_debugger_step", map[string]any{"mode": "over"})
		if e.Error != "PRECONDITION_FAILED" || !strings.Contains(e.Hint, "godot_runtime_play") {
			t.Fatalf("%+v", e)
		}
	})

	t.Run("lines without code are refused", func(t *testing.T) {
		for line, want := range map[int][2]string{7: {"blank", "9: ticks += 1"}, 8: {"function declaration", "9: ticks += 1"}, 1: {"declaration", "3: var ticks"}} {
			e := s.host.mustFail(t, "godot_debugger_set_breakpoints", map[string]any{"add": []any{map[string]any{"path": "res://dbg.gd", "line": line}}})
			if e.Error != "VALIDATION_ERROR" || !strings.Contains(e.Hint, want[0]) || !strings.Contains(e.Hint, want[1]) {
				t.Fatalf("line %d: %+v", line, e)
			}
		}
		e := s.host.mustFail(t, "godot_debugger_set_breakpoints", map[string]any{"add": []any{map[string]any{"path": "res://dgb.gd", "line": 3}}})
		if e.Error != "RESOURCE_NOT_FOUND" || !strings.Contains(e.Hint, "res://dbg.gd") {
			t.Fatalf("%+v", e)
		}
	})

	// Set before the game starts: the editor passes it to the game it launches.
	var set struct {
		Added       []struct{ Line int } `json:"added"`
		Breakpoints []struct {
			Path string `json:"path"`
			Line int    `json:"line"`
		} `json:"breakpoints"`
	}
	t.Run("dry run changes nothing", func(t *testing.T) {
		s.host.mustCall(t, "godot_debugger_set_breakpoints", map[string]any{"add": []any{map[string]any{"path": "res://dbg.gd", "line": 11}}, "dry_run": true}, &set)
		if len(set.Added) != 1 || len(set.Breakpoints) != 1 {
			t.Fatalf("%+v", set)
		}
		var none struct{ Count int }
		s.host.mustCall(t, "godot_debugger_list_breakpoints", nil, &none)
		if none.Count != 0 {
			t.Fatalf("a dry run set %d breakpoint(s)", none.Count)
		}
	})
	s.host.mustCall(t, "godot_debugger_set_breakpoints", map[string]any{"add": []any{map[string]any{"path": "res://dbg.gd", "line": 11}}}, &set)
	if len(set.Added) != 1 || len(set.Breakpoints) != 1 || set.Breakpoints[0].Line != 11 {
		t.Fatalf("%+v", set)
	}
	var list struct {
		Breakpoints []struct {
			Path, Code string
			Line       int
		} `json:"breakpoints"`
	}
	s.host.mustCall(t, "godot_debugger_list_breakpoints", nil, &list)
	if len(list.Breakpoints) != 1 || list.Breakpoints[0].Code != "var total: int = add_up(ticks)" {
		t.Fatalf("%+v", list)
	}

	var run rtPlay
	ctx := ctxFor(t, callTimeout)
	r, err := s.host.call(ctx, "godot_runtime_play", map[string]any{"scene": "res://dbg.tscn"})
	if err != nil {
		t.Fatal(err)
	}
	// A breakpoint stop never makes play fail: the game did start.
	if r.IsError {
		t.Fatalf("play: %s", r.Text)
	} else if err := r.decode(&run); err != nil {
		t.Fatal(err)
	}

	st := dbgWaitStop(t, s, "the breakpoint")
	if st.Reason != "breakpoint" || len(st.Stack) != 1 {
		t.Fatalf("%+v", st)
	}
	dbgAt(t, "breakpoint", st.Location, 11, "_process")

	t.Run("runtime tools refuse with the reason and location", func(t *testing.T) {
		dbgHintHas(t, s, "breakpoint", "stopped at a breakpoint at res://dbg.gd:11 in _process()", "godot_debugger_continue", "godot_debugger_step", "godot_runtime_stop")
		var st rtStatus
		s.host.mustCall(t, "godot_runtime_get_status", nil, &st)
		if !st.Breaked || st.BreakReason != "breakpoint" || st.BreakMessage != "" || len(st.BreakStack) != 1 || st.BreakStack[0].Line != 11 {
			t.Fatalf("status: %+v", st)
		}
	})

	t.Run("members, paged", func(t *testing.T) {
		var vars dbgVars
		s.host.mustCall(t, "godot_debugger_get_variables", map[string]any{"scope": "member"}, &vars)
		found := map[string]dbgVar{}
		for _, v := range vars.Variables {
			found[v.Name] = v
		}
		if found["ticks"].Value != float64(3) || !found["big"].Truncated || found["big"].Size == nil || *found["big"].Size != 100 {
			t.Fatalf("%+v", vars)
		}
		// #28.9: an object with its class (the game's probe says what it is).
		self, _ := found["self"].Value.(map[string]any)
		if found["self"].Type != "Node" || self["type"] != "Object" || self["class"] != "Node" || self["script"] != "res://dbg.gd" || self["node_path"] != "/root/Dbg" {
			t.Fatalf("self: %+v", found["self"])
		}
		var page dbgVars
		s.host.mustCall(t, "godot_debugger_get_variables", map[string]any{"name": "big", "offset": 95, "limit": 10}, &page)
		if page.Variable == nil || len(page.Variable.Value.([]any)) != 5 || page.Variable.Value.([]any)[0] != float64(95) || page.NextOffset != -1 {
			t.Fatalf("%+v", page)
		}
	})

	var moved dbgState
	s.host.mustCall(t, "godot_debugger_step", map[string]any{"mode": "into"}, &moved)
	dbgAt(t, "step into", moved.Location, 23, "add_up")
	if moved.Reason != "step" || len(moved.Stack) != 2 || moved.Stack[1].Line != 11 || moved.From == nil || moved.From.Line != 11 {
		t.Fatalf("step into: %+v", moved)
	}
	dbgHintHas(t, s, "step", "stopped after a debugger step, at res://dbg.gd:23 in add_up()", "godot_debugger_continue")
	if n := dbgLocal(t, s, "n"); n != float64(3) {
		t.Fatalf("n = %v", n)
	}
	var frame1 dbgVars
	s.host.mustCall(t, "godot_debugger_get_variables", map[string]any{"frame": 1, "scope": "local"}, &frame1)
	if frame1.Location.Function != "_process" || len(frame1.Variables) == 0 || frame1.Variables[0].Name != "_delta" {
		t.Fatalf("frame 1: %+v", frame1)
	}

	s.host.mustCall(t, "godot_debugger_step", map[string]any{"mode": "out"}, &moved)
	dbgAt(t, "step out", moved.Location, 12, "_process")
	if len(moved.Stack) != 1 {
		t.Fatalf("step out: %+v", moved)
	}
	if total := dbgLocal(t, s, "total"); total != float64(30) {
		t.Fatalf("total = %v", total)
	}

	t.Run("evaluate", func(t *testing.T) {
		var ev struct {
			Type   string   `json:"type"`
			Value  any      `json:"value"`
			Errors []string `json:"errors"`
		}
		s.host.mustCall(t, "godot_debugger_evaluate", map[string]any{"expression": "total + ticks"}, &ev)
		if ev.Value != float64(33) || ev.Type != "int" || len(ev.Errors) != 0 {
			t.Fatalf("%+v", ev)
		}
		s.host.mustCall(t, "godot_debugger_evaluate", map[string]any{"expression": "no_such_method(1)"}, &ev)
		if ev.Value != nil || len(ev.Errors) == 0 {
			t.Fatalf("a failing call: %+v", ev)
		}
		e := s.host.mustFail(t, "godot_debugger_evaluate", map[string]any{"expression": "total +"})
		if e.Error != "VALIDATION_ERROR" || !strings.Contains(e.Hint, "does not parse") {
			t.Fatalf("%+v", e)
		}
		if st := dbgState0(t, s); !st.Stopped || st.Location.Line != 12 {
			t.Fatalf("evaluating moved the game: %+v", st)
		}
	})

	s.host.mustCall(t, "godot_debugger_step", map[string]any{"mode": "over"}, &moved)
	dbgAt(t, "step over", moved.Location, 13, "_process")

	var cont dbgState
	s.host.mustCall(t, "godot_debugger_continue", map[string]any{"wait_ms": 0}, &cont)
	// It runs on, unless it reached the breakpoint keyword already (a busy editor
	// may read the game's next stop together with its resume).
	if cont.RanOn == cont.Stopped || cont.From == nil || cont.From.Line != 13 || (cont.Stopped && cont.Reason != "breakpoint_keyword") {
		t.Fatalf("continue: %+v", cont)
	}
	since := 0
	if !r.IsError {
		since = run.OutputCursor
	}
	rtWaitLog(t, s, "godot_runtime_get_output", since, "the step's print", rtTextIs("dbg: total 30"))
	rtWaitLog(t, s, "godot_runtime_get_output", since, "the game running on", rtTextIs("dbg: ran on"))

	st = dbgWaitStop(t, s, "the breakpoint keyword")
	if st.Reason != "breakpoint_keyword" {
		t.Fatalf("%+v", st)
	}
	dbgAt(t, "breakpoint keyword", st.Location, 16, "_process")
	dbgHintHas(t, s, "breakpoint keyword", "stopped at a `breakpoint` statement in the script, at res://dbg.gd:16 in _process()", "godot_debugger_continue")

	s.host.mustCall(t, "godot_debugger_continue", map[string]any{"wait_ms": 0}, &cont)
	st = dbgWaitStop(t, s, "the script error")
	if st.Reason != "script_error" || !strings.Contains(st.Message, "missing") {
		t.Fatalf("%+v", st)
	}
	dbgAt(t, "script error", st.Location, 19, "_process")
	dbgHintHas(t, s, "script error", "stopped on a script error at res://dbg.gd:19 in _process()", "missing", "fix the error")

	s.host.mustCall(t, "godot_debugger_continue", map[string]any{"wait_ms": 0}, &cont)
	var brk dbgState
	s.host.mustCall(t, "godot_debugger_break", nil, &brk)
	if !brk.Stopped || brk.Reason != "break_request" || brk.Location == nil || brk.Location.File != "res://dbg.gd" || brk.Location.Function != "_process" {
		t.Fatalf("break: %+v", brk)
	}
	// The step that landed the break on a script line is still the break request.
	if st := dbgState0(t, s); st.Reason != "break_request" {
		t.Fatalf("state after break: %+v", st)
	}
	dbgHintHas(t, s, "break request", "paused in the debugger on request", fmt.Sprintf("at res://dbg.gd:%d in _process()", brk.Location.Line), "godot_debugger_continue")

	t.Run("kept across plays", func(t *testing.T) {
		s.host.mustCall(t, "godot_runtime_stop", nil, nil)
		dbgPlay(t, s, "res://dbg.tscn", nil)
		st := dbgWaitStop(t, s, "the breakpoint, second play")
		dbgAt(t, "second play", st.Location, 11, "_process")
		s.host.mustCall(t, "godot_debugger_set_breakpoints", map[string]any{"remove": []any{map[string]any{"path": "res://dbg.gd", "line": 11}}}, nil)
		s.host.mustCall(t, "godot_debugger_list_breakpoints", nil, &list)
		if len(list.Breakpoints) != 0 {
			t.Fatalf("%+v", list)
		}
		s.host.mustCall(t, "godot_runtime_stop", nil, nil)
		var cleared struct {
			Removed []struct{ Line int } `json:"removed"`
		}
		// hang.gd is not open yet: its new tab (beside dbg.gd's) takes the breakpoint.
		s.host.mustCall(t, "godot_debugger_set_breakpoints", map[string]any{"add": []any{map[string]any{"path": "res://dbg.gd", "line": 9}, map[string]any{"path": "res://hang.gd", "line": 8}}}, nil)
		s.host.mustCall(t, "godot_debugger_set_breakpoints", map[string]any{"clear": true}, &cleared)
		s.host.mustCall(t, "godot_debugger_list_breakpoints", nil, &list)
		if len(cleared.Removed) != 2 || len(list.Breakpoints) != 0 {
			t.Fatalf("clear: %+v, left %+v", cleared, list)
		}
	})

	// Only a breakpoint the editor passes on the game's command line can stop
	// the first _ready: the game runs it before it reads debugger messages.
	t.Run("a breakpoint in _ready", func(t *testing.T) {
		s.host.mustCall(t, "godot_debugger_set_breakpoints", map[string]any{"add": []any{map[string]any{"path": "res://dbg.gd", "line": 28}}}, nil)
		// The probe reports in after the first frame, so the game stops before it
		// did: play still answers ok, and says where the game stands.
		var play struct {
			Playing        bool       `json:"playing"`
			ProbeConnected bool       `json:"probe_connected"`
			Breaked        bool       `json:"breaked"`
			BreakReason    string     `json:"break_reason"`
			BreakStack     []dbgFrame `json:"break_stack"`
			Note           string     `json:"note"`
		}
		dbgPlay(t, s, "res://dbg.tscn", &play)
		if !play.Playing || play.ProbeConnected || !play.Breaked || play.BreakReason != "breakpoint" || len(play.BreakStack) == 0 ||
			!strings.Contains(play.Note, "breakpoint at res://dbg.gd:28 in _ready()") {
			t.Fatalf("play: %+v", play)
		}
		dbgAt(t, "play", &play.BreakStack[0], 28, "_ready")
		st := dbgState0(t, s)
		if !st.Stopped || st.Reason != "breakpoint" {
			t.Fatalf("%+v", st)
		}
		dbgAt(t, "_ready", st.Location, 28, "_ready")
		// Continued, the game runs on and its probe reports in (the game may have
		// reached its breakpoint keyword by then: it runs 20 frames in no time).
		var cont dbgState
		s.host.mustCall(t, "godot_debugger_continue", map[string]any{"wait_ms": 0}, &cont)
		if cont.From == nil || cont.From.Line != 28 || (cont.Stopped && cont.Reason != "breakpoint_keyword") {
			t.Fatalf("continue: %+v", cont)
		}
		rtWaitStatus(t, s, "the probe after continue", func(st rtStatus) bool { return st.ProbeConnected })
		s.host.mustCall(t, "godot_debugger_set_breakpoints", map[string]any{"clear": true}, nil)
		s.host.mustCall(t, "godot_runtime_stop", nil, nil)
	})

	// A game frozen in an endless loop: break stops it inside the loop.
	t.Run("break a frozen game", func(t *testing.T) {
		dbgPlay(t, s, "res://hang.tscn", nil)
		time.Sleep(time.Second) // frame 5 comes within 100 ms; frames stays 5 from then on
		var brk dbgState
		s.host.mustCall(t, "godot_debugger_break", nil, &brk)
		if !brk.Stopped || brk.Location == nil || brk.Location.File != "res://hang.gd" || brk.Location.Line != 11 {
			t.Fatalf("break: %+v", brk)
		}
		var ev struct{ Value any }
		s.host.mustCall(t, "godot_debugger_evaluate", map[string]any{"expression": "spin > 1000 and frames == 5"}, &ev)
		if ev.Value != true {
			t.Fatalf("%+v", ev)
		}
		// A breakpoint set while the game runs reaches it at once.
		var cont dbgState
		s.host.mustCall(t, "godot_debugger_continue", map[string]any{"wait_ms": 0}, &cont)
		s.host.mustCall(t, "godot_debugger_set_breakpoints", map[string]any{"add": []any{map[string]any{"path": "res://hang.gd", "line": 11}}}, nil)
		st := dbgWaitStop(t, s, "the breakpoint set while running")
		if st.Reason != "breakpoint" || st.Location == nil || st.Location.File != "res://hang.gd" || st.Location.Line != 11 {
			t.Fatalf("%+v", st)
		}
		s.host.mustCall(t, "godot_debugger_set_breakpoints", map[string]any{"clear": true}, nil)
		s.host.mustCall(t, "godot_runtime_stop", nil, nil)
	})
}
