package main

import (
	"bytes"
	"math"
	"strings"
	"testing"
	"time"
)

// sample is real `go test -bench -benchmem -count 3` output from two
// packages, with the noise go test prints around it.
const sample = `goos: linux
goarch: amd64
pkg: github.com/godot-mcp/godot-mcp/host/bridge
cpu: AMD EPYC 7B13
BenchmarkBridgeRoundTrip-2   	   20000	     60000 ns/op	  17.07 MB/s	    4000 B/op	      50 allocs/op
BenchmarkBridgeRoundTrip-2   	   20000	     50000 ns/op	  20.48 MB/s	    4100 B/op	      51 allocs/op
BenchmarkBridgeRoundTrip-2   	   20000	     70000 ns/op	  14.63 MB/s	    3900 B/op	      49 allocs/op
BenchmarkRawEcho-2           	   50000	     20000 ns/op	  51.20 MB/s	     100 B/op	       4 allocs/op
BenchmarkRawEcho-2           	   50000	     25000 ns/op	  40.96 MB/s	     100 B/op	       4 allocs/op
BenchmarkRawEcho-2           	   50000	     10000 ns/op	 102.40 MB/s	     100 B/op	       4 allocs/op
PASS
ok  	github.com/godot-mcp/godot-mcp/host/bridge	12.345s
goos: linux
goarch: amd64
pkg: github.com/godot-mcp/godot-mcp/host/pluginhost
cpu: AMD EPYC 7B13
BenchmarkPluginCall-2        	    5000	    400000 ns/op	    9000 B/op	     150 allocs/op
BenchmarkPluginCall-2        	    5000	    420000 ns/op	    9100 B/op	     151 allocs/op
BenchmarkPluginCall/size=1K  	    5000	    100.5 ns/op
BenchmarkHostRSS-2           	       1	   1000 ns/op	        18.5 rss-MB
PASS
ok  	github.com/godot-mcp/godot-mcp/host/pluginhost	5.000s
`

func TestParse(t *testing.T) {
	p, err := Parse(strings.NewReader(sample))
	if err != nil {
		t.Fatal(err)
	}
	if len(p.Failures) != 0 {
		t.Errorf("failures in a passing run: %q", p.Failures)
	}
	if p.CPU != "AMD EPYC 7B13" {
		t.Errorf("CPU = %q", p.CPU)
	}
	if len(p.Results) != 10 {
		t.Fatalf("got %d results, want 10: %+v", len(p.Results), p.Results)
	}
	first := p.Results[0]
	if first.Pkg != "github.com/godot-mcp/godot-mcp/host/bridge" || first.Name != "BridgeRoundTrip" || first.Procs != 2 || first.N != 20000 {
		t.Errorf("first result = %+v", first)
	}
	want := map[string]float64{"ns/op": 60000, "MB/s": 17.07, "B/op": 4000, "allocs/op": 50}
	for unit, v := range want {
		if first.Metrics[unit] != v {
			t.Errorf("first %s = %v, want %v", unit, first.Metrics[unit], v)
		}
	}
	sub := p.Results[8]
	if sub.Name != "PluginCall/size=1K" || sub.Procs != 1 || sub.Metrics["ns/op"] != 100.5 {
		t.Errorf("sub-benchmark without -N suffix = %+v", sub)
	}
}

func TestParseFailures(t *testing.T) {
	tests := []struct {
		name   string
		input  string
		want   string
		failed string
	}{
		{"failed benchmark", "pkg: x\n--- FAIL: BenchmarkX-2\n    x_test.go:10: boom\nFAIL\nexit status 1\nFAIL\tx\t0.1s\n", "--- FAIL: BenchmarkX-2", "X"},
		{"failed sub-benchmark", "--- FAIL: BenchmarkX/size=1K-2 (0.00s)\n", "--- FAIL: BenchmarkX/size=1K-2 (0.00s)", "X/size=1K"},
		{"build failure", "# x\n./x.go:1:1: syntax error\nFAIL\tx [build failed]\n", "FAIL\tx [build failed]", ""},
		{"panic", "pkg: x\npanic: runtime error: index out of range\n", "panic: runtime error: index out of range", ""},
		{"setup failure", "FAIL github.com/a/b [setup failed]\n", "FAIL github.com/a/b [setup failed]", ""},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			p, err := Parse(strings.NewReader(tc.input))
			if err != nil {
				t.Fatal(err)
			}
			if len(p.Failures) == 0 || p.Failures[0] != tc.want {
				t.Errorf("failures = %q, want first %q", p.Failures, tc.want)
			}
			if tc.failed != "" && (len(p.Failed) != 1 || p.Failed[0] != tc.failed) {
				t.Errorf("failed benchmarks = %q, want [%s]", p.Failed, tc.failed)
			}
		})
	}
}

func TestParseIgnoresNoise(t *testing.T) {
	noise := "BenchmarkOnlyAName\nBenchmark results follow\nBenchmarkX-2 notanumber 5 ns/op\nBenchmarkY-2 10 5 B/op\n    bench_test.go:1: log\n"
	p, err := Parse(strings.NewReader(noise))
	if err != nil {
		t.Fatal(err)
	}
	if len(p.Results) != 0 || len(p.Failures) != 0 {
		t.Errorf("noise parsed as %+v", p)
	}
}

