// Command testsummary reads `go test -json` on stdin, prints what plain
// `go test` prints (package results, and the output of failing tests and
// of failed builds), and ends with one line: how many packages and tests
// ran, which failed, and what was skipped and why. With -out FILE the same
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
}

func newSummary(w io.Writer) *summary {
	return &summary{w: w, buffers: map[string][]string{}, packages: map[string]string{}, skips: map[skipKey]int{}, suiteSkips: map[string]string{}}
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
	return len(s.failures) > 0 || len(s.buildFails) > 0 || s.garbage > 0 || s.count("fail") > 0
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
		case "output":
			// Lines plain go test does not print (it says "[no tests to run]").
			if e.Output == "PASS\n" || e.Output == "testing: warning: no tests to run\n" {
				return
			}
			if m := suiteSkipRE.FindStringSubmatch(strings.TrimSpace(e.Output)); m != nil {
				s.suiteSkips[e.Package] = m[1]
			}
			fmt.Fprint(s.w, e.Output)
		case "pass", "fail", "skip":
			s.packages[e.Package] = e.Action
		}
		return
	}
	key := e.Package + "\x00" + e.Test
	switch e.Action {
	case "output":
		s.buffers[key] = append(s.buffers[key], e.Output)
	case "pass":
		s.passed++
		delete(s.buffers, key)
	case "fail":
		s.failures = append(s.failures, e.Package+"."+e.Test)
		for _, line := range s.buffers[key] {
			fmt.Fprint(s.w, line)
		}
		delete(s.buffers, key)
	case "skip":
		s.skips[skipKey{e.Package, skipReason(s.buffers[key])}]++
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
