package e2e

import (
	"context"
	"os"
	"testing"
	"time"
)

// ---- animation benchmarks in the real editor ----

// benchAnim is one editor for the animation benchmarks, so they run under
// the same conditions: the main scene with an AnimationPlayer "Anim" and an
// animation "bench" 10 s long.
var benchAnim benchEditor

func animBenchSession(b *testing.B) *session {
	return benchAnim.session(b, "animbench-", func() []benchCall {
		return []benchCall{
			{"godot_enable_toolset", map[string]any{"name": "scene"}},
			{"godot_enable_toolset", map[string]any{"name": "animation"}},
			{"godot_scene_create_node", map[string]any{"type": "AnimationPlayer", "name": "Anim"}},
			{"godot_animation_edit", map[string]any{"action": "create", "animation": "bench", "length": 10}},
			{"godot_animation_edit_tracks", map[string]any{"animation": "bench", "ops": []any{map[string]any{"op": "add_track", "type": "value", "path": "Player:position"}}}},
			{"godot_animation_edit_tracks", map[string]any{"animation": "bench", "ops": benchKeys(200, 0), "dry_run": true}},
		}
	})
}

// benchKeys is one set_keys op writing n keys of track 0 (values shifted by round).
func benchKeys(n, round int) []any {
	keys := make([]any, n)
	for i := range keys {
		keys[i] = map[string]any{"time": float64(i) * 0.05, "value": map[string]any{"x": i + round, "y": i % 7}}
	}
	return []any{map[string]any{"op": "set_keys", "track": 0, "keys": keys}}
}

func benchTrackWrite(b *testing.B, n int) {
	s := animBenchSession(b)
	mark := s.editor.out.Len()
	b.Cleanup(func() { checkEditorOutput(b, "bench editor", s.editor.out.since(mark)) })
	ctx := context.Background()
	b.ResetTimer()
	for i := range b.N {
		b.StopTimer()
		args := map[string]any{"animation": "bench", "ops": benchKeys(n, i)}
		b.StartTimer()
		if r, err := s.host.call(ctx, "godot_animation_edit_tracks", args); err != nil || r.IsError {
			b.Fatalf("edit_tracks: %v %s", err, r.Raw)
		}
	}
}

// BenchmarkAnimationTrack200Editor writes a whole 200-key Vector2 track
// (set_keys) in one godot_animation_edit_tracks call, end to end: MCP → host →
// plugin → bridge → a real editor (decode against the property's type, the
// keys written on a copy, one undo action).
func BenchmarkAnimationTrack200Editor(b *testing.B) { benchTrackWrite(b, 200) }

// BenchmarkAnimationKey1Editor is the same call writing one key: the
// per-call baseline the 200-key write is compared with.
func BenchmarkAnimationKey1Editor(b *testing.B) { benchTrackWrite(b, 1) }

// With E2E_BENCH=1, one round of each and their ratio:
//
//	E2E_BENCH=1 go test -count=1 -v -run TestAnimationTrackWriteCost ./e2e/
func TestAnimationTrackWriteCost(t *testing.T) {
	if os.Getenv("E2E_BENCH") == "" {
		t.Skip("set E2E_BENCH=1 to measure")
	}
	one := testing.Benchmark(func(b *testing.B) { benchTrackWrite(b, 1) })
	many := testing.Benchmark(func(b *testing.B) { benchTrackWrite(b, 200) })
	if one.N == 0 || many.N == 0 {
		t.Fatal("a benchmark failed (see above)")
	}
	ratio := float64(many.NsPerOp()) / float64(one.NsPerOp())
	t.Logf("one edit_tracks call: 1 key %v, 200 keys %v (%.1f× the 1-key call; 200 one-key calls would be ~200×)",
		time.Duration(one.NsPerOp()), time.Duration(many.NsPerOp()), ratio)
	if ratio > 10 {
		t.Errorf("a 200-key write costs %.1f× a 1-key write, want ≤ 10×", ratio)
	}
}
