package e2e

import (
	"context"
	"fmt"
	"math/rand/v2"
	"os"
	"slices"
	"testing"
	"time"
)

// latencyCalls is how many sequential calls one measurement makes.
const latencyCalls = 200

// spacedCalls calls spacedGap to 2×spacedGap apart (longer than the addon's
// 1 s boost hold) measure what an agent, which thinks between calls,
// actually waits.
const (
	spacedCalls = 15
	spacedGap   = 1200 * time.Millisecond
)

// boostUsec is the frame sleep the addon uses while commands flow.
const boostUsec = 1000

// latencyTarget is the declared goal for the median godot_get_editor_state
// call against a real editor (issue 4, item 6).
const latencyTarget = 5 * time.Millisecond

// frameModes are the editor's two low-processor sleeps: what it uses with its
// window focused and unfocused (Godot's defaults). A headless editor never
// changes focus, so the suite sets them itself, as the editor would.
var frameModes = []struct {
	name string
	usec int
}{
	{"focused", 6900},
	{"unfocused", 100000},
}

type latencyStats struct {
	n                       int
	first, p50, p99, max    time.Duration
	idleBefore, idleAfter   float64 // CPU % of one core over 5 s
	sleepBefore, sleepAfter int     // the editor's frame sleep (µs) before the burst and after it settled
}

func (s latencyStats) String() string {
	out := fmt.Sprintf("%d calls: p50 %s, p99 %s, max %s, first %s", s.n, ms(s.p50), ms(s.p99), ms(s.max), ms(s.first))
	if s.idleBefore >= 0 {
		out += fmt.Sprintf("; editor idle CPU %.1f%% before, %.1f%% in the 5 s after", s.idleBefore, s.idleAfter)
	}
	return out
}

func ms(d time.Duration) string { return fmt.Sprintf("%.2f ms", float64(d)/1e6) }

func percentiles(d []time.Duration) (p50, p99, worst time.Duration) {
	s := slices.Clone(d)
	slices.Sort(s)
	at := func(p float64) time.Duration {
		i := int(p*float64(len(s))+0.999999) - 1
		return s[max(0, min(i, len(s)-1))]
	}
	return at(0.50), at(0.99), s[len(s)-1]
}

// setFrameSleep sets the editor's low-processor sleep through the e2e
// toolset and returns the previous value.
func setFrameSleep(t testing.TB, s *session, usec int) int {
	t.Helper()
	var out struct {
		Previous int `json:"previous"`
		Current  int `json:"current"`
	}
	s.host.mustCall(t, "godot_e2e_frame_sleep", map[string]any{"usec": usec}, &out)
	return out.Previous
}

func frameSleep(t testing.TB, s *session) int {
	t.Helper()
	var out struct {
		Current int `json:"current"`
	}
	s.host.mustCall(t, "godot_e2e_frame_sleep", nil, &out)
	return out.Current
}

// quiet waits out the addon's latency boost (it restores the editor's own
// frame sleep 1 s after the last command), so the next call starts from an
// idle editor, as an agent's first call after a pause does.
func quiet() { time.Sleep(2500 * time.Millisecond) }

// measureLatency makes latencyCalls sequential godot_get_editor_state calls.
func measureLatency(t testing.TB, s *session) []time.Duration {
	t.Helper()
	d := make([]time.Duration, 0, latencyCalls)
	ctx := context.Background()
	for range latencyCalls {
		start := time.Now()
		r, err := s.host.call(ctx, "godot_get_editor_state", nil)
		d = append(d, time.Since(start))
		if err != nil || r.IsError {
			t.Fatalf("godot_get_editor_state: %v %s", err, r.Raw)
		}
	}
	return d
}

