package archtest

import (
	"bufio"
	"bytes"
	"os/exec"
	"strings"
	"testing"
)

const mod = "github.com/godot-mcp/godot-mcp/"

// deps lists, for every package the patterns match, the packages it
// imports directly or indirectly (its build, not its tests), as go list
// reports them.
func deps(t *testing.T, patterns ...string) map[string][]string {
	t.Helper()
	args := append([]string{"list", "-f", `{{.ImportPath}}{{range .Deps}} {{.}}{{end}}`}, patterns...)
	cmd := exec.Command("go", args...)
	cmd.Dir = "../.."
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("go list: %v\n%s", err, stderr.String())
	}
	m := map[string][]string{}
	sc := bufio.NewScanner(bytes.NewReader(out))
	sc.Buffer(nil, 1<<22)
	for sc.Scan() {
		f := strings.Fields(sc.Text())
		if len(f) > 0 {
			m[f[0]] = f[1:]
		}
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	return m
}

// exempt are the packages under sdk/ and internal/ that may reach host/,
// and why: they are test harnesses that run the real host (or speak its
// editor frames) so that a test goes through what production runs. No
// production code imports them (TestProductionDoesNotImportFixtures in
// internal/testing/hosttest); a plugin built with the SDK links none of them.
var exempt = map[string]string{
	"internal/testing/": "test fixtures and hosttest, which runs the host binary and its bridge for tests",
	"sdk/sdktest":       "sdktest runs the real host in-process (bridge, safety gate, MCP server) around a toolset under test; its fake editor (sdktest/fakeaddon) speaks the host's editor frames (host/envelope)",
}

func isExempt(pkg string) bool {
	rel := strings.TrimPrefix(pkg, mod)
	for prefix := range exempt {
		if rel == strings.TrimSuffix(prefix, "/") || strings.HasPrefix(rel, strings.TrimSuffix(prefix, "/")+"/") {
			return true
		}
	}
	return false
}

// The SDK and the module's internal libraries stand below the host: none
// of them imports anything under host/, directly or through another
// package. The contract's words they share with the host live in
// sdk/contract.
func TestSDKAndInternalDoNotImportHost(t *testing.T) {
	checked := 0
	for pkg, ds := range deps(t, "./sdk/...", "./internal/...") {
		if isExempt(pkg) {
			continue
		}
		checked++
		for _, d := range ds {
			if strings.HasPrefix(d, mod+"host/") {
				t.Errorf("%s reaches %s: the SDK and internal/ may not import host/, directly or through another package (move the shared word to sdk/contract)", strings.TrimPrefix(pkg, mod), strings.TrimPrefix(d, mod))
			}
		}
	}
	for _, must := range []string{"sdk", "sdk/contract", "internal/plugmodel", "internal/pluginrpc"} {
		if _, ok := deps(t, "./"+must)[mod+must]; !ok {
			t.Errorf("go list did not report %s", must)
		}
	}
	if checked < 10 {
		t.Fatalf("checked only %d packages", checked)
	}
}

// sdk/contract is a leaf: it imports nothing of this module, so anything
// (host, SDK, plugin RPC, the fake editor, a third-party toolset) can
// import it.
func TestContractIsALeaf(t *testing.T) {
	ds, ok := deps(t, "./sdk/contract")[mod+"sdk/contract"]
	if !ok {
		t.Fatal("go list did not report sdk/contract")
	}
	for _, d := range ds {
		if strings.HasPrefix(d, mod) {
			t.Errorf("sdk/contract imports %s; it must import nothing of the module", strings.TrimPrefix(d, mod))
		}
	}
}
