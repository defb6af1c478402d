package tests

import (
	"context"
	"fmt"
	"github.com/godot-mcp/godot-mcp/plugins/internal/suggest"
	"os"
	"path"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"time"

	"github.com/godot-mcp/godot-mcp/plugins/internal/godotproc"
	"github.com/godot-mcp/godot-mcp/plugins/internal/respath"
	"github.com/godot-mcp/godot-mcp/sdk"
)

func detectTool(ctx context.Context, call *sdk.Call, in DetectIn) (DetectOut, error) {
	dir, err := godotproc.ProjectDir(ctx, call, in.ProjectDir, "the tests toolset")
	if err != nil {
		return DetectOut{}, err
	}
	out := DetectOut{Frameworks: detect(dir), ProjectDir: dir}
	if len(out.Frameworks) == 0 {
		out.Install = installHint
	}
	return out, nil
}

// resPath checks a res:// path argument that must exist and returns it cleaned, with its file.
func resPath(dir, p string) (string, string, error) {
	clean, err := respath.Clean(p)
	if err != nil {
		return "", "", sdk.Validation("path: " + sdk.AsError(err).Hint)
	}
	file := filepath.Join(dir, filepath.FromSlash(strings.TrimPrefix(clean, "res://")))
	if err := respath.Inside(dir, file, clean); err != nil {
		return "", "", err
	}
	if _, err := os.Stat(file); err != nil {
		return "", "", sdk.NotFound(fmt.Sprintf("%s does not exist in the project %s", clean, dir))
	}
	return strings.TrimSuffix(clean, "/"), file, nil
}

func list(ctx context.Context, call *sdk.Call, in ListIn) (ListOut, error) {
	dir, err := godotproc.ProjectDir(ctx, call, in.ProjectDir, "the tests toolset")
	if err != nil {
		return ListOut{}, err
	}
	under := ""
	if in.Path != "" {
		if under, _, err = resPath(dir, in.Path); err != nil {
			return ListOut{}, err
		}
	}
	suites, err := discover(dir, in.Framework, under)
	if err != nil {
		return ListOut{}, sdk.Internal(fmt.Sprintf("reading the project failed: %v", err))
	}
	out := ListOut{Frameworks: detect(dir), Suites: suites}
	if out.Suites == nil {
		out.Suites = []SuiteOut{}
	}
	for _, s := range suites {
		out.Tests += len(s.Tests)
	}
	if len(out.Frameworks) == 0 {
		out.Install = installHint
	}
	return out, nil
}

// chooseFramework picks the framework to run.
func chooseFramework(dir, want string) (FrameworkOut, error) {
	fws := detect(dir)
	if len(fws) == 0 {
		return FrameworkOut{}, sdk.PreconditionFailed("", "the project has no test framework. "+installHint)
	}
	if want == "" {
		if len(fws) > 1 {
			return FrameworkOut{}, sdk.Validation("the project has both GUT and gdUnit4: pass framework: \"gut\" or \"gdunit4\"")
		}
		return fws[0], nil
	}
	for _, f := range fws {
		if f.Name == want {
			return f, nil
		}
	}
	info, _ := frameworkByName(want)
	return FrameworkOut{}, sdk.PreconditionFailed("", fmt.Sprintf("%s is not installed (no res://%s/plugin.cfg); the project has %s. %s", want, info.addonDir, fws[0].Name, installHint))
}

