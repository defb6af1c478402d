package e2e

import (
	"context"
	"fmt"
	"os"
	"sync"
	"testing"
	"time"

	"github.com/godot-mcp/godot-mcp/internal/testing/projectgen"
)

// ---- analysis of a 10,000-file project vs one godot_resources_list walk ----

// benchGen is one editor, started once for both benchmarks, on a copy of the
// sample project with 10,000 generated files (internal/testing/projectgen:
// scripts, scenes, resources and data referring to each other).
var benchGen struct {
	once sync.Once
	s    *session
	err  error
}

// genScanTimeout bounds the editor's first scan of the generated files.
const genScanTimeout = 10 * time.Minute

func genBenchSession(b *testing.B) *session {
	b.Helper()
	benchGen.once.Do(func() { benchGen.s, benchGen.err = startGenBenchEditor() })
	if benchGen.err != nil {
		b.Fatal(benchGen.err)
	}
	return benchGen.s
}

func startGenBenchEditor() (*session, error) {
	project, err := scratchProject("analysisbench-")
	if err != nil {
		return nil, err
	}
	if err := projectgen.Modules(project, 10000); err != nil {
		return nil, err
	}
	h, err := startHost("ws://127.0.0.1:0", "GODOT_MCP_PROJECT_DIR="+project)
	if err != nil {
		return nil, err
	}
	e, err := startEditor(project, h.url)
	if err != nil {
		h.stop()
		return nil, err
	}
	closers = append(closers, func() { h.stop(); e.kill() })
	ctx, cancel := context.WithTimeout(context.Background(), genScanTimeout)
	defer cancel()
	if _, err := h.waitPeer(ctx, func(i serverInfo) bool { return sameDir(i.Bridge.Peer.ProjectDir, project) }); err != nil {
		return nil, fmt.Errorf("the bench editor never connected: %v\n%s", err, e.out.String())
	}
	for {
		var st editorState
		if r, err := h.call(ctx, "godot_get_editor_state", nil); err == nil && !r.IsError && r.decode(&st) == nil && !st.Scanning {
			break
		}
		if ctx.Err() != nil {
			return nil, fmt.Errorf("the bench editor's first scan of 10,000 files did not end within %s", genScanTimeout)
		}
		time.Sleep(500 * time.Millisecond)
	}
	for _, ts := range []string{"resources", "analysis"} {
		if r, err := h.call(ctx, "godot_enable_toolset", map[string]any{"name": ts}); err != nil || r.IsError {
			return nil, fmt.Errorf("enable %s: %v %s", ts, err, r.Raw)
		}
	}
	// The editor's file system knows every generated file before the
	// baseline is measured.
	for {
		n, err := listAll(ctx, h)
		if err != nil {
			return nil, err
		}
		if n >= 10000 {
			break
		}
		if ctx.Err() != nil {
			return nil, fmt.Errorf("the editor lists %d files, not the 10,000 generated", n)
		}
		time.Sleep(time.Second)
	}
	return &session{host: h, editor: e, project: project}, nil
}

// listAll walks the whole project with godot_resources_list, 5,000 entries
// a page, and returns how many files it listed.
func listAll(ctx context.Context, h *host) (int, error) {
	n, cursor := 0, ""
	for {
		args := map[string]any{"limit": 5000}
		if cursor != "" {
			args["cursor"] = cursor
		}
		r, err := h.call(ctx, "godot_resources_list", args)
		if err != nil || r.IsError {
			return 0, fmt.Errorf("resources_list: %v %s", err, r.Raw)
		}
		var page struct {
			Entries    []struct{ Path string } `json:"entries"`
			Truncated  bool                    `json:"truncated"`
			NextCursor string                  `json:"next_cursor"`
		}
		if err := r.decode(&page); err != nil {
			return 0, err
		}
		n += len(page.Entries)
		if !page.Truncated {
			return n, nil
		}
		cursor = page.NextCursor
	}
}

// BenchmarkResourcesList10000Editor is one godot_resources_list walk of the
// whole generated project in a real editor, paged at 5,000 entries: the
// baseline of BenchmarkAnalysis10000Editor.
func BenchmarkResourcesList10000Editor(b *testing.B) {
	s := genBenchSession(b)
	ctx := context.Background()
	b.ResetTimer()
	for b.Loop() {
		n, err := listAll(ctx, s.host)
		if err != nil {
			b.Fatal(err)
		}
		if n < 10000 {
			b.Fatalf("resources_list walked %d files, want at least 10,000", n)
		}
	}
}

// BenchmarkAnalysis10000Editor is godot_analysis_unused_files, _cycles and
// _signals on the same project, through the same host, each op by a freshly
// started analysis toolset (disabled and enabled again outside the timer),
// so the first call reads and parses every file and the next two re-read
// only files changed since. Target: at most 3× BenchmarkResourcesList10000Editor.
func BenchmarkAnalysis10000Editor(b *testing.B) {
	s := genBenchSession(b)
	ctx := context.Background()
	b.ResetTimer()
	for b.Loop() {
		b.StopTimer()
		for _, c := range []string{"godot_disable_toolset", "godot_enable_toolset"} {
			if r, err := s.host.call(ctx, c, map[string]any{"name": "analysis"}); err != nil || r.IsError {
				b.Fatalf("%s: %v %s", c, err, r.Raw)
			}
		}
		b.StartTimer()
		var totals [3]int
		for i, tool := range []string{"godot_analysis_unused_files", "godot_analysis_cycles", "godot_analysis_signals"} {
			r, err := s.host.call(ctx, tool, nil)
			if err != nil || r.IsError {
				b.Fatalf("%s: %v %s", tool, err, r.Raw)
			}
			var out struct {
				Total int `json:"total"`
			}
			if err := r.decode(&out); err != nil {
				b.Fatal(err)
			}
			totals[i] = out.Total
		}
		// The generated project's 2 unused data files, 5 cycles and 7,490
		// connections (plus what the sample project has).
		if totals[0] < 2 || totals[1] < 5 || totals[2] < 7490 {
			b.Fatalf("unused %d, cycles %d, connections %d: the analysis did not see the generated project", totals[0], totals[1], totals[2])
		}
	}
}

// With E2E_BENCH=1, one round of each and their ratio:
//
//	E2E_BENCH=1 go test -count=1 -v -run TestAnalysisVsResourcesList ./e2e/
func TestAnalysisVsResourcesList(t *testing.T) {
	if os.Getenv("E2E_BENCH") == "" {
		t.Skip("set E2E_BENCH=1 to measure")
	}
	list := testing.Benchmark(BenchmarkResourcesList10000Editor)
	analysis := testing.Benchmark(BenchmarkAnalysis10000Editor)
	if list.N == 0 || analysis.N == 0 {
		t.Fatal("a benchmark failed (see above)")
	}
	ratio := float64(analysis.NsPerOp()) / float64(list.NsPerOp())
	t.Logf("10,000 files: resources_list walk %v, unused + cycles + signals %v: %.2f× (target ≤ 3×)",
		time.Duration(list.NsPerOp()), time.Duration(analysis.NsPerOp()), ratio)
	if ratio > 3 {
		t.Errorf("analysis is %.2f× one resources_list walk, over the 3× target", ratio)
	}
}
