package tests

import (
	"encoding/xml"
	"path"
	"regexp"
	"strconv"
	"strings"

	"github.com/godot-mcp/godot-mcp/plugins/internal/godotproc"
)

// ---- the console, read while the run goes ----

type testKey struct{ suite, test string }

type seenTest struct {
	key    testKey
	status string // "" while running
	out    strings.Builder
	err    *godotproc.Error // a script error inside the test
}

// tracker follows a run's console output: which test runs, what it prints,
// which script errors (debugger breaks) happen in it, and how it ended.
type tracker struct {
	fw       string
	suite    string
	cur      *seenTest
	tests    []*seenTest
	byKey    map[testKey]*seenTest
	inBreak  *godotproc.Error
	finished bool // past the run summary
	maxOut   int
	onDone   func(t *seenTest)
	suites   map[string]string // gdUnit4: suite name -> res:// path as printed
}

func newTracker(fw string, maxOut int, onDone func(*seenTest)) *tracker {
	return &tracker{fw: fw, byKey: map[testKey]*seenTest{}, maxOut: maxOut, onDone: onDone, suites: map[string]string{}}
}

var (
	gutSuiteRE   = regexp.MustCompile(`^(res://\S+?\.gd(?:\.\w+)*)$`)
	gutTestRE    = regexp.MustCompile(`^\* (\w+)(?:\s.*)?$`)
	gutEndRE     = regexp.MustCompile(`^\d+/\d+ passed\.$`)
	gutStatusRE  = regexp.MustCompile(`^\s+\[(Failed|Pending|Risky|Passed|Orphans?|WARNING|ERROR|Error|Warning|INFO|Info|DEBUG)\]:`)
	gutAtLineRE  = regexp.MustCompile(`^\s+at line -?\d+\s*$`)
	gduEventRE   = regexp.MustCompile(`^\s*(res://\S+?\.gd) > (\S+?)(?::\d+.*?)?\s+(STARTED|PASSED|FAILED|ERROR|SKIPPED|FLAKY|ABORTED|TIMEOUT|WARNING)(?:\s+([\d.]+)\s*(ms|s|min)?)?\s*$`)
	breakRE      = regexp.MustCompile(`^Debugger Break, Reason: '(.*)'\s*$`)
	breakFrameRE = regexp.MustCompile(`^\*Frame \d+ - (.*):(\d+) in function '(.*)'\s*$`)
)

func (t *tracker) start(k testKey) {
	t.end("")
	st := t.byKey[k]
	if st == nil {
		st = &seenTest{key: k}
		t.byKey[k] = st
		t.tests = append(t.tests, st)
	}
	t.cur = st
}

// end finishes the running test (status "" keeps what it has).
func (t *tracker) end(status string) {
	if t.cur == nil {
		return
	}
	if status != "" {
		t.cur.status = status
	}
	if t.cur.status == "" {
		t.cur.status = "passed"
	}
	if t.onDone != nil {
		t.onDone(t.cur)
	}
	t.cur = nil
}

func (t *tracker) line(l string) {
	for strings.HasPrefix(l, "debug> ") {
		l = strings.TrimPrefix(l, "debug> ")
	}
	if m := breakRE.FindStringSubmatch(l); m != nil {
		t.inBreak = &godotproc.Error{Severity: "error", Message: m[1]}
		return
	}
	if m := breakFrameRE.FindStringSubmatch(l); m != nil {
		if t.inBreak != nil && t.cur != nil && t.cur.err == nil {
			n, _ := strconv.Atoi(m[2])
			t.inBreak.File, t.inBreak.Line, t.inBreak.Function = m[1], n, m[3]
			t.cur.err = t.inBreak
		}
		t.inBreak = nil
		return
	}
	if l == `Enter "help" for assistance.` || t.finished {
		return
	}
	switch t.fw {
	case GUT:
		if strings.Contains(l, "= Run Summary") {
			t.end("")
			t.finished = true
			return
		}
		if m := gutSuiteRE.FindStringSubmatch(l); m != nil {
			t.end("")
			t.suite = m[1]
			return
		}
		if m := gutTestRE.FindStringSubmatch(l); m != nil && t.suite != "" {
			t.start(testKey{t.suite, m[1]})
			return
		}
		if gutEndRE.MatchString(l) {
			t.end("")
			return
		}
		if m := gutStatusRE.FindStringSubmatch(l); m != nil {
			if t.cur != nil {
				switch m[1] {
				case "Failed":
					t.cur.status = "failed"
				case "Pending", "Risky":
					if t.cur.status == "" {
						t.cur.status = "pending"
					}
				}
			}
			return
		}
		if gutAtLineRE.MatchString(l) {
			return
		}
	case GdUnit4:
		if m := gduEventRE.FindStringSubmatch(l); m != nil {
			k := testKey{m[1], m[2]}
			t.suites[strings.TrimSuffix(path.Base(m[1]), ".gd")] = m[1]
			if m[3] == "STARTED" {
				t.start(k)
				return
			}
			if t.cur == nil || t.cur.key != k {
				t.start(k)
			}
			status := map[string]string{"PASSED": "passed", "FLAKY": "passed", "WARNING": "passed", "FAILED": "failed", "ERROR": "error", "ABORTED": "error", "TIMEOUT": "error", "SKIPPED": "skipped"}[m[3]]
			t.end(status)
			return
		}
		if strings.HasPrefix(l, "Statistics:") || strings.HasPrefix(l, "Overall Summary:") {
			t.end("")
			if strings.HasPrefix(l, "Overall Summary:") {
				t.finished = true
			}
			return
		}
	}
	if t.cur != nil && t.cur.status == "" {
		t.cur.out.WriteString(l)
		t.cur.out.WriteByte('\n')
		if over := t.cur.out.Len() - 4*t.maxOut - 1024; over > 0 && t.maxOut > 0 {
			s := t.cur.out.String()
			t.cur.out.Reset()
			t.cur.out.WriteString(s[len(s)-2*t.maxOut:])
		}
	}
}