func run(ctx context.Context, call *sdk.Call, in RunIn) (RunOut, error) {
	if in.Test != "" && in.Path == "" {
		return RunOut{}, sdk.Validation("test needs path: the res:// script that has it")
	}
	if in.TimeoutMs == 0 {
		in.TimeoutMs = 120000
	}
	maxOut := 4000
	if in.OutputPerTest != nil {
		maxOut = *in.OutputPerTest
	}
	dir, err := godotproc.ProjectDir(ctx, call, in.ProjectDir, "the tests toolset")
	if err != nil {
		return RunOut{}, err
	}
	fw, err := chooseFramework(dir, in.Framework)
	if err != nil {
		return RunOut{}, err
	}
	under := ""
	if in.Path != "" {
		p, file, err := resPath(dir, in.Path)
		if err != nil {
			return RunOut{}, err
		}
		st, _ := os.Stat(file)
		if in.Test != "" && (st.IsDir() || !strings.HasSuffix(p, ".gd")) {
			return RunOut{}, sdk.Validation(fmt.Sprintf("test needs path to be a test script (.gd), not %s", p))
		}
		under = p
	}
	suites, err := discover(dir, fw.Name, under)
	if err != nil {
		return RunOut{}, sdk.Internal(fmt.Sprintf("reading the project failed: %v", err))
	}
	if len(suites) == 0 {
		where := "the project"
		if under != "" {
			where = under
		}
		info, _ := frameworkByName(fw.Name)
		return RunOut{}, sdk.NotFound(fmt.Sprintf("no %s test suites in %s: a suite is a script that extends %s with func test_*() methods (godot_tests_list shows what is found)", fw.Name, where, info.base))
	}
	var inner, test string
	if in.Test != "" {
		inner, test = "", in.Test
		if i := strings.LastIndex(in.Test, "."); i >= 0 {
			inner, test = in.Test[:i], in.Test[i+1:]
		}
		var names []string
		found := false
		for _, s := range suites {
			for _, t := range s.Tests {
				full := t.Name
				if s.InnerClass != "" {
					full = s.InnerClass + "." + t.Name
				}
				names = append(names, full)
				found = found || (s.InnerClass == inner && t.Name == test)
			}
		}
		if !found {
			return RunOut{}, sdk.NotFound(fmt.Sprintf("%s has no test %q%s; its tests: %s", under, in.Test, didYouMean(in.Test, names), strings.Join(names, ", ")))
		}
	}
	godot, err := godotproc.FindGodot(ctx, call)
	if err != nil {
		return RunOut{}, err
	}
	deadline := time.Now().Add(time.Duration(in.TimeoutMs) * time.Millisecond)
	if !fw.Registered {
		// The command-line runners need the project's class cache.
		imp, err := godotproc.Run(ctx, godotproc.Options{Godot: godot, Dir: dir, Args: []string{"--headless", "--path", dir, "--import"}, Timeout: time.Until(deadline)})
		if err != nil {
			return RunOut{}, err
		}
		if imp.TimedOut {
			return RunOut{}, sdk.Timeout(fmt.Sprintf("importing the project (to register %s's classes) took longer than timeout_ms; open it in the editor once or raise timeout_ms", fw.Name))
		}
	}
	tmp, err := os.MkdirTemp("", "godot-mcp-tests-")
	if err != nil {
		return RunOut{}, sdk.Internal(err.Error())
	}
	defer os.RemoveAll(tmp)

	total := 0
	for _, s := range suites {
		if inner != "" && s.InnerClass != inner {
			continue
		}
		total += len(s.Tests)
	}
	if in.Test != "" {
		total = 1
	}
	done := 0
	tr := newTracker(fw.Name, maxOut, func(st *seenTest) {
		done++
		if call.Host != nil {
			call.Host.Progress(ctx, float64(done), float64(max(total, done)), fmt.Sprintf("%s > %s %s", st.key.suite, st.key.test, progressStatus(st)))
		}
	})

	args := []string{"--headless", "-d", "--path", dir}
	var report string
	var reportDir string
	switch fw.Name {
	case GUT:
		report = filepath.Join(tmp, "junit.xml")
		var files []string
		for _, s := range suites {
			if !slices.Contains(files, s.File) {
				files = append(files, s.File)
			}
		}
		args = append(args, "-s", "res://addons/gut/gut_cmdln.gd", "-gconfig=", "-gexit", "-gdisable_colors",
			"-gtest="+strings.Join(files, ","), "-gjunit_xml_file="+report)
		if inner != "" {
			args = append(args, "-ginner_class="+inner)
		}
		if test != "" {
			args = append(args, "-gunit_test_name="+test)
		}
	case GdUnit4:
		name := fmt.Sprintf("gdunit4-%d-%d", os.Getpid(), time.Now().UnixNano())
		reportDir = filepath.Join(dir, ".godot", "godot-mcp", name)
		defer func() { _ = os.RemoveAll(reportDir); _ = os.Remove(filepath.Dir(reportDir)) }()
		args = append(args, "-s", "res://addons/gdUnit4/bin/GdUnitCmdTool.gd", "--ignoreHeadlessMode", "-rd", "res://.godot/godot-mcp/"+name)
		for _, s := range suites {
			args = append(args, "-a", s.File)
		}
		if test != "" {
			for _, t := range suites[0].Tests {
				if t.Name != test {
					args = append(args, "-i", suites[0].File+":"+t.Name)
				}
			}
		}
	}
	res, err := godotproc.Run(ctx, godotproc.Options{Godot: godot, Dir: dir, Args: args, Timeout: time.Until(deadline), MaxOutput: 256 << 10, OnLine: tr.line, Stdin: godotproc.Continue()})
	if err != nil {
		return RunOut{}, err
	}
	out := RunOut{Framework: fw.Name, TimedOut: res.TimedOut, ExitCode: res.ExitCode, DurationMs: res.Duration.Milliseconds(), Command: res.Command}
	if fw.Name == GUT {
		if data, err := os.ReadFile(report); err == nil {
			if j, err := parseJUnit(data); err == nil {
				out.Results = gutResults(j)
			}
		}
	} else if matches, _ := filepath.Glob(filepath.Join(reportDir, "report_*", "results.xml")); len(matches) > 0 {
		if data, err := os.ReadFile(matches[0]); err == nil {
			if j, err := parseJUnit(data); err == nil {
				out.Results = gdunitResults(j, func(name, pkg string) string {
					if p, ok := tr.suites[name]; ok {
						return p
					}
					for _, s := range suites {
						if strings.TrimSuffix(path.Base(s.File), ".gd") == name {
							return s.File
						}
					}
					return "res://" + strings.ReplaceAll(pkg, ".", "/") + "/" + name + ".gd"
				})
			}
		}
	}
	merge(&out, tr, res)
	if !out.TimedOut {
		notRun(&out, suites, inner, test)
	}
	if fw.Name == GUT {
		guessLines(&out, dir, suites)
	}
	if test != "" { // the frameworks match names by substring: keep the one asked for
		kept := out.Results[:0]
		for _, r := range out.Results {
			suiteInner := ""
			if i := strings.Index(r.Suite, ".gd."); i >= 0 {
				suiteInner = r.Suite[i+4:]
			}
			if r.Test == test && suiteInner == inner {
				kept = append(kept, r)
			}
		}
		out.Results = kept
	}
	for _, r := range out.Results {
		out.Totals.Tests++
		switch r.Status {
		case "passed":
			out.Totals.Passed++
		case "failed":
			out.Totals.Failed++
		case "error":
			out.Totals.Errors++
		case "skipped":
			out.Totals.Skipped++
		case "pending":
			out.Totals.Pending++
		}
	}
	out.Passed = !out.TimedOut && out.Totals.Tests > 0 && out.Totals.Failed == 0 && out.Totals.Errors == 0
	if len(out.Results) == 0 || out.TimedOut {
		out.Output = res.Output
	}
	return out, nil
}

