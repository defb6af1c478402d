package plugins

import (
	"go/parser"
	"go/token"
	"io/fs"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

// Toolsets do not import each other: what they share lives in
// plugins/internal, which imports no toolset either. Every Go file under a
// toolset's directory counts (its subpackages, its tests), so a toolset
// added under plugins/ is covered without being listed.
func TestToolsetsDoNotImportEachOther(t *testing.T) {
	const prefix = "github.com/godot-mcp/godot-mcp/plugins/"
	dirs, err := os.ReadDir(".")
	if err != nil {
		t.Fatal(err)
	}
	toolsets := 0
	for _, d := range dirs {
		if !d.IsDir() || d.Name() == "testdata" {
			continue
		}
		own := d.Name()
		if own != "internal" {
			toolsets++
		}
		err := filepath.WalkDir(own, func(path string, e fs.DirEntry, err error) error {
			if err != nil {
				return err
			}
			if e.IsDir() {
				if e.Name() == "testdata" {
					return filepath.SkipDir
				}
				return nil
			}
			if !strings.HasSuffix(path, ".go") {
				return nil
			}
			parsed, err := parser.ParseFile(token.NewFileSet(), path, nil, parser.ImportsOnly)
			if err != nil {
				return err
			}
			for _, imp := range parsed.Imports {
				p, _ := strconv.Unquote(imp.Path.Value)
				rest, ok := strings.CutPrefix(p, prefix)
				if !ok {
					continue
				}
				top, _, _ := strings.Cut(rest, "/")
				switch {
				case top == own: // itself, its subpackages, its x_test files
				case top == "internal" && own != "internal":
				case own == "internal":
					t.Errorf("%s (shared helpers) imports the toolset %s; shared code must not depend on a toolset", path, p)
				default:
					t.Errorf("%s imports the toolset %s; move what they share to plugins/internal", path, p)
				}
			}
			return nil
		})
		if err != nil {
			t.Fatal(err)
		}
	}
	if toolsets < 5 {
		t.Fatalf("found %d toolsets under plugins/", toolsets)
	}
}
