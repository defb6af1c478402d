package diagnostics

import (
	"bufio"
	"context"
	_ "embed"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strconv"
	"strings"
	"time"

	"github.com/godot-mcp/godot-mcp/plugins/internal/godotproc"
	"github.com/godot-mcp/godot-mcp/sdk"
)

//go:embed check.gd
var checkScript string

const checkMark = "@@GODOT_MCP_CHECK "

// CheckIn says what to check.
type CheckIn struct {
	ProjectDir    string `json:"project_dir,omitempty" description:"absolute path of the Godot project; default: GODOT_MCP_PROJECT_DIR, else the connected editor's project"`
	IncludeAddons bool   `json:"include_addons,omitempty" description:"also check res://addons (skipped by default)"`
	TimeoutMs     int    `json:"timeout_ms,omitempty" jsonschema:"minimum=1000,maximum=600000,default=120000" description:"kill the check after this long (timed_out: true)"`
	Limit         int    `json:"limit,omitempty" jsonschema:"minimum=1,maximum=2000,default=200" description:"most issues per answer"`
	Offset        int    `json:"offset,omitempty" jsonschema:"minimum=0" description:"skip this many issues (next_offset of the previous answer)"`
}

// Issue is one problem found.
type Issue struct {
	File       string `json:"file" description:"res:// file the problem is in"`
	Line       int    `json:"line,omitempty"`
	Severity   string `json:"severity" jsonschema:"enum=error|warning"`
	Kind       string `json:"kind" jsonschema:"enum=parse_error|load_error|missing_dependency|invalid_uid|warning"`
	Message    string `json:"message"`
	Dependency string `json:"dependency,omitempty" description:"the missing or mis-referenced file (or uid://)"`
}

// Checked counts the files loaded.
type Checked struct {
	Scripts   int `json:"scripts"`
	Scenes    int `json:"scenes"`
	Resources int `json:"resources"`
}

// CheckOut is the check's result.
type CheckOut struct {
	OK          bool     `json:"ok_project" description:"no errors were found (warnings allowed) and every file was checked"`
	Checked     Checked  `json:"checked"`
	Errors      int      `json:"errors"`
	Warnings    int      `json:"warnings"`
	Issues      []Issue  `json:"issues" description:"sorted by file and line"`
	Total       int      `json:"issues_total"`
	NextOffset  int      `json:"next_offset,omitempty" description:"pass as offset for the next page; absent on the last page"`
	BrokenFiles []string `json:"broken_files" description:"files with at least one error"`
	TimedOut    bool     `json:"timed_out"`
	DurationMs  int64    `json:"duration_ms"`
	Unchecked   []string `json:"unchecked,omitempty" description:"files not reached (the check timed out or Godot crashed)"`
}

type depMark struct {
	Path     string `json:"path"`
	UID      string `json:"uid"`
	UIDKnown bool   `json:"uid_known"`
	Exists   bool   `json:"exists"`
}

// fileCheck is what the output says about one file.
type fileCheck struct {
	path   string
	errs   []godotproc.Error
	deps   []depMark
	ended  bool
	loaded bool
}

var inMessageRE = regexp.MustCompile(`^(res://[^\s:]+):(\d+) - (.*)$`)

