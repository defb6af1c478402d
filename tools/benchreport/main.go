// Command benchreport turns `go test -bench -benchmem` output (read on
// stdin) into one markdown table: per benchmark the median ns/op, B/op and
// allocs/op over its runs, and for benchmarks with a declared target the
// ratio to their baseline (or the absolute bound) and a verdict. Targets
// whose benchmark did not run are listed as "not yet measured".
//
// It exits 1 when the input shows a failed benchmark or package (FAIL,
// panic, build failure) or holds no benchmark result at all, so `make bench`
// fails loudly instead of printing a partial table.
//
//	go test -run '^$' -bench . -benchmem -count 5 ./host/bridge | go run ./tools/benchreport
//
// tools/bench.sh runs it over every package that has benchmarks.
package main

import (
	"bufio"
	"flag"
	"fmt"
	"io"
	"os"
	"os/exec"
	"runtime"
	"sort"
	"strconv"
	"strings"
	"time"
)

// Target is a performance goal from the project's issue tracker, checked
// against the median of a benchmark.
type Target struct {
	// Bench is the benchmark name without "Benchmark" and the -GOMAXPROCS
	// suffix, e.g. "BridgeRoundTrip".
	Bench string
	// Metric is the unit compared; "" means "ns/op". A benchmark reports
	// other units with b.ReportMetric (e.g. "rss-MB").
	Metric string
	// Base names the baseline benchmark: Max is then a ratio of medians
	// (Bench / Base). Without Base, Max is an absolute bound in Metric.
	Base string
	// Max is the largest acceptable value (ratio or absolute).
	Max float64
	// What says what is measured, for the report.
	What string
}

