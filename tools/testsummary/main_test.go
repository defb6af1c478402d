package main

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"
)

func TestSummaryLine(t *testing.T) {
	const m = "example.com/mod/"
	events := strings.Join([]string{
		`{"Action":"start","Package":"` + m + `a"}`,
		`{"Action":"run","Package":"` + m + `a","Test":"TestOK"}`,
		`{"Action":"output","Package":"` + m + `a","Test":"TestOK","Output":"=== RUN   TestOK\n"}`,
		`{"Action":"output","Package":"` + m + `a","Test":"TestOK","Output":"    a_test.go:3: quiet log of a passing test\n"}`,
		`{"Action":"pass","Package":"` + m + `a","Test":"TestOK"}`,
		`{"Action":"output","Package":"` + m + `a","Test":"TestNoNPM","Output":"=== RUN   TestNoNPM\n"}`,
		`{"Action":"output","Package":"` + m + `a","Test":"TestNoNPM","Output":"    a_test.go:9: npm not found\n"}`,
		`{"Action":"output","Package":"` + m + `a","Test":"TestNoNPM","Output":"--- SKIP: TestNoNPM (0.00s)\n"}`,
		`{"Action":"skip","Package":"` + m + `a","Test":"TestNoNPM"}`,
		`{"Action":"output","Package":"` + m + `a","Test":"TestNoNPM2","Output":"    a_test.go:9: npm not found\n"}`,
		`{"Action":"skip","Package":"` + m + `a","Test":"TestNoNPM2"}`,
		`{"Action":"output","Package":"` + m + `a","Output":"PASS\n"}`,
		`{"Action":"output","Package":"` + m + `a","Output":"testing: warning: no tests to run\n"}`,
		`{"Action":"output","Package":"` + m + `a","Output":"ok  \t` + m + `a\t0.1s\n"}`,
		`{"Action":"pass","Package":"` + m + `a"}`,
		`{"Action":"output","Package":"` + m + `e2e","Output":"e2e: skipped: no Godot 4 binary found\n"}`,
		`{"Action":"pass","Package":"` + m + `e2e"}`,
		`{"Action":"output","Package":"` + m + `b","Test":"TestBad","Output":"    b_test.go:5: want 1, got 2\n"}`,
		`{"Action":"fail","Package":"` + m + `b","Test":"TestBad"}`,
		`{"Action":"fail","Package":"` + m + `b"}`,
		`{"Action":"skip","Package":"` + m + `c"}`,
	}, "\n")
	var out bytes.Buffer
	s := newSummary(&out)
	if !s.read(strings.NewReader(events)) {
		t.Error("a failing test was not reported as a failure")
	}
	want := "2 packages passed (1 test; 1 package without tests); FAILED: 1 package, tests b.TestBad; " +
		"skipped: e2e (whole suite: no Godot 4 binary found); a (2 tests: npm not found)"
	if got := s.line(); got != want {
		t.Errorf("line:\n got %s\nwant %s", got, want)
	}
	printed := out.String()
	if !strings.Contains(printed, "want 1, got 2") || strings.Contains(printed, "quiet log") || strings.Contains(printed, "PASS\n") || strings.Contains(printed, "warning") ||
		!strings.Contains(printed, "ok  \t"+m+"a") || !strings.Contains(printed, "e2e: skipped") {
		t.Errorf("printed:\n%s", printed)
	}
}

func TestSummaryAllPassed(t *testing.T) {
	s := newSummary(&bytes.Buffer{})
	if s.read(strings.NewReader(`{"Action":"pass","Package":"x/a","Test":"T"}` + "\n" + `{"Action":"pass","Package":"x/a"}`)) {
		t.Error("reported a failure")
	}
	if got := s.line(); got != "1 package passed (1 test); nothing skipped" {
		t.Errorf("line: %s", got)
	}
	if !newSummary(&bytes.Buffer{}).read(strings.NewReader("go: downloading failed\n")) {
		t.Error("output that is no event (go failing before the tests) must fail the run")
	}
}