// output is a test's captured output, its end kept.
func (t *tracker) output(st *seenTest) string {
	s := strings.TrimRight(st.out.String(), "\n")
	if t.maxOut == 0 {
		return ""
	}
	if len(s) > t.maxOut {
		s = "…" + strings.ToValidUTF8(s[len(s)-t.maxOut:], "")
	}
	return s
}

// ---- the JUnit XML reports ----

type junit struct {
	Suites []jsuite `xml:"testsuite"`
}

type jsuite struct {
	Name    string  `xml:"name,attr"`
	Package string  `xml:"package,attr"`
	Cases   []jcase `xml:"testcase"`
}

type jcase struct {
	Name      string `xml:"name,attr"`
	Classname string `xml:"classname,attr"`
	Time      string `xml:"time,attr"`
	Status    string `xml:"status,attr"`
	Failures  []jmsg `xml:"failure"`
	Errors    []jmsg `xml:"error"`
	Skipped   *jmsg  `xml:"skipped"`
}

type jmsg struct {
	Message string `xml:"message,attr"`
	Text    string `xml:",chardata"`
}

var (
	gutLineRE = regexp.MustCompile(`(?m)^\s*at line (-?\d+)\s*$`)
	gduLocRE  = regexp.MustCompile(`^(?:FAILED|ERROR|SKIPPED|WARNING|FLAKY|ABORTED|TIMEOUT)?:?\s*(res://\S+?):(\d+)\s*$`)
)

func parseJUnit(data []byte) (junit, error) {
	var j junit
	err := xml.Unmarshal(data, &j)
	return j, err
}

func ms(s string) float64 {
	f, _ := strconv.ParseFloat(strings.TrimSpace(s), 64)
	return float64(int64(f*1e6+0.5)) / 1e3
}

// gutResults maps GUT's report to results.
func gutResults(j junit) []ResultOut {
	var out []ResultOut
	for _, s := range j.Suites {
		suite := "res://" + strings.TrimPrefix(s.Name, "res://")
		file := suite
		if i := strings.Index(file, ".gd."); i >= 0 {
			file = file[:i+3]
		}
		for _, c := range s.Cases {
			r := ResultOut{Suite: suite, Test: c.Name, DurationMs: ms(c.Time)}
			switch {
			case len(c.Failures) > 0 || c.Status == "fail":
				r.Status = "failed"
				var msgs []string
				for _, f := range c.Failures {
					if m := gutLineRE.FindStringSubmatch(f.Text); m != nil && r.Line == 0 {
						if n, _ := strconv.Atoi(m[1]); n > 0 {
							r.File, r.Line = file, n
						}
					}
					msgs = append(msgs, strings.TrimSpace(gutLineRE.ReplaceAllString(f.Text, "")))
				}
				r.Message = strings.Join(msgs, "\n")
			case c.Status == "pending" || c.Skipped != nil:
				r.Status = "pending"
				if c.Skipped != nil {
					r.Message = strings.TrimSpace(c.Skipped.Text)
				}
			case c.Status == "no asserts":
				r.Status = "pending"
				r.Message = "did not assert (GUT counts it risky)"
			default:
				r.Status = "passed"
			}
			out = append(out, r)
		}
	}
	return out
}

// gdunitResults maps gdUnit4's report to results; paths maps a suite's
// name to its res:// path.
func gdunitResults(j junit, paths func(name, pkg string) string) []ResultOut {
	var out []ResultOut
	for _, s := range j.Suites {
		suite := paths(s.Name, s.Package)
		for _, c := range s.Cases {
			r := ResultOut{Suite: suite, Test: c.Name, DurationMs: ms(c.Time), Status: "passed"}
			var m *jmsg
			switch {
			case len(c.Errors) > 0:
				r.Status, m = "error", &c.Errors[0]
			case len(c.Failures) > 0:
				r.Status, m = "failed", &c.Failures[0]
			case c.Skipped != nil:
				r.Status, m = "skipped", c.Skipped
			}
			if m != nil {
				r.Message = strings.TrimSpace(m.Text)
				if loc := gduLocRE.FindStringSubmatch(strings.TrimSpace(m.Message)); loc != nil {
					r.File = loc[1]
					r.Line, _ = strconv.Atoi(loc[2])
				}
				if r.Message == "" {
					r.Message = m.Message
				}
			}
			out = append(out, r)
		}
	}
	return out
}
