//go:build unix

package tests_test

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/godot-mcp/godot-mcp/plugins/tests"
	"github.com/godot-mcp/godot-mcp/sdk"
	"github.com/godot-mcp/godot-mcp/sdk/sdktest"
)

// project writes a Godot project with the given files.
func project(t *testing.T, files map[string]string) string {
	t.Helper()
	dir := t.TempDir()
	files["project.godot"] = "config_version=5\n"
	for name, body := range files {
		p := filepath.Join(dir, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	t.Setenv("GODOT_MCP_PROJECT_DIR", dir)
	return dir
}

const gutCfg = "[plugin]\nname=\"Gut\"\nversion=\"9.4.0\"\n"
const gdunitCfg = "[plugin]\nname=\"gdUnit4\"\nversion=\"5.0.5\"\n"
const classCache = "list=[{\"class\": &\"GutTest\"}, {\"class\": &\"GdUnitTestSuite\"}]\n"

const gutSuite = "extends GutTest\n\nfunc test_passes() -> void:\n\tprint(\"hi\")\n\tassert_eq(1, 1)\n\nfunc test_fails() -> void:\n\tassert_eq(1, 2)\n\nfunc helper() -> void:\n\tpass\n\nclass TestInner:\n\textends GutTest\n\tfunc test_inner() -> void:\n\t\tpass\n\nclass Helper:\n\tfunc test_not_a_test() -> void:\n\t\tpass\n"

// fakeGodot is a GODOT_BIN that prints console (a file), writes the GUT
// JUnit report (a file) where -gjunit_xml_file says, and optionally sleeps
// with a child process (to test the time limit kills the group).
func fakeGodot(t *testing.T, console, xml string, sleep bool) string {
	t.Helper()
	dir := t.TempDir()
	cf := filepath.Join(dir, "console.txt")
	xf := filepath.Join(dir, "report.xml")
	os.WriteFile(cf, []byte(console), 0o644)
	os.WriteFile(xf, []byte(xml), 0o644)
	script := "#!/bin/sh\necho \"$@\" > " + filepath.Join(dir, "args") + "\ncat " + cf + "\n"
	if sleep {
		script += "sleep 300 &\necho $! > " + filepath.Join(dir, "child") + "\nwait\n"
	}
	script += "for a in \"$@\"; do case \"$a\" in -gjunit_xml_file=*) cp " + xf + " \"${a#-gjunit_xml_file=}\";; esac; done\nexit 1\n"
	bin := filepath.Join(dir, "godot")
	if err := os.WriteFile(bin, []byte(script), 0o755); err != nil {
		t.Fatal(err)
	}
	t.Setenv("GODOT_BIN", bin)
	return dir
}

func call(t *testing.T, h *sdktest.Harness, tool string, args map[string]any, opts ...sdktest.CallOption) *sdktest.Result {
	t.Helper()
	res, err := h.Call(context.Background(), tool, args, opts...)
	if err != nil {
		t.Fatal(err)
	}
	return res
}

func TestDetectSaysWhatToInstall(t *testing.T) {
	project(t, map[string]string{})
	h := sdktest.Start(t, tests.Toolset())
	var out struct {
		Frameworks []any  `json:"frameworks"`
		Install    string `json:"install"`
	}
	if err := call(t, h, "detect", nil).Decode(&out); err != nil {
		t.Fatal(err)
	}
	if len(out.Frameworks) != 0 || !strings.Contains(out.Install, "res://addons/gut/plugin.cfg") || !strings.Contains(out.Install, "res://addons/gdUnit4/plugin.cfg") {
		t.Fatalf("%+v", out)
	}
	res := call(t, h, "run", nil)
	if res.Err == nil || res.Err.Code != sdk.CodePreconditionFailed || !strings.Contains(res.Err.Hint, "GUT 9.x") {
		t.Fatalf("run without a framework: %+v", res.Err)
	}
}

func TestDetectBothAndRunNeedsAChoice(t *testing.T) {
	project(t, map[string]string{"addons/gut/plugin.cfg": gutCfg, "addons/gdUnit4/plugin.cfg": gdunitCfg, ".godot/global_script_class_cache.cfg": classCache})
	h := sdktest.Start(t, tests.Toolset())
	var out struct {
		Frameworks []struct {
			Name, Version string
			Registered    bool
		} `json:"frameworks"`
	}
	call(t, h, "detect", nil).Decode(&out)
	if len(out.Frameworks) != 2 || out.Frameworks[0].Name != "gut" || out.Frameworks[0].Version != "9.4.0" || !out.Frameworks[0].Registered || out.Frameworks[1].Version != "5.0.5" {
		t.Fatalf("%+v", out)
	}
	if res := call(t, h, "run", nil); res.Err == nil || res.Err.Code != sdk.CodeValidationError || !strings.Contains(res.Err.Hint, "framework") {
		t.Fatalf("%+v", res.Err)
	}
}

func TestListDiscoversSuitesWithoutRunning(t *testing.T) {
	project(t, map[string]string{
		"addons/gut/plugin.cfg":        gutCfg,
		"addons/gdUnit4/plugin.cfg":    gdunitCfg,
		"test/test_a.gd":               gutSuite,
		"test/base.gd":                 "class_name MyBase\nextends GutTest\n",
		"test/sub/test_b.gd":           "extends MyBase\n\nfunc test_b() -> void:\n\tpass\n",
		"test/math_test.gd":            "extends GdUnitTestSuite\n\n# func test_commented()\nfunc test_add() -> void:\n\tpass\n",
		"addons/gut/test/test_self.gd": "extends GutTest\nfunc test_x():\n\tpass\n",
		"other.gd":                     "extends Node\nfunc test_nothing():\n\tpass\n",
	})
	h := sdktest.Start(t, tests.Toolset())
	var out struct {
		Suites []struct {
			F     string `json:"framework"`
			S     string `json:"suite"`
			Tests []struct {
				Name string
				Line int
			}
		}
		Tests int
	}
	call(t, h, "list", nil).Decode(&out)
	var got []string
	for _, s := range out.Suites {
		for _, tc := range s.Tests {
			got = append(got, s.F+" "+s.S+" "+tc.Name+":"+strconv.Itoa(tc.Line))
		}
	}
	want := []string{
		"gdunit4 res://test/math_test.gd test_add:4",
		"gut res://test/sub/test_b.gd test_b:3",
		"gut res://test/test_a.gd test_passes:3",
		"gut res://test/test_a.gd test_fails:7",
		"gut res://test/test_a.gd.TestInner test_inner:15",
	}
	if strings.Join(got, "\n") != strings.Join(want, "\n") || out.Tests != 5 {
		t.Fatalf("got\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	call(t, h, "list", map[string]any{"framework": "gdunit4", "path": "res://test"}).Decode(&out)
	if len(out.Suites) != 1 || out.Suites[0].S != "res://test/math_test.gd" {
		t.Fatalf("%+v", out.Suites)
	}
	if res := call(t, h, "list", map[string]any{"path": "res://nope"}); res.Err == nil || res.Err.Code != sdk.CodeResourceNotFound {
		t.Fatalf("%+v", res.Err)
	}
}

const gutConsole = "---  GUT  ---\n\x1b[4m\n\nres://test/test_a.gd\n\x1b[0m* test_passes\nhi\n* test_fails\n\x1b[31m    [Failed]:  \x1b[0m[1] expected to equal [2]\n      at line 8\n" +
	"* test_crash\n\nDebugger Break, Reason: 'Cannot call method 'x' on a null value.'\n*Frame 0 - res://test/test_a.gd:12 in function 'test_crash'\nEnter \"help\" for assistance.\n" +
	"debug>     [Risky]:  test_crash did not assert\n1/3 passed.\n\n\x1b[33m= Run Summary\x1b[0m\n- test_fails\n"

const gutXML = `<?xml version="1.0" encoding="UTF-8"?>
<testsuites name="GutTests" failures="1" tests="3" >
  <testsuite name="test/test_a.gd" tests="3" failures="1" skipped="0" time="0.0005" >
      <testcase name="test_passes" assertions="1" status="pass" classname="test/test_a.gd" time="0.000193" ></testcase>
      <testcase name="test_fails" assertions="1" status="fail" classname="test/test_a.gd" time="0.00023" >
      <failure message="failed"><![CDATA[[1] expected to equal [2]
            at line 8]]></failure></testcase>
      <testcase name="test_crash" assertions="0" status="no asserts" classname="test/test_a.gd" time="0.0001" ></testcase>
  </testsuite>
  <testsuite name="test/test_a.gd.TestInner" tests="1" failures="0" skipped="0" time="0.0001" >
      <testcase name="test_inner" assertions="1" status="pass" classname="test/test_a.gd.TestInner" time="0.0001" ></testcase>
  </testsuite>
</testsuites>`

func TestRunGUTResultsFromTheReport(t *testing.T) {
	project(t, map[string]string{"addons/gut/plugin.cfg": gutCfg, ".godot/global_script_class_cache.cfg": classCache,
		"test/test_a.gd": gutSuite + "\nfunc test_crash() -> void:\n\tpass\n"})
	fake := fakeGodot(t, gutConsole, gutXML, false)
	h := sdktest.Start(t, tests.Toolset())
	var out struct {
		Passed bool
		Totals map[string]int
		Output string
		Result []struct {
			Suite, Test, Status, Message, File, Output string
			Line                                       int
			DurationMs                                 float64 `json:"duration_ms"`
		} `json:"results"`
	}
	res := call(t, h, "run", nil, sdktest.ProgressToken("tok"))
	if err := res.Decode(&out); err != nil {
		t.Fatal(err)
	}
	if out.Passed || out.Totals["tests"] != 4 || out.Totals["passed"] != 2 || out.Totals["failed"] != 1 || out.Totals["errors"] != 1 {
		t.Fatalf("%s", res.Structured)
	}
	p, f, c := out.Result[0], out.Result[1], out.Result[2]
	if p.Status != "passed" || p.Output != "hi" || p.DurationMs != 0.193 {
		t.Fatalf("passing: %+v", p)
	}
	if f.Status != "failed" || f.File != "res://test/test_a.gd" || f.Line != 8 || f.Message != "[1] expected to equal [2]" {
		t.Fatalf("failing: %+v", f)
	}
	if c.Status != "error" || c.Line != 12 || !strings.Contains(c.Message, "null value") {
		t.Fatalf("script error: %+v", c)
	}
	args, _ := os.ReadFile(filepath.Join(fake, "args"))
	for _, want := range []string{"--headless", "-d", "-s res://addons/gut/gut_cmdln.gd", "-gexit", "-gtest=res://test/test_a.gd"} {
		if !strings.Contains(string(args), want) {
			t.Fatalf("godot ran with %s; want %s", args, want)
		}
	}
	if ev := h.Progress(); len(ev) != 3 || ev[2].Progress != 3 || ev[2].Total != 4 || !strings.Contains(ev[1].Message, "test_fails failed") {
		t.Fatalf("progress %+v", ev)
	}

	// One test: the framework filters by substring, the answer has the one asked for.
	res = call(t, h, "run", map[string]any{"path": "res://test/test_a.gd", "test": "test_fails"})
	res.Decode(&out)
	if len(out.Result) != 1 || out.Result[0].Test != "test_fails" {
		t.Fatalf("%s", res.Structured)
	}
	args, _ = os.ReadFile(filepath.Join(fake, "args"))
	if !strings.Contains(string(args), "-gunit_test_name=test_fails") {
		t.Fatalf("%s", args)
	}
	res = call(t, h, "run", map[string]any{"path": "res://test/test_a.gd", "test": "test_fail"})
	if res.Err == nil || res.Err.Code != sdk.CodeResourceNotFound || !strings.Contains(res.Err.Hint, `did you mean "test_fails"`) {
		t.Fatalf("%+v", res.Err)
	}
	if res = call(t, h, "run", map[string]any{"path": "res://test/test_a.gd", "test": "TestInner.test_inner"}); res.Err != nil {
		t.Fatal(res.Err)
	}
	args, _ = os.ReadFile(filepath.Join(fake, "args"))
	if !strings.Contains(string(args), "-ginner_class=TestInner") {
		t.Fatalf("%s", args)
	}
}

func TestRunTimeLimitKillsTheProcessGroup(t *testing.T) {
	project(t, map[string]string{"addons/gut/plugin.cfg": gutCfg, ".godot/global_script_class_cache.cfg": classCache, "test/test_a.gd": gutSuite})
	console := "res://test/test_a.gd\n* test_passes\nhi\n* test_fails\nstill going\n"
	fake := fakeGodot(t, console, gutXML, true)
	h := sdktest.Start(t, tests.Toolset())
	start := time.Now()
	res := call(t, h, "run", map[string]any{"timeout_ms": 1000})
	var out struct {
		TimedOut bool `json:"timed_out"`
		Passed   bool
		Results  []struct{ Test, Status, Message, Output string }
	}
	if err := res.Decode(&out); err != nil {
		t.Fatal(err)
	}
	if !out.TimedOut || out.Passed || time.Since(start) > 10*time.Second {
		t.Fatalf("%s", res.Structured)
	}
	if len(out.Results) != 2 || out.Results[0].Status != "passed" || out.Results[1].Status != "error" || !strings.Contains(out.Results[1].Message, "timed out") || out.Results[1].Output != "still going" {
		t.Fatalf("%s", res.Structured)
	}
	pid, _ := os.ReadFile(filepath.Join(fake, "child"))
	deadline := time.Now().Add(5 * time.Second)
	for {
		// The child sleep (same process group) is gone too.
		err := exec.Command("kill", "-0", strings.TrimSpace(string(pid))).Run()
		if err != nil {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("child %s of the timed-out run still alive", pid)
		}
		time.Sleep(100 * time.Millisecond)
	}
}

const gdunitConsole = "Run Test Suite: res://test/math_test.gd\n  res://test/math_test.gd > test_ok STARTED\nprinted\n  res://test/math_test.gd > test_ok PASSED 26ms\n" +
	"  res://test/math_test.gd > test_bad STARTED\n  res://test/math_test.gd > test_bad FAILED 14ms\n  Report:\n    line 8: Expecting:\n"

const gdunitXML = `<?xml version="1.0" encoding="UTF-8" ?>
<testsuites id="x" name="report_1" tests="2" failures="1">
	<testsuite id="0" name="math_test" package="test" tests="2" failures="1" errors="0" skipped="0" time="0.081">
		<testcase name="test_ok" classname="math_test" time="0.026"></testcase>
		<testcase name="test_bad" classname="math_test" time="0.014">
			<failure message="FAILED: res://test/math_test.gd:8" type="FAILURE"><![CDATA[
Expecting:
 '3'
 but was
 '2'
]]></failure>
		</testcase>
	</testsuite>
</testsuites>`

func TestRunGdUnit4ReadsItsReportDirectory(t *testing.T) {
	dir := project(t, map[string]string{"addons/gdUnit4/plugin.cfg": gdunitCfg, ".godot/global_script_class_cache.cfg": classCache,
		"test/math_test.gd": "extends GdUnitTestSuite\nfunc test_ok() -> void:\n\tpass\nfunc test_bad() -> void:\n\tpass\n"})
	fake := fakeGodot(t, gdunitConsole, "", false)
	// gdUnit4 writes <-rd>/report_1/results.xml; the fake does it in shell.
	script, _ := os.ReadFile(os.Getenv("GODOT_BIN"))
	script = []byte(strings.Replace(string(script), "exit 1\n",
		"prev=\"\"; for a in \"$@\"; do if [ \"$prev\" = \"-rd\" ]; then d=\""+dir+"/${a#res://}/report_1\"; mkdir -p \"$d\"; cp "+filepath.Join(fake, "gdunit.xml")+" \"$d/results.xml\"; fi; prev=\"$a\"; done\nexit 100\n", 1))
	os.WriteFile(os.Getenv("GODOT_BIN"), script, 0o755)
	os.WriteFile(filepath.Join(fake, "gdunit.xml"), []byte(gdunitXML), 0o644)
	h := sdktest.Start(t, tests.Toolset())
	res := call(t, h, "run", map[string]any{"framework": "gdunit4"})
	var out struct {
		Totals  map[string]int
		Results []struct {
			Suite, Test, Status, Message, File, Output string
			Line                                       int
		}
	}
	if err := res.Decode(&out); err != nil {
		t.Fatal(err)
	}
	if out.Totals["passed"] != 1 || out.Totals["failed"] != 1 || len(out.Results) != 2 {
		t.Fatalf("%s", res.Structured)
	}
	ok, bad := out.Results[0], out.Results[1]
	if ok.Suite != "res://test/math_test.gd" || ok.Output != "printed" || bad.File != "res://test/math_test.gd" || bad.Line != 8 || !strings.HasPrefix(bad.Message, "Expecting:") {
		t.Fatalf("%s", res.Structured)
	}
	if _, err := os.Stat(filepath.Join(dir, ".godot", "godot-mcp")); !os.IsNotExist(err) {
		t.Fatalf("the report directory was left behind: %v", err)
	}
	res = call(t, h, "run", map[string]any{"path": "res://test/math_test.gd", "test": "test_bad"})
	if err := res.Decode(&out); err != nil || len(out.Results) != 1 || out.Results[0].Test != "test_bad" {
		t.Fatalf("%v %s", err, res.Structured)
	}
	args, _ := os.ReadFile(filepath.Join(fake, "args"))
	if !strings.Contains(string(args), "-a res://test/math_test.gd -i res://test/math_test.gd:test_ok") {
		t.Fatalf("%s", args)
	}
}

// A suite that does not parse is an error result with its parse error; a
// failure GUT could not place (line -1) gets the test's only assert line.
func TestRunGUTBrokenSuiteAndUnknownLine(t *testing.T) {
	project(t, map[string]string{"addons/gut/plugin.cfg": gutCfg, ".godot/global_script_class_cache.cfg": classCache,
		"test/test_a.gd":      gutSuite,
		"test/test_broken.gd": "extends GutTest\n\nfunc test_x() -> void:\n\tassert_eq(1,\n"})
	console := "\nDebugger Break, Reason: 'Parser Error: Expected expression as the function argument.'\n*Frame 0 - res://test/test_broken.gd:4 in function ''\n" +
		"Enter \"help\" for assistance.\ndebug> SCRIPT ERROR: Parse Error: Expected expression as the function argument.\n" +
		"res://test/test_a.gd\n* test_passes\n* test_fails\n    [Failed]:  [1] expected to equal [2]\n      at line -1\n1/2 passed.\n= Run Summary\n"
	xml := strings.Replace(strings.Replace(gutXML, "at line 8", "at line -1", 1), `<testcase name="test_crash" assertions="0" status="no asserts" classname="test/test_a.gd" time="0.0001" ></testcase>`, "", 1)
	fakeGodot(t, console, xml, false)
	h := sdktest.Start(t, tests.Toolset())
	res := call(t, h, "run", nil)
	var out struct {
		Results []struct {
			Suite, Test, Status, Message, File string
			Line                               int
		}
	}
	if err := res.Decode(&out); err != nil {
		t.Fatal(err)
	}
	var fails, broken bool
	for _, r := range out.Results {
		if r.Test == "test_fails" {
			fails = r.Status == "failed" && r.File == "res://test/test_a.gd" && r.Line == 8
		}
		if r.Suite == "res://test/test_broken.gd" {
			broken = r.Status == "error" && r.Line == 4 && strings.Contains(r.Message, "did not run: Parser Error")
		}
	}
	if !fails || !broken {
		t.Fatalf("%s", res.Structured)
	}
}

func TestRunWithoutOutput(t *testing.T) {
	project(t, map[string]string{"addons/gut/plugin.cfg": gutCfg, ".godot/global_script_class_cache.cfg": classCache, "test/test_a.gd": gutSuite})
	fakeGodot(t, gutConsole, gutXML, false)
	h := sdktest.Start(t, tests.Toolset())
	res := call(t, h, "run", map[string]any{"max_output_per_test": 0})
	if res.Err != nil || strings.Contains(string(res.Structured), `"output":"hi"`) {
		t.Fatalf("%v %s", res.Err, res.Structured)
	}
	res = call(t, h, "run", nil)
	if res.Err != nil || !strings.Contains(string(res.Structured), `"output":"hi"`) {
		t.Fatalf("%v %s", res.Err, res.Structured)
	}
}
