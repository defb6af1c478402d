// Command testsummary reads `go test -json` on stdin, prints what plain
// `go test` prints (package results, and the output of failing tests and
// of failed builds), and ends with one line: how many packages and tests
// ran, which failed, and what was skipped and why. A package run more than
// once, each time on another engine (tools/e2erun: its TestMain prints
// "e2e: engine: LABEL PATH" first), is counted once per engine as
// "e2e on LABEL: X of Y ran". A package that ran no test and declared no
// skip fails, and so does a run in which no test passed. With -out FILE the same
// summary (without the "go test:" prefix) is also written to FILE, for
// `make test`'s last line. It exits 1 when anything failed.
//
//	go test -json ./... | go run ./tools/testsummary -out bin/.test-go-summary
package main

import (
	"bufio"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"os"
	"regexp"
	"sort"
	"strings"
)

// event is one line of `go test -json` (cmd/test2json).
type event struct {
	Action     string
	Package    string
	Test       string
	Output     string
	ImportPath string // build-output, build-fail
}

func main() {
	out := flag.String("out", "", "also write the summary to this file")
	flag.Parse()
	s := newSummary(os.Stdout)
	failed := s.read(os.Stdin)
	line := s.line()
	fmt.Println("go test: " + line)
	if *out != "" {
		if err := os.WriteFile(*out, []byte(line+"\n"), 0o644); err != nil {
			fmt.Fprintln(os.Stderr, "testsummary:", err)
			os.Exit(1)
		}
	}
	if failed {
		os.Exit(1)
	}
}

type skipKey struct{ pkg, why string }

type summary struct {
	w          io.Writer
	module     string
	buffers    map[string][]string // package/test → output, until its result
	packages   map[string]string   // package → pass, fail, skip (no test files)
	passed     int                 // tests (and subtests) that passed
	failures   []string            // package.Test
	buildFails []string
	skips      map[skipKey]int   // tests skipped, by package and reason
	suiteSkips map[string]string // package → why its whole suite skipped (its TestMain said "X: skipped: why")
	garbage    int               // lines that are not test2json events

	engine      map[string]string    // package → engine label of its current run
	engineOrder []string             // package@engine keys, in the order they ran
	tops        map[string]*topCount // package (or package@engine) → its top-level tests
	engineSkips []string             // "e2e: engine skipped: why" lines of tools/e2erun
	ranNone     []string             // packages that passed with no test run and no skip said
	noTests     map[string]bool      // packages whose test binary said it has no test to run (only benchmarks)
}

// topCount counts a package's top-level tests (subtests are not counted).
type topCount struct{ passed, failed, skipped int }

func newSummary(w io.Writer) *summary {
	return &summary{w: w, buffers: map[string][]string{}, packages: map[string]string{}, skips: map[skipKey]int{}, suiteSkips: map[string]string{},
		engine: map[string]string{}, tops: map[string]*topCount{}, noTests: map[string]bool{}}
}

// engineRE is the line the e2e TestMain prints before its tests run.
var engineRE = regexp.MustCompile(`^[\w./-]+: engine: (\S+)`)

// engineSkipRE is tools/e2erun's line for an engine it could not use.
var engineSkipRE = regexp.MustCompile(`^[\w./-]+: engine skipped: (.+)$`)

// key is the package as results are counted: with its engine when it runs
// on one.
func (s *summary) key(pkg string) string {
	if l := s.engine[pkg]; l != "" {
		return pkg + "@" + l
	}
	return pkg
}

func (s *summary) top(pkg string) *topCount {
	k := s.key(pkg)
	if s.tops[k] == nil {
		s.tops[k] = &topCount{}
	}
	return s.tops[k]
}

// suiteSkipRE is the line a TestMain prints when it skips its whole suite,
// e.g. "e2e: skipped: no Godot 4 binary found (set GODOT_BIN ...)".
var suiteSkipRE = regexp.MustCompile(`^[\w./ -]+: skipped: (.+)$`)

