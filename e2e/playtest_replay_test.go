package e2e

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// Record and replay (issue 22 item 6) against a real editor and the replay
// scene of testdata/game (replay.tscn: a player moved only by input, one step
// per physics tick, by the Right key, the joypad's left stick and A button,
// and the action "boost"; left clicks counted where they landed). The tests
// read the recording the editor wrote from disk, and the game's state after
// each replay from the game.

type rpRecord struct {
	Action      string `json:"action"`
	Path        string `json:"path"`
	Recording   bool   `json:"recording"`
	Saved       bool   `json:"saved"`
	Unit        string `json:"unit"`
	Frames      int    `json:"frames"`
	Inputs      int    `json:"inputs"`
	Ended       string `json:"ended"`
	Checkpoints []struct {
		At    int    `json:"at"`
		Expr  string `json:"expr"`
		Value any    `json:"value"`
	} `json:"checkpoints"`
}

type rpStep struct {
	ptStep
	Replay     string `json:"replay"`
	Checked    int    `json:"checkpoints_checked"`
	Divergence []struct {
		At       int    `json:"at"`
		Expr     string `json:"expr"`
		Recorded any    `json:"recorded"`
		Replayed any    `json:"replayed"`
	} `json:"divergence"`
}

// rpFile is the recording as written (docs/playtest.md).
type rpFile struct {
	Format        string           `json:"format"`
	Version       int              `json:"version"`
	Unit          string           `json:"unit"`
	Frames        int              `json:"frames"`
	Scene         string           `json:"scene"`
	StartedFrozen bool             `json:"started_frozen"`
	Ended         string           `json:"ended"`
	Inputs        []map[string]any `json:"inputs"`
	Checkpoints   []map[string]any `json:"checkpoints"`
}

func rpRead(t *testing.T, s *session, res string) rpFile {
	t.Helper()
	raw, err := os.ReadFile(filepath.Join(s.project, strings.TrimPrefix(res, "res://")))
	if err != nil {
		t.Fatalf("the recording on disk: %v", err)
	}
	var f rpFile
	if err := json.Unmarshal(raw, &f); err != nil {
		t.Fatalf("the recording is not JSON: %v\n%s", err, raw)
	}
	return f
}

// rpStartFrozen (re)starts the replay scene frozen before its first frame.
func rpStartFrozen(t *testing.T, s *session) {
	t.Helper()
	var st ptStarted
	// Stopped first, not restarted by play: on a loaded machine a restart can
	// outlast the editor's wait for the old game to end.
	s.host.mustCall(t, "godot_runtime_stop", nil, nil)
	s.host.mustCall(t, "godot_playtest_step", map[string]any{"play": "res://replay.tscn", "count": 0, "report": []string{"ticks"}}, &st)
	if st.Started == nil || !st.Frozen || rtNum(t, st.Values["ticks"]) != 0 {
		t.Fatalf("start frozen: %+v", st)
	}
}

// The timeline the agent plays while recording: every kind of input.
var rpTimeline = []any{
	map[string]any{"at": 5, "type": "key", "key": "Right", "state": "press"},
	map[string]any{"at": 10, "type": "joypad_motion", "index": 0, "value": 0.5},
	map[string]any{"at": 20, "type": "joypad_motion", "index": 0, "value": 0},
	map[string]any{"at": 25, "type": "key", "key": "Right", "state": "release"},
	map[string]any{"at": 30, "type": "joypad_button", "index": 0, "state": "tap", "hold_frames": 10},
	map[string]any{"at": 35, "type": "action", "action": "boost", "state": "tap", "hold_frames": 10},
	map[string]any{"at": 50, "type": "mouse_button", "button": "left", "position": map[string]any{"x": 30, "y": 40}},
	map[string]any{"at": 53, "type": "mouse_motion", "position": map[string]any{"x": 60, "y": 70}},
}