func TestMedian(t *testing.T) {
	tests := []struct {
		in   []float64
		want float64
	}{
		{nil, 0},
		{[]float64{7}, 7},
		{[]float64{3, 1, 2}, 2},
		{[]float64{4, 1, 3, 2}, 2.5},
		{[]float64{5, 5, 1, 9, 100}, 5},
	}
	for _, tc := range tests {
		in := append([]float64(nil), tc.in...)
		if got := Median(tc.in); got != tc.want {
			t.Errorf("Median(%v) = %v, want %v", tc.in, got, tc.want)
		}
		for i := range in {
			if in[i] != tc.in[i] {
				t.Errorf("Median reordered its input: %v", tc.in)
			}
		}
	}
}

func TestSummariseAndRatio(t *testing.T) {
	p, err := Parse(strings.NewReader(sample))
	if err != nil {
		t.Fatal(err)
	}
	rows := Summarise(p.Results)
	names := make([]string, len(rows))
	for i, r := range rows {
		names[i] = r.Name
	}
	if got := strings.Join(names, ","); got != "BridgeRoundTrip,RawEcho,PluginCall,PluginCall/size=1K,HostRSS" {
		t.Fatalf("rows = %s", got)
	}
	rt, _ := find(rows, "", "BridgeRoundTrip")
	if rt.Runs != 3 || rt.Medians["ns/op"] != 60000 || rt.Medians["allocs/op"] != 50 || rt.Medians["B/op"] != 4000 {
		t.Errorf("BridgeRoundTrip = %+v", rt)
	}
	target := func(name string) Target {
		for _, tg := range Targets {
			if tg.Bench == name {
				return tg
			}
		}
		t.Fatalf("no target %s", name)
		return Target{}
	}

	// 60000 / 20000 = 3× the raw echo median.
	c := Evaluate(target("BridgeRoundTrip"), rows, rt)
	if !c.Measured || math.Abs(c.Value-3) > 1e-9 || !c.OK {
		t.Errorf("BridgeRoundTrip vs RawEcho = %+v, want ratio 3, ok", c)
	}
	// An even count: median of 400000 and 420000 is 410000 ns > 300 µs.
	pc, _ := find(rows, "", "PluginCall")
	c = Evaluate(target("PluginCall"), rows, pc)
	if !c.Measured || c.Value != 410000 || c.OK {
		t.Errorf("PluginCall = %+v, want 410000 ns, over target", c)
	}
	rss, _ := find(rows, "", "HostRSS")
	c = Evaluate(target("HostRSS"), rows, rss)
	if !c.Measured || c.Value != 18.5 || !c.OK {
		t.Errorf("HostRSS = %+v, want 18.5 rss-MB, ok", c)
	}
	// Without its baseline a ratio target is not measured.
	c = Evaluate(target("BridgeRoundTrip"), []Row{rt}, rt)
	if c.Measured || !strings.Contains(c.Missing, "RawEcho") {
		t.Errorf("without RawEcho: %+v", c)
	}
}

func TestReport(t *testing.T) {
	p, err := Parse(strings.NewReader(sample))
	if err != nil {
		t.Fatal(err)
	}
	m := Machine{Date: time.Date(2026, 11, 29, 12, 0, 0, 0, time.UTC), CPUs: 2, CPUModel: "AMD EPYC 7B13",
		GoVersion: "go1.26.8", OS: "linux", Arch: "amd64", Command: "go test -bench ."}
	var out bytes.Buffer
	Report(&out, m, Summarise(p.Results), []string{"Startup", "Startup", "Flaky/sub", "RawEcho"})
	got := out.String()
	for _, want := range []string{
		"- machine: AMD EPYC 7B13, 2 CPUs (nproc), linux/amd64\n",
		"- go: go1.26.8\n",
		"| BridgeRoundTrip | host/bridge | 3 | 60000 (60 µs) | 4000 | 50 | 17.07 MB/s | 3.00× RawEcho (target ≤ 20× RawEcho) | ok |\n",
		"| RawEcho | host/bridge | 3 | 20000 (20 µs) | 100 | 4 | 51.2 MB/s | baseline | — |\n",
		"| PluginCall | host/pluginhost | 2 | 410000 (410 µs) | 9050 | 150.5 | — | 410 µs (target ≤ 300 µs) | **over target** |\n",
		"| HostRSS | host/pluginhost | 1 | 1000 (1 µs) | — | — | 18.5 rss-MB | 18.5 rss-MB (target ≤ 25 rss-MB) | ok |\n",
		"| FullChain | — | — | — | — | — | — | ≤ 20× RawEcho | not yet measured |\n",
		"| Payload8MiB | — | — | — | — | — | — | ≤ 250 ms | not yet measured |\n",
		"| Startup | — | — | — | — | — | — | ≤ 50 ms | **failed** |\n",
		"| Flaky/sub | — | — | — | — | — | — | — | **failed** |\n",
	} {
		if !strings.Contains(got, want) {
			t.Errorf("report lacks %q\n%s", want, got)
		}
	}
	if n := strings.Count(got, "| Startup |"); n != 1 {
		t.Errorf("Startup has %d rows, want one (failed, not also unmeasured):\n%s", n, got)
	}
	if n := strings.Count(got, "\n|---"); n != 1 {
		t.Errorf("report has %d tables, want one:\n%s", n, got)
	}
}

func TestCPUModel(t *testing.T) {
	info := "processor\t: 0\nvendor_id\t: AuthenticAMD\nmodel name\t: AMD EPYC 7B13\nflags\t\t: fpu\n\nprocessor\t: 1\nmodel name\t: AMD EPYC 7B13\n"
	if got := cpuModel(info); got != "AMD EPYC 7B13" {
		t.Errorf("cpuModel = %q", got)
	}
	if got := cpuModel("processor : 0\n"); got != "" {
		t.Errorf("cpuModel without model name = %q", got)
	}
}
