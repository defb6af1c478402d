// Command e2erun runs the real-editor e2e suite (./e2e) once per Godot
// engine found (internal/testing/godotengines: GODOT_BINS, GODOT_BIN, the
// engine cache, PATH), each run with GODOT_BIN set to that engine, and
// passes `go test`'s output through. With -json it runs `go test -json`, and
// tells tools/testsummary about every engine it could not use with one
// package-level output event ("e2e: engine skipped: why"), so `make test`'s
// last line names every engine that ran and every one that was skipped.
// With no usable engine it runs the suite once, which skips saying why.
// With -list it only prints each usable engine (tools/gdcheck-engines.sh),
// with -first the first one's path (the GODOT_BIN `make test` gives the
// other packages' tests that use a Godot binary).
//
//	go run ./tools/e2erun -json | go run ./tools/testsummary
package main

import (
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"os/exec"
	"strings"

	"github.com/godot-mcp/godot-mcp/internal/testing/godotengines"
)

const pkg = "github.com/godot-mcp/godot-mcp/e2e"

func main() {
	asJSON := flag.Bool("json", false, "run go test -json")
	timeout := flag.String("timeout", "40m", "go test -timeout for each engine's run")
	list := flag.Bool("list", false, "only print each usable engine as PATH<tab>LABEL")
	first := flag.Bool("first", false, "only print the first usable engine's path (GODOT_BIN of the other packages' tests)")
	flag.Parse()

	all := godotengines.Find()
	usable, why := godotengines.Usable(all)
	if *first {
		if len(usable) > 0 {
			fmt.Println(usable[0].Path)
		}
		return
	}
	if *list {
		for _, e := range usable {
			fmt.Printf("%s\t%s\n", e.Path, e.Label())
		}
		return
	}
	for _, e := range all {
		if e.Skip != "" && len(usable) > 0 {
			note(*asJSON, "e2e: engine skipped: "+e.Skip)
		}
	}
	// No -race: the suite's own code is a test harness driving separate
	// processes (the host binary it builds, Godot); the race detector would
	// only slow each engine's run on a 2-core machine. The host's code runs
	// under -race in the other packages' tests.
	args := []string{"test", "-count=1", "-timeout", *timeout}
	if *asJSON {
		args = append(args, "-json")
	} else {
		args = append(args, "-v")
	}
	args = append(args, flag.Args()...)
	args = append(args, "./e2e/")
	failed := false
	if len(usable) == 0 {
		// The suite itself says why it skips (and how many tests it has).
		failed = run(args, withoutEngines(os.Environ()), "GODOT_MCP_E2E_NO_ENGINE="+why) != nil
	}
	for _, e := range usable {
		env := append(withoutEngines(os.Environ()), "GODOT_BIN="+e.Path)
		if err := run(args, env); err != nil {
			failed = true
		}
	}
	if failed {
		os.Exit(1)
	}
}

func run(args, env []string, extra ...string) error {
	cmd := exec.Command("go", args...)
	cmd.Env = append(env, extra...)
	cmd.Stdout, cmd.Stderr = os.Stdout, os.Stderr
	return cmd.Run()
}

// withoutEngines drops the engine lists: each run names exactly one.
func withoutEngines(env []string) []string {
	var out []string
	for _, kv := range env {
		if strings.HasPrefix(kv, "GODOT_BINS=") || strings.HasPrefix(kv, "GODOT_BIN=") {
			continue
		}
		out = append(out, kv)
	}
	return out
}

// note prints a line as go test would print package output.
func note(asJSON bool, line string) {
	if !asJSON {
		fmt.Fprintln(os.Stderr, line)
		return
	}
	b, _ := json.Marshal(map[string]string{"Action": "output", "Package": pkg, "Output": line + "\n"})
	fmt.Println(string(b))
}