// merge adds what the console showed to the report's results: each test's
// output, script errors inside tests (status error), and, when there is no
// report (a time-out, a crash), the results themselves.
func merge(out *RunOut, tr *tracker, res godotproc.Result) {
	tr.cur = nil // a test still running when the process ended keeps status "" (error below)
	if out.Results == nil {
		for _, st := range tr.tests {
			r := ResultOut{Suite: st.key.suite, Test: st.key.test, Status: st.status}
			if r.Status == "" {
				r.Status = "error"
				r.Message = "the run ended during this test (timed out or crashed)"
			}
			out.Results = append(out.Results, r)
		}
		if out.TimedOut {
			for i := range out.Results {
				if out.Results[i].Status == "error" && out.Results[i].Message == "" {
					out.Results[i].Message = "the run timed out during this test"
				}
			}
		}
	}
	inTests := map[string]bool{}
	for i := range out.Results {
		r := &out.Results[i]
		st := tr.byKey[testKey{r.Suite, r.Test}]
		if st == nil {
			continue
		}
		r.Output = tr.output(st)
		if st.err != nil {
			inTests[st.err.Message+"\x00"+st.err.File] = true
			if r.Status == "passed" || r.Status == "pending" {
				r.Status = "error"
				r.Message = st.err.Message
				r.File, r.Line = st.err.File, st.err.Line
			}
		}
	}
	out.Errors = []godotproc.Error{}
	for _, e := range res.Errors {
		if !inTests[e.Message+"\x00"+e.File] {
			out.Errors = append(out.Errors, e)
		}
	}
	if out.Results == nil {
		out.Results = []ResultOut{}
	}
}

