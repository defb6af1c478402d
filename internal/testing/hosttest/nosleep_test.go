package hosttest

import (
	"go/ast"
	"go/parser"
	"go/token"
	"io/fs"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

// #25 done-when: no time.Sleep in non-test host code. A sleep in a
// production path waits a guess instead of the event it stands for (a
// process reaped, an answer written); wait on that event (a channel, a
// context, a cond) instead.
func TestNoSleepInHostCode(t *testing.T) {
	root := filepath.Join("..", "..", "..", "host")
	checked := 0
	err := filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() {
			if d.Name() == "testdata" || strings.HasPrefix(d.Name(), ".") {
				return filepath.SkipDir // test fixtures (go build ignores them)
			}
			return nil
		}
		if !strings.HasSuffix(path, ".go") || strings.HasSuffix(path, "_test.go") {
			return nil
		}
		checked++
		src, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		for _, at := range sleeps(t, path, src) {
			t.Errorf("%s: time.Sleep in production host code; wait on the event instead", at)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if checked < 50 {
		t.Fatalf("checked only %d files under %s", checked, root)
	}
}

// The scan finds a sleep however the time package is named.
func TestSleepsFindsEveryForm(t *testing.T) {
	src := `package x
import (
	"time"
	tm "time"
	. "time"
)
func f() {
	time.Sleep(1)
	tm.Sleep(2)
	Sleep(3)
	nap := time.Sleep
	nap(4)
	var time struct{ Sleep func() } // shadows the package: not a sleep
	_ = time
}
`
	if got := sleeps(t, "x.go", []byte(src)); len(got) != 4 {
		t.Fatalf("found %d sleeps, want 4 (time.Sleep, tm.Sleep, Sleep, time.Sleep as a value): %v", len(got), got)
	}
	if got := sleeps(t, "y.go", []byte("package y\nimport \"time\"\nfunc f() { <-time.After(1) }\n")); len(got) != 0 {
		t.Fatalf("found sleeps in code without one: %v", got)
	}
}

// sleeps lists where src refers to time.Sleep.
func sleeps(t *testing.T, path string, src []byte) []string {
	t.Helper()
	fset := token.NewFileSet()
	f, err := parser.ParseFile(fset, path, src, 0)
	if err != nil {
		t.Fatalf("%s: %v", path, err)
	}
	names := map[string]bool{} // what the file calls the time package
	dot := false
	for _, imp := range f.Imports {
		if p, _ := strconv.Unquote(imp.Path.Value); p != "time" {
			continue
		}
		switch {
		case imp.Name == nil:
			names["time"] = true
		case imp.Name.Name == ".":
			dot = true
		default:
			names[imp.Name.Name] = true
		}
	}
	var out []string
	field := map[*ast.Ident]bool{} // x.Sleep's Sleep: not a dot-imported Sleep
	ast.Inspect(f, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.SelectorExpr:
			field[n.Sel] = true
			if id, ok := n.X.(*ast.Ident); ok && n.Sel.Name == "Sleep" && names[id.Name] && id.Obj == nil {
				out = append(out, fset.Position(n.Pos()).String())
			}
		case *ast.Ident:
			if dot && n.Name == "Sleep" && n.Obj == nil && !field[n] {
				out = append(out, fset.Position(n.Pos()).String())
			}
		}
		return true
	})
	return out
}
