package sdktest

import (
	"fmt"
	"io/fs"
	"path"
	"regexp"
	"sort"
	"strings"
	"testing"

	"github.com/godot-mcp/godot-mcp/sdk"
	"github.com/godot-mcp/godot-mcp/sdk/sdktest/fakeaddon"
)

// EditorCommand is one editor command a toolset's tools send, with the class (and
// whether it takes dry_run) its editor code must declare in get_commands().
// A toolset's tests list them once:
//
//	var commands = []sdktest.EditorCommand{
//		{Name: "cmd_hello_greet", Class: sdk.ReadOnly},
//		{Name: "cmd_hello_rename", Class: sdk.Mutating, DryRun: true},
//	}
//
// and use the list twice: CheckEditorCode holds the shipped GDScript to it,
// and Declares makes the fake editor declare it.
type EditorCommand struct {
	Name   string
	Class  sdk.Safety
	DryRun bool
}

// Declares makes the fake editor declare cmds (Declare for each), whatever
// the toolset's editor code declares: Start(t, ts, Declares(commands...)).
// Without it, Start declares what the editor code declares, as the real
// addon does; with it, a test runs against what the Go side expects, and
// CheckEditorCode says when the two differ.
func Declares(cmds ...EditorCommand) StartOption {
	return StartOption{func(c *startConfig) {
		for _, cmd := range cmds {
			Declare(cmd.Name, cmd.Class, cmd.DryRun).apply(c)
		}
	}}
}

// StartWith is Start with cmds declared (Declares).
func StartWith(t testing.TB, ts sdk.Toolset, cmds []EditorCommand, opts ...StartOption) *Harness {
	t.Helper()
	return Start(t, ts, append([]StartOption{Declares(cmds...)}, opts...)...)
}

// relPreloadRE finds the preloads of a GDScript source; those not starting
// with a scheme (res://, uid://) are relative to the script's folder.
var relPreloadRE = regexp.MustCompile(`preload\(\s*"([^"]+)"\s*\)`)

// CheckEditorCode fails t (with Errorf, so every problem is listed) unless
// ts.EditorCode is what the tools rely on:
//
//   - it declares exactly cmds, each with its class and dry_run, read as the
//     addon reads get_commands() declarations (one line or several, keys in
//     any order; a command declared twice is a problem too), and no other;
//   - every file of shipped is in it (handlers.gd always is checked);
//   - every relative preload("x.gd") of its GDScript names a file it ships.
func CheckEditorCode(t testing.TB, ts sdk.Toolset, cmds []EditorCommand, shipped ...string) {
	t.Helper()
	if ts.EditorCode == nil {
		t.Errorf("toolset %q has no EditorCode", ts.Name)
		return
	}
	for _, problem := range editorCodeProblems(ts, cmds, shipped) {
		t.Errorf("%s", problem)
	}
}

func editorCodeProblems(ts sdk.Toolset, cmds []EditorCommand, shipped []string) []string {
	var problems []string
	code := ts.EditorCode
	declared, err := fakeaddon.ParseCommands(code, ts.Name)
	if err != nil {
		problems = append(problems, fmt.Sprintf("toolset %q: editor code: %v", ts.Name, err))
	}
	want := map[string]bool{}
	for _, c := range cmds {
		if want[c.Name] {
			problems = append(problems, fmt.Sprintf("toolset %q: %s is listed twice in the commands the tools send", ts.Name, c.Name))
		}
		want[c.Name] = true
		got, ok := declared[c.Name]
		switch {
		case !ok:
			problems = append(problems, fmt.Sprintf("toolset %q: the editor code does not declare %s (the tools send it as %s, dry_run %v)", ts.Name, c.Name, c.Class, c.DryRun))
		case got.Class != string(c.Class) || got.DryRun != c.DryRun:
			problems = append(problems, fmt.Sprintf("toolset %q: the editor code declares %s as %s (dry_run %v); the tools send it as %s (dry_run %v)", ts.Name, c.Name, got.Class, got.DryRun, c.Class, c.DryRun))
		}
	}
	var extra []string
	for name := range declared {
		if !want[name] {
			extra = append(extra, name)
		}
	}
	sort.Strings(extra)
	for _, name := range extra {
		problems = append(problems, fmt.Sprintf("toolset %q: the editor code declares %s, which the tools do not send (add it to the commands, or drop it)", ts.Name, name))
	}
	for _, f := range append([]string{"handlers.gd"}, shipped...) {
		if info, err := fs.Stat(code, f); err != nil || info.IsDir() {
			problems = append(problems, fmt.Sprintf("toolset %q: %s is not shipped in the editor code", ts.Name, f))
		}
	}
	err = fs.WalkDir(code, ".", func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() || !strings.HasSuffix(p, ".gd") {
			return err
		}
		src, err := fs.ReadFile(code, p)
		if err != nil {
			return err
		}
		for _, m := range relPreloadRE.FindAllStringSubmatch(string(src), -1) {
			target := m[1]
			if strings.Contains(target, "://") {
				continue // res:// (the core addon's API) or uid://
			}
			resolved := path.Join(path.Dir(p), target)
			if info, err := fs.Stat(code, resolved); err != nil || info.IsDir() || !fs.ValidPath(resolved) {
				problems = append(problems, fmt.Sprintf("toolset %q: %s preloads %s, which is not shipped", ts.Name, p, target))
			}
		}
		return nil
	})
	if err != nil {
		problems = append(problems, fmt.Sprintf("toolset %q: reading the editor code: %v", ts.Name, err))
	}
	return problems
}
