package main

import (
	"bytes"
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
