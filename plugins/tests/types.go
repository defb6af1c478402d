package tests

import "github.com/godot-mcp/godot-mcp/plugins/internal/godotproc"

// FrameworkOut is one installed test framework.
type FrameworkOut struct {
	Name       string `json:"name" jsonschema:"enum=gut|gdunit4"`
	Version    string `json:"version,omitempty" description:"from its plugin.cfg"`
	AddonDir   string `json:"addon_dir"`
	Registered bool   `json:"registered" description:"its classes are in the project's class cache; when false, a run imports the project first (slower once)"`
}

// DetectIn says which project.
type DetectIn struct {
	ProjectDir string `json:"project_dir,omitempty" description:"absolute path of the Godot project; default: GODOT_MCP_PROJECT_DIR, else the connected editor's project"`
}

// DetectOut lists the frameworks.
type DetectOut struct {
	Frameworks []FrameworkOut `json:"frameworks" description:"empty when neither GUT nor gdUnit4 is installed"`
	Install    string         `json:"install,omitempty" description:"what to install, when no framework is there"`
	ProjectDir string         `json:"project_dir"`
}

// TestOut is one test function.
type TestOut struct {
	Name string `json:"name"`
	Line int    `json:"line" description:"line of its func"`
}

// SuiteOut is one test suite (a script; for GUT also an inner Test* class).
type SuiteOut struct {
	Framework  string    `json:"framework" jsonschema:"enum=gut|gdunit4"`
	Suite      string    `json:"suite" description:"res:// path of the script, with .InnerClass for a GUT inner class"`
	File       string    `json:"file"`
	InnerClass string    `json:"inner_class,omitempty"`
	Tests      []TestOut `json:"tests"`
}

// ListIn filters discovery.
type ListIn struct {
	Framework  string `json:"framework,omitempty" jsonschema:"enum=gut|gdunit4" description:"only this framework's suites"`
	Path       string `json:"path,omitempty" description:"res:// folder or script to look in; default: the whole project (addons/ and hidden folders are skipped)"`
	ProjectDir string `json:"project_dir,omitempty" description:"as in detect"`
}

// ListOut is the discovered tests.
type ListOut struct {
	Frameworks []FrameworkOut `json:"frameworks"`
	Suites     []SuiteOut     `json:"suites"`
	Tests      int            `json:"tests" description:"test functions in all suites"`
	Install    string         `json:"install,omitempty" description:"what to install, when no framework is there"`
}

// RunIn says what to run.
type RunIn struct {
	Framework     string `json:"framework,omitempty" jsonschema:"enum=gut|gdunit4" description:"required when the project has both"`
	Path          string `json:"path,omitempty" description:"res:// folder or test script; default: every suite of the framework"`
	Test          string `json:"test,omitempty" description:"run only this test function of the script in path (GUT inner class: Inner.test_name)"`
	TimeoutMs     int    `json:"timeout_ms,omitempty" jsonschema:"minimum=1000,maximum=600000,default=120000" description:"kill the run (its whole process group) after this long; timed_out: true"`
	ProjectDir    string `json:"project_dir,omitempty" description:"as in detect"`
	OutputPerTest *int   `json:"max_output_per_test,omitempty" jsonschema:"minimum=0,maximum=65536,default=4000" description:"bytes of each test's captured output kept (its end); 0: none"`
}

// ResultOut is one test's outcome.
type ResultOut struct {
	Suite      string  `json:"suite" description:"res:// script, with .InnerClass for a GUT inner class"`
	Test       string  `json:"test"`
	Status     string  `json:"status" jsonschema:"enum=passed|failed|error|skipped|pending" description:"error: a script error happened in the test (the frameworks may count it as passed)"`
	DurationMs float64 `json:"duration_ms"`
	Message    string  `json:"message,omitempty" description:"the failure, error, skip or pending reason"`
	File       string  `json:"file,omitempty" description:"where it failed"`
	Line       int     `json:"line,omitempty"`
	Output     string  `json:"output,omitempty" description:"what the test printed"`
}

// Totals count the results.
type Totals struct {
	Tests   int `json:"tests"`
	Passed  int `json:"passed"`
	Failed  int `json:"failed"`
	Errors  int `json:"errors"`
	Skipped int `json:"skipped"`
	Pending int `json:"pending"`
}

// RunOut is a finished run.
type RunOut struct {
	Framework  string            `json:"framework"`
	Passed     bool              `json:"passed" description:"every test ran and passed (pending/skipped allowed), nothing timed out"`
	Totals     Totals            `json:"totals"`
	Results    []ResultOut       `json:"results"`
	TimedOut   bool              `json:"timed_out"`
	ExitCode   *int              `json:"exit_code"`
	DurationMs int64             `json:"duration_ms"`
	Errors     []godotproc.Error `json:"errors" description:"errors Godot printed outside any test (e.g. a test script that does not parse)"`
	Output     string            `json:"output,omitempty" description:"the run's whole output (start and end kept) when no per-test results could be read"`
	Command    []string          `json:"command"`
}