// fileLineRE is the "file_test.go:12: " prefix of a t.Log/t.Skip line.
var fileLineRE = regexp.MustCompile(`^\s*[\w.-]+\.go:\d+: `)

// read consumes the events and reports whether anything failed.
func (s *summary) read(r io.Reader) bool {
	sc := bufio.NewScanner(r)
	sc.Buffer(nil, 64<<20)
	for sc.Scan() {
		var e event
		if err := json.Unmarshal(sc.Bytes(), &e); err != nil || e.Action == "" {
			// Not an event (go itself failing before any test): show it.
			s.garbage++
			fmt.Fprintln(s.w, sc.Text())
			continue
		}
		s.event(e)
	}
	return len(s.failures) > 0 || len(s.buildFails) > 0 || s.garbage > 0 || s.count("fail") > 0 ||
		len(s.ranNone) > 0 || s.passed == 0
}

func (s *summary) event(e event) {
	switch e.Action {
	case "build-output":
		fmt.Fprint(s.w, e.Output)
		return
	case "build-fail":
		s.buildFails = append(s.buildFails, e.ImportPath)
		return
	}
	if e.Test == "" {
		switch e.Action {
		case "start":
			delete(s.engine, e.Package)
		case "output":
			// Lines plain go test does not print (it says "[no tests to run]").
			if e.Output == "testing: warning: no tests to run\n" {
				s.noTests[s.key(e.Package)] = true
				return
			}
			if e.Output == "PASS\n" {
				return
			}
			line := strings.TrimSpace(e.Output)
			if m := suiteSkipRE.FindStringSubmatch(line); m != nil {
				s.suiteSkips[s.key(e.Package)] = m[1]
			}
			if m := engineRE.FindStringSubmatch(line); m != nil {
				s.engine[e.Package] = m[1]
				s.engineOrder = append(s.engineOrder, s.key(e.Package))
			}
			if m := engineSkipRE.FindStringSubmatch(line); m != nil {
				s.engineSkips = append(s.engineSkips, m[1])
			}
			fmt.Fprint(s.w, e.Output)
		case "pass", "fail", "skip":
			k := s.key(e.Package)
			s.packages[k] = e.Action
			// A test binary that ran no test, said no skip and did not say it
			// has none (a TestMain that returned early) proves nothing.
			if c := s.tops[k]; e.Action == "pass" && (c == nil || c.passed+c.failed+c.skipped == 0) && s.suiteSkips[k] == "" && !s.noTests[k] {
				s.ranNone = append(s.ranNone, k)
			}
		}
		return
	}
	key := s.key(e.Package) + "\x00" + e.Test
	top := !strings.Contains(e.Test, "/")
	switch e.Action {
	case "output":
		s.buffers[key] = append(s.buffers[key], e.Output)
	case "pass":
		s.passed++
		if top {
			s.top(e.Package).passed++
		}
		delete(s.buffers, key)
	case "fail":
		s.failures = append(s.failures, s.key(e.Package)+"."+e.Test)
		if top {
			s.top(e.Package).failed++
		}
		for _, line := range s.buffers[key] {
			fmt.Fprint(s.w, line)
		}
		delete(s.buffers, key)
	case "skip":
		s.skips[skipKey{s.key(e.Package), skipReason(s.buffers[key])}]++
		if top {
			s.top(e.Package).skipped++
		}
		delete(s.buffers, key)
	}
}

// skipReason is what a skipped test said (t.Skip's message).
func skipReason(lines []string) string {
	var why []string
	for _, l := range lines {
		t := strings.TrimSpace(l)
		if t == "" || strings.HasPrefix(t, "=== ") || strings.HasPrefix(t, "--- SKIP") {
			continue
		}
		why = append(why, strings.TrimSpace(fileLineRE.ReplaceAllString(l, "")))
	}
	if len(why) == 0 {
		return "no reason given"
	}
	return strings.Join(why, " ")
}

func (s *summary) count(result string) int {
	n := 0
	for _, r := range s.packages {
		if r == result {
			n++
		}
	}
	return n
}

