package analysis

import (
	"io/fs"
	"path/filepath"
	"testing"
	"time"

	"github.com/godot-mcp/godot-mcp/internal/testing/projectgen"
)

// analyzeAll is what the benchmark measures: unused files, cycles, signal
// graph as three tool calls of a toolset started afresh make them: each
// walks the project, the first reads every file, the next two only those
// changed since (uncached: every call reads every file).
func analyzeAll(tb testing.TB, dir string, uncached bool) (unused, cycles, flagged int) {
	parsed.put("", nil)
	for i := 0; i < 3; i++ {
		if uncached {
			parsed.put("", nil)
		}
		p, err := scan(dir)
		if err != nil {
			tb.Fatal(err)
		}
		switch i {
		case 0:
			unused = len(p.unusedFiles(false, false, ""))
		case 1:
			cycles = len(p.cycles(false, ""))
		case 2:
			for _, c := range p.signalGraph(false, "") {
				if c.Status == statusMissingMethod || c.Status == statusMissingNode {
					flagged++
				}
			}
		}
	}
	return
}

// The generated project's planted problems are found exactly: what the
// benchmark measures is the real analysis, not a walk that finds nothing.
func TestGeneratedProject(t *testing.T) {
	dir := t.TempDir()
	if err := projectgen.Generate(dir, 10000); err != nil {
		t.Fatal(err)
	}
	unused, cycles, flagged := analyzeAll(t, dir, true)
	if u, c, f := analyzeAll(t, dir, false); u != unused || c != cycles || f != flagged {
		t.Fatalf("cached answers differ: %d %d %d", u, c, f)
	}
	if unused != 2 || cycles != 5 || flagged != 0 {
		t.Fatalf("unused %d cycles %d flagged %d, want 2, 5, 0", unused, cycles, flagged)
	}
	p, _ := scan(dir)
	if len(p.paths) != 10002 {
		t.Fatalf("%d files", len(p.paths))
	}
	conns := p.signalGraph(false, "")
	if len(conns) != 7490 {
		t.Fatalf("%d connections", len(conns))
	}
}

// BenchmarkAnalysis10000 is unused_files + cycles + signals on a generated
// 10,000-file project, in process, as a freshly started toolset answers
// three calls. The end-to-end comparison with godot_resources_list in a
// real editor is e2e's BenchmarkAnalysis10000Editor.
func BenchmarkAnalysis10000(b *testing.B) { benchAnalysis(b, false) }

// BenchmarkAnalysis10000Uncached is the same with every call reading every
// file.
func BenchmarkAnalysis10000Uncached(b *testing.B) { benchAnalysis(b, true) }

func benchAnalysis(b *testing.B, uncached bool) {
	dir := b.TempDir()
	if err := projectgen.Generate(dir, 10000); err != nil {
		b.Fatal(err)
	}
	time.Sleep(2 * time.Second) // the files are older than the cache's trust window
	b.ResetTimer()
	for b.Loop() {
		analyzeAll(b, dir, uncached)
	}
}

// BenchmarkWalk10000 is the floor: one walk of the same tree with each
// file's size, reading nothing.
func BenchmarkWalk10000(b *testing.B) {
	dir := b.TempDir()
	if err := projectgen.Generate(dir, 10000); err != nil {
		b.Fatal(err)
	}
	b.ResetTimer()
	for b.Loop() {
		n := 0
		filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
			if err == nil && !d.IsDir() {
				if _, err := d.Info(); err == nil {
					n++
				}
			}
			return nil
		})
		if n < 10000 {
			b.Fatal(n)
		}
	}
}
