//go:build unix

package godotproc

import (
	"context"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

func TestErrorParserReadsBlocksAndDebuggerBreaks(t *testing.T) {
	var p ErrorParser
	for _, l := range []string{
		"SCRIPT ERROR: Parse Error: Expected closing \")\".",
		"          at: GDScript::reload (res://broken.gd:5)",
		"hello",
		"USER ERROR: boom",
		"   at: push_error (core/variant/variant_utility.cpp:1098)",
		"   GDScript backtrace (most recent call first):",
		"       [0] explode (res://main.gd:30)",
		"       [1] _ready (res://main.gd:5)",
		"",
		"Debugger Break, Reason: 'Cannot call method 'x' on a null value.'",
		"*Frame 0 - res://test/t.gd:12 in function 'test_crash'",
		"Enter \"help\" for assistance.",
		"debug> WARNING: careful",
		// Godot 4.5+ adds the loading script's backtrace to a parse error:
		// the error is still in the file that does not parse.
		"SCRIPT ERROR: Parse Error: Expected closing \")\" after call arguments.",
		"          at: GDScript::reload (res://broken2.gd:4)",
		"          GDScript backtrace (most recent call first):",
		"              [0] _initialize (/tmp/checker.gd:3)",
	} {
		p.Feed(l)
	}
	p.Feed("")
	got := p.Take()
	if len(got) != 4 {
		t.Fatalf("%+v", got)
	}
	if got[3].File != "res://broken2.gd" || got[3].Line != 4 || len(got[3].Stack) != 1 {
		t.Fatalf("parse error with a backtrace (Godot 4.5+): %+v", got[3])
	}
	if got[0].File != "res://broken.gd" || got[0].Line != 5 || got[0].Severity != "error" {
		t.Fatalf("parse error: %+v", got[0])
	}
	if got[1].File != "res://main.gd" || got[1].Line != 30 || got[1].Function != "explode" || len(got[1].Stack) != 2 {
		t.Fatalf("backtrace: %+v", got[1])
	}
	if got[2].File != "res://test/t.gd" || got[2].Line != 12 || got[2].Message != "Cannot call method 'x' on a null value." {
		t.Fatalf("debugger break: %+v", got[2])
	}
	if again := p.Take(); len(again) != 0 {
		t.Fatalf("Take returned old errors again: %+v", again)
	}
}

func TestContinueAnswersTheDebuggerPrompt(t *testing.T) {
	buf := make([]byte, 7)
	n, err := io.ReadFull(Continue(), buf)
	if err != nil || n != 7 || string(buf) != "c\nc\nc\nc" {
		t.Fatalf("%q %v", buf[:n], err)
	}
}

// Run hands over lines as they come, strips colour codes, and kills the
// process group at the time limit.
func TestRunLinesAndTimeLimit(t *testing.T) {
	dir := t.TempDir()
	bin := filepath.Join(dir, "godot")
	os.WriteFile(bin, []byte("#!/bin/sh\nprintf '\\033[31mred\\033[0m\\nSCRIPT ERROR: x\\n   at: f (res://a.gd:2)\\n'\nsleep 30 &\nwait\n"), 0o755)
	var lines []string
	start := time.Now()
	res, err := Run(context.Background(), Options{Godot: bin, Dir: dir, Timeout: 500 * time.Millisecond, OnLine: func(l string) { lines = append(lines, l) }})
	if err != nil {
		t.Fatal(err)
	}
	if !res.TimedOut || res.ExitCode != nil || time.Since(start) > 5*time.Second {
		t.Fatalf("%+v", res)
	}
	if strings.Join(lines, "|") != "red|SCRIPT ERROR: x|   at: f (res://a.gd:2)" || len(res.Errors) != 1 || res.Errors[0].File != "res://a.gd" {
		t.Fatalf("lines %q errors %+v", lines, res.Errors)
	}
}