// didYouMean suggests the closest name.
func didYouMean(s string, names []string) string {
	if best, ok := suggest.Closest(s, names); ok {
		return suggest.Hint(best)
	}
	return ""
}

func progressStatus(st *seenTest) string {
	if st.err != nil && st.status != "failed" {
		return "error"
	}
	return st.status
}

// notRun adds an error result for each suite that was to run but has no
// result at all (a script that does not parse, say), with Godot's error
// about that script when there is one.
func notRun(out *RunOut, suites []SuiteOut, inner, test string) {
	if test != "" {
		return
	}
	seen := map[string]bool{}
	for _, r := range out.Results {
		seen[r.Suite] = true
	}
	for _, s := range suites {
		if seen[s.Suite] || (inner != "" && s.InnerClass != inner) {
			continue
		}
		r := ResultOut{Suite: s.Suite, Status: "error", Message: "the suite did not run", File: s.File}
		for _, e := range out.Errors {
			if e.File == s.File {
				r.Message += ": " + e.Message
				r.Line = e.Line
				break
			}
		}
		out.Results = append(out.Results, r)
	}
}

// guessLines gives a GUT failure whose line GUT could not tell (it prints
// "at line -1" when get_stack() is empty, as after a script error broke
// into the debugger earlier in the run) the line of the test's only
// assert, else of its func.
func guessLines(out *RunOut, dir string, suites []SuiteOut) {
	for i := range out.Results {
		r := &out.Results[i]
		if r.Status != "failed" || r.Line > 0 {
			continue
		}
		for _, s := range suites {
			if s.Suite != r.Suite {
				continue
			}
			for j, t := range s.Tests {
				if t.Name != r.Test {
					continue
				}
				end := 1 << 30
				if j+1 < len(s.Tests) {
					end = s.Tests[j+1].Line
				}
				r.File, r.Line = s.File, onlyAssert(dir, s.File, t.Line, end)
			}
		}
	}
}

var assertRE = regexp.MustCompile(`^\s+assert_\w+\s*\(`)

func onlyAssert(dir, file string, from, to int) int {
	src, err := os.ReadFile(filepath.Join(dir, filepath.FromSlash(strings.TrimPrefix(file, "res://"))))
	if err != nil {
		return from
	}
	found := 0
	for n, l := range strings.Split(string(src), "\n") {
		line := n + 1
		if line <= from || line >= to {
			continue
		}
		if strings.HasPrefix(l, "func ") || strings.HasPrefix(l, "class ") {
			break
		}
		if assertRE.MatchString(l) {
			if found != 0 {
				return from
			}
			found = line
		}
	}
	if found == 0 {
		return from
	}
	return found
}
