//go:build unix

package tests_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/godot-mcp/godot-mcp/plugins/tests"
	"github.com/godot-mcp/godot-mcp/sdk"
	"github.com/godot-mcp/godot-mcp/sdk/sdktest"
)

func walkArgs() map[string]any {
	return map[string]any{
		"path":   "res://test/test_walk.gd",
		"scene":  "res://walker.tscn",
		"count":  60,
		"inputs": []any{map[string]any{"at": 10, "type": "action", "action": "ui_right", "state": "press"}},
		"checks": []any{map[string]any{"at": 40, "expr": "position.x > 50.0", "message": "walks"}},
		"run":    false,
	}
}

// A dry run answers the script and writes nothing; a real one writes the
// same script, for the framework the project has; a second one without
// overwrite is refused and keeps the file.
func TestWritePlaytestWritesTheScript(t *testing.T) {
	dir := project(t, map[string]string{"addons/gdUnit4/plugin.cfg": gdunitCfg, "walker.tscn": "[gd_scene format=3]\n\n[node name=\"W\" type=\"Node2D\"]\n"})
	h := sdktest.Start(t, tests.Toolset())
	var dry struct {
		Written   bool
		Source    string
		Framework string
		Test      string
	}
	if err := call(t, h, "write_playtest", walkArgs(), sdktest.DryRun()).Decode(&dry); err != nil {
		t.Fatal(err)
	}
	file := filepath.Join(dir, "test", "test_walk.gd")
	if _, err := os.Stat(file); err == nil || dry.Written || dry.Framework != "gdunit4" || dry.Test != "test_walk" {
		t.Fatalf("dry run wrote %v: %+v", err, dry)
	}
	for _, want := range []string{"extends GdUnitTestSuite", "func test_walk() -> void:", "const COUNT := 60", `{"at":40,"expr":"position.x > 50.0","message":"walks"}`, "assert_bool(ok)"} {
		if !strings.Contains(dry.Source, want) {
			t.Errorf("the script lacks %q:\n%s", want, dry.Source)
		}
	}
	var out struct{ Written, Overwrote bool }
	call(t, h, "write_playtest", walkArgs()).Decode(&out)
	got, err := os.ReadFile(file)
	if err != nil || !out.Written || out.Overwrote || string(got) != dry.Source {
		t.Fatalf("written %+v (%v):\n%s", out, err, got)
	}
	res := call(t, h, "write_playtest", walkArgs())
	if res.Err == nil || res.Err.Code != sdk.CodePreconditionFailed || !strings.Contains(res.Err.Hint, "overwrite") {
		t.Fatalf("a second write without overwrite: %+v", res.Err)
	}
}

// Bad input is refused before anything is written, saying what is wrong;
// a link the project holds is never written through.
func TestWritePlaytestRefusals(t *testing.T) {
	dir := project(t, map[string]string{"addons/gut/plugin.cfg": gutCfg, "walker.tscn": "[gd_scene format=3]\n\n[node name=\"W\" type=\"Node2D\"]\n"})
	outside := filepath.Join(t.TempDir(), "outside.gd")
	os.WriteFile(outside, []byte("keep"), 0o644)
	os.Symlink(outside, filepath.Join(dir, "linked.gd"))
	h := sdktest.Start(t, tests.Toolset())
	for _, c := range []struct {
		change map[string]any
		code   sdk.ErrorCode
		hint   string
	}{
		{map[string]any{"path": "res://test/walk.txt"}, sdk.CodeValidationError, "ending in .gd"},
		{map[string]any{"path": "res://addons/x/test_a.gd"}, sdk.CodeValidationError, "res://addons"},
		{map[string]any{"scene": "res://nowhere.tscn"}, sdk.CodeResourceNotFound, "does not exist"},
		{map[string]any{"count": 20}, sdk.CodeValidationError, "after the window of 20"},
		{map[string]any{"inputs": []any{map[string]any{"at": 70, "type": "action", "action": "x"}}}, sdk.CodeValidationError, "not inside the window"},
		{map[string]any{"inputs": []any{map[string]any{"at": 1, "type": "action"}}}, sdk.CodeValidationError, "needs action"},
		{map[string]any{"checks": []any{map[string]any{"at": 1, "expr": "a\nb"}}}, sdk.CodeValidationError, "one line"},
		{map[string]any{"path": "res://linked.gd", "overwrite": true}, sdk.CodeValidationError, "symbolic link"},
	} {
		args := walkArgs()
		for k, v := range c.change {
			args[k] = v
		}
		var opts []sdktest.CallOption
		if args["overwrite"] == true {
			opts = append(opts, sdktest.Confirm())
		}
		res := call(t, h, "write_playtest", args, opts...)
		if res.Err == nil || res.Err.Code != c.code || !strings.Contains(res.Err.Hint, c.hint) {
			t.Errorf("%v: want %s with %q, got %+v", c.change, c.code, c.hint, res.Err)
		}
	}
	if b, _ := os.ReadFile(outside); string(b) != "keep" {
		t.Fatalf("the file behind the link was written: %q", b)
	}
}