func TestPlaytestRecordReplay(t *testing.T) {
	s := rtSession(t, false)
	s.host.mustCall(t, "godot_enable_toolset", map[string]any{"name": "runtime"}, nil)
	s.host.mustCall(t, "godot_enable_toolset", map[string]any{"name": "playtest"}, nil)
	rtWaitStatus(t, s, "the probe autoload to be registered", func(st rtStatus) bool { return st.ProbeRegistered })

	e := s.host.mustFail(t, "godot_playtest_record", map[string]any{"action": "start", "path": "nogame"})
	if e.Error != "PRECONDITION_FAILED" || e.Required != "runtime_probe" {
		t.Fatalf("recording without a game: %+v", e)
	}

	// Record the agent's input from a frozen start, with checkpoints.
	rpStartFrozen(t, s)
	report := []string{"player.position", "clicks", "last_click", "last_motion", "ticks"}
	cps := []any{
		map[string]any{"at": 0, "expr": "player.position"},
		map[string]any{"at": 30, "expr": "player.position"},
		map[string]any{"at": 60, "expr": "player.position"},
		map[string]any{"at": 60, "expr": "clicks"},
		map[string]any{"at": 60, "expr": "last_click"},
	}
	var rec rpRecord
	s.host.mustCall(t, "godot_playtest_record", map[string]any{"action": "start", "path": "walk", "checkpoints": cps}, &rec)
	if !rec.Recording || rec.Path != "res://playtests/walk.json" || rec.Unit != "physics_ticks" {
		t.Fatalf("start: %+v", rec)
	}
	e = s.host.mustFail(t, "godot_playtest_record", map[string]any{"action": "start", "path": "other"})
	if e.Error != "PRECONDITION_FAILED" || !strings.Contains(e.Hint, "Already recording to res://playtests/walk.json") {
		t.Fatalf("a second start: %+v", e)
	}
	played := ptStepOf(t, s, map[string]any{"count": 60, "inputs": rpTimeline, "report": report})
	if played.Stepped != 60 {
		t.Fatalf("%+v", played)
	}
	s.host.mustCall(t, "godot_playtest_record", map[string]any{"action": "stop"}, &rec)
	if !rec.Saved || rec.Frames != 60 || rec.Ended != "stop" || len(rec.Checkpoints) != 5 {
		t.Fatalf("stop: %+v", rec)
	}

	// The file on disk: the documented format, every input at the tick it reached the game.
	f := rpRead(t, s, "res://playtests/walk.json")
	if f.Format != "godot-mcp-recording" || f.Version != 1 || f.Unit != "physics_ticks" || f.Frames != 60 || f.Scene != "res://replay.tscn" || !f.StartedFrozen || f.Ended != "stop" {
		t.Fatalf("header: %+v", f)
	}
	got := map[string]bool{}
	for _, in := range f.Inputs {
		k := in["type"].(string) + "@" + jsonNum(in["at"])
		if st, ok := in["state"].(string); ok {
			k += ":" + st
		}
		got[k] = true
	}
	for _, want := range []string{"key@5:press", "joypad_motion@10", "joypad_motion@20", "key@25:release", "joypad_button@30:press", "joypad_button@40:release",
		"action@35:press", "action@45:release", "mouse_button@50:press", "mouse_button@52:release", "mouse_motion@53"} {
		if !got[want] {
			t.Errorf("the recording lacks %s: %v", want, f.Inputs)
		}
	}
	if len(f.Checkpoints) != 5 {
		t.Fatalf("checkpoints %v", f.Checkpoints)
	}
	final := map[string]any{}
	for _, c := range f.Checkpoints {
		if rtNum(t, c["at"]) == 60 {
			final[c["expr"].(string)] = c["value"]
		}
	}
	// What the game did while recorded: Right for 20 ticks, the stick at half for 10
	// (1.5 px a tick), A up for 10, boost down 2 px for 10; one click at (30, 40).
	pos := played.Values["player.position"].(map[string]any)
	if rtNum(t, pos["x"]) != 100+20+15 || rtNum(t, pos["y"]) != 100-10+20 || rtNum(t, played.Values["clicks"]) != 1 {
		t.Fatalf("the recorded play: %+v", played.Values)
	}
	if !jsonSame(final["player.position"], pos) || rtNum(t, final["clicks"]) != 1 {
		t.Fatalf("checkpoints at 60 %v, the game said %v", final, played.Values)
	}

	// Replayed twice from a frozen start: the same final state, and no divergence.
	var ends []map[string]any
	for i := 0; i < 2; i++ {
		var r rpStep
		s.host.mustCall(t, "godot_runtime_stop", nil, nil)
		s.host.mustCall(t, "godot_playtest_step", map[string]any{"play": "res://replay.tscn", "replay": "walk", "report": report}, &r)
		if r.Stepped != 60 || r.Replay != "res://playtests/walk.json" || r.Checked != 5 || len(r.Divergence) != 0 || !r.Frozen {
			t.Fatalf("replay %d: %+v", i+1, r)
		}
		ends = append(ends, r.Values)
	}
	for _, k := range report {
		if !jsonSame(ends[0][k], ends[1][k]) || !jsonSame(ends[0][k], played.Values[k]) {
			t.Errorf("%s: recorded %v, replays %v and %v", k, played.Values[k], ends[0][k], ends[1][k])
		}
	}

	// A changed game diverges, and the replay says where.
	rpStartFrozen(t, s)
	ptEvalOf(t, s, "node.speed = 2.0")
	var r rpStep
	s.host.mustCall(t, "godot_playtest_step", map[string]any{"replay": "walk"}, &r)
	if len(r.Divergence) == 0 || r.Checked != 5 {
		t.Fatalf("a faster player did not diverge: %+v", r)
	}
	d := r.Divergence[0]
	if d.At != 30 || d.Expr != "player.position" || jsonSame(d.Recorded, d.Replayed) {
		t.Fatalf("first divergence %+v", d)
	}
	if rtNum(t, d.Replayed.(map[string]any)["x"]) != 100+2*20+15 || rtNum(t, d.Recorded.(map[string]any)["x"]) != 100+20+15 {
		t.Fatalf("divergence values %+v", d)
	}

	// Bad recordings: unknown (with the ones there are), malformed, too new.
	e = s.host.mustFail(t, "godot_playtest_step", map[string]any{"replay": "wlk"})
	if e.Error != "RESOURCE_NOT_FOUND" || !strings.Contains(e.Hint, "res://playtests/walk.json") {
		t.Fatalf("unknown recording: %+v", e)
	}
	dir := filepath.Join(s.project, "playtests")
	os.WriteFile(filepath.Join(dir, "future.json"), []byte(`{"format":"godot-mcp-recording","version":2,"unit":"physics_ticks","frames":1,"inputs":[]}`), 0o644)
	os.WriteFile(filepath.Join(dir, "broken.json"), []byte(`{"format":"godot-mcp-recording","version":1,"unit":"physics_ticks","frames":10,"inputs":[{"at":3}]}`), 0o644)
	for name, field := range map[string]string{"future": "version is 2", "broken": "inputs[0].type"} {
		e = s.host.mustFail(t, "godot_playtest_step", map[string]any{"replay": name})
		if e.Error != "VALIDATION_ERROR" || !strings.Contains(e.Hint, field) {
			t.Errorf("%s: %+v", name, e)
		}
	}

	// A person playing (real time): the game runs free; input arrives between ticks.
	ptStepOf(t, s, map[string]any{"count": 0, "then": "resume"})
	s.host.mustCall(t, "godot_playtest_record", map[string]any{"action": "start", "path": "res://playtests/live.json"}, &rec)
	var in struct {
		Applied int `json:"applied"`
	}
	s.host.mustCall(t, "godot_runtime_input", map[string]any{"steps": []any{
		map[string]any{"type": "key", "key": "Right", "hold_frames": 5},
		map[string]any{"type": "wait", "frames": 3},
	}}, &in)
	s.host.mustCall(t, "godot_playtest_record", map[string]any{"action": "stop"}, &rec)
	live := rpRead(t, s, "res://playtests/live.json")
	if live.StartedFrozen || live.Frames <= 0 || len(live.Inputs) != 2 || live.Inputs[0]["key"] != "Right" || live.Inputs[1]["state"] != "release" {
		t.Fatalf("the live recording: %+v", live)
	}

	// Stopping the game saves what was recorded; nothing is left recording.
	rpStartFrozen(t, s)
	s.host.mustCall(t, "godot_playtest_record", map[string]any{"action": "start", "path": "cut"}, &rec)
	ptStepOf(t, s, map[string]any{"count": 12, "inputs": []any{map[string]any{"at": 4, "type": "key", "key": "Right", "state": "press"}}})
	time.Sleep(300 * time.Millisecond)
	s.host.mustCall(t, "godot_runtime_stop", nil, nil)
	deadline := time.Now().Add(10 * time.Second)
	for {
		if _, err := os.Stat(filepath.Join(dir, "cut.json")); err == nil {
			break
		}
		if time.Now().After(deadline) {
			t.Fatal("stopping the game did not save the recording")
		}
		time.Sleep(100 * time.Millisecond)
	}
	cut := rpRead(t, s, "res://playtests/cut.json")
	if cut.Ended != "game_stopped" || cut.Frames != 12 || len(cut.Inputs) != 1 || cut.Inputs[0]["key"] != "Right" || rtNum(t, cut.Inputs[0]["at"]) != 4 {
		t.Fatalf("the recording of a stopped game: %+v", cut)
	}
	s.host.mustCall(t, "godot_playtest_record", map[string]any{"action": "stop"}, &rec)
	if rec.Ended != "game_stopped" || !rec.Saved || rec.Path != "res://playtests/cut.json" {
		t.Fatalf("stop after the game stopped: %+v", rec)
	}
	e = s.host.mustFail(t, "godot_playtest_record", map[string]any{"action": "stop"})
	if e.Error != "PRECONDITION_FAILED" || !strings.Contains(e.Hint, "Nothing is being recorded") {
		t.Fatalf("a second stop: %+v", e)
	}

	// Disabling the toolset saves the recording and ends it in the game too.
	rpStartFrozen(t, s)
	s.host.mustCall(t, "godot_playtest_record", map[string]any{"action": "start", "path": "off"}, &rec)
	ptStepOf(t, s, map[string]any{"count": 7, "inputs": []any{map[string]any{"at": 2, "type": "joypad_button", "index": 1, "state": "tap"}}})
	recording := "root.get_node(\"GodotMcpProbe\")._playtest.recording()"
	if v := ptEvalOf(t, s, recording); v.Value != true {
		t.Fatalf("the game is not recording: %+v", v)
	}
	time.Sleep(300 * time.Millisecond)
	s.host.mustCall(t, "godot_disable_toolset", map[string]any{"name": "playtest"}, nil)
	off := rpRead(t, s, "res://playtests/off.json")
	if off.Ended != "toolset_disabled" || off.Frames != 7 || len(off.Inputs) != 2 {
		t.Fatalf("the recording of a disabled toolset: %+v", off)
	}
	s.host.mustCall(t, "godot_enable_toolset", map[string]any{"name": "playtest"}, nil)
	if v := ptEvalOf(t, s, recording); v.Value != false {
		t.Fatalf("the game still records after the toolset was disabled: %+v", v)
	}
}

func jsonNum(v any) string {
	b, _ := json.Marshal(v)
	return string(b)
}

// jsonSame compares two values in the godot://docs/values shapes as JSON.
func jsonSame(a, b any) bool {
	ja, _ := json.Marshal(a)
	jb, _ := json.Marshal(b)
	return string(ja) == string(jb)
}