// short drops the module path shared by every package.
func (s *summary) short(pkg string) string {
	if s.module == "" {
		s.module = commonPrefix(s.packages)
	}
	if rest, ok := strings.CutPrefix(pkg, s.module); ok && rest != "" {
		return rest
	}
	return pkg
}

func commonPrefix(pkgs map[string]string) string {
	var names []string
	for p := range pkgs {
		names = append(names, p)
	}
	if len(names) < 2 {
		return ""
	}
	sort.Strings(names)
	a, b := names[0], names[len(names)-1]
	i := 0
	for i < len(a) && i < len(b) && a[i] == b[i] {
		i++
	}
	prefix := a[:i]
	if j := strings.LastIndex(prefix, "/"); j >= 0 {
		return prefix[:j+1]
	}
	return ""
}

// line is the one-line summary.
func (s *summary) line() string {
	s.module = commonPrefix(s.packages)
	var b strings.Builder
	fmt.Fprintf(&b, "%s passed (%s", plural(s.count("pass"), "package"), plural(s.passed, "test"))
	if n := s.count("skip"); n > 0 {
		fmt.Fprintf(&b, "; %s without tests", plural(n, "package"))
	}
	b.WriteString(")")
	for _, k := range s.engineOrder {
		c := s.tops[k]
		if c == nil {
			c = &topCount{}
		}
		pkg, label, _ := strings.Cut(k, "@")
		fmt.Fprintf(&b, "; %s on %s: %d of %d ran", s.short(pkg), label, c.passed+c.failed, c.passed+c.failed+c.skipped)
	}
	if len(s.engineSkips) > 0 {
		fmt.Fprintf(&b, "; engines skipped: %s", strings.Join(s.engineSkips, "; "))
	}
	if s.passed == 0 {
		b.WriteString("; FAILED: no test passed")
	}
	if len(s.ranNone) > 0 {
		short := make([]string, len(s.ranNone))
		for i, p := range s.ranNone {
			short[i] = s.short(p)
		}
		fmt.Fprintf(&b, "; FAILED: ran no test and said no skip: %s", strings.Join(short, ", "))
	}
	if n := s.count("fail"); n > 0 || len(s.failures) > 0 || len(s.buildFails) > 0 {
		fmt.Fprintf(&b, "; FAILED: %s", plural(n, "package"))
		if len(s.failures) > 0 {
			short := make([]string, len(s.failures))
			for i, f := range s.failures {
				short[i] = s.short(f)
			}
			fmt.Fprintf(&b, ", tests %s", strings.Join(short, ", "))
		}
		if len(s.buildFails) > 0 {
			fmt.Fprintf(&b, ", builds %s", strings.Join(s.buildFails, ", "))
		}
	}
	var skipped []string
	var suites []string
	for pkg := range s.suiteSkips {
		suites = append(suites, pkg)
	}
	sort.Strings(suites)
	for _, pkg := range suites {
		skipped = append(skipped, fmt.Sprintf("%s (whole suite: %s)", s.short(pkg), s.suiteSkips[pkg]))
	}
	keys := make([]skipKey, 0, len(s.skips))
	for k := range s.skips {
		keys = append(keys, k)
	}
	sort.Slice(keys, func(i, j int) bool {
		if keys[i].pkg != keys[j].pkg {
			return keys[i].pkg < keys[j].pkg
		}
		return keys[i].why < keys[j].why
	})
	for _, k := range keys {
		skipped = append(skipped, fmt.Sprintf("%s (%s: %s)", s.short(k.pkg), plural(s.skips[k], "test"), k.why))
	}
	if len(skipped) == 0 {
		b.WriteString("; nothing skipped")
	} else {
		b.WriteString("; skipped: " + strings.Join(skipped, "; "))
	}
	return b.String()
}

func plural(n int, noun string) string {
	if n == 1 {
		return "1 " + noun
	}
	return fmt.Sprintf("%d %ss", n, noun)
}
