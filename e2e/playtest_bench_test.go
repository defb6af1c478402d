package e2e

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"sync"
	"testing"
	"time"
)

// ---- playtest benchmarks in a real editor and a running game (issue 22) ----
//
// One editor plays the playtest scene of testdata/game for all of them, so
// they run under the same conditions in one run; tools/benchreport holds
// the targets:
//   - eval of a one-line expression: p50 within 1.5× of
//     godot_runtime_get_node on the same node (PlaytestEvalEditor vs
//     RuntimeGetNodeEditor, metric p50-ms);
//   - a 600-frame watch of 3 values every frame returns in ≤ 1.2× the game
//     time it covers (PlaytestWatch600Editor, x-game-time);
//   - stepping 60 physics ticks frozen costs ≤ 2× 60 ticks of free-running
//     game time (PlaytestStep60Editor, x-free-ticks).

var ptBench struct {
	once sync.Once
	s    *session
	err  error
}

func ptBenchSession(b *testing.B) *session {
	b.Helper()
	ptBench.once.Do(func() { ptBench.s, ptBench.err = startPlaytestBench() })
	if ptBench.err != nil {
		b.Fatal(ptBench.err)
	}
	return ptBench.s
}

// startPlaytestBench starts an editor on a copy of the test game, enables
// runtime and playtest, plays playtest.tscn and waits for its ready line.
func startPlaytestBench() (*session, error) {
	template, err := rtGameTemplateDir()
	if err != nil {
		return nil, err
	}
	dir, err := os.MkdirTemp(suite.work, "ptbench-")
	if err != nil {
		return nil, err
	}
	project := filepath.Join(dir, "project")
	if err := copyTree(template, project); err != nil {
		return nil, err
	}
	s, err := startBenchEditorIn(project, []benchCall{
		{"godot_enable_toolset", map[string]any{"name": "runtime"}},
		{"godot_enable_toolset", map[string]any{"name": "playtest"}},
	})
	if err != nil {
		return nil, err
	}
	closers = append(closers, func() { rtKillGamesOf(project) })
	h := s.host
	ctx, cancel := context.WithTimeout(context.Background(), connectTimeout)
	defer cancel()
	call := func(tool string, args map[string]any, out any) error {
		r, err := h.call(ctx, tool, args)
		if err != nil || r.IsError {
			return fmt.Errorf("%s: %v %s", tool, err, r.Raw)
		}
		if out != nil {
			return r.decode(out)
		}
		return nil
	}
	for {
		var st rtStatus
		if err := call("godot_runtime_get_status", nil, &st); err == nil && st.ProbeRegistered {
			break
		}
		if ctx.Err() != nil {
			return nil, fmt.Errorf("the probe autoload was never registered")
		}
		time.Sleep(200 * time.Millisecond)
	}
	var run rtPlay
	if err := call("godot_runtime_play", map[string]any{"scene": "res://playtest.tscn"}, &run); err != nil {
		return nil, err
	}
	for {
		var out struct {
			Entries []rtEntry `json:"entries"`
		}
		if err := call("godot_runtime_get_output", map[string]any{"since": run.OutputCursor}, &out); err == nil &&
			slices.ContainsFunc(out.Entries, rtTextIs("playtest: ready")) {
			break
		}
		if ctx.Err() != nil {
			return nil, fmt.Errorf("the playtest scene never printed its ready line")
		}
		time.Sleep(100 * time.Millisecond)
	}
	return s, nil
}

// ptBenchCall calls a tool and decodes its result; a failure ends the benchmark.
func ptBenchCall(b *testing.B, s *session, tool string, args map[string]any, out any) time.Duration {
	b.Helper()
	start := time.Now()
	r, err := s.host.call(context.Background(), tool, args)
	took := time.Since(start)
	if err != nil || r.IsError {
		b.Fatalf("%s: %v %s", tool, err, r.Raw)
	}
	if out != nil {
		if err := json.Unmarshal(r.Raw, out); err != nil {
			b.Fatalf("%s: %v", tool, err)
		}
	}
	return took
}

// ptBenchP50 runs one call b.N times and reports its median in ms.
func ptBenchP50(b *testing.B, tool string, args map[string]any) {
	s := ptBenchSession(b)
	ptBenchCall(b, s, "godot_playtest_step", map[string]any{"count": 0, "then": "resume"}, nil)
	var took []time.Duration
	b.ResetTimer()
	for range b.N {
		took = append(took, ptBenchCall(b, s, tool, args, nil))
	}
	slices.Sort(took)
	b.ReportMetric(float64(took[len(took)/2].Microseconds())/1000, "p50-ms")
}

// BenchmarkPlaytestEvalEditor evaluates a one-line expression on the body
// of the running playtest scene.
func BenchmarkPlaytestEvalEditor(b *testing.B) {
	ptBenchP50(b, "godot_playtest_eval", map[string]any{"code": "position.y", "node": "/root/Playtest/Body"})
}

// BenchmarkRuntimeGetNodeEditor reads the same value with
// godot_runtime_get_node: the baseline eval is held to.
func BenchmarkRuntimeGetNodeEditor(b *testing.B) {
	ptBenchP50(b, "godot_runtime_get_node", map[string]any{"node": "/root/Playtest/Body", "properties": []string{"position"}})
}

// BenchmarkPlaytestWatch600Editor watches 3 values every frame for 600
// process frames of the running game: wall time over the game time the
// window covered.
func BenchmarkPlaytestWatch600Editor(b *testing.B) {
	s := ptBenchSession(b)
	ptBenchCall(b, s, "godot_playtest_step", map[string]any{"count": 0, "then": "resume"}, nil)
	var ratio float64
	b.ResetTimer()
	for range b.N {
		var w struct {
			FramesWatched int     `json:"frames_watched"`
			GameTimeMs    float64 `json:"game_time_ms"`
			Truncated     bool    `json:"truncated"`
		}
		took := ptBenchCall(b, s, "godot_playtest_watch", map[string]any{
			"expressions": []string{"body.position.y", "player.position.x", "ticks"}, "frames": 600, "max_samples": 601,
			"max_bytes": 1 << 20, "timeout_ms": 120000}, &w)
		if w.FramesWatched != 600 || w.Truncated || w.GameTimeMs <= 0 {
			b.Fatalf("watch: %+v", w)
		}
		ratio = float64(took.Microseconds()) / 1000 / w.GameTimeMs
	}
	b.ReportMetric(ratio, "x-game-time")
}

// BenchmarkPlaytestStep60Editor freezes the game and steps it 60 physics
// ticks: wall time over the game time 60 ticks take free-running.
func BenchmarkPlaytestStep60Editor(b *testing.B) {
	s := ptBenchSession(b)
	var ratio float64
	b.ResetTimer()
	for range b.N {
		var st struct {
			Stepped    int     `json:"stepped"`
			GameTimeMs float64 `json:"game_time_ms"`
		}
		took := ptBenchCall(b, s, "godot_playtest_step", map[string]any{"count": 60, "unit": "physics_ticks"}, &st)
		if st.Stepped != 60 || st.GameTimeMs <= 0 {
			b.Fatalf("step: %+v", st)
		}
		ratio = float64(took.Microseconds()) / 1000 / st.GameTimeMs
	}
	b.ReportMetric(ratio, "x-free-ticks")
}