func checkProject(ctx context.Context, call *sdk.Call, in CheckIn) (CheckOut, error) {
	if in.TimeoutMs == 0 {
		in.TimeoutMs = 120000
	}
	if in.Limit == 0 {
		in.Limit = 200
	}
	dir, err := godotproc.ProjectDir(ctx, call, in.ProjectDir, "check_project")
	if err != nil {
		return CheckOut{}, err
	}
	godot, err := godotproc.FindGodot(ctx, call)
	if err != nil {
		return CheckOut{}, err
	}
	deadline := time.Now().Add(time.Duration(in.TimeoutMs) * time.Millisecond)
	if _, err := os.Stat(filepath.Join(dir, ".godot")); err != nil {
		// Never opened: import first, or every class_name and imported asset fails.
		if _, err := godotproc.Run(ctx, godotproc.Options{Godot: godot, Dir: dir, Args: []string{"--headless", "--path", dir, "--import"}, Timeout: time.Until(deadline)}); err != nil {
			return CheckOut{}, err
		}
	}
	tmp, err := os.MkdirTemp("", "godot-mcp-check-")
	if err != nil {
		return CheckOut{}, sdk.Internal(err.Error())
	}
	defer os.RemoveAll(tmp)
	script := filepath.Join(tmp, "godot_mcp_check.gd")
	if err := os.WriteFile(script, []byte(checkScript), 0o600); err != nil {
		return CheckOut{}, sdk.Internal(err.Error())
	}
	var files []*fileCheck
	var cur *fileCheck
	var parser godotproc.ErrorParser
	done := false
	onLine := func(line string) {
		rest, ok := strings.CutPrefix(line, checkMark)
		if !ok {
			if cur != nil {
				parser.Feed(line)
			}
			return
		}
		if cur != nil {
			cur.errs = append(cur.errs, parser.Take()...)
		}
		switch {
		case strings.HasPrefix(rest, "begin "):
			cur = &fileCheck{path: strings.TrimPrefix(rest, "begin ")}
			files = append(files, cur)
		case strings.HasPrefix(rest, "dep ") && cur != nil:
			var d depMark
			if json.Unmarshal([]byte(strings.TrimPrefix(rest, "dep ")), &d) == nil {
				cur.deps = append(cur.deps, d)
			}
		case strings.HasPrefix(rest, "end ") && cur != nil:
			var e struct{ Loaded bool }
			_ = json.Unmarshal([]byte(strings.TrimPrefix(rest, "end ")), &e)
			cur.ended, cur.loaded = true, e.Loaded
		case rest == "done":
			done = true
			cur = nil
		}
	}
	args := []string{"--headless", "--path", dir, "--script", script}
	if in.IncludeAddons {
		args = append(args, "--", "--include-addons")
	}
	res, err := godotproc.Run(ctx, godotproc.Options{Godot: godot, Dir: dir, Args: args, Timeout: time.Until(deadline), MaxOutput: 64 << 10, OnLine: onLine})
	if err != nil {
		return CheckOut{}, err
	}
	if cur != nil {
		cur.errs = append(cur.errs, parser.Take()...)
	}
	if len(files) == 0 && !done {
		return CheckOut{}, sdk.Internal(fmt.Sprintf("the check did not run (Godot %s); Godot printed: %s", res.Exit(), lastLines(res.Output, 20)))
	}
	out := CheckOut{TimedOut: res.TimedOut, DurationMs: res.Duration.Milliseconds(), Issues: []Issue{}, BrokenFiles: []string{}}
	var issues []Issue
	for _, f := range files {
		switch filepath.Ext(f.path) {
		case ".gd":
			out.Checked.Scripts++
		case ".tscn", ".scn":
			out.Checked.Scenes++
		default:
			out.Checked.Resources++
		}
		if !f.ended {
			out.Unchecked = append(out.Unchecked, f.path)
		}
		issues = append(issues, fileIssues(dir, f)...)
	}
	issues = dedupe(issues)
	sort.SliceStable(issues, func(i, j int) bool {
		if issues[i].File != issues[j].File {
			return issues[i].File < issues[j].File
		}
		return issues[i].Line < issues[j].Line
	})
	broken := map[string]bool{}
	for _, is := range issues {
		if is.Severity == "error" {
			out.Errors++
			if !broken[is.File] {
				broken[is.File] = true
				out.BrokenFiles = append(out.BrokenFiles, is.File)
			}
		} else {
			out.Warnings++
		}
	}
	sort.Strings(out.BrokenFiles)
	out.Total = len(issues)
	if in.Offset < len(issues) {
		end := min(len(issues), in.Offset+in.Limit)
		out.Issues = issues[in.Offset:end]
		if end < len(issues) {
			out.NextOffset = end
		}
	}
	out.OK = out.Errors == 0 && !out.TimedOut && done
	return out, nil
}