// 200 sequential godot_get_editor_state calls through the whole chain (MCP
// client → godot-mcp → bridge → addon in a real headless editor), with the
// editor's frame sleep of a focused and of an unfocused window; prints
// p50/p99 and the editor's idle CPU before and after the burst, then the
// latency of calls spaced like an agent's and the CPU cost of the addon's
// boost. Run with E2E_BENCH=1 (it takes about two minutes).
func TestEditorStateLatency(t *testing.T) {
	if os.Getenv("E2E_BENCH") == "" {
		t.Skip("set E2E_BENCH=1 to measure the latency in a real editor")
	}
	s := sharedSession(t)
	editorStateWithScene(t, s)
	enableE2EToolset(t, s)
	quiet()
	original := frameSleep(t, s) // read once the addon's boost is over: the editor's own value
	t.Cleanup(func() { setFrameSleep(t, s, original) })
	t.Logf("the editor's own frame sleep: %d µs", original)

	for _, mode := range frameModes {
		setFrameSleep(t, s, mode.usec)
		quiet()
		var st latencyStats
		st.sleepBefore = frameSleep(t, s) // also kicks the boost once; wait it out again
		quiet()
		var err error
		if st.idleBefore, err = cpuPercent(s.editor.pid(), 5*time.Second); err != nil {
			t.Fatal(err)
		}
		d := measureLatency(t, s)
		if st.idleAfter, err = cpuPercent(s.editor.pid(), 5*time.Second); err != nil {
			t.Fatal(err)
		}
		st.sleepAfter = frameSleep(t, s)
		st.n, st.first = len(d), d[0]
		st.p50, st.p99, st.max = percentiles(d)
		line := fmt.Sprintf("e2e latency: godot_get_editor_state, %s editor (%d µs frame sleep): %s", mode.name, mode.usec, st)
		fmt.Println(line)
		t.Log(line)
		if st.p50 > latencyTarget {
			t.Errorf("%s: p50 %s exceeds the %s target", mode.name, ms(st.p50), ms(latencyTarget))
		}
		if st.sleepBefore != mode.usec || st.sleepAfter != mode.usec {
			t.Errorf("%s: the editor's frame sleep was %d µs before and %d µs after the burst, want %d (the addon must restore it)",
				mode.name, st.sleepBefore, st.sleepAfter, mode.usec)
		}

		// An agent thinks for seconds between calls: each call then finds
		// the boost over and waits out the frame sleep in progress.
		spaced := make([]time.Duration, 0, spacedCalls)
		rng := rand.New(rand.NewPCG(1, 2))
		for range spacedCalls {
			// Random gaps, so the calls do not lock onto the editor's frames.
			time.Sleep(spacedGap + time.Duration(rng.Int64N(int64(spacedGap))))
			start := time.Now()
			r, err := s.host.call(context.Background(), "godot_get_editor_state", nil)
			spaced = append(spaced, time.Since(start))
			if err != nil || r.IsError {
				t.Fatalf("godot_get_editor_state: %v %s", err, r.Raw)
			}
		}
		sp50, _, sworst := percentiles(spaced)
		line = fmt.Sprintf("e2e latency: godot_get_editor_state, %s editor (%d µs frame sleep), %d calls %v-%v apart (an agent's pace): p50 %s, max %s",
			mode.name, mode.usec, len(spaced), spacedGap, 2*spacedGap, ms(sp50), ms(sworst))
		fmt.Println(line)
		t.Log(line)
	}

	// What the addon's boost costs while it lasts: the editor at 1 ms frames.
	// (Set while no boost runs: during one, a change to exactly the boost's
	// own value cannot be told from the boost.)
	quiet()
	setFrameSleep(t, s, boostUsec)
	quiet()
	if cpu, err := cpuPercent(s.editor.pid(), 5*time.Second); err == nil {
		line := fmt.Sprintf("e2e latency: editor CPU at the addon's boost frame sleep (%d µs; read back %d µs): %.1f%%", boostUsec, frameSleep(t, s), cpu)
		fmt.Println(line)
		t.Log(line)
	}
	setFrameSleep(t, s, original)

	// The same calls straight over the bridge (no MCP, no host process):
	// what the editor itself costs.
	b := bridgeEditor(t)
	for _, command := range []string{"cmd_ping", "cmd_get_editor_state"} {
		quiet()
		d := make([]time.Duration, 0, latencyCalls)
		for range latencyCalls {
			start := time.Now()
			r := b.send(t, command, map[string]any{})
			d = append(d, time.Since(start))
			if !r.OK {
				t.Fatalf("%s: %s %s", command, r.Error, r.Hint)
			}
		}
		st := latencyStats{n: len(d), first: d[0], idleBefore: -1}
		st.p50, st.p99, st.max = percentiles(d)
		line := fmt.Sprintf("e2e latency: %s straight over the bridge, editor's own frame sleep: %s", command, st)
		fmt.Println(line)
		t.Log(line)
	}
}

// BenchmarkEditorStateLatency: one op is one godot_get_editor_state call
// through the whole chain against a real headless editor, with the frame
// sleep of a focused and of an unfocused editor. Reports p50-ms and p99-ms
// and, for runs of at least 200 calls, the editor's CPU over the 5 s after
// the burst (idle-cpu-%).
func BenchmarkEditorStateLatency(b *testing.B) {
	s := sharedSession(b)
	deadline := time.Now().Add(60 * time.Second)
	for {
		var st editorState
		s.host.mustCall(b, "godot_get_editor_state", nil, &st)
		if st.ActiveScene != nil && !st.Scanning || time.Now().After(deadline) {
			break
		}
		time.Sleep(200 * time.Millisecond)
	}
	s.host.mustCall(b, "godot_enable_toolset", map[string]any{"name": "e2e"}, nil)
	quiet()
	original := frameSleep(b, s)
	b.Cleanup(func() { setFrameSleep(b, s, original) })
	for _, mode := range frameModes {
		b.Run(mode.name, func(b *testing.B) {
			setFrameSleep(b, s, mode.usec)
			d := make([]time.Duration, 0, b.N)
			ctx := context.Background()
			b.ResetTimer()
			for range b.N {
				start := time.Now()
				r, err := s.host.call(ctx, "godot_get_editor_state", nil)
				d = append(d, time.Since(start))
				if err != nil || r.IsError {
					b.Fatalf("godot_get_editor_state: %v %s", err, r.Raw)
				}
			}
			b.StopTimer()
			p50, p99, _ := percentiles(d)
			b.ReportMetric(float64(p50)/1e6, "p50-ms")
			b.ReportMetric(float64(p99)/1e6, "p99-ms")
			if b.N >= latencyCalls {
				cpu, err := cpuPercent(s.editor.pid(), 5*time.Second)
				if err == nil {
					b.ReportMetric(cpu, "idle-cpu-%")
				}
			}
		})
	}
}