// Targets are the declared goals (issue 8 "Benchmark report"). A benchmark
// that lands later under one of these names is checked automatically.
var Targets = []Target{
	{Bench: "BridgeRoundTrip", Base: "RawEcho", Max: 20, What: "bridge round trip (Send → fake addon → answer) vs a raw WebSocket echo"},
	{Bench: "FullChain", Base: "RawEcho", Max: 20, What: "full tool call MCP → host → plugin → bridge → fake addon vs a raw WebSocket echo"},
	{Bench: "PluginCall", Max: 300e3, What: "one proxied tool call through a plugin: host → plugin (gRPC) → HostServices.Send → plugin → host"},
	{Bench: "EnableToolset", Max: 50e6, What: "enable a toolset (plugin start to tools registered)"},
	{Bench: "Startup", Max: 50e6, What: "host start to the first tools/list answer"},
	{Bench: "StartupDefaultToolsets", Max: 50e6, What: "host start to the initialize answer with GODOT_MCP_DEFAULT_TOOLSETS=scene (enabled in the background)"},
	{Bench: "Payload8MiB", Max: 250e6, What: "8 MiB payload through the whole chain"},
	{Bench: "AttachedFullChain", Base: "FullChain", Max: 2, What: "FullChain through a second server attached to the owner (issue 15: what attaching costs per call)"},
	{Bench: "AttachedPayload8MiB", Base: "Payload8MiB", Max: 2.5, What: "Payload8MiB through a second server attached to the owner"},
	{Bench: "AnimationTrack200Editor", Base: "AnimationKey1Editor", Max: 10, What: "a 200-key track written in one godot_animation_edit_tracks call vs a 1-key call, real editor (issue 16)"},
	{Bench: "HostRSS", Metric: "rss-MB", Max: 25, What: "host resident memory (MB)"},
	{Bench: "PluginRSS", Metric: "rss-MB", Max: 25, What: "plugin resident memory (MB)"},
	{Bench: "PluginHop", Metric: "hop-µs", Max: 150, What: "what the plugin hop adds to a small call: toolset tool minus core tool, medians, full chain, alternating calls (issue 12); floor-µs is two bare grpc-go round trips measured alongside, the least any hop over gRPC costs"},
	{Bench: "Concurrent64", Metric: "slowdown-x", Max: 1.25, What: "64 concurrent callers: toolset tool's wall time over the core tool's for the same calls (1.25 = 80% of the core's throughput; issue 12); floor-slowdown-x is the same for the core call with two bare grpc-go round trips around it"},
	{Bench: "HostPluginRSS", Metric: "rss-MB", Max: 40, What: "host and its one enabled plugin together, resident memory after 1,000 calls (MB; issue 12)"},
	{Bench: "PlaytestEvalEditor", Base: "RuntimeGetNodeEditor", Metric: "p50-ms", Max: 1.5, What: "godot_playtest_eval of a one-line expression vs godot_runtime_get_node on the same node, medians, real editor and game (issue 22)"},
	{Bench: "PlaytestWatch600Editor", Metric: "x-game-time", Max: 1.2, What: "a 600-frame godot_playtest_watch of 3 values every frame: wall time over the game time it covered (issue 22)"},
	{Bench: "PlaytestStep60Editor", Metric: "x-free-ticks", Max: 2, What: "godot_playtest_step of 60 physics ticks frozen: wall time over the game time 60 ticks take free-running (issue 22)"},
	{Bench: "ToolsList/all", Metric: "list-KB", Max: 90, What: "tools/list with every built-in toolset enabled (issue 28.3 target; not met: see docs/performance.md)"},
	{Bench: "ToolsList/profile-2d", Metric: "list-KB", Max: 40, What: "tools/list with the 2d profile (issue 28.3 target; not met: see docs/performance.md)"},
	{Bench: "ToolsList/profile-minimal", Metric: "list-KB", Max: 34, What: "tools/list with the minimal profile (held by TestToolsListBudget)"},
	{Bench: "ToolsList/profile-3d", Metric: "list-KB", Max: 87, What: "tools/list with the 3d profile (held by TestToolsListBudget)"},
	{Bench: "ToolsList/profile-world3d", Metric: "list-KB", Max: 80, What: "tools/list with the world3d profile (held by TestToolsListBudget)"},
	{Bench: "ToolsList/profile-playtest", Metric: "list-KB", Max: 54, What: "tools/list with the playtest profile (held by TestToolsListBudget)"},
	{Bench: "ToolsList/firstwave", Metric: "list-KB", Max: 90, What: "tools/list with scene, scripts, resources, project and runtime enabled (KB = 1000 bytes; issue 15 context budget)"},
	{Bench: "ToolsList/animation", Metric: "own-KB", Max: 16, What: "what the animation toolset adds to tools/list (each toolset since issue 15: ≤ 16 KB)"},
	{Bench: "ToolsList/tilemap", Metric: "own-KB", Max: 16, What: "what the tilemap toolset adds to tools/list"},
	{Bench: "ToolsList/debugger", Metric: "own-KB", Max: 16, What: "what the debugger toolset adds to tools/list"},
	{Bench: "ToolsList/tests", Metric: "own-KB", Max: 16, What: "what the tests toolset adds to tools/list"},
	{Bench: "ToolsList/diagnostics", Metric: "own-KB", Max: 16, What: "what the diagnostics toolset adds to tools/list"},
	{Bench: "ToolsList/shader", Metric: "own-KB", Max: 16, What: "what the shader toolset adds to tools/list"},
	{Bench: "ToolsList/ui", Metric: "own-KB", Max: 16, What: "what the ui toolset adds to tools/list"},
	{Bench: "ToolsList/playtest", Metric: "own-KB", Max: 16, What: "what the playtest toolset adds to tools/list"},
	{Bench: "ToolsList/audio", Metric: "own-KB", Max: 16, What: "what the audio toolset adds to tools/list"},
	{Bench: "ToolsList/analysis", Metric: "own-KB", Max: 16, What: "what the analysis toolset adds to tools/list"},
	{Bench: "ToolsList/assets", Metric: "own-KB", Max: 16, What: "what the assets toolset adds to tools/list"},
	{Bench: "ToolsList/material", Metric: "own-KB", Max: 16, What: "what the material toolset adds to tools/list"},
	{Bench: "ToolsList/physics", Metric: "own-KB", Max: 16, What: "what the physics toolset adds to tools/list"},
	{Bench: "ToolsList/particles", Metric: "own-KB", Max: 16, What: "what the particles toolset adds to tools/list"},
	{Bench: "ToolsList/world", Metric: "own-KB", Max: 16, What: "what the world toolset adds to tools/list"},
	{Bench: "ToolsList/navigation", Metric: "own-KB", Max: 16, What: "what the navigation toolset adds to tools/list"},
	{Bench: "ToolsList/visual_shader", Metric: "own-KB", Max: 16, What: "what the visual_shader toolset adds to tools/list"},
	{Bench: "ToolsList/core", Metric: "list-KB", Max: 8, What: "tools/list with only the core tools (KB = 1000 bytes)"},
	{Bench: "EnableAll", Base: "EnableOne", Max: 2, What: "godot_enable_toolset {\"name\":\"all\"} vs enabling one toolset, fake editor connected (issue 25: processes follow use; editor code is installed, no plugin starts)"},
	{Bench: "IdleRestartCall", Max: 300e6, What: "a call to a toolset whose plugin was stopped for idleness (GODOT_MCP_TOOLSET_IDLE): the call starts it again (issue 25: ≤ 300 ms)"},
	{Bench: "PSSAllEnabledThreeUsed", Metric: "pss-x", Max: 1.5, What: "proportional memory (host and plugins) with every toolset enabled and 3 in use over the host with those 3 alone (issue 25); all-pss-MB and three-pss-MB are the two totals"},
	{Bench: "PluginHop", Metric: "hop-over-floor-x", Max: 1.4, What: "the plugin hop over the gRPC floor measured in the same run (issue 25 restates issue 12's hop target as this ratio)"},
	{Bench: "Analysis10000Editor", Base: "ResourcesList10000Editor", Max: 3, What: "godot_analysis_unused_files + _cycles + _signals of a generated 10,000-file project by a freshly started toolset vs one godot_resources_list walk of it in a real editor (issue 26)"},
	{Bench: "TilemapPaint10000Editor", Base: "TilemapPaint1Editor", Max: 100, What: "10,000 tilemap cells in one godot_tilemap_paint call vs a one-cell call, real editor (issue 16: at most what 100 one-cell calls cost)"},
}

