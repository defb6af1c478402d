package sdktest_test

import (
	"context"
	"fmt"
	"strings"
	"testing"
	"testing/fstest"

	"github.com/godot-mcp/godot-mcp/sdk"
	"github.com/godot-mcp/godot-mcp/sdk/sdktest"
)

// recorder is a testing.TB that records Errorf instead of failing.
type recorder struct {
	testing.TB
	errs []string
}

func (r *recorder) Helper() {}
func (r *recorder) Errorf(format string, args ...any) {
	r.errs = append(r.errs, fmt.Sprintf(format, args...))
}

var toyTable = []sdktest.EditorCommand{
	{Name: "cmd_toy_rename", Class: sdk.Mutating, DryRun: true},
	{Name: "cmd_toy_list", Class: sdk.ReadOnly},
}

const toyHandlersGD = `@tool
extends RefCounted

const Util = preload("util.gd")
const Router = preload("res://addons/godot_mcp/command_router.gd")

func get_commands() -> Dictionary:
	return {
		"cmd_toy_rename": {
			"run": _rename,
			"dry_run": true,  # previews
			"class": "mutating",
		},
		"cmd_toy_list": {"class": "read_only", "run": _list},
	}
`

func toyWith(files map[string]string) sdk.Toolset {
	fsys := fstest.MapFS{}
	for name, src := range files {
		fsys[name] = &fstest.MapFile{Data: []byte(src)}
	}
	ts := toy()
	ts.EditorCode = fsys
	return ts
}

func checkProblems(t *testing.T, ts sdk.Toolset, shipped ...string) []string {
	t.Helper()
	r := &recorder{TB: t}
	sdktest.CheckEditorCode(r, ts, toyTable, shipped...)
	return r.errs
}

// Declarations over several lines, keys in any order, pass; so do preloads
// of shipped files and of the core addon's API.
func TestCheckEditorCodeAcceptsWhatTheAddonReads(t *testing.T) {
	ts := toyWith(map[string]string{"handlers.gd": toyHandlersGD, "util.gd": "extends RefCounted\n"})
	if errs := checkProblems(t, ts, "util.gd"); len(errs) != 0 {
		t.Fatalf("problems with matching editor code: %q", errs)
	}
}

func TestCheckEditorCodeNamesEachMismatch(t *testing.T) {
	for _, tc := range []struct {
		name     string
		handlers string
		shipped  []string
		want     []string
	}{
		{"wrong class", strings.Replace(toyHandlersGD, `"class": "mutating"`, `"class": "read_only"`, 1), nil,
			[]string{"declares cmd_toy_rename as read_only (dry_run true); the tools send it as mutating (dry_run true)"}},
		{"dry_run missing", strings.Replace(toyHandlersGD, `"dry_run": true,`, ``, 1), nil,
			[]string{"declares cmd_toy_rename as mutating (dry_run false); the tools send it as mutating (dry_run true)"}},
		{"command missing", strings.Replace(toyHandlersGD, `"cmd_toy_list": {"class": "read_only", "run": _list},`, ``, 1), nil,
			[]string{"does not declare cmd_toy_list"}},
		{"command the tools do not send", strings.Replace(toyHandlersGD, `"cmd_toy_list":`, `"cmd_toy_list": {"class": "read_only", "run": _list}, "cmd_toy_extra":`, 1), nil,
			[]string{"declares cmd_toy_extra, which the tools do not send"}},
		{"declared twice", strings.Replace(toyHandlersGD, `"cmd_toy_list":`, `"cmd_toy_list": {"class": "read_only", "run": _list}, "cmd_toy_list":`, 1), nil,
			[]string{"cmd_toy_list is declared twice"}},
		{"file not shipped", toyHandlersGD, []string{"edit.gd"}, []string{"edit.gd is not shipped"}},
		{"preload not shipped", strings.Replace(toyHandlersGD, `preload("util.gd")`, `preload("utils.gd")`, 1), nil,
			[]string{"handlers.gd preloads utils.gd, which is not shipped"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			errs := checkProblems(t, toyWith(map[string]string{"handlers.gd": tc.handlers, "util.gd": "extends RefCounted\n"}), tc.shipped...)
			all := strings.Join(errs, "\n")
			for _, w := range tc.want {
				if !strings.Contains(all, w) {
					t.Errorf("problems %q\nwant one saying %q", errs, w)
				}
			}
			if len(errs) != len(tc.want) {
				t.Errorf("problems %q, want %d", errs, len(tc.want))
			}
		})
	}
	if errs := checkProblems(t, toy()); len(errs) != 1 || !strings.Contains(errs[0], "no EditorCode") {
		t.Errorf("a toolset without editor code: %q", errs)
	}
}

// Declares makes the fake editor declare the Go side's table, over what the
// editor code declares; without it the editor code's declarations hold (and
// the host's gate refuses a mutating tool's command declared destructive).
func TestDeclaresOverridesTheEditorCode(t *testing.T) {
	ts := toyWith(map[string]string{"handlers.gd": strings.Replace(toyHandlersGD, `"class": "mutating"`, `"class": "destructive"`, 1), "util.gd": ""})
	args := map[string]string{"node": "/root/A", "name": "B"}
	h := sdktest.StartWith(t, ts, toyTable)
	h.Addon().HandleResult("cmd_toy_rename", map[string]string{"path": "/root/B"})
	if res := h.MustCall(t, "rename", args); res.Err != nil {
		t.Fatalf("with the table declared: %v", res.Err)
	}
	h = sdktest.Start(t, ts)
	h.Addon().HandleResult("cmd_toy_rename", map[string]string{"path": "/root/B"})
	res, err := h.Call(context.Background(), "rename", args)
	if err != nil {
		t.Fatal(err)
	}
	if res.Err == nil || !strings.Contains(res.Err.Hint, "destructive") {
		t.Fatalf("with the editor code's declaration (destructive): %v, want the gate's refusal", res.Err)
	}
}
