package plugins

import (
	"go/parser"
	"go/token"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

// Toolsets do not import each other: what they share lives in
// plugins/internal.
func TestToolsetsDoNotImportEachOther(t *testing.T) {
	const prefix = "github.com/godot-mcp/godot-mcp/plugins/"
	dirs, err := os.ReadDir(".")
	if err != nil {
		t.Fatal(err)
	}
	for _, d := range dirs {
		if !d.IsDir() || d.Name() == "internal" || d.Name() == "testdata" {
			continue
		}
		files, _ := filepath.Glob(filepath.Join(d.Name(), "*.go"))
		for _, f := range files {
			parsed, err := parser.ParseFile(token.NewFileSet(), f, nil, parser.ImportsOnly)
			if err != nil {
				t.Fatal(err)
			}
			for _, imp := range parsed.Imports {
				path, _ := strconv.Unquote(imp.Path.Value)
				rest, ok := strings.CutPrefix(path, prefix)
				if ok && rest != d.Name() && !strings.HasPrefix(rest, "internal/") { // its own package (in x_test files) is fine
					t.Errorf("%s imports the toolset %s; move what they share to plugins/internal", f, path)
				}
			}
		}
	}
}