// Result is one benchmark line.
type Result struct {
	Pkg   string
	Name  string // without "Benchmark" and the -N suffix
	Procs int    // the -N suffix (GOMAXPROCS), 1 when absent
	N     int64  // iterations
	// Metrics by unit: "ns/op", "B/op", "allocs/op", "MB/s", custom units.
	Metrics map[string]float64
}

// Parsed is everything read from the input.
type Parsed struct {
	Results  []Result
	CPU      string   // from the "cpu:" header, when present
	Failures []string // lines that show a failure
	Failed   []string // benchmarks reported "--- FAIL", names as in Result.Name
}

// Parse reads `go test -bench` output. Lines it does not understand are
// ignored; failure lines are collected.
func Parse(r io.Reader) (Parsed, error) {
	var p Parsed
	pkg := ""
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 64<<10), 4<<20)
	for sc.Scan() {
		line := sc.Text()
		trimmed := strings.TrimSpace(line)
		switch {
		case strings.HasPrefix(line, "pkg: "):
			pkg = strings.TrimSpace(strings.TrimPrefix(line, "pkg: "))
		case strings.HasPrefix(line, "cpu: "):
			p.CPU = strings.TrimSpace(strings.TrimPrefix(line, "cpu: "))
		case isFailure(trimmed):
			p.Failures = append(p.Failures, trimmed)
			if rest, ok := strings.CutPrefix(trimmed, "--- FAIL: Benchmark"); ok {
				name, _ := splitProcs(strings.Fields(rest + " ")[0])
				p.Failed = append(p.Failed, name)
			}
		case strings.HasPrefix(line, "Benchmark"):
			if res, ok := parseResult(line); ok {
				res.Pkg = pkg
				p.Results = append(p.Results, res)
			}
		}
	}
	return p, sc.Err()
}