// fileIssues turns what one file's load printed, and its dependencies, into issues.
func fileIssues(dir string, f *fileCheck) []Issue {
	var out []Issue
	var missing, badUIDs []string
	for _, d := range f.deps {
		switch {
		case !d.Exists:
			dep := d.Path
			if dep == "" {
				dep = d.UID
			}
			missing = append(missing, dep)
			msg := fmt.Sprintf("depends on %s, which does not exist", dep)
			if d.UID != "" && !d.UIDKnown {
				msg += fmt.Sprintf(" (and its uid %s is not known)", d.UID)
			}
			out = append(out, Issue{File: f.path, Line: findLine(dir, f.path, dep), Severity: "error", Kind: "missing_dependency", Message: msg, Dependency: dep})
		case d.UID != "" && !d.UIDKnown:
			badUIDs = append(badUIDs, d.UID)
			out = append(out, Issue{File: f.path, Line: findLine(dir, f.path, d.UID), Severity: "warning", Kind: "invalid_uid",
				Message: fmt.Sprintf("refers to %s, a uid no file has; Godot falls back to the path %s (re-save the file to fix the reference)", d.UID, d.Path), Dependency: d.UID})
		}
	}
	parseErr := false
	for _, e := range f.errs {
		if strings.HasPrefix(e.Message, "Parse Error") && strings.HasSuffix(e.File, ".gd") {
			parseErr = true
		}
	}
	for _, e := range f.errs {
		is := Issue{File: f.path, Severity: e.Severity, Message: e.Message}
		if strings.HasPrefix(e.File, "res://") {
			is.File, is.Line = e.File, e.Line
		}
		if m := inMessageRE.FindStringSubmatch(e.Message); m != nil {
			is.File = m[1]
			is.Line, _ = strconv.Atoi(m[2])
			is.Message = m[3]
		}
		if covered(e.Message, missing) || covered(e.Message, badUIDs) {
			continue // the dependency issue says it, with its line
		}
		if parseErr && strings.HasPrefix(e.Message, "Failed to load script") {
			continue
		}
		switch {
		case is.Severity == "warning":
			is.Kind = "warning"
		case strings.HasPrefix(is.Message, "Parse Error") && strings.HasSuffix(is.File, ".gd"):
			is.Kind = "parse_error"
		default:
			is.Kind = "load_error"
		}
		out = append(out, is)
	}
	return out
}

func covered(msg string, deps []string) bool {
	for _, d := range deps {
		if d != "" && strings.Contains(msg, d) {
			return true
		}
	}
	return false
}

// findLine is the first line of the file (a text scene or resource) that
// mentions s, or 0.
func findLine(dir, resPath, s string) int {
	if s == "" {
		return 0
	}
	fh, err := os.Open(filepath.Join(dir, filepath.FromSlash(strings.TrimPrefix(resPath, "res://"))))
	if err != nil {
		return 0
	}
	defer fh.Close()
	sc := bufio.NewScanner(fh)
	sc.Buffer(make([]byte, 64<<10), 4<<20)
	for n := 1; sc.Scan(); n++ {
		if strings.Contains(sc.Text(), `"`+s+`"`) {
			return n
		}
	}
	return 0
}

func dedupe(in []Issue) []Issue {
	seen := map[string]bool{}
	var out []Issue
	for _, is := range in {
		k := is.File + "\x00" + strconv.Itoa(is.Line) + "\x00" + is.Message
		if !seen[k] {
			seen[k] = true
			out = append(out, is)
		}
	}
	return out
}

func lastLines(s string, n int) string {
	lines := strings.Split(strings.TrimRight(s, "\n"), "\n")
	if len(lines) > n {
		lines = lines[len(lines)-n:]
	}
	return strings.Join(lines, "\n")
}