// ev is one test2json event line.
func ev(action, pkg, test, output string) string {
	b, _ := json.Marshal(event{Action: action, Package: pkg, Test: test, Output: output})
	return string(b)
}

func TestSummaryPerEngine(t *testing.T) {
	const e2e = "example.com/mod/e2e"
	var lines []string
	lines = append(lines, ev("output", e2e, "", "e2e: engine skipped: /x/godot (from GODOT_BINS) is not an executable Godot binary\n"))
	// The same package twice, on two engines: a failure on the second is
	// named with its engine, and each run is counted apart.
	for i, label := range []string{"4.4.1.stable", "4.8.dev"} {
		lines = append(lines,
			ev("start", e2e, "", ""),
			ev("output", e2e, "", "e2e: engine: "+label+" /opt/"+label+"/godot\n"),
			ev("pass", e2e, "TestA", ""),
			ev("pass", e2e, "TestA/sub", ""),
			ev("output", e2e, "TestB", "    b_test.go:1: no xvfb-run\n"),
			ev("skip", e2e, "TestB", ""))
		if i == 1 {
			lines = append(lines, ev("output", e2e, "TestC", "    c_test.go:9: differs on 4.8\n"), ev("fail", e2e, "TestC", ""), ev("fail", e2e, "", ""))
		} else {
			lines = append(lines, ev("pass", e2e, "TestC", ""), ev("pass", e2e, "", ""))
		}
	}
	lines = append(lines, ev("pass", "example.com/mod/a", "TestOK", ""), ev("pass", "example.com/mod/a", "", ""))
	var out bytes.Buffer
	s := newSummary(&out)
	if !s.read(strings.NewReader(strings.Join(lines, "\n"))) {
		t.Error("the failure on the second engine was not reported")
	}
	line := s.line()
	for _, want := range []string{
		"e2e on 4.4.1.stable: 2 of 3 ran",
		"e2e on 4.8.dev: 2 of 3 ran",
		"engines skipped: /x/godot (from GODOT_BINS) is not an executable Godot binary",
		"tests e2e@4.8.dev.TestC",
		"e2e@4.4.1.stable (1 test: no xvfb-run)",
		"e2e@4.8.dev (1 test: no xvfb-run)",
	} {
		if !strings.Contains(line, want) {
			t.Errorf("line lacks %q:\n%s", want, line)
		}
	}
	if strings.Contains(line, "e2e@4.4.1.stable.TestC") {
		t.Errorf("the pass on the first engine is named as a failure:\n%s", line)
	}
}

func TestSummaryRanNothing(t *testing.T) {
	// A package that passes without running a test or saying why fails; one
	// whose binary says it has no test (only benchmarks) does not.
	s := newSummary(&bytes.Buffer{})
	in := strings.Join([]string{
		ev("pass", "x/a", "TestOK", ""), ev("pass", "x/a", "", ""),
		ev("output", "x/quiet", "", "ok  \tx/quiet\t0.1s\n"), ev("pass", "x/quiet", "", ""),
		ev("output", "x/bench", "", "testing: warning: no tests to run\n"), ev("pass", "x/bench", "", ""),
	}, "\n")
	if !s.read(strings.NewReader(in)) {
		t.Error("a package that ran no test and said no skip passed")
	}
	if line := s.line(); !strings.Contains(line, "FAILED: ran no test and said no skip: quiet") || strings.Contains(line, "bench") {
		t.Errorf("line: %s", line)
	}
	// A run where every test skipped fails too.
	s = newSummary(&bytes.Buffer{})
	in = strings.Join([]string{
		ev("output", "x/a", "TestS", "    a_test.go:2: no npm\n"), ev("skip", "x/a", "TestS", ""), ev("pass", "x/a", "", ""),
	}, "\n")
	if !s.read(strings.NewReader(in)) {
		t.Error("a run in which no test passed was reported as passed")
	}
	if line := s.line(); !strings.Contains(line, "FAILED: no test passed") {
		t.Errorf("line: %s", line)
	}
}