func isFailure(line string) bool {
	return strings.HasPrefix(line, "--- FAIL") ||
		line == "FAIL" ||
		strings.HasPrefix(line, "FAIL\t") || strings.HasPrefix(line, "FAIL ") ||
		strings.HasPrefix(line, "panic: ") ||
		strings.HasPrefix(line, "fatal error: ")
}

// parseResult parses "BenchmarkName-8  1000  1234 ns/op  56 B/op  7 allocs/op".
func parseResult(line string) (Result, bool) {
	f := strings.Fields(line)
	if len(f) < 4 || len(f)%2 != 0 {
		return Result{}, false
	}
	n, err := strconv.ParseInt(f[1], 10, 64)
	if err != nil {
		return Result{}, false
	}
	name, procs := splitProcs(strings.TrimPrefix(f[0], "Benchmark"))
	if name == "" {
		return Result{}, false
	}
	res := Result{Name: name, Procs: procs, N: n, Metrics: map[string]float64{}}
	for i := 2; i+1 < len(f); i += 2 {
		v, err := strconv.ParseFloat(f[i], 64)
		if err != nil {
			return Result{}, false
		}
		res.Metrics[f[i+1]] = v
	}
	if _, ok := res.Metrics["ns/op"]; !ok {
		return Result{}, false
	}
	return res, true
}

// splitProcs strips the -GOMAXPROCS suffix the testing package appends.
func splitProcs(name string) (string, int) {
	i := strings.LastIndexByte(name, '-')
	if i <= 0 {
		return name, 1
	}
	procs, err := strconv.Atoi(name[i+1:])
	if err != nil || procs <= 0 {
		return name, 1
	}
	return name[:i], procs
}

// Median returns the median of xs (the mean of the middle two for an even
// count); NaN-free input assumed. It does not modify xs.
func Median(xs []float64) float64 {
	if len(xs) == 0 {
		return 0
	}
	s := append([]float64(nil), xs...)
	sort.Float64s(s)
	m := len(s) / 2
	if len(s)%2 == 1 {
		return s[m]
	}
	return (s[m-1] + s[m]) / 2
}

// Row is one benchmark summarised over its runs.
type Row struct {
	Pkg     string
	Name    string
	Runs    int
	Medians map[string]float64 // by unit
}

// Summarise groups results by package and name (in first-seen order) and
// takes the median of every metric.
func Summarise(results []Result) []Row {
	type key struct{ pkg, name string }
	var order []key
	samples := map[key]map[string][]float64{}
	runs := map[key]int{}
	for _, r := range results {
		k := key{r.Pkg, r.Name}
		if samples[k] == nil {
			samples[k] = map[string][]float64{}
			order = append(order, k)
		}
		runs[k]++
		for unit, v := range r.Metrics {
			samples[k][unit] = append(samples[k][unit], v)
		}
	}
	rows := make([]Row, 0, len(order))
	for _, k := range order {
		row := Row{Pkg: k.pkg, Name: k.name, Runs: runs[k], Medians: map[string]float64{}}
		for unit, xs := range samples[k] {
			row.Medians[unit] = Median(xs)
		}
		rows = append(rows, row)
	}
	return rows
}

// find returns the row named name, preferring one in pkg.
func find(rows []Row, pkg, name string) (Row, bool) {
	var found Row
	ok := false
	for _, r := range rows {
		if r.Name != name {
			continue
		}
		if r.Pkg == pkg {
			return r, true
		}
		if !ok {
			found, ok = r, true
		}
	}
	return found, ok
}

// Check is a target evaluated against the rows.
type Check struct {
	Target   Target
	Measured bool    // the benchmark (and its baseline, if any) ran
	Value    float64 // ratio or absolute value
	OK       bool
	Missing  string // why it is not measured, when not
}

