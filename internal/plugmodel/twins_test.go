package plugmodel_test

import (
	"go/ast"
	"go/parser"
	"go/token"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// plumbing holds the packages that handle plugin shapes: none of them
// declares a struct of its own by a model type's name.
var plumbing = []string{
	"host/pluginhost", "host/toolsets", "host/mcpserver",
	"sdk/internal/sdkhook", "internal/pluginrpc",
}

// public holds the packages whose exported types are the SDK's public
// contract: they may keep their own shapes, but only those listed in
// publicShapes may have the very fields of a model type.
var public = []string{"sdk", "sdk/sdktest"}

// publicShapes are the public types whose fields are a model type's, and
// why each stays a type of its own rather than an alias.
var publicShapes = map[string]string{
	"sdk.PromptMessage":    "its Content is the SDK's opaque sdk.Content, built with TextContent & co.",
	"sdk/sdktest.Result":   "it has a Decode method",
	"sdk/sdktest.ToolInfo": "its Safety is an sdk.Safety, for test authors to compare with sdk.ReadOnly & co.",
}

// structs lists the struct types declared (not aliased) in dir's non-test
// files, by name, with their sorted field names.
func structs(t *testing.T, dir string) map[string][]string {
	t.Helper()
	out := map[string][]string{}
	files, err := filepath.Glob(filepath.Join("..", "..", dir, "*.go"))
	if err != nil || len(files) == 0 {
		t.Fatalf("no Go files in %s (%v)", dir, err)
	}
	fset := token.NewFileSet()
	for _, f := range files {
		if strings.HasSuffix(f, "_test.go") {
			continue
		}
		file, err := parser.ParseFile(fset, f, nil, 0)
		if err != nil {
			t.Fatal(err)
		}
		ast.Inspect(file, func(n ast.Node) bool {
			spec, ok := n.(*ast.TypeSpec)
			if !ok || spec.Assign.IsValid() {
				return true
			}
			st, ok := spec.Type.(*ast.StructType)
			if !ok {
				return true
			}
			var fields []string
			for _, fl := range st.Fields.List {
				if len(fl.Names) == 0 { // embedded: named by its type
					fields = append(fields, strings.TrimPrefix(types(fl.Type), "*"))
				}
				for _, name := range fl.Names {
					fields = append(fields, strings.ToLower(name.Name))
				}
			}
			slices.Sort(fields)
			out[spec.Name.Name] = fields
			return true
		})
	}
	return out
}

func types(e ast.Expr) string {
	switch x := e.(type) {
	case *ast.Ident:
		return x.Name
	case *ast.StarExpr:
		return "*" + types(x.X)
	case *ast.SelectorExpr:
		return types(x.X) + "." + x.Sel.Name
	}
	return "?"
}

// Each plugin-model shape (a tool's description, a call, a result, a
// content item, a resource, a prompt …) is declared once, in plugmodel:
// no plumbing package declares a struct by a model type's name, and no
// package at all declares a struct with the very fields of a model type
// (a twin under another name) unless it is public API listed above.
func TestModelTypesAreDeclaredOnce(t *testing.T) {
	model := structs(t, "internal/plugmodel")
	for name, fields := range model {
		if !ast.IsExported(name) || len(fields) < 2 {
			delete(model, name) // a context key, not a shape
		}
	}
	if len(model) < 10 {
		t.Fatalf("found only %d model structs: %v", len(model), model)
	}
	for _, dir := range append(slices.Clone(plumbing), public...) {
		isPlumbing := slices.Contains(plumbing, dir)
		for name, fields := range structs(t, dir) {
			if _, same := model[name]; same && isPlumbing {
				t.Errorf("%s declares its own %s; use (or alias) plugmodel.%s", dir, name, name)
				continue
			}
			for mname, mfields := range model {
				if !slices.Equal(fields, mfields) {
					continue
				}
				if _, ok := publicShapes[dir+"."+name]; ok {
					continue
				}
				t.Errorf("%s.%s has the fields of plugmodel.%s (%s): a twin; use (or alias) the model type", dir, name, mname, strings.Join(fields, ", "))
			}
		}
	}
}
