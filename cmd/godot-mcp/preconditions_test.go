package main

import (
	"go/ast"
	"go/parser"
	"go/token"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/godot-mcp/godot-mcp/sdk"
	"github.com/godot-mcp/godot-mcp/sdk/contract"
)

// The SDK cannot import host/, so it keeps its own list of the precondition
// names a tool may declare. It must be the host's: every Require* name of
// the envelope except those only the host reports.
func TestSDKPreconditionNamesAreTheHosts(t *testing.T) {
	// Names a tool answers but does not declare.
	hostOnly := []string{contract.RequireToolsetEnabled, contract.RequireCommandClass, contract.RequirePluginTrusted, contract.RequireExportTemplates}
	f, err := parser.ParseFile(token.NewFileSet(), "../../host/envelope/envelope.go", nil, 0)
	if err != nil {
		t.Fatal(err)
	}
	var host []string
	ast.Inspect(f, func(n ast.Node) bool {
		vs, ok := n.(*ast.ValueSpec)
		if !ok {
			return true
		}
		for i, name := range vs.Names {
			if !strings.HasPrefix(name.Name, "Require") || i >= len(vs.Values) {
				continue
			}
			lit, ok := vs.Values[i].(*ast.BasicLit)
			if !ok {
				t.Fatalf("envelope.%s is not a string literal", name.Name)
			}
			v, err := strconv.Unquote(lit.Value)
			if err != nil {
				t.Fatal(err)
			}
			if !slices.Contains(hostOnly, v) {
				host = append(host, v)
			}
		}
		return true
	})
	if len(host) == 0 {
		t.Fatal("found no Require* constants in host/envelope/envelope.go")
	}
	got := sdk.PreconditionNames()
	slices.Sort(host)
	slices.Sort(got)
	if !slices.Equal(got, host) {
		t.Errorf("sdk.PreconditionNames() = %v, the host's declarable names are %v (update sdk/errors.go, or hostOnly here)", got, host)
	}
	declarable := append([]string(nil), contract.Preconditions...)
	slices.Sort(declarable)
	if !slices.Equal(declarable, host) {
		t.Errorf("safety.Preconditions (what the host serves) = %v, the host's declarable names are %v", declarable, host)
	}
	for _, n := range []string{contract.RequireActiveScene, contract.RequireBridgeConnected, contract.RequireProjectDir} {
		if !slices.Contains(got, n) {
			t.Errorf("sdk lacks %q", n)
		}
	}
}