// Evaluate checks t against rows; row is the target's benchmark.
func Evaluate(t Target, rows []Row, row Row) Check {
	metric := t.Metric
	if metric == "" {
		metric = "ns/op"
	}
	c := Check{Target: t, Missing: "not yet measured"}
	v, ok := row.Medians[metric]
	if !ok {
		c.Missing = "no " + metric + " reported"
		return c
	}
	if t.Base != "" {
		base, ok := find(rows, row.Pkg, t.Base)
		if !ok || base.Medians[metric] == 0 {
			c.Missing = "baseline " + t.Base + " did not run"
			return c
		}
		v /= base.Medians[metric]
	}
	c.Measured, c.Value, c.OK = true, v, v <= t.Max
	return c
}

// Machine describes where the figures were taken.
type Machine struct {
	Date      time.Time
	CPUs      int
	CPUModel  string
	GoVersion string
	OS, Arch  string
	Command   string
}

// LocalMachine reads the CPU model from /proc/cpuinfo (falling back to the
// go test "cpu:" header) and the go version from `go version`.
func LocalMachine(cpuHeader, command string) Machine {
	m := Machine{Date: time.Now().UTC(), CPUs: runtime.NumCPU(), OS: runtime.GOOS, Arch: runtime.GOARCH, Command: command}
	if data, err := os.ReadFile("/proc/cpuinfo"); err == nil {
		m.CPUModel = cpuModel(string(data))
	}
	if m.CPUModel == "" {
		m.CPUModel = cpuHeader
	}
	m.GoVersion = runtime.Version()
	if out, err := exec.Command("go", "env", "GOVERSION").Output(); err == nil && len(strings.TrimSpace(string(out))) > 0 {
		m.GoVersion = strings.TrimSpace(string(out))
	}
	return m
}

// cpuModel returns the first "model name" of /proc/cpuinfo.
func cpuModel(cpuinfo string) string {
	for _, line := range strings.Split(cpuinfo, "\n") {
		k, v, ok := strings.Cut(line, ":")
		if ok && strings.TrimSpace(k) == "model name" {
			return strings.TrimSpace(v)
		}
	}
	return ""
}

// Report renders the machine header and the table. failed names
// benchmarks that failed (they get a row of their own).
func Report(w io.Writer, m Machine, rows []Row, failed []string) {
	fmt.Fprintf(w, "Benchmarks, %s\n\n", m.Date.Format("2006-01-02 15:04 MST"))
	fmt.Fprintf(w, "- machine: %s, %d CPUs (nproc), %s/%s\n", orDash(m.CPUModel), m.CPUs, m.OS, m.Arch)
	fmt.Fprintf(w, "- go: %s\n", m.GoVersion)
	if m.Command != "" {
		fmt.Fprintf(w, "- command: `%s`\n", m.Command)
	}
	fmt.Fprintln(w)
	fmt.Fprintln(w, "| benchmark | package | runs | median ns/op | median B/op | median allocs/op | other | vs target | verdict |")
	fmt.Fprintln(w, "|---|---|--:|--:|--:|--:|---|---|---|")

	targets := map[string]Target{}
	for _, t := range Targets {
		targets[t.Bench] = t
	}
	for _, r := range rows {
		cmp, verdict := "", ""
		if t, ok := targets[r.Name]; ok {
			cmp, verdict = describe(Evaluate(t, rows, r))
		}
		if cmp == "" && isBaseline(r.Name) {
			cmp, verdict = "baseline", ""
		}
		fmt.Fprintf(w, "| %s | %s | %d | %s | %s | %s | %s | %s | %s |\n",
			r.Name, shortPkg(r.Pkg), r.Runs, formatNs(r.Medians["ns/op"]), formatCount(r.Medians, "B/op"),
			formatCount(r.Medians, "allocs/op"), orDash(others(r.Medians)), orDash(cmp), orDash(verdict))
	}
	failedSet := map[string]bool{}
	for _, name := range failed {
		if _, ok := find(rows, "", name); ok || failedSet[name] {
			continue
		}
		failedSet[name] = true
		cmp := "—"
		if t, ok := targets[name]; ok {
			cmp = bound(t)
		}
		fmt.Fprintf(w, "| %s | — | — | — | — | — | — | %s | **failed** |\n", name, cmp)
	}
	for _, t := range Targets {
		if _, ok := find(rows, "", t.Bench); ok || failedSet[t.Bench] {
			continue
		}
		fmt.Fprintf(w, "| %s | — | — | — | — | — | — | %s | not yet measured |\n", t.Bench, bound(t))
	}
}

func isBaseline(name string) bool {
	for _, t := range Targets {
		if t.Base == name {
			return true
		}
	}
	return false
}

// describe renders a check: "3.1× RawEcho (target ≤ 20×)", verdict.
func describe(c Check) (string, string) {
	t := c.Target
	if !c.Measured {
		return bound(t), c.Missing
	}
	verdict := "ok"
	if !c.OK {
		verdict = "**over target**"
	}
	if t.Base != "" {
		return fmt.Sprintf("%.2f× %s (target %s)", c.Value, t.Base, bound(t)), verdict
	}
	return fmt.Sprintf("%s (target %s)", formatValue(c.Value, t.Metric), bound(t)), verdict
}

// bound renders a target's limit: "≤ 20× RawEcho", "≤ 300 µs", "≤ 25 rss-MB".
func bound(t Target) string {
	if t.Base != "" {
		return fmt.Sprintf("≤ %g× %s", t.Max, t.Base)
	}
	return "≤ " + formatValue(t.Max, t.Metric)
}

func formatValue(v float64, metric string) string {
	if metric == "" || metric == "ns/op" {
		return human(v)
	}
	return fmt.Sprintf("%.3g %s", v, metric)
}

// human renders nanoseconds with a readable unit.
func human(ns float64) string {
	switch {
	case ns >= 1e9:
		return fmt.Sprintf("%.3g s", ns/1e9)
	case ns >= 1e6:
		return fmt.Sprintf("%.3g ms", ns/1e6)
	case ns >= 1e3:
		return fmt.Sprintf("%.3g µs", ns/1e3)
	default:
		return fmt.Sprintf("%.3g ns", ns)
	}
}

func formatNs(ns float64) string {
	return fmt.Sprintf("%s (%s)", strconv.FormatFloat(ns, 'f', -1, 64), human(ns))
}

func formatCount(m map[string]float64, unit string) string {
	v, ok := m[unit]
	if !ok {
		return "—"
	}
	return strconv.FormatFloat(v, 'f', -1, 64)
}

// others lists the medians of units beyond ns, B and allocs (MB/s, custom).
func others(m map[string]float64) string {
	var units []string
	for u := range m {
		switch u {
		case "ns/op", "B/op", "allocs/op":
		default:
			units = append(units, u)
		}
	}
	sort.Strings(units)
	parts := make([]string, len(units))
	for i, u := range units {
		parts[i] = fmt.Sprintf("%.4g %s", m[u], u)
	}
	return strings.Join(parts, ", ")
}

func shortPkg(pkg string) string {
	const module = "github.com/godot-mcp/godot-mcp/"
	return strings.TrimPrefix(pkg, module)
}

func orDash(s string) string {
	if s == "" {
		return "—"
	}
	return s
}

func main() {
	command := flag.String("cmd", "", "the go test command line, printed in the header")
	flag.Parse()
	p, err := Parse(os.Stdin)
	if err != nil {
		fmt.Fprintln(os.Stderr, "benchreport: reading input:", err)
		os.Exit(1)
	}
	rows := Summarise(p.Results)
	Report(os.Stdout, LocalMachine(p.CPU, *command), rows, p.Failed)
	if len(p.Failures) > 0 {
		fmt.Fprintln(os.Stderr, "benchreport: benchmarks failed:")
		for _, f := range p.Failures {
			fmt.Fprintln(os.Stderr, "  "+f)
		}
		os.Exit(1)
	}
	if len(rows) == 0 {
		fmt.Fprintln(os.Stderr, "benchreport: the input holds no benchmark result")
		os.Exit(1)
	}
}
